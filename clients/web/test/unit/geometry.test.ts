// Board layout (rotation, view box) and moving the focus with the arrow keys, on geometries
// shaped as GET /v1/boards/{board} answers.

import assert from "node:assert/strict";
import { test } from "node:test";

import type { types } from "@halma/client";

import { layout, rotationFor } from "../../src/geometry.js";
import { nextCell } from "../../src/navigation.js";

/** A small star-like board: a hexagon of 7 cells plus a tip at the top and at the bottom. */
function star(): types.BoardView {
  const cells: [string, number, number][] = [
    ["top", 2, 0],
    ["a", 1, 1],
    ["b", 3, 1],
    ["c", 0, 2],
    ["mid", 2, 2],
    ["d", 4, 2],
    ["e", 1, 3],
    ["f", 3, 3],
    ["bottom", 2, 4],
  ];
  return {
    board: "star",
    arm_size: 1,
    directions: 6,
    players: [2],
    corners: [],
    cells: cells.map(([name, x, y], index) => ({ index, name, x, y, neighbors: [] })),
  };
}

function square(size: number): types.BoardView {
  const cells: types.CellView[] = [];
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      cells.push({ index: cells.length, name: `${x},${y}`, x, y, neighbors: [] });
    }
  }
  return { board: "square8", directions: 8, players: [2], corners: [], cells };
}

test("the home corner is turned to the bottom: 180 degrees for the top tip", () => {
  const board = star();
  assert.equal(rotationFor(board, ["bottom"]), 0);
  assert.equal(rotationFor(board, ["top"]), 180);
  assert.equal(rotationFor(board, []), 0);
  const turned = layout(board, 180);
  const top = turned.centres.get("top");
  const bottom = turned.centres.get("bottom");
  assert.ok(top !== undefined && bottom !== undefined);
  assert.ok(top.y > bottom.y, "the top tip is drawn below after turning");
});

test("star rows are sqrt(3) units apart and neighbours 2 units", () => {
  const { centres } = layout(star(), 0);
  const a = centres.get("a");
  const b = centres.get("b");
  const mid = centres.get("mid");
  assert.ok(a !== undefined && b !== undefined && mid !== undefined);
  assert.equal(Math.hypot(b.x - a.x, b.y - a.y), 2);
  assert.ok(Math.abs(Math.hypot(mid.x - a.x, mid.y - a.y) - 2) < 1e-3);
});

test("square camps on a diagonal turn by quarter turns to a bottom corner, the smaller turn first", () => {
  const board = square(4);
  assert.equal(rotationFor(board, ["0,3"]), 0); // bottom left already
  assert.equal(rotationFor(board, ["3,3"]), 0); // bottom right
  assert.equal(rotationFor(board, ["0,0"]), 180); // top left: to the bottom right
  assert.equal(rotationFor(board, ["3,0"]), 90); // top right: a quarter turn on
});

test("the view box holds every cell with a cell of margin", () => {
  const { viewBox, centres } = layout(square(3), 0);
  for (const p of centres.values()) {
    assert.ok(p.x - 2 >= viewBox.x - 1e-9 && p.x + 2 <= viewBox.x + viewBox.width + 1e-9);
    assert.ok(p.y - 2 >= viewBox.y - 1e-9 && p.y + 2 <= viewBox.y + viewBox.height + 1e-9);
  }
  assert.equal(viewBox.width, 8);
});

test("arrow keys go to the nearest cell that way, the row above on the star", () => {
  const { centres } = layout(star(), 0);
  assert.equal(nextCell(centres, "mid", "left"), "c");
  assert.equal(nextCell(centres, "mid", "right"), "d");
  // Up from the middle: one of the two cells of the row above, not the tip two rows up.
  assert.ok(["a", "b"].includes(nextCell(centres, "mid", "up") ?? ""));
  assert.ok(["e", "f"].includes(nextCell(centres, "mid", "down") ?? ""));
  assert.equal(nextCell(centres, "top", "up"), undefined);
  assert.equal(nextCell(centres, "c", "left"), undefined);
  assert.equal(nextCell(centres, "nowhere", "up"), undefined);
});

test("arrow keys on a square board go to the orthogonal neighbour", () => {
  const { centres } = layout(square(3), 0);
  assert.equal(nextCell(centres, "1,1", "up"), "1,0");
  assert.equal(nextCell(centres, "1,1", "down"), "1,2");
  assert.equal(nextCell(centres, "1,1", "left"), "0,1");
  assert.equal(nextCell(centres, "1,1", "right"), "2,1");
  assert.equal(nextCell(centres, "2,1", "right"), undefined);
});
