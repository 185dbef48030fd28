// What a person does on the page, as steps the tests share: set up a game with the form,
// wait for a turn, pick a piece and a target by clicking, read what the page shows.

import assert from "node:assert/strict";

import type { Page } from "playwright-core";

/** One seat of the setup form. */
export type SeatSetup =
  { kind: "here"; name?: string } | { kind: "ai"; level: number } | { kind: "open" };

/** Fills the setup form and starts the game; resolves to the new game's id. */
export async function createGame(
  page: Page,
  setup: { board: string; players: number; seats: readonly SeatSetup[]; aiTimeMs?: number },
): Promise<string> {
  await page.getByLabel("Board").selectOption(setup.board);
  await page.getByLabel("Players").selectOption(String(setup.players));
  for (const [seat, choice] of setup.seats.entries()) {
    await page.getByLabel(`Seat ${seat}: who plays`).selectOption(choice.kind);
    if (choice.kind === "here" && choice.name !== undefined) {
      await page.getByLabel(`Seat ${seat}: name`).fill(choice.name);
    }
    if (choice.kind === "ai") {
      await page.getByLabel(`Seat ${seat}: AI level`).selectOption(String(choice.level));
    }
  }
  await page.getByLabel("First to move").selectOption("0");
  if (setup.aiTimeMs !== undefined) {
    await page.getByLabel("AI thinking time per move (ms)").fill(String(setup.aiTimeMs));
  }
  await page.getByRole("button", { name: "Start the game" }).click();
  await page.locator("svg.board").waitFor();
  return gameIdOf(page);
}

/** The id of the game on the page (its address is `...#game=<id>`). */
export function gameIdOf(page: Page): string {
  const match = /#game=([A-Za-z0-9_-]+)/.exec(page.url());
  assert.ok(match?.[1] !== undefined, `no game in ${page.url()}`);
  return match[1];
}

/** Waits until the page offers a move (pieces that can move), or the game is over. */
export async function waitForTurnOrEnd(page: Page, timeoutMs = 30_000): Promise<"turn" | "over"> {
  const turn = page.locator(".cell.movable").first();
  const over = page.locator(".panel-result h2");
  await turn.or(over).waitFor({ timeout: timeoutMs });
  return (await over.count()) > 0 ? "over" : "turn";
}

/** The moves shown in the record, as the page writes them (`Ada: c1-e3`). */
export async function recordLines(page: Page): Promise<string[]> {
  return page.locator("ol.record li").allTextContents();
}

/** A legal move of the game's seat to move, from the service (what a person would see). */
export interface Move {
  from: string;
  to: string;
  path: string[];
}

/**
 * The legal moves now, read from the service: the tests decide with them which piece to
 * click, as a person decides by looking at the board.
 */
export async function legalMoves(api: string, gameId: string): Promise<Move[]> {
  const answer = await fetch(`${api}/v1/games/${gameId}/moves`);
  assert.equal(answer.status, 200);
  const body = (await answer.json()) as { moves: Move[] };
  return body.moves;
}

/** The height of every cell's centre on the screen, read at once. */
export async function cellHeights(page: Page): Promise<Map<string, number>> {
  const heights = await page.evaluate(() =>
    Array.from(document.querySelectorAll(".cell"), (cell) => {
      const box = cell.getBoundingClientRect();
      return [cell.getAttribute("data-cell") ?? "", box.y + box.height / 2] as const;
    }),
  );
  return new Map(heights);
}

/**
 * The move that goes farthest up the screen (the own home is at the bottom, so the goal is
 * at the top), the longest path breaking ties.
 */
export async function forwardMove(page: Page, moves: readonly Move[]): Promise<Move> {
  const y = await cellHeights(page);
  let best: Move | undefined;
  let bestGain = Number.NEGATIVE_INFINITY;
  for (const move of moves) {
    const gain = (y.get(move.from) ?? 0) - (y.get(move.to) ?? 0) + move.path.length / 100;
    if (gain > bestGain) {
      best = move;
      bestGain = gain;
    }
  }
  assert.ok(best !== undefined, "no legal move");
  return best;
}

/** Clicks the piece, then the target, then the target again (which plays the move). */
export async function playByClicking(page: Page, move: Move): Promise<void> {
  await page.locator(`.cell[data-cell="${move.from}"]`).click();
  await page.locator(`.cell.targetable[data-cell="${move.to}"]`).waitFor();
  await page.locator(`.cell[data-cell="${move.to}"]`).click();
  assert.equal(await page.locator(".chosen-move").textContent(), move.path.join("-"));
  await page.locator(`.cell[data-cell="${move.to}"]`).click();
}
