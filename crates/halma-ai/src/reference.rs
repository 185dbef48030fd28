//! The reference searches: plain negamax over two units ([`Reference`]) and plain Best-Reply
//! or paranoid search over more ([`MultiReference`]), to a fixed depth, without pruning, table
//! or ordering. They are slow and obviously right, and the optimised searches are tested
//! against them.

use halma_rules::{Bitboard, Move, Position, Seat, Variant};

use crate::brs::{adjusted, breaks, ladder_cells, MultiMode, ReplyModel};
use crate::eval::{relative_score, relative_score_with, Evaluator, FULL_RIVAL, ROW, WIN};
use crate::pvs::{CONTEMPT, TEMPO};
use crate::search::{Budget, SearchResult, Strategy};
use crate::sides::{set_turn, Sides};

/// What both reference searches keep.
#[derive(Debug)]
struct Plain<'a, E: Evaluator> {
    variant: &'a Variant,
    eval: &'a E,
    sides: Sides,
    /// Keys of earlier positions: the game's, then the search path's.
    seen: Vec<u64>,
    nodes: u64,
    /// The unit to move at the root.
    root_unit: u8,
}

impl<'a, E: Evaluator> Plain<'a, E> {
    fn new(variant: &'a Variant, eval: &'a E) -> Plain<'a, E> {
        Plain {
            variant,
            eval,
            sides: Sides::new(variant),
            seen: Vec::new(),
            nodes: 0,
            root_unit: 0,
        }
    }

    /// Starts a search of `pos`, the game's earlier positions counting as `seen`.
    fn start(&mut self, pos: &Position, seen: impl Iterator<Item = u64>) {
        self.seen.clear();
        self.seen.extend(seen);
        self.root_unit = self.sides.unit(pos.to_move());
    }
}

/// Plain fixed-depth negamax over two units, scored exactly like [`crate::pvs::Pvs`].
#[derive(Debug)]
pub struct Reference<'a, E: Evaluator> {
    plain: Plain<'a, E>,
    repetitions: bool,
}

impl<'a, E: Evaluator> Reference<'a, E> {
    /// A reference search; with `repetitions`, positions seen before (in `history` given to
    /// [`Reference::value`] or on the search path) score as repetitions, as in the optimised
    /// search.
    #[must_use]
    pub fn new(variant: &'a Variant, eval: &'a E, repetitions: bool) -> Reference<'a, E> {
        Reference {
            plain: Plain::new(variant, eval),
            repetitions,
        }
    }

    /// Nodes visited so far.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.plain.nodes
    }

    /// The negamax value of `pos` at `depth` for the unit to move, and the first move that
    /// reaches it (`None` without a legal move). `history` holds the game's earlier positions.
    pub fn value(&mut self, pos: &Position, history: &[u64], depth: u32) -> (i32, Option<Move>) {
        self.plain.start(pos, history.iter().copied());
        self.negamax(pos, depth, 0)
    }

    fn negamax(&mut self, pos: &Position, depth: u32, ply: u32) -> (i32, Option<Move>) {
        self.plain.nodes += 1;
        let unit = self.plain.sides.unit(pos.to_move());
        if self.plain.sides.game_over(pos) {
            let win = WIN - ply as i32;
            let (s, other) = (&self.plain.sides, 1 - unit);
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
        if ply > 0 && self.repetitions && self.plain.seen.contains(&pos.hash()) {
            return (
                if unit == self.plain.root_unit {
                    -CONTEMPT
                } else {
                    CONTEMPT
                },
                None,
            );
        }
        if depth == 0 {
            return (
                relative_score(self.plain.eval, &self.plain.sides, pos, unit) + TEMPO,
                None,
            );
        }
        let mut moves = Vec::new();
        self.plain.variant.generate_moves(pos, &mut moves);
        if moves.is_empty() {
            let mut next = *pos;
            for _ in 0..self.plain.variant.players() {
                self.plain.variant.pass(&mut next);
                if self.plain.variant.has_moves(&next) {
                    return (self.child(unit, &next, depth, ply + 1), None);
                }
            }
            return (0, None);
        }
        self.plain.seen.push(pos.hash());
        let mut best = (-WIN - 1, None);
        for mv in moves {
            let mut next = *pos;
            self.plain.variant.play_unchecked(&mut next, mv);
            let score =
                self.child(unit, &next, depth - 1, ply + 1) - self.plain.eval.waiting_cost(pos, mv);
            if score > best.0 {
                best = (score, Some(mv));
            }
        }
        self.plain.seen.pop();
        best
    }

    fn child(&mut self, unit: u8, next: &Position, depth: u32, ply: u32) -> i32 {
        let (score, _) = self.negamax(next, depth, ply);
        if self.plain.sides.unit(next.to_move()) == unit {
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
            nodes: self.plain.nodes,
            pv: vec![mv],
        })
    }
}

/// Plain fixed-depth search over three or more units, in the layers of [`crate::Brs`]: with
/// [`MultiMode::BestReply`], the root unit's moves (a max layer) alternate with the pooled
/// moves of all its opponents, of which only the strongest reply is played (a min layer);
/// with [`MultiMode::Paranoid`], the seats move in turn, each opponent minimising; with
/// [`MultiMode::Solo`], the opponents pass and every layer is the root unit's. Scores are
/// the root unit's and come out exactly as [`crate::Brs`]'s when it considers every reply
/// (`with_reply_limit(None)`, `with_own_limit(None)`) and counts the same share of the best
/// rival ([`MultiReference::with_rival_share`]).
#[derive(Debug)]
pub struct MultiReference<'a, E: Evaluator> {
    /// The positions seen are keyed with the layer bit, as in [`crate::Brs`].
    plain: Plain<'a, E>,
    mode: MultiMode,
    rival_share: i32,
    model: ReplyModel,
    /// Threats tried in the first opponent layer of [`MultiMode::Model`].
    threats: usize,
    /// Other replies of the next opponent tried there.
    next_replies: usize,
    /// The seat to move at the root.
    root_seat: Option<Seat>,
    /// Units a root move earns per row of its progress.
    root_progress: i32,
    /// Units a root move that brings no piece forward costs.
    root_waiting: i32,
    /// The one root move searched, when set.
    root_move: Option<Move>,
    /// Whether the opponents plug the root unit's goal ([`crate::Brs::with_plugs`]).
    plugs: bool,
    /// Whether the opponents stand still but for plugs
    /// ([`crate::Brs::with_standing_still`]).
    standing_still: bool,
    /// The costs of [`crate::Brs::with_exposure`]: per exposed hole, per plug, and the most
    /// gaps they apply to.
    exposure: (i32, i32, usize),
}

impl<'a, E: Evaluator> MultiReference<'a, E> {
    /// A reference search in the layers of `mode`.
    #[must_use]
    pub fn new(variant: &'a Variant, eval: &'a E, mode: MultiMode) -> MultiReference<'a, E> {
        MultiReference {
            plain: Plain::new(variant, eval),
            mode,
            rival_share: FULL_RIVAL,
            model: ReplyModel::default(),
            threats: 0,
            next_replies: 0,
            root_seat: None,
            root_progress: 0,
            root_waiting: 0,
            root_move: None,
            plugs: false,
            standing_still: false,
            exposure: (0, 0, 0),
        }
    }

    /// Sets whether the opponents' predicted moves plug the root unit's goal, as
    /// [`crate::Brs::with_plugs`] does.
    #[must_use]
    pub fn with_plugs(mut self, on: bool) -> MultiReference<'a, E> {
        self.plugs = on;
        self
    }

    /// Sets whether the opponents stand still but for plugs, as
    /// [`crate::Brs::with_standing_still`] does.
    #[must_use]
    pub fn with_standing_still(mut self, on: bool) -> MultiReference<'a, E> {
        self.standing_still = on;
        self
    }

    /// Charges the root unit's leaves for a goal left open to plugs, as
    /// [`crate::Brs::with_exposure`] does.
    #[must_use]
    pub fn with_exposure(mut self, hole: i32, foreign: i32, gaps: u32) -> MultiReference<'a, E> {
        self.exposure = (hole, foreign, gaps as usize);
        self
    }

    /// What the root unit's goal gaps cost it (see [`crate::Brs::with_exposure`]), found from
    /// the cells' drawing coordinates: a piece on `p` reaches the hole `h` with one step when
    /// they are neighbours, and with one jump over an occupied `m` neighbouring both when `m`
    /// lies halfway between them.
    fn exposure_cost(&self, pos: &Position) -> i32 {
        let (hole_cost, foreign_cost, most) = self.exposure;
        if (hole_cost, foreign_cost) == (0, 0) {
            return 0;
        }
        let (holes, plugs) = self.root_goal_gaps(pos);
        let gaps = holes.len() + plugs.len();
        if gaps == 0 || gaps > most {
            return 0;
        }
        let v = self.plain.variant;
        let board = v.board();
        let cells = board.cells();
        let grace = v.options().anti_blocking_grace;
        // The pieces of opponents that would not count in the goal after one more own move.
        let pluggers: Vec<u8> = v
            .armies()
            .iter()
            .enumerate()
            .filter(|(_, a)| {
                !self.is_root_unit(a.owner)
                    && (!v.options().anti_blocking
                        || (pos.is_active(a.owner)
                            && u32::from(pos.moves_made(a.owner)) + 1 < u32::from(grace)))
            })
            .flat_map(|(i, _)| pos.army(i).iter())
            .collect();
        let neighbours = |c: u8| -> Vec<u8> {
            board
                .cell(usize::from(c))
                .map(|c| board.neighbors(c).iter().map(|n| n.index()).collect())
                .unwrap_or_default()
        };
        let halfway = |p: u8, m: u8, h: u8| {
            let (p, m, h) = (
                &cells[usize::from(p)],
                &cells[usize::from(m)],
                &cells[usize::from(h)],
            );
            p.x + h.x == 2 * m.x && p.y + h.y == 2 * m.y
        };
        let exposed = holes
            .iter()
            .filter(|&&h| {
                let around = neighbours(h);
                pluggers.iter().any(|&p| {
                    around.contains(&p)
                        || around.iter().any(|&m| {
                            pos.occupied().has(m) && neighbours(p).contains(&m) && halfway(p, m, h)
                        })
                })
            })
            .count();
        let count = |n: usize| i32::try_from(n).unwrap_or(i32::MAX);
        count(exposed) * hole_cost + count(plugs.len()) * foreign_cost
    }

    /// Whether a piece of `seat` in another unit's goal does not count there at `pos`.
    fn does_not_count(&self, pos: &Position, seat: Seat) -> bool {
        let v = self.plain.variant;
        !v.options().anti_blocking || !v.is_blocker_owner(pos, seat)
    }

    /// The cells of the root unit's goals: the empty ones, and those where a piece of
    /// another unit stands that does not count there, with its owner.
    fn root_goal_gaps(&self, pos: &Position) -> (Vec<u8>, Vec<(u8, Seat)>) {
        let v = self.plain.variant;
        let mut holes = Vec::new();
        let mut plugs = Vec::new();
        for (a, army) in v.armies().iter().enumerate() {
            if !self.is_root_unit(army.owner) {
                continue;
            }
            for cell in army.goal.iter() {
                if !pos.occupied().has(cell) {
                    holes.push(cell);
                    continue;
                }
                if pos.army(a).has(cell) {
                    continue;
                }
                let owner = v
                    .armies()
                    .iter()
                    .enumerate()
                    .find(|(b, _)| pos.army(*b).has(cell))
                    .map(|(_, other)| other.owner);
                if let Some(o) = owner {
                    if !self.is_root_unit(o) && self.does_not_count(pos, o) {
                        plugs.push((cell, o));
                    }
                }
            }
        }
        (holes, plugs)
    }

    /// Searches the root move `mv` alone, as [`crate::Brs`] does with every other root move
    /// left out ([`crate::ExcludeRootMoves`]); `None` searches them all.
    #[must_use]
    pub fn with_root_move(mut self, mv: Option<Move>) -> MultiReference<'a, E> {
        self.root_move = mv;
        self
    }

    /// Sets what a root move earns per row of its progress, as
    /// [`crate::Brs::with_root_progress`] does.
    #[must_use]
    pub fn with_root_progress(mut self, units: i32) -> MultiReference<'a, E> {
        self.root_progress = units;
        self
    }

    /// Sets what a root move that brings no piece forward costs, as
    /// [`crate::Brs::with_root_waiting`] does.
    #[must_use]
    pub fn with_root_waiting(mut self, units: i32) -> MultiReference<'a, E> {
        self.root_waiting = units;
        self
    }

    /// Sets how many threats the first opponent layer of [`MultiMode::Model`] tries, as
    /// [`crate::Brs::with_threats`] does.
    #[must_use]
    pub fn with_threats(mut self, n: usize) -> MultiReference<'a, E> {
        self.threats = n;
        self
    }

    /// Sets how many other replies of the next opponent the first opponent layer of
    /// [`MultiMode::Model`] tries, as [`crate::Brs::with_next_replies`] does.
    #[must_use]
    pub fn with_next_replies(mut self, n: usize) -> MultiReference<'a, E> {
        self.next_replies = n;
        self
    }

    /// Sets how [`MultiMode::Model`] predicts the opponents' moves, as
    /// [`crate::Brs::with_reply_model`] does.
    #[must_use]
    pub fn with_reply_model(mut self, model: ReplyModel) -> MultiReference<'a, E> {
        self.model = model;
        self
    }

    /// Sets the percentage of the best rival's score set against the root unit's, as
    /// [`crate::Brs::with_rival_share`] does.
    #[must_use]
    pub fn with_rival_share(mut self, percent: i32) -> MultiReference<'a, E> {
        self.rival_share = percent.clamp(0, FULL_RIVAL);
        self
    }

    /// Nodes visited so far.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.plain.nodes
    }

    /// The value of `pos` searched `depth` layers deep, for the unit to move, and the first
    /// move that reaches it (`None` without a legal move). `history` holds the game's earlier
    /// positions: coming back to one of them with the root unit to move is a repetition.
    pub fn value(&mut self, pos: &Position, history: &[u64], depth: u32) -> (i32, Option<Move>) {
        self.plain.start(pos, history.iter().map(|h| h ^ 1));
        self.root_seat = Some(pos.to_move());
        self.search(pos, depth, 0, true)
    }

    fn evaluate(&self, pos: &Position) -> i32 {
        relative_score_with(
            self.plain.eval,
            &self.plain.sides,
            pos,
            self.plain.root_unit,
            self.rival_share,
        ) - self.exposure_cost(pos)
    }

    fn is_root_unit(&self, seat: Seat) -> bool {
        self.plain.sides.unit(seat) == self.plain.root_unit
    }

    /// The seats that move at `pos`, and whether they maximise.
    fn movers(&self, pos: &Position, ply: u32, max_layer: bool) -> (Vec<Seat>, bool) {
        let to_move = pos.to_move();
        match self.mode {
            MultiMode::Paranoid => (vec![to_move], self.is_root_unit(to_move)),
            MultiMode::BestReply | MultiMode::Model if ply == 0 => (vec![to_move], true),
            MultiMode::BestReply | MultiMode::Solo | MultiMode::Model => {
                let seats = self.plain.sides.all_seats().iter().copied();
                let layer =
                    seats.filter(|&s| pos.is_active(s) && self.is_root_unit(s) == max_layer);
                (layer.collect(), max_layer)
            }
        }
    }

    /// Every move of the layer: the position it leads to, the move, and its waiting cost to
    /// the root unit.
    fn layer_moves(
        &self,
        pos: &Position,
        seats: &[Seat],
        is_max: bool,
    ) -> Vec<(Position, Move, i32)> {
        let mut children = Vec::new();
        let mut moves = Vec::new();
        for &seat in seats {
            let mut at = *pos;
            if !set_turn(self.plain.variant, &mut at, seat) {
                continue;
            }
            self.plain.variant.generate_moves(&at, &mut moves);
            for &mv in &moves {
                let mut next = at;
                self.plain.variant.play_unchecked(&mut next, mv);
                if self.mode != MultiMode::Paranoid {
                    // The next layer's first active seat moves: one hash per placement.
                    let next_max = self.mode.next_layer(is_max);
                    let first = self
                        .plain
                        .sides
                        .all_seats()
                        .iter()
                        .copied()
                        .find(|&s| next.is_active(s) && self.is_root_unit(s) == next_max);
                    if let Some(s) = first {
                        set_turn(self.plain.variant, &mut next, s);
                    }
                }
                let w = if is_max {
                    self.plain.eval.waiting_cost(pos, mv)
                } else {
                    0
                };
                children.push((next, mv, w));
            }
        }
        children
    }

    fn search(
        &mut self,
        pos: &Position,
        depth: u32,
        ply: u32,
        max_layer: bool,
    ) -> (i32, Option<Move>) {
        self.plain.nodes += 1;
        let win = WIN - ply as i32;
        if self.plain.sides.finished(pos, self.plain.root_unit) {
            return (win, None);
        }
        if self.plain.sides.eliminated(pos, self.plain.root_unit) {
            return (-win, None);
        }
        if self.plain.sides.game_over(pos) {
            return (self.evaluate(pos), None);
        }
        let key = pos.hash() ^ u64::from(max_layer);
        if ply > 0 && self.plain.seen.contains(&key) {
            return (self.evaluate(pos) - CONTEMPT, None);
        }
        if depth == 0 {
            return (self.evaluate(pos), None);
        }
        let (seats, is_max) = self.movers(pos, ply, max_layer);
        if self.mode == MultiMode::Model && !is_max {
            let critical = if ply == 1 && self.threats > 0 {
                let p = &self.plain;
                ladder_cells(
                    p.variant,
                    p.eval,
                    &p.sides,
                    p.root_unit,
                    pos,
                    &mut Vec::new(),
                )
            } else {
                Bitboard::EMPTY
            };
            let (next, threats) = if ply == 1 {
                self.predicted(pos, 1, critical, self.next_replies, self.threats)
            } else {
                self.predicted(pos, 1, critical, 0, 0)
            };
            let mut best = self.search(&next, depth - 1, ply + 1, true).0;
            for (before, k, mv) in threats {
                let mut alt = before;
                self.plain.variant.play_unchecked(&mut alt, mv);
                let (alt, _) = self.predicted(&alt, k + 1, Bitboard::EMPTY, 0, 0);
                best = best.min(self.search(&alt, depth - 1, ply + 1, true).0);
            }
            return (best, None);
        }
        let mut children = self.layer_moves(pos, &seats, is_max);
        if ply == 0 {
            if let Some(only) = self.root_move {
                children.retain(|&(_, mv, _)| mv == only);
            }
            for (_, mv, w) in &mut children {
                let progress = self.plain.eval.progress(pos, *mv);
                *w -= self.root_progress * progress;
                if progress <= 0 {
                    *w += self.root_waiting;
                }
            }
        }
        if children.is_empty() {
            return (self.nobody_moves(pos, depth, ply, is_max), None);
        }
        self.plain.seen.push(key);
        let mut best = (if is_max { -WIN - 1 } else { WIN + 1 }, None);
        for (next, mv, w) in children {
            let next_max = self.mode.next_layer(is_max);
            let (score, _) = self.search(&next, depth - 1, ply + 1, next_max);
            let score = adjusted(score, w);
            if (is_max && score > best.0) || (!is_max && score < best.0) {
                best = (score, Some(mv));
            }
        }
        self.plain.seen.pop();
        best
    }

    /// The position after the opponents' predicted moves ([`MultiMode::Model`]): the seats
    /// after the root's in turn order, from the `first`-th on (1 is the next seat), the root
    /// unit's left out, each playing the first of its moves with the highest gain on the
    /// position the previous ones left, while the game goes on; then the root unit's first
    /// active seat is to move. Also the alternatives to try, each as the position before
    /// the move, the seat's place in the order, and the move: the first seat's `next` moves
    /// after its predicted one (by gain, the first among equals), then, for the first
    /// `threats` seats that have one, the first best-gain move among those that break the
    /// `critical` cells, unless it is the predicted move or already listed.
    fn predicted(
        &self,
        pos: &Position,
        first: usize,
        critical: Bitboard,
        next: usize,
        threat_limit: usize,
    ) -> (Position, Vec<(Position, usize, Move)>) {
        let v = self.plain.variant;
        let seats = self.plain.sides.all_seats();
        let root = self.root_seat.map_or(0, |s| usize::from(s.index()));
        let mut next_pos = *pos;
        let mut listed_next = false;
        let mut found = 0;
        let mut threats = Vec::new();
        let mut moves = Vec::new();
        for k in first..=seats.len() {
            let seat = seats[(root + k) % seats.len()];
            if self.is_root_unit(seat) || self.plain.sides.game_over(&next_pos) {
                continue;
            }
            let mut at = next_pos;
            if !set_turn(v, &mut at, seat) {
                continue;
            }
            v.generate_moves(&at, &mut moves);
            if self.standing_still {
                // Only a plug of the last hole, the most forward one (the first among equals).
                let (holes, plugs) = self.root_goal_gaps(&at);
                let mut plug: Option<(i32, Position)> = None;
                for &mv in &moves {
                    let mut after = at;
                    v.play_unchecked(&mut after, mv);
                    let progress = self.plain.eval.progress(&at, mv);
                    if self.plugs
                        && holes.len() == 1
                        && plugs.is_empty()
                        && mv.to.index() == holes[0]
                        && self.does_not_count(&after, seat)
                        && plug.as_ref().is_none_or(|&(p, _)| progress > p)
                    {
                        plug = Some((progress, after));
                    }
                }
                if let Some((_, after)) = plug {
                    next_pos = after;
                }
                continue;
            }
            let gain = |mv: Move| {
                let mut after = at;
                v.play_unchecked(&mut after, mv);
                let gain = match self.model {
                    ReplyModel::Progress => ROW * self.plain.eval.progress(&at, mv),
                    ReplyModel::Greedy => self.plain.eval.seat_score(&after, seat),
                    ReplyModel::Rival => relative_score(
                        self.plain.eval,
                        &self.plain.sides,
                        &after,
                        self.plain.sides.unit(seat),
                    ),
                };
                (gain - self.plain.eval.waiting_cost(&at, mv), after)
            };
            let scored: Vec<(i32, Position, Move)> = moves
                .iter()
                .map(|&mv| {
                    let (g, after) = gain(mv);
                    (g, after, mv)
                })
                .collect();
            let mut best = first_best(scored.iter()).copied();
            if self.plugs {
                let (holes, plugs) = self.root_goal_gaps(&at);
                let plug = first_best(scored.iter().filter(|c| {
                    holes.len() == 1
                        && plugs.is_empty()
                        && c.2.to.index() == holes[0]
                        && self.does_not_count(&c.1, seat)
                }));
                let mine: Vec<u8> = plugs
                    .iter()
                    .filter(|&&(_, o)| o == seat)
                    .map(|&(c, _)| c)
                    .collect();
                let kept = first_best(scored.iter().filter(|c| {
                    holes.len() <= 1 && !mine.is_empty() && !mine.contains(&c.2.from.index())
                }));
                if let Some(p) = plug.or(kept) {
                    best = Some(*p);
                }
            }
            // The seat's moves by gain, highest first, generation order among equals.
            let mut ranked: Vec<&(i32, Position, Move)> = scored.iter().collect();
            ranked.sort_by_key(|c| std::cmp::Reverse(c.0));
            let wanted = if listed_next { 0 } else { next };
            listed_next = true;
            let others: Vec<Move> = ranked.iter().skip(1).take(wanted).map(|c| c.2).collect();
            for &mv in &others {
                threats.push((at, k, mv));
            }
            let threat = first_best(scored.iter().filter(|c| breaks(critical, c.2)));
            if let (Some(t), Some(b)) = (threat, best) {
                if found < threat_limit && t.2 != b.2 && !others.contains(&t.2) {
                    found += 1;
                    threats.push((at, k, t.2));
                }
            }
            if let Some((_, after, _)) = best {
                next_pos = after;
            }
        }
        if let Some(&s) = seats
            .iter()
            .find(|&&s| next_pos.is_active(s) && self.is_root_unit(s))
        {
            set_turn(v, &mut next_pos, s);
        }
        (next_pos, threats)
    }

    /// The value when no seat of the layer can move: paranoid search passes the turn on (a
    /// draw when nobody can move), Best-Reply Search goes on with the other kind of layer
    /// (and evaluates when that cannot move either).
    fn nobody_moves(&mut self, pos: &Position, depth: u32, ply: u32, is_max: bool) -> i32 {
        if self.mode == MultiMode::Paranoid {
            let mut next = *pos;
            for _ in 0..self.plain.variant.players() {
                self.plain.variant.pass(&mut next);
                if self.plain.variant.has_moves(&next) {
                    return self.search(&next, depth, ply + 1, false).0;
                }
            }
            return 0;
        }
        if self.mode == MultiMode::Solo {
            return self.evaluate(pos);
        }
        let others_move = self.plain.sides.all_seats().iter().any(|&s| {
            let mut at = *pos;
            self.is_root_unit(s) != is_max
                && set_turn(self.plain.variant, &mut at, s)
                && self.plain.variant.has_moves(&at)
        });
        if ply > 0 && !others_move {
            return self.evaluate(pos);
        }
        self.search(pos, depth - 1, ply + 1, !is_max).0
    }
}

/// The first of the scored moves with the highest score.
fn first_best<'x>(
    scored: impl Iterator<Item = &'x (i32, Position, Move)>,
) -> Option<&'x (i32, Position, Move)> {
    scored.fold(None, |best, c| match best {
        Some(b) if b.0 >= c.0 => Some(b),
        _ => Some(c),
    })
}
