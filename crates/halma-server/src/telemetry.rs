//! Logging: the subscriber, and one span and one log line per request, with the request's
//! metrics.
//!
//! Every request runs in a `request` span carrying its request id (the client's `X-Request-Id`
//! when it is a sensible one, a fresh one otherwise; see [`request_id_of`]), which the answer
//! echoes in `X-Request-Id`. Request lines carry the method, the path without its query
//! string, the status and the time taken; never other headers or bodies, where tokens travel.

use std::io::IsTerminal as _;
use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderMap, HeaderName, HeaderValue};
use actix_web::middleware::Next;
use rand::Rng as _;
use tracing::Instrument as _;
use tracing_subscriber::EnvFilter;

use crate::config::LogFormat;
use crate::observability::{HTTP_DURATION, HTTP_REQUESTS};

/// The request id header, read from requests and set on every answer.
pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");
/// Longest request id taken from a client.
pub const MAX_REQUEST_ID_LEN: usize = 128;

/// Installs the global log subscriber on standard output, filtered by `filter`
/// (`tracing_subscriber::EnvFilter` syntax, e.g. `info,halma_server=debug`): human-readable
/// lines (coloured only on a terminal) or one JSON object per line, with the fields of the
/// enclosing spans (so every line of a request carries its `request_id`). Records of the
/// `log` crate (from actix) go through it too.
///
/// # Errors
/// [`TelemetryError`] when the filter is invalid or a subscriber is already installed.
pub fn init(filter: &str, format: LogFormat) -> Result<(), TelemetryError> {
    let filter = EnvFilter::try_new(filter).map_err(|err| TelemetryError(err.to_string()))?;
    let installed = match format {
        LogFormat::Text => tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_ansi(std::io::stdout().is_terminal())
            .try_init(),
        LogFormat::Json => tracing_subscriber::fmt()
            .json()
            .with_env_filter(filter)
            .with_current_span(false)
            .with_span_list(true)
            .try_init(),
    };
    installed.map_err(|err| TelemetryError(err.to_string()))
}

/// The request id of a request: its `X-Request-Id` when that is 1 to
/// [`MAX_REQUEST_ID_LEN`] visible ASCII characters (no spaces or control characters), a
/// fresh random one (32 hexadecimal digits) otherwise.
pub fn request_id_of(headers: &HeaderMap) -> String {
    headers
        .get(&REQUEST_ID)
        .and_then(|value| value.to_str().ok())
        .filter(|id| is_valid_request_id(id))
        .map_or_else(new_request_id, str::to_owned)
}

/// Whether a client's request id is kept: 1 to [`MAX_REQUEST_ID_LEN`] visible ASCII characters.
pub fn is_valid_request_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= MAX_REQUEST_ID_LEN && id.bytes().all(|b| b.is_ascii_graphic())
}

fn new_request_id() -> String {
    let bits: u128 = rand::rng().random();
    format!("{bits:032x}")
}

/// The log subscriber could not be installed.
#[derive(Debug, thiserror::Error)]
#[error("cannot set up logging: {0}")]
pub struct TelemetryError(String);

/// Middleware (for `actix_web::middleware::from_fn`) that runs each request in a `request`
/// span with its request id, echoes the id in `X-Request-Id`, counts the request and its time
/// by route pattern and status, and logs it once it is answered.
///
/// # Errors
/// Passes on the inner service's error unchanged.
pub async fn log_request(
    request: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let started = Instant::now();
    let request_id = request_id_of(request.headers());
    let method = request.method().clone();
    let path = request.path().to_owned();
    let span = tracing::info_span!("request", request_id = %request_id, %method, %path);
    let result = next.call(request).instrument(span.clone()).await;
    let elapsed = started.elapsed();
    let elapsed_ms = elapsed.as_secs_f64() * 1000.0;
    let _entered = span.enter();
    match result {
        Ok(mut response) => {
            let status = response.status().as_u16();
            // The route pattern, never the path: one series per route, whatever ids clients send.
            let route = response
                .request()
                .match_pattern()
                .unwrap_or_else(|| "unmatched".to_owned());
            metrics::counter!(
                HTTP_REQUESTS,
                "method" => method.to_string(),
                "route" => route.clone(),
                "status" => status.to_string()
            )
            .increment(1);
            metrics::histogram!(HTTP_DURATION, "method" => method.to_string(), "route" => route)
                .record(elapsed.as_secs_f64());
            if let Ok(value) = HeaderValue::from_str(&request_id) {
                response.headers_mut().insert(REQUEST_ID, value);
            }
            tracing::info!(%method, %path, status, elapsed_ms, "request");
            Ok(response)
        }
        Err(err) => {
            tracing::warn!(%method, %path, elapsed_ms, error = %err, "request failed");
            Err(err)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers_with(id: &[u8]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if let Ok(value) = HeaderValue::from_bytes(id) {
            headers.insert(REQUEST_ID, value);
        }
        headers
    }

    #[test]
    fn sensible_request_ids_are_kept() {
        for id in ["abc", "0f8e-11aa_ZZ.9:x/y", &"a".repeat(MAX_REQUEST_ID_LEN)] {
            assert_eq!(request_id_of(&headers_with(id.as_bytes())), id);
        }
    }

    #[test]
    fn other_request_ids_are_replaced_by_fresh_ones() {
        let long = "a".repeat(MAX_REQUEST_ID_LEN + 1);
        for id in [
            &b"two words"[..],
            b"tab\there",
            long.as_bytes(),
            b"caf\xc3\xa9",
            b"",
        ] {
            let got = request_id_of(&headers_with(id));
            assert_eq!(got.len(), 32, "{id:?} gave {got}");
            assert!(got.bytes().all(|b| b.is_ascii_hexdigit()), "{got}");
        }
        let missing = request_id_of(&HeaderMap::new());
        assert_eq!(missing.len(), 32);
        assert_ne!(missing, request_id_of(&HeaderMap::new()));
    }
}
