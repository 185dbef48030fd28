// Open seats: create with invitations, join a seat (by invitation), leave, new invitations,
// cancelling a waiting game.

import assert from "node:assert/strict";
import { test } from "node:test";

import { GameSession, ProblemError, type types } from "../../src/index.js";
import { fakeService, gameView, json, problem } from "./fake.js";

function waiting(id: string, version: number): types.GameView {
  const game = gameView(id, version);
  return { ...game, status: "waiting", to_move: null, open_seats: [1] };
}

test("create hands back one invitation per open seat", async () => {
  const invitations: types.Invitation[] = [{ seat: 1, code: "code-1" }];
  const { client } = fakeService(() =>
    json(
      201,
      { game: waiting("g1", 1), tokens: { host: "h", seats: ["s0", null] }, invitations },
      1,
    ),
  );
  const created = await GameSession.create(client, {
    board: "square8",
    players: 2,
    seats: [{ name: "Ada" }, { kind: "open" }],
  });
  assert.deepEqual(created.invitations, invitations);
  assert.deepEqual(created.tokens.seats, ["s0", null]);
});

test("acceptInvitation posts the code and the name, and acts with the seat's token", async () => {
  const { client, requests } = fakeService(() =>
    json(200, { seat: 1, token: "seat-token", game: gameView("g1", 3, 0) }, 3),
  );
  const joined = await GameSession.acceptInvitation(
    client,
    { gameId: "g1", seat: 1, code: "code-1" },
    "Bo",
  );
  const [request] = requests;
  assert.equal(request?.method, "POST");
  assert.equal(request?.url.pathname, "/v1/games/g1/seats/1/join");
  assert.deepEqual(request?.body, { code: "code-1", name: "Bo" });
  assert.equal(request?.headers.get("Authorization"), null, "a join needs no token");
  assert.equal(request?.headers.get("If-Match"), null);
  assert.equal(joined.seat, 1);
  assert.equal(joined.token, "seat-token");
  assert.equal(joined.session.version, 3);
  await joined.session.play("a1", "a2").catch(() => undefined);
  assert.equal(requests[1]?.headers.get("Authorization"), "Bearer seat-token");
});

test("a used code is a typed problem", async () => {
  const { client } = fakeService(() => problem(403, "invalid_invitation"));
  await assert.rejects(
    GameSession.joinSeat(client, "g1", 1, { code: "used" }),
    (error: unknown) => error instanceof ProblemError && error.is("invalid_invitation"),
  );
});

test("leave, newInvitation and cancel send the token and no If-Match", async () => {
  const { client, requests } = fakeService((request) => {
    if (request.url.pathname.endsWith("/leave")) {
      return json(200, { game: waiting("g1", 4), invitation: { seat: 1, code: "again" } }, 4);
    }
    if (request.url.pathname.endsWith("/invitation")) {
      return json(200, { seat: 1, code: "fresh" });
    }
    return new Response(null, { status: 204 });
  });
  const session = new GameSession(client, waiting("g1", 3), "host-token");
  assert.deepEqual(await session.leave(1), { seat: 1, code: "again" });
  assert.equal(session.version, 4);
  assert.deepEqual(await session.newInvitation(1), { seat: 1, code: "fresh" });
  await session.cancel();
  assert.deepEqual(
    requests.map((r) => [r.method, r.url.pathname]),
    [
      ["POST", "/v1/games/g1/seats/1/leave"],
      ["POST", "/v1/games/g1/seats/1/invitation"],
      ["DELETE", "/v1/games/g1"],
    ],
  );
  for (const request of requests) {
    assert.equal(request.headers.get("Authorization"), "Bearer host-token");
    assert.equal(request.headers.get("If-Match"), null);
  }
});

test("cancelling a game that has started is refused", async () => {
  const { client } = fakeService(() => problem(409, "game_not_waiting"));
  const session = new GameSession(client, gameView("g1", 2), "host-token");
  await assert.rejects(
    session.cancel(),
    (error: unknown) => error instanceof ProblemError && error.status === 409,
  );
});
