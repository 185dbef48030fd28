//! Extractor failures as problem documents, tested on the real application factory
//! (`startup::app`) with test-only routes added: the service has no JSON routes of its own yet.

use std::time::Duration;

use actix_web::http::header::{HeaderValue, CONTENT_TYPE};
use actix_web::http::StatusCode;
use actix_web::{test, web, HttpResponse};
use halma_server::config::Config;
use halma_server::problem::Problem;
use halma_server::startup::app;
use halma_server::state::AppState;
use halma_server::store::{MemoryStore, Store};
use serde::{Deserialize, Serialize};

const LIMIT: usize = 1024;

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Echo {
    name: String,
    count: u32,
}

#[derive(Deserialize)]
struct Page {
    page: u32,
}

async fn echo(body: web::Json<Echo>) -> HttpResponse {
    HttpResponse::Ok().json(body.into_inner())
}

async fn raw(body: web::Bytes) -> HttpResponse {
    HttpResponse::Ok().body(body)
}

async fn page(query: web::Query<Page>) -> HttpResponse {
    HttpResponse::Ok().body(query.page.to_string())
}

async fn number(path: web::Path<u32>) -> HttpResponse {
    HttpResponse::Ok().body(path.into_inner().to_string())
}

/// The application with a body limit of [`LIMIT`] bytes and the test routes.
macro_rules! service {
    () => {{
        let config = Config {
            max_body_bytes: LIMIT,
            ..Config::default()
        };
        let store = Store::Memory(MemoryStore::new(Duration::from_secs(60)));
        let state = web::Data::new(AppState::new(store, &config));
        test::init_service(
            app(state)
                // A resource (not `App::route`, which moves the method guard to the resource):
                // other methods on it are then 405s.
                .service(web::resource("/test/echo").route(web::post().to(echo)))
                .route("/test/raw", web::post().to(raw))
                .route("/test/page", web::get().to(page))
                .route("/test/number/{n}", web::get().to(number)),
        )
        .await
    }};
}

async fn expect_problem(
    response: actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>,
    status: StatusCode,
    code: &str,
) -> Problem {
    assert_eq!(response.status(), status);
    assert_eq!(
        response.headers().get(CONTENT_TYPE),
        Some(&HeaderValue::from_static("application/problem+json"))
    );
    let problem: Problem = test::read_body_json(response).await;
    assert_eq!(problem.code.as_str(), code);
    assert_eq!(problem.status, status.as_u16());
    problem
}

fn post_json(path: &str, body: impl Into<Vec<u8>>) -> test::TestRequest {
    test::TestRequest::post()
        .uri(path)
        .insert_header((CONTENT_TYPE, "application/json"))
        .set_payload(body.into())
}

#[actix_web::test]
async fn valid_json_passes() {
    let service = service!();
    let request = post_json("/test/echo", r#"{"name":"blue","count":3}"#).to_request();
    let echoed: Echo = test::call_and_read_body_json(&service, request).await;
    assert_eq!(
        echoed,
        Echo {
            name: "blue".to_owned(),
            count: 3
        }
    );
}

#[actix_web::test]
async fn malformed_json_is_a_400_with_serdes_message() {
    let service = service!();
    let request = post_json("/test/echo", r#"{"name": "blue", "#).to_request();
    let response = test::call_service(&service, request).await;
    let problem = expect_problem(response, StatusCode::BAD_REQUEST, "invalid_json").await;
    assert!(
        problem.detail.contains("line 1 column"),
        "{}",
        problem.detail
    );

    let request = post_json("/test/echo", r#"{"name": 5, "count": 1}"#).to_request();
    let response = test::call_service(&service, request).await;
    let problem = expect_problem(response, StatusCode::BAD_REQUEST, "invalid_json").await;
    assert!(
        problem.detail.contains("invalid type"),
        "{}",
        problem.detail
    );
}

#[actix_web::test]
async fn an_oversized_json_body_is_a_413() {
    let service = service!();
    let body = format!(r#"{{"name":"{}","count":1}}"#, "x".repeat(LIMIT));
    let request = post_json("/test/echo", body).to_request();
    let response = test::call_service(&service, request).await;
    let problem =
        expect_problem(response, StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large").await;
    assert_eq!(problem.limit_bytes, Some(LIMIT as u64));
}

#[actix_web::test]
async fn an_oversized_raw_body_is_a_413_problem_too() {
    let service = service!();
    let request = test::TestRequest::post()
        .uri("/test/raw")
        .set_payload(vec![b'x'; LIMIT + 1])
        .to_request();
    let response = test::call_service(&service, request).await;
    expect_problem(response, StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large").await;

    let request = test::TestRequest::post()
        .uri("/test/raw")
        .set_payload(vec![b'x'; LIMIT])
        .to_request();
    assert_eq!(
        test::call_service(&service, request).await.status(),
        StatusCode::OK
    );
}

#[actix_web::test]
async fn a_body_that_is_not_json_is_a_415() {
    let service = service!();
    let request = test::TestRequest::post()
        .uri("/test/echo")
        .insert_header((CONTENT_TYPE, "text/plain"))
        .set_payload(r#"{"name":"blue","count":3}"#)
        .to_request();
    let response = test::call_service(&service, request).await;
    expect_problem(
        response,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "unsupported_media_type",
    )
    .await;
}

#[actix_web::test]
async fn bad_query_strings_and_path_segments_are_400s() {
    let service = service!();
    let request = test::TestRequest::get()
        .uri("/test/page?page=abc")
        .to_request();
    let response = test::call_service(&service, request).await;
    let problem_doc = expect_problem(response, StatusCode::BAD_REQUEST, "bad_request").await;
    assert!(
        problem_doc.detail.starts_with("Invalid query string"),
        "{}",
        problem_doc.detail
    );

    let request = test::TestRequest::get()
        .uri("/test/number/abc")
        .to_request();
    let response = test::call_service(&service, request).await;
    let problem_doc = expect_problem(response, StatusCode::BAD_REQUEST, "bad_request").await;
    assert!(
        problem_doc.detail.starts_with("Invalid path parameter"),
        "{}",
        problem_doc.detail
    );

    let request = test::TestRequest::get().uri("/test/number/7").to_request();
    assert_eq!(test::call_and_read_body(&service, request).await, "7");
}

#[actix_web::test]
async fn a_wrong_method_is_a_405_problem() {
    let service = service!();
    let request = test::TestRequest::get().uri("/test/echo").to_request();
    let response = test::call_service(&service, request).await;
    expect_problem(
        response,
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
    )
    .await;
}
