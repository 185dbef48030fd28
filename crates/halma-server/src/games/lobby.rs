//! The lobby: public games waiting for players, newest first, filtered by board and player
//! count.
//!
//! Each listed game has one entry (see [`lobby_entry`]) in four indexes of the store: all
//! games, games on its board, games for its player count, and both. The game document stays
//! the truth: a page reads every game it lists, and an entry whose game is no longer listed
//! (it started, was cancelled, or expired while waiting) is removed by whoever finds it. An
//! entry is written before its game (so a game is never stored unlisted), which is why an
//! entry without a game is left alone for a minute after its creation time.

use halma_rules::{BoardKind, Game};

use super::document::Header;
use super::new_game::now_secs;
use super::{load, views, Loaded};
use crate::api::{LobbyPage, LobbyQuery};
use crate::error::ApiError;
use crate::state::AppState;
use crate::store::{lobby_entry, lobby_entry_id};

/// Games per page unless the query says.
const DEFAULT_LIMIT: usize = 20;
/// Most games per page.
const MAX_LIMIT: usize = 100;
/// Index reads one page may take (stale entries make a page need more than one).
const MAX_READS: usize = 4;
/// How long an entry may wait for its game to be stored before it counts as stale.
const UNBORN_GRACE_SECS: u64 = 60;

/// The index of the games a filter selects.
fn index_name(board: Option<BoardKind>, players: Option<u8>) -> String {
    match (board, players) {
        (None, None) => "all".to_owned(),
        (Some(b), None) => format!("b={}", b.name()),
        (None, Some(p)) => format!("p={p}"),
        (Some(b), Some(p)) => format!("b={}.p={p}", b.name()),
    }
}

/// Every index a game belongs to.
fn indexes_of(game: &Game) -> Vec<String> {
    let setup = game.variant().setup();
    let (board, players) = (Some(setup.board), Some(setup.players));
    vec![
        index_name(None, None),
        index_name(board, None),
        index_name(None, players),
        index_name(board, players),
    ]
}

/// Whether the lobby shows this game.
fn is_listed(header: &Header, game: &Game) -> bool {
    header.public && header.is_waiting() && !game.is_over()
}

/// Lists game `id` in the lobby.
///
/// # Errors
/// 503 when the store is down.
pub(super) async fn list(
    state: &AppState,
    id: &str,
    header: &Header,
    game: &Game,
) -> Result<(), ApiError> {
    let entry = lobby_entry(header.created_at, id);
    state.store.lobby_add(&entry, &indexes_of(game)).await?;
    Ok(())
}

/// Takes game `id` out of the lobby, after the write that ended its wait. A failure is only
/// logged: the write has happened, and the next page that meets the entry removes it.
pub(super) async fn unlist(state: &AppState, id: &str, header: &Header, game: &Game) {
    let entry = lobby_entry(header.created_at, id);
    if let Err(err) = state.store.lobby_remove(&entry, &indexes_of(game)).await {
        tracing::warn!(game = id, error = %err, "a lobby entry could not be removed");
    }
}

/// A page of the lobby.
///
/// # Errors
/// 400 `bad_request` for a limit outside 1 to 100, a player count outside 2 to 6 or a cursor
/// this service did not give; 503 when the store is down.
pub async fn page(state: &AppState, query: &LobbyQuery) -> Result<LobbyPage, ApiError> {
    let limit = query.limit.unwrap_or(DEFAULT_LIMIT);
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(ApiError::BadRequest(format!(
            "limit {limit} is not from 1 to {MAX_LIMIT}."
        )));
    }
    if let Some(players) = query.players.filter(|p| !(2..=6).contains(p)) {
        return Err(ApiError::BadRequest(format!(
            "players {players} is not from 2 to 6."
        )));
    }
    if let Some(cursor) = query.cursor.as_deref() {
        if lobby_entry_id(cursor).is_none() {
            return Err(ApiError::BadRequest(
                "cursor is not a `next_cursor` of the lobby.".into(),
            ));
        }
    }
    let index = index_name(query.board, query.players);
    let now = now_secs();
    let mut games = Vec::new();
    let mut after = query.cursor.clone();
    for _ in 0..MAX_READS {
        let entries = state
            .store
            .lobby_page(&index, after.as_deref(), limit - games.len())
            .await?;
        let exhausted = entries.len() < limit - games.len();
        for entry in entries {
            if let Some(loaded) = listed_game(state, &entry, now).await? {
                games.push(views::lobby_game_view(
                    lobby_entry_id(&entry).unwrap_or_default(),
                    loaded.version,
                    &loaded.header,
                    &loaded.game,
                    now,
                ));
            }
            after = Some(entry);
        }
        if exhausted {
            return Ok(LobbyPage {
                games,
                next_cursor: None,
            });
        }
        if games.len() == limit {
            break;
        }
    }
    // A full page, or one cut short by stale entries: the next page starts after the last
    // entry read, unless nothing follows it.
    let more = match after.as_deref() {
        Some(last) => !state
            .store
            .lobby_page(&index, Some(last), 1)
            .await?
            .is_empty(),
        None => false,
    };
    Ok(LobbyPage {
        games,
        next_cursor: after.filter(|_| more),
    })
}

/// The game of a lobby entry when the lobby shows it; a stale entry is removed.
async fn listed_game(state: &AppState, entry: &str, now: u64) -> Result<Option<Loaded>, ApiError> {
    let Some(id) = lobby_entry_id(entry) else {
        tracing::warn!(entry, "a lobby entry that this service did not write");
        return Ok(None);
    };
    match load(state, id).await {
        Ok(loaded) if is_listed(&loaded.header, &loaded.game) => Ok(Some(loaded)),
        Ok(loaded) => {
            unlist(state, id, &loaded.header, &loaded.game).await;
            Ok(None)
        }
        Err(ApiError::GameNotFound) => {
            let created_at: u64 = entry
                .split_once('.')
                .and_then(|(time, _)| time.parse().ok())
                .unwrap_or(0);
            if now.saturating_sub(created_at) > UNBORN_GRACE_SECS {
                // The game, and with it its board and player count, is gone: remove the
                // entry from every index that can hold it.
                remove_everywhere(state, entry).await;
            }
            Ok(None)
        }
        Err(err) => Err(err),
    }
}

/// Removes an entry whose game is gone from every index it can be in.
async fn remove_everywhere(state: &AppState, entry: &str) {
    let mut indexes = vec![index_name(None, None)];
    for board in [
        BoardKind::Star,
        BoardKind::Square16,
        BoardKind::Square10,
        BoardKind::Square8,
    ] {
        indexes.push(index_name(Some(board), None));
        for players in [2, 3, 4, 6] {
            indexes.push(index_name(Some(board), Some(players)));
        }
    }
    for players in [2, 3, 4, 6] {
        indexes.push(index_name(None, Some(players)));
    }
    if let Err(err) = state.store.lobby_remove(entry, &indexes).await {
        tracing::warn!(entry, error = %err, "a stale lobby entry could not be removed");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_filter_has_its_own_index() {
        let names = [
            index_name(None, None),
            index_name(Some(BoardKind::Star), None),
            index_name(None, Some(4)),
            index_name(Some(BoardKind::Star), Some(4)),
            index_name(Some(BoardKind::Square16), Some(4)),
        ];
        let distinct: std::collections::HashSet<&String> = names.iter().collect();
        assert_eq!(distinct.len(), names.len());
        assert_eq!(names[3], "b=star.p=4");
    }
}
