//! The game operations behind the routes: create and rematch ([`create`], [`rematch`]), the
//! reads ([`game`], [`legal_moves`], [`record`], [`picture`], [`suggest`], the [`lobby`]),
//! the writes ([`play`], [`ai_turns`], [`resign`], [`hand_to_ai`]) and the seats of a game
//! that waits for players ([`join`], [`leave`], [`invite`], [`cancel`]). Every write is a
//! compare-and-set on the game's version; every answer's body is built here (by [`views`]),
//! so that the routes only translate HTTP.
//!
//! Reads go through the instance's [`cache`] of restored games: the store is still asked on
//! every read, with the cached version, and sends something back only when the game changed:
//! then the head and the log entries written since, which are played forward on the cached
//! game. Writes put the game they stored in the cache, and take the cached game out to change
//! it (so that it is not copied, whatever its length).

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

use std::sync::{Arc, OnceLock};

use actix_web::web::Bytes;

use halma_rules::{notation, Board, Cell, Game, MoveInput};

use crate::error::ApiError;
use crate::state::AppState;
use crate::store::{Lookup, StoreError, StoredGame, Version};
use document::{Document, Header, LogEntry};

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
    /// The answers of the reads that depend on nothing but this version, serialised by the
    /// first read that needs them and shared (through the cache) by every later read of it.
    rendered: Arc<Rendered>,
}

impl Loaded {
    /// The game at `version`, with nothing rendered yet.
    pub fn new(version: Version, header: Arc<Header>, game: Arc<Game>) -> Loaded {
        Loaded {
            version,
            header,
            game,
            rendered: Arc::default(),
        }
    }
}

/// JSON bodies of one version of a game. A body is a pure function of the version (the id, the
/// header and the game), so it never goes stale: a new version is a new [`Loaded`].
#[derive(Debug, Default)]
struct Rendered {
    /// `GET /v1/games/{id}`.
    game: OnceLock<Bytes>,
    /// `GET /v1/games/{id}/moves` without `from`.
    moves: OnceLock<Bytes>,
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

/// Reads a game: the cached one when the store says it is still current (brought up to date
/// with the log entries written since, when there are some), else the stored one, restored
/// (and then cached).
///
/// # Errors
/// 404 for an unknown game, 503 when the store is down, 500 for a corrupt document.
pub async fn load(state: &AppState, id: &str) -> Result<Loaded, ApiError> {
    check_id(id)?;
    let stored = match state.games.get(id) {
        Some((known, cached)) => match state.store.get_if_changed(id, known).await? {
            Some(Lookup::Unchanged) => return Ok(cached),
            Some(Lookup::Appended {
                version,
                head,
                entries,
            }) => match catch_up(&cached, version, &head, &entries) {
                Ok(loaded) => {
                    state.games.insert(id, version, loaded.clone());
                    return Ok(loaded);
                }
                Err(detail) => {
                    tracing::warn!(game = id, %detail, "cannot play the log forward on the cached game; reading it whole");
                    state.store.get(id).await?
                }
            },
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

/// The cached game brought to `version` by the log entries written after it, checked against
/// the head of that version.
fn catch_up(
    cached: &Loaded,
    version: Version,
    head: &str,
    entries: &[String],
) -> Result<Loaded, String> {
    let (mut header, state) = Document::read_head(head)?.into_parts();
    let held = cached.header.changes_by_version.len() + entries.len();
    if !cached.header.in_log || u64::try_from(held).ok() != Some(version) {
        return Err(format!(
            "the cached game and {} entries do not make version {version}",
            entries.len()
        ));
    }
    let mut game = Game::clone(&cached.game);
    let mut changes = cached.header.changes_by_version.clone();
    for text in entries {
        let entry = LogEntry::parse(text)?;
        play_entry(&mut game, &entry)?;
        changes.push(entry.changes);
    }
    if game.snapshot_state() != state {
        return Err("the moves of the log do not reach the head's position".into());
    }
    header.changes_by_version = changes;
    Ok(Loaded::new(version, Arc::new(header), Arc::new(game)))
}

/// Plays a log entry's moves and resignations on `game`, in their order, checking each.
fn play_entry(game: &mut Game, entry: &LogEntry) -> Result<(), String> {
    let variant = Arc::clone(game.variant());
    let seat = |i: u8| variant.seat(usize::from(i)).ok_or(format!("no seat {i}"));
    let mut resignations = entry.resignations.iter().peekable();
    let mut resign_due = |game: &mut Game, last: bool| -> Result<(), String> {
        while let Some(r) = resignations.next_if(|r| last || r.after == game.record().len()) {
            if r.after != game.record().len() {
                return Err(format!(
                    "a resignation after move {} is out of order",
                    r.after
                ));
            }
            let first = r.seats.first().ok_or("a resignation of nobody")?;
            game.resign(seat(*first)?).map_err(|e| e.to_string())?;
        }
        Ok(())
    };
    for m in &entry.moves {
        resign_due(game, false)?;
        if game.to_move().map(|s| s.index()) != Some(m.seat) {
            return Err(format!("seat {} moves out of turn", m.seat));
        }
        let path = notation::parse_move(variant.board(), &m.path).map_err(|e| e.to_string())?;
        let played = game
            .play(&MoveInput::Path(path))
            .map_err(|e| e.to_string())?;
        if played
            .skipped
            .iter()
            .map(|s| s.index())
            .ne(m.skipped.iter().copied())
        {
            return Err(format!("move {} skipped other seats", m.path));
        }
    }
    resign_due(game, true)
}

/// Parses a stored game and restores it.
fn restore(state: &AppState, id: &str, stored: &StoredGame) -> Result<Loaded, ApiError> {
    let (header, snapshot) = Document::read(&stored.head, &stored.log, stored.version)
        .map_err(|detail| corrupt(id, &detail))?
        .into_parts();
    let variant = state
        .variants
        .get(&snapshot.setup)
        .map_err(|e| corrupt(id, &e.to_string()))?;
    let game = Game::restore(variant, &snapshot).map_err(|e| corrupt(id, &e.to_string()))?;
    Ok(Loaded::new(
        stored.version,
        Arc::new(header),
        Arc::new(game),
    ))
}

/// The game of `loaded`, to change: taken out of the cache, so that it is not copied unless
/// another request holds it at the same moment. A write that fails leaves the game out of the
/// cache (the next read restores it); one that does not change it may [`remember`] it again.
fn take_to_change(state: &AppState, id: &str, game: Arc<Game>) -> Game {
    state.games.remove(id);
    Arc::unwrap_or_clone(game)
}

/// Puts a game just written at `version` in the cache, so that the next read need not
/// restore it.
fn remember(state: &AppState, id: &str, version: Version, header: Arc<Header>, game: Game) {
    let loaded = Loaded::new(version, header, Arc::new(game));
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

#[cfg(test)]
mod tests {
    use std::error::Error;

    use halma_rules::{BoardKind, GameSetup, RuleOptions, Variant};

    use super::document::{Logged, PlayedBy, StoredSeat, Write};
    use super::*;
    use crate::token::TokenHash;

    /// A two-player star game as created, cached at version 1.
    fn created() -> Result<Loaded, Box<dyn Error>> {
        let setup = GameSetup {
            board: BoardKind::Star,
            players: 2,
            options: RuleOptions::default(),
        };
        let variant = Arc::new(Variant::new(&setup)?);
        let game = Game::new(Arc::clone(&variant), variant.seat(0).ok_or("no seat 0")?);
        let mut header = Header {
            created_at: 0,
            seats: vec![
                StoredSeat::new("A".into(), PlayedBy::Human, None),
                StoredSeat::new("B".into(), PlayedBy::Human, None),
            ],
            host_token: TokenHash::of("host"),
            seat_tokens: vec![TokenHash::of("0"), TokenHash::of("1")],
            ai_time_ms: 200,
            start_position: notation::format_position(&variant, game.position()),
            rematch_of: None,
            changes_by_version: Vec::new(),
            handovers: Vec::new(),
            public: false,
            seat_changes: Vec::new(),
            started_elsewhere: false,
            in_log: true,
        };
        header.note_write(0);
        Ok(Loaded::new(1, Arc::new(header), Arc::new(game)))
    }

    /// Plays `n` moves on `loaded` as another instance would, a write each: the head and the
    /// entries of every write, and the game at the end.
    fn written(loaded: &Loaded, n: usize) -> Result<(Vec<Write>, Game, Header), Box<dyn Error>> {
        let mut game = Game::clone(&loaded.game);
        let mut header = Header::clone(&loaded.header);
        let mut writes = Vec::new();
        for i in 0..n {
            let logged = Logged::of(&game);
            let legal = game.legal_moves();
            game.play(&MoveInput::Path(legal[i % legal.len()].path.clone()))?;
            header.note_write(header.changes(&game));
            writes.push(Write::of(
                &header,
                &game,
                logged,
                loaded.version + 1 + i as u64,
            )?);
        }
        Ok((writes, game, header))
    }

    fn entries(writes: &[Write]) -> Vec<String> {
        writes.iter().map(|w| w.first_entry().to_owned()).collect()
    }

    #[test]
    fn a_cached_game_catches_up_with_the_entries_written_since() -> Result<(), Box<dyn Error>> {
        let cached = created()?;
        let (writes, game, header) = written(&cached, 5)?;
        let last = writes.last().ok_or("no writes")?;
        let caught = catch_up(&cached, 6, &last.head, &entries(&writes))?;
        assert_eq!(caught.version, 6);
        assert_eq!(caught.game.snapshot(), game.snapshot());
        assert_eq!(caught.header.changes_by_version, header.changes_by_version);
        // The cached game itself is left as it was.
        assert!(cached.game.record().is_empty());
        Ok(())
    }

    #[test]
    fn entries_that_do_not_reach_the_head_are_refused() -> Result<(), Box<dyn Error>> {
        let cached = created()?;
        let (writes, _, _) = written(&cached, 3)?;
        let last = writes.last().ok_or("no writes")?;
        let all = entries(&writes);
        // An entry missing: the count does not make the version.
        assert!(catch_up(&cached, 4, &last.head, &all[1..]).is_err());
        // The right count, but not the moves that lead to the head.
        let (other, _, _) = written(&cached, 4)?;
        let wrong = vec![
            all[0].clone(),
            all[1].clone(),
            other[3].first_entry().to_owned(),
        ];
        let err = catch_up(&cached, 4, &last.head, &wrong)
            .err()
            .ok_or("wrong entries were accepted")?;
        assert!(!err.is_empty());
        // A head that is no head of the current format.
        assert!(catch_up(&cached, 4, "{}", &all).is_err());
        Ok(())
    }
}
