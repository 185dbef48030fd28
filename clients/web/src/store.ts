/**
 * The page's one store object: what the page shows, and who to tell when it changes.
 *
 * @module
 */

import type { types } from "@halma/client";

import type { Layout } from "./geometry.js";

/** A game as the board shows it now (it may lag the service while moves are animated). */
export interface Shown {
  /** The army on each occupied cell. */
  readonly pieces: Map<string, number>;
  /** The seat to move; `undefined` while waiting for players and once the game is over. */
  toMove: number | undefined;
  /** The game's status. */
  status: types.GameView["status"];
  /** The result, once the game is over. */
  result: types.GameResult | undefined;
  /** The seats as last read. */
  seats: types.SeatView[];
  /** The armies as last read (home and goal areas). */
  armies: types.ArmyView[];
  /** Moves shown. */
  ply: number;
  /** The id of the last event of the game's stream that the board shows. */
  lastEventId: number;
  /** The last move shown. */
  lastMove: types.MoveView | undefined;
}

/** A move being chosen: the piece, its legal targets, and the path picked so far. */
export interface Selection {
  /** The cell of the chosen piece. */
  readonly from: string;
  /** Its legal moves, one per target. */
  readonly targets: readonly types.LegalMoveView[];
  /** The path of the chosen move, start and end included: empty until a target is picked. */
  readonly path: readonly string[];
}

/** How the page follows the game's event stream. */
export type Live = "connecting" | "live" | "reconnecting" | "ended" | "failed";

/** A game on the table. */
export interface TableState {
  /** The game's id. */
  readonly gameId: string;
  /** The board as drawn. */
  readonly layout: Layout;
  /** The seats played from this page. */
  readonly mySeats: ReadonlySet<number>;
  /** Whether this page holds the host token (rematch, moves for every local seat). */
  readonly host: boolean;
  /** The board's state. */
  readonly shown: Shown;
  /** Every move shown, in order. */
  readonly record: types.MoveView[];
  /** The legal moves of the seat to move, when it is one of ours and the board is current. */
  legal: readonly types.LegalMoveView[] | undefined;
  /** The move being chosen. */
  selection: Selection | undefined;
  /** Invitation links of open seats, by seat. */
  readonly invitations: Map<number, string>;
  /** The event stream's state. */
  live: Live;
  /** A request of this page is under way (a move, a resignation, ...). */
  busy: boolean;
}

/** A message for the person at the page. */
export interface Notice {
  readonly kind: "error" | "info";
  readonly text: string;
}

/** Everything the page shows. */
export interface AppState {
  /** The service's base URL. */
  apiBase: string;
  /** The screen shown. */
  screen: "setup" | "table" | "loading";
  /** The boards and rule options of the service, once read. */
  catalogue: { boards: types.BoardSummary[]; options: types.RuleOptionInfo[] } | undefined;
  /** The game on the table. */
  table: TableState | undefined;
  /** The last message, if any. */
  notice: Notice | undefined;
}

/** The store: the state, and listeners called after every change. */
export class Store {
  readonly state: AppState;
  readonly #listeners: (() => void)[] = [];
  #scheduled = false;

  constructor(state: AppState) {
    this.state = state;
  }

  /** Calls `listener` after changes (batched: once per task, however many changes). */
  subscribe(listener: () => void): void {
    this.#listeners.push(listener);
  }

  /** Applies `change` to the state, then tells the listeners. */
  update(change: (state: AppState) => void): void {
    change(this.state);
    if (this.#scheduled) {
      return;
    }
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      for (const listener of this.#listeners) {
        listener();
      }
    });
  }
}
