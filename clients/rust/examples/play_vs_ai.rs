//! Plays a game of Chinese checkers against the service's AI, to the end.
//!
//! Seat 0 is this program, which follows the AI's own suggestions at a modest level; seat 1 is
//! the service's AI, which answers within each move request. Every move is printed, then the
//! result and the game's text export.
//!
//! ```text
//! cargo run -p halma-server &                          # a service on 127.0.0.1:8080
//! cargo run -p halma-client --example play_vs_ai       # or: -- http://host:port
//! HALMA_URL=http://host:port cargo run -p halma-client --example play_vs_ai
//! ```

use std::error::Error;

use halma_client::{types, Client, GameSession, ProblemCode};

/// The service used when neither an argument nor `HALMA_URL` names one.
const DEFAULT_URL: &str = "http://127.0.0.1:8080";
/// Strength and thinking time of this program's own moves (the suggestions it follows).
const OWN_LEVEL: u8 = 5;
const OWN_TIME_MS: u32 = 100;
/// Strength and thinking time of the AI seat.
const AI_LEVEL: u8 = 4;
const AI_TIME_MS: u32 = 100;
/// A game between these players ends long before this many moves of ours.
const MAX_OWN_MOVES: usize = 500;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn Error>> {
    let url = std::env::args()
        .nth(1)
        .or_else(|| std::env::var("HALMA_URL").ok())
        .unwrap_or_else(|| DEFAULT_URL.to_owned());
    let client = Client::new(url.trim_end_matches('/'));

    let request = types::CreateGameRequest::builder()
        .board(types::BoardName::Star)
        .players(2_u8)
        .first_seat(0_u8)
        .ai_time_ms(AI_TIME_MS)
        .seats(vec![
            types::SeatRequest {
                name: Some("play_vs_ai".to_owned()),
                ..types::SeatRequest::default()
            },
            types::SeatRequest {
                kind: Some(types::SeatKind::Ai),
                level: Some(AI_LEVEL),
                ..types::SeatRequest::default()
            },
        ]);
    let (mut session, _tokens) = GameSession::create(&client, request.try_into()?).await?;
    println!(
        "game {} on {url}: {} (seat 0) against {} (seat 1)",
        session.id(),
        session.game().seats[0].name,
        session.game().seats[1].name
    );

    let mut own_moves = 0;
    while !session.is_finished() {
        if own_moves == MAX_OWN_MOVES {
            return Err(format!("no result after {MAX_OWN_MOVES} moves of ours").into());
        }
        let hint = session
            .suggestion(Some(OWN_LEVEL), Some(OWN_TIME_MS))
            .await?;
        match session.play_path(hint.path.iter().cloned()).await {
            Ok(played) => {
                own_moves += 1;
                for mv in played {
                    println!("{:>4}. seat {} {}", mv.ply, mv.seat, mv.notation);
                }
            }
            // Someone else moved in this game (the host token was shared): look again.
            Err(err) if err.is(&ProblemCode::VersionMismatch) => {
                session.refresh().await?;
            }
            Err(err) => return Err(err.into()),
        }
    }

    let game = session.game();
    if let Some(result) = &game.result {
        for place in &result.ranking {
            let place_text = place
                .place
                .map_or_else(|| "-".to_owned(), |place| place.to_string());
            println!(
                "place {place_text}: seats {:?} ({})",
                place.seats, place.standing
            );
        }
    }
    println!("\n{}", session.record().await?.export);
    Ok(())
}
