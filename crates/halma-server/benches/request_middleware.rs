//! The cost of the request middleware (`telemetry::log_request`: request id, span, metrics,
//! log line) on one request through actix's service stack, against the same route without it.
//!
//! Three benchmarks, in this order in one run: the bare route; the route with the middleware
//! before any metrics recorder is installed (the metrics calls are no-ops); and with the
//! middleware after `observability::install` (the Prometheus recorder counts). No log
//! subscriber is installed, so the log line costs what a filtered-out line costs. Each checks
//! its answer (status, and the echoed `X-Request-Id` where the middleware runs).

// A benchmark fails by panicking.
#![allow(clippy::unwrap_used)]

use actix_web::middleware::from_fn;
use actix_web::{test, web, App, HttpResponse};
use criterion::{criterion_group, criterion_main, Criterion};
use halma_server::{observability, telemetry};

async fn ok() -> HttpResponse {
    HttpResponse::Ok().body("{}")
}

/// Benchmarks one GET through `$service` (an initialised test service) on `$system`.
macro_rules! bench_requests {
    ($c:expr, $name:expr, $system:expr, $service:expr, $echoed:expr) => {
        $c.bench_function($name, |b| {
            b.iter(|| {
                $system.block_on(async {
                    let request = test::TestRequest::get()
                        .uri("/v1/games/abc123")
                        .to_request();
                    let response = test::call_service(&$service, request).await;
                    assert!(response.status().is_success());
                    assert_eq!(response.headers().contains_key("x-request-id"), $echoed);
                })
            })
        })
    };
}

fn middleware(c: &mut Criterion) {
    let system = actix_web::rt::System::new();
    let bare = system.block_on(test::init_service(
        App::new().route("/v1/games/{id}", web::get().to(ok)),
    ));
    bench_requests!(c, "request/bare", system, bare, false);
    let wrapped = system.block_on(test::init_service(
        App::new()
            .route("/v1/games/{id}", web::get().to(ok))
            .wrap(from_fn(telemetry::log_request)),
    ));
    bench_requests!(c, "request/middleware_no_recorder", system, wrapped, true);
    assert!(observability::install().is_some());
    bench_requests!(c, "request/middleware_with_metrics", system, wrapped, true);
}

criterion_group!(benches, middleware);
criterion_main!(benches);
