//! The store contract against the in-memory store.

use std::time::Duration;

use halma_server::store::{MemoryStore, Store};

use crate::store_suite::{self, SHORT_TTL};

fn store(ttl: Duration) -> Store {
    Store::Memory(MemoryStore::new(ttl))
}

const DAY: Duration = Duration::from_secs(24 * 60 * 60);

#[tokio::test]
async fn create_get_and_compare_and_set() {
    store_suite::create_get_and_compare_and_set(&store(DAY)).await;
}

#[tokio::test]
async fn get_if_changed_sends_the_document_only_when_it_changed() {
    store_suite::get_if_changed_sends_the_document_only_when_it_changed(&store(DAY)).await;
}

#[tokio::test]
async fn create_refuses_a_taken_id() {
    store_suite::create_refuses_a_taken_id(&store(DAY)).await;
}

#[tokio::test]
async fn stale_versions_get_the_current_one() {
    store_suite::stale_versions_get_the_current_one(&store(DAY)).await;
}

#[tokio::test]
async fn unknown_games_are_not_found() {
    store_suite::unknown_games_are_not_found(&store(DAY)).await;
}

#[tokio::test]
async fn idle_games_expire_and_writes_restart_the_timer() {
    store_suite::idle_games_expire_and_writes_restart_the_timer(&store(SHORT_TTL)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_read_modify_write_loses_nothing() {
    let outcome = store_suite::concurrent_read_modify_write_loses_nothing(&store(DAY)).await;
    println!(
        "memory store race: final version {}, {} version mismatches retried",
        outcome.final_version, outcome.conflicts
    );
}

#[tokio::test]
async fn watchers_hear_of_writes() {
    let store = store(DAY);
    store_suite::watchers_hear_of_writes(&store, &store.clone()).await;
}

#[tokio::test]
async fn deletes_check_the_version_and_are_announced() {
    let store = store(DAY);
    store_suite::deletes_check_the_version_and_are_announced(&store, &store.clone()).await;
}

#[tokio::test]
async fn waiting_games_have_a_timer_of_their_own() {
    let store = Store::Memory(MemoryStore::new(DAY).with_waiting_ttl(SHORT_TTL));
    store_suite::waiting_games_have_a_timer_of_their_own(&store).await;
}

#[tokio::test]
async fn lobby_indexes_page_newest_first() {
    store_suite::lobby_indexes_page_newest_first(&store(DAY)).await;
}
