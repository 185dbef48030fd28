//! The answers of the board routes, built from the rules crate's facts: the boards with their
//! player counts, a board's geometry with its corners or camps, and the catalogue of rule
//! options with their defaults. Nothing here is typed twice: every fact comes from
//! `halma_rules`.

use halma_rules::{Bitboard, Board, BoardKind, Corner, OptionInfo, OptionValues, RuleOptions};

use crate::api::{
    BoardList, BoardSummary, BoardView, CellView, CornerView, RuleOptionInfo, RuleOptionList,
};
use crate::error::ApiError;

/// Every board with its cell count (the standard star) and player counts.
///
/// # Errors
/// 500 if a board cannot be built (never expected).
pub fn board_list() -> Result<BoardList, ApiError> {
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
    Ok(BoardList { boards })
}

/// The geometry of a board; `arm_size` is the star's (standard when absent).
///
/// # Errors
/// 400 `bad_request` for an arm size on a square board or one that is not offered.
pub fn board(kind: BoardKind, arm_size: Option<u8>) -> Result<BoardView, ApiError> {
    if kind != BoardKind::Star && arm_size.is_some() {
        return Err(ApiError::BadRequest(
            "arm_size applies to the star only.".into(),
        ));
    }
    let arm = arm_size.unwrap_or(Board::STANDARD_ARM_SIZE);
    let board = Board::get(kind, arm).map_err(|e| ApiError::BadRequest(format!("{e}.")))?;
    Ok(board_view(board))
}

/// Every rule option of the rules crate's catalogue.
#[must_use]
pub fn rule_options() -> RuleOptionList {
    let options = RuleOptions::catalogue()
        .into_iter()
        .map(option_info)
        .collect();
    RuleOptionList { options }
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
