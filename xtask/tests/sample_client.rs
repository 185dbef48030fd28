//! Compiles the client generated from tests/fixtures/sample-3.1.json (committed as
//! tests/fixtures/sample_client.rs, kept current by tests/generate.rs) and runs it against a
//! canned HTTP server on 127.0.0.1: request bodies, `If-Match`/`If-None-Match` headers, the
//! `ETag` response header, `u64` versions and problem+json errors decoded into the typed
//! `Problem`.

// Tests may unwrap: a failure is the report.
#![allow(clippy::unwrap_used)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::thread::{self, JoinHandle};

/// The generated client, included as the client crate includes it; generated code is neither
/// documented item by item nor written to this workspace's lint settings.
#[allow(missing_docs, unused_imports, clippy::unwrap_used)]
mod sample {
    include!("fixtures/sample_client.rs");
}

use sample::types::{BoardKind, ErrorCode, Game, NewGame};
use sample::{Client, Error};

/// One request as the server saw it.
#[derive(Debug)]
struct SeenRequest {
    /// Request line, e.g. `POST /games HTTP/1.1`.
    line: String,
    /// Header lines, names lower-cased.
    headers: Vec<(String, String)>,
    body: String,
}

impl SeenRequest {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Serves exactly one request with `status`, extra `headers` and a JSON `body` (may be empty),
/// then returns what it received. Returns the client's base URL and the server thread.
fn serve_once(
    status: &'static str,
    headers: &'static [(&'static str, &'static str)],
    body: String,
) -> (String, JoinHandle<SeenRequest>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let handle = thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        let mut seen_headers = Vec::new();
        loop {
            let mut header = String::new();
            reader.read_line(&mut header).unwrap();
            let header = header.trim_end();
            if header.is_empty() {
                break;
            }
            let (name, value) = header.split_once(':').unwrap();
            seen_headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
        }
        let length = seen_headers
            .iter()
            .find(|(n, _)| n == "content-length")
            .map_or(0, |(_, v)| v.parse::<usize>().unwrap());
        let mut request_body = vec![0; length];
        reader.read_exact(&mut request_body).unwrap();

        let mut response = format!(
            "HTTP/1.1 {status}\r\nconnection: close\r\ncontent-length: {}\r\n",
            body.len()
        );
        for (name, value) in headers {
            response.push_str(&format!("{name}: {value}\r\n"));
        }
        response.push_str("\r\n");
        response.push_str(&body);
        let mut stream = stream;
        stream.write_all(response.as_bytes()).unwrap();
        stream.flush().unwrap();
        SeenRequest {
            line: line.trim_end().to_owned(),
            headers: seen_headers,
            body: String::from_utf8(request_body).unwrap(),
        }
    });
    (base, handle)
}

fn game_json(version: u64) -> String {
    serde_json::json!({
        "id": "g-1",
        "version": version,
        "board": "star",
        "players": 2,
        "to_move": 0,
        "moves": [{"seat": 1, "notation": "e4-e5"}],
        "scores": {"north": 0, "south": 3},
        "last_move": null,
        "winner": null
    })
    .to_string()
}

const PROBLEM: (&str, &str) = ("content-type", "application/problem+json");

#[tokio::test]
async fn create_game_sends_the_body_and_reads_etag_and_game() {
    let (base, server) = serve_once(
        "201 Created",
        &[("content-type", "application/json"), ("etag", "\"1\"")],
        game_json(1),
    );
    let client = Client::new(&base);
    let setup = NewGame::builder()
        .board(BoardKind::Star)
        .players(2u8)
        .name(Some("friendly".to_owned()));
    let response = client.create_game().body(setup).send().await.unwrap();

    assert_eq!(response.status().as_u16(), 201);
    assert_eq!(response.headers()["etag"], "\"1\"");
    let game: Game = response.into_inner();
    assert_eq!(game.version, 1);
    assert_eq!(game.board, BoardKind::Star);
    assert_eq!(game.winner, None);
    assert_eq!(game.scores["south"], 3);

    let seen = server.join().unwrap();
    assert_eq!(seen.line, "POST /games HTTP/1.1");
    assert_eq!(seen.header("content-type"), Some("application/json"));
    let body: serde_json::Value = serde_json::from_str(&seen.body).unwrap();
    assert_eq!(
        body,
        serde_json::json!({"board": "star", "players": 2, "name": "friendly"})
    );
}

#[tokio::test]
async fn versions_use_the_whole_u64_range() {
    let (base, server) = serve_once(
        "200 OK",
        &[("content-type", "application/json")],
        game_json(u64::MAX),
    );
    let game = Client::new(&base)
        .get_game()
        .id("g-1")
        .send()
        .await
        .unwrap()
        .into_inner();
    assert_eq!(game.version, u64::MAX);
    let seen = server.join().unwrap();
    assert_eq!(seen.line, "GET /games/g-1 HTTP/1.1");
    assert_eq!(seen.header("if-none-match"), None);
}

#[tokio::test]
async fn stale_if_match_gives_a_typed_problem() {
    let problem = serde_json::json!({
        "type": "https://example.invalid/problems/stale-version",
        "title": "Stale version",
        "status": 412,
        "code": "stale_version",
        "detail": "the game is at version 3"
    });
    let (base, server) = serve_once("412 Precondition Failed", &[PROBLEM], problem.to_string());
    let err = Client::new(&base)
        .play_move()
        .id("g-1")
        .if_match("\"2\"")
        .body(sample::types::MoveRequest::builder().notation("e4-e5"))
        .send()
        .await
        .unwrap_err();

    let Error::ErrorResponse(response) = err else {
        panic!("expected a typed error response, got {err:?}");
    };
    assert_eq!(response.status().as_u16(), 412);
    assert_eq!(response.code, ErrorCode::StaleVersion);
    assert_eq!(response.detail.as_deref(), Some("the game is at version 3"));

    let seen = server.join().unwrap();
    assert_eq!(seen.line, "POST /games/g-1/moves HTTP/1.1");
    assert_eq!(seen.header("if-match"), Some("\"2\""));
    assert_eq!(seen.header("accept"), Some("application/json"));
}

#[tokio::test]
async fn not_modified_is_an_unexpected_response_carrying_304() {
    // progenitor treats statuses outside 2xx/4xx/5xx as unexpected: a caller using
    // If-None-Match has to look for 304 in `Error::UnexpectedResponse`.
    let (base, server) = serve_once("304 Not Modified", &[("etag", "\"5\"")], String::new());
    let err = Client::new(&base)
        .get_game()
        .id("g-1")
        .if_none_match("\"5\"")
        .send()
        .await
        .unwrap_err();
    assert_eq!(err.status().map(|s| s.as_u16()), Some(304));
    assert!(matches!(err, Error::UnexpectedResponse(_)), "{err:?}");
    assert_eq!(
        server.join().unwrap().header("if-none-match"),
        Some("\"5\"")
    );
}

#[tokio::test]
async fn delete_returns_no_body_and_unknown_games_a_problem() {
    let (base, server) = serve_once("204 No Content", &[], String::new());
    let response = Client::new(&base)
        .delete_game()
        .id("g 1/x")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 204);
    // Path parameters are percent-encoded.
    assert_eq!(
        server.join().unwrap().line,
        "DELETE /games/g%201%2Fx HTTP/1.1"
    );

    let problem = serde_json::json!({
        "type": "about:blank", "title": "Not Found", "status": 404, "code": "unknown_game"
    });
    let (base, server) = serve_once("404 Not Found", &[PROBLEM], problem.to_string());
    let err = Client::new(&base)
        .delete_game()
        .id("nope")
        .send()
        .await
        .unwrap_err();
    let Error::ErrorResponse(response) = err else {
        panic!("expected a typed error response, got {err:?}");
    };
    assert_eq!(response.code, ErrorCode::UnknownGame);
    assert_eq!(response.detail, None);
    server.join().unwrap();
}

#[tokio::test]
async fn missing_required_parameters_fail_before_sending() {
    let client = Client::new("http://127.0.0.1:9");
    let err = client.get_game().send().await.unwrap_err();
    assert!(matches!(err, Error::InvalidRequest(_)), "{err:?}");
}
