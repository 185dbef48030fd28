//! The embedded in-memory store: one process, nothing kept across restarts.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use super::changes::Changes;
use super::{Lookup, StoreError, StoredGame, Version};

/// Longest time between two sweeps of expired games.
const MAX_SWEEP_INTERVAL: Duration = Duration::from_secs(60);

/// Games in a map behind a mutex; cheap to clone (clones share the map).
///
/// Expiry is checked on every access; expired games are also swept out on writes, at most
/// once per `min(ttl, 60 s)`, so memory does not grow with games nobody reads again.
///
/// Every write is announced to the store's [`Changes`], shared by every clone.
#[derive(Clone, Debug)]
pub struct MemoryStore {
    shared: Arc<Mutex<Games>>,
    ttl: Duration,
    changes: Changes,
}

#[derive(Debug)]
struct Games {
    by_id: HashMap<String, Entry>,
    next_sweep: Instant,
}

#[derive(Debug)]
struct Entry {
    version: Version,
    document: String,
    expires_at: Instant,
}

impl Entry {
    fn is_live(&self, now: Instant) -> bool {
        now < self.expires_at
    }
}

impl MemoryStore {
    /// An empty store whose games expire after `ttl` without writes.
    pub fn new(ttl: Duration) -> Self {
        Self {
            shared: Arc::new(Mutex::new(Games {
                by_id: HashMap::new(),
                next_sweep: Instant::now() + ttl.min(MAX_SWEEP_INTERVAL),
            })),
            ttl,
            changes: Changes::new(),
        }
    }

    /// The watchers of this store's games.
    pub fn changes(&self) -> &Changes {
        &self.changes
    }

    /// The number of games held, expired ones not yet swept included.
    pub fn len(&self) -> usize {
        self.lock().by_id.len()
    }

    /// Whether the store holds no games at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> MutexGuard<'_, Games> {
        // Every critical section leaves the map consistent, so a panic elsewhere while the
        // lock was held does not invalidate the data: keep serving it.
        self.shared.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn sweep_if_due(&self, games: &mut Games, now: Instant) {
        if now >= games.next_sweep {
            games.by_id.retain(|_, entry| entry.is_live(now));
            games.next_sweep = now + self.ttl.min(MAX_SWEEP_INTERVAL);
        }
    }

    pub(super) fn create(&self, id: &str, document: &str) -> Result<Version, StoreError> {
        let now = Instant::now();
        let mut games = self.lock();
        self.sweep_if_due(&mut games, now);
        if games.by_id.get(id).is_some_and(|entry| entry.is_live(now)) {
            return Err(StoreError::AlreadyExists);
        }
        games.by_id.insert(
            id.to_owned(),
            Entry {
                version: 1,
                document: document.to_owned(),
                expires_at: now + self.ttl,
            },
        );
        drop(games);
        self.changes.publish(id, 1);
        Ok(1)
    }

    pub(super) fn get(&self, id: &str) -> Option<StoredGame> {
        self.read(id, |entry| StoredGame {
            version: entry.version,
            document: entry.document.clone(),
        })
    }

    pub(super) fn get_if_changed(&self, id: &str, known: Version) -> Option<Lookup> {
        self.read(id, |entry| {
            if entry.version == known {
                Lookup::Unchanged
            } else {
                Lookup::Changed(StoredGame {
                    version: entry.version,
                    document: entry.document.clone(),
                })
            }
        })
    }

    /// `answer` of the live entry under `id`; an expired one is removed.
    fn read<T>(&self, id: &str, answer: impl FnOnce(&Entry) -> T) -> Option<T> {
        let now = Instant::now();
        let mut games = self.lock();
        match games.by_id.get(id) {
            Some(entry) if entry.is_live(now) => Some(answer(entry)),
            Some(_) => {
                games.by_id.remove(id);
                None
            }
            None => None,
        }
    }

    pub(super) fn compare_and_set(
        &self,
        id: &str,
        expected: Version,
        document: &str,
    ) -> Result<Version, StoreError> {
        let now = Instant::now();
        let mut games = self.lock();
        self.sweep_if_due(&mut games, now);
        let entry = match games.by_id.get_mut(id) {
            Some(entry) if entry.is_live(now) => entry,
            Some(_) => {
                games.by_id.remove(id);
                return Err(StoreError::NotFound);
            }
            None => return Err(StoreError::NotFound),
        };
        if entry.version != expected {
            return Err(StoreError::VersionMismatch {
                current: entry.version,
            });
        }
        entry.version += 1;
        entry.document = document.to_owned();
        entry.expires_at = now + self.ttl;
        let version = entry.version;
        drop(games);
        self.changes.publish(id, version);
        Ok(version)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expired_games_are_swept_on_writes() {
        let store = MemoryStore::new(Duration::from_millis(30));
        for id in ["a", "b", "c"] {
            assert!(store.create(id, "{}").is_ok());
        }
        assert_eq!(store.len(), 3);
        std::thread::sleep(Duration::from_millis(60));
        // Nobody reads a, b or c again; the next write sweeps them.
        assert!(store.create("d", "{}").is_ok());
        assert_eq!(store.len(), 1);
        assert!(!store.is_empty());
    }

    #[test]
    fn an_expired_id_can_be_created_again() {
        let store = MemoryStore::new(Duration::from_millis(20));
        assert!(store.create("a", "old").is_ok());
        assert!(matches!(
            store.create("a", "x"),
            Err(StoreError::AlreadyExists)
        ));
        std::thread::sleep(Duration::from_millis(40));
        assert_eq!(store.create("a", "new").ok(), Some(1));
        assert_eq!(
            store.get("a").map(|game| game.document),
            Some("new".to_owned())
        );
    }
}
