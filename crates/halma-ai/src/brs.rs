//! Search for three or more units: Best-Reply Search (Schadd & Winands, 2011), with paranoid
//! search as the alternative it was measured against.
//!
//! Best-Reply Search alternates two kinds of layer: the root unit moves (a max layer), then the
//! opponents' moves are pooled and only the single strongest reply among all of them is played
//! (a min layer); the other opponents pass. This keeps the root player's moves frequent in a
//! deep tree, and the illegal passes matter little in a race. Paranoid search instead follows
//! the real turn order and assumes every opponent plays against the root player.
//!
//! Both run as iterative deepening alpha-beta with a depth-exact transposition table, move
//! ordering by table move, forward progress and history, and the same clock as
//! [`crate::pvs::Pvs`]. Scores are always from the root unit's point of view.

use std::iter::StepBy;
use std::ops::RangeInclusive;

use halma_rules::{Move, Position, Seat, Variant};

use crate::eval::{relative_score, Evaluator, WIN};
use crate::pvs::CONTEMPT;
use crate::search::{
    deepen, order_key, Budget, Deepening, ExcludeRootMoves, SearchCore, SearchResult, Strategy,
};
use crate::sides::set_turn;

/// How many opponent replies a min layer considers by default: the most forward ones (after
/// the table move). Measured on the 3- and 6-player star against greedy players at 20 ms a
/// move, limiting the replies to 6 won at least as often as considering all of them, and it
/// keeps Best-Reply Search from assuming that some opponent always spends its move blocking.
pub const DEFAULT_REPLY_LIMIT: usize = 6;

/// How the opponents' moves are modelled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MultiMode {
    /// Best-Reply Search: the strongest single reply of all opponents.
    #[default]
    BestReply,
    /// Paranoid: every opponent in turn order, all minimising the root unit's score.
    Paranoid,
}

/// Iterative deepening Best-Reply (or paranoid) search.
#[derive(Debug)]
pub struct Brs<'a, E: Evaluator> {
    core: SearchCore<'a, E>,
    mode: MultiMode,
    /// Per ply: the moves of a layer with their movers and ordering keys.
    buffers: Vec<Vec<(i64, Seat, Move)>>,
    reply_limit: Option<usize>,
}

impl<'a, E: Evaluator> Brs<'a, E> {
    /// A search over `variant` scored by `eval`, with a table of `2^table_bits` entries.
    #[must_use]
    pub fn new(variant: &'a Variant, eval: &'a E, mode: MultiMode, table_bits: u32) -> Brs<'a, E> {
        Brs {
            core: SearchCore::new(variant, eval, Some(table_bits)),
            mode,
            buffers: Vec::new(),
            reply_limit: Some(DEFAULT_REPLY_LIMIT),
        }
    }

    /// Sets how many replies a min layer considers (`None`: all of them).
    #[must_use]
    pub fn with_reply_limit(mut self, limit: Option<usize>) -> Brs<'a, E> {
        self.reply_limit = limit.map(|l| l.max(1));
        self
    }

    fn evaluate(&self, pos: &Position) -> i32 {
        relative_score(self.core.eval, &self.core.sides, pos, self.core.root_unit)
    }

    /// The seats that move in the layer at `pos` (a bit mask) and whether it is a max layer.
    fn layer(&self, pos: &Position, ply: u32, max_layer: bool) -> (u8, bool) {
        match self.mode {
            MultiMode::Paranoid => {
                let s = pos.to_move();
                (
                    1 << s.index(),
                    self.core.sides.unit(s) == self.core.root_unit,
                )
            }
            MultiMode::BestReply => {
                if ply == 0 {
                    return (1 << pos.to_move().index(), true);
                }
                let mut mask = 0;
                for &s in self.core.sides.all_seats() {
                    if pos.is_active(s)
                        && (self.core.sides.unit(s) == self.core.root_unit) == max_layer
                    {
                        mask |= 1 << s.index();
                    }
                }
                (mask, max_layer)
            }
        }
    }

    fn search(
        &mut self,
        pos: &Position,
        depth: u32,
        mut alpha: i32,
        mut beta: i32,
        ply: u32,
        max_layer: bool,
    ) -> i32 {
        if self.core.clock.tick() {
            return 0;
        }
        let p = ply as usize;
        self.core.pv.clear(p);
        let win = WIN - ply as i32;
        if self.core.sides.finished(pos, self.core.root_unit) {
            return win;
        }
        if self.core.sides.eliminated(pos, self.core.root_unit) {
            return -win;
        }
        if self.core.sides.game_over(pos) {
            // The root unit is the last one left: its place depends on how the others went
            // out (finished ahead of it, or eliminated behind it), which the evaluation counts.
            return self.evaluate(pos);
        }
        let key = pos.hash() ^ u64::from(max_layer);
        if ply > 0 && self.core.seen.contains(&key) {
            return self.evaluate(pos) - CONTEMPT;
        }
        if depth == 0 {
            return self.evaluate(pos);
        }
        let probe = self.core.probe(key, ply, depth, (alpha, beta), false);
        if let Some(score) = probe.cut {
            return score;
        }
        let (seats, is_max) = self.layer(pos, ply, max_layer);
        if self.buffers.len() <= p {
            self.buffers.resize_with(p + 1, || Vec::with_capacity(512));
        }
        let mut list = std::mem::take(&mut self.buffers[p]);
        list.clear();
        for &s in self.core.sides.all_seats() {
            if seats & (1 << s.index()) == 0 {
                continue;
            }
            let mut at = *pos;
            if !set_turn(self.core.variant, &mut at, s) {
                continue;
            }
            self.core
                .variant
                .generate_moves(&at, &mut self.core.scratch);
            for &mv in &self.core.scratch {
                list.push((
                    order_key(
                        mv,
                        self.core.eval.progress(&at, mv),
                        &self.core.history,
                        probe.first,
                    ),
                    s,
                    mv,
                ));
            }
        }
        self.core.drop_excluded(ply, &mut list, |&(_, _, mv)| mv);
        if list.is_empty() {
            self.buffers[p] = list;
            // Nobody in this layer can move: the other kind of layer follows.
            if self.mode == MultiMode::Paranoid {
                let mut next = *pos;
                for _ in 0..self.core.variant.players() {
                    self.core.variant.pass(&mut next);
                    if self.core.variant.has_moves(&next) {
                        return self.search(&next, depth, alpha, beta, ply + 1, false);
                    }
                }
                return 0;
            }
            if ply > 0 && !self.any_moves(pos, !is_max) {
                return self.evaluate(pos);
            }
            return self.search(pos, depth - 1, alpha, beta, ply + 1, !is_max);
        }
        list.sort_unstable_by_key(|&(k, _, _)| std::cmp::Reverse(k));
        if !is_max {
            if let Some(limit) = self.reply_limit {
                list.truncate(limit);
            }
        }
        let window = (alpha, beta);
        let mut best = if is_max { -WIN - 1 } else { WIN + 1 };
        let mut best_move = None;
        self.core.seen.push(key);
        for &(_, s, mv) in &list {
            let mut next = *pos;
            set_turn(self.core.variant, &mut next, s);
            self.core.variant.play_unchecked(&mut next, mv);
            if self.mode == MultiMode::BestReply {
                self.normalise_turn(&mut next, !is_max);
            }
            // Waiting moves cost the root unit (see [`Evaluator::waiting_cost`]).
            let w = if is_max {
                self.core.eval.waiting_cost(pos, mv)
            } else {
                0
            };
            let score = self.search(&next, depth - 1, alpha + w, beta + w, ply + 1, !is_max) - w;
            if self.core.clock.stopped {
                break;
            }
            let better = if is_max { score > best } else { score < best };
            if better {
                best = score;
                best_move = Some(mv);
                if is_max && score > alpha {
                    alpha = score;
                    self.core.improve(ply, mv, score);
                } else if !is_max && score < beta {
                    beta = score;
                    self.core.pv.update(p, mv);
                }
                if alpha >= beta {
                    self.core.history.reward(mv, depth);
                    break;
                }
            }
        }
        self.core.seen.pop();
        self.buffers[p] = list;
        if self.core.clock.stopped {
            return 0;
        }
        self.core.store(key, ply, depth, best, window, best_move);
        best
    }

    /// Whether any seat of the given kind of layer can move.
    fn any_moves(&self, pos: &Position, max_layer: bool) -> bool {
        self.core.sides.all_seats().iter().any(|&s| {
            let mut at = *pos;
            (self.core.sides.unit(s) == self.core.root_unit) == max_layer
                && set_turn(self.core.variant, &mut at, s)
                && self.core.variant.has_moves(&at)
        })
    }

    /// Gives the turn to the first active seat of the next layer, so that equal placements
    /// share one hash.
    fn normalise_turn(&self, pos: &mut Position, max_layer: bool) {
        if let Some(&s) = self.core.sides.all_seats().iter().find(|&&s| {
            pos.is_active(s) && (self.core.sides.unit(s) == self.core.root_unit) == max_layer
        }) {
            set_turn(self.core.variant, pos, s);
        }
    }
}

impl<'a, E: Evaluator + 'a> Deepening<'a, E> for Brs<'a, E> {
    fn core(&mut self) -> &mut SearchCore<'a, E> {
        &mut self.core
    }

    /// Repetitions are only recognised for max layers (the root unit to move), whose keys
    /// carry the layer bit.
    fn history_key(hash: u64) -> u64 {
        hash ^ 1
    }

    /// Best-Reply Search runs odd depths only, so that every iteration ends on a layer of
    /// the root unit's own moves: measured on the 6-player star, depth 2 (ending on the
    /// opponents' best reply) played no better than depth 1, depth 3 far better.
    fn iteration_depths(&self, max_depth: u32) -> StepBy<RangeInclusive<u32>> {
        match self.mode {
            MultiMode::BestReply => (1..=max_depth.max(1) | 1).step_by(2),
            MultiMode::Paranoid => (1..=max_depth.max(1)).step_by(1),
        }
    }

    fn search_root(&mut self, pos: &Position, depth: u32) -> i32 {
        self.search(pos, depth, -WIN - 1, WIN + 1, 0, true)
    }
}

impl<E: Evaluator> Strategy for Brs<'_, E> {
    fn choose(&mut self, pos: &Position, history: &[u64], budget: &Budget) -> Option<SearchResult> {
        deepen(self, pos, history, budget)
    }
}

impl<E: Evaluator> ExcludeRootMoves for Brs<'_, E> {
    fn exclude_root_moves(&mut self, moves: &[Move]) {
        self.core.excluded = moves.to_vec();
    }
}
