//! The feeds of this instance: one per game that has open streams here. A feed watches the
//! store's change notifications for its game, reads the game once per change, and hands the
//! restored game to every stream of it, so a thousand listeners of one game cost one read per
//! move. Streams hold a `tokio::sync::watch` receiver: a stream that falls behind skips to the
//! newest game and builds the events it missed from the record, so nothing is lost and nothing
//! is buffered per listener.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use tokio::sync::watch;

use crate::error::ApiError;
use crate::games::{self, Loaded};
use crate::state::AppState;

/// How often a feed reads its game even without a notification: the safety net for a
/// notification lost while the connection to Redis was down.
pub const RECHECK_EVERY: Duration = Duration::from_secs(5);

/// What the streams of a game see.
#[derive(Clone, Debug)]
pub enum FeedState {
    /// The game as last read.
    Game(Loaded),
    /// The game no longer exists (it expired).
    Gone,
}

type Senders = HashMap<String, Arc<watch::Sender<FeedState>>>;

/// The feeds of this instance, by game id; cheap to clone.
#[derive(Clone, Debug, Default)]
pub struct Feeds {
    feeds: Arc<Mutex<Senders>>,
}

impl Feeds {
    /// No feeds yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Follows game `id`, which the caller just read as `loaded`: the receiver sees every newer
    /// version. Starts the game's feed when it has none on this instance yet; the feed stops
    /// when its last receiver is dropped.
    pub fn follow(&self, state: &AppState, id: &str, loaded: Loaded) -> watch::Receiver<FeedState> {
        let mut feeds = self.lock();
        if let Some(sender) = feeds.get(id) {
            return sender.subscribe();
        }
        let (sender, receiver) = watch::channel(FeedState::Game(loaded));
        let sender = Arc::new(sender);
        feeds.insert(id.to_owned(), Arc::clone(&sender));
        tokio::spawn(run(state.clone(), self.clone(), id.to_owned(), sender));
        receiver
    }

    /// How many games have a feed on this instance.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no game has a feed on this instance.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Forgets the feed of `id` if nobody follows it; whether it did.
    fn retire(&self, id: &str, sender: &Arc<watch::Sender<FeedState>>) -> bool {
        let mut feeds = self.lock();
        if sender.receiver_count() > 0 {
            return false;
        }
        if feeds.get(id).is_some_and(|s| Arc::ptr_eq(s, sender)) {
            feeds.remove(id);
        }
        true
    }

    fn lock(&self) -> MutexGuard<'_, Senders> {
        // Every critical section leaves the map consistent: keep serving it after a panic.
        self.feeds.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The feed of one game: reads the game whenever the store announces a change (and every
/// [`RECHECK_EVERY`]), and sends each new version to the game's streams.
async fn run(state: AppState, feeds: Feeds, id: String, sender: Arc<watch::Sender<FeedState>>) {
    let mut changes = state.store.changes().watch(&id);
    let mut recheck = tokio::time::interval(RECHECK_EVERY);
    recheck.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // The first tick is immediate: a write between the caller's read and the start of the
    // watch is not missed.
    loop {
        tokio::select! {
            () = sender.closed() => {
                if feeds.retire(&id, &sender) {
                    return;
                }
                continue;
            }
            () = changes.changed() => {}
            _ = recheck.tick() => {}
        }
        match games::load(&state, &id).await {
            Ok(loaded) => {
                sender.send_if_modified(|current| match current {
                    FeedState::Game(old) if old.version == loaded.version => false,
                    _ => {
                        *current = FeedState::Game(loaded);
                        true
                    }
                });
            }
            Err(ApiError::GameNotFound) => {
                sender.send_replace(FeedState::Gone);
            }
            Err(err) => {
                // The store is down or the document unreadable: the streams keep what they
                // have, and the next notification or recheck tries again.
                tracing::debug!(game = %id, error = %err, "a game feed could not read its game");
            }
        }
    }
}
