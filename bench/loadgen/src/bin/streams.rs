//! `streams`: what the live event streams (`GET /v1/games/{id}/events`) cost and how fast they
//! are, against a running service on `127.0.0.1`.
//!
//! Two measurements:
//!
//! - **idle streams**: opens `--idle` streams spread over `--idle-games` games and reads the
//!   server's resident memory (`/proc/PID/status`, `VmRSS`, with `--server-pid`) before and
//!   after: the memory one idle stream holds;
//! - **fan-out latency**: for each count in `--listeners` (default `1,100,1000`), opens that
//!   many streams on one game, then plays `--moves` moves with the host token, one after the
//!   other. For every move and every listener it takes the time from the move's
//!   acknowledgement (the `200` of `POST .../moves` has been read) to that listener reading
//!   the move's event, and prints the median, p90, p99 and max over all of them.
//!
//! ```text
//! cargo run --release -p halma-loadgen --bin streams -- --url http://127.0.0.1:8080 --server-pid 1234
//! ```

use std::error::Error;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::sync::{mpsc, Barrier};

const USAGE: &str = "usage: streams --url http://127.0.0.1:PORT [--server-pid PID] [--idle N] [--idle-games N] [--listeners 1,100,1000] [--moves N]\n";

/// Longest wait for any one answer or event.
const TIMEOUT: Duration = Duration::from_secs(30);

struct Args {
    url: String,
    server_pid: Option<u32>,
    idle: usize,
    idle_games: usize,
    listeners: Vec<usize>,
    moves: usize,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        url: String::new(),
        server_pid: None,
        idle: 2000,
        idle_games: 20,
        listeners: vec![1, 100, 1000],
        moves: 20,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        let number = |text: String| {
            text.parse::<usize>()
                .map_err(|_| format!("{flag}: {text:?} is not a number"))
        };
        match flag.as_str() {
            "--url" => args.url = value()?,
            "--server-pid" => {
                args.server_pid = Some(value()?.parse().map_err(|_| "--server-pid: not a pid")?)
            }
            "--idle" => args.idle = number(value()?)?,
            "--idle-games" => args.idle_games = number(value()?)?.max(1),
            "--moves" => args.moves = number(value()?)?.max(1),
            "--listeners" => {
                args.listeners = value()?
                    .split(',')
                    .map(|n| {
                        n.trim()
                            .parse::<usize>()
                            .map_err(|_| format!("--listeners: {n:?}"))
                    })
                    .collect::<Result<_, _>>()?;
            }
            "--help" | "-h" => return Err(String::new()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    let local = args
        .url
        .strip_prefix("http://127.0.0.1:")
        .is_some_and(|port| port.parse::<u16>().is_ok());
    if !local {
        return Err(
            "--url must be http://127.0.0.1:PORT (this benchmark only loads the local machine)"
                .into(),
        );
    }
    Ok(args)
}

fn main() -> std::process::ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(err) => {
            eprintln!("streams: {err}\n{USAGE}");
            return std::process::ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("streams: cannot start the runtime: {err}");
            return std::process::ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(&args)) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("streams: {err}");
            std::process::ExitCode::FAILURE
        }
    }
}

type Failure = Box<dyn Error + Send + Sync>;

async fn run(args: &Args) -> Result<(), Failure> {
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .build()?;
    if args.idle > 0 {
        idle_streams(&client, args).await?;
    }
    for &listeners in &args.listeners {
        fan_out(&client, args, listeners).await?;
    }
    Ok(())
}

/// Sends a request and reads its JSON answer, failing on an error status.
async fn json_answer(request: reqwest::RequestBuilder) -> Result<Value, Failure> {
    Ok(request
        .timeout(TIMEOUT)
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?)
}

/// A new two-player star game with human seats: its id and host token.
async fn new_game(client: &reqwest::Client, url: &str) -> Result<(String, String), Failure> {
    let created = json_answer(
        client
            .post(format!("{url}/v1/games"))
            .json(&json!({"board": "star", "players": 2, "first_seat": 0})),
    )
    .await?;
    let id = created["game"]["id"]
        .as_str()
        .ok_or("no game id")?
        .to_owned();
    let host = created["tokens"]["host"]
        .as_str()
        .ok_or("no host token")?
        .to_owned();
    Ok((id, host))
}

/// Plays the first legal move with `host`'s token at `version`; returns the new version.
async fn play_first(
    client: &reqwest::Client,
    url: &str,
    id: &str,
    host: &str,
    version: u64,
) -> Result<u64, Failure> {
    let moves = json_answer(client.get(format!("{url}/v1/games/{id}/moves"))).await?;
    let first = &moves["moves"][0];
    let answer = json_answer(
        client
            .post(format!("{url}/v1/games/{id}/moves"))
            .bearer_auth(host)
            .header("if-match", format!("\"{version}\""))
            .json(&json!({"from": first["from"], "to": first["to"]})),
    )
    .await?;
    answer["game"]["version"]
        .as_u64()
        .ok_or_else(|| "no version".into())
}

/// One open stream: reads SSE events and reports each event's id when it arrives.
async fn listen(
    client: reqwest::Client,
    url: String,
    id: String,
    ready: Arc<Barrier>,
    events: mpsc::UnboundedSender<(u64, Instant)>,
) -> Result<(), Failure> {
    let mut response = client
        .get(format!("{url}/v1/games/{id}/events"))
        .send()
        .await?
        .error_for_status()?;
    let mut buffer = String::new();
    let mut first = true;
    loop {
        let Some(chunk) = response.chunk().await? else {
            return Ok(());
        };
        let now = Instant::now();
        buffer.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = buffer.find("\n\n") {
            let block: String = buffer.drain(..end + 2).collect();
            let event_id = block
                .lines()
                .find_map(|l| l.strip_prefix("id: "))
                .and_then(|n| n.trim().parse::<u64>().ok());
            let is_move = block.lines().any(|l| l == "event: move");
            if first && block.lines().any(|l| l == "event: game") {
                first = false;
                ready.wait().await;
            } else if let (Some(n), true) = (event_id, is_move) {
                if events.send((n, now)).is_err() {
                    return Ok(());
                }
            }
        }
    }
}

/// Opens `count` streams, going round `games`, and waits until each has read its first event.
async fn open_listeners(
    client: &reqwest::Client,
    url: &str,
    games: &[String],
    count: usize,
    events: &mpsc::UnboundedSender<(u64, Instant)>,
) -> Result<Vec<tokio::task::JoinHandle<Result<(), Failure>>>, Failure> {
    let ready = Arc::new(Barrier::new(count + 1));
    let tasks = (0..count)
        .map(|i| {
            tokio::spawn(listen(
                client.clone(),
                url.to_owned(),
                games[i % games.len()].clone(),
                Arc::clone(&ready),
                events.clone(),
            ))
        })
        .collect();
    tokio::time::timeout(Duration::from_secs(120), ready.wait())
        .await
        .map_err(|_| format!("{count} streams did not all open within 120 s"))?;
    Ok(tasks)
}

/// The memory idle streams hold in the server.
async fn idle_streams(client: &reqwest::Client, args: &Args) -> Result<(), Failure> {
    let before = resident_kib(args.server_pid);
    let (events, _unused) = mpsc::unbounded_channel();
    let mut games = Vec::new();
    for _ in 0..args.idle_games {
        games.push(new_game(client, &args.url).await?.0);
    }
    let tasks = open_listeners(client, &args.url, &games, args.idle, &events).await?;
    // Let the server settle (allocations of the last connections, feed tasks).
    tokio::time::sleep(Duration::from_millis(500)).await;
    let after = resident_kib(args.server_pid);
    match (before, after) {
        (Some(before), Some(after)) => println!(
            "idle streams: {} open on {} games; server resident memory {} KiB -> {} KiB: {:.1} KiB per stream",
            args.idle,
            games.len(),
            before,
            after,
            (after as f64 - before as f64) / args.idle as f64
        ),
        _ => println!(
            "idle streams: {} open on {} games (no --server-pid: memory not measured)",
            args.idle,
            games.len()
        ),
    }
    for task in tasks {
        task.abort();
    }
    Ok(())
}

/// The time from a move's acknowledgement to its event, at `listeners` listeners of one game.
async fn fan_out(client: &reqwest::Client, args: &Args, listeners: usize) -> Result<(), Failure> {
    let (id, host) = new_game(client, &args.url).await?;
    let (sender, mut arrivals) = mpsc::unbounded_channel();
    let tasks = open_listeners(
        client,
        &args.url,
        std::slice::from_ref(&id),
        listeners,
        &sender,
    )
    .await?;
    drop(sender);
    let mut latencies = Vec::with_capacity(listeners * args.moves);
    let mut version = 1;
    for ply in 1..=args.moves as u64 {
        version = play_first(client, &args.url, &id, &host, version).await?;
        let acknowledged = Instant::now();
        let mut heard = 0;
        while heard < listeners {
            let (event, at) = tokio::time::timeout(TIMEOUT, arrivals.recv())
                .await
                .map_err(|_| {
                    format!("move {ply}: only {heard} of {listeners} listeners heard of it")
                })?
                .ok_or("the listeners ended")?;
            if event != ply {
                return Err(format!("move {ply}: a listener read event {event}").into());
            }
            heard += 1;
            // An event read before the acknowledgement counts as 0.
            latencies.push(at.saturating_duration_since(acknowledged));
        }
    }
    for task in tasks {
        task.abort();
    }
    latencies.sort_unstable();
    let pick = |q: f64| latencies[((latencies.len() - 1) as f64 * q).round() as usize];
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "fan-out: {listeners} listeners, {} moves: acknowledgement to event p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        args.moves,
        ms(pick(0.5)),
        ms(pick(0.9)),
        ms(pick(0.99)),
        ms(pick(1.0)),
    );
    Ok(())
}

/// The resident memory of a process in KiB, from `/proc/PID/status`.
fn resident_kib(pid: Option<u32>) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{}/status", pid?)).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}
