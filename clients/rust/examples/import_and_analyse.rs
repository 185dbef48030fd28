//! Imports a game record and asks the service for the best three moves at one of its
//! positions.
//!
//! The record is a text export (`GET /v1/games/{id}/record` with `Accept: text/plain`, or its
//! `export` field) read from a file; without a file, the program first lets the service's AI
//! play a short game and takes that game's export. The record is imported as a new game
//! (`POST /v1/games` with `record`: every move is checked again), the position after the
//! chosen ply is read back (`GET /v1/games/{id}?ply=N`), and the stateless analysis endpoint
//! (`POST /v1/analysis/suggestion` with `multipv: 3`) ranks its best three moves, aware of the
//! positions that came before.
//!
//! ```text
//! cargo run -p halma-server &                                    # a service on 127.0.0.1:8080
//! cargo run -p halma-client --example import_and_analyse                  # a fresh AI game
//! cargo run -p halma-client --example import_and_analyse -- game.txt 12   # ply 12 of a file
//! HALMA_URL=http://host:port cargo run -p halma-client --example import_and_analyse
//! ```

use std::error::Error;

use halma_client::{types, Client, GameSession, HalmaError};

/// The service used when `HALMA_URL` names none.
const DEFAULT_URL: &str = "http://127.0.0.1:8080";
/// The AI game played when no record file is given: rounds of moves, level, time per move.
const ROUNDS: usize = 12;
const AI_LEVEL: u8 = 3;
const AI_TIME_MS: u32 = 20;
/// The analysis: level, thinking time shared by the three lines, how many lines.
const LEVEL: u8 = 8;
const TIME_MS: u32 = 900;
const LINES: u8 = 3;
/// The positions before the analysed one that the AI takes into account.
const RECENT: u32 = 31;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn Error>> {
    let url = std::env::var("HALMA_URL").unwrap_or_else(|_| DEFAULT_URL.to_owned());
    let client = Client::new(url.trim_end_matches('/'));
    let mut args = std::env::args().skip(1);
    let export = match args.next() {
        Some(path) => std::fs::read_to_string(&path)?,
        None => ai_game_export(&client).await?,
    };

    // Import: the service replays and checks every move of the record.
    let request = types::CreateGameRequest::builder().record(export);
    let (game, _tokens) = GameSession::create(&client, request.try_into()?).await?;
    let plies = game.game().move_count;
    let ply = match args.next() {
        Some(n) => n.parse::<u32>()?.min(plies),
        None => plies / 2,
    };
    println!(
        "imported as game {} on {url}: {plies} moves on the {} board, {} players",
        game.id(),
        game.game().board,
        game.game().players
    );

    // The position after `ply`, and the ones before it.
    let at = |n: u32| client.get_game().id(game.id()).ply(n).send();
    let position = at(ply).await?.into_inner();
    let mut recent = Vec::new();
    for n in ply.saturating_sub(RECENT)..ply {
        recent.push(at(n).await?.position.clone());
    }
    let Some(seat) = position.to_move else {
        println!("after ply {ply} the game is over: {:?}", position.result);
        return Ok(());
    };
    println!(
        "after ply {ply}, player {} (seat {seat}) to move:\n  {}",
        seat + 1,
        position.position
    );

    // The best three moves, stored nowhere.
    let analysis = types::AnalysisSuggestionRequest::builder()
        .position(position.position.clone())
        .recent(recent)
        .level(LEVEL)
        .multipv(LINES)
        .time_ms(TIME_MS);
    let answer = client
        .analysis_suggestion()
        .body(analysis)
        .send()
        .await
        .map_err(HalmaError::from)?
        .into_inner();
    println!(
        "best {} moves (level {}, {} ms, {} positions searched):",
        answer.lines.len(),
        answer.level,
        answer.elapsed_ms,
        answer.nodes
    );
    for (i, line) in answer.lines.iter().enumerate() {
        println!(
            "  {}. {:<14} score {:>6}  depth {:>2}  line {}",
            i + 1,
            line.notation,
            line.score,
            line.depth,
            line.principal_variation.join(" ")
        );
    }
    Ok(())
}

/// Lets the AI play both seats of a short game on the 8 x 8 board; returns its text export.
async fn ai_game_export(client: &Client) -> Result<String, HalmaError> {
    let ai = || types::SeatRequest {
        kind: Some(types::SeatKind::Ai),
        level: Some(AI_LEVEL),
        name: None,
    };
    let request = types::CreateGameRequest::builder()
        .board(types::BoardName::Square8)
        .players(2_u8)
        .ai_time_ms(AI_TIME_MS)
        .seats(vec![ai(), ai()]);
    let (mut session, _tokens) = GameSession::create(client, request.try_into()?).await?;
    for _ in 0..ROUNDS {
        if session.is_finished() {
            break;
        }
        session.ai_turns().await?;
    }
    Ok(session.record().await?.export)
}
