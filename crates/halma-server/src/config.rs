//! Configuration from the environment, with defaults that start a working service.
//!
//! | variable | meaning | default |
//! |---|---|---|
//! | `HALMA_BIND` | address to listen on, `HOST:PORT` | `127.0.0.1:8080` |
//! | `REDIS_URL` | Redis store, `redis://[user:password@]host[:port][/db]`; or a Redis Cluster, `redis+cluster://[user:password@]host:port[,host:port...]` | unset: embedded in-memory store |
//! | `REDIS_CLUSTER_URLS` | Redis Cluster store: seed nodes, a comma list of `redis://[user:password@]host:port` (one is enough); not with a `REDIS_URL` | unset |
//! | `HALMA_GAME_TTL_SECS` | idle time after which a game expires | `2592000` (30 days) |
//! | `HALMA_WAITING_TTL_SECS` | idle time after which a game waiting for players expires (no join or leave) | `3600` (1 hour) |
//! | `HALMA_MAX_BODY_BYTES` | largest accepted request body | `65536` (64 KiB) |
//! | `HALMA_AI_MAX_MS` | cap for the time budget of an AI search | `2000` |
//! | `HALMA_KEY_PREFIX` | prefix of every Redis key | `halma:` |
//! | `HALMA_MAX_GAMES` | games the embedded store holds; when full, the games idle longest make room (not used with Redis) | `50000` |
//! | `HALMA_GAME_CACHE` | restored games kept in memory per instance (0: none) | `5000` |
//! | `HALMA_LOG` | log filter (`tracing` `EnvFilter` syntax) | `info` |
//! | `HALMA_MAX_STREAMS` | open event streams one instance holds (503 beyond) | `10000` |
//! | `HALMA_STREAM_HEARTBEAT_SECS` | seconds between the comment lines of an idle event stream | `15` |
//! | `HALMA_RATE_LIMITS` | `off` turns every rate limit off | `on` |
//! | `HALMA_RATE_REQUESTS` | requests per client address: `COUNT/PERIOD` (a bucket of COUNT, refilled over PERIOD: `s`, `m`, `h`), or `off` | `1000/10s` |
//! | `HALMA_RATE_WRITES` | writes per bearer token (per address without one) | `300/10s` |
//! | `HALMA_RATE_GAMES` | games created (new games, rematches) per client address | `120/60s` |
//! | `HALMA_RATE_AI_MS` | milliseconds of AI search per client address | `60000/60s` |
//! | `HALMA_TRUST_FORWARDED_FOR` | `true`: the client address is the last `X-Forwarded-For` entry (behind a proxy that sets it) | `false` |
//! | `HALMA_CORS_ORIGINS` | origins whose pages may call the API: `*`, or a comma list such as `https://a.example,http://localhost:5173` | `*` |
//! | `HALMA_LOG_FORMAT` | log lines as `text` or `json` (one JSON object per line) | `text` |
//! | `HALMA_STORE_TIMEOUT_MS` | longest a store call may take before the request fails with 503 `store_unavailable` | `2000` |
//! | `HALMA_SHUTDOWN_GRACE_SECS` | on SIGTERM, how long in-flight requests may take to finish | `10` |
//!
//! A variable set to the empty string counts as unset. An invalid value is a startup error
//! that names the variable. The Redis URL may carry a password: it is kept in a [`RedisUrl`],
//! whose `Debug` and `Display` show it redacted.

use std::ffi::OsString;
use std::fmt;
use std::time::Duration;

use crate::limits::RateLimits;

/// Default listen address.
pub const DEFAULT_BIND: &str = "127.0.0.1:8080";
/// Default idle expiry of a game: 30 days.
pub const DEFAULT_GAME_TTL: Duration = Duration::from_secs(30 * 24 * 60 * 60);
/// Default idle expiry of a game waiting for players: one hour.
pub const DEFAULT_WAITING_TTL: Duration = Duration::from_secs(60 * 60);
/// Default limit on request bodies: 64 KiB.
pub const DEFAULT_MAX_BODY_BYTES: usize = 64 * 1024;
/// Default cap on AI time budgets.
pub const DEFAULT_AI_MAX_TIME: Duration = Duration::from_millis(2000);
/// Default prefix of Redis keys.
pub const DEFAULT_KEY_PREFIX: &str = "halma:";
/// Default log filter.
pub const DEFAULT_LOG_FILTER: &str = "info";
/// Default number of restored games an instance keeps in memory: about 65 MB for games of
/// 120 plies (a cached game takes about 110 bytes per ply).
pub const DEFAULT_GAME_CACHE: usize = 5_000;

/// Default cap on the games of the embedded store: about 400 MB of documents of 120-ply
/// games.
pub const DEFAULT_MAX_GAMES: usize = 50_000;
/// Largest accepted cap on the embedded store's games.
const MAX_MAX_GAMES: usize = 10_000_000;

/// Default cap on open event streams per instance.
pub const DEFAULT_MAX_STREAMS: usize = 10_000;
/// Default time between the comment lines of an idle event stream.
pub const DEFAULT_STREAM_HEARTBEAT: Duration = Duration::from_secs(15);
/// Default upper bound on one store call.
pub const DEFAULT_STORE_TIMEOUT: Duration = Duration::from_millis(2000);
/// Default time in-flight requests have to finish after SIGTERM.
pub const DEFAULT_SHUTDOWN_GRACE: Duration = Duration::from_secs(10);
/// Smallest and largest accepted store timeouts, in milliseconds.
const MIN_STORE_TIMEOUT_MS: u64 = 10;
const MAX_STORE_TIMEOUT_MS: u64 = 60_000;
/// Largest accepted shutdown grace period, in seconds.
const MAX_SHUTDOWN_GRACE_SECS: u64 = 3600;
/// Largest accepted stream cap (tokio's semaphore holds fewer than 2^61 permits).
const MAX_STREAMS: usize = 10_000_000;
/// Longest accepted heartbeat period.
const MAX_STREAM_HEARTBEAT_SECS: u64 = 3600;

/// Longest accepted game TTL: ten years.
const MAX_GAME_TTL_SECS: u64 = 10 * 365 * 24 * 60 * 60;
/// Smallest and largest accepted body limits.
const MIN_BODY_BYTES: usize = 1024;
const MAX_BODY_BYTES: usize = 64 * 1024 * 1024;
/// Largest accepted AI cap: ten minutes.
const MAX_AI_MS: u64 = 10 * 60 * 1000;
/// Largest accepted game cache.
const MAX_GAME_CACHE: usize = 10_000_000;

/// The service configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Address to listen on (`HOST:PORT`; port 0 picks a free port).
    pub bind: String,
    /// The Redis store, or `None` for the embedded in-memory store (or a cluster).
    pub redis_url: Option<RedisUrl>,
    /// Seed nodes of a Redis Cluster: not empty selects the cluster store (`redis_url` is then
    /// `None`).
    pub redis_cluster: Vec<RedisUrl>,
    /// Idle time after which a game expires (every write restarts it).
    pub game_ttl: Duration,
    /// Idle time after which a game waiting for players expires (a join or leave restarts
    /// it).
    pub waiting_ttl: Duration,
    /// Largest accepted request body, in bytes.
    pub max_body_bytes: usize,
    /// Cap on the time budget a client may ask of the AI.
    pub ai_max_time: Duration,
    /// Prefix of every Redis key.
    pub key_prefix: String,
    /// How many restored games the instance keeps in memory (0: none).
    pub game_cache: usize,
    /// Games the embedded store holds at most (the games idle longest make room).
    pub max_games: usize,
    /// Log filter in `tracing_subscriber::EnvFilter` syntax.
    pub log_filter: String,
    /// The origins whose web pages may call the API (CORS).
    pub cors_origins: CorsOrigins,
    /// Open event streams this instance holds; more are refused with 503.
    pub max_streams: usize,
    /// Time between the comment lines that keep an idle event stream open.
    pub stream_heartbeat: Duration,
    /// Per-client rate limits.
    pub limits: RateLimits,
    /// How log lines are written.
    pub log_format: LogFormat,
    /// Upper bound on one store call: past it the request fails fast with 503.
    pub store_timeout: Duration,
    /// On SIGTERM, how long in-flight requests may take to finish before the process exits.
    pub shutdown_grace: Duration,
}

/// How log lines are written (`HALMA_LOG_FORMAT`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LogFormat {
    /// Human-readable lines (coloured on a terminal).
    #[default]
    Text,
    /// One JSON object per line, with the fields of the enclosing spans (the request id).
    Json,
}

impl LogFormat {
    /// Reads `text` or `json` (any case).
    ///
    /// # Errors
    /// A [`ConfigError`] naming `HALMA_LOG_FORMAT` for anything else.
    pub fn parse(text: &str) -> Result<Self, ConfigError> {
        if text.eq_ignore_ascii_case("text") {
            Ok(Self::Text)
        } else if text.eq_ignore_ascii_case("json") {
            Ok(Self::Json)
        } else {
            Err(ConfigError::new(
                "HALMA_LOG_FORMAT",
                format!("expected text or json, got {text:?}"),
            ))
        }
    }
}

/// The origins whose web pages may call the API from a browser (CORS).
///
/// Any origin may by default: the API authorises by bearer token, never by cookie, so a page
/// of another origin gains nothing a script outside a browser does not have.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum CorsOrigins {
    /// Every origin (`*`).
    #[default]
    Any,
    /// Only these origins (`scheme://host[:port]`, lower case, no trailing slash).
    List(Vec<String>),
}

impl CorsOrigins {
    /// Reads `*` or a comma list of origins such as `https://games.example,http://localhost:5173`.
    ///
    /// # Errors
    /// A [`ConfigError`] naming `HALMA_CORS_ORIGINS` and the entry that is not an origin.
    pub fn parse(text: &str) -> Result<Self, ConfigError> {
        const VAR: &str = "HALMA_CORS_ORIGINS";
        if text.trim() == "*" {
            return Ok(Self::Any);
        }
        let mut origins = Vec::new();
        for entry in text.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            let invalid = |why: &str| {
                ConfigError::new(
                    VAR,
                    format!("{entry:?} is not an origin such as https://games.example ({why}); use * for any origin"),
                )
            };
            let url = url::Url::parse(entry).map_err(|_| invalid("not a URL"))?;
            if !matches!(url.scheme(), "http" | "https") {
                return Err(invalid("the scheme must be http or https"));
            }
            if url.host_str().is_none() {
                return Err(invalid("it has no host"));
            }
            if url.path() != "/" || url.query().is_some() || url.fragment().is_some() {
                return Err(invalid("an origin has no path, query or fragment"));
            }
            if !url.username().is_empty() || url.password().is_some() {
                return Err(invalid("an origin has no user name or password"));
            }
            let origin = url.origin().ascii_serialization();
            if !origins.contains(&origin) {
                origins.push(origin);
            }
        }
        if origins.is_empty() {
            return Err(ConfigError::new(
                VAR,
                "no origin given; use * for any origin or a comma list of origins",
            ));
        }
        Ok(Self::List(origins))
    }
}

impl Default for Config {
    fn default() -> Self {
        Self {
            bind: DEFAULT_BIND.to_owned(),
            redis_url: None,
            redis_cluster: Vec::new(),
            game_ttl: DEFAULT_GAME_TTL,
            waiting_ttl: DEFAULT_WAITING_TTL,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            ai_max_time: DEFAULT_AI_MAX_TIME,
            key_prefix: DEFAULT_KEY_PREFIX.to_owned(),
            game_cache: DEFAULT_GAME_CACHE,
            max_games: DEFAULT_MAX_GAMES,
            log_filter: DEFAULT_LOG_FILTER.to_owned(),
            cors_origins: CorsOrigins::Any,
            max_streams: DEFAULT_MAX_STREAMS,
            stream_heartbeat: DEFAULT_STREAM_HEARTBEAT,
            limits: RateLimits::default(),
            log_format: LogFormat::Text,
            store_timeout: DEFAULT_STORE_TIMEOUT,
            shutdown_grace: DEFAULT_SHUTDOWN_GRACE,
        }
    }
}

impl Config {
    /// Reads the configuration from the process environment.
    ///
    /// # Errors
    /// A [`ConfigError`] naming the first variable whose value is invalid.
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::from_lookup(|name| std::env::var_os(name))
    }

    /// Reads the configuration through `lookup`, which answers a variable's value by name.
    ///
    /// ```
    /// use halma_server::config::Config;
    /// let config = Config::from_lookup(|name| match name {
    ///     "HALMA_BIND" => Some("0.0.0.0:9000".into()),
    ///     _ => None,
    /// })?;
    /// assert_eq!(config.bind, "0.0.0.0:9000");
    /// assert!(config.redis_url.is_none());
    /// # Ok::<(), halma_server::config::ConfigError>(())
    /// ```
    ///
    /// # Errors
    /// A [`ConfigError`] naming the first variable whose value is invalid.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<OsString>) -> Result<Self, ConfigError> {
        let var = |name: &'static str| -> Result<Option<String>, ConfigError> {
            match lookup(name) {
                None => Ok(None),
                Some(value) => match value.into_string() {
                    Ok(text) if text.trim().is_empty() => Ok(None),
                    Ok(text) => Ok(Some(text.trim().to_owned())),
                    Err(_) => Err(ConfigError::new(name, "the value is not valid UTF-8")),
                },
            }
        };
        let defaults = Self::default();
        let (redis_url, redis_cluster) =
            redis_target(var("REDIS_URL")?, var("REDIS_CLUSTER_URLS")?)?;
        Ok(Self {
            bind: match var("HALMA_BIND")? {
                Some(text) => parse_bind(&text)?,
                None => defaults.bind,
            },
            redis_url,
            redis_cluster,
            game_ttl: match var("HALMA_GAME_TTL_SECS")? {
                Some(text) => Duration::from_secs(parse_in_range(
                    "HALMA_GAME_TTL_SECS",
                    &text,
                    1,
                    MAX_GAME_TTL_SECS,
                )?),
                None => defaults.game_ttl,
            },
            waiting_ttl: match var("HALMA_WAITING_TTL_SECS")? {
                Some(text) => Duration::from_secs(parse_in_range(
                    "HALMA_WAITING_TTL_SECS",
                    &text,
                    1,
                    MAX_GAME_TTL_SECS,
                )?),
                None => defaults.waiting_ttl,
            },
            max_body_bytes: match var("HALMA_MAX_BODY_BYTES")? {
                Some(text) => parse_in_range(
                    "HALMA_MAX_BODY_BYTES",
                    &text,
                    MIN_BODY_BYTES,
                    MAX_BODY_BYTES,
                )?,
                None => defaults.max_body_bytes,
            },
            ai_max_time: match var("HALMA_AI_MAX_MS")? {
                Some(text) => {
                    Duration::from_millis(parse_in_range("HALMA_AI_MAX_MS", &text, 1, MAX_AI_MS)?)
                }
                None => defaults.ai_max_time,
            },
            key_prefix: var("HALMA_KEY_PREFIX")?.unwrap_or(defaults.key_prefix),
            game_cache: match var("HALMA_GAME_CACHE")? {
                Some(text) => parse_in_range("HALMA_GAME_CACHE", &text, 0, MAX_GAME_CACHE)?,
                None => defaults.game_cache,
            },
            max_games: match var("HALMA_MAX_GAMES")? {
                Some(text) => parse_in_range("HALMA_MAX_GAMES", &text, 1, MAX_MAX_GAMES)?,
                None => defaults.max_games,
            },
            log_filter: match var("HALMA_LOG")? {
                Some(text) => {
                    tracing_subscriber::EnvFilter::try_new(&text).map_err(|err| {
                        ConfigError::new("HALMA_LOG", format!("invalid log filter: {err}"))
                    })?;
                    text
                }
                None => defaults.log_filter,
            },
            cors_origins: match var("HALMA_CORS_ORIGINS")? {
                Some(text) => CorsOrigins::parse(&text)?,
                None => defaults.cors_origins,
            },
            max_streams: match var("HALMA_MAX_STREAMS")? {
                Some(text) => parse_in_range("HALMA_MAX_STREAMS", &text, 1, MAX_STREAMS)?,
                None => defaults.max_streams,
            },
            stream_heartbeat: match var("HALMA_STREAM_HEARTBEAT_SECS")? {
                Some(text) => Duration::from_secs(parse_in_range(
                    "HALMA_STREAM_HEARTBEAT_SECS",
                    &text,
                    1,
                    MAX_STREAM_HEARTBEAT_SECS,
                )?),
                None => defaults.stream_heartbeat,
            },
            limits: RateLimits::from_vars(var)?,
            log_format: match var("HALMA_LOG_FORMAT")? {
                Some(text) => LogFormat::parse(&text)?,
                None => defaults.log_format,
            },
            store_timeout: match var("HALMA_STORE_TIMEOUT_MS")? {
                Some(text) => Duration::from_millis(parse_in_range(
                    "HALMA_STORE_TIMEOUT_MS",
                    &text,
                    MIN_STORE_TIMEOUT_MS,
                    MAX_STORE_TIMEOUT_MS,
                )?),
                None => defaults.store_timeout,
            },
            shutdown_grace: match var("HALMA_SHUTDOWN_GRACE_SECS")? {
                Some(text) => Duration::from_secs(parse_in_range(
                    "HALMA_SHUTDOWN_GRACE_SECS",
                    &text,
                    0,
                    MAX_SHUTDOWN_GRACE_SECS,
                )?),
                None => defaults.shutdown_grace,
            },
        })
    }
}

/// Checks a `HOST:PORT` listen address without resolving the host.
fn parse_bind(text: &str) -> Result<String, ConfigError> {
    let invalid = || {
        ConfigError::new(
            "HALMA_BIND",
            format!("expected HOST:PORT such as 127.0.0.1:8080, got {text:?}"),
        )
    };
    let (host, port) = text.rsplit_once(':').ok_or_else(invalid)?;
    if host.is_empty() || port.parse::<u16>().is_err() {
        return Err(invalid());
    }
    Ok(text.to_owned())
}

/// Parses a decimal integer within `min..=max`.
fn parse_in_range<T>(name: &'static str, text: &str, min: T, max: T) -> Result<T, ConfigError>
where
    T: std::str::FromStr + PartialOrd + fmt::Display + Copy,
{
    match text.parse::<T>() {
        Ok(value) if value >= min && value <= max => Ok(value),
        _ => Err(ConfigError::new(
            name,
            format!("expected an integer from {min} to {max}, got {text:?}"),
        )),
    }
}

/// An invalid configuration value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid {variable}: {reason}")]
pub struct ConfigError {
    /// The environment variable at fault.
    pub variable: &'static str,
    /// What is wrong with its value (never the value of a secret).
    pub reason: String,
}

impl ConfigError {
    pub(crate) fn new(variable: &'static str, reason: impl Into<String>) -> Self {
        Self {
            variable,
            reason: reason.into(),
        }
    }
}

/// A Redis connection URL. It may carry a password, so it prints redacted.
#[derive(Clone, PartialEq, Eq)]
pub struct RedisUrl(String);

impl RedisUrl {
    /// Checks that `text` is a Redis URL the client accepts.
    ///
    /// ```
    /// use halma_server::config::RedisUrl;
    /// let url = RedisUrl::parse("redis://:hunter2@cache:6379/0")?;
    /// assert_eq!(url.to_string(), "redis://:***@cache:6379/0");
    /// assert_eq!(url.expose_secret(), "redis://:hunter2@cache:6379/0");
    /// # Ok::<(), halma_server::config::ConfigError>(())
    /// ```
    ///
    /// # Errors
    /// A [`ConfigError`] for `REDIS_URL` when the URL is not usable; it does not repeat
    /// the password.
    pub fn parse(text: impl Into<String>) -> Result<Self, ConfigError> {
        Self::parse_for("REDIS_URL", text)
    }

    /// [`parse`](Self::parse), an error naming `variable`.
    fn parse_for(variable: &'static str, text: impl Into<String>) -> Result<Self, ConfigError> {
        let url = Self(text.into());
        match ::redis::Client::open(url.0.as_str()) {
            Ok(_) => Ok(url),
            Err(err) => Err(ConfigError::new(
                variable,
                format!(
                    "not a usable Redis URL ({}): expected redis://[user:password@]host[:port][/db]",
                    err.category()
                ),
            )),
        }
    }

    /// The full URL, password included: only for opening the connection.
    pub fn expose_secret(&self) -> &str {
        &self.0
    }

    /// The URL with its password (and any `pass`/`password` query value) replaced by `***`.
    pub fn redacted(&self) -> String {
        let Ok(mut url) = url::Url::parse(&self.0) else {
            return "<unparsable URL>".to_owned();
        };
        if url.password().is_some() && url.set_password(Some("***")).is_err() {
            return "<URL with a password>".to_owned();
        }
        let has_secret_query = url.query_pairs().any(|(key, _)| is_secret_query_key(&key));
        if has_secret_query {
            let pairs: Vec<(String, String)> = url
                .query_pairs()
                .map(|(key, value)| {
                    let value = if is_secret_query_key(&key) {
                        "***".to_owned()
                    } else {
                        value.into_owned()
                    };
                    (key.into_owned(), value)
                })
                .collect();
            url.query_pairs_mut().clear().extend_pairs(pairs);
        }
        url.to_string().replace("%2A%2A%2A", "***")
    }
}

fn is_secret_query_key(key: &str) -> bool {
    key.eq_ignore_ascii_case("pass") || key.eq_ignore_ascii_case("password")
}

/// The store that `REDIS_URL` and `REDIS_CLUSTER_URLS` ask for: one server, or the seed nodes
/// of a cluster (from the list, or from a `redis+cluster://` URL).
fn redis_target(
    url: Option<String>,
    cluster: Option<String>,
) -> Result<(Option<RedisUrl>, Vec<RedisUrl>), ConfigError> {
    match (url, cluster) {
        (Some(_), Some(_)) => Err(ConfigError::new(
            "REDIS_CLUSTER_URLS",
            "set either REDIS_URL or REDIS_CLUSTER_URLS, not both",
        )),
        (None, Some(list)) => {
            let nodes = list
                .split(',')
                .map(str::trim)
                .filter(|node| !node.is_empty())
                .map(|node| RedisUrl::parse_for("REDIS_CLUSTER_URLS", node))
                .collect::<Result<Vec<_>, _>>()?;
            if nodes.is_empty() {
                return Err(ConfigError::new("REDIS_CLUSTER_URLS", "no node is given"));
            }
            Ok((None, nodes))
        }
        (Some(url), None) => match url.strip_prefix("redis+cluster://") {
            Some(rest) => Ok((None, cluster_seeds(rest)?)),
            None => Ok((Some(RedisUrl::parse(url)?), Vec::new())),
        },
        (None, None) => Ok((None, Vec::new())),
    }
}

/// The seed nodes of `[user:password@]host:port[,host:port...][/...]`, each a `redis://` URL
/// with the credentials.
fn cluster_seeds(rest: &str) -> Result<Vec<RedisUrl>, ConfigError> {
    let authority = rest.split(['/', '?']).next().unwrap_or_default();
    let (credentials, hosts) = match authority.rsplit_once('@') {
        Some((credentials, hosts)) => (format!("{credentials}@"), hosts),
        None => (String::new(), authority),
    };
    let nodes = hosts
        .split(',')
        .map(str::trim)
        .filter(|host| !host.is_empty())
        .map(|host| RedisUrl::parse(format!("redis://{credentials}{host}")))
        .collect::<Result<Vec<_>, _>>()?;
    if nodes.is_empty() {
        return Err(ConfigError::new(
            "REDIS_URL",
            "a redis+cluster:// URL needs at least one host:port",
        ));
    }
    Ok(nodes)
}

impl fmt::Debug for RedisUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("RedisUrl").field(&self.redacted()).finish()
    }
}

impl fmt::Display for RedisUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.redacted())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn config_from(vars: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let vars: HashMap<String, OsString> = vars
            .iter()
            .map(|(key, value)| ((*key).to_owned(), OsString::from(value)))
            .collect();
        Config::from_lookup(|name| vars.get(name).cloned())
    }

    #[test]
    fn defaults_apply_when_nothing_is_set() {
        assert_eq!(config_from(&[]), Ok(Config::default()));
        let config = Config::default();
        assert_eq!(config.bind, "127.0.0.1:8080");
        assert_eq!(config.game_ttl, Duration::from_secs(2_592_000));
        assert_eq!(config.waiting_ttl, Duration::from_secs(3600));
        assert_eq!(config.max_body_bytes, 65_536);
        assert_eq!(config.ai_max_time, Duration::from_millis(2000));
        assert_eq!(config.key_prefix, "halma:");
        assert_eq!(config.game_cache, 5_000);
        assert_eq!(config.log_filter, "info");
        assert!(config.redis_url.is_none());
        assert_eq!(config.log_format, LogFormat::Text);
        assert_eq!(config.store_timeout, Duration::from_millis(2000));
        assert_eq!(config.shutdown_grace, Duration::from_secs(10));
    }

    #[test]
    fn a_redis_cluster_is_named_by_its_nodes_or_a_cluster_url() {
        let nodes = |urls: &[&str]| -> Vec<RedisUrl> {
            urls.iter()
                .filter_map(|u| RedisUrl::parse(*u).ok())
                .collect()
        };
        let listed = config_from(&[(
            "REDIS_CLUSTER_URLS",
            "redis://127.0.0.1:7000, redis://127.0.0.1:7001",
        )])
        .ok();
        assert_eq!(
            listed.map(|c| (c.redis_url, c.redis_cluster)),
            Some((
                None,
                nodes(&["redis://127.0.0.1:7000", "redis://127.0.0.1:7001"])
            ))
        );
        let url = config_from(&[(
            "REDIS_URL",
            "redis+cluster://:pw@10.0.0.1:7000,10.0.0.2:7000/",
        )])
        .ok();
        assert_eq!(
            url.map(|c| (c.redis_url, c.redis_cluster)),
            Some((
                None,
                nodes(&["redis://:pw@10.0.0.1:7000", "redis://:pw@10.0.0.2:7000"])
            ))
        );
        for bad in [
            vec![("REDIS_CLUSTER_URLS", " , ")],
            vec![("REDIS_CLUSTER_URLS", "http://x:1")],
            vec![("REDIS_URL", "redis+cluster:///")],
            vec![
                ("REDIS_URL", "redis://127.0.0.1"),
                ("REDIS_CLUSTER_URLS", "redis://127.0.0.1:7000"),
            ],
        ] {
            let err = config_from(&bad).err();
            assert!(
                err.as_ref()
                    .is_some_and(|e| e.variable.starts_with("REDIS")),
                "{bad:?}: {err:?}"
            );
        }
    }

    #[test]
    fn every_variable_is_read() {
        let config = config_from(&[
            ("HALMA_BIND", "0.0.0.0:9000"),
            ("REDIS_URL", "redis://127.0.0.1:6390/2"),
            ("HALMA_GAME_TTL_SECS", "60"),
            ("HALMA_WAITING_TTL_SECS", "30"),
            ("HALMA_MAX_BODY_BYTES", "2048"),
            ("HALMA_AI_MAX_MS", "500"),
            ("HALMA_KEY_PREFIX", "test:"),
            ("HALMA_GAME_CACHE", "0"),
            ("HALMA_MAX_GAMES", "1000"),
            ("HALMA_LOG", "halma_server=debug,warn"),
            (
                "HALMA_CORS_ORIGINS",
                "https://games.example, http://localhost:5173",
            ),
            ("HALMA_MAX_STREAMS", "7"),
            ("HALMA_STREAM_HEARTBEAT_SECS", "3"),
            ("HALMA_LOG_FORMAT", "JSON"),
            ("HALMA_STORE_TIMEOUT_MS", "250"),
            ("HALMA_SHUTDOWN_GRACE_SECS", "0"),
        ]);
        let expected = Config {
            bind: "0.0.0.0:9000".to_owned(),
            redis_url: RedisUrl::parse("redis://127.0.0.1:6390/2").ok(),
            redis_cluster: Vec::new(),
            game_ttl: Duration::from_secs(60),
            waiting_ttl: Duration::from_secs(30),
            max_body_bytes: 2048,
            ai_max_time: Duration::from_millis(500),
            key_prefix: "test:".to_owned(),
            game_cache: 0,
            max_games: 1000,
            log_filter: "halma_server=debug,warn".to_owned(),
            cors_origins: CorsOrigins::List(vec![
                "https://games.example".to_owned(),
                "http://localhost:5173".to_owned(),
            ]),
            max_streams: 7,
            stream_heartbeat: Duration::from_secs(3),
            limits: RateLimits::default(),
            log_format: LogFormat::Json,
            store_timeout: Duration::from_millis(250),
            shutdown_grace: Duration::ZERO,
        };
        assert_eq!(config, Ok(expected));
    }

    #[test]
    fn empty_values_count_as_unset() {
        assert_eq!(
            config_from(&[("REDIS_URL", ""), ("HALMA_BIND", "  ")]),
            Ok(Config::default())
        );
    }

    #[test]
    fn invalid_values_name_their_variable() {
        let cases = [
            ("HALMA_BIND", "8080"),
            ("HALMA_BIND", "localhost:http"),
            ("HALMA_BIND", ":8080"),
            ("REDIS_URL", "http://example.com"),
            ("HALMA_GAME_TTL_SECS", "0"),
            ("HALMA_GAME_TTL_SECS", "-5"),
            ("HALMA_GAME_TTL_SECS", "thirty days"),
            ("HALMA_WAITING_TTL_SECS", "0"),
            ("HALMA_MAX_BODY_BYTES", "12"),
            ("HALMA_AI_MAX_MS", "99999999999"),
            ("HALMA_GAME_CACHE", "-1"),
            ("HALMA_GAME_CACHE", "99999999999"),
            ("HALMA_MAX_GAMES", "0"),
            ("HALMA_RATE_LIMITS", "sometimes"),
            ("HALMA_RATE_GAMES", "lots"),
            ("HALMA_LOG", "halma_server=loud"),
            ("HALMA_LOG_FORMAT", "yaml"),
            ("HALMA_STORE_TIMEOUT_MS", "0"),
            ("HALMA_STORE_TIMEOUT_MS", "5"),
            ("HALMA_STORE_TIMEOUT_MS", "2s"),
            ("HALMA_STORE_TIMEOUT_MS", "600000"),
            ("HALMA_SHUTDOWN_GRACE_SECS", "-1"),
            ("HALMA_SHUTDOWN_GRACE_SECS", "1.5"),
            ("HALMA_SHUTDOWN_GRACE_SECS", "86400"),
        ];
        for (variable, value) in cases {
            let err = config_from(&[(variable, value)]).err();
            assert_eq!(
                err.as_ref().map(|err| err.variable),
                Some(variable),
                "{variable}={value:?} gave {err:?}"
            );
            let message = err.map(|err| err.to_string()).unwrap_or_default();
            assert!(
                message.starts_with(&format!("invalid {variable}: ")),
                "{message}"
            );
        }
    }

    #[test]
    fn cors_origins_are_checked_and_normalised() {
        assert_eq!(CorsOrigins::parse("*"), Ok(CorsOrigins::Any));
        assert_eq!(
            CorsOrigins::parse("HTTPS://Games.Example:443/,https://games.example"),
            Ok(CorsOrigins::List(vec!["https://games.example".to_owned()]))
        );
        assert_eq!(
            CorsOrigins::parse("http://127.0.0.1:5173"),
            Ok(CorsOrigins::List(vec!["http://127.0.0.1:5173".to_owned()]))
        );
        for bad in [
            "games.example",
            "ftp://games.example",
            "https://games.example/play",
            "https://games.example?x=1",
            "https://user:pw@games.example",
            ",",
        ] {
            let err = CorsOrigins::parse(bad).expect_err(bad);
            assert_eq!(err.variable, "HALMA_CORS_ORIGINS", "{bad}");
        }
    }

    #[test]
    fn ipv6_and_host_names_bind() {
        for bind in ["[::1]:8080", "localhost:0", "0.0.0.0:65535"] {
            assert_eq!(
                config_from(&[("HALMA_BIND", bind)]).map(|c| c.bind),
                Ok(bind.to_owned())
            );
        }
    }

    #[test]
    fn redis_passwords_never_print() {
        let url = RedisUrl::parse("redis://user:s3cret@cache.internal:6379/1");
        let url = url
            .as_ref()
            .map(|url| (url.to_string(), format!("{url:?}")));
        let (display, debug) = url.unwrap_or_default();
        assert_eq!(display, "redis://user:***@cache.internal:6379/1");
        assert!(!debug.contains("s3cret"), "{debug}");

        let unix = RedisUrl::parse("redis+unix:///run/redis.sock?db=2&pass=s3cret")
            .map(|url| url.redacted())
            .unwrap_or_default();
        assert_eq!(unix, "redis+unix:///run/redis.sock?db=2&pass=***");

        let plain = RedisUrl::parse("redis://127.0.0.1:6379")
            .map(|url| url.redacted())
            .unwrap_or_default();
        assert_eq!(plain, "redis://127.0.0.1:6379");
    }

    #[test]
    fn an_invalid_redis_url_error_does_not_repeat_the_password() {
        let err = config_from(&[("REDIS_URL", "rediss//:s3cret@host")]).err();
        let message = err.map(|err| err.to_string()).unwrap_or_default();
        assert!(message.starts_with("invalid REDIS_URL: "), "{message}");
        assert!(!message.contains("s3cret"), "{message}");
    }
}
