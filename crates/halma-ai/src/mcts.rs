//! Monte Carlo tree search with max^n backups for three or more units (Nijssen & Winands,
//! 2013), measured against level 10's opponent-model search in the arena (`mcts:` engines);
//! not used by any level.
//!
//! Every iteration walks down the tree from the root, each node's mover choosing the edge with
//! the best upper confidence bound on its own unit's reward (max^n: every unit maximises its
//! own), plus a progressive bias from the move's forward progress less its waiting cost that
//! fades with the edge's visits; with progressive widening a node considers only its best
//! edges by that prior, more as its visits grow. The first node reached that is not in the
//! tree is added (its edges are generated on its second visit), a playout continues the game
//! to a fixed horizon (plies from the root), every seat playing its most forward move (ties
//! at random, and a random move now and then), and each unit's reward is the rows its race
//! gained from the root position to the horizon, with bonuses for finishing and for leading
//! at the horizon, less the waiting costs of its moves in the tree; the root move also earns
//! its progress now. The rewards are added up the path, each edge keeping the reward of its
//! mover's unit. The root plays its most visited move. It does not look at the game's
//! history (no repetition check).
//!
//! Measured on the 6-player star against five paranoid searches at equal time (arena,
//! 2026-12-03, two random opening plies, engine A rotating through the seats): at 50 ms a move
//! on 60 games of seed 31, level 10 came first 17 times (average place 2.65); this search
//! with the root move's progress and the waiting costs ([`MctsOptions::PLAIN`] with `now` 10
//! and `waiting`) 15 times (2.66), with progressive widening too 15 times (2.28), and with the
//! leader's bonus on top, the default options, 21 times (2.42). At 200 ms a move on seeds 11
//! and 12 the default options came first in 19 of 100 games (average place 2.77), where
//! level 10 came first in 30 of 100 (2.92); without widening and the leader's bonus in 18
//! of 62 (2.81). Against five greedy players (200 ms, seeds 1 and 2) the defaults came
//! first in 43 of 100 (average place 2.09), where level 10 came first in 63 of 100 (1.75).
//! It places better on average than level 10 against the paranoid searches and finishes
//! about as early, but comes first less often: not adopted.
//!
//! With the default options 2,000 iterations of a 6-player middle game take 28.6 ms (median
//! of 5, `examples/nodes`, quiet machine: 70,000 a second), where level 10's depth-5 search
//! of that position takes 26.7 ms.

use std::time::Instant;

use halma_rules::{Move, Position, SplitMix64, Variant, MAX_SEATS};

use crate::eval::{unit_score, Evaluator, ROW};
use crate::search::{Budget, ExcludeRootMoves, SearchResult, Strategy};
use crate::sides::Sides;

/// The options of [`Mcts`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MctsOptions {
    /// The exploration constant of the upper confidence bound, in tenths of a row of reward.
    /// 10 came first in 13 of 60 games where 20 came first in 15 (50 ms a move, with
    /// widening, before the leader's bonus).
    pub exploration: u32,
    /// Plies from the root at which playouts stop and the rewards are read.
    pub horizon: u32,
    /// The chance (per mille) that a playout move is drawn at random instead of the most
    /// forward one.
    pub epsilon: u32,
    /// Tenths of a row of reward per row of a move's progress, divided by the edge's visits
    /// plus one.
    pub bias: u32,
    /// Rows of reward for a unit whose seats all finished by the horizon.
    pub finish: u32,
    /// Tenths of a row of reward a root move earns per row it brings its piece forward now
    /// (as level 10's [`crate::Brs::with_root_progress`]).
    pub now: u32,
    /// Whether the moves of the tree charge their waiting cost to their mover's reward.
    pub waiting: bool,
    /// Progressive widening: a node considers its best `widen / 10 * sqrt(visits + 1)`
    /// edges by their progress less their waiting cost (0: all of them). 10 came first as
    /// often as all edges (15 of 60 at 50 ms a move) with a better average place (2.28
    /// against 2.66); 4 in 12 of 60 (3.12).
    pub widen: u32,
    /// Tenths of a row of reward for the unit whose score leads at the horizon: 20 came first
    /// in 21 of 60 games at 50 ms a move, none in 15 (average place 2.42 and 2.28).
    pub lead: u32,
}

/// The best settings screened (see the module documentation for their measurements).
impl Default for MctsOptions {
    fn default() -> MctsOptions {
        MctsOptions {
            exploration: 20,
            horizon: 18,
            epsilon: 50,
            bias: 10,
            finish: 20,
            now: 10,
            waiting: true,
            widen: 10,
            lead: 20,
        }
    }
}

impl MctsOptions {
    /// The plain search: no root progress, waiting costs, widening or leader's bonus.
    pub const PLAIN: MctsOptions = MctsOptions {
        exploration: 20,
        horizon: 18,
        epsilon: 50,
        bias: 10,
        finish: 20,
        now: 0,
        waiting: false,
        widen: 0,
        lead: 0,
    };
}

/// No child node yet.
const NONE: u32 = u32::MAX;

/// The edge count of a node whose edges are not generated yet.
const UNEXPANDED: u32 = u32::MAX;

/// The most nodes and edges a search keeps (a node holds its position, about 800 bytes; an
/// edge 24: about 100 MB in all, reached after about a second); beyond them the tree stops
/// growing and the iterations play out from its leaves.
const MAX_NODES: usize = 1 << 16;
const MAX_EDGES: usize = 1 << 21;

#[derive(Clone, Debug)]
struct Node {
    pos: Position,
    /// Plies from the root.
    ply: u32,
    /// The unit that moves here (meaningless in a terminal node).
    unit: u8,
    first_edge: u32,
    edges: u32,
    visits: u32,
    /// The sum of the mover's rewards over the visits (the first-play value of new edges).
    value: f32,
}

#[derive(Clone, Copy, Debug)]
struct Edge {
    mv: Move,
    /// The move's progress in rows.
    progress: f32,
    /// The move's waiting cost in rows.
    waiting: f32,
    child: u32,
    visits: u32,
    /// The sum of the rewards of the parent's mover over the visits.
    value: f32,
}

/// Monte Carlo tree search with max^n backups (see the module documentation).
#[derive(Debug)]
pub struct Mcts<'a, E: Evaluator> {
    variant: &'a Variant,
    eval: &'a E,
    sides: Sides,
    options: MctsOptions,
    rng: SplitMix64,
    nodes: Vec<Node>,
    edges: Vec<Edge>,
    scratch: Vec<Move>,
    path: Vec<u32>,
    /// Root moves left out ([`ExcludeRootMoves`]).
    excluded: Vec<Move>,
}

impl<'a, E: Evaluator> Mcts<'a, E> {
    /// A search over `variant` scored by `eval`; `seed` drives the playouts' random choices.
    #[must_use]
    pub fn new(variant: &'a Variant, eval: &'a E, options: MctsOptions, seed: u64) -> Self {
        Mcts {
            variant,
            eval,
            sides: Sides::new(variant),
            options,
            rng: SplitMix64::new(seed),
            nodes: Vec::new(),
            edges: Vec::new(),
            scratch: Vec::new(),
            path: Vec::new(),
            excluded: Vec::new(),
        }
    }

    /// Passes the turn until a seat with a legal move is to move; `false` when the game is
    /// over or nobody can move.
    fn settle(&self, pos: &mut Position) -> bool {
        for _ in 0..=self.variant.players() {
            if self.sides.game_over(pos) {
                return false;
            }
            if self.variant.has_moves(pos) {
                return true;
            }
            self.variant.pass(pos);
        }
        false
    }

    /// Adds a node for `pos` (settled) at `ply`, its edges left for its second visit
    /// ([`Mcts::expand`]); returns its index.
    fn add_node(&mut self, mut pos: Position, ply: u32) -> u32 {
        let live = self.settle(&mut pos);
        self.nodes.push(Node {
            pos,
            ply,
            unit: self.sides.unit(pos.to_move()),
            first_edge: 0,
            edges: if live { UNEXPANDED } else { 0 },
            visits: 0,
            value: 0.0,
        });
        self.nodes.len() as u32 - 1
    }

    /// Gives `node` its edges (at the root without the excluded moves).
    fn expand(&mut self, node: u32) {
        let pos = self.nodes[node as usize].pos;
        self.variant.generate_moves(&pos, &mut self.scratch);
        if node == 0 && !self.excluded.is_empty() {
            self.scratch.retain(|m| !self.excluded.contains(m));
        }
        let first_edge = self.edges.len() as u32;
        for &mv in &self.scratch {
            self.edges.push(Edge {
                mv,
                progress: self.eval.progress(&pos, mv) as f32 / ROW as f32,
                waiting: self.eval.waiting_cost(&pos, mv) as f32 / ROW as f32,
                child: NONE,
                visits: 0,
                value: 0.0,
            });
        }
        // Best prior first, for progressive widening (generation order among equals).
        self.edges[first_edge as usize..]
            .sort_by(|a, b| (b.progress - b.waiting).total_cmp(&(a.progress - a.waiting)));
        let n = &mut self.nodes[node as usize];
        n.first_edge = first_edge;
        n.edges = self.edges.len() as u32 - first_edge;
    }

    /// The edge of `node` with the best bound for its mover.
    fn select(&self, node: u32) -> u32 {
        let n = &self.nodes[node as usize];
        let log = ((n.visits + 1) as f32).ln();
        let first_play = if n.visits > 0 {
            n.value / n.visits as f32
        } else {
            0.0
        };
        let (bias, exploration) = (
            self.options.bias as f32 / 10.0,
            self.options.exploration as f32 / 10.0,
        );
        // Progressive widening: the node's best edges by prior, more as its visits grow.
        let open = if self.options.widen == 0 {
            n.edges
        } else {
            let k = (self.options.widen as f32 / 10.0 * ((n.visits + 1) as f32).sqrt()).ceil();
            n.edges.min(k as u32).max(1)
        };
        let mut best = (f32::NEG_INFINITY, n.first_edge);
        for e in n.first_edge..n.first_edge + open {
            let edge = &self.edges[e as usize];
            let visits = edge.visits as f32;
            let mean = if edge.visits > 0 {
                edge.value / visits
            } else {
                first_play
            };
            let bound = mean
                + bias * (edge.progress - edge.waiting) / (visits + 1.0)
                + exploration * (log / (visits + 1.0)).sqrt();
            if bound > best.0 {
                best = (bound, e);
            }
        }
        best.1
    }

    /// The most visited edge of `node`, if it has any.
    fn most_visited(&self, node: u32) -> Option<Edge> {
        let n = &self.nodes[node as usize];
        if n.edges == UNEXPANDED {
            return None;
        }
        (n.first_edge..n.first_edge + n.edges)
            .map(|e| self.edges[e as usize])
            .filter(|e| e.visits > 0 || node == 0)
            .max_by(|a, b| {
                (a.visits, a.value)
                    .partial_cmp(&(b.visits, b.value))
                    .unwrap_or(std::cmp::Ordering::Equal)
            })
    }

    /// The most forward move of the seat to move (ties at random), or now and then a random
    /// one; `None` when it has none.
    fn playout_move(&mut self, pos: &Position) -> Option<Move> {
        self.variant.generate_moves(pos, &mut self.scratch);
        if self.scratch.is_empty() {
            return None;
        }
        if self.rng.below(1000) < u64::from(self.options.epsilon) {
            let i = self.rng.below(self.scratch.len() as u64) as usize;
            return Some(self.scratch[i]);
        }
        let mut best: Option<(i64, Move)> = None;
        for &mv in &self.scratch {
            let key = (i64::from(self.eval.progress(pos, mv)) << 16)
                | (self.rng.next_u64() & 0xffff) as i64;
            if best.is_none_or(|(b, _)| key > b) {
                best = Some((key, mv));
            }
        }
        best.map(|(_, mv)| mv)
    }

    /// Plays `pos` on to the horizon and returns every unit's reward.
    fn playout(
        &mut self,
        mut pos: Position,
        mut ply: u32,
        base: &[i32; MAX_SEATS],
    ) -> [f32; MAX_SEATS] {
        while ply < self.options.horizon && self.settle(&mut pos) {
            let Some(mv) = self.playout_move(&pos) else {
                break;
            };
            self.variant.play_unchecked(&mut pos, mv);
            ply += 1;
        }
        self.rewards(&pos, base)
    }

    fn rewards(&self, pos: &Position, base: &[i32; MAX_SEATS]) -> [f32; MAX_SEATS] {
        let mut r = [0.0; MAX_SEATS];
        let mut leader = (i32::MIN, 0);
        for u in 0..self.sides.units() {
            let i = usize::from(u);
            let score = unit_score(self.eval, &self.sides, pos, u);
            r[i] = (score - base[i]) as f32 / ROW as f32;
            if self.sides.finished(pos, u) {
                r[i] += self.options.finish as f32;
            }
            if score > leader.0 {
                leader = (score, i);
            }
        }
        r[leader.1] += self.options.lead as f32 / 10.0;
        r
    }
}

impl<E: Evaluator> Strategy for Mcts<'_, E> {
    fn choose(
        &mut self,
        pos: &Position,
        _history: &[u64],
        budget: &Budget,
    ) -> Option<SearchResult> {
        self.nodes.clear();
        self.edges.clear();
        let root = self.add_node(*pos, 0);
        if self.nodes[0].edges == UNEXPANDED {
            self.expand(root);
        }
        if self.nodes[0].edges == 0 || self.nodes[0].pos.to_move() != pos.to_move() {
            return None;
        }
        let mut base = [0; MAX_SEATS];
        for u in 0..self.sides.units() {
            base[usize::from(u)] = unit_score(self.eval, &self.sides, pos, u);
        }
        // Without a clock, `max_depth` counts iterations in thousands.
        let limit = if budget.deadline.is_some() {
            u64::MAX
        } else {
            u64::from(budget.max_depth) * 1000
        };
        let mut iterations = 0u64;
        while iterations < limit {
            if budget.deadline.is_some_and(|d| Instant::now() >= d) && iterations > 0 {
                break;
            }
            iterations += 1;
            self.path.clear();
            let mut node = root;
            let mut rewards = loop {
                let n = &self.nodes[node as usize];
                if n.edges == UNEXPANDED {
                    if node != root && self.edges.len() >= MAX_EDGES {
                        let (p, ply) = (n.pos, n.ply);
                        break self.playout(p, ply, &base);
                    }
                    self.expand(node);
                }
                let n = &self.nodes[node as usize];
                if n.edges == 0 {
                    let p = n.pos;
                    break self.rewards(&p, &base);
                }
                let e = self.select(node);
                self.path.push(e);
                let child = self.edges[e as usize].child;
                if child != NONE {
                    node = child;
                    continue;
                }
                let mut next = self.nodes[node as usize].pos;
                let ply = self.nodes[node as usize].ply + 1;
                self.variant
                    .play_unchecked(&mut next, self.edges[e as usize].mv);
                if self.nodes.len() >= MAX_NODES {
                    break self.playout(next, ply, &base);
                }
                let added = self.add_node(next, ply);
                self.edges[e as usize].child = added;
                let settled = self.nodes[added as usize].pos;
                break self.playout(settled, ply, &base);
            };
            // The root move's progress now, the tree moves' waiting costs.
            let mut node = root;
            for (i, &e) in self.path.iter().enumerate() {
                let unit = usize::from(self.nodes[node as usize].unit);
                let edge = &self.edges[e as usize];
                if i == 0 {
                    rewards[unit] += self.options.now as f32 / 10.0 * edge.progress;
                }
                if self.options.waiting {
                    rewards[unit] -= edge.waiting;
                }
                node = edge.child;
            }
            // Back up: every edge on the path, and the nodes it leaves from.
            let mut node = root;
            for &e in &self.path {
                let unit = usize::from(self.nodes[node as usize].unit);
                let n = &mut self.nodes[node as usize];
                n.visits += 1;
                n.value += rewards[unit];
                let edge = &mut self.edges[e as usize];
                edge.visits += 1;
                edge.value += rewards[unit];
                node = edge.child;
            }
            if let Some(leaf) = self.nodes.get_mut(node as usize) {
                leaf.visits += 1;
                leaf.value += rewards[usize::from(leaf.unit)];
            }
        }
        let best = self.most_visited(root)?;
        // The expected line: the most visited edges down the tree.
        let mut pv = vec![best.mv];
        let mut node = best.child;
        while node != NONE {
            let Some(e) = self.most_visited(node) else {
                break;
            };
            pv.push(e.mv);
            node = e.child;
        }
        let mean = if best.visits > 0 {
            best.value / best.visits as f32
        } else {
            0.0
        };
        Some(SearchResult {
            mv: best.mv,
            score: (mean * ROW as f32) as i32,
            depth: pv.len() as u32,
            nodes: iterations,
            pv,
        })
    }
}

impl<E: Evaluator> ExcludeRootMoves for Mcts<'_, E> {
    fn exclude_root_moves(&mut self, moves: &[Move]) {
        self.excluded = moves.to_vec();
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

    use halma_rules::{BoardKind, GameSetup, RuleOptions};

    use super::*;
    use crate::{Greedy, RaceEvaluator};

    fn variant(board: BoardKind, players: u8, teams: bool) -> Variant {
        Variant::new(&GameSetup {
            board,
            players,
            options: RuleOptions {
                teams: Some(teams),
                ..RuleOptions::default()
            },
        })
        .unwrap()
    }

    /// Positions of noisy greedy play every few plies, while the game goes on.
    fn positions(v: &Variant, seed: u64, count: usize, every: usize) -> Vec<Position> {
        let eval = RaceEvaluator::new(v);
        let mut greedy = Greedy::new(v, &eval, 48, seed);
        let mut pos = Position::start(v, v.seat(0).unwrap());
        let mut out = Vec::new();
        for ply in 0..count * every {
            let Some(r) = greedy.choose(&pos, &[], &Budget::depth(1)) else {
                break;
            };
            v.play_unchecked(&mut pos, r.mv);
            if Sides::new(v).game_over(&pos) {
                break;
            }
            if ply % every == every - 1 {
                out.push(pos);
            }
        }
        out
    }

    /// Exact settings for the tests: no random playout moves, no bias, the plain rewards.
    fn exact(horizon: u32) -> MctsOptions {
        MctsOptions {
            horizon,
            epsilon: 0,
            bias: 0,
            ..MctsOptions::PLAIN
        }
    }

    /// What a unit's reward after `mv` in `pos` rests on: its score, with the finishing bonus.
    fn score_after(v: &Variant, eval: &RaceEvaluator, pos: &Position, mv: Move, unit: u8) -> i32 {
        let sides = Sides::new(v);
        let mut next = *pos;
        v.play_unchecked(&mut next, mv);
        let mut score = unit_score(eval, &sides, &next, unit);
        if sides.finished(&next, unit) {
            score += MctsOptions::PLAIN.finish as i32 * ROW;
        }
        score
    }

    /// With the horizon one ply from the root, no random playout moves and no bias, every
    /// root move's reward is the root unit's gain after it: the most visited move must be
    /// one of the best by that gain (a plain one-ply search over the same reward).
    #[test]
    fn one_ply_horizon_plays_the_best_gain() {
        let options = exact(1);
        let mut checked = 0;
        for (board, players) in [
            (BoardKind::Star, 3),
            (BoardKind::Star, 6),
            (BoardKind::Square16, 4),
        ] {
            let v = variant(board, players, false);
            let eval = RaceEvaluator::new(&v);
            let sides = Sides::new(&v);
            let mut moves = Vec::new();
            for pos in positions(&v, 5, 6, 9) {
                let unit = sides.unit(pos.to_move());
                let gain = |mv: Move| score_after(&v, &eval, &pos, mv, unit);
                v.generate_moves(&pos, &mut moves);
                let best = moves.iter().map(|&mv| gain(mv)).max().unwrap();
                let r = Mcts::new(&v, &eval, options, 3)
                    .choose(&pos, &[], &Budget::depth(4))
                    .unwrap();
                assert_eq!(gain(r.mv), best, "{board:?} {players}: {:?}", r.mv);
                checked += 1;
            }
        }
        assert!(checked >= 12, "only {checked} positions checked");
    }

    /// A fixed number of iterations and a seed give the same move; every variant gets a
    /// legal one, teams included.
    #[test]
    fn iterations_are_deterministic_and_moves_legal() {
        for (board, players, teams) in [
            (BoardKind::Star, 3, false),
            (BoardKind::Star, 4, false),
            (BoardKind::Star, 6, false),
            (BoardKind::Star, 6, true),
            (BoardKind::Square16, 4, false),
        ] {
            let v = variant(board, players, teams);
            let eval = RaceEvaluator::new(&v);
            for pos in positions(&v, 9, 3, 20) {
                let run = || {
                    Mcts::new(&v, &eval, MctsOptions::default(), 11)
                        .choose(&pos, &[], &Budget::depth(1))
                        .unwrap()
                };
                let (a, b) = (run(), run());
                assert_eq!(a, b, "{board:?} {players}");
                assert!(v.is_legal(&pos, a.mv), "{board:?} {players}: {:?}", a.mv);
                assert_eq!(a.nodes, 1000);
            }
        }
    }

    /// With progressive widening every node has visited only its best edges by prior, as
    /// many as its visits opened; without it the root's edges all get visits.
    #[test]
    fn widening_keeps_to_the_best_priors() {
        let v = variant(BoardKind::Star, 6, false);
        let eval = RaceEvaluator::new(&v);
        let pos = positions(&v, 4, 2, 30)[1];
        let options = MctsOptions {
            widen: 10,
            ..MctsOptions::PLAIN
        };
        let mut mcts = Mcts::new(&v, &eval, options, 1);
        mcts.choose(&pos, &[], &Budget::depth(2)).unwrap();
        let mut inner = 0;
        for (i, n) in mcts.nodes.iter().enumerate() {
            if n.edges == UNEXPANDED || n.edges == 0 {
                continue;
            }
            let edges = &mcts.edges[n.first_edge as usize..(n.first_edge + n.edges) as usize];
            let open = ((n.visits as f32).sqrt()).ceil() as usize;
            let last_visited = edges.iter().rposition(|e| e.visits > 0).unwrap_or(0);
            assert!(
                last_visited < open.max(1),
                "node {i}: edge {last_visited} of {open}"
            );
            assert!(edges
                .windows(2)
                .all(|w| w[0].progress - w[0].waiting >= w[1].progress - w[1].waiting));
            inner += usize::from(n.visits > 4);
        }
        assert!(inner > 10, "only {inner} inner nodes");
        let mut plain = Mcts::new(&v, &eval, MctsOptions::PLAIN, 1);
        plain.choose(&pos, &[], &Budget::depth(2)).unwrap();
        let r = &plain.nodes[0];
        let plain_unvisited = (r.first_edge..r.first_edge + r.edges)
            .filter(|&e| plain.edges[e as usize].visits == 0)
            .count();
        assert_eq!(plain_unvisited, 0);
    }

    /// Max^n backups: with the horizon two plies from the root, the reply most visited after
    /// the root's most visited move is one of the best for the replying unit's own gain (not
    /// the worst for the root unit's).
    #[test]
    fn replies_maximise_their_own_reward() {
        let options = exact(2);
        let mut checked = 0;
        for players in [3, 4, 6] {
            let v = Variant::new(&GameSetup {
                board: BoardKind::Star,
                players,
                options: RuleOptions {
                    arm_size: Some(2),
                    ..RuleOptions::default()
                },
            })
            .unwrap();
            let eval = RaceEvaluator::new(&v);
            let sides = Sides::new(&v);
            for pos in positions(&v, 21, 4, 3) {
                let mut mcts = Mcts::new(&v, &eval, options, 5);
                mcts.choose(&pos, &[], &Budget::depth(6)).unwrap();
                let first = mcts.most_visited(0).unwrap();
                let node = &mcts.nodes[first.child as usize];
                let Some(reply) = mcts.most_visited(first.child) else {
                    continue;
                };
                let unit = node.unit;
                let gain = |mv: Move| score_after(&v, &eval, &node.pos, mv, unit);
                let edges = &mcts.edges[node.first_edge as usize..][..node.edges as usize];
                let best = edges.iter().map(|e| gain(e.mv)).max().unwrap();
                assert_eq!(gain(reply.mv), best, "{players} players: {:?}", reply.mv);
                assert_ne!(unit, sides.unit(pos.to_move()));
                checked += 1;
            }
        }
        assert!(checked >= 8, "only {checked} positions checked");
    }

    /// The tree's limits keep a search within about 100 MB.
    #[test]
    fn the_tree_stays_within_its_memory() {
        let bytes =
            MAX_NODES * std::mem::size_of::<Node>() + MAX_EDGES * std::mem::size_of::<Edge>();
        assert!(bytes <= 110 << 20, "{} MB", bytes >> 20);
    }
}
