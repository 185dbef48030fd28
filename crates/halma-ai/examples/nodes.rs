//! Runs the fixed-depth searches of the nodes-per-second benchmark and prints, per search, its
//! result (move, score, depth, nodes, line) and its time (median and fastest of the rounds):
//! the result shows that a change kept the search's answers, and the fixed work lets
//! instruction counts (`valgrind --tool=callgrind`) compare between builds.
//!
//! `cargo run --release -p halma-ai --example nodes -- --rounds 5 [--only star2_depth4]`

use std::process::ExitCode;
use std::time::Instant;

use halma_ai::RaceEvaluator;

#[path = "../benches/support/searches.rs"]
mod searches;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("nodes: {e}");
            eprintln!("usage: nodes [--rounds R] [--only NAME]");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let mut rounds = 1u32;
    let mut only = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--rounds" => rounds = value()?.parse()?,
            "--only" => only = Some(value()?),
            _ => return Err(format!("unknown argument '{a}'").into()),
        }
    }
    let chosen: Vec<_> = searches::SEARCHES
        .iter()
        .filter(|s| only.as_deref().is_none_or(|o| o == s.name))
        .collect();
    if chosen.is_empty() {
        return Err("no search of that name".into());
    }
    for s in chosen {
        let (variant, pos) = searches::midgame(s.board, s.players);
        let eval = RaceEvaluator::new(&variant);
        let mut times = Vec::new();
        let mut first = None;
        for _ in 0..rounds.max(1) {
            let t = Instant::now();
            let r = s.run(&variant, &eval, &pos).ok_or("no move")?;
            times.push(t.elapsed().as_secs_f64());
            match &first {
                None => first = Some(r),
                Some(f) if *f != r => {
                    return Err(format!("{}: the search is not deterministic", s.name).into())
                }
                Some(_) => {}
            }
        }
        let r = first.ok_or("no round ran")?;
        times.sort_by(f64::total_cmp);
        let median = times[times.len() / 2];
        let board = variant.board();
        let line: Vec<String> =
            r.pv.iter()
                .map(|m| format!("{}-{}", board.name(m.from), board.name(m.to)))
                .collect();
        println!(
            "{}: move {}-{} score {} depth {} nodes {} line {}; median {:.1} ms, fastest {:.1} ms, {:.0}k nodes/s (median)",
            s.name,
            board.name(r.mv.from),
            board.name(r.mv.to),
            r.score,
            r.depth,
            r.nodes,
            line.join(" "),
            median * 1e3,
            times[0] * 1e3,
            r.nodes as f64 / median / 1e3
        );
    }
    Ok(())
}
