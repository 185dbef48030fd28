/**
 * How an army looks: a colour from a palette made for colour-blind readers (Okabe and Ito)
 * and, beside the colour, a shape of its own, so that no two armies differ by colour alone.
 *
 * @module
 */

/** The shape of an army's pieces. */
export type Shape = "circle" | "square" | "triangle" | "diamond" | "star" | "hexagon";

/** An army's look. */
export interface ArmyStyle {
  /** Fill colour of the pieces. */
  readonly colour: string;
  /** Light tint for its home area. */
  readonly tint: string;
  /** The colour's name, for screen readers and the seat list. */
  readonly colourName: string;
  /** The pieces' shape. */
  readonly shape: Shape;
}

const STYLES: readonly ArmyStyle[] = [
  { colour: "#d55e00", tint: "#f6d5bf", colourName: "vermilion", shape: "circle" },
  { colour: "#0072b2", tint: "#bfdcec", colourName: "blue", shape: "square" },
  { colour: "#009e73", tint: "#bfe7dc", colourName: "green", shape: "triangle" },
  { colour: "#e69f00", tint: "#f9e7bf", colourName: "orange", shape: "diamond" },
  { colour: "#cc79a7", tint: "#f2dee9", colourName: "purple", shape: "star" },
  { colour: "#56b4e9", tint: "#d5ecf9", colourName: "sky blue", shape: "hexagon" },
];

/** The look of army `army` (armies are numbered from 0; six at most). */
export function armyStyle(army: number): ArmyStyle {
  const style = STYLES[army % STYLES.length];
  if (style === undefined) {
    throw new RangeError(`no style for army ${army}`);
  }
  return style;
}

/** An army in words: "blue squares". */
export function describeArmy(army: number): string {
  const style = armyStyle(army);
  return `${style.colourName} ${style.shape}s`;
}

/**
 * The SVG path of `shape` centred on (0, 0) with about `radius` units from centre to edge.
 */
export function shapePath(shape: Shape, radius: number): string {
  const r = radius;
  switch (shape) {
    case "circle":
      return `M ${-r} 0 A ${r} ${r} 0 1 0 ${r} 0 A ${r} ${r} 0 1 0 ${-r} 0 Z`;
    case "square": {
      const s = r * 0.85;
      return polygon([
        [-s, -s],
        [s, -s],
        [s, s],
        [-s, s],
      ]);
    }
    case "triangle":
      return polygon(regular(3, r * 1.15, -90));
    case "diamond":
      return polygon(regular(4, r * 1.12, -90));
    case "star":
      return polygon(
        regular(10, r * 1.15, -90).map(([x, y], i) => (i % 2 === 0 ? [x, y] : [x * 0.5, y * 0.5])),
      );
    case "hexagon":
      return polygon(regular(6, r * 1.02, 0));
  }
}

function regular(corners: number, radius: number, startDegrees: number): [number, number][] {
  return Array.from({ length: corners }, (_, i) => {
    const a = ((startDegrees + (360 * i) / corners) * Math.PI) / 180;
    return [radius * Math.cos(a), radius * Math.sin(a)];
  });
}

function polygon(points: readonly (readonly [number, number])[]): string {
  const fixed = points.map(([x, y]) => `${x.toFixed(3)} ${y.toFixed(3)}`);
  return `M ${fixed.join(" L ")} Z`;
}
