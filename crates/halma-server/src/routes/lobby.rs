//! The lobby route: public games waiting for players.

use actix_web::http::header;
use actix_web::{web, HttpResponse};

use crate::api::{LobbyPage, LobbyQuery};
use crate::error::ApiError;
use crate::games::lobby;
use crate::problem::Problem;
use crate::state::AppState;

/// Registers the lobby route.
pub fn configure(config: &mut web::ServiceConfig) {
    config.service(super::resource("/v1/lobby").get(list_lobby));
}

/// Lists the public games that wait for players, newest first, with their board, players,
/// rule options, seats (open ones to join) and age. A waiting game nobody completes expires
/// after the service's waiting time (an hour by default) without a join or leave.
#[utoipa::path(
    get,
    path = "/v1/lobby",
    tag = "seats",
    operation_id = "list_lobby",
    params(LobbyQuery),
    responses(
        (status = 200, description = "A page of waiting public games.", body = LobbyPage),
        (status = "4XX", description = "400 a bad filter, limit or cursor.", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "The store is unavailable (503) or an internal error.", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn list_lobby(
    state: web::Data<AppState>,
    query: web::Query<LobbyQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = lobby::page(&state, &query).await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .json(page))
}
