//! Prometheus metrics: their names, the recorder, and the `/metrics` route.
//!
//! Metrics are recorded through the `metrics` facade where things happen (the request
//! middleware in [`crate::telemetry`], the store calls in [`crate::store`], the AI searches in
//! [`crate::games`], the event streams in [`crate::routes::events`]) and rendered in the
//! Prometheus text format by `metrics-exporter-prometheus` at `GET /metrics`.
//!
//! The recorder is process-wide: [`install`] sets it up once, and every application built in
//! the process reports into it (the binary builds one).
//!
//! | metric | type | labels |
//! |---|---|---|
//! | `halma_http_requests_total` | counter | `method`, `route` (the route pattern, `unmatched` for unknown paths), `status` |
//! | `halma_http_request_duration_seconds` | histogram | `method`, `route` |
//! | `halma_ai_searches_total` | counter | |
//! | `halma_ai_search_duration_seconds` | histogram | |
//! | `halma_ai_search_depth` | histogram | |
//! | `halma_ai_fallbacks_total` | counter | (searches answered with the one-ply move: no slot freed in time) |
//! | `halma_ai_slot_wait_seconds` | histogram | |
//! | `halma_store_calls_total` | counter | `operation` |
//! | `halma_store_errors_total` | counter | `operation`, `kind` (`unavailable`, `timed_out`, `corrupt`) |
//! | `halma_store_call_duration_seconds` | histogram | `operation` |
//! | `halma_store_write_conflicts_total` | counter | `operation` (writes refused because the version moved on) |
//! | `halma_version_conflicts_total` | counter | (412 answers) |
//! | `halma_event_streams_open` | gauge | |
//! | `halma_games_created_total` | counter | |
//! | `halma_games_finished_total` | counter | |

use std::sync::OnceLock;
use std::time::Duration;

use actix_web::http::header::CONTENT_TYPE;
use actix_web::HttpResponse;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use crate::error::ApiError;

/// Requests answered, by method, route pattern and status.
pub const HTTP_REQUESTS: &str = "halma_http_requests_total";
/// Time to answer a request (until the response head; a stream's body is not included).
pub const HTTP_DURATION: &str = "halma_http_request_duration_seconds";
/// AI searches run.
pub const AI_SEARCHES: &str = "halma_ai_searches_total";
/// Time of an AI search, slot wait excluded.
pub const AI_DURATION: &str = "halma_ai_search_duration_seconds";
/// Depth an AI search completed.
pub const AI_DEPTH: &str = "halma_ai_search_depth";
/// AI searches answered with the one-ply move because no slot freed in time.
pub const AI_FALLBACKS: &str = "halma_ai_fallbacks_total";
/// Time an AI search waited for its slots.
pub const AI_SLOT_WAIT: &str = "halma_ai_slot_wait_seconds";
/// Store calls, by operation.
pub const STORE_CALLS: &str = "halma_store_calls_total";
/// Store calls that failed (unavailable, timed out, corrupt data), by operation and kind.
pub const STORE_ERRORS: &str = "halma_store_errors_total";
/// Time of a store call, by operation.
pub const STORE_DURATION: &str = "halma_store_call_duration_seconds";
/// Writes the store refused because the game's version had moved on.
pub const STORE_CONFLICTS: &str = "halma_store_write_conflicts_total";
/// Requests answered 412 `version_mismatch`.
pub const VERSION_CONFLICTS: &str = "halma_version_conflicts_total";
/// Event streams open on this instance.
pub const STREAMS_OPEN: &str = "halma_event_streams_open";
/// Games created.
pub const GAMES_CREATED: &str = "halma_games_created_total";
/// Games that ended (the write of their last move).
pub const GAMES_FINISHED: &str = "halma_games_finished_total";

/// Histogram buckets of the durations, in seconds: 0.5 ms to 10 s.
const SECONDS_BUCKETS: &[f64] = &[
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];
/// Histogram buckets of search depths.
const DEPTH_BUCKETS: &[f64] = &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.0, 16.0];
/// How often buffered histogram samples are folded into the histograms between scrapes.
const UPKEEP_PERIOD: Duration = Duration::from_secs(5);

static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// Installs the process-wide Prometheus recorder (the first call does; later calls return the
/// same handle) and starts its upkeep thread. `None` when another recorder was installed
/// first by someone else: metrics then go there and `/metrics` answers 500.
pub fn install() -> Option<PrometheusHandle> {
    HANDLE
        .get_or_init(|| {
            let builder = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".to_owned()), SECONDS_BUCKETS)
                .and_then(|b| b.set_buckets_for_metric(Matcher::Full(AI_DEPTH.to_owned()), DEPTH_BUCKETS));
            let handle = match builder.map(PrometheusBuilder::install_recorder) {
                Ok(Ok(handle)) => handle,
                Ok(Err(err)) | Err(err) => {
                    tracing::warn!(error = %err, "cannot install the metrics recorder; /metrics is off");
                    return None;
                }
            };
            describe();
            let upkeep = handle.clone();
            let spawned = std::thread::Builder::new()
                .name("metrics-upkeep".to_owned())
                .spawn(move || loop {
                    std::thread::sleep(UPKEEP_PERIOD);
                    upkeep.run_upkeep();
                });
            if let Err(err) = spawned {
                tracing::warn!(error = %err, "cannot start the metrics upkeep thread; histograms fold in at each scrape");
            }
            Some(handle)
        })
        .clone()
}

/// The help texts of the metrics.
fn describe() {
    use metrics::{describe_counter, describe_gauge, describe_histogram, Unit};
    describe_counter!(
        HTTP_REQUESTS,
        "Requests answered, by method, route pattern and status."
    );
    describe_histogram!(
        HTTP_DURATION,
        Unit::Seconds,
        "Time to answer a request (response head)."
    );
    describe_counter!(AI_SEARCHES, "AI searches run.");
    describe_histogram!(
        AI_DURATION,
        Unit::Seconds,
        "Time of an AI search, slot wait excluded."
    );
    describe_histogram!(AI_DEPTH, "Depth an AI search completed.");
    describe_counter!(
        AI_FALLBACKS,
        "AI searches answered with the one-ply move (no slot in time)."
    );
    describe_histogram!(
        AI_SLOT_WAIT,
        Unit::Seconds,
        "Time an AI search waited for a slot."
    );
    describe_counter!(STORE_CALLS, "Store calls, by operation.");
    describe_counter!(
        STORE_ERRORS,
        "Store calls that failed, by operation and kind."
    );
    describe_histogram!(
        STORE_DURATION,
        Unit::Seconds,
        "Time of a store call, by operation."
    );
    describe_counter!(
        STORE_CONFLICTS,
        "Writes refused because the version had moved on."
    );
    describe_counter!(VERSION_CONFLICTS, "Requests answered 412 version_mismatch.");
    describe_gauge!(STREAMS_OPEN, "Event streams open on this instance.");
    describe_counter!(GAMES_CREATED, "Games created.");
    describe_counter!(GAMES_FINISHED, "Games that ended.");
}

/// The metrics in the Prometheus text exposition format (version 0.0.4), at `GET /metrics`.
///
/// Not part of the OpenAPI document (like `/openapi.json` and `/docs`, it is for operators,
/// not API clients) and not subject to request limits.
///
/// # Errors
/// An internal error (500) when the process reports its metrics to another recorder.
pub async fn scrape() -> Result<HttpResponse, ApiError> {
    let handle =
        install().ok_or_else(|| ApiError::internal("the metrics recorder is not installed"))?;
    Ok(HttpResponse::Ok()
        .insert_header((CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8"))
        .body(handle.render()))
}
