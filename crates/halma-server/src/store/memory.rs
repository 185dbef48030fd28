//! The embedded in-memory store: one process, nothing kept across restarts.

use std::collections::{BTreeSet, HashMap};
use std::ops::Bound;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use super::changes::Changes;
use super::{Counters, Lifetime, LogWrite, Lookup, StoreError, StoredGame, Version};

/// Longest time between two sweeps of expired games.
const MAX_SWEEP_INTERVAL: Duration = Duration::from_secs(60);

/// Games in a map behind a mutex; cheap to clone (clones share the map).
///
/// Expiry is checked on every access; expired games are also swept out on writes, at most
/// once per `min(ttl, 60 s)`, so memory does not grow with games nobody reads again.
///
/// The store holds at most [`max_games`](Self::with_max_games) games: a creation that finds
/// it full first sweeps the expired ones, then drops the games idle longest (the oldest last
/// write), a hundredth of the cap at once so that the cost of finding them is shared by the
/// creations that follow.
///
/// Every write is announced to the store's [`Changes`], shared by every clone.
#[derive(Clone, Debug)]
pub struct MemoryStore {
    shared: Arc<Mutex<Games>>,
    ttl: Duration,
    waiting_ttl: Duration,
    max_games: usize,
    changes: Changes,
}

#[derive(Debug)]
struct Games {
    by_id: HashMap<String, Entry>,
    next_sweep: Instant,
    /// The lobby indexes by name.
    lobby: HashMap<String, BTreeSet<String>>,
    /// The counter sets by name.
    counters: HashMap<String, HashMap<String, i64>>,
}

#[derive(Debug)]
struct Entry {
    version: Version,
    head: String,
    /// One entry per version, oldest first.
    log: Vec<String>,
    expires_at: Instant,
    /// The last write.
    written_at: Instant,
}

impl Entry {
    fn is_live(&self, now: Instant) -> bool {
        now < self.expires_at
    }

    fn whole(&self) -> StoredGame {
        StoredGame {
            version: self.version,
            head: self.head.clone(),
            log: self.log.clone(),
        }
    }
}

impl MemoryStore {
    /// An empty store whose games expire after `ttl` without writes (games waiting for
    /// players too, unless [`with_waiting_ttl`](Self::with_waiting_ttl) says otherwise).
    pub fn new(ttl: Duration) -> Self {
        Self {
            shared: Arc::new(Mutex::new(Games {
                by_id: HashMap::new(),
                next_sweep: Instant::now() + ttl.min(MAX_SWEEP_INTERVAL),
                lobby: HashMap::new(),
                counters: HashMap::new(),
            })),
            ttl,
            waiting_ttl: ttl,
            max_games: usize::MAX,
            changes: Changes::new(),
        }
    }

    /// The store holding at most `max` games (at least one): the games idle longest make
    /// room for new ones.
    #[must_use]
    pub fn with_max_games(mut self, max: usize) -> Self {
        self.max_games = max.max(1);
        self
    }

    /// Makes room for one more game when the store is full: sweeps the expired games, then
    /// drops the games idle longest. Returns the ids and versions dropped.
    fn make_room(&self, games: &mut Games, now: Instant) -> Vec<(String, Version)> {
        if games.by_id.len() < self.max_games {
            return Vec::new();
        }
        games.by_id.retain(|_, entry| entry.is_live(now));
        let excess = (games.by_id.len() + 1).saturating_sub(self.max_games);
        if excess == 0 {
            return Vec::new();
        }
        let batch = excess.max(self.max_games / 100).min(games.by_id.len());
        let mut idle: Vec<(Instant, &str)> = games
            .by_id
            .iter()
            .map(|(id, entry)| (entry.written_at, id.as_str()))
            .collect();
        if batch < idle.len() {
            idle.select_nth_unstable(batch);
            idle.truncate(batch);
        }
        let dropped: Vec<String> = idle.into_iter().map(|(_, id)| id.to_owned()).collect();
        dropped
            .into_iter()
            .filter_map(|id| games.by_id.remove(&id).map(|e| (id, e.version)))
            .collect()
    }

    /// The store with games waiting for players expiring after `ttl` without writes.
    #[must_use]
    pub fn with_waiting_ttl(mut self, ttl: Duration) -> Self {
        self.waiting_ttl = ttl;
        self
    }

    fn ttl_of(&self, lifetime: Lifetime) -> Duration {
        match lifetime {
            Lifetime::Playing => self.ttl,
            Lifetime::Waiting => self.waiting_ttl,
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
            games.next_sweep = now + self.ttl.min(self.waiting_ttl).min(MAX_SWEEP_INTERVAL);
        }
    }

    pub(super) fn create(
        &self,
        id: &str,
        head: &str,
        entry: &str,
        lifetime: Lifetime,
    ) -> Result<Version, StoreError> {
        let now = Instant::now();
        let mut games = self.lock();
        self.sweep_if_due(&mut games, now);
        if games.by_id.get(id).is_some_and(|entry| entry.is_live(now)) {
            return Err(StoreError::AlreadyExists);
        }
        let dropped = self.make_room(&mut games, now);
        games.by_id.insert(
            id.to_owned(),
            Entry {
                version: 1,
                head: head.to_owned(),
                log: vec![entry.to_owned()],
                expires_at: now + self.ttl_of(lifetime),
                written_at: now,
            },
        );
        drop(games);
        if !dropped.is_empty() {
            tracing::info!(
                dropped = dropped.len(),
                max_games = self.max_games,
                "the embedded store is full: dropped the games idle longest"
            );
        }
        // Watchers of a dropped game wake up and find it gone.
        for (gone, version) in &dropped {
            self.changes.publish(gone, version + 1);
        }
        self.changes.publish(id, 1);
        Ok(1)
    }

    pub(super) fn get(&self, id: &str) -> Option<StoredGame> {
        self.read(id, Entry::whole)
    }

    pub(super) fn get_if_changed(&self, id: &str, known: Version) -> Option<Lookup> {
        self.read(id, |entry| {
            let logged = u64::try_from(entry.log.len()).ok() == Some(entry.version);
            if entry.version == known {
                Lookup::Unchanged
            } else if logged && (1..entry.version).contains(&known) {
                Lookup::Appended {
                    version: entry.version,
                    head: entry.head.clone(),
                    entries: entry.log[usize::try_from(known).unwrap_or(usize::MAX)..].to_vec(),
                }
            } else {
                Lookup::Changed(entry.whole())
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
        head: &str,
        log: LogWrite<'_>,
        lifetime: Lifetime,
    ) -> Result<Version, StoreError> {
        self.compare_and_set_counting(id, expected, head, log, lifetime, &Counters::default())
    }

    pub(super) fn compare_and_set_counting(
        &self,
        id: &str,
        expected: Version,
        head: &str,
        log: LogWrite<'_>,
        lifetime: Lifetime,
        counters: &Counters,
    ) -> Result<Version, StoreError> {
        let now = Instant::now();
        let mut games = self.lock();
        self.sweep_if_due(&mut games, now);
        let entry = Self::current_entry(&mut games, id, expected, now)?;
        let logged = u64::try_from(entry.log.len()).unwrap_or(u64::MAX);
        let consistent = match log {
            LogWrite::Append(_) => logged == entry.version,
            LogWrite::Replace(all) => u64::try_from(all.len()).ok() == Some(entry.version + 1),
        };
        if !consistent {
            return Err(StoreError::Corrupt {
                key: id.to_owned(),
                detail: format!(
                    "the log would not have one entry per version (version {}, {logged} entries)",
                    entry.version
                ),
            });
        }
        entry.version += 1;
        entry.head.clear();
        entry.head.push_str(head);
        match log {
            LogWrite::Append(new) => entry.log.push(new.to_owned()),
            LogWrite::Replace(all) => entry.log = all.to_vec(),
        }
        entry.expires_at = now + self.ttl_of(lifetime);
        entry.written_at = now;
        let version = entry.version;
        for (name, fields) in &counters.groups {
            let set = games.counters.entry(name.clone()).or_default();
            for (field, increment) in fields {
                let counter = set.entry(field.clone()).or_default();
                *counter = counter.saturating_add(*increment);
            }
        }
        drop(games);
        self.changes.publish(id, version);
        Ok(version)
    }

    pub(super) fn counter_sets(&self) -> Vec<String> {
        let mut names: Vec<String> = self.lock().counters.keys().cloned().collect();
        names.sort();
        names
    }

    pub(super) fn counters(&self, name: &str) -> Vec<(String, i64)> {
        let mut fields: Vec<(String, i64)> = self
            .lock()
            .counters
            .get(name)
            .map(|set| set.iter().map(|(k, v)| (k.clone(), *v)).collect())
            .unwrap_or_default();
        fields.sort();
        fields
    }

    pub(super) fn delete(&self, id: &str, expected: Version) -> Result<(), StoreError> {
        let now = Instant::now();
        let mut games = self.lock();
        Self::current_entry(&mut games, id, expected, now)?;
        games.by_id.remove(id);
        drop(games);
        self.changes.publish(id, expected + 1);
        Ok(())
    }

    /// The live entry under `id` at version `expected`; an expired one is removed.
    fn current_entry<'a>(
        games: &'a mut Games,
        id: &str,
        expected: Version,
        now: Instant,
    ) -> Result<&'a mut Entry, StoreError> {
        let live = games.by_id.get(id).map(|entry| entry.is_live(now));
        if live == Some(false) {
            games.by_id.remove(id);
        }
        let entry = games
            .by_id
            .get_mut(id)
            .filter(|_| live == Some(true))
            .ok_or(StoreError::NotFound)?;
        if entry.version != expected {
            return Err(StoreError::VersionMismatch {
                current: entry.version,
            });
        }
        Ok(entry)
    }

    pub(super) fn lobby_add(&self, entry: &str, indexes: &[String]) {
        let mut games = self.lock();
        for index in indexes {
            games
                .lobby
                .entry(index.clone())
                .or_default()
                .insert(entry.to_owned());
        }
    }

    pub(super) fn lobby_remove(&self, entry: &str, indexes: &[String]) {
        let mut games = self.lock();
        for index in indexes {
            if let Some(set) = games.lobby.get_mut(index) {
                set.remove(entry);
                if set.is_empty() {
                    games.lobby.remove(index);
                }
            }
        }
    }

    pub(super) fn lobby_page(&self, index: &str, after: Option<&str>, limit: usize) -> Vec<String> {
        let games = self.lock();
        let Some(set) = games.lobby.get(index) else {
            return Vec::new();
        };
        let before = after.map_or(Bound::Unbounded, Bound::Excluded);
        set.range::<str, _>((Bound::Unbounded, before))
            .rev()
            .take(limit)
            .cloned()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expired_games_are_swept_on_writes() {
        let store = MemoryStore::new(Duration::from_millis(30));
        for id in ["a", "b", "c"] {
            assert!(store.create(id, "{}", "e1", Lifetime::Playing).is_ok());
        }
        assert_eq!(store.len(), 3);
        std::thread::sleep(Duration::from_millis(60));
        // Nobody reads a, b or c again; the next write sweeps them.
        assert!(store.create("d", "{}", "e1", Lifetime::Playing).is_ok());
        assert_eq!(store.len(), 1);
        assert!(!store.is_empty());
    }

    #[test]
    fn a_full_store_drops_the_games_idle_longest() {
        let store = MemoryStore::new(Duration::from_secs(60)).with_max_games(200);
        for i in 0..200 {
            assert!(store
                .create(&format!("g{i}"), "{}", "e1", Lifetime::Playing)
                .is_ok());
            // Distinct write times, so "idle longest" has one answer.
            std::thread::sleep(Duration::from_micros(50));
        }
        // g0 and g1 are written again: g2 and g3 are now idle longest.
        for id in ["g0", "g1"] {
            assert_eq!(
                store
                    .compare_and_set(
                        id,
                        1,
                        "{\"moved\":1}",
                        LogWrite::Append("e2"),
                        Lifetime::Playing
                    )
                    .ok(),
                Some(2)
            );
        }
        assert!(store.create("new", "{}", "e1", Lifetime::Playing).is_ok());
        // A hundredth of the cap (2 games) went at once: room for the next one too.
        assert_eq!(store.len(), 199);
        for id in ["g0", "g1", "g4", "new"] {
            assert!(store.get(id).is_some(), "{id}");
        }
        for id in ["g2", "g3"] {
            assert!(store.get(id).is_none(), "{id}");
        }
        assert!(store.create("newer", "{}", "e1", Lifetime::Playing).is_ok());
        assert_eq!(store.len(), 200);
        assert!(store.get("g4").is_some());
    }

    #[test]
    fn an_expired_id_can_be_created_again() {
        let store = MemoryStore::new(Duration::from_millis(20));
        assert!(store.create("a", "old", "e1", Lifetime::Playing).is_ok());
        assert!(matches!(
            store.create("a", "x", "e1", Lifetime::Playing),
            Err(StoreError::AlreadyExists)
        ));
        std::thread::sleep(Duration::from_millis(40));
        assert_eq!(
            store.create("a", "new", "e1", Lifetime::Playing).ok(),
            Some(1)
        );
        assert_eq!(store.get("a").map(|game| game.head), Some("new".to_owned()));
    }
}
