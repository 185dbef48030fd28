//! The Halma game service: a stateless REST API for Chinese checkers and Halma.
//!
//! This crate holds the service infrastructure: configuration from the environment
//! ([`config`]), the HTTP error type rendered as RFC 9457 problem documents ([`error`],
//! [`problem`], [`extractors`]), the game store with its in-memory and Redis back ends
//! ([`store`]), per-client rate limits ([`limits`]), secret tokens ([`token`]), logging
//! ([`telemetry`]), metrics ([`observability`]), the routes and the OpenAPI
//! document ([`routes`], [`openapi`]), and the application itself ([`startup`]). The routes
//! only translate HTTP: the game operations and their answers are in [`games`], the board
//! facts in [`boards`], the bodies' types in [`api`].
//!
//! The binary (`src/main.rs`) reads a [`config::Config`] from the environment and runs
//! [`startup::Application`]; tests build the same application on port 0.
#![forbid(unsafe_code)]

pub mod analysis;
pub mod api;
pub mod boards;
pub mod config;
pub mod error;
pub mod events;
pub mod extractors;
pub mod games;
pub mod limits;
pub mod observability;
pub mod openapi;
pub mod position_input;
pub mod problem;
pub mod routes;
pub mod startup;
pub mod state;
pub mod store;
pub mod telemetry;
pub mod token;
