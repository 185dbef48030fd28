//! The seat routes of a game that waits for players: join an open seat, leave it, and a new
//! invitation code. (Cancelling the game is `DELETE /v1/games/{id}`, with the game routes.)

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};

use super::games::{json_with_etag, optional_version, SeatPath};
use crate::api::{Invitation, JoinRequest, JoinedSeat, LeftSeat};
use crate::error::ApiError;
use crate::extractors::Json;
use crate::games;
use crate::problem::Problem;
use crate::state::AppState;
use crate::token::bearer_token;

/// Registers the seat routes.
pub fn configure(config: &mut web::ServiceConfig) {
    config
        .service(super::resource("/v1/games/{id}/seats/{seat}/join").post(join))
        .service(super::resource("/v1/games/{id}/seats/{seat}/leave").post(leave))
        .service(super::resource("/v1/games/{id}/seats/{seat}/invitation").post(invitation));
}

/// Joins an open seat with its invitation code (any open seat of a public game, without
/// one), and receives the seat's token. A code works once. Taking the last open seat starts
/// the game: AI seats that are to move first move before the answer. No token needed.
#[utoipa::path(
    post,
    path = "/v1/games/{id}/seats/{seat}/join",
    tag = "seats",
    operation_id = "join_seat",
    params(SeatPath,
        ("If-Match" = Option<String>, Header, nullable = false, description = "The version the join is based on (optional: without it, the seat is joined at whatever version the waiting game has).")),
    request_body = JoinRequest,
    responses(
        (status = 200, description = "The seat is yours: its token (shown only here) and the game.", body = JoinedSeat, headers(("ETag" = String, description = "The new version."))),
        (status = "4XX", description = "400 a seat the game does not have, a bad name, or no `code` for a game that is not public; 403 `invalid_invitation`; 404 `game_not_found`; 409 `seat_taken` or `game_not_waiting`; 412 `version_mismatch`.", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "The store is unavailable (503) or an internal error.", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn join(
    state: web::Data<AppState>,
    path: web::Path<SeatPath>,
    req: HttpRequest,
    body: Json<JoinRequest>,
) -> Result<HttpResponse, ApiError> {
    let expected = optional_version(req.headers(), None)?;
    let (version, joined): (_, JoinedSeat) =
        games::join(&state, &path.id, path.seat, &body, expected).await?;
    Ok(json_with_etag(StatusCode::OK, version, &joined))
}

/// A player who joined leaves the waiting game (with the seat's token, or the host's): the
/// seat is open again, with a new invitation code, which only the host's call receives.
#[utoipa::path(
    post,
    path = "/v1/games/{id}/seats/{seat}/leave",
    tag = "seats",
    operation_id = "leave_seat",
    params(SeatPath,
        ("If-Match" = Option<String>, Header, nullable = false, description = "The version the change is based on (optional)."),
        ("Authorization" = String, Header, nullable = false, description = "`Bearer <token>`: the seat's token, or the host token.")),
    responses(
        (status = 200, description = "The game with the seat open again, and its new invitation for the host.", body = LeftSeat, headers(("ETag" = String, description = "The new version."))),
        (status = "4XX", description = "400 a seat the game does not have or a malformed `If-Match`; 401 `missing_token`; 403 `invalid_token`; 404 `game_not_found`; 409 `game_not_waiting` or `seat_not_joined`; 412 `version_mismatch`.", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "The store is unavailable (503) or an internal error.", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn leave(
    state: web::Data<AppState>,
    path: web::Path<SeatPath>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let token = bearer_token(req.headers())?;
    let expected = optional_version(req.headers(), None)?;
    let (version, left): (_, LeftSeat) =
        games::leave(&state, &path.id, token, path.seat, expected).await?;
    Ok(json_with_etag(StatusCode::OK, version, &left))
}

/// A new invitation code for an open seat (host token): the seat's earlier code stops
/// working. For a lost link, or a seat reopened by a player who left.
#[utoipa::path(
    post,
    path = "/v1/games/{id}/seats/{seat}/invitation",
    tag = "seats",
    operation_id = "new_invitation",
    params(SeatPath,
        ("If-Match" = Option<String>, Header, nullable = false, description = "The version the change is based on (optional)."),
        ("Authorization" = String, Header, nullable = false, description = "`Bearer <token>`: the host token.")),
    responses(
        (status = 200, description = "The seat's new invitation (shown only here).", body = Invitation, headers(("ETag" = String, description = "The new version."))),
        (status = "4XX", description = "400 a seat the game does not have or a malformed `If-Match`; 401 `missing_token`; 403 `invalid_token`; 404 `game_not_found`; 409 `game_not_waiting` or `seat_taken`; 412 `version_mismatch`.", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "The store is unavailable (503) or an internal error.", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn invitation(
    state: web::Data<AppState>,
    path: web::Path<SeatPath>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let token = bearer_token(req.headers())?;
    let expected = optional_version(req.headers(), None)?;
    let (version, invitation) = games::invite(&state, &path.id, token, path.seat, expected).await?;
    Ok(json_with_etag(StatusCode::OK, version, &invitation))
}
