//! The game API over real HTTP, as raw JSON: what the SDK cannot send (unknown fields, malformed
//! bodies, hand-made paths) and wire details of every endpoint's answers. Whole games, the
//! setups the SDK can express, entity tags and long polling, rematches and racing writers
//! through Redis are in the black-box suite (`tests/`).

use std::collections::BTreeSet;

use halma_server::api::{
    BoardList, BoardView, CreatedGame, GameRecord, GameView, LegalMoves, MoveOutcome,
    RuleOptionList, SuggestionView,
};
use halma_server::config::Config;
use halma_server::problem::{Problem, ProblemReason};
use halma_testkit::spawn_app;
use reqwest::header::{AUTHORIZATION, ETAG, IF_MATCH};
use reqwest::StatusCode;
use serde_json::{json, Value};

pub struct Api {
    pub base: String,
    pub client: reqwest::Client,
}

impl Api {
    pub async fn spawn(config: Config) -> Self {
        Self {
            base: spawn_app(config).await,
            client: reqwest::Client::new(),
        }
    }

    pub async fn create(&self, body: Value) -> reqwest::Response {
        self.client
            .post(format!("{}/v1/games", self.base))
            .json(&body)
            .send()
            .await
            .unwrap()
    }

    pub async fn created(&self, body: Value) -> CreatedGame {
        let r = self.create(body).await;
        assert_eq!(r.status(), StatusCode::CREATED, "{:?}", r.text().await);
        r.json().await.unwrap()
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .unwrap()
    }

    pub async fn play(
        &self,
        id: &str,
        token: &str,
        version: Option<u64>,
        body: Value,
    ) -> reqwest::Response {
        let mut req = self
            .client
            .post(format!("{}/v1/games/{id}/moves", self.base))
            .json(&body);
        if !token.is_empty() {
            req = req.header(AUTHORIZATION, format!("Bearer {token}"));
        }
        if let Some(v) = version {
            req = req.header(IF_MATCH, format!("\"{v}\""));
        }
        req.send().await.unwrap()
    }

    pub async fn moves(&self, id: &str) -> LegalMoves {
        let r = self.get(&format!("/v1/games/{id}/moves")).await;
        assert_eq!(r.status(), StatusCode::OK);
        r.json().await.unwrap()
    }
}

pub async fn problem(r: reqwest::Response, status: StatusCode, code: &str) -> Problem {
    assert_eq!(r.status(), status);
    let p: Problem = r.json().await.unwrap();
    assert_eq!(p.code.as_str(), code, "{p:?}");
    p
}

fn two_player_star() -> Value {
    json!({"board": "star", "players": 2, "first_seat": 0})
}

/// Setups the SDK's types cannot express (unknown fields, boards and options) are malformed
/// JSON; a level for a human seat is an invalid setup. (The other invalid setups are in the
/// black-box suite.)
#[tokio::test]
async fn invalid_setups_are_rejected_with_reasons() {
    let api = Api::spawn(Config::default()).await;
    problem(
        api.create(
            json!({"board": "star", "players": 2, "seats": [{"kind": "human", "level": 3}, {}]}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_setup",
    )
    .await;
    for body in [
        json!({"board": "star", "players": 2, "colour": "red"}),
        json!({"board": "star", "players": 2, "options": {"longjumps": true}}),
        json!({"board": "hex", "players": 2}),
    ] {
        problem(
            api.create(body).await,
            StatusCode::BAD_REQUEST,
            "invalid_json",
        )
        .await;
    }
}

/// Two colours per player on a small star: four armies for two seats. (Every board and
/// player count is played to the end in the black-box suite.)
#[tokio::test]
async fn two_colours_per_player_on_a_small_star() {
    let api = Api::spawn(Config::default()).await;
    let c = api.created(json!({"board": "star", "players": 2, "options": {"arm_size": 3, "colours_per_player": 2}})).await;
    assert_eq!(c.game.armies.len(), 4);
    assert_eq!(c.game.rules.arm_size, 3);
    assert!(!api.moves(&c.game.id).await.moves.is_empty());
}

#[tokio::test]
async fn moves_and_their_error_paths() {
    let api = Api::spawn(Config::default()).await;
    let c = api.created(two_player_star()).await;
    let id = &c.game.id;
    let seat = |i: usize| c.tokens.seats[i].as_deref().unwrap_or_default();
    let (host, s0, s1) = (c.tokens.host.as_str(), seat(0), seat(1));
    let listed = api.moves(id).await;
    assert_eq!(listed.moves.len(), 14);
    let only = api
        .get(&format!("/v1/games/{id}/moves?from=d1"))
        .await
        .json::<LegalMoves>()
        .await
        .unwrap();
    assert!(only.moves.iter().all(|m| m.from == "d1") && !only.moves.is_empty());
    problem(
        api.get(&format!("/v1/games/{id}/moves?from=z9")).await,
        StatusCode::BAD_REQUEST,
        "bad_notation",
    )
    .await;

    let mv = json!({"from": "d1", "to": "e5"});
    problem(
        api.play(id, "", Some(1), mv.clone()).await,
        StatusCode::UNAUTHORIZED,
        "missing_token",
    )
    .await;
    problem(
        api.play(id, "not-a-token", Some(1), mv.clone()).await,
        StatusCode::FORBIDDEN,
        "invalid_token",
    )
    .await;
    problem(
        api.play(id, s0, None, mv.clone()).await,
        StatusCode::PRECONDITION_REQUIRED,
        "precondition_required",
    )
    .await;
    let p = problem(
        api.play(id, s0, Some(7), mv.clone()).await,
        StatusCode::PRECONDITION_FAILED,
        "version_mismatch",
    )
    .await;
    assert_eq!(p.current_version, Some(1), "{p:?}");
    let p = problem(
        api.play(id, s1, Some(1), mv.clone()).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "illegal_move",
    )
    .await;
    assert_eq!(p.reason, Some(ProblemReason::NotYourTurn));
    for (body, reason) in [
        (
            json!({"from": "d1", "to": "d2"}),
            ProblemReason::CellOccupied,
        ),
        (
            json!({"from": "n1", "to": "m5"}),
            ProblemReason::NotYourPiece,
        ),
        (
            json!({"from": "d1", "to": "i5"}),
            ProblemReason::Unreachable,
        ),
        (
            json!({"path": ["c2", "e6", "e7"]}),
            ProblemReason::StepInChain,
        ),
    ] {
        let p = problem(
            api.play(id, s0, Some(1), body).await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal_move",
        )
        .await;
        assert_eq!(p.reason, Some(reason));
    }
    problem(
        api.play(id, s0, Some(1), json!({"notation": "d1-zz"}))
            .await,
        StatusCode::BAD_REQUEST,
        "bad_notation",
    )
    .await;
    problem(
        api.play(id, s0, Some(1), json!({"from": "d1"})).await,
        StatusCode::BAD_REQUEST,
        "bad_request",
    )
    .await;
    problem(
        api.play(
            id,
            s0,
            Some(1),
            json!({"from": "d1", "to": "e5", "sneaky": 1}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "invalid_json",
    )
    .await;
    problem(
        api.play("nope", s0, Some(1), mv.clone()).await,
        StatusCode::NOT_FOUND,
        "game_not_found",
    )
    .await;
    problem(
        api.play("../../etc", s0, Some(1), mv.clone()).await,
        StatusCode::NOT_FOUND,
        "not_found",
    )
    .await;
    // Nothing was changed by the failures.
    let g: GameView = api
        .get(&format!("/v1/games/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!((g.version, g.move_count), (1, 0));

    // A good move, then the opponent's with the version in the body and in notation.
    let r = api.play(id, s0, Some(1), mv).await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(r.headers().get(ETAG).unwrap(), "\"2\"");
    let out: MoveOutcome = r.json().await.unwrap();
    assert_eq!(out.played.len(), 1);
    assert_eq!(out.played[0].notation, "d1-e5");
    assert_eq!(out.game.to_move, Some(1));
    let r = api
        .play(id, host, None, json!({"notation": "n1-m5", "version": 2}))
        .await;
    assert_eq!(r.status(), StatusCode::OK, "{:?}", r.text().await);
    // A jump chain given as a full path.
    let listed = api.moves(id).await;
    let chain = listed
        .moves
        .iter()
        .find(|m| m.path.len() > 2)
        .expect("a jump chain is open")
        .clone();
    let r = api.play(id, s0, Some(3), json!({"path": chain.path})).await;
    assert_eq!(r.status(), StatusCode::OK);

    let record: GameRecord = api
        .get(&format!("/v1/games/{id}/record"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(record.moves.len(), 3);
    assert!(record.export.contains("1. 1 d1-e5"), "{}", record.export);
    assert!(record.export.contains("[Board \"star\"]"));
    problem(
        api.get("/v1/games/unknown/record").await,
        StatusCode::NOT_FOUND,
        "game_not_found",
    )
    .await;

    let svg = api.get(&format!("/v1/games/{id}/board.svg")).await;
    assert_eq!(svg.status(), StatusCode::OK);
    assert_eq!(svg.headers().get("content-type").unwrap(), "image/svg+xml");
    let picture = svg.text().await.unwrap();
    assert!(
        picture.contains("<svg") && picture.trim_end().ends_with("</svg>"),
        "{picture}"
    );
    // A past ply draws that position: the start differs from now, ply 3 is now.
    let at = |ply: u32| format!("/v1/games/{id}/board.svg?ply={ply}");
    let start = api.get(&at(0)).await;
    assert_eq!(start.status(), StatusCode::OK);
    assert_ne!(start.text().await.unwrap(), picture);
    assert_eq!(api.get(&at(3)).await.text().await.unwrap(), picture);
    problem(
        api.get(&at(4)).await,
        StatusCode::BAD_REQUEST,
        "bad_request",
    )
    .await;
}

#[tokio::test]
async fn suggestion_and_ai_seats() {
    let api = Api::spawn(Config::default()).await;
    let c = api.created(json!({"board": "star", "players": 2, "first_seat": 0, "seats": [{"name": "Ada"}, {"kind": "ai", "level": 3}], "ai_time_ms": 50})).await;
    let id = &c.game.id;
    let r = api
        .get(&format!("/v1/games/{id}/suggestion?level=2&time_ms=50"))
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    let s: SuggestionView = r.json().await.unwrap();
    let legal: BTreeSet<(String, String)> = api
        .moves(id)
        .await
        .moves
        .into_iter()
        .map(|m| (m.from, m.to))
        .collect();
    assert!(legal.contains(&(s.from.clone(), s.to.clone())));
    assert_eq!(
        s.principal_variation.first(),
        Some(&format!("{}-{}", s.from, s.to))
    );
    problem(
        api.get(&format!("/v1/games/{id}/suggestion?level=0")).await,
        StatusCode::BAD_REQUEST,
        "bad_request",
    )
    .await;
    problem(
        api.get(&format!("/v1/games/{id}/suggestion?depth=3")).await,
        StatusCode::BAD_REQUEST,
        "bad_request",
    )
    .await;
    // The human moves; the AI answers within the same request.
    let out: MoveOutcome = api
        .play(
            id,
            c.tokens.seats[0].as_deref().unwrap_or_default(),
            Some(1),
            json!({"path": s.path}),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(out.played.len(), 2);
    assert_eq!(out.played[1].seat, 1);
    assert_eq!(out.game.to_move, Some(0));
    assert_eq!(out.game.seats[0].name, "Ada");
    assert_eq!(out.game.seats[1].name, "AI level 3");
    // ai-turns is for the host, and only when an AI seat is to move.
    let r = api
        .client
        .post(format!("{}/v1/games/{id}/ai-turns", api.base))
        .header(AUTHORIZATION, format!("Bearer {}", c.tokens.host))
        .header(IF_MATCH, "\"2\"")
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    let p = problem(r, StatusCode::UNPROCESSABLE_ENTITY, "illegal_move").await;
    assert_eq!(p.reason, Some(ProblemReason::NotAiTurn));
}

#[tokio::test]
async fn boards_and_rule_options() {
    let api = Api::spawn(Config::default()).await;
    let list: BoardList = api.get("/v1/boards").await.json().await.unwrap();
    assert_eq!(list.boards.len(), 4);
    let star: BoardView = api.get("/v1/boards/star").await.json().await.unwrap();
    assert_eq!(star.cells.len(), 121);
    assert_eq!(star.corners.len(), 6);
    assert!(star.corners.iter().all(|c| c.cells.len() == 10));
    let small: BoardView = api
        .get("/v1/boards/star?arm_size=3")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(small.cells.len(), 73);
    let sq: BoardView = api.get("/v1/boards/square16").await.json().await.unwrap();
    assert_eq!(sq.cells.len(), 256);
    assert!(sq
        .corners
        .iter()
        .any(|c| c.area == "camp_19" && c.cells.len() == 19));
    problem(
        api.get("/v1/boards/star?arm_size=9").await,
        StatusCode::BAD_REQUEST,
        "bad_request",
    )
    .await;
    problem(
        api.get("/v1/boards/square8?arm_size=3").await,
        StatusCode::BAD_REQUEST,
        "bad_request",
    )
    .await;
    let opts: RuleOptionList = api.get("/v1/rules/options").await.json().await.unwrap();
    assert_eq!(opts.options.len(), 17);
}
