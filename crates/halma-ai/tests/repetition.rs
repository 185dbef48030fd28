//! A side that is ahead never steers into a repetition: on positions where the move a level
//! would play goes back to a position of the game (once seen, or twice: the third time ends the
//! game in a draw on boards with the repetition rule), every level plays another move.

// Tests fail by panicking: unwrapping is how a test says "this must succeed".
#![allow(clippy::unwrap_used)]

use std::sync::Arc;
use std::time::Duration;

use halma_ai::eval::relative_score;
use halma_ai::{suggest, RaceEvaluator, SearchLimits, Sides};
use halma_rules::{
    BoardKind, Game, GameSetup, MoveInput, Position, RuleOptions, SplitMix64, Variant,
};

/// Positions of random games on `board` where the side to move is ahead by the evaluation.
fn positions_ahead(board: BoardKind, wanted: usize) -> (Variant, Vec<Position>) {
    let setup = GameSetup {
        board,
        players: 2,
        options: RuleOptions::default(),
    };
    let variant = Arc::new(Variant::new(&setup).unwrap());
    let eval = RaceEvaluator::new(&variant);
    let sides = Sides::new(&variant);
    let mut found = Vec::new();
    let mut rng = SplitMix64::new(11);
    while found.len() < wanted {
        let mut game = Game::new(Arc::clone(&variant), variant.seat(0).unwrap());
        for ply in 0..60 {
            if game.is_over() {
                break;
            }
            let legal = game.legal_moves();
            let pick = &legal[rng.below(legal.len() as u64) as usize];
            game.play(&MoveInput::Path(pick.path.clone())).unwrap();
            let pos = *game.position();
            let unit = sides.unit(pos.to_move());
            if ply > 10
                && ply % 7 == 0
                && !game.is_over()
                && relative_score(&eval, &sides, &pos, unit) > 40
            {
                found.push(pos);
            }
        }
    }
    found.truncate(wanted);
    (Variant::clone(&variant), found)
}

#[test]
fn a_side_that_is_ahead_does_not_repeat_a_position() {
    for board in [BoardKind::Square8, BoardKind::Star] {
        let (variant, positions) = positions_ahead(board, 6);
        for pos in &positions {
            for level in [1, 2, 4, 6, 10] {
                for seed in 1..=3 {
                    let limits = SearchLimits {
                        level,
                        time_budget: Duration::from_millis(40),
                        seed,
                    };
                    let easy = suggest(&variant, pos, &[], &limits).unwrap().mv;
                    let mut next = *pos;
                    variant.play_unchecked(&mut next, easy);
                    // The easy move goes back to a position seen once, or seen twice already.
                    for seen in [vec![next.hash()], vec![next.hash(), 7, next.hash()]] {
                        let chosen = suggest(&variant, pos, &seen, &limits).unwrap().mv;
                        let mut after = *pos;
                        variant.play_unchecked(&mut after, chosen);
                        assert!(
                            !seen.contains(&after.hash()),
                            "{board:?} level {level} seed {seed}: {chosen:?} repeats a position"
                        );
                    }
                }
            }
        }
    }
}
