//! What every request handler shares.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{watch, Semaphore};

use crate::events::Feeds;

use crate::config::{Config, CorsOrigins};
use crate::games::searches::Searches;
use crate::games::variants::VariantCache;
use crate::games::RestoredGames;
use crate::limits::Limiter;
use crate::store::Store;

/// Shared state of the application, registered as `web::Data<AppState>`.
#[derive(Clone, Debug)]
pub struct AppState {
    /// The game store.
    pub store: Store,
    /// Largest accepted request body, in bytes.
    pub max_body_bytes: usize,
    /// Cap on the time budget a client may ask of the AI.
    pub ai_max_time: Duration,
    /// Slots for AI searches: one per core, so searches never crowd out request handling.
    pub ai_slots: Arc<Semaphore>,
    /// Slots for long AI searches (see [`crate::games::LONG_SEARCH`]): one fewer than the
    /// cores (at least one), so long searches never hold every slot while short ones wait.
    pub ai_long_slots: Arc<Semaphore>,
    /// Validated variants shared by the games with the same setup.
    pub variants: Arc<VariantCache>,
    /// Restored games of this instance, each with the version it was restored from; reads
    /// still ask the store whether that version is current.
    pub games: Arc<RestoredGames>,
    /// The origins whose web pages may call the API.
    pub cors_origins: CorsOrigins,
    /// The feeds of the games that have open event streams on this instance.
    pub feeds: Feeds,
    /// Places for open event streams: one per stream, up to the configured cap.
    pub streams: Arc<Semaphore>,
    /// How often an idle event stream sends a comment line.
    pub stream_heartbeat: Duration,
    /// The per-client rate limits.
    pub limits: Arc<Limiter>,
    /// The AI searches running or just finished, shared by identical requests.
    pub searches: Arc<Searches>,
    /// Raised when the instance shuts down: open event streams end with a retry hint.
    pub shutdown: Shutdown,
}

/// The instance's shutdown signal, raised once (on SIGTERM); cheap to clone.
#[derive(Clone, Debug)]
pub struct Shutdown(Arc<watch::Sender<bool>>);

impl Default for Shutdown {
    fn default() -> Self {
        Self(Arc::new(watch::Sender::new(false)))
    }
}

impl Shutdown {
    /// Raises the signal: every receiver wakes and sees `true`.
    pub fn begin(&self) {
        self.0.send_replace(true);
    }

    /// Whether the signal was raised.
    pub fn has_begun(&self) -> bool {
        *self.0.borrow()
    }

    /// A receiver that wakes when the signal is raised.
    pub fn subscribe(&self) -> watch::Receiver<bool> {
        self.0.subscribe()
    }
}

impl AppState {
    /// The state for `store` with the limits of `config`.
    pub fn new(store: Store, config: &Config) -> Self {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        Self::with_ai_slots(store, config, cores)
    }

    /// The state for `store` with the limits of `config` and `slots` concurrent AI searches
    /// (at least one).
    pub fn with_ai_slots(store: Store, config: &Config, slots: usize) -> Self {
        let slots = slots.max(1);
        Self {
            limits: Arc::new(Limiter::new(&config.limits, &store)),
            searches: Arc::new(Searches::default()),
            store,
            max_body_bytes: config.max_body_bytes,
            ai_max_time: config.ai_max_time,
            ai_slots: Arc::new(Semaphore::new(slots)),
            ai_long_slots: Arc::new(Semaphore::new((slots - 1).max(1))),
            variants: Arc::new(VariantCache::default()),
            games: Arc::new(RestoredGames::new(config.game_cache)),
            cors_origins: config.cors_origins.clone(),
            feeds: Feeds::new(),
            streams: Arc::new(Semaphore::new(config.max_streams)),
            stream_heartbeat: config.stream_heartbeat,
            shutdown: Shutdown::default(),
        }
    }
}
