//! Seats of a game that waits for players: joining an open seat ([`join`]), leaving it again
//! ([`leave`]), a new invitation code ([`invite`]), and cancelling the game ([`cancel`]).
//!
//! These writes need no `If-Match`: a joiner holds a link, not a version, and what they change
//! (one seat) does not depend on the moves. Without an expected version they read the game,
//! change it and compare-and-set, and read again when another write came first (a few times);
//! with one, it is checked like every other write's.

use std::sync::Arc;

use super::document::{Header, Logged, PlayedBy, SeatChange, StoredSeat};
use super::new_game::{checked_name, default_name, NAME_RULE};
use super::{ai, authorize, authorize_host, load, lobby, play, Actor, Loaded};
use crate::api::{GameView, Invitation, JoinRequest, JoinedSeat, LeftSeat};
use crate::error::ApiError;
use crate::state::AppState;
use crate::store::{StoreError, Version};
use crate::token::SecretToken;

/// How often a write without an expected version is tried when other writes come first.
const ATTEMPTS: usize = 5;

/// Joins seat `seat` with `req`'s invitation code (none needed in a public game) under its
/// name. The last seat taken starts the game: the AI seats that are to move first move in the
/// same write.
///
/// # Errors
/// 400 for a seat the game does not have, a bad name, or no code for a game that is not
/// public; 403 `invalid_invitation`; 404; 409 `game_not_waiting` or `seat_taken`; 412 when
/// `expected` is given and stale; 503.
pub async fn join(
    state: &AppState,
    id: &str,
    seat: u8,
    req: &JoinRequest,
    expected: Option<Version>,
) -> Result<(Version, JoinedSeat), ApiError> {
    let name = req
        .name
        .as_deref()
        .map(|n| checked_name(n).ok_or_else(|| ApiError::BadRequest(NAME_RULE.into())))
        .transpose()?;
    let (version, game, token) = change_seats(state, id, expected, |loaded| {
        let header = &loaded.header;
        let index = waiting_seat(loaded, seat)?;
        let stored = &header.seats[index];
        if stored.kind != PlayedBy::Open {
            return Err(ApiError::SeatTaken { seat });
        }
        match (req.code.as_deref(), stored.invitation) {
            (Some(code), Some(hash)) if hash.matches(code) => {}
            (Some(_), _) => return Err(ApiError::InvalidInvitation),
            (None, _) if header.public => {}
            (None, _) => {
                return Err(ApiError::BadRequest(
                    "this game is not public: joining a seat takes its invitation `code`.".into(),
                ))
            }
        }
        let mut header = (**header).clone();
        let name = name.clone().unwrap_or_else(|| default_name(index));
        let token = SecretToken::generate();
        header.seats[index] = StoredSeat::new(name.clone(), PlayedBy::Human, None);
        header.seat_tokens[index] = token.hash();
        header.seat_changes.push(SeatChange::Joined {
            after: moves_played(loaded),
            seat,
            name,
        });
        Ok((header, token.expose_secret().to_owned()))
    })
    .await?;
    Ok((version, JoinedSeat { seat, token, game }))
}

/// The player of seat `seat` leaves the waiting game (with the seat's token or the host's):
/// the seat is open again, with a new invitation code that the host receives (the seat's
/// player does not).
///
/// # Errors
/// 400 for a seat the game does not have, 403 `invalid_token`, 404, 409 `game_not_waiting` or
/// `seat_not_joined`, 412 when `expected` is given and stale, 503.
pub async fn leave(
    state: &AppState,
    id: &str,
    token: &str,
    seat: u8,
    expected: Option<Version>,
) -> Result<(Version, LeftSeat), ApiError> {
    let (version, game, invitation) = change_seats(state, id, expected, |loaded| {
        let actor = authorize(&loaded.header, token)?;
        if matches!(actor, Actor::Seat(s) if s != seat) {
            return Err(ApiError::InvalidToken);
        }
        let index = waiting_seat(loaded, seat)?;
        let joined = loaded
            .header
            .seat_changes
            .iter()
            .rev()
            .find(|c| c.seat() == seat)
            .is_some_and(|c| matches!(c, SeatChange::Joined { .. }));
        if !joined || loaded.header.seats[index].kind != PlayedBy::Human {
            return Err(ApiError::SeatNotJoined { seat });
        }
        let mut header = (*loaded.header).clone();
        let code = reopen(&mut header, index);
        header.seat_changes.push(SeatChange::Left {
            after: moves_played(loaded),
            seat,
        });
        let invitation = (actor == Actor::Host).then_some(Invitation { seat, code });
        Ok((header, invitation))
    })
    .await?;
    Ok((version, LeftSeat { game, invitation }))
}

/// A new invitation code for the open seat `seat` (host token): the seat's earlier code stops
/// working.
///
/// # Errors
/// 400 for a seat the game does not have, 403 `invalid_token` (not the host's), 404, 409
/// `game_not_waiting` or `seat_taken`, 412 when `expected` is given and stale, 503.
pub async fn invite(
    state: &AppState,
    id: &str,
    token: &str,
    seat: u8,
    expected: Option<Version>,
) -> Result<(Version, Invitation), ApiError> {
    let (version, _, code) = change_seats(state, id, expected, |loaded| {
        authorize_host(&loaded.header, token)?;
        let index = waiting_seat(loaded, seat)?;
        if loaded.header.seats[index].kind != PlayedBy::Open {
            return Err(ApiError::SeatTaken { seat });
        }
        let mut header = (*loaded.header).clone();
        let code = SecretToken::generate();
        header.seats[index].invitation = Some(code.hash());
        Ok((header, code.expose_secret().to_owned()))
    })
    .await?;
    Ok((version, Invitation { seat, code }))
}

/// Cancels a game that waits for players (host token): it is removed from the store and the
/// lobby; its event streams end with a `gone` event.
///
/// # Errors
/// 403 `invalid_token` (not the host's), 404, 409 `game_not_waiting`, 412 when `expected` is
/// given and stale, 503.
pub async fn cancel(
    state: &AppState,
    id: &str,
    token: &str,
    expected: Option<Version>,
) -> Result<(), ApiError> {
    for attempt in 1..=ATTEMPTS {
        let loaded = load(state, id).await?;
        authorize_host(&loaded.header, token)?;
        check_expected(&loaded, expected)?;
        if !is_waiting(&loaded) {
            return Err(ApiError::GameNotWaiting);
        }
        match state.store.delete(id, loaded.version).await {
            Ok(()) => {
                state.games.remove(id);
                lobby::unlist(state, id, &loaded.header, &loaded.game).await;
                return Ok(());
            }
            Err(StoreError::VersionMismatch { .. }) if expected.is_none() && attempt < ATTEMPTS => {
            }
            Err(err) => return Err(err.into()),
        }
    }
    Err(ApiError::internal("the retry loop ended without an answer"))
}

/// Writes the header `change` makes of the game (with a value for the answer), retrying on
/// lost races when no version is expected. When the change takes the last open seat, the
/// game starts: the AI seats to move first move in the same write, and the lobby lets it go.
async fn change_seats<T>(
    state: &AppState,
    id: &str,
    expected: Option<Version>,
    change: impl Fn(&Loaded) -> Result<(Header, T), ApiError>,
) -> Result<(Version, GameView, T), ApiError> {
    for attempt in 1..=ATTEMPTS {
        let loaded = load(state, id).await?;
        check_expected(&loaded, expected)?;
        let (header, value) = change(&loaded)?;
        let started = loaded.header.is_waiting() && !header.is_waiting();
        let mut game = Arc::unwrap_or_clone(Arc::clone(&loaded.game));
        let mut played = Vec::new();
        if started {
            ai::run_ai_seats(state, id, &header, &mut game, &mut played).await?;
        }
        let logged = Logged::of(&loaded.game);
        match play::save(
            state,
            id,
            loaded.version,
            Arc::new(header),
            game,
            logged,
            played,
        )
        .await
        {
            Ok((version, outcome)) => {
                if started && loaded.header.public {
                    lobby::unlist(state, id, &loaded.header, &loaded.game).await;
                }
                return Ok((version, outcome.game, value));
            }
            Err(ApiError::VersionMismatch { .. }) if expected.is_none() && attempt < ATTEMPTS => {}
            Err(err) => return Err(err),
        }
    }
    Err(ApiError::internal("the retry loop ended without an answer"))
}

/// Checks the expected version, when the client gave one.
fn check_expected(loaded: &Loaded, expected: Option<Version>) -> Result<(), ApiError> {
    match expected {
        Some(expected) if expected != loaded.version => Err(ApiError::VersionMismatch {
            current: loaded.version,
        }),
        _ => Ok(()),
    }
}

fn is_waiting(loaded: &Loaded) -> bool {
    loaded.header.is_waiting() && !loaded.game.is_over()
}

/// The index of seat `seat` of a game that waits for players.
///
/// # Errors
/// 409 `game_not_waiting`, 400 for a seat the game does not have.
fn waiting_seat(loaded: &Loaded, seat: u8) -> Result<usize, ApiError> {
    if !is_waiting(loaded) {
        return Err(ApiError::GameNotWaiting);
    }
    let seats = loaded.header.seats.len();
    let index = usize::from(seat);
    if index >= seats {
        return Err(ApiError::BadRequest(format!(
            "seat {seat} is not a seat of this game (seats 0 to {}).",
            seats - 1
        )));
    }
    Ok(index)
}

/// Opens seat `index` again with a new invitation code, which it returns; the seat's token
/// stops working.
fn reopen(header: &mut Header, index: usize) -> String {
    let code = SecretToken::generate();
    let mut open = StoredSeat::new(default_name(index), PlayedBy::Open, None);
    open.invitation = Some(code.hash());
    header.seats[index] = open;
    // Nobody learns this token: whoever joins next gets a new one.
    header.seat_tokens[index] = SecretToken::generate().hash();
    code.expose_secret().to_owned()
}

fn moves_played(loaded: &Loaded) -> u32 {
    u32::try_from(loaded.game.record().len()).unwrap_or(u32::MAX)
}
