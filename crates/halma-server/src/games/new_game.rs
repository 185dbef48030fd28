//! New games: from a client's setup, position or record ([`create`]; where the game starts is
//! read in `start`) or as a rematch of a game ([`rematch`]), each with fresh secret tokens,
//! and an invitation code per open seat.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use halma_rules::{notation, Game, GameSetup};
use rand::RngCore as _;

use super::document::{Handover, Header, Logged, PlayedBy, StoredSeat, Write};
use super::{
    ai, authorize_host, load, remember, start, views, Loaded, DEFAULT_AI_MS, DEFAULT_LEVEL,
};
use crate::api::{CreateGameRequest, CreatedGame, GameTokens, Invitation, SeatKind};
use crate::error::ApiError;
use crate::problem::ProblemReason;
use crate::state::AppState;
use crate::store::Version;
use crate::token::SecretToken;

/// Longest accepted seat name, in characters.
pub(super) const MAX_NAME_CHARS: usize = 64;

/// Creates a game; AI seats that are to move first move at once, unless the game waits for
/// players to join its open seats.
///
/// # Errors
/// 422 `invalid_setup` with the reason (`seats` for bad seat lists), 400 for a bad AI time,
/// 503 when the store is down.
pub async fn create(
    state: &AppState,
    req: &CreateGameRequest,
) -> Result<(String, Version, CreatedGame), ApiError> {
    if let Some(started) = start::requested(state, req)? {
        let players = started.game.variant().players();
        let seats = start::seats_of(req, &started, seat_list(req, players)?)?;
        let new = NewGame {
            ai_time_ms: ai_time_ms(req)?,
            public: public(req, &seats)?,
            seats,
            rematch_of: None,
            start_position: Some(started.start_position),
            handovers: started.handovers,
        };
        return insert(state, started.game, new).await;
    }
    let (board, players) = start::initial_setup(req)?;
    let setup = GameSetup {
        board,
        players,
        options: req.options.clone(),
    };
    let variant = state.variants.get(&setup)?;
    let seats = seat_list(req, players)?;
    let first = match req.first_seat {
        Some(s) => variant
            .seat(usize::from(s))
            .ok_or_else(|| ApiError::InvalidSetup {
                reason: ProblemReason::FirstSeat,
                detail: format!(
                    "first_seat {s} is not a seat: seats are numbered 0 to {}.",
                    players - 1
                ),
            })?,
        None => variant
            .seat(rand::rng().next_u32() as usize % usize::from(players))
            .ok_or_else(|| ApiError::internal("no seat"))?,
    };
    let new = NewGame {
        ai_time_ms: ai_time_ms(req)?,
        public: public(req, &seats)?,
        seats,
        rematch_of: None,
        start_position: None,
        handovers: Vec::new(),
    };
    insert(state, Game::new(variant, first), new).await
}

/// The AI seats' thinking time a new game asks for.
///
/// # Errors
/// 400 for 0 ms.
fn ai_time_ms(req: &CreateGameRequest) -> Result<u32, ApiError> {
    let ai_time_ms = req.ai_time_ms.unwrap_or(DEFAULT_AI_MS);
    if ai_time_ms == 0 {
        return Err(ApiError::BadRequest(
            "ai_time_ms must be at least 1.".into(),
        ));
    }
    Ok(ai_time_ms)
}

/// Whether the new game is public.
///
/// # Errors
/// 422 `invalid_setup` (`seats`) for a public game without an open seat.
fn public(req: &CreateGameRequest, seats: &[StoredSeat]) -> Result<bool, ApiError> {
    if req.public && !seats.iter().any(|s| s.kind == PlayedBy::Open) {
        return Err(ApiError::InvalidSetup {
            reason: ProblemReason::Seats,
            detail: "a public game needs an open seat: it is listed while it waits for players."
                .into(),
        });
    }
    Ok(req.public)
}

/// What a new game is made of besides its first position.
struct NewGame {
    seats: Vec<StoredSeat>,
    ai_time_ms: u32,
    rematch_of: Option<String>,
    public: bool,
    /// Its start position, for a game that starts from a client's position or an imported
    /// record (it is then left out of the statistics); absent: the game's position when it is
    /// created, the initial setup.
    start_position: Option<String>,
    /// The seats an imported record handed to the AI.
    handovers: Vec<Handover>,
}

/// A rematch: the same setup and seats, the first move passed on to the next seat.
///
/// # Errors
/// 404, 403 (only the host token may), 503.
pub async fn rematch(
    state: &AppState,
    id: &str,
    token: &str,
) -> Result<(String, Version, CreatedGame), ApiError> {
    let Loaded { header, game, .. } = load(state, id).await?;
    authorize_host(&header, token)?;
    let variant = Arc::clone(game.variant());
    let next = (game.first().index() + 1) % variant.players();
    let first = variant
        .seat(usize::from(next))
        .ok_or_else(|| ApiError::internal("no seat"))?;
    let new = NewGame {
        seats: header.seats.clone(),
        ai_time_ms: header.ai_time_ms,
        rematch_of: Some(id.to_owned()),
        public: false,
        start_position: None,
        handovers: Vec::new(),
    };
    insert(state, Game::new(variant, first), new).await
}

/// Stores a new game with fresh tokens (and invitation codes for its open seats) after letting
/// the AI seats that start move; returns its id and version, the game and its secrets. A
/// public game waiting for players is listed in the lobby first, so that it is never stored
/// unlisted (the lobby skips an entry whose game is not stored yet).
async fn insert(
    state: &AppState,
    mut game: Game,
    new: NewGame,
) -> Result<(String, Version, CreatedGame), ApiError> {
    let NewGame {
        mut seats,
        ai_time_ms,
        rematch_of,
        public,
        start_position,
        handovers,
    } = new;
    let started_elsewhere = start_position.is_some();
    let host = SecretToken::generate();
    let mut seat_tokens = Vec::with_capacity(seats.len());
    let mut shown_tokens = Vec::with_capacity(seats.len());
    let mut invitations = Vec::new();
    for (i, seat) in seats.iter_mut().enumerate() {
        let token = SecretToken::generate();
        seat_tokens.push(token.hash());
        if seat.kind == PlayedBy::Open {
            // Nobody learns this token: whoever joins gets a new one.
            shown_tokens.push(None);
            let code = SecretToken::generate();
            seat.invitation = Some(code.hash());
            invitations.push(Invitation {
                seat: i as u8,
                code: code.expose_secret().to_owned(),
            });
        } else {
            shown_tokens.push(Some(token.expose_secret().to_owned()));
        }
    }
    let mut header = Header {
        created_at: now_secs(),
        seats,
        host_token: host.hash(),
        seat_tokens,
        ai_time_ms,
        start_position: start_position
            .unwrap_or_else(|| notation::format_position(game.variant(), game.position())),
        rematch_of,
        changes_by_version: Vec::new(),
        handovers,
        public,
        seat_changes: Vec::new(),
        started_elsewhere,
        in_log: true,
    };
    let id = new_id();
    let mut played = Vec::new();
    if !header.is_waiting() {
        ai::run_ai_seats(state, &id, &header, &mut game, &mut played).await?;
    }
    header.note_write(header.changes(&game));
    let write = Write::of(&header, &game, Logged::NOTHING, 1).map_err(ApiError::internal)?;
    if header.public && header.is_waiting() {
        super::lobby::list(state, &id, &header, &game).await?;
    }
    let version = state
        .store
        .create(&id, &write.head, write.first_entry(), header.lifetime())
        .await?;
    metrics::counter!(crate::observability::GAMES_CREATED).increment(1);
    let view = views::game_view(&id, version, &header, &game);
    remember(state, &id, version, Arc::new(header), game);
    let tokens = GameTokens {
        host: host.expose_secret().to_owned(),
        seats: shown_tokens,
    };
    Ok((
        id,
        version,
        CreatedGame {
            game: view,
            tokens,
            invitations,
        },
    ))
}

fn new_id() -> String {
    let mut bytes = [0u8; 16];
    rand::rng().fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// Seconds since the Unix epoch.
pub(super) fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// The seats of a new game, checked: one per player (or none given: all human), levels only
/// for AI seats, names of 1 to [`MAX_NAME_CHARS`] characters.
fn seat_list(req: &CreateGameRequest, players: u8) -> Result<Vec<StoredSeat>, ApiError> {
    let players = usize::from(players);
    let invalid = |detail: String| ApiError::InvalidSetup {
        reason: ProblemReason::Seats,
        detail,
    };
    if !req.seats.is_empty() && req.seats.len() != players {
        return Err(invalid(format!(
            "{} seats given for {players} players: give one per player, or none.",
            req.seats.len()
        )));
    }
    (0..players)
        .map(|i| {
            let s = req.seats.get(i).cloned().unwrap_or_default();
            let (kind, level) = match (s.kind, s.level) {
                (SeatKind::Human, Some(_)) => {
                    return Err(invalid(format!(
                        "seat {i} is human: a level is only for AI seats."
                    )))
                }
                (SeatKind::Human, None) => (PlayedBy::Human, None),
                (SeatKind::Open, Some(_)) => {
                    return Err(invalid(format!(
                        "seat {i} is open: a level is only for AI seats."
                    )))
                }
                (SeatKind::Open, None) => {
                    if s.name.is_some() {
                        return Err(invalid(format!(
                            "seat {i} is open: its player gives a name on joining."
                        )));
                    }
                    (PlayedBy::Open, None)
                }
                (SeatKind::Ai, l) => {
                    let l = l.unwrap_or(DEFAULT_LEVEL);
                    if !(1..=halma_ai::MAX_LEVEL).contains(&l) {
                        return Err(invalid(format!(
                            "seat {i}: level {l} is not from 1 to {}.",
                            halma_ai::MAX_LEVEL
                        )));
                    }
                    (PlayedBy::Ai, Some(l))
                }
            };
            let name = match s.name {
                Some(n) => {
                    checked_name(&n).ok_or_else(|| invalid(format!("seat {i}: {NAME_RULE}")))?
                }
                None => match level {
                    Some(l) => format!("AI level {l}"),
                    None => default_name(i),
                },
            };
            Ok(StoredSeat::new(name, kind, level))
        })
        .collect()
}

/// What a seat name must be, for error messages.
pub(super) const NAME_RULE: &str = "a name has 1 to 64 characters and no control characters.";

/// A player's name as given, trimmed, when it is one: 1 to [`MAX_NAME_CHARS`] characters and
/// no control characters.
pub(super) fn checked_name(name: &str) -> Option<String> {
    let name = name.trim();
    let ok = !name.is_empty()
        && name.chars().count() <= MAX_NAME_CHARS
        && !name.chars().any(char::is_control);
    ok.then(|| name.to_owned())
}

/// The name of seat `i` (from 0) when its player gives none: `Player 1` for seat 0.
pub(super) fn default_name(i: usize) -> String {
    format!("Player {}", i + 1)
}
