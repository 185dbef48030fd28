//! Change notifications: which game moved on to which version, fanned out to the watchers of
//! this instance.
//!
//! Every successful write is announced: the memory store announces its own writes, the Redis
//! store publishes each one on a pub/sub channel from inside the write's Lua script, and every
//! instance subscribed to that channel announces what it hears. A watcher holds a
//! [`Watch`] on one game: a `tokio::sync::watch` channel carrying the newest version heard of,
//! so a watcher that falls behind simply sees the newest version and memory never grows with
//! slow watchers. A notification only says "look again": readers always read the game from the
//! store, so a notification lost (say, while the connection to Redis was down) delays an
//! update but never loses one, and [`Changes::wake_all`] makes every watcher look again after
//! such a gap.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};

use tokio::sync::{mpsc, watch};

use super::Version;

/// The watchers of this instance, by game id; cheap to clone (clones share the watchers).
#[derive(Clone, Debug, Default)]
pub struct Changes {
    shared: Arc<Shared>,
}

#[derive(Debug, Default)]
struct Shared {
    watchers: Mutex<HashMap<String, watch::Sender<Version>>>,
    /// Told when a game gets its first watcher and when it loses its last, for a feed that
    /// subscribes per game (Redis Cluster's sharded channels).
    interest: Option<mpsc::UnboundedSender<Interest>>,
}

/// A game's watchers came or went (see [`Changes::with_interest`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Interest {
    /// The game has its first watcher.
    Watched(String),
    /// The game has no watcher left.
    Unwatched(String),
}

impl Changes {
    /// No watchers yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// No watchers yet; the receiver hears which games are watched and when they no longer
    /// are, in order.
    pub(super) fn with_interest() -> (Self, mpsc::UnboundedReceiver<Interest>) {
        let (sender, receiver) = mpsc::unbounded_channel();
        let changes = Self {
            shared: Arc::new(Shared {
                watchers: Mutex::default(),
                interest: Some(sender),
            }),
        };
        (changes, receiver)
    }

    /// Wakes the watchers of game `id`, to read it again (as [`wake_all`](Self::wake_all)
    /// does for every game).
    pub fn wake(&self, id: &str) {
        if let Some(sender) = self.lock().get(id) {
            sender.send_modify(|known| *known = 0);
        }
    }

    /// Whether game `id` has watchers on this instance.
    pub(super) fn is_watched(&self, id: &str) -> bool {
        self.lock().contains_key(id)
    }

    /// The games watched now.
    pub(super) fn watched(&self) -> Vec<String> {
        self.lock().keys().cloned().collect()
    }

    /// Announces that game `id` is now at `version`: its watchers wake unless this version is
    /// the last one announced (a repeated notification). Any other version wakes them, even a
    /// lower one: a game that expired and was created again counts from 1. Games nobody
    /// watches cost one map lookup.
    pub fn publish(&self, id: &str, version: Version) {
        if let Some(sender) = self.lock().get(id) {
            sender.send_if_modified(|known| {
                let news = version != *known;
                if news {
                    *known = version;
                }
                news
            });
        }
    }

    /// Wakes every watcher, to read its game again: after a gap in the notifications. The
    /// versions heard of are forgotten (0), so that any version announced next is news.
    pub fn wake_all(&self) {
        for sender in self.lock().values() {
            sender.send_modify(|known| *known = 0);
        }
    }

    /// Starts watching game `id`; [`Watch::changed`] returns when another version than the
    /// one last seen is announced.
    pub fn watch(&self, id: &str) -> Watch {
        let mut watchers = self.lock();
        let receiver = match watchers.get(id) {
            Some(sender) => sender.subscribe(),
            None => {
                let (sender, receiver) = watch::channel(0);
                watchers.insert(id.to_owned(), sender);
                if let Some(interest) = &self.shared.interest {
                    // Sent under the lock, so that it is ordered with the `Unwatched` of drop.
                    let _ = interest.send(Interest::Watched(id.to_owned()));
                }
                receiver
            }
        };
        Watch {
            id: id.to_owned(),
            receiver,
            shared: Arc::downgrade(&self.shared),
        }
    }

    /// How many games are watched on this instance.
    pub fn watched_games(&self) -> usize {
        self.lock().len()
    }

    pub(super) fn downgrade(&self) -> WeakChanges {
        WeakChanges(Arc::downgrade(&self.shared))
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, watch::Sender<Version>>> {
        lock(&self.shared.watchers)
    }
}

/// A handle on [`Changes`] that does not keep them alive: held by the task that feeds them
/// from Redis, which ends when the store is gone.
#[derive(Clone, Debug)]
pub(super) struct WeakChanges(Weak<Shared>);

impl WeakChanges {
    /// The changes, unless every store holding them was dropped.
    pub(super) fn upgrade(&self) -> Option<Changes> {
        self.0.upgrade().map(|shared| Changes { shared })
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // Every critical section leaves the map consistent: keep serving it after a panic.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// One watcher of one game. Dropping the last watcher of a game forgets the game.
#[derive(Debug)]
pub struct Watch {
    id: String,
    receiver: watch::Receiver<Version>,
    shared: Weak<Shared>,
}

impl Watch {
    /// Waits for news of the game: another version, or a call of [`Changes::wake_all`].
    /// Returns at once when news came since the last call (or since the watch started).
    pub async fn changed(&mut self) {
        if self.receiver.changed().await.is_err() {
            // The sender is gone only when the changes were dropped; then nothing will ever
            // be announced again.
            std::future::pending::<()>().await;
        }
    }

    /// The version announced last (0 before the first, and after a gap).
    pub fn latest(&self) -> Version {
        *self.receiver.borrow()
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let Some(shared) = self.shared.upgrade() else {
            return;
        };
        let mut watchers = lock(&shared.watchers);
        // This watcher's receiver is still alive here: it is the last when the count is one.
        if watchers
            .get(&self.id)
            .is_some_and(|sender| sender.receiver_count() <= 1)
        {
            watchers.remove(&self.id);
            if let Some(interest) = &shared.interest {
                let _ = interest.send(Interest::Unwatched(self.id.clone()));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    async fn wakes(watch: &mut Watch) -> bool {
        tokio::time::timeout(Duration::from_millis(50), watch.changed())
            .await
            .is_ok()
    }

    #[tokio::test]
    async fn watchers_hear_of_new_versions_of_their_game_only() {
        let changes = Changes::new();
        let mut a = changes.watch("a");
        let mut b = changes.watch("b");
        changes.publish("a", 2);
        assert!(wakes(&mut a).await);
        assert_eq!(a.latest(), 2);
        assert!(!wakes(&mut b).await, "b did not change");
        // The same version again is no news.
        changes.publish("a", 2);
        assert!(!wakes(&mut a).await);
        // A watcher that missed several versions sees the newest one once.
        changes.publish("a", 3);
        changes.publish("a", 4);
        assert!(wakes(&mut a).await);
        assert_eq!(a.latest(), 4);
        assert!(!wakes(&mut a).await);
        changes.wake_all();
        assert!(wakes(&mut a).await && wakes(&mut b).await);
    }

    #[tokio::test]
    async fn the_last_watcher_of_a_game_forgets_it() {
        let changes = Changes::new();
        let first = changes.watch("a");
        let mut second = changes.watch("a");
        assert_eq!(changes.watched_games(), 1);
        drop(first);
        assert_eq!(changes.watched_games(), 1);
        changes.publish("a", 5);
        assert!(wakes(&mut second).await);
        drop(second);
        assert_eq!(changes.watched_games(), 0);
        // Unwatched games cost nothing and wake nobody.
        changes.publish("a", 6);
        assert_eq!(changes.watched_games(), 0);
    }
}
