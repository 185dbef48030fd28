// A scripted stand-in for the service: a `fetch` that records every request and answers from
// a handler, and game views shaped as the service sends them (checked against the generated
// types by the compiler).

import {
  createHalmaClient,
  type HalmaClient,
  type ProblemCode,
  type types,
} from "../../src/index.js";

/** A request as the fake service saw it. */
export interface SeenRequest {
  method: string;
  url: URL;
  headers: Headers;
  /** The body parsed as JSON, or `undefined` without one. */
  body: unknown;
}

/** A client whose requests go to `handler`, and the requests it has sent so far. */
export function fakeService(handler: (request: SeenRequest) => Response | Promise<Response>): {
  client: HalmaClient;
  requests: SeenRequest[];
} {
  const requests: SeenRequest[] = [];
  const client = createHalmaClient({
    baseUrl: "http://halma.test/",
    fetch: async (request: Request) => {
      request.signal.throwIfAborted();
      const text = await request.text();
      const seen: SeenRequest = {
        method: request.method,
        url: new URL(request.url),
        headers: request.headers,
        body: text === "" ? undefined : JSON.parse(text),
      };
      requests.push(seen);
      return handler(seen);
    },
  });
  return { client, requests };
}

/** A JSON answer with the `ETag` of `etag` (none when `undefined`). */
export function json(status: number, body: unknown, etag?: number): Response {
  const headers = new Headers({ "Content-Type": "application/json" });
  if (etag !== undefined) {
    headers.set("ETag", `"${etag}"`);
  }
  return new Response(JSON.stringify(body), { status, headers });
}

/** A problem answer, as the service writes it. */
export function problem(
  status: number,
  code: ProblemCode,
  extra: Partial<types.Problem> = {},
  headers: Record<string, string> = {},
): Response {
  const body: types.Problem = {
    type: `urn:halma:problem:${code}`,
    title: code,
    status,
    detail: `detail of ${code}`,
    code,
    ...extra,
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/problem+json", ...headers },
  });
}

/** A two-player 8 x 8 game at `version`, seat `toMove` to move. */
export function gameView(id: string, version: number, toMove = 0): types.GameView {
  return {
    id,
    version,
    board: "square8",
    players: 2,
    options: {},
    rules: {
      arm_size: null,
      goal_lock: true,
      anti_blocking: false,
      anti_blocking_grace: 0,
      play_on: true,
      teams: false,
      fifteen_pieces: false,
      six_pieces: false,
      small_camps: false,
      colours_per_player: 1,
      long_jumps: false,
      leave_home_moves: 30,
      foreign_corners: "allowed",
      repetition_draw: true,
      backward_steps: "allowed",
      diagonal_steps_only: false,
    },
    seats: [0, 1].map((seat) => ({
      seat,
      name: `Player ${seat + 1}`,
      kind: "human",
      level: null,
      armies: [seat],
      partner: null,
      moves_made: 0,
      finished: false,
      eliminated: false,
    })),
    armies: [],
    first_seat: 0,
    to_move: toMove,
    status: "ongoing",
    open_seats: [],
    public: false,
    result: null,
    move_count: version - 1,
    last_event_id: version - 1,
    last_move: null,
    position: "square8 2 - e1/a5 1 0,0",
  };
}

/** The move `from`-`to` as the service reports it. */
export function moveView(ply: number, seat: number, from: string, to: string): types.MoveView {
  return { ply, seat, from, to, path: [from, to], notation: `${from}-${to}`, skipped: [] };
}
