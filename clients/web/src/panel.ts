/**
 * The panel beside the board: whose turn it is, the seats with their pieces' look and the
 * invitation links of open seats, the move being chosen, the actions, the result with
 * places, and the move record.
 *
 * Each section is rebuilt only when what it shows changed, so that focus stays on a button
 * while the game goes on.
 *
 * @module
 */

import type { types } from "@halma/client";

import { armyStyle, describeArmy, shapePath } from "./armies.js";
import { h, s } from "./dom.js";
import type { Live, TableState } from "./store.js";
import type { Table } from "./table.js";

/** The panel of one game. */
export class PanelView {
  /** The panel's element. */
  readonly element: HTMLElement;
  readonly #table: Table;
  readonly #sections = new Map<string, { element: HTMLElement; key: string }>();
  readonly #onRematch: () => void;
  readonly #onCancel: () => void;

  /** The panel of `table`; rematches and cancelling go through the page (a new route). */
  constructor(table: Table, onRematch: () => void, onCancel: () => void) {
    this.#table = table;
    this.#onRematch = onRematch;
    this.#onCancel = onCancel;
    this.element = h("aside", { class: "panel", "aria-label": "Game" });
    for (const name of ["status", "move", "seats", "actions", "result", "record"]) {
      const element = h("section", { class: `panel-${name}` });
      this.#sections.set(name, { element, key: "" });
      this.element.append(element);
    }
  }

  /** Shows `table` as it stands. */
  update(table: TableState): void {
    this.#section("status", statusKey(table), () => status(table));
    this.#section("move", JSON.stringify([table.selection?.path, table.busy]), () =>
      this.#move(table),
    );
    this.#section(
      "seats",
      JSON.stringify([table.shown.seats, table.shown.toMove, [...table.invitations]]),
      () => seats(table),
    );
    this.#section(
      "actions",
      JSON.stringify([table.shown.status, table.busy, this.#table.actingSeat, table.host]),
      () => this.#actions(table),
    );
    this.#section("result", JSON.stringify([table.shown.result, table.shown.seats]), () =>
      result(table),
    );
    this.#record(table);
  }

  /** The move record: new moves are appended, and the list keeps its newest move in view. */
  #record(table: TableState): void {
    const section = this.#sections.get("record");
    if (section === undefined) {
      return;
    }
    let list = section.element.querySelector("ol");
    const shown = list?.children.length ?? 0;
    if (list === null || shown > table.record.length) {
      list = h("ol", { class: "record", "aria-label": "Move record" });
      section.element.replaceChildren(h("h2", {}, ""), list);
    } else if (shown === table.record.length) {
      return;
    }
    const heading = section.element.querySelector("h2");
    if (heading !== null) {
      heading.textContent = `Moves (${table.record.length})`;
    }
    list.append(...table.record.slice(list.children.length).map((move) => recordLine(table, move)));
    list.scrollTop = list.scrollHeight;
  }

  #section(name: string, key: string, build: () => readonly Node[]): void {
    const section = this.#sections.get(name);
    if (section === undefined || section.key === key) {
      return;
    }
    section.key = key;
    section.element.replaceChildren(...build());
  }

  #move(table: TableState): Node[] {
    const path = table.selection?.path ?? [];
    if (path.length < 2) {
      return [];
    }
    return [
      h("p", {}, "Move ", h("strong", { class: "chosen-move" }, path.join("-"))),
      h(
        "p",
        { class: "hint" },
        "Press the last landing again to play; a ringed landing stops the jumps there.",
      ),
      h(
        "div",
        { class: "buttons" },
        h(
          "button",
          {
            type: "button",
            class: "primary",
            disabled: table.busy,
            onclick: () => void this.#table.playChosen(),
          },
          "Play",
        ),
        h("button", { type: "button", onclick: () => this.#table.cancel() }, "Cancel"),
      ),
    ];
  }

  #actions(table: TableState): Node[] {
    const buttons: Node[] = [];
    const seat = this.#table.actingSeat;
    if (table.shown.status === "ongoing" && seat !== undefined) {
      const level = h(
        "select",
        { id: "handover-level", "aria-label": "AI level for the handover" },
        Array.from({ length: 10 }, (_, i) =>
          h("option", { value: i + 1, selected: i + 1 === 5 }, `level ${i + 1}`),
        ),
      );
      buttons.push(
        h(
          "button",
          { type: "button", disabled: table.busy, onclick: () => void this.#table.resign() },
          "Resign",
        ),
        h(
          "span",
          { class: "handover" },
          h(
            "button",
            {
              type: "button",
              disabled: table.busy,
              onclick: () => void this.#table.handToAi(Number(level.value)),
            },
            "Hand my seat to the AI",
          ),
          level,
        ),
      );
    }
    if (table.shown.status === "waiting" && table.host) {
      buttons.push(
        h(
          "button",
          { type: "button", disabled: table.busy, onclick: this.#onCancel },
          "Cancel the game",
        ),
      );
    }
    // A rematch gives every seat's new token to the host only: offered when the humans of
    // this game all play here.
    const remote = table.shown.seats.some(
      (seat) => seat.kind === "human" && !table.mySeats.has(seat.seat),
    );
    if (table.shown.status === "finished" && table.host && !remote) {
      buttons.push(
        h("button", { type: "button", class: "primary", onclick: this.#onRematch }, "Rematch"),
      );
    }
    return buttons.length === 0 ? [] : [h("div", { class: "buttons" }, buttons)];
  }
}

function statusKey(table: TableState): string {
  const { shown } = table;
  return JSON.stringify([
    shown.status,
    shown.toMove,
    table.legal !== undefined,
    table.busy,
    table.live,
    shown.seats.map((seat) => seat.kind),
  ]);
}

function status(table: TableState): Node[] {
  const { shown, mySeats } = table;
  let text: string;
  if (shown.status === "finished") {
    text = "The game is over.";
  } else if (shown.toMove === undefined) {
    const open = shown.seats.filter((seat) => isOpen(seat)).map((seat) => seat.seat);
    text = `Waiting for players: ${open.length === 1 ? "seat" : "seats"} ${open.join(", ")} open.`;
  } else {
    const seat = shown.seats[shown.toMove];
    const name = seat?.name ?? `seat ${shown.toMove}`;
    if (mySeats.has(shown.toMove)) {
      text =
        table.legal === undefined
          ? `${name}: your turn is coming…`
          : `Your turn, ${name}: pick a piece.`;
    } else if (seat?.kind === "ai") {
      text = `${name} is thinking…`;
    } else {
      text = `${name} to move.`;
    }
  }
  return [
    h("p", { class: "turn", role: "status", "aria-live": "polite" }, text),
    h("p", { class: `live live-${table.live}` }, liveText(table.live)),
  ];
}

function liveText(live: Live): string {
  switch (live) {
    case "connecting":
      return "Connecting to the game…";
    case "live":
      return "Live";
    case "reconnecting":
      return "Connection lost: reconnecting…";
    case "ended":
      return "The game's stream has ended.";
    case "failed":
      return "The game cannot be followed.";
  }
}

function seats(table: TableState): Node[] {
  const { shown, mySeats } = table;
  const items = shown.seats.map((seat) => {
    const armies = seat.armies.map((army) => swatch(army));
    const kind = isOpen(seat)
      ? "open seat"
      : seat.kind === "ai"
        ? `AI, level ${seat.level ?? "?"}`
        : mySeats.has(seat.seat)
          ? "you"
          : "human";
    const standing = seat.finished ? " · finished" : seat.eliminated ? " · out" : "";
    const link = table.invitations.get(seat.seat);
    return h(
      "li",
      {
        class: shown.toMove === seat.seat ? "seat to-move" : "seat",
        "data-seat": seat.seat,
        "aria-current": shown.toMove === seat.seat ? "true" : undefined,
      },
      armies,
      h("span", { class: "seat-name" }, seat.name),
      h(
        "span",
        { class: "seat-kind" },
        ` (${kind}; ${seat.armies.map(describeArmy).join(", ")})${standing}`,
      ),
      link !== undefined && isOpen(seat) ? invitation(seat.seat, link) : null,
    );
  });
  return [h("h2", {}, "Seats"), h("ol", { class: "seats", start: 0 }, items)];
}

function invitation(seat: number, link: string): HTMLElement {
  const field = h("input", {
    type: "text",
    readonly: true,
    value: link,
    class: "invitation-link",
    id: `invitation-${seat}`,
    "aria-label": `Invitation link for seat ${seat}`,
  });
  const copy = h("button", { type: "button" }, "Copy link");
  copy.addEventListener("click", () => {
    field.select();
    void navigator.clipboard?.writeText(link).then(
      () => (copy.textContent = "Copied"),
      () => (copy.textContent = "Select and copy the link"),
    );
  });
  return h("div", { class: "invitation" }, field, copy);
}

/** Whether `seat` waits for a player. */
function isOpen(seat: types.SeatView): boolean {
  return seat.kind === "open";
}

function result(table: TableState): Node[] {
  const outcome = table.shown.result;
  if (outcome === undefined) {
    return [];
  }
  const names = (seatsOf: readonly number[]): string =>
    seatsOf.map((seat) => table.shown.seats[seat]?.name ?? `seat ${seat}`).join(" and ");
  const places = outcome.ranking.map((place) =>
    h(
      "li",
      {},
      h("strong", {}, place.place == null ? "unplaced" : ordinal(place.place)),
      `: ${names(place.seats)} (${place.standing.replaceAll("_", " ")})`,
    ),
  );
  const headline =
    outcome.draw != null
      ? `A draw (${outcome.draw.replaceAll("_", " ")}).`
      : outcome.winner != null
        ? `${names(outcome.winner)} won.`
        : "The game is over.";
  return [
    h("h2", {}, "Result"),
    h("p", { class: "headline" }, headline),
    h("ol", { class: "places" }, places),
  ];
}

function recordLine(table: TableState, move: types.MoveView): HTMLLIElement {
  const name = table.shown.seats[move.seat]?.name ?? `seat ${move.seat}`;
  return h("li", { "data-ply": move.ply, "data-seat": move.seat }, `${name}: ${move.notation}`);
}

/** A small picture of army `army`'s piece. */
export function swatch(army: number): SVGSVGElement {
  const style = armyStyle(army);
  return s(
    "svg",
    { class: "swatch", viewBox: "-1 -1 2 2", "aria-hidden": "true" },
    s("path", { d: shapePath(style.shape, 0.8), fill: style.colour }),
  );
}

function ordinal(n: number): string {
  const suffix =
    n % 10 === 1 && n !== 11
      ? "st"
      : n % 10 === 2 && n !== 12
        ? "nd"
        : n % 10 === 3 && n !== 13
          ? "rd"
          : "th";
  return `${n}${suffix}`;
}
