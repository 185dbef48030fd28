//! The writes that play moves: a client's move ([`play`]) and the AI seats' turns
//! ([`ai_turns`]), each followed by the AI seats that are to move next.

use std::sync::Arc;

use halma_rules::{notation, Game, IllegalMove, MoveInput, ResignError, Variant};

use super::document::{Handover, Header, Logged, PlayedBy, Write};
use super::{ai, authorize, load, parse_cell, remember, take_to_change, views, Actor, Loaded};
use crate::api::{MoveOutcome, MoveView, PlayMoveRequest};
use crate::error::ApiError;
use crate::problem::ProblemReason;
use crate::state::AppState;
use crate::store::Version;
use crate::token::{SecretToken, TokenHash};

/// Reads the move of a request.
///
/// # Errors
/// 400 `bad_request` when the body does not give exactly one form, `bad_notation` for cell
/// names that are not on the board.
pub fn move_input(variant: &Variant, req: &PlayMoveRequest) -> Result<MoveInput, ApiError> {
    let board = variant.board();
    match (&req.path, &req.from, &req.to, &req.notation) {
        (Some(path), None, None, None) => {
            if path.len() < 2 {
                return Err(ApiError::BadRequest(
                    "a path needs at least a start and an end cell.".into(),
                ));
            }
            Ok(MoveInput::Path(
                path.iter()
                    .map(|c| parse_cell(board, c))
                    .collect::<Result<_, _>>()?,
            ))
        }
        (None, Some(from), Some(to), None) => Ok(MoveInput::FromTo(
            parse_cell(board, from)?,
            parse_cell(board, to)?,
        )),
        (None, None, None, Some(text)) => {
            let cells = notation::parse_move(board, text)
                .map_err(|e| ApiError::BadNotation(format!("{e}.")))?;
            Ok(if cells.len() == 2 {
                MoveInput::FromTo(cells[0], cells[1])
            } else {
                MoveInput::Path(cells)
            })
        }
        _ => Err(ApiError::BadRequest(
            "give the move as exactly one of: `path`, `from` with `to`, or `notation`.".into(),
        )),
    }
}

/// Plays a client's move at version `expected`, then the AI seats that follow.
///
/// # Errors
/// 404, 403, 412 (stale version), 422 (illegal move with its reason), 503.
pub async fn play(
    state: &AppState,
    id: &str,
    token: &str,
    expected: Version,
    req: &PlayMoveRequest,
) -> Result<(Version, MoveOutcome), ApiError> {
    let (actor, Loaded { header, game, .. }) =
        load_to_write(state, id, token, false, expected).await?;
    let input = move_input(game.variant(), req)?;
    let Some(to_move) = game.to_move() else {
        return Err(IllegalMove::GameOver.into());
    };
    if let Actor::Seat(s) = actor {
        if s != to_move.index() {
            return Err(ApiError::IllegalMove {
                reason: ProblemReason::NotYourTurn,
                detail: format!("it is seat {}'s turn, not seat {s}'s.", to_move.index()),
            });
        }
    }
    let logged = Logged::of(&game);
    let mut game = take_to_change(state, id, game);
    let played_move = match game.play(&input) {
        Ok(played) => played.clone(),
        Err(illegal) => {
            // Nothing changed: the game goes back to the cache as it was.
            remember(state, id, expected, header, game);
            return Err(illegal.into());
        }
    };
    let board = game.variant().board();
    let mut played = vec![views::move_view(
        board,
        game.record().len() - 1,
        &played_move,
    )];
    ai::run_ai_seats(state, id, &header, &mut game, &mut played).await?;
    save(state, id, expected, header, game, logged, played).await
}

/// Lets the AI seats move while one of them is to move (for games where every seat is the AI,
/// one round per request).
///
/// # Errors
/// 404, 403 (only the host token may), 412, 422 when no AI seat is to move, 503.
pub async fn ai_turns(
    state: &AppState,
    id: &str,
    token: &str,
    expected: Version,
) -> Result<(Version, MoveOutcome), ApiError> {
    let (_, Loaded { header, game, .. }) = load_to_write(state, id, token, true, expected).await?;
    let Some(to_move) = game.to_move() else {
        return Err(IllegalMove::GameOver.into());
    };
    if header.seats[usize::from(to_move.index())].kind != PlayedBy::Ai {
        return Err(ApiError::IllegalMove {
            reason: ProblemReason::NotAiTurn,
            detail: format!(
                "seat {} is to move and is not played by the AI.",
                to_move.index()
            ),
        });
    }
    let logged = Logged::of(&game);
    let mut game = take_to_change(state, id, game);
    let mut played = Vec::new();
    ai::run_ai_seats(state, id, &header, &mut game, &mut played).await?;
    save(state, id, expected, header, game, logged, played).await
}

/// Seat `seat` resigns at version `expected` (with its own token or the host's): it is out of
/// the game, its pieces stay, and the AI seats that are to move next then move.
///
/// # Errors
/// 400 for a seat the game does not have, 404, 403 (another seat's token), 412, 409
/// `seat_not_playing` for a seat that finished or is out already, 422 `illegal_move`
/// (`game_over`) once the game is over, 503.
pub async fn resign(
    state: &AppState,
    id: &str,
    token: &str,
    seat: u8,
    expected: Version,
) -> Result<(Version, MoveOutcome), ApiError> {
    let (actor, Loaded { header, game, .. }) =
        load_to_write(state, id, token, false, expected).await?;
    let players = game.variant().players();
    let Some(resigning) = game.variant().seat(usize::from(seat)) else {
        return Err(ApiError::BadRequest(format!(
            "seat {seat} is not a seat of this game (seats 0 to {}).",
            players - 1
        )));
    };
    if matches!(actor, Actor::Seat(s) if s != seat) {
        return Err(ApiError::InvalidToken);
    }
    let logged = Logged::of(&game);
    let mut game = take_to_change(state, id, game);
    if let Err(err) = game.resign(resigning) {
        // Nothing changed: the game goes back to the cache as it was.
        remember(state, id, expected, header, game);
        return Err(match err {
            ResignError::GameOver => IllegalMove::GameOver.into(),
            ResignError::NotPlaying(_) => ApiError::SeatNotPlaying { seat },
        });
    }
    let mut played = Vec::new();
    ai::run_ai_seats(state, id, &header, &mut game, &mut played).await?;
    save(state, id, expected, header, game, logged, played).await
}

/// Hands seat `seat` to the AI at `level` (with the host token or the seat's own), so that the
/// table can finish when its player leaves: the seat's token stops working, and when the seat
/// is to move the AI moves at once.
///
/// # Errors
/// 400 for a seat the game does not have or a level outside 1 to 10, 404, 403, 412, 409
/// `seat_not_playing` (finished or out) or `seat_is_ai` (played by the AI already), 422
/// `illegal_move` (`game_over`), 503.
pub async fn hand_to_ai(
    state: &AppState,
    id: &str,
    token: &str,
    seat: u8,
    level: u8,
    expected: Version,
) -> Result<(Version, MoveOutcome), ApiError> {
    if !(1..=10).contains(&level) {
        return Err(ApiError::BadRequest(format!(
            "level {level} is not offered: the AI plays at levels 1 to 10."
        )));
    }
    let (actor, Loaded { header, game, .. }) =
        load_to_write(state, id, token, false, expected).await?;
    let players = game.variant().players();
    let Some(handed) = game.variant().seat(usize::from(seat)) else {
        return Err(ApiError::BadRequest(format!(
            "seat {seat} is not a seat of this game (seats 0 to {}).",
            players - 1
        )));
    };
    if matches!(actor, Actor::Seat(s) if s != seat) {
        return Err(ApiError::InvalidToken);
    }
    if game.is_over() {
        return Err(IllegalMove::GameOver.into());
    }
    if !game.position().is_active(handed) {
        return Err(ApiError::SeatNotPlaying { seat });
    }
    let mut header = Arc::unwrap_or_clone(header);
    let index = usize::from(seat);
    if header.seats[index].kind == PlayedBy::Ai {
        return Err(ApiError::SeatIsAi { seat });
    }
    header.seats[index].kind = PlayedBy::Ai;
    header.seats[index].level = Some(level);
    // Nobody learns the new token: the old one stops working, and the AI needs none.
    header.seat_tokens[index] = TokenHash::of(SecretToken::generate().expose_secret());
    header.handovers.push(Handover {
        after: u32::try_from(game.record().len()).unwrap_or(u32::MAX),
        resignations: u32::try_from(game.resignations().len()).unwrap_or(u32::MAX),
        seat,
        level,
    });
    let logged = Logged::of(&game);
    let mut game = take_to_change(state, id, game);
    let mut played = Vec::new();
    ai::run_ai_seats(state, id, &header, &mut game, &mut played).await?;
    save(state, id, expected, Arc::new(header), game, logged, played).await
}

/// Reads a game to change it at version `expected` with `token` (the host's when `host_only`),
/// and who the token speaks for. The token is checked before the version.
///
/// # Errors
/// 404, 403 for a token that does not grant the change, 412 when the game is no longer at
/// `expected`, 409 `game_waiting` while it waits for players, 503.
async fn load_to_write(
    state: &AppState,
    id: &str,
    token: &str,
    host_only: bool,
    expected: Version,
) -> Result<(Actor, Loaded), ApiError> {
    let loaded = load(state, id).await?;
    let actor = authorize(&loaded.header, token)?;
    if host_only && actor != Actor::Host {
        return Err(ApiError::InvalidToken);
    }
    if loaded.version != expected {
        return Err(ApiError::VersionMismatch {
            current: loaded.version,
        });
    }
    if loaded.header.is_waiting() {
        return Err(ApiError::GameWaiting);
    }
    Ok((actor, loaded))
}

/// Stores `game` over version `expected` and caches it at the new version: the new head and
/// what changed since `logged`, appended to the log. Every caller refuses a game that is over
/// already, so a game over here ended with this write: its statistics are counted in the same
/// atomic step (once, however many instances race).
pub(super) async fn save(
    state: &AppState,
    id: &str,
    expected: Version,
    header: Arc<Header>,
    game: Game,
    logged: Logged,
    played: Vec<MoveView>,
) -> Result<(Version, MoveOutcome), ApiError> {
    let mut header = Arc::unwrap_or_clone(header);
    header.note_write(header.changes(&game));
    let write = Write::of(&header, &game, logged, expected + 1).map_err(ApiError::internal)?;
    // From this write on, the log holds the game (a game stored whole moves into it now).
    header.in_log = true;
    let header = Arc::new(header);
    // Games that started elsewhere than the initial setup here are not counted.
    let version = if game.is_over() && !header.started_elsewhere {
        let counters = super::stats::counters_of(&header, &game);
        state
            .store
            .compare_and_set_counting(
                id,
                expected,
                &write.head,
                write.log(),
                header.lifetime(),
                &counters,
            )
            .await?
    } else {
        state
            .store
            .compare_and_set(id, expected, &write.head, write.log(), header.lifetime())
            .await?
    };
    if game.is_over() {
        metrics::counter!(crate::observability::GAMES_FINISHED).increment(1);
    }
    let view = views::game_view(id, version, &header, &game);
    remember(state, id, version, header, game);
    Ok((version, MoveOutcome { game: view, played }))
}
