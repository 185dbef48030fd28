//! [`Evaluator::greedy_gains`] for [`RaceEvaluator`]: the mover's score after each of its
//! moves less the move's waiting cost, updated by the move from what the position before
//! holds instead of computed afresh.
//!
//! A move from `f` to `t` changes its army's race distance by two potentials, the army's
//! stragglers through their mean, and the jump chances of the pieces whose single jumps pass
//! over or land on `f` or `t` (`RaceEvaluator::touches`): only those pieces are read again.
//! A move into, out of or inside its army's goal can change which goal cells are free, and so
//! every piece's potential (see [`super::Weights::free_goals`]); such moves, every move
//! while the walled-in term is on, and every move of a seat with other players' pieces in
//! its goal while [`super::Weights::blockers`] is on are scored by playing them.

use halma_rules::{Bitboard, Move, Position, Variant};

use super::{best_jump, Evaluator, RaceEvaluator, Targets, RACING};

/// The most armies one seat plays (three colours each in a 2-player star game).
const SEAT_ARMIES: usize = 3;

/// One army of the mover as the position before the move holds it.
#[derive(Clone, Copy)]
struct Army {
    army: usize,
    /// The free goal cells of its targets (see `Targets::free`).
    free: u32,
    count: i32,
    /// The sum of its pieces' potentials.
    sum: i32,
    /// Its pieces outside its goal: where they stand, and per racer its cell, potential and
    /// best single jump's rows.
    racing: Bitboard,
    racers: usize,
    cells: [u8; RACING],
    potential: [i32; RACING],
    jump: [i32; RACING],
    jump_rows: i32,
    /// The stragglers' lag (see `RaceEvaluator::army_score`).
    lag: i32,
    /// What a waiting move of a piece outside the goal costs (see
    /// [`Evaluator::waiting_cost`]).
    waiting: i32,
}

impl Army {
    const NONE: Army = Army {
        army: 0,
        free: 0,
        count: 0,
        sum: 0,
        racing: Bitboard::EMPTY,
        racers: 0,
        cells: [0; RACING],
        potential: [0; RACING],
        jump: [0; RACING],
        jump_rows: 0,
        lag: 0,
        waiting: 0,
    };

    /// The index of the racer on `cell`, one of `racing`.
    fn racer(&self, cell: u8) -> usize {
        self.cells[..self.racers]
            .iter()
            .position(|&c| c == cell)
            .unwrap_or(0)
    }
}

impl RaceEvaluator {
    /// See [`Evaluator::greedy_gains`].
    pub(super) fn gains_after(
        &self,
        variant: &Variant,
        pos: &Position,
        moves: &[Move],
        out: &mut Vec<i32>,
    ) {
        let seat = pos.to_move();
        let played = |mv: Move| {
            let mut next = *pos;
            variant.play_unchecked(&mut next, mv);
            self.seat_score(&next, seat) - self.waiting_cost(pos, mv)
        };
        out.clear();
        let mask = self.armies_of[usize::from(seat.index())];
        let mut armies = [Army::NONE; SEAT_ARMIES];
        let mut n = 0;
        let mut fast = self.weights.walled_in == 0;
        let mut at_home = 0;
        for a in (0..self.potential.len()).filter(|a| mask & (1 << a) != 0) {
            at_home += (pos.army(a) & self.homes[a]).count() as i32;
            match (armies.get_mut(n), self.read_army(pos, a)) {
                (Some(slot), Some(army)) => *slot = army,
                _ => fast = false,
            }
            n += 1;
        }
        if !fast {
            out.extend(moves.iter().map(|&mv| played(mv)));
            return;
        }
        let armies = &armies[..n];
        let leave_home_cost = self.leave_home_cost(pos.moves_made(seat).saturating_add(1));
        for &mv in moves {
            let (f, t) = (mv.from.index(), mv.to.index());
            let moving = pos.army_at(mv.from).and_then(|a| {
                let goal = self.goals[a];
                if goal.has(f) || goal.has(t) {
                    return None;
                }
                armies.iter().position(|x| x.army == a)
            });
            let Some(k) = moving else {
                out.push(played(mv));
                continue;
            };
            let near = (self.touches[usize::from(f)] | self.touches[usize::from(t)])
                & !Bitboard::single(f);
            let mut score = 0;
            for (j, army) in armies.iter().enumerate() {
                let targets = self.targets_with(army.army, army.free);
                // The jump chances of the racers near the move, read again.
                let mut jump_rows = army.jump_rows;
                for c in (near & army.racing).iter() {
                    let r = army.racer(c);
                    jump_rows +=
                        self.jump_after(pos, c, army.potential[r], mv, &targets) - army.jump[r];
                }
                if j != k {
                    score += self.army_terms(army.count, army.sum, army.lag, jump_rows);
                    continue;
                }
                let moved = army.racer(f);
                let (before, after) = (army.potential[moved], targets.potential(t));
                let sum = army.sum - before + after;
                let lag = army.potential[..army.racers]
                    .iter()
                    .map(|&p| self.behind(p, army.count, sum))
                    .sum::<i32>()
                    - self.behind(before, army.count, sum)
                    + self.behind(after, army.count, sum);
                jump_rows += self.jump_after(pos, t, after, mv, &targets) - army.jump[moved];
                score += self.army_terms(army.count, sum, lag, jump_rows);
                if before <= after {
                    score -= army.waiting;
                }
            }
            let home = self.homes[armies[k].army];
            let home_now = at_home + i32::from(home.has(t)) - i32::from(home.has(f));
            out.push(score - leave_home_cost * home_now);
        }
    }

    /// What the position holds of `army` for [`RaceEvaluator::gains_after`]; `None` when
    /// it has more pieces outside its goal than the tables take (no setup has), or other
    /// players' pieces in its goal with [`super::Weights::blockers`] on.
    fn read_army(&self, pos: &Position, army: usize) -> Option<Army> {
        // Any other player's piece in the goal may come to count by the move (one that
        // finishes its owner, say), so those are played.
        let foreign = self.goals[army] & pos.occupied() & !pos.army(army);
        if self.weights.blockers.is_some() && !foreign.is_empty() {
            return None;
        }
        let targets = self.free_targets(pos, army);
        let goal = self.goals[army];
        let mut x = Army {
            army,
            free: targets.free,
            ..Army::NONE
        };
        for c in pos.army(army).iter() {
            let p = targets.potential(c);
            x.count += 1;
            x.sum += p;
            if goal.has(c) {
                continue;
            }
            let r = x.racers;
            if r == RACING {
                return None;
            }
            let cell = self.board.cell(usize::from(c))?;
            let jump = best_jump(self.board.jump_landings(pos, cell), p, &targets);
            x.racing.set(c);
            x.cells[r] = c;
            x.potential[r] = p;
            x.jump[r] = jump;
            x.jump_rows += jump;
            x.racers += 1;
        }
        x.waiting = self.waiting(pos, army);
        x.lag = x.potential[..x.racers]
            .iter()
            .map(|&p| self.behind(p, x.count, x.sum))
            .sum();
        Some(x)
    }

    /// The targets of `army` with the given free goal cells (see `RaceEvaluator::free_targets`).
    fn targets_with(&self, army: usize, free: u32) -> Targets<'_> {
        Targets {
            potential: &self.potential[army],
            goal: self.goals[army],
            tables: &self.target[army],
            free,
        }
    }

    /// The rows the best single jump of a piece on `cell` (of potential `p`) gains once `mv`
    /// is played on `pos`, 0 without a forward jump.
    fn jump_after(&self, pos: &Position, cell: u8, p: i32, mv: Move, targets: &Targets<'_>) -> i32 {
        let Some(c) = self.board.cell(usize::from(cell)) else {
            return 0;
        };
        best_jump(
            self.board.jump_landings_after(pos, c, mv.from, mv.to),
            p,
            targets,
        )
    }
}
