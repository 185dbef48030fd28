//! The analysis routes: legal moves, the AI's best moves and move checks for any position,
//! stored nowhere (the answers are built in [`crate::analysis`]).

use actix_web::http::header;
use actix_web::{web, HttpResponse};

use crate::analysis;
use crate::api::{
    AnalysisCheck, AnalysisCheckRequest, AnalysisMoves, AnalysisMovesRequest, AnalysisSuggestion,
    AnalysisSuggestionRequest,
};
use crate::error::ApiError;
use crate::extractors::Json;
use crate::problem::Problem;
use crate::state::AppState;

/// Registers the analysis routes.
pub fn configure(config: &mut web::ServiceConfig) {
    config
        .service(super::resource("/v1/analysis/moves").post(analysis_moves))
        .service(super::resource("/v1/analysis/suggestion").post(analysis_suggestion))
        .service(super::resource("/v1/analysis/check").post(analysis_check));
}

/// A JSON answer that depends only on the request, not on stored state.
fn answer<T: serde::Serialize>(body: &T) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(body)
}

/// The legal moves of a position (stores nothing).
#[utoipa::path(
    post,
    path = "/v1/analysis/moves",
    tag = "analysis",
    operation_id = "analysis_moves",
    request_body = AnalysisMovesRequest,
    responses(
        (status = 200, description = "Each legal (from, to) pair once, with a shortest path; none when the position ends the game.", body = AnalysisMoves),
        (status = "4XX", description = "400 malformed request (`invalid_json`) or a `from` that is not a cell (`bad_notation`); 413; 415; 422 `invalid_position` with the `field` at fault and a `reason`.", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "An internal error.", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn analysis_moves(
    state: web::Data<AppState>,
    body: Json<AnalysisMovesRequest>,
) -> Result<HttpResponse, ApiError> {
    Ok(answer(&analysis::legal_moves(&state, &body)?))
}

/// The AI's suggestion for a position, and with `multipv` its best few moves with their
/// scores (stores nothing). It answers as `GET /v1/games/{id}/suggestion` does for a game at
/// that position, on the same search slots, within the same time cap, falling back to the
/// one-ply move when every slot stays busy.
#[utoipa::path(
    post,
    path = "/v1/analysis/suggestion",
    tag = "analysis",
    operation_id = "analysis_suggestion",
    request_body = AnalysisSuggestionRequest,
    responses(
        (status = 200, description = "The suggested move with its path, score and search statistics, and the best `multipv` moves in `lines`.", body = AnalysisSuggestion),
        (status = "4XX", description = "400 malformed request, a level, time or `multipv` out of range, more than 64 recent positions; 413; 415; 422 `invalid_position` (the `field` names `position` or `recent[i]`), `illegal_move` (`game_over`) when the position ends the game.", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "An internal error.", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn analysis_suggestion(
    state: web::Data<AppState>,
    body: Json<AnalysisSuggestionRequest>,
) -> Result<HttpResponse, ApiError> {
    Ok(answer(&analysis::suggest(&state, &body).await?))
}

/// Checks a move in a position (stores nothing): whether it is legal, which rule it breaks
/// when it is not (an illegal move is an answer here, not an error), and the position after it.
#[utoipa::path(
    post,
    path = "/v1/analysis/check",
    tag = "analysis",
    operation_id = "analysis_check",
    request_body = AnalysisCheckRequest,
    responses(
        (status = 200, description = "Legal or not, with the reason, or with the move as played and the position after it.", body = AnalysisCheck),
        (status = "4XX", description = "400 malformed request, a move not given in exactly one form (`bad_request`) or a cell that is not on the board (`bad_notation`); 413; 415; 422 `invalid_position`.", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "An internal error.", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn analysis_check(
    state: web::Data<AppState>,
    body: Json<AnalysisCheckRequest>,
) -> Result<HttpResponse, ApiError> {
    Ok(answer(&analysis::check(&state, &body)?))
}
