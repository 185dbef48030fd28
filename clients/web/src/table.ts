/**
 * A game on the table: follows the event stream, animates what others play, and plays,
 * resigns or hands over for the seats of this page. It changes the store; the views draw it.
 *
 * Moves of other seats reach the board only through the event stream, in order, one at a
 * time; this page's own moves are shown as soon as the service accepts them. Both go through
 * one queue, so a move is never shown twice, whichever of the two news comes first.
 *
 * @module
 */

import { isProblem, type GameEvent, type GameSession, type types } from "@halma/client";

import { layout, rotationFor } from "./geometry.js";
import { applyEvent, applyMove, homeOf, shownOf } from "./shown.js";
import type { Store, TableState } from "./store.js";
import { nextSelection } from "./selection.js";
import { follow } from "./stream.js";

/** Draws a move hop by hop; resolves when the piece has arrived. */
export type Animate = (move: types.MoveView, army: number) => Promise<void>;

/** What the queue holds: a stream event, or a move this page played. */
type Item =
  | { readonly kind: "event"; readonly event: GameEvent }
  | { readonly kind: "own"; readonly move: types.MoveView; readonly toMove: number | undefined };

/** A game on the table and what can be done with it. */
export class Table {
  readonly #store: Store;
  readonly #session: GameSession;
  readonly #state: TableState;
  readonly #queue: Item[] = [];
  readonly #stop = new AbortController();
  #draining = false;
  /** The version at which this page last asked the AI seats to move. */
  #drivenVersion = 0;
  /** Draws moves; set by the board view (without one, moves are shown at once). */
  animate: Animate | undefined;

  private constructor(store: Store, session: GameSession, state: TableState) {
    this.#store = store;
    this.#session = session;
    this.#state = state;
  }

  /**
   * Puts the game of `session` on the table: reads its board and record, draws the home of
   * the first of `mySeats` at the bottom, and starts following the game.
   *
   * @throws The SDK's errors when the board or the record cannot be read.
   */
  static async open(
    store: Store,
    session: GameSession,
    mySeats: ReadonlySet<number>,
    host: boolean,
    invitations: Map<number, string> = new Map(),
  ): Promise<Table> {
    const game = session.game;
    const armSize = game.rules.arm_size ?? undefined;
    const query = game.board === "star" && armSize !== undefined ? { arm_size: armSize } : {};
    const [board, record] = await Promise.all([
      session.client.GET("/v1/boards/{board}", {
        params: { path: { board: game.board }, query },
      }),
      session.record(),
    ]);
    if (board.data === undefined) {
      throw new Error(`the board ${game.board} cannot be read (${board.response.status})`);
    }
    const shown = shownOf(game);
    const bottom = [...mySeats][0] ?? 0;
    const state: TableState = {
      gameId: game.id,
      layout: layout(board.data, rotationFor(board.data, homeOf(shown, bottom))),
      mySeats,
      host,
      shown,
      record: record.moves.filter((m) => m.ply <= shown.ply),
      legal: undefined,
      selection: undefined,
      invitations,
      live: "connecting",
      busy: false,
    };
    const table = new Table(store, session, state);
    store.update((s) => {
      s.table = state;
      s.screen = "table";
    });
    return table;
  }

  /** The table's state (the same object as the store's `table`). */
  get state(): TableState {
    return this.#state;
  }

  /** The session the table acts through. */
  get session(): GameSession {
    return this.#session;
  }

  /** Starts following the game's events, and gets ready to move when it is our turn. */
  start(): void {
    void follow(this.#session.client, this.#state.gameId, {
      lastEventId: this.#state.shown.lastEventId,
      signal: this.#stop.signal,
      onEvent: (event) => this.#push({ kind: "event", event }),
      onLive: (live) => this.#store.update(() => (this.#state.live = live)),
    });
    void this.#settle();
  }

  /** Stops following the game (the page shows another one). */
  stop(): void {
    this.#stop.abort();
  }

  /** Whether the seat to move is played from this page and the board is ready for a move. */
  get myTurn(): boolean {
    return this.#state.legal !== undefined && !this.#state.busy;
  }

  /**
   * A click or Enter on `cell`: picks a piece, picks a target (showing the path), stops a
   * chosen jump chain at an earlier landing, or plays the chosen move when its end is
   * activated again.
   */
  activate(cell: string): void {
    const legal = this.#state.legal;
    if (legal === undefined || this.#state.busy) {
      return;
    }
    const selection = this.#state.selection;
    const next = nextSelection(selection, legal, cell);
    if (next === "play") {
      void this.playChosen();
      return;
    }
    this.#store.update(() => (this.#state.selection = next));
  }

  /** Drops the move being chosen. */
  cancel(): void {
    this.#store.update(() => (this.#state.selection = undefined));
  }

  /** Plays the chosen move (the path picked, possibly stopped early). */
  async playChosen(): Promise<void> {
    const path = this.#state.selection?.path ?? [];
    if (path.length < 2 || !this.myTurn) {
      return;
    }
    await this.#write(async () => {
      const played = await this.#session.playPath(path);
      const own = played[0];
      if (own !== undefined) {
        // The seat to move after it: the next move's seat if the AI replied, else the
        // session's (no one else moved in between, or the stream will say so).
        const toMove = played[1]?.seat ?? this.#session.toMove;
        this.#push({ kind: "own", move: own, toMove });
      }
    });
  }

  /** The seat the actions of this page are for: ours to move, else our first still playing. */
  get actingSeat(): number | undefined {
    const { shown, mySeats } = this.#state;
    if (shown.toMove !== undefined && mySeats.has(shown.toMove)) {
      return shown.toMove;
    }
    return [...mySeats].find((seat) => {
      const view = shown.seats[seat];
      return view !== undefined && !view.finished && !view.eliminated && view.kind === "human";
    });
  }

  /** Our seat resigns. */
  async resign(): Promise<void> {
    const seat = this.actingSeat;
    if (seat === undefined) {
      return;
    }
    await this.#write(() => this.#session.resign(seat));
  }

  /** Hands our seat to the AI at `level`; the page plays it no more. */
  async handToAi(level: number): Promise<void> {
    const seat = this.actingSeat;
    if (seat === undefined) {
      return;
    }
    await this.#write(async () => {
      await this.#session.handToAi(seat, level);
      (this.#state.mySeats as Set<number>).delete(seat);
    });
  }

  /** Cancels the waiting game (host token): it is removed. Resolves to whether it was. */
  async cancelGame(): Promise<boolean> {
    let cancelled = false;
    await this.#write(async () => {
      await this.#session.cancel();
      cancelled = true;
    });
    return cancelled;
  }

  /** Runs a write of this page: busy meanwhile, its error shown, the turn looked at again. */
  async #write(write: () => Promise<unknown>): Promise<void> {
    this.#store.update((s) => {
      this.#state.busy = true;
      this.#state.legal = undefined;
      this.#state.selection = undefined;
      s.notice = undefined;
    });
    try {
      await write();
    } catch (error) {
      this.#store.update((s) => (s.notice = { kind: "error", text: explain(error) }));
    } finally {
      this.#store.update(() => (this.#state.busy = false));
      // Read the game again: a handover changed the seats while this write was under way.
      void this.#settle(true);
    }
  }

  #push(item: Item): void {
    this.#queue.push(item);
    void this.#drain();
  }

  /** Shows the queued news one at a time, then looks whether it is our turn. */
  async #drain(): Promise<void> {
    if (this.#draining) {
      return;
    }
    this.#draining = true;
    let reread = false;
    try {
      for (let item = this.#queue.shift(); item !== undefined; item = this.#queue.shift()) {
        reread = (await this.#show(item)) || reread;
      }
    } finally {
      this.#draining = false;
    }
    void this.#settle(reread);
  }

  /** Shows one item; resolves to whether the game should be read again. */
  async #show(item: Item): Promise<boolean> {
    const shown = this.#state.shown;
    if (item.kind === "own") {
      const army = shown.pieces.get(item.move.from);
      if (item.move.ply === shown.ply + 1 && army !== undefined && this.animate !== undefined) {
        await this.animate(item.move, army);
      }
      this.#showMove(item.move, item.toMove);
      return false;
    }
    const { event } = item;
    this.#store.update((s) => {
      this.#state.legal = undefined;
      this.#state.selection = undefined;
      if (event.kind === "gone") {
        s.notice = { kind: "info", text: "This game no longer exists." };
      }
    });
    if (event.kind === "move") {
      const move = event.data.move;
      const army = shown.pieces.get(move.from);
      if (move.ply === shown.ply + 1 && army !== undefined && this.animate !== undefined) {
        await this.animate(move, army);
      }
      this.#showMove(move, event.data.to_move ?? undefined);
    }
    let reread = false;
    this.#store.update(() => (reread = applyEvent(shown, event)));
    return reread;
  }

  #showMove(move: types.MoveView, toMove: number | undefined): void {
    this.#store.update(() => {
      if (applyMove(this.#state.shown, move, toMove)) {
        this.#state.record.push(move);
      }
    });
  }

  /**
   * When the board is current: reads the game again if asked (seats changed), and when one
   * of our seats is to move, reads the game and its legal moves so that input can start.
   *
   * The service plays at most one round of AI moves per request, so a game whose every
   * seat left is the AI's waits after each round: the page with the host token asks for the
   * next one (`POST /v1/games/{id}/ai-turns`), once per version.
   */
  async #settle(reread = false): Promise<void> {
    const shown = this.#state.shown;
    const ours = shown.toMove !== undefined && this.#state.mySeats.has(shown.toMove);
    const aiWaits = this.#aiWaits();
    if (this.#draining || this.#state.busy || (!reread && !ours && !aiWaits)) {
      return;
    }
    try {
      await this.#session.refresh();
      const game = this.#session.game;
      if (this.#draining || this.#queue.length > 0 || game.last_event_id !== shown.lastEventId) {
        return; // the stream has more to show first; it settles again after that
      }
      this.#store.update(() => {
        shown.seats = game.seats;
        shown.armies = game.armies;
        shown.result = game.result ?? undefined;
        shown.status = game.status;
        shown.toMove = game.to_move ?? undefined;
      });
      if (this.#aiWaits()) {
        if (this.#drivenVersion !== this.#session.version) {
          this.#drivenVersion = this.#session.version;
          await this.#write(() => this.#session.aiTurns());
        }
        return;
      }
      const toMove = shown.toMove;
      if (toMove === undefined || !this.#state.mySeats.has(toMove)) {
        return;
      }
      const legal = await this.#session.legalMoves();
      if (legal.version !== this.#session.version || this.#queue.length > 0) {
        return;
      }
      this.#store.update(() => (this.#state.legal = legal.moves));
    } catch (error) {
      this.#store.update((s) => (s.notice = { kind: "error", text: explain(error) }));
    }
  }

  /** Whether an AI seat is to move and this page, holding the host token, may ask it to. */
  #aiWaits(): boolean {
    const { shown, host } = this.#state;
    return (
      host &&
      shown.status === "ongoing" &&
      shown.toMove !== undefined &&
      shown.seats[shown.toMove]?.kind === "ai"
    );
  }
}

/** An error in words for the person at the page. */
export function explain(error: unknown): string {
  if (isProblem(error)) {
    if (error.is("version_mismatch")) {
      return "The game changed meanwhile; look again and choose your move.";
    }
    return error.problem.detail;
  }
  return error instanceof Error ? error.message : String(error);
}
