//! The live event stream through the SDK's `EventStream`: two listeners (on two instances over
//! Redis) see the same events of a whole game, and a listener that reconnects with
//! `Last-Event-ID` gets exactly the events it missed.

use std::time::Duration;

use halma_client::reqwest::StatusCode;
use halma_client::{types, EventStream, GameEvent, GameSession, HalmaError, ProblemCode};

use crate::checks::assert_problem;
use crate::server::TestServer;

/// Longest wait for one event.
const EVENT_TIMEOUT: Duration = Duration::from_secs(30);

fn ai_seat(level: u8) -> types::SeatRequest {
    types::SeatRequest {
        kind: Some(types::SeatKind::Ai),
        level: Some(level),
        name: None,
    }
}

async fn next(events: &mut EventStream) -> (u64, GameEvent) {
    tokio::time::timeout(EVENT_TIMEOUT, events.next())
        .await
        .expect("an event within the timeout")
        .expect("the stream goes on")
        .unwrap()
}

/// Every event until the final one; `connected` is told when the first event arrived.
async fn until_final(
    mut events: EventStream,
    connected: tokio::sync::oneshot::Sender<()>,
) -> Vec<(u64, GameEvent)> {
    let mut seen = vec![next(&mut events).await];
    let _ = connected.send(());
    while !seen.last().is_some_and(|(_, e)| e.is_final()) {
        seen.push(next(&mut events).await);
    }
    let end = tokio::time::timeout(EVENT_TIMEOUT, events.next()).await;
    assert!(
        matches!(end, Ok(None)),
        "the stream ends after its final event"
    );
    seen
}

fn notation(event: &GameEvent) -> Option<&str> {
    match event {
        GameEvent::Move(m) => Some(&m.move_.notation),
        _ => None,
    }
}

pub async fn two_listeners_see_a_whole_game_alike(server: &TestServer) {
    let request = types::CreateGameRequest {
        public: None,
        ai_time_ms: Some(5),
        board: Some(types::BoardName::Square8),
        first_seat: Some(0),
        options: None,
        players: Some(2),
        position: None,
        record: None,
        record_json: None,
        seats: vec![ai_seat(4), ai_seat(2)],
    };
    let (mut host, _tokens) = GameSession::create(server.client(), request).await.unwrap();
    // One listener per instance (over Redis, the second instance hears of the moves through
    // Redis only).
    let (first_up, first_connected) = tokio::sync::oneshot::channel();
    let (second_up, second_connected) = tokio::sync::oneshot::channel();
    let first = tokio::spawn(until_final(
        EventStream::new(server.client(), host.id()),
        first_up,
    ));
    let second = tokio::spawn(until_final(
        EventStream::new(server.other_client(), host.id()),
        second_up,
    ));
    first_connected.await.unwrap();
    second_connected.await.unwrap();
    let mut rounds = 0;
    while !host.is_finished() {
        assert!(rounds < 500, "no result after {rounds} rounds");
        host.ai_turns().await.unwrap();
        rounds += 1;
    }
    let (a, b) = (first.await.unwrap(), second.await.unwrap());
    assert_eq!(a, b, "both listeners saw the same events in the same order");
    // The game first, then one event per move of the record, then the result.
    let record = host.record().await.unwrap();
    assert!(matches!(a[0].1, GameEvent::Game(_)));
    let moves: Vec<&str> = a.iter().filter_map(|(_, e)| notation(e)).collect();
    let recorded: Vec<&str> = record.moves.iter().map(|m| m.notation.as_str()).collect();
    let opened_with = usize::try_from(a[0].0).unwrap();
    assert_eq!(moves, recorded[opened_with..]);
    let ids: Vec<u64> = a[1..].iter().map(|(id, _)| *id).collect();
    let expected: Vec<u64> = (a[0].0 + 1..=record.moves.len() as u64 + 1).collect();
    assert_eq!(ids, expected, "ids count the events without a gap");
    match &a.last().unwrap().1 {
        GameEvent::Result(r) => assert_eq!(Some(&r.result), host.game().result.as_ref()),
        other => panic!("the last event is {other:?}"),
    }
    // Each move carries the version that stored it: one more per AI round, the last one the
    // game's final version.
    let versions: Vec<u64> = a
        .iter()
        .filter_map(|(_, e)| match e {
            GameEvent::Move(m) => Some(m.version),
            _ => None,
        })
        .collect();
    assert!(versions
        .windows(2)
        .all(|w| w[1] == w[0] || w[1] == w[0] + 1));
    assert_eq!(versions.last(), Some(&host.version()));
    // Whose turn it is, in every move event, is the seat of the next move.
    for pair in a[1..].windows(2) {
        if let (GameEvent::Move(m), GameEvent::Move(next)) = (&pair[0].1, &pair[1].1) {
            assert_eq!(m.to_move, Some(next.move_.seat));
        }
    }
    println!(
        "events ({}): {} events of a game of {} moves on two instances",
        server.store(),
        a.len(),
        record.moves.len()
    );
}

pub async fn a_listener_that_reconnects_gets_exactly_what_it_missed(server: &TestServer) {
    let request = types::CreateGameRequest {
        public: None,
        ai_time_ms: Some(5),
        board: Some(types::BoardName::Star),
        first_seat: Some(0),
        options: None,
        players: Some(2),
        position: None,
        record: None,
        record_json: None,
        seats: vec![types::SeatRequest::default(), ai_seat(1)],
    };
    let (mut player, _tokens) = GameSession::create(server.client(), request).await.unwrap();
    let mut events = EventStream::new(server.client(), player.id());
    assert!(matches!(next(&mut events).await.1, GameEvent::Game(_)));
    play_first_legal(&mut player).await;
    // Our move and the AI's reply, each an event.
    let (one, _) = next(&mut events).await;
    let (two, reply) = next(&mut events).await;
    assert_eq!((one, two), (1, 2));
    assert!(matches!(&reply, GameEvent::Move(m) if m.move_.seat == 1 && m.to_move == Some(0)));
    // Disconnect, miss three rounds, and resume on the other instance.
    let last = events.last_event_id().unwrap();
    drop(events);
    for _ in 0..3 {
        play_first_legal(&mut player).await;
    }
    let mut resumed = EventStream::resume(server.other_client(), player.id(), last);
    let mut missed = Vec::new();
    for _ in 0..6 {
        missed.push(next(&mut resumed).await);
    }
    let ids: Vec<u64> = missed.iter().map(|(id, _)| *id).collect();
    assert_eq!(ids, [3, 4, 5, 6, 7, 8]);
    let record = player.record().await.unwrap();
    let recorded: Vec<&str> = record.moves[2..]
        .iter()
        .map(|m| m.notation.as_str())
        .collect();
    let got: Vec<&str> = missed.iter().filter_map(|(_, e)| notation(e)).collect();
    assert_eq!(got, recorded);
    // Then live events, as before.
    play_first_legal(&mut player).await;
    assert_eq!(next(&mut resumed).await.0, 9);
    assert_eq!(next(&mut resumed).await.0, 10);
    // The session's own helper resumes after what it has seen.
    let mut from_session = player.events();
    play_first_legal(&mut player).await;
    assert_eq!(next(&mut from_session).await.0, 11);

    // An id the game does not have is refused.
    let mut wrong = EventStream::resume(server.client(), player.id(), 999);
    let err: HalmaError = tokio::time::timeout(EVENT_TIMEOUT, wrong.next())
        .await
        .unwrap()
        .unwrap()
        .unwrap_err();
    assert_eq!(err.status(), Some(StatusCode::BAD_REQUEST), "{err}");
    // So is an unknown game.
    let mut unknown = EventStream::new(server.client(), "no-such-game");
    let err = unknown.next().await.unwrap().unwrap_err();
    assert_eq!(err.status(), Some(StatusCode::NOT_FOUND), "{err}");
}

async fn play_first_legal(player: &mut GameSession) {
    let moves = player.legal_moves().await.unwrap();
    let first = &moves.moves[0];
    player.play(&first.from, &first.to).await.unwrap();
}

/// A 3-player star game: seat 0 played by the host here, seats 1 and 2 by the AI.
fn three_players_against_two_ais() -> types::CreateGameRequest {
    types::CreateGameRequest {
        public: None,
        ai_time_ms: Some(5),
        board: Some(types::BoardName::Star),
        first_seat: Some(0),
        options: Some(types::RuleOptions {
            arm_size: Some(3),
            ..types::RuleOptions::default()
        }),
        players: Some(3),
        position: None,
        record: None,
        record_json: None,
        seats: vec![types::SeatRequest::default(), ai_seat(2), ai_seat(2)],
    }
}

pub async fn a_resignation_lets_the_others_finish(server: &TestServer) {
    let (mut host, tokens) = GameSession::create(server.client(), three_players_against_two_ais())
        .await
        .unwrap();
    play_first_legal(&mut host).await;
    // A listener on the other instance, from the start.
    let (up, connected) = tokio::sync::oneshot::channel();
    let listener = tokio::spawn(until_final(
        EventStream::new(server.other_client(), host.id()),
        up,
    ));
    connected.await.unwrap();
    // Seat 0 resigns with its own token; the AI seats play on, the host lets them.
    let mut seat0 = GameSession::join(
        server.client(),
        host.id(),
        tokens.seat(0).expect("seat 0 has a token").to_owned(),
    )
    .await
    .unwrap();
    let version = seat0.version();
    // Our move and the two AI replies.
    let moves_before = seat0.game().move_count;
    assert_eq!(moves_before, 3);
    let after_resign = seat0.resign(0).await.unwrap();
    assert_eq!(seat0.version(), version + 1);
    assert!(after_resign.iter().all(|m| m.seat != 0));
    // The same seat again, another seat's token, a seat the game does not have.
    assert_problem(
        seat0.resign(0).await,
        StatusCode::CONFLICT,
        ProblemCode::SeatNotPlaying,
    );
    assert_problem(
        seat0.resign(1).await,
        StatusCode::FORBIDDEN,
        ProblemCode::InvalidToken,
    );
    assert_problem(
        seat0.resign(7).await,
        StatusCode::BAD_REQUEST,
        ProblemCode::BadRequest,
    );
    host.refresh().await.unwrap();
    let mut rounds = 0;
    while !host.is_finished() {
        assert!(rounds < 1000, "no result after {rounds} rounds");
        host.ai_turns().await.unwrap();
        rounds += 1;
    }
    let result = host.game().result.clone().unwrap();
    let last = result.ranking.last().unwrap();
    assert_eq!(
        (last.seats.clone(), last.place, last.standing),
        (vec![0], Some(3), types::Standing::Resigned)
    );
    assert!(host.game().seats[0].eliminated);
    // The record and its export show the resignation after the first round.
    let record = host.record().await.unwrap();
    assert_eq!(record.resignations.len(), 1);
    assert_eq!(record.resignations[0].after, moves_before);
    assert_eq!(record.resignations[0].seats, [0]);
    let third = &record.moves[2];
    let line = format!("3. {} {}\n1 resigned\n", third.seat + 1, third.notation);
    assert!(record.export.contains(&line), "{}", record.export);
    // The stream: the game (after one move), the resignation, every later move, the result.
    let events = listener.await.unwrap();
    let resigned: Vec<u64> = events
        .iter()
        .filter(|(_, e)| matches!(e, GameEvent::Resigned(r) if r.seats == [0]))
        .map(|(id, _)| *id)
        .collect();
    assert_eq!(resigned, [events[0].0 + 1]);
    let ids: Vec<u64> = events[1..].iter().map(|(id, _)| *id).collect();
    let expected: Vec<u64> = (events[0].0 + 1..=record.moves.len() as u64 + 2).collect();
    assert_eq!(ids, expected);
    // Once over, nobody can resign.
    let err = host.resign(1).await.unwrap_err();
    assert_eq!(
        err.status(),
        Some(StatusCode::UNPROCESSABLE_ENTITY),
        "{err}"
    );
    println!(
        "resign ({}): seat 0 resigned after 3 moves; {} moves, ranking {:?}",
        server.store(),
        record.moves.len(),
        result.ranking
    );
}

pub async fn with_two_players_a_resignation_ends_the_game(server: &TestServer) {
    let request = types::CreateGameRequest {
        public: None,
        ai_time_ms: None,
        board: Some(types::BoardName::Square8),
        first_seat: Some(0),
        options: None,
        players: Some(2),
        position: None,
        record: None,
        record_json: None,
        seats: Vec::new(),
    };
    let (mut host, _tokens) = GameSession::create(server.client(), request).await.unwrap();
    play_first_legal(&mut host).await;
    host.resign(1).await.unwrap();
    assert!(host.is_finished());
    assert_eq!(host.game().result.as_ref().unwrap().winner, Some(vec![0]));
}

pub async fn seats_handed_to_the_ai_finish_the_game(server: &TestServer) {
    let request = types::CreateGameRequest {
        public: None,
        ai_time_ms: Some(5),
        board: Some(types::BoardName::Square8),
        first_seat: Some(0),
        options: None,
        players: Some(2),
        position: None,
        record: None,
        record_json: None,
        seats: Vec::new(),
    };
    let (mut host, tokens) = GameSession::create(server.client(), request).await.unwrap();
    let (up, connected) = tokio::sync::oneshot::channel();
    let listener = tokio::spawn(until_final(
        EventStream::new(server.other_client(), host.id()),
        up,
    ));
    connected.await.unwrap();
    play_first_legal(&mut host).await;
    // Seat 1 leaves: its own token hands it to the AI, which then stops working.
    let mut seat1 = GameSession::join(
        server.client(),
        host.id(),
        tokens.seat(1).expect("seat 1 has a token").to_owned(),
    )
    .await
    .unwrap();
    let replies = seat1.hand_to_ai(1, 3).await.unwrap();
    assert_eq!(
        replies.len(),
        1,
        "the AI moved at once: it was seat 1's turn"
    );
    assert_eq!(replies[0].seat, 1);
    assert_eq!(seat1.game().seats[1].kind, types::SeatKind::Ai);
    assert_eq!(seat1.game().seats[1].level, Some(3));
    let moves = seat1.legal_moves().await.unwrap();
    assert_problem(
        seat1.play(&moves.moves[0].from, &moves.moves[0].to).await,
        StatusCode::FORBIDDEN,
        ProblemCode::InvalidToken,
    );
    // Handing it again, a level the AI does not have.
    host.refresh().await.unwrap();
    assert_problem(
        host.hand_to_ai(1, 4).await,
        StatusCode::CONFLICT,
        ProblemCode::SeatIsAi,
    );
    assert_problem(
        host.hand_to_ai(0, 11).await,
        StatusCode::BAD_REQUEST,
        ProblemCode::BadRequest,
    );
    // Seat 0 leaves too; the host lets the AI play the game to its end.
    host.hand_to_ai(0, 4).await.unwrap();
    let mut rounds = 0;
    while !host.is_finished() {
        assert!(rounds < 1000, "no result after {rounds} rounds");
        host.ai_turns().await.unwrap();
        rounds += 1;
    }
    let events = listener.await.unwrap();
    let handovers: Vec<(u64, u8, u8)> = events
        .iter()
        .filter_map(|(id, e)| match e {
            GameEvent::HandedToAi(h) => Some((*id, h.seat, h.level)),
            _ => None,
        })
        .collect();
    // After our first move: seat 1 (then its AI reply), after that reply: seat 0.
    assert_eq!(handovers, [(2, 1, 3), (4, 0, 4)]);
    let record = host.record().await.unwrap();
    let in_record: Vec<(u32, u8, u8)> = record
        .handovers
        .iter()
        .map(|h| (h.after, h.seat, h.level))
        .collect();
    assert_eq!(in_record, [(1, 1, 3), (2, 0, 4)]);
    assert!(
        record.export.contains("\n2 handed to the AI (level 3)\n"),
        "{}",
        record.export
    );
    let ids: Vec<u64> = events[1..].iter().map(|(id, _)| *id).collect();
    let expected: Vec<u64> = (1..=record.moves.len() as u64 + 3).collect();
    assert_eq!(ids, expected, "ids count moves, handovers and the result");
    assert!(matches!(events.last().unwrap().1, GameEvent::Result(_)));
}
