//! The plain race evaluation the optimised one in the parent module is tested against: the
//! same terms computed the direct way, each piece's single jumps from the board's (over,
//! landing) pairs and its potential looked up afresh wherever it is needed.

use halma_rules::{Bitboard, Move, Position, Seat};

use super::{RaceEvaluator, WAITING};

impl RaceEvaluator {
    /// [`super::Evaluator::seat_score`], computed the plain way.
    pub(super) fn plain_seat_score(&self, pos: &Position, seat: Seat) -> i32 {
        let mask = self.armies_of[usize::from(seat.index())];
        let mut score = 0;
        let mut at_home = 0;
        for a in (0..self.potential.len()).filter(|a| mask & (1 << a) != 0) {
            score += self.plain_army_score(pos, a);
            let home = pos.army(a) & self.homes[a];
            at_home += home.count() as i32;
            if self.weights.walled_in == 0 {
                continue;
            }
            for c in home.iter() {
                if self.walled_in(pos, a, c) {
                    score -= self.weights.walled_in;
                }
            }
            if !self.anti_blocking {
                for c in (self.goals[a] & pos.occupied() & !pos.army(a)).iter() {
                    if let Some(owner) = (0..self.potential.len()).find(|&b| pos.army(b).has(c)) {
                        if self.walled_in(pos, owner, c) {
                            score -= self.weights.walled_in;
                        }
                    }
                }
            }
        }
        if let Some(limit) = self.leave_home {
            let left = i32::from(limit) - i32::from(pos.moves_made(seat));
            if at_home > 0 && left <= 10 {
                score -= self.weights.leave_home * at_home * (11 - left.max(0));
            }
        }
        score
    }

    /// [`super::Evaluator::waiting_cost`], computed the plain way.
    pub(super) fn plain_waiting_cost(&self, pos: &Position, mv: Move) -> i32 {
        let Some(a) = pos.army_at(mv.from) else {
            return 0;
        };
        let targets = self.plain_targets(pos, a);
        if targets.potential(mv.from.index()) > targets.potential(mv.to.index()) {
            return 0;
        }
        let pieces = pos.army(a);
        let home = (pieces & self.goals[a]).count() as i32;
        let cost = WAITING + 2 * WAITING * home / (pieces.count() as i32).max(1);
        if self.goals[a].has(mv.from.index()) {
            2 * cost
        } else {
            cost
        }
    }

    /// What the pieces of `army` outside its goal head for in `pos`: see
    /// [`super::Weights::free_goals`].
    fn plain_targets(&self, pos: &Position, army: usize) -> PlainTargets<'_> {
        let goal = self.goals[army];
        let mut t = PlainTargets {
            potential: &self.potential[army][..],
            goal,
            free: [&[]; MAX_GOAL],
            len: 0,
        };
        let filled = (pos.army(army) & goal) | self.plain_counted_blockers(pos, army);
        if self.weights.free_goals && !filled.is_empty() {
            for (g, table) in self.goal_cells[army].iter().zip(&self.target[army]) {
                if !filled.has(*g) && t.len < MAX_GOAL {
                    t.free[t.len] = &table[..];
                    t.len += 1;
                }
            }
        }
        t
    }

    /// The goal cells of `army` that [`super::Weights::blockers`] counts as filled, cell by
    /// cell.
    fn plain_counted_blockers(&self, pos: &Position, army: usize) -> Bitboard {
        let mut counted = Bitboard::EMPTY;
        let Some(ahead) = self.weights.blockers else {
            return counted;
        };
        if !self.anti_blocking {
            return counted;
        }
        for g in self.goals[army].iter() {
            let Some(b) = (0..self.goals.len()).find(|&b| pos.army(b).has(g)) else {
                continue;
            };
            let owner = self.owners[b];
            if b != army
                && (owner == self.owners[army]
                    || !pos.is_active(owner)
                    || u32::from(pos.moves_made(owner)) + u32::from(ahead) >= u32::from(self.grace))
            {
                counted.set(g);
            }
        }
        counted
    }

    fn plain_army_score(&self, pos: &Position, army: usize) -> i32 {
        let w = &self.weights;
        let pieces = pos.army(army);
        if pieces.is_empty() {
            return 0;
        }
        let occ = pos.occupied();
        let goal = self.goals[army];
        let targets = self.plain_targets(pos, army);
        let piece_potential = |c: u8| targets.potential(c);
        // Every piece outside the goal with its potential and its best single jump's rows.
        let mut outside: Vec<(i32, i32)> = Vec::new();
        for c in (pieces & !goal).iter() {
            let p = piece_potential(c);
            let mut best = 0;
            let js = &self.jumps[usize::from(self.jump_start[usize::from(c)])
                ..usize::from(self.jump_start[usize::from(c) + 1])];
            for &(over, land) in js {
                if occ.has(over) && !occ.has(land) {
                    best = best.max(p - piece_potential(land));
                }
            }
            outside.push((p, best));
        }
        // With other players' pieces counted in the goal, only the pieces that fill the cells
        // left race: the nearest, the most jump rows first among equals.
        let counted = self.plain_counted_blockers(pos, army);
        if !counted.is_empty() {
            // A goal counts as filled only with an own piece in it.
            let own = (pieces & goal).count();
            let left = (goal.count() - own - counted.count()).max(u32::from(own == 0));
            outside.sort_by_key(|&(p, best)| (p, std::cmp::Reverse(best)));
            outside.truncate(left as usize);
        }
        let count = (pieces & goal).count() as i32 + outside.len() as i32;
        let mut sum: i32 = (pieces & goal).iter().map(piece_potential).sum();
        let mut jump_rows = 0;
        for &(p, best) in &outside {
            sum += p;
            // Jumps inside the goal are no ladder: only pieces still racing get credit.
            jump_rows += best;
        }
        // Stragglers: rows behind the army's mean beyond the slack, kept exact (in units of
        // 1/count row) so that no rounding step rewards moving other pieces backwards.
        let mut lag = 0;
        for &(p, _) in &outside {
            lag += (p * count - sum - w.straggler_slack * count).max(0);
        }
        -(w.row * sum) - w.straggler * lag / count + w.jump * jump_rows
    }
}

/// The most goal cells an army has (19 on the 16x16 board).
const MAX_GOAL: usize = 32;

/// The potentials of one army's pieces in one position: the static ones, or the way to the
/// nearest free goal cell (see [`super::Weights::free_goals`]).
struct PlainTargets<'a> {
    potential: &'a [u16],
    goal: Bitboard,
    free: [&'a [u16]; MAX_GOAL],
    len: usize,
}

impl PlainTargets<'_> {
    #[inline]
    fn potential(&self, cell: u8) -> i32 {
        let c = usize::from(cell);
        let free = &self.free[..self.len];
        if free.is_empty() || self.goal.has(cell) {
            i32::from(self.potential[c])
        } else {
            i32::from(free.iter().map(|t| t[c]).min().unwrap_or(self.potential[c]))
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // tests fail loudly on setup errors
    use halma_rules::{
        BoardKind, ForeignCorners, GameSetup, Move, Position, RuleOptions, Seat, Variant,
    };

    use super::super::{Evaluator, RaceEvaluator, Weights};
    use crate::search::{Budget, Strategy};
    use crate::sides::Sides;
    use crate::Greedy;

    /// The plain evaluation as an evaluator, so that the games of the test below do not
    /// depend on the code under test.
    struct Plain<'a>(&'a RaceEvaluator);

    impl Evaluator for Plain<'_> {
        fn seat_score(&self, pos: &Position, seat: Seat) -> i32 {
            self.0.plain_seat_score(pos, seat)
        }

        fn progress(&self, pos: &Position, mv: Move) -> i32 {
            self.0.progress(pos, mv)
        }

        fn waiting_cost(&self, pos: &Position, mv: Move) -> i32 {
            self.0.plain_waiting_cost(pos, mv)
        }
    }

    /// Seeded greedy games played to the end with the plain evaluation (the goals fill up, so
    /// the free-goal targets come into play) on every board: at every ply the evaluation of
    /// every seat, the waiting cost of every legal move and every legal move's greedy gain
    /// (the mover's score after it less its waiting cost, [`Evaluator::greedy_gains`], updated
    /// by the move) equal the plain computation's.
    #[test]
    fn the_evaluation_equals_the_plain_one() {
        let o = RuleOptions::default;
        let setups = [
            (BoardKind::Star, 2, o()),
            (BoardKind::Star, 3, o()),
            (
                BoardKind::Star,
                4,
                RuleOptions {
                    teams: Some(true),
                    ..o()
                },
            ),
            (BoardKind::Star, 6, o()),
            (
                // Short grace periods, so that other players' pieces come to count in goals
                // (see `Weights::blockers`).
                BoardKind::Star,
                6,
                RuleOptions {
                    anti_blocking_grace: Some(0),
                    ..o()
                },
            ),
            (
                BoardKind::Star,
                6,
                RuleOptions {
                    anti_blocking_grace: Some(12),
                    ..o()
                },
            ),
            (
                BoardKind::Star,
                2,
                RuleOptions {
                    fifteen_pieces: Some(true),
                    ..o()
                },
            ),
            (
                BoardKind::Star,
                3,
                RuleOptions {
                    colours_per_player: Some(2),
                    ..o()
                },
            ),
            (
                BoardKind::Star,
                4,
                RuleOptions {
                    anti_blocking: Some(false),
                    ..o()
                },
            ),
            (
                // An early deadline, so that pieces still stand at home in its last ten moves.
                BoardKind::Star,
                3,
                RuleOptions {
                    leave_home: Some(true),
                    leave_home_moves: Some(12),
                    ..o()
                },
            ),
            (BoardKind::Square16, 2, o()),
            (
                BoardKind::Square16,
                4,
                RuleOptions {
                    foreign_corners: Some(ForeignCorners::Forbidden),
                    ..o()
                },
            ),
            (BoardKind::Square10, 2, o()),
            (BoardKind::Square8, 2, o()),
        ];
        let weights = [
            Weights::default(),
            Weights {
                walled_in: 48,
                free_goals: false,
                ..Weights::default()
            },
            Weights {
                blockers: Some(0),
                ..Weights::default()
            },
            Weights {
                blockers: Some(4),
                ..Weights::default()
            },
        ];
        let mut checked = 0;
        let mut with_free_targets = 0;
        let mut with_blockers = 0;
        for (i, (board, players, options)) in setups.into_iter().enumerate() {
            let Ok(variant) = Variant::new(&GameSetup {
                board,
                players,
                options,
            }) else {
                // Not every option is offered with every player count.
                continue;
            };
            let sides = Sides::new(&variant);
            for (j, w) in weights.iter().enumerate() {
                let eval = RaceEvaluator::with_weights(&variant, *w);
                let plain = Plain(&eval);
                let mut greedy = Greedy::new(&variant, &plain, 8, (i * 7 + j) as u64);
                let mut pos = Position::start(&variant, variant.seat(0).unwrap());
                let mut moves = Vec::new();
                let mut after = Vec::new();
                for _ in 0..600 {
                    for seat in variant.seats() {
                        assert_eq!(
                            eval.seat_score(&pos, seat),
                            eval.plain_seat_score(&pos, seat)
                        );
                    }
                    variant.generate_moves(&pos, &mut moves);
                    for &mv in &moves {
                        assert_eq!(
                            eval.waiting_cost(&pos, mv),
                            eval.plain_waiting_cost(&pos, mv)
                        );
                    }
                    eval.greedy_gains(&variant, &pos, &moves, &mut after);
                    assert_eq!(after.len(), moves.len());
                    for (&mv, &gain) in moves.iter().zip(&after) {
                        let mut next = pos;
                        variant.play_unchecked(&mut next, mv);
                        assert_eq!(
                            gain,
                            eval.plain_seat_score(&next, pos.to_move())
                                - eval.plain_waiting_cost(&pos, mv),
                            "{mv:?} after {pos:?}"
                        );
                    }
                    checked += 1;
                    with_free_targets += usize::from(
                        j == 0
                            && (0..variant.armies().len())
                                .any(|a| eval.free_targets(&pos, a).free != 0),
                    );
                    with_blockers += usize::from(
                        (0..variant.armies().len())
                            .any(|a| !eval.counted_blockers(&pos, a).is_empty()),
                    );
                    if sides.game_over(&pos) {
                        break;
                    }
                    match greedy.choose(&pos, &[], &Budget::depth(1)) {
                        Some(r) => variant.play_unchecked(&mut pos, r.mv),
                        None => variant.pass(&mut pos),
                    }
                }
            }
        }
        assert!(checked > 2_000, "only {checked} positions were checked");
        assert!(
            with_free_targets > 500,
            "only {with_free_targets} positions had goal cells filled"
        );
        assert!(
            with_blockers > 200,
            "only {with_blockers} positions had other players' pieces counted in a goal"
        );
    }
}
