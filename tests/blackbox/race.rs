//! Two clients race to move at one version: exactly one move is accepted, the other is refused
//! with 412 `version_mismatch` naming the new version; the loser catches up and the record
//! holds exactly the accepted moves. Over Redis the two clients talk to two service instances.

use halma_client::reqwest::StatusCode;
use halma_client::{types, GameSession, ProblemCode};

use crate::checks::assert_problem;
use crate::server::TestServer;

/// Rounds of the race.
const ROUNDS: u64 = 8;

pub async fn two_clients_race_on_one_version(server: &TestServer) {
    let request = types::CreateGameRequest {
        public: None,
        ai_time_ms: None,
        board: Some(types::BoardName::Square16),
        first_seat: Some(0),
        options: None,
        players: Some(2),
        position: None,
        record: None,
        record_json: None,
        seats: Vec::new(),
    };
    let (mut a, tokens) = GameSession::create(server.client(), request).await.unwrap();
    let mut b = GameSession::join(server.other_client(), a.id(), tokens.host.clone())
        .await
        .unwrap();
    let mut accepted: Vec<(String, String)> = Vec::new();
    let (mut wins_a, mut wins_b) = (0, 0);
    for round in 0..ROUNDS {
        let version = round + 1;
        assert_eq!((a.version(), b.version()), (version, version));
        let listing = a.legal_moves().await.unwrap();
        // Different moves, so the loser's refusal cannot be mistaken for a duplicate.
        let (move_a, move_b) = (&listing.moves[0], &listing.moves[listing.moves.len() - 1]);
        let (result_a, result_b) = tokio::join!(
            a.play(&move_a.from, &move_a.to),
            b.play(&move_b.from, &move_b.to)
        );
        let (winner, loser, loss) = match (result_a, result_b) {
            (Ok(played), Err(loss)) => {
                wins_a += 1;
                accepted.push((played[0].from.clone(), played[0].to.clone()));
                (&a, &mut b, loss)
            }
            (Err(loss), Ok(played)) => {
                wins_b += 1;
                accepted.push((played[0].from.clone(), played[0].to.clone()));
                (&b, &mut a, loss)
            }
            (a, b) => panic!("round {round}: exactly one move must win, got {a:?} and {b:?}"),
        };
        let loss = assert_problem(
            Err::<(), _>(loss),
            StatusCode::PRECONDITION_FAILED,
            ProblemCode::VersionMismatch,
        );
        assert_eq!(loss.current_version(), Some(version + 1));
        assert_eq!(winner.version(), version + 1);
        assert_eq!(loser.version(), version, "the loser's session is unchanged");
        assert!(loser.refresh().await.unwrap());
        assert_eq!(loser.game(), winner.game());
    }
    let record = a.record().await.unwrap();
    let played: Vec<(String, String)> = record
        .moves
        .iter()
        .map(|mv| (mv.from.clone(), mv.to.clone()))
        .collect();
    assert_eq!(played, accepted);
    assert_eq!(record.version, ROUNDS + 1);
    println!(
        "race ({}): {ROUNDS} rounds, client A won {wins_a}, client B won {wins_b}",
        server.store()
    );
}
