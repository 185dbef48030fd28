// The SDK against the real service: the halma-server binary on a free port, in-memory store.

import assert from "node:assert/strict";
import { createServer } from "node:net";
import { after, before, test } from "node:test";

import {
  GameSession,
  ProblemError,
  TransportError,
  createHalmaClient,
  followEvents,
  isProblem,
  type GameEvent,
  type HalmaClient,
  type ProblemCode,
  type types,
} from "../../src/index.js";
import { playAgainstTheAi } from "../../examples/against-the-ai.js";
import { startServer, type RunningServer } from "./server.js";

let server: RunningServer;
let client: HalmaClient;

before(async () => {
  server = await startServer();
  client = createHalmaClient({ baseUrl: server.baseUrl });
});

after(async () => {
  await server.stop();
});

/** A two-player game with a human seat 0 to move first and seat 1 as given. */
function twoPlayers(board: types.BoardName, seat1: types.SeatRequest): types.CreateGameRequest {
  return { board, players: 2, first_seat: 0, seats: [{ name: "Ada" }, seat1], ai_time_ms: 20 };
}

/** The problem `promise` rejects with; fails unless it is one of `code`. */
async function problemOf(promise: Promise<unknown>, code: ProblemCode): Promise<ProblemError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(isProblem(error, code), `expected ${code}, got ${String(error)}`);
    return error;
  }
  assert.fail(`expected ${code}, the request succeeded`);
}

test("a game against the AI: moves, suggestions, the AI's replies and the record", async () => {
  const { session, tokens } = await GameSession.create(
    client,
    twoPlayers("star", { kind: "ai", level: 1 }),
  );
  assert.equal(session.version, 1);
  assert.equal(session.toMove, 0);
  assert.equal(tokens.seats.length, 2);

  const { moves, version } = await session.legalMoves();
  assert.equal(version, 1);
  const first = moves[0];
  assert.ok(first !== undefined, "the opening has legal moves");
  const fromCell = await session.legalMovesFrom(first.from);
  assert.ok(fromCell.moves.every((move) => move.from === first.from));
  assert.ok(fromCell.moves.some((move) => move.to === first.to));

  const played = await session.play(first.from, first.to);
  assert.deepEqual(
    played.map((move) => [move.seat, move.ply]),
    [
      [0, 1],
      [1, 2],
    ],
    "the move, then the AI's reply",
  );
  assert.equal(played[0]?.to, first.to);
  assert.ok(session.version > 1);
  assert.equal(session.version, session.game.version);
  assert.equal(session.game.move_count, 2);
  assert.equal(session.toMove, 0);
  assert.equal(await session.refresh(), false, "nothing changed since the move");

  // A few more moves, each the AI's suggestion played by its path.
  for (let turn = 0; turn < 3; turn += 1) {
    const suggestion = await session.suggestion({ level: 1, time_ms: 20 });
    assert.equal(suggestion.seat, 0);
    assert.equal(suggestion.version, session.version);
    const reply = await session.playPath(suggestion.path);
    assert.equal(reply[0]?.notation, suggestion.notation);
  }
  const record = await session.record();
  assert.equal(record.moves.length, 8);
  assert.equal(record.version, session.version);
});

test("two sessions race on one version: one lands, the other gets 412 naming it", async () => {
  const { session: host, tokens } = await GameSession.create(
    client,
    twoPlayers("square8", { name: "Bo" }),
  );
  const ada = await GameSession.join(client, host.id, tokens.seats[0] ?? "");
  assert.equal(ada.version, host.version);
  const [move] = (await ada.legalMoves()).moves;
  assert.ok(move !== undefined);

  const [mine, theirs] = await Promise.allSettled([
    ada.playNotation(move.notation),
    host.play(move.from, move.to),
  ]);
  const outcomes = [mine, theirs].map((outcome) => outcome.status);
  assert.deepEqual(outcomes.sort(), ["fulfilled", "rejected"]);
  const [winner, loser] = mine.status === "fulfilled" ? [ada, host] : [host, ada];
  const refused =
    mine.status === "rejected"
      ? mine.reason
      : theirs.status === "rejected"
        ? theirs.reason
        : undefined;
  assert.ok(isProblem(refused, "version_mismatch"), String(refused));
  assert.equal(refused.status, 412);
  assert.equal(refused.currentVersion, winner.version);
  assert.equal(loser.version, 1, "the refused session is unchanged");

  assert.equal(await loser.refresh(), true);
  assert.equal(loser.version, winner.version);
  assert.equal(loser.toMove, 1);
  // The host moves for seat 1 now; Ada's session sees it after a refresh.
  const [reply] = (await host.refresh().then(() => host.legalMoves())).moves;
  assert.ok(reply !== undefined);
  await host.play(reply.from, reply.to);
  assert.equal(await ada.refresh(), true);
  assert.equal(ada.version, host.version);
});

test("problems carry their code, reason and status", async () => {
  const { session: host, tokens } = await GameSession.create(
    client,
    twoPlayers("square8", { name: "Bo" }),
  );
  const bo = new GameSession(client, host.game, tokens.seats[1] ?? "");
  const [move] = (await host.legalMoves()).moves;
  assert.ok(move !== undefined);

  const outOfTurn = await problemOf(bo.play(move.from, move.to), "illegal_move");
  assert.equal(outOfTurn.status, 422);
  assert.equal(typeof outOfTurn.reason, "string");
  assert.match(outOfTurn.message, /^422 illegal_move \(\w+\): /);

  const wrongToken = new GameSession(client, host.game, "not-a-token");
  assert.equal((await problemOf(wrongToken.play(move.from, move.to), "invalid_token")).status, 403);
  await problemOf(host.play("zz99", move.to), "bad_notation");
  await problemOf(host.legalMovesFrom("zz99"), "bad_notation");
  const blocked = await problemOf(host.play(move.from, move.from), "illegal_move");
  assert.ok(blocked.reason !== undefined);
  await problemOf(host.aiTurns(), "illegal_move").then((problem) => {
    assert.equal(problem.reason, "not_ai_turn");
  });
  await problemOf(host.suggestion({ level: 11 }), "bad_request");
  await problemOf(GameSession.join(client, "no-such-game", "token"), "game_not_found");
  const setup = await problemOf(
    GameSession.create(client, { board: "square8", players: 3 }),
    "invalid_setup",
  );
  assert.equal(setup.status, 422);
  assert.equal(host.version, 1, "no refused request moved the session");
});

test("AI seats move through aiTurns, with the host token only; a rematch starts over", async () => {
  const ai: types.SeatRequest = { kind: "ai", level: 1 };
  const { session, tokens } = await GameSession.create(client, {
    board: "square8",
    players: 2,
    first_seat: 0,
    seats: [ai, ai],
    ai_time_ms: 20,
  });
  const before = session.version;
  const seat = new GameSession(client, session.game, tokens.seats[0] ?? "");
  await problemOf(seat.aiTurns(), "invalid_token");

  const played = await session.aiTurns();
  assert.ok(played.length > 0);
  assert.ok(session.version > before);
  assert.equal(session.game.move_count, played.at(-1)?.ply);

  const { session: rematch, tokens: fresh } = await session.rematch();
  assert.notEqual(rematch.id, session.id);
  assert.notEqual(fresh.host, tokens.host);
  assert.equal(rematch.version, 1, "a new game");
  assert.ok(rematch.game.move_count > 0, "the AI seats to move first have moved");
  await problemOf(seat.rematch(), "invalid_token");
  await rematch.aiTurns();
  assert.ok(rematch.version > 1);
});

test("waitForChange resolves when another session moves", async () => {
  const { session: host, tokens } = await GameSession.create(
    client,
    twoPlayers("square10", { name: "Bo" }),
  );
  const watcher = await GameSession.join(client, host.id, tokens.seats[1] ?? "");
  const started = Date.now();
  const waiting = watcher.waitForChange(10);
  const [move] = (await host.legalMoves()).moves;
  assert.ok(move !== undefined);
  await host.play(move.from, move.to);
  assert.equal(await waiting, true);
  assert.ok(Date.now() - started < 5_000, "the long poll answered on the change, not at its end");
  assert.equal(watcher.version, host.version);
  assert.equal(watcher.toMove, 1);

  const quiet = Date.now();
  assert.equal(await watcher.waitForChange(1), false);
  assert.ok(Date.now() - quiet >= 800, "the service waited before answering 304");
});

test("a service that does not answer is a TransportError", async () => {
  const port = await closedPort();
  const nowhere = createHalmaClient({ baseUrl: `http://127.0.0.1:${port}` });
  await assert.rejects(
    GameSession.join(nowhere, "g1", "token"),
    (error: unknown) => error instanceof TransportError && error.retryable,
  );
});

/** A port nothing listens on: one the system handed out and that was closed again. */
function closedPort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => {
        if (address !== null && typeof address === "object") {
          resolvePort(address.port);
        } else {
          reject(new Error("no port"));
        }
      });
    });
  });
}

test("the README's example plays a game against the AI to the end", async () => {
  const result = await playAgainstTheAi(server.baseUrl);
  const places = result.ranking.flatMap((place) => place.seats);
  assert.deepEqual([...places].sort(), [0, 1], "both seats are ranked");
});

test("the event stream: the game, each move, whose turn; resumed after a drop", async () => {
  const { session } = await GameSession.create(
    client,
    twoPlayers("star", { kind: "ai", level: 1 }),
  );
  const controller = new AbortController();
  const seen: GameEvent[] = [];
  const reading = (async () => {
    for await (const event of followEvents(client, session.id, { signal: controller.signal })) {
      seen.push(event);
      if (seen.length === 3) {
        controller.abort();
      }
    }
  })();
  // Wait for the first event (the game), then move: our move and the AI's reply follow.
  while (seen.length === 0) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const { moves } = await session.legalMoves();
  const first = moves[0];
  assert.ok(first !== undefined);
  await session.play(first.from, first.to);
  await assert.rejects(reading);
  assert.deepEqual(
    seen.map((e) => [e.id, e.kind]),
    [
      [0, "game"],
      [1, "move"],
      [2, "move"],
    ],
  );
  const reply = seen[2];
  assert.ok(reply?.kind === "move");
  assert.equal(reply.data.move.seat, 1);
  assert.equal(reply.data.to_move, 0);
  assert.equal(reply.data.version, session.version);

  // Resuming after event 1 gives exactly event 2, then live events.
  const resumed = followEvents(client, session.id, { lastEventId: 1 });
  const next = await resumed.next();
  assert.ok(!next.done && next.value.kind === "move" && next.value.id === 2);
  const again = await session.legalMoves();
  const second = again.moves[0];
  assert.ok(second !== undefined);
  await session.play(second.from, second.to);
  const live = await resumed.next();
  assert.ok(!live.done && live.value.id === 3);
  await resumed.return();

  // The session's own helper starts after what it has seen.
  const fromSession = session.events();
  await session.resign(0);
  const resigned = await fromSession.next();
  assert.ok(!resigned.done && resigned.value.kind === "resigned");
  assert.deepEqual(resigned.value.data.seats, [0]);
  const result = await fromSession.next();
  assert.ok(!result.done && result.value.kind === "result");
  assert.ok((await fromSession.next()).done, "the stream ends after the result");

  // An id the game does not have is refused.
  await problemOf(followEvents(client, session.id, { lastEventId: 99 }).next(), "bad_request");
});
