//! The store contract against Redis, plus what only Redis has: the key layout, corrupt data,
//! and an outage with recovery. Each test runs its own `redis-server`.

use std::time::{Duration, Instant};

use halma_server::store::{Lifetime, LogWrite, RedisStore, Store, StoreError};
use halma_testkit::RedisServer;

use crate::store_suite::{self, SHORT_TTL};

const DAY: Duration = Duration::from_secs(24 * 60 * 60);
const PREFIX: &str = "test:";

async fn store(server: &RedisServer, ttl: Duration) -> Store {
    Store::Redis(RedisStore::open(&server.url(), PREFIX, ttl).await.unwrap())
}

async fn raw_connection(server: &RedisServer) -> redis::aio::MultiplexedConnection {
    redis::Client::open(server.url())
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap()
}

#[tokio::test]
async fn create_get_and_compare_and_set() {
    let server = RedisServer::start();
    store_suite::create_get_and_compare_and_set(&store(&server, DAY).await).await;
}

#[tokio::test]
async fn get_if_changed_sends_the_document_only_when_it_changed() {
    let server = RedisServer::start();
    store_suite::get_if_changed_sends_the_document_only_when_it_changed(&store(&server, DAY).await)
        .await;
}

#[tokio::test]
async fn create_refuses_a_taken_id() {
    let server = RedisServer::start();
    store_suite::create_refuses_a_taken_id(&store(&server, DAY).await).await;
}

#[tokio::test]
async fn stale_versions_get_the_current_one() {
    let server = RedisServer::start();
    store_suite::stale_versions_get_the_current_one(&store(&server, DAY).await).await;
}

#[tokio::test]
async fn unknown_games_are_not_found() {
    let server = RedisServer::start();
    store_suite::unknown_games_are_not_found(&store(&server, DAY).await).await;
}

#[tokio::test]
async fn idle_games_expire_and_writes_restart_the_timer() {
    let server = RedisServer::start();
    store_suite::idle_games_expire_and_writes_restart_the_timer(&store(&server, SHORT_TTL).await)
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_read_modify_write_loses_nothing() {
    let server = RedisServer::start();
    let outcome =
        store_suite::concurrent_read_modify_write_loses_nothing(&store(&server, DAY).await).await;
    println!(
        "redis store race: final version {}, {} version mismatches retried",
        outcome.final_version, outcome.conflicts
    );
}

#[tokio::test]
async fn watchers_hear_of_writes_made_by_another_instance() {
    let server = RedisServer::start();
    // Two stores on one Redis, as two service instances have them.
    let (writer, reader) = (store(&server, DAY).await, store(&server, DAY).await);
    store_suite::watchers_hear_of_writes(&writer, &reader).await;
}

#[tokio::test]
async fn watchers_hear_again_after_redis_restarts() {
    let mut server = RedisServer::start();
    let (writer, reader) = (store(&server, DAY).await, store(&server, DAY).await);
    let mut watch = reader.changes().watch("r1");
    tokio::time::sleep(Duration::from_millis(200)).await;
    writer
        .create("r1", "v1", "e1", Lifetime::Playing)
        .await
        .unwrap();
    tokio::time::timeout(Duration::from_secs(2), watch.changed())
        .await
        .expect("announced before the restart");
    server.stop();
    server.restart();
    // After the subscription is back, the watcher is woken to look again (writes during the
    // gap cannot be announced), and new writes are announced as before.
    tokio::time::timeout(Duration::from_secs(10), watch.changed())
        .await
        .expect("woken after the subscription came back");
    let restarted = Instant::now();
    loop {
        if writer
            .create("r1", "after", "e1", Lifetime::Playing)
            .await
            .is_ok()
        {
            break;
        }
        assert!(restarted.elapsed() < Duration::from_secs(15), "no recovery");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    tokio::time::timeout(Duration::from_secs(2), watch.changed())
        .await
        .expect("announced after the restart");
    assert_eq!(watch.latest(), 1);
}

#[tokio::test]
async fn deletes_check_the_version_and_are_announced() {
    let server = RedisServer::start();
    let writer = store(&server, DAY).await;
    let reader = store(&server, DAY).await;
    store_suite::deletes_check_the_version_and_are_announced(&writer, &reader).await;
}

#[tokio::test]
async fn waiting_games_have_a_timer_of_their_own() {
    let server = RedisServer::start();
    let store = Store::Redis(
        RedisStore::open(&server.url(), PREFIX, DAY)
            .await
            .unwrap()
            .with_waiting_ttl(SHORT_TTL),
    );
    store_suite::waiting_games_have_a_timer_of_their_own(&store).await;
}

#[tokio::test]
async fn lobby_indexes_page_newest_first() {
    let server = RedisServer::start();
    store_suite::lobby_indexes_page_newest_first(&store(&server, DAY).await).await;
}

#[tokio::test]
async fn games_are_hashes_with_version_and_head_and_a_log_with_a_ttl() {
    let server = RedisServer::start();
    let store = store(&server, DAY).await;
    store
        .create("layout", r#"{"a":1}"#, "e1", Lifetime::Playing)
        .await
        .unwrap();
    store
        .compare_and_set(
            "layout",
            1,
            r#"{"a":2}"#,
            LogWrite::Append("e"),
            Lifetime::Playing,
        )
        .await
        .unwrap();
    let mut raw = raw_connection(&server).await;
    let (version, document): (String, String) = redis::cmd("HMGET")
        .arg("test:game:layout")
        .arg("v")
        .arg("doc")
        .query_async(&mut raw)
        .await
        .unwrap();
    assert_eq!((version.as_str(), document.as_str()), ("2", r#"{"a":2}"#));
    let ttl_ms: i64 = redis::cmd("PTTL")
        .arg("test:game:layout")
        .query_async(&mut raw)
        .await
        .unwrap();
    let day_ms = i64::try_from(DAY.as_millis()).unwrap();
    assert!(
        ttl_ms > day_ms - 60_000 && ttl_ms <= day_ms,
        "PTTL {ttl_ms}"
    );
    // The log: one entry per version, with the same TTL as the hash.
    let log: Vec<String> = redis::cmd("LRANGE")
        .arg("test:game:layout:log")
        .arg(0)
        .arg(-1)
        .query_async(&mut raw)
        .await
        .unwrap();
    assert_eq!(log, ["e1", "e"]);
    let log_ttl_ms: i64 = redis::cmd("PTTL")
        .arg("test:game:layout:log")
        .query_async(&mut raw)
        .await
        .unwrap();
    assert!(
        (ttl_ms - log_ttl_ms).abs() < 1_000,
        "PTTL {log_ttl_ms} of the log"
    );
    // A delete takes both.
    store.delete("layout", 2).await.unwrap();
    let left: i64 = redis::cmd("EXISTS")
        .arg("test:game:layout")
        .arg("test:game:layout:log")
        .query_async(&mut raw)
        .await
        .unwrap();
    assert_eq!(left, 0);
}

#[tokio::test]
async fn corrupt_records_are_errors_not_panics() {
    let server = RedisServer::start();
    let store = store(&server, DAY).await;
    let mut raw = raw_connection(&server).await;
    let setup: [&[&str]; 4] = [
        &["HSET", "test:game:text-version", "v", "seven", "doc", "{}"],
        &["HSET", "test:game:no-version", "doc", "{}"],
        &["HSET", "test:game:no-document", "v", "3"],
        &["SET", "test:game:string", "{}"],
    ];
    for command in setup {
        let mut cmd = redis::cmd(command[0]);
        for arg in &command[1..] {
            cmd.arg(*arg);
        }
        let _: redis::Value = cmd.query_async(&mut raw).await.unwrap();
    }
    for id in ["text-version", "no-version", "no-document", "string"] {
        let read = store.get(id).await;
        assert!(
            matches!(&read, Err(StoreError::Corrupt { key, .. }) if key == &format!("test:game:{id}")),
            "get {id}: {read:?}"
        );
        // As strict when the reader holds a version: 3 is the stored one of `no-document`.
        for known in [1, 3] {
            let read = store.get_if_changed(id, known).await;
            assert!(
                matches!(&read, Err(StoreError::Corrupt { key, .. }) if key == &format!("test:game:{id}")),
                "get_if_changed {id} {known}: {read:?}"
            );
        }
    }
    // A hash with neither field is no game, for both reads.
    let _: redis::Value = redis::cmd("HSET")
        .arg("test:game:other-fields")
        .arg("x")
        .arg("1")
        .query_async(&mut raw)
        .await
        .unwrap();
    assert_eq!(store.get("other-fields").await.unwrap(), None);
    assert_eq!(store.get_if_changed("other-fields", 1).await.unwrap(), None);
    for id in ["text-version", "no-version", "string"] {
        let write = store
            .compare_and_set(id, 1, "{}", LogWrite::Append("e"), Lifetime::Playing)
            .await;
        assert!(
            matches!(&write, Err(StoreError::Corrupt { .. })),
            "compare_and_set {id}: {write:?}"
        );
    }
    // A log that is not a list, or that lacks entries, is corrupt too; nothing is written.
    let setup: [&[&str]; 4] = [
        &["HSET", "test:game:string-log", "v", "1", "doc", "{}"],
        &["SET", "test:game:string-log:log", "e1"],
        &["HSET", "test:game:short-log", "v", "3", "doc", "{}"],
        &["RPUSH", "test:game:short-log:log", "e1"],
    ];
    for command in setup {
        let mut cmd = redis::cmd(command[0]);
        for arg in &command[1..] {
            cmd.arg(*arg);
        }
        let _: redis::Value = cmd.query_async(&mut raw).await.unwrap();
    }
    let read = store.get("string-log").await;
    assert!(matches!(&read, Err(StoreError::Corrupt { .. })), "{read:?}");
    for (id, version) in [("string-log", 1), ("short-log", 3)] {
        let write = store
            .compare_and_set(id, version, "{}", LogWrite::Append("e"), Lifetime::Playing)
            .await;
        assert!(
            matches!(&write, Err(StoreError::Corrupt { .. })),
            "compare_and_set {id}: {write:?}"
        );
    }
    let version: String = redis::cmd("HGET")
        .arg("test:game:short-log")
        .arg("v")
        .query_async(&mut raw)
        .await
        .unwrap();
    assert_eq!(version, "3", "a refused write changed the version");
    // A corrupt record maps to a plain 500 for the client.
    let err = halma_server::error::ApiError::from(store.get("string").await.unwrap_err());
    assert_eq!(err.code().as_str(), "internal");
}

#[tokio::test]
async fn an_outage_gives_unavailable_errors_and_the_store_recovers() {
    let mut server = RedisServer::start();
    let store = store(&server, DAY).await;
    store
        .create("before", "x", "e1", Lifetime::Playing)
        .await
        .unwrap();

    server.stop();
    let outage = Instant::now();
    for round in 0..3 {
        let started = Instant::now();
        let results = [
            store.ping().await.err(),
            store.get("before").await.err(),
            store.get_if_changed("before", 1).await.err(),
            store
                .create("during", "y", "e1", Lifetime::Playing)
                .await
                .err(),
            store
                .compare_and_set("before", 1, "z", LogWrite::Append("e"), Lifetime::Playing)
                .await
                .err(),
        ];
        for result in results {
            assert!(
                matches!(
                    result,
                    Some(StoreError::Unavailable(_) | StoreError::TimedOut(_))
                ),
                "round {round}: {result:?}"
            );
        }
        let elapsed = started.elapsed();
        println!("outage round {round}: 5 failed operations in {elapsed:?}");
        assert!(elapsed < Duration::from_secs(20), "{elapsed:?}");
    }
    let status = halma_server::error::ApiError::from(store.ping().await.unwrap_err());
    assert_eq!(status.code().as_str(), "store_unavailable");

    server.restart();
    let restarted = Instant::now();
    loop {
        if store.ping().await.is_ok() {
            break;
        }
        assert!(
            restarted.elapsed() < Duration::from_secs(15),
            "the store did not recover"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    println!(
        "recovered {:?} after the restart ({:?} after the outage began)",
        restarted.elapsed(),
        outage.elapsed()
    );
    // The restarted Redis keeps nothing; new writes work on the same store value.
    assert_eq!(store.get("before").await.unwrap(), None);
    assert_eq!(
        store
            .create("after", "y", "e1", Lifetime::Playing)
            .await
            .unwrap(),
        1
    );
    assert_eq!(
        store
            .compare_and_set("after", 1, "y2", LogWrite::Append("e"), Lifetime::Playing)
            .await
            .unwrap(),
        2
    );
}

#[tokio::test]
async fn a_frozen_redis_times_out_instead_of_hanging() {
    let server = RedisServer::start();
    let store = store(&server, DAY).await;
    store
        .create("g", "x", "e1", Lifetime::Playing)
        .await
        .unwrap();

    server.signal("-STOP");
    let started = Instant::now();
    let result = store.get("g").await;
    let elapsed = started.elapsed();
    server.signal("-CONT");
    println!("a read against a frozen Redis failed after {elapsed:?}: {result:?}");
    assert!(
        matches!(
            result,
            Err(StoreError::Unavailable(_) | StoreError::TimedOut(_))
        ),
        "{result:?}"
    );
    assert!(elapsed < Duration::from_secs(6), "{elapsed:?}");

    let thawed = Instant::now();
    loop {
        if let Ok(Some(game)) = store.get("g").await {
            assert_eq!(game.version, 1);
            break;
        }
        assert!(
            thawed.elapsed() < Duration::from_secs(15),
            "no recovery after SIGCONT"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
