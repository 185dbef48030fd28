//! Self-play smoke tests: fast games between two copies of the AI end with a result well
//! before a move cap, on every board kind and player count, with and without the
//! anti-blocking rule. (The 200-games-per-board runs live in the arena binary.)

// Test code: a failed setup should fail the test loudly.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;
use std::time::Duration;

use halma_ai::{suggest, SearchLimits};
use halma_rules::{notation, BoardKind, Game, GameSetup, MoveInput, RuleOptions, Variant};

/// Plays a game to its end (or the cap) and returns its length in plies when it ended.
fn play_out(mut game: Game, level: u8, ms: u64, cap: usize) -> Option<usize> {
    let mut history = vec![game.position().hash()];
    let mut seed = 1;
    while !game.is_over() && game.record().len() < cap {
        let limits = SearchLimits {
            level,
            time_budget: Duration::from_millis(ms),
            seed,
        };
        seed += 1;
        let s = suggest(game.variant(), game.position(), &history, &limits).unwrap();
        game.play(&MoveInput::FromTo(s.mv.from, s.mv.to)).unwrap();
        history.push(game.position().hash());
    }
    game.is_over().then(|| game.record().len())
}

fn new_game(board: BoardKind, players: u8, options: RuleOptions) -> Game {
    let v = Arc::new(
        Variant::new(&GameSetup {
            board,
            players,
            options,
        })
        .unwrap(),
    );
    let first = v.seat(0).unwrap();
    Game::new(v, first)
}

#[test]
fn two_player_games_end_on_every_board() {
    for board in BoardKind::ALL {
        let game = new_game(board, 2, RuleOptions::default());
        let len = play_out(game, 10, 4, 1500);
        assert!(len.is_some(), "{board:?}: no result after 1500 plies");
    }
}

#[test]
fn multi_player_star_games_end() {
    for (players, teams) in [(3, false), (4, true), (6, false)] {
        let options = RuleOptions {
            teams: Some(teams),
            arm_size: Some(3),
            ..RuleOptions::default()
        };
        let game = new_game(BoardKind::Star, players, options);
        let len = play_out(game, 10, 3, 3000);
        assert!(
            len.is_some(),
            "{players} players: no result after 3000 plies"
        );
    }
}

#[test]
fn star_without_anti_blocking_ends() {
    let options = RuleOptions {
        anti_blocking: Some(false),
        ..RuleOptions::default()
    };
    let game = new_game(BoardKind::Star, 2, options);
    assert!(play_out(game, 10, 4, 1500).is_some());
}

#[test]
fn last_piece_gets_home_without_shuffling() {
    // Each side has one piece left outside its goal, in the middle of the board, and the
    // goal's free cell is the tip behind its own pieces: the pieces inside must make room.
    // The game ends within a few dozen plies, with the anti-blocking rule on or off.
    for anti_blocking in ["0", "1"] {
        let text = format!(
            "star 2 anti_blocking={anti_blocking} g7,n1,n2,n3,n4,o1,o2,o3,p1,p2/b1,b2,c1,c2,c3,d1,d2,d3,d4,k7 1 60,60"
        );
        let (v, pos) = notation::parse_position(&text).unwrap();
        let first = v.seat(0).unwrap();
        let game = Game::from_position(Arc::new(v), first, pos);
        let len = play_out(game, 6, 1000, 80);
        assert!(
            len.is_some(),
            "anti_blocking={anti_blocking}: still going after 80 plies"
        );
    }
}
