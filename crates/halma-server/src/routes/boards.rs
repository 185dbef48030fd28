//! Board geometry and the list of rule options, so a frontend can draw any board and offer
//! every option without knowing the rules.

use actix_web::{web, HttpResponse};
use halma_rules::{Board, BoardKind, Corner};

use crate::api::{
    BoardList, BoardName, BoardQuery, BoardSummary, BoardView, CellView, CornerView,
    RuleOptionInfo, RuleOptionList,
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

fn players_of(kind: BoardKind) -> Vec<u8> {
    match kind {
        BoardKind::Star => vec![2, 3, 4, 6],
        BoardKind::Square16 => vec![2, 4],
        BoardKind::Square10 | BoardKind::Square8 => vec![2],
    }
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
            let board = Board::get(kind, 4).map_err(ApiError::internal)?;
            Ok(BoardSummary {
                board: kind.into(),
                cells: u16::try_from(board.len()).unwrap_or(u16::MAX),
                players: players_of(kind),
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
    pub board: BoardName,
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
    let kind: BoardKind = path.board.into();
    if kind != BoardKind::Star && query.arm_size.is_some() {
        return Err(ApiError::BadRequest(
            "arm_size applies to the star only.".into(),
        ));
    }
    let arm = query.arm_size.unwrap_or(4);
    let board = Board::get(kind, arm).map_err(|e| ApiError::BadRequest(format!("{e}.")))?;
    Ok(HttpResponse::Ok().json(board_view(board)))
}

fn board_view(board: &Board) -> BoardView {
    let names = |set: halma_rules::Bitboard| -> Vec<String> {
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
        kind => {
            let shapes: &[(&str, &[u8])] = match kind {
                BoardKind::Square16 => &[("camp_19", &[5, 5, 4, 3, 2]), ("camp_13", &[4, 4, 3, 2])],
                BoardKind::Square10 => &[("camp_15", &[5, 4, 3, 2, 1])],
                _ => &[("camp_10", &[4, 3, 2, 1])],
            };
            Corner::SQUARE
                .iter()
                .flat_map(|&c| {
                    shapes.iter().map(move |(area, rows)| CornerView {
                        corner: c.name().to_owned(),
                        area: (*area).to_owned(),
                        cells: names(board.corner_cells(c, rows)),
                    })
                })
                .collect()
        }
    };
    BoardView {
        board: board.kind().into(),
        arm_size: (board.kind() == BoardKind::Star).then_some(board.arm_size()),
        directions: board.directions(),
        players: players_of(board.kind()),
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
    use BoardName::{Square10, Square16, Square8, Star};
    let all = vec![Star, Square16, Square10, Square8];
    let opt = |name: &str,
               kind: &str,
               values: &[&str],
               boards: Vec<BoardName>,
               default: &str,
               description: &str| RuleOptionInfo {
        name: name.to_owned(),
        kind: kind.to_owned(),
        values: values.iter().map(|v| (*v).to_owned()).collect(),
        boards,
        default: default.to_owned(),
        description: description.to_owned(),
    };
    let options = vec![
        opt("arm_size", "integer", &["2..=5"], vec![Star], "4", "Cells per side of each corner triangle: 4 gives the standard 121-cell board with 10 pieces each, 3 gives 73 cells with 6 pieces."),
        opt("goal_lock", "boolean", &[], all.clone(), "true", "A piece in its goal area never leaves it again, not even in the middle of a jump chain."),
        opt("anti_blocking", "boolean", &[], all.clone(), "true, except where leave-home is on (8 x 8 and 10 x 10 by default)", "A goal counts as filled when it has no empty cell and at least one of the owner's pieces, other players' pieces filling the rest as blockers (see anti_blocking_grace); off: only the owner's own pieces fill it."),
        opt("anti_blocking_grace", "integer", &["0..=65535"], all.clone(), "the board's leave-home number: 40 on the star, 30 on 8 x 8, 50 on 10 x 10 and 16 x 16", "With the anti-blocking rule: another player's piece in a goal counts towards filling it only once its owner has finished, is out of the game, or has made this many own moves; 0 counts every piece at once."),
        opt("play_on", "boolean", &[], all.clone(), "true", "After the first player finishes, the others play on for the following places."),
        opt("teams", "boolean", &[], vec![Star], "false", "With 4 or 6 players, partners in opposite corners win together when both goals are filled."),
        opt("fifteen_pieces", "boolean", &[], vec![Star], "false", "2 players: the home corner plus the row of cells in front of it (15 pieces on the standard board)."),
        opt("six_pieces", "boolean", &[], vec![Star], "false", "Only the six cells nearest each tip: the short version."),
        opt("small_camps", "boolean", &[], vec![Square16], "false", "2 players on 16 x 16 with camps of 13 (4, 4, 3, 2) instead of 19."),
        opt("colours_per_player", "integer", &["1..=3"], vec![Star], "1", "2 players: each owns 2 or 3 colour sets in adjacent corners, each going to the opposite corner; a player wins when all colours are home."),
        opt("long_jumps", "boolean", &[], vec![Star], "false", "A piece may jump over a single distant piece, landing as far behind it as it was in front, over empty cells."),
        opt("leave_home", "boolean", &[], all.clone(), "true on 8 x 8 and 10 x 10, false elsewhere", "A player who still has a piece in their home area after their N-th move (or moves one back in later) loses."),
        opt("leave_home_moves", "integer", &["1..=65535"], all.clone(), "40 on the star, 30 on 8 x 8, 50 on 10 x 10 and 16 x 16", "The N of leave_home; setting it turns leave_home on."),
        opt("foreign_corners", "choice", &["allowed", "pass_only", "forbidden"], all.clone(), "allowed", "Corners (star) or camps (4-player square) that are neither a piece's home nor its goal: pass_only lets pieces jump through but not stop there; forbidden keeps them out."),
        opt("repetition_draw", "boolean", &[], all.clone(), "true for 2-player square games, false elsewhere", "The same placement with the same player to move for the third time ends the game in a draw."),
        opt("backward_steps", "choice", &["allowed", "no_straight_back", "no_backward"], vec![Square16, Square10, Square8], "allowed", "Steps may not go straight back (diagonally towards the own corner), or not in any of the three directions with a backward part. Jumps are not restricted."),
        opt("diagonal_steps_only", "boolean", &[], vec![Square16, Square10, Square8], "false", "Steps only diagonally; jumps still go in all eight directions."),
    ];
    HttpResponse::Ok().json(RuleOptionList { options })
}
