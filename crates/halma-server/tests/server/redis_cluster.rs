//! The store on a real Redis Cluster (three masters on loopback, see
//! `halma_testkit::RedisCluster`): the store contract of `store_suite.rs`, changes heard across
//! two stores over sharded pub/sub, and a game played over HTTP through two instances, with
//! long polling woken by the other instance's write and the finished game's statistics.

use std::time::Duration;

use halma_server::api::{GameView, MoveOutcome};
use halma_server::store::{Lifetime, RedisStore, Store};
use halma_testkit::RedisCluster;
use reqwest::header::IF_NONE_MATCH;
use reqwest::StatusCode;
use serde_json::json;

use crate::games::Api;
use crate::store_suite::{self, SHORT_TTL};

const DAY: Duration = Duration::from_secs(24 * 60 * 60);

async fn store(cluster: &RedisCluster, ttl: Duration) -> Store {
    Store::Redis(
        RedisStore::open_cluster(&cluster.urls(), "c:", ttl, Duration::from_secs(2))
            .await
            .unwrap(),
    )
}

#[tokio::test]
async fn the_store_contract_holds_on_a_cluster() {
    let cluster = RedisCluster::start();
    let s = store(&cluster, DAY).await;
    store_suite::create_get_and_compare_and_set(&s).await;
    store_suite::get_if_changed_sends_the_document_only_when_it_changed(&s).await;
    store_suite::create_refuses_a_taken_id(&s).await;
    store_suite::stale_versions_get_the_current_one(&s).await;
    store_suite::unknown_games_are_not_found(&s).await;
    store_suite::lobby_indexes_page_newest_first(&s).await;
    let outcome = store_suite::concurrent_read_modify_write_loses_nothing(&s).await;
    assert_eq!(outcome.final_version, 51);
    store_suite::idle_games_expire_and_writes_restart_the_timer(&store(&cluster, SHORT_TTL).await)
        .await;
}

#[tokio::test]
async fn watchers_on_a_cluster_hear_of_another_stores_writes() {
    let cluster = RedisCluster::start();
    let (writer, reader) = (store(&cluster, DAY).await, store(&cluster, DAY).await);
    store_suite::watchers_hear_of_writes(&writer, &reader).await;
    store_suite::deletes_check_the_version_and_are_announced(&writer, &reader).await;
}

#[tokio::test]
async fn a_game_spreads_over_the_cluster_s_slots() {
    let cluster = RedisCluster::start();
    let s = store(&cluster, DAY).await;
    let Store::Redis(redis) = &s else {
        unreachable!("a Redis store");
    };
    // A game's keys share its id as hash tag; different games land on different masters.
    assert_eq!(redis.key("abc"), "c:game:{abc}");
    assert_eq!(redis.log_key("abc"), "c:game:{abc}:log");
    let mut masters = std::collections::BTreeSet::new();
    for i in 0..30 {
        let id = format!("g{i}");
        s.create(&id, "h", "e1", Lifetime::Playing).await.unwrap();
        let slot = std::process::Command::new("redis-cli")
            .args([
                "-c",
                "-u",
                &cluster.urls()[0],
                "cluster",
                "keyslot",
                &redis.key(&id),
            ])
            .output()
            .unwrap();
        let slot: u16 = String::from_utf8_lossy(&slot.stdout)
            .trim()
            .parse()
            .unwrap();
        masters.insert(slot / 5462);
    }
    assert_eq!(masters.len(), 3, "30 games on {} masters", masters.len());
}

#[tokio::test]
async fn a_game_is_played_through_two_instances_on_a_cluster() {
    let cluster = RedisCluster::start();
    let a = Api::spawn(cluster.config("http:")).await;
    let b = Api::spawn(cluster.config("http:")).await;
    let created = a
        .created(json!({"board": "square8", "players": 2, "first_seat": 0}))
        .await;
    let id = created.game.id.clone();
    let host = created.tokens.host.clone();
    // B waits for a change of version 1 (long polling), A moves.
    let waiting = {
        let b_client = b.client.clone();
        let url = format!("{}/v1/games/{id}?wait_secs=10", b.base);
        tokio::spawn(async move {
            b_client
                .get(url)
                .header(IF_NONE_MATCH, "\"1\"")
                .send()
                .await
                .unwrap()
        })
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut version = 1;
    for ply in 0..6 {
        let api = if ply % 2 == 0 { &a } else { &b };
        let legal = api.moves(&id).await;
        assert_eq!(legal.version, version);
        let first = &legal.moves[0];
        let r = api
            .play(
                &id,
                &host,
                Some(version),
                json!({"from": first.from, "to": first.to}),
            )
            .await;
        assert_eq!(r.status(), StatusCode::OK);
        let outcome: MoveOutcome = r.json().await.unwrap();
        version = outcome.game.version;
        assert_eq!(outcome.game.move_count, ply + 1);
    }
    let woken = tokio::time::timeout(Duration::from_secs(5), waiting)
        .await
        .expect("the long poll on B was not woken by A's move")
        .unwrap();
    assert_eq!(woken.status(), StatusCode::OK);
    let seen: GameView = woken.json().await.unwrap();
    assert!(seen.version >= 2);
    // Both instances read the same game, record included.
    for api in [&a, &b] {
        let view: GameView = api
            .get(&format!("/v1/games/{id}"))
            .await
            .json()
            .await
            .unwrap();
        assert_eq!((view.version, view.move_count), (version, 6));
        let record: serde_json::Value = api
            .get(&format!("/v1/games/{id}/record"))
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(record["moves"].as_array().map(Vec::len), Some(6));
    }
    // A resignation finishes the game; its result is counted in the statistics (in the
    // counters' own slot).
    let r = a
        .client
        .post(format!("{}/v1/games/{id}/seats/1/resign", a.base))
        .bearer_auth(&host)
        .header("If-Match", format!("\"{version}\""))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK, "{:?}", r.text().await);
    let stats: serde_json::Value = b.get("/v1/stats").await.json().await.unwrap();
    assert!(
        stats.to_string().contains("square8"),
        "the finished game is not in the statistics: {stats}"
    );
}
