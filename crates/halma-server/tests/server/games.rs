//! The game API over real HTTP: every endpoint's success and error paths, full games played to
//! the end, and racing writers on one game (memory store and a private Redis).

use std::collections::BTreeSet;

use halma_server::api::{
    BoardList, BoardView, CreatedGame, GameRecord, GameStatus, GameView, LegalMoves, MoveOutcome,
    RuleOptionList, SuggestionView,
};
use halma_server::config::{Config, RedisUrl};
use halma_server::problem::{Problem, ProblemReason};
use halma_server::startup::Application;
use reqwest::header::{AUTHORIZATION, ETAG, IF_MATCH, IF_NONE_MATCH, LOCATION};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::redis_server::RedisServer;

pub struct Api {
    pub base: String,
    pub client: reqwest::Client,
}

impl Api {
    pub async fn spawn(config: Config) -> Self {
        let app = Application::build(Config {
            bind: "127.0.0.1:0".to_owned(),
            ..config
        })
        .await
        .unwrap();
        let base = format!("http://127.0.0.1:{}", app.port());
        tokio::spawn(app.run_until_stopped());
        Self {
            base,
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

async fn problem(r: reqwest::Response, status: StatusCode, code: &str) -> Problem {
    assert_eq!(r.status(), status);
    let p: Problem = r.json().await.unwrap();
    assert_eq!(p.code.as_str(), code, "{p:?}");
    p
}

fn two_player_star() -> Value {
    json!({"board": "star", "players": 2, "first_seat": 0})
}

#[tokio::test]
async fn create_read_and_the_etag() {
    let api = Api::spawn(Config::default()).await;
    let r = api.create(two_player_star()).await;
    assert_eq!(r.status(), StatusCode::CREATED);
    let etag = r.headers().get(ETAG).unwrap().to_str().unwrap().to_owned();
    let location = r
        .headers()
        .get(LOCATION)
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned();
    let created: CreatedGame = r.json().await.unwrap();
    assert_eq!(etag, "\"1\"");
    assert_eq!(location, format!("/v1/games/{}", created.game.id));
    assert_eq!(created.tokens.seats.len(), 2);
    let g = &created.game;
    assert_eq!(
        (g.version, g.to_move, g.status, g.move_count),
        (1, Some(0), GameStatus::Ongoing, 0)
    );
    assert_eq!(g.armies.len(), 2);
    assert_eq!(g.armies[0].pieces.len(), 10);
    assert_eq!(g.armies[0].home_corner, "S");
    assert!(g.rules.anti_blocking && g.rules.goal_lock);

    let r = api.get(&location).await;
    assert_eq!(r.status(), StatusCode::OK);
    let read: GameView = r.json().await.unwrap();
    assert_eq!(&read, g);
    let r = api
        .client
        .get(format!("{}{location}", api.base))
        .header(IF_NONE_MATCH, etag.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::NOT_MODIFIED);
    // Long polling: nothing changes, so it answers 304 after the wait.
    let started = std::time::Instant::now();
    let r = api
        .client
        .get(format!("{}{location}?wait_secs=1", api.base))
        .header(IF_NONE_MATCH, etag)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::NOT_MODIFIED);
    assert!(started.elapsed() >= std::time::Duration::from_millis(800));
}

#[tokio::test]
async fn invalid_setups_are_rejected_with_reasons() {
    let api = Api::spawn(Config::default()).await;
    let p = problem(
        api.create(json!({"board": "star", "players": 5})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_setup",
    )
    .await;
    assert!(p.detail.contains("5 is not a legal setup"), "{}", p.detail);
    problem(
        api.create(json!({"board": "square8", "players": 2, "options": {"long_jumps": true}}))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_setup",
    )
    .await;
    problem(
        api.create(json!({"board": "star", "players": 3, "options": {"teams": true}}))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_setup",
    )
    .await;
    problem(
        api.create(json!({"board": "star", "players": 2, "seats": [{}]}))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_setup",
    )
    .await;
    problem(
        api.create(json!({"board": "star", "players": 2, "first_seat": 2}))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_setup",
    )
    .await;
    problem(
        api.create(
            json!({"board": "star", "players": 2, "seats": [{"kind": "ai", "level": 11}, {}]}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_setup",
    )
    .await;
    problem(
        api.create(
            json!({"board": "star", "players": 2, "seats": [{"kind": "human", "level": 3}, {}]}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_setup",
    )
    .await;
    problem(
        api.create(json!({"board": "star", "players": 2, "colour": "red"}))
            .await,
        StatusCode::BAD_REQUEST,
        "invalid_json",
    )
    .await;
    problem(
        api.create(json!({"board": "star", "players": 2, "options": {"longjumps": true}}))
            .await,
        StatusCode::BAD_REQUEST,
        "invalid_json",
    )
    .await;
    problem(
        api.create(json!({"board": "hex", "players": 2})).await,
        StatusCode::BAD_REQUEST,
        "invalid_json",
    )
    .await;
}

#[tokio::test]
async fn every_board_and_player_count() {
    let api = Api::spawn(Config::default()).await;
    for (board, players, pieces) in [
        ("star", 2, 10),
        ("star", 3, 10),
        ("star", 4, 10),
        ("star", 6, 10),
        ("square16", 2, 19),
        ("square16", 4, 13),
        ("square10", 2, 15),
        ("square8", 2, 10),
    ] {
        let c = api
            .created(json!({"board": board, "players": players}))
            .await;
        assert_eq!(c.game.armies.len(), players as usize);
        assert!(
            c.game.armies.iter().all(|a| a.pieces.len() == pieces),
            "{board} {players}"
        );
        let moves = api.moves(&c.game.id).await;
        assert!(!moves.moves.is_empty());
    }
    let c = api.created(json!({"board": "star", "players": 2, "options": {"arm_size": 3, "colours_per_player": 2}})).await;
    assert_eq!(c.game.armies.len(), 4);
    assert_eq!(c.game.rules.arm_size, 3);
}

#[tokio::test]
async fn moves_and_their_error_paths() {
    let api = Api::spawn(Config::default()).await;
    let c = api.created(two_player_star()).await;
    let id = &c.game.id;
    let (host, s0, s1) = (&c.tokens.host, &c.tokens.seats[0], &c.tokens.seats[1]);
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
        .play(id, &c.tokens.seats[0], Some(1), json!({"path": s.path}))
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

/// Plays a game to the end through HTTP: seat 0 follows the suggestions, the others are AI
/// seats. Checks after every move that the listed moves are exactly what the server accepts.
async fn play_to_the_end(api: &Api, board: &str, players: u8, max_plies: usize) -> GameView {
    let seats: Vec<Value> = (0..players)
        .map(|i| {
            if i == 0 {
                json!({})
            } else {
                json!({"kind": "ai", "level": 4})
            }
        })
        .collect();
    let c = api.created(json!({"board": board, "players": players, "first_seat": 0, "seats": seats, "ai_time_ms": 20})).await;
    let id = c.game.id.clone();
    let mut game = c.game;
    for _ in 0..max_plies {
        if game.status == GameStatus::Finished {
            return game;
        }
        let listed = api.moves(&id).await;
        assert_eq!(listed.version, game.version);
        let s: SuggestionView = api
            .get(&format!("/v1/games/{id}/suggestion?level=4&time_ms=20"))
            .await
            .json()
            .await
            .unwrap();
        assert!(listed
            .moves
            .iter()
            .any(|m| m.from == s.from && m.to == s.to));
        let r = api
            .play(
                &id,
                &c.tokens.seats[0],
                Some(game.version),
                json!({"from": s.from, "to": s.to}),
            )
            .await;
        assert_eq!(r.status(), StatusCode::OK, "{:?}", r.text().await);
        game = r.json::<MoveOutcome>().await.unwrap().game;
    }
    panic!("{board} game not finished after {max_plies} requests");
}

#[tokio::test]
async fn a_star_game_and_a_square_game_played_to_the_end() {
    let api = Api::spawn(Config::default()).await;
    for (board, players) in [("star", 2), ("square16", 2)] {
        let game = play_to_the_end(&api, board, players, 400).await;
        let result = game.result.expect("a finished game has a result");
        assert!(result.winner.is_some() || result.draw.is_some());
        let record: GameRecord = api
            .get(&format!("/v1/games/{}/record", game.id))
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(record.moves.len() as u32, game.move_count);
        // The game is over: moves are refused with game_over.
        let p = problem(
            api.play(
                &game.id,
                "x",
                Some(game.version),
                json!({"from": "a1", "to": "a2"}),
            )
            .await,
            StatusCode::FORBIDDEN,
            "invalid_token",
        )
        .await;
        drop(p);
    }
}

#[tokio::test]
async fn rematch_passes_the_first_move() {
    let api = Api::spawn(Config::default()).await;
    let c = api.created(two_player_star()).await;
    let r = api
        .client
        .post(format!("{}/v1/games/{}/rematch", api.base, c.game.id))
        .header(AUTHORIZATION, format!("Bearer {}", c.tokens.seats[0]))
        .send()
        .await
        .unwrap();
    problem(r, StatusCode::FORBIDDEN, "invalid_token").await;
    let r = api
        .client
        .post(format!("{}/v1/games/{}/rematch", api.base, c.game.id))
        .header(AUTHORIZATION, format!("Bearer {}", c.tokens.host))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::CREATED);
    let again: CreatedGame = r.json().await.unwrap();
    assert_ne!(again.game.id, c.game.id);
    assert_eq!(again.game.first_seat, 1);
    assert_ne!(again.tokens.host, c.tokens.host);
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

/// Many tasks race to post moves on one game through Redis (two service instances sharing it):
/// exactly one success per version, and the record holds exactly the successful moves.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn racing_moves_through_redis() {
    let Some(redis) = RedisServer::start("racing_moves_through_redis") else {
        return;
    };
    let config = Config {
        redis_url: Some(RedisUrl::parse(redis.url()).unwrap()),
        key_prefix: "race:".to_owned(),
        ..Config::default()
    };
    let a = Api::spawn(config.clone()).await;
    let b = Api::spawn(config).await;
    let c = a
        .created(json!({"board": "square16", "players": 2, "first_seat": 0}))
        .await;
    let id = c.game.id.clone();
    let mut successes = Vec::new();
    for round in 0..6u64 {
        let version = round + 1;
        let legal = a.moves(&id).await;
        let mut tasks = Vec::new();
        for (i, m) in legal.moves.iter().take(8).enumerate() {
            let api = if i % 2 == 0 {
                Api {
                    base: a.base.clone(),
                    client: a.client.clone(),
                }
            } else {
                Api {
                    base: b.base.clone(),
                    client: b.client.clone(),
                }
            };
            let host = c.tokens.host.clone();
            let (id, from, to) = (id.clone(), m.from.clone(), m.to.clone());
            tasks.push(tokio::spawn(async move {
                let r = api
                    .play(&id, &host, Some(version), json!({"from": from, "to": to}))
                    .await;
                (r.status(), from, to)
            }));
        }
        let mut won = Vec::new();
        for t in tasks {
            let (status, from, to) = t.await.unwrap();
            match status {
                StatusCode::OK => won.push((from, to)),
                StatusCode::PRECONDITION_FAILED => {}
                other => panic!("unexpected {other}"),
            }
        }
        assert_eq!(won.len(), 1, "round {round}: exactly one writer wins");
        successes.extend(won);
    }
    let record: GameRecord = b
        .get(&format!("/v1/games/{id}/record"))
        .await
        .json()
        .await
        .unwrap();
    let played: Vec<(String, String)> = record
        .moves
        .iter()
        .map(|m| (m.from.clone(), m.to.clone()))
        .collect();
    assert_eq!(played, successes);
    assert_eq!(record.version, 7);
}
