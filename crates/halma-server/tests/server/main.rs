//! Integration tests of the service infrastructure: the store contract against both back ends
//! (Redis ones against a private `redis-server`, which must be installed: without it they
//! fail; `-- --skip redis` leaves them out), and the application over HTTP. The helpers
//! (Redis, the application on port 0) are in `halma-testkit`. The web client at `/play/` is
//! in `play`.
//!
//! One test binary for everything, so the crate links once.

// Tests fail by panicking: unwrapping is how a test says "this must succeed".
#![allow(clippy::unwrap_used)]

mod ai_slots;
mod extractors;
mod game_cache;
mod games;
mod http;
mod imports;
mod limits;
mod memory_store;
mod openapi_doc;
mod play;
mod redis_cluster;
mod redis_store;
mod schema_limits;
mod seats;
mod store_suite;
