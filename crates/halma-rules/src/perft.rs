//! Perft: the number of distinct (from, to) move sequences of a given length, the standard
//! check of a move generator.

use crate::bitboard::Bitboard;
use crate::position::{Move, Position};
use crate::variant::Variant;

/// Counts the move sequences of `depth` plies from `pos`: the leaves are (from, to) moves, so a
/// seat with no legal move contributes nothing below it, and finished or eliminated seats are
/// skipped in the turn order as in play.
///
/// Counts the last ply without making its moves, and the last two plies incrementally (see
/// `perft2`); [`perft_plain`] makes every move but the last and gives the same counts.
#[must_use]
pub fn perft(variant: &Variant, pos: &Position, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(256)).collect();
    perft_inner(variant, pos, depth, &mut buffers, true)
}

/// [`perft`] without the incremental two-ply count: every node but the leaves is generated and
/// every move made; the leaves are counted per piece. It measures the move generator itself.
#[must_use]
pub fn perft_plain(variant: &Variant, pos: &Position, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(256)).collect();
    perft_inner(variant, pos, depth, &mut buffers, false)
}

fn perft_inner(
    variant: &Variant,
    pos: &Position,
    depth: u32,
    buffers: &mut [Vec<Move>],
    incremental: bool,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return u64::from(variant.count_moves(pos));
    }
    if incremental && depth == 2 && variant.simple_rules() {
        if let Some((list, _)) = buffers.split_first_mut() {
            return perft2(variant, pos, list);
        }
    }
    let Some((list, rest)) = buffers.split_first_mut() else {
        return 0;
    };
    variant.generate_moves(pos, list);
    let mut total = 0;
    for &mv in list.iter() {
        let mut next = *pos;
        variant.play_unchecked(&mut next, mv);
        total += perft_inner(variant, &next, depth - 1, rest, incremental);
    }
    total
}

/// Perft at depth 2 with incremental leaf counts.
///
/// The side that answers (the seat after the mover) has the same pieces in every child; a
/// piece's move count depends only on the occupancy of its zone (the cells next to and two
/// steps from the cells its chains visit). So each answering piece is counted once in `pos`,
/// and in a child only the pieces whose zone contains the moved piece's start or end cell are
/// counted again. Children that change the standings or the turn order are counted in full.
fn perft2(variant: &Variant, pos: &Position, list: &mut Vec<Move>) -> u64 {
    variant.generate_moves(pos, list);
    let mut probe = *pos;
    variant.pass(&mut probe);
    let answer = probe.to_move;
    let board = variant.board();
    let mut stack = [(0u8, 0u8); 256];
    // (army, cell, count, zone) of every answering piece, counted in `pos`.
    let mut pieces: Vec<(usize, u8, u32, Bitboard)> = Vec::with_capacity(32);
    let mut base = 0u64;
    let mut exact = answer != pos.to_move;
    variant.for_each_piece(answer, pos, |army, from| {
        let (n, reach) = variant.piece_count(pos, army, from, &mut stack);
        let zone = match reach {
            Some(words) => {
                let mut z = board.zone_raw(from);
                for c in Bitboard(words).iter() {
                    z |= board.zone_raw(c);
                }
                z
            }
            None => {
                exact = false;
                Bitboard::EMPTY
            }
        };
        base += u64::from(n);
        pieces.push((army, from, n, zone));
    });
    // A move that touches no goal still changes the standings when it is the mover's
    // leave-home deadline, or the move that makes its pieces blockers (the anti-blocking
    // rule's grace period).
    let grace = variant.options().anti_blocking_grace;
    let mover_moves = pos.moves_made[usize::from(pos.to_move)];
    let standings_fixed = variant.options().leave_home_moves.is_none()
        && (grace == 0 || mover_moves.saturating_add(1) != grace);
    let mut total = 0u64;
    for &mv in list.iter() {
        let (a, b) = (mv.from.index(), mv.to.index());
        let mut child = *pos;
        let touches_goal = variant.all_goals.has(a) || variant.all_goals.has(b);
        let hit = pieces.iter().any(|p| p.3.has(a) || p.3.has(b));
        if exact && !touches_goal && !hit && standings_fixed {
            total += base;
            continue;
        }
        variant.play_unchecked(&mut child, mv);
        let same_turn = child.to_move == answer
            && child.finished == pos.finished
            && child.eliminated == pos.eliminated;
        if !exact || !same_turn {
            total += u64::from(variant.count_moves(&child));
            continue;
        }
        for &(army, from, n, zone) in &pieces {
            total += if zone.has(a) || zone.has(b) {
                u64::from(variant.piece_count(&child, army, from, &mut stack).0)
            } else {
                u64::from(n)
            };
        }
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
