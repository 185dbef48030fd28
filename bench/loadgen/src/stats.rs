//! Latency recording and the figures of a scenario: requests/s, percentiles, errors by status.

use std::collections::BTreeMap;
use std::time::Duration;

/// What one virtual user saw of one kind of request.
#[derive(Clone, Debug, Default)]
pub struct Recorder {
    /// Latency of every answered request, in microseconds (send to last body byte).
    latencies_us: Vec<u32>,
    /// Answers by HTTP status, successes included.
    statuses: BTreeMap<u16, u64>,
    /// Requests that got no answer in time.
    timeouts: u64,
    /// Requests that failed otherwise (connection refused or reset, bad body, ...).
    transport_errors: u64,
    /// Answers that were well-formed HTTP but not what the scenario expects (a body that does
    /// not parse, a version that did not advance by one).
    unexpected: u64,
}

impl Recorder {
    /// Records an answer with its status and latency.
    pub fn answered(&mut self, status: u16, latency: Duration) {
        let us = u32::try_from(latency.as_micros()).unwrap_or(u32::MAX);
        self.latencies_us.push(us);
        *self.statuses.entry(status).or_insert(0) += 1;
    }

    /// Records a request that got no answer.
    pub fn failed(&mut self, timed_out: bool) {
        if timed_out {
            self.timeouts += 1;
        } else {
            self.transport_errors += 1;
        }
    }

    /// Records an answer that the scenario could not use.
    pub fn unexpected(&mut self) {
        self.unexpected += 1;
    }

    /// Requests sent (answered or not).
    pub fn sent(&self) -> u64 {
        self.latencies_us.len() as u64 + self.timeouts + self.transport_errors
    }

    /// Adds another recorder's observations to this one.
    pub fn merge(&mut self, other: Recorder) {
        self.latencies_us.extend(other.latencies_us);
        for (status, n) in other.statuses {
            *self.statuses.entry(status).or_insert(0) += n;
        }
        self.timeouts += other.timeouts;
        self.transport_errors += other.transport_errors;
        self.unexpected += other.unexpected;
    }

    /// The figures over `elapsed`.
    pub fn summary(mut self, elapsed: Duration) -> Summary {
        self.latencies_us.sort_unstable();
        let lat = &self.latencies_us;
        let ms = |us: u32| f64::from(us) / 1000.0;
        let pct = |p: f64| percentile(lat, p).map_or(0.0, ms);
        let answered = lat.len() as u64;
        let ok: u64 = self
            .statuses
            .iter()
            .filter(|(s, _)| (200..300).contains(*s))
            .map(|(_, n)| n)
            .sum();
        let mut errors: BTreeMap<String, u64> = self
            .statuses
            .iter()
            .filter(|(s, _)| !(200..300).contains(*s))
            .map(|(s, n)| (s.to_string(), *n))
            .collect();
        for (name, n) in [
            ("timeout", self.timeouts),
            ("io", self.transport_errors),
            ("unexpected", self.unexpected),
        ] {
            if n > 0 {
                errors.insert(name.to_owned(), n);
            }
        }
        let secs = elapsed.as_secs_f64().max(1e-9);
        Summary {
            requests: answered,
            ok,
            rps: answered as f64 / secs,
            elapsed_s: elapsed.as_secs_f64(),
            mean_ms: if lat.is_empty() {
                0.0
            } else {
                lat.iter().map(|&u| f64::from(u)).sum::<f64>() / lat.len() as f64 / 1000.0
            },
            p50_ms: pct(0.50),
            p90_ms: pct(0.90),
            p99_ms: pct(0.99),
            max_ms: lat.last().copied().map_or(0.0, ms),
            errors,
        }
    }
}

/// The nearest-rank percentile `p` (0 < p <= 1) of sorted values.
pub fn percentile(sorted: &[u32], p: f64) -> Option<u32> {
    if sorted.is_empty() {
        return None;
    }
    let rank = (p * sorted.len() as f64).ceil() as usize;
    sorted.get(rank.clamp(1, sorted.len()) - 1).copied()
}

/// The figures of one kind of request in one scenario.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Summary {
    /// Answered requests.
    pub requests: u64,
    /// Answers with a 2xx status.
    pub ok: u64,
    /// Answered requests per second of the measured time.
    pub rps: f64,
    /// The measured time, in seconds.
    pub elapsed_s: f64,
    /// Mean latency, in milliseconds.
    pub mean_ms: f64,
    /// Median latency, in milliseconds.
    pub p50_ms: f64,
    /// 90th percentile, in milliseconds.
    pub p90_ms: f64,
    /// 99th percentile, in milliseconds.
    pub p99_ms: f64,
    /// Slowest answer, in milliseconds.
    pub max_ms: f64,
    /// Non-2xx answers by status, and `timeout`, `io` and `unexpected` counts; empty when
    /// every request succeeded.
    pub errors: BTreeMap<String, u64>,
}

impl Summary {
    /// The errors as `412:3 io:1`, or `0`.
    pub fn errors_text(&self) -> String {
        if self.errors.is_empty() {
            return "0".to_owned();
        }
        self.errors
            .iter()
            .map(|(k, n)| format!("{k}:{n}"))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let v: Vec<u32> = (1..=100).collect();
        assert_eq!(percentile(&v, 0.5), Some(50));
        assert_eq!(percentile(&v, 0.99), Some(99));
        assert_eq!(percentile(&v, 1.0), Some(100));
        assert_eq!(percentile(&[7], 0.5), Some(7));
        assert_eq!(percentile(&[], 0.5), None);
    }

    #[test]
    fn merged_summary() {
        let mut a = Recorder::default();
        let mut b = Recorder::default();
        for i in 1..=99u64 {
            a.answered(200, Duration::from_micros(i * 1000));
        }
        b.answered(412, Duration::from_millis(100));
        b.failed(true);
        b.failed(false);
        b.unexpected();
        a.merge(b);
        assert_eq!(a.sent(), 102);
        let s = a.summary(Duration::from_secs(2));
        assert_eq!(s.requests, 100);
        assert_eq!(s.ok, 99);
        assert!((s.rps - 50.0).abs() < 1e-9);
        assert!((s.p50_ms - 50.0).abs() < 1e-9);
        assert!((s.p99_ms - 99.0).abs() < 1e-9);
        assert!((s.max_ms - 100.0).abs() < 1e-9);
        assert_eq!(s.errors_text(), "412:1 io:1 timeout:1 unexpected:1");
    }
}
