//! Rust client for the halma game service: Chinese checkers on the star and Halma on square
//! boards, over a stateless REST API.
//!
//! The crate has two layers:
//!
//! - [`Client`] and the typed requests and responses in [`types`] are generated from the
//!   service's OpenAPI document (`openapi/halma.json`) by progenitor and committed, so building
//!   this crate does not need progenitor. Every operation is a builder:
//!   `client.get_game().id(id).send().await` answers a [`ResponseValue`] whose
//!   [`headers`](ResponseValue::headers) carry the `ETag`, or an [`Error`] whose
//!   `ErrorResponse` holds the [`types::Problem`] document.
//! - A thin hand-written layer where the generated one is clumsy: [`GameSession`] remembers a
//!   game, a token and the version last seen, and sends `If-Match` with every write;
//!   [`HalmaError`] turns a generated [`Error`] into the problem's status, [`ProblemCode`],
//!   [`ProblemReason`] and `current_version`; [`entity_tag`], [`etag_version`] and [`bearer`] format and
//!   read the headers for callers of the generated builders.
//!
//! ```no_run
//! use halma_client::{types, Client, GameSession, HalmaError};
//!
//! # async fn run() -> Result<(), HalmaError> {
//! let client = Client::new("http://127.0.0.1:8080");
//! let request = types::CreateGameRequest::builder()
//!     .board(types::BoardName::Star)
//!     .players(2_u8)
//!     .seats(vec![
//!         types::SeatRequest::builder().name("me".to_owned()).try_into()?,
//!         types::SeatRequest::builder().kind(types::SeatKind::Ai).level(3_u8).try_into()?,
//!     ]);
//! let (mut session, _tokens) = GameSession::create(&client, request.try_into()?).await?;
//! while !session.is_finished() {
//!     let hint = session.suggestion(Some(4), Some(50)).await?;
//!     // Sends `If-Match: "<version last seen>"` and remembers the new version.
//!     for played in session.play(&hint.from, &hint.to).await? {
//!         println!("seat {} played {}", played.seat, played.notation);
//!     }
//! }
//! println!("result: {:?}", session.game().result);
//! # Ok(())
//! # }
//! ```
//!
//! # Transport
//!
//! The client speaks plain HTTP through reqwest with its default features off. To reach the
//! service over HTTPS, enable a TLS feature of reqwest in your own crate (for example
//! `reqwest = { version = "0.13", default-features = false, features = ["rustls"] }`; Cargo
//! unifies the features) and build the client with [`Client::new_with_client`] or
//! [`build_client`]. [`Client::new`] sets a 15 s timeout, which bounds long polls
//! ([`GameSession::wait_for_change`]); build the client with [`build_client`] for longer ones.

// The generated client: committed, never edited, excluded from rustfmt (its formatting is
// prettyplease's, and `cargo run -p xtask -- check-client` compares it byte for byte).
// progenitor writes no docs on most items, imports more than each file uses, unwraps in
// `Client::new` (building a reqwest client fails only when its TLS backend cannot start), and
// copies the API's descriptions into doc comments as they are (clippy's style lints, which
// progenitor itself turns off in its `types` and `builder` modules).
#[rustfmt::skip]
#[allow(missing_docs, unused_imports, clippy::all, clippy::unwrap_used)]
mod generated;

mod error;
mod events;
mod headers;
mod session;

pub use error::{ApiProblem, HalmaError};
pub use events::{EventStream, GameEvent};
pub use generated::types::{ProblemCode, ProblemReason};
pub use generated::{builder, types, ByteStream, Client, ClientInfo, Error, ResponseValue};
pub use headers::{bearer, build_client, entity_tag, etag_version};
pub use session::GameSession;

/// The reqwest crate the client is built on, for [`Client::new_with_client`] and status codes.
pub use reqwest;

/// The examples of `README.md`, compiled as doctests so that they stay true.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
