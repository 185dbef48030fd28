// A person plays a 2-player star game against the AI on /play, by clicking, until the game
// ends or 30 moves of theirs: the AI's replies reach the page through the event stream
// (blocking the stream holds them back; letting it through brings them, resumed), the page
// animates them, and one move stops a jump chain at an earlier landing.

import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";

import type { Page } from "playwright-core";

import { ARTIFACTS_DIR, launch, requireOrSkip, startService, type Running } from "./harness.js";
import {
  createGame,
  forwardMove,
  legalMoves,
  playByClicking,
  recordLines,
  waitForTurnOrEnd,
  type Move,
} from "./person.js";

const MY_MOVES = 30;
const options = requireOrSkip();
let service: Running | undefined;
let close: (() => Promise<void>) | undefined;
let page: Page;

before(async () => {
  if (options.skip !== false) {
    return;
  }
  service = await startService();
  const launched = await launch();
  close = launched.close;
  page = await launched.browser.newPage();
  await mkdir(ARTIFACTS_DIR, { recursive: true });
});

after(async () => {
  await close?.();
  await service?.stop();
});

test("a star game against the AI, played by clicking", options, async () => {
  const api = service?.baseUrl ?? "";
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));

  // The stream is held back at first: the AI's first reply must wait for it.
  let blocked = 0;
  await page.route("**/v1/games/*/events", (route) => {
    blocked += 1;
    return route.abort("connectionrefused");
  });
  await page.goto(`${api}/play`);
  assert.equal(new URL(page.url()).pathname, "/play/");
  const gameId = await createGame(page, {
    board: "star",
    players: 2,
    seats: [
      { kind: "here", name: "Ada" },
      { kind: "ai", level: 2 },
    ],
    aiTimeMs: 50,
  });
  assert.equal(await waitForTurnOrEnd(page), "turn");
  await page.screenshot({ path: join(ARTIFACTS_DIR, "against-the-ai-start.png") });
  // The own seat is at the bottom: the own pieces are below the AI's.
  const myY = await page.locator('.piece[data-army="0"]').first().boundingBox();
  const aiY = await page.locator('.piece:not([data-army="0"])').first().boundingBox();
  assert.ok(myY !== null && aiY !== null && myY.y > aiY.y, "the own home is not at the bottom");

  const first = await forwardMove(page, await legalMoves(api, gameId));
  const played = page.waitForResponse(
    (r) => r.url().endsWith(`/v1/games/${gameId}/moves`) && r.request().method() === "POST",
  );
  await playByClicking(page, first);
  assert.equal((await played).status(), 200);
  // The service has answered with the AI's reply too, but the page shows it only from the
  // stream, which is blocked: one move in the record, the AI "thinking".
  await page.waitForTimeout(1_500);
  assert.deepEqual(await recordLines(page), [`Ada: ${first.path.join("-")}`]);
  assert.ok(blocked > 0, "the page never asked for the event stream");
  await page.getByText("Connection lost: reconnecting…").waitFor();

  // Let the stream through: the page reconnects from the last event it showed, and the
  // AI's reply arrives, animated hop by hop.
  await page.evaluate(() => {
    const seen: string[] = [];
    Object.assign(window, { animated: seen });
    new MutationObserver((changes) => {
      for (const { target } of changes) {
        if (target instanceof SVGElement && target.classList.contains("moving")) {
          seen.push(target.getAttribute("data-cell") ?? "");
        }
      }
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ["class"] });
  });
  await page.unroute("**/v1/games/*/events");
  const reply = page.locator('ol.record li[data-ply="2"]');
  await reply.waitFor({ timeout: 15_000 });
  const animated = await page.evaluate(
    () => (window as unknown as { animated: string[] }).animated,
  );
  const replyFrom = ((await reply.textContent()) ?? "").replace(/^.*: /, "").split("-")[0];
  assert.deepEqual(animated, [replyFrom], "the AI's reply was not animated");
  await page.getByText("Live", { exact: true }).waitFor();

  let mine = 1;
  let stoppedEarly = false;
  while (mine < MY_MOVES) {
    if ((await waitForTurnOrEnd(page)) === "over") {
      break;
    }
    if (mine === 6) {
      // Faster from here: no animations (a person who asked for reduced motion).
      await page.emulateMedia({ reducedMotion: "reduce" });
    }
    const moves = await legalMoves(api, gameId);
    const chain: Move | undefined = stoppedEarly ? undefined : await chainWithAStop(page, moves);
    if (chain !== undefined) {
      // Pick the far end, then stop at an earlier landing of the same chain, and play.
      await page.locator(`.cell[data-cell="${chain.from}"]`).click();
      await page.locator(`.cell[data-cell="${chain.to}"]`).click();
      const stop = chain.path[chain.path.length - 2] ?? "";
      await page.locator(`.cell[data-cell="${stop}"]`).click();
      const shortened: string = chain.path.slice(0, -1).join("-");
      assert.equal(await page.locator(".chosen-move").textContent(), shortened);
      await page.getByRole("button", { name: "Play", exact: true }).click();
      await page.locator("ol.record li", { hasText: `Ada: ${shortened}` }).waitFor();
      stoppedEarly = true;
    } else {
      await playByClicking(page, await forwardMove(page, moves));
    }
    mine += 1;
    // The AI's reply to this move comes through the stream.
    await page.locator(`ol.record li[data-ply="${2 * mine}"]`).waitFor({ timeout: 15_000 });
    if (mine === 15) {
      await page.screenshot({ path: join(ARTIFACTS_DIR, "against-the-ai-middle.png") });
    }
  }
  await page.screenshot({ path: join(ARTIFACTS_DIR, "against-the-ai-end.png") });
  const lines = await recordLines(page);
  assert.ok(lines.length >= 2 * mine - 1, `${lines.length} moves shown after ${mine} of mine`);
  assert.ok(stoppedEarly, "no move offered a chain with an earlier landing to stop at");
  // The record alternates: Ada, then the AI.
  for (const [ply, line] of lines.entries()) {
    assert.ok(line.startsWith(ply % 2 === 0 ? "Ada: " : "AI level 2: "), line);
  }
  // What the page shows is what the service stored.
  const record = (await (await fetch(`${api}/v1/games/${gameId}/record`)).json()) as {
    moves: { notation: string }[];
  };
  assert.deepEqual(
    lines,
    record.moves
      .slice(0, lines.length)
      .map((m, i) => `${i % 2 === 0 ? "Ada" : "AI level 2"}: ${m.notation}`),
  );
  assert.deepEqual(errors, []);
});

/**
 * A legal jump chain of two or more hops whose last-but-one landing is a legal target too
 * (the page rings it as a place to stop), if the position has one.
 */
async function chainWithAStop(page: Page, moves: readonly Move[]): Promise<Move | undefined> {
  for (const move of moves) {
    const stop = move.path[move.path.length - 2];
    if (move.path.length >= 3 && moves.some((m) => m.from === move.from && m.to === stop)) {
      await page.locator(".cell.movable").first().waitFor();
      return move;
    }
  }
  return undefined;
}
