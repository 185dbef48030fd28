//! The OpenAPI document states the limits the server enforces, and the server accepts what the
//! document allows (what Schemathesis, `tests/schemathesis/run.sh`, checks from outside): each
//! stated limit is checked here at its edge, in the document and over HTTP, with the readings
//! the document's JSON Schema allows (an integer written `12.0`) and the ones it does not (a
//! struct written as an array).

use halma_server::api::CreatedGame;
use halma_server::config::Config;
use halma_server::openapi::ApiDoc;
use reqwest::header::{AUTHORIZATION, IF_MATCH};
use reqwest::StatusCode;
use serde_json::{json, Value};
use utoipa::OpenApi as _;

use crate::games::{problem, Api};

fn document() -> Value {
    serde_json::to_value(ApiDoc::openapi()).unwrap()
}

/// The schema of parameter `name` of the operation at `path`, `method`.
fn parameter<'a>(doc: &'a Value, path: &str, method: &str, name: &str) -> &'a Value {
    doc["paths"][path][method]["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .map(|p| &p["schema"])
        .unwrap_or_else(|| panic!("{method} {path} has no parameter {name}"))
}

/// A property of a component schema (through `oneOf` with `null` for an optional one).
fn property<'a>(doc: &'a Value, schema: &str, name: &str) -> &'a Value {
    &doc["components"]["schemas"][schema]["properties"][name]
}

/// Every integer schema of `value` (with its JSON pointer).
fn integers<'a>(value: &'a Value, pointer: String, found: &mut Vec<(String, &'a Value)>) {
    match value {
        Value::Object(object) => {
            let is_integer = object.get("type").is_some_and(|t| {
                t == "integer"
                    || t.as_array()
                        .is_some_and(|l| l.iter().any(|t| t == "integer"))
            });
            if is_integer {
                found.push((pointer.clone(), value));
            }
            for (key, child) in object {
                integers(child, format!("{pointer}/{key}"), found);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                integers(child, format!("{pointer}/{i}"), found);
            }
        }
        _ => {}
    }
}

#[test]
fn every_unsigned_integer_states_its_range() {
    let doc = document();
    let mut found = Vec::new();
    integers(&doc, String::new(), &mut found);
    assert!(found.len() > 100, "{} integers", found.len());
    // What requests carry: parameters and the component schemas (response headers are the
    // server's own).
    for (pointer, schema) in found
        .into_iter()
        .filter(|(p, _)| !p.contains("/responses/"))
    {
        let widest = match schema["format"].as_str() {
            Some("u-int8") => u64::from(u8::MAX),
            Some("u-int16") => u64::from(u16::MAX),
            Some("u-int32") => u64::from(u32::MAX),
            Some("u-int64") => u64::MAX,
            _ => continue,
        };
        let maximum = schema["maximum"].as_u64();
        assert!(
            maximum.is_some_and(|m| m <= widest),
            "{pointer}: maximum {maximum:?}"
        );
        assert!(
            schema["minimum"].as_u64().is_some(),
            "{pointer}: no minimum"
        );
    }
}

#[test]
fn the_document_states_the_limits() {
    let doc = document();
    let arm = parameter(&doc, "/v1/boards/{board}", "get", "arm_size");
    assert_eq!((&arm["minimum"], &arm["maximum"]), (&json!(2), &json!(5)));
    let time = parameter(&doc, "/v1/games/{id}/suggestion", "get", "time_ms");
    assert_eq!(time["minimum"], 1);
    let level = parameter(&doc, "/v1/games/{id}/suggestion", "get", "level");
    assert_eq!(
        (&level["minimum"], &level["maximum"]),
        (&json!(1), &json!(10))
    );
    let seat = parameter(&doc, "/v1/games/{id}/seats/{seat}/resign", "post", "seat");
    assert_eq!(seat["maximum"], 255);
    let cursor = parameter(&doc, "/v1/lobby", "get", "cursor");
    assert!(cursor["pattern"].is_string());
    let name = parameter(&doc, "/v1/stats/players/{name}", "get", "name");
    assert_eq!(
        (&name["minLength"], &name["maxLength"]),
        (&json!(1), &json!(64))
    );
    assert!(name["pattern"].is_string());
    for header in ["If-Match", "Authorization"] {
        let schema = parameter(&doc, "/v1/games/{id}/moves", "post", header);
        assert!(schema["pattern"].is_string(), "{header}");
    }
    let seat_name = property(&doc, "SeatRequest", "name");
    assert!(
        seat_name.to_string().contains("\"maxLength\":64"),
        "{seat_name}"
    );
    let join_name = property(&doc, "JoinRequest", "name");
    assert!(
        join_name.to_string().contains("\"maxLength\":64"),
        "{join_name}"
    );
    assert!(property(&doc, "PlayMoveRequest", "path")
        .to_string()
        .contains("\"minItems\":2"));
    assert!(property(&doc, "AnalysisSuggestionRequest", "recent")
        .to_string()
        .contains("\"maxItems\":64"));
    for (schema, field, minimum) in [
        ("CreateGameRequest", "players", 2),
        ("CreateGameRequest", "ai_time_ms", 1),
        ("AnalysisSuggestionRequest", "time_ms", 1),
        ("SeatRequest", "level", 1),
    ] {
        let text = property(&doc, schema, field).to_string();
        assert!(
            text.contains(&format!("\"minimum\":{minimum}")),
            "{schema}.{field}: {text}"
        );
    }
}

/// The answers that create a game link to every operation on a game but its event stream
/// (which stays open), with the game's id, and its version and host token where they count.
#[test]
fn new_games_link_to_the_operations_on_them() {
    let doc = document();
    let mut game_operations = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for operation in item.as_object().unwrap().values() {
            if path.starts_with("/v1/games/{id}") && !path.ends_with("/events") {
                game_operations.push(operation["operationId"].as_str().unwrap().to_owned());
            }
        }
    }
    assert!(game_operations.len() >= 14, "{game_operations:?}");
    for (path, method) in [("/v1/games", "post"), ("/v1/games/{id}/rematch", "post")] {
        let links = doc["paths"][path][method]["responses"]["201"]["links"]
            .as_object()
            .unwrap_or_else(|| panic!("{method} {path}: no links"));
        for operation in &game_operations {
            let link = &links[operation.as_str()];
            assert_eq!(link["operationId"], operation.as_str(), "{path}");
            assert_eq!(link["parameters"]["path.id"], "$response.body#/game/id");
        }
        let play = &links["play_move"]["parameters"];
        assert_eq!(play["header.If-Match"], "$response.header.ETag");
        assert_eq!(
            play["header.Authorization"],
            "Bearer {$response.body#/tokens/host}"
        );
    }
}

async fn send(
    api: &Api,
    method: reqwest::Method,
    path: &str,
    body: Option<&str>,
) -> reqwest::Response {
    let mut request = api.client.request(method, format!("{}{path}", api.base));
    if let Some(body) = body {
        request = request
            .header("content-type", "application/json")
            .body(body.to_owned());
    }
    request.send().await.unwrap()
}

/// JSON Schema's `integer` admits `12.0`: so does the server, in every body.
#[tokio::test]
async fn integers_may_be_written_with_a_zero_fraction() {
    let api = Api::spawn(Config::default()).await;
    let body = r#"{"board": "star", "players": 2.0, "first_seat": 0.0, "ai_time_ms": 50.0,
        "seats": [{"name": "Ada"}, {"kind": "ai", "level": 3.0}]}"#;
    let r = send(&api, reqwest::Method::POST, "/v1/games", Some(body)).await;
    assert_eq!(r.status(), StatusCode::CREATED);
    let created: CreatedGame = r.json().await.unwrap();
    assert_eq!(created.game.players, 2);
    let version = created.game.version;
    let moves = api.moves(&created.game.id).await;
    let first = &moves.moves[0];
    let r = api
        .client
        .post(format!("{}/v1/games/{}/moves", api.base, created.game.id))
        .header(AUTHORIZATION, format!("Bearer {}", created.tokens.host))
        .header("content-type", "application/json")
        .body(format!(
            r#"{{"from": "{}", "to": "{}", "version": {version}.0}}"#,
            first.from, first.to
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK, "{:?}", r.text().await);

    // A fraction is not an integer; nor is a number past the field's width.
    for body in [
        r#"{"board": "star", "players": 2.5}"#,
        r#"{"board": "star", "players": 256.0}"#,
    ] {
        let r = send(&api, reqwest::Method::POST, "/v1/games", Some(body)).await;
        problem(r, StatusCode::BAD_REQUEST, "invalid_json").await;
    }
}

/// serde reads a struct from an array of its fields; the document's schemas do not allow it,
/// and neither does the server.
#[tokio::test]
async fn bodies_and_their_structs_are_objects() {
    let api = Api::spawn(Config::default()).await;
    for body in [
        "[]",
        r#"["star", 2]"#,
        r#"{"board": "star", "players": 2, "options": [null, null]}"#,
        r#"{"board": "star", "players": 2, "seats": [[null, "human", null], {}]}"#,
    ] {
        let r = send(&api, reqwest::Method::POST, "/v1/games", Some(body)).await;
        let p = problem(r, StatusCode::BAD_REQUEST, "invalid_json").await;
        assert!(p.detail.contains("object"), "{body}: {}", p.detail);
    }
    let r = send(
        &api,
        reqwest::Method::POST,
        "/v1/games/x/seats/0/join",
        Some("[null, null]"),
    )
    .await;
    problem(r, StatusCode::BAD_REQUEST, "invalid_json").await;
}

/// Each limit the document states, at its edge: the last value allowed is accepted, the first
/// one past it is not.
#[tokio::test]
async fn the_stated_limits_are_the_servers() {
    let api = Api::spawn(Config::default()).await;
    let get = |path: String| {
        let api = &api;
        async move { api.get(&path).await.status() }
    };
    // Star arm sizes 2 to 5.
    assert_eq!(
        get("/v1/boards/star?arm_size=2".into()).await,
        StatusCode::OK
    );
    assert_eq!(
        get("/v1/boards/star?arm_size=5".into()).await,
        StatusCode::OK
    );
    assert_eq!(
        get("/v1/boards/star?arm_size=1".into()).await,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        get("/v1/boards/star?arm_size=6".into()).await,
        StatusCode::BAD_REQUEST
    );

    let created: CreatedGame = api
        .created(json!({"board": "star", "players": 2, "first_seat": 0}))
        .await;
    let id = created.game.id.clone();
    // Suggestions: level 1 to 10, at least 1 ms.
    assert_eq!(
        get(format!("/v1/games/{id}/suggestion?level=1&time_ms=1")).await,
        StatusCode::OK
    );
    for query in ["level=0", "level=11", "time_ms=0"] {
        let status = get(format!("/v1/games/{id}/suggestion?{query}")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}");
    }
    // Seats are `u8`: 256 is not one.
    let r = api
        .client
        .post(format!("{}/v1/games/{id}/seats/256/resign", api.base))
        .header(AUTHORIZATION, format!("Bearer {}", created.tokens.host))
        .header(IF_MATCH, "\"1\"")
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    problem(r, StatusCode::BAD_REQUEST, "bad_request").await;
    // Tokens have the form the document gives.
    let token = &created.tokens.host;
    assert_eq!(token.len(), 43);
    assert!(token
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
    // `If-Match` is a version.
    let r = api
        .client
        .post(format!("{}/v1/games/{id}/moves", api.base))
        .header(AUTHORIZATION, format!("Bearer {token}"))
        .header(IF_MATCH, "\"x\"")
        .json(&json!({"notation": "a1-b2"}))
        .send()
        .await
        .unwrap();
    problem(r, StatusCode::BAD_REQUEST, "bad_request").await;
    // A path has a start and an end.
    let r = api.play(&id, token, Some(1), json!({"path": ["e1"]})).await;
    problem(r, StatusCode::BAD_REQUEST, "bad_request").await;

    // Names: 1 to 64 characters, not only white space, no control characters.
    let long = "n".repeat(64);
    let r = api
        .create(json!({"board": "star", "players": 2, "seats": [{"name": long}, {}]}))
        .await;
    assert_eq!(r.status(), StatusCode::CREATED);
    for name in ["n".repeat(65), "   ".to_owned(), "a\u{7}b".to_owned()] {
        let r = api
            .create(json!({"board": "star", "players": 2, "seats": [{"name": name}, {}]}))
            .await;
        problem(r, StatusCode::UNPROCESSABLE_ENTITY, "invalid_setup").await;
    }
    assert_eq!(
        get(format!("/v1/stats/players/{}", "n".repeat(64))).await,
        StatusCode::OK
    );
    assert_eq!(
        get(format!("/v1/stats/players/{}", "n".repeat(65))).await,
        StatusCode::BAD_REQUEST
    );
    // Player counts from 2; AI time from 1 ms.
    for body in [
        json!({"board": "star", "players": 1}),
        json!({"board": "star", "players": 2, "ai_time_ms": 0}),
    ] {
        let r = api.create(body.clone()).await;
        assert!(r.status().is_client_error(), "{body}: {}", r.status());
    }
    // Lobby cursors have the form of `next_cursor`.
    assert_eq!(
        get("/v1/lobby?cursor=000000000000.abc".into()).await,
        StatusCode::OK
    );
    assert_eq!(
        get("/v1/lobby?cursor=abc".into()).await,
        StatusCode::BAD_REQUEST
    );
    // At most 64 recent positions.
    let position = created.game.position.clone();
    let suggest = |recent: usize| json!({"position": position, "recent": vec![position.clone(); recent], "time_ms": 1});
    for (recent, status) in [(64, StatusCode::OK), (65, StatusCode::BAD_REQUEST)] {
        let r = api
            .client
            .post(format!("{}/v1/analysis/suggestion", api.base))
            .json(&suggest(recent))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), status, "{recent} recent positions");
    }
}
