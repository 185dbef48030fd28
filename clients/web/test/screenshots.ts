// Writes the README's pictures of the web client (docs/web/*.png): the start, the middle and
// the end of a game against the AI on the star and on 16 x 16, played by clicking until the
// middle, then handed to the AI to finish; and the star game on a phone-sized screen.
//
//     npm run screenshots     (needs target/debug/halma-server and /usr/bin/chromium)

import { mkdir } from "node:fs/promises";
import { resolve } from "node:path";

import { launch, missing, PACKAGE_DIR, startService } from "./browser/harness.js";
import {
  createGame,
  forwardMove,
  legalMoves,
  playByClicking,
  waitForTurnOrEnd,
} from "./browser/person.js";

const OUT = resolve(PACKAGE_DIR, "..", "..", "docs", "web");
const GAMES = [
  { board: "star", name: "star", middle: 14 },
  { board: "square16", name: "square16", middle: 22 },
] as const;

const reason = missing();
if (reason !== undefined) {
  throw new Error(`cannot take the screenshots: ${reason}`);
}
await mkdir(OUT, { recursive: true });
const service = await startService({ HALMA_AI_MAX_MS: "100" });
const { browser, close } = await launch({ width: 1100, height: 760 });
try {
  for (const game of GAMES) {
    const page = await browser.newPage();
    await page.goto(`${service.baseUrl}/play/`);
    const gameId = await createGame(page, {
      board: game.board,
      players: 2,
      seats: [
        { kind: "here", name: "Ada" },
        { kind: "ai", level: 6 },
      ],
      aiTimeMs: 60,
    });
    await waitForTurnOrEnd(page);
    await page.screenshot({ path: resolve(OUT, `${game.name}-start.png`) });
    await page.emulateMedia({ reducedMotion: "reduce" });
    for (let ply = 0; ply < game.middle; ply += 1) {
      await waitForTurnOrEnd(page);
      await playByClicking(
        page,
        await forwardMove(page, await legalMoves(service.baseUrl, gameId)),
      );
      await page.locator(`ol.record li[data-ply="${2 * ply + 2}"]`).waitFor({ timeout: 20_000 });
    }
    await waitForTurnOrEnd(page);
    // Show a chosen jump with its path, as a person sees it before playing.
    const moves = await legalMoves(service.baseUrl, gameId);
    const jump = moves.reduce((a, b) => (b.path.length > a.path.length ? b : a));
    await page.locator(`.cell[data-cell="${jump.from}"]`).click();
    await page.locator(`.cell[data-cell="${jump.to}"]`).click();
    await page.screenshot({ path: resolve(OUT, `${game.name}-middle.png`) });
    if (game.name === "star") {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: resolve(OUT, "star-phone.png"), fullPage: true });
      await page.setViewportSize({ width: 1100, height: 760 });
    }
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.getByLabel("AI level for the handover").selectOption("6");
    await page.getByRole("button", { name: "Hand my seat to the AI" }).click();
    await page.locator(".panel-result h2").waitFor({ timeout: 300_000 });
    await page.screenshot({ path: resolve(OUT, `${game.name}-end.png`) });
    await page.close();
    console.log(`${game.name}: done`);
  }
} finally {
  await close();
  await service.stop();
}
