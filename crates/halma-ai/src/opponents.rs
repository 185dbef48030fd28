//! What level 10 learns of its opponents from the game so far: their latest moves, found
//! again from the game's position keys ([`Variant::take_back`]), and how many of them the
//! greedy reply model predicted.
//!
//! The greedy model scores best (alone or tied) about 97 % of a greedy player's moves on the
//! 6-player star, and about two thirds of a paranoid search's (arena, `notes/multi.md`).
//! Level 10's ensemble sets half of the best rival's score against its own only against
//! opponents that race greedily ([`crate::ensemble::GREEDY_FIELD_RIVAL_SHARE`]): against
//! them it pays to cost the leader a tempo, against searching opponents it does not (they
//! block whoever leads already). Against the others it plans one own move deeper and keeps
//! to moves that hold under every reply model ([`crate::Ensemble::against`]).

use halma_rules::{Position, Variant};

use crate::brs::{model_agrees, ModelScratch, ReplyModel};
use crate::eval::Evaluator;
use crate::sides::Sides;

/// How many of the game's latest plies the opponents are judged on, at most.
pub const OBSERVED_PLIES: usize = 30;

/// The fewest opponent moves found that count as evidence; with fewer the opponents are
/// [`Opponents::Unknown`].
pub const MIN_OBSERVED: u32 = 10;

/// The share (percent) of their moves that the greedy model must have predicted for the
/// opponents to count as [`Opponents::Greedy`].
pub const GREEDY_AGREEMENT: u32 = 90;

/// How the opponents of the seat to move have played lately.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponents {
    /// Too few of their moves could be found: the game has just begun, or its keys do not
    /// reach back (a resignation, a finish, a position given without its game).
    Unknown,
    /// The greedy reply model predicted at least [`GREEDY_AGREEMENT`] percent of their
    /// moves: they race one move at a time.
    Greedy,
    /// They played otherwise (they search, or they are people).
    Other,
}

/// How many of the latest moves of the opponents of the seat to move in `pos` the greedy
/// model scores best (its predicted move or one tied with it), and of how many. The moves
/// are found from `history`, the game's position keys (oldest first, `pos`'s own key last or
/// left out), walking back at most [`OBSERVED_PLIES`] plies and stopping at the first key no
/// single move explains.
#[must_use]
pub fn greedy_agreement<E: Evaluator>(
    variant: &Variant,
    eval: &E,
    pos: &Position,
    history: &[u64],
) -> (u32, u32) {
    let sides = Sides::new(variant);
    let root = sides.unit(pos.to_move());
    let keys = match history.split_last() {
        Some((&last, earlier)) if last == pos.hash() => earlier,
        _ => history,
    };
    let mut moves = Vec::new();
    let mut scratch = ModelScratch::default();
    let mut at = *pos;
    let (mut agreed, mut seen) = (0, 0);
    for &key in keys.iter().rev().take(OBSERVED_PLIES) {
        let Some((before, mv)) = variant.take_back(&at, key) else {
            break;
        };
        if sides.unit(before.to_move()) != root {
            seen += 1;
            agreed += u32::from(model_agrees(
                variant,
                eval,
                &sides,
                ReplyModel::Greedy,
                &before,
                mv,
                &mut moves,
                &mut scratch,
            ));
        }
        at = before;
    }
    (agreed, seen)
}

/// How the opponents of the seat to move in `pos` have played lately (see
/// [`greedy_agreement`]).
#[must_use]
pub fn observe<E: Evaluator>(
    variant: &Variant,
    eval: &E,
    pos: &Position,
    history: &[u64],
) -> Opponents {
    let (agreed, seen) = greedy_agreement(variant, eval, pos, history);
    if seen < MIN_OBSERVED {
        Opponents::Unknown
    } else if agreed * 100 >= GREEDY_AGREEMENT * seen {
        Opponents::Greedy
    } else {
        Opponents::Other
    }
}
