//! The statistics routes.

use actix_web::http::header;
use actix_web::{web, HttpResponse};

use crate::api::{PlayerPath, PlayerStats, StatsView};
use crate::error::ApiError;
use crate::games::stats;
use crate::problem::Problem;
use crate::state::AppState;

/// Registers the statistics routes.
pub fn configure(config: &mut web::ServiceConfig) {
    config
        .service(super::resource("/v1/stats").get(game_stats))
        .service(super::resource("/v1/stats/players/{name}").get(player_stats));
}

/// Statistics of the games finished on this service, per board, player count and rule set:
/// games finished, wins by turn order (the first-move advantage), draws by reason, the AI's
/// levels against humans, and game lengths. Each finished game counts once, in the same
/// atomic write as its last move; shared by every instance of one store.
#[utoipa::path(
    get,
    path = "/v1/stats",
    tag = "stats",
    operation_id = "game_stats",
    responses(
        (status = 200, description = "The statistics.", body = StatsView),
        (status = "5XX", description = "The store is unavailable (503) or an internal error.", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn game_stats(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let view = stats::summary(&state).await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .json(view))
}

/// The finished games played under a name that joined seats through invitations: games,
/// wins and places. Names are not accounts: anyone may join under any name. A name never
/// seen has no games.
#[utoipa::path(
    get,
    path = "/v1/stats/players/{name}",
    tag = "stats",
    operation_id = "player_stats",
    params(PlayerPath),
    responses(
        (status = 200, description = "The name's record.", body = PlayerStats),
        (status = "4XX", description = "400 a name that cannot be one (empty, over 64 characters, control characters).", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "The store is unavailable (503) or an internal error.", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn player_stats(
    state: web::Data<AppState>,
    path: web::Path<PlayerPath>,
) -> Result<HttpResponse, ApiError> {
    let view = stats::player(&state, &path.name).await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .json(view))
}
