//! Statistics add up: a batch of games of a person (a one-ply player through the SDK) against
//! the AI, every move posted twice at once through the two instances (so the last move is
//! raced too), and `GET /v1/stats` counts each finished game exactly once.

use halma_client::reqwest::StatusCode;
use halma_client::{types, GameSession, ProblemCode};

use crate::server::TestServer;

/// Games in the batch.
const GAMES: usize = 4;
/// Most moves one game may take.
const MAX_MOVES: u32 = 2000;
/// The AI's level in the batch.
const AI_LEVEL: u8 = 3;

fn request() -> types::CreateGameRequest {
    types::CreateGameRequest {
        public: None,
        ai_time_ms: Some(5),
        board: Some(types::BoardName::Star),
        first_seat: Some(0),
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
                kind: Some(types::SeatKind::Human),
                level: None,
                name: None,
            },
            types::SeatRequest {
                kind: Some(types::SeatKind::Ai),
                level: Some(AI_LEVEL),
                name: None,
            },
        ],
    }
}

/// Plays seat 0 to the end, posting every move through both instances at once: one post
/// wins, the other gets 412. Returns the finished game.
async fn play_racing(server: &TestServer, token: &str, id: &str) -> types::GameView {
    let mut left = GameSession::join(server.client(), id, token.to_owned())
        .await
        .unwrap();
    let mut right = GameSession::join(server.other_client(), id, token.to_owned())
        .await
        .unwrap();
    loop {
        left.refresh().await.unwrap();
        right.refresh().await.unwrap();
        if left.is_finished() {
            return left.game().clone();
        }
        assert!(left.game().move_count < MAX_MOVES, "the game did not end");
        let hint = left.suggestion(Some(4), Some(5)).await.unwrap();
        let (a, b) = tokio::join!(
            left.play(&hint.from, &hint.to),
            right.play(&hint.from, &hint.to)
        );
        match (a, b) {
            (Ok(_), Err(err)) | (Err(err), Ok(_)) => {
                assert_eq!(err.status(), Some(StatusCode::PRECONDITION_FAILED), "{err}");
                assert_eq!(err.code(), Some(&ProblemCode::VersionMismatch));
            }
            other => panic!("expected one success and one 412, got {other:?}"),
        }
    }
}

pub async fn statistics_count_each_finished_game_once(server: &TestServer) {
    let mut finished = Vec::new();
    for _ in 0..GAMES {
        let (host, tokens) = GameSession::create(server.client(), request())
            .await
            .unwrap();
        let token = tokens.seat(0).unwrap().to_owned();
        finished.push(play_racing(server, &token, host.id()).await);
    }
    // Read through the other instance: the counters are the store's.
    let stats = server
        .other_client()
        .game_stats()
        .send()
        .await
        .unwrap()
        .into_inner();
    let group = stats
        .groups
        .iter()
        .find(|g| g.board == types::BoardName::Star && g.players == 2)
        .unwrap_or_else(|| panic!("no star group in {stats:?}"));
    assert_eq!(group.rules, "arm_size=3");
    assert_eq!(group.games_finished, GAMES as u64);
    let won: u64 = group.wins_by_turn_order.iter().sum();
    let drawn: u64 = group.draws.iter().map(|d| d.games).sum();
    assert_eq!(won + drawn + group.shared_wins, GAMES as u64);
    let ai_won = finished
        .iter()
        .filter(|g| {
            g.result
                .as_ref()
                .and_then(|r| r.winner.as_ref())
                .is_some_and(|w| w == &[1])
        })
        .count() as u64;
    let first_won = finished
        .iter()
        .filter(|g| {
            g.result
                .as_ref()
                .and_then(|r| r.winner.as_ref())
                .is_some_and(|w| w == &[0])
        })
        .count() as u64;
    // Seat 0 moved first in every game.
    assert_eq!(group.wins_by_turn_order, [first_won, ai_won]);
    assert_eq!(group.ai_levels.len(), 1);
    let ai = &group.ai_levels[0];
    assert_eq!(
        (ai.level, ai.games, ai.wins),
        (AI_LEVEL, GAMES as u64, ai_won)
    );
    let mut lengths: Vec<u32> = finished.iter().map(|g| g.move_count).collect();
    lengths.sort_unstable();
    let mean = f64::from(lengths.iter().sum::<u32>()) / GAMES as f64;
    assert!((group.average_plies - mean).abs() < 1e-9, "{group:?}");
    assert_eq!(group.median_plies, lengths[(GAMES - 1) / 2]);
    println!(
        "{}: {GAMES} games of {lengths:?} plies, the AI won {ai_won}",
        server.store()
    );
}
