//! The game store: versioned games, each a head document and an append-only log, with idle
//! expiry.
//!
//! Every game is a head (a JSON document, opaque to the store, rewritten by every write) and
//! a log of entries (opaque texts, one per version: entry `v` is what the write of version `v`
//! added), with a version that starts at 1 and grows by one with every accepted write. A write
//! replaces the head and appends one entry, so its cost does not grow with the game; only a
//! reader that holds nothing of the game reads the whole log. Writes are compare-and-set on the
//! version, so two clients racing on the same version get one success and one
//! [`StoreError::VersionMismatch`], also across several service instances sharing one Redis.
//!
//! Expiry: every write (create and compare-and-set) restarts the game's idle timer; reads do
//! not, so a game nobody moves in expires even while spectators watch it, and a read costs no
//! write. A game waiting for players ([`Lifetime::Waiting`]) has a shorter timer of its own.
//!
//! The lobby index: named sorted sets of entries (`{created_at}.{id}` texts, see
//! [`lobby_entry`]) that [`Store::lobby_page`] lists newest first. The index is a hint kept
//! beside the games, not part of their writes: whoever reads a page checks each game and
//! removes entries whose game is gone or no longer listed.
//!
//! Readers that keep restored games in memory ask [`Store::get_if_changed`] with the version they
//! hold: the store then sends nothing when the game is still there, and otherwise the head and
//! only the entries written since.
//!
//! [`Store`] is an enum over the two back ends: [`MemoryStore`] (the default, one process) and
//! [`RedisStore`] (shared).

mod changes;
mod memory;
mod redis;

use std::future::Future;
use std::time::{Duration, Instant};

pub use self::changes::{Changes, Watch};
pub use self::memory::MemoryStore;
pub use self::redis::RedisStore;
use crate::config::Config;

/// A game's version: 1 after creation, one more after each accepted write.
pub type Version = u64;

/// A stored game, whole: its version, head and log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// The version of `head`.
    pub version: Version,
    /// The head document (JSON, opaque to the store).
    pub head: String,
    /// The log, oldest entry first. A game written by this service has one entry per version;
    /// a game stored before the log was kept has none (its head holds everything).
    pub log: Vec<String>,
}

/// What [`Store::get_if_changed`] found for a game that exists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// The game is still at the version the caller holds; nothing was sent.
    Unchanged,
    /// The game moved on from the version the caller holds by appending to its log: the new
    /// version, the head, and the entries of the versions after the caller's, oldest first.
    Appended {
        /// The current version.
        version: Version,
        /// The current head.
        head: String,
        /// The entries of versions `known + 1` to `version`.
        entries: Vec<String>,
    },
    /// The game is at another version that the caller's cannot be brought up to from the
    /// log (a version the store never had, or a game without a log): the whole game.
    Changed(StoredGame),
}

/// What a compare-and-set does to the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogWrite<'a> {
    /// Appends the entry of the new version: the usual write.
    Append(&'a str),
    /// Replaces the log with these entries, one per version up to the new one: for a game
    /// stored before the log was kept, whose first write since moves everything into it.
    Replace(&'a [String]),
}

/// Which idle timer a write sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lifetime {
    /// A game being played (or over): the store's game TTL.
    Playing,
    /// A game waiting for players to join: the store's waiting TTL.
    Waiting,
}

/// The lobby entry of a game created at `created_at` (seconds since the Unix epoch): entries
/// sort by creation time, then by id.
pub fn lobby_entry(created_at: u64, id: &str) -> String {
    format!("{created_at:012}.{id}")
}

/// The game id of a lobby entry, when `entry` is one.
pub fn lobby_entry_id(entry: &str) -> Option<&str> {
    let (time, id) = entry.split_once('.')?;
    let well_formed = time.len() == 12
        && time.bytes().all(|b| b.is_ascii_digit())
        && !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    well_formed.then_some(id)
}

/// Counter increments written with a game's last move, in the same atomic step as the
/// write (so each finished game counts once, however many instances race on its last move).
/// Each group names a set of counters (a hash in Redis) and the increments of its fields.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// `(set name, [(field, increment)])`.
    pub groups: Vec<(String, Vec<(String, i64)>)>,
}

/// Which back end a [`Store`] uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoreKind {
    /// The embedded in-memory store.
    Memory,
    /// A Redis server.
    Redis,
}

impl StoreKind {
    /// The kind's name: `memory` or `redis`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Memory => "memory",
            Self::Redis => "redis",
        }
    }
}

/// Why a store operation failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// `create` with an id that is already taken.
    #[error("a game with this id already exists")]
    AlreadyExists,
    /// No game has this id (or it expired).
    #[error("no game with this id")]
    NotFound,
    /// The write was based on a version that is no longer current.
    #[error("version mismatch: the current version is {current}")]
    VersionMismatch {
        /// The current version.
        current: Version,
    },
    /// The store could not be reached or refused the command.
    #[error("the store is unavailable")]
    Unavailable(#[source] ::redis::RedisError),
    /// The store did not answer in time.
    #[error("the store did not answer within {0:?}")]
    TimedOut(Duration),
    /// The stored data is not what this service writes.
    #[error("corrupt data under key {key}: {detail}")]
    Corrupt {
        /// The key holding the data.
        key: String,
        /// What is wrong with it.
        detail: String,
    },
}

/// The game store: in memory or in Redis.
#[derive(Clone, Debug)]
pub enum Store {
    /// The embedded in-memory store.
    Memory(MemoryStore),
    /// The Redis store.
    Redis(RedisStore),
}

impl Store {
    /// The store the configuration asks for: a Redis Cluster when cluster nodes are given,
    /// Redis when `REDIS_URL` is set, memory otherwise.
    ///
    /// The Redis connection is opened lazily, so the service starts while Redis is down and
    /// reports itself unready until Redis answers.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] when the Redis client rejects the URL.
    pub async fn from_config(config: &Config) -> Result<Self, StoreError> {
        if !config.redis_cluster.is_empty() {
            let nodes: Vec<String> = config
                .redis_cluster
                .iter()
                .map(|url| url.expose_secret().to_owned())
                .collect();
            return Ok(Self::Redis(
                RedisStore::open_cluster(
                    &nodes,
                    &config.key_prefix,
                    config.game_ttl,
                    config.store_timeout,
                )
                .await?
                .with_waiting_ttl(config.waiting_ttl),
            ));
        }
        Ok(match &config.redis_url {
            Some(url) => Self::Redis(
                RedisStore::open_with_timeout(
                    url.expose_secret(),
                    &config.key_prefix,
                    config.game_ttl,
                    config.store_timeout,
                )
                .await?
                .with_waiting_ttl(config.waiting_ttl),
            ),
            None => Self::Memory(
                MemoryStore::new(config.game_ttl)
                    .with_waiting_ttl(config.waiting_ttl)
                    .with_max_games(config.max_games),
            ),
        })
    }

    /// Which back end this store uses.
    pub fn kind(&self) -> StoreKind {
        match self {
            Self::Memory(_) => StoreKind::Memory,
            Self::Redis(_) => StoreKind::Redis,
        }
    }

    /// Stores a new game at version 1 with its head and the log's first entry, to expire after
    /// the idle time of `lifetime`.
    ///
    /// # Errors
    /// [`StoreError::AlreadyExists`] when the id is taken; for Redis also
    /// [`StoreError::Unavailable`] and [`StoreError::TimedOut`].
    pub async fn create(
        &self,
        id: &str,
        head: &str,
        entry: &str,
        lifetime: Lifetime,
    ) -> Result<Version, StoreError> {
        observed("create", async {
            match self {
                Self::Memory(store) => store.create(id, head, entry, lifetime),
                Self::Redis(store) => store.create(id, head, entry, lifetime).await,
            }
        })
        .await
    }

    /// Reads a game whole, its log included; `None` when no game has this id (or it expired).
    /// Does not restart the idle timer.
    ///
    /// # Errors
    /// For Redis: [`StoreError::Unavailable`], [`StoreError::TimedOut`], and
    /// [`StoreError::Corrupt`] when the key holds something this service did not write.
    pub async fn get(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        observed("get", async {
            match self {
                Self::Memory(store) => Ok(store.get(id)),
                Self::Redis(store) => store.get(id).await,
            }
        })
        .await
    }

    /// Reads a game whose version `known` the caller already holds: [`Lookup::Unchanged`] when
    /// the stored version is `known` (sending nothing else), [`Lookup::Appended`] with the
    /// head and the entries written since when the log has them, the whole game otherwise;
    /// `None` when no game has this id (or it expired). Checks the stored game as strictly as
    /// [`get`](Self::get), in one atomic step, and does not restart the idle timer.
    ///
    /// # Errors
    /// As for [`get`](Self::get).
    pub async fn get_if_changed(
        &self,
        id: &str,
        known: Version,
    ) -> Result<Option<Lookup>, StoreError> {
        observed("get_if_changed", async {
            match self {
                Self::Memory(store) => Ok(store.get_if_changed(id, known)),
                Self::Redis(store) => store.get_if_changed(id, known).await,
            }
        })
        .await
    }

    /// Replaces a game's head and writes its log (see [`LogWrite`]) if its version is still
    /// `expected`; returns the new version (`expected + 1`) and restarts the idle timer, with
    /// the idle time of `lifetime`.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when no game has this id, [`StoreError::VersionMismatch`]
    /// with the current version when it is not `expected`; for Redis also
    /// [`StoreError::Unavailable`], [`StoreError::TimedOut`] and [`StoreError::Corrupt`].
    pub async fn compare_and_set(
        &self,
        id: &str,
        expected: Version,
        head: &str,
        log: LogWrite<'_>,
        lifetime: Lifetime,
    ) -> Result<Version, StoreError> {
        observed("compare_and_set", async {
            match self {
                Self::Memory(store) => store.compare_and_set(id, expected, head, log, lifetime),
                Self::Redis(store) => {
                    store
                        .compare_and_set(id, expected, head, log, lifetime)
                        .await
                }
            }
        })
        .await
    }

    /// [`compare_and_set`](Self::compare_and_set), adding `counters` in the same atomic step
    /// when the write succeeds (and only then).
    ///
    /// # Errors
    /// As for [`compare_and_set`](Self::compare_and_set).
    pub async fn compare_and_set_counting(
        &self,
        id: &str,
        expected: Version,
        head: &str,
        log: LogWrite<'_>,
        lifetime: Lifetime,
        counters: &Counters,
    ) -> Result<Version, StoreError> {
        observed("compare_and_set_counting", async {
            match self {
                Self::Memory(store) => {
                    store.compare_and_set_counting(id, expected, head, log, lifetime, counters)
                }
                Self::Redis(store) => {
                    store
                        .compare_and_set_counting(id, expected, head, log, lifetime, counters)
                        .await
                }
            }
        })
        .await
    }

    /// The names of every counter set written so far.
    ///
    /// # Errors
    /// For Redis: [`StoreError::Unavailable`] or [`StoreError::TimedOut`].
    pub async fn counter_sets(&self) -> Result<Vec<String>, StoreError> {
        observed("counter_sets", async {
            match self {
                Self::Memory(store) => Ok(store.counter_sets()),
                Self::Redis(store) => store.counter_sets().await,
            }
        })
        .await
    }

    /// The counters of the set `name` (empty when it was never written).
    ///
    /// # Errors
    /// For Redis: [`StoreError::Unavailable`], [`StoreError::TimedOut`], and
    /// [`StoreError::Corrupt`] for a field that is not an integer.
    pub async fn counters(&self, name: &str) -> Result<Vec<(String, i64)>, StoreError> {
        observed("counters", async {
            match self {
                Self::Memory(store) => Ok(store.counters(name)),
                Self::Redis(store) => store.counters(name).await,
            }
        })
        .await
    }

    /// Removes a game (head and log) if its version is still `expected`. Its watchers hear of it (as a change
    /// to version `expected + 1`) and then find it gone.
    ///
    /// # Errors
    /// As for [`compare_and_set`](Self::compare_and_set).
    pub async fn delete(&self, id: &str, expected: Version) -> Result<(), StoreError> {
        observed("delete", async {
            match self {
                Self::Memory(store) => store.delete(id, expected),
                Self::Redis(store) => store.delete(id, expected).await,
            }
        })
        .await
    }

    /// Adds `entry` (see [`lobby_entry`]) to each of the lobby indexes `indexes`.
    ///
    /// # Errors
    /// For Redis: [`StoreError::Unavailable`] or [`StoreError::TimedOut`].
    pub async fn lobby_add(&self, entry: &str, indexes: &[String]) -> Result<(), StoreError> {
        observed("lobby_add", async {
            match self {
                Self::Memory(store) => {
                    store.lobby_add(entry, indexes);
                    Ok(())
                }
                Self::Redis(store) => store.lobby_update(entry, indexes, true).await,
            }
        })
        .await
    }

    /// Removes `entry` from each of the lobby indexes `indexes` (where it is).
    ///
    /// # Errors
    /// For Redis: [`StoreError::Unavailable`] or [`StoreError::TimedOut`].
    pub async fn lobby_remove(&self, entry: &str, indexes: &[String]) -> Result<(), StoreError> {
        observed("lobby_remove", async {
            match self {
                Self::Memory(store) => {
                    store.lobby_remove(entry, indexes);
                    Ok(())
                }
                Self::Redis(store) => store.lobby_update(entry, indexes, false).await,
            }
        })
        .await
    }

    /// Up to `limit` entries of the lobby index `index`, newest first, starting after the
    /// entry `after` when given (a page's last entry, to read the next page).
    ///
    /// # Errors
    /// For Redis: [`StoreError::Unavailable`], [`StoreError::TimedOut`], and
    /// [`StoreError::Corrupt`] when the index holds something this service did not write.
    pub async fn lobby_page(
        &self,
        index: &str,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        observed("lobby_page", async {
            match self {
                Self::Memory(store) => Ok(store.lobby_page(index, after, limit)),
                Self::Redis(store) => store.lobby_page(index, after, limit).await,
            }
        })
        .await
    }

    /// The watchers of games on this instance, told of every write to the store (by any
    /// instance, for Redis). Start a [`Watch`] before reading the game, then wait on it: a
    /// write between the read and the wait still wakes the watcher.
    pub fn changes(&self) -> &Changes {
        match self {
            Self::Memory(store) => store.changes(),
            Self::Redis(store) => store.changes(),
        }
    }

    /// Checks that the store answers.
    ///
    /// # Errors
    /// For Redis: [`StoreError::Unavailable`] or [`StoreError::TimedOut`].
    pub async fn ping(&self) -> Result<(), StoreError> {
        observed("ping", async {
            match self {
                Self::Memory(_) => Ok(()),
                Self::Redis(store) => store.ping().await,
            }
        })
        .await
    }
}

/// Runs one store call, counting it, its time and its failures under `operation` (see
/// [`crate::observability`]).
async fn observed<T>(
    operation: &'static str,
    call: impl Future<Output = Result<T, StoreError>>,
) -> Result<T, StoreError> {
    use crate::observability::{STORE_CALLS, STORE_CONFLICTS, STORE_DURATION, STORE_ERRORS};
    let started = Instant::now();
    let result = call.await;
    metrics::counter!(STORE_CALLS, "operation" => operation).increment(1);
    metrics::histogram!(STORE_DURATION, "operation" => operation)
        .record(started.elapsed().as_secs_f64());
    if let Err(err) = &result {
        let kind = match err {
            StoreError::Unavailable(_) => Some("unavailable"),
            StoreError::TimedOut(_) => Some("timed_out"),
            StoreError::Corrupt { .. } => Some("corrupt"),
            StoreError::VersionMismatch { .. } => {
                metrics::counter!(STORE_CONFLICTS, "operation" => operation).increment(1);
                None
            }
            StoreError::AlreadyExists | StoreError::NotFound => None,
        };
        if let Some(kind) = kind {
            metrics::counter!(STORE_ERRORS, "operation" => operation, "kind" => kind).increment(1);
        }
    }
    result
}
