//! Plays games between two engines and prints wins, draws and losses, the average game length
//! and the average time per move.
//!
//! ```text
//! cargo run --release -p halma-ai --bin arena -- --board star --players 2 --games 100 \
//!     --a level10 --b greedy --ms 50
//! ```
//!
//! Engines: `levelN` (N = 1..10, as the service plays it, with `--ms` per move), `greedy` (the
//! one-ply greedy player), `depthN` (fixed-depth search, no clock), `paranoid` (level 10 with
//! paranoid search instead of Best-Reply Search, three or more sides), `plain` (level 10
//! of two sides without its selective search), `brs:reply=R,own=O,rivals=P` (level 10's
//! Best-Reply Search with other options, three or more sides: at most R replies in a min
//! layer and O own moves in a max layer below the root, 0 for all; P percent of the best
//! rival's score set against the own; `solo=1` lets the opponents pass, `near=1` ranks the
//! replies near A's pieces first), `model=1`, `model=2` or `model=3` plans A's own moves
//! against the opponents' predicted moves instead (by progress, greedy on their own race, or
//! their one-ply choice against their best rival; use `own=` to limit A's moves below the
//! root; `threats=N` tries up to N opponent moves that break A's ladders in the first
//! opponent layer, `next=N` N more replies of the next opponent there; `endgame=R` plans
//! alone, as `solo=1`, once A's score is within R rows; `now=U` adds U evaluation units, 16
//! to a row, per row a root move brings its piece forward; `wait=U` charges U units to a root
//! move that brings no piece forward). Any of these searches takes
//! `depth=D`, the deepest iteration (0: as deep as the time allows).
//! `mcts:c=20,h=18,eps=50,bias=10,finish=20,now=10,wait=1,widen=10,lead=20` is Monte Carlo tree
//! search with max^n backups (three or more sides; the values shown are its defaults, see
//! `halma_ai::MctsOptions`: the exploration constant, the bias, `now` and `widen` and `lead` in
//! tenths of a row, the horizon in plies, the random playout moves per mille, the finishing
//! bonus in rows, `wait=0` or `1`); `switch=R` lets level 10 play once the seat's race
//! distance is at most R rows. `ens:models=213,depth=3,deep=5,top=8` is level 10's ensemble
//! of reply-model searches at six units (`halma_ai::Ensemble`; the values shown are level
//! 10's): the reply models by digit (1 progress, 2 greedy, 3 rival), the depth every root
//! move is searched to, the deeper one (0: none) and how many root moves get it; `worst=1`
//! scores a move by its worst value over the models instead of the mean, `median=1` by the
//! middle one; `rivals=P` sets P % of the best rival's score against the own (level 10: 0, or
//! `halma_ai::ensemble::GREEDY_FIELD_RIVAL_SHARE` against greedy racers); `adapt=1` takes
//! that greedy racers' share when A sees its opponents race greedily (the other options
//! apply whatever A sees; level 10 itself also takes depth 7 and the worst value against
//! opponents not seen to race greedily, `halma_ai::Ensemble::against`); `plugs=1` predicts
//! that opponents take A's last empty goal cell and keep it (`halma_ai::Brs::with_plugs`;
//! level 10 does against opponents not seen to race greedily); `own=N` lets every max layer
//! below the root consider N own moves (`halma_ai::Ensemble::with_own_limit`; level 10: 10);
//! `threats=N` lets the first opponent layer of every search also try up to N moves that
//! break A's ladders while A's unit scores best of all units
//! (`halma_ai::Ensemble::with_leader_threats`); `expose=H,foreign=F,gaps=G` charges A's
//! leaves H units per goal cell an opponent could plug and F per plug while at most G goal
//! cells are open or plugged (`halma_ai::Brs::with_exposure`), and `lead=1` only while A's
//! unit scores best of all units (`halma_ai::Ensemble::with_leader_exposure`); `frows=R,fdeep=D`
//! searches the deeper pass's moves once more to depth D while A's score is at least -R rows
//! (`halma_ai::Ensemble::with_finish_pass`); `fcheck=1` checks a win with the opponents
//! standing still (`halma_ai::Ensemble::with_finish_check`).
//!
//! Engine A takes one seat, rotating through the seats from game to game; engine B plays every
//! other seat. With `--a-team` (and `--teams`), engine A plays every seat of its team. Each game opens with `--opening` random forward plies (seeded) so that games
//! differ; a game reaching `--cap` plies is stopped and reported as capped. A capped game in
//! which A had filled its goal before every other seat counts as A's win, as under the rules
//! (without teams; the cap only stops the race for the later places), and A's place counts
//! wherever A had finished.
//!
//! Options: `--board star|square16|square10|square8`, `--arm 3|4` (star arm size),
//! `--players N`, `--teams`, `--anti-blocking 0|1`, `--grace N` (the anti-blocking rule's
//! grace period; 0 is the rule without it), `--games N`, `--ms M`, `--a-ms M` (A's own
//! time per move, a diagnostic), `--cap PLIES`, `--opening PLIES`, `--seed S`, `--verbose` (every game: A's place and the plies at which
//! the seats finished, A's marked), `--trace PLIES` (every seat's race distance
//! every PLIES plies, A's marked), `--dump-waits R` (the position before each of A's moves
//! that brings no piece forward while A's race is at most R rows from its finish, with how
//! many of its moves would have), `--skip N` (start at the
//! seed's game N, to replay one game), `--record DIR` (every game's moves into
//! `DIR/seedS-gameN.txt`, one line a ply with the position before the move in the service's
//! notation, the depth the search completed and its score, so that any position of a game
//! can be read back and searched again), and `--a-weights` / `--b-weights` with
//! evaluation weights over the defaults, as `name=value,...` (`row`, `straggler_slack`,
//! `straggler`, `jump`, `leave_home`, `walled_in`, `free_goals` 0 or 1, `blockers` H: other
//! players' pieces in a goal that count there, or will within H of their owner's moves,
//! count as filled cells).
//!
//! Besides the results it prints the depth each side's searches completed (median and mean
//! over the moves after the opening) and, with three or more sides, how many of A's and of
//! B's moves each reply model (progress, greedy, rival) scores best, how A's moves saw their
//! opponents (`halma_ai::opponents::observe`: greedy racers, others, or unknown, as level 10
//! sees them), and how the seats finished, for A
//! and for B's seats: the ply of each finish (earliest and median) and how many of the seat's
//! own pieces stood in its goal then (finishes with the goal partly filled by other players'
//! pieces are counted apart).
//! Then each side's pace: over its seats that finished, the mean number of moves made when
//! the race distance first fell to 80 and to 40 rows and when the seat finished, and how many
//! of those moves brought no piece forward. Last, each side's gated finishes: seats whose
//! goals were full (every cell taken, some by other players' pieces that did not count yet
//! under the anti-blocking rule's grace period) before they finished, and how many plies they
//! waited so; how often a seat's last empty goal cell was taken by a piece that did not
//! count there yet (a plug), on A's goal and on B's; and, with three or more sides, how many
//! moves each side made stuck (its race at most 5 rows from the finish and no move bringing a
//! piece forward), in how many games A was stuck so, and A's first places in those games and
//! in the others.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use halma_ai::brs::{model_agrees, ModelScratch};
use halma_ai::ensemble::Aggregate;
use halma_ai::eval::{Evaluator, Weights};
use halma_ai::opponents::{self, Opponents};
use halma_ai::{
    suggest_with, Brs, Budget, Ensemble, Mcts, MctsOptions, MultiMode, Pvs, PvsOptions,
    RaceEvaluator, ReplyModel, SearchLimits, SearchResult, Sides, Strategy,
};
use halma_rules::{
    BoardKind, Game, GameSetup, Move, MoveInput, Outcome, Position, RuleOptions, Seat, SplitMix64,
    Variant,
};

/// The reply models whose predictions the arena counts (see `Tally::predicted`).
const REPLY_MODELS: [ReplyModel; 3] = [ReplyModel::Progress, ReplyModel::Greedy, ReplyModel::Rival];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Engine {
    Level(u8),
    Depth(u32),
    Paranoid,
    /// Level 10 of two sides without its selective search (late-move reductions and deeper
    /// table cuts), to measure what they bring; the same as level 10 for more sides.
    Plain,
    /// Level 10's Best-Reply Search with other options (three or more sides).
    Brs(BrsOptions),
    /// Monte Carlo tree search with max^n backups (three or more sides), and the race
    /// distance (rows) from which on level 10 plays instead (0: never).
    Mcts(MctsOptions, i32),
    /// Level 10's ensemble of reply-model searches (six units and more) with other options
    /// (`ens:`).
    Ensemble(EnsembleOptions),
}

/// Options of the ensemble engine: `ens:models=213,depth=3,deep=5,top=8,worst=0` (level
/// 10's at six units).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct EnsembleOptions {
    /// Bit `i` set: reply model `i + 1` (1 progress, 2 greedy, 3 rival) takes part.
    models: u8,
    /// The depth every root move is searched to under every model.
    depth: u32,
    /// The depth the `top` best root moves of that pass are searched to next (0: none).
    deep: u32,
    top: usize,
    /// 1: a move's worst value over the models instead of the mean.
    worst: bool,
    /// 1: a move's middle value over the models instead of the mean (over `worst`).
    median: bool,
    /// The share of the best rival's score (percent) set against the own.
    rivals: i32,
    /// 1: the greedy racers' share when the opponents are seen to race greedily.
    adapt: bool,
    /// 1: the model layers predict plugs of the own goal (`Brs::with_plugs`).
    plugs: bool,
    /// How many own moves a max layer below the root considers (`Brs::with_own_limit`).
    own: usize,
    /// Threats in the first opponent layer while A's unit leads
    /// (`Ensemble::with_leader_threats`).
    threats: usize,
    /// Exposure costs (`Brs::with_exposure`).
    expose: i32,
    foreign: i32,
    gaps: u32,
    /// 1: the exposure costs only while A's unit scores best
    /// (`Ensemble::with_leader_exposure`).
    lead: bool,
    /// A third pass within `frows` rows of the finish to `fdeep`
    /// (`Ensemble::with_finish_pass`; 0: none).
    frows: i32,
    fdeep: u32,
    /// Wins checked with the opponents standing still (`Ensemble::with_finish_check`).
    fcheck: bool,
}

impl EnsembleOptions {
    fn parse(text: &str) -> Result<EnsembleOptions, String> {
        let mut o = EnsembleOptions {
            models: 0b111,
            depth: halma_ai::ensemble::ENSEMBLE_DEPTH,
            deep: halma_ai::ensemble::ENSEMBLE_DEEP,
            top: halma_ai::ensemble::ENSEMBLE_TOP,
            worst: false,
            median: false,
            rivals: halma_ai::brs::MODEL_RIVAL_SHARE,
            adapt: false,
            plugs: false,
            own: halma_ai::brs::MODEL_OWN_LIMIT,
            threats: 0,
            expose: 0,
            foreign: 0,
            gaps: 2,
            lead: false,
            frows: 0,
            fdeep: 0,
            fcheck: false,
        };
        for (name, value) in name_values::<u32>(text, "ens option")? {
            match name {
                "models" => {
                    o.models = 0;
                    for d in value.to_string().chars() {
                        match d {
                            '1'..='3' => o.models |= 1 << (d as u8 - b'1'),
                            _ => return Err(format!("ens option 'models={value}': digits 1 to 3")),
                        }
                    }
                }
                "depth" => o.depth = value,
                "deep" => o.deep = value,
                "top" => o.top = value as usize,
                "worst" => o.worst = value != 0,
                "median" => o.median = value != 0,
                "rivals" => o.rivals = i32::try_from(value.min(100)).unwrap_or(100),
                "adapt" => o.adapt = value != 0,
                "plugs" => o.plugs = value != 0,
                "threats" => o.threats = value as usize,
                "expose" => o.expose = value as i32,
                "foreign" => o.foreign = value as i32,
                "gaps" => o.gaps = value,
                "lead" => o.lead = value != 0,
                "frows" => o.frows = i32::try_from(value).unwrap_or(i32::MAX),
                "fdeep" => o.fdeep = value,
                "fcheck" => o.fcheck = value != 0,
                "own" if value > 0 => o.own = value as usize,
                "own" => return Err("ens option 'own=0': at least one own move".to_string()),
                _ => return Err(format!("unknown ens option '{name}'")),
            }
        }
        Ok(o)
    }

    /// The chosen models, in the order of level 10's ensemble.
    fn reply_models(self) -> Vec<ReplyModel> {
        let digit = |m: ReplyModel| match m {
            ReplyModel::Progress => 1,
            ReplyModel::Greedy => 2,
            ReplyModel::Rival => 3,
        };
        halma_ai::ensemble::ENSEMBLE_MODELS
            .into_iter()
            .filter(|&m| self.models & (1 << (digit(m) - 1)) != 0)
            .collect()
    }
}

/// The `name=value` items of a comma-separated list, each value parsed as a number; `what`
/// names an item in the errors ("brs option", "weight").
fn name_values<'a, T: std::str::FromStr>(
    text: &'a str,
    what: &str,
) -> Result<Vec<(&'a str, T)>, String> {
    text.split(',')
        .filter(|i| !i.is_empty())
        .map(|item| {
            let (name, value) = item
                .split_once('=')
                .ok_or_else(|| format!("{what} '{item}' is not name=value"))?;
            let value = value
                .parse()
                .map_err(|_| format!("{what} '{item}' has no whole number"))?;
            Ok((name, value))
        })
        .collect()
}

/// Options of a Monte Carlo engine over the defaults (see the module documentation), and the
/// race distance from which on level 10 plays (`switch`, 0: never).
fn parse_mcts(text: &str) -> Result<(MctsOptions, i32), String> {
    let mut o = MctsOptions::default();
    let mut switch = 0;
    for (name, value) in name_values::<u32>(text, "mcts option")? {
        match name {
            "c" => o.exploration = value,
            "h" => o.horizon = value,
            "eps" => o.epsilon = value.min(1000),
            "bias" => o.bias = value,
            "finish" => o.finish = value,
            "now" => o.now = value,
            "wait" => o.waiting = value != 0,
            "widen" => o.widen = value,
            "lead" => o.lead = value,
            "switch" => switch = i32::try_from(value).map_err(|_| "bad switch")?,
            _ => return Err(format!("unknown mcts option '{name}'")),
        }
    }
    Ok((o, switch))
}

/// Options of a Best-Reply Search engine: `brs:reply=6,own=12,rivals=100` (0 limits: all).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct BrsOptions {
    reply: Option<usize>,
    own: Option<usize>,
    rivals: i32,
    /// The opponents pass: every layer is A's own (`solo=1`).
    solo: bool,
    /// Replies near A's pieces first (`near=1`).
    near: bool,
    /// Opponent modelling (`model=1`: by progress, `model=2`: greedy on the own race).
    model: Option<ReplyModel>,
    /// Threats tried in the first opponent layer of opponent modelling (`threats=N`).
    threats: usize,
    /// Other replies of the next opponent tried there (`next=N`).
    next: usize,
    /// Opponent modelling plans alone once A's score is within this many rows (`endgame=R`).
    endgame: Option<i32>,
    /// The deepest iteration (`depth=D`; 0: as deep as the time allows).
    depth: Option<u32>,
    /// Units a root move earns per row of progress now (`now=U`).
    now: i32,
    /// Units a waiting root move costs (`wait=U`).
    wait: i32,
}

impl BrsOptions {
    fn parse(text: &str) -> Result<BrsOptions, String> {
        let mut o = BrsOptions {
            reply: Some(halma_ai::brs::DEFAULT_REPLY_LIMIT),
            own: None,
            rivals: halma_ai::eval::FULL_RIVAL,
            solo: false,
            near: false,
            model: None,
            threats: 0,
            next: 0,
            endgame: None,
            depth: None,
            now: 0,
            wait: 0,
        };
        for (name, value) in name_values::<usize>(text, "brs option")? {
            let limit = (value > 0).then_some(value);
            match name {
                "reply" => o.reply = limit,
                "own" => o.own = limit,
                "solo" => o.solo = value != 0,
                "near" => o.near = value != 0,
                "model" => {
                    o.model = match value {
                        0 => None,
                        1 => Some(ReplyModel::Progress),
                        2 => Some(ReplyModel::Greedy),
                        3 => Some(ReplyModel::Rival),
                        _ => return Err(format!("brs option 'model={value}': model is 0 to 3")),
                    }
                }
                "threats" => o.threats = value,
                "next" => o.next = value,
                "endgame" => o.endgame = limit.map(|rows| rows as i32),
                "depth" => o.depth = limit.map(|d| d as u32),
                "now" => o.now = i32::try_from(value).map_err(|_| "bad now")?,
                "wait" => o.wait = i32::try_from(value).map_err(|_| "bad wait")?,
                "rivals" => o.rivals = i32::try_from(value).map_err(|_| "bad rivals")?,
                _ => return Err(format!("unknown brs option '{name}'")),
            }
        }
        Ok(o)
    }
}

impl Engine {
    fn parse(text: &str) -> Result<Engine, String> {
        if text == "greedy" {
            return Ok(Engine::Level(4));
        }
        if text == "paranoid" {
            return Ok(Engine::Paranoid);
        }
        if text == "plain" {
            return Ok(Engine::Plain);
        }
        if let Some(o) = text.strip_prefix("mcts:") {
            return parse_mcts(o).map(|(o, switch)| Engine::Mcts(o, switch));
        }
        if let Some(o) = text.strip_prefix("brs:") {
            return BrsOptions::parse(o).map(Engine::Brs);
        }
        if let Some(o) = text.strip_prefix("ens:") {
            return EnsembleOptions::parse(o).map(Engine::Ensemble);
        }
        if let Some(n) = text.strip_prefix("level") {
            let n: u8 = n.parse().map_err(|_| format!("bad level in '{text}'"))?;
            return (1..=10)
                .contains(&n)
                .then_some(Engine::Level(n))
                .ok_or_else(|| format!("level {n} is not 1..10"));
        }
        if let Some(n) = text.strip_prefix("depth") {
            let n: u32 = n.parse().map_err(|_| format!("bad depth in '{text}'"))?;
            return Ok(Engine::Depth(n.max(1)));
        }
        Err(format!(
            "unknown engine '{text}' (levelN, greedy, depthN, paranoid, plain, brs:..., mcts:...)"
        ))
    }

    fn choose(
        self,
        variant: &Variant,
        eval: &RaceEvaluator,
        pos: &Position,
        history: &[u64],
        ms: u64,
        seed: u64,
    ) -> Option<SearchResult> {
        match self {
            Engine::Level(level) => {
                let limits = SearchLimits {
                    level,
                    time_budget: Duration::from_millis(ms),
                    seed,
                };
                suggest_with(variant, eval, pos, history, &limits).map(|s| SearchResult {
                    mv: s.mv,
                    score: s.score,
                    depth: s.depth,
                    nodes: s.nodes,
                    pv: s.pv,
                })
            }
            Engine::Depth(d) => {
                let budget = Budget::depth(d);
                if Sides::new(variant).units() == 2 {
                    Pvs::new(variant, eval, PvsOptions::default()).choose(pos, history, &budget)
                } else {
                    Brs::new(variant, eval, MultiMode::BestReply, 18).choose(pos, history, &budget)
                }
            }
            Engine::Plain if Sides::new(variant).units() == 2 => {
                let budget = Budget::timed(Duration::from_millis(ms), 64);
                let options = PvsOptions {
                    table_bits: Some(18),
                    repetitions: true,
                    selective: false,
                };
                Pvs::new(variant, eval, options).choose(pos, history, &budget)
            }
            Engine::Plain => Engine::Level(10).choose(variant, eval, pos, history, ms, seed),
            Engine::Brs(o) => {
                let budget = Budget::timed(Duration::from_millis(ms), o.depth.unwrap_or(64));
                let bits = (64 - (ms.max(1) * 1_000).leading_zeros()).clamp(14, 22);
                let mode = if o.solo {
                    MultiMode::Solo
                } else if o.model.is_some() {
                    MultiMode::Model
                } else {
                    MultiMode::BestReply
                };
                Brs::new(variant, eval, mode, bits)
                    .with_reply_limit(o.reply)
                    .with_own_limit(o.own)
                    .with_rival_share(o.rivals)
                    .with_near_replies(o.near)
                    .with_reply_model(o.model.unwrap_or_default())
                    .with_threats(o.threats)
                    .with_next_replies(o.next)
                    .with_endgame(o.endgame)
                    .with_root_progress(o.now)
                    .with_root_waiting(o.wait)
                    .choose(pos, history, &budget)
            }
            Engine::Mcts(_, switch)
                if seat_distance(variant, eval, pos, pos.to_move()) <= switch =>
            {
                Engine::Level(10).choose(variant, eval, pos, history, ms, seed)
            }
            Engine::Mcts(o, _) => {
                let budget = Budget::timed(Duration::from_millis(ms), 64);
                Mcts::new(variant, eval, o, seed).choose(pos, history, &budget)
            }
            Engine::Ensemble(o) => {
                let bits = (64 - (ms.max(1) * 1_000).leading_zeros()).clamp(14, 22);
                let ensemble = Ensemble::of_models(variant, eval, bits, &o.reply_models())
                    .with_finish_check(o.fcheck.then(|| Brs::modelling(variant, eval, bits)))
                    .with_passes(o.depth, o.deep, o.top)
                    .with_worst(o.worst)
                    .with_plugs(o.plugs)
                    .with_own_limit(o.own)
                    .with_leader_threats(o.threats)
                    .with_finish_pass((o.frows > 0 && o.fdeep > 0).then_some((o.frows, o.fdeep)));
                let ensemble = if o.median {
                    ensemble.with_aggregate(Aggregate::Median)
                } else {
                    ensemble
                };
                let ensemble = if o.lead {
                    ensemble.with_leader_exposure(o.expose, o.foreign, o.gaps)
                } else {
                    ensemble.with_exposure(o.expose, o.foreign, o.gaps)
                };
                ensemble
                    .with_rival_share(
                        if o.adapt
                            && opponents::observe(variant, eval, pos, history) == Opponents::Greedy
                        {
                            halma_ai::ensemble::GREEDY_FIELD_RIVAL_SHARE
                        } else {
                            o.rivals
                        },
                    )
                    .choose(pos, history, &Budget::timed(Duration::from_millis(ms), 64))
            }
            Engine::Paranoid => {
                let budget = Budget::timed(Duration::from_millis(ms), 64);
                Brs::new(variant, eval, MultiMode::Paranoid, 16).choose(pos, history, &budget)
            }
        }
    }
}

struct Args {
    board: BoardKind,
    arm: Option<u8>,
    players: u8,
    teams: bool,
    a_team: bool,
    anti_blocking: Option<bool>,
    grace: Option<u16>,
    games: u32,
    a: Engine,
    b: Engine,
    ms: u64,
    /// Engine A's time per move where it differs from B's (`--a-ms`, a diagnostic of what
    /// more time would buy; the goals compare at equal time).
    a_ms: Option<u64>,
    cap: usize,
    opening: usize,
    seed: u64,
    verbose: bool,
    /// Print every seat's race distance every this many plies (0: never).
    trace: usize,
    /// Print the position before each of A's moves that brings no piece forward while A's
    /// race is at most this many rows from its finish (0: none).
    dump_waits: i32,
    /// Games of the seed's series to skip, so that one game can be replayed (`--skip N`).
    skip: u32,
    a_weights: Weights,
    b_weights: Weights,
    /// Write every game's moves, with the position before each, into this directory
    /// (`--record DIR`, see `record_line`).
    record: Option<PathBuf>,
}

/// Evaluation weights from `name=value,...` over the defaults.
fn parse_weights(text: &str) -> Result<Weights, String> {
    let mut w = Weights::default();
    for (name, value) in name_values::<i32>(text, "weight")? {
        match name {
            "row" => w.row = value,
            "straggler_slack" => w.straggler_slack = value,
            "straggler" => w.straggler = value,
            "jump" => w.jump = value,
            "leave_home" => w.leave_home = value,
            "walled_in" => w.walled_in = value,
            "free_goals" => w.free_goals = value != 0,
            "blockers" => {
                w.blockers = Some(u16::try_from(value).map_err(|_| {
                    format!("blockers takes a number of moves from 0 to 65535, not {value}")
                })?);
            }
            _ => return Err(format!("unknown weight '{name}'")),
        }
    }
    Ok(w)
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        board: BoardKind::Star,
        arm: None,
        players: 2,
        teams: false,
        a_team: false,
        anti_blocking: None,
        grace: None,
        games: 10,
        a: Engine::Level(10),
        b: Engine::Level(4),
        ms: 50,
        a_ms: None,
        cap: 0,
        opening: 2,
        seed: 1,
        verbose: false,
        trace: 0,
        dump_waits: 0,
        skip: 0,
        a_weights: Weights::default(),
        b_weights: Weights::default(),
        record: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--board" => {
                let v = value()?;
                a.board = BoardKind::ALL
                    .into_iter()
                    .find(|b| b.name() == v)
                    .ok_or_else(|| format!("unknown board '{v}'"))?;
            }
            "--arm" => a.arm = Some(value()?.parse().map_err(|_| "bad --arm")?),
            "--players" => a.players = value()?.parse().map_err(|_| "bad --players")?,
            "--teams" => a.teams = true,
            "--a-team" => a.a_team = true,
            "--anti-blocking" => a.anti_blocking = Some(value()? == "1"),
            "--grace" => a.grace = Some(value()?.parse().map_err(|_| "bad --grace")?),
            "--games" => a.games = value()?.parse().map_err(|_| "bad --games")?,
            "--a" => a.a = Engine::parse(&value()?)?,
            "--b" => a.b = Engine::parse(&value()?)?,
            "--ms" => a.ms = value()?.parse().map_err(|_| "bad --ms")?,
            "--a-ms" => a.a_ms = Some(value()?.parse().map_err(|_| "bad --a-ms")?),
            "--cap" => a.cap = value()?.parse().map_err(|_| "bad --cap")?,
            "--opening" => a.opening = value()?.parse().map_err(|_| "bad --opening")?,
            "--seed" => a.seed = value()?.parse().map_err(|_| "bad --seed")?,
            "--verbose" => a.verbose = true,
            "--skip" => a.skip = value()?.parse().map_err(|_| "bad --skip")?,
            "--trace" => a.trace = value()?.parse().map_err(|_| "bad --trace")?,
            "--dump-waits" => {
                a.dump_waits = value()?.parse().map_err(|_| "bad --dump-waits")?;
            }
            "--a-weights" => a.a_weights = parse_weights(&value()?)?,
            "--b-weights" => a.b_weights = parse_weights(&value()?)?,
            "--record" => {
                let dir = PathBuf::from(value()?);
                std::fs::create_dir_all(&dir)
                    .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
                a.record = Some(dir);
            }
            _ => return Err(format!("unknown argument '{flag}'")),
        }
    }
    Ok(a)
}

/// How one game went for engine A.
#[derive(Default)]
struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
    capped: u32,
    /// Capped games in which A had finished first: a first place under the rules (the first
    /// seat to fill its goal wins; the cap only stops the race for the later places).
    capped_firsts: u32,
    plies: u64,
    place_sum: u64,
    placed: u32,
    first_mover_wins: u32,
    time: [Duration; 2],
    max_time: [Duration; 2],
    moves: [u64; 2],
    /// Per side (A, B): every finish as (ply, own pieces in the goals, goal cells).
    finishes: [Vec<(usize, u32, u32)>; 2],
    /// Per side, per reply model (progress, greedy, rival): how many of its moves the model
    /// scores best (its prediction or a move as good; games of three or more units).
    predicted: [[u64; 3]; 2],
    /// How A's moves saw their opponents ([`opponents::observe`]: greedy, other, unknown;
    /// games of three or more units).
    observed: [u64; 3],
    /// Per side: the pace of every seat that finished (see [`Pace`]).
    paces: [Vec<Pace>; 2],
    /// Per side: how often the last empty cell of a seat's goals was taken by a piece that
    /// does not count there yet (a plug, see `halma_ai::Brs::with_plugs`).
    plugged: [u32; 2],
    /// Per side: moves made with the race at most [`STUCK_ROWS`] rows from the finish and no
    /// move that brings a piece forward.
    stuck: [u64; 2],
    /// Games in which A made such a move, and A's first places in them.
    stuck_games: u32,
    stuck_firsts: u32,
    /// Per side: the depth each move's search completed (after the opening).
    depths: [Vec<u32>; 2],
}

/// How near the finish (rows of race distance above the goal's own) a seat with no forward
/// move counts as stuck (see [`Tally::stuck`]).
const STUCK_ROWS: i32 = 5;

/// The race distances (sum of the pieces' potentials, in rows) at which [`Pace`] notes how
/// many moves a seat has made: a seat's race starts near 130 rows on the star and ends at
/// its goal's own distance.
const PACE_MARKS: [i32; 2] = [80, 40];

/// How one seat spent its moves: how many it had made when its race distance first fell to
/// each of [`PACE_MARKS`] and when it finished, and how many of them brought no piece
/// forward (waiting or backward moves).
#[derive(Clone, Copy, Debug, Default)]
struct Pace {
    marks: [Option<u32>; PACE_MARKS.len()],
    moves: u32,
    /// Per stretch of the race (before the first mark, between marks, after the last).
    waiting: [u32; PACE_MARKS.len() + 1],
    /// The ply since which the seat's goals have been full while it still plays: a foreign
    /// piece in them does not count yet (the anti-blocking rule's grace period).
    full_since: Option<usize>,
    /// When the seat finished with its goals full since an earlier ply: how many plies it
    /// waited so.
    gated: Option<usize>,
}

impl Pace {
    /// Notes one move of the seat and the race distance after it.
    fn note(&mut self, progress: i32, distance: i32) {
        self.moves += 1;
        let stretch = self.marks.iter().filter(|m| m.is_some()).count();
        self.waiting[stretch] += u32::from(progress <= 0);
        for (mark, &at) in self.marks.iter_mut().zip(&PACE_MARKS) {
            if mark.is_none() && distance <= at {
                *mark = Some(self.moves);
            }
        }
    }
}

/// Whether every goal cell of `seat`'s armies is taken, each goal holding at least one of
/// the army's own pieces: all the anti-blocking rule asks but the grace period.
fn goals_full(variant: &Variant, pos: &Position, seat: Seat) -> bool {
    variant.armies_of(seat).all(|a| {
        let goal = variant.armies()[a].goal;
        (goal & !pos.occupied()).is_empty() && !(goal & pos.army(a)).is_empty()
    })
}

/// The empty cells of `seat`'s goals, and the cells there held by pieces of other seats that
/// do not count yet (the anti-blocking rule's grace period; every foreign piece without the
/// rule).
fn goal_gaps(variant: &Variant, pos: &Position, seat: Seat) -> (u32, u32) {
    let mut goal = halma_rules::Bitboard::EMPTY;
    for a in variant.armies_of(seat) {
        goal |= variant.armies()[a].goal;
    }
    let holes = (goal & !pos.occupied()).count();
    let plugs = variant
        .seats()
        .filter(|&o| {
            o != seat && (!variant.options().anti_blocking || !variant.is_blocker_owner(pos, o))
        })
        .flat_map(|o| variant.armies_of(o))
        .map(|a| (goal & pos.army(a)).count())
        .sum();
    (holes, plugs)
}

/// The race distance of `seat` once its own pieces fill its goals.
fn finished_distance(variant: &Variant, eval: &RaceEvaluator, seat: Seat) -> i32 {
    variant
        .armies_of(seat)
        .map(|a| {
            variant.armies()[a]
                .goal
                .iter()
                .map(|c| eval.potential(a, c))
                .sum::<i32>()
        })
        .sum()
}

/// Whether `seat`, to move at `pos`, is stuck (see [`Tally::stuck`]).
fn is_stuck(
    variant: &Variant,
    eval: &RaceEvaluator,
    pos: &Position,
    seat: Seat,
    moves: &mut Vec<Move>,
) -> bool {
    if seat_distance(variant, eval, pos, seat) > finished_distance(variant, eval, seat) + STUCK_ROWS
    {
        return false;
    }
    variant.generate_moves(pos, moves);
    moves.iter().all(|&mv| eval.progress(pos, mv) <= 0)
}

/// One line on the finishes of one side that waited with full goals (see [`Pace::gated`]).
fn gate_line(name: &str, paces: &[Pace]) -> String {
    let waits: Vec<usize> = paces.iter().filter_map(|p| p.gated).collect();
    let mean = waits.iter().sum::<usize>() as f64 / waits.len().max(1) as f64;
    format!(
        "{name}: {} of {} finishes waited with full goals, {mean:.1} plies on average (most {})",
        waits.len(),
        paces.len(),
        waits.iter().max().unwrap_or(&0)
    )
}

/// A seat's race distance: the sum of its pieces' potentials, in rows.
fn seat_distance(variant: &Variant, eval: &RaceEvaluator, pos: &Position, seat: Seat) -> i32 {
    variant
        .armies_of(seat)
        .map(|a| eval.army_distance(pos, a))
        .sum()
}

/// One line on the paces of one side's finished seats: the mean moves to each mark and to
/// the finish, and the mean waiting moves in each stretch between them.
fn pace_line(name: &str, paces: &[Pace]) -> String {
    if paces.is_empty() {
        return format!("{name}: no finishes");
    }
    let n = paces.len() as f64;
    let mean = |f: &dyn Fn(&Pace) -> u32| f64::from(paces.iter().map(f).sum::<u32>()) / n;
    let marks: Vec<String> = PACE_MARKS
        .iter()
        .enumerate()
        .map(|(i, at)| {
            format!(
                "to {at} rows {:.2}",
                mean(&|p| p.marks[i].unwrap_or(p.moves))
            )
        })
        .collect();
    let waiting: Vec<String> = (0..=PACE_MARKS.len())
        .map(|i| format!("{:.2}", mean(&|p| p.waiting[i])))
        .collect();
    format!(
        "{name}: moves {}, to the finish {:.2} (waiting {:.2}: {} by stretch), over {} finishes",
        marks.join(", "),
        mean(&|p| p.moves),
        mean(&|p| p.waiting.iter().sum()),
        waiting.join(" + "),
        paces.len()
    )
}

/// Seats that finished with the last move, as (seat, own pieces in its goals, goal cells).
fn new_finishes(variant: &Variant, pos: &Position, seen: &mut u8) -> Vec<(Seat, u32, u32)> {
    let mut out = Vec::new();
    for seat in variant.seats() {
        let bit = 1u8 << seat.index();
        if *seen & bit != 0 || !pos.is_finished(seat) {
            continue;
        }
        *seen |= bit;
        let (mut own, mut cells) = (0, 0);
        for a in variant.armies_of(seat) {
            let goal = variant.armies()[a].goal;
            own += (pos.army(a) & goal).count();
            cells += goal.count();
        }
        out.push((seat, own, cells));
    }
    out
}

/// One line on the finishes of one side.
fn finish_line(name: &str, finishes: &[(usize, u32, u32)]) -> String {
    if finishes.is_empty() {
        return format!("{name}: no finishes");
    }
    let mut plies: Vec<usize> = finishes.iter().map(|f| f.0).collect();
    let earliest = plies.iter().copied().min().unwrap_or(0);
    let short = finishes.iter().filter(|f| f.1 < f.2).count();
    let own: u32 = finishes.iter().map(|f| f.1).sum();
    let fewest = finishes.iter().map(|f| f.1).min().unwrap_or(0);
    format!(
        "{name}: {} finishes, ply earliest {} median {} | with other players' pieces in the goal {} ({:.1}%) | own pieces in goal mean {:.2} fewest {fewest}",
        finishes.len(),
        earliest,
        median(&mut plies),
        short,
        100.0 * short as f64 / finishes.len() as f64,
        f64::from(own) / finishes.len() as f64,
    )
}

/// A's place in a capped game from the plies at which seats finished (`finishes`, marked
/// `true` for A's seat), and whether another seat shares it: seats that finished with the same
/// move share a place, and a shared first place is no win (as [`a_result`] reads a full
/// outcome). `(None, false)` while A has not finished.
fn place_when_capped(finishes: &[(usize, bool)]) -> (Option<u8>, bool) {
    let Some(&(at, _)) = finishes.iter().find(|f| f.1) else {
        return (None, false);
    };
    let before = finishes.iter().filter(|f| f.0 < at).count();
    let with = finishes.iter().filter(|f| f.0 == at).count();
    (Some(u8::try_from(before + 1).unwrap_or(u8::MAX)), with > 1)
}

fn a_result(outcome: &Outcome, a_seat: Seat) -> (i32, Option<u8>) {
    let Some(place) = outcome.ranking.iter().find(|p| p.seats.contains(&a_seat)) else {
        return (0, None);
    };
    let shared = outcome
        .ranking
        .iter()
        .filter(|p| p.place == place.place)
        .count()
        > 1;
    let result = match (place.place, outcome.winner()) {
        (Some(1), Some(w)) if w.contains(&a_seat) && !shared => 1,
        _ if outcome.winner().is_none() && place.place == Some(1) => 0,
        _ => -1,
    };
    (result, place.place)
}

fn run() -> Result<(), String> {
    let args = parse_args()?;
    let mut options = RuleOptions {
        arm_size: args.arm,
        anti_blocking: args.anti_blocking,
        anti_blocking_grace: args.grace,
        ..RuleOptions::default()
    };
    if args.teams {
        options.teams = Some(true);
    }
    let variant = Arc::new(
        Variant::new(&GameSetup {
            board: args.board,
            players: args.players,
            options,
        })
        .map_err(|e| e.to_string())?,
    );
    let cap = if args.cap > 0 {
        args.cap
    } else {
        600 * usize::from(args.players)
    };
    let eval = RaceEvaluator::new(&variant);
    let eval_a = RaceEvaluator::with_weights(&variant, args.a_weights);
    let eval_b = RaceEvaluator::with_weights(&variant, args.b_weights);
    let players = usize::from(args.players);
    let sides = Sides::new(&variant);
    let mut tally = Tally::default();
    let started = Instant::now();
    for g in args.skip..args.skip + args.games {
        let a_seat = variant.seat(g as usize % players).ok_or("seat")?;
        let first = variant.seat(0).ok_or("seat")?;
        let mut game = Game::new(Arc::clone(&variant), first);
        let mut rng = SplitMix64::new(args.seed.wrapping_mul(1_000_003).wrapping_add(u64::from(g)));
        let mut history = vec![game.position().hash()];
        let mut finished_seen = 0u8;
        let mut a_stuck = false;
        // The plies at which seats finished, in order, and whether the seat was engine A's.
        let mut finish_plies: Vec<(usize, bool)> = Vec::new();
        let mut moves = Vec::new();
        let mut stuck_moves = Vec::new();
        let mut gains = ModelScratch::default();
        let mut paces = vec![Pace::default(); players];
        // Per seat: its goals' empty cells and plugs (see `goal_gaps`).
        let mut gaps = vec![(0u32, 0u32); players];
        // The game's lines for `--record` (see `record_line`).
        let mut record = vec![format!(
            "# arena game {g} of seed {}: A = {:?} in seat {}, B = {:?}, {} ms a move (A {} ms)",
            args.seed,
            args.a,
            a_seat.index(),
            args.b,
            args.ms,
            args.a_ms.unwrap_or(args.ms)
        )];
        while !game.is_over() && game.record().len() < cap {
            let pos = *game.position();
            let mover = pos.to_move();
            let is_a = if args.a_team {
                sides.unit(mover) == sides.unit(a_seat)
            } else {
                mover == a_seat
            };
            let t = Instant::now();
            let chosen = if game.record().len() < args.opening {
                random_forward(&variant, &eval, &pos, &mut rng).map(|mv| SearchResult {
                    mv,
                    score: 0,
                    depth: 0,
                    nodes: 0,
                    pv: vec![mv],
                })
            } else {
                let (engine, e, ms) = if is_a {
                    (args.a, &eval_a, args.a_ms.unwrap_or(args.ms))
                } else {
                    (args.b, &eval_b, args.ms)
                };
                engine.choose(&variant, e, &pos, &history, ms, rng.next_u64())
            };
            let took = t.elapsed();
            let mv = chosen.as_ref().map(|c| c.mv);
            if args.record.is_some() {
                if let Some(c) = &chosen {
                    record.push(record_line(
                        &variant,
                        game.record().len(),
                        &pos,
                        is_a,
                        c,
                        took,
                    ));
                }
            }
            if game.record().len() >= args.opening {
                let side = usize::from(!is_a);
                if let Some(c) = &chosen {
                    tally.depths[side].push(c.depth);
                }
                if let Some(mv) = mv.filter(|_| sides.units() > 2) {
                    for (i, model) in REPLY_MODELS.into_iter().enumerate() {
                        let agrees = model_agrees(
                            &variant, &eval, &sides, model, &pos, mv, &mut moves, &mut gains,
                        );
                        tally.predicted[side][i] += u64::from(agrees);
                    }
                }
                if is_a && sides.units() > 2 {
                    let kind = match opponents::observe(&variant, &eval, &pos, &history) {
                        Opponents::Greedy => 0,
                        Opponents::Other => 1,
                        Opponents::Unknown => 2,
                    };
                    tally.observed[kind] += 1;
                }
                tally.time[side] += took;
                tally.max_time[side] = tally.max_time[side].max(took);
                tally.moves[side] += 1;
            }
            let mv =
                mv.ok_or_else(|| format!("game {g}: no move suggested for a seat that can move"))?;
            let progress = eval.progress(&pos, mv);
            if args.dump_waits > 0 && is_a && progress <= 0 && game.record().len() >= args.opening {
                let rows = seat_distance(&variant, &eval, &pos, mover)
                    - finished_distance(&variant, &eval, mover);
                if rows <= args.dump_waits {
                    variant.generate_moves(&pos, &mut stuck_moves);
                    let forward = stuck_moves
                        .iter()
                        .filter(|&&m| eval.progress(&pos, m) > 0)
                        .count();
                    eprintln!(
                        "wait: game {g} ply {} rows {rows} move {}-{} forward moves {forward} made {}: {}",
                        game.record().len(),
                        variant.board().name(mv.from),
                        variant.board().name(mv.to),
                        pos.moves_made(mover),
                        halma_rules::notation::format_position(&variant, &pos)
                    );
                }
            }
            if game.record().len() >= args.opening
                && sides.units() > 2
                && is_stuck(&variant, &eval, &pos, mover, &mut stuck_moves)
            {
                tally.stuck[usize::from(!is_a)] += 1;
                a_stuck |= is_a;
            }
            game.play(&MoveInput::FromTo(mv.from, mv.to))
                .map_err(|e| format!("game {g}: illegal move suggested: {e}"))?;
            let distance = seat_distance(&variant, &eval, game.position(), mover);
            paces[usize::from(mover.index())].note(progress, distance);
            history.push(game.position().hash());
            let ply = game.record().len();
            for s in variant.seats().filter(|&s| game.position().is_active(s)) {
                let pace = &mut paces[usize::from(s.index())];
                pace.full_since = goals_full(&variant, game.position(), s)
                    .then(|| pace.full_since.unwrap_or(ply));
            }
            for s in variant.seats() {
                let now = goal_gaps(&variant, game.position(), s);
                let before = std::mem::replace(&mut gaps[usize::from(s.index())], now);
                if before.0 == 1 && now.0 == 0 && now.1 > before.1 {
                    let of_a = if args.a_team {
                        sides.unit(s) == sides.unit(a_seat)
                    } else {
                        s == a_seat
                    };
                    tally.plugged[usize::from(!of_a)] += 1;
                }
            }
            if args.trace > 0 && ply.is_multiple_of(args.trace) {
                let distances: Vec<String> = variant
                    .seats()
                    .map(|s| {
                        let d = seat_distance(&variant, &eval, game.position(), s);
                        let mark = if s == a_seat { "A" } else { "" };
                        format!("{mark}{d}")
                    })
                    .collect();
                eprintln!("ply {ply}: distances {}", distances.join(" "));
            }
            for (seat, own, cells) in new_finishes(&variant, game.position(), &mut finished_seen) {
                let of_a = if args.a_team {
                    sides.unit(seat) == sides.unit(a_seat)
                } else {
                    seat == a_seat
                };
                let side = usize::from(!of_a);
                tally.finishes[side].push((ply, own, cells));
                let pace = &mut paces[usize::from(seat.index())];
                pace.gated = pace.full_since.map(|since| ply - since);
                tally.paces[side].push(*pace);
                finish_plies.push((ply, of_a));
            }
        }
        tally.plies += game.record().len() as u64;
        let line = match game.outcome() {
            None => {
                tally.capped += 1;
                let (a_finish_place, shared) = if args.teams {
                    (None, false)
                } else {
                    place_when_capped(&finish_plies)
                };
                if a_finish_place == Some(1) && !shared {
                    tally.wins += 1;
                    tally.capped_firsts += 1;
                }
                if let Some(p) = a_finish_place {
                    tally.place_sum += u64::from(p);
                    tally.placed += 1;
                }
                if args.verbose {
                    eprintln!(
                        "capped: {}",
                        halma_rules::notation::format_position(&variant, game.position())
                    );
                }
                format!("capped, A place {a_finish_place:?}")
            }
            Some(outcome) => {
                let (r, place) = a_result(outcome, a_seat);
                match r {
                    1 => tally.wins += 1,
                    0 => tally.draws += 1,
                    _ => tally.losses += 1,
                }
                if let Some(p) = place {
                    tally.place_sum += u64::from(p);
                    tally.placed += 1;
                }
                if a_stuck {
                    tally.stuck_games += 1;
                    tally.stuck_firsts += u32::from(place == Some(1));
                }
                if outcome.winner().is_some_and(|w| w.contains(&first)) {
                    tally.first_mover_wins += 1;
                }
                if outcome.draw.is_some() && args.verbose {
                    eprintln!(
                        "drawn: {}",
                        halma_rules::notation::format_position(&variant, game.position())
                    );
                }
                let standings: Vec<_> = outcome
                    .ranking
                    .iter()
                    .map(|p| (p.place, p.standing))
                    .collect();
                format!(
                    "A place {place:?}, draw {:?}, ranking {standings:?}",
                    outcome.draw
                )
            }
        };
        let summary = format!(
            "game {g}: A seat {} plies {}: {line}, finishes at {}",
            a_seat.index(),
            game.record().len(),
            finish_plies
                .iter()
                .map(|&(ply, of_a)| format!("{}{ply}", if of_a { "A" } else { "" }))
                .collect::<Vec<_>>()
                .join(" ")
        );
        if args.verbose {
            eprintln!("{summary}");
        }
        if let Some(dir) = &args.record {
            record.push(format!("# {summary}"));
            record.push(format!(
                "end {}",
                halma_rules::notation::format_position(&variant, game.position())
            ));
            let path = dir.join(format!("seed{}-game{g}.txt", args.seed));
            std::fs::write(&path, record.join("\n") + "\n")
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
    }
    let n = f64::from(args.games.max(1));
    let ms = |i: usize| tally.time[i].as_secs_f64() * 1000.0 / tally.moves[i].max(1) as f64;
    println!(
        "board {} players {} games {}: A={:?} B={:?} --ms {}{} (cap {cap} plies, opening {} plies)",
        args.board.name(),
        args.players,
        args.games,
        args.a,
        args.b,
        args.ms,
        args.a_ms
            .map(|m| format!(" --a-ms {m}"))
            .unwrap_or_default(),
        args.opening
    );
    println!(
        "A wins {} draws {} losses {} capped {} (A first in {}) | A win rate {:.1}% | avg A place {:.2}",
        tally.wins,
        tally.draws,
        tally.losses,
        tally.capped,
        tally.capped_firsts,
        100.0 * f64::from(tally.wins) / n,
        tally.place_sum as f64 / f64::from(tally.placed.max(1))
    );
    println!(
        "avg game length {:.1} plies | avg ms/move A {:.2} B {:.2} (max A {:.1} B {:.1}) | first mover won {} | wall {:.1}s",
        tally.plies as f64 / n,
        ms(0),
        ms(1),
        tally.max_time[0].as_secs_f64() * 1000.0,
        tally.max_time[1].as_secs_f64() * 1000.0,
        tally.first_mover_wins,
        started.elapsed().as_secs_f64()
    );
    println!(
        "depth reached: A median {} mean {:.2}, B median {} mean {:.2}",
        median(&mut tally.depths[0]),
        mean(&tally.depths[0]),
        median(&mut tally.depths[1]),
        mean(&tally.depths[1])
    );
    if sides.units() > 2 {
        let share = |side: usize, model: usize| {
            100.0 * tally.predicted[side][model] as f64 / tally.moves[side].max(1) as f64
        };
        for (i, model) in REPLY_MODELS.into_iter().enumerate() {
            println!(
                "moves the {model:?} reply model scores best: A {:.1}% B {:.1}%",
                share(0, i),
                share(1, i)
            );
        }
        let [greedy, other, unknown] = tally.observed;
        println!(
            "A's opponents as seen at A's moves: greedy {greedy}, other {other}, unknown {unknown}"
        );
    }
    println!("{}", finish_line("A finishes", &tally.finishes[0]));
    println!("{}", finish_line("B finishes", &tally.finishes[1]));
    println!("{}", pace_line("A pace", &tally.paces[0]));
    println!("{}", pace_line("B pace", &tally.paces[1]));
    println!("{}", gate_line("A gated", &tally.paces[0]));
    println!("{}", gate_line("B gated", &tally.paces[1]));
    println!(
        "last goal cell taken by a piece that does not count yet: A {} times, B {} times",
        tally.plugged[0], tally.plugged[1]
    );
    if sides.units() > 2 {
        // Over the games that ended (a capped game A won counts among the wins, not here).
        let finished = args.games - tally.capped;
        println!(
            "no forward move within {STUCK_ROWS} rows of the finish: A {} moves, in {} games (first in {}; \
             first in {} of the other {}), B {} moves",
            tally.stuck[0],
            tally.stuck_games,
            tally.stuck_firsts,
            tally
                .wins
                .saturating_sub(tally.capped_firsts)
                .saturating_sub(tally.stuck_firsts),
            finished.saturating_sub(tally.stuck_games),
            tally.stuck[1]
        );
    }
    Ok(())
}

/// The middle of `values` (the upper of the two middle ones for an even count; the default,
/// 0, for none).
fn median<T: Ord + Copy + Default>(values: &mut [T]) -> T {
    values.sort_unstable();
    values.get(values.len() / 2).copied().unwrap_or_default()
}

/// The mean of `values` (0 for none).
fn mean(values: &[u32]) -> f64 {
    values.iter().map(|&v| f64::from(v)).sum::<f64>() / values.len().max(1) as f64
}

/// One ply of a `--record` file: `ply P seat S[A] move FROM-TO depth D score V ms T
/// position TEXT`, where TEXT is the position before the move in the service's notation
/// (`halma_rules::notation::format_position`), so that any position of a game can be read
/// back and searched again; `A` marks engine A's moves, and the opening's random moves have
/// depth 0.
fn record_line(
    variant: &Variant,
    ply: usize,
    pos: &Position,
    is_a: bool,
    chosen: &SearchResult,
    took: Duration,
) -> String {
    format!(
        "ply {ply} seat {}{} move {} depth {} score {} ms {:.1} position {}",
        pos.to_move().index(),
        if is_a { "A" } else { "" },
        halma_rules::notation::format_path(variant.board(), &[chosen.mv.from, chosen.mv.to]),
        chosen.depth,
        chosen.score,
        took.as_secs_f64() * 1000.0,
        halma_rules::notation::format_position(variant, pos)
    )
}

/// A random move among those that do not go backwards (any move when all do).
fn random_forward(
    variant: &Variant,
    eval: &RaceEvaluator,
    pos: &Position,
    rng: &mut SplitMix64,
) -> Option<Move> {
    let mut moves = Vec::new();
    variant.generate_moves(pos, &mut moves);
    let forward: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&m| eval.progress(pos, m) > 0)
        .collect();
    let pool = if forward.is_empty() { &moves } else { &forward };
    pool.get(rng.index(pool.len())).copied()
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("arena: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    // Test code: a failed setup should fail the test loudly.
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// A `--record` file's lines read back into the game: each line's position is the game's
    /// position before that ply, and its move, played there, is the ply's move.
    #[test]
    fn record_lines_read_back_into_the_game() {
        let variant = Arc::new(
            Variant::new(&GameSetup {
                board: BoardKind::Star,
                players: 6,
                options: RuleOptions::default(),
            })
            .unwrap(),
        );
        let eval = RaceEvaluator::new(&variant);
        let mut game = Game::new(Arc::clone(&variant), variant.seat(0).unwrap());
        let mut rng = SplitMix64::new(7);
        let mut lines = Vec::new();
        for ply in 0..30 {
            let pos = *game.position();
            let mv = random_forward(&variant, &eval, &pos, &mut rng).unwrap();
            let chosen = SearchResult {
                mv,
                score: -17,
                depth: 3,
                nodes: 0,
                pv: vec![mv],
            };
            let took = Duration::from_micros(1_250);
            lines.push(record_line(
                &variant,
                ply,
                &pos,
                ply % 6 == 2,
                &chosen,
                took,
            ));
            game.play(&MoveInput::FromTo(mv.from, mv.to)).unwrap();
        }
        assert!(lines[2].starts_with("ply 2 seat 2A move "), "{}", lines[2]);
        assert!(lines[3].starts_with("ply 3 seat 3 move "), "{}", lines[3]);
        assert!(lines[2].contains(" depth 3 score -17 ms 1.2 position "));
        let mut replayed = Game::new(Arc::clone(&variant), variant.seat(0).unwrap());
        for (line, played) in lines.iter().zip(game.record()) {
            let (head, text) = line.split_once(" position ").unwrap();
            let (_, pos) = halma_rules::notation::parse_position(text).unwrap();
            assert_eq!(pos, *replayed.position());
            let path = head.split(' ').nth(5).unwrap();
            let cells = halma_rules::notation::parse_move(variant.board(), path).unwrap();
            assert_eq!(cells, vec![played.mv.from, played.mv.to]);
            replayed
                .play(&MoveInput::FromTo(cells[0], cells[1]))
                .unwrap();
        }
        assert_eq!(replayed.position(), game.position());
    }

    #[test]
    fn medians_and_means_of_depths() {
        assert_eq!(median::<u32>(&mut []), 0);
        assert_eq!(median(&mut [7, 3, 5]), 5);
        assert_eq!(median(&mut [7, 3, 5, 9]), 7);
        assert!((mean(&[3, 4]) - 3.5).abs() < 1e-9);
        assert!(mean(&[]).abs() < 1e-9);
    }

    #[test]
    fn a_capped_game_places_a_by_the_finishes_before_it() {
        assert_eq!(place_when_capped(&[]), (None, false));
        assert_eq!(
            place_when_capped(&[(210, false), (230, false)]),
            (None, false)
        );
        assert_eq!(place_when_capped(&[(210, true)]), (Some(1), false));
        let second = [(200, false), (210, true), (240, false)];
        assert_eq!(place_when_capped(&second), (Some(2), false));
        assert_eq!(
            place_when_capped(&[(210, false), (210, true)]),
            (Some(1), true)
        );
        let shared = [(200, false), (230, true), (230, false)];
        assert_eq!(place_when_capped(&shared), (Some(2), true));
    }
}
