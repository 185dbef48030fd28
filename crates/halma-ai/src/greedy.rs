//! The one-ply player: the greedy player (the best move by the evaluation, one move deep),
//! which plays levels 1 to 4 (levels 1 to 3 with deliberate mistakes, see
//! [`crate::SearchLimits::level`]), optionally with seeded noise on its scores for varied play
//! (random games of tests and benchmarks; no level uses the noise).

use halma_rules::{Move, Position, SplitMix64, Variant};

use crate::eval::{relative_score, Evaluator, WIN};
use crate::pvs::CONTEMPT;
use crate::search::{Budget, ExcludeRootMoves, SearchResult, Strategy, GAME_HISTORY};
use crate::sides::Sides;

/// The greedy one-ply player, with optional noise.
#[derive(Debug)]
pub struct Greedy<'a, E: Evaluator> {
    variant: &'a Variant,
    eval: &'a E,
    sides: Sides,
    noise: i32,
    rng: SplitMix64,
    moves: Vec<Move>,
    excluded: Vec<Move>,
}

impl<'a, E: Evaluator> Greedy<'a, E> {
    /// A greedy player. Each move's score gets a random bonus in `0..=noise` (evaluation
    /// units) drawn from `seed`; ties between equal scores are broken by the same generator.
    #[must_use]
    pub fn new(variant: &'a Variant, eval: &'a E, noise: i32, seed: u64) -> Greedy<'a, E> {
        Greedy {
            variant,
            eval,
            sides: Sides::new(variant),
            noise: noise.max(0),
            rng: SplitMix64::new(seed),
            moves: Vec::new(),
            excluded: Vec::new(),
        }
    }
}

impl<E: Evaluator> Strategy for Greedy<'_, E> {
    fn choose(
        &mut self,
        pos: &Position,
        history: &[u64],
        _budget: &Budget,
    ) -> Option<SearchResult> {
        self.variant.generate_moves(pos, &mut self.moves);
        if !self.excluded.is_empty() {
            self.moves.retain(|m| !self.excluded.contains(m));
        }
        let recent = &history[history.len().saturating_sub(GAME_HISTORY)..];
        let mut best: Option<(i32, u64, Move)> = None;
        let mut nodes = 0;
        for &mv in &self.moves {
            nodes += 1;
            let score = one_ply_score(self.variant, self.eval, &self.sides, pos, mv, recent);
            let noisy = score
                + if self.noise > 0 {
                    self.rng.below(self.noise as u64 + 1) as i32
                } else {
                    0
                };
            let tie = self.rng.next_u64();
            let key = (noisy, tie);
            if best.is_none_or(|(s, t, _)| key > (s, t)) {
                best = Some((key.0, key.1, mv));
            }
        }
        let (_, _, mv) = best?;
        let mut next = *pos;
        self.variant.play_unchecked(&mut next, mv);
        let score = relative_score(
            self.eval,
            &self.sides,
            &next,
            self.sides.unit(pos.to_move()),
        );
        Some(SearchResult {
            mv,
            score,
            depth: 1,
            nodes,
            pv: vec![mv],
        })
    }
}

impl<E: Evaluator> ExcludeRootMoves for Greedy<'_, E> {
    fn exclude_root_moves(&mut self, moves: &[Move]) {
        self.excluded = moves.to_vec();
    }
}

/// The one-ply score of `mv` in `pos` for the side to move, as the greedy player ranks its
/// moves: the evaluation after the move ([`WIN`] when it finishes the side), less the move's
/// waiting cost, less [`CONTEMPT`] when it goes back to one of the `recent` positions.
pub(crate) fn one_ply_score<E: Evaluator>(
    variant: &Variant,
    eval: &E,
    sides: &Sides,
    pos: &Position,
    mv: Move,
    recent: &[u64],
) -> i32 {
    let unit = sides.unit(pos.to_move());
    let mut next = *pos;
    variant.play_unchecked(&mut next, mv);
    let mut score = if sides.finished(&next, unit) {
        WIN
    } else {
        relative_score(eval, sides, &next, unit)
    };
    score -= eval.waiting_cost(pos, mv);
    if recent.contains(&next.hash()) {
        score -= CONTEMPT;
    }
    score
}
