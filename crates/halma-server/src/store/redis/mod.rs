//! The Redis store, shared by every service instance that uses the same Redis and prefix.
//!
//! Layout: one hash per game under `{prefix}game:{id}` with the fields `v` (the version, a
//! decimal integer) and `doc` (the head), and its log, a list under `{prefix}game:{id}:log`
//! with one entry per version; every write sets the same TTL on both. (Games stored before the
//! log was kept have a hash alone, its `doc` holding everything; their first write since fills
//! the log.) The lobby indexes
//! are sorted sets under `{prefix}lobby:{name}`, every member at score 0 so that they sort by
//! their text (`{created_at}.{id}`) and pages are read with `ZREVRANGEBYLEX`. Create,
//! compare-and-set and both reads are Lua scripts, so each runs atomically on the server
//! (head and log always agree); they are invoked
//! with `EVALSHA` (falling back to loading the script) on one shared, multiplexed
//! `ConnectionManager`. `WATCH`/`MULTI` is not used: on a shared connection it loses updates.
//!
//! The connection manager reconnects by itself after Redis comes back; until then every
//! operation fails quickly with [`StoreError::Unavailable`] or [`StoreError::TimedOut`].
//!
//! Change notifications: the create and compare-and-set scripts publish `VERSION ID` on the
//! channel `{prefix}changes` in the same atomic step as the write, so a notification is sent
//! exactly for the writes that happened. Every store subscribes to that channel on a
//! connection of its own (a background task that reconnects with backoff, and wakes every
//! watcher after it reconnects, since notifications may have been missed meanwhile) and
//! announces what it hears to its [`Changes`].

mod feed;
mod scripts;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use ::redis::aio::{ConnectionLike, ConnectionManager, ConnectionManagerConfig};
use ::redis::cluster::{ClusterClient, ClusterClientBuilder};
use ::redis::cluster_async::ClusterConnection;
use ::redis::{Client, RedisError, RedisFuture, Value};
use tokio::sync::OnceCell;

use self::feed::{follow_changes, follow_shard_changes, shard_channel};
use self::scripts::{
    COMPARE_AND_SET, COUNT, CREATE, DELETE, GET, GET_IF_CHANGED, LOBBY_UPDATE, TAKE,
};
use super::changes::Changes;
use super::{Counters, Lifetime, LogWrite, Lookup, StoreError, StoredGame, Version};

/// Default upper bound on one store operation, reconnection attempts included (the
/// configuration's `HALMA_STORE_TIMEOUT_MS` replaces it).
pub const DEFAULT_OPERATION_TIMEOUT: Duration = Duration::from_secs(2);
/// Upper bound on the change subscription's (re)connection.
const OPERATION_TIMEOUT: Duration = Duration::from_secs(5);
/// Upper bound on opening one TCP connection to Redis (lower when the operation timeout is).
const CONNECTION_TIMEOUT: Duration = Duration::from_secs(1);
/// Connection attempts repeated after a failed one, before an operation gives up.
const RECONNECT_RETRIES: usize = 2;
/// Shortest and longest wait before the change subscription reconnects.
const SUBSCRIBE_MIN_DELAY: Duration = Duration::from_millis(50);
const SUBSCRIBE_MAX_DELAY: Duration = Duration::from_secs(2);
/// How often an idle subscription checks whether its store is gone.
const SUBSCRIBE_CHECK: Duration = Duration::from_secs(1);

/// A Redis-backed store; cheap to clone (clones share the connection).
#[derive(Clone)]
pub struct RedisStore {
    link: Link,
    key_prefix: Arc<str>,
    /// Upper bound on one operation: a Redis that does not answer fails fast.
    timeout: Duration,
    ttl_millis: u64,
    waiting_ttl_millis: u64,
    /// The channel the write scripts publish changes on.
    channel: Arc<str>,
    changes: Changes,
}

impl std::fmt::Debug for RedisStore {
    // The connection's own Debug prints the client's connection info, password included.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore")
            .field("key_prefix", &self.key_prefix)
            .field("timeout", &self.timeout)
            .field("ttl_millis", &self.ttl_millis)
            .field("waiting_ttl_millis", &self.waiting_ttl_millis)
            .field("cluster", &self.is_cluster())
            .finish_non_exhaustive()
    }
}

/// How a store reaches Redis: one server through a reconnecting manager, or a cluster
/// through the cluster client (connected on first use, and again after a failed attempt).
#[derive(Clone)]
enum Link {
    Single(ConnectionManager),
    /// Boxed: the cluster client is large, and stores are moved and cloned often.
    Cluster(Arc<ClusterLink>),
}

/// The cluster client and its connection once made.
struct ClusterLink {
    client: ClusterClient,
    connection: OnceCell<ClusterConnection>,
}

/// A connection for one operation: commands and scripts are routed by their first key on a
/// cluster.
#[derive(Clone)]
enum Connection {
    Single(ConnectionManager),
    Cluster(ClusterConnection),
}

impl ConnectionLike for Connection {
    fn req_packed_command<'a>(&'a mut self, cmd: &'a ::redis::Cmd) -> RedisFuture<'a, Value> {
        match self {
            Self::Single(connection) => connection.req_packed_command(cmd),
            Self::Cluster(connection) => connection.req_packed_command(cmd),
        }
    }

    fn req_packed_commands<'a>(
        &'a mut self,
        pipeline: &'a ::redis::Pipeline,
        offset: usize,
        count: usize,
    ) -> RedisFuture<'a, Vec<Value>> {
        match self {
            Self::Single(connection) => connection.req_packed_commands(pipeline, offset, count),
            Self::Cluster(connection) => connection.req_packed_commands(pipeline, offset, count),
        }
    }

    fn get_db(&self) -> i64 {
        match self {
            Self::Single(connection) => connection.get_db(),
            Self::Cluster(connection) => connection.get_db(),
        }
    }
}

impl RedisStore {
    /// A store on the Redis at `url`, keys prefixed with `key_prefix`, games expiring after
    /// `ttl` without writes. The connection opens on first use (a
    /// [`Store::ping`](super::Store::ping) opens it now). Await this inside a Tokio runtime:
    /// the runtime runs the connection's tasks and the change subscription, which ends soon
    /// after the last clone of the store is dropped.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] when the client rejects the URL.
    pub async fn open(url: &str, key_prefix: &str, ttl: Duration) -> Result<Self, StoreError> {
        Self::open_with_timeout(url, key_prefix, ttl, DEFAULT_OPERATION_TIMEOUT).await
    }

    /// [`open`](Self::open) with every operation bounded by `timeout` (reconnection attempts
    /// and the wait for the reply included): past it, the operation fails with
    /// [`StoreError::TimedOut`].
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] when the client rejects the URL.
    pub async fn open_with_timeout(
        url: &str,
        key_prefix: &str,
        ttl: Duration,
        timeout: Duration,
    ) -> Result<Self, StoreError> {
        let client = Client::open(url).map_err(StoreError::Unavailable)?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(CONNECTION_TIMEOUT.min(timeout)))
            .set_response_timeout(Some(timeout))
            .set_number_of_retries(RECONNECT_RETRIES)
            .set_min_delay(Duration::from_millis(50))
            .set_max_delay(Duration::from_millis(500));
        let connection = ConnectionManager::new_lazy_with_config(client.clone(), config)
            .map_err(StoreError::Unavailable)?;
        let channel: Arc<str> = format!("{key_prefix}changes").into();
        let changes = Changes::new();
        tokio::spawn(follow_changes(
            client,
            Arc::clone(&channel),
            changes.downgrade(),
        ));
        Ok(Self {
            link: Link::Single(connection),
            key_prefix: key_prefix.into(),
            timeout,
            ttl_millis: millis(ttl),
            waiting_ttl_millis: millis(ttl),
            channel,
            changes,
        })
    }

    /// A store on the Redis Cluster reached through the seed nodes `urls` (one is enough; the
    /// client learns the others), as [`open_with_timeout`](Self::open_with_timeout) does for
    /// one server. Every key of a game carries the game id as its hash tag, so that a game's
    /// scripts touch one slot; the lobby indexes, the counters and the rate-limit buckets have
    /// a slot each. Changes go over sharded pub/sub (Redis 7): one channel per game, in the
    /// game's slot, subscribed to while this instance has watchers of the game.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] when the client rejects a URL or the prefix holds a brace
    /// (it would change the hash tags).
    pub async fn open_cluster(
        urls: &[String],
        key_prefix: &str,
        ttl: Duration,
        timeout: Duration,
    ) -> Result<Self, StoreError> {
        if key_prefix.contains(['{', '}']) {
            return Err(StoreError::Unavailable(RedisError::from((
                ::redis::ErrorKind::InvalidClientConfig,
                "a key prefix on Redis Cluster may not hold braces",
            ))));
        }
        let builder = || {
            ClusterClientBuilder::new(urls.iter().map(String::as_str))
                .connection_timeout(CONNECTION_TIMEOUT.min(timeout))
                .response_timeout(timeout)
                .retries(u32::try_from(RECONNECT_RETRIES).unwrap_or(2))
        };
        let client = builder().build().map_err(StoreError::Unavailable)?;
        let (pushes, received) = tokio::sync::mpsc::unbounded_channel();
        let subscriber = builder()
            .use_protocol(::redis::ProtocolVersion::RESP3)
            .push_sender(pushes)
            .build()
            .map_err(StoreError::Unavailable)?;
        let (changes, interest) = Changes::with_interest();
        let store = Self {
            link: Link::Cluster(Arc::new(ClusterLink {
                client,
                connection: OnceCell::new(),
            })),
            key_prefix: key_prefix.into(),
            timeout,
            ttl_millis: millis(ttl),
            waiting_ttl_millis: millis(ttl),
            channel: format!("{key_prefix}changes").into(),
            changes,
        };
        tokio::spawn(follow_shard_changes(
            subscriber,
            Arc::clone(&store.key_prefix),
            store.changes.downgrade(),
            interest,
            received,
        ));
        Ok(store)
    }

    /// Whether the store is on a Redis Cluster.
    pub fn is_cluster(&self) -> bool {
        matches!(self.link, Link::Cluster(_))
    }

    /// A connection for one operation (on a cluster, connecting first if no connection is up).
    async fn connection(&self) -> Result<Connection, StoreError> {
        match &self.link {
            Link::Single(connection) => Ok(Connection::Single(connection.clone())),
            Link::Cluster(link) => {
                let connected = tokio::time::timeout(
                    self.timeout,
                    link.connection
                        .get_or_try_init(|| link.client.get_async_connection()),
                )
                .await;
                match connected {
                    Ok(Ok(connection)) => Ok(Connection::Cluster(connection.clone())),
                    Ok(Err(err)) => Err(StoreError::Unavailable(err)),
                    Err(_elapsed) => Err(StoreError::TimedOut(self.timeout)),
                }
            }
        }
    }

    /// The command the write scripts publish changes with.
    fn publish_command(&self) -> &'static str {
        if self.is_cluster() {
            "SPUBLISH"
        } else {
            "PUBLISH"
        }
    }

    /// The channel the changes of game `id` are published on: one for every game on one
    /// server, one per game (in the game's slot) on a cluster.
    fn channel_of(&self, id: &str) -> String {
        if self.is_cluster() {
            shard_channel(&self.key_prefix, id)
        } else {
            self.channel.to_string()
        }
    }

    /// `name` under the key prefix, in the slot of the hash tag `tag` on a cluster.
    fn tagged(&self, tag: &str, name: &str) -> String {
        if self.is_cluster() {
            format!("{}{{{tag}}}{name}", self.key_prefix)
        } else {
            format!("{}{tag}{name}", self.key_prefix)
        }
    }

    /// The store with games waiting for players expiring after `ttl` without writes (by
    /// default they expire like the others).
    #[must_use]
    pub fn with_waiting_ttl(mut self, ttl: Duration) -> Self {
        self.waiting_ttl_millis = millis(ttl);
        self
    }

    fn ttl_millis_of(&self, lifetime: Lifetime) -> u64 {
        match lifetime {
            Lifetime::Playing => self.ttl_millis,
            Lifetime::Waiting => self.waiting_ttl_millis,
        }
    }

    /// The Redis key of a counter set.
    fn counters_key(&self, name: &str) -> String {
        self.tagged("stats", &format!(":{name}"))
    }

    /// The Redis key of the set of counter set names.
    fn counter_sets_key(&self) -> String {
        self.tagged("stats", "")
    }

    /// The Redis key of a lobby index.
    fn lobby_key(&self, index: &str) -> String {
        self.tagged("lobby", &format!(":{index}"))
    }

    /// Runs a Redis operation within the store's timeout and classifies its failure.
    async fn bounded<T>(
        &self,
        key: &str,
        operation: impl Future<Output = Result<T, RedisError>>,
    ) -> Result<T, StoreError> {
        match tokio::time::timeout(self.timeout, operation).await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(err)) if err.is_timeout() => Err(StoreError::TimedOut(self.timeout)),
            Ok(Err(err)) => Err(classify(key, err)),
            Err(_elapsed) => Err(StoreError::TimedOut(self.timeout)),
        }
    }

    /// The watchers of games on this instance, told of every write by any instance.
    pub fn changes(&self) -> &Changes {
        &self.changes
    }

    /// The Redis key of a game (its hash of version and head); on a cluster the id is the
    /// hash tag.
    pub fn key(&self, id: &str) -> String {
        if self.is_cluster() {
            format!("{}game:{{{id}}}", self.key_prefix)
        } else {
            format!("{}game:{id}", self.key_prefix)
        }
    }

    /// The Redis key of a game's log, in the game's slot.
    pub fn log_key(&self, id: &str) -> String {
        format!("{}:log", self.key(id))
    }

    pub(super) async fn create(
        &self,
        id: &str,
        head: &str,
        entry: &str,
        lifetime: Lifetime,
    ) -> Result<Version, StoreError> {
        let key = self.key(id);
        let mut connection = self.connection().await?;
        let created: i64 = self
            .bounded(&key, async {
                CREATE
                    .key(&key)
                    .key(self.log_key(id))
                    .arg(head)
                    .arg(entry)
                    .arg(self.ttl_millis_of(lifetime))
                    .arg(self.publish_command())
                    .arg(self.channel_of(id))
                    .arg(id)
                    .invoke_async(&mut connection)
                    .await
            })
            .await?;
        match created {
            1 => Ok(1),
            _ => Err(StoreError::AlreadyExists),
        }
    }

    pub(super) async fn get(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let key = self.key(id);
        let mut connection = self.connection().await?;
        let reply: (i64, String, String, Vec<String>) = self
            .bounded(&key, async {
                GET.key(&key)
                    .key(self.log_key(id))
                    .invoke_async(&mut connection)
                    .await
            })
            .await?;
        match read_reply(&key, reply)? {
            None => Ok(None),
            Some(Lookup::Changed(game)) => Ok(Some(game)),
            Some(_) => Err(corrupt(&key, "unexpected script status")),
        }
    }

    pub(super) async fn get_if_changed(
        &self,
        id: &str,
        known: Version,
    ) -> Result<Option<Lookup>, StoreError> {
        let key = self.key(id);
        let mut connection = self.connection().await?;
        let reply: (i64, String, String, Vec<String>) = self
            .bounded(&key, async {
                GET_IF_CHANGED
                    .key(&key)
                    .key(self.log_key(id))
                    .arg(known.to_string())
                    .invoke_async(&mut connection)
                    .await
            })
            .await?;
        read_reply(&key, reply)
    }

    pub(super) async fn compare_and_set(
        &self,
        id: &str,
        expected: Version,
        head: &str,
        log: LogWrite<'_>,
        lifetime: Lifetime,
    ) -> Result<Version, StoreError> {
        self.compare_and_set_counting(id, expected, head, log, lifetime, &Counters::default())
            .await
    }

    pub(super) async fn compare_and_set_counting(
        &self,
        id: &str,
        expected: Version,
        head: &str,
        log: LogWrite<'_>,
        lifetime: Lifetime,
        counters: &Counters,
    ) -> Result<Version, StoreError> {
        let key = self.key(id);
        let mut script = COMPARE_AND_SET.key(&key);
        script.key(self.log_key(id));
        // On a cluster the counters are in another slot: they are added after the write.
        let (together, after) = if self.is_cluster() {
            (&[][..], &counters.groups[..])
        } else {
            (&counters.groups[..], &[][..])
        };
        if !together.is_empty() {
            script.key(self.counter_sets_key());
        }
        for (name, _) in together {
            script.key(self.counters_key(name));
        }
        script
            .arg(expected.to_string())
            .arg(head)
            .arg(self.ttl_millis_of(lifetime))
            .arg(self.publish_command())
            .arg(self.channel_of(id))
            .arg(id);
        match log {
            LogWrite::Append(entry) => {
                script.arg("a").arg(1).arg(entry);
            }
            LogWrite::Replace(entries) => {
                script.arg("r").arg(entries.len());
                for entry in entries {
                    script.arg(entry);
                }
            }
        }
        counter_args(&mut script, together);
        let mut connection = self.connection().await?;
        let (status, value): (i64, String) = self
            .bounded(&key, script.invoke_async(&mut connection))
            .await?;
        let version = parse_version(&key, &written(&key, status, value)?)?;
        if !after.is_empty() {
            self.count(after).await;
        }
        Ok(version)
    }

    /// Adds counters after the write that finished a game, on a cluster. Only the instance
    /// whose write finished the game gets here, so each game counts once; a failure here
    /// (Redis down right after the write) loses that game's count, and is logged.
    async fn count(&self, groups: &[(String, Vec<(String, i64)>)]) {
        let mut script = COUNT.key(self.counter_sets_key());
        for (name, _) in groups {
            script.key(self.counters_key(name));
        }
        counter_args(&mut script, groups);
        let counted: Result<i64, StoreError> = match self.connection().await {
            Ok(mut connection) => {
                self.bounded("stats", script.invoke_async(&mut connection))
                    .await
            }
            Err(err) => Err(err),
        };
        if let Err(err) = counted {
            tracing::warn!(error = %err, "a finished game's statistics were not counted");
        }
    }

    pub(super) async fn counter_sets(&self) -> Result<Vec<String>, StoreError> {
        let key = self.counter_sets_key();
        let mut connection = self.connection().await?;
        let mut names: Vec<String> = self
            .bounded(&key, async {
                ::redis::cmd("SMEMBERS")
                    .arg(&key)
                    .query_async(&mut connection)
                    .await
            })
            .await?;
        names.sort();
        Ok(names)
    }

    pub(super) async fn counters(&self, name: &str) -> Result<Vec<(String, i64)>, StoreError> {
        let key = self.counters_key(name);
        let mut connection = self.connection().await?;
        let fields: Vec<(String, String)> = self
            .bounded(&key, async {
                ::redis::cmd("HGETALL")
                    .arg(&key)
                    .query_async(&mut connection)
                    .await
            })
            .await?;
        let mut counters = fields
            .into_iter()
            .map(|(field, value)| {
                value
                    .parse::<i64>()
                    .map(|count| (field, count))
                    .map_err(|_| corrupt(&key, &format!("a counter is not an integer: {value:?}")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        counters.sort();
        Ok(counters)
    }

    pub(super) async fn delete(&self, id: &str, expected: Version) -> Result<(), StoreError> {
        let key = self.key(id);
        let mut connection = self.connection().await?;
        let (status, value): (i64, String) = self
            .bounded(&key, async {
                DELETE
                    .key(&key)
                    .key(self.log_key(id))
                    .arg(expected.to_string())
                    .arg(self.publish_command())
                    .arg(self.channel_of(id))
                    .arg(id)
                    .invoke_async(&mut connection)
                    .await
            })
            .await?;
        written(&key, status, value).map(drop)
    }

    pub(super) async fn lobby_update(
        &self,
        entry: &str,
        indexes: &[String],
        add: bool,
    ) -> Result<(), StoreError> {
        let mut script = LOBBY_UPDATE.prepare_invoke();
        for index in indexes {
            script.key(self.lobby_key(index));
        }
        script.arg(entry).arg(if add { "1" } else { "0" });
        let mut connection = self.connection().await?;
        let _changed: i64 = self
            .bounded("lobby", script.invoke_async(&mut connection))
            .await?;
        Ok(())
    }

    pub(super) async fn lobby_page(
        &self,
        index: &str,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        let key = self.lobby_key(index);
        let mut connection = self.connection().await?;
        let max = after.map_or_else(|| "+".to_owned(), |after| format!("({after}"));
        self.bounded(&key, async {
            ::redis::cmd("ZREVRANGEBYLEX")
                .arg(&key)
                .arg(max)
                .arg("-")
                .arg("LIMIT")
                .arg(0)
                .arg(limit)
                .query_async(&mut connection)
                .await
        })
        .await
    }

    /// Takes units from shared rate-limit buckets (see [`crate::limits`]), all or none, in
    /// one round trip bounded by `timeout`: each take is the bucket's name, the time one unit
    /// takes to come back, the burst's tolerance and the cost. `Ok(None)` when taken,
    /// `Ok(Some((i, wait)))` when take `i` (from 0) finds its bucket without enough, for
    /// `wait`; with `force` the costs are charged in any case. A bucket is one key, kept for
    /// as long as it is not full.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] or [`StoreError::TimedOut`] when Redis does not answer.
    pub async fn take_tokens(
        &self,
        takes: &[(String, Duration, Duration, u32)],
        force: bool,
        timeout: Duration,
    ) -> Result<Option<(usize, Duration)>, StoreError> {
        let micros = |d: &Duration| u64::try_from(d.as_micros()).unwrap_or(u64::MAX);
        let mut invocation = TAKE.prepare_invoke();
        for (name, interval, tolerance, cost) in takes {
            invocation
                .key(self.tagged("rate", &format!(":{name}")))
                .arg(micros(interval))
                .arg(micros(tolerance))
                .arg(*cost);
        }
        invocation.arg(u8::from(force));
        let mut connection = self.connection().await?;
        let reply = tokio::time::timeout(timeout.min(self.timeout), async {
            invocation.invoke_async::<(i64, i64)>(&mut connection).await
        })
        .await;
        match reply {
            Ok(Ok((0, _))) => Ok(None),
            Ok(Ok((index, wait))) => Ok(Some((
                usize::try_from(index - 1).unwrap_or(0),
                Duration::from_micros(wait.unsigned_abs()),
            ))),
            Ok(Err(err)) => Err(classify("rate", err)),
            Err(_elapsed) => Err(StoreError::TimedOut(timeout)),
        }
    }

    pub(super) async fn ping(&self) -> Result<(), StoreError> {
        let mut connection = self.connection().await?;
        let _pong: String = self
            .bounded("PING", async {
                ::redis::cmd("PING").query_async(&mut connection).await
            })
            .await?;
        Ok(())
    }
}

/// A duration in whole milliseconds, at least 1 (Redis refuses a TTL of 0).
fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis())
        .unwrap_or(u64::MAX)
        .max(1)
}

/// A reply of the wrong type means the key holds data we did not write; anything else
/// (connection refused or dropped, timeouts, a server that is loading or read-only, ...) is
/// an unavailable store, worth a retry.
fn classify(key: &str, err: RedisError) -> StoreError {
    use ::redis::ErrorKind;
    let wrong_type = err.code() == Some("WRONGTYPE")
        || matches!(
            err.kind(),
            ErrorKind::Parse | ErrorKind::UnexpectedReturnType
        );
    if wrong_type {
        corrupt(key, &err.to_string())
    } else {
        StoreError::Unavailable(err)
    }
}

/// Adds the arguments of counter `groups`: per group its name, its number of fields, and each
/// field with its increment.
fn counter_args(
    script: &mut ::redis::ScriptInvocation<'_>,
    groups: &[(String, Vec<(String, i64)>)],
) {
    for (name, fields) in groups {
        script.arg(name).arg(fields.len());
        for (field, increment) in fields {
            script.arg(field).arg(*increment);
        }
    }
}

/// Reads the `{status, value}` reply of a conditional write ([`COMPARE_AND_SET`], [`DELETE`]):
/// the value when the write was made.
fn written(key: &str, status: i64, value: String) -> Result<String, StoreError> {
    match status {
        0 => Err(StoreError::NotFound),
        1 => Err(StoreError::VersionMismatch {
            current: parse_version(key, &value)?,
        }),
        2 => Ok(value),
        3 => Err(corrupt(key, &value)),
        other => Err(corrupt(key, &format!("unexpected script status {other}"))),
    }
}

/// Reads the reply of [`GET`] or [`GET_IF_CHANGED`]: `None` for no game.
fn read_reply(
    key: &str,
    (status, value, head, log): (i64, String, String, Vec<String>),
) -> Result<Option<Lookup>, StoreError> {
    match status {
        0 => Ok(None),
        1 => {
            parse_version(key, &value)?;
            Ok(Some(Lookup::Unchanged))
        }
        2 => Ok(Some(Lookup::Changed(StoredGame {
            version: parse_version(key, &value)?,
            head,
            log,
        }))),
        3 => Err(corrupt(key, &value)),
        4 => Ok(Some(Lookup::Appended {
            version: parse_version(key, &value)?,
            head,
            entries: log,
        })),
        other => Err(corrupt(key, &format!("unexpected script status {other}"))),
    }
}

fn parse_version(key: &str, text: &str) -> Result<Version, StoreError> {
    match text.parse::<Version>() {
        Ok(version) if version > 0 => Ok(version),
        _ => Err(corrupt(
            key,
            &format!("the version field is not a positive integer: {text:?}"),
        )),
    }
}

fn corrupt(key: &str, detail: &str) -> StoreError {
    StoreError::Corrupt {
        key: key.to_owned(),
        detail: detail.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::feed::parse_change;

    #[test]
    fn change_messages_are_read_strictly() {
        assert_eq!(parse_change(b"12 abc"), Some((12, "abc")));
        for bad in [
            &b""[..],
            b"12",
            b"12 ",
            b"0 abc",
            b"-1 abc",
            b"x abc",
            b"\xff abc",
        ] {
            assert_eq!(parse_change(bad), None, "{bad:?}");
        }
    }
}
