//! The reference search: plain negamax to a fixed depth, without pruning, table or ordering.
//! It is slow and obviously right, and the optimised search is tested against it.

use halma_rules::{Move, Position, Variant};

use crate::eval::{relative_score, Evaluator, WIN};
use crate::pvs::{CONTEMPT, TEMPO};
use crate::search::{Budget, SearchResult, Strategy};
use crate::sides::Sides;

/// Plain fixed-depth negamax over two units, scored exactly like [`crate::pvs::Pvs`].
#[derive(Debug)]
pub struct Reference<'a, E: Evaluator> {
    variant: &'a Variant,
    eval: &'a E,
    sides: Sides,
    repetitions: bool,
    /// Earlier positions: the game's, then the search path's.
    seen: Vec<u64>,
    nodes: u64,
    root_unit: u8,
}

impl<'a, E: Evaluator> Reference<'a, E> {
    /// A reference search; with `repetitions`, positions seen before (in `history` given to
    /// [`Reference::value`] or on the search path) score as repetitions, as in the optimised
    /// search.
    #[must_use]
    pub fn new(variant: &'a Variant, eval: &'a E, repetitions: bool) -> Reference<'a, E> {
        Reference {
            variant,
            eval,
            sides: Sides::new(variant),
            repetitions,
            seen: Vec::new(),
            nodes: 0,
            root_unit: 0,
        }
    }

    /// Nodes visited so far.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The negamax value of `pos` at `depth` for the unit to move, and the first move that
    /// reaches it (`None` without a legal move). `history` holds the game's earlier positions.
    pub fn value(&mut self, pos: &Position, history: &[u64], depth: u32) -> (i32, Option<Move>) {
        self.seen.clear();
        self.seen.extend_from_slice(history);
        self.root_unit = self.sides.unit(pos.to_move());
        self.negamax(pos, depth, 0)
    }

    fn negamax(&mut self, pos: &Position, depth: u32, ply: u32) -> (i32, Option<Move>) {
        self.nodes += 1;
        let unit = self.sides.unit(pos.to_move());
        if self.sides.game_over(pos) {
            let win = WIN - ply as i32;
            let (s, other) = (&self.sides, 1 - unit);
            let score = if s.eliminated(pos, unit)
                || (s.finished(pos, other) && !s.finished(pos, unit))
            {
                -win
            } else if s.eliminated(pos, other) || (s.finished(pos, unit) && !s.finished(pos, other))
            {
                win
            } else {
                0
            };
            return (score, None);
        }
        if ply > 0 && self.repetitions && self.seen.contains(&pos.hash()) {
            return (
                if unit == self.root_unit {
                    -CONTEMPT
                } else {
                    CONTEMPT
                },
                None,
            );
        }
        if depth == 0 {
            return (
                relative_score(self.eval, &self.sides, pos, unit) + TEMPO,
                None,
            );
        }
        let mut moves = Vec::new();
        self.variant.generate_moves(pos, &mut moves);
        if moves.is_empty() {
            let mut next = *pos;
            for _ in 0..self.variant.players() {
                self.variant.pass(&mut next);
                if self.variant.has_moves(&next) {
                    return (self.child(unit, &next, depth, ply + 1), None);
                }
            }
            return (0, None);
        }
        self.seen.push(pos.hash());
        let mut best = (-WIN - 1, None);
        for mv in moves {
            let mut next = *pos;
            self.variant.play_unchecked(&mut next, mv);
            let score =
                self.child(unit, &next, depth - 1, ply + 1) - self.eval.waiting_cost(pos, mv);
            if score > best.0 {
                best = (score, Some(mv));
            }
        }
        self.seen.pop();
        best
    }

    fn child(&mut self, unit: u8, next: &Position, depth: u32, ply: u32) -> i32 {
        let (score, _) = self.negamax(next, depth, ply);
        if self.sides.unit(next.to_move()) == unit {
            score
        } else {
            -score
        }
    }
}

impl<E: Evaluator> Strategy for Reference<'_, E> {
    fn choose(&mut self, pos: &Position, history: &[u64], budget: &Budget) -> Option<SearchResult> {
        let depth = budget.max_depth.max(1);
        let (score, mv) = self.value(pos, history, depth);
        let mv = mv?;
        Some(SearchResult {
            mv,
            score,
            depth,
            nodes: self.nodes,
            pv: vec![mv],
        })
    }
}
