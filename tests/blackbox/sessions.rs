//! Reading games through the SDK: entity tags, `If-None-Match` and long polling; and the
//! read-only resources (boards, rule options, health), plus rematches.

use std::time::{Duration, Instant};

use halma_client::reqwest::header::LOCATION;
use halma_client::reqwest::StatusCode;
use halma_client::{etag_version, types, GameSession, HalmaError, ProblemCode};

use crate::checks::assert_problem;
use crate::server::TestServer;
use crate::setups::two_player_star;

pub async fn etags_and_long_polling(server: &TestServer) {
    let client = server.client();
    // The generated builders expose the headers: ETag and Location of a new game.
    let created = client
        .create_game()
        .body(two_player_star())
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), StatusCode::CREATED);
    assert_eq!(etag_version(created.headers()), Some(1));
    let id = created.game.id.clone();
    let location = created.headers().get(LOCATION).unwrap().to_str().unwrap();
    assert_eq!(location, format!("/v1/games/{id}"));
    let host_token = created.tokens.host.clone();

    // Every read about the game carries its version as the ETag.
    let read = client.get_game().id(&id).send().await.unwrap();
    assert_eq!(etag_version(read.headers()), Some(read.version));
    let listing = client.list_moves().id(&id).send().await.unwrap();
    assert_eq!(etag_version(listing.headers()), Some(1));
    let record = client.get_record().id(&id).send().await.unwrap();
    assert_eq!(etag_version(record.headers()), Some(1));
    // 304 through the generated builder: an unexpected status for progenitor.
    let not_modified = client
        .get_game()
        .id(&id)
        .if_none_match(halma_client::entity_tag(1))
        .send()
        .await
        .map_err(HalmaError::from);
    assert!(matches!(
        not_modified,
        Err(HalmaError::UnexpectedStatus(StatusCode::NOT_MODIFIED))
    ));

    let mut mover = GameSession::join(client, &id, host_token.clone())
        .await
        .unwrap();
    let mut watcher = GameSession::join(server.other_client(), &id, host_token.clone())
        .await
        .unwrap();
    assert!(!watcher.refresh().await.unwrap(), "nothing changed: 304");

    // A long poll that times out: 304 after about the wait.
    let started = Instant::now();
    assert!(!watcher.wait_for_change(1).await.unwrap());
    assert!(
        started.elapsed() >= Duration::from_millis(800),
        "{:?}",
        started.elapsed()
    );

    // A long poll answered by a move made meanwhile, well before its wait ends.
    let waiting = tokio::spawn(async move {
        let started = Instant::now();
        let changed = watcher.wait_for_change(10).await.unwrap();
        (watcher, changed, started.elapsed())
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let listing = mover.legal_moves().await.unwrap();
    let mv = &listing.moves[0];
    mover.play(&mv.from, &mv.to).await.unwrap();
    let (watcher, changed, waited) = waiting.await.unwrap();
    assert!(changed);
    assert!(waited < Duration::from_secs(5), "{waited:?}");
    assert_eq!(watcher.version(), 2);
    assert_eq!(watcher.game(), mover.game());
    assert_eq!(
        watcher.game().last_move.as_ref().map(|last| &last.notation),
        Some(&mv.notation)
    );
    // The session's Debug output keeps the token secret.
    let debug = format!("{watcher:?}");
    assert!(
        debug.contains(&id) && !debug.contains(&host_token),
        "{debug}"
    );
}

pub async fn boards_rules_health_and_rematch(server: &TestServer) {
    let client = server.client();
    assert_eq!(client.healthz().send().await.unwrap().status, "ok");
    let ready = client.readyz().send().await.unwrap().into_inner();
    assert_eq!(
        (ready.status.as_str(), ready.store.as_str()),
        ("ready", server.store())
    );

    let boards = client.list_boards().send().await.unwrap().into_inner();
    let names: Vec<types::BoardName> = boards.boards.iter().map(|b| b.board).collect();
    assert_eq!(
        names,
        [
            types::BoardName::Star,
            types::BoardName::Square16,
            types::BoardName::Square10,
            types::BoardName::Square8
        ]
    );
    for (board, arm_size, cells) in [
        (types::BoardName::Star, None, 121),
        (types::BoardName::Star, Some(3), 73),
        (types::BoardName::Square16, None, 256),
        (types::BoardName::Square10, None, 100),
        (types::BoardName::Square8, None, 64),
    ] {
        let mut request = client.get_board().board(board);
        if let Some(arm_size) = arm_size {
            request = request.arm_size(arm_size);
        }
        let view = request.send().await.unwrap().into_inner();
        assert_eq!(view.cells.len(), cells, "{board} {arm_size:?}");
        if arm_size.is_none() {
            let summary = boards.boards.iter().find(|b| b.board == board).unwrap();
            assert_eq!(usize::from(summary.cells), cells);
            assert_eq!(summary.players, view.players);
        }
    }
    let err = client
        .get_board()
        .board(types::BoardName::Square8)
        .arm_size(3_u8)
        .send()
        .await
        .map_err(HalmaError::from);
    assert_problem(err, StatusCode::BAD_REQUEST, ProblemCode::BadRequest);
    let options = client
        .list_rule_options()
        .send()
        .await
        .unwrap()
        .into_inner();
    let mut names: Vec<&str> = options.options.iter().map(|o| o.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    // One description per field of `types::RuleOptions`.
    assert_eq!(names.len(), 17, "{names:?}");
    assert!(options.options.iter().all(|o| !o.boards.is_empty()));

    // A rematch: the same setup, new tokens, the first move passed on.
    let (host, tokens) = GameSession::create(client, two_player_star())
        .await
        .unwrap();
    let (rematch, new_tokens) = host.rematch().await.unwrap();
    assert_ne!(rematch.id(), host.id());
    assert_eq!(rematch.version(), 1);
    assert_eq!(rematch.game().first_seat, 1);
    assert_eq!(rematch.to_move(), Some(1));
    assert_eq!(rematch.game().board, host.game().board);
    assert_ne!(new_tokens.host, tokens.host);
    assert!(new_tokens.seats.iter().all(|t| !tokens.seats.contains(t)));

    // The anti-blocking rule's grace period: the board's leave-home number unless asked for,
    // in the rules in force, kept by a rematch, and written in the position when set.
    assert_eq!(host.game().rules.anti_blocking_grace, 40);
    assert_eq!(rematch.game().rules.anti_blocking_grace, 40);
    let (no_grace, _) = GameSession::create(
        client,
        types::CreateGameRequest {
            options: Some(types::RuleOptions {
                anti_blocking_grace: Some(0),
                ..types::RuleOptions::default()
            }),
            ..two_player_star()
        },
    )
    .await
    .unwrap();
    assert_eq!(no_grace.game().rules.anti_blocking_grace, 0);
    assert_eq!(no_grace.game().options.anti_blocking_grace, Some(0));
    assert!(
        no_grace.game().position.contains(" anti_blocking_grace=0 "),
        "{}",
        no_grace.game().position
    );
}

pub async fn any_ply_can_be_seen(server: &TestServer) {
    let client = server.client();
    let (mut host, _tokens) = GameSession::create(client, two_player_star())
        .await
        .unwrap();
    let start = host.game().position.clone();
    let mut positions = vec![start.clone()];
    for _ in 0..4 {
        let moves = host.legal_moves().await.unwrap();
        host.play(&moves.moves[0].from, &moves.moves[0].to)
            .await
            .unwrap();
        positions.push(host.game().position.clone());
    }
    for (ply, expected) in positions.iter().enumerate() {
        let view = client
            .get_game()
            .id(host.id())
            .ply(u32::try_from(ply).unwrap())
            .send()
            .await
            .unwrap()
            .into_inner();
        assert_eq!(&view.position, expected, "ply {ply}");
        assert_eq!(view.move_count as usize, ply);
        assert_eq!(
            view.last_move.map(|m| m.ply as usize),
            (ply > 0).then_some(ply)
        );
        assert_eq!(
            view.version,
            host.version(),
            "the game's version, not the ply's"
        );
    }
    let err = client
        .get_game()
        .id(host.id())
        .ply(5_u32)
        .send()
        .await
        .map_err(HalmaError::from);
    let err = assert_problem(err, StatusCode::BAD_REQUEST, ProblemCode::BadRequest);
    assert!(err.to_string().contains("4 moves"), "{err}");
    let err = client
        .get_game()
        .id(host.id())
        .ply(1_u32)
        .wait_secs(1_u64)
        .send()
        .await
        .map_err(HalmaError::from);
    assert_problem(err, StatusCode::BAD_REQUEST, ProblemCode::BadRequest);
}
