//! Test support for the halma workspace, shared by the service's integration tests
//! (`crates/halma-server/tests`) and the black-box suite (`tests/`):
//!
//! - [`RedisServer`]: a private `redis-server` child process per test, on a free port;
//! - [`spawn_app`]: the real application on port 0 of 127.0.0.1, on the test's runtime;
//! - the setups the suites share: [`redis_config`], [`two_player_star`];
//! - [`chromium`]: pages rendered to pixels by headless Chromium, for the picture tests (they
//!   fail under `CI=true` without it, and skip elsewhere, saying why).
//!
//! A test that needs Redis fails when `redis-server` is not installed, with a message that
//! says so and how to leave the Redis tests out (`cargo test -- --skip redis`): a missing
//! server never lets a Redis test pass.
#![forbid(unsafe_code)]

mod app;
pub mod chromium;
mod cluster;
mod redis;

pub use app::{redis_config, spawn_app, two_player_star};
pub use cluster::RedisCluster;
pub use redis::{free_port, RedisServer, StartError};
