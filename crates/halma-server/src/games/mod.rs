//! The game operations behind the routes: create and rematch ([`create`], [`rematch`]), the
//! reads ([`game`], [`legal_moves`], [`record`], [`picture`], [`suggest`], the [`lobby`]),
//! the writes ([`play`], [`ai_turns`], [`resign`], [`hand_to_ai`]) and the seats of a game
//! that waits for players ([`join`], [`leave`], [`invite`], [`cancel`]). Every write is a
//! compare-and-set on the game's version; every answer's body is built here (by [`views`]),
//! so that the routes only translate HTTP.
//!
//! Reads go through the instance's [`cache`] of restored games: the store is still asked on
//! every read, with the cached version, and the document comes back (to be parsed and
//! restored) only when the game changed. Writes put the game they stored in the cache.

mod ai;
pub mod cache;
pub mod document;
pub mod lobby;
mod new_game;
mod play;
mod read;
mod records;
pub mod searches;
mod seats;
mod start;
pub mod stats;
pub mod variants;
pub mod views;

use std::sync::Arc;

use halma_rules::{Board, Cell, Game};

use crate::error::ApiError;
use crate::state::AppState;
use crate::store::{Lookup, StoreError, StoredGame, Version};
use document::{Document, Header};

pub use ai::LONG_SEARCH;
pub(crate) use ai::{think_lines, Search};
pub use new_game::{create, rematch};
pub use play::{ai_turns, hand_to_ai, move_input, play, resign};
pub use read::{game, legal_moves, picture, record, suggest, Current};
pub use records::{MoveImport, RecordImport, MAX_RECORD_ENTRIES};
pub use seats::{cancel, invite, join, leave};

/// Default AI thinking time per move, in milliseconds.
pub const DEFAULT_AI_MS: u32 = 200;
/// Default AI level.
pub const DEFAULT_LEVEL: u8 = 10;

/// A game read from the store. Cheap to clone: the header and the game are shared (with the
/// cache, among others); a request that plays moves works on its own copy of the game.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// Its version.
    pub version: Version,
    /// The stored document's header: seats, token hashes, AI settings.
    pub header: Arc<Header>,
    /// The game, restored from the stored document.
    pub game: Arc<Game>,
}

/// The restored games an instance keeps, keyed by game id.
pub type RestoredGames = cache::GameCache<Loaded>;

/// Who a token speaks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Actor {
    /// The host token: every seat.
    Host,
    /// One seat's token.
    Seat(u8),
}

/// Game ids are URL-safe base64 of 16 random bytes; anything else cannot name a game.
fn check_id(id: &str) -> Result<(), ApiError> {
    let ok = (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if ok {
        Ok(())
    } else {
        Err(ApiError::GameNotFound)
    }
}

/// Reads a game: the cached one when the store says it is still current, else the stored one,
/// restored (and then cached).
///
/// # Errors
/// 404 for an unknown game, 503 when the store is down, 500 for a corrupt document.
pub async fn load(state: &AppState, id: &str) -> Result<Loaded, ApiError> {
    check_id(id)?;
    let stored = match state.games.get(id) {
        Some((version, cached)) => match state.store.get_if_changed(id, version).await? {
            Some(Lookup::Unchanged) => return Ok(cached),
            Some(Lookup::Changed(stored)) => Some(stored),
            None => {
                state.games.remove(id);
                None
            }
        },
        None => state.store.get(id).await?,
    };
    let loaded = restore(state, id, &stored.ok_or(ApiError::GameNotFound)?)?;
    state.games.insert(id, loaded.version, loaded.clone());
    Ok(loaded)
}

/// Parses a stored document and restores its game.
fn restore(state: &AppState, id: &str, stored: &StoredGame) -> Result<Loaded, ApiError> {
    let (header, snapshot) = Document::parse(&stored.document)
        .map_err(|detail| corrupt(id, &detail))?
        .into_parts();
    let variant = state
        .variants
        .get(&snapshot.setup)
        .map_err(|e| corrupt(id, &e.to_string()))?;
    let game = Game::restore(variant, &snapshot).map_err(|e| corrupt(id, &e.to_string()))?;
    Ok(Loaded {
        version: stored.version,
        header: Arc::new(header),
        game: Arc::new(game),
    })
}

/// Puts a game just written at `version` in the cache, so that the next read need not
/// restore it.
fn remember(state: &AppState, id: &str, version: Version, header: Arc<Header>, game: Game) {
    let loaded = Loaded {
        version,
        header,
        game: Arc::new(game),
    };
    state.games.insert(id, version, loaded);
}

fn corrupt(id: &str, detail: &str) -> ApiError {
    ApiError::internal(StoreError::Corrupt {
        key: id.to_owned(),
        detail: detail.to_owned(),
    })
}

/// Who `token` speaks for in this game.
///
/// # Errors
/// 403 `invalid_token` when it is none of the game's tokens.
pub fn authorize(header: &Header, token: &str) -> Result<Actor, ApiError> {
    if header.host_token.matches(token) {
        return Ok(Actor::Host);
    }
    header
        .seat_tokens
        .iter()
        .position(|h| h.matches(token))
        .map(|i| Actor::Seat(i as u8))
        .ok_or(ApiError::InvalidToken)
}

/// Checks that `token` is the game's host token.
///
/// # Errors
/// 403 `invalid_token` for any other token, a seat's included.
fn authorize_host(header: &Header, token: &str) -> Result<(), ApiError> {
    match authorize(header, token)? {
        Actor::Host => Ok(()),
        Actor::Seat(_) => Err(ApiError::InvalidToken),
    }
}

/// The cell a client names (surrounding blanks ignored).
///
/// # Errors
/// 400 `bad_notation` when no cell of `board` has this name.
fn parse_cell(board: &Board, name: &str) -> Result<Cell, ApiError> {
    board
        .parse_cell(name.trim())
        .map_err(|e| ApiError::BadNotation(format!("{e}.")))
}
