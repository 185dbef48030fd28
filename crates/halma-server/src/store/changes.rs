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

use tokio::sync::watch;

use super::Version;

/// The watchers of this instance, by game id; cheap to clone (clones share the watchers).
#[derive(Clone, Debug, Default)]
pub struct Changes {
    watchers: Arc<Mutex<HashMap<String, watch::Sender<Version>>>>,
}

impl Changes {
    /// No watchers yet.
    pub fn new() -> Self {
        Self::default()
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
                receiver
            }
        };
        Watch {
            id: id.to_owned(),
            receiver,
            watchers: Arc::downgrade(&self.watchers),
        }
    }

    /// How many games are watched on this instance.
    pub fn watched_games(&self) -> usize {
        self.lock().len()
    }

    pub(super) fn downgrade(&self) -> WeakChanges {
        WeakChanges(Arc::downgrade(&self.watchers))
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, watch::Sender<Version>>> {
        lock(&self.watchers)
    }
}

/// A handle on [`Changes`] that does not keep them alive: held by the task that feeds them
/// from Redis, which ends when the store is gone.
#[derive(Clone, Debug)]
pub(super) struct WeakChanges(Weak<Mutex<HashMap<String, watch::Sender<Version>>>>);

impl WeakChanges {
    /// The changes, unless every store holding them was dropped.
    pub(super) fn upgrade(&self) -> Option<Changes> {
        self.0.upgrade().map(|watchers| Changes { watchers })
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
    watchers: Weak<Mutex<HashMap<String, watch::Sender<Version>>>>,
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
        let Some(watchers) = self.watchers.upgrade() else {
            return;
        };
        let mut watchers = lock(&watchers);
        // This watcher's receiver is still alive here: it is the last when the count is one.
        if watchers
            .get(&self.id)
            .is_some_and(|sender| sender.receiver_count() <= 1)
        {
            watchers.remove(&self.id);
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
