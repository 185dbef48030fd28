// A game against the service's AI, played to the end: seat 0 plays the moves the AI suggests at
// level 1, seat 1 is an AI seat at level 3. The README shows this file; the integration test
// runs it.
//
//   npm run build:test && node build/examples/against-the-ai.js http://127.0.0.1:8080

import { pathToFileURL } from "node:url";

import { GameSession, createHalmaClient, isProblem, type types } from "../src/index.js";

/** Plays one game on `board` at the service at `baseUrl`; resolves to its result. */
export async function playAgainstTheAi(
  baseUrl: string,
  board: types.BoardName = "square8",
): Promise<types.GameResult> {
  const client = createHalmaClient({ baseUrl });
  const { session } = await GameSession.create(client, {
    board,
    players: 2,
    first_seat: 0,
    seats: [{ name: "Ada" }, { kind: "ai", level: 3 }],
    ai_time_ms: 20,
  });
  while (!session.finished) {
    const suggestion = await session.suggestion({ level: 1, time_ms: 20 });
    try {
      // Our move and the AI's reply, in one answer.
      await session.playPath(suggestion.path);
    } catch (error) {
      // Someone else moved with this game's tokens: look again, then decide again.
      if (!isProblem(error, "version_mismatch")) throw error;
      await session.refresh();
    }
  }
  const { result } = session.game;
  if (result == null) throw new Error("a finished game without a result");
  return result;
}

const [, script, baseUrl] = process.argv;
if (script !== undefined && import.meta.url === pathToFileURL(script).href) {
  const result = await playAgainstTheAi(baseUrl ?? "http://127.0.0.1:8080");
  console.log(JSON.stringify(result));
}
