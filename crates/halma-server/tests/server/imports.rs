//! Records, positions, analysis and pictures over raw HTTP: what the SDK does not say (the
//! `text/plain` download, unknown fields, out-of-range numbers its types rule out, body
//! limits) and the wire details of the answers. Round trips on every board, bad records and
//! the agreement with the game endpoints are in the black-box suite.

use halma_server::api::{AnalysisSuggestion, CreatedGame, GameRecord};
use halma_server::config::Config;
use reqwest::header::{
    ACCEPT, CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_TYPE, ETAG, IF_NONE_MATCH, VARY,
};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::games::{problem, Api};

fn header(r: &reqwest::Response, name: reqwest::header::HeaderName) -> String {
    r.headers()
        .get(name)
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default()
}

/// Whether the answer's `Vary` names `Accept` (the CORS layer adds its own names).
fn varies_by_accept(r: &reqwest::Response) -> bool {
    header(r, VARY)
        .split(',')
        .any(|name| name.trim().eq_ignore_ascii_case("accept"))
}

/// A two-player game on 8 x 8 with a few moves.
async fn game_with_moves(api: &Api) -> CreatedGame {
    let c = api
        .created(json!({"board": "square8", "players": 2, "first_seat": 0, "seats": [{"name": "Ada"}, {"name": "Bo"}]}))
        .await;
    let host = c.tokens.host.clone();
    for version in 1..=4 {
        let first = api.moves(&c.game.id).await.moves[0].path.clone();
        let r = api
            .play(&c.game.id, &host, Some(version), json!({"path": first}))
            .await;
        assert_eq!(r.status(), StatusCode::OK);
    }
    c
}

#[tokio::test]
async fn the_record_downloads_as_text_and_imports_again() {
    let api = Api::spawn(Config::default()).await;
    let c = game_with_moves(&api).await;
    let id = &c.game.id;
    let url = format!("{}/v1/games/{id}/record", api.base);
    // JSON by default and for JSON-first Accept headers, with Vary: Accept.
    for accept in [
        None,
        Some("application/json"),
        Some("application/json, text/plain;q=0.5"),
    ] {
        let mut request = api.client.get(&url);
        if let Some(accept) = accept {
            request = request.header(ACCEPT, accept);
        }
        let r = request.send().await.unwrap();
        assert_eq!(r.status(), StatusCode::OK);
        assert!(
            header(&r, CONTENT_TYPE).starts_with("application/json"),
            "{accept:?}"
        );
        assert!(varies_by_accept(&r), "{:?}", r.headers());
        let record: GameRecord = r.json().await.unwrap();
        assert_eq!(record.moves.len(), 4);
    }
    // The text export as a file.
    let r = api
        .client
        .get(&url)
        .header(ACCEPT, "text/plain")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(header(&r, CONTENT_TYPE), "text/plain; charset=utf-8");
    assert_eq!(
        header(&r, CONTENT_DISPOSITION),
        format!("attachment; filename=\"halma-{id}.txt\"")
    );
    assert_eq!(header(&r, ETAG), "\"5\"");
    assert!(varies_by_accept(&r), "{:?}", r.headers());
    let text = r.text().await.unwrap();
    assert!(text.starts_with(&format!("[Game \"{id}\"]\n")), "{text}");
    assert!(
        text.contains("[Player1 \"Ada\"]\n[Player2 \"Bo\"]\n"),
        "{text}"
    );
    assert!(text.contains("\n4. 2 "), "players counted from 1: {text}");
    // The file imports: the same position, the names from its tags.
    let imported = api.created(json!({"record": text})).await;
    let original: Value = api
        .get(&format!("/v1/games/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(json!(imported.game.position), original["position"]);
    assert_eq!(imported.game.move_count, 4);
    assert_eq!(imported.game.seats[1].name, "Bo");
    assert_eq!(imported.game.version, 1);
}

#[tokio::test]
async fn starts_are_checked_as_request_fields() {
    let api = Api::spawn(Config::default()).await;
    let c = game_with_moves(&api).await;
    let record: Value = api
        .get(&format!("/v1/games/{}/record", c.game.id))
        .await
        .json()
        .await
        .unwrap();
    // The JSON form imports as it is, and refuses fields it does not know.
    let imported = api.created(json!({"record_json": record})).await;
    assert_eq!(json!(imported.game.position), record["position"]);
    assert_eq!(imported.game.move_count, 4);
    let mut extra = record.clone();
    extra["colour"] = json!("red");
    problem(
        api.create(json!({"record_json": extra})).await,
        StatusCode::BAD_REQUEST,
        "invalid_json",
    )
    .await;
    // Without a board, players or a start: malformed.
    problem(
        api.create(json!({"players": 2})).await,
        StatusCode::BAD_REQUEST,
        "invalid_json",
    )
    .await;
    // Board and players that contradict the position.
    let p = problem(
        api.create(json!({"board": "star", "position": record["position"]}))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_setup",
    )
    .await;
    assert_eq!(
        serde_json::to_value(p.reason).unwrap(),
        json!("start_conflict")
    );
    // Options that contradict the position's own name the option.
    let with_option =
        record["position"]
            .as_str()
            .unwrap()
            .replacen(" - ", " repetition_draw=1 ", 1);
    let p = problem(
        api.create(json!({"position": with_option, "options": {"repetition_draw": false}}))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_position",
    )
    .await;
    assert_eq!(p.field.as_deref(), Some("options.repetition_draw"));
}

#[tokio::test]
async fn analysis_requests_are_checked() {
    let limit = 2_048;
    let api = Api::spawn(Config {
        max_body_bytes: limit,
        ..Config::default()
    })
    .await;
    let c = api
        .created(json!({"board": "star", "players": 2, "first_seat": 0}))
        .await;
    let position = c.game.position.clone();
    let post = |path: &'static str, body: Value| {
        let api = &api;
        async move {
            api.client
                .post(format!("{}{path}", api.base))
                .json(&body)
                .send()
                .await
                .unwrap()
        }
    };
    // multipv 0 (the SDK's types cannot say it) and unknown fields.
    problem(
        post(
            "/v1/analysis/suggestion",
            json!({"position": position, "multipv": 0}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "bad_request",
    )
    .await;
    for path in [
        "/v1/analysis/moves",
        "/v1/analysis/suggestion",
        "/v1/analysis/check",
    ] {
        problem(
            post(path, json!({"position": position, "depth": 3})).await,
            StatusCode::BAD_REQUEST,
            "invalid_json",
        )
        .await;
        problem(
            post(path, json!({"position": "x".repeat(limit)})).await,
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
        )
        .await;
    }
    // A suggestion with its lines; nothing stored, nothing to cache.
    let r = post(
        "/v1/analysis/suggestion",
        json!({"position": position, "level": 5, "multipv": 3, "time_ms": 500}),
    )
    .await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(header(&r, CACHE_CONTROL), "no-store");
    let s: AnalysisSuggestion = r.json().await.unwrap();
    assert_eq!(s.lines.len(), 3);
    assert_eq!(s.notation, s.lines[0].notation);
    assert_eq!(s.nodes, s.lines.iter().map(|l| l.nodes).sum::<u64>());
}

#[tokio::test]
async fn board_pictures_take_their_options() {
    let api = Api::spawn(Config::default()).await;
    let c = game_with_moves(&api).await;
    let url = |query: &str| format!("/v1/games/{}/board.svg{query}", c.game.id);
    let r = api.get(&url("")).await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(header(&r, CONTENT_TYPE), "image/svg+xml");
    assert_eq!(header(&r, ETAG), "\"5\"");
    let plain = r.text().await.unwrap();
    assert!(plain.contains(r#"width="640""#) || plain.contains(r#"height="640""#));
    assert!(!plain.contains(r#"class="names""#));
    let r = api.get(&url("?names=true&size=200&bottom=1")).await;
    let turned = r.text().await.unwrap();
    assert!(turned.contains(r#"class="names""#));
    assert!(turned.contains(r#"width="200""#));
    assert_ne!(turned, plain);
    // The seat at the bottom turns a square board half a turn for seat 1.
    let r = api.get(&url("?bottom=0")).await;
    assert_eq!(r.text().await.unwrap(), plain);
    // 304 for the version the client has, whatever the options.
    let r = api
        .client
        .get(format!("{}{}", api.base, url("?names=true")))
        .header(IF_NONE_MATCH, "\"5\"")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::NOT_MODIFIED);
    for bad in ["?size=10", "?size=5000", "?bottom=2", "?ply=9", "?turn=1"] {
        problem(
            api.get(&url(bad)).await,
            StatusCode::BAD_REQUEST,
            "bad_request",
        )
        .await;
    }
}
