//! Open seats, invitations and the lobby: a four-seat game filled through invitations (with a
//! player who leaves and a code replaced) and played to the end, followed by a listener on the
//! other instance; public games in the lobby; cancelling a waiting game.

use std::time::Duration;

use halma_client::reqwest::StatusCode;
use halma_client::{types, EventStream, GameEvent, GameSession, ProblemCode};

use crate::checks::assert_problem;
use crate::server::TestServer;

/// Longest wait for one event.
const EVENT_TIMEOUT: Duration = Duration::from_secs(30);
/// Most moves a game of this file may take.
const MAX_MOVES: u32 = 3000;

fn seat(kind: types::SeatKind, name: Option<&str>) -> types::SeatRequest {
    types::SeatRequest {
        kind: Some(kind),
        level: None,
        name: name.map(str::to_owned),
    }
}

/// A 4-player star game of arm size 3: seat 0 the host's, seats 1 to 3 open.
fn four_seats_three_open(public: bool) -> types::CreateGameRequest {
    types::CreateGameRequest {
        public: Some(public),
        ai_time_ms: Some(5),
        board: Some(types::BoardName::Star),
        first_seat: Some(0),
        options: Some(types::RuleOptions {
            arm_size: Some(3),
            ..types::RuleOptions::default()
        }),
        players: Some(4),
        position: None,
        record: None,
        record_json: None,
        seats: vec![
            seat(types::SeatKind::Human, Some("Host")),
            seat(types::SeatKind::Open, None),
            seat(types::SeatKind::Open, None),
            seat(types::SeatKind::Open, None),
        ],
    }
}

async fn next(events: &mut EventStream) -> (u64, GameEvent) {
    tokio::time::timeout(EVENT_TIMEOUT, events.next())
        .await
        .expect("an event within the timeout")
        .expect("the stream goes on")
        .unwrap()
}

/// Plays the game to its end, every seat with its own session (a one-ply suggestion each
/// turn); returns the number of moves played.
async fn play_to_the_end(players: &mut [GameSession]) -> u32 {
    let mut played = 0;
    loop {
        let session = &mut players[0];
        session.refresh().await.unwrap();
        let Some(to_move) = session.to_move() else {
            break;
        };
        assert!(
            played < MAX_MOVES,
            "the game did not end in {MAX_MOVES} moves"
        );
        let player = &mut players[usize::from(to_move)];
        player.refresh().await.unwrap();
        let hint = player.suggestion(Some(4), Some(5)).await.unwrap();
        player.play(&hint.from, &hint.to).await.unwrap();
        played += 1;
    }
    played
}

fn invitation_of(invitations: &[types::Invitation], seat: u8) -> String {
    invitations
        .iter()
        .find(|i| i.seat == seat)
        .map(|i| i.code.clone())
        .unwrap_or_else(|| panic!("no invitation for seat {seat}"))
}

pub async fn a_four_seat_game_filled_through_invitations_is_played_to_the_end(server: &TestServer) {
    let (mut host, tokens, invitations) =
        GameSession::create_with_invitations(server.client(), four_seats_three_open(false))
            .await
            .unwrap();
    let game = host.game().clone();
    assert_eq!(game.status, types::GameStatus::Waiting);
    assert_eq!(game.open_seats, [1, 2, 3]);
    assert_eq!(game.to_move, None);
    assert_eq!(game.seats[1].kind, types::SeatKind::Open);
    assert!(tokens.seat(0).is_some());
    assert!((1..4).all(|s| tokens.seat(s).is_none()));
    assert_eq!(
        invitations.iter().map(|i| i.seat).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    // Nothing is played while the game waits.
    assert!(host.legal_moves().await.unwrap().moves.is_empty());
    assert_problem(
        host.play("e1", "e2").await,
        StatusCode::CONFLICT,
        ProblemCode::GameWaiting,
    );
    // A listener on the other instance, from the start.
    let mut events = EventStream::new(server.other_client(), host.id());
    let (_, first) = next(&mut events).await;
    assert!(matches!(first, GameEvent::Game(_)));

    let client = server.client();
    let id = host.id().to_owned();
    // A wrong code, then the right one; a code works once.
    assert_problem(
        GameSession::join_seat(client, &id, 1, Some("not-the-code"), Some("Ada")).await,
        StatusCode::FORBIDDEN,
        ProblemCode::InvalidInvitation,
    );
    assert_problem(
        GameSession::join_seat(client, &id, 1, None, Some("Ada")).await,
        StatusCode::BAD_REQUEST,
        ProblemCode::BadRequest,
    );
    let code1 = invitation_of(&invitations, 1);
    let ada = GameSession::join_seat(client, &id, 1, Some(&code1), Some("Ada"))
        .await
        .unwrap();
    assert_eq!(ada.game().seats[1].name, "Ada");
    assert_eq!(ada.game().open_seats, [2, 3]);
    assert_problem(
        GameSession::join_seat(client, &id, 1, Some(&code1), Some("Eve")).await,
        StatusCode::CONFLICT,
        ProblemCode::SeatTaken,
    );
    // Another seat's code does not open this one.
    assert_problem(
        GameSession::join_seat(client, &id, 2, Some(&invitation_of(&invitations, 3)), None).await,
        StatusCode::FORBIDDEN,
        ProblemCode::InvalidInvitation,
    );
    // Bo joins seat 2 and leaves again; the host gives the seat a new code.
    let code2 = invitation_of(&invitations, 2);
    let mut bo = GameSession::join_seat(client, &id, 2, Some(&code2), Some("Bo"))
        .await
        .unwrap();
    assert_eq!(
        bo.leave(2).await.unwrap(),
        None,
        "only the host gets the code"
    );
    assert_eq!(bo.game().open_seats, [2, 3]);
    assert_problem(
        bo.play("e1", "e2").await,
        StatusCode::FORBIDDEN,
        ProblemCode::InvalidToken,
    );
    // The host's own seat was not joined: it cannot be left.
    host.refresh().await.unwrap();
    assert_problem(
        host.leave(0).await,
        StatusCode::CONFLICT,
        ProblemCode::SeatNotJoined,
    );
    let fresh = host.new_invitation(2).await.unwrap();
    // Bo's old code was used; the seat's codes since are the host's.
    assert_problem(
        GameSession::join_seat(client, &id, 2, Some(&code2), Some("Bo")).await,
        StatusCode::FORBIDDEN,
        ProblemCode::InvalidInvitation,
    );
    let cy = GameSession::join_seat(server.other_client(), &id, 2, Some(&fresh.code), Some("Cy"))
        .await
        .unwrap();
    assert_eq!(cy.game().status, types::GameStatus::Waiting);
    // The last seat starts the game.
    let di = GameSession::join_seat(
        client,
        &id,
        3,
        Some(&invitation_of(&invitations, 3)),
        Some("Di"),
    )
    .await
    .unwrap();
    assert_eq!(di.game().status, types::GameStatus::Ongoing);
    assert_eq!(di.game().to_move, Some(0));
    assert!(di.game().open_seats.is_empty());
    assert_problem(
        host.new_invitation(1).await,
        StatusCode::CONFLICT,
        ProblemCode::GameNotWaiting,
    );
    let seat0 = GameSession::join(client, &id, tokens.seat(0).unwrap().to_owned())
        .await
        .unwrap();
    let mut players = vec![seat0, ada, cy, di];
    let moves = play_to_the_end(&mut players).await;
    println!(
        "{}: the invited game ended after {moves} moves",
        server.store()
    );
    let end = players[0].game().clone();
    assert_eq!(end.status, types::GameStatus::Finished);
    assert_eq!(end.move_count, moves);
    assert_eq!(
        end.seats
            .iter()
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>(),
        ["Host", "Ada", "Cy", "Di"]
    );

    // The listener saw the seats taken and given up, then every move, then the result.
    let mut seen = Vec::new();
    loop {
        let (event_id, event) = next(&mut events).await;
        let done = event.is_final();
        seen.push((event_id, event));
        if done {
            break;
        }
    }
    let ids: Vec<u64> = seen.iter().map(|(id, _)| *id).collect();
    assert_eq!(
        ids,
        (1..=ids.len() as u64).collect::<Vec<_>>(),
        "ids count up"
    );
    let seat_events: Vec<(u8, Vec<u8>, bool)> = seen
        .iter()
        .filter_map(|(_, e)| match e {
            GameEvent::SeatJoined(j) => Some((j.seat, j.open_seats.clone(), true)),
            GameEvent::SeatLeft(l) => Some((l.seat, l.open_seats.clone(), false)),
            _ => None,
        })
        .collect();
    assert_eq!(
        seat_events,
        [
            (1, vec![2, 3], true),
            (2, vec![3], true),
            (2, vec![2, 3], false),
            (2, vec![3], true),
            (3, vec![], true),
        ]
    );
    let move_events = seen
        .iter()
        .filter(|(_, e)| matches!(e, GameEvent::Move(_)))
        .count();
    assert_eq!(move_events as u32, moves);
    assert!(matches!(seen.last(), Some((_, GameEvent::Result(_)))));
    assert_eq!(end.last_event_id + 1, *ids.last().unwrap());

    // The record keeps the seat changes.
    let record = players[0].record().await.unwrap();
    let changes: Vec<(u8, types::SeatChangeKind, Option<String>)> = record
        .seat_changes
        .iter()
        .map(|c| (c.seat, c.change, c.name.clone()))
        .collect();
    let joined = |seat, name: &str| (seat, types::SeatChangeKind::Joined, Some(name.to_owned()));
    assert_eq!(
        changes,
        [
            joined(1, "Ada"),
            joined(2, "Bo"),
            (2, types::SeatChangeKind::Left, None),
            joined(2, "Cy"),
            joined(3, "Di"),
        ]
    );
    assert!(record.seat_changes.iter().all(|c| c.after == 0));

    // The names that joined have a record; the one who left played no game, nor did the host.
    let placed = |seat: u8| {
        end.result
            .as_ref()
            .unwrap()
            .ranking
            .iter()
            .find(|p| p.seats.contains(&seat))
            .and_then(|p| p.place)
    };
    for (seat, name) in [(1, "Ada"), (2, "Cy"), (3, "Di")] {
        let record = client.player_stats().name(name).send().await.unwrap();
        let record = record.into_inner();
        assert_eq!(record.games, 1, "{name}");
        let places: Vec<(u8, u64)> = record.places.iter().map(|p| (p.place, p.games)).collect();
        let expected: Vec<(u8, u64)> = placed(seat).map(|p| (p, 1)).into_iter().collect();
        assert_eq!(places, expected, "{name}");
        assert_eq!(record.wins, u64::from(placed(seat) == Some(1)), "{name}");
    }
    for name in ["Bo", "Host"] {
        let record = client.player_stats().name(name).send().await.unwrap();
        assert_eq!(record.into_inner().games, 0, "{name}");
    }
}

pub async fn public_games_wait_in_the_lobby(server: &TestServer) {
    let client = server.client();
    let (host, _, _) = GameSession::create_with_invitations(client, four_seats_three_open(true))
        .await
        .unwrap();
    let id = host.id().to_owned();
    // A private waiting game and an ongoing one are not listed.
    let (private, _, _) =
        GameSession::create_with_invitations(client, four_seats_three_open(false))
            .await
            .unwrap();
    let listed = |page: &types::LobbyPage, id: &str| page.games.iter().any(|g| g.id == id);
    let lobby = client.list_lobby().send().await.unwrap().into_inner();
    assert!(listed(&lobby, &id));
    assert!(!listed(&lobby, private.id()));
    let entry = lobby.games.iter().find(|g| g.id == id).unwrap();
    assert_eq!((entry.board, entry.players), (types::BoardName::Star, 4));
    assert_eq!(entry.open_seats, [1, 2, 3]);
    assert!(entry.age_secs < 60);
    // Filters.
    let star4 = client
        .list_lobby()
        .board(types::BoardName::Star)
        .players(4)
        .send()
        .await
        .unwrap()
        .into_inner();
    assert!(listed(&star4, &id));
    let others = client
        .list_lobby()
        .board(types::BoardName::Square16)
        .send()
        .await
        .unwrap()
        .into_inner();
    assert!(!listed(&others, &id));
    let six = client
        .list_lobby()
        .players(6)
        .send()
        .await
        .unwrap()
        .into_inner();
    assert!(!listed(&six, &id));
    // A public game is joined without a code; the last seat takes it out of the lobby.
    for (seat, name) in [(1, "Ada"), (2, "Bo")] {
        GameSession::join_seat(client, &id, seat, None, Some(name))
            .await
            .unwrap();
    }
    let lobby = client.list_lobby().send().await.unwrap().into_inner();
    let entry = lobby.games.iter().find(|g| g.id == id).unwrap();
    assert_eq!(entry.open_seats, [3]);
    let last = GameSession::join_seat(server.other_client(), &id, 3, None, None)
        .await
        .unwrap();
    assert_eq!(last.game().seats[3].name, "Player 4");
    assert_eq!(last.game().status, types::GameStatus::Ongoing);
    let lobby = client.list_lobby().send().await.unwrap().into_inner();
    assert!(!listed(&lobby, &id));
    // Pages, newest first, each game once.
    let mut made = Vec::new();
    for _ in 0..5 {
        let (game, _, _) =
            GameSession::create_with_invitations(client, four_seats_three_open(true))
                .await
                .unwrap();
        made.push(game.id().to_owned());
    }
    let mut seen = Vec::new();
    let mut cursor = None;
    loop {
        let mut request = client.list_lobby().players(4).limit(2);
        if let Some(cursor) = cursor.take() {
            request = request.cursor(cursor);
        }
        let page = request.send().await.unwrap().into_inner();
        assert!(page.games.len() <= 2);
        seen.extend(page.games.iter().map(|g| (g.created_at, g.id.clone())));
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    for id in &made {
        assert_eq!(seen.iter().filter(|(_, s)| s == id).count(), 1, "{id}");
    }
    assert!(seen.windows(2).all(|w| w[0] >= w[1]), "newest first");
    // Bad queries.
    let bad = client.list_lobby().limit(0).send().await;
    assert!(bad.is_err(), "limit 0 is refused");
    let bad = client.list_lobby().cursor("nonsense").send().await;
    assert!(bad.is_err(), "a made-up cursor is refused");
}

pub async fn the_host_cancels_a_waiting_game(server: &TestServer) {
    let client = server.client();
    let (host, tokens, invitations) =
        GameSession::create_with_invitations(client, four_seats_three_open(true))
            .await
            .unwrap();
    let id = host.id().to_owned();
    let mut events = EventStream::new(server.other_client(), &id);
    assert!(matches!(next(&mut events).await.1, GameEvent::Game(_)));
    // Only the host may cancel.
    let seat0 = GameSession::join(client, &id, tokens.seat(0).unwrap().to_owned())
        .await
        .unwrap();
    assert_problem(
        seat0.cancel().await,
        StatusCode::FORBIDDEN,
        ProblemCode::InvalidToken,
    );
    host.cancel().await.unwrap();
    assert!(matches!(next(&mut events).await.1, GameEvent::Gone));
    assert_problem(
        GameSession::join_seat(client, &id, 1, Some(&invitation_of(&invitations, 1)), None).await,
        StatusCode::NOT_FOUND,
        ProblemCode::GameNotFound,
    );
    let lobby = client.list_lobby().send().await.unwrap().into_inner();
    assert!(lobby.games.iter().all(|g| g.id != id));
    // A game that has started cannot be cancelled.
    let request = types::CreateGameRequest {
        public: None,
        seats: vec![
            seat(types::SeatKind::Human, None),
            seat(types::SeatKind::Open, None),
        ],
        players: Some(2),
        ..four_seats_three_open(false)
    };
    let (host, tokens, invitations) = GameSession::create_with_invitations(client, request)
        .await
        .unwrap();
    let id = host.id().to_owned();
    GameSession::join_seat(client, &id, 1, Some(&invitation_of(&invitations, 1)), None)
        .await
        .unwrap();
    let host = GameSession::join(client, &id, tokens.host).await.unwrap();
    assert_problem(
        host.cancel().await,
        StatusCode::CONFLICT,
        ProblemCode::GameNotWaiting,
    );
}
