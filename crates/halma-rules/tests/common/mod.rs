//! Test helpers: a slow reference move generator written from the rule book, variants to test,
//! and random positions.
//!
//! The reference builds its own geometry from the cells' drawing coordinates (the board's cell
//! list); it never reads the crate's neighbour, ray or jump tables, so a mistake in those tables
//! cannot hide by being made twice.
#![allow(dead_code)] // each test binary uses a different part of the helpers

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

use halma_rules::{
    notation, perft, BackwardSteps, Bitboard, Board, BoardKind, Cell, Corner, ForeignCorners,
    GameSetup, Move, Position, RuleOptions, SplitMix64, Variant,
};

/// A board's lines, computed from the drawing coordinates of its cells alone.
pub struct Geometry {
    /// `rays[cell][dir]`: the cells along the line from `cell` (excluded) in `dir`.
    rays: Vec<Vec<Vec<u8>>>,
    /// Drawing coordinates per cell, scaled so that distances are Euclidean (star: x in half
    /// cells, y in rows of height sqrt(3)/2 cells; stored as (x, y * sqrt(3)) in half cells).
    points: Vec<(f64, f64)>,
}

impl Geometry {
    /// The geometry of a board. Star: a cell's six neighbours lie one cell to the left and
    /// right (2 half-cell units) and half a cell to either side one row up or down; square:
    /// the eight cells around it.
    pub fn of(board: &Board) -> Geometry {
        let dirs: &[(i32, i32)] = if board.kind() == BoardKind::Star {
            &[(2, 0), (1, -1), (-1, -1), (-2, 0), (-1, 1), (1, 1)]
        } else {
            &[
                (1, 0),
                (1, -1),
                (0, -1),
                (-1, -1),
                (-1, 0),
                (-1, 1),
                (0, 1),
                (1, 1),
            ]
        };
        let at: HashMap<(i32, i32), u8> = board
            .cells()
            .iter()
            .map(|c| ((i32::from(c.x), i32::from(c.y)), c.index))
            .collect();
        assert_eq!(at.len(), board.len(), "two cells share drawing coordinates");
        let rays = board
            .cells()
            .iter()
            .map(|c| {
                dirs.iter()
                    .map(|&(dx, dy)| {
                        let mut ray = Vec::new();
                        let (mut x, mut y) = (i32::from(c.x), i32::from(c.y));
                        loop {
                            x += dx;
                            y += dy;
                            match at.get(&(x, y)) {
                                Some(&i) => ray.push(i),
                                None => break,
                            }
                        }
                        ray
                    })
                    .collect()
            })
            .collect();
        let star = board.kind() == BoardKind::Star;
        let points = board
            .cells()
            .iter()
            .map(|c| {
                let (x, y) = (f64::from(c.x), f64::from(c.y));
                if star {
                    (x, y * 3f64.sqrt())
                } else {
                    (x, y)
                }
            })
            .collect();
        Geometry { rays, points }
    }

    /// Number of line directions.
    pub fn directions(&self) -> usize {
        self.rays[0].len()
    }

    /// The cells along the line from `cell` in direction `dir`, nearest first.
    pub fn ray(&self, cell: u8, dir: usize) -> &[u8] {
        &self.rays[usize::from(cell)][dir]
    }

    /// The neighbour of `cell` in direction `dir`.
    pub fn neighbor(&self, cell: u8, dir: usize) -> Option<u8> {
        self.ray(cell, dir).first().copied()
    }

    /// The direction opposite `dir`.
    pub fn opposite(&self, dir: usize) -> usize {
        (dir + self.directions() / 2) % self.directions()
    }

    /// The straight-line distance between two cells, in cell widths (star: half cells).
    pub fn distance(&self, a: u8, b: u8) -> f64 {
        let (p, q) = (self.points[usize::from(a)], self.points[usize::from(b)]);
        (p.0 - q.0).hypot(p.1 - q.1)
    }
}

/// Every legal (from, to) of the seat to move, found by walking lines cell by cell.
pub fn reference_moves(variant: &Variant, pos: &Position) -> BTreeSet<(u8, u8)> {
    Reference::new(variant).moves(pos)
}

/// The reference generator of one variant, with the board's geometry computed once.
pub struct Reference<'a> {
    /// The variant whose moves are generated.
    pub variant: &'a Variant,
    /// The board's lines, from the cells' coordinates.
    pub geometry: Geometry,
}

impl<'a> Reference<'a> {
    /// The reference generator for `variant`.
    pub fn new(variant: &'a Variant) -> Reference<'a> {
        Reference {
            variant,
            geometry: Geometry::of(variant.board()),
        }
    }

    /// The cells a piece on `cell` reaches with one ordinary jump (over an occupied neighbour
    /// onto the empty cell behind it), whoever's turn it is.
    pub fn single_jumps(&self, pos: &Position, cell: u8) -> BTreeSet<u8> {
        let occ = pos.occupied();
        (0..self.geometry.directions())
            .filter_map(|d| match self.geometry.ray(cell, d) {
                [over, land, ..] if occ.has(*over) && !occ.has(*land) => Some(*land),
                _ => None,
            })
            .collect()
    }

    /// Every legal (from, to) of the seat to move.
    pub fn moves(&self, pos: &Position) -> BTreeSet<(u8, u8)> {
        self.moves_with_hops(pos).into_keys().collect()
    }

    /// Every legal (from, to) of the seat to move, with the fewest hops a witness path needs
    /// (1 for a step, else the number of jumps of the shortest chain).
    pub fn moves_with_hops(&self, pos: &Position) -> BTreeMap<(u8, u8), usize> {
        let variant = self.variant;
        let geo = &self.geometry;
        let mut out = BTreeMap::new();
        let seat = pos.to_move();
        if !pos.is_active(seat) {
            return out;
        }
        let o = variant.options();
        let lock = o.goal_lock;
        for army in variant.armies_of(seat) {
            let a = &variant.armies()[army];
            for from in pos.army(army).iter() {
                let mut occ = pos.occupied();
                occ.clear(from);
                let mut dest: BTreeMap<u8, usize> = BTreeMap::new();
                for d in 0..geo.directions() {
                    if let Some(nb) = geo.neighbor(from, d) {
                        if occ.has(nb) || !step_allowed(variant, a.home_corner, from, nb) {
                            continue;
                        }
                        if lock && a.goal.has(from) && !a.goal.has(nb) {
                            continue;
                        }
                        if o.foreign_corners == ForeignCorners::Forbidden && a.foreign.has(nb) {
                            continue;
                        }
                        dest.insert(nb, 1);
                    }
                }
                // Breadth first: each cell's hops are the fewest of any chain.
                let mut seen = BTreeMap::from([(from, 0usize)]);
                let mut queue = VecDeque::from([from]);
                while let Some(c) = queue.pop_front() {
                    let hops = seen[&c] + 1;
                    for d in 0..geo.directions() {
                        let ray = geo.ray(c, d);
                        let Some(k) = ray.iter().position(|&x| occ.has(x)) else {
                            continue;
                        };
                        let land = if o.long_jumps {
                            let l = 2 * k + 1;
                            if l >= ray.len() || ray[k + 1..=l].iter().any(|&x| occ.has(x)) {
                                continue;
                            }
                            ray[l]
                        } else {
                            if k != 0 || ray.len() < 2 || occ.has(ray[1]) {
                                continue;
                            }
                            ray[1]
                        };
                        if lock && a.goal.has(c) && !a.goal.has(land) {
                            continue;
                        }
                        if o.foreign_corners == ForeignCorners::Forbidden && a.foreign.has(land) {
                            continue;
                        }
                        if let std::collections::btree_map::Entry::Vacant(e) = seen.entry(land) {
                            e.insert(hops);
                            queue.push_back(land);
                        }
                    }
                }
                for (c, hops) in seen.into_iter().filter(|&(c, _)| c != from) {
                    let fewest = dest.entry(c).or_insert(hops);
                    *fewest = (*fewest).min(hops);
                }
                for (to, hops) in dest {
                    if o.foreign_corners != ForeignCorners::Allowed && a.foreign.has(to) {
                        continue;
                    }
                    out.insert((from, to), hops);
                }
            }
        }
        out
    }
}

/// The generator's moves as (from, to) index pairs, each listed once.
pub fn fast_moves(variant: &Variant, pos: &Position) -> BTreeSet<(u8, u8)> {
    let mut list = Vec::new();
    variant.generate_moves(pos, &mut list);
    let set: BTreeSet<_> = list
        .iter()
        .map(|m| (m.from.index(), m.to.index()))
        .collect();
    assert_eq!(set.len(), list.len(), "a (from, to) pair was listed twice");
    set
}

/// Checks one position: generator = reference, the count, every path, and rejections of
/// random (from, to) pairs.
pub fn check_position(generator: &Reference, pos: &Position, rng: &mut SplitMix64) {
    let variant = generator.variant;
    let fast = fast_moves(variant, pos);
    let hops = generator.moves_with_hops(pos);
    let reference: BTreeSet<(u8, u8)> = hops.keys().copied().collect();
    assert_eq!(
        fast,
        reference,
        "generator and reference differ in {}",
        notation::format_position(variant, pos)
    );
    assert_eq!(variant.count_moves(pos) as usize, fast.len());
    for cell in variant.board().cells() {
        let Some(c) = variant.board().cell(usize::from(cell.index)) else {
            continue;
        };
        let landings: BTreeSet<u8> = variant
            .board()
            .jump_landings(pos, c)
            .map(Cell::index)
            .collect();
        assert_eq!(
            landings,
            generator.single_jumps(pos, cell.index),
            "single jumps from {}",
            cell.name
        );
    }
    assert_eq!(variant.has_moves(pos), !fast.is_empty());
    let with_paths = variant.legal_moves_with_paths(pos);
    assert_eq!(with_paths.len(), fast.len());
    for lm in &with_paths {
        assert_eq!(lm.path.first(), Some(&lm.mv.from));
        assert_eq!(lm.path.last(), Some(&lm.mv.to));
        // A shortest witness: as few hops as the reference's breadth-first search needs, and
        // the same path as the one-move search (`witness_path`) finds.
        assert_eq!(
            Some(lm.path.len() - 1),
            hops.get(&(lm.mv.from.index(), lm.mv.to.index())).copied(),
            "witness path {:?} is not a shortest one",
            lm.path
        );
        assert_eq!(variant.witness_path(pos, lm.mv).as_ref(), Some(&lm.path));
        let checked = variant.check_path(pos, &lm.path);
        assert!(
            checked.is_ok(),
            "witness path {:?} rejected: {checked:?}",
            lm.path
        );
        assert!(variant.check_from_to(pos, lm.mv.from, lm.mv.to).is_ok());
        assert!(variant.is_legal(pos, lm.mv));
    }
    // Random (from, to) pairs that are not generated must be rejected, by both checkers.
    let board = variant.board();
    for _ in 0..20 {
        let from = board.cell(rng.index(board.len())).unwrap();
        let to = board.cell(rng.index(board.len())).unwrap();
        let legal = fast.contains(&(from.index(), to.index()));
        assert_eq!(variant.check_from_to(pos, from, to).is_ok(), legal);
        // A two-cell path is one step or one jump: accepted exactly when that is how the
        // shortest witness goes.
        let one_hop = variant
            .witness_path(pos, Move { from, to })
            .is_some_and(|p| p.len() == 2);
        assert_eq!(
            variant.check_path(pos, &[from, to]).is_ok(),
            legal && one_hop
        );
    }
    assert_eq!(pos.hash(), pos.compute_hash());
    // The incremental perft agrees with the plain one.
    assert_eq!(
        perft::perft(variant, pos, 2),
        perft::perft_plain(variant, pos, 2)
    );
}

/// Whether a step from `a` to `b` is allowed for an army whose home is `home`, read from the
/// cells' drawing coordinates (square boards only restrict steps).
fn step_allowed(variant: &Variant, home: Corner, a: u8, b: u8) -> bool {
    let board = variant.board();
    if board.kind() == BoardKind::Star {
        return true;
    }
    let (ca, cb) = (
        &board.cells()[usize::from(a)],
        &board.cells()[usize::from(b)],
    );
    let df = i32::from(cb.x) - i32::from(ca.x);
    let dr = i32::from(ca.y) - i32::from(cb.y); // y grows downwards, ranks grow upwards
    let back = match home {
        Corner::BottomRight => (1, -1),
        Corner::BottomLeft => (-1, -1),
        Corner::TopLeft => (-1, 1),
        _ => (1, 1),
    };
    let o = variant.options();
    if o.diagonal_steps_only && (df == 0 || dr == 0) {
        return false;
    }
    let backward_part = (df != 0 && df == back.0) || (dr != 0 && dr == back.1);
    let forward_part = (df != 0 && df == -back.0) || (dr != 0 && dr == -back.1);
    match o.backward_steps {
        BackwardSteps::Allowed => true,
        BackwardSteps::NoStraightBack => (df, dr) != back,
        BackwardSteps::NoBackward => !backward_part || forward_part,
    }
}

/// A spread of setups covering every board, player count and option.
pub fn variants() -> Vec<GameSetup> {
    let o = RuleOptions::default;
    let star = |players, options| GameSetup {
        board: BoardKind::Star,
        players,
        options,
    };
    let sq = |board, players, options| GameSetup {
        board,
        players,
        options,
    };
    vec![
        star(2, o()),
        star(3, o()),
        star(4, o()),
        star(6, o()),
        star(
            2,
            RuleOptions {
                arm_size: Some(3),
                ..o()
            },
        ),
        star(
            6,
            RuleOptions {
                arm_size: Some(3),
                ..o()
            },
        ),
        star(
            2,
            RuleOptions {
                arm_size: Some(2),
                ..o()
            },
        ),
        star(
            6,
            RuleOptions {
                arm_size: Some(5),
                ..o()
            },
        ),
        star(
            2,
            RuleOptions {
                fifteen_pieces: Some(true),
                ..o()
            },
        ),
        star(
            4,
            RuleOptions {
                six_pieces: Some(true),
                ..o()
            },
        ),
        star(
            2,
            RuleOptions {
                colours_per_player: Some(2),
                ..o()
            },
        ),
        star(
            2,
            RuleOptions {
                colours_per_player: Some(3),
                ..o()
            },
        ),
        star(
            2,
            RuleOptions {
                long_jumps: Some(true),
                ..o()
            },
        ),
        star(
            3,
            RuleOptions {
                long_jumps: Some(true),
                foreign_corners: Some(ForeignCorners::PassOnly),
                ..o()
            },
        ),
        star(
            2,
            RuleOptions {
                foreign_corners: Some(ForeignCorners::PassOnly),
                ..o()
            },
        ),
        star(
            3,
            RuleOptions {
                foreign_corners: Some(ForeignCorners::Forbidden),
                ..o()
            },
        ),
        star(
            4,
            RuleOptions {
                teams: Some(true),
                ..o()
            },
        ),
        star(
            6,
            RuleOptions {
                teams: Some(true),
                play_on: Some(false),
                ..o()
            },
        ),
        star(
            2,
            RuleOptions {
                goal_lock: Some(false),
                anti_blocking: Some(false),
                ..o()
            },
        ),
        star(
            3,
            RuleOptions {
                leave_home: Some(true),
                leave_home_moves: Some(6),
                ..o()
            },
        ),
        sq(BoardKind::Square16, 2, o()),
        sq(BoardKind::Square16, 4, o()),
        sq(
            BoardKind::Square16,
            2,
            RuleOptions {
                small_camps: Some(true),
                ..o()
            },
        ),
        sq(
            BoardKind::Square16,
            4,
            RuleOptions {
                foreign_corners: Some(ForeignCorners::Forbidden),
                ..o()
            },
        ),
        sq(BoardKind::Square10, 2, o()),
        sq(BoardKind::Square8, 2, o()),
        sq(
            BoardKind::Square8,
            2,
            RuleOptions {
                backward_steps: Some(BackwardSteps::NoStraightBack),
                ..o()
            },
        ),
        sq(
            BoardKind::Square10,
            2,
            RuleOptions {
                backward_steps: Some(BackwardSteps::NoBackward),
                ..o()
            },
        ),
        sq(
            BoardKind::Square16,
            2,
            RuleOptions {
                diagonal_steps_only: Some(true),
                repetition_draw: Some(false),
                ..o()
            },
        ),
    ]
}

/// A random placement of every army's pieces (biased towards goals and corners so that the
/// goal lock and corner rules come into play), written in the notation and parsed back.
pub fn random_position(setup: &GameSetup, rng: &mut SplitMix64) -> (Variant, Position) {
    let variant = Variant::new(setup).unwrap_or_else(|e| panic!("{e}"));
    let board = variant.board();
    let mut taken = Bitboard::EMPTY;
    let mut groups = Vec::new();
    for a in variant.armies() {
        let count = a.home.count() as usize;
        let mut cells = Vec::new();
        while cells.len() < count {
            let pick = match rng.index(4) {
                0 => pick_from(a.goal, rng),
                1 => pick_from(a.foreign | a.home, rng),
                _ => Some(rng.index(board.len()) as u8),
            };
            if let Some(c) = pick {
                if !taken.has(c) {
                    taken.set(c);
                    cells.push(
                        board
                            .name(Cell::clone(
                                &board.cell(usize::from(c)).unwrap_or_else(|| panic!("cell")),
                            ))
                            .to_owned(),
                    );
                }
            }
        }
        groups.push(cells.join(","));
    }
    let options = setup.options.to_text();
    let to_move = rng.index(usize::from(setup.players)) + 1;
    let seats = vec!["0"; usize::from(setup.players)].join(",");
    let text = format!(
        "{} {} {options} {} {to_move} {seats}",
        setup.board.name(),
        setup.players,
        groups.join("/")
    );
    notation::parse_position(&text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn pick_from(set: Bitboard, rng: &mut SplitMix64) -> Option<u8> {
    let n = set.count() as usize;
    (n > 0).then(|| set.iter().nth(rng.index(n))).flatten()
}
