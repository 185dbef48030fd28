//! Lists the moves of the move generation benchmark's 20 mid-game positions a fixed number of
//! times and prints the time per position (median and fastest of the rounds): a fixed amount
//! of work, so that instruction counts (`valgrind --tool=callgrind`) compare between builds.
//!
//! `cargo run --release -p halma-rules --example listing -- --setup star2 --what paths --iters 1000 --rounds 7`
//! Setups: `star2`, `star6`, `square16`; what: `generate` (`generate_moves`), `count`
//! (`count_moves`), `paths` (`legal_moves_with_paths`).

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

use halma_rules::{Move, Position, Variant};

#[path = "../benches/support/midgame.rs"]
mod midgame;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("listing: {e}");
            eprintln!("usage: listing [--setup star2|star6|square16] [--what generate|count|paths] [--iters N] [--rounds R]");
            ExitCode::FAILURE
        }
    }
}

/// One pass over the positions; returns the number of moves listed.
fn pass(v: &Variant, positions: &[Position], what: &str, list: &mut Vec<Move>) -> usize {
    positions
        .iter()
        .map(|p| match what {
            "generate" => {
                v.generate_moves(black_box(p), list);
                list.len()
            }
            "count" => v.count_moves(black_box(p)) as usize,
            _ => v.legal_moves_with_paths(black_box(p)).len(),
        })
        .sum()
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let mut setup = "star2".to_owned();
    let mut what = "generate".to_owned();
    let mut iters = 1000u32;
    let mut rounds = 1u32;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--setup" => setup = value()?,
            "--what" => what = value()?,
            "--iters" => iters = value()?.parse()?,
            "--rounds" => rounds = value()?.parse()?,
            _ => return Err(format!("unknown argument '{a}'").into()),
        }
    }
    if !["generate", "count", "paths"].contains(&what.as_str()) {
        return Err(format!("unknown --what '{what}'").into());
    }
    let &(_, board, players) = midgame::SETUPS
        .iter()
        .find(|(name, _, _)| *name == setup)
        .ok_or_else(|| format!("unknown setup '{setup}'"))?;
    let v = midgame::variant(board, players);
    let positions = midgame::positions(&v);
    let mut list = Vec::with_capacity(512);
    let expected = pass(&v, &positions, "generate", &mut list);
    let mut times = Vec::new();
    for _ in 0..rounds.max(1) {
        let t = Instant::now();
        for _ in 0..iters {
            let n = pass(&v, &positions, &what, &mut list);
            if n != expected {
                return Err(format!("{what} listed {n} moves, generate_moves {expected}").into());
            }
        }
        times.push(t.elapsed().as_secs_f64() / f64::from(iters.max(1)) / positions.len() as f64);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "{setup} {what}: {expected} moves in {} positions; per position median {:.3} us, fastest {:.3} us ({} rounds of {iters})",
        positions.len(),
        times[times.len() / 2] * 1e6,
        times[0] * 1e6,
        times.len()
    );
    Ok(())
}
