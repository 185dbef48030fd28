//! The reads: a game (with long polling), its legal moves, its record, its picture, and a
//! suggested move. None of them changes the game.

use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use actix_web::web::Bytes;

use halma_rules::{notation, Game, IllegalMove, LegalMove, MoveInput};

use super::{ai, load, parse_cell, views, Loaded, DEFAULT_AI_MS, DEFAULT_LEVEL};
use crate::api::{GameRecord, PictureQuery, SuggestionQuery, SuggestionView};
use crate::error::ApiError;
use crate::state::AppState;
use crate::store::Version;

/// How often a long poll reads the game even without a change notification: the safety net
/// for a notification lost while the connection to Redis was down.
const RECHECK_EVERY: Duration = Duration::from_secs(5);

/// What a conditional read found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Current<T> {
    /// The game is at a version the client does not have yet: the answer, at that version.
    Changed(Version, T),
    /// The game is still at a version the client has.
    Unchanged(Version),
}

/// The game as it stood after ply `ply` (with the resignations made before the next move),
/// replayed from its start position and record.
///
/// # Errors
/// 400 `bad_request` for a ply the game has not reached; 500 when the stored record does not
/// replay (a corrupt document).
pub fn at_ply(id: &str, loaded: &Loaded, ply: u32) -> Result<Game, ApiError> {
    let game = &loaded.game;
    let plies = game.record().len();
    let upto = usize::try_from(ply).unwrap_or(usize::MAX);
    if upto > plies {
        return Err(ApiError::BadRequest(format!(
            "ply {ply} is not a ply of this game: it has {plies} moves (ply 0 is the start)."
        )));
    }
    if upto == plies {
        return Ok((*loaded.game).clone());
    }
    let variant = Arc::clone(game.variant());
    let corrupt = |detail: String| super::corrupt(id, &detail);
    let start = notation::parse_position_with(&variant, &loaded.header.start_position)
        .map_err(|e| corrupt(format!("the start position does not read: {e}")))?;
    let mut replay = Game::from_position(variant, game.first(), start);
    let mut resignations = game.resignations().iter().peekable();
    for (index, played) in game.record().iter().enumerate().take(upto + 1) {
        while let Some(r) = resignations.next_if(|r| r.after <= index) {
            if let Some(&seat) = r.seats.first() {
                replay
                    .resign(seat)
                    .map_err(|e| corrupt(format!("resignation after {index} moves: {e}")))?;
            }
        }
        if index == upto {
            break;
        }
        replay
            .play(&MoveInput::Path(played.path.clone()))
            .map_err(|e| corrupt(format!("move {}: {e}", index + 1)))?;
    }
    Ok(replay)
}

/// Reads a game unless its version is one the client has (`known`); then waits up to `wait`
/// for a change (long polling). The wait is on the store's change notifications (the same
/// ones the event streams follow), so a waiting client costs nothing until the game changes.
///
/// # Errors
/// 404 for an unknown game, 503 when the store is down, 500 for a corrupt document.
pub async fn game(
    state: &AppState,
    id: &str,
    ply: Option<u32>,
    known: impl Fn(Version) -> bool,
    wait: Duration,
) -> Result<Current<Bytes>, ApiError> {
    if let Some(ply) = ply {
        if !wait.is_zero() {
            return Err(ApiError::BadRequest(
                "`ply` shows a past position and cannot be combined with `wait_secs`.".into(),
            ));
        }
        let loaded = load(state, id).await?;
        if known(loaded.version) {
            return Ok(Current::Unchanged(loaded.version));
        }
        let past = at_ply(id, &loaded, ply)?;
        // The seats handed to the AI later are not part of that past.
        let mut header = (*loaded.header).clone();
        header.handovers.retain(|h| h.after <= ply);
        header.seat_changes.retain(|c| c.after() <= ply);
        let view = views::game_view(id, loaded.version, &header, &past);
        return Ok(Current::Changed(loaded.version, to_json(&view)?));
    }
    let deadline = Instant::now() + wait;
    // Watching starts before the read: a write between the two still wakes the wait.
    let mut changes = (!wait.is_zero()).then(|| state.store.changes().watch(id));
    loop {
        let loaded = load(state, id).await?;
        if !known(loaded.version) {
            let body = rendered_once(&loaded.rendered.game, || {
                to_json(&views::game_view(
                    id,
                    loaded.version,
                    &loaded.header,
                    &loaded.game,
                ))
            })?;
            return Ok(Current::Changed(loaded.version, body));
        }
        let left = deadline.saturating_duration_since(Instant::now());
        let Some(watch) = changes.as_mut().filter(|_| !left.is_zero()) else {
            return Ok(Current::Unchanged(loaded.version));
        };
        // Whether news came or the recheck is due, read again; the deadline ends the loop.
        let _ = tokio::time::timeout(left.min(RECHECK_EVERY), watch.changed()).await;
    }
}

/// The legal moves of the seat to move, or of its piece on the cell `from`.
///
/// # Errors
/// 404, 400 `bad_notation` for a cell that is not on the board (while the game goes on), 503.
pub async fn legal_moves(
    state: &AppState,
    id: &str,
    from: Option<&str>,
) -> Result<(Version, Bytes), ApiError> {
    let loaded = load(state, id).await?;
    let Loaded {
        version,
        header,
        game,
        rendered,
    } = &loaded;
    let view = |moves: &[LegalMove]| {
        let mut view = views::legal_moves_view(*version, game, moves);
        if header.is_waiting() {
            view.to_move = None;
        }
        to_json(&view)
    };
    let body = match (from, game.to_move()) {
        _ if header.is_waiting() => view(&[])?,
        (_, None) => view(&[])?,
        (None, Some(_)) => rendered_once(&rendered.moves, || view(&game.legal_moves()))?,
        (Some(from), Some(_)) => {
            view(&game.legal_moves_from(parse_cell(game.variant().board(), from)?))?
        }
    };
    Ok((*version, body))
}

/// A body serialised as JSON.
fn to_json<T: serde::Serialize>(value: &T) -> Result<Bytes, ApiError> {
    serde_json::to_vec(value)
        .map(Bytes::from)
        .map_err(|e| ApiError::internal(format!("cannot serialise the answer: {e}")))
}

/// The body kept in `slot`, serialised by `render` on first use.
fn rendered_once(
    slot: &OnceLock<Bytes>,
    render: impl FnOnce() -> Result<Bytes, ApiError>,
) -> Result<Bytes, ApiError> {
    if let Some(body) = slot.get() {
        return Ok(body.clone());
    }
    let body = render()?;
    Ok(slot.get_or_init(|| body).clone())
}

/// The game's full record with its text export.
///
/// # Errors
/// 404, 503, 500 for a corrupt document.
pub async fn record(state: &AppState, id: &str) -> Result<(Version, GameRecord), ApiError> {
    let loaded = load(state, id).await?;
    let view = views::record_view(id, loaded.version, &loaded.header, &loaded.game);
    Ok((loaded.version, view))
}

/// Smallest and largest picture size, in pixels.
const PICTURE_SIZES: std::ops::RangeInclusive<u32> = 64..=4096;

/// A picture of the game (SVG) with the last move's path marked, drawn as `query` asks,
/// unless its version is one the client has (`known`).
///
/// # Errors
/// 404, 400 for a ply the game has not reached, a size out of range or a seat the game does
/// not have, 503, 500 for a corrupt document.
pub async fn picture(
    state: &AppState,
    id: &str,
    query: &PictureQuery,
    known: impl Fn(Version) -> bool,
) -> Result<Current<String>, ApiError> {
    let size_px = query.size.unwrap_or(halma_render::DEFAULT_SIZE_PX);
    if !PICTURE_SIZES.contains(&size_px) {
        return Err(ApiError::BadRequest(format!(
            "size {size_px} is not from {} to {} pixels.",
            PICTURE_SIZES.start(),
            PICTURE_SIZES.end()
        )));
    }
    let loaded = load(state, id).await?;
    let version = loaded.version;
    let bottom = match query.bottom {
        None => None,
        Some(seat) => Some(
            loaded
                .game
                .variant()
                .seat(usize::from(seat))
                .ok_or_else(|| {
                    ApiError::BadRequest(format!(
                        "bottom {seat} is not a seat of this game (seats 0 to {}).",
                        loaded.game.variant().players() - 1
                    ))
                })?,
        ),
    };
    if known(version) {
        return Ok(Current::Unchanged(version));
    }
    let game = match query.ply {
        Some(ply) => Arc::new(at_ply(id, &loaded, ply)?),
        None => loaded.game,
    };
    let options = halma_render::RenderOptions {
        size_px,
        show_names: query.names.unwrap_or(false),
        highlight: game
            .record()
            .last()
            .map(|m| m.path.clone())
            .unwrap_or_default(),
        bottom,
    };
    let svg = halma_render::board_svg(game.variant(), game.position(), &options);
    Ok(Current::Changed(version, svg))
}

/// A suggested move for the seat to move (read-only).
///
/// # Errors
/// 404, 400 for a level out of range, 422 when the game is over, 503.
pub async fn suggest(
    state: &AppState,
    id: &str,
    query: &SuggestionQuery,
) -> Result<(Version, SuggestionView), ApiError> {
    let level = query.level.unwrap_or(DEFAULT_LEVEL);
    if !(1..=halma_ai::MAX_LEVEL).contains(&level) {
        return Err(ApiError::BadRequest(format!(
            "level {level} is not from 1 to {}.",
            halma_ai::MAX_LEVEL
        )));
    }
    let time_ms = query.time_ms.unwrap_or(DEFAULT_AI_MS);
    if time_ms == 0 {
        return Err(ApiError::BadRequest("time_ms must be at least 1.".into()));
    }
    let budget = Duration::from_millis(u64::from(time_ms)).min(state.ai_max_time);
    let Loaded {
        version,
        header,
        game,
        ..
    } = load(state, id).await?;
    if header.is_waiting() {
        return Err(ApiError::GameWaiting);
    }
    let Some(seat) = game.to_move() else {
        return Err(IllegalMove::GameOver.into());
    };
    // As the stateless analysis seeds it: the same position (and history) always searches
    // alike, so a hint at a level that makes mistakes agrees with the analysis of its position.
    let seed = game.position().hash();
    let (suggestion, level) = ai::think(state, &game, level, budget, seed)
        .await?
        .ok_or_else(|| ApiError::internal("no suggestion for a seat that can move"))?;
    let path = game
        .variant()
        .witness_path(game.position(), suggestion.mv)
        .ok_or_else(|| ApiError::internal("the AI chose an illegal move"))?;
    let view = views::suggestion_view(
        version,
        game.variant().board(),
        seat,
        &suggestion,
        &path,
        level,
        budget,
    );
    Ok((version, view))
}
