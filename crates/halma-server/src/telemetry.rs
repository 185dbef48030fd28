//! Logging: the subscriber, and one log line per request.
//!
//! Request lines carry the method, the path without its query string, the status and the
//! time taken; never headers or bodies, where tokens travel.

use std::io::IsTerminal as _;
use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use tracing_subscriber::EnvFilter;

/// Installs the global log subscriber: human-readable lines on standard output (coloured only
/// on a terminal), filtered by `filter` (`tracing_subscriber::EnvFilter` syntax, e.g.
/// `info,halma_server=debug`). Records of the `log` crate (from actix) go through it too.
///
/// # Errors
/// [`TelemetryError`] when the filter is invalid or a subscriber is already installed.
pub fn init(filter: &str) -> Result<(), TelemetryError> {
    let filter = EnvFilter::try_new(filter).map_err(|err| TelemetryError(err.to_string()))?;
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stdout().is_terminal())
        .try_init()
        .map_err(|err| TelemetryError(err.to_string()))
}

/// The log subscriber could not be installed.
#[derive(Debug, thiserror::Error)]
#[error("cannot set up logging: {0}")]
pub struct TelemetryError(String);

/// Middleware (for `actix_web::middleware::from_fn`) that logs each request once it is
/// answered.
///
/// # Errors
/// Passes on the inner service's error unchanged.
pub async fn log_request(
    request: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let started = Instant::now();
    let method = request.method().clone();
    let path = request.path().to_owned();
    let result = next.call(request).await;
    let elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
    match &result {
        Ok(response) => tracing::info!(
            %method,
            %path,
            status = response.status().as_u16(),
            elapsed_ms,
            "request"
        ),
        Err(err) => tracing::warn!(%method, %path, elapsed_ms, error = %err, "request failed"),
    }
    result
}
