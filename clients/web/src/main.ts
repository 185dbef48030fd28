/**
 * The page: the header with the service's address, the setup form or the game on the table,
 * and the routes of the page's address (`#game=`, `#join=`).
 *
 * @module
 */

import "./style.css";

import {
  GameSession,
  createHalmaClient,
  type CreatedSession,
  type HalmaClient,
  type SeatInvitation,
} from "@halma/client";

import { BoardView } from "./board.js";
import { API_BASE_KEY, normaliseApiBase, resolveApiBase } from "./config.js";
import { h } from "./dom.js";
import { gameFragment, invitationLink, routeOf } from "./links.js";
import { PanelView } from "./panel.js";
import { loadSeats, saveSeats } from "./saved.js";
import { setupForm, type SeatChoice } from "./setup.js";
import { Store, type TableState } from "./store.js";
import { Table, explain } from "./table.js";

const root = document.querySelector<HTMLElement>("#app");
if (root === null) {
  throw new Error("the page has no #app element");
}

let apiBase: string;
try {
  apiBase = resolveApiBase(location.search, localStorage.getItem(API_BASE_KEY), location.origin);
} catch {
  apiBase = location.origin;
}

const store = new Store({
  apiBase,
  screen: "loading",
  catalogue: undefined,
  table: undefined,
  notice: undefined,
});
let client: HalmaClient = createHalmaClient({ baseUrl: apiBase });
let table: Table | undefined;
let views: { board: BoardView; panel: PanelView; state: TableState } | undefined;

const notice = h("p", { class: "notice", role: "alert" });
const main = h("main", { id: "main" });
root.replaceChildren(header(), notice, main);

store.subscribe(render);
window.addEventListener("hashchange", () => void route());
void route();

/** Shows the page for the address's fragment. */
async function route(): Promise<void> {
  const target = routeOf(location.hash);
  if (target.kind === "game" && table?.state.gameId === target.gameId) {
    return;
  }
  table?.stop();
  table = undefined;
  store.update((s) => {
    s.table = undefined;
    s.screen = "loading";
  });
  try {
    if (target.kind === "join") {
      showJoin(target.invitation);
    } else if (target.kind === "game") {
      await resume(target.gameId);
    } else {
      await showSetup();
    }
  } catch (error) {
    store.update((s) => (s.notice = { kind: "error", text: explain(error) }));
    if (target.kind !== "setup") {
      await showSetup().catch(() => undefined);
    }
  }
}

async function showSetup(): Promise<void> {
  if (store.state.catalogue === undefined) {
    const [boards, options] = await Promise.all([
      client.GET("/v1/boards"),
      client.GET("/v1/rules/options"),
    ]);
    if (boards.data === undefined || options.data === undefined) {
      throw new Error(`the service at ${store.state.apiBase} does not list its boards`);
    }
    const catalogue = { boards: boards.data.boards, options: options.data.options };
    store.update((s) => (s.catalogue = catalogue));
  }
  store.update((s) => (s.screen = "setup"));
}

/** Creates the game of the setup form and puts it on the table. */
async function create(setup: {
  request: Parameters<typeof GameSession.create>[1];
  seats: readonly SeatChoice[];
}): Promise<void> {
  store.update((s) => (s.notice = undefined));
  try {
    const created = await GameSession.create(client, setup.request);
    const mine = setup.seats.flatMap((choice, seat) => (choice.kind === "here" ? [seat] : []));
    await seat(created, mine);
  } catch (error) {
    store.update((s) => (s.notice = { kind: "error", text: explain(error) }));
  }
}

/** Puts a game just created (or a rematch) on the table, with its invitation links. */
async function seat(created: CreatedSession, mine: readonly number[]): Promise<void> {
  const { session, invitations } = created;
  const links = new Map(
    invitations.map(
      (i) =>
        [
          i.seat,
          invitationLink(location.href, { gameId: session.id, seat: i.seat, code: i.code }),
        ] as const,
    ),
  );
  saveSeats(session.id, {
    token: created.tokens.host,
    seats: mine,
    host: true,
    invitations: [...links],
  });
  await open(session, new Set(mine), true, links);
}

/** Goes on with a game this tab plays (or watches it, without a token). */
async function resume(gameId: string): Promise<void> {
  const saved = loadSeats(gameId);
  const session = await GameSession.join(client, gameId, saved?.token ?? "");
  await open(
    session,
    new Set(saved?.seats ?? []),
    saved?.host ?? false,
    new Map(saved?.invitations ?? []),
  );
}

async function open(
  session: GameSession,
  mine: ReadonlySet<number>,
  host: boolean,
  invitations: Map<number, string>,
): Promise<void> {
  table = await Table.open(store, session, mine, host, invitations);
  if (location.hash !== gameFragment(session.id)) {
    history.replaceState(null, "", gameFragment(session.id));
  }
  table.start();
}

/** The form that takes an invited seat. */
function showJoin(invitation: SeatInvitation): void {
  const name = h("input", {
    id: "join-name",
    type: "text",
    maxlength: 64,
    placeholder: `Player ${invitation.seat + 1}`,
  });
  const form = h(
    "form",
    { class: "join", "aria-labelledby": "join-title" },
    h("h2", { id: "join-title" }, `You are invited to seat ${invitation.seat}`),
    h("p", {}, h("label", { for: "join-name" }, "Your name "), name),
    h("p", {}, h("button", { type: "submit", class: "primary" }, "Join the game")),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void join(invitation, name.value.trim());
  });
  main.replaceChildren(form);
  views = undefined;
  store.update((s) => (s.screen = "loading"));
  name.focus();
}

async function join(invitation: SeatInvitation, name: string): Promise<void> {
  store.update((s) => (s.notice = undefined));
  try {
    const joined = await GameSession.acceptInvitation(
      client,
      invitation,
      name === "" ? undefined : name,
    );
    saveSeats(joined.session.id, {
      token: joined.token,
      seats: [joined.seat],
      host: false,
      invitations: [],
    });
    await open(joined.session, new Set([joined.seat]), false, new Map());
  } catch (error) {
    store.update((s) => (s.notice = { kind: "error", text: explain(error) }));
  }
}

async function rematch(): Promise<void> {
  const current = table;
  if (current === undefined) {
    return;
  }
  try {
    const created = await current.session.rematch();
    current.stop();
    await seat(created, [...current.state.mySeats]);
  } catch (error) {
    store.update((s) => (s.notice = { kind: "error", text: explain(error) }));
  }
}

async function cancel(): Promise<void> {
  if (table !== undefined && (await table.cancelGame())) {
    store.update((s) => (s.notice = { kind: "info", text: "The game is cancelled." }));
    location.hash = "";
  }
}

function header(): HTMLElement {
  const address = h("input", {
    id: "api-base",
    type: "url",
    value: apiBase,
    "aria-describedby": "api-base-hint",
  });
  const settings = h(
    "form",
    { class: "settings" },
    h("label", { for: "api-base" }, "Service address "),
    address,
    h("button", { type: "submit" }, "Use"),
    h(
      "p",
      { id: "api-base-hint", class: "hint" },
      "The halma service this page plays on; kept in this browser.",
    ),
  );
  settings.addEventListener("submit", (event) => {
    event.preventDefault();
    try {
      const base = normaliseApiBase(address.value);
      localStorage.setItem(API_BASE_KEY, base);
      client = createHalmaClient({ baseUrl: base });
      store.update((s) => {
        s.apiBase = base;
        s.catalogue = undefined;
        s.notice = { kind: "info", text: `Playing on ${base}.` };
      });
      location.hash = "";
      void route();
    } catch (error) {
      store.update((s) => (s.notice = { kind: "error", text: explain(error) }));
    }
  });
  const newGame = h("button", { type: "button", id: "new-game" }, "New game");
  newGame.addEventListener("click", () => {
    if (location.hash === "" || location.hash === "#") {
      void route();
    } else {
      location.hash = "";
    }
  });
  return h(
    "header",
    {},
    h("h1", {}, "Halma"),
    newGame,
    h("details", { class: "settings-box" }, h("summary", {}, "Settings"), settings),
  );
}

/** Draws the store's state. */
function render(): void {
  const state = store.state;
  notice.textContent = state.notice?.text ?? "";
  notice.className = `notice ${state.notice?.kind ?? ""}`;
  if (state.screen === "setup" && state.catalogue !== undefined) {
    if (main.querySelector("form.setup") === null) {
      views = undefined;
      main.replaceChildren(
        setupForm(
          state.catalogue.boards,
          state.catalogue.options,
          (setup) => void create(setup),
          (text) => store.update((s) => (s.notice = { kind: "error", text })),
        ),
      );
    }
    return;
  }
  if (state.screen === "table" && state.table !== undefined && table !== undefined) {
    if (views?.state !== state.table) {
      const current = table;
      const board = new BoardView(
        state.table.layout,
        { activate: (cell) => current.activate(cell), cancel: () => current.cancel() },
        state.table.shown.armies,
      );
      current.animate = (move, army) => board.animate(move, army);
      const panel = new PanelView(
        current,
        () => void rematch(),
        () => void cancel(),
      );
      views = { board, panel, state: state.table };
      main.replaceChildren(
        h(
          "div",
          { class: "table" },
          h("div", { class: "board-box" }, board.element),
          panel.element,
        ),
      );
    }
    views.board.update(state.table);
    views.panel.update(state.table);
    return;
  }
  if (state.screen === "loading" && main.querySelector("form.join") === null) {
    main.replaceChildren(h("p", { class: "loading" }, "Loading…"));
  }
}
