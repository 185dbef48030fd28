//! The game routes: create, read (with `ETag`, `If-None-Match` and long polling), legal moves,
//! play a move, AI turns, suggestion, record, picture, rematch.

use std::time::Duration;

use actix_web::http::header::{self, HeaderMap, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse, HttpResponseBuilder};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::api::{
    CreateGameRequest, CreatedGame, GamePath, GameRecord, GameView, LegalMoves, MoveOutcome,
    MovesQuery, PictureQuery, PlayMoveRequest, SuggestionQuery, SuggestionView,
};
use crate::error::ApiError;
use crate::extractors::Json;
use crate::games::{self, Current};
use crate::problem::Problem;
use crate::state::AppState;
use crate::store::Version;
use crate::token::bearer_token;

/// Longest long poll, in seconds.
const MAX_WAIT_SECS: u64 = 30;

/// Registers the game routes.
pub fn configure(config: &mut web::ServiceConfig) {
    config
        .service(super::resource("/v1/games").post(create_game))
        .service(
            super::resource("/v1/games/{id}")
                .get(get_game)
                .delete(cancel_game),
        )
        .service(
            super::resource("/v1/games/{id}/moves")
                .get(list_moves)
                .post(play_move),
        )
        .service(super::resource("/v1/games/{id}/ai-turns").post(ai_turns))
        .service(super::resource("/v1/games/{id}/suggestion").get(suggestion))
        .service(super::resource("/v1/games/{id}/record").get(record))
        .service(super::resource("/v1/games/{id}/board.svg").get(board_picture))
        .service(super::resource("/v1/games/{id}/rematch").post(rematch))
        .service(super::resource("/v1/games/{id}/seats/{seat}/resign").post(resign))
        .service(super::resource("/v1/games/{id}/seats/{seat}/ai").post(hand_to_ai))
        .service(super::resource("/v1/games/{id}/events").get(super::events::game_events));
}

/// The strong `ETag` of a version: `"7"`.
pub fn etag(version: Version) -> String {
    format!("\"{version}\"")
}

/// Reads a version from an entity tag: `"7"`, `W/"7"` or `7`.
fn tag_version(tag: &str) -> Option<Version> {
    let tag = tag.trim();
    let tag = tag.strip_prefix("W/").unwrap_or(tag);
    tag.trim_matches('"').parse().ok()
}

/// The version a write is based on when the client names one: the `If-Match` header, else
/// the body's `version`.
///
/// # Errors
/// 400 for an `If-Match` that names no version, or `*`, and when it disagrees with the body's
/// `version`.
pub(super) fn optional_version(
    headers: &HeaderMap,
    body_version: Option<Version>,
) -> Result<Option<Version>, ApiError> {
    if headers.get(header::IF_MATCH).is_none() {
        return Ok(body_version);
    }
    match expected_version(headers, body_version) {
        Err(ApiError::PreconditionRequired) => Err(ApiError::BadRequest(
            "If-Match must name one version as an entity tag, e.g. \"7\"; `*` is not one.".into(),
        )),
        other => other.map(Some),
    }
}

/// The version a write is based on: the `If-Match` header, else the body's `version`.
///
/// # Errors
/// 428 when neither is given (or `If-Match: *`), 400 for an `If-Match` that names no version,
/// and when it disagrees with the body's `version`.
fn expected_version(
    headers: &HeaderMap,
    body_version: Option<Version>,
) -> Result<Version, ApiError> {
    match headers.get(header::IF_MATCH) {
        Some(value) => {
            let text = value
                .to_str()
                .map_err(|_| ApiError::BadRequest("If-Match is not text.".into()))?;
            if text.trim() == "*" {
                return Err(ApiError::PreconditionRequired);
            }
            let versions: Vec<Option<Version>> = text.split(',').map(tag_version).collect();
            match versions.as_slice() {
                [Some(v)] => {
                    if body_version.is_some_and(|b| b != *v) {
                        return Err(ApiError::BadRequest(format!(
                            "If-Match names version {v} but the body's version is {}.",
                            body_version.unwrap_or_default()
                        )));
                    }
                    Ok(*v)
                }
                _ => Err(ApiError::BadRequest(format!(
                    "If-Match must name one version as an entity tag, e.g. \"7\"; got {text:?}."
                ))),
            }
        }
        None => body_version.ok_or(ApiError::PreconditionRequired),
    }
}

pub(super) fn json_with_etag<T: serde::Serialize>(
    status: actix_web::http::StatusCode,
    version: Version,
    body: &T,
) -> HttpResponse {
    with_etag(status, version).json(body)
}

/// `200` with a body already serialised as JSON, and the version's `ETag`.
fn json_body_with_etag(version: Version, body: web::Bytes) -> HttpResponse {
    with_etag(StatusCode::OK, version)
        .insert_header(header::ContentType::json())
        .body(body)
}

fn with_etag(status: actix_web::http::StatusCode, version: Version) -> HttpResponseBuilder {
    let mut response = HttpResponse::build(status);
    if let Ok(value) = HeaderValue::from_str(&etag(version)) {
        response.insert_header((header::ETAG, value));
    }
    response.insert_header((header::CACHE_CONTROL, "no-cache"));
    response
}

fn not_modified(version: Version) -> HttpResponse {
    let mut response = HttpResponse::NotModified();
    if let Ok(value) = HeaderValue::from_str(&etag(version)) {
        response.insert_header((header::ETAG, value));
    }
    response.finish()
}

fn none_match(headers: &HeaderMap, version: Version) -> bool {
    headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|text| {
            text.trim() == "*" || text.split(',').any(|t| tag_version(t) == Some(version))
        })
}

/// Creates a game.
#[utoipa::path(
    post,
    path = "/v1/games",
    tag = "games",
    operation_id = "create_game",
    request_body = CreateGameRequest,
    responses(
        (status = 201, description = "The game, with its secret tokens (shown only here). AI seats to move first have moved.", body = CreatedGame,
            headers(("ETag" = String, description = "The game's version as an entity tag."), ("Location" = String, description = "The game's URL."))),
        (status = "4XX", description = "The request is malformed (400 `invalid_json`, 413, 415) or the setup cannot be played (422 `invalid_setup` with a `reason`).", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "The store is unavailable (503, retry after `Retry-After`) or an internal error.", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn create_game(
    state: web::Data<AppState>,
    body: Json<CreateGameRequest>,
) -> Result<HttpResponse, ApiError> {
    let (id, version, created) = games::create(&state, &body).await?;
    Ok(created_game(&id, version, &created))
}

/// `201 Created` with the new game, its `ETag` and its `Location`.
fn created_game(id: &str, version: Version, created: &CreatedGame) -> HttpResponse {
    let mut response = json_with_etag(StatusCode::CREATED, version, created);
    if let Ok(location) = HeaderValue::from_str(&format!("/v1/games/{id}")) {
        response.headers_mut().insert(header::LOCATION, location);
    }
    response
}

/// Query of `GET /v1/games/{id}`.
#[derive(Clone, Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct GetGameQuery {
    /// Long polling: with `If-None-Match` naming the current version, wait up to this many
    /// seconds (at most 30) for the game to change before answering 304.
    pub wait_secs: Option<u64>,
    /// The game as it stood after this ply (0: the start), read-only; not with `wait_secs`.
    pub ply: Option<u32>,
}

/// Reads a game.
#[utoipa::path(
    get,
    path = "/v1/games/{id}",
    tag = "games",
    operation_id = "get_game",
    params(GamePath, GetGameQuery,
        ("If-None-Match" = Option<String>, Header, nullable = false, description = "An entity tag from an earlier answer: 304 when the game has not changed.")),
    responses(
        (status = 200, description = "The game.", body = GameView, headers(("ETag" = String, description = "The game's version."))),
        (status = 304, description = "Not modified since the version in `If-None-Match`."),
        (status = "4XX", description = "Unknown game (404 `game_not_found`) or a bad query (400).", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "The store is unavailable (503) or an internal error.", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn get_game(
    state: web::Data<AppState>,
    path: web::Path<GamePath>,
    query: web::Query<GetGameQuery>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let wait = Duration::from_secs(query.wait_secs.unwrap_or(0).min(MAX_WAIT_SECS));
    let known = |version| none_match(req.headers(), version);
    Ok(
        match games::game(&state, &path.id, query.ply, known, wait).await? {
            Current::Changed(version, body) => json_body_with_etag(version, body),
            Current::Unchanged(version) => not_modified(version),
        },
    )
}

/// Lists the legal moves of the seat to move.
#[utoipa::path(
    get,
    path = "/v1/games/{id}/moves",
    tag = "games",
    operation_id = "list_moves",
    params(GamePath, MovesQuery),
    responses(
        (status = 200, description = "Each legal (from, to) pair once, with a shortest path.", body = LegalMoves, headers(("ETag" = String, description = "The game's version."))),
        (status = "4XX", description = "Unknown game (404) or a cell name that is not on the board (400 `bad_notation`).", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "The store is unavailable (503) or an internal error.", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn list_moves(
    state: web::Data<AppState>,
    path: web::Path<GamePath>,
    query: web::Query<MovesQuery>,
) -> Result<HttpResponse, ApiError> {
    let (version, body) = games::legal_moves(&state, &path.id, query.from.as_deref()).await?;
    Ok(json_body_with_etag(version, body))
}

/// Plays a move for the seat to move; the AI seats that follow reply before the answer.
#[utoipa::path(
    post,
    path = "/v1/games/{id}/moves",
    tag = "games",
    operation_id = "play_move",
    params(GamePath,
        ("If-Match" = Option<String>, Header, nullable = false, description = "The version the move is based on, as an entity tag (`\"7\"`); or send `version` in the body. One of the two is required (428 without)."),
        ("Authorization" = String, Header, nullable = false, description = "`Bearer <token>`: the seat's token, or the host token.")),
    request_body = PlayMoveRequest,
    responses(
        (status = 200, description = "The game after the move and the AI replies.", body = MoveOutcome, headers(("ETag" = String, description = "The new version."))),
        (status = "4XX", description = "400 malformed request or `bad_notation`; 401 `missing_token`; 403 `invalid_token`; 404 `game_not_found`; 412 `version_mismatch` (with `current_version`); 422 `illegal_move` with a `reason` (`not_your_turn`, `game_over`, `cell_occupied`, `goal_locked`, `unreachable`, ...); 428 `precondition_required`.", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "The store is unavailable (503) or an internal error.", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn play_move(
    state: web::Data<AppState>,
    path: web::Path<GamePath>,
    req: HttpRequest,
    body: Json<PlayMoveRequest>,
) -> Result<HttpResponse, ApiError> {
    let token = bearer_token(req.headers())?;
    let expected = expected_version(req.headers(), body.version)?;
    let (version, outcome) = games::play(&state, &path.id, token, expected, &body).await?;
    Ok(json_with_etag(StatusCode::OK, version, &outcome))
}

/// Cancels a game that waits for players: it is removed, with its lobby entry; its event
/// streams end with a `gone` event. Host token only.
#[utoipa::path(
    delete,
    path = "/v1/games/{id}",
    tag = "seats",
    operation_id = "cancel_game",
    params(GamePath,
        ("If-Match" = Option<String>, Header, nullable = false, description = "The version the cancellation is based on (optional: without it, the game is cancelled at whatever version it has while it waits)."),
        ("Authorization" = String, Header, nullable = false, description = "`Bearer <token>`: the host token.")),
    responses(
        (status = 204, description = "The game is cancelled and removed."),
        (status = "4XX", description = "400 a malformed `If-Match`; 401 `missing_token`; 403 `invalid_token`; 404 `game_not_found`; 409 `game_not_waiting` (every seat is taken: the game is on); 412 `version_mismatch`.", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "The store is unavailable (503) or an internal error.", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn cancel_game(
    state: web::Data<AppState>,
    path: web::Path<GamePath>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let token = bearer_token(req.headers())?;
    let expected = optional_version(req.headers(), None)?;
    games::cancel(&state, &path.id, token, expected).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// A seat of a game in a path.
#[derive(Clone, Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Path)]
pub struct SeatPath {
    /// The game's id.
    pub id: String,
    /// The seat, from 0 in turn order.
    pub seat: u8,
}

/// A seat resigns: it is out of the game, ranked behind everyone still playing (standing
/// `resigned`), and its pieces stay on the board as obstacles that may still be jumped. The
/// game goes on for the others; with two players (or two teams) the other side wins. The AI
/// seats that are to move next move before the answer.
#[utoipa::path(
    post,
    path = "/v1/games/{id}/seats/{seat}/resign",
    tag = "games",
    operation_id = "resign",
    params(SeatPath,
        ("If-Match" = Option<String>, Header, nullable = false, description = "The version the resignation is based on; or send `version` in the body. One of the two is required (428 without)."),
        ("Authorization" = String, Header, nullable = false, description = "`Bearer <token>`: the seat's token, or the host token.")),
    request_body = AiTurnsRequest,
    responses(
        (status = 200, description = "The game after the resignation and the AI moves that followed.", body = MoveOutcome, headers(("ETag" = String, description = "The new version."))),
        (status = "4XX", description = "400 a seat the game does not have; 401 `missing_token`; 403 `invalid_token` (another seat's token); 404 `game_not_found`; 409 `seat_not_playing` (finished or out already); 412 `version_mismatch`; 422 `illegal_move` (`game_over`); 428 `precondition_required`.", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "The store is unavailable (503) or an internal error.", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn resign(
    state: web::Data<AppState>,
    path: web::Path<SeatPath>,
    req: HttpRequest,
    body: Json<AiTurnsRequest>,
) -> Result<HttpResponse, ApiError> {
    let token = bearer_token(req.headers())?;
    let expected = expected_version(req.headers(), body.version)?;
    let (version, outcome) = games::resign(&state, &path.id, token, path.seat, expected).await?;
    Ok(json_with_etag(StatusCode::OK, version, &outcome))
}

/// Body of `POST /v1/games/{id}/seats/{seat}/ai`.
#[derive(Clone, Debug, Default, Deserialize, serde::Serialize, utoipa::ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct HandoverRequest {
    /// The AI level that plays the seat from now on, 1 to 10 (default 10).
    #[schema(minimum = 1, maximum = 10)]
    pub level: Option<u8>,
    /// The version the request is based on, when no `If-Match` header is sent.
    pub version: Option<u64>,
}

/// Hands a seat to the AI, so that the table can finish when a player leaves: the AI plays
/// the seat from now on at the level given, the seat's token stops working, and when the seat
/// is to move the AI moves before the answer.
#[utoipa::path(
    post,
    path = "/v1/games/{id}/seats/{seat}/ai",
    tag = "games",
    operation_id = "hand_to_ai",
    params(SeatPath,
        ("If-Match" = Option<String>, Header, nullable = false, description = "The version the change is based on; or send `version` in the body. One of the two is required (428 without)."),
        ("Authorization" = String, Header, nullable = false, description = "`Bearer <token>`: the host token, or the seat's own.")),
    request_body = HandoverRequest,
    responses(
        (status = 200, description = "The game after the change and the AI moves that followed.", body = MoveOutcome, headers(("ETag" = String, description = "The new version."))),
        (status = "4XX", description = "400 a seat the game does not have or a level outside 1 to 10; 401 `missing_token`; 403 `invalid_token`; 404 `game_not_found`; 409 `seat_not_playing` or `seat_is_ai`; 412 `version_mismatch`; 422 `illegal_move` (`game_over`); 428 `precondition_required`.", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "The store is unavailable (503) or an internal error.", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn hand_to_ai(
    state: web::Data<AppState>,
    path: web::Path<SeatPath>,
    req: HttpRequest,
    body: Json<HandoverRequest>,
) -> Result<HttpResponse, ApiError> {
    let token = bearer_token(req.headers())?;
    let expected = expected_version(req.headers(), body.version)?;
    let level = body.level.unwrap_or(games::DEFAULT_LEVEL);
    let (version, outcome) =
        games::hand_to_ai(&state, &path.id, token, path.seat, level, expected).await?;
    Ok(json_with_etag(StatusCode::OK, version, &outcome))
}

/// Body of `POST /v1/games/{id}/ai-turns` and of a resignation: the version the request is
/// based on, when no `If-Match` header is sent.
#[derive(Clone, Debug, Default, Deserialize, serde::Serialize, utoipa::ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct AiTurnsRequest {
    /// The version the request is based on, when no `If-Match` header is sent.
    pub version: Option<u64>,
}

/// Lets the AI seats move while one of them is to move (games where the AI plays every seat
/// advance one round per call). Host token only.
#[utoipa::path(
    post,
    path = "/v1/games/{id}/ai-turns",
    tag = "games",
    operation_id = "ai_turns",
    params(GamePath,
        ("If-Match" = Option<String>, Header, nullable = false, description = "The version the request is based on; or send `version` in the body. One of the two is required (428 without)."),
        ("Authorization" = String, Header, nullable = false, description = "`Bearer <host token>`.")),
    request_body = AiTurnsRequest,
    responses(
        (status = 200, description = "The game after the AI moves.", body = MoveOutcome, headers(("ETag" = String, description = "The new version."))),
        (status = "4XX", description = "401, 403 (not the host token), 404, 412, 422 (`not_ai_turn`, `game_over`), 428.", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "The store is unavailable (503) or an internal error.", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn ai_turns(
    state: web::Data<AppState>,
    path: web::Path<GamePath>,
    req: HttpRequest,
    body: Json<AiTurnsRequest>,
) -> Result<HttpResponse, ApiError> {
    let token = bearer_token(req.headers())?;
    let expected = expected_version(req.headers(), body.version)?;
    let (version, outcome) = games::ai_turns(&state, &path.id, token, expected).await?;
    Ok(json_with_etag(StatusCode::OK, version, &outcome))
}

/// Suggests a move for the seat to move (read-only; nothing is played).
#[utoipa::path(
    get,
    path = "/v1/games/{id}/suggestion",
    tag = "games",
    operation_id = "suggest_move",
    params(GamePath, SuggestionQuery),
    responses(
        (status = 200, description = "The suggested move, its path, score and search statistics.", body = SuggestionView, headers(("ETag" = String, description = "The game's version."))),
        (status = "4XX", description = "Unknown game (404), bad level or time (400), game over (422 `illegal_move`, reason `game_over`).", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "The store is unavailable (503) or an internal error.", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn suggestion(
    state: web::Data<AppState>,
    path: web::Path<GamePath>,
    query: web::Query<SuggestionQuery>,
) -> Result<HttpResponse, ApiError> {
    let (version, body) = games::suggest(&state, &path.id, &query).await?;
    Ok(json_with_etag(StatusCode::OK, version, &body))
}

/// The game's full record with its text export: JSON, or, when `Accept` ranks `text/plain`
/// above JSON, the text export alone as a file to save (`Content-Disposition: attachment;
/// filename="halma-<id>.txt"`). Either form can be imported again (`record` or `record_json`
/// of `POST /v1/games`).
#[utoipa::path(
    get,
    path = "/v1/games/{id}/record",
    tag = "games",
    operation_id = "get_record",
    params(GamePath),
    responses(
        (status = 200, description = "Every move, the result, the positions and the text export (JSON); or the text export (`text/plain`), with `Content-Disposition`.",
            content(
                (GameRecord = "application/json"),
                (String = "text/plain")
            ),
            headers(
                ("ETag" = String, description = "The game's version."),
                ("Content-Disposition" = String, description = "With `text/plain`: `attachment; filename=\"halma-<id>.txt\"`."),
                ("Vary" = String, description = "`Accept`: the two forms are two representations of one resource.")
            )),
        (status = "4XX", description = "Unknown game (404).", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "The store is unavailable (503) or an internal error.", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn record(
    state: web::Data<AppState>,
    path: web::Path<GamePath>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let (version, body) = games::record(&state, &path.id).await?;
    if !wants_text(req.headers()) {
        let mut response = json_with_etag(StatusCode::OK, version, &body);
        response
            .headers_mut()
            .insert(header::VARY, HeaderValue::from_static("accept"));
        return Ok(response);
    }
    let mut response = HttpResponse::Ok();
    if let Ok(value) = HeaderValue::from_str(&etag(version)) {
        response.insert_header((header::ETAG, value));
    }
    // Game ids are URL-safe base64: a file name without quoting trouble.
    let disposition = format!("attachment; filename=\"halma-{}.txt\"", path.id);
    if let Ok(value) = HeaderValue::from_str(&disposition) {
        response.insert_header((header::CONTENT_DISPOSITION, value));
    }
    Ok(response
        .content_type("text/plain; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header((header::VARY, "accept"))
        .body(body.export))
}

/// Whether `Accept` ranks the text export (`text/plain`, `text/*`) above JSON
/// (`application/json`, `application/*`, `*/*`); without `Accept`, JSON.
fn wants_text(headers: &HeaderMap) -> bool {
    let mut best: Option<(bool, f32)> = None;
    for value in headers.get_all(header::ACCEPT) {
        let Ok(text) = value.to_str() else { continue };
        for item in text.split(',') {
            let mut parts = item.split(';');
            let media = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
            let q = parts
                .filter_map(|p| p.trim().strip_prefix("q="))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            let text_form = match media.as_str() {
                "text/plain" | "text/*" => true,
                "application/json" | "application/*" | "*/*" => false,
                _ => continue,
            };
            // A specific type wins over a wildcard at the same quality.
            let better = match best {
                None => q > 0.0,
                Some((_, best_q)) => {
                    q > best_q || (q == best_q && text_form && media == "text/plain")
                }
            };
            if better {
                best = Some((text_form, q));
            }
        }
    }
    best.is_some_and(|(text_form, _)| text_form)
}

/// A picture of the game: an SVG document for an `<img>` tag, with the last move's path
/// marked. It is cacheable by version: the `ETag` is the game's version, and `If-None-Match`
/// with it gets `304 Not Modified`.
#[utoipa::path(
    get,
    path = "/v1/games/{id}/board.svg",
    tag = "games",
    operation_id = "get_board_picture",
    params(GamePath, PictureQuery,
        ("If-None-Match" = Option<String>, Header, nullable = false, description = "An entity tag from an earlier answer: 304 when the game has not changed.")),
    responses(
        (status = 200, description = "The board as an SVG document.", body = String, content_type = "image/svg+xml",
            headers(("ETag" = String, description = "The game's version."), ("Cache-Control" = String, description = "`no-cache`: keep it, and ask again with `If-None-Match`."))),
        (status = 304, description = "Not modified since the version in `If-None-Match`."),
        (status = "4XX", description = "Unknown game (404), a bad query (400: a ply the game has not reached, a size out of range, a seat the game does not have).", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "The store is unavailable (503) or an internal error.", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn board_picture(
    state: web::Data<AppState>,
    path: web::Path<GamePath>,
    query: web::Query<PictureQuery>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let known = |version| none_match(req.headers(), version);
    let (version, svg) = match games::picture(&state, &path.id, &query, known).await? {
        Current::Changed(version, svg) => (version, svg),
        Current::Unchanged(version) => return Ok(not_modified(version)),
    };
    let mut response = HttpResponse::Ok();
    if let Ok(value) = HeaderValue::from_str(&etag(version)) {
        response.insert_header((header::ETAG, value));
    }
    Ok(response
        .content_type("image/svg+xml")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .body(svg))
}

/// Starts a rematch: the same setup and seats, the first move passed to the next seat. Host
/// token only; the new game has new tokens.
#[utoipa::path(
    post,
    path = "/v1/games/{id}/rematch",
    tag = "games",
    operation_id = "rematch",
    params(GamePath,
        ("Authorization" = String, Header, nullable = false, description = "`Bearer <host token>`.")),
    responses(
        (status = 201, description = "The new game with its tokens.", body = CreatedGame,
            headers(("ETag" = String, description = "The new game's version."), ("Location" = String, description = "The new game's URL."))),
        (status = "4XX", description = "401, 403 (not the host token), 404.", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "The store is unavailable (503) or an internal error.", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn rematch(
    state: web::Data<AppState>,
    path: web::Path<GamePath>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let token = bearer_token(req.headers())?;
    let (id, version, created) = games::rematch(&state, &path.id, token).await?;
    Ok(created_game(&id, version, &created))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_export_is_chosen_by_accept() {
        let with = |accept: &str| {
            let mut headers = HeaderMap::new();
            if let Ok(value) = HeaderValue::from_str(accept) {
                headers.insert(header::ACCEPT, value);
            }
            wants_text(&headers)
        };
        assert!(!wants_text(&HeaderMap::new()));
        assert!(with("text/plain"));
        assert!(with("text/*"));
        assert!(with("text/plain, */*;q=0.5"));
        assert!(with("*/*, text/plain"));
        assert!(!with("application/json"));
        assert!(!with("application/json, text/plain;q=0.9"));
        assert!(!with("*/*"));
        assert!(!with("text/plain;q=0"));
        assert!(!with("image/png"));
    }

    #[test]
    fn entity_tags() {
        assert_eq!(tag_version("\"7\""), Some(7));
        assert_eq!(tag_version("W/\"12\""), Some(12));
        assert_eq!(tag_version(" 3 "), Some(3));
        assert_eq!(tag_version("\"x\""), None);
        assert_eq!(etag(5), "\"5\"");
    }
}
