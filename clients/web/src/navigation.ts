/**
 * Moving the keyboard focus between cells with the arrow keys: the nearest cell in the
 * arrow's direction as the board is drawn (rotation included).
 *
 * @module
 */

import type { Point } from "./geometry.js";

/** The four arrow keys. */
export type Direction = "up" | "down" | "left" | "right";

/** The direction of an arrow key's `KeyboardEvent.key`, if it is one. */
export function directionOfKey(key: string): Direction | undefined {
  switch (key) {
    case "ArrowUp":
      return "up";
    case "ArrowDown":
      return "down";
    case "ArrowLeft":
      return "left";
    case "ArrowRight":
      return "right";
    default:
      return undefined;
  }
}

const UNIT: Record<Direction, Point> = {
  up: { x: 0, y: -1 },
  down: { x: 0, y: 1 },
  left: { x: -1, y: 0 },
  right: { x: 1, y: 0 },
};

/**
 * The cell to focus after pressing `direction` on `from`: among the cells less than 60
 * degrees off the direction, the nearest one, a cell off the line counting as a little
 * farther (so that "up" on the star goes to the row above, not two rows up). `undefined` at
 * the edge of the board.
 */
export function nextCell(
  centres: ReadonlyMap<string, Point>,
  from: string,
  direction: Direction,
): string | undefined {
  const start = centres.get(from);
  if (start === undefined) {
    return undefined;
  }
  const unit = UNIT[direction];
  let best: string | undefined;
  let bestCost = Number.POSITIVE_INFINITY;
  for (const [name, p] of centres) {
    const dx = p.x - start.x;
    const dy = p.y - start.y;
    const along = dx * unit.x + dy * unit.y;
    const across = Math.abs(dx * unit.y - dy * unit.x);
    // tan(60 degrees) = sqrt(3): a star's diagonal neighbours are exactly 60 degrees off.
    if (along <= 1e-9 || across > along * Math.sqrt(3) - 1e-9) {
      continue;
    }
    const cost = Math.hypot(dx, dy) + across / 2;
    if (cost < bestCost - 1e-9) {
      best = name;
      bestCost = cost;
    }
  }
  return best;
}
