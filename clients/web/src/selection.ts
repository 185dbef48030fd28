/**
 * Choosing a move on the board: a piece, then a target (its shortest path is shown), then
 * the same target again to play it, or an earlier landing of the chain to stop there.
 *
 * Pure functions: the table keeps the selection in the store.
 *
 * @module
 */

import type { types } from "@halma/client";

import type { Selection } from "./store.js";

/**
 * What activating `cell` does to the move being chosen: a new selection, none, or `"play"`
 * when the end of the chosen path is activated again.
 */
export function nextSelection(
  selection: Selection | undefined,
  legal: readonly types.LegalMoveView[],
  cell: string,
): Selection | undefined | "play" {
  if (selection !== undefined && selection.path.length > 1) {
    const at = selection.path.indexOf(cell);
    if (at === selection.path.length - 1) {
      return "play";
    }
    // An earlier landing of the chosen chain where a move may end: stop there.
    if (at > 0 && selection.targets.some((t) => t.to === cell)) {
      return { ...selection, path: selection.path.slice(0, at + 1) };
    }
  }
  if (selection !== undefined) {
    const target = selection.targets.find((t) => t.to === cell);
    if (target !== undefined) {
      return { ...selection, path: target.path };
    }
    if (selection.from === cell) {
      return undefined;
    }
  }
  const targets = legal.filter((m) => m.from === cell);
  return targets.length > 0 ? { from: cell, targets, path: [] } : undefined;
}

/** The landings of the chosen path where the move may stop instead (not its start or end). */
export function stopsOf(selection: Selection | undefined): string[] {
  if (selection === undefined) {
    return [];
  }
  const ends = new Set(selection.targets.map((t) => t.to));
  return selection.path.slice(1, -1).filter((cell) => ends.has(cell));
}
