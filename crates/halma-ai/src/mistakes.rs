//! Deliberate mistakes: how the lower levels go wrong in a way a beginner can punish.
//!
//! A level with mistakes plays its own search's move, except on a share of its moves (drawn
//! from the seed), where it plays a move that is worse by about a chosen margin instead: one of
//! the legal moves whose one-ply score (as the greedy player ranks moves) falls short of the
//! best one-ply score by half the margin to one and a half times it, picked at random. Such a
//! move looks reasonable (it usually goes forward, just not as far or as well as the best one),
//! but it gives away about `margin` evaluation units, a tempo the opponent can take. When no
//! move falls in that band (the moves are all about as good, or the others are far worse, as
//! when one move finishes the game), the level plays its search's move.

use halma_rules::{Move, Position, SplitMix64, Variant};

use crate::eval::{relative_score, Evaluator};
use crate::greedy::one_ply_score;
use crate::search::{Budget, ExcludeRootMoves, SearchResult, Strategy, GAME_HISTORY};
use crate::sides::Sides;

/// How often a level errs and by how much.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Mistakes {
    /// The share of the level's moves that are mistakes, in percent.
    pub(crate) percent: u32,
    /// The size of a mistake: how much worse than the best move it is, in evaluation units
    /// (16 per row), give or take half of it.
    pub(crate) margin: i32,
}

impl Mistakes {
    /// The range of shortfalls (best one-ply score minus the move's) a mistake may have.
    pub(crate) fn band(self) -> (i32, i32) {
        (self.margin / 2, self.margin + self.margin / 2)
    }
}

/// A strategy that plays `inner`'s moves, but errs as [`Mistakes`] says.
pub(crate) struct Erring<'a, E: Evaluator> {
    inner: Box<dyn ExcludeRootMoves + 'a>,
    variant: &'a Variant,
    eval: &'a E,
    sides: Sides,
    mistakes: Mistakes,
    rng: SplitMix64,
    /// The candidates of a mistake, with their shortfalls.
    moves: Vec<Move>,
    excluded: Vec<Move>,
}

impl<'a, E: Evaluator> Erring<'a, E> {
    /// `inner` with mistakes drawn from `seed`.
    pub(crate) fn new(
        inner: Box<dyn ExcludeRootMoves + 'a>,
        variant: &'a Variant,
        eval: &'a E,
        mistakes: Mistakes,
        seed: u64,
    ) -> Erring<'a, E> {
        Erring {
            inner,
            variant,
            eval,
            sides: Sides::new(variant),
            mistakes,
            rng: SplitMix64::new(seed),
            moves: Vec::new(),
            excluded: Vec::new(),
        }
    }

    /// A mistake in `pos`: a move whose one-ply score falls short of the best by a shortfall
    /// in [`Mistakes::band`], the `pick`-th of them (modulo their number); `None` when no
    /// (allowed) move falls in the band.
    fn mistake(&mut self, pos: &Position, history: &[u64], pick: u64) -> Option<SearchResult> {
        self.variant.generate_moves(pos, &mut self.moves);
        if !self.excluded.is_empty() {
            let excluded = &self.excluded;
            self.moves.retain(|m| !excluded.contains(m));
        }
        let recent = &history[history.len().saturating_sub(GAME_HISTORY)..];
        let scored: Vec<(Move, i32)> = self
            .moves
            .iter()
            .map(|&mv| {
                let s = one_ply_score(self.variant, self.eval, &self.sides, pos, mv, recent);
                (mv, s)
            })
            .collect();
        let best = scored.iter().map(|&(_, s)| s).max()?;
        let (low, high) = self.mistakes.band();
        let candidates: Vec<Move> = scored
            .iter()
            .filter(|&&(_, s)| (low..=high).contains(&(best - s)))
            .map(|&(mv, _)| mv)
            .collect();
        let count = u64::try_from(candidates.len()).ok().filter(|&n| n > 0)?;
        let mv = candidates[usize::try_from(pick % count).ok()?];
        let mut next = *pos;
        self.variant.play_unchecked(&mut next, mv);
        let unit = self.sides.unit(pos.to_move());
        Some(SearchResult {
            mv,
            score: relative_score(self.eval, &self.sides, &next, unit),
            depth: 1,
            nodes: scored.len() as u64,
            pv: vec![mv],
        })
    }
}

impl<E: Evaluator> Strategy for Erring<'_, E> {
    fn choose(&mut self, pos: &Position, history: &[u64], budget: &Budget) -> Option<SearchResult> {
        // Both numbers are drawn on every move, so that the sequence of choices depends on the
        // seed and the positions only.
        let errs = self.rng.below(100) < u64::from(self.mistakes.percent);
        let pick = self.rng.next_u64();
        if errs {
            if let Some(r) = self.mistake(pos, history, pick) {
                return Some(r);
            }
        }
        self.inner.choose(pos, history, budget)
    }
}

impl<E: Evaluator> ExcludeRootMoves for Erring<'_, E> {
    fn exclude_root_moves(&mut self, moves: &[Move]) {
        self.excluded = moves.to_vec();
        self.inner.exclude_root_moves(moves);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // tests fail loudly on setup errors
    use super::*;
    use crate::eval::RaceEvaluator;
    use crate::greedy::Greedy;
    use halma_rules::{BoardKind, GameSetup, RuleOptions};

    fn star() -> Variant {
        Variant::new(&GameSetup {
            board: BoardKind::Star,
            players: 2,
            options: RuleOptions::default(),
        })
        .unwrap()
    }

    /// Positions of games played by a greedy player that errs often, every fifth ply from
    /// the fourth on, with the hashes of the positions before each (most recent last).
    fn positions(v: &Variant, count: usize) -> Vec<(Position, Vec<u64>)> {
        let eval = RaceEvaluator::new(v);
        let mut out = Vec::new();
        let mut seed = 0;
        while out.len() < count {
            seed += 1;
            let mut pos = Position::start(v, v.seat(0).unwrap());
            let mut history = Vec::new();
            let mut player = erring_greedy(v, &eval, 50, 48, seed);
            for ply in 0..60 {
                if !pos.is_active(pos.to_move()) || !v.has_moves(&pos) {
                    break;
                }
                if ply >= 4 && ply % 5 == 0 {
                    out.push((pos, history.clone()));
                }
                let mv = player.choose(&pos, &history, &Budget::depth(1)).unwrap().mv;
                history.push(pos.hash());
                v.play_unchecked(&mut pos, mv);
            }
        }
        out.truncate(count);
        out
    }

    fn erring_greedy<'a>(
        v: &'a Variant,
        eval: &'a RaceEvaluator,
        percent: u32,
        margin: i32,
        seed: u64,
    ) -> Erring<'a, RaceEvaluator> {
        let greedy = Box::new(Greedy::new(v, eval, 0, seed));
        Erring::new(greedy, v, eval, Mistakes { percent, margin }, seed)
    }

    /// The shortfall of `mv` (best one-ply score minus its own) among the moves not excluded.
    fn shortfall(
        v: &Variant,
        eval: &RaceEvaluator,
        pos: &Position,
        history: &[u64],
        excluded: &[Move],
        mv: Move,
    ) -> i32 {
        let sides = Sides::new(v);
        let mut moves = Vec::new();
        v.generate_moves(pos, &mut moves);
        moves.retain(|m| !excluded.contains(m));
        let score = |m| one_ply_score(v, eval, &sides, pos, m, history);
        let best = moves.iter().map(|&m| score(m)).max().unwrap();
        best - score(mv)
    }

    /// Whether some allowed move falls short of the best by a shortfall in `band`.
    fn has_candidate(
        v: &Variant,
        eval: &RaceEvaluator,
        pos: &Position,
        history: &[u64],
        excluded: &[Move],
        (low, high): (i32, i32),
    ) -> bool {
        let mut moves = Vec::new();
        v.generate_moves(pos, &mut moves);
        moves
            .iter()
            .filter(|m| !excluded.contains(m))
            .any(|&m| (low..=high).contains(&shortfall(v, eval, pos, history, excluded, m)))
    }

    #[test]
    fn a_mistake_is_a_legal_move_worse_than_the_best_by_about_the_margin() {
        let v = star();
        let eval = RaceEvaluator::new(&v);
        let mut erred = 0;
        for (i, (pos, history)) in positions(&v, 40).iter().enumerate() {
            for margin in [16, 32, 64] {
                let mistakes = Mistakes {
                    percent: 100,
                    margin,
                };
                let band = mistakes.band();
                let mut player = erring_greedy(&v, &eval, 100, margin, i as u64);
                let r = player.choose(pos, history, &Budget::depth(1)).unwrap();
                assert!(v.is_legal(pos, r.mv));
                assert_eq!(r.pv, vec![r.mv]);
                let short = shortfall(&v, &eval, pos, history, &[], r.mv);
                if has_candidate(&v, &eval, pos, history, &[], band) {
                    assert!(
                        (band.0..=band.1).contains(&short),
                        "margin {margin}: shortfall {short}"
                    );
                    erred += 1;
                } else {
                    // Nothing to err with: the greedy move.
                    assert_eq!(short, 0, "margin {margin}");
                }
            }
        }
        // Positions of a race nearly always have a move about a row or more worse than the best.
        assert!(erred >= 100, "only {erred} mistakes in 120 choices");
    }

    #[test]
    fn mistakes_happen_at_about_the_configured_rate() {
        let v = star();
        let eval = RaceEvaluator::new(&v);
        let margin = 32;
        let positions: Vec<_> = positions(&v, 30)
            .into_iter()
            .filter(|(pos, history)| has_candidate(&v, &eval, pos, history, &[], (16, 48)))
            .collect();
        assert!(positions.len() >= 20);
        for percent in [10, 40] {
            let mut mistakes = 0;
            let mut choices = 0;
            for seed in 0..60 {
                let mut player = erring_greedy(&v, &eval, percent, margin, seed);
                // One player through many positions, as in a game: the rate holds per move.
                for (pos, history) in &positions {
                    let mv = player.choose(pos, history, &Budget::depth(1)).unwrap().mv;
                    choices += 1;
                    if shortfall(&v, &eval, pos, history, &[], mv) > 0 {
                        mistakes += 1;
                    }
                }
            }
            let rate = 100.0 * f64::from(mistakes) / f64::from(choices);
            // Over more than a thousand choices the rate is within a few percent of the
            // configured one (three standard deviations are below 5 %).
            assert!(
                (rate - f64::from(percent)).abs() < 5.0,
                "{percent} %: {mistakes} of {choices} ({rate:.1} %)"
            );
        }
    }

    #[test]
    fn a_mistake_is_never_an_excluded_move() {
        let v = star();
        let eval = RaceEvaluator::new(&v);
        for (i, (pos, history)) in positions(&v, 20).iter().enumerate() {
            let mut moves = Vec::new();
            v.generate_moves(pos, &mut moves);
            // Leave out every other move, the best ones among them.
            let excluded: Vec<Move> = moves.iter().copied().step_by(2).collect();
            let mut player = erring_greedy(&v, &eval, 100, 32, i as u64);
            player.exclude_root_moves(&excluded);
            let r = player.choose(pos, history, &Budget::depth(1)).unwrap();
            assert!(v.is_legal(pos, r.mv));
            assert!(!excluded.contains(&r.mv));
            let short = shortfall(&v, &eval, pos, history, &excluded, r.mv);
            if has_candidate(&v, &eval, pos, history, &excluded, (16, 48)) {
                assert!((16..=48).contains(&short), "shortfall {short}");
            }
            player.exclude_root_moves(&moves);
            assert_eq!(player.choose(pos, history, &Budget::depth(1)), None);
        }
    }

    #[test]
    fn the_same_seed_errs_the_same_way() {
        let v = star();
        let eval = RaceEvaluator::new(&v);
        let positions = positions(&v, 20);
        let play = |seed| -> Vec<Move> {
            let mut player = erring_greedy(&v, &eval, 50, 32, seed);
            positions
                .iter()
                .map(|(pos, history)| player.choose(pos, history, &Budget::depth(1)).unwrap().mv)
                .collect()
        };
        assert_eq!(play(5), play(5));
        assert_ne!(play(5), play(6));
    }
}
