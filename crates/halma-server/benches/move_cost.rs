//! What one `POST /v1/games/{id}/moves` costs the server as the game grows: CPU time of this
//! process (the whole service stack, the Redis client included; the Redis server is another
//! process) per accepted move, at ply 20, 200 and 600 of a six-player game on the star, on the
//! embedded store and on a private `redis-server`.
//!
//! The games: one random six-player game of 620 plies (seeded, so every run plays the same
//! moves), imported at its first 20, 200 or 600 moves through `POST /v1/games` with
//! `record_json` (not timed); then the timed part posts each game's next move, once per game,
//! so that every measured move is played at the ply it names. Rounds go round-robin over the
//! plies so that the machine's noise spreads over all three alike. Each post is checked: 200,
//! and the game one move longer.
//!
//! After each round's moves, the same games are read: `MOVE_COST_READS` (5) times each
//! `GET /v1/games/{id}` and `GET /v1/games/{id}/moves`, as clients polling a game do, each
//! read checked (200, the new move count). The first read of a version restores or renders
//! it; the later ones are what a polled game costs.
//!
//! `cargo bench -p halma-server --bench move_cost` prints, per store and ply, the median over
//! the rounds of the CPU time per move (with the range) and the wall time per move, the ratio
//! of ply 600 to ply 20, and the median CPU time per read of each kind. Settings:
//! `MOVE_COST_ROUNDS` (15), `MOVE_COST_GAMES` games per round (40), `MOVE_COST_READS` (5).
//! Without `redis-server` the Redis half is skipped with a message.

// A benchmark fails by panicking.
#![allow(clippy::unwrap_used, clippy::print_stdout)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use actix_web::body::MessageBody;
use actix_web::dev::{Service, ServiceResponse};
use actix_web::{test, web};
use cpu_time::ProcessTime;
use halma_rules::{notation, BoardKind, Game, GameSetup, MoveInput, SplitMix64, Variant};
use halma_server::config::Config;
use halma_server::limits::RateLimits;
use halma_server::startup::app;
use halma_server::state::AppState;
use halma_server::store::Store;
use halma_testkit::RedisServer;
use serde_json::{json, Value};

/// The plies measured.
const PLIES: [usize; 3] = [20, 200, 600];

/// A move of the random game: the seat and the path in the notation.
struct Played {
    seat: u8,
    notation: String,
}

/// A random six-player star game of `plies` moves that is not over (the first seed whose game
/// lasts).
fn random_game(plies: usize) -> Vec<Played> {
    let setup = GameSetup {
        board: BoardKind::Star,
        players: 6,
        options: halma_rules::RuleOptions::default(),
    };
    let variant = Arc::new(Variant::new(&setup).unwrap());
    for seed in 1.. {
        let mut rng = SplitMix64::new(seed);
        let mut game = Game::new(Arc::clone(&variant), variant.seat(0).unwrap());
        let mut moves = Vec::with_capacity(plies);
        while moves.len() < plies && !game.is_over() {
            let legal = game.legal_moves();
            let pick = &legal[rng.below(legal.len() as u64) as usize];
            let seat = game.to_move().unwrap().index();
            game.play(&MoveInput::Path(pick.path.clone())).unwrap();
            moves.push(Played {
                seat,
                notation: notation::format_path(variant.board(), &pick.path),
            });
        }
        if moves.len() == plies && !game.is_over() {
            return moves;
        }
    }
    unreachable!("some seed gives a game that lasts")
}

/// A game imported at `ply`: its id, host token and version.
struct Prepared {
    id: String,
    token: String,
    version: u64,
}

async fn call<S, B>(service: &S, request: actix_http::Request) -> (u16, Value)
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let response = test::call_service(service, request).await;
    let status = response.status().as_u16();
    let body: Value = test::read_body_json(response).await;
    (status, body)
}

async fn import<S, B>(service: &S, game: &[Played], ply: usize) -> Prepared
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let moves: Vec<Value> = game[..ply]
        .iter()
        .map(|m| json!({"seat": m.seat, "notation": m.notation}))
        .collect();
    let body =
        json!({"record_json": {"board": "star", "players": 6, "first_seat": 0, "moves": moves}});
    let request = test::TestRequest::post()
        .uri("/v1/games")
        .set_json(body)
        .to_request();
    let (status, created) = call(service, request).await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["game"]["move_count"], ply);
    Prepared {
        id: created["game"]["id"].as_str().unwrap().to_owned(),
        token: created["tokens"]["host"].as_str().unwrap().to_owned(),
        version: created["game"]["version"].as_u64().unwrap(),
    }
}

/// The CPU times of one round, per request.
struct Costs {
    post: Duration,
    wall: Duration,
    read_game: Duration,
    read_moves: Duration,
}

/// CPU time per request of `reads` reads of `path` on every game, each checked: 200 and the
/// version the game's move made (`versions`, one per game).
async fn reads<S, B>(
    service: &S,
    prepared: &[Prepared],
    versions: &[u64],
    path: &str,
    reads: usize,
) -> Duration
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let cpu = ProcessTime::now();
    for (p, &version) in prepared.iter().zip(versions) {
        for _ in 0..reads {
            let request = test::TestRequest::get()
                .uri(&format!("/v1/games/{}{path}", p.id))
                .to_request();
            let (status, body) = call(service, request).await;
            assert_eq!(status, 200, "{body}");
            assert_eq!(body["version"], version, "{body}");
        }
    }
    cpu.elapsed() / u32::try_from(prepared.len() * reads).unwrap()
}

/// Per-request CPU and wall time of one round: `games` posts, each on a game of its own at
/// `ply`, then `read_count` reads of each kind per game.
async fn round<S, B>(
    service: &S,
    game: &[Played],
    ply: usize,
    games: usize,
    read_count: usize,
) -> Costs
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let mut prepared = Vec::with_capacity(games);
    for _ in 0..games {
        prepared.push(import(service, game, ply).await);
    }
    let next = &game[ply].notation;
    let mut versions = Vec::with_capacity(games);
    let cpu = ProcessTime::now();
    let wall = Instant::now();
    for p in &prepared {
        let request = test::TestRequest::post()
            .uri(&format!("/v1/games/{}/moves", p.id))
            .insert_header(("Authorization", format!("Bearer {}", p.token)))
            .set_json(json!({"notation": next, "version": p.version}))
            .to_request();
        let (status, outcome) = call(service, request).await;
        assert_eq!(status, 200, "{outcome}");
        assert_eq!(outcome["game"]["move_count"], ply + 1);
        versions.push(outcome["game"]["version"].as_u64().unwrap());
    }
    let n = u32::try_from(games).unwrap();
    let (post, wall) = (cpu.elapsed() / n, wall.elapsed() / n);
    Costs {
        post,
        wall,
        read_game: reads(service, &prepared, &versions, "", read_count).await,
        read_moves: reads(service, &prepared, &versions, "/moves", read_count).await,
    }
}

fn median(values: &mut [Duration]) -> Duration {
    values.sort();
    values[values.len() / 2]
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn setting(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&v| v > 0)
        .unwrap_or(default)
}

fn measure(
    label: &str,
    config: Config,
    game: &[Played],
    rounds: usize,
    games: usize,
    read_count: usize,
) {
    let system = actix_web::rt::System::new();
    system.block_on(async {
        let store = Store::from_config(&config).await.unwrap();
        store.ping().await.unwrap();
        let state = web::Data::new(AppState::new(store, &config));
        let service = test::init_service(app(state)).await;
        // Warm-up: one round at each ply, not counted.
        for ply in PLIES {
            round(&service, game, ply, games.min(10), read_count).await;
        }
        let mut cpu: Vec<Vec<Duration>> = vec![Vec::new(); PLIES.len()];
        let mut wall: Vec<Vec<Duration>> = vec![Vec::new(); PLIES.len()];
        let mut read_game: Vec<Vec<Duration>> = vec![Vec::new(); PLIES.len()];
        let mut read_moves: Vec<Vec<Duration>> = vec![Vec::new(); PLIES.len()];
        for _ in 0..rounds {
            for (i, ply) in PLIES.into_iter().enumerate() {
                let costs = round(&service, game, ply, games, read_count).await;
                cpu[i].push(costs.post);
                wall[i].push(costs.wall);
                read_game[i].push(costs.read_game);
                read_moves[i].push(costs.read_moves);
            }
        }
        println!("{label}: {rounds} rounds of {games} moves per ply");
        println!("  ply | CPU µs/move, median (min to max) | wall µs/move, median");
        let mut medians = Vec::new();
        for (i, ply) in PLIES.into_iter().enumerate() {
            let m = median(&mut cpu[i]);
            medians.push(m);
            println!(
                "  {ply:>3} | {:>6.1} ({:.1} to {:.1}) | {:>6.1}",
                micros(m),
                micros(cpu[i][0]),
                micros(cpu[i][cpu[i].len() - 1]),
                micros(median(&mut wall[i]))
            );
        }
        println!(
            "  ply 200 / ply 20: {:.2}; ply 600 / ply 20: {:.2}",
            micros(medians[1]) / micros(medians[0]),
            micros(medians[2]) / micros(medians[0])
        );
        println!("  ply | CPU µs per GET game, median | CPU µs per GET moves, median ({read_count} reads of each per game)");
        for (i, ply) in PLIES.into_iter().enumerate() {
            println!(
                "  {ply:>3} | {:>6.1} | {:>6.1}",
                micros(median(&mut read_game[i])),
                micros(median(&mut read_moves[i]))
            );
        }
    });
}

fn main() {
    // `cargo bench` passes `--bench`; this binary has no options of its own.
    let rounds = setting("MOVE_COST_ROUNDS", 15);
    let games = setting("MOVE_COST_GAMES", 40);
    let read_count = setting("MOVE_COST_READS", 5);
    let game = random_game(PLIES[PLIES.len() - 1] + 1);
    let base = Config {
        limits: RateLimits::off(),
        ..Config::default()
    };
    measure(
        "memory store",
        base.clone(),
        &game,
        rounds,
        games,
        read_count,
    );
    let installed = std::process::Command::new("redis-server")
        .arg("--version")
        .output()
        .is_ok_and(|out| out.status.success());
    if installed {
        let redis = RedisServer::start();
        measure(
            "redis store",
            Config {
                limits: RateLimits::off(),
                ..redis.config("bench:")
            },
            &game,
            rounds,
            games,
            read_count,
        );
    } else {
        println!("redis store: skipped: redis-server is not installed");
    }
}
