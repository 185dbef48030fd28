//! Evaluation: how well each seat is doing, measured on the board's own geometry.
//!
//! [`RaceEvaluator`] precomputes, per army, a *potential* for every cell: outside the goal it
//! is the number of steps to the goal area (a breadth-first search over the step graph), plus
//! the goal's depth; inside the goal it is the distance from the goal's tip, so that pieces
//! fill the goal from the far end and the last piece always finds a way in. The sum of an
//! army's potentials is zero-based at "all pieces home", strictly smaller for every goal cell
//! than for any cell outside, so lowering it is always progress. Once some goal cells are
//! filled, a piece outside is measured by its way to the nearest goal cell still free (plus
//! that cell's potential), which equals the static potential while the whole goal is free: on
//! the 8x8 board this won 59 of 100 games against the static potential at 50 ms a move.
//!
//! On top of the race it scores stragglers (pieces far behind the army's mean), ladders and
//! jump chances (a forward jump available right now), the leave-home deadline, and optionally
//! pieces walled in at home by rivals (off by default: see [`Weights::walled_in`]).

use halma_rules::{Bitboard, Board, Move, Position, Seat, Variant, MAX_SEATS};

use crate::sides::Sides;

mod after;
#[cfg(test)]
mod plain;

/// Score of a won game (a unit finished), before subtracting the distance to it in plies.
pub const WIN: i32 = 1_000_000;
/// Scores at or beyond this magnitude are wins or losses.
pub const WIN_THRESHOLD: i32 = WIN - 10_000;
/// One row of distance in evaluation units.
pub const ROW: i32 = 16;
/// The least a waiting move costs (one and a half rows); see [`Evaluator::waiting_cost`].
pub const WAITING: i32 = 24;
/// What losing a place to a unit that finished first costs in multi-player evaluation.
pub const PLACE: i32 = 4_000;

/// Something that scores positions for search.
pub trait Evaluator {
    /// How well `seat` is doing on its own: higher is better, comparable between seats of one
    /// variant (so that a search can set one seat against another).
    fn seat_score(&self, pos: &Position, seat: Seat) -> i32;

    /// How much a move brings its piece forward, for move ordering (0 when unknown).
    fn progress(&self, _pos: &Position, _mv: Move) -> i32 {
        0
    }

    /// What playing `mv` costs its mover on top of the evaluation of the position it leads
    /// to: searches subtract it from the move's value. Waiting moves (sideways steps,
    /// shuffles inside the goal) would otherwise let two engines stand off forever, each
    /// waiting for the other to open a ladder. The default charges [`WAITING`] for a move
    /// that brings its piece no closer to its goal.
    fn waiting_cost(&self, pos: &Position, mv: Move) -> i32 {
        if self.progress(pos, mv) <= 0 {
            WAITING
        } else {
            0
        }
    }

    /// What each of `moves` (moves of the seat to move at `pos`) is worth to a greedy mover,
    /// in order, into `out`: the [`Evaluator::seat_score`] of the position the move leads to
    /// less the move's [`Evaluator::waiting_cost`]. The default plays every move;
    /// [`RaceEvaluator`] updates the seat's score by the move instead (the greedy reply model
    /// of level 10's search scores every move of every opponent this way).
    fn greedy_gains(&self, variant: &Variant, pos: &Position, moves: &[Move], out: &mut Vec<i32>) {
        let seat = pos.to_move();
        out.clear();
        out.extend(moves.iter().map(|&mv| {
            let mut next = *pos;
            variant.play_unchecked(&mut next, mv);
            self.seat_score(&next, seat) - self.waiting_cost(pos, mv)
        }));
    }
}

/// The sum of the seat scores of a unit (a player, or a team).
pub fn unit_score<E: Evaluator + ?Sized>(eval: &E, sides: &Sides, pos: &Position, unit: u8) -> i32 {
    sides
        .seats(unit)
        .map(|s| eval.seat_score(pos, sides.seat(s)))
        .sum()
}

/// The score of a position for `unit`: its own score set against its rivals'. With two units
/// this is the difference of their scores; with more it is set against the best rival still
/// playing, and every rival that finished first costs a place.
pub fn relative_score<E: Evaluator + ?Sized>(
    eval: &E,
    sides: &Sides,
    pos: &Position,
    unit: u8,
) -> i32 {
    relative_score_with(eval, sides, pos, unit, FULL_RIVAL)
}

/// Whether `unit` scores at least as well as every other unit still racing (neither finished
/// nor out): the unit a field of searches that set their score against their best rival's
/// sees as that rival, and blocks.
pub fn scores_best<E: Evaluator + ?Sized>(
    eval: &E,
    sides: &Sides,
    pos: &Position,
    unit: u8,
) -> bool {
    let own = unit_score(eval, sides, pos, unit);
    (0..sides.units())
        .filter(|&u| u != unit && !sides.finished(pos, u) && !sides.eliminated(pos, u))
        .all(|u| unit_score(eval, sides, pos, u) <= own)
}

/// The whole of the best rival's score, as [`relative_score`] counts it.
pub const FULL_RIVAL: i32 = 100;

/// [`relative_score`] with only `rival_share` percent of the best rival's score set against
/// the unit's own in games of three or more units (two units always count the whole
/// difference). 0 scores the unit's own race alone, plus the places lost or won.
pub fn relative_score_with<E: Evaluator + ?Sized>(
    eval: &E,
    sides: &Sides,
    pos: &Position,
    unit: u8,
    rival_share: i32,
) -> i32 {
    let own = unit_score(eval, sides, pos, unit);
    if sides.units() == 2 {
        return own - unit_score(eval, sides, pos, 1 - unit);
    }
    if rival_share == 0 {
        let mut places = 0;
        for u in (0..sides.units()).filter(|&u| u != unit) {
            if sides.finished(pos, u) {
                places -= PLACE;
            } else if sides.eliminated(pos, u) {
                places += PLACE;
            }
        }
        return own + places;
    }
    let mut best_rival = None::<i32>;
    let mut places = 0;
    for u in (0..sides.units()).filter(|&u| u != unit) {
        if sides.finished(pos, u) {
            places -= PLACE;
        } else if sides.eliminated(pos, u) {
            places += PLACE;
        } else {
            let s = unit_score(eval, sides, pos, u);
            best_rival = Some(best_rival.map_or(s, |b| b.max(s)));
        }
    }
    own - best_rival.unwrap_or(0) * rival_share / FULL_RIVAL + places
}

/// Weights of the evaluation terms, in evaluation units ([`ROW`] is one row of distance).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Value of one row of distance.
    pub row: i32,
    /// Rows behind the army's mean a piece may lag before it counts as a straggler.
    pub straggler_slack: i32,
    /// Cost per row a straggler lags beyond the slack. 16 (one row for a row) beat 8 by 72
    /// games to 28 on the 2-player star and 58 to 42 on 10x10 (arena, 50 ms a move); 32 was
    /// no better than 16 (46 to 54).
    pub straggler: i32,
    /// Credit per row of the best forward jump each piece has right now.
    pub jump: i32,
    /// Cost per piece still at home per move short of the leave-home deadline (last 10 moves).
    pub leave_home: i32,
    /// Cost of a piece walled in at home by rival pieces (it has no move at all), to its
    /// owner; without the anti-blocking rule also to the rival whose goal it then blocks for
    /// good. 0 (off) by default: set against the rivals' scores, the owner's cost is the
    /// walling side's gain, and in a 4-player team game the arena saw a team keep a rival's
    /// pieces walled in for good instead of racing home (one game in 200 never ended). Off,
    /// 200 such games and 200 two-player star games without the anti-blocking rule all
    /// ended, and on the 2-player star it won 55 games to 45 against the term on.
    pub walled_in: i32,
    /// Once some of an army's goal cells are filled, measure each piece outside by its way
    /// to the nearest goal cell still free (plus that cell's depth) instead of its way to the
    /// goal area: late in the game the last holes may lie at the far side of the goal.
    pub free_goals: bool,
    /// Under the anti-blocking rule, count the other players' pieces in an army's goal that
    /// count there as blockers, or will within this many more moves of their owner, as
    /// filled cells: the pieces outside head for the cells still empty
    /// ([`Weights::free_goals`]), and those not needed to fill them (the farthest) drop out
    /// of the race sum, the stragglers and the jump chances. Once every seat has made its
    /// grace period's moves, a goal is filled by whoever stands in it; the race sum alone
    /// would still send every own piece home. `None` (off) by default: on the 6-player star
    /// against five paranoid searches (arena `--a-weights blockers=2`, 200 ms a move, seeds 66
    /// and 67) level 10 with it came first in 31 of 100 games where level 10 did in 30; it
    /// acts in few games (`notes/multi.md`, thirty-third session).
    pub blockers: Option<u16>,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            row: ROW,
            straggler_slack: 4,
            straggler: 16,
            jump: 3,
            leave_home: 64,
            walled_in: 0,
            free_goals: true,
            blockers: None,
        }
    }
}

/// The race evaluation with per-board precomputed potentials (see the module documentation).
#[derive(Clone, Debug)]
pub struct RaceEvaluator {
    /// `potential[army][cell]`.
    potential: Vec<CellTable>,
    /// Per army, per goal cell (in the order of `goal_cells`): the potential of each cell for
    /// a piece heading to that goal cell, `steps + potential[goal cell]`.
    target: Vec<Vec<CellTable>>,
    /// Per army: its goal cells.
    goal_cells: Vec<Vec<u8>>,
    /// Per army: the goal cells.
    goals: Vec<Bitboard>,
    /// Per army: the home cells.
    homes: Vec<Bitboard>,
    /// Per seat: bit mask of its armies.
    armies_of: [u8; MAX_SEATS],
    /// Per army: its owner.
    owners: Vec<Seat>,
    /// The anti-blocking rule's grace period in own moves (0: none).
    grace: u16,
    /// The (over, landing) pairs of single jumps from each cell: `jumps[jump_start[c]..jump_start[c + 1]]`.
    jumps: Vec<(u8, u8)>,
    jump_start: Vec<u16>,
    /// Per cell: the cells whose single jumps it takes part in (as the cell jumped over or
    /// the landing), whose jump chances a piece arriving or leaving there changes.
    touches: Vec<Bitboard>,
    leave_home: Option<u16>,
    anti_blocking: bool,
    /// Per cell: its neighbours.
    neighbors: Vec<Vec<u8>>,
    /// The board, for the pieces' single jumps.
    board: &'static Board,
    weights: Weights,
}

impl RaceEvaluator {
    /// Precomputes the tables of a variant with the default weights.
    #[must_use]
    pub fn new(variant: &Variant) -> RaceEvaluator {
        RaceEvaluator::with_weights(variant, Weights::default())
    }

    /// Precomputes the tables of a variant with the given weights.
    #[must_use]
    pub fn with_weights(variant: &Variant, weights: Weights) -> RaceEvaluator {
        let board = variant.board();
        let n = board.len();
        let neighbors: Vec<Vec<u8>> = (0..n)
            .map(|i| {
                board
                    .cell(i)
                    .map(|c| board.neighbors(c).iter().map(|nb| nb.index()).collect())
                    .unwrap_or_default()
            })
            .collect();
        let forbidden = variant.options().foreign_corners == halma_rules::ForeignCorners::Forbidden;
        let blocked = |a: &halma_rules::Army| {
            if forbidden {
                a.foreign
            } else {
                Bitboard::EMPTY
            }
        };
        let potential: Vec<CellTable> = variant
            .armies()
            .iter()
            .map(|a| cell_table(&army_potential(&neighbors, a.goal, blocked(a))))
            .collect();
        let goal_cells: Vec<Vec<u8>> = variant
            .armies()
            .iter()
            .map(|a| a.goal.iter().collect())
            .collect();
        let target = variant
            .armies()
            .iter()
            .zip(&potential)
            .map(|(a, pot)| {
                a.goal
                    .iter()
                    .map(|g| {
                        cell_table(&target_potential(
                            &neighbors,
                            g,
                            pot[usize::from(g)],
                            blocked(a),
                        ))
                    })
                    .collect()
            })
            .collect();
        let mut armies_of = [0u8; MAX_SEATS];
        for seat in variant.seats() {
            for a in variant.armies_of(seat) {
                armies_of[usize::from(seat.index())] |= 1 << a;
            }
        }
        let mut jumps = Vec::new();
        let mut jump_start = Vec::with_capacity(n + 1);
        for i in 0..n {
            jump_start.push(jumps.len() as u16);
            let Some(c) = board.cell(i) else { continue };
            for d in 0..board.directions() {
                if let Some(over) = board.neighbor(c, d) {
                    if let Some(land) = board.neighbor(over, d) {
                        jumps.push((over.index(), land.index()));
                    }
                }
            }
        }
        jump_start.push(jumps.len() as u16);
        let mut touches = vec![Bitboard::EMPTY; n];
        for c in 0..n {
            for &(over, land) in &jumps[usize::from(jump_start[c])..usize::from(jump_start[c + 1])]
            {
                touches[usize::from(over)].set(c as u8);
                touches[usize::from(land)].set(c as u8);
            }
        }
        RaceEvaluator {
            potential,
            target,
            goal_cells,
            goals: variant.armies().iter().map(|a| a.goal).collect(),
            owners: variant.armies().iter().map(|a| a.owner).collect(),
            grace: variant.options().anti_blocking_grace,
            homes: variant.armies().iter().map(|a| a.home).collect(),
            armies_of,
            jumps,
            jump_start,
            touches,
            leave_home: variant.options().leave_home_moves,
            anti_blocking: variant.options().anti_blocking,
            neighbors,
            board,
            weights,
        }
    }

    /// The potential of `cell` for army `army`: 0 at the goal's tip, growing by one per row.
    #[must_use]
    pub fn potential(&self, army: usize, cell: u8) -> i32 {
        i32::from(self.potential[army][usize::from(cell)])
    }

    /// The sum of the potentials of an army's pieces (0 once it fills its goal itself).
    #[must_use]
    pub fn army_distance(&self, pos: &Position, army: usize) -> i32 {
        let pot = &self.potential[army];
        pos.army(army)
            .iter()
            .map(|c| i32::from(pot[usize::from(c)]))
            .sum()
    }

    /// Whether the piece of `army` on `cell` is walled in: it has no step and no jump, and a
    /// rival piece is among its neighbours.
    fn walled_in(&self, pos: &Position, army: usize, cell: u8) -> bool {
        let occ = pos.occupied();
        let c = usize::from(cell);
        let mut rival = false;
        for &nb in &self.neighbors[c] {
            if !occ.has(nb) {
                return false;
            }
            rival |= !pos.army(army).has(nb);
        }
        let js = &self.jumps[usize::from(self.jump_start[c])..usize::from(self.jump_start[c + 1])];
        rival && js.iter().all(|&(_, land)| occ.has(land))
    }

    /// The cells of `army`'s goal that [`Weights::blockers`] counts as filled by other
    /// players' pieces (none with the option off or without the anti-blocking rule).
    #[inline(always)]
    fn counted_blockers(&self, pos: &Position, army: usize) -> Bitboard {
        match self.weights.blockers {
            Some(ahead) if self.anti_blocking => self.counted_blockers_within(pos, army, ahead),
            _ => Bitboard::EMPTY,
        }
    }

    /// [`RaceEvaluator::counted_blockers`] with the option on, looking `ahead` moves ahead.
    #[inline(never)]
    fn counted_blockers_within(&self, pos: &Position, army: usize, ahead: u16) -> Bitboard {
        let goal = self.goals[army];
        let foreign = goal & pos.occupied() & !pos.army(army);
        if foreign.is_empty() {
            return Bitboard::EMPTY;
        }
        let mut counted = Bitboard::EMPTY;
        for (b, &owner) in self.owners.iter().enumerate() {
            let there = pos.army(b) & foreign;
            if there.is_empty() {
                continue;
            }
            let counts = owner == self.owners[army]
                || !pos.is_active(owner)
                || pos.moves_made(owner).saturating_add(ahead) >= self.grace;
            if counts {
                counted |= there;
            }
        }
        counted
    }

    /// What the pieces of `army` outside its goal head for in `pos`: see
    /// [`Weights::free_goals`] and [`Weights::blockers`].
    #[inline(always)]
    fn free_targets(&self, pos: &Position, army: usize) -> Targets<'_> {
        let goal = self.goals[army];
        let mut t = Targets {
            potential: &self.potential[army],
            goal,
            tables: &self.target[army],
            free: 0,
        };
        let filled = (pos.army(army) & goal) | self.counted_blockers(pos, army);
        if self.weights.free_goals && !filled.is_empty() {
            for (i, g) in self.goal_cells[army].iter().enumerate().take(MAX_GOAL) {
                if !filled.has(*g) {
                    t.free |= 1 << i;
                }
            }
        }
        t
    }

    /// The score of one army: its race distance, its stragglers and its jump chances.
    ///
    /// Each piece's single jumps come from the position's occupancy patterns
    /// ([`Board::jump_landings`]); the plain evaluation (`eval/plain.rs`) finds them from the
    /// board's (over, landing) pairs, and a test holds the two equal.
    fn army_score(&self, pos: &Position, army: usize) -> i32 {
        let counted = self.counted_blockers(pos, army);
        if !counted.is_empty() {
            return self.army_score_with_blockers(pos, army, counted);
        }
        let pieces = pos.army(army);
        let goal = self.goals[army];
        let targets = self.free_targets(pos, army);
        let mut count = 0;
        let mut sum = 0;
        let mut jump_rows = 0;
        // The potentials of the pieces outside the goal, for the stragglers below.
        let mut racing = [0i32; RACING];
        let mut racers = 0;
        for c in pieces.iter() {
            count += 1;
            let p = targets.potential(c);
            sum += p;
            if goal.has(c) {
                // Jumps inside the goal are no ladder: only pieces still racing get credit.
                continue;
            }
            if let Some(slot) = racing.get_mut(racers) {
                *slot = p;
            }
            racers += 1;
            let Some(cell) = self.board.cell(usize::from(c)) else {
                continue;
            };
            jump_rows += best_jump(self.board.jump_landings(pos, cell), p, &targets);
        }
        if count == 0 {
            return 0;
        }
        // Stragglers: rows behind the army's mean beyond the slack, kept exact (in units of
        // 1/count row) so that no rounding step rewards moving other pieces backwards.
        let lag: i32 = match racing.get(..racers) {
            Some(racing) => racing.iter().map(|&p| self.behind(p, count, sum)).sum(),
            // More pieces than `RACING` (no setup has that many): read them all again.
            None => (pieces & !goal)
                .iter()
                .map(|c| self.behind(targets.potential(c), count, sum))
                .sum(),
        };
        self.army_terms(count, sum, lag, jump_rows)
    }

    /// [`RaceEvaluator::army_score`] where other players' pieces fill the `counted` cells of
    /// the army's goal ([`Weights::blockers`]): only as many pieces outside the goal race as
    /// there are cells left to fill (at least one while no own piece stands in the goal),
    /// those with the least potential (the most jump rows first among equals); the others
    /// drop out of every term.
    fn army_score_with_blockers(&self, pos: &Position, army: usize, counted: Bitboard) -> i32 {
        let pieces = pos.army(army);
        let goal = self.goals[army];
        let targets = self.free_targets(pos, army);
        let inside = pieces & goal;
        // A goal counts as filled only with an own piece in it.
        let needed = goal
            .count()
            .saturating_sub(inside.count() + counted.count())
            .max(u32::from(inside.is_empty())) as usize;
        let mut racing = [(0i32, 0i32); RACING];
        let mut racers = 0;
        for c in (pieces & !goal).iter() {
            let Some(cell) = self.board.cell(usize::from(c)) else {
                continue;
            };
            let p = targets.potential(c);
            if let Some(slot) = racing.get_mut(racers) {
                *slot = (
                    p,
                    -best_jump(self.board.jump_landings(pos, cell), p, &targets),
                );
                racers += 1;
            }
        }
        let racing = &mut racing[..racers];
        racing.sort_unstable();
        let racing = &racing[..needed.min(racers)];
        let count = inside.count() as i32 + racing.len() as i32;
        let sum = inside.iter().map(|c| targets.potential(c)).sum::<i32>()
            + racing.iter().map(|&(p, _)| p).sum::<i32>();
        let jump_rows = -racing.iter().map(|&(_, j)| j).sum::<i32>();
        let lag = racing
            .iter()
            .map(|&(p, _)| self.behind(p, count, sum))
            .sum();
        self.army_terms(count, sum, lag, jump_rows)
    }

    /// A straggler's lag: rows (in units of 1/count row) behind its army's mean beyond the
    /// slack.
    fn behind(&self, p: i32, count: i32, sum: i32) -> i32 {
        (p * count - sum - self.weights.straggler_slack * count).max(0)
    }

    /// An army's score from its race distance, stragglers' lag and jump chances, as
    /// `RaceEvaluator::army_score` sums them.
    fn army_terms(&self, count: i32, sum: i32, lag: i32, jump_rows: i32) -> i32 {
        if count == 0 {
            return 0;
        }
        let w = &self.weights;
        -(w.row * sum) - w.straggler * lag / count + w.jump * jump_rows
    }

    /// What a waiting move of a piece of `army` outside its goal costs (see
    /// [`Evaluator::waiting_cost`]).
    fn waiting(&self, pos: &Position, army: usize) -> i32 {
        let pieces = pos.army(army);
        let home = (pieces & self.goals[army]).count() as i32;
        WAITING + 2 * WAITING * home / (pieces.count() as i32).max(1)
    }

    /// What each piece at home costs its seat once the seat has made `made` moves (see
    /// [`Weights::leave_home`]): the pieces at home count only in the last ten moves before
    /// the deadline.
    fn leave_home_cost(&self, made: u16) -> i32 {
        match self.leave_home {
            Some(limit) => {
                let left = i32::from(limit) - i32::from(made);
                if left <= 10 {
                    self.weights.leave_home * (11 - left.max(0))
                } else {
                    0
                }
            }
            None => 0,
        }
    }

    /// How many pieces of `seat` still stand at home.
    fn at_home(&self, pos: &Position, seat: Seat) -> i32 {
        let mask = self.armies_of[usize::from(seat.index())];
        (0..self.potential.len())
            .filter(|a| mask & (1 << a) != 0)
            .map(|a| (pos.army(a) & self.homes[a]).count() as i32)
            .sum()
    }
}

impl Evaluator for RaceEvaluator {
    fn greedy_gains(&self, variant: &Variant, pos: &Position, moves: &[Move], out: &mut Vec<i32>) {
        self.gains_after(variant, pos, moves, out);
    }

    fn seat_score(&self, pos: &Position, seat: Seat) -> i32 {
        let mask = self.armies_of[usize::from(seat.index())];
        let mut score = 0;
        for a in (0..self.potential.len()).filter(|a| mask & (1 << a) != 0) {
            score += self.army_score(pos, a);
            if self.weights.walled_in == 0 {
                continue;
            }
            for c in (pos.army(a) & self.homes[a]).iter() {
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
        let at_home_cost = self.leave_home_cost(pos.moves_made(seat));
        if at_home_cost != 0 {
            score -= at_home_cost * self.at_home(pos, seat);
        }
        score
    }

    #[inline]
    fn progress(&self, pos: &Position, mv: Move) -> i32 {
        match pos.army_at(mv.from) {
            Some(a) => self.potential(a, mv.from.index()) - self.potential(a, mv.to.index()),
            None => 0,
        }
    }

    /// [`WAITING`] in the opening, growing to three times that as the army gets home: late
    /// in the game a waiting move is a tempo thrown away in the race. A piece already in its
    /// goal that moves without going deeper pays twice as much again: filling the goal never
    /// needs such a move (there is always a deeper hole to step into), so it can only be a
    /// shuffle.
    fn waiting_cost(&self, pos: &Position, mv: Move) -> i32 {
        let Some(a) = pos.army_at(mv.from) else {
            return 0;
        };
        let targets = self.free_targets(pos, a);
        if targets.potential(mv.from.index()) > targets.potential(mv.to.index()) {
            return 0;
        }
        let cost = self.waiting(pos, a);
        if self.goals[a].has(mv.from.index()) {
            2 * cost
        } else {
            cost
        }
    }
}

/// Pieces of an army outside its goal whose potentials [`RaceEvaluator::army_score`] keeps
/// for the straggler term (every setup has at most 19 pieces an army).
const RACING: usize = 32;

/// The most goal cells an army has (19 on the 16x16 board).
const MAX_GOAL: usize = 32;

/// The potentials of one army's pieces in one position: the static ones, or the way to the
/// nearest free goal cell (see [`Weights::free_goals`]).
struct Targets<'a> {
    potential: &'a [u16; 256],
    goal: Bitboard,
    /// The army's tables per goal cell (see `RaceEvaluator::target`).
    tables: &'a [CellTable],
    /// Bit `i` set when goal cell `i` (in the order of `RaceEvaluator::goal_cells`) is free.
    free: u32,
}

impl Targets<'_> {
    #[inline]
    fn potential(&self, cell: u8) -> i32 {
        let c = usize::from(cell);
        if self.free == 0 || self.goal.has(cell) {
            return i32::from(self.potential[c]);
        }
        let mut best = u16::MAX;
        let mut free = self.free;
        while free != 0 {
            let i = free.trailing_zeros() as usize;
            free &= free - 1;
            if let Some(t) = self.tables.get(i) {
                best = best.min(t[c]);
            }
        }
        i32::from(best)
    }
}

/// The rows the best of a piece's single jumps (their `landings`) gains for a piece of
/// potential `p`, 0 without a forward jump.
fn best_jump(landings: halma_rules::JumpLandings<'_>, p: i32, targets: &Targets<'_>) -> i32 {
    landings
        .map(|land| p - targets.potential(land.index()))
        .fold(0, i32::max)
}

/// Values per cell, indexed by a cell index without a bounds check (`u16::MAX` beyond the
/// board).
type CellTable = Box<[u16; 256]>;

/// The table of the per-cell values `values` (one per cell of the board).
fn cell_table(values: &[u16]) -> CellTable {
    let mut t = Box::new([u16::MAX; 256]);
    for (slot, v) in t.iter_mut().zip(values) {
        *slot = *v;
    }
    t
}

/// Potentials of one army: see the module documentation. `blocked` cells are never entered
/// (camps forbidden by the options).
fn army_potential(neighbors: &[Vec<u8>], goal: Bitboard, blocked: Bitboard) -> Vec<u16> {
    let n = neighbors.len();
    let unreached = u16::MAX;
    // Depth of each goal cell: steps from the nearest cell outside the goal.
    let mut depth = vec![unreached; n];
    let mut queue = std::collections::VecDeque::new();
    for (i, d) in depth.iter_mut().enumerate() {
        if !goal.has(i as u8) {
            *d = 0;
            queue.push_back(i);
        }
    }
    bfs(neighbors, &mut depth, &mut queue, Bitboard::EMPTY);
    let max_depth = goal
        .iter()
        .map(|c| depth[usize::from(c)])
        .filter(|&d| d != unreached)
        .max()
        .unwrap_or(1);
    // Steps from each outside cell to the goal area.
    let mut dist = vec![unreached; n];
    for c in goal.iter() {
        dist[usize::from(c)] = 0;
        queue.push_back(usize::from(c));
    }
    bfs(neighbors, &mut dist, &mut queue, blocked);
    let far = dist
        .iter()
        .filter(|&&d| d != unreached)
        .max()
        .copied()
        .unwrap_or(0);
    (0..n)
        .map(|i| {
            if goal.has(i as u8) {
                max_depth.saturating_sub(depth[i])
            } else {
                // Cells the army can never reach count as the farthest ones, plus one.
                let d = if dist[i] == unreached {
                    far + 1
                } else {
                    dist[i]
                };
                max_depth - 1 + d
            }
        })
        .collect()
}

/// Potentials for a piece heading to one goal cell: its steps to `cell` (avoiding `blocked`)
/// plus `cell_potential`. Unreachable cells get the largest value.
fn target_potential(
    neighbors: &[Vec<u8>],
    cell: u8,
    cell_potential: u16,
    blocked: Bitboard,
) -> Vec<u16> {
    let mut dist = vec![u16::MAX; neighbors.len()];
    let mut queue = std::collections::VecDeque::new();
    dist[usize::from(cell)] = 0;
    queue.push_back(usize::from(cell));
    bfs(neighbors, &mut dist, &mut queue, blocked);
    dist.iter()
        .map(|&d| d.saturating_add(cell_potential))
        .collect()
}

fn bfs(
    neighbors: &[Vec<u8>],
    dist: &mut [u16],
    queue: &mut std::collections::VecDeque<usize>,
    blocked: Bitboard,
) {
    while let Some(c) = queue.pop_front() {
        for &nb in &neighbors[c] {
            let nb = usize::from(nb);
            if dist[nb] == u16::MAX && !blocked.has(nb as u8) {
                dist[nb] = dist[c] + 1;
                queue.push_back(nb);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // tests fail loudly on setup errors
    use super::*;
    use halma_rules::{BoardKind, GameSetup, RuleOptions};

    fn variant(board: BoardKind, players: u8) -> Variant {
        Variant::new(&GameSetup {
            board,
            players,
            options: RuleOptions::default(),
        })
        .unwrap()
    }

    /// The share of the best rival: all of it is [`relative_score`], none of it the unit's own
    /// score, half of it in between; with two units the share changes nothing.
    #[test]
    fn rival_share_scales_the_best_rival() {
        for players in [2, 4, 6] {
            let v = variant(BoardKind::Star, players);
            let e = RaceEvaluator::new(&v);
            let sides = Sides::new(&v);
            let mut pos = Position::start(&v, v.seat(0).unwrap());
            let mut moves = Vec::new();
            // Every seat but the last brings a piece forward a few times: the seats differ.
            for ply in 0..3 * usize::from(players) {
                v.generate_moves(&pos, &mut moves);
                let best = moves.iter().copied().max_by_key(|&m| e.progress(&pos, m));
                if ply % usize::from(players) + 1 == usize::from(players) {
                    v.pass(&mut pos);
                } else {
                    v.play_unchecked(&mut pos, best.unwrap());
                }
            }
            for unit in 0..sides.units() {
                let full = relative_score(&e, &sides, &pos, unit);
                assert_eq!(
                    relative_score_with(&e, &sides, &pos, unit, FULL_RIVAL),
                    full
                );
                let none = relative_score_with(&e, &sides, &pos, unit, 0);
                let half = relative_score_with(&e, &sides, &pos, unit, 50);
                if players == 2 {
                    assert_eq!((none, half), (full, full));
                    continue;
                }
                let own = unit_score(&e, &sides, &pos, unit);
                assert_eq!(none, own, "{players} players, unit {unit}");
                let rival = own - full;
                assert_ne!(rival, 0);
                assert_eq!(half, own - rival / 2, "{players} players, unit {unit}");
            }
        }
    }

    #[test]
    fn goal_cells_are_cheapest_and_tip_is_zero() {
        for (board, players) in [
            (BoardKind::Star, 2),
            (BoardKind::Square16, 2),
            (BoardKind::Square8, 2),
            (BoardKind::Star, 6),
        ] {
            let v = variant(board, players);
            let e = RaceEvaluator::new(&v);
            for (a, army) in v.armies().iter().enumerate() {
                let inside = army.goal.iter().map(|c| e.potential(a, c)).max().unwrap();
                let outside = (0..v.board().len())
                    .map(|c| c as u8)
                    .filter(|&c| !army.goal.has(c))
                    .map(|c| e.potential(a, c))
                    .min()
                    .unwrap();
                assert!(inside < outside, "{board:?} army {a}");
                assert_eq!(army.goal.iter().map(|c| e.potential(a, c)).min(), Some(0));
            }
        }
    }

    #[test]
    fn star_potential_is_tip_distance() {
        let v = variant(BoardKind::Star, 2);
        let e = RaceEvaluator::new(&v);
        // Army 0 starts at the S tip (a1) and races to the N tip (q1): 16 rows apart.
        assert_eq!(e.potential(0, 0), 16);
        let start = Position::start(&v, v.seat(0).unwrap());
        assert_eq!(e.army_distance(&start, 0), e.army_distance(&start, 1));
        let s0 = e.seat_score(&start, v.seat(0).unwrap());
        let s1 = e.seat_score(&start, v.seat(1).unwrap());
        assert_eq!(s0, s1);
    }

    #[test]
    fn late_pieces_head_for_the_free_goal_cells() {
        // The first army filled its goal (the a8 corner) except a5; its last piece stands
        // either on e8, next to the goal's near edge but four steps from a5, or on a4, one
        // step from it.
        let position = |last: &str| {
            let text = format!(
                "square8 2 - a8,b8,c8,d8,a7,b7,c7,a6,b6,{last}/c2,d2,e2,c3,d3,e3,f3,d4,f4,g4 1 29,29"
            );
            halma_rules::notation::parse_position(&text).unwrap()
        };
        let (v, far) = position("e8");
        let (_, near) = position("a4");
        let seat = v.seat(0).unwrap();
        let on = RaceEvaluator::new(&v);
        let gap = on.seat_score(&near, seat) - on.seat_score(&far, seat);
        // Three rows closer, less whatever the jump credit makes of it.
        assert!(gap >= 2 * ROW, "gap {gap}");
        let off = RaceEvaluator::with_weights(
            &v,
            Weights {
                free_goals: false,
                ..Weights::default()
            },
        );
        // Without the free-goal targets both are one step from the goal area.
        let e8 = v.board().parse_cell("e8").unwrap().index();
        let a4 = v.board().parse_cell("a4").unwrap().index();
        assert_eq!(off.potential(0, e8), off.potential(0, a4));
        assert!(off.seat_score(&near, seat) - off.seat_score(&far, seat) < gap);
        // The step from e8 to d7, towards a5 along the goal's edge, is no waiting move any more.
        let d7 = v.board().parse_cell("d7").unwrap();
        let mv = Move {
            from: v.board().parse_cell("e8").unwrap(),
            to: d7,
        };
        assert!(v.is_legal(&far, mv));
        assert_eq!(on.waiting_cost(&far, mv), 0);
        assert!(off.waiting_cost(&far, mv) > 0);
    }

    #[test]
    fn counted_blockers_fill_their_cells() {
        // The first army has eight pieces in its goal, i5 near it and e5 far back; its goal's
        // tip (q1) holds a piece of the second army, and n4 is empty.
        let text = |made: u16| {
            format!(
                "star 2 - p1,p2,o1,o2,o3,n1,n2,n3,i5,e5/a1,b1,b2,c1,c2,c3,d1,d2,d3,q1 1 {made},{made}"
            )
        };
        let (v, late) = halma_rules::notation::parse_position(&text(60)).unwrap();
        let (_, early) = halma_rules::notation::parse_position(&text(30)).unwrap();
        let seat = v.seat(0).unwrap();
        let off = RaceEvaluator::new(&v);
        let with = |ahead| {
            RaceEvaluator::with_weights(
                &v,
                Weights {
                    blockers: Some(ahead),
                    ..Weights::default()
                },
            )
        };
        let on = with(0);
        // After the grace period the piece on q1 fills that cell: only n4 is a target, and
        // the far piece (e5) is not needed to fill it.
        assert_eq!(off.free_targets(&late, 0).free.count_ones(), 2);
        assert_eq!(on.free_targets(&late, 0).free.count_ones(), 1);
        assert!(on.seat_score(&late, seat) > off.seat_score(&late, seat) + 4 * ROW);
        let mut moves = Vec::new();
        v.generate_moves(&late, &mut moves);
        // The position after a forward move of the piece on `cell`.
        let forward = |cell: &str| {
            let from = v.board().parse_cell(cell).unwrap();
            let mv = moves
                .iter()
                .copied()
                .find(|&mv| mv.from == from && off.progress(&late, mv) > 0)
                .unwrap();
            let mut next = late;
            v.play_unchecked(&mut next, mv);
            next
        };
        let next = forward("e5");
        assert_eq!(on.seat_score(&next, seat), on.seat_score(&late, seat));
        assert!(off.seat_score(&next, seat) > off.seat_score(&late, seat));
        // The piece near the hole still races.
        assert!(on.seat_score(&forward("i5"), seat) > on.seat_score(&late, seat));
        // Ten moves before the second seat's grace period ends the piece does not count yet,
        // unless the option looks that far ahead.
        assert_eq!(on.seat_score(&early, seat), off.seat_score(&early, seat));
        assert_eq!(
            with(9).seat_score(&early, seat),
            off.seat_score(&early, seat)
        );
        assert_eq!(with(10).free_targets(&early, 0).free.count_ones(), 1);
        assert_eq!(
            with(10).seat_score(&early, seat),
            on.seat_score(&late, seat)
        );
    }

    #[test]
    fn walled_in_pieces_are_seen() {
        // The second army's last piece sits on its home tip (q1), the first army's pieces on
        // every cell it could step or jump to.
        let text = "star 2 anti_blocking=0 p1,p2,o1,o3,n1,n2,n3,n4,o2,i5/a1,b1,b2,c1,c2,c3,d1,d2,d3,q1 1 60,60";
        let (v, pos) = halma_rules::notation::parse_position(text).unwrap();
        let e = RaceEvaluator::new(&v);
        let q1 = v.board().parse_cell("q1").unwrap().index();
        assert!(e.walled_in(&pos, 1, q1));
        let open = "star 2 anti_blocking=0 p1,p2,n1,o3,n2,n3,n4,o2,i5,i6/a1,b1,b2,c1,c2,c3,d1,d2,d3,q1 1 60,60";
        let (_, pos) = halma_rules::notation::parse_position(open).unwrap();
        assert!(!e.walled_in(&pos, 1, q1));
    }
}
