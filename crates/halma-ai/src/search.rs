//! What every search strategy shares: the [`Strategy`] trait, the budget and the clock, the
//! result, and move ordering by history and forward progress; and for the two tree searches
//! ([`crate::Pvs`] and [`crate::Brs`]) their common state (`SearchCore`: table, ordering,
//! principal variation, repetitions) and the one iterative-deepening driver (`deepen`) that
//! runs either of them through the small `Deepening` trait.

use std::iter::StepBy;
use std::ops::RangeInclusive;
use std::time::{Duration, Instant};

use halma_rules::{Move, Position, Variant};

use crate::eval::{Evaluator, WIN_THRESHOLD};
use crate::sides::{pack, Sides};
use crate::tt::{Bound, Table};

/// How many of the game's recent positions a search looks at for repetitions.
pub(crate) const GAME_HISTORY: usize = 64;

/// How far a strategy may search: a depth limit and an optional deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The deepest iteration to run (in plies or layers).
    pub max_depth: u32,
    /// When the search must stop; `None` searches to `max_depth` whatever it takes.
    pub deadline: Option<Instant>,
    /// How long the whole request may take (used to decide whether to start another
    /// iteration); ignored without a deadline.
    pub time_budget: Duration,
}

impl Budget {
    /// A fixed-depth budget without a clock: the result is deterministic.
    #[must_use]
    pub fn depth(max_depth: u32) -> Budget {
        Budget {
            max_depth,
            deadline: None,
            time_budget: Duration::ZERO,
        }
    }

    /// A time budget from now, with a depth limit.
    #[must_use]
    pub fn timed(time_budget: Duration, max_depth: u32) -> Budget {
        Budget {
            max_depth,
            deadline: Some(Instant::now() + time_budget),
            time_budget,
        }
    }
}

/// What a strategy found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play.
    pub mv: Move,
    /// Its score for the mover (evaluation units; wins are near [`crate::eval::WIN`]).
    pub score: i32,
    /// The depth of the last completed iteration.
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// The expected line of play, starting with `mv`.
    pub pv: Vec<Move>,
}

/// A way of choosing a move in a position. `history` holds the hashes of the positions the
/// game went through (most recent last), so that the strategy can steer clear of repetitions.
pub trait Strategy {
    /// The chosen move, or `None` when the seat to move has no legal move.
    fn choose(&mut self, pos: &Position, history: &[u64], budget: &Budget) -> Option<SearchResult>;
}

/// A strategy whose choice can be kept off some root moves, so that the best few moves of a
/// position can be found one after the other (multi-PV): the best move, then the best of the
/// others, and so on. See [`crate::suggest_lines`].
pub trait ExcludeRootMoves: Strategy {
    /// The next [`Strategy::choose`] calls choose among the root moves other than `moves`
    /// (and answer `None` when no other move is left); an empty list lifts the restriction.
    fn exclude_root_moves(&mut self, moves: &[Move]);
}

/// How often (in nodes) the clock is read.
const CHECK_EVERY: u64 = 64;

/// Node counting and the deadline.
#[derive(Clone, Debug)]
pub(crate) struct Clock {
    deadline: Option<Instant>,
    pub(crate) nodes: u64,
    pub(crate) stopped: bool,
    /// While false (the first iteration), the deadline is not enforced so there is always a move.
    pub(crate) armed: bool,
}

impl Clock {
    pub(crate) fn new(deadline: Option<Instant>) -> Clock {
        Clock {
            deadline,
            nodes: 0,
            stopped: false,
            armed: false,
        }
    }

    /// Counts a node; returns whether the search must unwind.
    #[inline]
    pub(crate) fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.armed && self.nodes.is_multiple_of(CHECK_EVERY) {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.stopped = true;
                }
            }
        }
        self.stopped
    }

    /// Whether another iteration is worth starting: each takes several times the previous
    /// one, so stop once 40 % of the budget is gone.
    pub(crate) fn next_iteration_fits(&self, started: Instant, budget: &Budget) -> bool {
        match self.deadline {
            None => true,
            Some(d) => {
                let now = Instant::now();
                now < d && now.duration_since(started) < budget.time_budget.mul_f64(0.4)
            }
        }
    }
}

/// The history heuristic: moves (from, to) that caused cutoffs, weighted by depth squared.
#[derive(Clone, Debug)]
pub(crate) struct History {
    /// Indexed by the packed move (16 bits), so without a bounds check.
    table: Box<[u32; 1 << 16]>,
}

impl History {
    pub(crate) fn new() -> History {
        History {
            table: vec![0; 1 << 16]
                .into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| unreachable!("a slice of 2^16 entries")),
        }
    }

    #[inline]
    pub(crate) fn get(&self, mv: Move) -> u32 {
        self.table[usize::from(pack(mv))]
    }

    #[inline]
    pub(crate) fn reward(&mut self, mv: Move, depth: u32) {
        let e = &mut self.table[usize::from(pack(mv))];
        *e = e.saturating_add(depth * depth);
    }
}

/// Ordering key of a move: the table move first, then forward progress (in rows), then history.
#[inline]
pub(crate) fn order_key(mv: Move, progress: i32, history: &History, tt_move: Option<u16>) -> i64 {
    if tt_move == Some(pack(mv)) {
        return i64::MAX;
    }
    (i64::from(progress) << 24) + i64::from(history.get(mv).min((1 << 23) - 1))
}

/// The principal variation table: `lines[ply]` is the best line found from that ply.
#[derive(Clone, Debug, Default)]
pub(crate) struct PvTable {
    lines: Vec<Vec<Move>>,
}

impl PvTable {
    pub(crate) fn clear(&mut self, ply: usize) {
        if self.lines.len() <= ply + 1 {
            self.lines.resize_with(ply + 2, Vec::new);
        }
        self.lines[ply].clear();
    }

    /// `lines[ply] = mv + lines[ply + 1]`.
    pub(crate) fn update(&mut self, ply: usize, mv: Move) {
        if self.lines.len() <= ply + 1 {
            self.lines.resize_with(ply + 2, Vec::new);
        }
        let (head, tail) = self.lines.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    /// The root line when it starts with `mv`, else just `mv`.
    pub(crate) fn line_of(&self, mv: Move) -> Vec<Move> {
        match self.lines.first() {
            Some(line) if line.first() == Some(&mv) => line.clone(),
            _ => vec![mv],
        }
    }

    /// The clock stopped an iteration: a root move that beat the previous best (searched
    /// first) in the unfinished iteration, `iteration_best` with its score, is still proven
    /// better at the new depth, so it replaces the result. The reported depth stays that of
    /// the last completed iteration.
    pub(crate) fn take_partial(
        &self,
        iteration_best: Option<(Move, i32)>,
        result: &mut SearchResult,
    ) {
        if let Some((mv, score)) = iteration_best {
            result.mv = mv;
            result.score = score;
            result.pv = self.line_of(mv);
        }
    }
}

/// The state both tree searches keep across nodes and iterations: what they search with
/// (rules, evaluation, sides), the transposition table, the history heuristic, the principal
/// variation, the clock, the positions seen and the root's best move.
#[derive(Debug)]
pub(crate) struct SearchCore<'a, E: Evaluator> {
    pub(crate) variant: &'a Variant,
    pub(crate) eval: &'a E,
    pub(crate) sides: Sides,
    pub(crate) table: Option<Table>,
    pub(crate) history: History,
    pub(crate) pv: PvTable,
    pub(crate) clock: Clock,
    /// Keys of earlier positions: the game's, then the search path's.
    pub(crate) seen: Vec<u64>,
    /// The move generator's buffer.
    pub(crate) scratch: Vec<Move>,
    /// The unit to move at the root.
    pub(crate) root_unit: u8,
    /// The best root move so far: searched first by the next iteration.
    pub(crate) root_best: Option<Move>,
    /// The best root move of the running iteration and its score, once one is fully searched.
    pub(crate) iteration_best: Option<(Move, i32)>,
    /// Root moves left out of the search (see [`ExcludeRootMoves`]).
    pub(crate) excluded: Vec<Move>,
}

/// What a table probe says about a node.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Probe {
    /// The move to search first: the root's best so far at the root, else the table's move.
    pub(crate) first: Option<u16>,
    /// The node's value when a table entry decides it.
    pub(crate) cut: Option<i32>,
}

impl<'a, E: Evaluator> SearchCore<'a, E> {
    /// The state of a search over `variant` scored by `eval`, with a table of
    /// `2^table_bits` entries or none.
    pub(crate) fn new(variant: &'a Variant, eval: &'a E, table_bits: Option<u32>) -> Self {
        SearchCore {
            variant,
            eval,
            sides: Sides::new(variant),
            table: table_bits.map(Table::new),
            history: History::new(),
            pv: PvTable::default(),
            clock: Clock::new(None),
            seen: Vec::new(),
            scratch: Vec::with_capacity(256),
            root_unit: 0,
            root_best: None,
            iteration_best: None,
            excluded: Vec::new(),
        }
    }

    /// Leaves the excluded root moves out of a move list of the root.
    #[inline]
    pub(crate) fn drop_excluded<T>(&self, ply: u32, moves: &mut Vec<T>, mv: impl Fn(&T) -> Move) {
        if ply == 0 && !self.excluded.is_empty() {
            moves.retain(|m| !self.excluded.contains(&mv(m)));
        }
    }

    /// Looks a node up in the table. An entry of the node's depth (or, with `deeper_cuts`, of
    /// a deeper search) decides the node when its bound does within `(alpha, beta)`; the root
    /// is never decided by the table.
    #[inline]
    pub(crate) fn probe(
        &self,
        key: u64,
        ply: u32,
        depth: u32,
        (alpha, beta): (i32, i32),
        deeper_cuts: bool,
    ) -> Probe {
        let mut probe = Probe {
            first: None,
            cut: None,
        };
        if let Some(hit) = self.table.as_ref().and_then(|t| t.probe(key, ply)) {
            probe.first = hit.mv;
            let deep_enough = if deeper_cuts {
                u32::from(hit.depth) >= depth
            } else {
                u32::from(hit.depth) == depth
            };
            if ply > 0 && deep_enough {
                let cut = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => hit.score >= beta,
                    Bound::Upper => hit.score <= alpha,
                };
                if cut {
                    probe.cut = Some(hit.score);
                }
            }
        }
        if ply == 0 {
            probe.first = self.root_best.map(pack).or(probe.first);
        }
        probe
    }

    /// Stores a node's value `best`, found with the window `(alpha, beta)`, and its best move.
    #[inline]
    pub(crate) fn store(
        &mut self,
        key: u64,
        ply: u32,
        depth: u32,
        best: i32,
        (alpha, beta): (i32, i32),
        best_move: Option<Move>,
    ) {
        if let Some(t) = self.table.as_mut() {
            t.store(
                key,
                ply,
                depth,
                best,
                Bound::of(best, alpha, beta),
                best_move.map(pack),
            );
        }
    }

    /// `mv` is the best move of the node at `ply` so far, with `score`: it heads the node's
    /// line, and at the root it is the iteration's best.
    #[inline]
    pub(crate) fn improve(&mut self, ply: u32, mv: Move, score: i32) {
        self.pv.update(ply as usize, mv);
        if ply == 0 {
            self.root_best = Some(mv);
            self.iteration_best = Some((mv, score));
        }
    }
}

/// A tree search as the iterative-deepening driver [`deepen`] runs it: its state, the depths
/// of its iterations, and one iteration.
pub(crate) trait Deepening<'a, E: Evaluator + 'a> {
    /// The shared state.
    fn core(&mut self) -> &mut SearchCore<'a, E>;

    /// The key under which a position of the game's history counts as seen.
    fn history_key(hash: u64) -> u64;

    /// The depths of the iterations, up to about `max_depth` (at least one).
    fn iteration_depths(&self, max_depth: u32) -> StepBy<RangeInclusive<u32>>;

    /// One iteration: the root searched to `depth` with a full window, its value.
    fn search_root(&mut self, pos: &Position, depth: u32) -> i32;
}

/// Iterative deepening: runs the iterations of `search` on `pos` (whose game went through the
/// positions `history`, most recent last) until the budget's depth or clock says stop, a win
/// or loss is proven, or there is one move only. `None` when the side to move has no move
/// (other than the excluded root moves).
///
/// The transposition table may keep the root's entry of a search with excluded moves: it
/// never decides the root (the root is never cut by the table), and below the root the same
/// position counts as a repetition before the table is asked, so a table kept from one
/// search to the next stays sound.
pub(crate) fn deepen<'a, E, S>(
    search: &mut S,
    pos: &Position,
    history: &[u64],
    budget: &Budget,
) -> Option<SearchResult>
where
    E: Evaluator + 'a,
    S: Deepening<'a, E>,
{
    let started = Instant::now();
    let core = search.core();
    core.clock = Clock::new(budget.deadline);
    core.seen.clear();
    let recent = &history[history.len().saturating_sub(GAME_HISTORY)..];
    core.seen.extend(recent.iter().map(|&h| S::history_key(h)));
    core.root_best = None;
    core.root_unit = core.sides.unit(pos.to_move());
    let mut moves = Vec::new();
    core.variant.generate_moves(pos, &mut moves);
    let restricted = !core.excluded.is_empty();
    core.drop_excluded(0, &mut moves, |&m| m);
    // With one move only the choice is made; with excluded moves its score still matters.
    let only_move = moves.len() == 1 && !restricted;
    let first = *moves
        .iter()
        .max_by_key(|&&mv| core.eval.progress(pos, mv))?;
    let mut result = SearchResult {
        mv: first,
        score: 0,
        depth: 0,
        nodes: 0,
        pv: vec![first],
    };
    for depth in search.iteration_depths(budget.max_depth) {
        search.core().iteration_best = None;
        let score = search.search_root(pos, depth);
        let core = search.core();
        if core.clock.stopped {
            core.pv.take_partial(core.iteration_best, &mut result);
            break;
        }
        let mv = core.root_best.unwrap_or(first);
        result = SearchResult {
            mv,
            score,
            depth,
            nodes: core.clock.nodes,
            pv: core.pv.line_of(mv),
        };
        // From here on the deadline counts: the first iteration always completes.
        core.clock.armed = true;
        if only_move
            || score.abs() >= WIN_THRESHOLD
            || !core.clock.next_iteration_fits(started, budget)
        {
            break;
        }
    }
    result.nodes = search.core().clock.nodes;
    Some(result)
}
