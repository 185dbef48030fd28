//! The operational routes: health checks, API documentation and the web client.
//!
//! The game routes join these in [`configure`].

pub mod analysis;
pub mod boards;
pub mod docs;
pub mod events;
pub mod games;
pub mod health;
pub mod lobby;
pub mod play;
pub mod seats;
pub mod stats;

use actix_web::web::ServiceConfig;
use utoipa::openapi::OpenApi;

/// Registers every route; `openapi` is the document served at `/openapi.json`.
pub fn configure(config: &mut ServiceConfig, openapi: OpenApi) {
    config
        .service(health::healthz)
        .service(health::readyz)
        .configure(games::configure)
        .configure(seats::configure)
        .configure(lobby::configure)
        .configure(stats::configure)
        .configure(boards::configure)
        .configure(play::configure)
        .configure(analysis::configure)
        .configure(|config| docs::configure(config, openapi));
}
