//! Perft: the number of distinct (from, to) move sequences of a given length, the standard
//! check of a move generator.

use crate::position::{Move, Position};
use crate::variant::Variant;

/// Counts the move sequences of `depth` plies from `pos`. A seat without a legal move passes
/// (the pass is not counted as a move); a finished or eliminated seat is skipped as in play.
#[must_use]
pub fn perft(variant: &Variant, pos: &Position, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(256)).collect();
    perft_inner(variant, pos, depth, &mut buffers)
}

fn perft_inner(variant: &Variant, pos: &Position, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return u64::from(variant.count_moves(pos));
    }
    let Some((list, rest)) = buffers.split_first_mut() else { return 0 };
    variant.generate_moves(pos, list);
    let mut total = 0;
    for &mv in list.iter() {
        let mut next = *pos;
        variant.play_unchecked(&mut next, mv);
        total += perft_inner(variant, &next, depth - 1, rest);
    }
    total
}

/// Perft split by first move, for finding where two generators disagree.
#[must_use]
pub fn divide(variant: &Variant, pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut list = Vec::new();
    variant.generate_moves(pos, &mut list);
    list.iter()
        .map(|&mv| {
            let mut next = *pos;
            variant.play_unchecked(&mut next, mv);
            (mv, perft(variant, &next, depth.saturating_sub(1)))
        })
        .collect()
}
