//! A bounded in-process cache of restored games, keyed by game id and tagged with the version
//! each was restored from.
//!
//! The cache never decides on its own that an entry is current: a reader passes the cached
//! version to [`Store::get_if_changed`](crate::store::Store::get_if_changed), and only the
//! store's answer "unchanged" lets it use the entry. Service instances sharing one Redis
//! therefore stay correct whatever their caches hold; the cache only saves the parsing and
//! restoring of games that did not change.
//!
//! The map is split into shards (a mutex each) by a hash of the id, so concurrent requests
//! rarely wait on one another. When a shard is full, the second-chance ("clock") policy picks
//! the entry to drop: entries are kept in insertion order, each read marks its entry, and
//! eviction walks from the oldest, clearing marks, until it finds an unmarked entry. Games that
//! are read stay; games written once and never read again leave first.

use std::collections::hash_map::RandomState;
use std::collections::{HashMap, VecDeque};
use std::hash::BuildHasher as _;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use crate::store::Version;

/// Most shards a cache is split into.
const MAX_SHARDS: usize = 16;

/// A bounded map from game id to a value restored at a given version; cheap to read
/// concurrently. `T` should be cheap to clone (a hit returns a clone): `Arc`s.
pub struct GameCache<T> {
    shards: Box<[Mutex<Shard<T>>]>,
    hasher: RandomState,
    capacity: usize,
}

struct Shard<T> {
    entries: HashMap<Arc<str>, Slot<T>>,
    /// The keys of `entries`, oldest first: the clock's hand is at the front.
    clock: VecDeque<Arc<str>>,
    capacity: usize,
}

struct Slot<T> {
    version: Version,
    value: T,
    /// Read since the clock's hand last passed: spared once.
    referenced: bool,
}

impl<T> std::fmt::Debug for GameCache<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameCache")
            .field("capacity", &self.capacity)
            .field("shards", &self.shards.len())
            .finish_non_exhaustive()
    }
}

impl<T: Clone> GameCache<T> {
    /// A cache holding at most `capacity` games; 0 turns it off (it then holds nothing).
    pub fn new(capacity: usize) -> Self {
        Self::with_shards(capacity, capacity.min(MAX_SHARDS))
    }

    /// A cache of `capacity` games in `shards` shards (at most `capacity`).
    fn with_shards(capacity: usize, shards: usize) -> Self {
        let shards = (0..shards)
            .map(|i| {
                // The capacity split as evenly as it goes: exactly `capacity` in all.
                let share = capacity / shards + usize::from(i < capacity % shards);
                Mutex::new(Shard {
                    entries: HashMap::new(),
                    clock: VecDeque::new(),
                    capacity: share,
                })
            })
            .collect();
        Self {
            shards,
            hasher: RandomState::new(),
            capacity,
        }
    }

    /// The most games the cache holds.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The number of games held.
    pub fn len(&self) -> usize {
        self.shards
            .iter()
            .map(|shard| lock(shard).entries.len())
            .sum()
    }

    /// Whether the cache holds no games.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The version and value held for `id`, if any. The caller must still ask the store
    /// whether that version is current.
    pub fn get(&self, id: &str) -> Option<(Version, T)> {
        let mut shard = self.shard(id)?;
        let slot = shard.entries.get_mut(id)?;
        slot.referenced = true;
        Some((slot.version, slot.value.clone()))
    }

    /// Holds `value` as the game `id` at `version`, unless a later version is held already
    /// (a slow reader must not replace what a faster writer put). May evict another game.
    pub fn insert(&self, id: &str, version: Version, value: T) {
        let Some(mut shard) = self.shard(id) else {
            return;
        };
        if let Some(slot) = shard.entries.get_mut(id) {
            if version >= slot.version {
                slot.version = version;
                slot.value = value;
                slot.referenced = true;
            }
            return;
        }
        while shard.entries.len() >= shard.capacity {
            shard.evict_one();
        }
        let key: Arc<str> = id.into();
        shard.clock.push_back(Arc::clone(&key));
        shard.entries.insert(
            key,
            Slot {
                version,
                value,
                referenced: false,
            },
        );
    }

    /// Forgets the game `id` (it no longer exists).
    pub fn remove(&self, id: &str) {
        let Some(mut shard) = self.shard(id) else {
            return;
        };
        if shard.entries.remove(id).is_some() {
            shard.clock.retain(|key| &**key != id);
        }
    }

    /// The locked shard of `id`; `None` when the cache is off.
    fn shard(&self, id: &str) -> Option<MutexGuard<'_, Shard<T>>> {
        if self.shards.is_empty() {
            return None;
        }
        // Truncating the hash on 32-bit targets only changes which shard an id lands in.
        let index = self.hasher.hash_one(id) as usize % self.shards.len();
        Some(lock(&self.shards[index]))
    }
}

impl<T> Shard<T> {
    /// Drops the oldest entry not read since the hand last passed it; clears the marks it
    /// passes. Ends within two rounds of the clock.
    fn evict_one(&mut self) {
        while let Some(key) = self.clock.pop_front() {
            match self.entries.get_mut(&key) {
                Some(slot) if slot.referenced => {
                    slot.referenced = false;
                    self.clock.push_back(key);
                }
                Some(_) => {
                    self.entries.remove(&key);
                    return;
                }
                // `remove` keeps the clock in step with the map, so this does not happen;
                // a stray key would simply be dropped.
                None => {}
            }
        }
    }
}

fn lock<T>(shard: &Mutex<Shard<T>>) -> MutexGuard<'_, Shard<T>> {
    // Every critical section leaves the shard consistent (at worst an entry fewer), so a
    // panic elsewhere while the lock was held does not invalidate it: keep using it.
    shard.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hit_returns_the_version_and_value_held() {
        let cache = GameCache::new(10);
        assert_eq!(cache.get("a"), None);
        cache.insert("a", 3, "three");
        assert_eq!(cache.get("a"), Some((3, "three")));
        assert_eq!(cache.get("b"), None);
        assert_eq!(cache.len(), 1);
    }

    #[test]
    fn a_later_version_replaces_an_earlier_one_and_not_the_other_way() {
        let cache = GameCache::new(10);
        cache.insert("a", 3, "three");
        cache.insert("a", 4, "four");
        assert_eq!(cache.get("a"), Some((4, "four")));
        // A reader that restored version 3 before the write must not put it back.
        cache.insert("a", 3, "three again");
        assert_eq!(cache.get("a"), Some((4, "four")));
        assert_eq!(cache.len(), 1);
    }

    #[test]
    fn removed_games_are_gone() {
        let cache = GameCache::new(10);
        cache.insert("a", 1, 'a');
        cache.insert("b", 1, 'b');
        cache.remove("a");
        cache.remove("never there");
        assert_eq!(cache.get("a"), None);
        assert_eq!(cache.get("b"), Some((1, 'b')));
        assert_eq!(cache.len(), 1);
    }

    #[test]
    fn the_cache_never_holds_more_than_its_capacity() {
        for capacity in [1, 2, 5, 16, 17, 100] {
            let cache = GameCache::new(capacity);
            for i in 0..capacity * 5 {
                cache.insert(&format!("game-{i}"), 1, i);
                assert!(
                    cache.len() <= capacity,
                    "capacity {capacity}: {}",
                    cache.len()
                );
                // The game just written is held.
                assert_eq!(cache.get(&format!("game-{i}")), Some((1, i)));
            }
            assert_eq!(cache.capacity(), capacity);
        }
    }

    #[test]
    fn a_full_shard_drops_a_game_that_was_not_read_before_one_that_was() {
        // One shard of three: the clock order is the insertion order.
        let cache = GameCache::with_shards(3, 1);
        cache.insert("old-read", 1, 1);
        cache.insert("old-unread", 1, 2);
        cache.insert("new", 1, 3);
        assert!(cache.get("old-read").is_some());
        cache.insert("newest", 1, 4);
        assert_eq!(cache.len(), 3);
        assert_eq!(cache.get("old-unread"), None, "the unread game leaves");
        assert!(cache.get("old-read").is_some());
        assert!(cache.get("new").is_some());
        assert!(cache.get("newest").is_some());
        // Every game is marked now: the hand clears the marks round the clock and drops the
        // first game it meets again, `new` (`old-read` went behind it when it was spared).
        cache.insert("last", 1, 5);
        assert_eq!(cache.len(), 3);
        assert_eq!(cache.get("new"), None);
        assert!(cache.get("old-read").is_some());
        assert!(cache.get("newest").is_some());
        assert!(cache.get("last").is_some());
    }

    #[test]
    fn capacity_zero_turns_the_cache_off() {
        let cache = GameCache::new(0);
        cache.insert("a", 1, "one");
        assert_eq!(cache.get("a"), None);
        assert!(cache.is_empty());
        cache.remove("a");
        assert_eq!(cache.capacity(), 0);
    }

    #[test]
    fn shards_share_the_capacity_exactly() {
        for capacity in [1, 3, 16, 17, 10_000] {
            let cache = GameCache::<u8>::new(capacity);
            let total: usize = cache.shards.iter().map(|s| lock(s).capacity).sum();
            assert_eq!(total, capacity);
            assert!(cache.shards.iter().all(|s| lock(s).capacity > 0));
        }
    }
}
