//! Board geometry and the list of rule options, so a frontend can draw any board and offer
//! every option without knowing the rules. Every fact here (player counts, camps, arm sizes,
//! the options with their defaults) comes from the rules crate.

use actix_web::{web, HttpResponse};
use halma_rules::{Bitboard, Board, BoardKind, Corner, OptionInfo, OptionValues, RuleOptions};

use crate::api::{
    BoardList, BoardQuery, BoardSummary, BoardView, CellView, CornerView, RuleOptionInfo,
    RuleOptionList,
};
use crate::error::ApiError;
use crate::problem::Problem;

/// Registers the board and rule routes.
pub fn configure(config: &mut web::ServiceConfig) {
    config
        .service(web::resource("/v1/boards").route(web::get().to(list_boards)))
        .service(web::resource("/v1/boards/{board}").route(web::get().to(get_board)))
        .service(web::resource("/v1/rules/options").route(web::get().to(rule_options)));
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
    let boards = BoardKind::ALL
        .iter()
        .map(|&kind| {
            let board = Board::get(kind, Board::STANDARD_ARM_SIZE).map_err(ApiError::internal)?;
            Ok(BoardSummary {
                board: kind,
                cells: u16::try_from(board.len()).unwrap_or(u16::MAX),
                players: kind.players().to_vec(),
            })
        })
        .collect::<Result<Vec<_>, ApiError>>()?;
    Ok(HttpResponse::Ok().json(BoardList { boards }))
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
    let kind = path.board;
    if kind != BoardKind::Star && query.arm_size.is_some() {
        return Err(ApiError::BadRequest(
            "arm_size applies to the star only.".into(),
        ));
    }
    let arm = query.arm_size.unwrap_or(Board::STANDARD_ARM_SIZE);
    let board = Board::get(kind, arm).map_err(|e| ApiError::BadRequest(format!("{e}.")))?;
    Ok(HttpResponse::Ok().json(board_view(board)))
}

fn board_view(board: &Board) -> BoardView {
    let names = |set: Bitboard| -> Vec<String> {
        set.iter()
            .filter_map(|i| board.cell(usize::from(i)))
            .map(|c| board.name(c).to_owned())
            .collect()
    };
    let cells = board
        .cells()
        .iter()
        .map(|c| {
            let cell = board.cell(usize::from(c.index));
            CellView {
                index: c.index,
                name: c.name.clone(),
                x: c.x,
                y: c.y,
                neighbors: cell
                    .map(|cell| {
                        board
                            .neighbors(cell)
                            .into_iter()
                            .map(|n| board.name(n).to_owned())
                            .collect()
                    })
                    .unwrap_or_default(),
            }
        })
        .collect();
    let corners = match board.kind() {
        BoardKind::Star => Corner::STAR
            .iter()
            .map(|&c| CornerView {
                corner: c.name().to_owned(),
                area: "corner".into(),
                cells: names(board.corner_cells(c, &[])),
            })
            .collect(),
        kind => Corner::SQUARE
            .iter()
            .flat_map(|&c| {
                kind.camps().iter().map(move |camp| CornerView {
                    corner: c.name().to_owned(),
                    area: format!("camp_{}", camp.cells()),
                    cells: names(board.corner_cells(c, camp.rows())),
                })
            })
            .collect(),
    };
    BoardView {
        board: board.kind(),
        arm_size: (board.kind() == BoardKind::Star).then_some(board.arm_size()),
        directions: board.directions(),
        players: board.kind().players().to_vec(),
        cells,
        corners,
    }
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
    let options = RuleOptions::catalogue()
        .into_iter()
        .map(option_info)
        .collect();
    HttpResponse::Ok().json(RuleOptionList { options })
}

/// A rule option of the rules crate's catalogue as the API lists it.
fn option_info(option: OptionInfo) -> RuleOptionInfo {
    let (kind, values) = match option.values {
        OptionValues::Flag => ("boolean", Vec::new()),
        OptionValues::Number(range) => (
            "integer",
            vec![format!("{}..={}", range.start(), range.end())],
        ),
        OptionValues::Choice(names) => ("choice", names.into_iter().map(str::to_owned).collect()),
    };
    RuleOptionInfo {
        name: option.name.to_owned(),
        kind: kind.to_owned(),
        values,
        boards: option.boards.to_vec(),
        default: option.default.text().to_owned(),
        description: option.description.to_owned(),
    }
}
