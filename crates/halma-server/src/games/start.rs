//! Where a new game starts: the initial setup of its board, a position a client sends, or the
//! end of an imported record. The request's fields are checked here, apart from the seats and
//! tokens of a new game (see `new_game`).

use std::sync::Arc;

use halma_rules::{BoardKind, Game};

use super::document::{Handover, PlayedBy, StoredSeat};
use super::records;
use crate::api::CreateGameRequest;
use crate::error::ApiError;
use crate::position_input;
use crate::problem::ProblemReason;
use crate::state::AppState;

/// A game that starts from a position or an imported record, with the history its header
/// keeps.
#[derive(Debug)]
pub(super) struct Started {
    /// The game: at its start position, or after the record's moves.
    pub game: Game,
    /// The start position in the notation.
    pub start_position: String,
    /// The seats the record handed to the AI.
    pub handovers: Vec<Handover>,
    /// The seats' names from the record.
    pub names: Vec<Option<String>>,
}

fn conflict(detail: String) -> ApiError {
    ApiError::InvalidSetup {
        reason: ProblemReason::StartConflict,
        detail,
    }
}

/// The board and player count of a game from the initial setup.
///
/// # Errors
/// 400 `invalid_json` when one of them is missing.
pub(super) fn initial_setup(req: &CreateGameRequest) -> Result<(BoardKind, u8), ApiError> {
    match (req.board, req.players) {
        (Some(board), Some(players)) => Ok((board, players)),
        _ => Err(ApiError::InvalidJson(
            "missing field `board` or `players`: a new game needs both, unless it starts from \
             a `position`, a `record` or a `record_json`."
                .into(),
        )),
    }
}

/// The start the request asks for other than the initial setup, if it asks for one.
///
/// # Errors
/// 422 `invalid_setup` (`start_conflict`) for two starts, or a start with a `first_seat`,
/// `board` or `players` that disagree with it; 422 `invalid_position` or `invalid_record`
/// for a position or record that cannot be played.
pub(super) fn requested(
    state: &AppState,
    req: &CreateGameRequest,
) -> Result<Option<Started>, ApiError> {
    let given = [
        req.position.is_some(),
        req.record.is_some(),
        req.record_json.is_some(),
    ];
    match given.iter().filter(|&&g| g).count() {
        0 => return Ok(None),
        1 => {}
        _ => {
            return Err(conflict(
                "give at most one of `position`, `record` and `record_json`.".into(),
            ))
        }
    }
    if req.first_seat.is_some() {
        return Err(conflict(
            "`first_seat` is not for a game from a position or a record: its player to move \
             moves first."
                .into(),
        ));
    }
    let started = match &req.position {
        Some(text) => {
            let (variant, pos) =
                position_input::read_position(&state.variants, "position", text, &req.options)?;
            let first = pos.to_move();
            let game = Game::from_position(Arc::clone(&variant), first, pos);
            let start_position = halma_rules::notation::format_position(&variant, game.position());
            Started {
                game,
                start_position,
                handovers: Vec::new(),
                names: vec![None; usize::from(variant.players())],
            }
        }
        None => {
            let imported = records::import(
                &state.variants,
                req.record.as_deref(),
                req.record_json.as_ref(),
                &req.options,
            )?;
            Started {
                game: imported.game,
                start_position: imported.start_position,
                handovers: imported.handovers,
                names: imported.names,
            }
        }
    };
    let setup = started.game.variant().setup();
    if req.board.is_some_and(|b| b != setup.board)
        || req.players.is_some_and(|p| p != setup.players)
    {
        return Err(conflict(format!(
            "`board` and `players` say {} players on {}, the {} {} players on {}.",
            req.players.unwrap_or(setup.players),
            req.board.unwrap_or(setup.board).name(),
            if req.position.is_some() {
                "position has"
            } else {
                "record has"
            },
            setup.players,
            setup.board.name()
        )));
    }
    Ok(Some(started))
}

/// The seats of a started game: `seats` as the request gives them (checked by the caller),
/// with the record's names where the request gives none, and the seats the record handed to
/// the AI played by the AI.
///
/// # Errors
/// 422 `invalid_setup` (`seats`) when the request names a seat human that the record handed
/// to the AI.
pub(super) fn seats_of(
    req: &CreateGameRequest,
    started: &Started,
    mut seats: Vec<StoredSeat>,
) -> Result<Vec<StoredSeat>, ApiError> {
    for (i, seat) in seats.iter_mut().enumerate() {
        let handed = started
            .handovers
            .iter()
            .rev()
            .find(|h| usize::from(h.seat) == i);
        let given = req.seats.get(i);
        if let Some(h) = handed {
            match given {
                Some(s) if s.kind != crate::api::SeatKind::Ai => {
                    return Err(ApiError::InvalidSetup {
                        reason: ProblemReason::Seats,
                        detail: format!(
                            "seat {i} was handed to the AI after move {} of the record: give it \
                             as an AI seat, or leave out `seats`.",
                            h.after
                        ),
                    })
                }
                Some(_) => {}
                None => {
                    seat.kind = PlayedBy::Ai;
                    seat.level = Some(h.level);
                }
            }
        }
        if given.and_then(|s| s.name.as_ref()).is_none() {
            if let Some(name) = &started.names[i] {
                seat.name.clone_from(name);
            } else if given.is_none() {
                if let Some(h) = handed {
                    seat.name = format!("AI level {}", h.level);
                }
            }
        }
    }
    Ok(seats)
}
