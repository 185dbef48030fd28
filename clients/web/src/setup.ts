/**
 * The form that sets up a new game: board, players, who plays each seat (here, the AI at a
 * level, or an open seat for someone invited by link), who moves first, and the rule
 * options the service lists at `GET /v1/rules/options`.
 *
 * @module
 */

import type { types } from "@halma/client";

import { h } from "./dom.js";

/** Who plays a seat. */
export type SeatChoice =
  | { readonly kind: "here"; readonly name: string }
  | { readonly kind: "ai"; readonly level: number }
  | { readonly kind: "open" };

/** The form's answer. */
export interface Setup {
  /** The request for `POST /v1/games`. */
  readonly request: types.CreateGameRequest;
  /** Who plays each seat, in seat order. */
  readonly seats: readonly SeatChoice[];
}

/** The boards' names in words. */
const BOARD_NAMES: Record<types.BoardName, string> = {
  star: "Star (Chinese checkers)",
  square16: "Square 16 x 16 (Halma)",
  square10: "Square 10 x 10",
  square8: "Square 8 x 8",
};

/** The seat request of `choice`. */
export function seatRequest(choice: SeatChoice): types.SeatRequest {
  switch (choice.kind) {
    case "here":
      return choice.name.trim() === ""
        ? { kind: "human" }
        : { kind: "human", name: choice.name.trim() };
    case "ai":
      return { kind: "ai", level: choice.level };
    case "open":
      return { kind: "open" };
  }
}

/**
 * The option values the form holds, as the request's `options`: only those set, integers
 * and choices as the catalogue names them. Text that is not an integer is an error.
 *
 * @throws {RangeError} naming the option whose value is not a whole number.
 */
export function ruleOptions(
  catalogue: readonly types.RuleOptionInfo[],
  values: ReadonlyMap<string, string>,
): types.RuleOptions {
  const options: Record<string, boolean | number | string> = {};
  for (const info of catalogue) {
    const value = values.get(info.name)?.trim() ?? "";
    if (value === "") {
      continue;
    }
    if (info.kind === "boolean") {
      options[info.name] = value === "true";
    } else if (info.kind === "integer") {
      if (!/^\d+$/.test(value)) {
        throw new RangeError(`${info.name}: ${value} is not a whole number`);
      }
      options[info.name] = Number(value);
    } else {
      options[info.name] = value;
    }
  }
  // The catalogue's names are those of RuleOptions; the service checks every value.
  return options as types.RuleOptions;
}

/** The setup form; `onSubmit` gets the setup when the form is sent. */
export function setupForm(
  boards: readonly types.BoardSummary[],
  catalogue: readonly types.RuleOptionInfo[],
  onSubmit: (setup: Setup) => void,
  onError: (message: string) => void,
): HTMLFormElement {
  const board = h(
    "select",
    { id: "board", name: "board" },
    boards.map((b) => h("option", { value: b.board }, BOARD_NAMES[b.board])),
  );
  const players = h("select", { id: "players", name: "players" });
  const seatList = h("ol", { class: "seat-setup", start: 0 });
  const firstSeat = h("select", { id: "first-seat", name: "first_seat" });
  const aiTime = h("input", {
    id: "ai-time",
    name: "ai_time_ms",
    type: "number",
    min: 10,
    max: 2000,
    step: 10,
    value: 200,
  });
  const options = h("div", { class: "options" });

  const refreshPlayers = (): void => {
    const summary = boards.find((b) => b.board === board.value);
    const previous = Number(players.value);
    players.replaceChildren(
      ...(summary?.players ?? [2]).map((n) =>
        h("option", { value: n, selected: n === previous }, String(n)),
      ),
    );
    refreshSeats();
    refreshOptions();
  };
  const refreshSeats = (): void => {
    const count = Number(players.value);
    const old = [...seatList.children];
    seatList.replaceChildren(...Array.from({ length: count }, (_, i) => old[i] ?? seatRow(i)));
    firstSeat.replaceChildren(
      h("option", { value: "" }, "drawn by lot"),
      ...Array.from({ length: count }, (_, i) =>
        h("option", { value: i, selected: i === 0 }, `seat ${i}`),
      ),
    );
  };
  const refreshOptions = (): void => {
    const applicable = catalogue.filter((o) => o.boards.includes(board.value as types.BoardName));
    options.replaceChildren(...applicable.map(optionField));
  };
  board.addEventListener("change", refreshPlayers);
  players.addEventListener("change", refreshSeats);

  const form = h(
    "form",
    { class: "setup", "aria-labelledby": "setup-title" },
    h("h2", { id: "setup-title" }, "New game"),
    h("p", {}, h("label", { for: "board" }, "Board "), board),
    h("p", {}, h("label", { for: "players" }, "Players "), players),
    h("fieldset", {}, h("legend", {}, "Seats, in turn order"), seatList),
    h("p", {}, h("label", { for: "first-seat" }, "First to move "), firstSeat),
    h("p", {}, h("label", { for: "ai-time" }, "AI thinking time per move (ms) "), aiTime),
    h(
      "details",
      {},
      h("summary", {}, "Rule options"),
      h("p", { class: "hint" }, "Left at the default, an option takes the rule book's value."),
      options,
    ),
    h("p", {}, h("button", { type: "submit", class: "primary" }, "Start the game")),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    try {
      const seats = [...seatList.querySelectorAll<HTMLLIElement>("li")].map(readSeat);
      const values = new Map<string, string>();
      for (const field of options.querySelectorAll<HTMLInputElement | HTMLSelectElement>(
        "[name]",
      )) {
        values.set(field.name, field.value);
      }
      const request: types.CreateGameRequest = {
        board: board.value as types.BoardName,
        players: Number(players.value),
        seats: seats.map(seatRequest),
        options: ruleOptions(catalogue, values),
        ai_time_ms: Number(aiTime.value),
        ...(firstSeat.value === "" ? {} : { first_seat: Number(firstSeat.value) }),
      };
      onSubmit({ request, seats });
    } catch (error) {
      onError(error instanceof Error ? error.message : String(error));
    }
  });
  refreshPlayers();
  return form;
}

/** One seat's row: who plays it, and a name or a level. */
function seatRow(seat: number): HTMLLIElement {
  const kind = h(
    "select",
    { id: `seat-${seat}-kind`, name: "kind", "aria-label": `Seat ${seat}: who plays` },
    h("option", { value: "here", selected: seat === 0 }, "a human here"),
    h("option", { value: "ai", selected: seat !== 0 }, "the AI"),
    h("option", { value: "open" }, "someone invited (open seat)"),
  );
  const name = h("input", {
    id: `seat-${seat}-name`,
    name: "name",
    type: "text",
    maxlength: 64,
    placeholder: `Player ${seat + 1}`,
    "aria-label": `Seat ${seat}: name`,
  });
  const level = h(
    "select",
    { id: `seat-${seat}-level`, name: "level", "aria-label": `Seat ${seat}: AI level` },
    Array.from({ length: 10 }, (_, i) =>
      h("option", { value: i + 1, selected: i + 1 === 3 }, `level ${i + 1}`),
    ),
  );
  const sync = (): void => {
    name.hidden = kind.value !== "here";
    level.hidden = kind.value !== "ai";
  };
  kind.addEventListener("change", sync);
  sync();
  return h("li", { "data-seat": seat }, kind, " ", name, level);
}

function readSeat(row: HTMLLIElement): SeatChoice {
  const field = (name: string): string =>
    row.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${name}"]`)?.value ?? "";
  switch (field("kind")) {
    case "ai":
      return { kind: "ai", level: Number(field("level")) };
    case "open":
      return { kind: "open" };
    default:
      return { kind: "here", name: field("name") };
  }
}

/** A field for one rule option: default, or a value. */
function optionField(info: types.RuleOptionInfo): HTMLElement {
  const id = `option-${info.name}`;
  let field: HTMLElement;
  if (info.kind === "boolean") {
    field = h(
      "select",
      { id, name: info.name },
      h("option", { value: "" }, `default (${info.default})`),
      h("option", { value: "true" }, "on"),
      h("option", { value: "false" }, "off"),
    );
  } else if (info.kind === "choice") {
    field = h(
      "select",
      { id, name: info.name },
      h("option", { value: "" }, `default (${info.default})`),
      info.values.map((v) => h("option", { value: v }, v.replaceAll("_", " "))),
    );
  } else {
    field = h("input", {
      id,
      name: info.name,
      type: "text",
      inputmode: "numeric",
      placeholder: `default: ${info.default}`,
      title: info.values.join(", "),
    });
  }
  return h(
    "p",
    { class: "option" },
    h("label", { for: id }, info.name.replaceAll("_", " ")),
    " ",
    field,
    h("span", { class: "hint" }, ` ${info.description}`),
  );
}
