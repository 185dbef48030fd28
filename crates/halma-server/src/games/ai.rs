//! The AI seats and suggestions on the instance's search slots: searches run off the async
//! workers, behind the semaphores of [`AppState`], within their time budget.

use std::sync::Arc;
use std::time::{Duration, Instant};

use halma_rules::{Game, MoveInput, Position, Variant};

use super::document::{Header, PlayedBy};
use super::searches::{Answer, Joined, SearchKey, Searched};
use super::{views, DEFAULT_LEVEL};
use crate::api::MoveView;
use crate::error::ApiError;
use crate::observability::{AI_DEPTH, AI_DURATION, AI_FALLBACKS, AI_SEARCHES, AI_SLOT_WAIT};
use crate::state::AppState;

/// Searches with a budget above this are long: they also need one of the long-search slots,
/// so that they never hold every slot (see [`AppState::ai_long_slots`]).
pub const LONG_SEARCH: Duration = Duration::from_millis(500);

/// The level the AI falls back to when no search slot frees in time: the one-ply greedy
/// player, which needs a fraction of a millisecond.
const FALLBACK_LEVEL: u8 = 4;

/// Plays the AI seats while one is to move: at most one move per seat (one round). The moves
/// go to `played`.
pub(super) async fn run_ai_seats(
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
        if stored.kind != PlayedBy::Ai {
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

/// The search seed of a game's position: the same game and ply always search alike.
pub(crate) fn seed_of(id: &str, ply: usize) -> u64 {
    id.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    }) ^ ply as u64
}

/// Runs the AI search off the async workers, behind the semaphores, so that the answer comes
/// within the budget plus a small margin whatever else is running (and after a check that the
/// client has AI time left, see [`crate::limits`]):
/// - time spent waiting for a slot comes out of the budget;
/// - the wait itself is bounded: when no slot frees before the budget is nearly gone, the
///   answer is the one-ply move of level 4 (it reports depth 1), computed without a slot;
/// - searches longer than [`LONG_SEARCH`] also take a long-search slot, so short requests
///   always find a slot that long searches cannot hold.
///
/// Returns the suggestion (none when the seat to move has no move) and the level used.
pub(super) async fn think(
    state: &AppState,
    game: &Game,
    level: u8,
    budget: Duration,
    seed: u64,
) -> Result<Option<(halma_ai::Suggestion, u8)>, ApiError> {
    let search = Search {
        variant: Arc::clone(game.variant()),
        position: *game.position(),
        recent: game.recent_keys().to_vec(),
        level,
        budget,
        seed,
        lines: 1,
    };
    let (mut lines, level) = think_lines(state, search).await?;
    Ok(lines.pop().map(|s| (s, level)))
}

/// One request for the AI: a position of a variant, the keys of the positions before it, the
/// level, the time budget (capped by the caller), the seed and how many of the best moves.
#[derive(Clone, Debug)]
pub(crate) struct Search {
    /// The variant.
    pub variant: Arc<Variant>,
    /// The position.
    pub position: Position,
    /// Keys of the latest positions of the game, oldest first, the current one last.
    pub recent: Vec<u64>,
    /// The level asked for.
    pub level: u8,
    /// The time budget.
    pub budget: Duration,
    /// The seed of the search's random choices.
    pub seed: u64,
    /// How many of the best moves (multi-PV): 1 for a plain suggestion.
    pub lines: usize,
}

/// [`think`] for any position, with `lines` best moves (see `halma_ai::suggest_lines`): the
/// same slots, budget and fallback for every caller, the game routes and the analysis routes.
/// An identical search that is running or just finished answers instead (see
/// [`super::searches`]); only the request that starts a search needs AI time left, and pays
/// for the time the search took.
/// Returns the lines (none when the seat to move has no move) and the level used.
pub(crate) async fn think_lines(
    state: &AppState,
    search: Search,
) -> Result<(Vec<halma_ai::Suggestion>, u8), ApiError> {
    let key = SearchKey {
        // The notation starts with the setup (board, players, options).
        position: halma_rules::notation::format_position(&search.variant, &search.position),
        recent: search.recent.clone(),
        level: search.level,
        budget_us: search.budget.as_micros(),
        seed: search.seed,
        lines: search.lines,
    };
    let answer = match state.searches.find(&key) {
        Some(shared) => shared.await,
        None => {
            crate::limits::check_ai_time().await?;
            let owned = state.clone();
            let joined = state
                .searches
                .join(key.clone(), move || Box::pin(search_now(owned, search)));
            match joined {
                Joined::Shared(shared) => shared.await,
                Joined::Started(started) => {
                    let answer = started.await;
                    match &answer {
                        Ok(searched) if searched.level == key.level => {
                            state.searches.finished(&key);
                        }
                        _ => state.searches.forget(&key),
                    }
                    if let Ok(searched) = &answer {
                        crate::limits::charge_ai_time(searched.took).await;
                    }
                    answer
                }
            }
        }
    };
    let searched = answer.map_err(|why| ApiError::internal(why.to_string()))?;
    Ok((searched.lines.clone(), searched.level))
}

/// Runs one search on the instance's slots (see [`think`]).
async fn search_now(state: AppState, search: Search) -> Answer {
    let Search {
        variant,
        position,
        recent,
        level,
        budget,
        seed,
        lines,
    } = search;
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
        Ok(Err(closed)) => return Err(Arc::from(closed.to_string())),
        Err(_) => {
            metrics::counter!(AI_FALLBACKS).increment(1);
            tracing::warn!(
                budget_ms = budget.as_millis() as u64,
                "every AI slot stayed busy: answering with the one-ply move"
            );
            (None, level.min(FALLBACK_LEVEL))
        }
    };
    metrics::histogram!(AI_SLOT_WAIT).record(started.elapsed().as_secs_f64());
    let remaining = budget
        .saturating_sub(started.elapsed())
        .max(Duration::from_millis(1));
    let limits = halma_ai::SearchLimits {
        level,
        time_budget: remaining,
        seed,
    };
    let searching = Instant::now();
    let result = tokio::task::spawn_blocking(move || {
        let _permits = permits;
        halma_ai::suggest_lines(&variant, &position, &recent, &limits, lines)
    })
    .await
    .map_err(|err| Arc::<str>::from(err.to_string()))?;
    let took = searching.elapsed();
    metrics::counter!(AI_SEARCHES).increment(1);
    metrics::histogram!(AI_DURATION).record(took.as_secs_f64());
    if let Some(depth) = result.iter().map(|s| s.depth).max() {
        metrics::histogram!(AI_DEPTH).record(f64::from(depth));
    }
    Ok(Arc::new(Searched {
        lines: result,
        level,
        // The client pays for the search, not for the wait for a slot.
        took,
    }))
}
