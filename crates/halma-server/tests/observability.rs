//! Observability and limits, over real HTTP: the metrics at `/metrics` follow real requests,
//! request ids are echoed (and replaced when unfit), a Redis that hangs gives fast 503s, and
//! the real binary shuts down gracefully on SIGTERM with JSON logs.
//!
//! A test binary of its own: the metrics recorder is process-wide, so the tests here that
//! run the application in this process take turns ([`SERIAL`]) and see exact counts.
//! Needs `redis-server` for the hanging-store test (it fails without it).

// Tests fail by panicking: unwrapping is how a test says "this must succeed".
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::io::Read as _;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use halma_server::config::Config;
use halma_testkit::{free_port, spawn_app, RedisServer};
use reqwest::header::{AUTHORIZATION, IF_MATCH, ORIGIN};
use reqwest::StatusCode;
use serde_json::{json, Value};

/// The in-process tests take turns, so that each sees only its own requests in the metrics.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// One sample of the exposition: the metric's name, its labels, its value.
#[derive(Debug)]
struct Sample {
    name: String,
    labels: BTreeMap<String, String>,
    value: f64,
}

/// Reads the Prometheus text format (the subset the exporter writes: no timestamps).
fn parse_exposition(text: &str) -> Vec<Sample> {
    let mut samples = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let name_end = line.find(['{', ' ']).unwrap();
        let name = line[..name_end].to_owned();
        let mut labels = BTreeMap::new();
        let mut rest = &line[name_end..];
        if let Some(inner) = rest.strip_prefix('{') {
            let mut chars = inner.char_indices();
            let mut key = String::new();
            let end = loop {
                let (i, c) = chars.next().unwrap();
                match c {
                    '}' => break i,
                    ',' => {}
                    '=' => {
                        assert_eq!(chars.next().map(|(_, c)| c), Some('"'), "{line}");
                        let mut value = String::new();
                        loop {
                            match chars.next().unwrap().1 {
                                '"' => break,
                                '\\' => match chars.next().unwrap().1 {
                                    'n' => value.push('\n'),
                                    other => value.push(other),
                                },
                                other => value.push(other),
                            }
                        }
                        labels.insert(std::mem::take(&mut key), value);
                    }
                    other => key.push(other),
                }
            };
            rest = &inner[end + 1..];
        }
        let value = rest.trim().parse::<f64>().unwrap();
        samples.push(Sample {
            name,
            labels,
            value,
        });
    }
    samples
}

/// The metrics of one scrape.
struct Scrape(Vec<Sample>);

impl Scrape {
    /// The sum of the samples of `name` whose labels include `labels` (0 when none).
    fn value(&self, name: &str, labels: &[(&str, &str)]) -> f64 {
        self.0
            .iter()
            .filter(|s| s.name == name)
            .filter(|s| {
                labels
                    .iter()
                    .all(|(k, v)| s.labels.get(*k).map(String::as_str) == Some(*v))
            })
            .map(|s| s.value)
            .sum()
    }
}

async fn scrape(client: &reqwest::Client, base: &str) -> Scrape {
    let response = client.get(format!("{base}/metrics")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let content_type = response.headers()[reqwest::header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(
        content_type.starts_with("text/plain; version=0.0.4"),
        "{content_type}"
    );
    Scrape(parse_exposition(&response.text().await.unwrap()))
}

fn header(response: &reqwest::Response, name: &str) -> String {
    response
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}

/// Plays the first legal move for the seat to move, with `If-Match: version`.
async fn play_first_move(
    client: &reqwest::Client,
    base: &str,
    id: &str,
    token: &str,
    version: u64,
) -> reqwest::Response {
    let moves: Value = client
        .get(format!("{base}/v1/games/{id}/moves"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let first = &moves["moves"][0];
    client
        .post(format!("{base}/v1/games/{id}/moves"))
        .header(AUTHORIZATION, format!("Bearer {token}"))
        .header(IF_MATCH, format!("\"{version}\""))
        .json(&json!({"from": first["from"], "to": first["to"]}))
        .send()
        .await
        .unwrap()
}

const MOVES: &str = "/v1/games/{id}/moves";
const GAMES: &str = "/v1/games";

/// Real requests move the numbers: requests by route and status with their latency, games
/// created and finished, version conflicts, store calls, AI searches and open streams.
#[tokio::test]
async fn metrics_follow_real_requests() {
    let _turn = SERIAL.lock().await;
    let base = spawn_app(Config::default()).await;
    let client = reqwest::Client::new();
    let before = scrape(&client, &base).await;

    let created: Value = client
        .post(format!("{base}/v1/games"))
        .json(&json!({"board": "star", "players": 2, "first_seat": 0}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = created["game"]["id"].as_str().unwrap();
    let seat = |i: usize| created["tokens"]["seats"][i].as_str().unwrap();

    // An open event stream counts while it is open.
    let mut stream = client
        .get(format!("{base}/v1/games/{id}/events"))
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status(), StatusCode::OK);
    let first = stream.chunk().await.unwrap().unwrap();
    assert!(!first.is_empty());
    let open = scrape(&client, &base).await;
    assert_eq!(
        open.value("halma_event_streams_open", &[]) - before.value("halma_event_streams_open", &[]),
        1.0
    );

    let played = play_first_move(&client, &base, id, seat(0), 1).await;
    assert_eq!(played.status(), StatusCode::OK);
    // The same version again: a conflict.
    let stale = play_first_move(&client, &base, id, seat(1), 1).await;
    assert_eq!(stale.status(), StatusCode::PRECONDITION_FAILED);
    // Seat 1 resigns: the game is over, and the stream ends.
    let resigned = client
        .post(format!("{base}/v1/games/{id}/seats/1/resign"))
        .header(AUTHORIZATION, format!("Bearer {}", seat(1)))
        .header(IF_MATCH, "\"2\"")
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(resigned.status(), StatusCode::OK);
    while stream.chunk().await.unwrap().is_some() {}
    drop(stream);

    // A game whose AI seat moves first: one search at creation.
    let ai_game = client
        .post(format!("{base}/v1/games"))
        .json(&json!({"board": "star", "players": 2, "first_seat": 0,
            "seats": [{"kind": "ai", "level": 3}, {}], "ai_time_ms": 50}))
        .send()
        .await
        .unwrap();
    assert_eq!(ai_game.status(), StatusCode::CREATED);

    let after = scrape(&client, &base).await;
    let delta = |name: &str, labels: &[(&str, &str)]| {
        after.value(name, labels) - before.value(name, labels)
    };
    let requests = "halma_http_requests_total";
    let post_moves = [("method", "POST"), ("route", MOVES)];
    assert_eq!(
        delta(requests, &[post_moves[0], post_moves[1], ("status", "200")]),
        1.0
    );
    assert_eq!(
        delta(requests, &[post_moves[0], post_moves[1], ("status", "412")]),
        1.0
    );
    assert_eq!(
        delta(
            requests,
            &[("method", "POST"), ("route", GAMES), ("status", "201")]
        ),
        2.0
    );
    assert_eq!(
        delta(
            requests,
            &[("method", "GET"), ("route", MOVES), ("status", "200")]
        ),
        2.0
    );
    // Latency: one observation per request, in the histogram's count and its +Inf bucket.
    assert_eq!(
        delta("halma_http_request_duration_seconds_count", &post_moves),
        2.0
    );
    assert_eq!(
        delta(
            "halma_http_request_duration_seconds_bucket",
            &[post_moves[0], post_moves[1], ("le", "+Inf")]
        ),
        2.0
    );
    assert!(delta("halma_http_request_duration_seconds_sum", &post_moves) > 0.0);

    assert_eq!(delta("halma_version_conflicts_total", &[]), 1.0);
    assert_eq!(delta("halma_games_created_total", &[]), 2.0);
    assert_eq!(delta("halma_games_finished_total", &[]), 1.0);
    assert_eq!(
        delta("halma_store_calls_total", &[("operation", "create")]),
        2.0
    );
    // The move and the resignation (the stale move is refused before the write).
    assert_eq!(
        delta(
            "halma_store_calls_total",
            &[("operation", "compare_and_set")]
        ) + delta(
            "halma_store_calls_total",
            &[("operation", "compare_and_set_counting")]
        ),
        2.0
    );
    assert_eq!(
        delta(
            "halma_store_calls_total",
            &[("operation", "compare_and_set_counting")]
        ),
        1.0,
        "the game's last write counts its statistics"
    );
    assert_eq!(delta("halma_store_errors_total", &[]), 0.0);
    assert_eq!(
        delta(
            "halma_store_call_duration_seconds_count",
            &[("operation", "create")]
        ),
        2.0
    );
    let searches = delta("halma_ai_searches_total", &[]);
    assert!(searches >= 1.0, "{searches}");
    assert_eq!(delta("halma_ai_search_depth_count", &[]), searches);
    assert_eq!(
        delta("halma_ai_search_duration_seconds_count", &[]),
        searches
    );
    assert_eq!(delta("halma_ai_slot_wait_seconds_count", &[]), searches);
    assert_eq!(delta("halma_ai_fallbacks_total", &[]), 0.0);
    // The stream closed with the game.
    assert_eq!(delta("halma_event_streams_open", &[]), 0.0);
    // Unknown paths share one series, whatever they are.
    let unknown = client
        .get(format!("{base}/no/such/{id}"))
        .send()
        .await
        .unwrap();
    assert_eq!(unknown.status(), StatusCode::NOT_FOUND);
    let last = scrape(&client, &base).await;
    assert_eq!(
        last.value(requests, &[("route", "unmatched"), ("status", "404")])
            - after.value(requests, &[("route", "unmatched"), ("status", "404")]),
        1.0
    );
    assert!(last
        .0
        .iter()
        .all(|s| !s.labels.values().any(|v| v.contains(id))));
}

/// `X-Request-Id`: a sensible one is echoed, an unfit one is replaced, a missing one is
/// generated; browsers may read it (CORS).
#[tokio::test]
async fn request_ids_are_echoed_replaced_or_generated() {
    let _turn = SERIAL.lock().await;
    let base = spawn_app(Config::default()).await;
    let client = reqwest::Client::new();
    let get = |id: Option<&'static str>| {
        let mut request = client.get(format!("{base}/healthz"));
        if let Some(id) = id {
            request = request.header("x-request-id", id);
        }
        request.send()
    };
    let given = get(Some("req-42.abc:7")).await.unwrap();
    assert_eq!(header(&given, "x-request-id"), "req-42.abc:7");

    let is_fresh = |id: &str| id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit());
    let long = Box::leak("x".repeat(129).into_boxed_str());
    for bad in ["two words", "tab\there", &*long] {
        let replaced = get(Some(bad)).await.unwrap();
        let id = header(&replaced, "x-request-id");
        assert!(is_fresh(&id), "{bad:?} became {id:?}");
    }
    let a = header(&get(None).await.unwrap(), "x-request-id");
    let b = header(&get(None).await.unwrap(), "x-request-id");
    assert!(is_fresh(&a) && is_fresh(&b) && a != b, "{a} {b}");

    // Problem documents carry it too, and a page of another origin may read it.
    let missing = client
        .get(format!("{base}/v1/games/nope"))
        .header(ORIGIN, "https://games.example")
        .header("x-request-id", "trace-me")
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    assert_eq!(header(&missing, "x-request-id"), "trace-me");
    let exposed = header(&missing, "access-control-expose-headers").to_ascii_lowercase();
    assert!(exposed.contains("x-request-id"), "{exposed}");
}

/// A Redis that accepts connections but never answers (stopped with SIGSTOP): every request
/// that needs it fails with 503 `store_unavailable` within the store timeout and a margin,
/// also many at once, and everything works again once Redis answers.
#[tokio::test]
async fn a_hanging_store_gives_fast_503s() {
    const TIMEOUT: Duration = Duration::from_millis(300);
    const MARGIN: Duration = Duration::from_millis(700);
    let _turn = SERIAL.lock().await;
    let redis = RedisServer::start();
    let config = Config {
        store_timeout: TIMEOUT,
        ..redis.config("hang:")
    };
    let base = spawn_app(config).await;
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(20))
        .build()
        .unwrap();
    let created: Value = client
        .post(format!("{base}/v1/games"))
        .json(&json!({"board": "star", "players": 2}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = created["game"]["id"].as_str().unwrap().to_owned();
    let before = scrape(&client, &base).await;

    redis.signal("-STOP");
    let started = Instant::now();
    let requests = (0..16).map(|i| {
        let client = client.clone();
        let url = if i % 2 == 0 {
            format!("{base}/v1/games/{id}")
        } else {
            format!("{base}/v1/games")
        };
        async move {
            let sent = Instant::now();
            let response = if url.ends_with("/v1/games") {
                client
                    .post(url)
                    .json(&json!({"board": "star", "players": 2}))
                    .send()
                    .await
            } else {
                client.get(url).send().await
            }
            .unwrap();
            let elapsed = sent.elapsed();
            let status = response.status();
            let retry_after = header(&response, "retry-after");
            let body: Value = response.json().await.unwrap();
            (status, retry_after, body, elapsed)
        }
    });
    let answers = futures_util::future::join_all(requests).await;
    let all = started.elapsed();
    redis.signal("-CONT");
    for (status, retry_after, body, elapsed) in &answers {
        assert_eq!(*status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
        assert_eq!(body["code"], "store_unavailable", "{body}");
        assert!(!retry_after.is_empty());
        assert!(
            *elapsed < TIMEOUT + MARGIN,
            "a request took {elapsed:?} with a store timeout of {TIMEOUT:?}"
        );
    }
    // Sixteen at once took about one timeout, not sixteen: nothing piled up.
    assert!(all < TIMEOUT + MARGIN, "16 requests took {all:?}");
    let during = scrape(&client, &base).await;
    assert!(
        during.value("halma_store_errors_total", &[("kind", "timed_out")])
            - before.value("halma_store_errors_total", &[("kind", "timed_out")])
            >= 16.0
    );

    // Redis answers again: so does the service.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let response = client
            .get(format!("{base}/v1/games/{id}"))
            .send()
            .await
            .unwrap();
        if response.status() == StatusCode::OK {
            break;
        }
        assert!(Instant::now() < deadline, "{}", response.status());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    println!(
        "store timeout {TIMEOUT:?}: slowest 503 {:?}, 16 concurrent in {all:?}",
        answers.iter().map(|a| a.3).max().unwrap_or_default()
    );
}

/// SIGTERM to the real binary: it stops accepting, the request in flight completes, the open
/// event stream ends with a retry hint, and the process exits 0 within the grace period.
/// Its log lines (`HALMA_LOG_FORMAT=json`) are JSON objects carrying the request ids.
#[tokio::test]
async fn sigterm_shuts_down_gracefully() {
    const GRACE_SECS: u64 = 5;
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let mut child = Command::new(env!("CARGO_BIN_EXE_halma-server"))
        .env("HALMA_BIND", format!("127.0.0.1:{port}"))
        .env("HALMA_LOG", "info")
        .env("HALMA_LOG_FORMAT", "json")
        .env("HALMA_SHUTDOWN_GRACE_SECS", GRACE_SECS.to_string())
        .env("HALMA_AI_MAX_MS", "5000")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let logs = std::thread::spawn(move || {
        let mut text = String::new();
        stdout.read_to_string(&mut text).unwrap();
        text
    });
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(20))
        .build()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !client
        .get(format!("{base}/readyz"))
        .send()
        .await
        .is_ok_and(|r| r.status().is_success())
    {
        assert!(Instant::now() < deadline, "the server did not get ready");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    let created: Value = client
        .post(format!("{base}/v1/games"))
        .header("x-request-id", "create-for-shutdown")
        .json(&json!({"board": "star", "players": 2}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = created["game"]["id"].as_str().unwrap().to_owned();
    let mut stream = client
        .get(format!("{base}/v1/games/{id}/events"))
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status(), StatusCode::OK);
    let mut events = String::from_utf8(stream.chunk().await.unwrap().unwrap().to_vec()).unwrap();

    // In flight during the shutdown: an AI seat searching for up to 1.5 s before the answer.
    let slow = tokio::spawn({
        let client = client.clone();
        let base = base.clone();
        async move {
            let sent = Instant::now();
            let response = client
                .post(format!("{base}/v1/games"))
                .json(&json!({"board": "star", "players": 2, "first_seat": 0,
                    "seats": [{"kind": "ai", "level": 10}, {}], "ai_time_ms": 1500}))
                .send()
                .await;
            (response.map(|r| r.status()), sent.elapsed(), Instant::now())
        }
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let term = Instant::now();
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());

    // The stream ends, with the retry hint last.
    let ended = tokio::time::timeout(Duration::from_secs(GRACE_SECS), async {
        while let Some(chunk) = stream.chunk().await.unwrap() {
            events.push_str(std::str::from_utf8(&chunk).unwrap());
        }
    })
    .await;
    assert!(ended.is_ok(), "the stream stayed open: {events}");
    assert!(
        events.ends_with("\nretry: 500\n\n"),
        "the stream did not end with the retry hint: {events:?}"
    );
    assert!(
        events.contains(": the server is shutting down"),
        "{events:?}"
    );

    // No new connections once shutting down.
    tokio::time::sleep(Duration::from_millis(100)).await;
    let refused = reqwest::Client::builder()
        .timeout(Duration::from_secs(GRACE_SECS + 5))
        .build()
        .unwrap()
        .get(format!("{base}/healthz"))
        .send()
        .await;
    assert!(refused.is_err(), "a request after SIGTERM got {refused:?}");

    let (slow_status, slow_took, slow_done) = slow.await.unwrap();
    assert_eq!(slow_status.unwrap(), StatusCode::CREATED);
    assert!(
        slow_done > term,
        "the slow request was answered before SIGTERM ({slow_took:?}): nothing was in flight"
    );

    let exit = loop {
        if let Some(exit) = child.try_wait().unwrap() {
            break exit;
        }
        assert!(
            term.elapsed() < Duration::from_secs(GRACE_SECS + 2),
            "the process did not exit within the grace period"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(exit.code(), Some(0));
    let exited_after = term.elapsed();

    // Every log line is a JSON object; request lines carry their request id from the span.
    let logs = logs.join().unwrap();
    let lines: Vec<Value> = logs
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect();
    assert!(lines.len() >= 4, "{logs}");
    let create_line = lines
        .iter()
        .find(|line| {
            line["fields"]["message"] == "request"
                && line["spans"].as_array().is_some_and(|spans| {
                    spans
                        .iter()
                        .any(|s| s["request_id"] == "create-for-shutdown")
                })
        })
        .unwrap_or_else(|| panic!("no request line with the request id: {logs}"));
    assert_eq!(create_line["fields"]["status"], 201);
    assert!(lines.iter().any(|line| line["fields"]["message"]
        .as_str()
        .is_some_and(|m| m.starts_with("shutting down"))));
    println!("SIGTERM to exit: {exited_after:?} (in-flight request took {slow_took:?})");
}
