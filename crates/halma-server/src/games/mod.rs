//! The game operations behind the routes: create, read, list moves, play (with the AI seats'
//! replies), suggest, rematch. Every write is a compare-and-set on the game's version.
//!
//! Reads go through the instance's [`cache`] of restored games: the store is still asked on
//! every read, with the cached version, and the document comes back (to be parsed and
//! restored) only when the game changed. Writes put the game they stored in the cache.

pub mod cache;
pub mod document;
pub mod variants;
pub mod views;

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use halma_rules::{notation, Game, GameSetup, IllegalMove, MoveInput, Variant};
use rand::RngCore as _;

use crate::api::{
    CreateGameRequest, CreatedGame, GameTokens, MoveOutcome, MoveView, PlayMoveRequest, SeatKind,
    SuggestionQuery, SuggestionView,
};
use crate::error::ApiError;
use crate::state::AppState;
use crate::store::{Lookup, StoreError, StoredGame, Version};
use crate::token::SecretToken;
use document::{Document, Header, StoredSeat};

/// Default AI thinking time per move, in milliseconds.
pub const DEFAULT_AI_MS: u32 = 200;
/// Default AI level.
pub const DEFAULT_LEVEL: u8 = 10;
/// Longest accepted seat name, in characters.
const MAX_NAME_CHARS: usize = 64;

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

fn store_error(e: StoreError) -> ApiError {
    match e {
        StoreError::NotFound => ApiError::GameNotFound,
        StoreError::VersionMismatch { current } => ApiError::VersionMismatch { current },
        StoreError::Corrupt { .. } | StoreError::AlreadyExists => ApiError::internal(e),
        StoreError::Unavailable(_) | StoreError::TimedOut(_) => ApiError::StoreUnavailable(e),
    }
}

fn illegal(e: &IllegalMove) -> ApiError {
    ApiError::IllegalMove {
        reason: e.code().into(),
        detail: format!("{e}."),
    }
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

/// Reads a game: the cached one when the store says it is still current, else the stored one,
/// restored (and then cached).
///
/// # Errors
/// 404 for an unknown game, 503 when the store is down, 500 for a corrupt document.
pub async fn load(state: &AppState, id: &str) -> Result<Loaded, ApiError> {
    check_id(id)?;
    let stored = match state.games.get(id) {
        Some((version, cached)) => match state.store.get_if_changed(id, version).await {
            Ok(Some(Lookup::Unchanged)) => return Ok(cached),
            Ok(Some(Lookup::Changed(stored))) => Some(stored),
            Ok(None) => {
                state.games.remove(id);
                None
            }
            Err(e) => return Err(store_error(e)),
        },
        None => state.store.get(id).await.map_err(store_error)?,
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

/// Creates a game; AI seats that are to move first move at once.
///
/// # Errors
/// 422 `invalid_setup` with the reason, 400 for bad seat lists, 503 when the store is down.
pub async fn create(
    state: &AppState,
    req: &CreateGameRequest,
) -> Result<(String, Version, CreatedGame), ApiError> {
    let setup = GameSetup {
        board: req.board.into(),
        players: req.players,
        options: (&req.options).into(),
    };
    let variant = state.variants.get(&setup).map_err(|e| {
        let reason = match &e {
            halma_rules::SetupError::Players { .. } => "players",
            halma_rules::SetupError::Option(_) => "option",
        };
        ApiError::InvalidSetup {
            reason: reason.into(),
            detail: format!("{e}."),
        }
    })?;
    let seats = seat_list(req)?;
    let first = match req.first_seat {
        Some(s) => variant
            .seat(usize::from(s))
            .ok_or_else(|| ApiError::InvalidSetup {
                reason: "first_seat".into(),
                detail: format!(
                    "first_seat {s} is not a seat: seats are numbered 0 to {}.",
                    req.players - 1
                ),
            })?,
        None => variant
            .seat(rand::rng().next_u32() as usize % usize::from(req.players))
            .ok_or_else(|| ApiError::internal("no seat"))?,
    };
    let ai_time_ms = req.ai_time_ms.unwrap_or(DEFAULT_AI_MS);
    if ai_time_ms == 0 {
        return Err(ApiError::BadRequest(
            "ai_time_ms must be at least 1.".into(),
        ));
    }
    let game = Game::new(Arc::clone(&variant), first);
    let tokens = GameTokens {
        host: SecretToken::generate().expose_secret().to_owned(),
        seats: (0..req.players)
            .map(|_| SecretToken::generate().expose_secret().to_owned())
            .collect(),
    };
    let header = Header {
        created_at: now_secs(),
        seats,
        host_token: crate::token::TokenHash::of(&tokens.host),
        seat_tokens: tokens
            .seats
            .iter()
            .map(|t| crate::token::TokenHash::of(t))
            .collect(),
        ai_time_ms,
        start_position: notation::format_position(&variant, game.position()),
        rematch_of: None,
    };
    insert(state, header, game, tokens).await
}

/// Stores a new game after letting the AI seats that start move; returns it with its tokens.
async fn insert(
    state: &AppState,
    header: Header,
    mut game: Game,
    tokens: GameTokens,
) -> Result<(String, Version, CreatedGame), ApiError> {
    let id = new_id();
    let mut played = Vec::new();
    run_ai_seats(state, &id, &header, &mut game, &mut played).await?;
    let json = Document::new(&header, game.snapshot())
        .to_json()
        .map_err(ApiError::internal)?;
    let version = state.store.create(&id, &json).await.map_err(store_error)?;
    let view = views::game_view(&id, version, &header, &game);
    remember(state, &id, version, Arc::new(header), game);
    Ok((id, version, CreatedGame { game: view, tokens }))
}

fn seat_list(req: &CreateGameRequest) -> Result<Vec<StoredSeat>, ApiError> {
    let players = usize::from(req.players);
    if !req.seats.is_empty() && req.seats.len() != players {
        return Err(ApiError::InvalidSetup {
            reason: "seats".into(),
            detail: format!(
                "{} seats given for {players} players: give one per player, or none.",
                req.seats.len()
            ),
        });
    }
    (0..players)
        .map(|i| {
            let s = req.seats.get(i).cloned().unwrap_or_default();
            let level = match (s.kind, s.level) {
                (SeatKind::Human, Some(_)) => {
                    return Err(ApiError::InvalidSetup {
                        reason: "seats".into(),
                        detail: format!("seat {i} is human: a level is only for AI seats."),
                    })
                }
                (SeatKind::Human, None) => None,
                (SeatKind::Ai, l) => {
                    let l = l.unwrap_or(DEFAULT_LEVEL);
                    if !(1..=halma_ai::MAX_LEVEL).contains(&l) {
                        return Err(ApiError::InvalidSetup {
                            reason: "seats".into(),
                            detail: format!("seat {i}: level {l} is not from 1 to {}.", halma_ai::MAX_LEVEL),
                        });
                    }
                    Some(l)
                }
            };
            let name = match s.name {
                Some(n) if n.trim().is_empty() || n.chars().count() > MAX_NAME_CHARS || n.chars().any(char::is_control) => {
                    return Err(ApiError::InvalidSetup {
                        reason: "seats".into(),
                        detail: format!("seat {i}: a name has 1 to {MAX_NAME_CHARS} characters and no control characters."),
                    })
                }
                Some(n) => n.trim().to_owned(),
                None => match level {
                    Some(l) => format!("AI level {l}"),
                    None => format!("Player {}", i + 1),
                },
            };
            Ok(StoredSeat { name, kind: s.kind, level })
        })
        .collect()
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

/// Reads the move of a request.
///
/// # Errors
/// 400 `bad_request` when the body does not give exactly one form, `bad_notation` for cell
/// names that are not on the board.
pub fn move_input(variant: &Variant, req: &PlayMoveRequest) -> Result<MoveInput, ApiError> {
    let board = variant.board();
    let cell = |name: &str| {
        board
            .parse_cell(name.trim())
            .map_err(|e| ApiError::BadNotation(format!("{e}.")))
    };
    match (&req.path, &req.from, &req.to, &req.notation) {
        (Some(path), None, None, None) => {
            if path.len() < 2 {
                return Err(ApiError::BadRequest(
                    "a path needs at least a start and an end cell.".into(),
                ));
            }
            Ok(MoveInput::Path(
                path.iter().map(|c| cell(c)).collect::<Result<_, _>>()?,
            ))
        }
        (None, Some(from), Some(to), None) => Ok(MoveInput::FromTo(cell(from)?, cell(to)?)),
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
    let Loaded {
        version,
        header,
        game,
    } = load(state, id).await?;
    let actor = authorize(&header, token)?;
    if version != expected {
        return Err(ApiError::VersionMismatch { current: version });
    }
    let input = move_input(game.variant(), req)?;
    let Some(to_move) = game.to_move() else {
        return Err(illegal(&IllegalMove::GameOver));
    };
    if let Actor::Seat(s) = actor {
        if s != to_move.index() {
            return Err(ApiError::IllegalMove {
                reason: "not_your_turn".into(),
                detail: format!("it is seat {}'s turn, not seat {s}'s.", to_move.index()),
            });
        }
    }
    let mut game = Arc::unwrap_or_clone(game);
    let board = game.variant().board();
    let played_move = game.play(&input).map_err(|e| illegal(&e))?.clone();
    let mut played = vec![views::move_view(
        board,
        game.record().len() - 1,
        &played_move,
    )];
    run_ai_seats(state, id, &header, &mut game, &mut played).await?;
    save(state, id, expected, header, game, played).await
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
    let Loaded {
        version,
        header,
        game,
    } = load(state, id).await?;
    if authorize(&header, token)? != Actor::Host {
        return Err(ApiError::InvalidToken);
    }
    if version != expected {
        return Err(ApiError::VersionMismatch { current: version });
    }
    let Some(to_move) = game.to_move() else {
        return Err(illegal(&IllegalMove::GameOver));
    };
    if header.seats[usize::from(to_move.index())].kind != SeatKind::Ai {
        return Err(ApiError::IllegalMove {
            reason: "not_ai_turn".into(),
            detail: format!(
                "seat {} is to move and is not played by the AI.",
                to_move.index()
            ),
        });
    }
    let mut game = Arc::unwrap_or_clone(game);
    let mut played = Vec::new();
    run_ai_seats(state, id, &header, &mut game, &mut played).await?;
    save(state, id, expected, header, game, played).await
}

/// Stores `game` over version `expected` and caches it at the new version.
async fn save(
    state: &AppState,
    id: &str,
    expected: Version,
    header: Arc<Header>,
    game: Game,
    played: Vec<MoveView>,
) -> Result<(Version, MoveOutcome), ApiError> {
    let json = Document::new(&header, game.snapshot())
        .to_json()
        .map_err(ApiError::internal)?;
    let version = state
        .store
        .compare_and_set(id, expected, &json)
        .await
        .map_err(store_error)?;
    let view = views::game_view(id, version, &header, &game);
    remember(state, id, version, header, game);
    Ok((version, MoveOutcome { game: view, played }))
}

/// Plays the AI seats while one is to move: at most one move per seat (one round).
async fn run_ai_seats(
    state: &AppState,
    id: &str,
    header: &Header,
    game: &mut Game,
    played: &mut Vec<MoveView>,
) -> Result<(), ApiError> {
    let budget = Duration::from_millis(u64::from(header.ai_time_ms)).min(state.ai_max_time);
    for _ in 0..game.variant().players() {
        let Some(seat) = game.to_move() else { break };
        let stored = &header.seats[usize::from(seat.index())];
        if stored.kind != SeatKind::Ai {
            break;
        }
        let level = stored.level.unwrap_or(DEFAULT_LEVEL);
        let seed = seed_of(id, game.record().len());
        let Some((s, _)) = think(state, game, level, budget, seed).await? else {
            break;
        };
        let board = game.variant().board();
        let m = game
            .play(&MoveInput::FromTo(s.mv.from, s.mv.to))
            .map_err(|e| ApiError::internal(format!("the AI chose an illegal move: {e}")))?
            .clone();
        played.push(views::move_view(board, game.record().len() - 1, &m));
    }
    Ok(())
}

fn seed_of(id: &str, ply: usize) -> u64 {
    id.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    }) ^ ply as u64
}

/// Searches with a budget above this are long: they also need one of the long-search slots,
/// so that they never hold every slot (see [`AppState::ai_long_slots`]).
pub const LONG_SEARCH: Duration = Duration::from_millis(500);

/// The level the AI falls back to when no search slot frees in time: the one-ply greedy
/// player, which needs a fraction of a millisecond.
const FALLBACK_LEVEL: u8 = 4;

/// Runs the AI search off the async workers, behind the semaphores, so that the answer comes
/// within the budget plus a small margin whatever else is running:
/// - time spent waiting for a slot comes out of the budget;
/// - the wait itself is bounded: when no slot frees before the budget is nearly gone, the
///   answer is the one-ply move of level 4 (it reports depth 1), computed without a slot;
/// - searches longer than [`LONG_SEARCH`] also take a long-search slot, so short requests
///   always find a slot that long searches cannot hold.
async fn think(
    state: &AppState,
    game: &Game,
    level: u8,
    budget: Duration,
    seed: u64,
) -> Result<Option<(halma_ai::Suggestion, u8)>, ApiError> {
    let started = Instant::now();
    // Kept back for the fallback and the answer: a tenth of the budget, 2 to 20 ms.
    let reserve = (budget / 10).clamp(Duration::from_millis(2), Duration::from_millis(20));
    let wait = budget.saturating_sub(reserve);
    let long = budget > LONG_SEARCH;
    let slots = async {
        let long_permit = if long {
            Some(Arc::clone(&state.ai_long_slots).acquire_owned().await?)
        } else {
            None
        };
        let permit = Arc::clone(&state.ai_slots).acquire_owned().await?;
        Ok::<_, tokio::sync::AcquireError>((permit, long_permit))
    };
    let (permits, level) = match tokio::time::timeout(wait, slots).await {
        Ok(Ok(permits)) => (Some(permits), level),
        Ok(Err(closed)) => return Err(ApiError::internal(closed)),
        Err(_) => {
            tracing::warn!(
                budget_ms = budget.as_millis() as u64,
                "every AI slot stayed busy: answering with the one-ply move"
            );
            (None, level.min(FALLBACK_LEVEL))
        }
    };
    let remaining = budget
        .saturating_sub(started.elapsed())
        .max(Duration::from_millis(1));
    let variant = Arc::clone(game.variant());
    let pos = *game.position();
    let recent = game.recent_keys().to_vec();
    let limits = halma_ai::SearchLimits {
        level,
        time_budget: remaining,
        seed,
    };
    let result = tokio::task::spawn_blocking(move || {
        let _permits = permits;
        halma_ai::suggest(&variant, &pos, &recent, &limits)
    })
    .await
    .map_err(ApiError::internal)?;
    Ok(result.map(|s| (s, level)))
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
    let Loaded { version, game, .. } = load(state, id).await?;
    let Some(seat) = game.to_move() else {
        return Err(illegal(&IllegalMove::GameOver));
    };
    let s = think(
        state,
        &game,
        level,
        budget,
        seed_of(id, game.record().len()),
    )
    .await?
    .ok_or_else(|| ApiError::internal("no suggestion for a seat that can move"))?;
    let (s, level) = s;
    let variant = game.variant();
    let board = variant.board();
    let path = variant
        .witness_path(game.position(), s.mv)
        .ok_or_else(|| ApiError::internal("the AI chose an illegal move"))?;
    Ok((
        version,
        SuggestionView {
            version,
            seat: seat.index(),
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
            elapsed_ms: u64::try_from(s.elapsed.as_millis()).unwrap_or(u64::MAX),
            level,
            time_budget_ms: u32::try_from(budget.as_millis()).unwrap_or(u32::MAX),
        },
    ))
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
    if authorize(&header, token)? != Actor::Host {
        return Err(ApiError::InvalidToken);
    }
    let variant = Arc::clone(game.variant());
    let next = (game.first().index() + 1) % variant.players();
    let first = variant
        .seat(usize::from(next))
        .ok_or_else(|| ApiError::internal("no seat"))?;
    let new_game = Game::new(Arc::clone(&variant), first);
    let tokens = GameTokens {
        host: SecretToken::generate().expose_secret().to_owned(),
        seats: (0..variant.players())
            .map(|_| SecretToken::generate().expose_secret().to_owned())
            .collect(),
    };
    let new_header = Header {
        created_at: now_secs(),
        seats: header.seats.clone(),
        host_token: crate::token::TokenHash::of(&tokens.host),
        seat_tokens: tokens
            .seats
            .iter()
            .map(|t| crate::token::TokenHash::of(t))
            .collect(),
        ai_time_ms: header.ai_time_ms,
        start_position: notation::format_position(&variant, new_game.position()),
        rematch_of: Some(id.to_owned()),
    };
    insert(state, new_header, new_game, tokens).await
}
