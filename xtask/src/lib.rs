//! Workspace tasks for halma: generation of the Rust client from the server's OpenAPI document.
//!
//! utoipa writes OpenAPI 3.1 and progenitor reads only 3.0, so generation goes
//! `openapi/halma.json` (3.1, written by the server) → [`downconvert::downconvert`] →
//! `openapi/halma-3.0.json` → progenitor → prettyplease → `clients/rust/src/generated.rs`.
//! Both outputs are committed; [`tasks::check_client`] says whether they are current.
//!
//! From the workspace root:
//! ```text
//! cargo run -p xtask -- gen-client     # write openapi/halma-3.0.json and the client source
//! cargo run -p xtask -- check-client   # fail when either differs from a fresh generation
//! ```

pub mod downconvert;
pub mod generate;
pub mod tasks;

pub use generate::{generate_client, generate_client_source};
