//! Games that start elsewhere than the initial setup: from a position, or as an imported record
//! (the text export or the JSON form). Export then import gives the same game on every board;
//! a record that does not replay is refused with the number of the move at fault.

use halma_client::reqwest::StatusCode;
use halma_client::{types, GameSession, HalmaError, ProblemCode};

use crate::checks::assert_problem;
use crate::rng::Rng;
use crate::server::TestServer;

/// The AI seats' thinking time in these games: the AI only keeps the game going.
const AI_TIME_MS: u32 = 5;

/// Finished games in the service's statistics.
async fn finished_games(server: &TestServer) -> u64 {
    let stats = server
        .client()
        .game_stats()
        .send()
        .await
        .unwrap()
        .into_inner();
    stats.groups.iter().map(|g| g.games_finished).sum()
}

/// A game's position key, from its notation (through the rules crate, as the service keeps it).
fn hash(position: &str) -> u64 {
    let (_, pos) = halma_rules::notation::parse_position(position).unwrap();
    pos.hash()
}

/// A request that starts from nothing but the given start.
fn start(
    position: Option<String>,
    record: Option<String>,
    record_json: Option<types::GameRecord>,
) -> types::CreateGameRequest {
    types::CreateGameRequest {
        public: None,
        ai_time_ms: Some(AI_TIME_MS),
        board: None,
        first_seat: None,
        options: None,
        players: None,
        position,
        record,
        record_json,
        seats: Vec::new(),
    }
}

/// One game to play, export and import.
struct Case {
    board: types::BoardName,
    players: u8,
    options: types::RuleOptions,
    /// Ends the game with a resignation (two players), for a finished record.
    finish: bool,
}

fn case(board: types::BoardName, players: u8) -> Case {
    Case {
        board,
        players,
        options: types::RuleOptions::default(),
        finish: false,
    }
}

/// Plays `plies` random moves of the human seats; with three or more players the last seat is
/// handed to the AI after a quarter of them and seat 1 resigns after a third (which ends a
/// game of two teams); a finishing two-player game ends with seat 1's resignation.
async fn played(server: &TestServer, name: &str, c: &Case, plies: usize) -> GameSession {
    let (mut rng, seed) = Rng::for_test(name);
    let request = types::CreateGameRequest {
        public: None,
        ai_time_ms: Some(AI_TIME_MS),
        board: Some(c.board),
        first_seat: Some(0),
        options: Some(c.options.clone()),
        players: Some(c.players),
        position: None,
        record: None,
        record_json: None,
        seats: (0..c.players)
            .map(|i| types::SeatRequest {
                name: Some(format!("Name \"{i}\" of {name}")),
                ..types::SeatRequest::default()
            })
            .collect(),
    };
    let (mut session, _) = GameSession::create(server.client(), request).await.unwrap();
    for ply in 0..plies {
        if session.is_finished() {
            break;
        }
        if c.players > 2 && ply == plies / 4 {
            session.hand_to_ai(c.players - 1, 1).await.unwrap();
        }
        if c.players > 2 && ply == plies / 3 {
            session.resign(1).await.unwrap();
        }
        if session.is_finished() {
            break;
        }
        let listing = session.legal_moves().await.unwrap();
        let Some(m) = rng.pick(&listing.moves) else {
            panic!("{name} (seed {seed}): no legal move for a seat to move");
        };
        session.play_path(m.path.clone()).await.unwrap();
    }
    if c.finish && !session.is_finished() {
        session.resign(1).await.unwrap();
        assert!(session.is_finished());
    }
    session
}

/// Imports `session`'s record as text and as JSON, and checks that each import is the same
/// game: position (and key), turn, result, record, seats.
async fn round_trip(server: &TestServer, what: &str, session: &GameSession) {
    let record = session.record().await.unwrap();
    let original = session.game().clone();
    for (via, request) in [
        ("text", start(None, Some(record.export.clone()), None)),
        ("json", start(None, None, Some(record.clone()))),
    ] {
        let (imported, _) = GameSession::create(server.other_client(), request)
            .await
            .unwrap_or_else(|e| panic!("{what} via {via}: {e}"));
        let game = imported.game();
        let at = format!("{what} via {via}");
        assert_ne!(game.id, original.id);
        assert_eq!(game.position, original.position, "{at}");
        assert_eq!(hash(&game.position), hash(&original.position), "{at}");
        assert_eq!(game.move_count, original.move_count, "{at}");
        assert_eq!(game.to_move, original.to_move, "{at}");
        assert_eq!(game.status, original.status, "{at}");
        assert_eq!(game.result, original.result, "{at}");
        assert_eq!(game.first_seat, original.first_seat, "{at}");
        assert_eq!(game.last_event_id, original.last_event_id, "{at}");
        assert_eq!(game.last_move, original.last_move, "{at}");
        assert_eq!(
            (&game.options, &game.rules),
            (&original.options, &original.rules)
        );
        assert_eq!(game.armies, original.armies, "{at}");
        for (a, b) in game.seats.iter().zip(&original.seats) {
            assert_eq!((a.seat, a.kind, a.level), (b.seat, b.kind, b.level), "{at}");
            assert_eq!(
                (a.moves_made, a.finished, a.eliminated),
                (b.moves_made, b.finished, b.eliminated)
            );
            if via == "text" {
                // Names travel in the text export (quotes become apostrophes there).
                assert_eq!(a.name, b.name.replace('"', "'"), "{at}");
            }
        }
        let again = imported.record().await.unwrap();
        assert_eq!(again.moves, record.moves, "{at}");
        assert_eq!(again.resignations, record.resignations, "{at}");
        assert_eq!(again.handovers, record.handovers, "{at}");
        assert_eq!(again.result, record.result, "{at}");
        assert_eq!(again.start_position, record.start_position, "{at}");
        assert_eq!(again.position, record.position, "{at}");
        assert_eq!(
            (again.board, again.players, &again.options, again.first_seat),
            (
                record.board,
                record.players,
                &record.options,
                record.first_seat
            )
        );
        // The export is the same but for the game's id (and, from JSON, the names).
        let body = |export: &str, names: bool| -> Vec<String> {
            export
                .lines()
                .filter(|l| !l.starts_with("[Game "))
                .filter(|l| names || !l.starts_with("[Player"))
                .map(str::to_owned)
                .collect()
        };
        assert_eq!(
            body(&again.export, via == "text"),
            body(&record.export, via == "text"),
            "{at}"
        );
    }
}

pub async fn export_then_import_gives_the_same_game_on_every_board(server: &TestServer) {
    use types::BoardName::{Square10, Square16, Square8, Star};
    let mut cases = vec![
        Case {
            finish: true,
            ..case(Star, 2)
        },
        case(Star, 3),
        case(Star, 4),
        case(Star, 6),
        case(Square16, 2),
        case(Square16, 4),
        Case {
            finish: true,
            ..case(Square10, 2)
        },
        case(Square8, 2),
        Case {
            finish: true,
            ..case(Square8, 2)
        },
    ];
    cases.push(Case {
        options: types::RuleOptions {
            arm_size: Some(3),
            ..types::RuleOptions::default()
        },
        ..case(Star, 2)
    });
    cases.push(Case {
        options: types::RuleOptions {
            fifteen_pieces: Some(true),
            ..types::RuleOptions::default()
        },
        ..case(Star, 2)
    });
    cases.push(Case {
        options: types::RuleOptions {
            teams: Some(true),
            ..types::RuleOptions::default()
        },
        ..case(Star, 4)
    });
    for (i, c) in cases.iter().enumerate() {
        let name = format!("import-{i}-{:?}-{}", c.board, c.players);
        let session = played(server, &name, c, 24).await;
        let record = session.record().await.unwrap();
        if c.players > 2 {
            assert_eq!(record.resignations.len(), 1, "{name}");
            assert_eq!(record.handovers.len(), 1, "{name}");
        }
        let teams = c.options.teams == Some(true);
        assert_eq!(record.result.is_some(), c.finish || teams, "{name}");
        round_trip(server, &name, &session).await;
    }
    // Imported games, finished or finished later, are not counted in the statistics.
    let counted = finished_games(server).await;
    assert!(
        counted >= 3,
        "the games finished above are counted: {counted}"
    );
    let ongoing = played(server, "imported-then-finished", &case(Square8, 2), 6).await;
    let record = ongoing.record().await.unwrap();
    let (mut imported, _) =
        GameSession::create(server.client(), start(None, Some(record.export), None))
            .await
            .unwrap();
    imported.resign(0).await.unwrap();
    assert!(imported.is_finished());
    assert_eq!(finished_games(server).await, counted);

    // A game not played at all, and one just started from a position.
    let fresh = played(server, "fresh", &case(Square16, 4), 0).await;
    round_trip(server, "fresh", &fresh).await;
    let played_a_bit = played(server, "from-position", &case(Star, 3), 10).await;
    let (from_position, _) = GameSession::create(
        server.client(),
        start(Some(played_a_bit.game().position.clone()), None, None),
    )
    .await
    .unwrap();
    assert_eq!(from_position.game().position, played_a_bit.game().position);
    assert_eq!(from_position.game().move_count, 0);
    round_trip(server, "from-position", &from_position).await;
}

/// The text export of a two-player game of ten moves on 8 x 8, as lines.
async fn ten_moves(server: &TestServer) -> (GameSession, Vec<String>) {
    let session = played(server, "ten-moves", &case(types::BoardName::Square8, 2), 10).await;
    let export = session.record().await.unwrap().export;
    (session, export.lines().map(str::to_owned).collect())
}

/// Asserts 422 `invalid_record` with `reason` at `move_number`.
#[track_caller]
fn assert_record_problem<T: std::fmt::Debug>(
    result: Result<T, HalmaError>,
    reason: &str,
    move_number: Option<u32>,
) {
    let err = assert_problem(
        result,
        StatusCode::UNPROCESSABLE_ENTITY,
        ProblemCode::InvalidRecord,
    );
    assert_eq!(
        err.reason().map(ToString::to_string).as_deref(),
        Some(reason),
        "{err}"
    );
    assert_eq!(err.move_number(), move_number, "{err}");
}

/// The index of the line of move `n` (`n. PLAYER PATH`).
fn line_of(lines: &[String], n: u32) -> usize {
    lines
        .iter()
        .position(|l| l.starts_with(&format!("{n}. ")))
        .unwrap()
}

/// The fields of a move line: number, player, path.
fn fields(line: &str) -> (String, String, String) {
    let mut parts = line.split(' ');
    let number = parts.next().unwrap().to_owned();
    let player = parts.next().unwrap().to_owned();
    (number, player, parts.next().unwrap().to_owned())
}

pub async fn bad_records_are_refused_with_the_move_at_fault(server: &TestServer) {
    let client = server.client();
    let (session, lines) = ten_moves(server).await;
    let import = |lines: Vec<String>| async move {
        GameSession::create(client, start(None, Some(lines.join("\n")), None)).await
    };
    // The record as exported imports.
    assert!(import(lines.clone()).await.is_ok());
    // Older exports named the seats Seat1, Seat2: still read.
    let older: Vec<String> = lines
        .iter()
        .map(|l| match l.strip_prefix("[Player") {
            Some(rest) if rest.starts_with(|c: char| c.is_ascii_digit()) => format!("[Seat{rest}"),
            _ => l.clone(),
        })
        .collect();
    assert!(older.iter().any(|l| l.starts_with("[Seat1 ")));
    let (imported, _) = import(older).await.unwrap();
    assert_eq!(imported.game().position, session.game().position);
    assert_eq!(
        imported.game().seats[0].name,
        session.game().seats[0].name.replace('"', "'")
    );

    // Move 4 moves the piece the other player moved at move 3.
    let mut bad = lines.clone();
    let (_, _, third) = fields(&bad[line_of(&bad, 3)]);
    let cells: Vec<&str> = third.split('-').collect();
    let at4 = line_of(&bad, 4);
    let (number, player, _) = fields(&bad[at4]);
    bad[at4] = format!("{number} {player} {}-{}", cells[cells.len() - 1], cells[0]);
    assert_record_problem(import(bad).await, "not_your_piece", Some(4));
    // Move 5 said to be the other player's.
    let mut bad = lines.clone();
    let at5 = line_of(&bad, 5);
    let (number, player, path) = fields(&bad[at5]);
    let other = if player == "1" { "2" } else { "1" };
    bad[at5] = format!("{number} {other} {path}");
    assert_record_problem(import(bad).await, "wrong_player", Some(5));
    // A cell that is not on the board at move 2.
    let mut bad = lines.clone();
    let at2 = line_of(&bad, 2);
    let (number, player, _) = fields(&bad[at2]);
    bad[at2] = format!("{number} {player} z9-a1");
    assert_record_problem(import(bad).await, "unreadable", Some(2));
    // Move 3 left out: move 4 comes where move 3 is due.
    let mut bad = lines.clone();
    bad.remove(line_of(&bad, 3));
    assert_record_problem(import(bad).await, "unreadable", Some(3));
    // A line that is no move after move 6.
    let mut bad = lines.clone();
    bad.insert(line_of(&bad, 6) + 1, "7 moves e5".to_owned());
    assert_record_problem(import(bad).await, "unreadable", Some(6));
    // A resignation of a seat the game does not have, after move 8.
    let mut bad = lines.clone();
    bad.insert(line_of(&bad, 8) + 1, "3 resigned".to_owned());
    assert_record_problem(import(bad).await, "unreadable", Some(8));
    // A handover after move 10 to a level the AI does not have.
    let mut bad = lines.clone();
    bad.push("2 handed to the AI (level 12)".to_owned());
    assert_record_problem(import(bad).await, "not_allowed", Some(10));
    // A result the moves do not reach, and a record without its board.
    let said_won: Vec<String> = lines
        .iter()
        .map(|l| {
            if l.starts_with("[Result ") {
                "[Result \"won by 1\"]".to_owned()
            } else {
                l.clone()
            }
        })
        .collect();
    assert_record_problem(import(said_won).await, "mismatch", None);
    let boardless: Vec<String> = lines
        .iter()
        .filter(|l| !l.starts_with("[Board "))
        .cloned()
        .collect();
    assert_record_problem(import(boardless).await, "unreadable", None);

    // The JSON form: the same faults, the same move numbers.
    let record = session.record().await.unwrap();
    let mut bad = record.clone();
    let third = bad.moves[2].path.clone();
    bad.moves[3].path = vec![third[third.len() - 1].clone(), third[0].clone()];
    bad.moves[3].from = bad.moves[3].path[0].clone();
    bad.moves[3].to = bad.moves[3].path[1].clone();
    bad.moves[3].notation = bad.moves[3].path.join("-");
    let result = GameSession::create(client, start(None, None, Some(bad))).await;
    assert_record_problem(result, "not_your_piece", Some(4));
    let mut bad = record.clone();
    bad.moves[4].seat = 1 - bad.moves[4].seat;
    let result = GameSession::create(client, start(None, None, Some(bad))).await;
    assert_record_problem(result, "wrong_player", Some(5));
    let mut bad = record.clone();
    bad.position = bad.start_position.clone();
    let result = GameSession::create(client, start(None, None, Some(bad))).await;
    assert_record_problem(result, "mismatch", None);

    // One start at a time, and no first seat with it.
    let both = start(
        Some(record.position.clone()),
        Some(record.export.clone()),
        None,
    );
    let err = assert_problem(
        GameSession::create(client, both).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        ProblemCode::InvalidSetup,
    );
    assert_eq!(
        err.reason().map(ToString::to_string).as_deref(),
        Some("start_conflict")
    );
    let with_first = types::CreateGameRequest {
        first_seat: Some(1),
        ..start(None, Some(record.export.clone()), None)
    };
    let err = assert_problem(
        GameSession::create(client, with_first).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        ProblemCode::InvalidSetup,
    );
    assert_eq!(
        err.reason().map(ToString::to_string).as_deref(),
        Some("start_conflict")
    );
}

pub async fn positions_name_what_is_wrong(server: &TestServer) {
    let client = server.client();
    // A 15-piece star position needs the option that gives 15 pieces.
    let fifteen = types::RuleOptions {
        fifteen_pieces: Some(true),
        ..types::RuleOptions::default()
    };
    let (game, _) = GameSession::create(
        client,
        types::CreateGameRequest {
            options: Some(fifteen.clone()),
            ..crate::setups::two_player_star()
        },
    )
    .await
    .unwrap();
    let without = game.game().position.replace("fifteen_pieces=1", "-");
    let err = assert_problem(
        GameSession::create(client, start(Some(without.clone()), None, None)).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        ProblemCode::InvalidPosition,
    );
    assert_eq!(
        err.reason().map(ToString::to_string).as_deref(),
        Some("piece_count")
    );
    assert_eq!(err.field(), Some("options.fifteen_pieces"), "{err}");
    // With the option in `options`, the same position starts a game.
    let (started, _) = GameSession::create(
        client,
        types::CreateGameRequest {
            options: Some(fifteen),
            ..start(Some(without), None, None)
        },
    )
    .await
    .unwrap();
    assert_eq!(started.game().position, game.game().position);
    assert!(started.game().rules.fifteen_pieces);

    // Each field of the notation is named when it is wrong.
    let good = crate::setups::two_player_star();
    let (fresh, _) = GameSession::create(client, good).await.unwrap();
    let text = fresh.game().position.clone();
    let mut fields: Vec<String> = text.split(' ').map(str::to_owned).collect();
    for (index, value, field, reason) in [
        (0, "hexagon", "position.board", "unreadable"),
        (1, "5", "position.players", "players"),
        (2, "teams=1", "position.options", "option"),
        (3, "a1", "position.placement", "unreadable"),
        (4, "3", "position.to_move", "unreadable"),
        (5, "0,0,0", "position.seats", "unreadable"),
    ] {
        let was = std::mem::replace(&mut fields[index], value.to_owned());
        let err = assert_problem(
            GameSession::create(client, start(Some(fields.join(" ")), None, None)).await,
            StatusCode::UNPROCESSABLE_ENTITY,
            ProblemCode::InvalidPosition,
        );
        assert_eq!(err.field(), Some(field), "{err}");
        assert_eq!(
            err.reason().map(ToString::to_string).as_deref(),
            Some(reason),
            "{err}"
        );
        fields[index] = was;
    }
    // The player to move has finished: not a position to play on.
    fields[5] = "0f,0".to_owned();
    let err = assert_problem(
        GameSession::create(client, start(Some(fields.join(" ")), None, None)).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        ProblemCode::InvalidPosition,
    );
    assert_eq!(
        err.reason().map(ToString::to_string).as_deref(),
        Some("not_playing")
    );
}
