//! The configured rates of the limits: what each bucket holds and how fast it refills.

use std::fmt;
use std::num::NonZeroU32;
use std::time::Duration;

use crate::config::ConfigError;

/// Longest accepted refill period: a day.
const MAX_PERIOD: Duration = Duration::from_secs(24 * 60 * 60);
/// Largest accepted bucket: a billion units.
const MAX_COUNT: u32 = 1_000_000_000;

/// A bucket of `count` units that refills `count` units per `period`, evenly (GCRA): a client
/// may spend the whole bucket at once, then one unit every `period / count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    /// Units the bucket holds (the burst).
    pub count: NonZeroU32,
    /// Time in which an empty bucket fills up again.
    pub period: Duration,
}

impl Rate {
    /// `count` units per `period`.
    ///
    /// # Panics
    /// When `count` is 0 or `period` is zero: a programming error, for constants only.
    pub const fn per(count: u32, period: Duration) -> Self {
        assert!(!period.is_zero(), "a rate needs a period");
        match NonZeroU32::new(count) {
            Some(count) => Self { count, period },
            None => panic!("a rate needs a count"),
        }
    }

    /// The time one unit takes to come back.
    pub fn interval(&self) -> Duration {
        self.period / self.count.get()
    }

    /// Reads `COUNT/PERIOD` such as `1000/10s`, `60/1m` or `5/1h` (a period in whole seconds,
    /// minutes or hours), or `off` for no limit. `variable` names the setting in errors.
    ///
    /// # Errors
    /// A [`ConfigError`] naming `variable` when the text is neither.
    pub fn parse(variable: &'static str, text: &str) -> Result<Option<Self>, ConfigError> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("off") {
            return Ok(None);
        }
        let invalid = |why: &str| {
            ConfigError::new(
                variable,
                format!("{text:?}: {why}; expected COUNT/PERIOD such as 1000/10s, 60/1m or 5/1h, or off"),
            )
        };
        let (count, period) = text.split_once('/').ok_or_else(|| invalid("no '/'"))?;
        let count = count
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|c| (1..=MAX_COUNT).contains(c))
            .and_then(NonZeroU32::new)
            .ok_or_else(|| invalid(&format!("the count must be from 1 to {MAX_COUNT}")))?;
        let period = period.trim();
        let split = period
            .find(|c: char| !c.is_ascii_digit())
            .ok_or_else(|| invalid("the period needs a unit: s, m or h"))?;
        let (amount, unit) = period.split_at(split);
        let amount: u64 = amount
            .parse()
            .map_err(|_| invalid("the period must start with a whole number"))?;
        let seconds = match unit {
            "s" => Some(amount),
            "m" => amount.checked_mul(60),
            "h" => amount.checked_mul(3600),
            _ => return Err(invalid("the period's unit must be s, m or h")),
        };
        let period = seconds
            .map(Duration::from_secs)
            .filter(|p| !p.is_zero() && *p <= MAX_PERIOD)
            .ok_or_else(|| invalid("the period must be from 1s to 24h"))?;
        Ok(Some(Self { count, period }))
    }
}

impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}s", self.count, self.period.as_secs())
    }
}

/// The per-client limits of one instance (with Redis: shared by every instance).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RateLimits {
    /// Every request, per client address (`HALMA_RATE_REQUESTS`).
    pub requests: Option<Rate>,
    /// Writes (`POST`, `PUT`, `PATCH`, `DELETE`), per bearer token, or per client address
    /// for writes without one (`HALMA_RATE_WRITES`).
    pub writes: Option<Rate>,
    /// Games created (new games and rematches), per client address (`HALMA_RATE_GAMES`).
    pub games: Option<Rate>,
    /// Milliseconds of AI search (the budgets of suggestions, analyses and AI seats' moves),
    /// per client address (`HALMA_RATE_AI_MS`).
    pub ai_ms: Option<Rate>,
    /// Take the client address from the last `X-Forwarded-For` entry (the one the proxy in
    /// front of the service wrote) instead of the connection (`HALMA_TRUST_FORWARDED_FOR`).
    pub trust_forwarded_for: bool,
}

/// Default request rate per client address: a bucket of 1000, refilled at 100 a second.
pub const DEFAULT_REQUESTS: Rate = Rate::per(1000, Duration::from_secs(10));
/// Default write rate per token: a bucket of 300, refilled at 30 a second.
pub const DEFAULT_WRITES: Rate = Rate::per(300, Duration::from_secs(10));
/// Default game creation rate per client address: 120 games, refilled at 2 a second.
pub const DEFAULT_GAMES: Rate = Rate::per(120, Duration::from_secs(60));
/// Default AI time per client address: a minute of search per minute (one core's worth).
pub const DEFAULT_AI_MS: Rate = Rate::per(60_000, Duration::from_secs(60));

impl Default for RateLimits {
    fn default() -> Self {
        Self {
            requests: Some(DEFAULT_REQUESTS),
            writes: Some(DEFAULT_WRITES),
            games: Some(DEFAULT_GAMES),
            ai_ms: Some(DEFAULT_AI_MS),
            trust_forwarded_for: false,
        }
    }
}

impl RateLimits {
    /// No limits at all (load tests, trusted networks).
    pub fn off() -> Self {
        Self {
            requests: None,
            writes: None,
            games: None,
            ai_ms: None,
            trust_forwarded_for: false,
        }
    }

    /// Reads the limits through `var`, which answers a variable's trimmed, non-empty value:
    /// `HALMA_RATE_LIMITS=off` turns every limit off, each `HALMA_RATE_*` sets one (or turns it
    /// off), `HALMA_TRUST_FORWARDED_FOR` is `true` or `false`.
    ///
    /// # Errors
    /// A [`ConfigError`] naming the first variable whose value is invalid.
    pub fn from_vars(
        var: impl Fn(&'static str) -> Result<Option<String>, ConfigError>,
    ) -> Result<Self, ConfigError> {
        let mut limits = match var("HALMA_RATE_LIMITS")?.as_deref() {
            None | Some("on") => Self::default(),
            Some("off") => Self::off(),
            Some(other) => {
                return Err(ConfigError::new(
                    "HALMA_RATE_LIMITS",
                    format!("expected on or off, got {other:?}"),
                ))
            }
        };
        for (name, slot) in [
            ("HALMA_RATE_REQUESTS", &mut limits.requests),
            ("HALMA_RATE_WRITES", &mut limits.writes),
            ("HALMA_RATE_GAMES", &mut limits.games),
            ("HALMA_RATE_AI_MS", &mut limits.ai_ms),
        ] {
            if let Some(text) = var(name)? {
                *slot = Rate::parse(name, &text)?;
            }
        }
        limits.trust_forwarded_for = match var("HALMA_TRUST_FORWARDED_FOR")?.as_deref() {
            None | Some("false") => false,
            Some("true") => true,
            Some(other) => {
                return Err(ConfigError::new(
                    "HALMA_TRUST_FORWARDED_FOR",
                    format!("expected true or false, got {other:?}"),
                ))
            }
        };
        Ok(limits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Option<Rate>, ConfigError> {
        Rate::parse("HALMA_RATE_REQUESTS", text)
    }

    #[test]
    fn rates_read_count_and_period() {
        assert_eq!(
            parse("1000/10s"),
            Ok(Some(Rate::per(1000, Duration::from_secs(10))))
        );
        assert_eq!(
            parse(" 60 / 1m "),
            Ok(Some(Rate::per(60, Duration::from_secs(60))))
        );
        assert_eq!(
            parse("5/2h"),
            Ok(Some(Rate::per(5, Duration::from_secs(7200))))
        );
        assert_eq!(parse("OFF"), Ok(None));
        assert_eq!(
            Rate::per(100, Duration::from_secs(10)).interval(),
            Duration::from_millis(100)
        );
    }

    #[test]
    fn bad_rates_name_the_variable_and_say_why() {
        for (text, why) in [
            ("1000", "no '/'"),
            ("0/10s", "the count must be from 1"),
            ("x/10s", "the count must be from 1"),
            ("10/10", "needs a unit"),
            ("10/s", "whole number"),
            ("10/10d", "unit must be s, m or h"),
            ("10/0s", "from 1s to 24h"),
            ("10/25h", "from 1s to 24h"),
            ("10/99999999999999999999h", "whole number"),
        ] {
            let err = parse(text).expect_err(text);
            assert_eq!(err.variable, "HALMA_RATE_REQUESTS");
            assert!(err.reason.contains(why), "{text}: {}", err.reason);
        }
    }

    fn lookup<'a>(
        pairs: &'a [(&'static str, &'a str)],
    ) -> impl Fn(&'static str) -> Result<Option<String>, ConfigError> + 'a {
        move |name| {
            Ok(pairs
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (*v).to_owned()))
        }
    }

    #[test]
    fn limits_default_on_and_turn_off_one_by_one_or_all() {
        assert_eq!(
            RateLimits::from_vars(lookup(&[])),
            Ok(RateLimits::default())
        );
        assert_eq!(
            RateLimits::from_vars(lookup(&[("HALMA_RATE_LIMITS", "off")])),
            Ok(RateLimits::off())
        );
        let limits = RateLimits::from_vars(lookup(&[
            ("HALMA_RATE_GAMES", "off"),
            ("HALMA_RATE_AI_MS", "1000/1m"),
            ("HALMA_TRUST_FORWARDED_FOR", "true"),
        ]))
        .expect("valid limits");
        assert_eq!(limits.games, None);
        assert_eq!(limits.ai_ms, Some(Rate::per(1000, Duration::from_secs(60))));
        assert_eq!(limits.requests, Some(DEFAULT_REQUESTS));
        assert!(limits.trust_forwarded_for);
        // Turned off as a whole, one limit can still be set.
        let limits = RateLimits::from_vars(lookup(&[
            ("HALMA_RATE_LIMITS", "off"),
            ("HALMA_RATE_GAMES", "10/1m"),
        ]))
        .expect("valid limits");
        assert_eq!(limits.requests, None);
        assert_eq!(limits.games, Some(Rate::per(10, Duration::from_secs(60))));
    }

    #[test]
    fn bad_switches_are_errors() {
        let err =
            RateLimits::from_vars(lookup(&[("HALMA_RATE_LIMITS", "maybe")])).expect_err("maybe");
        assert_eq!(err.variable, "HALMA_RATE_LIMITS");
        let err = RateLimits::from_vars(lookup(&[("HALMA_TRUST_FORWARDED_FOR", "yes")]))
            .expect_err("yes");
        assert_eq!(err.variable, "HALMA_TRUST_FORWARDED_FOR");
    }
}
