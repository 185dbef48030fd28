//! Per-client rate limits: token buckets (GCRA) for requests per client address, writes per
//! bearer token, games created per address and milliseconds of AI search per address.
//!
//! With the embedded store the buckets live in this process; with Redis they live in Redis
//! (one small script per take, on the Redis clock), so every instance behind a load balancer
//! spends from the same buckets. Both run the same arithmetic (GCRA, see `gcra`). It is our
//! own rather than the `governor` crate's: the two back ends must limit alike, and AI time is
//! charged after a search for what it used, as a debt, which `governor` cannot express. A request that finds
//! its bucket empty is answered `429` with `Retry-After` and a `rate_limited` problem whose
//! `reason` names the bucket, and does nothing else.
//!
//! Requests are counted by [`limit_requests`], a middleware; AI time is checked where a search
//! starts ([`check_ai_time`]) and charged for what it used when it ends ([`charge_ai_time`]),
//! to the bucket of the client whose request runs it. When Redis
//! cannot be asked, requests pass (the limits protect the service; they must not stop it): the
//! store's own errors still answer 503 where a game is read or written.

mod gcra;
mod rates;

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::{header, Method};
use actix_web::middleware::Next;
use actix_web::web;
use sha2::{Digest as _, Sha256};

use self::gcra::LocalBuckets;
pub use self::rates::{
    Rate, RateLimits, DEFAULT_AI_MS, DEFAULT_GAMES, DEFAULT_REQUESTS, DEFAULT_WRITES,
};
use crate::error::ApiError;
use crate::problem::ProblemReason;
use crate::state::AppState;
use crate::store::{RedisStore, Store};

/// The buckets a client spends from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bucket {
    /// Every request, per client address.
    Requests,
    /// Writes, per bearer token (per address without one).
    Writes,
    /// Games created, per client address.
    Games,
    /// Milliseconds of AI search, per client address.
    AiTime,
}

impl Bucket {
    const ALL: [Self; 4] = [Self::Requests, Self::Writes, Self::Games, Self::AiTime];

    /// The bucket's name in keys and logs.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Requests => "requests",
            Self::Writes => "writes",
            Self::Games => "games",
            Self::AiTime => "ai_time",
        }
    }

    /// The `reason` of the `rate_limited` problem it causes.
    pub fn reason(self) -> ProblemReason {
        match self {
            Self::Requests => ProblemReason::Requests,
            Self::Writes => ProblemReason::Writes,
            Self::Games => ProblemReason::GameCreation,
            Self::AiTime => ProblemReason::AiTime,
        }
    }

    fn index(self) -> usize {
        match self {
            Self::Requests => 0,
            Self::Writes => 1,
            Self::Games => 2,
            Self::AiTime => 3,
        }
    }
}

/// A take that found the bucket without enough units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Denied {
    /// The bucket.
    pub bucket: Bucket,
    /// How long until the units would be there.
    pub retry_after: Duration,
}

/// Longest a rate-limit check waits for Redis before letting the request through: a few
/// round trips of a healthy Redis, so a Redis outage adds little to each request's own
/// (store-bounded) failure.
const REDIS_TIMEOUT: Duration = Duration::from_millis(100);

/// One bucket kind: its rate, and where its buckets live.
#[derive(Debug)]
struct Limit {
    rate: Rate,
    /// In this process (embedded store); `None` with Redis.
    local: Option<LocalBuckets>,
}

impl Limit {
    fn interval(&self) -> Duration {
        self.rate.interval()
    }

    /// How far ahead of now a bucket's arrival time may run: the whole bucket.
    fn tolerance(&self) -> Duration {
        self.rate.interval() * self.rate.count.get()
    }
}

/// The limits of an instance: which buckets are on, and where they live.
pub struct Limiter {
    limits: [Option<Limit>; 4],
    /// The shared buckets' Redis, when the store is Redis.
    redis: Option<RedisStore>,
    trust_forwarded_for: bool,
}

impl std::fmt::Debug for Limiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let rates: Vec<_> = self
            .limits
            .iter()
            .zip(Bucket::ALL)
            .filter_map(|(l, b)| l.as_ref().map(|l| (b.as_str(), l.rate.to_string())))
            .collect();
        f.debug_struct("Limiter")
            .field("rates", &rates)
            .field("shared", &self.redis.is_some())
            .finish_non_exhaustive()
    }
}

impl Limiter {
    /// The limits of `config`, in Redis when `store` is Redis, else in this process.
    pub fn new(config: &RateLimits, store: &Store) -> Self {
        let redis = match store {
            Store::Redis(redis) => Some(redis.clone()),
            Store::Memory(_) => None,
        };
        let limit = |rate: Option<Rate>| {
            rate.map(|rate| {
                let mut limit = Limit { rate, local: None };
                if redis.is_none() {
                    limit.local = Some(LocalBuckets::new(limit.interval(), limit.tolerance()));
                }
                limit
            })
        };
        Self {
            limits: [
                limit(config.requests),
                limit(config.writes),
                limit(config.games),
                limit(config.ai_ms),
            ],
            redis,
            trust_forwarded_for: config.trust_forwarded_for,
        }
    }

    /// Takes `cost` units from the bucket of `client` (a key such as [`client_key`] makes).
    ///
    /// # Errors
    /// [`Denied`] with the wait when the bucket does not hold them (a cost above the whole
    /// bucket never fits).
    pub async fn take(&self, bucket: Bucket, client: &str, cost: u32) -> Result<(), Denied> {
        self.spend(&[(bucket, client, cost)], false).await
    }

    /// Takes each `(bucket, client, cost)` of one request, all or none: a request refused by
    /// one bucket spends nothing from the others. With Redis this is one round trip.
    ///
    /// # Errors
    /// [`Denied`] for the first bucket that does not hold enough.
    pub async fn take_all(&self, takes: &[(Bucket, &str, u32)]) -> Result<(), Denied> {
        self.spend(takes, false).await
    }

    /// Charges `cost` units to the bucket of `client` whatever it holds: what the bucket lacks
    /// becomes a debt that later takes wait for (AI time, charged for what a search used).
    pub async fn charge(&self, bucket: Bucket, client: &str, cost: u32) {
        // A forced spend is never denied.
        let _ = self.spend(&[(bucket, client, cost)], true).await;
    }

    async fn spend(&self, takes: &[(Bucket, &str, u32)], force: bool) -> Result<(), Denied> {
        let on: Vec<(&Limit, Bucket, &str, u32)> = takes
            .iter()
            .filter_map(|&(bucket, client, cost)| {
                self.limits[bucket.index()]
                    .as_ref()
                    .map(|limit| (limit, bucket, client, cost))
            })
            .collect();
        if on.is_empty() {
            return Ok(());
        }
        if let Some(redis) = &self.redis {
            let shared: Vec<_> = on
                .iter()
                .map(|(limit, bucket, client, cost)| {
                    (
                        format!("{}:{client}", bucket.as_str()),
                        limit.interval(),
                        limit.tolerance(),
                        *cost,
                    )
                })
                .collect();
            return match redis.take_tokens(&shared, force, REDIS_TIMEOUT).await {
                Ok(None) => Ok(()),
                Ok(Some((i, retry_after))) => Err(Denied {
                    bucket: on.get(i).map_or(Bucket::Requests, |t| t.1),
                    retry_after,
                }),
                Err(err) => {
                    tracing::warn!(error = %err, "rate limits not checked: Redis does not answer");
                    Ok(())
                }
            };
        }
        // In memory: check every bucket, then take from each (all or none).
        if !force {
            for (limit, bucket, client, cost) in &on {
                let wait = limit.local.as_ref().and_then(|l| l.wait(client, *cost));
                if let Some(retry_after) = wait {
                    return Err(Denied {
                        bucket: *bucket,
                        retry_after,
                    });
                }
            }
        }
        for (limit, bucket, client, cost) in &on {
            let wait = limit
                .local
                .as_ref()
                .and_then(|l| l.take(client, *cost, force));
            // Another request took the units between the check and the take.
            if let Some(retry_after) = wait {
                return Err(Denied {
                    bucket: *bucket,
                    retry_after,
                });
            }
        }
        Ok(())
    }

    /// The key of the client that sent `request`: its address (the last `X-Forwarded-For`
    /// entry when configured to trust it), IPv6 addresses by their /64 network, which one
    /// client usually holds whole.
    pub fn client_key(&self, request: &ServiceRequest) -> String {
        let forwarded = self
            .trust_forwarded_for
            .then(|| last_forwarded_for(request.headers()))
            .flatten();
        match forwarded.or_else(|| request.peer_addr().map(|a| a.ip())) {
            Some(ip) => client_key(ip),
            None => "unknown".to_owned(),
        }
    }
}

/// The bucket key of a client address: IPv4 addresses whole, IPv6 by their /64 network.
pub fn client_key(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let s = v6.segments();
                format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
            }
        },
    }
}

/// The last address of the last `X-Forwarded-For` header: the one the proxy in front of the
/// service appended (earlier entries are whatever the client claimed).
fn last_forwarded_for(headers: &header::HeaderMap) -> Option<IpAddr> {
    let value = headers.get_all("x-forwarded-for").last()?.to_str().ok()?;
    value.rsplit(',').next()?.trim().parse().ok()
}

/// The bucket key of a write: the bearer token's digest (tokens never go to Redis or to
/// memory as they are), or the client address for writes without one.
fn writer_key(request: &ServiceRequest, address: &str) -> String {
    let token = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|t| !t.is_empty());
    match token {
        Some(token) => {
            let digest = Sha256::digest(token.as_bytes());
            let hex: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
            format!("t:{hex}")
        }
        None => format!("a:{address}"),
    }
}

/// Whether a request creates a game: `POST /v1/games` or `POST /v1/games/{id}/rematch`.
fn creates_game(method: &Method, path: &str) -> bool {
    if method != Method::POST {
        return false;
    }
    let path = path.trim_end_matches('/');
    path == "/v1/games"
        || path
            .strip_prefix("/v1/games/")
            .and_then(|rest| rest.strip_suffix("/rematch"))
            .is_some_and(|id| !id.is_empty() && !id.contains('/'))
}

/// Paths no limit applies to: the probes of orchestrators and monitoring.
fn unlimited(path: &str) -> bool {
    matches!(path, "/healthz" | "/readyz" | "/metrics")
}

tokio::task_local! {
    /// The limiter and client address of the request the current task serves, for the AI
    /// searches it starts.
    static CLIENT: (Arc<Limiter>, String);
}

/// The limiter and client of the request the current task serves, if any.
fn current_client() -> Option<(Arc<Limiter>, String)> {
    CLIENT
        .try_with(|(limiter, client)| (Arc::clone(limiter), client.clone()))
        .ok()
}

/// Checks, before an AI search, that the client whose request the current task serves has AI
/// time left (one millisecond). Outside a request (tests, background work) there is no client.
///
/// # Errors
/// [`ApiError::RateLimited`] when the client's AI time is spent.
pub async fn check_ai_time() -> Result<(), ApiError> {
    match current_client() {
        Some((limiter, client)) => limiter
            .take(Bucket::AiTime, &client, 1)
            .await
            .map_err(ApiError::from),
        None => Ok(()),
    }
}

/// Charges the AI time a search used to the client whose request the current task serves.
pub async fn charge_ai_time(used: Duration) {
    if let Some((limiter, client)) = current_client() {
        let ms = u32::try_from(used.as_millis()).unwrap_or(u32::MAX);
        if ms > 1 {
            // The check took the first millisecond.
            limiter.charge(Bucket::AiTime, &client, ms - 1).await;
        }
    }
}

/// Middleware: takes one unit from the client's request bucket, one from its writer's bucket
/// for a write and one from its game bucket for a game creation, and answers 429 when one is
/// empty; otherwise runs the request with the client known to [`charge_ai_time`].
///
/// # Errors
/// [`ApiError::RateLimited`] (rendered as a 429 problem), or the inner service's error.
pub async fn limit_requests<B: MessageBody + 'static>(
    request: ServiceRequest,
    next: Next<B>,
) -> Result<ServiceResponse<EitherBody<B>>, actix_web::Error> {
    let limiter = request
        .app_data::<web::Data<AppState>>()
        .map(|state| Arc::clone(&state.limits));
    let Some(limiter) = limiter else {
        return next
            .call(request)
            .await
            .map(ServiceResponse::map_into_left_body);
    };
    if unlimited(request.path()) || request.method() == Method::OPTIONS {
        return next
            .call(request)
            .await
            .map(ServiceResponse::map_into_left_body);
    }
    let address = limiter.client_key(&request);
    let method = request.method().clone();
    let writer = matches!(
        method,
        Method::POST | Method::PUT | Method::PATCH | Method::DELETE
    )
    .then(|| writer_key(&request, &address));
    let mut takes = vec![(Bucket::Requests, address.as_str(), 1)];
    if let Some(writer) = &writer {
        takes.push((Bucket::Writes, writer.as_str(), 1));
    }
    if creates_game(&method, request.path()) {
        takes.push((Bucket::Games, address.as_str(), 1));
    }
    if let Err(denied) = limiter.take_all(&takes).await {
        let response = actix_web::ResponseError::error_response(&ApiError::from(denied));
        return Ok(request.into_response(response).map_into_right_body());
    }
    CLIENT
        .scope((limiter, address), next.call(request))
        .await
        .map(ServiceResponse::map_into_left_body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clients_are_keyed_by_address_and_ipv6_by_network() {
        let ip = |s: &str| s.parse::<IpAddr>().expect("an address");
        assert_eq!(client_key(ip("203.0.113.7")), "203.0.113.7");
        assert_eq!(client_key(ip("2001:db8:1:2:3:4:5:6")), "2001:db8:1:2::/64");
        assert_eq!(
            client_key(ip("2001:db8:1:2:ffff::1")),
            client_key(ip("2001:db8:1:2::9"))
        );
        assert_eq!(client_key(ip("::ffff:198.51.100.1")), "198.51.100.1");
    }

    #[test]
    fn game_creations_are_new_games_and_rematches() {
        assert!(creates_game(&Method::POST, "/v1/games"));
        assert!(creates_game(&Method::POST, "/v1/games/"));
        assert!(creates_game(&Method::POST, "/v1/games/abc/rematch"));
        assert!(!creates_game(&Method::GET, "/v1/games"));
        assert!(!creates_game(&Method::POST, "/v1/games/abc/moves"));
        assert!(!creates_game(&Method::POST, "/v1/games//rematch"));
        assert!(!creates_game(&Method::POST, "/v1/games/a/b/rematch"));
    }

    #[tokio::test]
    async fn a_bucket_gives_its_burst_then_waits_and_clients_do_not_share() {
        let config = RateLimits {
            games: Some(Rate::per(3, Duration::from_secs(60))),
            ..RateLimits::off()
        };
        let limiter = Limiter::new(
            &config,
            &Store::Memory(crate::store::MemoryStore::new(Duration::from_secs(60))),
        );
        for _ in 0..3 {
            assert_eq!(limiter.take(Bucket::Games, "a", 1).await, Ok(()));
        }
        let denied = limiter
            .take(Bucket::Games, "a", 1)
            .await
            .expect_err("the bucket is empty");
        assert_eq!(denied.bucket, Bucket::Games);
        // One game comes back every 20 s.
        assert!(denied.retry_after > Duration::from_secs(19));
        assert!(denied.retry_after <= Duration::from_secs(20));
        assert_eq!(limiter.take(Bucket::Games, "b", 1).await, Ok(()));
        // Buckets that are off never deny.
        for _ in 0..100 {
            assert_eq!(limiter.take(Bucket::Requests, "a", 1).await, Ok(()));
        }
        // More than the whole bucket never fits.
        let denied = limiter
            .take(Bucket::Games, "c", 4)
            .await
            .expect_err("more than the bucket");
        assert!(denied.retry_after > Duration::from_secs(19));
    }
}
