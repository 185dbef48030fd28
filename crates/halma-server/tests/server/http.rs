//! The application over real HTTP, started on port 0: readiness through a Redis outage, the
//! OpenAPI document and the interactive docs, and problem documents for unknown routes.
//! (Liveness and readiness over the memory store are in the black-box suite.)

use std::time::{Duration, Instant};

use halma_server::config::Config;
use halma_server::problem::Problem;
use halma_server::routes::health::Readiness;
use halma_testkit::{free_port, redis_config, spawn_app, RedisServer};
use reqwest::header::{CONTENT_TYPE, RETRY_AFTER};
use reqwest::StatusCode;

struct TestApp {
    base: String,
    client: reqwest::Client,
}

impl TestApp {
    async fn spawn(config: Config) -> Self {
        Self {
            base: spawn_app(config).await,
            client: reqwest::Client::new(),
        }
    }

    async fn get(&self, path: &str) -> reqwest::Response {
        self.client
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .unwrap()
    }

    /// Polls `/readyz` until it answers `status`.
    async fn wait_for_readiness(&self, status: StatusCode) -> Duration {
        let started = Instant::now();
        loop {
            if self.get("/readyz").await.status() == status {
                return started.elapsed();
            }
            assert!(
                started.elapsed() < Duration::from_secs(15),
                "/readyz never answered {status}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

fn content_type(response: &reqwest::Response) -> String {
    response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}

async fn expect_problem(response: reqwest::Response, status: StatusCode, code: &str) -> Problem {
    assert_eq!(response.status(), status);
    assert_eq!(content_type(&response), "application/problem+json");
    let problem: Problem = response.json().await.unwrap();
    assert_eq!(problem.code.as_str(), code);
    assert_eq!(problem.status, status.as_u16());
    problem
}

/// The key prefix of these tests.
const PREFIX: &str = "http-test:";

#[tokio::test]
async fn readyz_follows_redis_down_and_up_again() {
    let mut redis = RedisServer::start();
    let app = TestApp::spawn(redis.config(PREFIX)).await;
    let response = app.get("/readyz").await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.json::<Readiness>().await.unwrap().store, "redis");

    redis.stop();
    let response = app.get("/readyz").await;
    assert_eq!(
        response
            .headers()
            .get(RETRY_AFTER)
            .and_then(|value| value.to_str().ok()),
        Some("2")
    );
    let problem = expect_problem(
        response,
        StatusCode::SERVICE_UNAVAILABLE,
        "store_unavailable",
    )
    .await;
    assert!(!problem.detail.contains("127.0.0.1"), "{}", problem.detail);
    // Still alive while not ready.
    assert_eq!(app.get("/healthz").await.status(), StatusCode::OK);

    redis.restart();
    let recovered = app.wait_for_readiness(StatusCode::OK).await;
    println!("/readyz answered 200 again {recovered:?} after Redis restarted");
}

#[tokio::test]
async fn the_service_starts_while_redis_is_down() {
    let port = free_port();
    let app = TestApp::spawn(redis_config(port, PREFIX)).await;
    expect_problem(
        app.get("/readyz").await,
        StatusCode::SERVICE_UNAVAILABLE,
        "store_unavailable",
    )
    .await;
    let _redis =
        RedisServer::start_on(port).unwrap_or_else(|err| panic!("a Redis on port {port}: {err}"));
    app.wait_for_readiness(StatusCode::OK).await;
}

#[tokio::test]
async fn the_openapi_document_is_served() {
    let app = TestApp::spawn(Config::default()).await;
    let response = app.get("/openapi.json").await;
    assert_eq!(response.status(), StatusCode::OK);
    let document: serde_json::Value = response.json().await.unwrap();
    let version = document["openapi"].as_str().unwrap_or_default();
    assert!(version.starts_with("3.1"), "openapi {version}");
    assert_eq!(document["info"]["title"], "Halma game service");
    assert!(document["paths"]["/healthz"]["get"].is_object());
    let readyz = &document["paths"]["/readyz"]["get"]["responses"];
    assert!(readyz["200"]["content"]["application/json"].is_object());
    assert!(readyz["503"]["content"]["application/problem+json"].is_object());
    assert!(readyz["503"]["headers"]["Retry-After"].is_object());
    let problem = &document["components"]["schemas"]["Problem"];
    for member in ["type", "title", "status", "detail", "code"] {
        assert!(
            problem["required"]
                .as_array()
                .is_some_and(|required| required.iter().any(|name| name == member)),
            "Problem.{member} is not required"
        );
    }
    assert!(problem["properties"]["current_version"].is_object());
    // Rust documentation sections stay out of the API documentation.
    assert!(!document.to_string().contains("# Errors"));
}

#[tokio::test]
async fn the_interactive_docs_work_offline() {
    let app = TestApp::spawn(Config::default()).await;
    // `/docs` redirects to `/docs/`, which serves Swagger UI's page.
    let response = app.get("/docs").await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.url().path(), "/docs/");
    assert!(content_type(&response).starts_with("text/html"));
    let page = response.text().await.unwrap();
    assert!(page.contains("swagger-ui-bundle.js"), "{page}");
    assert!(
        !page.contains("https://"),
        "the page loads something from the internet"
    );

    let bundle = app.get("/docs/swagger-ui-bundle.js").await;
    assert_eq!(bundle.status(), StatusCode::OK);
    assert!(content_type(&bundle).contains("javascript"));
    assert!(bundle.bytes().await.unwrap().len() > 100_000);

    let initializer = app.get("/docs/swagger-initializer.js").await;
    assert_eq!(initializer.status(), StatusCode::OK);
    assert!(initializer.text().await.unwrap().contains("/openapi.json"));
}

#[tokio::test]
async fn unknown_paths_and_methods_get_problem_documents() {
    let app = TestApp::spawn(Config::default()).await;
    expect_problem(
        app.get("/no/such/thing").await,
        StatusCode::NOT_FOUND,
        "not_found",
    )
    .await;
    expect_problem(
        app.get("/docs/no-such-file.js").await,
        StatusCode::NOT_FOUND,
        "not_found",
    )
    .await;
}

/// Every path of the OpenAPI document answers each method it does not document with 405, an
/// `Allow` header naming exactly the documented ones, and a problem document; so do the web
/// client's pages.
#[tokio::test]
async fn wrong_methods_get_405_with_allow() {
    let app = TestApp::spawn(Config::default()).await;
    let document: serde_json::Value = app.get("/openapi.json").await.json().await.unwrap();
    let paths = document["paths"].as_object().unwrap();
    assert!(paths.len() > 20, "{} paths", paths.len());
    let every = [
        "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE",
    ];
    for (template, item) in paths {
        let documented: Vec<String> = item
            .as_object()
            .unwrap()
            .keys()
            .map(|method| method.to_ascii_uppercase())
            .filter(|method| every.contains(&method.as_str()))
            .collect();
        // Path parameters: a game id that exists nowhere, seat 0, a board and a name.
        let path = template
            .replace("{id}", "no-such-game")
            .replace("{seat}", "0")
            .replace("{board}", "star")
            .replace("{name}", "Ada");
        for method in every.iter().filter(|m| !documented.iter().any(|d| d == *m)) {
            let response = app
                .client
                .request(method.parse().unwrap(), format!("{}{path}", app.base))
                .send()
                .await
                .unwrap();
            assert_eq!(
                response.status(),
                StatusCode::METHOD_NOT_ALLOWED,
                "{method} {path}"
            );
            let mut allowed: Vec<&str> = header(&response, "allow")
                .unwrap_or_else(|| panic!("{method} {path}: no Allow header"))
                .split(',')
                .map(str::trim)
                .collect();
            allowed.sort_unstable();
            let mut expected: Vec<&str> = documented.iter().map(String::as_str).collect();
            expected.sort_unstable();
            assert_eq!(allowed, expected, "{method} {path}");
            if *method != "HEAD" {
                expect_problem(
                    response,
                    StatusCode::METHOD_NOT_ALLOWED,
                    "method_not_allowed",
                )
                .await;
            }
        }
    }
    expect_405_outside_the_document(&app).await;
}

/// The resources outside the OpenAPI document (probes, metrics, the web client) answer a
/// method they do not serve with 405 and their `Allow` header too.
async fn expect_405_outside_the_document(app: &TestApp) {
    let resources = [
        ("/healthz", "GET"),
        ("/readyz", "GET"),
        ("/metrics", "GET"),
        ("/play", "GET, HEAD"),
        ("/play/", "GET, HEAD"),
    ];
    for (path, allow) in resources {
        let response = app
            .client
            .post(format!("{}{path}", app.base))
            .send()
            .await
            .unwrap();
        assert_eq!(header(&response, "allow"), Some(allow), "{path}");
        expect_problem(
            response,
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
        )
        .await;
    }
}

/// A preflight as a browser sends it before a cross-origin move.
async fn preflight(app: &TestApp, origin: &str) -> reqwest::Response {
    app.client
        .request(reqwest::Method::OPTIONS, format!("{}/v1/games", app.base))
        .header("origin", origin)
        .header("access-control-request-method", "POST")
        .header(
            "access-control-request-headers",
            "authorization, if-match, content-type",
        )
        .send()
        .await
        .unwrap()
}

fn header<'a>(response: &'a reqwest::Response, name: &str) -> Option<&'a str> {
    response.headers().get(name).and_then(|v| v.to_str().ok())
}

#[tokio::test]
async fn any_origin_may_call_the_api_by_default() {
    let app = TestApp::spawn(Config::default()).await;
    let answer = preflight(&app, "https://games.example").await;
    assert!(answer.status().is_success(), "{}", answer.status());
    assert_eq!(header(&answer, "access-control-allow-origin"), Some("*"));
    let methods = header(&answer, "access-control-allow-methods").unwrap_or_default();
    assert!(methods.contains("POST"), "{methods}");
    let headers = header(&answer, "access-control-allow-headers")
        .unwrap_or_default()
        .to_ascii_lowercase();
    for name in ["authorization", "if-match", "content-type"] {
        assert!(headers.contains(name), "{headers}");
    }
    assert_eq!(header(&answer, "access-control-max-age"), Some("3600"));
    assert_eq!(header(&answer, "access-control-allow-credentials"), None);

    // The request itself: a game created from another origin, its ETag and Location readable.
    let created = app
        .client
        .post(format!("{}/v1/games", app.base))
        .header("origin", "https://games.example")
        .json(&serde_json::json!({"board": "star", "players": 2}))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), StatusCode::CREATED);
    assert_eq!(header(&created, "access-control-allow-origin"), Some("*"));
    let exposed = header(&created, "access-control-expose-headers")
        .unwrap_or_default()
        .to_ascii_lowercase();
    for name in ["etag", "retry-after", "location"] {
        assert!(exposed.contains(name), "{exposed}");
    }
    // Errors carry the headers too, so a page can read the problem document.
    let missing = app
        .client
        .get(format!("{}/v1/games/nope", app.base))
        .header("origin", "https://games.example")
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    assert_eq!(header(&missing, "access-control-allow-origin"), Some("*"));
}

#[tokio::test]
async fn only_configured_origins_may_call_the_api_when_a_list_is_set() {
    let config = Config {
        cors_origins: halma_server::config::CorsOrigins::parse("https://games.example").unwrap(),
        ..Config::default()
    };
    let app = TestApp::spawn(config).await;
    let allowed = preflight(&app, "https://games.example").await;
    assert!(allowed.status().is_success(), "{}", allowed.status());
    assert_eq!(
        header(&allowed, "access-control-allow-origin"),
        Some("https://games.example")
    );
    let other = preflight(&app, "https://elsewhere.example").await;
    assert_eq!(header(&other, "access-control-allow-origin"), None);
    let read = app
        .client
        .get(format!("{}/healthz", app.base))
        .header("origin", "https://elsewhere.example")
        .send()
        .await
        .unwrap();
    assert_eq!(header(&read, "access-control-allow-origin"), None);
    let read = app
        .client
        .get(format!("{}/healthz", app.base))
        .header("origin", "https://games.example")
        .send()
        .await
        .unwrap();
    assert_eq!(
        header(&read, "access-control-allow-origin"),
        Some("https://games.example")
    );
    assert!(header(&read, "vary")
        .unwrap_or_default()
        .to_ascii_lowercase()
        .contains("origin"));
}

/// Creates a 2-player star game; returns its id.
async fn create_star_game(app: &TestApp) -> String {
    let created: serde_json::Value = app
        .client
        .post(format!("{}/v1/games", app.base))
        .json(&serde_json::json!({"board": "star", "players": 2}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    created["game"]["id"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn event_streams_are_capped_and_idle_ones_get_heartbeats() {
    let config = Config {
        max_streams: 1,
        stream_heartbeat: Duration::from_secs(1),
        ..Config::default()
    };
    let app = TestApp::spawn(config).await;
    let id = create_star_game(&app).await;
    let mut open = app.get(&format!("/v1/games/{id}/events")).await;
    assert_eq!(open.status(), StatusCode::OK);
    assert_eq!(content_type(&open), "text/event-stream");
    // The first chunk holds the game event; an idle stream then gets a comment line.
    let mut text = String::new();
    let started = Instant::now();
    while !text.contains("\n:") {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "no heartbeat: {text}"
        );
        let chunk = tokio::time::timeout(Duration::from_secs(5), open.chunk())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        text.push_str(&String::from_utf8_lossy(&chunk));
    }
    assert!(text.contains("event: game\n"), "{text}");
    assert!(text.contains("id: 0\n"), "{text}");
    // A second stream finds no room on this instance: 503 with a retry hint.
    let refused = app.get(&format!("/v1/games/{id}/events")).await;
    assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(refused.headers().contains_key(RETRY_AFTER));
    expect_problem(refused, StatusCode::SERVICE_UNAVAILABLE, "too_many_streams").await;
    // Closing the first stream gives its place back.
    drop(open);
    let started = Instant::now();
    loop {
        let again = app.get(&format!("/v1/games/{id}/events")).await;
        if again.status() == StatusCode::OK {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the closed stream's place was not given back"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_bad_last_event_id_is_a_bad_request() {
    let app = TestApp::spawn(Config::default()).await;
    let id = create_star_game(&app).await;
    for bad in ["1", "-1", "x", "18446744073709551616"] {
        let answer = app
            .client
            .get(format!("{}/v1/games/{id}/events", app.base))
            .header("last-event-id", bad)
            .send()
            .await
            .unwrap();
        let problem = expect_problem(answer, StatusCode::BAD_REQUEST, "bad_request").await;
        assert!(
            problem.detail.contains("from 0 to 0"),
            "{bad}: {}",
            problem.detail
        );
    }
    let missing = app.get("/v1/games/nope/events").await;
    expect_problem(missing, StatusCode::NOT_FOUND, "game_not_found").await;
}
