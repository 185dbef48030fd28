// Two players on two pages: the host sets up a star game with an open seat, the page shows an
// invitation link, the second page joins through it, and the two play moves between them,
// each seeing the other's moves live with the own seat at the bottom.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import type { Page } from "playwright-core";

import { launch, requireOrSkip, startService, type Running } from "./harness.js";
import {
  createGame,
  forwardMove,
  legalMoves,
  playByClicking,
  recordLines,
  waitForTurnOrEnd,
} from "./person.js";

const options = requireOrSkip();
let service: Running | undefined;
let closers: (() => Promise<void>)[] = [];
let ada: Page;
let bo: Page;

before(async () => {
  if (options.skip !== false) {
    return;
  }
  service = await startService();
  // Two browsers with profiles of their own: two people on two machines.
  const first = await launch();
  const second = await launch({ width: 390, height: 844 });
  closers = [first.close, second.close];
  ada = await first.browser.newPage();
  bo = await second.browser.newPage();
});

after(async () => {
  for (const close of closers) {
    await close();
  }
  await service?.stop();
});

test("two players joined through an invitation link play each other", options, async () => {
  const api = service?.baseUrl ?? "";
  const errors: string[] = [];
  ada.on("pageerror", (error) => errors.push(`Ada: ${error.message}`));
  bo.on("pageerror", (error) => errors.push(`Bo: ${error.message}`));

  await ada.goto(`${api}/play`);
  const gameId = await createGame(ada, {
    board: "star",
    players: 2,
    seats: [{ kind: "here", name: "Ada" }, { kind: "open" }],
  });
  await ada.getByText("Waiting for players: seat 1 open.").waitFor();
  const link = await ada.getByLabel("Invitation link for seat 1").inputValue();
  assert.match(link, new RegExp(`/play/#join=${gameId}\\.1\\.[A-Za-z0-9_-]+$`));

  await bo.goto(link);
  await bo.getByLabel("Your name").fill("Bo");
  await bo.getByRole("button", { name: "Join the game" }).click();
  await bo.locator("svg.board").waitFor();
  // The code is not kept in Bo's address once used.
  assert.equal(new URL(bo.url()).hash, `#game=${gameId}`);

  // Ada's page hears of the join through the stream and starts.
  assert.equal(await waitForTurnOrEnd(ada), "turn");
  await bo.locator(".seat", { hasText: "Ada" }).waitFor();
  await bo.getByText("Ada to move.").waitFor();

  // Each sees the own pieces at the bottom.
  for (const page of [ada, bo]) {
    const mine = await page
      .locator(`.piece[data-army="${page === ada ? 0 : 1}"]`)
      .first()
      .boundingBox();
    const theirs = await page
      .locator(`.piece[data-army="${page === ada ? 1 : 0}"]`)
      .first()
      .boundingBox();
    assert.ok(
      mine !== null && theirs !== null && mine.y > theirs.y,
      "the own home is not at the bottom",
    );
  }

  // Three moves each, turn by turn.
  for (let ply = 1; ply <= 6; ply += 1) {
    const [mover, watcher] = ply % 2 === 1 ? [ada, bo] : [bo, ada];
    assert.equal(await waitForTurnOrEnd(mover), "turn");
    assert.equal(await watcher.locator(".cell.movable").count(), 0, "both may move at once");
    const move = await forwardMove(mover, await legalMoves(api, gameId));
    await playByClicking(mover, move);
    const line = `${ply % 2 === 1 ? "Ada" : "Bo"}: ${move.path.join("-")}`;
    await watcher.locator(`ol.record li[data-ply="${ply}"]`, { hasText: line }).waitFor();
    await mover.locator(`ol.record li[data-ply="${ply}"]`, { hasText: line }).waitFor();
  }
  assert.deepEqual(await recordLines(ada), await recordLines(bo));
  assert.equal((await recordLines(ada)).length, 6);
  assert.deepEqual(errors, []);
});
