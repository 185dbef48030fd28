//! The buckets of the embedded store: GCRA (the generic cell rate algorithm) over a map from
//! client key to the bucket's theoretical arrival time, the same arithmetic as the Redis
//! script (`TAKE` in `store/redis.rs`), so both back ends limit alike.
//!
//! A bucket of `count` units refilling over `period` has an interval `T = period / count` per
//! unit and a tolerance `count * T`. A take of `cost` units at time `now` moves the arrival
//! time to `max(tat, now) + cost * T`, and is allowed when that lies at most the tolerance
//! ahead of `now`. A forced take (AI time, charged after the search for what it used) always
//! moves it, so the client waits off the debt.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Takes between two sweeps: full buckets (arrival time in the past) are forgotten then, so
/// memory follows the clients of the last minutes, not every client ever seen.
const SWEEP_EVERY: u64 = 16_384;

/// The in-process buckets of one kind.
#[derive(Debug)]
pub(super) struct LocalBuckets {
    interval_us: u64,
    tolerance_us: u64,
    epoch: Instant,
    /// Arrival time per client, in microseconds since `epoch`.
    tats: Mutex<HashMap<String, u64>>,
    takes: AtomicU64,
}

impl LocalBuckets {
    /// Buckets with `interval` per unit and a burst tolerance of `tolerance`.
    pub(super) fn new(interval: Duration, tolerance: Duration) -> Self {
        let micros = |d: Duration| u64::try_from(d.as_micros()).unwrap_or(u64::MAX);
        Self {
            interval_us: micros(interval).max(1),
            tolerance_us: micros(tolerance),
            epoch: Instant::now(),
            tats: Mutex::new(HashMap::new()),
            takes: AtomicU64::new(0),
        }
    }

    /// Takes `cost` units from `client`'s bucket at the current time: `None` when taken (or
    /// forced), else the wait until they would be there.
    pub(super) fn take(&self, client: &str, cost: u32, force: bool) -> Option<Duration> {
        self.take_at(client, cost, force, self.now())
    }

    /// The wait until `client`'s bucket holds `cost` units (`None`: it does now), taking
    /// nothing.
    pub(super) fn wait(&self, client: &str, cost: u32) -> Option<Duration> {
        let now = self.now();
        let (_, wait) = self.next(&self.lock(), client, cost, now);
        (wait > 0).then(|| Duration::from_micros(wait))
    }

    fn take_at(&self, client: &str, cost: u32, force: bool, now: u64) -> Option<Duration> {
        let mut tats = self.lock();
        if self.takes.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            tats.retain(|_, tat| *tat > now);
        }
        let (next, wait) = self.next(&tats, client, cost, now);
        if wait > 0 && !force {
            return Some(Duration::from_micros(wait));
        }
        tats.insert(client.to_owned(), next);
        None
    }

    /// The arrival time after taking `cost` units from `client`'s bucket at `now`, and the
    /// microseconds until that take would fit (0: it fits now).
    fn next(&self, tats: &HashMap<String, u64>, client: &str, cost: u32, now: u64) -> (u64, u64) {
        let tat = tats.get(client).copied().unwrap_or(now).max(now);
        let next = tat.saturating_add(self.interval_us.saturating_mul(u64::from(cost)));
        (
            next,
            next.saturating_sub(self.tolerance_us).saturating_sub(now),
        )
    }

    fn now(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_micros()).unwrap_or(u64::MAX)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, u64>> {
        // A poisoned map only means another request panicked mid-update of a number.
        self.tats
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Clients with a bucket that is not full.
    #[cfg(test)]
    pub(super) fn tracked(&self) -> usize {
        self.tats.lock().map(|t| t.len()).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 10 units refilling over 10 s: one unit per second.
    fn buckets() -> LocalBuckets {
        LocalBuckets::new(Duration::from_secs(1), Duration::from_secs(10))
    }

    const S: u64 = 1_000_000;

    #[test]
    fn the_burst_then_one_unit_per_interval() {
        let b = buckets();
        for _ in 0..10 {
            assert_eq!(b.take_at("a", 1, false, 5 * S), None);
        }
        assert_eq!(
            b.take_at("a", 1, false, 5 * S),
            Some(Duration::from_secs(1))
        );
        // Half an interval later: half an interval to wait.
        assert_eq!(
            b.take_at("a", 1, false, 5 * S + S / 2),
            Some(Duration::from_millis(500))
        );
        assert_eq!(b.take_at("a", 1, false, 6 * S), None);
        assert_eq!(
            b.take_at("a", 1, false, 6 * S),
            Some(Duration::from_secs(1))
        );
        // Another client has a bucket of its own.
        assert_eq!(b.take_at("b", 10, false, 6 * S), None);
        // A cost above the whole bucket never fits.
        assert_eq!(
            b.take_at("c", 11, false, 6 * S),
            Some(Duration::from_secs(1))
        );
    }

    #[test]
    fn a_forced_charge_leaves_a_debt_to_wait_off() {
        let b = buckets();
        assert_eq!(b.take_at("a", 25, true, 0), None);
        // 25 units charged on a bucket of 10: the next unit fits after 16 s.
        assert_eq!(b.take_at("a", 1, false, 0), Some(Duration::from_secs(16)));
        assert_eq!(b.take_at("a", 1, false, 16 * S), None);
    }

    #[test]
    fn full_buckets_are_forgotten() {
        let b = buckets();
        for i in 0..SWEEP_EVERY - 1 {
            assert_eq!(b.take_at(&format!("c{i}"), 1, false, 0), None);
        }
        assert_eq!(b.tracked(), usize::try_from(SWEEP_EVERY - 1).unwrap_or(0));
        // Every bucket has refilled 2 s later: the sweep drops them all but the new one.
        assert_eq!(b.take_at("late", 1, false, 2 * S), None);
        assert_eq!(b.tracked(), 1);
    }
}
