//! Level 10's search for six units and more: the reply-model search
//! ([`crate::MultiMode::Model`]) under several reply models at once.
//!
//! One reply model trusts one guess at every opponent's move; searching opponents do not play
//! it (the greedy model predicts about two thirds of a paranoid seat's moves), and a plan that
//! needs the guess to come true breaks. [`Ensemble`] scores every root move under each of its
//! searches (one per [`ReplyModel`]) on its own, the other root moves left out, and plays the
//! move whose values have the best mean: a move that does well whichever way the others
//! reply. Every root move is scored to a shallow depth first (two own moves), then the best
//! few to a deeper one while the budget lasts.
//!
//! Measured on the 6-player star at 200 ms a move (arena, 2026-12-04, engine A rotating
//! through the seats): against five paranoid searches first in 60 of 250 games (24 %; 31 of
//! 100 on seeds 11 and 12, 17 of 100 on seeds 21 and 22, 12 of 50 on seed 31), where the
//! single search with the greedy model came first in 50 of 250 on the same openings (24, 16
//! and 10), and in 21 of 100 on seeds 13 and 14 (81 of 350 in all, 23 %); against five
//! greedy players first in 128 of 200 (63 of 100 on seeds 1 and 2, as the single search; 65
//! of 100 on seeds 3 and 4). It takes 37 to 46 ms a move where the single search took 135 to
//! 147 ms. Measured again in the sixteenth session: against the paranoid searches 21 of 100
//! on seeds 11 and 12 (102 of 450 in all, 23 %), against greedy players 55 of 100 on seeds 5
//! and 6 and 57 of 100 on seeds 7 and 8 (240 of 400, 60.0 %), at 64 to 72 ms a move on a
//! slower day. A deeper pass to depth 7 (about 120 ms a move) came first against the
//! paranoid searches in 71 of 250 where depth 5 did in 60 on the same openings, but against
//! five greedy players in 111 of 200 where depth 5 did in 128 (`notes/multi.md`, fifteenth
//! session); on seeds 5 and 6 in 61 of 100 where level 10 did in 55 (sixteenth session).
//!
//! Against opponents seen to race greedily ([`Ensemble::against`] with
//! [`Opponents::Greedy`]) the searches set half of the best rival's score against their own
//! (seventeenth session): against five greedy players first in 274 of 400 games (seeds 1 to 8,
//! 37 to 40 ms a move), where the ensemble on its own race alone came first in 237 of 400 in
//! the same session. Against five paranoid searches the field was judged greedy at 50 of
//! level 10's 3,993 moves, and level 10 came first in 29 of 100 (seeds 11 and 12).
//!
//! Against every other field, and while the opponents are unknown, level 10 searches its
//! deeper pass to [`OTHER_FIELD_DEEP`] and scores every move by its worst value over the
//! models (eighteenth session, arena `ens:adapt=1,deep=7,worst=1`, which differs from it only
//! at the 55 of 7,972 moves where the paranoid field was judged greedy): against five
//! paranoid searches first in 60 of 200 games (34 of 100 on seeds 13 and 14, 26 of 100 on
//! seeds 11 and 12; 117 to 123 ms a move against the seats' 139 to 142), where level 10
//! before it came first in 126 of 500 on the same openings over the earlier sessions (25 %);
//! level 10 itself then came first in 23 of 100 on seeds 15 and 16, and in the nineteenth
//! session 33 of 100 on seeds 17 and 18 and 24 of 100 on seeds 19 and 20 (140 of 500 in
//! all, 28 %).
//! Against five greedy players (seeds 1 to 8) level 10 then came first in 264 of 400.
//!
//! Against those other fields a win level 10 would play is also checked with the opponents
//! standing still ([`Ensemble::with_finish_check`], fortieth session): without it, on seeds
//! 107 to 110 against five paranoid searches, 355 of its 1,079 moves valued as a win were
//! wins only if another seat's piece moved on, and it marked time waiting for that; with it,
//! 4 of 878. Its arena form came first in 63 of 200 games where level 10 without the check
//! came first in 57 on the same openings (first only with it in 43, only without it in 37).
//! Level 10 with it then came first in 123 of 475 on fresh seeds (111 to 120): 186 of 675
//! in all (27.6 %), where level 10 before it stood at 285 of 1,040 (27.4 %). It removes the
//! marking time, not the gap to the 30 % goal.

use std::time::Instant;

use halma_rules::{Move, Position, Variant};

use crate::brs::{Brs, ReplyModel, MODEL_RIVAL_SHARE, MODEL_RIVAL_UNITS};
use crate::eval::{scores_best, unit_score, Evaluator, ROW, WIN_THRESHOLD};
use crate::opponents::Opponents;
use crate::search::{Budget, ExcludeRootMoves, SearchResult, Strategy};
use crate::sides::Sides;

/// From how many units on level 10 plays the ensemble (the six of the 6-player star; with
/// fewer, one search with the greedy model).
pub const ENSEMBLE_UNITS: u8 = MODEL_RIVAL_UNITS;

/// The reply models level 10's ensemble searches under.
pub const ENSEMBLE_MODELS: [ReplyModel; 3] =
    [ReplyModel::Greedy, ReplyModel::Progress, ReplyModel::Rival];

/// The depth every root move is searched to (two own moves with the predicted replies
/// between them).
pub const ENSEMBLE_DEPTH: u32 = 3;

/// The depth the best [`ENSEMBLE_TOP`] root moves of the first pass are searched to next
/// (three own moves) against greedy racers ([`Ensemble::against`]). Depth 7 uses more of a
/// 200 ms budget (about 120 ms a move instead of 40) and came first against five greedy
/// players in 50 of 100 games where depth 5 came first in 65 (module documentation).
pub const ENSEMBLE_DEEP: u32 = 5;

/// The deeper pass's depth against opponents not seen to race greedily (four own moves;
/// [`Ensemble::against`]), where each move is also scored by its worst value over the reply
/// models ([`Ensemble::with_worst`]) rather than the mean.
pub const OTHER_FIELD_DEEP: u32 = 7;

/// How many root moves the deeper pass looks at.
pub const ENSEMBLE_TOP: usize = 8;

/// Level 10's finish pass against opponents not seen to race greedily
/// ([`Ensemble::with_finish_pass`], [`Ensemble::against`]): from a score of `-rows` rows on
/// (about 19 rows of race left on the star), the deeper pass's moves are searched once more
/// to depth 9 (five own moves). Against five paranoid searches at 200 ms a move it ran the
/// race from 40 rows to its finish in 11.7 to 12.1 moves where level 10 without it took 12.2
/// to 12.6 (seeds 89 to 92, thirty-seventh session; about 0.2 moves faster on seeds 93 and
/// 94), but it does not raise first places: over 300 games on the same openings (seeds 89
/// to 94) it came first in 60 that level 10 without it did not win, and lost 60 that level
/// 10 without it won (`notes/multi.md`, thirty-seventh and thirty-eighth sessions).
pub const FINISH_PASS: (i32, u32) = (40, 9);

/// The largest table (`2^bits` entries) of level 10's finish check
/// ([`Ensemble::with_finish_check`]): its searches branch on the root unit's own moves only.
pub const FINISH_CHECK_TABLE_BITS: u32 = 16;

/// The share of the best rival's score (percent) that level 10's ensemble sets against its
/// own when the opponents have been seen to race greedily ([`Opponents::Greedy`]; otherwise
/// [`MODEL_RIVAL_SHARE`], none). A greedy racer does not see a block coming, so a move that
/// costs the leader a tempo pays.
pub const GREEDY_FIELD_RIVAL_SHARE: i32 = 50;

/// No deeper value is started once this share of the budget (percent) is gone.
const DEEP_SHARE: u32 = 60;

/// How an [`Ensemble`] folds a root move's values under its searches into one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Aggregate {
    /// Their mean.
    #[default]
    Mean,
    /// The least of them ([`Ensemble::with_worst`]).
    Worst,
    /// The middle one, the lower of the two middle ones for an even number of searches: a
    /// move is judged by what most models predict, and one model's lone catastrophe does not
    /// decide it ([`Ensemble::with_aggregate`]). In level 10's place of the worst value
    /// against five paranoid searches (arena `ens:deep=7,median=1,plugs=1,adapt=1`, 200 ms a
    /// move, seeds 66 and 67) it waited less near its finish and came first in 22 of 100 games
    /// where level 10 did in 30 (`notes/multi.md`, thirty-third session).
    Median,
}

impl Aggregate {
    /// The value of `values` (one per search, at least one; reordered).
    #[must_use]
    pub fn of(self, values: &mut [i32]) -> i32 {
        match self {
            Aggregate::Mean => {
                let n = i64::try_from(values.len()).unwrap_or(i64::MAX).max(1);
                let sum: i64 = values.iter().map(|&v| i64::from(v)).sum();
                i32::try_from(sum / n).unwrap_or(0)
            }
            Aggregate::Worst => values.iter().copied().min().unwrap_or(0),
            Aggregate::Median => {
                values.sort_unstable();
                values
                    .get(values.len().saturating_sub(1) / 2)
                    .copied()
                    .unwrap_or(0)
            }
        }
    }
}

/// Which searches of an [`Ensemble`] score a root move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum By {
    /// The reply-model searches, their values folded.
    Models,
    /// The finish check alone ([`Ensemble::with_finish_check`]).
    Check,
}

/// A root move's value under every search of an [`Ensemble`].
#[derive(Clone, Debug)]
struct Scored {
    mv: Move,
    /// The mean of the searches' values.
    value: i32,
    depth: u32,
    /// The first search's line of play.
    pv: Vec<Move>,
}

/// Several reply-model searches of one position, their values of each root move averaged
/// (see the module documentation).
#[derive(Debug)]
pub struct Ensemble<'a, E: Evaluator> {
    variant: &'a Variant,
    eval: &'a E,
    searches: Vec<Brs<'a, E>>,
    depth: u32,
    deep: u32,
    top: usize,
    /// How a move's values over the searches are folded into one.
    aggregate: Aggregate,
    /// Threats tried while the unit to move leads ([`Ensemble::with_leader_threats`]).
    leader_threats: usize,
    /// Exposure costs charged while the unit to move leads
    /// ([`Ensemble::with_leader_exposure`]).
    leader_exposure: Option<(i32, i32, u32)>,
    /// Within this many rows of the finish, a third pass to this depth
    /// ([`Ensemble::with_finish_pass`]).
    finish_pass: Option<(i32, u32)>,
    /// The search that checks a win with the opponents standing still
    /// ([`Ensemble::with_finish_check`]).
    finish_check: Option<Brs<'a, E>>,
    /// Root moves left out (see [`ExcludeRootMoves`]).
    excluded: Vec<Move>,
    /// Buffers: the root's moves, and the moves left out while one is scored.
    moves: Vec<Move>,
    others: Vec<Move>,
    /// A root move's values under the searches, folded by [`Ensemble::score`].
    values: Vec<i32>,
    nodes: u64,
}

impl<'a, E: Evaluator> Ensemble<'a, E> {
    /// An ensemble of `searches` (at least one, each a [`crate::MultiMode::Model`] search), with
    /// [`ENSEMBLE_DEPTH`], [`ENSEMBLE_DEEP`] and [`ENSEMBLE_TOP`].
    #[must_use]
    pub fn new(variant: &'a Variant, eval: &'a E, searches: Vec<Brs<'a, E>>) -> Ensemble<'a, E> {
        Ensemble {
            variant,
            eval,
            searches,
            depth: ENSEMBLE_DEPTH,
            deep: ENSEMBLE_DEEP,
            top: ENSEMBLE_TOP,
            aggregate: Aggregate::Mean,
            leader_threats: 0,
            leader_exposure: None,
            finish_pass: None,
            finish_check: None,
            excluded: Vec::new(),
            moves: Vec::new(),
            others: Vec::new(),
            values: Vec::new(),
            nodes: 0,
        }
    }

    /// Level 10's ensemble: [`Ensemble::of_models`] with [`ENSEMBLE_MODELS`].
    #[must_use]
    pub fn modelling(variant: &'a Variant, eval: &'a E, table_bits: u32) -> Ensemble<'a, E> {
        Ensemble::of_models(variant, eval, table_bits, &ENSEMBLE_MODELS)
    }

    /// Level 10's ensemble against `opponents` as they have played lately (see
    /// [`crate::opponents::observe`]). Against greedy racers: [`Ensemble::modelling`] with
    /// [`GREEDY_FIELD_RIVAL_SHARE`] of the best rival's score, the deeper pass at
    /// [`ENSEMBLE_DEEP`], the mean over the models. Against anyone else, and while the
    /// opponents are unknown: the own race alone ([`MODEL_RIVAL_SHARE`]), the deeper pass at
    /// [`OTHER_FIELD_DEEP`], every move scored by its worst value over the models (a plan
    /// that holds whichever way searching opponents reply; module documentation), the
    /// opponents predicted to take the last empty cell of its goals ([`Brs::with_plugs`]),
    /// near the finish a third pass to depth 9 ([`FINISH_PASS`]), and a win checked with the
    /// opponents standing still ([`Ensemble::with_finish_check`]).
    #[must_use]
    pub fn against(
        variant: &'a Variant,
        eval: &'a E,
        table_bits: u32,
        opponents: Opponents,
    ) -> Ensemble<'a, E> {
        let ensemble = Ensemble::modelling(variant, eval, table_bits);
        if opponents == Opponents::Greedy {
            ensemble.with_rival_share(GREEDY_FIELD_RIVAL_SHARE)
        } else {
            ensemble
                .with_finish_check(Some(Brs::modelling(
                    variant,
                    eval,
                    table_bits.min(FINISH_CHECK_TABLE_BITS),
                )))
                .with_rival_share(MODEL_RIVAL_SHARE)
                .with_passes(ENSEMBLE_DEPTH, OTHER_FIELD_DEEP, ENSEMBLE_TOP)
                .with_worst(true)
                .with_plugs(true)
                .with_finish_pass(Some(FINISH_PASS))
        }
    }

    /// [`Brs::modelling`] under each of `models` (the first one's line is reported), each
    /// with a table of `2^table_bits` entries.
    #[must_use]
    pub fn of_models(
        variant: &'a Variant,
        eval: &'a E,
        table_bits: u32,
        models: &[ReplyModel],
    ) -> Ensemble<'a, E> {
        let searches = models
            .iter()
            .map(|&m| Brs::modelling(variant, eval, table_bits).with_reply_model(m))
            .collect();
        Ensemble::new(variant, eval, searches)
    }

    /// Sets the depth of the first pass (every root move), of the second (0: none) and how
    /// many root moves the second looks at. Depths are layers, rounded up to odd numbers as
    /// the model search runs them.
    #[must_use]
    pub fn with_passes(mut self, depth: u32, deep: u32, top: usize) -> Ensemble<'a, E> {
        self.depth = depth.max(1) | 1;
        self.deep = if deep == 0 { 0 } else { deep | 1 };
        self.top = top.max(1);
        self
    }

    /// Scores every root move by its worst value over the searches instead of the mean
    /// (level 10's against opponents not seen to race greedily, with the deeper pass at
    /// [`OTHER_FIELD_DEEP`], see [`Ensemble::against`]; at depth 5 it came first against five
    /// paranoid searches in 26 of 100 games on seeds 13 and 14 where the mean came first in
    /// 21, and against five greedy players in 57 of 100 where the mean came first in 63;
    /// `notes/multi.md`, fifteenth and eighteenth sessions).
    #[must_use]
    pub fn with_worst(self, worst: bool) -> Ensemble<'a, E> {
        self.with_aggregate(if worst {
            Aggregate::Worst
        } else {
            Aggregate::Mean
        })
    }

    /// Sets how every root move's values over the searches are folded into one (the mean by
    /// default; [`Ensemble::with_worst`]). Arena `ens:...,median=1` for [`Aggregate::Median`].
    #[must_use]
    pub fn with_aggregate(mut self, aggregate: Aggregate) -> Ensemble<'a, E> {
        self.aggregate = aggregate;
        self
    }

    /// Sets the share of the best rival's score (percent) that every search sets against the
    /// root unit's own (see [`Brs::with_rival_share`]; level 10's is
    /// [`crate::brs::MODEL_RIVAL_SHARE`]).
    #[must_use]
    pub fn with_rival_share(self, percent: i32) -> Ensemble<'a, E> {
        self.map_searches(|s| s.with_rival_share(percent))
    }

    /// Sets [`Brs::with_plugs`] on every search (level 10: on against fields not judged
    /// greedy, [`Ensemble::against`]; arena `ens:...,plugs=1`).
    #[must_use]
    pub fn with_plugs(self, on: bool) -> Ensemble<'a, E> {
        self.map_searches(|s| s.with_plugs(on))
    }

    /// Sets how many own moves every search's max layers below the root consider
    /// ([`Brs::with_own_limit`]; level 10's is [`crate::brs::MODEL_OWN_LIMIT`]; arena
    /// `ens:...,own=N`). Six own moves with the deeper pass at depth 9 came first against five
    /// paranoid searches in 17 of 100 games where level 10 did in 33 (`notes/multi.md`,
    /// twenty-second session).
    #[must_use]
    pub fn with_own_limit(self, limit: usize) -> Ensemble<'a, E> {
        self.map_searches(|s| s.with_own_limit(Some(limit)))
    }

    /// With `n > 0`, while the unit to move scores best of all units still racing
    /// ([`crate::eval::scores_best`]), the first opponent layer of every search also tries up
    /// to `n` moves that break the unit's ladders ([`Brs::with_threats`]); otherwise none.
    /// Searching opponents that set their score against their best rival's block the leader:
    /// a plan that needs a ladder they can close is worth what is left after the block.
    /// 0 (off) by default, level 10 too: with two threats its options against fields not
    /// judged greedy came first against five paranoid searches in 82 of 300 games where level
    /// 10 did in 79 on the same openings (arena `ens:...,threats=2`, `notes/multi.md`,
    /// twenty-third session).
    #[must_use]
    pub fn with_leader_threats(mut self, n: usize) -> Ensemble<'a, E> {
        self.leader_threats = n;
        self
    }

    /// Sets [`Brs::with_exposure`] on every search (off in level 10; arena
    /// `ens:...,expose=H,foreign=F,gaps=G`).
    #[must_use]
    pub fn with_exposure(self, hole: i32, foreign: i32, gaps: u32) -> Ensemble<'a, E> {
        self.map_searches(|s| s.with_exposure(hole, foreign, gaps))
    }

    /// Sets [`Brs::with_exposure`] on every search for the positions where the unit to move
    /// scores best of all units still racing ([`crate::eval::scores_best`]), and no cost
    /// elsewhere: the field blocks the leader, so a leader's open goal is what it loses,
    /// while a unit behind needs the tempo more. Off in level 10: with
    /// [`crate::brs::EXPOSURE_HOLE`] and [`crate::brs::EXPOSURE_FOREIGN`] against five
    /// paranoid searches on the 6-player star at 200 ms a move it came first in 22 of 100
    /// games where level 10 came first in 37 on the same openings (arena
    /// `ens:...,expose=24,foreign=48,lead=1`, seeds 62 and 63, `notes/multi.md`, thirty-first
    /// session).
    #[must_use]
    pub fn with_leader_exposure(mut self, hole: i32, foreign: i32, gaps: u32) -> Ensemble<'a, E> {
        self.leader_exposure = Some((hole, foreign, gaps));
        self
    }

    /// With `Some((rows, depth))`, while the unit to move scores at least `-rows` rows (its
    /// race nearly run, as [`Brs::with_endgame`] measures it: on the star the goal's own cells
    /// count about 21 rows of that score), the moves of the deeper pass
    /// are searched once more to `depth`, best first, while 60 % of the budget lasts; the
    /// best of them wins when the deeper pass's best move got that far (otherwise the deeper
    /// pass decides, as without this pass). Off by default; level 10 runs [`FINISH_PASS`]
    /// against fields not judged greedy ([`Ensemble::against`]; arena
    /// `ens:...,frows=R,fdeep=D`).
    #[must_use]
    pub fn with_finish_pass(mut self, pass: Option<(i32, u32)>) -> Ensemble<'a, E> {
        self.finish_pass = pass.map(|(rows, depth)| (rows, depth | 1));
        self
    }

    /// With `Some(search)`, a win the ensemble would play is checked with the opponents
    /// standing still: `search` (a [`crate::MultiMode::Model`] search set up as the
    /// ensemble's own; the ensemble turns on [`Brs::with_standing_still`], and settings made
    /// after this call reach it too) scores every root move valued as a win once more at the
    /// same depth, and the move keeps the lesser value. Every reply model predicts that a
    /// piece standing in the way of the last pieces moves on, as its owner's race would have
    /// it; a searching opponent keeps it there while it holds the leader, and the leader,
    /// sure of its finish, marks time. Off by default.
    #[must_use]
    pub fn with_finish_check(mut self, search: Option<Brs<'a, E>>) -> Ensemble<'a, E> {
        self.finish_check = search.map(|s| s.with_standing_still(true));
        self
    }

    /// The searches, as the last [`Strategy::choose`] left them.
    #[cfg(test)]
    pub(crate) fn searches(&self) -> &[Brs<'a, E>] {
        &self.searches
    }

    /// Applies `f` to every search, the finish check's too.
    fn map_searches(mut self, mut f: impl FnMut(Brs<'a, E>) -> Brs<'a, E>) -> Ensemble<'a, E> {
        self.searches = self.searches.into_iter().map(&mut f).collect();
        self.finish_check = self.finish_check.map(f);
        self
    }

    /// The value of root move `mv` at `depth`: the values of the searches `by` names folded by
    /// the ensemble's [`Aggregate`] (the mean by default; one search's value is its own) with
    /// every other root move left out; `None` when the clock stopped a search before that
    /// depth (see [`search_alone`]), or for [`By::Check`] without a check.
    fn score(
        &mut self,
        pos: &Position,
        history: &[u64],
        mv: Move,
        depth: u32,
        budget: &Budget,
        by: By,
    ) -> Option<Scored> {
        self.leave_out_all_but(mv);
        let budget = Budget {
            max_depth: depth,
            ..*budget
        };
        let searches: &mut [Brs<'a, E>] = match by {
            By::Models => &mut self.searches,
            By::Check => std::slice::from_mut(self.finish_check.as_mut()?),
        };
        self.values.clear();
        let mut pv = None;
        for search in searches {
            let r = search_alone(search, &self.others, pos, history, &budget)?;
            self.nodes += r.nodes;
            self.values.push(r.score);
            pv.get_or_insert(r.pv);
        }
        Some(Scored {
            mv,
            value: self.aggregate.of(&mut self.values),
            depth,
            pv: pv?,
        })
    }
}

/// `search`'s result at `pos` with the root moves `others` left out, to `budget`'s depth;
/// `None` when the clock stopped it before that depth. A search that proved a win or a loss
/// stops deepening there (the value holds at every depth), so its value counts as reached.
fn search_alone<E: Evaluator>(
    search: &mut Brs<'_, E>,
    others: &[Move],
    pos: &Position,
    history: &[u64],
    budget: &Budget,
) -> Option<SearchResult> {
    search.exclude_root_moves(others);
    let r = search.choose(pos, history, budget)?;
    (r.depth >= budget.max_depth || r.score.abs() >= WIN_THRESHOLD).then_some(r)
}

impl<E: Evaluator> Strategy for Ensemble<'_, E> {
    /// Every root move not left out is scored at the first depth, the most forward first (so
    /// that a budget too short for all of them has scored those); then the best of them, in
    /// order, at the deeper one until 60 % of the budget is gone, and near the finish, with
    /// [`Ensemble::with_finish_pass`], those once more at its depth. The move with the
    /// best value at the deepest depth reached wins (the first among equals; with
    /// [`Ensemble::with_finish_check`], a win is checked first). The first
    /// search's first iteration always completes, so a move comes back whatever the budget.
    /// Neither pass goes deeper than the budget's depth (the largest odd depth within it).
    fn choose(&mut self, pos: &Position, history: &[u64], budget: &Budget) -> Option<SearchResult> {
        let started = Instant::now();
        if self.leader_threats > 0 || self.leader_exposure.is_some() {
            let sides = Sides::new(self.variant);
            let leads = scores_best(self.eval, &sides, pos, sides.unit(pos.to_move()));
            for search in self.searches.iter_mut().chain(self.finish_check.as_mut()) {
                if self.leader_threats > 0 {
                    search.set_threats(if leads { self.leader_threats } else { 0 });
                }
                if let Some((hole, foreign, gaps)) = self.leader_exposure {
                    let (hole, foreign) = if leads { (hole, foreign) } else { (0, 0) };
                    search.set_exposure(hole, foreign, gaps);
                }
            }
        }
        let cap = (budget.max_depth.max(1) - 1) | 1;
        let (depth, deep) = (self.depth.min(cap), self.deep.min(cap));
        self.nodes = 0;
        self.variant.generate_moves(pos, &mut self.moves);
        let mut candidates: Vec<Move> = self
            .moves
            .iter()
            .copied()
            .filter(|m| !self.excluded.contains(m))
            .collect();
        candidates.sort_by_key(|&m| std::cmp::Reverse(self.eval.progress(pos, m)));
        let first = *candidates.first()?;
        if candidates.len() == 1 && self.excluded.is_empty() {
            let only = self.score(pos, history, first, 1, budget, By::Models)?;
            return Some(self.result(only));
        }
        let mut ranked = Vec::with_capacity(candidates.len());
        for &mv in &candidates {
            match self.score(pos, history, mv, depth, budget, By::Models) {
                Some(s) => ranked.push(s),
                None => break,
            }
        }
        if ranked.is_empty() {
            // Not even one move at the first depth: the most forward one at depth 1.
            let fallback = self.score(pos, history, first, 1, budget, By::Models)?;
            return Some(self.result(fallback));
        }
        // Stable: equal values keep the most forward move first.
        ranked.sort_by_key(|s| std::cmp::Reverse(s.value));
        let spend = budget.time_budget * DEEP_SHARE / 100;
        // The moves scored at the depth that decides, in the order they were scored.
        let mut deep_scored: Vec<Scored> = Vec::new();
        if deep > depth {
            let tops: Vec<Move> = ranked.iter().take(self.top).map(|s| s.mv).collect();
            for mv in tops {
                if budget.deadline.is_some() && started.elapsed() >= spend {
                    break;
                }
                let Some(s) = self.score(pos, history, mv, deep, budget, By::Models) else {
                    break;
                };
                deep_scored.push(s);
            }
        }
        let finish_depth = self.finish_pass.and_then(|(rows, d)| {
            let sides = Sides::new(self.variant);
            let unit = sides.unit(pos.to_move());
            (unit_score(self.eval, &sides, pos, unit) >= -ROW * rows).then_some(d.min(cap))
        });
        if let Some(finish_depth) = finish_depth.filter(|&d| d > deep && deep_scored.len() > 1) {
            // Stable: equal values keep the deeper pass's order.
            deep_scored.sort_by_key(|s| std::cmp::Reverse(s.value));
            let order: Vec<Move> = deep_scored.iter().map(|s| s.mv).collect();
            let mut finish_scored = Vec::new();
            for mv in order {
                if budget.deadline.is_some() && started.elapsed() >= spend {
                    break;
                }
                let Some(s) = self.score(pos, history, mv, finish_depth, budget, By::Models) else {
                    break;
                };
                finish_scored.push(s);
            }
            // The deeper pass's best got this far: from here the third pass decides.
            if !finish_scored.is_empty() {
                deep_scored = finish_scored;
            }
        }
        let deciding = if deep_scored.is_empty() {
            ranked
        } else {
            deep_scored
        };
        let chosen = self.check_finish(pos, history, budget, deciding)?;
        Some(self.result(chosen))
    }
}

impl<E: Evaluator> Ensemble<'_, E> {
    /// The move to play of `deciding` (root moves scored at one depth, at least one): the
    /// best value, the first among equals. With [`Ensemble::with_finish_check`], when that
    /// value is a win, every move of `deciding` scored as a win is searched once more by the
    /// check (the opponents standing still, [`Brs::with_standing_still`]) to the same depth
    /// and keeps the lesser of its two values; a win the clock left unchecked does not count
    /// once another has been checked.
    fn check_finish(
        &mut self,
        pos: &Position,
        history: &[u64],
        budget: &Budget,
        mut deciding: Vec<Scored>,
    ) -> Option<Scored> {
        let first_best = |list: &[Scored], eligible: &dyn Fn(usize) -> bool| {
            (0..list.len())
                .filter(|&i| eligible(i))
                .fold(None::<usize>, |b, i| match b {
                    Some(j) if list[j].value >= list[i].value => Some(j),
                    _ => Some(i),
                })
        };
        let best = first_best(&deciding, &|_| true)?;
        if self.finish_check.is_none() || deciding[best].value < WIN_THRESHOLD {
            return Some(deciding.swap_remove(best));
        }
        let mut checked = vec![false; deciding.len()];
        for (i, s) in deciding.iter_mut().enumerate() {
            if s.value < WIN_THRESHOLD {
                continue;
            }
            let Some(still) = self.score(pos, history, s.mv, s.depth, budget, By::Check) else {
                break;
            };
            s.value = s.value.min(still.value);
            checked[i] = true;
        }
        let any_checked = checked.contains(&true);
        let best = first_best(&deciding, &|i| {
            !any_checked || checked[i] || deciding[i].value < WIN_THRESHOLD
        })?;
        Some(deciding.swap_remove(best))
    }

    /// Puts every root move but `mv` into the moves left out.
    fn leave_out_all_but(&mut self, mv: Move) {
        self.others.clear();
        self.others
            .extend(self.moves.iter().copied().filter(|&m| m != mv));
    }

    fn result(&self, s: Scored) -> SearchResult {
        SearchResult {
            mv: s.mv,
            score: s.value,
            depth: s.depth,
            nodes: self.nodes,
            pv: if s.pv.first() == Some(&s.mv) {
                s.pv
            } else {
                vec![s.mv]
            },
        }
    }
}

impl<E: Evaluator> ExcludeRootMoves for Ensemble<'_, E> {
    fn exclude_root_moves(&mut self, moves: &[Move]) {
        self.excluded = moves.to_vec();
    }
}

#[cfg(test)]
mod tests {
    use super::Aggregate;

    #[test]
    fn aggregates_fold_the_values() {
        assert_eq!(Aggregate::Mean.of(&mut [3, -5, 10]), 2);
        assert_eq!(Aggregate::Worst.of(&mut [3, -5, 10]), -5);
        assert_eq!(Aggregate::Median.of(&mut [10, -5, 3]), 3);
        // The lower of the two middle values.
        assert_eq!(Aggregate::Median.of(&mut [4, 1, 3, 2]), 2);
        for a in [Aggregate::Mean, Aggregate::Worst, Aggregate::Median] {
            assert_eq!(a.of(&mut [7]), 7);
        }
    }
}
