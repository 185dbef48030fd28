//! Every error answer of the game API, seen through the SDK as a typed [`HalmaError`]: bad and
//! missing tokens, stale and missing versions, illegal moves with their reasons, unknown games,
//! bad notation, malformed requests and invalid setups. None of them changes the game.

use halma_client::reqwest::StatusCode;
use halma_client::{bearer, entity_tag, types, GameSession, HalmaError, ProblemCode};

use crate::checks::{assert_illegal, assert_problem, Board, Pieces};
use crate::server::TestServer;
use crate::setups::two_player_star;

fn from_to(from: &str, to: &str) -> types::PlayMoveRequest {
    types::PlayMoveRequest {
        from: Some(from.to_owned()),
        to: Some(to.to_owned()),
        ..types::PlayMoveRequest::default()
    }
}

pub async fn error_paths(server: &TestServer) {
    let client = server.client();
    let (mut host, tokens) = GameSession::create(client, two_player_star())
        .await
        .unwrap();
    let id = host.id().to_owned();
    let game = host.game().clone();
    let board = Board::of(&host).await;
    let listing = host.legal_moves().await.unwrap();
    let step = listing
        .moves
        .iter()
        .find(|mv| mv.path.len() == 2 && board.neighbors[&mv.from].contains(&mv.to))
        .expect("an opening step")
        .clone();
    let pieces = Pieces::of(&game);
    let empty: Vec<&String> = board
        .cells
        .iter()
        .filter(|cell| !pieces.occupied(cell))
        .collect();

    // 404 game_not_found, for every operation on a game.
    let unknown = "no-such-game";
    let not_found = |result: Result<_, HalmaError>| {
        assert_problem(result, StatusCode::NOT_FOUND, ProblemCode::GameNotFound);
    };
    not_found(
        GameSession::join(client, unknown, tokens.host.clone())
            .await
            .map(|_| ()),
    );
    not_found(
        client
            .get_game()
            .id(unknown)
            .send()
            .await
            .map_err(HalmaError::from)
            .map(|_| ()),
    );
    not_found(
        client
            .list_moves()
            .id(unknown)
            .send()
            .await
            .map_err(HalmaError::from)
            .map(|_| ()),
    );
    not_found(
        client
            .get_record()
            .id(unknown)
            .send()
            .await
            .map_err(HalmaError::from)
            .map(|_| ()),
    );
    not_found(
        client
            .suggest_move()
            .id(unknown)
            .send()
            .await
            .map_err(HalmaError::from)
            .map(|_| ()),
    );
    not_found(
        client
            .play_move()
            .id(unknown)
            .authorization(bearer(&tokens.host))
            .if_match(entity_tag(1))
            .body(from_to(&step.from, &step.to))
            .send()
            .await
            .map_err(HalmaError::from)
            .map(|_| ()),
    );
    not_found(
        client
            .ai_turns()
            .id(unknown)
            .authorization(bearer(&tokens.host))
            .if_match(entity_tag(1))
            .send()
            .await
            .map_err(HalmaError::from)
            .map(|_| ()),
    );
    not_found(
        client
            .rematch()
            .id(unknown)
            .authorization(bearer(&tokens.host))
            .send()
            .await
            .map_err(HalmaError::from)
            .map(|_| ()),
    );

    // 401 missing_token: an empty credential, or a scheme without a token. (The generated
    // builder cannot leave the header out: the document marks it required.)
    for credential in ["", "Bearer ", "Basic dXNlcjpwYXNz"] {
        let result = client
            .play_move()
            .id(&id)
            .authorization(credential)
            .if_match(entity_tag(1))
            .body(from_to(&step.from, &step.to))
            .send()
            .await;
        assert_problem(
            result.map_err(HalmaError::from),
            StatusCode::UNAUTHORIZED,
            ProblemCode::MissingToken,
        );
    }

    // 403 invalid_token: an unknown token; a seat token where the host token is required.
    let mut stranger = GameSession::new(client, game.clone(), "not-a-token");
    assert_problem(
        stranger.play(&step.from, &step.to).await,
        StatusCode::FORBIDDEN,
        ProblemCode::InvalidToken,
    );
    let mut seat0 = GameSession::new(
        client,
        game.clone(),
        tokens.seat(0).expect("seat 0 has a token").to_owned(),
    );
    assert_problem(
        seat0.ai_turns().await,
        StatusCode::FORBIDDEN,
        ProblemCode::InvalidToken,
    );
    assert_problem(
        seat0.rematch().await,
        StatusCode::FORBIDDEN,
        ProblemCode::InvalidToken,
    );

    // 428 precondition_required: `If-Match: *` names no version (and the body has none).
    let result = client
        .play_move()
        .id(&id)
        .authorization(bearer(&tokens.host))
        .if_match("*")
        .body(from_to(&step.from, &step.to))
        .send()
        .await;
    assert_problem(
        result.map_err(HalmaError::from),
        StatusCode::PRECONDITION_REQUIRED,
        ProblemCode::PreconditionRequired,
    );
    // 400: an `If-Match` that is not an entity tag of a version, or that disagrees with the
    // body's version.
    for (if_match, body_version) in [("seven", None), ("\"1\", \"2\"", None), ("\"1\"", Some(2))] {
        let result = client
            .play_move()
            .id(&id)
            .authorization(bearer(&tokens.host))
            .if_match(if_match)
            .body(types::PlayMoveRequest {
                version: body_version,
                ..from_to(&step.from, &step.to)
            })
            .send()
            .await;
        assert_problem(
            result.map_err(HalmaError::from),
            StatusCode::BAD_REQUEST,
            ProblemCode::BadRequest,
        );
    }

    // 412 version_mismatch: a version the game never had.
    let mut from_the_future = GameSession::new(
        client,
        types::GameView {
            version: 7,
            ..game.clone()
        },
        tokens.host.clone(),
    );
    let err = assert_problem(
        from_the_future.play(&step.from, &step.to).await,
        StatusCode::PRECONDITION_FAILED,
        ProblemCode::VersionMismatch,
    );
    assert_eq!(err.current_version(), Some(1));
    assert_eq!(
        from_the_future.version(),
        7,
        "a refused move changes nothing"
    );

    // 422 illegal_move, with the rule's reason.
    let mut seat1 = GameSession::new(
        client,
        game.clone(),
        tokens.seat(1).expect("seat 1 has a token").to_owned(),
    );
    assert_illegal(seat1.play(&step.from, &step.to).await, "not_your_turn");
    let own: Vec<&String> = pieces.own.iter().collect();
    let other = pieces.others.iter().next().unwrap();
    assert_illegal(host.play(own[0], own[1]).await, "cell_occupied");
    assert_illegal(host.play(other, empty[0]).await, "not_your_piece");
    assert_illegal(host.play(empty[0], empty[1]).await, "empty_cell");
    assert_illegal(host.play(own[0], own[0]).await, "returns_to_start");
    let unreachable = empty
        .iter()
        .find(|cell| {
            !board.neighbors[&step.from].contains(cell)
                && !listing
                    .moves
                    .iter()
                    .any(|mv| mv.from == step.from && mv.to.as_str() == cell.as_str())
        })
        .unwrap();
    assert_illegal(host.play(&step.from, unreachable).await, "unreachable");
    // Paths are checked hop by hop.
    assert_illegal(
        host.play_path([&step.from, *unreachable]).await,
        "not_a_jump",
    );
    let beyond = board.neighbors[&step.to]
        .iter()
        .find(|cell| *cell != &step.from)
        .unwrap();
    assert_illegal(
        host.play_path([&step.from, &step.to, beyond]).await,
        "step_in_chain",
    );
    // A seat's token may not move for another seat, even with the right version.
    assert_illegal(seat1.play(&step.from, &step.to).await, "not_your_turn");
    // ai-turns while a human seat is to move.
    assert_illegal(host.ai_turns().await, "not_ai_turn");

    // 400 bad_notation: cells that are not on the board.
    for result in [
        host.play_notation(&format!("{}-zz9", step.from)).await,
        host.play_notation("not a move").await,
        host.play(&step.from, "q99").await,
        host.play_path(["a0", "a1"]).await,
    ] {
        assert_problem(result, StatusCode::BAD_REQUEST, ProblemCode::BadNotation);
    }
    assert_problem(
        host.legal_moves_from("z9").await,
        StatusCode::BAD_REQUEST,
        ProblemCode::BadNotation,
    );

    // 400 bad_request: not exactly one form of move; a path of one cell; levels and times
    // out of range.
    for request in [
        types::PlayMoveRequest {
            from: Some(step.from.clone()),
            ..types::PlayMoveRequest::default()
        },
        types::PlayMoveRequest::default(),
        types::PlayMoveRequest {
            notation: Some(step.notation.clone()),
            ..from_to(&step.from, &step.to)
        },
        types::PlayMoveRequest {
            path: Some(vec![step.from.clone()]),
            ..types::PlayMoveRequest::default()
        },
    ] {
        assert_problem(
            host.play_request(request).await,
            StatusCode::BAD_REQUEST,
            ProblemCode::BadRequest,
        );
    }
    for (level, time_ms) in [(Some(0), None), (Some(11), None), (None, Some(0))] {
        assert_problem(
            host.suggestion(level, time_ms).await,
            StatusCode::BAD_REQUEST,
            ProblemCode::BadRequest,
        );
    }

    // None of it changed the game.
    assert!(!host.refresh().await.unwrap());
    assert_eq!((host.version(), host.game().move_count), (1, 0));

    // The move itself is accepted; a session that did not see it is then stale, learns the
    // current version from the refusal, and catches up.
    let mut stale = GameSession::new(server.other_client(), game.clone(), tokens.host.clone());
    host.play(&step.from, &step.to).await.unwrap();
    assert_eq!(host.version(), 2);
    let err = assert_problem(
        stale.play(&step.from, &step.to).await,
        StatusCode::PRECONDITION_FAILED,
        ProblemCode::VersionMismatch,
    );
    assert_eq!(err.current_version(), Some(2));
    assert!(
        err.to_string().starts_with("412 version_mismatch: "),
        "{err}"
    );
    assert_eq!(stale.version(), 1);
    assert!(stale.refresh().await.unwrap());
    assert_eq!(stale.version(), 2);
    assert_eq!(stale.game(), host.game());
    // The seat to move now is seat 1, so seat 0's token is refused with not_your_turn.
    let mut seat0 = GameSession::join(
        server.other_client(),
        &id,
        tokens.seat(0).expect("seat 0 has a token").to_owned(),
    )
    .await
    .unwrap();
    let listing = seat0.legal_moves().await.unwrap();
    let reply = &listing.moves[0];
    assert_illegal(seat0.play(&reply.from, &reply.to).await, "not_your_turn");
    let mut seat1 = GameSession::join(
        client,
        &id,
        tokens.seat(1).expect("seat 1 has a token").to_owned(),
    )
    .await
    .unwrap();
    let played = seat1.play(&reply.from, &reply.to).await.unwrap();
    assert_eq!((played.len(), played[0].seat), (1, 1));
    assert_eq!(seat1.version(), 3);
}

pub async fn invalid_setups(server: &TestServer) {
    let client = server.client();
    let cases: [(types::CreateGameRequest, &str); 8] = [
        (
            types::CreateGameRequest {
                players: Some(5),
                ..two_player_star()
            },
            "players",
        ),
        (
            types::CreateGameRequest {
                board: Some(types::BoardName::Square8),
                players: Some(4),
                ..two_player_star()
            },
            "players",
        ),
        (
            types::CreateGameRequest {
                board: Some(types::BoardName::Square8),
                options: Some(types::RuleOptions {
                    long_jumps: Some(true),
                    ..types::RuleOptions::default()
                }),
                ..two_player_star()
            },
            "option",
        ),
        (
            types::CreateGameRequest {
                players: Some(3),
                options: Some(types::RuleOptions {
                    teams: Some(true),
                    ..types::RuleOptions::default()
                }),
                ..two_player_star()
            },
            "option",
        ),
        (
            // The grace period belongs to the anti-blocking rule, off on 8 x 8 by default.
            types::CreateGameRequest {
                board: Some(types::BoardName::Square8),
                options: Some(types::RuleOptions {
                    anti_blocking_grace: Some(10),
                    ..types::RuleOptions::default()
                }),
                ..two_player_star()
            },
            "option",
        ),
        (
            types::CreateGameRequest {
                seats: vec![types::SeatRequest::default()],
                ..two_player_star()
            },
            "seats",
        ),
        (
            types::CreateGameRequest {
                seats: vec![
                    types::SeatRequest {
                        kind: Some(types::SeatKind::Ai),
                        level: Some(11),
                        name: None,
                    },
                    types::SeatRequest::default(),
                ],
                ..two_player_star()
            },
            "seats",
        ),
        (
            types::CreateGameRequest {
                first_seat: Some(2),
                ..two_player_star()
            },
            "first_seat",
        ),
    ];
    for (request, reason) in cases {
        let err = assert_problem(
            GameSession::create(client, request.clone()).await,
            StatusCode::UNPROCESSABLE_ENTITY,
            ProblemCode::InvalidSetup,
        );
        let text = err.reason().map(ToString::to_string);
        assert_eq!(text.as_deref(), Some(reason), "{request:?}: {err}");
    }
    // ai_time_ms 0 is a malformed request rather than an unplayable setup.
    assert_problem(
        GameSession::create(
            client,
            types::CreateGameRequest {
                ai_time_ms: Some(0),
                ..two_player_star()
            },
        )
        .await,
        StatusCode::BAD_REQUEST,
        ProblemCode::BadRequest,
    );
    // Without a board (and without a position or a record to start from) the request is
    // malformed.
    let incomplete = types::CreateGameRequest::builder().players(2_u8);
    let err = client.create_game().body(incomplete).send().await;
    let err = err.map_err(HalmaError::from).err().unwrap();
    assert_eq!(err.status(), Some(StatusCode::BAD_REQUEST), "{err}");
    assert_eq!(err.code(), Some(&ProblemCode::InvalidJson));
}
