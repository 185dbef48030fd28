//! What every search strategy shares: the [`Strategy`] trait, the budget and the clock, the
//! result, and move ordering by history and forward progress.

use std::time::{Duration, Instant};

use halma_rules::{Move, Position};

use crate::sides::pack;

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
    table: Vec<u32>,
}

impl History {
    pub(crate) fn new() -> History {
        History {
            table: vec![0; 1 << 16],
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
