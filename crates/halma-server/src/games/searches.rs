//! Identical AI requests share one search: a search for the same position (with the same
//! earlier positions), level, budget, seed and number of lines that is already running, or
//! that finished moments ago, answers every request that asks for it (a hint button pressed
//! twice, many spectators asking for the same hint, a retried request).
//!
//! The first request of a kind starts the search as a shared future; the others await the same
//! future (whoever polls it drives it, so the search finishes even when the first client goes
//! away). A finished answer is kept for [`KEEP_FINISHED`], then forgotten; a failed search
//! or a one-ply fallback (no slot freed in time) is forgotten at once, so that the next
//! request searches again.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use futures_util::future::{BoxFuture, FutureExt as _, Shared};

/// How long a finished search still answers identical requests.
pub const KEEP_FINISHED: Duration = Duration::from_secs(10);

/// Most searches remembered; beyond, the finished ones are forgotten first.
const CAPACITY: usize = 1024;

/// A finished search.
#[derive(Debug)]
pub(crate) struct Searched {
    /// The best lines (none when the seat to move has no move).
    pub lines: Vec<halma_ai::Suggestion>,
    /// The level used (lower than asked when the search fell back to one ply).
    pub level: u8,
    /// The time the search itself took (without the wait for a slot).
    pub took: Duration,
}

/// What a shared search gives, or why it failed (the same failure for every request that
/// shared it).
pub(crate) type Answer = Result<Arc<Searched>, Arc<str>>;

/// A search everyone with the same question shares.
pub(crate) type SharedSearch = Shared<BoxFuture<'static, Answer>>;

/// What identifies a search: the position's notation (which starts with the setup), the keys
/// of the earlier positions, level, budget in microseconds, seed and lines.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct SearchKey {
    pub position: String,
    pub recent: Vec<u64>,
    pub level: u8,
    pub budget_us: u128,
    pub seed: u64,
    pub lines: usize,
}

#[derive(Debug)]
struct Entry {
    search: SharedSearch,
    started: Instant,
}

/// The searches of an instance, by question.
#[derive(Debug, Default)]
pub struct Searches {
    map: Mutex<HashMap<SearchKey, Entry>>,
}

/// How a request got its search.
pub(crate) enum Joined {
    /// It asked first: it runs the search (and pays for it).
    Started(SharedSearch),
    /// An identical search was running or had just finished.
    Shared(SharedSearch),
}

impl Searches {
    /// The running or recent search for `key`, if there is one.
    pub(crate) fn find(&self, key: &SearchKey) -> Option<SharedSearch> {
        Self::fresh(&self.lock(), key, Instant::now())
    }

    fn fresh(
        map: &HashMap<SearchKey, Entry>,
        key: &SearchKey,
        now: Instant,
    ) -> Option<SharedSearch> {
        let entry = map.get(key)?;
        let fresh = match entry.search.peek() {
            // Finished: fresh while recent (`started` is when it finished, see `finished`).
            Some(_) => now.duration_since(entry.started) < KEEP_FINISHED,
            None => true,
        };
        fresh.then(|| entry.search.clone())
    }

    /// The search for `key`: a running or recent one, else a new one made by `start`.
    pub(crate) fn join(
        &self,
        key: SearchKey,
        start: impl FnOnce() -> BoxFuture<'static, Answer>,
    ) -> Joined {
        let now = Instant::now();
        let mut map = self.lock();
        if let Some(search) = Self::fresh(&map, &key, now) {
            return Joined::Shared(search);
        }
        if map.len() >= CAPACITY {
            map.retain(|_, e| {
                e.search.peek().is_none() && now.duration_since(e.started) < KEEP_FINISHED
            });
            if map.len() >= CAPACITY {
                map.clear();
            }
        }
        let search = start().shared();
        map.insert(
            key,
            Entry {
                search: search.clone(),
                started: now,
            },
        );
        Joined::Started(search)
    }

    /// Marks the search of `key` finished now: identical requests are answered from it for
    /// [`KEEP_FINISHED`] from here.
    pub(crate) fn finished(&self, key: &SearchKey) {
        if let Some(entry) = self.lock().get_mut(key) {
            entry.started = Instant::now();
        }
    }

    /// Forgets the search of `key` (a failed one, or a one-ply fallback: later requests
    /// should search again).
    pub(crate) fn forget(&self, key: &SearchKey) {
        self.lock().remove(key);
    }

    /// Searches remembered (running or recent).
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no search is remembered.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<SearchKey, Entry>> {
        // Single inserts and removals: a panic elsewhere cannot leave the map inconsistent.
        self.map.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    fn key(level: u8) -> SearchKey {
        SearchKey {
            position: "p".to_owned(),
            recent: vec![1, 2],
            level,
            budget_us: 200_000,
            seed: 7,
            lines: 1,
        }
    }

    #[tokio::test]
    async fn identical_questions_share_one_search_and_others_do_not() {
        let searches = Searches::default();
        let runs = Arc::new(AtomicUsize::new(0));
        let start = || {
            let runs = Arc::clone(&runs);
            async move {
                runs.fetch_add(1, Ordering::SeqCst);
                tokio::time::sleep(Duration::from_millis(20)).await;
                Ok(Arc::new(Searched {
                    lines: Vec::new(),
                    level: 10,
                    took: Duration::from_millis(20),
                }))
            }
            .boxed()
        };
        let Joined::Started(first) = searches.join(key(10), start) else {
            panic!("the first question starts a search");
        };
        let Joined::Shared(second) = searches.join(key(10), start) else {
            panic!("the same question shares it");
        };
        let Joined::Started(other) = searches.join(key(9), start) else {
            panic!("another level is another search");
        };
        let (a, b, c) = tokio::join!(first, second, other);
        assert!(a.is_ok() && b.is_ok() && c.is_ok());
        assert_eq!(runs.load(Ordering::SeqCst), 2);
        searches.finished(&key(10));
        // Just finished: still shared, without running again.
        let Joined::Shared(again) = searches.join(key(10), start) else {
            panic!("a recent answer is shared");
        };
        assert!(again.await.is_ok());
        assert_eq!(runs.load(Ordering::SeqCst), 2);
        assert_eq!(searches.len(), 2);
    }
}
