// The page served from another origin than the API (a static host on another port, the
// address given as `?api=`): every request is cross-origin, so CORS is exercised for real,
// and a move is played with the keyboard alone (arrow keys and Enter).

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import type { Page } from "playwright-core";

import { launch, requireOrSkip, startService, startStaticHost, type Running } from "./harness.js";
import { createGame, legalMoves, recordLines, waitForTurnOrEnd } from "./person.js";

const options = requireOrSkip();
let service: Running | undefined;
let host: Running | undefined;
let close: (() => Promise<void>) | undefined;
let page: Page;

before(async () => {
  if (options.skip !== false) {
    return;
  }
  service = await startService();
  host = await startStaticHost();
  const launched = await launch();
  close = launched.close;
  page = await launched.browser.newPage();
});

after(async () => {
  await close?.();
  await host?.stop();
  await service?.stop();
});

test("the page on another origin plays on the API's, by keyboard", options, async () => {
  const api = service?.baseUrl ?? "";
  const pageOrigin = host?.baseUrl ?? "";
  assert.notEqual(new URL(api).origin, new URL(pageOrigin).origin);
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  const origins = new Set<string>();
  page.on("request", (request) => {
    if (request.url().includes("/v1/")) {
      origins.add(new URL(request.url()).origin);
    }
  });
  const preflights: string[] = [];
  page.on("response", (response) => {
    const allowed = response.headers()["access-control-allow-origin"];
    if (response.url().includes("/v1/") && allowed !== undefined) {
      preflights.push(allowed);
    }
  });

  await page.goto(`${pageOrigin}/play/?api=${encodeURIComponent(api)}`);
  const gameId = await createGame(page, {
    board: "square8",
    players: 2,
    seats: [
      { kind: "here", name: "Kay" },
      { kind: "ai", level: 1 },
    ],
    aiTimeMs: 50,
  });
  assert.equal(await waitForTurnOrEnd(page), "turn");
  assert.deepEqual([...origins], [new URL(api).origin], "every API request goes to the API");
  assert.ok(preflights.length > 0 && preflights.every((o) => o === "*"), `${preflights}`);

  // Tab into the board, then walk with the arrow keys to a piece that can move.
  const move = (await legalMoves(api, gameId))[0];
  assert.ok(move !== undefined);
  await page.locator(".cell[tabindex='0']").focus();
  await walkTo(page, move.from);
  await page.keyboard.press("Enter");
  await page.locator(`.cell.targetable[data-cell="${move.to}"]`).waitFor();
  await walkTo(page, move.to);
  await page.keyboard.press("Enter");
  assert.equal(await page.locator(".chosen-move").textContent(), move.path.join("-"));
  await page.keyboard.press("Enter");
  await page.locator('ol.record li[data-ply="2"]').waitFor({ timeout: 15_000 });
  assert.equal((await recordLines(page))[0], `Kay: ${move.path.join("-")}`);
  // The focused cell is named for screen readers and shows a ring.
  const focused = page.locator(".cell:focus");
  assert.match((await focused.getAttribute("aria-label")) ?? "", new RegExp(`^${move.to}, Kay`));
  assert.deepEqual(errors, []);
});

/** Presses arrow keys until the focused cell is `cell` (the nearest way on the screen). */
async function walkTo(page: Page, cell: string): Promise<void> {
  for (let steps = 0; steps < 40; steps += 1) {
    const here = await page.evaluate(() => document.activeElement?.getAttribute("data-cell"));
    if (here === cell) {
      return;
    }
    const from = await page.locator(`.cell[data-cell="${here}"]`).boundingBox();
    const to = await page.locator(`.cell[data-cell="${cell}"]`).boundingBox();
    assert.ok(from !== null && to !== null);
    const dx = to.x - from.x;
    const dy = to.y - from.y;
    const key =
      Math.abs(dx) > Math.abs(dy)
        ? dx > 0
          ? "ArrowRight"
          : "ArrowLeft"
        : dy > 0
          ? "ArrowDown"
          : "ArrowUp";
    await page.keyboard.press(key);
  }
  assert.fail(`the arrow keys never reached ${cell}`);
}
