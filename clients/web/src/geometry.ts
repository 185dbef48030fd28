/**
 * Where each cell of a board is drawn: the geometry of `GET /v1/boards/{board}` turned into
 * screen coordinates, rotated so that a chosen home corner is at the bottom.
 *
 * Pure functions, no DOM: the board view draws what these compute.
 *
 * @module
 */

import type { types } from "@halma/client";

/** A point in drawing units: neighbouring cells are 2 units apart. */
export interface Point {
  readonly x: number;
  readonly y: number;
}

/** The drawing of a board: every cell's centre and the box around them. */
export interface Layout {
  /** The board as the service describes it. */
  readonly board: types.BoardView;
  /** Each cell's centre, by cell name. */
  readonly centres: ReadonlyMap<string, Point>;
  /** The rotation applied, in degrees clockwise. */
  readonly rotation: number;
  /** The SVG `viewBox` that holds every cell with a margin of one cell. */
  readonly viewBox: {
    readonly x: number;
    readonly y: number;
    readonly width: number;
    readonly height: number;
  };
}

/** The distance between the centres of two neighbouring cells, in drawing units. */
export const CELL_SPACING = 2;

/**
 * A cell's centre before rotation. Star coordinates are in half-cell units across and rows
 * down, rows being sqrt(3)/2 cell widths apart; square coordinates are columns and rows.
 */
export function rawCentre(board: types.BoardView, cell: types.CellView): Point {
  if (board.board === "star") {
    return { x: cell.x, y: cell.y * Math.sqrt(3) };
  }
  return { x: cell.x * CELL_SPACING, y: cell.y * CELL_SPACING };
}

/**
 * The rotation (degrees clockwise, a multiple of the board's symmetry: 60 on the star, 90 on
 * square boards) that brings the centre of `cells` closest to straight below the board's
 * centre; 0 when `cells` is empty.
 */
export function rotationFor(board: types.BoardView, cells: readonly string[]): number {
  const raw = new Map(board.cells.map((c) => [c.name, rawCentre(board, c)]));
  const centre = middle([...raw.values()]);
  const area = cells.flatMap((name) => {
    const point = raw.get(name);
    return point === undefined ? [] : [point];
  });
  if (area.length === 0) {
    return 0;
  }
  const target = middle(area);
  // Screen angles: y grows downwards, so "straight down" is +90 degrees.
  const angle = (Math.atan2(target.y - centre.y, target.x - centre.x) * 180) / Math.PI;
  const step = board.board === "star" ? 60 : 90;
  let best = 0;
  let bestGap = Number.POSITIVE_INFINITY;
  for (let rotation = 0; rotation < 360; rotation += step) {
    const gap = angularGap(angle + rotation, 90);
    // A small tolerance keeps the smaller rotation when two are equally good (square camps
    // sit on a diagonal, 45 degrees from straight down either way).
    if (gap < bestGap - 1e-6) {
      best = rotation;
      bestGap = gap;
    }
  }
  return best;
}

/** Lays out `board` rotated by `rotation` degrees clockwise around its centre. */
export function layout(board: types.BoardView, rotation: number): Layout {
  const raw = board.cells.map((c) => [c.name, rawCentre(board, c)] as const);
  const centre = middle(raw.map(([, p]) => p));
  const radians = (rotation * Math.PI) / 180;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  const centres = new Map<string, Point>();
  for (const [name, p] of raw) {
    const dx = p.x - centre.x;
    const dy = p.y - centre.y;
    // Rounded so that rotated rows stay exactly level (no 1e-15 noise in the SVG).
    centres.set(name, { x: round(dx * cos - dy * sin), y: round(dx * sin + dy * cos) });
  }
  const xs = [...centres.values()].map((p) => p.x);
  const ys = [...centres.values()].map((p) => p.y);
  const margin = CELL_SPACING;
  const minX = Math.min(...xs) - margin;
  const minY = Math.min(...ys) - margin;
  return {
    board,
    centres,
    rotation,
    viewBox: {
      x: minX,
      y: minY,
      width: Math.max(...xs) + margin - minX,
      height: Math.max(...ys) + margin - minY,
    },
  };
}

function middle(points: readonly Point[]): Point {
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  return {
    x: (Math.min(...xs) + Math.max(...xs)) / 2,
    y: (Math.min(...ys) + Math.max(...ys)) / 2,
  };
}

function angularGap(a: number, b: number): number {
  const d = (((a - b) % 360) + 360) % 360;
  return Math.min(d, 360 - d);
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
