//! The stateless analysis endpoints agree with the game endpoints on the same positions: the
//! same legal moves, the same suggestion (for a depth-limited level, which does not depend on
//! the clock), and a checked move leads where playing it leads.

use std::collections::BTreeSet;

use halma_client::reqwest::StatusCode;
use halma_client::{types, GameSession, HalmaError, ProblemCode};

use crate::checks::{assert_illegal, assert_problem, Board, Pieces};
use crate::rng::Rng;
use crate::server::TestServer;

/// A level whose search stops at a fixed depth (3 plies), so that its answer does not depend
/// on the clock.
const LEVEL: u8 = 6;
/// The time budget of the comparisons: the service's cap, far more than the search needs.
const TIME_MS: u32 = 2_000;

fn moves_request(position: &str) -> types::AnalysisMovesRequest {
    types::AnalysisMovesRequest {
        from: None,
        options: None,
        position: position.to_owned(),
    }
}

fn suggestion_request(
    position: &str,
    recent: Vec<String>,
    level: u8,
    multipv: Option<u8>,
) -> types::AnalysisSuggestionRequest {
    types::AnalysisSuggestionRequest {
        level: Some(level),
        multipv,
        options: None,
        position: position.to_owned(),
        recent,
        time_ms: Some(TIME_MS),
    }
}

fn check_request(position: &str, path: Vec<String>) -> types::AnalysisCheckRequest {
    types::AnalysisCheckRequest {
        from: None,
        notation: None,
        options: None,
        path: Some(path),
        position: position.to_owned(),
        to: None,
    }
}

/// The positions of the game before its current one (the last 31 at most), oldest first, as
/// `GET /v1/games/{id}?ply=N` shows them: with the current one, the 32 positions a stored game
/// keeps for the AI.
async fn earlier_positions(session: &GameSession) -> Vec<String> {
    let plies = session.game().move_count;
    let mut out = Vec::new();
    for ply in plies.saturating_sub(31)..plies {
        let past = session
            .client()
            .get_game()
            .id(session.id())
            .ply(ply)
            .send()
            .await
            .unwrap();
        out.push(past.position.clone());
    }
    out
}

pub async fn analysis_agrees_with_the_game_endpoints(server: &TestServer) {
    let client = server.client();
    for (board, players) in [
        (types::BoardName::Star, 2),
        (types::BoardName::Star, 3),
        (types::BoardName::Square8, 2),
    ] {
        let name = format!("analysis-{board:?}-{players}");
        let (mut rng, seed) = Rng::for_test(&name);
        let request = types::CreateGameRequest {
            board: Some(board),
            players: Some(players),
            first_seat: Some(0),
            ..crate::setups::two_player_star()
        };
        let (mut session, _) = GameSession::create(client, request).await.unwrap();
        let cells = Board::of(&session).await.cells;
        for ply in 0..12 {
            let game = session.game().clone();
            let position = game.position.clone();
            let at = format!("{name} (seed {seed}) at ply {ply}");
            // The same legal moves.
            let listing = session.legal_moves().await.unwrap();
            let analysed = client
                .analysis_moves()
                .body(moves_request(&position))
                .send()
                .await
                .unwrap()
                .into_inner();
            assert_eq!(analysed.position, position, "{at}");
            assert_eq!(analysed.to_move, listing.to_move, "{at}");
            let game_moves: BTreeSet<_> = listing
                .moves
                .iter()
                .map(|m| (&m.from, &m.to, &m.path))
                .collect();
            let analysis_moves: BTreeSet<_> = analysed
                .moves
                .iter()
                .map(|m| (&m.from, &m.to, &m.path))
                .collect();
            assert_eq!(analysis_moves, game_moves, "{at}");

            // The same suggestion, given the same earlier positions.
            if ply % 4 == 1 {
                let hint = session
                    .suggestion(Some(LEVEL), Some(TIME_MS))
                    .await
                    .unwrap();
                let recent = earlier_positions(&session).await;
                let answer = client
                    .analysis_suggestion()
                    .body(suggestion_request(&position, recent.clone(), LEVEL, None))
                    .send()
                    .await
                    .unwrap()
                    .into_inner();
                assert_eq!(answer.level, LEVEL, "{at}: the fallback answered");
                assert_eq!(
                    (&answer.from, &answer.to, &answer.path, answer.seat),
                    (&hint.from, &hint.to, &hint.path, hint.seat),
                    "{at}"
                );
                assert_eq!(
                    (answer.score, answer.depth, &answer.principal_variation),
                    (hint.score, hint.depth, &hint.principal_variation),
                    "{at}"
                );
                assert_eq!(answer.nodes, hint.nodes, "{at}");
                assert_eq!(answer.lines.len(), 1);
                // The best three: the first is the plain suggestion (level 5 searches two
                // plies, quick enough for a third of the budget each), all different.
                let plain = client
                    .analysis_suggestion()
                    .body(suggestion_request(&position, recent.clone(), 5, None))
                    .send()
                    .await
                    .unwrap()
                    .into_inner();
                let three = client
                    .analysis_suggestion()
                    .body(suggestion_request(&position, recent, 5, Some(3)))
                    .send()
                    .await
                    .unwrap()
                    .into_inner();
                assert_eq!(three.lines.len(), 3.min(listing.moves.len()), "{at}");
                assert_eq!(
                    (&three.lines[0].notation, three.lines[0].score),
                    (&plain.notation, plain.score),
                    "{at}"
                );
                assert_eq!(three.notation, three.lines[0].notation);
                let distinct: BTreeSet<_> = three.lines.iter().map(|l| &l.notation).collect();
                assert_eq!(distinct.len(), three.lines.len(), "{at}");
                for line in &three.lines {
                    assert!(game_moves
                        .iter()
                        .any(|(f, t, _)| **f == line.from && **t == line.to));
                }
            }

            // A legal move leads where playing it leads; an illegal one says why.
            let Some(m) = rng.pick(&listing.moves).cloned() else {
                panic!("{at}: no legal move");
            };
            let checked = client
                .analysis_check()
                .body(check_request(&position, m.path.clone()))
                .send()
                .await
                .unwrap()
                .into_inner();
            assert!(checked.legal, "{at}: {checked:?}");
            assert_eq!(checked.seat, game.to_move);
            let empty: Vec<&String> = {
                let pieces = Pieces::of(&game);
                cells
                    .iter()
                    .filter(|c| !pieces.occupied(c))
                    .take(2)
                    .collect()
            };
            let illegal = client
                .analysis_check()
                .body(check_request(
                    &position,
                    vec![empty[0].clone(), empty[1].clone()],
                ))
                .send()
                .await
                .unwrap()
                .into_inner();
            assert!(!illegal.legal, "{at}");
            assert_eq!(
                illegal.reason,
                Some(types::ProblemReason::EmptyCell),
                "{at}"
            );
            assert!(illegal.position_after.is_none() && illegal.played.is_none());
            let played = session.play_path(m.path.clone()).await.unwrap();
            assert_eq!(
                checked.played.as_ref().map(|p| &p.path),
                Some(&played[0].path)
            );
            assert_eq!(
                checked.played.as_ref().map(|p| &p.skipped),
                Some(&played[0].skipped)
            );
            assert_eq!(
                checked.position_after.as_deref(),
                Some(session.game().position.as_str()),
                "{at}"
            );
            assert_eq!(checked.to_move_after, session.game().to_move, "{at}");
            assert_eq!(checked.result_after, session.game().result, "{at}");
        }
    }
}

pub async fn analysis_errors(server: &TestServer) {
    let client = server.client();
    let (session, _) = GameSession::create(client, crate::setups::two_player_star())
        .await
        .unwrap();
    let position = session.game().position.clone();
    // Out of range: level, multipv, recent positions (0 cannot be said with the SDK's types).
    for request in [
        suggestion_request(&position, Vec::new(), 11, None),
        suggestion_request(&position, Vec::new(), 5, Some(11)),
        suggestion_request(&position, vec![position.clone(); 65], 5, None),
    ] {
        let result = client.analysis_suggestion().body(request).send().await;
        assert_problem(
            result.map_err(HalmaError::from),
            StatusCode::BAD_REQUEST,
            ProblemCode::BadRequest,
        );
    }
    // A recent position of another setup is named by its index.
    let other = "square8 2 - h1,g1,f1,e1,h2,g2,f2,h3,g3,h4/a8,b8,c8,d8,a7,b7,c7,a6,b6,a5 1 0,0";
    let result = client
        .analysis_suggestion()
        .body(suggestion_request(
            &position,
            vec![position.clone(), other.to_owned()],
            5,
            None,
        ))
        .send()
        .await;
    let err = assert_problem(
        result.map_err(HalmaError::from),
        StatusCode::UNPROCESSABLE_ENTITY,
        ProblemCode::InvalidPosition,
    );
    assert!(
        err.field().is_some_and(|f| f.starts_with("recent[1]")),
        "{err}"
    );
    // A position that ends the game has no moves and no suggestion.
    let finished =
        "square8 2 - a8,b8,c8,d8,a7,b7,c7,a6,b6,a5/h1,g1,f1,e1,h2,g2,f2,h3,g3,h4 1 20f,20f";
    let moves = client
        .analysis_moves()
        .body(moves_request(finished))
        .send()
        .await
        .unwrap()
        .into_inner();
    assert!(moves.moves.is_empty() && moves.to_move.is_none());
    assert!(moves.result.is_some());
    let result = client
        .analysis_suggestion()
        .body(suggestion_request(finished, Vec::new(), 5, None))
        .send()
        .await;
    assert_illegal(result.map_err(HalmaError::from), "game_over");
    // A move not given in exactly one form; a cell that is not on the board.
    let mut both = check_request(&position, vec!["a1".into(), "b1".into()]);
    both.notation = Some("a1-b1".into());
    let result = client.analysis_check().body(both).send().await;
    assert_problem(
        result.map_err(HalmaError::from),
        StatusCode::BAD_REQUEST,
        ProblemCode::BadRequest,
    );
    let result = client
        .analysis_check()
        .body(check_request(&position, vec!["a1".into(), "z99".into()]))
        .send()
        .await;
    assert_problem(
        result.map_err(HalmaError::from),
        StatusCode::BAD_REQUEST,
        ProblemCode::BadNotation,
    );
    // A position that does not read.
    let result = client
        .analysis_moves()
        .body(moves_request("star 2 -"))
        .send()
        .await;
    let err = assert_problem(
        result.map_err(HalmaError::from),
        StatusCode::UNPROCESSABLE_ENTITY,
        ProblemCode::InvalidPosition,
    );
    assert_eq!(err.field(), Some("position"));
}
