//! Whole games on every board and player count, played through the SDK until they end with a
//! result.
//!
//! The human seats (all moved with the host token) first play random legal moves; after each
//! listing the test checks the listing against the game, checks that the piece's own listing
//! agrees, and sends moves the listing leaves out, which must all be refused without changing
//! the game. Random play rarely finishes a game on the star or the 16 x 16 board, so after a
//! number of random moves the human seats follow the service's suggestions (level 4, the plain
//! greedy player) to the end. AI seats, where a game has them, answer within each move request.

use std::collections::BTreeSet;

use halma_client::{types, GameSession};

use crate::checks::{check_finished, check_listing, probe_unlisted_moves, Board};
use crate::rng::Rng;
use crate::server::TestServer;

/// Level and thinking time of the suggestions the human seats follow, and of the AI seats.
const AI_LEVEL: u8 = 4;
const AI_TIME_MS: u32 = 10;

/// One game to play.
struct Setup {
    /// The test's name, which seeds its random moves.
    name: &'static str,
    board: types::BoardName,
    players: u8,
    options: types::RuleOptions,
    /// The seats the service's AI plays.
    ai_seats: &'static [u8],
    /// Moves of the human seats chosen at random before they follow the suggestions.
    random_moves: usize,
    /// Moves of the human seats after which the game must be over.
    max_moves: usize,
}

impl Setup {
    fn new(name: &'static str, board: types::BoardName, players: u8) -> Self {
        Self {
            name,
            board,
            players,
            options: types::RuleOptions::default(),
            ai_seats: &[],
            random_moves: 30,
            max_moves: 1_000,
        }
    }

    fn request(&self) -> types::CreateGameRequest {
        let seats = (0..self.players)
            .map(|seat| {
                if self.ai_seats.contains(&seat) {
                    types::SeatRequest {
                        kind: Some(types::SeatKind::Ai),
                        level: Some(AI_LEVEL),
                        name: None,
                    }
                } else {
                    types::SeatRequest {
                        name: Some(format!("random {seat}")),
                        ..types::SeatRequest::default()
                    }
                }
            })
            .collect();
        types::CreateGameRequest {
            public: None,
            ai_time_ms: Some(AI_TIME_MS),
            board: Some(self.board),
            first_seat: Some(0),
            options: Some(self.options.clone()),
            players: Some(self.players),
            position: None,
            record: None,
            record_json: None,
            seats,
        }
    }
}

pub async fn star_2_players(server: &TestServer) {
    play(
        server,
        Setup::new("star_2_players", types::BoardName::Star, 2),
    )
    .await;
}

pub async fn star_3_players(server: &TestServer) {
    let mut setup = Setup::new("star_3_players", types::BoardName::Star, 3);
    // The game ends at the first finish.
    setup.options.play_on = Some(false);
    play(server, setup).await;
}

pub async fn star_4_players_with_ai_seats(server: &TestServer) {
    let mut setup = Setup::new("star_4_players_with_ai_seats", types::BoardName::Star, 4);
    // Seats 0 and 2 (opposite corners) against the AI's seats 1 and 3.
    setup.options.teams = Some(true);
    // Random opening moves can wall a piece in so that no team can ever fill its goals (about
    // 1 game in 100 in the arena); the star has no end for that by default, so this game plays
    // with the repetition draw, an option on every board.
    setup.options.repetition_draw = Some(true);
    setup.ai_seats = &[1, 3];
    play(server, setup).await;
}

pub async fn star_6_players(server: &TestServer) {
    let mut setup = Setup::new("star_6_players", types::BoardName::Star, 6);
    setup.options.play_on = Some(false);
    setup.random_moves = 36;
    play(server, setup).await;
}

pub async fn star_arm_size_3(server: &TestServer) {
    let mut setup = Setup::new("star_arm_size_3", types::BoardName::Star, 2);
    setup.options.arm_size = Some(3);
    setup.random_moves = 20;
    play(server, setup).await;
}

pub async fn square16_2_players(server: &TestServer) {
    play(
        server,
        Setup::new("square16_2_players", types::BoardName::Square16, 2),
    )
    .await;
}

pub async fn square16_4_players_with_ai_seats(server: &TestServer) {
    let mut setup = Setup::new(
        "square16_4_players_with_ai_seats",
        types::BoardName::Square16,
        4,
    );
    setup.options.play_on = Some(false);
    setup.ai_seats = &[1, 2];
    play(server, setup).await;
}

pub async fn square10(server: &TestServer) {
    let mut setup = Setup::new("square10", types::BoardName::Square10, 2);
    // Random play to the end: the leave-home rule (default on, 50 moves) ends the game.
    setup.random_moves = setup.max_moves;
    play(server, setup).await;
}

pub async fn square8(server: &TestServer) {
    let mut setup = Setup::new("square8", types::BoardName::Square8, 2);
    // Random play to the end: the leave-home rule (default on, 30 moves) ends the game.
    setup.random_moves = setup.max_moves;
    play(server, setup).await;
}

/// Plays the game of `setup` to its end, checking every step (see the module's docs).
async fn play(server: &TestServer, setup: Setup) {
    let (mut rng, seed) = Rng::for_test(setup.name);
    let (mut session, tokens) = GameSession::create(server.client(), setup.request())
        .await
        .unwrap();
    check_new_game(&session, &tokens, &setup);
    let board = Board::of(&session).await;

    let mut played_log: Vec<types::MoveView> = Vec::new();
    let mut own_moves = 0;
    while !session.is_finished() {
        assert!(
            own_moves < setup.max_moves,
            "{}: no result after {own_moves} moves of the human seats (HALMA_BLACKBOX_SEED={seed})",
            setup.name
        );
        let seat = session.to_move().unwrap();
        assert!(!setup.ai_seats.contains(&seat), "an AI seat is to move");
        let listing = session.legal_moves().await.unwrap();
        check_listing(session.game(), &listing, &board);

        let random = own_moves < setup.random_moves;
        let choice = if random {
            probe_unlisted_moves(&mut session, &listing, &board, &mut rng).await;
            rng.pick(&listing.moves).unwrap().clone()
        } else {
            let hint = session
                .suggestion(Some(AI_LEVEL), Some(AI_TIME_MS))
                .await
                .unwrap();
            assert_eq!((hint.version, hint.seat), (session.version(), seat));
            assert_eq!(
                hint.principal_variation.first(),
                Some(&format!("{}-{}", hint.from, hint.to))
            );
            let listed = listing
                .moves
                .iter()
                .find(|mv| mv.from == hint.from && mv.to == hint.to);
            listed.expect("the suggested move is listed").clone()
        };
        if random || own_moves % 8 == 0 {
            check_piece_listing(&session, &listing, &choice.from).await;
        }

        let before = session.version();
        // The three ways to give a move, in turn.
        let played = match own_moves % 3 {
            0 => session.play(&choice.from, &choice.to).await,
            1 => session.play_path(choice.path.iter().cloned()).await,
            _ => session.play_notation(&choice.notation).await,
        }
        .unwrap_or_else(|err| panic!("{} refused: {err}", choice.notation));
        let own = &played[0];
        assert_eq!(
            (&own.from, &own.to, own.seat),
            (&choice.from, &choice.to, seat)
        );
        // Given as (from, to) the service picks a shortest path too.
        assert_eq!(own.path.len(), choice.path.len(), "{own:?} for {choice:?}");
        assert!(
            played[1..]
                .iter()
                .all(|mv| setup.ai_seats.contains(&mv.seat)),
            "{played:?}"
        );
        assert_eq!(session.version(), before + 1, "one write, one version");
        assert_eq!(session.game().version, session.version());
        played_log.extend(played);
        assert_eq!(
            usize::try_from(session.game().move_count).unwrap(),
            played_log.len()
        );
        own_moves += 1;
    }

    check_finished(&mut session, &played_log).await;
    println!(
        "{} ({}): over after {} moves, {own_moves} of them by the human seats; result {:?}",
        setup.name,
        server.store(),
        played_log.len(),
        session.game().result
    );
}

/// A new game: version 1, nothing played, the seats and armies asked for.
fn check_new_game(session: &GameSession, tokens: &types::GameTokens, setup: &Setup) {
    let game = session.game();
    assert_eq!(session.version(), 1);
    assert_eq!((game.version, game.move_count), (1, 0));
    assert_eq!(game.status, types::GameStatus::Ongoing);
    assert_eq!((game.board, game.players), (setup.board, setup.players));
    assert_eq!(game.to_move, Some(0));
    assert_eq!(tokens.seats.len(), usize::from(setup.players));
    assert!(
        tokens.seats.iter().all(Option::is_some),
        "every seat has a token"
    );
    let distinct: BTreeSet<&str> = tokens
        .seats
        .iter()
        .flatten()
        .map(String::as_str)
        .chain([tokens.host.as_str()])
        .collect();
    assert_eq!(
        distinct.len(),
        tokens.seats.len() + 1,
        "tokens are distinct"
    );
    assert_eq!(game.seats.len(), usize::from(setup.players));
    for seat in &game.seats {
        let ai = setup.ai_seats.contains(&seat.seat);
        let kind = if ai {
            types::SeatKind::Ai
        } else {
            types::SeatKind::Human
        };
        assert_eq!((seat.kind, seat.level), (kind, ai.then_some(AI_LEVEL)));
    }
    assert!(game.armies.len() >= usize::from(setup.players));
    for army in &game.armies {
        let home: BTreeSet<&String> = army.home.iter().collect();
        let pieces: BTreeSet<&String> = army.pieces.iter().collect();
        assert_eq!(home, pieces, "army {} starts at home", army.army);
        assert_eq!(army.goal.len(), army.home.len());
    }
}

/// The listing of one piece is the part of the full listing that moves it, and another
/// seat's piece lists nothing.
async fn check_piece_listing(session: &GameSession, listing: &types::LegalMoves, from: &str) {
    let piece = session.legal_moves_from(from).await.unwrap();
    assert_eq!(piece.version, listing.version);
    let expected: BTreeSet<(&str, &str)> = listing
        .moves
        .iter()
        .filter(|mv| mv.from == from)
        .map(|mv| (mv.from.as_str(), mv.to.as_str()))
        .collect();
    let got: BTreeSet<(&str, &str)> = piece
        .moves
        .iter()
        .map(|mv| (mv.from.as_str(), mv.to.as_str()))
        .collect();
    assert_eq!(got, expected, "moves of {from}");
    let game = session.game();
    let other = game
        .armies
        .iter()
        .filter(|army| Some(army.seat) != game.to_move)
        .find_map(|army| army.pieces.first());
    if let Some(other) = other {
        let none = session.legal_moves_from(other).await.unwrap();
        assert!(
            none.moves.is_empty(),
            "{other} is not the mover's: {none:?}"
        );
    }
}

/// A game the AI plays alone, driven by the host with `ai-turns` until it ends.
pub async fn ai_plays_every_seat(server: &TestServer) {
    let request = types::CreateGameRequest {
        public: None,
        ai_time_ms: Some(AI_TIME_MS),
        board: Some(types::BoardName::Star),
        first_seat: None,
        options: Some(types::RuleOptions {
            arm_size: Some(3),
            ..types::RuleOptions::default()
        }),
        players: Some(2),
        position: None,
        record: None,
        record_json: None,
        seats: vec![
            types::SeatRequest {
                kind: Some(types::SeatKind::Ai),
                level: Some(AI_LEVEL),
                name: Some("north".to_owned()),
            },
            types::SeatRequest {
                kind: Some(types::SeatKind::Ai),
                level: Some(2),
                name: None,
            },
        ],
    };
    let (mut session, _tokens) = GameSession::create(server.client(), request).await.unwrap();
    let moved_at_creation = usize::try_from(session.game().move_count).unwrap();
    let mut played_log = Vec::new();
    let mut calls = 0;
    while !session.is_finished() {
        assert!(
            calls < 500,
            "the AI game has no result after {calls} rounds"
        );
        let before = session.version();
        let played = session.ai_turns().await.unwrap();
        assert!(!played.is_empty());
        assert_eq!(session.version(), before + 1);
        played_log.extend(played);
        calls += 1;
    }
    // The moves made when the game was created (the AI seat to move first) open the record.
    let record = session.record().await.unwrap();
    let mut all = record.moves[..moved_at_creation].to_vec();
    all.extend(played_log);
    check_finished(&mut session, &all).await;
    println!(
        "ai_plays_every_seat ({}): over after {} moves in {calls} rounds; result {:?}",
        server.store(),
        all.len(),
        session.game().result
    );
}
