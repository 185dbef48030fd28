//! Where the board is drawn: cell centres, the star's outline, the camps' polygons, and the
//! map from board space to the picture.

use halma_rules::{Bitboard, Board, BoardKind};

/// The distance between neighbouring cell centres, in SVG user units.
pub(crate) const UNIT: f64 = 40.0;

/// Star: the distance between neighbouring rows, in units of [`UNIT`].
pub(crate) fn row_step() -> f64 {
    3f64.sqrt() / 2.0
}

/// Star: from the outermost cell centres to the star's edge, in units of [`UNIT`].
pub(crate) const STAR_EDGE: f64 = 0.6;
/// Star: the margin around the star, in units of [`UNIT`].
pub(crate) const STAR_PAD: f64 = 0.3;
/// Square boards: the frame around the squares, in units of [`UNIT`].
pub(crate) const FRAME_WIDTH: f64 = 0.4;

/// A point or a vector, in SVG user units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Pt {
    pub(crate) x: f64,
    pub(crate) y: f64,
}

impl Pt {
    pub(crate) fn new(x: f64, y: f64) -> Pt {
        Pt { x, y }
    }
    pub(crate) fn add(self, o: Pt) -> Pt {
        Pt::new(self.x + o.x, self.y + o.y)
    }
    pub(crate) fn sub(self, o: Pt) -> Pt {
        Pt::new(self.x - o.x, self.y - o.y)
    }
    pub(crate) fn scale(self, k: f64) -> Pt {
        Pt::new(self.x * k, self.y * k)
    }
    pub(crate) fn dot(self, o: Pt) -> f64 {
        self.x * o.x + self.y * o.y
    }
    pub(crate) fn len(self) -> f64 {
        self.dot(self).sqrt()
    }
}

/// The board's drawing: cell centres and outline in board space, and the map from board space
/// to the picture (translation, and a turn about the picture's centre).
pub(crate) struct Layout {
    board: &'static Board,
    /// Cell centres in board space, by cell index.
    pub(crate) centres: Vec<Pt>,
    /// Star: the hexagram around the cells; square: the corners of the board.
    pub(crate) outline: Vec<Pt>,
    /// The picture's top-left corner in board space.
    origin: Pt,
    /// The picture's size in user units (the `viewBox`).
    pub(crate) width: f64,
    pub(crate) height: f64,
    /// The picture's turn about its centre, clockwise, as its cosine and sine.
    turn: (f64, f64),
}

/// The turns a board can be drawn in: 6 on the star (a sixth of a turn each, which maps the
/// star onto itself), 4 on square boards.
pub(crate) fn turn_steps(board: &Board) -> u8 {
    if board.kind() == BoardKind::Star {
        6
    } else {
        4
    }
}

/// The cosine and sine of `steps` clockwise turns of the board, exactly where they are 0 or 1.
fn turn(board: &Board, steps: u8) -> (f64, f64) {
    let half_root3 = 3f64.sqrt() / 2.0;
    if board.kind() == BoardKind::Star {
        [
            (1.0, 0.0),
            (0.5, half_root3),
            (-0.5, half_root3),
            (-1.0, 0.0),
            (-0.5, -half_root3),
            (0.5, -half_root3),
        ][usize::from(steps % 6)]
    } else {
        [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)][usize::from(steps % 4)]
    }
}

impl Layout {
    /// The drawing of `board` turned `turns` steps clockwise (see [`turn_steps`]).
    pub(crate) fn new(board: &'static Board, turns: u8) -> Layout {
        let star = board.kind() == BoardKind::Star;
        let centres: Vec<Pt> = board
            .cells()
            .iter()
            .map(|c| {
                let (x, y) = (f64::from(c.x), f64::from(c.y));
                if star {
                    Pt::new(x * UNIT / 2.0, y * row_step() * UNIT)
                } else {
                    Pt::new((x + 0.5) * UNIT, (y + 0.5) * UNIT)
                }
            })
            .collect();
        let (lo, hi) = bounds(&centres);
        let (outline, pad) = if star {
            // A regular hexagram: its tips lie 2 * STAR_EDGE beyond the tip cells (each side
            // runs STAR_EDGE outside a line of cells), its inner corners at 1 / sqrt(3) of the
            // tips' radius.
            let centre = lo.add(hi).scale(0.5);
            let radius = (hi.y - lo.y) / 2.0 + 2.0 * STAR_EDGE * UNIT;
            let inner = radius / 3f64.sqrt();
            let outline = (0..12)
                .map(|k| {
                    let angle =
                        f64::from(k) * std::f64::consts::PI / 6.0 - std::f64::consts::FRAC_PI_2;
                    let r = if k % 2 == 0 { radius } else { inner };
                    centre.add(Pt::new(angle.cos(), angle.sin()).scale(r))
                })
                .collect();
            (outline, STAR_PAD * UNIT)
        } else {
            let (a, b) = (
                lo.sub(Pt::new(UNIT / 2.0, UNIT / 2.0)),
                hi.add(Pt::new(UNIT / 2.0, UNIT / 2.0)),
            );
            (
                vec![a, Pt::new(b.x, a.y), b, Pt::new(a.x, b.y)],
                FRAME_WIDTH * UNIT,
            )
        };
        let (lo, hi) = bounds(&outline);
        let origin = lo.sub(Pt::new(pad, pad));
        let far = hi.add(Pt::new(pad, pad));
        Layout {
            board,
            centres,
            outline,
            origin,
            width: far.x - origin.x,
            height: far.y - origin.y,
            turn: turn(board, turns),
        }
    }

    pub(crate) fn star(&self) -> bool {
        self.board.kind() == BoardKind::Star
    }

    /// A board-space point in picture coordinates.
    pub(crate) fn map(&self, p: Pt) -> Pt {
        let q = p.sub(self.origin);
        let (cos, sin) = self.turn;
        if (cos, sin) == (1.0, 0.0) {
            return q;
        }
        let centre = Pt::new(self.width / 2.0, self.height / 2.0);
        let d = q.sub(centre);
        centre.add(Pt::new(d.x * cos - d.y * sin, d.x * sin + d.y * cos))
    }

    /// The centre of the board's cells in board space.
    pub(crate) fn middle(&self) -> Pt {
        let (lo, hi) = bounds(&self.centres);
        lo.add(hi).scale(0.5)
    }

    /// Where a cell is drawn, if the board has it.
    pub(crate) fn at(&self, index: usize) -> Option<Pt> {
        self.centres.get(index).map(|&p| self.map(p))
    }

    /// The picture's size in pixels: the longer side is `size_px`.
    pub(crate) fn pixels(&self, size_px: u32) -> (u32, u32) {
        let size = f64::from(size_px.max(1));
        let k = size / self.width.max(self.height);
        let px = |v: f64| ((v * k).round() as u32).max(1);
        (px(self.width), px(self.height))
    }
}

/// The smallest and largest coordinates of some points.
pub(crate) fn bounds(points: &[Pt]) -> (Pt, Pt) {
    let lo = points
        .iter()
        .fold(Pt::new(f64::INFINITY, f64::INFINITY), |a, p| {
            Pt::new(a.x.min(p.x), a.y.min(p.y))
        });
    let hi = points
        .iter()
        .fold(Pt::new(f64::NEG_INFINITY, f64::NEG_INFINITY), |a, p| {
            Pt::new(a.x.max(p.x), a.y.max(p.y))
        });
    if points.is_empty() {
        (Pt::new(0.0, 0.0), Pt::new(0.0, 0.0))
    } else {
        (lo, hi)
    }
}

/// Star: the polygon of a camp's corner triangle, in board space: the convex hull of its
/// cells, each side moved out to the star's edge where it runs along the board's edge, and
/// to the line through the star's inner corners (as far as the edge of the next row inward
/// would lie) where it faces the board's inside. `None` when the cells span no area.
pub(crate) fn camp_polygon(layout: &Layout, cells: Bitboard) -> Option<Vec<Pt>> {
    let lattice: Vec<(i64, i64)> = cells
        .iter()
        .filter_map(|c| layout.board.cells().get(usize::from(c)))
        .map(|c| (i64::from(c.x), i64::from(c.y)))
        .collect();
    // The lattice coordinates map to board space by scaling each axis by a positive factor,
    // so the hull in lattice coordinates is the hull in board space.
    let hull: Vec<Pt> = convex_hull(lattice)
        .into_iter()
        .map(|(x, y)| Pt::new(x as f64 * UNIT / 2.0, y as f64 * row_step() * UNIT))
        .collect();
    if hull.len() < 3 {
        return None;
    }
    let n = hull.len();
    let centroid = hull
        .iter()
        .fold(Pt::new(0.0, 0.0), |a, &p| a.add(p))
        .scale(1.0 / n as f64);
    // Each side as a line `normal . p = offset`, the normal pointing out of the hull.
    let lines: Vec<(Pt, f64)> = (0..n)
        .map(|i| {
            let (a, b) = (hull[i], hull[(i + 1) % n]);
            let d = b.sub(a);
            let mut normal = Pt::new(d.y, -d.x).scale(1.0 / d.len());
            let mid = a.add(b).scale(0.5);
            if normal.dot(mid.sub(centroid)) < 0.0 {
                normal = normal.scale(-1.0);
            }
            // One row further out: cells there mean the side faces the board's inside.
            let probe = mid.add(normal.scale(row_step() * UNIT));
            let inside = layout
                .centres
                .iter()
                .any(|&c| c.sub(probe).len() < 0.6 * UNIT);
            let shift = if inside {
                (row_step() - STAR_EDGE) * UNIT
            } else {
                STAR_EDGE * UNIT
            };
            (normal, normal.dot(a) + shift)
        })
        .collect();
    Some(
        (0..n)
            .map(|i| {
                let (n1, c1) = lines[(i + n - 1) % n];
                let (n2, c2) = lines[i];
                let det = n1.x * n2.y - n1.y * n2.x;
                if det.abs() < 1e-9 {
                    hull[i].add(n1.scale(c1 - n1.dot(hull[i])))
                } else {
                    Pt::new((c1 * n2.y - c2 * n1.y) / det, (n1.x * c2 - n2.x * c1) / det)
                }
            })
            .collect(),
    )
}

/// The convex hull of lattice points (Andrew's monotone chain), without collinear points.
fn convex_hull(mut points: Vec<(i64, i64)>) -> Vec<(i64, i64)> {
    points.sort_unstable();
    points.dedup();
    if points.len() < 3 {
        return points;
    }
    let cross = |o: (i64, i64), a: (i64, i64), b: (i64, i64)| {
        (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
    };
    let chain = |iter: &mut dyn Iterator<Item = &(i64, i64)>| {
        let mut chain: Vec<(i64, i64)> = Vec::new();
        for &p in iter {
            while let [.., a, b] = chain[..] {
                if cross(a, b, p) > 0 {
                    break;
                }
                chain.pop();
            }
            chain.push(p);
        }
        chain.pop();
        chain
    };
    let mut hull = chain(&mut points.iter());
    hull.extend(chain(&mut points.iter().rev()));
    hull
}
