// Compile-time checks of the public API: `tsc` fails on this file when a type below becomes
// `any`, when the problem types stop coming from the generated document, or when a misuse
// stops being an error. The one runtime test keeps the file in the test run.

import assert from "node:assert/strict";
import { test } from "node:test";

import type {
  CreatedSession,
  GameSession,
  HalmaClient,
  ProblemCode,
  ProblemError,
  ProblemReason,
  types,
} from "../../src/index.js";

/** `true` exactly when `T` is `any`. */
type IsAny<T> = 0 extends 1 & T ? true : false;
/** `true` exactly when `A` and `B` are the same type. */
type Same<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

type Resolved<T> = T extends (...args: never[]) => Promise<infer R> ? R : never;

/** A call of the generated client, for the type of its answer. */
function readGame(client: HalmaClient) {
  return client.GET("/v1/games/{id}", { params: { path: { id: "g1" } } });
}

const checks = {
  codeFromDocument: true satisfies Same<ProblemCode, types.Problem["code"]>,
  reasonFromDocument: true satisfies Same<
    ProblemReason | null | undefined,
    types.Problem["reason"] | undefined
  >,
  code: false satisfies IsAny<ProblemError["code"]>,
  problem: false satisfies IsAny<ProblemError["problem"]>,
  game: false satisfies IsAny<GameSession["game"]>,
  created: false satisfies IsAny<CreatedSession["tokens"]>,
  play: true satisfies Same<Resolved<GameSession["play"]>, types.MoveView[]>,
  legalMoves: true satisfies Same<Resolved<GameSession["legalMoves"]>, types.LegalMoves>,
  suggestion: true satisfies Same<Resolved<GameSession["suggestion"]>, types.SuggestionView>,
  record: true satisfies Same<Resolved<GameSession["record"]>, types.GameRecord>,
  refresh: true satisfies Same<Resolved<GameSession["refresh"]>, boolean>,
  rawData: true satisfies Same<
    Awaited<ReturnType<typeof readGame>>["data"],
    types.GameView | undefined
  >,
};

function misuses(session: GameSession, client: HalmaClient): void {
  // @ts-expect-error cells are strings
  void session.play(1, 2);
  // @ts-expect-error the query's members are the document's
  void session.suggestion({ depth: 3 });
  // @ts-expect-error the session's version is read-only
  session.version = 3;
  // @ts-expect-error a board the document does not list
  void client.POST("/v1/games", { body: { board: "hex", players: 2 } });
  // @ts-expect-error a path the document does not list
  void client.GET("/v1/nowhere");
}

test("the type checks above compiled", () => {
  assert.ok(Object.values(checks).length > 0);
  assert.equal(typeof misuses, "function");
  assert.equal(typeof readGame, "function");
});
