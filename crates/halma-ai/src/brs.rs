//! Search for three or more units: Best-Reply Search (Schadd & Winands, 2011), with paranoid
//! search as the alternative it was measured against.
//!
//! Best-Reply Search alternates two kinds of layer: the root unit moves (a max layer), then the
//! opponents' moves are pooled and only the single strongest reply among all of them is played
//! (a min layer); the other opponents pass. This keeps the root player's moves frequent in a
//! deep tree, and the illegal passes matter little in a race. Paranoid search instead follows
//! the real turn order and assumes every opponent plays against the root player.
//!
//! A third mode, [`MultiMode::Solo`], lets the opponents pass altogether: every layer is the
//! root unit's, a race planned move by move. Options that the arena compares: how many replies
//! a min layer considers ([`Brs::with_reply_limit`]), how many own moves a max layer below the
//! root considers ([`Brs::with_own_limit`]), which replies come first
//! ([`Brs::with_near_replies`]) and how much of the best rival's score the evaluation sets
//! against the root unit's ([`Brs::with_rival_share`]).
//!
//! A fourth mode, [`MultiMode::Model`], level 10's for three or more units, replaces the
//! min layer by the opponents' predicted moves (each opponent in turn plays what a cheap
//! policy, by default the greedy one, would choose), so that the root unit plans its own moves
//! against the board the others are likely to leave.
//!
//! All run as iterative deepening alpha-beta with a depth-exact transposition table, move
//! ordering by table move, forward progress and history, and the same clock as
//! [`crate::pvs::Pvs`]. Scores are always from the root unit's point of view.

use std::iter::StepBy;
use std::ops::RangeInclusive;

use halma_rules::{Bitboard, Move, Position, Seat, Variant};

use crate::eval::{
    relative_score, relative_score_with, unit_score, Evaluator, FULL_RIVAL, ROW, WIN, WIN_THRESHOLD,
};
use crate::pvs::CONTEMPT;
use crate::search::{
    deepen, order_key, Budget, Deepening, ExcludeRootMoves, SearchCore, SearchResult, Strategy,
};
use crate::sides::{set_turn, Sides};

/// How many opponent replies a min layer considers by default: the most forward ones (after
/// the table move). Measured on the 3- and 6-player star against greedy players at 20 ms a
/// move, limiting the replies to 6 won at least as often as considering all of them, and it
/// keeps Best-Reply Search from assuming that some opponent always spends its move blocking.
/// Measured again on the 6-player star at 50 ms a move (40 games a line, the evaluation set
/// on the own race alone): first place 15 times with 6 replies, 10 with 4, 9 with 10, 8 with
/// 2 or 1, and 4 with all of them.
pub const DEFAULT_REPLY_LIMIT: usize = 6;

/// How many of the root unit's own moves a max layer below the root considers in level 10's
/// opponent-model search ([`Brs::modelling`]); the root considers all of them. The model
/// layers do not branch, so nothing is cut and the limit sets the depth reached. Measured on
/// the 6-player star against five greedy players at 50 ms a move (30 games a line): first
/// place 20 times with 6, 19 with 10 and with 16, 16 with all moves.
pub const MODEL_OWN_LIMIT: usize = 10;

/// The share of the best rival's score (percent) that level 10's opponent-model search sets
/// against the root unit's own with [`MODEL_RIVAL_UNITS`] units or more (with fewer, all of
/// it): none, its own race alone (rivals that finish still cost a place). With five
/// opponents, a move that costs one of them helps the other four, and searching opponents
/// (paranoid or Best-Reply) spend their moves on the leader. Measured on the 6-player star at
/// 200 ms a move with [`MODEL_ROOT_PROGRESS`] (2026-12-03, arena
/// `brs:model=2,own=10,rivals=P,now=16`): against five paranoid searches none came first in
/// 28 of 100 games on seeds 13 and 14 (average place 2.75), where half came first in 19 of
/// 100 (3.20), and in 30 of 100 on seeds 11 and 12 (2.92), where half came first in 29 of
/// 100 (2.73); against five greedy players in 63 of 100 (seeds 1 and 2), where half came
/// first in 83 of 100 (seed 1). On more openings (seeds 15 to 18) none came first in 54 of 200 against the
/// paranoid searches, 112 of 400 in all (28 %; 158 of 600 with seeds 19 to 22), and in 61 of
/// 100 against greedy players
/// (seeds 3 and 4). Without the root move's progress (2026-12-02, see
/// [`Brs::with_rival_share`]) half came first in 25 of 100 against the paranoid searches and
/// in 81 of 100 against greedy players, the whole in 15 and 79.
pub const MODEL_RIVAL_SHARE: i32 = 0;

/// From how many units on level 10 uses [`MODEL_RIVAL_SHARE`] and [`MODEL_ROOT_PROGRESS`]:
/// the six of the 6-player star.
pub const MODEL_RIVAL_UNITS: u8 = 6;

/// What level 10's opponent-model search adds to a root move per row it brings its piece
/// forward now ([`Brs::with_root_progress`]), with [`MODEL_RIVAL_UNITS`] units or more: one
/// row for a row. Measured on the 6-player star at 200 ms a move with half the rival's score
/// (2026-12-02, seeds 11 and 12 of the arena): first in 29 of
/// 100 games against five paranoid searches, average place 2.73 (without it 25 of 100,
/// 3.17); two rows for a row came first in 10 of 44 games (2.95). On seeds 13 and 14 first
/// in 19 of 100 (3.20); on 59 of those openings 13 against 9 without it (3.12 against 3.78).
/// Against five greedy players first in 83 of 100 (81 of 100 without it).
pub const MODEL_ROOT_PROGRESS: i32 = ROW;

/// How many of the root unit's most forward moves the threats of [`Brs::with_threats`] protect.
pub const LADDERS: usize = 2;

/// The cost per empty goal cell an opponent could plug that [`Brs::with_exposure`] was
/// measured with: one and a half rows. On the 6-player star at 200 ms a move against five
/// paranoid searches (arena `ens:deep=7,worst=1,plugs=1,adapt=1,expose=24,foreign=48`, level
/// 10's options with the cost) it came first in 121 of 450 games (seeds 34 to 37 and 57 to
/// 61) where level 10 came first in 111 on the same openings, and as the first seat to come
/// within four rows of its finish it finished about five plies sooner (`notes/multi.md`,
/// twenty-fourth and thirtieth sessions). Not adopted: the difference is within the noise.
pub const EXPOSURE_HOLE: i32 = 24;

/// The cost per plug in the goal (a piece of another seat that does not count there yet)
/// that [`Brs::with_exposure`] was measured with: three rows (see [`EXPOSURE_HOLE`]).
pub const EXPOSURE_FOREIGN: i32 = 48;

/// How many gaps (empty goal cells and plugs) the root unit's goals may have for
/// [`Brs::with_exposure`] to charge them, as measured (see [`EXPOSURE_HOLE`]).
pub const EXPOSURE_GAPS: u32 = 2;

/// Marks the table keys of first opponent layers searched with threats (see
/// [`Brs::with_threats`]), whose values differ from those of plain model layers.
const THREAT_KEY: u64 = 0x9e37_79b9_7f4a_7c15;

/// What ranks a reply near the root unit's pieces above every other (ordering keys of
/// progress and history stay below 2^40).
const NEAR_FIRST: i64 = 1 << 40;

/// How the opponents' moves are modelled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MultiMode {
    /// Best-Reply Search: the strongest single reply of all opponents.
    #[default]
    BestReply,
    /// Paranoid: every opponent in turn order, all minimising the root unit's score.
    Paranoid,
    /// The root unit alone: the opponents pass, every layer is the root unit's (a race
    /// planned move by move, deeper than the other modes reach, blind to the opponents).
    /// Measured on the 6-player star against five greedy players at 50 ms a move (40 games,
    /// own race only): first 11 times, 9 with 12 own moves a layer below the root, 6 with 6;
    /// Best-Reply Search with the same evaluation 15 times.
    Solo,
    /// Opponent modelling: the root unit's layers alternate with layers in which every
    /// opponent, in turn order from the root's seat, plays the one move a cheap policy
    /// predicts for it (see [`ReplyModel`]), on the position the previous ones left. The tree
    /// branches on the root unit's moves only, so it plans several own moves against the
    /// board the opponents are likely to leave, instead of the single worst reply.
    Model,
}

/// How [`MultiMode::Model`] predicts an opponent's move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReplyModel {
    /// The move that brings its piece the most rows forward, less its waiting cost (the
    /// first such move in generation order): one table lookup per move.
    #[default]
    Progress,
    /// The greedy player's choice on the opponent's own race: the move after which its seat
    /// scores best, less its waiting cost (the seat's score updated by each move, see
    /// [`Evaluator::greedy_gains`]).
    Greedy,
    /// The one-ply choice of a searching opponent: the move after which its unit's score set
    /// against its best rival's ([`crate::eval::relative_score`], as the levels' own searches
    /// score) is highest, less its waiting cost (every unit's evaluation per move). Unlike
    /// [`ReplyModel::Greedy`] it predicts the moves that cost the leader its ladders.
    /// Measured on the 6-player star against five paranoid searches at equal time (arena
    /// `brs:model=3,own=10`): first in 15 of 40 games at 50 ms a move, and in 5 of 40 at
    /// 200 ms, where level 10 with the greedy model came first in 10 of 50 on the same
    /// openings: no gain, so level 10 keeps [`ReplyModel::Greedy`].
    Rival,
}

impl MultiMode {
    /// Whether the layer after a layer of the given kind (max or min) is a max layer, in
    /// the modes that alternate by layer kind (not paranoid, which follows the turn order).
    pub(crate) fn next_layer(self, max_layer: bool) -> bool {
        self == MultiMode::Solo || !max_layer
    }
}

/// Iterative deepening Best-Reply (or paranoid) search.
#[derive(Debug)]
pub struct Brs<'a, E: Evaluator> {
    core: SearchCore<'a, E>,
    mode: MultiMode,
    /// Per ply: the moves of a layer with their movers and ordering keys.
    buffers: Vec<Vec<(i64, Seat, Move)>>,
    reply_limit: Option<usize>,
    /// How many of the root unit's own moves a max layer below the root considers.
    own_limit: Option<usize>,
    /// The share of the best rival's score the evaluation sets against the root unit's.
    rival_share: i32,
    /// Whether a min layer considers first the replies that touch the root unit's pieces.
    near_replies: bool,
    /// Per cell: the cells at most two steps away (see [`Brs::with_near_replies`]).
    near: Vec<Bitboard>,
    /// How [`MultiMode::Model`] predicts the opponents' moves.
    model: ReplyModel,
    /// The seat to move at the root (the opponents' turn order starts after it).
    root_seat: Option<Seat>,
    /// How many threats the first opponent layer of [`MultiMode::Model`] tries.
    threats: usize,
    /// How many other replies of the next opponent that layer tries.
    next_replies: usize,
    /// The threats found by the last model layer that looked for them.
    threat_buf: Vec<Threat>,
    /// In how many rows of its race the root unit's score must lie for a
    /// [`MultiMode::Model`] search to plan alone ([`Brs::with_endgame`]).
    endgame_rows: Option<i32>,
    /// The model's best moves of one seat (a buffer of `play_model_replies`).
    top: Vec<(i32, Move)>,
    /// The model's gains of one seat's moves: buffers kept across calls.
    gains: ModelScratch,
    /// Evaluation units a root move earns per row it brings its piece forward now
    /// ([`Brs::with_root_progress`]).
    root_progress: i32,
    /// Evaluation units a root move that brings no piece forward costs on top of its waiting
    /// cost ([`Brs::with_root_waiting`]).
    root_waiting: i32,
    /// Whether the model layers predict plugs (see [`Brs::with_plugs`]).
    plugs: bool,
    /// Evaluation units per exposed hole and per foreign piece that does not count yet in
    /// the root seat's goals (see [`Brs::with_exposure`]).
    exposure: (i32, i32),
    exposure_gaps: u32,
    /// Whether the opponents of [`MultiMode::Model`] stand still (see
    /// [`Brs::with_standing_still`]).
    standing_still: bool,
}

/// An opponent's move that breaks one of the root unit's ladders (see [`Brs::with_threats`]):
/// the position before it (the opponent to move), the opponent's place in the turn order
/// after the root seat (0 is the next seat), and the move.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Threat {
    pub(crate) before: Position,
    pub(crate) order: usize,
    pub(crate) mv: Move,
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
            own_limit: None,
            rival_share: FULL_RIVAL,
            near_replies: false,
            near: Vec::new(),
            model: ReplyModel::default(),
            root_seat: None,
            threats: 0,
            next_replies: 0,
            threat_buf: Vec::new(),
            endgame_rows: None,
            top: Vec::new(),
            gains: ModelScratch::default(),
            root_progress: 0,
            root_waiting: 0,
            plugs: false,
            exposure: (0, 0),
            exposure_gaps: EXPOSURE_GAPS,
            standing_still: false,
        }
    }

    /// With `true`, the model layers of [`MultiMode::Model`] predict no move at all for an
    /// opponent (its pieces stay where they stand and its turn passes without counting
    /// towards its grace period) unless it plugs the root unit's last empty goal cell (with
    /// [`Brs::with_plugs`]). A plan then holds only with the pieces of others where they are
    /// now: level 10 checks its finishes with it ([`crate::Ensemble::with_finish_check`]),
    /// since every reply model predicts that a piece in the way of its last piece moves on,
    /// which a searching opponent does not do while it blocks the leader's finish.
    #[must_use]
    pub fn with_standing_still(mut self, on: bool) -> Brs<'a, E> {
        self.standing_still = on;
        self
    }

    /// With `true`, the model layers of [`MultiMode::Model`] predict that opponents hold the
    /// root unit's goal shut under the anti-blocking rule: when the root unit's goals have
    /// one empty cell left and no foreign piece that does not count yet, an opponent that
    /// can move a piece onto that cell, and whose piece would not count there yet (its
    /// grace period), plays that move (the best-scored such move); and an opponent whose
    /// piece stands in the root unit's goals without counting while at most one cell is
    /// empty does not move that piece. Searching opponents see the root unit's finish one
    /// move ahead and take its last hole; the one-ply reply models never do. Off by default;
    /// level 10 predicts plugs against fields not judged greedy ([`crate::Ensemble::against`]).
    /// On the 6-player star against five paranoid searches at 200 ms a move (arena
    /// `ens:adapt=1,deep=7,worst=1,plugs=1`, nineteenth and twentieth sessions) it came first
    /// in 115 of 400 games on seeds 17 to 24 where level 10 without it came first in 104 on
    /// the same openings; with the endgame fixes of the twenty-first session, 38 of 150 on
    /// seeds 25 to 27 against 38 without it, and A's last hole was taken 11 times in those
    /// 150 games against 28 without it.
    #[must_use]
    pub fn with_plugs(mut self, on: bool) -> Brs<'a, E> {
        self.plugs = on;
        self
    }

    /// With costs other than zero, the root unit's leaf score pays for a goal left open to
    /// plugs late in its race: `hole` units for every empty goal cell an opponent whose piece
    /// would not count there could reach with one step or one jump, `foreign` for every piece
    /// of another seat that stands in the goal without counting there yet, while at most
    /// `gaps` goal cells are empty or held so. Off by default, level 10 too (measured with [`EXPOSURE_HOLE`],
    /// [`EXPOSURE_FOREIGN`] and [`EXPOSURE_GAPS`]; arena `ens:...,expose=H,foreign=F,gaps=G`).
    #[must_use]
    pub fn with_exposure(mut self, hole: i32, foreign: i32, gaps: u32) -> Brs<'a, E> {
        self.set_exposure(hole, foreign, gaps);
        self
    }

    /// [`Brs::with_exposure`] on a search already built (the ensemble sets it per position).
    pub(crate) fn set_exposure(&mut self, hole: i32, foreign: i32, gaps: u32) {
        self.exposure = (hole, foreign);
        self.exposure_gaps = gaps;
    }

    /// What the root unit's goal gaps cost it (see [`Brs::with_exposure`]): when at most
    /// the given number of its goal cells are empty or held by pieces that do not count yet,
    /// each such foreign piece, and each empty cell an opponent whose piece would not count
    /// there could reach with one step or one jump.
    fn exposure_cost(&self, pos: &Position) -> i32 {
        let (hole_cost, foreign_cost) = self.exposure;
        if (hole_cost, foreign_cost) == (0, 0) || self.root_seat.is_none() {
            return 0;
        }
        let (holes, plugged) = self.root_goal_gaps(pos);
        let gaps = holes.count() + plugged.count();
        if gaps == 0 || gaps > self.exposure_gaps {
            return 0;
        }
        let variant = self.core.variant;
        let sides = &self.core.sides;
        let mut pluggers = Bitboard::EMPTY;
        for &s in sides.all_seats() {
            if sides.unit(s) != self.core.root_unit && plugs_stay(variant, pos, s, 1) {
                for a in variant.armies_of(s) {
                    pluggers |= pos.army(a);
                }
            }
        }
        let board = variant.board();
        let occupied = pos.occupied();
        let mut exposed = 0;
        for h in holes.iter() {
            let Some(cell) = board.cell(usize::from(h)) else {
                continue;
            };
            let reachable = (0..board.directions()).any(|d| {
                board.neighbor(cell, d).is_some_and(|n| {
                    pluggers.has(n.index())
                        || (occupied.has(n.index())
                            && board
                                .neighbor(n, d)
                                .is_some_and(|f| pluggers.has(f.index())))
                })
            });
            exposed += i32::from(reachable);
        }
        exposed * hole_cost + i32::try_from(plugged.count()).unwrap_or(0) * foreign_cost
    }

    /// The root unit's goal cells that are empty, and those held by pieces of other seats
    /// that do not count there yet (see [`Brs::with_plugs`]).
    fn root_goal_gaps(&self, pos: &Position) -> (Bitboard, Bitboard) {
        let variant = self.core.variant;
        let sides = &self.core.sides;
        let unit = self.core.root_unit;
        let mut goal = Bitboard::EMPTY;
        let mut own = Bitboard::EMPTY;
        for &s in sides.all_seats() {
            if sides.unit(s) != unit {
                continue;
            }
            for a in variant.armies_of(s) {
                goal |= variant.armies()[a].goal;
                own |= pos.army(a);
            }
        }
        let holes = goal & !pos.occupied();
        let mut plugged = Bitboard::EMPTY;
        let foreign = goal & pos.occupied() & !own;
        if !foreign.is_empty() {
            for &s in sides.all_seats() {
                if sides.unit(s) == unit || !plugs_stay(variant, pos, s, 0) {
                    continue;
                }
                for a in variant.armies_of(s) {
                    plugged |= foreign & pos.army(a);
                }
            }
        }
        (holes, plugged)
    }

    /// With `Some(rows)`, a [`MultiMode::Model`] search whose root unit's score is at least
    /// `-rows` rows ([`ROW`] units each: the race nearly run) plans alone as
    /// [`MultiMode::Solo`] does, every own move at every layer: in the last moves of the
    /// race the opponents' moves matter little and depth matters most. Off by default: with
    /// `brs:model=2,own=10,endgame=40` on the 6-player star against five paranoid searches at
    /// 200 ms a move it came first in 1 of 23 games and last in 7 (run stopped there): the
    /// opponents' last moves through the goal area still matter.
    #[must_use]
    pub fn with_endgame(mut self, rows: Option<i32>) -> Brs<'a, E> {
        self.endgame_rows = rows;
        self
    }

    /// Level 10's search for three or more units: [`MultiMode::Model`] with the greedy reply
    /// model, [`MODEL_OWN_LIMIT`] own moves a layer below the root, and
    /// [`MODEL_RIVAL_SHARE`] of the best rival's score and [`MODEL_ROOT_PROGRESS`] for a root
    /// move's progress from [`MODEL_RIVAL_UNITS`] units on.
    #[must_use]
    pub fn modelling(variant: &'a Variant, eval: &'a E, table_bits: u32) -> Brs<'a, E> {
        let many = Sides::new(variant).units() >= MODEL_RIVAL_UNITS;
        Brs::new(variant, eval, MultiMode::Model, table_bits)
            .with_reply_model(ReplyModel::Greedy)
            .with_own_limit(Some(MODEL_OWN_LIMIT))
            .with_rival_share(if many { MODEL_RIVAL_SHARE } else { FULL_RIVAL })
            .with_root_progress(if many { MODEL_ROOT_PROGRESS } else { 0 })
    }

    /// With `n > 0`, the first opponent layer of [`MultiMode::Model`] is a min layer over the
    /// predicted replies and up to `n` threats: for the first `n` opponents in turn order
    /// that have one, the move that breaks one of the root unit's ladders (a move ending on
    /// a cell that one of its [`LADDERS`] most forward moves lands on or passes over, or
    /// taking away a piece it jumps over) that the model scores best among such moves, when
    /// it is not the predicted move, played instead of the opponent's predicted move, with
    /// the later opponents' predicted moves after it (the
    /// idea of BRS+, Esser et al., 2013: one opponent deviates, the others play the move
    /// a policy gives them). So the root unit prefers plans that survive a block. 0 (off) by
    /// default: on the 6-player star against five paranoid searches at 200 ms a move (arena
    /// `brs:model=2,own=10,threats=5`, seed 11, two runs) it came first in 13 of 58 games
    /// (22 %, average place 3.72), where level 10 came first in 15 of 100 (3.46); see
    /// [`Brs::with_next_replies`] for the two together.
    #[must_use]
    pub fn with_threats(mut self, n: usize) -> Brs<'a, E> {
        self.set_threats(n);
        self
    }

    /// [`Brs::with_threats`] on a search already built (the ensemble sets it per position).
    pub(crate) fn set_threats(&mut self, n: usize) {
        self.threats = n;
    }

    /// With `n > 0`, the first opponent layer of [`MultiMode::Model`] also tries the next
    /// opponent's `n` best-scored moves after its predicted one (the model's gain, the first
    /// in generation order among equals), each followed by the later opponents' predicted
    /// moves, before the threats of [`Brs::with_threats`] (a threat among those moves is
    /// not tried twice). As paranoid search does for the seat after the root's, but over the
    /// moves the model finds plausible. 0 (off) by default. Measured on the 6-player star at
    /// 200 ms a move with `brs:model=2,own=10,next=3,threats=5` (2026-12-02): first in 22 of
    /// 100 games against five paranoid searches (seeds 11 and 12, average place 3.13), where
    /// level 10 came first in 15 of 100 (average place 3.46) on the same seeds the day
    /// before; but against five greedy players it came first in only 48 of 100 (level 10: 79
    /// of 100), so it is not adopted.
    #[must_use]
    pub fn with_next_replies(mut self, n: usize) -> Brs<'a, E> {
        self.next_replies = n;
        self
    }

    /// With `units > 0`, every root move earns `units` per row it brings its piece forward
    /// now (and loses as much per row it goes back), on top of the value of the line after
    /// it: a bird in the hand. The opponent-model search otherwise trusts plans over two or
    /// three own moves whose later moves need the opponents to play as predicted; searching
    /// opponents do not (the greedy model predicts about two thirds of a paranoid seat's
    /// moves), and they close the ladders of the seat that looks like the leader. Among five
    /// paranoid searches level 10 without it had, at ply 100, 5.5 rows more to go than the
    /// median paranoid seat (24 games capped at 100 plies), where a one-ply greedy player in
    /// its seat had 2.7 rows less: its first moves set up jumps that the others then took
    /// away. With one row for a row it kept level with the median seat. 0 (off) by default;
    /// the reported score includes it, as it includes the waiting cost.
    #[must_use]
    pub fn with_root_progress(mut self, units: i32) -> Brs<'a, E> {
        self.root_progress = units;
        self
    }

    /// With `units > 0`, a root move that brings no piece forward (by the evaluator's
    /// progress: a step sideways or back, a shuffle inside the goal) costs `units` on top of
    /// its waiting cost ([`Evaluator::waiting_cost`]), which every move in the tree pays: a
    /// plan that waits now for a jump later needs the predicted replies to come true, and
    /// searching opponents do not play them. 0 (off) by default. Measured on the 6-player
    /// star against five paranoid searches at 200 ms a move with level 10's scoring (arena
    /// `brs:model=2,own=10,rivals=0,now=16,wait=32`, 2026-12-03): two rows cut its waiting
    /// moves from about 2 a game to 1.1 and it finished 1.2 moves before the paranoid seats
    /// (39.4 moves against 40.6, seeds 19 and 20, games 0 to 24; level 10 0.6 moves before
    /// them on seed 19), but it came first in 13 of those 50 games, where level 10 came first
    /// in 12, and in 6 of 48 on seeds 11 and 12 (stopped), where level 10 came first in 30 of
    /// 100.
    #[must_use]
    pub fn with_root_waiting(mut self, units: i32) -> Brs<'a, E> {
        self.root_waiting = units;
        self
    }

    /// Sets how [`MultiMode::Model`] predicts the opponents' moves.
    #[must_use]
    pub fn with_reply_model(mut self, model: ReplyModel) -> Brs<'a, E> {
        self.model = model;
        self
    }

    /// With `on`, a min layer ranks first the replies that start or end at most two steps
    /// from a piece of the root unit (those that can open or close its jumps), before the
    /// reply limit applies; the others follow in the usual order. Off by default: on the
    /// 6-player star (50 ms a move, 40 games, own race only) it took first place 10 times,
    /// against 15 without it.
    #[must_use]
    pub fn with_near_replies(mut self, on: bool) -> Brs<'a, E> {
        self.near_replies = on;
        if on && self.near.is_empty() {
            let board = self.core.variant.board();
            let step = |c: u8| -> Bitboard {
                board
                    .cell(usize::from(c))
                    .map(|cell| board.neighbors(cell).iter().map(|n| n.index()).collect())
                    .unwrap_or(Bitboard::EMPTY)
            };
            self.near = (0..board.len())
                .map(|i| {
                    let c = i as u8;
                    let one = step(c);
                    one.iter()
                        .fold(one | Bitboard::single(c), |acc, n| acc | step(n))
                })
                .collect();
        }
        self
    }

    /// The cells at most two steps from a piece of the root unit.
    fn root_zone(&self, pos: &Position) -> Bitboard {
        let mut zone = Bitboard::EMPTY;
        for s in self.core.sides.seats(self.core.root_unit) {
            for a in self.core.variant.armies_of(self.core.sides.seat(s)) {
                for c in pos.army(a).iter() {
                    if let Some(&near) = self.near.get(usize::from(c)) {
                        zone |= near;
                    }
                }
            }
        }
        zone
    }

    /// Sets how many of the root unit's own moves a max layer below the root considers, the
    /// most forward ones after the table move (`None`: all of them, the default). The root
    /// always considers every move. On the 6-player star (50 ms a move, 40 games, own race
    /// only) a limit of 12 took first place 14 times, against 15 without it.
    #[must_use]
    pub fn with_own_limit(mut self, limit: Option<usize>) -> Brs<'a, E> {
        self.own_limit = limit.map(|l| l.max(1));
        self
    }

    /// Sets the percentage of the best rival's score that the evaluation sets against the
    /// root unit's own (see [`crate::eval::relative_score_with`]); 100 by default, as the
    /// levels play. Measured against greedy players (arena): on the 6-player star at 50 ms a
    /// move, 0 % took first place 23 times in 80 games and 100 % 24 times (no difference);
    /// at 200 ms on the 4-player star 0 % took first place in 62 of 100 games, 100 % in 32 of
    /// 40, and on the 3-player star 0 % in 28 of 30. Level 10's search on the 6-player star
    /// at 200 ms a move (arena `brs:model=2,own=10,rivals=P`, 2026-12-02): against five
    /// paranoid searches 0 % came first in 27 of 85 games (32 %, seeds 11 and 12), where
    /// 100 % came first in 15 of 100; against five greedy players 0 % came first in 58 of
    /// 100 and 50 % in 81 of 100, where 100 % came first in 79 of 100; 50 % came first in
    /// 25 of 100 against the paranoid searches.
    #[must_use]
    pub fn with_rival_share(mut self, percent: i32) -> Brs<'a, E> {
        self.rival_share = percent.clamp(0, FULL_RIVAL);
        self
    }

    /// Sets how many replies a min layer considers (`None`: all of them).
    #[must_use]
    pub fn with_reply_limit(mut self, limit: Option<usize>) -> Brs<'a, E> {
        self.reply_limit = limit.map(|l| l.max(1));
        self
    }

    fn evaluate(&self, pos: &Position) -> i32 {
        relative_score_with(
            self.core.eval,
            &self.core.sides,
            pos,
            self.core.root_unit,
            self.rival_share,
        ) - self.exposure_cost(pos)
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
            MultiMode::BestReply | MultiMode::Solo | MultiMode::Model => {
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
        let threats = self.mode == MultiMode::Model
            && ply == 1
            && !max_layer
            && (self.threats > 0 || self.next_replies > 0);
        let key = pos.hash() ^ u64::from(max_layer) ^ if threats { THREAT_KEY } else { 0 };
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
        if ply == 0 {
            self.root_seat = Some(pos.to_move());
        }
        let (seats, is_max) = self.layer(pos, ply, max_layer);
        if self.mode == MultiMode::Model && !is_max {
            let critical = if threats && self.threats > 0 {
                ladder_cells(
                    self.core.variant,
                    self.core.eval,
                    &self.core.sides,
                    self.core.root_unit,
                    pos,
                    &mut self.core.scratch,
                )
            } else {
                Bitboard::EMPTY
            };
            self.threat_buf.clear();
            let mut next = *pos;
            self.play_model_replies(&mut next, 0, critical, threats);
            self.normalise_turn(&mut next, true);
            let found = std::mem::take(&mut self.threat_buf);
            let mut best = self.search(&next, depth - 1, alpha, beta, ply + 1, true);
            for t in &found {
                if self.core.clock.stopped || best <= alpha {
                    break;
                }
                let mut alt = t.before;
                self.core.variant.play_unchecked(&mut alt, t.mv);
                self.play_model_replies(&mut alt, t.order + 1, Bitboard::EMPTY, false);
                self.normalise_turn(&mut alt, true);
                let score = self.search(&alt, depth - 1, alpha, beta.min(best), ply + 1, true);
                best = best.min(score);
            }
            self.threat_buf = found;
            if self.core.clock.stopped {
                return 0;
            }
            self.core.store(key, ply, depth, best, (alpha, beta), None);
            return best;
        }
        if self.buffers.len() <= p {
            self.buffers.resize_with(p + 1, || Vec::with_capacity(512));
        }
        let mut list = std::mem::take(&mut self.buffers[p]);
        list.clear();
        let zone = if self.near_replies && !is_max {
            self.root_zone(pos)
        } else {
            Bitboard::EMPTY
        };
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
                let key = order_key(
                    mv,
                    self.core.eval.progress(&at, mv),
                    &self.core.history,
                    probe.first,
                );
                let touches = zone.has(mv.from.index()) || zone.has(mv.to.index());
                let key = if touches && key != i64::MAX {
                    key + NEAR_FIRST
                } else {
                    key
                };
                list.push((key, s, mv));
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
            let next = self.mode.next_layer(is_max);
            if self.mode == MultiMode::Solo || (ply > 0 && !self.any_moves(pos, next)) {
                return self.evaluate(pos);
            }
            return self.search(pos, depth - 1, alpha, beta, ply + 1, next);
        }
        list.sort_unstable_by_key(|&(k, _, _)| std::cmp::Reverse(k));
        let limit = if is_max {
            self.own_limit.filter(|_| ply > 0)
        } else {
            self.reply_limit
        };
        if let Some(limit) = limit {
            list.truncate(limit);
        }
        let window = (alpha, beta);
        let mut best = if is_max { -WIN - 1 } else { WIN + 1 };
        let mut best_move = None;
        self.core.seen.push(key);
        for &(_, s, mv) in &list {
            let mut next = *pos;
            set_turn(self.core.variant, &mut next, s);
            self.core.variant.play_unchecked(&mut next, mv);
            let next_layer = self.mode.next_layer(is_max);
            if self.mode != MultiMode::Paranoid {
                self.normalise_turn(&mut next, next_layer);
            }
            // Waiting moves cost the root unit (see [`Evaluator::waiting_cost`]).
            let w = if is_max {
                let now = if ply == 0 && (self.root_progress != 0 || self.root_waiting != 0) {
                    let progress = self.core.eval.progress(pos, mv);
                    let waiting = if progress <= 0 { self.root_waiting } else { 0 };
                    self.root_progress * progress - waiting
                } else {
                    0
                };
                self.core.eval.waiting_cost(pos, mv) - now
            } else {
                0
            };
            let (lo, hi) = (unadjusted(alpha, w), unadjusted(beta, w));
            let score = adjusted(
                self.search(&next, depth - 1, lo, hi, ply + 1, next_layer),
                w,
            );
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

    /// Plays the opponents' predicted moves on `pos` ([`MultiMode::Model`]): each opponent
    /// seat still taking turns, in turn order from the seat after the root's (from the
    /// `first`-th of them on), plays its model move on the position the previous ones left
    /// (a seat without a move passes), until the game is over. With `collect`, the
    /// alternatives the first opponent layer tries go to `threat_buf`: the first opponent's
    /// next best-scored moves ([`Brs::with_next_replies`]), then, for up to
    /// [`Brs::with_threats`] opponents in turn, the best-scored move among those that touch
    /// the `critical` cells ([`ladder_cells`]) when it is neither the predicted move nor
    /// already listed.
    fn play_model_replies(
        &mut self,
        pos: &mut Position,
        first: usize,
        critical: Bitboard,
        collect: bool,
    ) {
        let seats = self.core.sides.all_seats();
        let n = seats.len();
        let start = self.root_seat.map_or(0, |r| usize::from(r.index()) + 1);
        let mut next_opponent = collect;
        let mut threats = 0;
        // The model's best moves of one seat: a buffer kept across calls (no allocation).
        let mut top = std::mem::take(&mut self.top);
        let threatening = !critical.is_empty();
        for i in first..n {
            let s = seats[(start + i) % n];
            if self.core.sides.unit(s) == self.core.root_unit || self.core.sides.game_over(pos) {
                continue;
            }
            let mut at = *pos;
            if !set_turn(self.core.variant, &mut at, s) {
                continue;
            }
            let keep = if next_opponent {
                self.next_replies + 1
            } else {
                1
            };
            next_opponent = false;
            top.clear();
            let mut threat: Option<(i32, Move)> = None;
            // Cells the seat plugs (see `Brs::with_plugs`), and cells it keeps plugged.
            let (plug_to, keep_from) = if self.plugs && self.root_seat.is_some() {
                let (holes, plugged) = self.root_goal_gaps(&at);
                let plugs = if holes.count() == 1
                    && plugged.is_empty()
                    && plugs_stay(self.core.variant, &at, s, 1)
                {
                    holes
                } else {
                    Bitboard::EMPTY
                };
                let mut mine = Bitboard::EMPTY;
                if holes.count() <= 1 && !plugged.is_empty() {
                    for a in self.core.variant.armies_of(s) {
                        mine |= plugged & at.army(a);
                    }
                }
                (plugs, mine)
            } else {
                (Bitboard::EMPTY, Bitboard::EMPTY)
            };
            if self.standing_still {
                // No move unless the seat plugs the last hole (its plugs stay by standing).
                if plug_to.is_empty() {
                    continue;
                }
                self.core
                    .variant
                    .generate_moves(&at, &mut self.core.scratch);
                // The most forward plug, the first among equals.
                let mut plug: Option<(i32, Move)> = None;
                for &mv in &self.core.scratch {
                    let progress = self.core.eval.progress(&at, mv);
                    if plug_to.has(mv.to.index()) && plug.is_none_or(|(p, _)| progress > p) {
                        plug = Some((progress, mv));
                    }
                }
                if let Some((_, mv)) = plug {
                    self.core.variant.play_unchecked(&mut at, mv);
                    *pos = at;
                }
                continue;
            }
            self.core
                .variant
                .generate_moves(&at, &mut self.core.scratch);
            let mut plug: Option<(i32, Move)> = None;
            let mut kept: Option<(i32, Move)> = None;
            let c = &self.core;
            let gains = model_gains(
                c.variant,
                c.eval,
                &c.sides,
                self.model,
                &at,
                &c.scratch,
                &mut self.gains,
            );
            for (&mv, &gain) in self.core.scratch.iter().zip(gains) {
                if plug_to.has(mv.to.index()) && plug.is_none_or(|(b, _)| gain > b) {
                    plug = Some((gain, mv));
                }
                if !keep_from.is_empty()
                    && !keep_from.has(mv.from.index())
                    && kept.is_none_or(|(b, _)| gain > b)
                {
                    kept = Some((gain, mv));
                }
                keep_best(&mut top, keep, gain, mv);
                if threatening && breaks(critical, mv) && threat.is_none_or(|(b, _)| gain > b) {
                    threat = Some((gain, mv));
                }
            }
            let Some(&(_, best)) = top.first() else {
                continue;
            };
            let best = plug.or(kept).map_or(best, |(_, mv)| mv);
            for &(_, mv) in top.iter().skip(1) {
                self.threat_buf.push(Threat {
                    before: at,
                    order: i,
                    mv,
                });
            }
            if let Some((_, t)) = threat {
                if threats < self.threats && top.iter().all(|&(_, m)| m != t) {
                    threats += 1;
                    self.threat_buf.push(Threat {
                        before: at,
                        order: i,
                        mv: t,
                    });
                }
            }
            self.core.variant.play_unchecked(&mut at, best);
            *pos = at;
        }
        self.top = top;
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

/// A child's value as its parent counts it, less the root unit's adjustment `w` for the move
/// (its waiting cost, less the root progress: [`Brs::with_root_progress`]). A proven win or
/// loss keeps its value: the adjustment is a judgement of positions still in play, and a
/// quicker win must score higher whatever the moves on the way look like (else a move that
/// brings a piece two rows forward and finishes a round later outscores the finishing step).
/// Monotone wherever evaluations lie (far inside [`WIN_THRESHOLD`]), so that alpha-beta
/// bounds carry over through [`unadjusted`].
pub(crate) fn adjusted(score: i32, w: i32) -> i32 {
    if score.abs() >= WIN_THRESHOLD {
        score
    } else {
        score - w
    }
}

/// The inverse of [`adjusted`]: a parent's window bound as the child sees it.
fn unadjusted(bound: i32, w: i32) -> i32 {
    if bound.abs() >= WIN_THRESHOLD {
        bound
    } else {
        bound + w
    }
}

/// Whether a piece of `seat` standing in another unit's goal would not count there (a plug,
/// see [`Brs::with_plugs`]) after `more` further moves of the seat: the seat still plays and
/// has made fewer own moves than the anti-blocking rule's grace period, or the rule is off.
fn plugs_stay(variant: &Variant, pos: &Position, seat: Seat, more: u16) -> bool {
    let options = variant.options();
    if !options.anti_blocking {
        return true;
    }
    pos.is_active(seat) && pos.moves_made(seat).saturating_add(more) < options.anti_blocking_grace
}

/// The buffer of [`model_gains`]: the gains of one seat's moves.
#[derive(Debug, Default)]
pub struct ModelScratch {
    gains: Vec<i32>,
}

/// What `model` scores each of `moves`, moves of the seat to move at `at` (see
/// [`ReplyModel`]), in order: the model predicts the first of the seat's moves with the
/// highest gain. The greedy model's gains come from [`Evaluator::greedy_gains`], which the
/// race evaluation updates by the move.
pub fn model_gains<'s, E: Evaluator>(
    variant: &Variant,
    eval: &E,
    sides: &Sides,
    model: ReplyModel,
    at: &Position,
    moves: &[Move],
    scratch: &'s mut ModelScratch,
) -> &'s [i32] {
    let gains = &mut scratch.gains;
    gains.clear();
    match model {
        ReplyModel::Greedy => eval.greedy_gains(variant, at, moves, gains),
        ReplyModel::Progress => gains.extend(
            moves
                .iter()
                .map(|&mv| ROW * eval.progress(at, mv) - eval.waiting_cost(at, mv)),
        ),
        ReplyModel::Rival => {
            let unit = sides.unit(at.to_move());
            gains.extend(moves.iter().map(|&mv| {
                let mut next = *at;
                variant.play_unchecked(&mut next, mv);
                relative_score(eval, sides, &next, unit) - eval.waiting_cost(at, mv)
            }));
        }
    }
    gains
}

/// Whether `mv` is one of the moves `model` scores best for the seat to move at `pos` (its
/// predicted move or one that ties with it); `moves` and `scratch` are buffers.
#[allow(clippy::too_many_arguments)] // the model's inputs and two buffers
pub fn model_agrees<E: Evaluator>(
    variant: &Variant,
    eval: &E,
    sides: &Sides,
    model: ReplyModel,
    pos: &Position,
    mv: Move,
    moves: &mut Vec<Move>,
    scratch: &mut ModelScratch,
) -> bool {
    variant.generate_moves(pos, moves);
    let gains = model_gains(variant, eval, sides, model, pos, moves, scratch);
    let best = gains.iter().copied().max();
    let own = moves.iter().zip(gains).find(|(m, _)| **m == mv);
    best.is_some() && own.map(|(_, g)| *g) == best
}

/// Keeps in `top` the `keep` highest-scored items seen so far, highest first, the first seen
/// among equals.
#[inline]
fn keep_best<T>(top: &mut Vec<(i32, T)>, keep: usize, score: i32, item: T) {
    let at = top
        .iter()
        .position(|(g, _)| score > *g)
        .unwrap_or(top.len());
    if at < keep {
        top.insert(at, (score, item));
        top.truncate(keep);
    }
}

/// Whether `mv` ends on one of the `critical` cells or takes a piece away from one.
#[inline]
pub(crate) fn breaks(critical: Bitboard, mv: Move) -> bool {
    critical.has(mv.to.index()) || critical.has(mv.from.index())
}

/// The cells the root unit's ladders need at `pos`: for its [`LADDERS`] most forward moves
/// (forward progress, the first in generation order among equals), every cell the piece
/// lands on and every cell it passes over. An opponent's move ending on one of them, or
/// taking a piece away from one, breaks that move. `moves` is a move buffer.
pub(crate) fn ladder_cells<E: Evaluator>(
    variant: &Variant,
    eval: &E,
    sides: &Sides,
    root_unit: u8,
    pos: &Position,
    moves: &mut Vec<Move>,
) -> Bitboard {
    let mut top: Vec<(i32, (Position, Move))> = Vec::with_capacity(LADDERS + 1);
    for s in sides.seats(root_unit) {
        let mut at = *pos;
        if !set_turn(variant, &mut at, sides.seat(s)) {
            continue;
        }
        variant.generate_moves(&at, moves);
        for &mv in moves.iter() {
            let p = eval.progress(&at, mv);
            if p <= 0 {
                continue;
            }
            keep_best(&mut top, LADDERS, p, (at, mv));
        }
    }
    let board = variant.board();
    let mut cells = Bitboard::EMPTY;
    for (_, (at, mv)) in top {
        let Some(path) = variant.witness_path(&at, mv) else {
            continue;
        };
        for hop in path.windows(2) {
            let (a, b) = (hop[0], hop[1]);
            cells.set(b.index());
            // The cells a jump passes over, along the one direction that leads from a to b.
            for dir in 0..board.directions() {
                let mut over = Bitboard::EMPTY;
                let mut c = board.neighbor(a, dir);
                while let Some(cell) = c.filter(|&cell| cell != b) {
                    over.set(cell.index());
                    c = board.neighbor(cell, dir);
                }
                if c == Some(b) {
                    cells |= over;
                    break;
                }
            }
        }
    }
    cells
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
            MultiMode::BestReply | MultiMode::Model => (1..=max_depth.max(1) | 1).step_by(2),
            MultiMode::Paranoid | MultiMode::Solo => (1..=max_depth.max(1)).step_by(1),
        }
    }

    fn search_root(&mut self, pos: &Position, depth: u32) -> i32 {
        self.search(pos, depth, -WIN - 1, WIN + 1, 0, true)
    }
}

impl<E: Evaluator> Strategy for Brs<'_, E> {
    fn choose(&mut self, pos: &Position, history: &[u64], budget: &Budget) -> Option<SearchResult> {
        let unit = self.core.sides.unit(pos.to_move());
        let endgame = self.mode == MultiMode::Model
            && self.endgame_rows.is_some_and(|rows| {
                unit_score(self.core.eval, &self.core.sides, pos, unit) >= -ROW * rows
            });
        if !endgame {
            return deepen(self, pos, history, budget);
        }
        let own_limit = self.own_limit.take();
        self.mode = MultiMode::Solo;
        let result = deepen(self, pos, history, budget);
        self.mode = MultiMode::Model;
        self.own_limit = own_limit;
        result
    }
}

impl<E: Evaluator> ExcludeRootMoves for Brs<'_, E> {
    fn exclude_root_moves(&mut self, moves: &[Move]) {
        self.core.excluded = moves.to_vec();
    }
}

#[cfg(test)]
mod tests {
    // Test code: a failed setup should fail the test loudly.
    #![allow(clippy::unwrap_used)]

    use halma_rules::{BoardKind, GameSetup, RuleOptions, SplitMix64};

    use super::*;
    use crate::eval::RaceEvaluator;

    /// The root unit's most forward moves at `pos`, as [`ladder_cells`] picks them.
    fn ladders(v: &Variant, eval: &RaceEvaluator, pos: &Position) -> Vec<Move> {
        let mut moves = Vec::new();
        v.generate_moves(pos, &mut moves);
        let mut forward: Vec<(i32, Move)> = moves
            .iter()
            .map(|&mv| (eval.progress(pos, mv), mv))
            .filter(|&(p, _)| p > 0)
            .collect();
        forward.sort_by_key(|&(p, _)| std::cmp::Reverse(p));
        forward
            .into_iter()
            .take(LADDERS)
            .map(|(_, mv)| mv)
            .collect()
    }

    /// An opponent's move that touches none of the ladder cells leaves the root unit's
    /// ladders legal, and on the crowded star some moves that touch them break one.
    #[test]
    fn only_moves_on_ladder_cells_break_ladders() {
        let mut broken_on_stars = 0;
        for (board, players, long_jumps) in [
            (BoardKind::Star, 6, false),
            (BoardKind::Star, 3, true),
            (BoardKind::Square16, 4, false),
        ] {
            let options = RuleOptions {
                long_jumps: Some(long_jumps),
                ..RuleOptions::default()
            };
            let v = Variant::new(&GameSetup {
                board,
                players,
                options,
            })
            .unwrap();
            let eval = RaceEvaluator::new(&v);
            let sides = Sides::new(&v);
            let mut rng = SplitMix64::new(7);
            let (mut kept, mut broken) = (0, 0);
            let mut moves = Vec::new();
            for game in 0..6 {
                let mut pos = Position::start(&v, v.seat(0).unwrap());
                for ply in 0..(20 + 10 * game) {
                    v.generate_moves(&pos, &mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    if ply >= 20 {
                        let root = sides.unit(pos.to_move());
                        let cells = ladder_cells(&v, &eval, &sides, root, &pos, &mut moves);
                        let ladders = ladders(&v, &eval, &pos);
                        assert_eq!(cells.is_empty(), ladders.is_empty());
                        for &s in sides.all_seats() {
                            let mut at = pos;
                            if sides.unit(s) == root || !set_turn(&v, &mut at, s) {
                                continue;
                            }
                            v.generate_moves(&at, &mut moves);
                            for &mv in &moves {
                                let mut after = at;
                                v.play_unchecked(&mut after, mv);
                                set_turn(&v, &mut after, pos.to_move());
                                let legal = ladders.iter().all(|&l| v.is_legal(&after, l));
                                if breaks(cells, mv) {
                                    broken += u32::from(!legal);
                                } else {
                                    assert!(legal, "{mv:?} broke a ladder without touching it");
                                    kept += 1;
                                }
                            }
                        }
                    }
                    v.generate_moves(&pos, &mut moves);
                    let mv = moves[rng.below(moves.len() as u64) as usize];
                    v.play_unchecked(&mut pos, mv);
                }
            }
            assert!(kept > 0, "{board:?}: no move kept a ladder");
            if board == BoardKind::Star {
                broken_on_stars += broken;
            }
        }
        assert!(broken_on_stars > 0, "no move broke a ladder");
    }
}

#[cfg(test)]
mod exposure_tests {
    #![allow(clippy::unwrap_used)]

    use halma_rules::{notation, BoardKind, GameSetup, RuleOptions};

    use super::*;
    use crate::eval::RaceEvaluator;

    /// Seat 0 with eight pieces in its goal: an empty front cell next to the middle (next to
    /// a piece of seat 2 with `near`, on it with `plugged`) and the empty tip; its other
    /// pieces in the middle; seat 3 (whose home is seat 0's goal) in its own goal.
    fn position(v: &Variant, near: bool, plugged: bool, third_gap: bool) -> Position {
        let board = v.board();
        let armies = v.armies();
        let corners = armies
            .iter()
            .fold(Bitboard::EMPTY, |b, a| b | a.home | a.goal);
        let cell = |i: u8| board.cell(usize::from(i)).unwrap();
        let goal = armies[0].goal;
        let front = goal
            .iter()
            .find(|&c| {
                board
                    .neighbors(cell(c))
                    .iter()
                    .any(|n| !corners.has(n.index()))
            })
            .unwrap();
        let by = board
            .neighbors(cell(front))
            .into_iter()
            .map(|n| n.index())
            .find(|&n| !corners.has(n))
            .unwrap();
        let tip = goal
            .iter()
            .find(|&c| board.neighbors(cell(c)).len() == 2)
            .unwrap();
        let third = goal.iter().find(|&c| c != front && c != tip).unwrap();
        let middle: Vec<u8> = (0..board.len() as u8)
            .filter(|&c| !corners.has(c) && c != by)
            .filter(|&c| {
                board
                    .neighbors(cell(c))
                    .iter()
                    .all(|n| n.index() != front && n.index() != by)
            })
            .collect();
        let name = |c: u8| board.name(cell(c)).to_owned();
        let list = |cells: Vec<u8>| cells.into_iter().map(name).collect::<Vec<_>>().join(",");
        let mut own: Vec<u8> = goal
            .iter()
            .filter(|&c| c != front && c != tip && (!third_gap || c != third))
            .collect();
        let outside = 10 - own.len();
        own.extend(middle.iter().rev().take(outside));
        let placement: Vec<String> = armies
            .iter()
            .enumerate()
            .map(|(i, a)| {
                list(match i {
                    0 => own.clone(),
                    2 => {
                        let spot = if plugged {
                            front
                        } else if near {
                            by
                        } else {
                            middle[0]
                        };
                        a.home.iter().skip(1).chain([spot]).collect()
                    }
                    3 => a.goal.iter().collect(),
                    _ => a.home.iter().collect(),
                })
            })
            .collect();
        let text = format!("star 6 - {} 1 30,30,30,30,30,30", placement.join("/"));
        notation::parse_position_with(v, &text).unwrap()
    }

    /// The 6-player star with the default options.
    fn star6() -> Variant {
        Variant::new(&GameSetup {
            board: BoardKind::Star,
            players: 6,
            options: RuleOptions::default(),
        })
        .unwrap()
    }

    #[test]
    fn exposure_charges_reachable_holes_and_plugs() {
        let v = star6();
        let eval = RaceEvaluator::new(&v);
        let mut brs = Brs::new(&v, &eval, MultiMode::Model, 10).with_exposure(24, 48, 2);
        brs.root_seat = Some(v.seat(0).unwrap());
        brs.core.root_unit = 0;
        let cost = |b: &Brs<'_, RaceEvaluator>, near, plugged, third| {
            b.exposure_cost(&position(&v, near, plugged, third))
        };
        assert_eq!(cost(&brs, true, false, false), 24);
        assert_eq!(cost(&brs, false, false, false), 0);
        assert_eq!(cost(&brs, false, true, false), 48);
        assert_eq!(cost(&brs, true, false, true), 0);
        let off = Brs::new(&v, &eval, MultiMode::Model, 10);
        assert_eq!(cost(&off, true, false, false), 0);
    }

    #[test]
    fn leader_exposure_charges_only_the_leading_unit() {
        use crate::search::{Budget, Strategy};
        use crate::Ensemble;

        let v = star6();
        let eval = RaceEvaluator::new(&v);
        // Seat 0 to move behind seat 3, whose pieces all stand in its goal (the game has not
        // seen it finish); and the start, where every unit scores the same.
        let trailer = position(&v, true, false, false);
        let leader = Position::start(&v, v.seat(0).unwrap());
        let sides = Sides::new(&v);
        assert!(!crate::eval::scores_best(&eval, &sides, &trailer, 0));
        assert!(crate::eval::scores_best(&eval, &sides, &leader, 0));
        let mut ens = Ensemble::modelling(&v, &eval, 10).with_leader_exposure(24, 48, 2);
        let costs = |e: &Ensemble<'_, RaceEvaluator>| -> Vec<(i32, i32, u32)> {
            e.searches()
                .iter()
                .map(|s| (s.exposure.0, s.exposure.1, s.exposure_gaps))
                .collect()
        };
        ens.choose(&leader, &[], &Budget::depth(1)).unwrap();
        assert_eq!(costs(&ens), vec![(24, 48, 2); 3]);
        ens.choose(&trailer, &[], &Budget::depth(1)).unwrap();
        assert_eq!(costs(&ens), vec![(0, 0, 2); 3]);
        ens.choose(&leader, &[], &Budget::depth(1)).unwrap();
        assert_eq!(costs(&ens), vec![(24, 48, 2); 3]);
        // Without the option the ensemble leaves the searches' costs as they were built.
        let mut plain = Ensemble::modelling(&v, &eval, 10).with_exposure(24, 48, 2);
        plain.choose(&trailer, &[], &Budget::depth(1)).unwrap();
        assert_eq!(costs(&plain), vec![(24, 48, 2); 3]);
    }
}
