//! The service under test: the real application bound to port 0, and SDK clients for it.

use std::time::Duration;

use halma_client::Client;
use halma_server::config::Config;
use halma_server::limits::RateLimits;
use halma_testkit::{spawn_app, RedisServer};

/// Longest a request may take. Generous: the suite runs in debug builds on busy machines.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

/// `config` without rate limits: the games of the suite run at machine speed (a move with
/// a dozen illegal probes in a few milliseconds); the limits have tests of their own.
fn unlimited(config: Config) -> Config {
    Config {
        limits: RateLimits::off(),
        ..config
    }
}

/// One or two instances of the service over one store, with a client for each.
pub struct TestServer {
    clients: Vec<Client>,
    store: &'static str,
    /// Kept alive for the test's duration; killed when dropped.
    _redis: Option<RedisServer>,
}

impl TestServer {
    /// One instance over the in-memory store.
    pub async fn memory() -> Self {
        let base = spawn_app(unlimited(Config::default())).await;
        Self {
            clients: vec![client(&base), client(&base)],
            store: "memory",
            _redis: None,
        }
    }

    /// Two instances sharing a private Redis, their keys under the test's name.
    pub async fn redis(test: &str) -> Self {
        let redis = RedisServer::start();
        let config = unlimited(redis.config(&format!("blackbox:{test}:")));
        let first = spawn_app(config.clone()).await;
        let second = spawn_app(config).await;
        Self {
            clients: vec![client(&first), client(&second)],
            store: "redis",
            _redis: Some(redis),
        }
    }

    /// A client of the first instance.
    pub fn client(&self) -> &Client {
        &self.clients[0]
    }

    /// A client of its own: of the second instance over Redis, of the same instance (but
    /// with its own connections) over memory.
    pub fn other_client(&self) -> &Client {
        &self.clients[1]
    }

    /// The store `/readyz` reports: `memory` or `redis`.
    pub fn store(&self) -> &'static str {
        self.store
    }
}

fn client(base: &str) -> Client {
    halma_client::build_client(base, REQUEST_TIMEOUT).unwrap()
}
