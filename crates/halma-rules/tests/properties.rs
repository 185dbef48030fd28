//! Property tests: the fast generator against the reference one, `play` against the generator,
//! replays, hashes, and the notation parsers on arbitrary text.
#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod common;

use std::sync::Arc;

use common::{check_position, random_position, variants, Reference};
use halma_rules::{notation, Game, MoveInput, SplitMix64, Variant};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Random placements on every setup: the generator equals the reference generator.
    #[test]
    fn generator_matches_reference_on_random_positions(which in 0usize..64, seed in any::<u64>()) {
        let setups = variants();
        let setup = &setups[which % setups.len()];
        let mut rng = SplitMix64::new(seed);
        let (variant, pos) = random_position(setup, &mut rng);
        check_position(&Reference::new(&variant), &pos, &mut rng);
    }

    /// Random games from the start: every position checks out, the hash kept up to date equals a
    /// recomputation, and replaying the record (as paths and as from-to pairs) gives the same
    /// position and hash.
    #[test]
    fn random_games_replay_to_the_same_position(which in 0usize..64, seed in any::<u64>(), plies in 1usize..60) {
        let setups = variants();
        let setup = &setups[which % setups.len()];
        let variant = Arc::new(Variant::new(setup).unwrap());
        let mut rng = SplitMix64::new(seed);
        let first = variant.seat(rng.index(usize::from(variant.players()))).unwrap();
        let mut game = Game::new(variant.clone(), first);
        let reference = Reference::new(&variant);
        for _ in 0..plies {
            if game.is_over() {
                break;
            }
            check_position(&reference, game.position(), &mut rng);
            let moves = game.legal_moves();
            prop_assert!(!moves.is_empty(), "a game that is not over has a player with moves");
            let pick = &moves[rng.index(moves.len())];
            let input = if rng.index(2) == 0 { MoveInput::Path(pick.path.clone()) } else { MoveInput::FromTo(pick.mv.from, pick.mv.to) };
            game.play(&input).unwrap();
            prop_assert_eq!(game.position().hash(), game.position().compute_hash());
        }
        let as_paths: Vec<MoveInput> = game.record().iter().map(|m| MoveInput::Path(m.path.clone())).collect();
        let as_pairs: Vec<MoveInput> = game.record().iter().map(|m| MoveInput::FromTo(m.mv.from, m.mv.to)).collect();
        for inputs in [as_paths, as_pairs] {
            let again = Game::replay(variant.clone(), first, &inputs).unwrap();
            prop_assert_eq!(again.position(), game.position());
            prop_assert_eq!(again.position().hash(), game.position().hash());
            prop_assert_eq!(again.outcome(), game.outcome());
        }
        // The position survives the notation.
        let text = notation::format_position(&variant, game.position());
        let (_, parsed) = notation::parse_position(&text).unwrap();
        prop_assert_eq!(&parsed, game.position());
    }

    /// Arbitrary text never panics the position parser.
    #[test]
    fn position_parser_never_panics(text in "\\PC{0,80}") {
        let _ = notation::parse_position(&text);
    }

    /// Text shaped like a position, with random fields, never panics the parser.
    #[test]
    fn position_parser_never_panics_on_near_misses(
        board in prop::sample::select(vec!["star", "square16", "square10", "square8", "hex", ""]),
        players in 0u8..9,
        options in "[a-z_]{0,12}(=[0-9a-z_]{0,4})?",
        placement in "([a-r][0-9]{1,2},?){0,12}(/([a-r][0-9]{1,2},?){0,6}){0,6}",
        to_move in 0u8..9,
        seats in "([0-9]{1,3}[fx]?,?){0,7}",
    ) {
        let text = format!("{board} {players} {options} {placement} {to_move} {seats}");
        if let Ok((variant, pos)) = notation::parse_position(&text) {
            // Whatever parses can be used.
            let mut moves = Vec::new();
            variant.generate_moves(&pos, &mut moves);
            let _ = variant.legal_moves_with_paths(&pos);
        }
    }

    /// Arbitrary move text never panics the move parser, and a parsed move is checked without
    /// panicking either.
    #[test]
    fn move_parser_never_panics(text in "[a-z0-9\\- ]{0,24}|\\PC{0,24}", which in 0usize..64) {
        let setups = variants();
        let variant = Arc::new(Variant::new(&setups[which % setups.len()]).unwrap());
        if let Ok(cells) = notation::parse_move(variant.board(), &text) {
            let game = Game::new(variant.clone(), variant.seat(0).unwrap());
            let _ = game.check(&MoveInput::Path(cells.clone()));
            let _ = game.check(&MoveInput::FromTo(cells[0], cells[cells.len() - 1]));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// A snapshot (through JSON) restores the same game: position, hash, record, result, and the
    /// same behaviour afterwards (the same legal moves).
    #[test]
    fn snapshots_restore_the_same_game(which in 0usize..64, seed in any::<u64>(), plies in 0usize..80) {
        let setups = variants();
        let variant = Arc::new(Variant::new(&setups[which % setups.len()]).unwrap());
        let mut rng = SplitMix64::new(seed);
        let mut game = Game::new(variant.clone(), variant.seat(0).unwrap());
        for _ in 0..plies {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let pick = &moves[rng.index(moves.len())];
            game.play(&MoveInput::FromTo(pick.mv.from, pick.mv.to)).unwrap();
        }
        let json = serde_json::to_string(&game.snapshot()).unwrap();
        let back: halma_rules::GameSnapshot = serde_json::from_str(&json).unwrap();
        let restored = Game::restore(variant.clone(), &back).unwrap();
        prop_assert_eq!(restored.position(), game.position());
        prop_assert_eq!(restored.record(), game.record());
        prop_assert_eq!(restored.outcome(), game.outcome());
        prop_assert_eq!(restored.legal_moves(), game.legal_moves());
        prop_assert_eq!(restored.snapshot(), game.snapshot());
    }
}
