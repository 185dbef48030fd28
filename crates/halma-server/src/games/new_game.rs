//! New games: from a client's setup, position or record ([`create`]; where the game starts is
//! read in `start`) or as a rematch of a game ([`rematch`]), each with fresh secret tokens.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use halma_rules::{notation, Game, GameSetup};
use rand::RngCore as _;

use super::document::{Document, Handover, Header, PlayedBy, StoredSeat};
use super::{
    ai, authorize_host, load, remember, start, views, Loaded, DEFAULT_AI_MS, DEFAULT_LEVEL,
};
use crate::api::{CreateGameRequest, CreatedGame, GameTokens, SeatKind};
use crate::error::ApiError;
use crate::problem::ProblemReason;
use crate::state::AppState;
use crate::store::Version;
use crate::token::{SecretToken, TokenHash};

/// Longest accepted seat name, in characters.
pub(super) const MAX_NAME_CHARS: usize = 64;

/// Creates a game; AI seats that are to move first move at once.
///
/// # Errors
/// 422 `invalid_setup` with the reason, 400 for bad seat lists, 503 when the store is down.
pub async fn create(
    state: &AppState,
    req: &CreateGameRequest,
) -> Result<(String, Version, CreatedGame), ApiError> {
    if let Some(started) = start::requested(state, req)? {
        let players = started.game.variant().players();
        let seats = start::seats_of(req, &started, seat_list(req, players)?)?;
        let history = History {
            start_position: Some(started.start_position),
            handovers: started.handovers,
        };
        let ai_time_ms = ai_time_ms(req)?;
        return insert(state, started.game, seats, ai_time_ms, None, history).await;
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
    let ai_time_ms = ai_time_ms(req)?;
    let game = Game::new(variant, first);
    insert(state, game, seats, ai_time_ms, None, History::default()).await
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

/// What a new game's header keeps of the game's past: its start position (absent: the game's
/// current position, for a game that has not started yet) and the seats handed to the AI.
#[derive(Debug, Default)]
struct History {
    start_position: Option<String>,
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
    let new_game = Game::new(variant, first);
    let seats = header.seats.clone();
    insert(
        state,
        new_game,
        seats,
        header.ai_time_ms,
        Some(id.to_owned()),
        History::default(),
    )
    .await
}

/// Stores a new game with fresh tokens after letting the AI seats that start move; returns
/// its id and version, the game and its tokens.
async fn insert(
    state: &AppState,
    mut game: Game,
    seats: Vec<StoredSeat>,
    ai_time_ms: u32,
    rematch_of: Option<String>,
    history: History,
) -> Result<(String, Version, CreatedGame), ApiError> {
    let tokens = GameTokens {
        host: SecretToken::generate().expose_secret().to_owned(),
        seats: seats
            .iter()
            .map(|_| SecretToken::generate().expose_secret().to_owned())
            .collect(),
    };
    let mut header = Header {
        created_at: now_secs(),
        seats,
        host_token: TokenHash::of(&tokens.host),
        seat_tokens: tokens.seats.iter().map(|t| TokenHash::of(t)).collect(),
        ai_time_ms,
        start_position: history
            .start_position
            .unwrap_or_else(|| notation::format_position(game.variant(), game.position())),
        rematch_of,
        changes_by_version: Vec::new(),
        handovers: history.handovers,
    };
    let id = new_id();
    let mut played = Vec::new();
    ai::run_ai_seats(state, &id, &header, &mut game, &mut played).await?;
    header.note_write(crate::events::changes(&game, &header.handovers));
    let json = Document::new(&header, game.snapshot())
        .to_json()
        .map_err(ApiError::internal)?;
    let version = state.store.create(&id, &json).await?;
    let view = views::game_view(&id, version, &header, &game);
    remember(state, &id, version, Arc::new(header), game);
    Ok((id, version, CreatedGame { game: view, tokens }))
}

fn new_id() -> String {
    let mut bytes = [0u8; 16];
    rand::rng().fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

fn now_secs() -> u64 {
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
                Some(n)
                    if n.trim().is_empty()
                        || n.chars().count() > MAX_NAME_CHARS
                        || n.chars().any(char::is_control) =>
                {
                    return Err(invalid(format!(
                        "seat {i}: a name has 1 to {MAX_NAME_CHARS} characters and no control characters."
                    )))
                }
                Some(n) => n.trim().to_owned(),
                None => match level {
                    Some(l) => format!("AI level {l}"),
                    None => format!("Player {}", i + 1),
                },
            };
            Ok(StoredSeat { name, kind, level })
        })
        .collect()
}
