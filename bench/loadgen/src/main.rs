//! `loadgen`: a closed-loop HTTP load generator for the halma service.
//!
//! Each of `--connections` virtual users owns one keep-alive connection and sends its next
//! request as soon as the previous answer has been read, for a warm-up and then for the
//! measured `--duration`. Five scenarios, run one after the other:
//!
//! - `get`: `GET /v1/games/{id}` over `--games` games (each with `--plies` plies played);
//! - `moves`: `GET /v1/games/{id}/moves` over the same games;
//! - `play`: every virtual user plays every seat of its own star game with the host token: it
//!   lists the legal moves, picks the one that brings a piece furthest towards the tip of the
//!   seat's goal corner, posts it with the version of the last answer as `If-Match`, and
//!   starts a new game when the game ends (about 130 plies with two players) or reaches
//!   `--max-plies`. Its table rows are the move posts, and the listings and creations made on
//!   the way;
//! - `suggest`: `GET /v1/games/{id}/suggestion?level=10&time_ms=N` (`--suggest-ms`) over
//!   `--games` games with `--suggest-plies` plies played, each answer checked against the
//!   game's legal moves. Read-only. Besides the latency row it reports how many answers came
//!   later than the budget + 50 ms and + 100 ms, and the searches' mean depth and nodes;
//! - `health`: `GET /healthz`, which touches no store and no game: the floor of a request's
//!   cost on this machine (HTTP, routing, middleware, and the generator's own share), to set
//!   the other scenarios against.
//!
//! Every game created is a star game of `--players` players (2, 3, 4 or 6; two by default), so
//! the suggest scenario measures the AI of that many players: from three on, level 10's
//! reply-model search, and at six its ensemble of three.
//!
//! The output is a Markdown table (requests/s, p50, p90, p99, max latency, errors by status)
//! and, with `--json`, one JSON object per scenario. Only `http://127.0.0.1:PORT` targets are
//! accepted; every loop ends at its deadline or at `--max-requests`, whichever comes first.
//!
//! ```text
//! cargo run --release -p halma-loadgen -- --url http://127.0.0.1:8080 --connections 32 --duration 10
//! ```

mod api;
mod args;
mod cpu;
mod scenario;
mod stats;
mod suggest;

use std::error::Error;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use args::{Args, Command, Scenario, USAGE};
use scenario::{Prepared, Report};

/// How long the generator waits for the service's `/readyz`.
const READY_WAIT: Duration = Duration::from_secs(15);

fn main() -> ExitCode {
    let args = match Command::parse(std::env::args().skip(1)) {
        Ok(Command::Run(args)) => args,
        Ok(Command::Help) => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(err) => {
            eprintln!("loadgen: {err}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(args.threads)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("loadgen: cannot start the runtime: {err}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(&args)) {
        Ok(reports) => {
            print_table(&reports);
            // The first row of a scenario is its measured request: it must have succeeded.
            if let Some(row) = reports
                .iter()
                .filter_map(|r| r.rows.first())
                .find(|row| row.summary.ok == 0)
            {
                eprintln!("loadgen: {} had no successful answer", row.request);
                return ExitCode::FAILURE;
            }
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("loadgen: {err}");
            ExitCode::FAILURE
        }
    }
}

async fn run(args: &Args) -> Result<Vec<Report>, Box<dyn Error>> {
    println!(
        "loadgen: {} with {} connections, {} s per scenario after {} s of warm-up, {} client threads",
        args.url,
        args.connections,
        args.duration.as_secs(),
        args.warmup.as_secs(),
        args.threads
    );
    let probe = api::Http::new(&args.url, args.timeout)?;
    probe.wait_ready(READY_WAIT).await?;
    let geometry = Arc::new(probe.geometry().await?);

    let reads = args
        .scenarios
        .iter()
        .any(|s| matches!(s, Scenario::GetGame | Scenario::ListMoves));
    let ids = if reads {
        let started = Instant::now();
        let ids = scenario::create_games(args, &geometry, args.plies).await?;
        println!(
            "setup: {} games for the read scenarios, up to {} plies each, in {:.1} s",
            ids.len(),
            args.plies,
            started.elapsed().as_secs_f64()
        );
        ids
    } else {
        Vec::new()
    };

    let suggest = if args.scenarios.contains(&Scenario::Suggest) {
        let started = Instant::now();
        let targets = suggest::prepare(args, &geometry, &probe).await?;
        let ended = args.games - targets.len();
        println!(
            "setup: {} games for the suggest scenario ({} different positions), {} plies each{}, in {:.1} s",
            targets.len(),
            suggest::distinct_positions(&targets),
            args.suggest_plies,
            if ended > 0 {
                format!(" ({ended} more ended on the way and are left out)")
            } else {
                String::new()
            },
            started.elapsed().as_secs_f64()
        );
        targets
    } else {
        Vec::new()
    };
    let suggest = Arc::new(suggest);

    let mut reports = Vec::new();
    for &which in &args.scenarios {
        let urls: Vec<String> = match which {
            Scenario::Health => vec![probe.url("/healthz")],
            _ => ids
                .iter()
                .map(|id| match which {
                    Scenario::ListMoves => probe.url(&format!("/v1/games/{id}/moves")),
                    _ => probe.url(&format!("/v1/games/{id}")),
                })
                .collect(),
        };
        let prepared = Prepared {
            read_urls: Arc::new(urls),
            suggest: Arc::clone(&suggest),
        };
        let report = scenario::run(which, args, &geometry, &prepared).await?;
        for (i, row) in report.rows.iter().enumerate() {
            if i > 0 && row.summary.requests == 0 {
                continue;
            }
            let s = &row.summary;
            println!(
                "[{}] {}: {} answers, {:.0} req/s, p50 {:.2} ms, p99 {:.2} ms, errors {}",
                row.scenario,
                row.request,
                s.requests,
                s.rps,
                s.p50_ms,
                s.p99_ms,
                s.errors_text()
            );
        }
        if which == Scenario::PlayMoves {
            let g = report.games;
            let mean = if g.finished == 0 {
                0.0
            } else {
                g.finished_plies as f64 / g.finished as f64
            };
            println!(
                "[play] games: {} started, {} played to the end ({mean:.0} plies on average), {} replaced at the ply limit",
                g.started, g.finished, g.capped
            );
        }
        if let Some(summary) = &report.suggest {
            for line in summary.lines() {
                println!("[suggest] {line}");
            }
        }
        print_cpu(&report, which);
        if args.json {
            println!("{}", serde_json::to_string(&report)?);
        }
        reports.push(report);
    }
    Ok(reports)
}

/// One line on the CPU use of the scenario: cores kept busy by each process, and CPU time
/// per answered request for the watched processes.
fn print_cpu(report: &Report, which: Scenario) {
    let answered = report.answered().max(1) as f64;
    let parts: Vec<String> = report
        .cpu
        .iter()
        .map(|u| match u.name.as_str() {
            "others" | "machine" => format!("{} {:.2} cores", u.name, u.cores),
            _ => format!(
                "{} {:.2} cores ({:.0} us/request)",
                u.name,
                u.cores,
                u.cpu_s * 1e6 / answered
            ),
        })
        .collect();
    println!("[{}] CPU: {}", which.name(), parts.join(", "));
}

fn print_table(reports: &[Report]) {
    println!();
    println!("| scenario | request | conc | requests | req/s | p50 ms | p90 ms | p99 ms | max ms | errors |");
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---|");
    // Rows after a scenario's first are the requests made on the way; empty ones are left out.
    let rows = reports
        .iter()
        .flat_map(|r| r.rows.iter().enumerate())
        .filter(|(i, row)| *i == 0 || row.summary.requests > 0)
        .map(|(_, row)| row);
    for row in rows {
        let s = &row.summary;
        println!(
            "| {} | {} | {} | {} | {:.0} | {:.2} | {:.2} | {:.2} | {:.2} | {} |",
            row.scenario,
            row.request,
            row.connections,
            s.requests,
            s.rps,
            s.p50_ms,
            s.p90_ms,
            s.p99_ms,
            s.max_ms,
            s.errors_text()
        );
    }
}
