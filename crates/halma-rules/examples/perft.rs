//! Prints perft counts and timings from a starting position.
//!
//! `cargo run --release -p halma-rules --example perft -- --board star --players 2 --depth 5`
//! Boards: `star` (arm 4), `star3` (arm 3), `square16`, `square10`, `square8`; `--fen TEXT`
//! starts from a position in the notation instead; `--plain` makes every move but the last
//! instead of counting the last two plies incrementally.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use halma_rules::{perft, BoardKind, GameSetup, Position, RuleOptions, Variant};

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("perft: {e}");
            eprintln!("usage: perft --board star|star3|square16|square10|square8 [--players N] [--depth D] [--fen TEXT] [--options k=v,..] [--plain]");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let mut board = "star".to_owned();
    let mut players = 2u8;
    let mut depth = 4u32;
    let mut fen = None;
    let mut plain = false;
    let mut extra = halma_rules::RuleOptions::default();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--board" => board = value()?,
            "--players" => players = value()?.parse()?,
            "--depth" => depth = value()?.parse()?,
            "--fen" => fen = Some(value()?),
            "--plain" => plain = true,
            "--options" => {
                for pair in value()?.split(',') {
                    let (k, v) = pair
                        .split_once('=')
                        .ok_or("--options takes key=value pairs")?;
                    extra.set_pair(k, v)?;
                }
            }
            _ => return Err(format!("unknown argument '{a}'").into()),
        }
    }
    let (variant, pos) = if let Some(text) = fen {
        let (v, p) = halma_rules::notation::parse_position(&text)?;
        (Arc::new(v), p)
    } else {
        let (kind, arm) = match board.as_str() {
            "star" => (BoardKind::Star, None),
            "star3" => (BoardKind::Star, Some(3)),
            "square16" => (BoardKind::Square16, None),
            "square10" => (BoardKind::Square10, None),
            "square8" => (BoardKind::Square8, None),
            _ => return Err(format!("unknown board '{board}'").into()),
        };
        let options = RuleOptions {
            arm_size: arm.or(extra.arm_size),
            ..extra
        };
        let v = Arc::new(Variant::new(&GameSetup {
            board: kind,
            players,
            options,
        })?);
        let first = v.seat(0).ok_or("no seats")?;
        let p = Position::start(&v, first);
        (v, p)
    };
    println!("{}", halma_rules::notation::format_position(&variant, &pos));
    for d in 1..=depth {
        let t = Instant::now();
        let n = if plain {
            perft::perft_plain(&variant, &pos, d)
        } else {
            perft::perft(&variant, &pos, d)
        };
        let secs = t.elapsed().as_secs_f64();
        println!(
            "depth {d}: {n} moves in {secs:.3} s ({:.1} M/s)",
            n as f64 / secs.max(1e-9) / 1e6
        );
    }
    Ok(())
}
