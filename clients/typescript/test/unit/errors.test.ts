import assert from "node:assert/strict";
import { test } from "node:test";

import {
  GameSession,
  HalmaError,
  ProblemError,
  TransportError,
  UnexpectedResponseError,
  createHalmaClient,
  isProblem,
} from "../../src/index.js";
import { fakeService, gameView, json, problem } from "./fake.js";

/** What `GameSession.join` throws when the service answers `answer`. */
async function joinError(answer: () => Response): Promise<unknown> {
  const { client } = fakeService(answer);
  try {
    await GameSession.join(client, "g1", "token");
  } catch (error) {
    return error;
  }
  assert.fail("join succeeded");
}

test("a problem document becomes a ProblemError with its members typed", async () => {
  const error = await joinError(() =>
    problem(412, "version_mismatch", { current_version: 5, detail: "The game has changed." }),
  );
  assert.ok(error instanceof ProblemError);
  assert.ok(error instanceof HalmaError);
  assert.equal(error.status, 412);
  assert.equal(error.code, "version_mismatch");
  assert.ok(error.is("version_mismatch"));
  assert.ok(!error.is("illegal_move"));
  assert.equal(error.currentVersion, 5);
  assert.equal(error.reason, undefined);
  assert.equal(error.retryAfter, undefined);
  assert.equal(error.retryable, false);
  assert.equal(error.message, "412 version_mismatch: The game has changed.");
  assert.equal(error.name, "ProblemError");
  assert.ok(isProblem(error));
  assert.ok(isProblem(error, "version_mismatch"));
  assert.ok(!isProblem(error, "game_not_found"));
});

test("reason and Retry-After are kept", async () => {
  const illegal = await joinError(() =>
    problem(422, "illegal_move", { reason: "cell_occupied", current_version: null }),
  );
  assert.ok(illegal instanceof ProblemError);
  assert.equal(illegal.reason, "cell_occupied");
  assert.equal(illegal.currentVersion, undefined);
  assert.equal(illegal.message, "422 illegal_move (cell_occupied): detail of illegal_move");

  const busy = await joinError(() => problem(503, "store_unavailable", {}, { "Retry-After": "2" }));
  assert.ok(busy instanceof ProblemError);
  assert.equal(busy.retryAfter, 2);
  assert.equal(busy.retryable, true);
});

test("a code this client does not know still arrives as a problem", async () => {
  const body = {
    type: "urn:halma:problem:teapot",
    title: "Teapot",
    status: 418,
    detail: "short and stout",
    code: "teapot",
  };
  const error = await joinError(
    () =>
      new Response(JSON.stringify(body), {
        status: 418,
        headers: { "Content-Type": "application/problem+json" },
      }),
  );
  assert.ok(error instanceof ProblemError);
  assert.equal(error.problem.code, "teapot");
  assert.deepEqual(error.problem, body);
});

test("an error answer without a problem document is unexpected, with its body", async () => {
  const error = await joinError(() => new Response("<h1>Bad gateway</h1>", { status: 502 }));
  assert.ok(error instanceof UnexpectedResponseError);
  assert.ok(!isProblem(error));
  assert.equal(error.status, 502);
  assert.equal(error.body, "<h1>Bad gateway</h1>");
  assert.equal(error.retryable, false);

  const half = await joinError(() => json(500, { code: "internal" }));
  assert.ok(
    half instanceof UnexpectedResponseError,
    "a body without status and detail is not a problem",
  );
  assert.equal(half.body, '{"code":"internal"}');
});

test("a 2xx body that is not JSON, or no body, is unexpected", async () => {
  const garbled = await joinError(
    () => new Response("{", { status: 200, headers: { "Content-Type": "application/json" } }),
  );
  assert.ok(garbled instanceof UnexpectedResponseError);
  assert.ok(garbled.cause instanceof SyntaxError);

  const empty = await joinError(
    () => new Response(null, { status: 200, headers: { "Content-Length": "0" } }),
  );
  assert.ok(empty instanceof UnexpectedResponseError);
  assert.equal(empty.status, 200);
});

test("a failed fetch is a retryable TransportError with its cause", async () => {
  const refused = new TypeError("fetch failed", {
    cause: new Error("connect ECONNREFUSED 127.0.0.1:9"),
  });
  const client = createHalmaClient({
    baseUrl: "http://127.0.0.1:9",
    fetch: () => Promise.reject(refused),
  });
  const error = await GameSession.join(client, "g1", "token").then(
    () => assert.fail("join succeeded"),
    (error: unknown) => error,
  );
  assert.ok(error instanceof TransportError);
  assert.equal(error.cause, refused);
  assert.equal(error.retryable, true);
  assert.match(error.message, /ECONNREFUSED/);
});

test("an aborted request is a TransportError and sends nothing", async () => {
  const { client, requests } = fakeService(() => json(200, gameView("g1", 1), 1));
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(
    GameSession.join(client, "g1", "token", { signal: controller.signal }),
    (error: unknown) => error instanceof TransportError && error.cause instanceof DOMException,
  );
  assert.equal(requests.length, 0);
});
