import assert from "node:assert/strict";
import { test } from "node:test";

import { GameSession, ProblemError, type types } from "../../src/index.js";
import { fakeService, gameView, json, moveView, problem, type SeenRequest } from "./fake.js";

const tokens: types.GameTokens = { host: "host-token", seats: ["seat-0", "seat-1"] };

/** A session on game `g1` at `version`, with the host token, and the requests it sends. */
function sessionAt(
  version: number,
  handler: (request: SeenRequest) => Response,
): { session: GameSession; requests: SeenRequest[] } {
  const { client, requests } = fakeService(handler);
  return { session: new GameSession(client, gameView("g1", version), "host-token"), requests };
}

function only<T>(items: readonly T[]): T {
  assert.equal(items.length, 1, `expected one item, got ${items.length}`);
  const [item] = items;
  assert.ok(item !== undefined);
  return item;
}

test("create posts the setup and acts with the host token at the ETag's version", async () => {
  const { client, requests } = fakeService(() =>
    // An AI seat moved first: the body and the ETag both say version 2.
    json(201, { game: gameView("g1", 2, 0), tokens }, 2),
  );
  const setup: types.CreateGameRequest = {
    board: "square8",
    players: 2,
    first_seat: 1,
    seats: [{ name: "Ada" }, { kind: "ai", level: 3 }],
  };
  const { session, tokens: received } = await GameSession.create(client, setup);
  const request = only(requests);
  assert.equal(request.method, "POST");
  assert.equal(request.url.href, "http://halma.test/v1/games");
  assert.equal(request.headers.get("Content-Type"), "application/json");
  assert.deepEqual(request.body, setup);
  assert.deepEqual(received, tokens);
  assert.equal(session.id, "g1");
  assert.equal(session.version, 2);
  assert.equal(session.toMove, 0);
  assert.equal(session.finished, false);
  assert.equal(session.client, client);

  await session.aiTurns().catch(() => undefined);
  assert.equal(requests[1]?.headers.get("Authorization"), "Bearer host-token");
});

test("join reads the game; the ETag's version wins over the body's", async () => {
  const { client, requests } = fakeService(() => json(200, gameView("g 1", 4), 5));
  const session = await GameSession.join(client, "g 1", "seat-1");
  const request = only(requests);
  assert.equal(request.method, "GET");
  assert.equal(request.url.pathname, "/v1/games/g%201");
  assert.equal(request.headers.get("Authorization"), null, "reads send no token");
  assert.equal(session.version, 5);
});

test("without an ETag (hidden from another origin) the body's version counts", async () => {
  const { client } = fakeService(() => json(200, gameView("g1", 4)));
  const session = await GameSession.join(client, "g1", "seat-1");
  assert.equal(session.version, 4);
});

test("play sends the token and If-Match, and keeps the game it gets back", async () => {
  const played = [moveView(3, 0, "e1", "e2"), moveView(4, 1, "a5", "a4")];
  const after = gameView("g1", 5, 0);
  const { session, requests } = sessionAt(3, () => json(200, { game: after, played }, 5));
  assert.deepEqual(await session.play("e1", "e2"), played);
  const request = only(requests);
  assert.equal(request.method, "POST");
  assert.equal(request.url.pathname, "/v1/games/g1/moves");
  assert.equal(request.headers.get("Authorization"), "Bearer host-token");
  assert.equal(request.headers.get("If-Match"), '"3"');
  assert.deepEqual(request.body, { from: "e1", to: "e2" });
  assert.equal(session.version, 5);
  assert.deepEqual(session.game, after);
});

test("every way of writing a move sends its own body, never a version", async () => {
  const { session, requests } = sessionAt(1, ({ headers }) => {
    const version = Number(headers.get("If-Match")?.replaceAll('"', ""));
    return json(200, { game: gameView("g1", version + 1), played: [] }, version + 1);
  });
  await session.playPath(["c1", "e3", "g5"]);
  await session.playNotation("c1-e3-g5");
  await session.playRequest({ notation: "a1-b2", version: 99 });
  assert.deepEqual(
    requests.map((request) => [request.headers.get("If-Match"), request.body]),
    [
      ['"1"', { path: ["c1", "e3", "g5"] }],
      ['"2"', { notation: "c1-e3-g5" }],
      ['"3"', { notation: "a1-b2" }],
    ],
  );
  assert.equal(session.version, 4);
});

test("a refused move leaves the session unchanged and names the current version", async () => {
  const { session } = sessionAt(3, () => problem(412, "version_mismatch", { current_version: 4 }));
  const before = session.game;
  await assert.rejects(
    session.play("e1", "e2"),
    (error: unknown) => error instanceof ProblemError && error.currentVersion === 4,
  );
  assert.equal(session.version, 3);
  assert.equal(session.game, before);
});

test("aiTurns posts an empty body with If-Match and keeps the outcome", async () => {
  const played = [moveView(1, 0, "e1", "e2")];
  const { session, requests } = sessionAt(1, () =>
    json(200, { game: gameView("g1", 2, 1), played }, 2),
  );
  assert.deepEqual(await session.aiTurns(), played);
  const request = only(requests);
  assert.equal(request.url.pathname, "/v1/games/g1/ai-turns");
  assert.equal(request.headers.get("If-Match"), '"1"');
  assert.deepEqual(request.body, {});
  assert.equal(session.version, 2);
  assert.equal(session.toMove, 1);
});

test("refresh sends If-None-Match: 304 keeps the session, 200 replaces it", async () => {
  let answer = (): Response => new Response(null, { status: 304, headers: { ETag: '"3"' } });
  const { session, requests } = sessionAt(3, () => answer());
  const before = session.game;
  assert.equal(await session.refresh(), false);
  assert.equal(session.game, before);
  assert.equal(requests[0]?.headers.get("If-None-Match"), '"3"');
  assert.equal(requests[0]?.url.search, "");

  const newer = gameView("g1", 4, 1);
  answer = () => json(200, newer, 4);
  assert.equal(await session.refresh(), true);
  assert.equal(session.version, 4);
  assert.deepEqual(session.game, newer);
  assert.equal(requests[1]?.headers.get("If-None-Match"), '"3"');
});

test("waitForChange asks the service to wait", async () => {
  const { session, requests } = sessionAt(3, () => new Response(null, { status: 304 }));
  assert.equal(await session.waitForChange(20), false);
  assert.equal(only(requests).url.searchParams.get("wait_secs"), "20");
});

test("a refresh that fails is an error, not a change", async () => {
  const { session } = sessionAt(3, () => problem(404, "game_not_found"));
  await assert.rejects(
    session.refresh(),
    (error: unknown) => error instanceof ProblemError && error.status === 404,
  );
  assert.equal(session.version, 3);
});

test("an answer older than what the session has seen does not take it back", async () => {
  // A long poll answered with version 4 while a move already took the session to 6.
  let release: (response: Response) => void = () => undefined;
  const pending = new Promise<Response>((resolve) => {
    release = resolve;
  });
  const { client } = fakeService(({ method }) =>
    method === "GET" ? pending : json(200, { game: gameView("g1", 6), played: [] }, 6),
  );
  const session = new GameSession(client, gameView("g1", 3), "host-token");
  const poll = session.waitForChange(30);
  await session.play("e1", "e2");
  release(json(200, gameView("g1", 4), 4));
  assert.equal(await poll, false);
  assert.equal(session.version, 6);
});

test("reads send the query and leave the session alone", async () => {
  const moves: types.LegalMoves = {
    version: 3,
    to_move: 0,
    moves: [{ from: "e1", to: "e2", path: ["e1", "e2"], notation: "e1-e2" }],
  };
  const suggestion: types.SuggestionView = {
    version: 3,
    seat: 0,
    from: "e1",
    to: "e2",
    path: ["e1", "e2"],
    notation: "e1-e2",
    score: 12,
    level: 4,
    depth: 3,
    nodes: 900,
    elapsed_ms: 20,
    time_budget_ms: 50,
    principal_variation: ["e1-e2"],
  };
  const { session, requests } = sessionAt(2, ({ url }) => {
    if (url.pathname.endsWith("/suggestion")) return json(200, suggestion, 3);
    if (url.pathname.endsWith("/moves")) return json(200, moves, 3);
    return json(200, { id: "g1" }, 3);
  });
  assert.deepEqual(await session.legalMoves(), moves);
  assert.deepEqual(await session.legalMovesFrom("e1"), moves);
  assert.deepEqual(await session.suggestion({ level: 4, time_ms: 50 }), suggestion);
  assert.deepEqual(await session.suggestion(), suggestion);
  await session.record();
  assert.deepEqual(
    requests.map(({ method, url }) => `${method} ${url.pathname}${url.search}`),
    [
      "GET /v1/games/g1/moves",
      "GET /v1/games/g1/moves?from=e1",
      "GET /v1/games/g1/suggestion?level=4&time_ms=50",
      "GET /v1/games/g1/suggestion",
      "GET /v1/games/g1/record",
    ],
  );
  assert.equal(session.version, 2, "reads do not move the session");
});

test("rematch gives a session with the new game's host token", async () => {
  const next: types.GameTokens = { host: "new-host", seats: ["n0", "n1"] };
  const { session, requests } = sessionAt(9, ({ url }) =>
    url.pathname.endsWith("/rematch")
      ? json(201, { game: gameView("g2", 1, 1), tokens: next }, 1)
      : json(200, { game: gameView("g2", 2), played: [] }, 2),
  );
  const { session: rematch, tokens: received } = await session.rematch();
  assert.equal(requests[0]?.headers.get("Authorization"), "Bearer host-token");
  assert.equal(requests[0]?.headers.get("If-Match"), null);
  assert.deepEqual(received, next);
  assert.equal(rematch.id, "g2");
  assert.equal(rematch.version, 1);
  await rematch.play("e1", "e2");
  assert.equal(requests[1]?.headers.get("Authorization"), "Bearer new-host");
  assert.equal(session.id, "g1", "the old session stays on the old game");
});
