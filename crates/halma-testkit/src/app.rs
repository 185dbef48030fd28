//! The application under test, and the configurations and game setups the suites share.

use halma_server::api::CreateGameRequest;
use halma_server::config::{Config, RedisUrl};
use halma_server::startup::Application;

use crate::redis::RedisServer;

/// Starts the application with `config` on a free port of 127.0.0.1 (whatever `config.bind`
/// says), serving on the current Tokio runtime until the test ends. Returns its base URL,
/// `http://127.0.0.1:PORT`.
///
/// # Panics
/// When the application cannot be built (the test fails).
pub async fn spawn_app(config: Config) -> String {
    let app = Application::build(Config {
        bind: "127.0.0.1:0".to_owned(),
        ..config
    })
    .await
    .unwrap_or_else(|err| panic!("the application did not start: {err}"));
    let base = format!("http://127.0.0.1:{}", app.port());
    tokio::spawn(app.run_until_stopped());
    base
}

/// The default configuration over the Redis at `port` of 127.0.0.1 (running or not), with
/// the keys under `key_prefix`.
///
/// # Panics
/// Never for a port: the URL is always valid.
#[must_use]
pub fn redis_config(port: u16, key_prefix: &str) -> Config {
    let url = format!("redis://127.0.0.1:{port}");
    Config {
        redis_url: Some(RedisUrl::parse(url.clone()).unwrap_or_else(|err| panic!("{url}: {err}"))),
        key_prefix: key_prefix.to_owned(),
        ..Config::default()
    }
}

impl RedisServer {
    /// The default configuration over this server, with the keys under `key_prefix`.
    #[must_use]
    pub fn config(&self, key_prefix: &str) -> Config {
        redis_config(self.port(), key_prefix)
    }
}

/// The request for a new game on the star for two players, seat 0 moving first.
///
/// # Panics
/// When the service no longer accepts the request's JSON (the test fails).
#[must_use]
pub fn two_player_star() -> CreateGameRequest {
    let json = serde_json::json!({"board": "star", "players": 2, "first_seat": 0});
    serde_json::from_value(json).unwrap_or_else(|err| panic!("a two-player star game: {err}"))
}
