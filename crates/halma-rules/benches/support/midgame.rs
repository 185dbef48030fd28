//! The mid-game positions of the move generation benchmarks, shared by the criterion
//! benchmark (`benches/movegen.rs`) and the fixed-work example (`examples/listing.rs`) that
//! instruction counts (callgrind) are taken from.

use std::sync::Arc;

use halma_rules::{BoardKind, GameSetup, Position, RuleOptions, Variant};

/// The setups the listing benchmarks use, by name.
pub const SETUPS: [(&str, BoardKind, u8); 3] = [
    ("star2", BoardKind::Star, 2),
    ("star6", BoardKind::Star, 6),
    ("square16", BoardKind::Square16, 2),
];

/// The variant of a board with the default options.
///
/// # Panics
/// When the setup is not playable (a bug in the caller).
pub fn variant(board: BoardKind, players: u8) -> Arc<Variant> {
    match Variant::new(&GameSetup {
        board,
        players,
        options: RuleOptions::default(),
    }) {
        Ok(v) => Arc::new(v),
        Err(e) => panic!("benchmark setup: {e}"),
    }
}

/// A mid-game position: `plies` moves from the start, each chosen by a fixed pseudo-random
/// rule, so the position is the same in every run.
///
/// # Panics
/// When the variant has no seat 0 (never).
pub fn midgame(variant: &Variant, plies: usize) -> Position {
    let Some(first) = variant.seat(0) else {
        panic!("no seat 0")
    };
    let mut pos = Position::start(variant, first);
    let mut list = Vec::new();
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..plies {
        variant.generate_moves(&pos, &mut list);
        if list.is_empty() {
            variant.pass(&mut pos);
            continue;
        }
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let pick = list[(state % list.len() as u64) as usize];
        variant.play_unchecked(&mut pos, pick);
    }
    pos
}

/// The benchmark's 20 mid-game positions (20 to 39 plies from the start).
pub fn positions(variant: &Variant) -> Vec<Position> {
    (20..40).map(|p| midgame(variant, p)).collect()
}
