/**
 * The board in the page: an SVG drawn from the board's geometry, its pieces, the marks of a
 * move being chosen, keyboard focus on the cells, and moves animated hop by hop.
 *
 * Layers, bottom to top: the board (cells, lines, home areas), the pieces, the marks (last
 * move, targets, the chosen path), and the cells' hit areas with their focus rings, which
 * take clicks and keys.
 *
 * @module
 */

import type { types } from "@halma/client";

import { armyStyle, describeArmy, shapePath } from "./armies.js";
import { s } from "./dom.js";
import type { Layout, Point } from "./geometry.js";
import { directionOfKey, nextCell } from "./navigation.js";
import type { TableState } from "./store.js";
import { stopsOf } from "./selection.js";

/** What the board asks of the table. */
export interface BoardActions {
  /** A cell was clicked, or Enter or Space pressed on it. */
  activate(cell: string): void;
  /** Escape: drop the move being chosen. */
  cancel(): void;
}

/** Milliseconds per hop of an animated move. */
const HOP_MS = 220;
const PIECE_RADIUS = 0.72;

/** The drawing of one game's board. */
export class BoardView {
  /** The `<svg>` element. */
  readonly element: SVGSVGElement;
  readonly #layout: Layout;
  readonly #pieces: SVGGElement;
  readonly #marks: SVGGElement;
  readonly #cells = new Map<string, SVGGElement>();
  readonly #actions: BoardActions;
  #focused: string;
  #animating = false;

  constructor(layout: Layout, actions: BoardActions, armies: readonly types.ArmyView[]) {
    this.#layout = layout;
    this.#actions = actions;
    const { x, y, width, height } = layout.viewBox;
    this.#pieces = s("g", { class: "pieces", "aria-hidden": "true" });
    this.#marks = s("g", { class: "marks", "aria-hidden": "true" });
    const hits = s("g", { class: "cells" });
    const names = [...layout.centres.keys()];
    this.#focused = names[0] ?? "";
    for (const [name, p] of layout.centres) {
      const cell = s(
        "g",
        { class: "cell", role: "button", tabindex: -1, "data-cell": name, "aria-label": name },
        s("circle", { class: "hit", cx: p.x, cy: p.y, r: 0.98 }),
        s("circle", { class: "focus-ring", cx: p.x, cy: p.y, r: 0.92 }),
      );
      cell.addEventListener("click", () => {
        this.#focus(name, false);
        actions.activate(name);
      });
      this.#cells.set(name, cell);
      hits.append(cell);
    }
    hits.addEventListener("keydown", (event) => this.#onKey(event));
    this.element = s(
      "svg",
      {
        class: `board board-${layout.board.board}`,
        viewBox: `${x} ${y} ${width} ${height}`,
        role: "group",
        "aria-label": "The board: arrow keys move between cells, Enter picks",
        preserveAspectRatio: "xMidYMid meet",
      },
      this.#drawBoard(armies),
      this.#pieces,
      this.#marks,
      hits,
    );
    this.#cells.get(this.#focused)?.setAttribute("tabindex", "0");
  }

  /** Draws `table` as it stands (pieces, marks, labels); skipped while a move is animated. */
  update(table: TableState): void {
    if (this.#animating) {
      return;
    }
    this.#drawPieces(table);
    this.#drawMarks(table);
    this.#label(table);
  }

  /** Moves the piece on `move.from` along its path, one hop at a time. */
  async animate(move: types.MoveView, army: number): Promise<void> {
    const piece = this.#pieces.querySelector<SVGGElement>(`[data-cell="${move.from}"]`);
    if (piece === null || matchMedia("(prefers-reduced-motion: reduce)").matches) {
      return;
    }
    this.#animating = true;
    try {
      piece.classList.add("moving");
      piece.setAttribute("data-army", String(army));
      // The moving piece goes on top of the others.
      this.#pieces.append(piece);
      for (const cell of move.path.slice(1)) {
        const p = this.#layout.centres.get(cell);
        if (p === undefined) {
          break;
        }
        piece.style.transform = translate(p);
        await new Promise((resolve) => setTimeout(resolve, HOP_MS));
      }
    } finally {
      this.#animating = false;
    }
  }

  #drawBoard(armies: readonly types.ArmyView[]): SVGGElement {
    const { board, centres } = this.#layout;
    const group = s("g", { class: "ground", "aria-hidden": "true" });
    const home = new Map<string, number>();
    for (const army of armies) {
      for (const cell of army.home) {
        home.set(cell, army.army);
      }
    }
    if (board.board === "star") {
      const seen = new Set<string>();
      for (const cell of board.cells) {
        const a = centres.get(cell.name);
        for (const other of cell.neighbors) {
          const b = centres.get(other);
          const key = [cell.name, other].sort().join("|");
          if (a === undefined || b === undefined || seen.has(key)) {
            continue;
          }
          seen.add(key);
          group.append(s("line", { class: "link", x1: a.x, y1: a.y, x2: b.x, y2: b.y }));
        }
      }
    }
    for (const [name, p] of centres) {
      const army = home.get(name);
      const tint = army === undefined ? undefined : armyStyle(army).tint;
      if (board.board === "star") {
        if (tint !== undefined) {
          group.append(s("circle", { class: "home", cx: p.x, cy: p.y, r: 0.95, fill: tint }));
        }
        group.append(s("circle", { class: "hole", cx: p.x, cy: p.y, r: 0.32 }));
      } else {
        const dark = (Math.round(p.x / 2) + Math.round(p.y / 2)) % 2 !== 0;
        group.append(
          s("rect", {
            class: dark ? "square dark" : "square",
            x: p.x - 1,
            y: p.y - 1,
            width: 2,
            height: 2,
            ...(tint === undefined ? {} : { fill: tint }),
          }),
        );
      }
    }
    return group;
  }

  #drawPieces(table: TableState): void {
    const pieces = [...table.shown.pieces].map(([cell, army]) => {
      const p = this.#layout.centres.get(cell);
      const style = armyStyle(army);
      const piece = s(
        "g",
        { class: "piece", "data-cell": cell, "data-army": army },
        s("path", { d: shapePath(style.shape, PIECE_RADIUS), fill: style.colour }),
      );
      if (p !== undefined) {
        piece.style.transform = translate(p);
      }
      return piece;
    });
    this.#pieces.replaceChildren(...pieces);
  }

  #drawMarks(table: TableState): void {
    const marks: SVGElement[] = [];
    const last = table.shown.lastMove;
    if (last !== undefined) {
      marks.push(this.#line(last.path, "last-move"));
    }
    const selection = table.selection;
    if (selection !== undefined) {
      const from = this.#layout.centres.get(selection.from);
      if (from !== undefined) {
        marks.push(s("circle", { class: "selected", cx: from.x, cy: from.y, r: 0.9 }));
      }
      for (const target of selection.targets) {
        const p = this.#layout.centres.get(target.to);
        if (p !== undefined) {
          marks.push(s("circle", { class: "target", cx: p.x, cy: p.y, r: 0.34 }));
        }
      }
      if (selection.path.length > 1) {
        marks.push(this.#line(selection.path, "path"));
        selection.path.slice(1).forEach((cell, hop) => {
          const p = this.#layout.centres.get(cell);
          if (p !== undefined) {
            marks.push(s("text", { class: "hop", x: p.x, y: p.y, dy: "0.35" }, String(hop + 1)));
          }
        });
        for (const cell of stopsOf(selection)) {
          const p = this.#layout.centres.get(cell);
          if (p !== undefined) {
            marks.push(s("circle", { class: "stop", cx: p.x, cy: p.y, r: 0.95 }));
          }
        }
      }
    }
    this.#marks.replaceChildren(...marks);
  }

  #line(path: readonly string[], kind: string): SVGPolylineElement {
    const points = path
      .map((cell) => this.#layout.centres.get(cell))
      .filter((p): p is Point => p !== undefined)
      .map((p) => `${p.x},${p.y}`)
      .join(" ");
    return s("polyline", { class: kind, points });
  }

  /** Names every cell for screen readers, and marks what can be clicked. */
  #label(table: TableState): void {
    const { shown, selection, legal } = table;
    const movable = new Set((legal ?? []).map((m) => m.from));
    const targets = new Set((selection?.targets ?? []).map((t) => t.to));
    const path = selection?.path ?? [];
    const stops = new Set(stopsOf(selection));
    for (const [name, cell] of this.#cells) {
      const army = shown.pieces.get(name);
      const parts = [name];
      if (army === undefined) {
        parts.push("empty");
      } else {
        const seat = shown.seats.find((v) => v.armies.includes(army));
        parts.push(seat === undefined ? describeArmy(army) : `${seat.name}, ${describeArmy(army)}`);
      }
      const state: string[] = [];
      if (selection?.from === name) {
        state.push("picked");
      } else if (movable.has(name) && selection === undefined) {
        state.push("can move");
      }
      if (path.length > 1 && name === path[path.length - 1]) {
        state.push("chosen landing, press again to play");
      } else if (stops.has(name)) {
        state.push("a landing of the path, press to stop here");
      } else if (targets.has(name)) {
        state.push("a legal target");
      }
      cell.setAttribute("aria-label", [...parts, ...state].join(", "));
      cell.classList.toggle("movable", movable.has(name));
      cell.classList.toggle("targetable", targets.has(name));
      cell.classList.toggle("picked", selection?.from === name);
    }
  }

  #onKey(event: KeyboardEvent): void {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      this.#actions.activate(this.#focused);
      return;
    }
    if (event.key === "Escape") {
      this.#actions.cancel();
      return;
    }
    const direction = directionOfKey(event.key);
    if (direction === undefined) {
      return;
    }
    event.preventDefault();
    const next = nextCell(this.#layout.centres, this.#focused, direction);
    if (next !== undefined) {
      this.#focus(next, true);
    }
  }

  /** Makes `cell` the one cell in the tab order, and focuses it when `move` is set. */
  #focus(cell: string, move: boolean): void {
    this.#cells.get(this.#focused)?.setAttribute("tabindex", "-1");
    this.#focused = cell;
    const element = this.#cells.get(cell);
    element?.setAttribute("tabindex", "0");
    if (move) {
      element?.focus();
    }
  }
}

function translate(p: Point): string {
  return `translate(${p.x}px, ${p.y}px)`;
}
