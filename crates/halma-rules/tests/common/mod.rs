//! Test helpers: a slow reference move generator written from the rule book with the public
//! board API only, variants to test, and random positions.
#![allow(dead_code)] // each test binary uses a different part of the helpers

use std::collections::BTreeSet;

use halma_rules::{
    notation, BackwardSteps, Bitboard, BoardKind, Cell, Corner, ForeignCorners, GameSetup,
    Position, RuleOptions, SplitMix64, Variant,
};

/// Every legal (from, to) of the seat to move, found by walking lines cell by cell.
pub fn reference_moves(variant: &Variant, pos: &Position) -> BTreeSet<(u8, u8)> {
    let mut out = BTreeSet::new();
    let seat = pos.to_move();
    if !pos.is_active(seat) {
        return out;
    }
    let board = variant.board();
    let o = variant.options();
    let lock = o.goal_lock;
    for army in variant.armies_of(seat) {
        let a = &variant.armies()[army];
        for from in pos.army(army).iter() {
            let mut occ = pos.occupied();
            occ.clear(from);
            let from_cell = board
                .cell(usize::from(from))
                .unwrap_or_else(|| panic!("bad cell"));
            let mut dest: BTreeSet<u8> = BTreeSet::new();
            for d in 0..board.directions() {
                if let Some(nb) = board.neighbor(from_cell, d) {
                    let nb = nb.index();
                    if occ.has(nb) || !step_allowed(variant, a.home_corner, from, nb) {
                        continue;
                    }
                    if lock && a.goal.has(from) && !a.goal.has(nb) {
                        continue;
                    }
                    if o.foreign_corners == ForeignCorners::Forbidden && a.foreign.has(nb) {
                        continue;
                    }
                    dest.insert(nb);
                }
            }
            let mut seen = BTreeSet::from([from]);
            let mut stack = vec![from];
            while let Some(c) = stack.pop() {
                let cc = board
                    .cell(usize::from(c))
                    .unwrap_or_else(|| panic!("bad cell"));
                for d in 0..board.directions() {
                    let mut ray = Vec::new();
                    let mut cur = cc;
                    while let Some(n) = board.neighbor(cur, d) {
                        ray.push(n.index());
                        cur = n;
                    }
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
                    if seen.insert(land) {
                        stack.push(land);
                    }
                }
            }
            dest.extend(seen.into_iter().filter(|&c| c != from));
            for to in dest {
                if o.foreign_corners != ForeignCorners::Allowed && a.foreign.has(to) {
                    continue;
                }
                out.insert((from, to));
            }
        }
    }
    out
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
