//! Board geometry: cells, their names and drawing coordinates, adjacency, jump lines and the
//! corner areas, for the star (any arm size from 2 to 5) and the square boards.

use std::ops::RangeInclusive;
use std::sync::OnceLock;

use crate::bitboard::Bitboard;

/// The kinds of board of the family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = BoardName))]
pub enum BoardKind {
    /// The six-pointed star of Chinese checkers (Sternhalma, trylma): triangular grid, six directions.
    Star,
    /// Square Halma on 16 x 16 cells, eight directions.
    Square16,
    /// Square Halma on 10 x 10 cells.
    Square10,
    /// Square Halma on 8 x 8 cells.
    Square8,
}

impl BoardKind {
    /// The board's short name used in notation (`star`, `square16`, `square10`, `square8`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            BoardKind::Star => "star",
            BoardKind::Square16 => "square16",
            BoardKind::Square10 => "square10",
            BoardKind::Square8 => "square8",
        }
    }

    /// The side length of a square board, `None` for the star.
    #[must_use]
    pub const fn square_size(self) -> Option<u8> {
        match self {
            BoardKind::Star => None,
            BoardKind::Square16 => Some(16),
            BoardKind::Square10 => Some(10),
            BoardKind::Square8 => Some(8),
        }
    }

    /// Every board kind.
    pub const ALL: [BoardKind; 4] = [
        BoardKind::Star,
        BoardKind::Square16,
        BoardKind::Square10,
        BoardKind::Square8,
    ];

    /// The player counts the board seats: 2, 3, 4 or 6 on the star, 2 or 4 on 16 x 16, 2 on
    /// 10 x 10 and 8 x 8.
    #[must_use]
    pub const fn players(self) -> &'static [u8] {
        match self {
            BoardKind::Star => &[2, 3, 4, 6],
            BoardKind::Square16 => &[2, 4],
            BoardKind::Square10 | BoardKind::Square8 => &[2],
        }
    }

    /// The camp shapes of a square board, the one of a 2-player game first; none on the star,
    /// whose corners are its triangles.
    #[must_use]
    pub const fn camps(self) -> &'static [Camp] {
        match self {
            BoardKind::Star => &[],
            BoardKind::Square16 => &[Camp::CELLS_19, Camp::CELLS_13],
            BoardKind::Square10 => &[Camp::CELLS_15],
            BoardKind::Square8 => &[Camp::CELLS_10],
        }
    }
}

/// The shape of a square board's camp (the home and goal areas): its rows of cells, counted
/// from the corner outwards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Camp {
    rows: &'static [u8],
}

impl Camp {
    /// 19 cells in rows of 5, 5, 4, 3, 2: 16 x 16 with 2 players.
    pub const CELLS_19: Camp = Camp {
        rows: &[5, 5, 4, 3, 2],
    };
    /// 13 cells in rows of 4, 4, 3, 2: 16 x 16 with 4 players, or with 2 and small camps.
    pub const CELLS_13: Camp = Camp {
        rows: &[4, 4, 3, 2],
    };
    /// 15 cells in rows of 5, 4, 3, 2, 1: 10 x 10.
    pub const CELLS_15: Camp = Camp {
        rows: &[5, 4, 3, 2, 1],
    };
    /// 10 cells in rows of 4, 3, 2, 1: 8 x 8.
    pub const CELLS_10: Camp = Camp {
        rows: &[4, 3, 2, 1],
    };

    /// The row lengths, from the corner outwards (as [`Board::corner_cells`] takes them).
    #[must_use]
    pub const fn rows(self) -> &'static [u8] {
        self.rows
    }

    /// The number of cells.
    #[must_use]
    pub fn cells(self) -> u8 {
        self.rows.iter().sum()
    }
}

/// The named corner areas. The star has six (N, NE, SE, S, SW, NW, with the star drawn
/// point-up); the square boards have four (the corners of the square).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Corner {
    /// Star: the top point.
    N,
    /// Star: the upper right point.
    NE,
    /// Star: the lower right point.
    SE,
    /// Star: the bottom point.
    S,
    /// Star: the lower left point.
    SW,
    /// Star: the upper left point.
    NW,
    /// Square: the bottom-right corner (h1 on 8 x 8).
    BottomRight,
    /// Square: the bottom-left corner (a1).
    BottomLeft,
    /// Square: the top-left corner.
    TopLeft,
    /// Square: the top-right corner.
    TopRight,
}

impl Corner {
    /// The six star corners, clockwise from N.
    pub const STAR: [Corner; 6] = [
        Corner::N,
        Corner::NE,
        Corner::SE,
        Corner::S,
        Corner::SW,
        Corner::NW,
    ];
    /// The four square corners, clockwise from bottom-right.
    pub const SQUARE: [Corner; 4] = [
        Corner::BottomRight,
        Corner::BottomLeft,
        Corner::TopLeft,
        Corner::TopRight,
    ];

    /// The corner diagonally opposite.
    #[must_use]
    pub const fn opposite(self) -> Corner {
        match self {
            Corner::N => Corner::S,
            Corner::NE => Corner::SW,
            Corner::SE => Corner::NW,
            Corner::S => Corner::N,
            Corner::SW => Corner::NE,
            Corner::NW => Corner::SE,
            Corner::BottomRight => Corner::TopLeft,
            Corner::BottomLeft => Corner::TopRight,
            Corner::TopLeft => Corner::BottomRight,
            Corner::TopRight => Corner::BottomLeft,
        }
    }

    /// The corner's name as used in notation and in the API.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Corner::N => "N",
            Corner::NE => "NE",
            Corner::SE => "SE",
            Corner::S => "S",
            Corner::SW => "SW",
            Corner::NW => "NW",
            Corner::BottomRight => "BottomRight",
            Corner::BottomLeft => "BottomLeft",
            Corner::TopLeft => "TopLeft",
            Corner::TopRight => "TopRight",
        }
    }

    /// Whether this is one of the star's corners.
    #[must_use]
    pub const fn is_star(self) -> bool {
        matches!(
            self,
            Corner::N | Corner::NE | Corner::SE | Corner::S | Corner::SW | Corner::NW
        )
    }
}

/// One cell of a board, as a board describes it for drawing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellInfo {
    /// The cell's index (`0..board.len()`).
    pub index: u8,
    /// The cell's name in the notation, e.g. `e5`.
    pub name: String,
    /// Horizontal drawing coordinate. Star: in half-cell units from the leftmost cell;
    /// square: the file, 0 for the left column.
    pub x: u16,
    /// Vertical drawing coordinate: the row counted from the top, 0 for the top row.
    pub y: u16,
}

/// A board's cell, checked against the board it came from.
///
/// A `Cell` is only made by a [`Board`] (by index, by name, or from its tables), so a cell
/// beyond the board cannot exist past that boundary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(pub(crate) u8);

impl Cell {
    /// The cell's index on its board.
    #[inline]
    #[must_use]
    pub const fn index(self) -> u8 {
        self.0
    }
}

/// The geometry of one board: cells, names, drawing coordinates, adjacency, jump lines.
///
/// Boards are built once and shared: get one with [`Board::get`].
#[derive(Debug)]
pub struct Board {
    kind: BoardKind,
    arm: u8,
    dirs: u8,
    cells: Vec<CellInfo>,
    /// Star: cube coordinates (x, y, z); square: (file, rank, 0).
    coords: Vec<(i8, i8, i8)>,
    /// `neighbors[cell][dir]`, `None` off the board. Every `u8` is a cell index on the 16 x 16
    /// board (p16 is 255), so "no cell" is never a marker value.
    neighbors: Vec<[Option<u8>; 8]>,
    /// `landing[cell][dir]`: the cell two steps away in `dir` (an ordinary jump's landing),
    /// `None` off the board.
    landing: Box<[[Option<u8>; 8]; 256]>,
    /// `jump_to[cell][dir]`: the same landings for the jump search, without the `Option`. Only
    /// the entries of the directions in `jump_dirs[cell]` are landings; every other entry holds
    /// `cell` itself (a jump that goes nowhere), so that a search which reads one by mistake
    /// finds a cell it has visited already instead of another cell. Held in the board itself
    /// (boards are statics), not on the heap.
    jump_to: [[u8; 8]; 256],
    /// `jump_dirs[cell]`: bit `dir` set when a jump in `dir` stays on the board.
    jump_dirs: Box<[u8; 256]>,
    /// `relation[other][cell]`: low byte, the direction bit of `other` as a neighbour of
    /// `cell`; high byte, its direction bit as the cell two steps away. Lets the jump search
    /// treat the moving piece's start cell as empty. Rows of 256, so that a row is indexed by
    /// a cell index without a bounds check.
    relation: Vec<[u16; 256]>,
    /// The (cell, pattern bits) updates of the occupancy patterns (see [`Board::edge_pattern`])
    /// when a cell fills or empties: those of cell `c` are
    /// `pattern_updates[pattern_span[c].0..pattern_span[c].1]` (one flat table, so that a
    /// move reads them without an indirection; spans of 256 cells, so that a cell index
    /// needs no bounds check).
    pattern_updates: Vec<(u8, u16)>,
    pattern_span: Box<[(u16, u16); 256]>,
    /// `back[dir]`: the bit of the direction opposite `dir`.
    back: [u8; 8],
    /// `zone[cell]`: the cells whose occupancy decides the steps and jumps from `cell` (its
    /// neighbours and the cells two steps away on its lines).
    zone: Vec<Bitboard>,
    /// `rays[cell * 8 + dir]`: the cells along the line from `cell` (excluded) in `dir`.
    rays: Vec<Vec<u8>>,
    all: Bitboard,
    max_name_row: u8,
    /// Star: the index of each row's first cell, from the bottom row, and the cell count last.
    row_starts: Vec<u16>,
}

/// Direction vectors of the star in cube coordinates: E, NE, NW, W, SW, SE (row `z` grows
/// downwards, so "north" lowers `z`).
const STAR_DIRS: [(i8, i8, i8); 6] = [
    (1, -1, 0),
    (1, 0, -1),
    (0, 1, -1),
    (-1, 1, 0),
    (-1, 0, 1),
    (0, -1, 1),
];

/// Direction vectors of the square boards as (file, rank): E, NE, N, NW, W, SW, S, SE.
pub(crate) const SQUARE_DIRS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

impl Board {
    /// The star's arm sizes on offer.
    pub const STAR_ARM_SIZES: RangeInclusive<u8> = 2..=5;

    /// The standard star's arm size: 121 cells, 10 pieces in each corner.
    pub const STANDARD_ARM_SIZE: u8 = 4;

    /// The shared board of a kind. `arm` is the star's arm size (2 to 5; the standard board
    /// is 4) and is ignored for square boards.
    ///
    /// # Errors
    /// [`BoardError::ArmSize`] for a star arm size outside 2..=5.
    pub fn get(kind: BoardKind, arm: u8) -> Result<&'static Board, BoardError> {
        static STARS: [OnceLock<Board>; 4] = [
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
        ];
        static SQUARES: [OnceLock<Board>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
        match kind {
            BoardKind::Star => {
                if !Board::STAR_ARM_SIZES.contains(&arm) {
                    return Err(BoardError::ArmSize(arm));
                }
                Ok(STARS[usize::from(arm - 2)].get_or_init(|| Board::star(arm)))
            }
            BoardKind::Square16 => Ok(SQUARES[0].get_or_init(|| Board::square(kind, 16))),
            BoardKind::Square10 => Ok(SQUARES[1].get_or_init(|| Board::square(kind, 10))),
            BoardKind::Square8 => Ok(SQUARES[2].get_or_init(|| Board::square(kind, 8))),
        }
    }

    fn star(arm: u8) -> Board {
        let n = i8::try_from(arm).unwrap_or(4);
        let mut coords = Vec::new();
        // Rows from the bottom (z = 2n) to the top (z = -2n), left to right (x grows).
        for z in (-2 * n..=2 * n).rev() {
            for x in -2 * n..=2 * n {
                let y = -x - z;
                let down = x >= -n && y >= -n && z >= -n;
                let up = x <= n && y <= n && z <= n;
                if down || up {
                    coords.push((x, y, z));
                }
            }
        }
        let min_dx = coords
            .iter()
            .map(|&(x, _, z)| 2 * i16::from(x) + i16::from(z))
            .min()
            .unwrap_or(0);
        let mut cells = Vec::with_capacity(coords.len());
        let mut row_pos = 0u16;
        let mut last_z = None;
        for (i, &(x, _, z)) in coords.iter().enumerate() {
            if last_z != Some(z) {
                row_pos = 0;
                last_z = Some(z);
            }
            row_pos += 1;
            let row_from_bottom = (2 * n - z) as u8;
            cells.push(CellInfo {
                index: i as u8,
                name: format!("{}{}", (b'a' + row_from_bottom) as char, row_pos),
                x: (2 * i16::from(x) + i16::from(z) - min_dx) as u16,
                y: (z + 2 * n) as u16,
            });
        }
        let find = |c: (i8, i8, i8)| coords.iter().position(|&d| d == c).map(|p| p as u8);
        let mut neighbors = vec![[None; 8]; coords.len()];
        for (i, &(x, y, z)) in coords.iter().enumerate() {
            for (d, &(dx, dy, dz)) in STAR_DIRS.iter().enumerate() {
                neighbors[i][d] = find((x + dx, y + dy, z + dz));
            }
        }
        let max_name_row = (4 * n) as u8;
        Board::finish(
            BoardKind::Star,
            arm,
            6,
            cells,
            coords,
            neighbors,
            max_name_row,
        )
    }

    fn square(kind: BoardKind, size: u8) -> Board {
        let s = size as i8;
        let mut coords = Vec::new();
        let mut cells = Vec::new();
        for rank in 0..s {
            for file in 0..s {
                let i = coords.len() as u8;
                coords.push((file, rank, 0));
                cells.push(CellInfo {
                    index: i,
                    name: format!("{}{}", (b'a' + file as u8) as char, rank + 1),
                    x: file as u16,
                    y: (s - 1 - rank) as u16,
                });
            }
        }
        let mut neighbors = vec![[None; 8]; coords.len()];
        for (i, &(f, r, _)) in coords.iter().enumerate() {
            for (d, &(df, dr)) in SQUARE_DIRS.iter().enumerate() {
                let (nf, nr) = (f + df, r + dr);
                if (0..s).contains(&nf) && (0..s).contains(&nr) {
                    neighbors[i][d] = Some((nr as u8) * size + nf as u8);
                }
            }
        }
        Board::finish(kind, 0, 8, cells, coords, neighbors, size - 1)
    }

    fn finish(
        kind: BoardKind,
        arm: u8,
        dirs: u8,
        cells: Vec<CellInfo>,
        coords: Vec<(i8, i8, i8)>,
        neighbors: Vec<[Option<u8>; 8]>,
        max_name_row: u8,
    ) -> Board {
        // Star names are row letter + position, rows from the bottom: where each row starts.
        let mut row_starts = Vec::new();
        let mut last_row = None;
        for (i, c) in cells.iter().enumerate().filter(|_| kind == BoardKind::Star) {
            let row = c.name.as_bytes().first().copied();
            if last_row != Some(row) {
                row_starts.push(i as u16);
                last_row = Some(row);
            }
        }
        row_starts.push(cells.len() as u16);
        let len = cells.len();
        let mut landing = Box::new([[None; 8]; 256]);
        let mut jump_dirs = Box::new([0u8; 256]);
        let mut relation = vec![[0u16; 256]; len];
        let mut updates: Vec<std::collections::BTreeMap<u8, (u8, u8)>> =
            vec![Default::default(); len];
        let mut rays = vec![Vec::new(); len * 8];
        for c in 0..len {
            for d in 0..usize::from(dirs) {
                let mut ray = Vec::new();
                let mut cur = c;
                while let Some(nb) = neighbors[cur][d] {
                    ray.push(nb);
                    cur = usize::from(nb);
                }
                let bit = 1u8 << d;
                if let Some(&nb) = ray.first() {
                    relation[usize::from(nb)][c] |= u16::from(bit);
                    // `c` sees `nb` in direction `d`: when `nb` fills, `c`'s neighbour bit `d` sets.
                    updates[usize::from(nb)].entry(c as u8).or_default().0 |= bit;
                }
                if ray.len() >= 2 {
                    landing[c][d] = Some(ray[1]);
                    jump_dirs[c] |= bit;
                    relation[usize::from(ray[1])][c] |= u16::from(bit) << 8;
                    updates[usize::from(ray[1])].entry(c as u8).or_default().1 |= bit;
                }
                rays[c * 8 + d] = ray;
            }
        }
        let mut jump_to = [[0u8; 8]; 256];
        for (c, (to, land)) in jump_to.iter_mut().zip(landing.iter()).enumerate() {
            for (t, l) in to.iter_mut().zip(land) {
                // c < 256: every cell index fits in a byte.
                *t = l.unwrap_or(c as u8);
            }
        }
        Board {
            kind,
            arm,
            dirs,
            jump_to,
            all: Bitboard::first(len),
            cells,
            coords,
            neighbors,
            zone: (0..len)
                .map(|c| {
                    (0..usize::from(dirs))
                        .flat_map(|d| rays[c * 8 + d].iter().take(2).copied())
                        .collect::<Bitboard>()
                })
                .collect(),
            landing,
            jump_dirs,
            relation,
            back: core::array::from_fn(|d| {
                let half = usize::from(dirs / 2);
                1 << ((d + half) % usize::from(dirs))
            }),
            pattern_span: {
                let mut spans = Box::new([(0u16, 0u16); 256]);
                let mut end = 0u16;
                for (span, m) in spans.iter_mut().zip(&updates) {
                    // At most 16 updates per cell on at most 256 cells.
                    *span = (end, end + m.len() as u16);
                    end = span.1;
                }
                spans
            },
            pattern_updates: updates
                .into_iter()
                .flat_map(|m| {
                    m.into_iter()
                        .map(|(c, (nb, two))| (c, u16::from(nb) | u16::from(two) << 8))
                })
                .collect(),
            rays,
            row_starts,
            max_name_row,
        }
    }

    /// The board's kind.
    #[must_use]
    pub fn kind(&self) -> BoardKind {
        self.kind
    }

    /// The star's arm size (0 for square boards).
    #[must_use]
    pub fn arm_size(&self) -> u8 {
        self.arm
    }

    /// Number of cells.
    #[allow(clippy::len_without_is_empty)] // a board is never empty
    #[must_use]
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Number of line directions: 6 on the star, 8 on square boards.
    #[must_use]
    pub fn directions(&self) -> u8 {
        self.dirs
    }

    /// All cells with their names and drawing coordinates, in index order.
    #[must_use]
    pub fn cells(&self) -> &[CellInfo] {
        &self.cells
    }

    /// The set of all cells.
    #[must_use]
    pub fn all(&self) -> Bitboard {
        self.all
    }

    /// The cell with this index, if the board has it.
    #[must_use]
    pub fn cell(&self, index: usize) -> Option<Cell> {
        (index < self.len()).then_some(Cell(index as u8))
    }

    /// The name of a cell, e.g. `a1`.
    #[must_use]
    pub fn name(&self, cell: Cell) -> &str {
        &self.cells[usize::from(cell.0)].name
    }

    /// The neighbour of `cell` in direction `dir`, if any.
    #[inline]
    #[must_use]
    pub fn neighbor(&self, cell: Cell, dir: u8) -> Option<Cell> {
        if dir >= self.dirs {
            return None;
        }
        self.neighbors[usize::from(cell.0)][usize::from(dir) & 7].map(Cell)
    }

    /// The neighbours of a cell.
    #[must_use]
    pub fn neighbors(&self, cell: Cell) -> Vec<Cell> {
        (0..self.dirs)
            .filter_map(|d| self.neighbor(cell, d))
            .collect()
    }

    #[inline]
    pub(crate) fn neighbor_raw(&self, cell: u8, dir: usize) -> Option<u8> {
        self.neighbors[usize::from(cell)][dir & 7]
    }

    #[inline]
    pub(crate) fn landing_raw(&self, cell: u8, dir: u32) -> Option<u8> {
        // Indexing by a byte and a masked direction needs no bounds check.
        self.landing[usize::from(cell)][(dir & 7) as usize]
    }

    /// The landing of the jump from `cell` in `dir`, for a direction the occupancy patterns
    /// open (see [`Board::edge_pattern`]): such a jump always stays on the board. For any other
    /// direction it is `cell` itself.
    #[inline]
    pub(crate) fn open_landing(&self, cell: u8, dir: u32) -> u8 {
        self.jump_to[usize::from(cell)][(dir & 7) as usize]
    }

    /// The bit of the direction opposite `dir`.
    #[inline]
    pub(crate) fn back_bit(&self, dir: u32) -> u8 {
        self.back[(dir & 7) as usize]
    }

    /// The relations of every cell to `other` (see `relation`), indexed by cell.
    #[inline]
    pub(crate) fn relation_row(&self, other: u8) -> &[u16; 256] {
        const NONE: &[u16; 256] = &[0; 256];
        self.relation.get(usize::from(other)).unwrap_or(NONE)
    }

    #[inline]
    pub(crate) fn zone_raw(&self, cell: u8) -> Bitboard {
        self.zone[usize::from(cell)]
    }

    /// The occupancy pattern of `cell` on an empty board. A position keeps one pattern per
    /// cell: bit `dir` (low byte) set when the neighbour in `dir` is occupied, bit `8 + dir`
    /// (high byte) when the cell two steps away in `dir` is occupied or off the board. A jump in
    /// `dir` is open exactly when bit `dir` is set and bit `8 + dir` is clear, so the pattern
    /// alone says which jumps a cell has.
    #[inline]
    pub(crate) fn edge_pattern(&self, cell: u8) -> u16 {
        u16::from(!self.jump_dirs[usize::from(cell)]) << 8
    }

    #[inline]
    pub(crate) fn pattern_updates(&self, cell: u8) -> &[(u8, u16)] {
        let (start, end) = self.pattern_span[usize::from(cell)];
        &self.pattern_updates[usize::from(start)..usize::from(end)]
    }

    #[inline]
    pub(crate) fn ray_raw(&self, cell: u8, dir: usize) -> &[u8] {
        &self.rays[usize::from(cell) * 8 + dir]
    }

    /// The direction and distance from `a` to `b` when they lie on one board line.
    pub(crate) fn line_between(&self, a: u8, b: u8) -> Option<(usize, usize)> {
        (0..usize::from(self.dirs)).find_map(|d| {
            self.ray_raw(a, d)
                .iter()
                .position(|&c| c == b)
                .map(|p| (d, p + 1))
        })
    }

    /// Parses a cell name (`a1`, `q1`, `p16`, case-insensitive).
    ///
    /// # Errors
    /// [`CellNameError`] when the text is not a cell of this board.
    pub fn parse_cell(&self, text: &str) -> Result<Cell, CellNameError> {
        let bad = || CellNameError {
            text: text.to_owned(),
        };
        let mut chars = text.chars();
        let letter = chars.next().ok_or_else(bad)?.to_ascii_lowercase();
        if !letter.is_ascii_lowercase() {
            return Err(bad());
        }
        let digits = chars.as_str();
        if digits.is_empty()
            || digits.len() > 3
            || !digits.bytes().all(|b| b.is_ascii_digit())
            || digits.starts_with('0')
        {
            return Err(bad());
        }
        let num: usize = digits.parse().map_err(|_| bad())?;
        let row = letter as u8 - b'a';
        if row > self.max_name_row {
            return Err(bad());
        }
        match self.kind {
            BoardKind::Star => {
                // Cells are indexed row by row from the bottom, so a row's cells follow its
                // first one.
                let start = usize::from(self.row_starts[usize::from(row)]);
                let end = usize::from(self.row_starts[usize::from(row) + 1]);
                if num == 0 || num > end - start {
                    return Err(bad());
                }
                Ok(Cell((start + num - 1) as u8))
            }
            _ => {
                let size = usize::from(self.max_name_row) + 1;
                if num == 0 || num > size {
                    return Err(bad());
                }
                Ok(Cell(((num - 1) * size + usize::from(row)) as u8))
            }
        }
    }

    /// The cells of a star corner (the triangle of `arm * (arm + 1) / 2` cells), or of a square
    /// camp given by its row lengths counted from the corner outwards (e.g. `[5, 5, 4, 3, 2]`).
    ///
    /// Returns the empty set for a corner that does not belong to this kind of board.
    #[must_use]
    pub fn corner_cells(&self, corner: Corner, camp_rows: &[u8]) -> Bitboard {
        match self.kind {
            BoardKind::Star => self.star_area(corner, |depth| depth >= 1),
            _ => {
                let Some(size) = self.kind.square_size() else {
                    return Bitboard::EMPTY;
                };
                let (right, top) = match corner {
                    Corner::BottomRight => (true, false),
                    Corner::BottomLeft => (false, false),
                    Corner::TopLeft => (false, true),
                    Corner::TopRight => (true, true),
                    _ => return Bitboard::EMPTY,
                };
                let mut b = Bitboard::EMPTY;
                for (k, &len) in camp_rows.iter().enumerate() {
                    for j in 0..len {
                        let (k, j) = (k as u8, j);
                        if k >= size || j >= size {
                            continue;
                        }
                        let file = if right { size - 1 - j } else { j };
                        let rank = if top { size - 1 - k } else { k };
                        b.set(rank * size + file);
                    }
                }
                b
            }
        }
    }

    /// Star only: the cells of a corner area selected by their depth into the corner: depth 1 is
    /// the corner row next to the central hexagon, depth `arm` the tip; depth 0 is the
    /// hexagon's edge row in front of the corner.
    pub(crate) fn star_area(&self, corner: Corner, keep: impl Fn(i8) -> bool) -> Bitboard {
        let n = self.arm as i8;
        let mut b = Bitboard::EMPTY;
        for i in 0..self.len() {
            let (x, y, z) = self.coords[i];
            let (v, others) = match corner {
                Corner::N => (-z, (x, y)),
                Corner::S => (z, (x, y)),
                Corner::NE => (x, (y, z)),
                Corner::SW => (-x, (y, z)),
                Corner::SE => (-y, (x, z)),
                Corner::NW => (y, (x, z)),
                _ => return Bitboard::EMPTY,
            };
            let in_hex = others.0.abs() <= n && others.1.abs() <= n;
            let depth = v - n;
            if (depth >= 1 || (depth == 0 && in_hex)) && keep(depth) {
                b.set(i as u8);
            }
        }
        b
    }
}

/// A board that cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// The star's arm size must be 2 to 5.
    #[error("arm size {0} is not offered: the star's arm size must be 2, 3, 4 (standard) or 5")]
    ArmSize(u8),
}

/// A cell name that is not a cell of the board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{text}' is not a cell of this board")]
pub struct CellNameError {
    /// The text that was given.
    pub text: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn star_sizes() {
        for (arm, cells) in [(2, 37), (3, 73), (4, 121), (5, 181)] {
            let b = Board::get(BoardKind::Star, arm).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(b.len(), cells, "arm {arm}");
            let tri = usize::from(arm) * usize::from(arm + 1) / 2;
            for c in Corner::STAR {
                assert_eq!(b.corner_cells(c, &[]).count() as usize, tri, "{c:?}");
            }
        }
        assert!(Board::get(BoardKind::Star, 6).is_err());
    }

    #[test]
    fn star_names_and_geometry() {
        let b = Board::get(BoardKind::Star, 4).unwrap_or_else(|e| panic!("{e}"));
        let tip = b.parse_cell("a1").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(tip.index(), 0);
        assert!(b.corner_cells(Corner::S, &[]).has(0));
        let top = b.parse_cell("Q1").unwrap_or_else(|e| panic!("{e}"));
        assert!(b.corner_cells(Corner::N, &[]).has(top.index()));
        assert_eq!(b.neighbors(tip).len(), 2);
        assert!(b.parse_cell("a2").is_err());
        assert!(b.parse_cell("r1").is_err());
        assert!(b.parse_cell("e14").is_err());
        assert!(b.parse_cell("e13").is_ok());
        assert!(b.parse_cell("").is_err());
        assert!(b.parse_cell("e01").is_err());
        for c in b.cells() {
            assert_eq!(b.parse_cell(&c.name).map(Cell::index), Ok(c.index));
        }
        // Interior cells of the hexagon have six neighbours.
        let centre = b.parse_cell("i5").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(b.neighbors(centre).len(), 6);
        // Neighbourhood is symmetric.
        for i in 0..b.len() {
            let c = Cell(i as u8);
            for nb in b.neighbors(c) {
                assert!(b.neighbors(nb).contains(&c));
            }
        }
        // Drawing coordinates are distinct.
        let mut seen = std::collections::HashSet::new();
        for c in b.cells() {
            assert!(seen.insert((c.x, c.y)));
        }
        // The N corner sits at the top of the drawing.
        assert_eq!(b.cells()[usize::from(top.index())].y, 0);
    }

    #[test]
    fn square_camps() {
        let b = Board::get(BoardKind::Square16, 0).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(b.len(), 256);
        let camp = b.corner_cells(Corner::BottomRight, &[5, 5, 4, 3, 2]);
        assert_eq!(camp.count(), 19);
        assert!(camp.has(b.parse_cell("p1").unwrap_or_else(|e| panic!("{e}")).index()));
        assert!(camp.has(b.parse_cell("l1").unwrap_or_else(|e| panic!("{e}")).index()));
        assert!(!camp.has(b.parse_cell("k1").unwrap_or_else(|e| panic!("{e}")).index()));
        assert_eq!(b.corner_cells(Corner::TopLeft, &[4, 4, 3, 2]).count(), 13);
        let b8 = Board::get(BoardKind::Square8, 0).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(b8.corner_cells(Corner::TopLeft, &[4, 3, 2, 1]).count(), 10);
        assert!(b8.parse_cell("i1").is_err());
        assert!(b8.parse_cell("a9").is_err());
        assert_eq!(b8.parse_cell("h8").map(Cell::index), Ok(63));
        let corner = b8.parse_cell("a1").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(b8.neighbors(corner).len(), 3);
    }
}
