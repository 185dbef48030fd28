//! The scenarios: closed loops of virtual users, each on its own keep-alive connection, for a
//! warm-up and then a measured time, bounded in time and in requests.

use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::SeedableRng as _;
use tokio::task::JoinSet;

use crate::api::{Geometry, Http, PlayRecorders, Player, SetupError, Step};
use crate::args::{Args, Scenario};
use crate::cpu::{self, CpuUse, Watched};
use crate::stats::{Recorder, Summary};
use crate::suggest::{SuggestSummary, SuggestionBody, Tally, Target};

/// One row of the results: a kind of request in a scenario.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Row {
    /// The scenario.
    pub scenario: &'static str,
    /// The request measured, e.g. `GET /v1/games/{id}`.
    pub request: &'static str,
    /// Concurrent connections.
    pub connections: usize,
    /// The figures.
    #[serde(flatten)]
    pub summary: Summary,
}

/// What the play scenario's games came to during the measured time.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct GameCounts {
    /// Games created.
    pub started: u64,
    /// Games played to their end (then replaced).
    pub finished: u64,
    /// Plies of the finished games, in all.
    pub finished_plies: u64,
    /// Games replaced at the ply limit.
    pub capped: u64,
}

impl GameCounts {
    fn add(&mut self, other: GameCounts) {
        self.started += other.started;
        self.finished += other.finished;
        self.finished_plies += other.finished_plies;
        self.capped += other.capped;
    }
}

/// The results of one scenario.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Report {
    /// The rows: the scenario's main request first.
    pub rows: Vec<Row>,
    /// Play scenario: the games (all zero for the read scenarios).
    pub games: GameCounts,
    /// CPU use during the measured time: the watched processes, the generator, the rest of
    /// the machine and the whole machine.
    pub cpu: Vec<CpuUse>,
    /// Suggest scenario: the budget, late answers and search statistics.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggest: Option<SuggestSummary>,
}

impl Report {
    /// Requests answered during the measured time, all kinds.
    pub fn answered(&self) -> u64 {
        self.rows.iter().map(|r| r.summary.requests).sum()
    }
}

/// The point in time a scenario's phase ends.
#[derive(Clone, Copy, Debug)]
struct Phases {
    warm_until: Instant,
    measure_until: Instant,
}

impl Phases {
    fn start(args: &Args) -> Self {
        let warm_until = Instant::now() + args.warmup;
        Self {
            warm_until,
            measure_until: warm_until + args.duration,
        }
    }
}

/// Creates `args.games` games and plays `plies` plies into each, on `args.connections`
/// connections. Returns their ids.
///
/// # Errors
/// [`SetupError`] when fewer than all games could be created.
pub async fn create_games(
    args: &Args,
    geometry: &Arc<Geometry>,
    plies: u32,
) -> Result<Vec<String>, SetupError> {
    let mut tasks = JoinSet::new();
    let workers = args.connections.min(args.games);
    for worker in 0..workers {
        let http = Http::new(&args.url, args.timeout)?;
        let geometry = Arc::clone(geometry);
        let (games, max_plies, seed, players) =
            (args.games, args.max_plies, args.seed, args.players);
        tasks.spawn(async move {
            let mut rec = PlayRecorders::default();
            let mut rng = SmallRng::seed_from_u64(seed ^ ((worker as u64 + 1) << 32));
            let mut ids = Vec::new();
            for _ in (worker..games).step_by(workers) {
                let Some(mut player) = Player::create(&http, &geometry, players, &mut rec).await
                else {
                    continue;
                };
                // At most two attempts per ply: a failed step is retried once.
                for _ in 0..plies.saturating_mul(2) {
                    if player.plies >= plies {
                        break;
                    }
                    let step = player
                        .step(&http, &geometry, max_plies, &mut rng, &mut rec)
                        .await;
                    if matches!(step, Step::GameOver | Step::PlyLimit) {
                        break;
                    }
                }
                ids.push(player.id);
            }
            ids
        });
    }
    let mut ids = Vec::with_capacity(args.games);
    while let Some(done) = tasks.join_next().await {
        ids.extend(done.map_err(|e| SetupError(format!("a setup task failed: {e}")))?);
    }
    if ids.len() < args.games {
        return Err(SetupError(format!(
            "only {} of {} games could be created",
            ids.len(),
            args.games
        )));
    }
    ids.sort();
    Ok(ids)
}

/// What the scenarios run on, prepared before the load.
#[derive(Clone, Debug, Default)]
pub struct Prepared {
    /// The URLs the read scenario reads.
    pub read_urls: Arc<Vec<String>>,
    /// The positions the suggest scenario asks about.
    pub suggest: Arc<Vec<Target>>,
}

/// What one virtual user brings back.
#[derive(Debug, Default)]
struct Outcome {
    rec: PlayRecorders,
    games: GameCounts,
    suggest: Tally,
}

/// Runs one scenario and returns its figures.
///
/// # Errors
/// [`SetupError`] when the clients cannot be built or a virtual user does not finish in time.
pub async fn run(
    scenario: Scenario,
    args: &Args,
    geometry: &Arc<Geometry>,
    prepared: &Prepared,
) -> Result<Report, SetupError> {
    let phases = Phases::start(args);
    let cap = (args.max_requests / args.connections as u64).max(1);
    let mut tasks = JoinSet::new();
    for vu in 0..args.connections {
        let http = Http::new(&args.url, args.timeout)?;
        match scenario {
            Scenario::GetGame | Scenario::ListMoves | Scenario::Health => {
                let urls = Arc::clone(&prepared.read_urls);
                let step = args.connections;
                tasks.spawn(async move {
                    let rec = read_loop(&http, &urls, vu, step, phases, cap).await;
                    Outcome {
                        rec: PlayRecorders {
                            list: rec,
                            ..PlayRecorders::default()
                        },
                        ..Outcome::default()
                    }
                });
            }
            Scenario::PlayMoves => {
                let geometry = Arc::clone(geometry);
                let (max_plies, seed, players) = (args.max_plies, args.seed, args.players);
                tasks.spawn(async move {
                    let rng = SmallRng::seed_from_u64(seed ^ ((vu as u64 + 1) << 40));
                    let (rec, games) =
                        play_loop(&http, &geometry, players, max_plies, rng, phases, cap).await;
                    Outcome {
                        rec,
                        games,
                        ..Outcome::default()
                    }
                });
            }
            Scenario::Suggest => {
                let targets = Arc::clone(&prepared.suggest);
                let (step, asked_ms) = (args.connections, args.suggest_ms);
                tasks.spawn(async move {
                    let (rec, tally) =
                        suggest_loop(&http, &targets, vu, step, asked_ms, phases, cap).await;
                    Outcome {
                        rec: PlayRecorders {
                            list: rec,
                            ..PlayRecorders::default()
                        },
                        suggest: tally,
                        ..Outcome::default()
                    }
                });
            }
        }
    }
    let mut watched = args.watch.clone();
    watched.push(Watched {
        name: "loadgen".into(),
        pid: std::process::id(),
    });
    tokio::time::sleep_until(phases.warm_until.into()).await;
    let cpu_before = cpu::sample(&watched);
    let cpu_from = Instant::now();
    // Every request has a timeout, so the loops end shortly after `measure_until`; this bound
    // only guards against a bug.
    let limit = phases.measure_until + args.timeout * 2 + Duration::from_secs(5);
    let mut all = PlayRecorders::default();
    let mut games = GameCounts::default();
    let mut tally = Tally::default();
    loop {
        let next = tokio::time::timeout_at(limit.into(), tasks.join_next()).await;
        match next {
            Ok(Some(Ok(outcome))) => {
                all.merge(outcome.rec);
                games.add(outcome.games);
                tally.merge(outcome.suggest);
            }
            Ok(Some(Err(e))) => return Err(SetupError(format!("a virtual user failed: {e}"))),
            Ok(None) => break,
            Err(_) => {
                tasks.abort_all();
                return Err(SetupError("virtual users did not stop in time".into()));
            }
        }
    }
    let cpu_after = cpu::sample(&watched);
    let cpu = cpu::usage(&cpu_before, &cpu_after, cpu_from.elapsed());
    let elapsed = Instant::now().saturating_duration_since(phases.warm_until);
    let row = |request, rec: Recorder| Row {
        scenario: scenario.name(),
        request,
        connections: args.connections,
        summary: rec.summary(elapsed),
    };
    let rows = match scenario {
        Scenario::GetGame => vec![row("GET /v1/games/{id}", all.list)],
        Scenario::ListMoves => vec![row("GET /v1/games/{id}/moves", all.list)],
        Scenario::PlayMoves => vec![
            row("POST /v1/games/{id}/moves", all.post),
            row("GET /v1/games/{id}/moves", all.list),
            row("POST /v1/games", all.create),
        ],
        Scenario::Suggest => vec![row("GET /v1/games/{id}/suggestion", all.list)],
        Scenario::Health => vec![row("GET /healthz", all.list)],
    };
    let suggest = (scenario == Scenario::Suggest).then(|| tally.summary(args.suggest_ms));
    Ok(Report {
        rows,
        games,
        cpu,
        suggest,
    })
}

/// A read loop: game after game of `urls` (every `step`-th from `first`), recording only
/// after the warm-up.
async fn read_loop(
    http: &Http,
    urls: &[String],
    first: usize,
    step: usize,
    phases: Phases,
    cap: u64,
) -> Recorder {
    let mut warm = Recorder::default();
    let mut rec = Recorder::default();
    let mut i = first;
    loop {
        let now = Instant::now();
        if now >= phases.measure_until || rec.sent() >= cap || warm.sent() >= cap {
            break;
        }
        let Some(url) = urls.get(i % urls.len().max(1)) else {
            break;
        };
        i = i.wrapping_add(step);
        let target = if now < phases.warm_until {
            &mut warm
        } else {
            &mut rec
        };
        http.get_discard(url, target).await;
    }
    rec
}

/// A suggest loop: asks for a suggestion in game after game of `targets` (every `step`-th from
/// `first`) and checks every answer, recording only after the warm-up. Read-only: the move is
/// never played.
async fn suggest_loop(
    http: &Http,
    targets: &[Target],
    first: usize,
    step: usize,
    asked_ms: u32,
    phases: Phases,
    cap: u64,
) -> (Recorder, Tally) {
    let (mut warm, mut warm_tally) = (Recorder::default(), Tally::default());
    let (mut rec, mut tally) = (Recorder::default(), Tally::default());
    let mut i = first;
    loop {
        let now = Instant::now();
        if now >= phases.measure_until || rec.sent() >= cap || warm.sent() >= cap {
            break;
        }
        let Some(target) = targets.get(i % targets.len().max(1)) else {
            break;
        };
        i = i.wrapping_add(step);
        let (r, t) = if now < phases.warm_until {
            (&mut warm, &mut warm_tally)
        } else {
            (&mut rec, &mut tally)
        };
        if let Some(answer) = http.get_json::<SuggestionBody>(&target.url, r).await {
            t.observe(&answer, target, asked_ms, r);
        }
    }
    (rec, tally)
}

/// A play loop: one game of `players` players of its own, list and play, a new game when it
/// is done; recording only after the warm-up. Returns the recorders and what became of the games.
async fn play_loop(
    http: &Http,
    geometry: &Geometry,
    players: u8,
    max_plies: u32,
    mut rng: SmallRng,
    phases: Phases,
    cap: u64,
) -> (PlayRecorders, GameCounts) {
    let mut warm = PlayRecorders::default();
    let mut rec = PlayRecorders::default();
    let mut player: Option<Player> = None;
    let mut games = GameCounts::default();
    loop {
        let now = Instant::now();
        if now >= phases.measure_until || rec.sent() >= cap || warm.sent() >= cap {
            break;
        }
        let measuring = now >= phases.warm_until;
        let target = if measuring { &mut rec } else { &mut warm };
        let Some(p) = player.as_mut() else {
            player = Player::create(http, geometry, players, target).await;
            if player.is_some() && measuring {
                games.started += 1;
            }
            continue;
        };
        match p.step(http, geometry, max_plies, &mut rng, target).await {
            Step::Played | Step::Failed => {}
            Step::GameOver => {
                if measuring {
                    games.finished += 1;
                    games.finished_plies += u64::from(p.plies);
                }
                player = None;
            }
            Step::PlyLimit => {
                if measuring {
                    games.capped += 1;
                }
                player = None;
            }
        }
    }
    (rec, games)
}
