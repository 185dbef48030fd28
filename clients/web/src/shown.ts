/**
 * The board's state ({@link Shown}) built from a game view, and changed event by event.
 *
 * Pure functions over the store's types: no requests, no DOM.
 *
 * @module
 */

import type { GameEvent, types } from "@halma/client";

import type { Shown } from "./store.js";

/** The board's state of `game`. */
export function shownOf(game: types.GameView): Shown {
  const pieces = new Map<string, number>();
  for (const army of game.armies) {
    for (const cell of army.pieces) {
      pieces.set(cell, army.army);
    }
  }
  return {
    pieces,
    toMove: game.to_move ?? undefined,
    status: game.status,
    result: game.result ?? undefined,
    seats: game.seats,
    armies: game.armies,
    ply: game.move_count,
    lastEventId: game.last_event_id,
    lastMove: game.last_move ?? undefined,
  };
}

/**
 * Plays `move` on `shown`: its piece goes from the start to the end of the path. Returns
 * whether it was applied (a move already shown is not).
 */
export function applyMove(shown: Shown, move: types.MoveView, toMove: number | undefined): boolean {
  if (move.ply <= shown.ply) {
    return false;
  }
  const army = shown.pieces.get(move.from);
  if (army !== undefined) {
    shown.pieces.delete(move.from);
    shown.pieces.set(move.to, army);
  }
  shown.ply = move.ply;
  shown.lastMove = move;
  shown.toMove = toMove;
  return true;
}

/**
 * Applies an event of the stream to `shown`, except a move's piece (see {@link applyMove}).
 * Returns whether the seats may have changed, so that the game should be read again.
 */
export function applyEvent(shown: Shown, event: GameEvent): boolean {
  if (event.kind !== "gone") {
    shown.lastEventId = Math.max(shown.lastEventId, event.id);
  }
  switch (event.kind) {
    case "move":
      return false;
    case "resigned":
    case "handed_to_ai":
    case "seat_joined":
      shown.toMove = event.data.to_move ?? undefined;
      return true;
    case "seat_left":
      return true;
    case "result":
      shown.result = event.data.result;
      shown.status = "finished";
      shown.toMove = undefined;
      return true;
    case "game":
    case "gone":
      return true;
  }
}

/** The army of `seat` whose home is drawn at the bottom: its first. */
export function homeOf(shown: Shown, seat: number): string[] {
  const army = shown.seats[seat]?.armies[0];
  return army === undefined ? [] : (shown.armies[army]?.home ?? []);
}
