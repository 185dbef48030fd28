//! Board pictures: a position drawn as a standalone SVG document, for an `<img>` tag.
//!
//! [`board_svg`] draws the board (the six-pointed star with its grid lines and holes, or the
//! squares of a square board), the home and goal areas tinted in each army's colour, the
//! pieces, and on request the cell names and a highlighted path (such as the last move).
//!
//! The crate is pure: no I/O and no web types, so any program can draw positions; the game
//! service serves these pictures at `GET /v1/games/{id}/board.svg`. The output depends only on its input, byte
//! for byte, so a picture can be cached or compared.
//!
//! ```
//! use halma_rules::{BoardKind, GameSetup, Position, RuleOptions, Variant};
//! use halma_render::{board_svg, RenderOptions};
//!
//! let variant = Variant::new(&GameSetup { board: BoardKind::Star, players: 2, options: RuleOptions::default() })?;
//! let first = variant.seat(0).ok_or("no seat")?;
//! let svg = board_svg(&variant, &Position::start(&variant, first), &RenderOptions::default());
//! assert!(svg.contains("<svg") && svg.contains("viewBox"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]

use std::borrow::Cow;
use std::fmt::{self, Write as _};

use halma_rules::{Bitboard, Board, BoardKind, Cell, Corner, Position, Seat, Variant};

use geometry::{bounds, camp_polygon, turn_steps, Layout, Pt, FRAME_WIDTH, UNIT};

mod geometry;

/// The default length of a picture's longer side, in pixels.
pub const DEFAULT_SIZE_PX: u32 = 640;

/// How to draw a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderOptions {
    /// The length of the picture's longer side in pixels (the `width` or `height` attribute;
    /// the other follows the board's proportions). 0 is taken as 1.
    pub size_px: u32,
    /// Write each cell's name (`e5`) on the board.
    pub show_names: bool,
    /// Cells to mark, e.g. the path of the last move: each is ringed, and two or more are
    /// joined in order by a line with an arrow head at the last one. Cells that are not on the
    /// variant's board are left out.
    pub highlight: Vec<Cell>,
    /// The seat to draw at the bottom, as its player sees the board: the board is turned
    /// (by sixths of a turn on the star, quarter turns on square boards) so that the seat's
    /// home corner comes where seat 0 starts when the board is drawn unturned (the star's
    /// bottom tip, the bottom right-hand corner of a square board). `None` draws it unturned.
    /// Text stays upright. A seat the variant does not have is taken as `None`.
    pub bottom: Option<Seat>,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            size_px: DEFAULT_SIZE_PX,
            show_names: false,
            highlight: Vec::new(),
            bottom: None,
        }
    }
}

/// The colour of an army's pieces (index into [`Variant::armies`]), as `#RRGGBB`.
///
/// The six colours are the Okabe–Ito palette, chosen to stay distinguishable with the common
/// kinds of colour blindness; army `i` takes colour `i % 6`.
#[must_use]
pub fn army_colour(army: usize) -> String {
    palette(army).to_string()
}

/// Draws a position as a standalone SVG document (UTF-8 text, with `width`, `height` and a
/// `viewBox`).
///
/// Every piece is one `<circle class="piece army-N">`, so the picture can also be inspected by
/// machine. Pieces of armies the variant does not have, and cells beyond its board, are not
/// drawn, so a position from another variant cannot make this panic.
#[must_use]
pub fn board_svg(variant: &Variant, position: &Position, options: &RenderOptions) -> String {
    let layout = Layout::new(variant.board(), turns_for(variant, options.bottom));
    let mut out = String::with_capacity(32 * 1024);
    // Writing into a `String` cannot fail.
    let _ = write_svg(&mut out, variant, position, options, &layout);
    out
}

/// The clockwise turns (see [`RenderOptions::bottom`]) that bring `bottom`'s home corner to
/// where seat 0's is drawn unturned: the turn whose direction from the board's middle to the
/// corner comes nearest straight down (star) or down to the right (square boards).
fn turns_for(variant: &Variant, bottom: Option<Seat>) -> u8 {
    let Some(army) = bottom.and_then(|seat| variant.armies_of(seat).next()) else {
        return 0;
    };
    let layout = Layout::new(variant.board(), 0);
    let home = variant.armies()[army].home;
    let cells: Vec<Pt> = home
        .iter()
        .filter_map(|c| layout.centres.get(usize::from(c)).copied())
        .collect();
    if cells.is_empty() {
        return 0;
    }
    let corner = cells
        .iter()
        .fold(Pt::new(0.0, 0.0), |a, &p| a.add(p))
        .scale(1.0 / cells.len() as f64)
        .sub(layout.middle());
    let target = if variant.board().kind() == BoardKind::Star {
        Pt::new(0.0, 1.0)
    } else {
        Pt::new(1.0, 1.0)
    };
    (0..turn_steps(variant.board()))
        .max_by(|&a, &b| {
            let along = |turns: u8| {
                let turned = Layout::new(variant.board(), turns);
                let d = turned
                    .map(corner.add(layout.middle()))
                    .sub(turned.map(layout.middle()));
                d.dot(target) / d.len().max(1e-9)
            };
            along(a).total_cmp(&along(b))
        })
        .unwrap_or(0)
}

// ---------------------------------------------------------------------------------------------
// Colours.

/// A colour as red, green and blue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rgb(u8, u8, u8);

impl Rgb {
    /// `self` weighted `t` (0 to 1) against `other`.
    fn mix(self, other: Rgb, t: f64) -> Rgb {
        let c = |a: u8, b: u8| (f64::from(a) * t + f64::from(b) * (1.0 - t)).round() as u8;
        Rgb(c(self.0, other.0), c(self.1, other.1), c(self.2, other.2))
    }
}

impl fmt::Display for Rgb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:02X}{:02X}{:02X}", self.0, self.1, self.2)
    }
}

/// Okabe–Ito: vermillion, blue, bluish green, reddish purple, orange, sky blue.
const PALETTE: [Rgb; 6] = [
    Rgb(0xD5, 0x5E, 0x00),
    Rgb(0x00, 0x72, 0xB2),
    Rgb(0x00, 0x9E, 0x73),
    Rgb(0xCC, 0x79, 0xA7),
    Rgb(0xE6, 0x9F, 0x00),
    Rgb(0x56, 0xB4, 0xE9),
];

fn palette(army: usize) -> Rgb {
    PALETTE[army % PALETTE.len()]
}

const BLACK: Rgb = Rgb(0, 0, 0);
const WHITE: Rgb = Rgb(0xFF, 0xFF, 0xFF);
/// Behind the board.
const PAGE: Rgb = Rgb(0xFA, 0xF7, 0xF0);
/// The star's wood and its edge.
const WOOD: Rgb = Rgb(0xEA, 0xCF, 0x9C);
const WOOD_EDGE: Rgb = Rgb(0x8C, 0x6A, 0x3C);
const GRID: Rgb = Rgb(0xA3, 0x83, 0x55);
const HOLE: Rgb = Rgb(0x5A, 0x43, 0x28);
/// The square boards: frame, light and dark squares, lines.
const FRAME: Rgb = Rgb(0x7A, 0x5A, 0x33);
const LIGHT_SQUARE: Rgb = Rgb(0xF3, 0xE4, 0xC6);
const DARK_SQUARE: Rgb = Rgb(0xE2, 0xCA, 0x9C);
const SQUARE_LINE: Rgb = Rgb(0x9C, 0x7C, 0x4E);
/// Highlighted path and rings; cell names.
const MARK: Rgb = Rgb(0x1A, 0x1A, 0x1A);
const TEXT: Rgb = Rgb(0x22, 0x1C, 0x14);

/// How strongly a home area and a goal area (that is nobody's home) take the army's colour.
const HOME_TINT: f64 = 0.5;
const GOAL_TINT: f64 = 0.25;

// ---------------------------------------------------------------------------------------------
// Numbers and text.

/// A coordinate written with at most two decimals and no trailing zeros.
struct Num(f64);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = (self.0 * 100.0).round() / 100.0;
        if !r.is_finite() || r.abs() < 0.005 {
            return f.write_str("0");
        }
        let text = format!("{r:.2}");
        f.write_str(text.trim_end_matches('0').trim_end_matches('.'))
    }
}

/// Text escaped for XML character data and attribute values; characters XML 1.0 cannot hold
/// (most control characters) are dropped.
fn escape(text: &str) -> Cow<'_, str> {
    let plain = |c: char| !matches!(c, '&' | '<' | '>' | '"' | '\'') && xml_char(c);
    if text.chars().all(plain) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if xml_char(c) => out.push(c),
            _ => {}
        }
    }
    Cow::Owned(out)
}

/// Whether XML 1.0 allows the character in a document.
fn xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// A tinted area: a home, or a goal that is nobody's home.
struct Area {
    army: usize,
    cells: Bitboard,
    corner: Corner,
    fill: Rgb,
    kind: &'static str,
}

/// The areas to tint, goals first so that homes are drawn over them.
fn areas(variant: &Variant, base: Rgb) -> Vec<Area> {
    let homes = variant
        .armies()
        .iter()
        .fold(Bitboard::EMPTY, |acc, a| acc | a.home);
    let goals = variant.armies().iter().enumerate().filter_map(|(i, a)| {
        let cells = a.goal & !homes;
        (!cells.is_empty()).then(|| Area {
            army: i,
            cells,
            corner: a.goal_corner,
            fill: palette(i).mix(base, GOAL_TINT),
            kind: "goal",
        })
    });
    let home_areas = variant.armies().iter().enumerate().map(|(i, a)| Area {
        army: i,
        cells: a.home,
        corner: a.home_corner,
        fill: palette(i).mix(base, HOME_TINT),
        kind: "home",
    });
    goals.chain(home_areas).collect()
}

// ---------------------------------------------------------------------------------------------
// Writing the document.

fn write_svg(
    out: &mut String,
    variant: &Variant,
    position: &Position,
    options: &RenderOptions,
    layout: &Layout,
) -> fmt::Result {
    let board = variant.board();
    let (w, h) = layout.pixels(options.size_px);
    let title = format!(
        "Halma: {} board, {} players, player {} to move",
        board.kind().name(),
        variant.players(),
        u32::from(position.to_move().index()) + 1
    );
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{w}" height="{h}" viewBox="0 0 {} {}" role="img">"#,
        Num(layout.width),
        Num(layout.height)
    )?;
    writeln!(out, "<title>{}</title>", escape(&title))?;
    let path: Vec<Pt> = options
        .highlight
        .iter()
        .filter_map(|c| layout.at(usize::from(c.index())))
        .collect();
    if path.len() >= 2 {
        writeln!(
            out,
            r#"<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="4" markerHeight="4" orient="auto"><path d="M0 0L10 5L0 10z" fill="{MARK}"/></marker></defs>"#
        )?;
    }
    writeln!(
        out,
        r#"<rect class="background" width="{}" height="{}" fill="{PAGE}"/>"#,
        Num(layout.width),
        Num(layout.height)
    )?;
    if layout.star() {
        write_star(out, variant, layout)?;
    } else {
        write_square(out, variant, layout)?;
    }
    write_pieces(out, variant, position, layout)?;
    write_highlight(out, &path, layout)?;
    if options.show_names {
        write_names(out, board, layout)?;
    }
    writeln!(out, "</svg>")
}

/// Writes `points="x,y x,y ..."`'s value.
fn write_points(out: &mut String, points: &[Pt]) -> fmt::Result {
    for (i, p) in points.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        write!(out, "{},{}", Num(p.x), Num(p.y))?;
    }
    Ok(())
}

fn write_star(out: &mut String, variant: &Variant, layout: &Layout) -> fmt::Result {
    let board = variant.board();
    let outline: Vec<Pt> = layout.outline.iter().map(|&p| layout.map(p)).collect();
    write!(out, r#"<polygon class="board" fill="{WOOD}" points=""#)?;
    write_points(out, &outline)?;
    writeln!(out, r#""/>"#)?;

    // The camps: the corner triangle as one polygon, any further cells of the area (the
    // fifteen-piece setup's front row) as tinted discs.
    writeln!(out, r#"<g class="camps">"#)?;
    for area in areas(variant, WOOD) {
        let triangle = area.cells & board.corner_cells(area.corner, &[]);
        let polygon = camp_polygon(layout, triangle);
        let discs = if polygon.is_some() {
            area.cells & !triangle
        } else {
            area.cells
        };
        if let Some(polygon) = polygon {
            let polygon: Vec<Pt> = polygon.into_iter().map(|p| layout.map(p)).collect();
            write!(
                out,
                r#"<polygon class="camp {} army-{}" fill="{}" points=""#,
                area.kind, area.army, area.fill
            )?;
            write_points(out, &polygon)?;
            writeln!(out, r#""/>"#)?;
        }
        for cell in discs.iter() {
            if let Some(p) = layout.at(usize::from(cell)) {
                writeln!(
                    out,
                    r#"<circle class="camp {} army-{}" fill="{}" cx="{}" cy="{}" r="{}"/>"#,
                    area.kind,
                    area.army,
                    area.fill,
                    Num(p.x),
                    Num(p.y),
                    Num(0.48 * UNIT)
                )?;
            }
        }
    }
    writeln!(out, "</g>")?;
    // The star's edge, over the camps' outer sides.
    write!(
        out,
        r#"<polygon class="edge" fill="none" stroke="{WOOD_EDGE}" stroke-width="{}" stroke-linejoin="round" points=""#,
        Num(0.08 * UNIT)
    )?;
    write_points(out, &outline)?;
    writeln!(out, r#""/>"#)?;

    // Grid lines between neighbours, then a hole per cell.
    write!(
        out,
        r#"<path class="grid" fill="none" stroke="{GRID}" stroke-width="{}" stroke-linecap="round" d=""#,
        Num(0.05 * UNIT)
    )?;
    for i in 0..board.len() {
        let Some(cell) = board.cell(i) else { continue };
        for nb in board.neighbors(cell) {
            let j = usize::from(nb.index());
            if j <= i {
                continue;
            }
            if let (Some(a), Some(b)) = (layout.at(i), layout.at(j)) {
                write!(out, "M{} {}L{} {}", Num(a.x), Num(a.y), Num(b.x), Num(b.y))?;
            }
        }
    }
    writeln!(out, r#""/>"#)?;
    writeln!(out, r#"<g class="holes" fill="{HOLE}">"#)?;
    for i in 0..board.len() {
        if let Some(p) = layout.at(i) {
            writeln!(
                out,
                r#"<circle cx="{}" cy="{}" r="{}"/>"#,
                Num(p.x),
                Num(p.y),
                Num(0.15 * UNIT)
            )?;
        }
    }
    writeln!(out, "</g>")
}

fn write_square(out: &mut String, variant: &Variant, layout: &Layout) -> fmt::Result {
    let board = variant.board();
    let size = board.kind().square_size().map_or(0, usize::from);
    let outline: Vec<Pt> = layout.outline.iter().map(|&p| layout.map(p)).collect();
    let (lo, hi) = bounds(&outline);
    let frame = FRAME_WIDTH * UNIT * 0.75;
    writeln!(
        out,
        r#"<rect class="board" x="{}" y="{}" width="{}" height="{}" rx="{}" fill="{FRAME}"/>"#,
        Num(lo.x - frame),
        Num(lo.y - frame),
        Num(hi.x - lo.x + 2.0 * frame),
        Num(hi.y - lo.y + 2.0 * frame),
        Num(0.15 * UNIT)
    )?;

    // The squares, camp squares tinted (homes over goals).
    let areas = areas(variant, LIGHT_SQUARE);
    let mut fill: Vec<Option<Rgb>> = vec![None; board.len()];
    for area in &areas {
        for cell in area.cells.iter() {
            if let Some(f) = fill.get_mut(usize::from(cell)) {
                *f = Some(area.fill);
            }
        }
    }
    writeln!(out, r#"<g class="squares">"#)?;
    for (i, info) in board.cells().iter().enumerate() {
        let Some(p) = layout.at(i) else { continue };
        let base = if (info.x + info.y) % 2 == 0 {
            LIGHT_SQUARE
        } else {
            DARK_SQUARE
        };
        let colour = fill.get(i).copied().flatten().map_or(base, |tint| {
            if base == DARK_SQUARE {
                tint.mix(BLACK, 0.93)
            } else {
                tint
            }
        });
        writeln!(
            out,
            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{colour}"/>"#,
            Num(p.x - UNIT / 2.0),
            Num(p.y - UNIT / 2.0),
            Num(UNIT),
            Num(UNIT)
        )?;
    }
    writeln!(out, "</g>")?;

    // The lines between the squares.
    write!(
        out,
        r#"<path class="grid" fill="none" stroke="{SQUARE_LINE}" stroke-width="{}" d=""#,
        Num(0.03 * UNIT)
    )?;
    for k in 0..=size {
        let t = k as f64 * UNIT;
        let edge = size as f64 * UNIT;
        for (a, b) in [
            (Pt::new(t, 0.0), Pt::new(t, edge)),
            (Pt::new(0.0, t), Pt::new(edge, t)),
        ] {
            let (a, b) = (layout.map(a), layout.map(b));
            write!(out, "M{} {}L{} {}", Num(a.x), Num(a.y), Num(b.x), Num(b.y))?;
        }
    }
    writeln!(out, r#""/>"#)?;

    // A line in the army's colour around each camp, where it borders other squares.
    let mut index_at = vec![None; size * size];
    for (i, info) in board.cells().iter().enumerate() {
        if let Some(slot) = index_at.get_mut(usize::from(info.y) * size + usize::from(info.x)) {
            *slot = Some(i);
        }
    }
    for area in &areas {
        write!(
            out,
            r#"<path class="camp-edge {} army-{}" fill="none" stroke="{}" stroke-width="{}" stroke-linecap="square" d=""#,
            area.kind,
            area.army,
            palette(area.army).mix(BLACK, 0.8),
            Num(0.08 * UNIT)
        )?;
        for cell in area.cells.iter() {
            let Some(info) = board.cells().get(usize::from(cell)) else {
                continue;
            };
            let (x, y) = (i64::from(info.x), i64::from(info.y));
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let (nx, ny) = (x + dx, y + dy);
                let Some(Some(other)) = usize::try_from(nx)
                    .ok()
                    .zip(usize::try_from(ny).ok())
                    .filter(|&(nx, ny)| nx < size && ny < size)
                    .and_then(|(nx, ny)| index_at.get(ny * size + nx))
                else {
                    continue; // the board's edge
                };
                if area.cells.has(*other as u8) {
                    continue;
                }
                // The side of square (x, y) facing (dx, dy), in board space.
                let (cx, cy) = (x as f64 + 0.5, y as f64 + 0.5);
                let (sx, sy) = (dx as f64 * 0.5, dy as f64 * 0.5);
                let a = Pt::new((cx + sx - sy) * UNIT, (cy + sy - sx) * UNIT);
                let b = Pt::new((cx + sx + sy) * UNIT, (cy + sy + sx) * UNIT);
                let (a, b) = (layout.map(a), layout.map(b));
                write!(out, "M{} {}L{} {}", Num(a.x), Num(a.y), Num(b.x), Num(b.y))?;
            }
        }
        writeln!(out, r#""/>"#)?;
    }
    Ok(())
}

fn write_pieces(
    out: &mut String,
    variant: &Variant,
    position: &Position,
    layout: &Layout,
) -> fmt::Result {
    let radius = if layout.star() { 0.37 } else { 0.36 } * UNIT;
    writeln!(
        out,
        r#"<g class="pieces" stroke-width="{}">"#,
        Num(0.05 * UNIT)
    )?;
    for army in 0..variant.armies().len() {
        let colour = palette(army);
        let edge = colour.mix(BLACK, 0.6);
        for cell in position.army(army).iter() {
            if let Some(p) = layout.at(usize::from(cell)) {
                writeln!(
                    out,
                    r#"<circle class="piece army-{army}" cx="{}" cy="{}" r="{}" fill="{colour}" stroke="{edge}"/>"#,
                    Num(p.x),
                    Num(p.y),
                    Num(radius)
                )?;
            }
        }
    }
    writeln!(out, "</g>")
}

fn write_highlight(out: &mut String, path: &[Pt], layout: &Layout) -> fmt::Result {
    if path.is_empty() {
        return Ok(());
    }
    let ring = if layout.star() { 0.46 } else { 0.44 } * UNIT;
    writeln!(
        out,
        r#"<g class="highlight" fill="none" stroke="{MARK}" stroke-opacity="0.85" stroke-width="{}" stroke-linecap="round" stroke-linejoin="round">"#,
        Num(0.08 * UNIT)
    )?;
    for p in path {
        writeln!(
            out,
            r#"<circle class="ring" cx="{}" cy="{}" r="{}"/>"#,
            Num(p.x),
            Num(p.y),
            Num(ring)
        )?;
    }
    if let [.., before, last] = *path {
        // The line stops at the last ring, so that the arrow head stays in sight; a light
        // band under it keeps it apart from the grid lines and pieces.
        let step = last.sub(before);
        let end = if step.len() > ring {
            last.sub(step.scale(ring / step.len()))
        } else {
            last
        };
        let mut line = path.to_vec();
        line.pop();
        line.push(end);
        write!(
            out,
            r#"<polyline class="path-halo" stroke="{WHITE}" stroke-opacity="0.6" stroke-width="{}" points=""#,
            Num(0.16 * UNIT)
        )?;
        write_points(out, &line)?;
        writeln!(out, r#""/>"#)?;
        write!(
            out,
            r#"<polyline class="path" marker-end="url(#arrow)" points=""#
        )?;
        write_points(out, &line)?;
        writeln!(out, r#""/>"#)?;
    }
    writeln!(out, "</g>")
}

fn write_names(out: &mut String, board: &Board, layout: &Layout) -> fmt::Result {
    let star = layout.star();
    let font = if star { 0.3 } else { 0.24 } * UNIT;
    writeln!(
        out,
        r#"<g class="names" font-family="DejaVu Sans, Verdana, sans-serif" font-size="{}" fill="{TEXT}" text-anchor="{}" stroke="{WHITE}" stroke-opacity="0.75" stroke-width="{}" stroke-linejoin="round" paint-order="stroke">"#,
        Num(font),
        if star { "middle" } else { "start" },
        Num(0.08 * UNIT)
    )?;
    for (i, info) in board.cells().iter().enumerate() {
        let Some(p) = layout.at(i) else { continue };
        // Star: centred on the cell; square: in the square's top-left corner.
        let at = if star {
            Pt::new(p.x, p.y + 0.35 * font)
        } else {
            Pt::new(p.x - 0.45 * UNIT, p.y - 0.45 * UNIT + 0.85 * font)
        };
        writeln!(
            out,
            r#"<text x="{}" y="{}">{}</text>"#,
            Num(at.x),
            Num(at.y),
            escape(&info.name)
        )?;
    }
    writeln!(out, "</g>")
}

#[cfg(test)]
// Tests unwrap what they have just built: a panic is the failure report.
#[allow(clippy::unwrap_used)]
mod tests {
    use std::sync::Arc;

    use halma_rules::{BoardKind, Game, GameSetup, RuleOptions};

    use super::*;

    fn variant(board: BoardKind, players: u8, options: RuleOptions) -> Variant {
        Variant::new(&GameSetup {
            board,
            players,
            options,
        })
        .unwrap()
    }

    fn start(v: &Variant) -> Position {
        Position::start(v, v.seat(0).unwrap())
    }

    /// Every setup worth drawing: each board, each player count, the star's arm sizes and
    /// camp options.
    fn setups() -> Vec<Variant> {
        let mut out = Vec::new();
        for players in [2, 3, 4, 6] {
            out.push(variant(BoardKind::Star, players, RuleOptions::default()));
        }
        for arm in [2, 3, 5] {
            let o = RuleOptions {
                arm_size: Some(arm),
                ..RuleOptions::default()
            };
            out.push(variant(BoardKind::Star, 2, o));
        }
        out.push(variant(
            BoardKind::Star,
            2,
            RuleOptions {
                fifteen_pieces: Some(true),
                ..RuleOptions::default()
            },
        ));
        out.push(variant(
            BoardKind::Star,
            4,
            RuleOptions {
                six_pieces: Some(true),
                ..RuleOptions::default()
            },
        ));
        out.push(variant(
            BoardKind::Star,
            2,
            RuleOptions {
                colours_per_player: Some(3),
                ..RuleOptions::default()
            },
        ));
        out.push(variant(BoardKind::Square16, 2, RuleOptions::default()));
        out.push(variant(BoardKind::Square16, 4, RuleOptions::default()));
        out.push(variant(BoardKind::Square10, 2, RuleOptions::default()));
        out.push(variant(BoardKind::Square8, 2, RuleOptions::default()));
        out
    }

    /// Parses the document (failing on malformed XML) and returns its piece circles' classes.
    fn pieces(svg: &str) -> Vec<String> {
        let doc = roxmltree::Document::parse(svg).unwrap();
        doc.descendants()
            .filter(|n| n.has_tag_name("circle"))
            .filter_map(|n| n.attribute("class"))
            .filter(|c| c.split(' ').any(|w| w == "piece"))
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn every_board_renders_as_well_formed_svg() {
        let mut kinds = std::collections::BTreeSet::new();
        for v in setups() {
            kinds.insert(v.board().kind().name());
            let pos = start(&v);
            for turns in 0..turn_steps(v.board()) {
                let options = RenderOptions {
                    bottom: v.seat(usize::from(turns) % usize::from(v.players())),
                    show_names: true,
                    ..RenderOptions::default()
                };
                let svg = board_svg(&v, &pos, &options);
                let doc = roxmltree::Document::parse(&svg).unwrap();
                let root = doc.root_element();
                assert_eq!(root.tag_name().name(), "svg");
                assert_eq!(
                    root.tag_name().namespace(),
                    Some("http://www.w3.org/2000/svg")
                );
                let view: Vec<f64> = root
                    .attribute("viewBox")
                    .unwrap()
                    .split(' ')
                    .map(|n| n.parse().unwrap())
                    .collect();
                assert_eq!(view.len(), 4);
                assert!(view[2] > 0.0 && view[3] > 0.0);
                let w: u32 = root.attribute("width").unwrap().parse().unwrap();
                let h: u32 = root.attribute("height").unwrap().parse().unwrap();
                assert_eq!(w.max(h), DEFAULT_SIZE_PX);
                // The pixel size keeps the viewBox's proportions.
                let ratio = f64::from(w) / f64::from(h);
                assert!((ratio - view[2] / view[3]).abs() < 0.01, "{ratio}");
                // Every cell centre lies inside the picture.
                let layout = Layout::new(v.board(), turns);
                for i in 0..v.board().len() {
                    let p = layout.at(i).unwrap();
                    assert!(p.x > 0.0 && p.y > 0.0 && p.x < view[2] && p.y < view[3]);
                }
            }
        }
        assert_eq!(kinds.len(), BoardKind::ALL.len());
    }

    #[test]
    fn one_circle_per_piece_in_its_army_class() {
        for v in setups() {
            let pos = start(&v);
            let svg = board_svg(&v, &pos, &RenderOptions::default());
            let classes = pieces(&svg);
            let total: u32 = (0..v.armies().len()).map(|a| pos.army(a).count()).sum();
            assert_eq!(classes.len(), total as usize);
            for a in 0..v.armies().len() {
                let class = format!("piece army-{a}");
                let n = classes.iter().filter(|c| **c == class).count();
                assert_eq!(n, pos.army(a).count() as usize);
                assert!(svg.contains(&format!("fill=\"{}\"", army_colour(a))));
            }
        }
    }

    #[test]
    fn a_moved_piece_is_drawn_on_its_new_cell() {
        let v = Arc::new(variant(BoardKind::Star, 2, RuleOptions::default()));
        let mut game = Game::new(v.clone(), v.seat(0).unwrap());
        let mv = game.legal_moves().into_iter().last().unwrap();
        game.play(&halma_rules::MoveInput::Path(mv.path.clone()))
            .unwrap();
        let layout = Layout::new(v.board(), 0);
        let circle_at = |svg: &str, cell: Cell| {
            let p = layout.at(usize::from(cell.index())).unwrap();
            let doc = roxmltree::Document::parse(svg).unwrap();
            let found = doc.descendants().any(|n| {
                n.attribute("class") == Some("piece army-0")
                    && n.attribute("cx") == Some(&Num(p.x).to_string())
                    && n.attribute("cy") == Some(&Num(p.y).to_string())
            });
            found
        };
        let before = board_svg(&v, &start(&v), &RenderOptions::default());
        let after = board_svg(&v, game.position(), &RenderOptions::default());
        assert!(circle_at(&before, mv.mv.from) && !circle_at(&before, mv.mv.to));
        assert!(!circle_at(&after, mv.mv.from) && circle_at(&after, mv.mv.to));
        assert_eq!(pieces(&before).len(), pieces(&after).len());
    }

    #[test]
    fn highlight_and_names_appear_when_asked() {
        for v in setups() {
            let board = v.board();
            let pos = start(&v);
            let plain = board_svg(&v, &pos, &RenderOptions::default());
            assert!(!plain.contains("class=\"ring\"") && !plain.contains("<text"));
            assert!(!plain.contains("<polyline") && !plain.contains("<marker"));

            let path: Vec<Cell> = [0, 1, board.len() - 1]
                .iter()
                .map(|&i| board.cell(i).unwrap())
                .collect();
            let options = RenderOptions {
                show_names: true,
                highlight: path.clone(),
                ..RenderOptions::default()
            };
            let svg = board_svg(&v, &pos, &options);
            let doc = roxmltree::Document::parse(&svg).unwrap();
            let rings = doc
                .descendants()
                .filter(|n| n.attribute("class") == Some("ring"))
                .count();
            assert_eq!(rings, path.len());
            let line = doc
                .descendants()
                .find(|n| n.attribute("class") == Some("path"))
                .unwrap();
            assert_eq!(line.attribute("points").unwrap().split(' ').count(), 3);
            assert_eq!(line.attribute("marker-end"), Some("url(#arrow)"));
            assert!(doc
                .descendants()
                .any(|n| n.attribute("id") == Some("arrow")));
            let names: Vec<&str> = doc
                .descendants()
                .filter(|n| n.has_tag_name("text"))
                .filter_map(|n| n.text())
                .collect();
            assert_eq!(names.len(), board.len());
            for info in board.cells() {
                assert!(names.contains(&info.name.as_str()), "{}", info.name);
            }
            // The pieces are the same with or without the extras.
            assert_eq!(pieces(&svg), pieces(&plain));
        }
    }

    #[test]
    fn a_single_highlighted_cell_is_ringed_without_a_line() {
        let v = variant(BoardKind::Square8, 2, RuleOptions::default());
        let options = RenderOptions {
            highlight: vec![v.board().cell(9).unwrap()],
            ..RenderOptions::default()
        };
        let svg = board_svg(&v, &start(&v), &options);
        assert_eq!(svg.matches("class=\"ring\"").count(), 1);
        assert!(!svg.contains("<polyline") && !svg.contains("<marker"));
    }

    #[test]
    fn cells_of_another_board_are_left_out() {
        let v = variant(BoardKind::Square8, 2, RuleOptions::default());
        let big = halma_rules::Board::get(BoardKind::Square16, 0).unwrap();
        let options = RenderOptions {
            highlight: vec![big.cell(200).unwrap(), big.cell(3).unwrap()],
            ..RenderOptions::default()
        };
        let svg = board_svg(&v, &start(&v), &options);
        roxmltree::Document::parse(&svg).unwrap();
        assert_eq!(svg.matches("class=\"ring\"").count(), 1);
        // A position of a bigger variant: pieces off this board are skipped.
        let v16 = variant(BoardKind::Square16, 4, RuleOptions::default());
        let svg = board_svg(&v, &start(&v16), &RenderOptions::default());
        assert!(pieces(&svg).len() <= 26);
    }

    #[test]
    fn same_input_same_bytes() {
        for v in setups() {
            let pos = start(&v);
            let options = RenderOptions {
                size_px: 333,
                show_names: true,
                highlight: vec![v.board().cell(0).unwrap(), v.board().cell(5).unwrap()],
                bottom: v.seat(1),
            };
            let a = board_svg(&v, &pos, &options);
            let b = board_svg(&v.clone(), &pos.clone(), &options.clone());
            assert_eq!(a, b);
        }
    }

    #[test]
    fn half_a_turn_mirrors_every_cell_through_the_centre() {
        for board in [BoardKind::Star, BoardKind::Square16] {
            let v = variant(board, 2, RuleOptions::default());
            let upright = Layout::new(v.board(), 0);
            let half = turn_steps(v.board()) / 2;
            let turned = Layout::new(v.board(), half);
            for i in 0..v.board().len() {
                let (a, b) = (upright.at(i).unwrap(), turned.at(i).unwrap());
                assert!((a.x + b.x - upright.width).abs() < 1e-9);
                assert!((a.y + b.y - upright.height).abs() < 1e-9);
            }
        }
    }

    #[test]
    fn every_turn_puts_cells_on_cells() {
        // A sixth of a turn maps the star's cells onto its cells (a quarter turn a square
        // board's): the board outline and the grid stay where they were.
        for board in [BoardKind::Star, BoardKind::Square8] {
            let v = variant(board, 2, RuleOptions::default());
            let upright = Layout::new(v.board(), 0);
            let spots: Vec<Pt> = (0..v.board().len())
                .map(|i| upright.at(i).unwrap())
                .collect();
            for turns in 1..turn_steps(v.board()) {
                let turned = Layout::new(v.board(), turns);
                assert!((turned.width - upright.width).abs() < 1e-9);
                for i in 0..v.board().len() {
                    let p = turned.at(i).unwrap();
                    assert!(
                        spots.iter().any(|q| q.sub(p).len() < 1e-6),
                        "{board:?}: cell {i} off the grid after {turns} turns"
                    );
                }
            }
        }
    }

    /// The middle of the seat's home cells as drawn.
    fn home_drawn(v: &Variant, seat: u8, options: &RenderOptions) -> Pt {
        let layout = Layout::new(v.board(), turns_for(v, options.bottom));
        let s = v.seat(usize::from(seat)).unwrap();
        let army = v.armies_of(s).next().unwrap();
        let cells: Vec<Pt> = v.armies()[army]
            .home
            .iter()
            .map(|c| layout.at(usize::from(c)).unwrap())
            .collect();
        cells
            .iter()
            .fold(Pt::new(0.0, 0.0), |a, &p| a.add(p))
            .scale(1.0 / cells.len() as f64)
    }

    #[test]
    fn the_bottom_seat_is_drawn_at_the_bottom() {
        for (board, players) in [
            (BoardKind::Star, 2),
            (BoardKind::Star, 3),
            (BoardKind::Star, 6),
            (BoardKind::Square16, 4),
            (BoardKind::Square8, 2),
        ] {
            let v = variant(board, players, RuleOptions::default());
            let unturned = home_drawn(&v, 0, &RenderOptions::default());
            for seat in 0..players {
                let options = RenderOptions {
                    bottom: v.seat(usize::from(seat)),
                    ..RenderOptions::default()
                };
                let p = home_drawn(&v, seat, &options);
                assert!(
                    p.sub(unturned).len() < 1e-6,
                    "{board:?} {players}: seat {seat} drawn at {p:?}, seat 0 unturned at {unturned:?}"
                );
            }
            // Seat 0 at the bottom is the unturned picture.
            let pos = start(&v);
            let seat0 = RenderOptions {
                bottom: v.seat(0),
                ..RenderOptions::default()
            };
            assert_eq!(
                board_svg(&v, &pos, &seat0),
                board_svg(&v, &pos, &RenderOptions::default())
            );
            if players > 1 {
                let other = RenderOptions {
                    bottom: v.seat(1),
                    ..RenderOptions::default()
                };
                assert_ne!(
                    board_svg(&v, &pos, &other),
                    board_svg(&v, &pos, &RenderOptions::default())
                );
            }
        }
    }

    #[test]
    fn size_sets_the_longer_side() {
        let v = variant(BoardKind::Star, 2, RuleOptions::default());
        for (size, want) in [(100, 100), (1, 1), (0, 1), (2000, 2000)] {
            let options = RenderOptions {
                size_px: size,
                ..RenderOptions::default()
            };
            let svg = board_svg(&v, &start(&v), &options);
            let doc = roxmltree::Document::parse(&svg).unwrap();
            let root = doc.root_element();
            let w: u32 = root.attribute("width").unwrap().parse().unwrap();
            let h: u32 = root.attribute("height").unwrap().parse().unwrap();
            assert_eq!(w.max(h), want);
            assert!(w >= 1 && h >= 1);
        }
    }

    #[test]
    fn star_camps_follow_the_star_outline() {
        // The N camp's triangle has its tip at the star's top tip and its base corners at
        // the star's inner corners beside it.
        let v = variant(BoardKind::Star, 2, RuleOptions::default());
        let layout = Layout::new(v.board(), 0);
        let army = &v.armies()[1];
        assert_eq!(army.home_corner, Corner::N);
        let camp = camp_polygon(&layout, army.home).unwrap();
        assert_eq!(camp.len(), 3);
        for corner in &camp {
            let nearest = layout
                .outline
                .iter()
                .map(|o| o.sub(*corner).len())
                .fold(f64::INFINITY, f64::min);
            assert!(nearest < 1e-6, "{corner:?} is {nearest} from the outline");
        }
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape("e5"), "e5");
        assert_eq!(
            escape("<a href=\"x\">&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;"
        );
        assert_eq!(escape("a\u{0}b\u{1b}c\td"), "abc\td");
        let doc = format!("<t a=\"{}\">{}</t>", escape("\"<&>'"), escape("]]> <!-- &"));
        let parsed = roxmltree::Document::parse(&doc).unwrap();
        assert_eq!(parsed.root_element().attribute("a"), Some("\"<&>'"));
        assert_eq!(parsed.root_element().text(), Some("]]> <!-- &"));
    }

    #[test]
    fn numbers_are_short_and_stable() {
        assert_eq!(Num(40.0).to_string(), "40");
        assert_eq!(Num(34.641_016).to_string(), "34.64");
        assert_eq!(Num(12.5).to_string(), "12.5");
        assert_eq!(Num(-0.001).to_string(), "0");
        assert_eq!(Num(-3.456).to_string(), "-3.46");
        assert_eq!(Num(f64::NAN).to_string(), "0");
    }
}
