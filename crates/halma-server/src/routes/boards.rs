//! The board routes: board geometry and the list of rule options, so a frontend can draw any
//! board and offer every option without knowing the rules (the answers are built in
//! [`crate::boards`]).

use actix_web::{web, HttpResponse};
use halma_rules::BoardKind;

use crate::api::{BoardList, BoardQuery, BoardView, RuleOptionList};
use crate::boards;
use crate::error::ApiError;
use crate::problem::Problem;

/// Registers the board and rule routes.
pub fn configure(config: &mut web::ServiceConfig) {
    config
        .service(super::resource("/v1/boards").get(list_boards))
        .service(super::resource("/v1/boards/{board}").get(get_board))
        .service(super::resource("/v1/rules/options").get(rule_options));
}

/// The boards offered.
#[utoipa::path(
    get,
    path = "/v1/boards",
    tag = "boards",
    operation_id = "list_boards",
    responses((status = 200, description = "Every board with its cell count and player counts.", body = BoardList))
)]
pub async fn list_boards() -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(boards::board_list()?))
}

/// Path of the board geometry.
#[derive(Clone, Debug, serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Path)]
pub struct BoardPath {
    /// The board: `star`, `square16`, `square10` or `square8`.
    pub board: BoardKind,
}

/// A board's geometry: every cell with its name, drawing coordinates and neighbours, and the
/// corner areas.
#[utoipa::path(
    get,
    path = "/v1/boards/{board}",
    tag = "boards",
    operation_id = "get_board",
    params(BoardPath, BoardQuery),
    responses(
        (status = 200, description = "The geometry.", body = BoardView),
        (status = "4XX", description = "Unknown board (404) or an arm size that is not offered (400).", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn get_board(
    path: web::Path<BoardPath>,
    query: web::Query<BoardQuery>,
) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(boards::board(path.board, query.arm_size)?))
}

/// Every rule option, with the boards it applies to and its default.
#[utoipa::path(
    get,
    path = "/v1/rules/options",
    tag = "boards",
    operation_id = "list_rule_options",
    responses((status = 200, description = "The options a new game may set.", body = RuleOptionList))
)]
pub async fn rule_options() -> HttpResponse {
    HttpResponse::Ok().json(boards::rule_options())
}
