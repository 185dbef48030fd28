//! Draws the start position of every board, and a few games after some moves with the last
//! move's path and the cell names, as SVG files to look at.
//!
//! ```text
//! cargo run -p halma-render --example render_board [DIR]
//! ```
//!
//! The files go to `DIR`, or to the system's temporary folder (`/tmp`) when none is given.

use std::error::Error;
use std::path::PathBuf;
use std::sync::Arc;

use halma_render::{board_svg, RenderOptions};
use halma_rules::{BoardKind, Game, GameSetup, MoveInput, Position, RuleOptions, Variant};

fn main() -> Result<(), Box<dyn Error>> {
    let dir = std::env::args_os()
        .nth(1)
        .map_or_else(std::env::temp_dir, PathBuf::from);
    let fifteen = RuleOptions {
        fifteen_pieces: Some(true),
        ..RuleOptions::default()
    };
    let arm = |size| RuleOptions {
        arm_size: Some(size),
        ..RuleOptions::default()
    };
    let six = RuleOptions {
        six_pieces: Some(true),
        ..RuleOptions::default()
    };
    let boards = [
        ("star-2", BoardKind::Star, 2, RuleOptions::default()),
        ("star-2-arm2", BoardKind::Star, 2, arm(2)),
        ("star-3-arm3", BoardKind::Star, 3, arm(3)),
        ("star-6-arm5", BoardKind::Star, 6, arm(5)),
        ("star-4-six", BoardKind::Star, 4, six),
        ("star-3", BoardKind::Star, 3, RuleOptions::default()),
        ("star-6", BoardKind::Star, 6, RuleOptions::default()),
        ("star-2-fifteen", BoardKind::Star, 2, fifteen),
        ("square16-2", BoardKind::Square16, 2, RuleOptions::default()),
        ("square16-4", BoardKind::Square16, 4, RuleOptions::default()),
        ("square10", BoardKind::Square10, 2, RuleOptions::default()),
        ("square8", BoardKind::Square8, 2, RuleOptions::default()),
    ];
    for (name, board, players, options) in boards {
        let variant = Variant::new(&GameSetup {
            board,
            players,
            options,
        })?;
        let first = variant.seat(0).ok_or("the variant has no seat")?;
        let svg = board_svg(
            &variant,
            &Position::start(&variant, first),
            &RenderOptions::default(),
        );
        let path = dir.join(format!("halma-{name}.svg"));
        std::fs::write(&path, svg)?;
        println!("{}", path.display());
    }

    // A few moves into two-player games (each side plays its longest move), with the names
    // and the last move's path; the star also seen from the other side.
    let games = [
        ("star-2-moves", BoardKind::Star, false),
        ("star-2-moves-flipped", BoardKind::Star, true),
        ("square8-moves", BoardKind::Square8, false),
    ];
    for (name, board, turned) in games {
        let variant = Arc::new(Variant::new(&GameSetup {
            board,
            players: 2,
            options: RuleOptions::default(),
        })?);
        let first = variant.seat(0).ok_or("the variant has no seat")?;
        let mut game = Game::new(variant.clone(), first);
        let mut last = Vec::new();
        for _ in 0..5 {
            let longest = game
                .legal_moves()
                .into_iter()
                .max_by_key(|m| m.path.len())
                .ok_or("no legal move")?;
            last = game.play(&MoveInput::Path(longest.path))?.path.clone();
        }
        let options = RenderOptions {
            show_names: true,
            highlight: last,
            // Seen from seat 1's side: its home at the bottom.
            bottom: if turned { variant.seat(1) } else { None },
            ..RenderOptions::default()
        };
        let path = dir.join(format!("halma-{name}.svg"));
        std::fs::write(&path, board_svg(&variant, game.position(), &options))?;
        println!("{}", path.display());
    }
    Ok(())
}
