//! Prints a board's cell names laid out as the board is drawn.
//!
//! `cargo run -p halma-rules --example board -- star 4` (or `square8`, `square10`, `square16`).

use halma_rules::{Board, BoardKind};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let kind = match args.next().as_deref() {
        Some("square16") => BoardKind::Square16,
        Some("square10") => BoardKind::Square10,
        Some("square8") => BoardKind::Square8,
        _ => BoardKind::Star,
    };
    let arm = args.next().map(|a| a.parse()).transpose()?.unwrap_or(4);
    let board = Board::get(kind, arm)?;
    let width = board.cells().iter().map(|c| c.x).max().unwrap_or(0) as usize + 1;
    let height = board.cells().iter().map(|c| c.y).max().unwrap_or(0) as usize + 1;
    let step = if kind == BoardKind::Star { 2 } else { 4 };
    let mut rows = vec![vec![' '; width * step + 4]; height];
    for c in board.cells() {
        let col = c.x as usize * step;
        for (i, ch) in c.name.chars().enumerate() {
            rows[c.y as usize][col + i] = ch;
        }
    }
    for r in rows {
        println!("{}", r.into_iter().collect::<String>().trim_end());
    }
    Ok(())
}
