//! Open seats and the lobby over raw HTTP: what the SDK cannot send (malformed bodies, unknown
//! fields, bad queries) and the answers' wire details. Whole games filled through invitations
//! are in the black-box suite (`tests/`).

use std::time::Duration;

use halma_server::api::{JoinedSeat, LobbyPage};
use halma_server::config::Config;
use halma_server::problem::ProblemReason;
use reqwest::header::{AUTHORIZATION, ETAG, IF_MATCH};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::games::{problem, Api};

fn open_game(public: bool) -> Value {
    json!({"board": "star", "players": 2, "first_seat": 0, "public": public,
           "seats": [{"name": "Ada"}, {"kind": "open"}]})
}

impl Api {
    async fn post(
        &self,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> reqwest::Response {
        let mut req = self.client.post(format!("{}{path}", self.base));
        if let Some(token) = token {
            req = req.header(AUTHORIZATION, format!("Bearer {token}"));
        }
        if let Some(body) = body {
            req = req.json(&body);
        }
        req.send().await.unwrap()
    }
}

#[tokio::test]
async fn open_seats_are_set_up_with_care() {
    let api = Api::spawn(Config::default()).await;
    for (body, why) in [
        (
            json!({"board": "star", "players": 2, "seats": [{}, {"kind": "open", "name": "Bo"}]}),
            "an open seat's name is given on joining",
        ),
        (
            json!({"board": "star", "players": 2, "seats": [{}, {"kind": "open", "level": 3}]}),
            "an open seat has no level",
        ),
        (
            json!({"board": "star", "players": 2, "public": true}),
            "a public game needs an open seat",
        ),
    ] {
        let p = problem(
            api.create(body).await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_setup",
        )
        .await;
        assert_eq!(p.reason, Some(ProblemReason::Seats), "{why}: {}", p.detail);
    }
    problem(
        api.create(json!({"board": "star", "players": 2, "public": "yes"}))
            .await,
        StatusCode::BAD_REQUEST,
        "invalid_json",
    )
    .await;
}

#[tokio::test]
async fn joining_checks_its_input() {
    let api = Api::spawn(Config::default()).await;
    let c = api.created(open_game(false)).await;
    let id = &c.game.id;
    assert_eq!(c.tokens.seats[1], None);
    let code = &c.invitations[0].code;
    let join = format!("/v1/games/{id}/seats/1/join");
    for (body, status, code_name) in [
        (
            json!({"code": code, "colour": "red"}),
            StatusCode::BAD_REQUEST,
            "invalid_json",
        ),
        (json!({"code": 7}), StatusCode::BAD_REQUEST, "invalid_json"),
        (
            json!({"code": code, "name": ""}),
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            json!({"code": code, "name": "x".repeat(65)}),
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            json!({"code": code, "name": "a\nb"}),
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (json!({}), StatusCode::BAD_REQUEST, "bad_request"),
        (
            json!({"code": "guess"}),
            StatusCode::FORBIDDEN,
            "invalid_invitation",
        ),
    ] {
        problem(api.post(&join, None, Some(body)).await, status, code_name).await;
    }
    problem(
        api.post(
            &format!("/v1/games/{id}/seats/9/join"),
            None,
            Some(json!({"code": code})),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "bad_request",
    )
    .await;
    problem(
        api.post(
            &format!("/v1/games/{id}/seats/0/join"),
            None,
            Some(json!({"code": code})),
        )
        .await,
        StatusCode::CONFLICT,
        "seat_taken",
    )
    .await;
    problem(
        api.post(
            "/v1/games/nope/seats/1/join",
            None,
            Some(json!({"code": code})),
        )
        .await,
        StatusCode::NOT_FOUND,
        "game_not_found",
    )
    .await;
    // A stale If-Match is checked; `*` names no version.
    let stale = api
        .client
        .post(format!("{}{join}", api.base))
        .header(IF_MATCH, "\"7\"")
        .json(&json!({"code": code}))
        .send()
        .await
        .unwrap();
    problem(stale, StatusCode::PRECONDITION_FAILED, "version_mismatch").await;
    let star = api
        .client
        .post(format!("{}{join}", api.base))
        .header(IF_MATCH, "*")
        .json(&json!({"code": code}))
        .send()
        .await
        .unwrap();
    problem(star, StatusCode::BAD_REQUEST, "bad_request").await;
    // The host token moves for every seat, but not while the game waits.
    problem(
        api.play(id, &c.tokens.host, Some(1), json!({"notation": "d1-e5"}))
            .await,
        StatusCode::CONFLICT,
        "game_waiting",
    )
    .await;
    problem(
        api.get(&format!("/v1/games/{id}/suggestion")).await,
        StatusCode::CONFLICT,
        "game_waiting",
    )
    .await;
    // The join: the seat's token, the new version as the ETag, the game started.
    let r = api
        .post(&join, None, Some(json!({"code": code, "name": " Bo "})))
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(r.headers()[ETAG], "\"2\"");
    let joined: JoinedSeat = r.json().await.unwrap();
    assert_eq!((joined.seat, joined.game.seats[1].name.as_str()), (1, "Bo"));
    assert_eq!(joined.token.len(), 43);
    let r = api
        .play(id, &joined.token, Some(2), json!({"notation": "d1-e5"}))
        .await;
    problem(r, StatusCode::UNPROCESSABLE_ENTITY, "illegal_move").await;
    let r = api
        .play(id, &c.tokens.host, Some(2), json!({"notation": "d1-e5"}))
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    problem(
        api.post(
            &format!("/v1/games/{id}/seats/1/leave"),
            Some(&joined.token),
            None,
        )
        .await,
        StatusCode::CONFLICT,
        "game_not_waiting",
    )
    .await;
    let cancel = api
        .client
        .delete(format!("{}/v1/games/{id}", api.base))
        .header(AUTHORIZATION, format!("Bearer {}", c.tokens.host))
        .send()
        .await
        .unwrap();
    problem(cancel, StatusCode::CONFLICT, "game_not_waiting").await;
}

#[tokio::test]
async fn the_lobby_checks_its_query() {
    let api = Api::spawn(Config::default()).await;
    for query in [
        "limit=0",
        "limit=101",
        "players=7",
        "cursor=nonsense",
        "cursor=000000000001.a%20b",
    ] {
        problem(
            api.get(&format!("/v1/lobby?{query}")).await,
            StatusCode::BAD_REQUEST,
            "bad_request",
        )
        .await;
    }
    for query in ["board=hex", "players=two", "colour=red"] {
        problem(
            api.get(&format!("/v1/lobby?{query}")).await,
            StatusCode::BAD_REQUEST,
            "bad_request",
        )
        .await;
    }
    let c = api.created(open_game(true)).await;
    let r = api.get("/v1/lobby?board=star&players=2").await;
    assert_eq!(r.status(), StatusCode::OK);
    let page: LobbyPage = r.json().await.unwrap();
    assert_eq!(page.games.len(), 1);
    assert_eq!(page.games[0].id, c.game.id);
    assert_eq!(page.next_cursor, None);
}

/// A waiting game nobody joins expires after the waiting time, and leaves the lobby.
#[tokio::test]
async fn a_waiting_game_expires() {
    let config = Config {
        waiting_ttl: Duration::from_secs(1),
        ..Config::default()
    };
    let api = Api::spawn(config).await;
    let waiting = api.created(open_game(true)).await;
    let playing = api.created(json!({"board": "star", "players": 2})).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    problem(
        api.get(&format!("/v1/games/{}", waiting.game.id)).await,
        StatusCode::NOT_FOUND,
        "game_not_found",
    )
    .await;
    let r = api.get(&format!("/v1/games/{}", playing.game.id)).await;
    assert_eq!(r.status(), StatusCode::OK);
    let page: LobbyPage = api.get("/v1/lobby").await.json().await.unwrap();
    assert!(page.games.is_empty());
}

#[tokio::test]
async fn player_names_in_statistics_are_checked() {
    let api = Api::spawn(Config::default()).await;
    let long = "x".repeat(65);
    for name in [long.as_str(), "a%0Ab", "%20"] {
        problem(
            api.get(&format!("/v1/stats/players/{name}")).await,
            StatusCode::BAD_REQUEST,
            "bad_request",
        )
        .await;
    }
    let r = api.get("/v1/stats/players/Nobody%20Yet").await;
    assert_eq!(r.status(), StatusCode::OK);
    let record: Value = r.json().await.unwrap();
    assert_eq!(record["name"], "Nobody Yet");
    assert_eq!(record["games"], 0);
    let r = api.get("/v1/stats").await;
    assert_eq!(r.status(), StatusCode::OK);
    let stats: Value = r.json().await.unwrap();
    assert_eq!(stats["groups"], json!([]));
}
