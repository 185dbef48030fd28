// Choosing a move: piece, target, stopping a chain early, playing; and the page's settings.

import assert from "node:assert/strict";
import { test } from "node:test";

import type { types } from "@halma/client";

import { normaliseApiBase, resolveApiBase } from "../../src/config.js";
import { nextSelection, stopsOf } from "../../src/selection.js";
import { applyMove, shownOf } from "../../src/shown.js";

const LEGAL: types.LegalMoveView[] = [
  { from: "a1", to: "a2", path: ["a1", "a2"], notation: "a1-a2" },
  { from: "a1", to: "c3", path: ["a1", "c3"], notation: "a1-c3" },
  { from: "a1", to: "e5", path: ["a1", "c3", "e5"], notation: "a1-c3-e5" },
  { from: "a1", to: "g7", path: ["a1", "c3", "e5", "g7"], notation: "a1-c3-e5-g7" },
  { from: "b1", to: "b2", path: ["b1", "b2"], notation: "b1-b2" },
];

test("a piece, then a target: its path; the end again plays it", () => {
  const picked = nextSelection(undefined, LEGAL, "a1");
  assert.ok(picked !== undefined && picked !== "play");
  assert.equal(picked.targets.length, 4);
  assert.deepEqual(picked.path, []);
  const chosen = nextSelection(picked, LEGAL, "g7");
  assert.ok(chosen !== undefined && chosen !== "play");
  assert.deepEqual(chosen.path, ["a1", "c3", "e5", "g7"]);
  assert.deepEqual(stopsOf(chosen), ["c3", "e5"]);
  assert.equal(nextSelection(chosen, LEGAL, "g7"), "play");
});

test("an earlier landing stops the chain there", () => {
  const chosen = { from: "a1", targets: LEGAL.slice(0, 4), path: ["a1", "c3", "e5", "g7"] };
  const stopped = nextSelection(chosen, LEGAL, "e5");
  assert.ok(stopped !== undefined && stopped !== "play");
  assert.deepEqual(stopped.path, ["a1", "c3", "e5"]);
  assert.deepEqual(stopsOf(stopped), ["c3"]);
  assert.equal(nextSelection(stopped, LEGAL, "e5"), "play");
});

test("another piece switches, the same piece or an empty cell drops the choice", () => {
  const picked = nextSelection(undefined, LEGAL, "a1");
  assert.ok(picked !== undefined && picked !== "play");
  const other = nextSelection(picked, LEGAL, "b1");
  assert.ok(other !== undefined && other !== "play");
  assert.equal(other.from, "b1");
  assert.equal(nextSelection(picked, LEGAL, "a1"), undefined);
  assert.equal(nextSelection(picked, LEGAL, "z9"), undefined);
  assert.equal(nextSelection(undefined, LEGAL, "z9"), undefined);
});

test("a move already shown is not shown again", () => {
  const game = {
    armies: [
      { army: 0, goal: [], goal_corner: "N", home: [], home_corner: "S", pieces: ["a1"], seat: 0 },
    ],
    seats: [],
    to_move: 0,
    status: "ongoing",
    move_count: 0,
    last_event_id: 0,
  } as unknown as types.GameView;
  const shown = shownOf(game);
  const move: types.MoveView = {
    from: "a1",
    to: "c3",
    path: ["a1", "c3"],
    notation: "a1-c3",
    ply: 1,
    seat: 0,
    skipped: [],
  };
  assert.equal(applyMove(shown, move, 1), true);
  assert.equal(applyMove(shown, move, 1), false);
  assert.deepEqual([...shown.pieces], [["c3", 0]]);
  assert.equal(shown.ply, 1);
  assert.equal(shown.toMove, 1);
});

test("the service's address: ?api= first, then the saved one, then the page's origin", () => {
  const origin = "http://127.0.0.1:8080";
  assert.equal(resolveApiBase("", null, origin), origin);
  assert.equal(resolveApiBase("", "https://saved.example/", origin), "https://saved.example");
  assert.equal(
    resolveApiBase("?api=http%3A%2F%2Fapi.example%3A9000", "https://saved.example", origin),
    "http://api.example:9000",
  );
  assert.equal(normaliseApiBase(" https://a.example/base/ "), "https://a.example/base");
  assert.throws(() => normaliseApiBase("ftp://a.example"), TypeError);
  assert.throws(() => normaliseApiBase("https://a.example/?x=1"), TypeError);
  assert.throws(() => normaliseApiBase("not a url"), TypeError);
});
