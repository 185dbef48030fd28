//! The rate limits over HTTP: each bucket answers 429 with `Retry-After` and a
//! `rate_limited` problem naming it once spent, other clients keep their own buckets, the
//! probes are never limited, a 429 carries the CORS headers a page needs, and with Redis the
//! buckets are shared by every instance.

use std::time::Duration;

use halma_server::config::Config;
use halma_server::limits::{Rate, RateLimits};
use halma_server::problem::{Problem, ProblemCode, ProblemReason};
use halma_testkit::{spawn_app, RedisServer};
use reqwest::header::{ACCESS_CONTROL_ALLOW_ORIGIN, ORIGIN, RETRY_AFTER};
use reqwest::StatusCode;
use serde_json::{json, Value};

const MINUTE: Duration = Duration::from_secs(60);

fn config(limits: RateLimits) -> Config {
    Config {
        limits,
        ..Config::default()
    }
}

async fn create(client: &reqwest::Client, base: &str) -> reqwest::Response {
    client
        .post(format!("{base}/v1/games"))
        .json(&json!({"board": "star", "players": 2, "first_seat": 0}))
        .send()
        .await
        .unwrap()
}

/// Checks a 429 of `reason` with a `Retry-After` of at least `min_secs`.
async fn expect_limited(response: reqwest::Response, reason: ProblemReason, min_secs: u64) {
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry_after: u64 = response
        .headers()
        .get(RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .expect("a Retry-After header in seconds");
    assert!(retry_after >= min_secs, "Retry-After {retry_after}");
    let problem: Problem = response.json().await.unwrap();
    assert_eq!(problem.code, ProblemCode::RateLimited);
    assert_eq!(problem.status, 429);
    assert_eq!(problem.reason, Some(reason));
    assert!(problem.detail.contains("retry in"), "{}", problem.detail);
}

#[tokio::test]
async fn requests_beyond_the_bucket_answer_429_but_probes_and_preflights_pass() {
    let base = spawn_app(config(RateLimits {
        requests: Some(Rate::per(5, MINUTE)),
        ..RateLimits::off()
    }))
    .await;
    let client = reqwest::Client::new();
    for _ in 0..5 {
        let r = client
            .get(format!("{base}/v1/boards"))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::OK);
    }
    let r = client
        .get(format!("{base}/v1/boards"))
        .header(ORIGIN, "https://games.example")
        .send()
        .await
        .unwrap();
    // A page of another origin can read the 429.
    assert_eq!(
        r.headers()
            .get(ACCESS_CONTROL_ALLOW_ORIGIN)
            .map(|v| v.to_str().unwrap().to_owned()),
        Some("*".to_owned())
    );
    // One request comes back every 12 s.
    expect_limited(r, ProblemReason::Requests, 11).await;
    for path in ["/healthz", "/readyz"] {
        let r = client.get(format!("{base}{path}")).send().await.unwrap();
        assert_eq!(r.status(), StatusCode::OK, "{path}");
    }
    let preflight = client
        .request(reqwest::Method::OPTIONS, format!("{base}/v1/games"))
        .header(ORIGIN, "https://games.example")
        .header("access-control-request-method", "POST")
        .send()
        .await
        .unwrap();
    assert!(preflight.status().is_success(), "{}", preflight.status());
}

#[tokio::test]
async fn game_creation_has_a_bucket_of_its_own() {
    let base = spawn_app(config(RateLimits {
        games: Some(Rate::per(2, MINUTE)),
        ..RateLimits::default()
    }))
    .await;
    let client = reqwest::Client::new();
    let first: Value = create(&client, &base).await.json().await.unwrap();
    assert_eq!(create(&client, &base).await.status(), StatusCode::CREATED);
    expect_limited(
        create(&client, &base).await,
        ProblemReason::GameCreation,
        29,
    )
    .await;
    // A rematch creates a game too.
    let id = first["game"]["id"].as_str().unwrap();
    let host = first["tokens"]["host"].as_str().unwrap();
    let rematch = client
        .post(format!("{base}/v1/games/{id}/rematch"))
        .bearer_auth(host)
        .send()
        .await
        .unwrap();
    expect_limited(rematch, ProblemReason::GameCreation, 29).await;
    // Reading is not creating.
    let r = client
        .get(format!("{base}/v1/games/{id}"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
}

#[tokio::test]
async fn writes_are_limited_per_token() {
    let base = spawn_app(config(RateLimits {
        writes: Some(Rate::per(3, MINUTE)),
        ..RateLimits::off()
    }))
    .await;
    let client = reqwest::Client::new();
    let created: Value = create(&client, &base).await.json().await.unwrap();
    let id = created["game"]["id"].as_str().unwrap();
    let seat = |n: usize| created["tokens"]["seats"][n].as_str().unwrap().to_owned();
    // Seat 1 is not to move: its moves are refused, but each is a write of its token.
    let post = |token: String| {
        let client = client.clone();
        let url = format!("{base}/v1/games/{id}/moves");
        async move {
            client
                .post(url)
                .bearer_auth(token)
                .header("if-match", "\"1\"")
                .json(&json!({"notation": "a1-b2"}))
                .send()
                .await
                .unwrap()
        }
    };
    for _ in 0..3 {
        assert_ne!(post(seat(1)).await.status(), StatusCode::TOO_MANY_REQUESTS);
    }
    expect_limited(post(seat(1)).await, ProblemReason::Writes, 19).await;
    // The other seat's token has a bucket of its own (the creation spent one of the
    // address's token-less writes, not its).
    assert_ne!(post(seat(0)).await.status(), StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn ai_time_is_charged_for_what_the_search_used() {
    // 50 ms of AI time a minute: the first 200 ms search runs, and leaves a debt.
    let base = spawn_app(config(RateLimits {
        ai_ms: Some(Rate::per(50, MINUTE)),
        ..RateLimits::off()
    }))
    .await;
    let client = reqwest::Client::new();
    let created: Value = create(&client, &base).await.json().await.unwrap();
    let id = created["game"]["id"].as_str().unwrap();
    let suggest = |time_ms: u32| {
        client
            .get(format!(
                "{base}/v1/games/{id}/suggestion?level=10&time_ms={time_ms}"
            ))
            .send()
    };
    let first = suggest(200).await.unwrap();
    assert_eq!(first.status(), StatusCode::OK);
    // The same question again is answered by the same search, which is paid for already.
    assert_eq!(suggest(200).await.unwrap().status(), StatusCode::OK);
    // The search used at least the 50 ms of the bucket: the debt takes a minute and more.
    expect_limited(suggest(150).await.unwrap(), ProblemReason::AiTime, 50).await;
    // The analysis endpoints spend from the same bucket.
    let position: Value = client
        .get(format!("{base}/v1/games/{id}"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let analysis = client
        .post(format!("{base}/v1/analysis/suggestion"))
        .json(&json!({
            "position": position["position"],
            "level": 5,
            "time_ms": 20,
        }))
        .send()
        .await
        .unwrap();
    expect_limited(analysis, ProblemReason::AiTime, 50).await;
}

#[tokio::test]
async fn with_redis_every_instance_spends_from_the_same_buckets() {
    let redis = RedisServer::start();
    let shared = Config {
        limits: RateLimits {
            games: Some(Rate::per(3, MINUTE)),
            trust_forwarded_for: true,
            ..RateLimits::off()
        },
        ..redis.config("limits:")
    };
    let first = spawn_app(shared.clone()).await;
    let second = spawn_app(shared).await;
    let client = reqwest::Client::new();
    let from = |base: &str, address: &str| {
        client
            .post(format!("{base}/v1/games"))
            .header("x-forwarded-for", format!("198.51.100.1, {address}"))
            .json(&json!({"board": "star", "players": 2, "first_seat": 0}))
            .send()
    };
    for base in [&first, &second, &first] {
        assert_eq!(
            from(base, "203.0.113.5").await.unwrap().status(),
            StatusCode::CREATED
        );
    }
    expect_limited(
        from(&second, "203.0.113.5").await.unwrap(),
        ProblemReason::GameCreation,
        19,
    )
    .await;
    // The proxy's last entry is the client: another address has its own bucket, whatever
    // the earlier entries claim.
    assert_eq!(
        from(&second, "203.0.113.6").await.unwrap().status(),
        StatusCode::CREATED
    );
}

#[tokio::test]
async fn forwarded_addresses_are_ignored_unless_trusted() {
    let base = spawn_app(config(RateLimits {
        games: Some(Rate::per(1, MINUTE)),
        ..RateLimits::off()
    }))
    .await;
    let client = reqwest::Client::new();
    for (address, status) in [
        ("203.0.113.7", StatusCode::CREATED),
        ("203.0.113.8", StatusCode::TOO_MANY_REQUESTS),
    ] {
        let r = client
            .post(format!("{base}/v1/games"))
            .header("x-forwarded-for", address)
            .json(&json!({"board": "star", "players": 2, "first_seat": 0}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), status, "{address}");
    }
}

#[tokio::test]
async fn memory_and_redis_buckets_limit_alike() {
    use halma_server::limits::{Bucket, Limiter};
    use halma_server::store::Store;
    let redis = RedisServer::start();
    let limits = RateLimits {
        ai_ms: Some(Rate::per(10, Duration::from_secs(10))),
        games: Some(Rate::per(1, Duration::from_secs(10))),
        ..RateLimits::off()
    };
    let stores = [
        Store::from_config(&Config::default()).await.unwrap(),
        Store::from_config(&redis.config("agree:")).await.unwrap(),
    ];
    for store in stores {
        let kind = store.kind().as_str();
        let limiter = Limiter::new(&limits, &store);
        for _ in 0..10 {
            assert_eq!(limiter.take(Bucket::AiTime, "a", 1).await, Ok(()), "{kind}");
        }
        let denied = limiter.take(Bucket::AiTime, "a", 1).await.unwrap_err();
        assert!(
            denied.retry_after > Duration::from_millis(900)
                && denied.retry_after <= Duration::from_secs(1),
            "{kind}: {denied:?}"
        );
        // A charge beyond the bucket is a debt: 25 units on a bucket of 10, one a second.
        limiter.charge(Bucket::AiTime, "b", 25).await;
        let denied = limiter.take(Bucket::AiTime, "b", 1).await.unwrap_err();
        assert!(
            denied.retry_after > Duration::from_millis(15_900)
                && denied.retry_after <= Duration::from_secs(16),
            "{kind}: {denied:?}"
        );
        // Buckets that are off never deny.
        assert_eq!(limiter.take(Bucket::Requests, "a", 1000).await, Ok(()));
        // One request's takes are all or none: refused by one bucket, it spends nothing.
        assert_eq!(limiter.take(Bucket::Games, "d", 1).await, Ok(()));
        let denied = limiter
            .take_all(&[(Bucket::AiTime, "d", 10), (Bucket::Games, "d", 1)])
            .await
            .unwrap_err();
        assert_eq!(denied.bucket, Bucket::Games, "{kind}");
        assert_eq!(
            limiter.take(Bucket::AiTime, "d", 10).await,
            Ok(()),
            "{kind}"
        );
    }
}
