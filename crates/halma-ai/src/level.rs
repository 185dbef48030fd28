//! Playing levels and the entry point the service calls: [`suggest`].

use std::time::{Duration, Instant};

use halma_rules::{Move, Position, Variant};

use crate::brs::{Brs, MultiMode};
use crate::ensemble::{Ensemble, ENSEMBLE_UNITS};
use crate::eval::{relative_score, Evaluator, RaceEvaluator};
use crate::greedy::Greedy;
use crate::mistakes::{Erring, Mistakes};
use crate::opponents;
use crate::pvs::{Pvs, PvsOptions};
use crate::search::{Budget, ExcludeRootMoves, GAME_HISTORY};
use crate::sides::Sides;

/// The strongest level.
pub const MAX_LEVEL: u8 = 10;

/// What a request allows the AI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchLimits {
    /// Playing strength from 1 (beginner: plausible but weak moves) to 10 (full strength);
    /// values outside are clamped.
    ///
    /// The levels form a ladder: each searches to a depth of its own, and all but levels 4, 7
    /// and 10 make deliberate mistakes on a share of their moves. A mistake is a legal move whose
    /// one-ply score falls short of the best one-ply score by about a chosen margin (half of
    /// it to one and a half times it, picked at random among such moves): a plausible move
    /// that gives away a tempo the opponent can take. When no move falls short by that much,
    /// the level plays its search's move.
    ///
    /// | level | search | mistakes |
    /// |---|---|---|
    /// | 1 | one ply (greedy) | 60 % of the moves, about 3 rows (48 units) |
    /// | 2 | one ply | 40 %, about 2.5 rows (40) |
    /// | 3 | one ply | 20 %, about 2 rows (32) |
    /// | 4 | one ply: the plain greedy player | none |
    /// | 5 | 3 plies | 26 %, about 2 rows |
    /// | 6 | 3 plies | 13 %, about 2 rows |
    /// | 7 | 3 plies | none |
    /// | 8 | 5 plies | 15 %, about 2 rows |
    /// | 9 | 6 plies | 9 %, about 2 rows |
    /// | 10 | as deep as the time budget allows | none |
    ///
    /// The README's "AI levels" table has each level's score against the one below it on the
    /// 2-player star at 200 ms a move. With three or more sides levels 5 to 9 use Best-Reply
    /// Search, which rounds the depth up to an odd number of layers, and level 10 plans against
    /// the opponents' predicted replies; at level 9 the time budget may stop the search before
    /// its depth.
    pub level: u8,
    /// Wall-clock time the search may take; the answer comes within it plus a small margin.
    pub time_budget: Duration,
    /// Seed of the random choices (the levels' mistakes, the greedy player's tie-breaks). With
    /// the same seed, position and history, the answer is the same whenever the time budget is
    /// not what stopped the search.
    pub seed: u64,
}

impl SearchLimits {
    /// Limits with seed 0.
    #[must_use]
    pub fn new(level: u8, time_budget: Duration) -> SearchLimits {
        SearchLimits {
            level,
            time_budget,
            seed: 0,
        }
    }

    /// The deepest iteration the level runs.
    #[must_use]
    pub fn max_depth(&self) -> u32 {
        self.plan().depth
    }

    /// How the level plays.
    fn plan(&self) -> Plan {
        match self.level.clamp(1, MAX_LEVEL) {
            MAX_LEVEL => Plan {
                depth: 64,
                mistakes: None,
            },
            l => PLANS[usize::from(l - 1)],
        }
    }
}

/// How a level plays: the deepest iteration of its search (1: the one-ply greedy player) and
/// its deliberate mistakes, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Plan {
    depth: u32,
    mistakes: Option<Mistakes>,
}

/// A plan with mistakes: `percent` of the moves are worse than the best by about `margin`.
const fn erring(depth: u32, percent: u32, margin: i32) -> Plan {
    Plan {
        depth,
        mistakes: Some(Mistakes { percent, margin }),
    }
}

/// A plan without mistakes.
const fn exact(depth: u32) -> Plan {
    Plan {
        depth,
        mistakes: None,
    }
}

/// The plans of levels 1 to 9 (level 10 searches as deep as the time allows, without
/// mistakes).
const PLANS: [Plan; 9] = [
    erring(1, 60, 48),
    erring(1, 40, 40),
    erring(1, 20, 32),
    exact(1),
    erring(3, 26, 32),
    erring(3, 13, 32),
    exact(3),
    erring(5, 15, 32),
    erring(6, 9, 32),
];

/// Mixed into the seed of the mistakes, so that they do not follow the greedy player's
/// tie-breaks drawn from the same seed.
const MISTAKE_SEED: u64 = 0x6d69_7374_616b_6573;

impl Default for SearchLimits {
    /// Full strength, 200 ms, seed 0.
    fn default() -> SearchLimits {
        SearchLimits::new(MAX_LEVEL, Duration::from_millis(200))
    }
}

/// The AI's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suggestion {
    /// The move to play.
    pub mv: Move,
    /// Its score for the seat to move, in evaluation units (16 per row of distance; a won game
    /// scores about [`crate::eval::WIN`]).
    pub score: i32,
    /// The depth of the last completed search iteration (1 for the one-ply levels and for a
    /// deliberate mistake).
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// The expected line of play, starting with `mv`.
    pub pv: Vec<Move>,
    /// Time taken.
    pub elapsed: Duration,
}

/// Suggests a move for the seat to move in `pos`.
///
/// `recent_hashes` are the [`Position::hash`]es of the positions the game went through, oldest
/// first (the last 64 are used), so that the AI steers clear of repeating itself. Games of two
/// sides (two players, or two teams of partners) are searched with iterative deepening PVS.
/// With three or more, levels 5 to 9 use Best-Reply Search and level 10 plans its own moves
/// against the replies it predicts for every opponent (each plays the greedy player's move);
/// with six or more units, level 10 scores every move under three such predictions
/// ([`Ensemble`]). There it also finds the opponents' latest moves from `recent_hashes`
/// ([`crate::opponents`]): when they race greedily it sets half of the best rival's score
/// against its own and plays the move with the best mean; against anyone else it plans one
/// own move deeper, plays the move whose worst value is best, and trusts a finish only where
/// it holds with the opponents' pieces standing where they are ([`Ensemble::against`]).
///
/// Returns `None` when the seat to move has no legal move (or no longer plays).
///
/// ```
/// use std::time::Duration;
/// use halma_ai::{suggest, SearchLimits};
/// use halma_rules::{BoardKind, GameSetup, Position, RuleOptions, Variant};
///
/// let variant = Variant::new(&GameSetup { board: BoardKind::Star, players: 2, options: RuleOptions::default() })?;
/// let pos = Position::start(&variant, variant.seat(0).ok_or("no seat")?);
/// let limits = SearchLimits { level: 6, time_budget: Duration::from_secs(5), seed: 1 };
/// let s = suggest(&variant, &pos, &[], &limits).ok_or("no move")?;
/// assert!(variant.is_legal(&pos, s.mv));
/// assert_eq!(s.pv.first(), Some(&s.mv));
/// // A depth-limited level is deterministic.
/// assert_eq!(suggest(&variant, &pos, &[], &limits).map(|t| t.mv), Some(s.mv));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn suggest(
    variant: &Variant,
    pos: &Position,
    recent_hashes: &[u64],
    limits: &SearchLimits,
) -> Option<Suggestion> {
    suggest_with(
        variant,
        &RaceEvaluator::new(variant),
        pos,
        recent_hashes,
        limits,
    )
}

/// [`suggest`] with a given evaluator (for example a [`RaceEvaluator`] with other
/// [`crate::eval::Weights`], as the arena uses to compare them).
#[must_use]
pub fn suggest_with<E: Evaluator>(
    variant: &Variant,
    eval: &E,
    pos: &Position,
    recent_hashes: &[u64],
    limits: &SearchLimits,
) -> Option<Suggestion> {
    suggest_lines_with(variant, eval, pos, recent_hashes, limits, 1).pop()
}

/// The best `lines` moves for the seat to move in `pos` (multi-PV), best first, each with its
/// score, depth and line of play: the first is the move [`suggest`] would choose with the
/// same limits and a budget of `limits.time_budget / lines`, the second the level's choice
/// among the others, and so on. Each line is a search of its own with that share of the budget (the
/// searches share their transposition table), so the whole answer still comes within the
/// budget. Fewer lines come back when the seat has fewer legal moves; none when it has none.
///
/// With one line this is [`suggest`]. The one-ply levels rank the moves by their one-ply
/// scores; a level that errs may err on any line (each line is the level's choice among the
/// moves not listed yet).
///
/// ```
/// use std::time::Duration;
/// use halma_ai::{suggest, suggest_lines, SearchLimits};
/// use halma_rules::{BoardKind, GameSetup, Position, RuleOptions, Variant};
///
/// let variant = Variant::new(&GameSetup { board: BoardKind::Square8, players: 2, options: RuleOptions::default() })?;
/// let pos = Position::start(&variant, variant.seat(0).ok_or("no seat")?);
/// let limits = SearchLimits { level: 6, time_budget: Duration::from_secs(5), seed: 1 };
/// let lines = suggest_lines(&variant, &pos, &[], &limits, 3);
/// assert_eq!(lines.len(), 3);
/// assert_eq!(Some(lines[0].mv), suggest(&variant, &pos, &[], &limits).map(|s| s.mv));
/// assert!(lines[1].mv != lines[0].mv && lines[2].mv != lines[1].mv && lines[2].mv != lines[0].mv);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn suggest_lines(
    variant: &Variant,
    pos: &Position,
    recent_hashes: &[u64],
    limits: &SearchLimits,
    lines: usize,
) -> Vec<Suggestion> {
    suggest_lines_with(
        variant,
        &RaceEvaluator::new(variant),
        pos,
        recent_hashes,
        limits,
        lines,
    )
}

/// [`suggest_lines`] with a given evaluator.
#[must_use]
pub fn suggest_lines_with<E: Evaluator>(
    variant: &Variant,
    eval: &E,
    pos: &Position,
    recent_hashes: &[u64],
    limits: &SearchLimits,
    lines: usize,
) -> Vec<Suggestion> {
    let started = Instant::now();
    if !pos.is_active(pos.to_move()) || lines == 0 {
        return Vec::new();
    }
    let share = limits.time_budget / u32::try_from(lines).unwrap_or(u32::MAX);
    let plan = limits.plan();
    let mut strategy: Box<dyn ExcludeRootMoves + '_> = if plan.depth == 1 {
        Box::new(Greedy::new(variant, eval, 0, limits.seed))
    } else {
        let bits = table_bits(limits.time_budget);
        let units = Sides::new(variant).units();
        if units == 2 {
            let options = PvsOptions {
                table_bits: Some(bits),
                repetitions: true,
                selective: true,
            };
            Box::new(Pvs::new(variant, eval, options))
        } else if limits.level >= MAX_LEVEL && units >= ENSEMBLE_UNITS {
            let opponents = opponents::observe(variant, eval, pos, recent_hashes);
            Box::new(Ensemble::against(variant, eval, bits, opponents))
        } else if limits.level >= MAX_LEVEL {
            Box::new(Brs::modelling(variant, eval, bits))
        } else {
            Box::new(Brs::new(variant, eval, MultiMode::BestReply, bits))
        }
    };
    if let Some(mistakes) = plan.mistakes {
        strategy = Box::new(Erring::new(
            strategy,
            variant,
            eval,
            mistakes,
            limits.seed ^ MISTAKE_SEED,
        ));
    }
    let mut found: Vec<Suggestion> = Vec::with_capacity(lines.min(64));
    let mut excluded: Vec<Move> = Vec::new();
    let repeating = RepeatingMoves::new(variant, eval, pos, recent_hashes);
    while found.len() < lines {
        let line_started = if found.is_empty() {
            started
        } else {
            Instant::now()
        };
        let budget = Budget {
            max_depth: limits.max_depth(),
            deadline: Some(line_started + share),
            time_budget: share,
        };
        // A side that is ahead never goes back to a position of the game while it has another
        // move, whatever a level's search or mistakes would prefer (a repetition can end the game
        // in a draw): those moves are left out, and only offered once nothing else is left.
        let mut avoided = excluded.clone();
        avoided.extend(repeating.moves.iter().copied());
        strategy.exclude_root_moves(&avoided);
        let chosen = match strategy.choose(pos, recent_hashes, &budget) {
            Some(r) => Some(r),
            None if !repeating.moves.is_empty() => {
                strategy.exclude_root_moves(&excluded);
                strategy.choose(pos, recent_hashes, &budget)
            }
            None => None,
        };
        let Some(r) = chosen else {
            break;
        };
        excluded.push(r.mv);
        found.push(Suggestion {
            mv: r.mv,
            score: r.score,
            depth: r.depth,
            nodes: r.nodes,
            pv: r.pv,
            elapsed: line_started.elapsed(),
        });
    }
    found
}

/// The moves of the side to move that go back to a position the game went through, when that
/// side is ahead (by the evaluation) and has a move that does not: the moves it must not play.
struct RepeatingMoves {
    moves: Vec<Move>,
}

impl RepeatingMoves {
    fn new<E: Evaluator>(variant: &Variant, eval: &E, pos: &Position, history: &[u64]) -> Self {
        let recent = &history[history.len().saturating_sub(GAME_HISTORY)..];
        let sides = Sides::new(variant);
        let unit = sides.unit(pos.to_move());
        if recent.is_empty() || relative_score(eval, &sides, pos, unit) <= 0 {
            return RepeatingMoves { moves: Vec::new() };
        }
        let mut all = Vec::new();
        variant.generate_moves(pos, &mut all);
        let (repeating, fresh): (Vec<Move>, Vec<Move>) = all.into_iter().partition(|&mv| {
            let mut next = *pos;
            variant.play_unchecked(&mut next, mv);
            recent.contains(&next.hash())
        });
        RepeatingMoves {
            moves: if fresh.is_empty() {
                Vec::new()
            } else {
                repeating
            },
        }
    }
}

/// A table about as large as the number of nodes the budget allows (at roughly a million
/// nodes per second), between 2^14 and 2^22 entries.
#[must_use]
pub(crate) fn table_bits(budget: Duration) -> u32 {
    let nodes = (budget.as_millis().max(1) as u64).saturating_mul(1_000);
    (64 - nodes.leading_zeros()).clamp(14, 22)
}
