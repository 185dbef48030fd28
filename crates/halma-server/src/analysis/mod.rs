//! Stateless analysis, for apps that keep their own game state and only want the rules and the
//! AI: the legal moves of a position ([`legal_moves`]), the AI's best moves ([`suggest`]) and
//! whether a move is legal ([`check`]). Nothing is stored; the AI runs on the same slots, with
//! the same budget cap and one-ply fallback, as for the games the service keeps.
//!
//! A position is read as a game that starts there (`Game::from_position`): when its player to
//! move cannot move, the turn passes on as in a game, and a position that ends the game has
//! no moves.

use std::sync::Arc;
use std::time::Duration;

use halma_rules::{notation, Game, IllegalMove, Position, Variant};

use crate::api::{
    AnalysisCheck, AnalysisCheckRequest, AnalysisMoves, AnalysisMovesRequest, AnalysisSuggestion,
    AnalysisSuggestionRequest, PlayMoveRequest, SuggestionLine,
};
use crate::error::ApiError;
use crate::games::{self, views};
use crate::position_input::{self, MAX_RECENT};
use crate::problem::ProblemReason;
use crate::state::AppState;

/// Most lines `multipv` may ask for.
pub const MAX_MULTIPV: u8 = 10;

/// The game that starts at the request's position.
fn game_at(
    state: &AppState,
    text: &str,
    options: &halma_rules::RuleOptions,
) -> Result<Game, ApiError> {
    let (variant, pos) = position_input::read_position(&state.variants, "position", text, options)?;
    Ok(Game::from_position(variant, pos.to_move(), pos))
}

/// The legal moves of a position (of the piece on `from` when given).
///
/// # Errors
/// 422 `invalid_position`; 400 `bad_notation` for a `from` that is not a cell of the board.
pub fn legal_moves(
    state: &AppState,
    req: &AnalysisMovesRequest,
) -> Result<AnalysisMoves, ApiError> {
    let game = game_at(state, &req.position, &req.options)?;
    let board = game.variant().board();
    let moves = match &req.from {
        None => game.legal_moves(),
        Some(from) => {
            let cell = board
                .parse_cell(from.trim())
                .map_err(|e| ApiError::BadNotation(format!("from: {e}.")))?;
            game.legal_moves_from(cell)
        }
    };
    Ok(AnalysisMoves {
        position: notation::format_position(game.variant(), game.position()),
        to_move: game.to_move().map(|s| s.index()),
        result: game.outcome().map(views::result_view),
        moves: moves
            .iter()
            .map(|m| views::legal_move_view(board, m))
            .collect(),
    })
}

/// The AI's best move (and with `multipv` its best few) for the seat to move.
///
/// # Errors
/// 400 for a level, time or `multipv` out of range or too many recent positions; 422
/// `invalid_position` (also for a recent position, `field` `recent[i]...`); 422
/// `illegal_move` (`game_over`) when the position ends the game.
pub async fn suggest(
    state: &AppState,
    req: &AnalysisSuggestionRequest,
) -> Result<AnalysisSuggestion, ApiError> {
    let level = req.level.unwrap_or(games::DEFAULT_LEVEL);
    if !(1..=halma_ai::MAX_LEVEL).contains(&level) {
        return Err(ApiError::BadRequest(format!(
            "level {level} is not from 1 to {}.",
            halma_ai::MAX_LEVEL
        )));
    }
    let time_ms = req.time_ms.unwrap_or(games::DEFAULT_AI_MS);
    if time_ms == 0 {
        return Err(ApiError::BadRequest("time_ms must be at least 1.".into()));
    }
    let lines = req.multipv.unwrap_or(1);
    if !(1..=MAX_MULTIPV).contains(&lines) {
        return Err(ApiError::BadRequest(format!(
            "multipv {lines} is not from 1 to {MAX_MULTIPV}."
        )));
    }
    if req.recent.len() > MAX_RECENT {
        return Err(ApiError::BadRequest(format!(
            "recent lists {} positions: at most {MAX_RECENT}.",
            req.recent.len()
        )));
    }
    let game = game_at(state, &req.position, &req.options)?;
    let variant = Arc::clone(game.variant());
    let own = notation::parse_setup(&req.position)
        .map_err(|e| ApiError::internal(format!("a position read once does not read: {e}")))?
        .options;
    let mut recent = Vec::with_capacity(req.recent.len() + 1);
    for (i, text) in req.recent.iter().enumerate() {
        let field = format!("recent[{i}]");
        let pos = position_input::read_position_of(&variant, &own, &field, text)?;
        recent.push(pos.hash());
    }
    recent.extend_from_slice(game.recent_keys());
    let Some(seat) = game.to_move() else {
        return Err(IllegalMove::GameOver.into());
    };
    let budget = Duration::from_millis(u64::from(time_ms)).min(state.ai_max_time);
    let search = games::Search {
        variant: Arc::clone(&variant),
        position: *game.position(),
        recent,
        level,
        budget,
        // The same position (and history) always searches alike.
        seed: game.position().hash(),
        lines: usize::from(lines),
    };
    let (found, level) = games::think_lines(state, search).await?;
    let views = found
        .iter()
        .map(|s| line_view(&variant, game.position(), s))
        .collect::<Result<Vec<_>, _>>()?;
    let (Some(best), Some(first)) = (found.first(), views.first()) else {
        return Err(ApiError::internal("no suggestion for a seat that can move"));
    };
    Ok(AnalysisSuggestion {
        seat: seat.index(),
        from: first.from.clone(),
        to: first.to.clone(),
        path: first.path.clone(),
        notation: first.notation.clone(),
        score: best.score,
        depth: best.depth,
        nodes: found.iter().map(|s| s.nodes).sum(),
        principal_variation: first.principal_variation.clone(),
        elapsed_ms: u64::try_from(
            found
                .iter()
                .map(|s| s.elapsed)
                .sum::<Duration>()
                .as_millis(),
        )
        .unwrap_or(u64::MAX),
        level,
        time_budget_ms: u32::try_from(budget.as_millis()).unwrap_or(u32::MAX),
        lines: views,
    })
}

/// One line of the AI's answer.
fn line_view(
    variant: &Variant,
    pos: &Position,
    s: &halma_ai::Suggestion,
) -> Result<SuggestionLine, ApiError> {
    let board = variant.board();
    let path = variant
        .witness_path(pos, s.mv)
        .ok_or_else(|| ApiError::internal("the AI chose an illegal move"))?;
    Ok(SuggestionLine {
        from: board.name(s.mv.from).to_owned(),
        to: board.name(s.mv.to).to_owned(),
        path: path.iter().map(|&c| board.name(c).to_owned()).collect(),
        notation: notation::format_path(board, &path),
        score: s.score,
        depth: s.depth,
        nodes: s.nodes,
        principal_variation: s
            .pv
            .iter()
            .map(|m| format!("{}-{}", board.name(m.from), board.name(m.to)))
            .collect(),
    })
}

/// Whether a move is legal in a position, why not, and the position after it.
///
/// # Errors
/// 422 `invalid_position`; 400 `bad_request` when the move is not given in exactly one form,
/// `bad_notation` for cells that are not on the board.
pub fn check(state: &AppState, req: &AnalysisCheckRequest) -> Result<AnalysisCheck, ApiError> {
    let game = game_at(state, &req.position, &req.options)?;
    let as_played = PlayMoveRequest {
        path: req.path.clone(),
        from: req.from.clone(),
        to: req.to.clone(),
        notation: req.notation.clone(),
        version: None,
    };
    let input = games::move_input(game.variant(), &as_played)?;
    let seat = game.to_move().map(|s| s.index());
    let mut after = game.clone();
    match after.play(&input) {
        Err(err) => Ok(AnalysisCheck {
            legal: false,
            reason: Some(ProblemReason::from(&err)),
            detail: Some(format!("{err}.")),
            seat,
            played: None,
            position_after: None,
            to_move_after: None,
            result_after: None,
        }),
        Ok(played) => {
            let played = views::move_view(game.variant().board(), 0, played);
            Ok(AnalysisCheck {
                legal: true,
                reason: None,
                detail: None,
                seat,
                played: Some(played),
                position_after: Some(notation::format_position(after.variant(), after.position())),
                to_move_after: after.to_move().map(|s| s.index()),
                result_after: after.outcome().map(views::result_view),
            })
        }
    }
}
