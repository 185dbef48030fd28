//! The store contract, run against every back end (`memory_store.rs`, `redis_store.rs`).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use halma_server::store::{Lifetime, LogWrite, Lookup, Store, StoreError, StoredGame};
use tokio::sync::Barrier;

/// TTL for the expiry test: long enough for a loaded machine, short enough to wait for.
pub const SHORT_TTL: Duration = Duration::from_millis(800);

pub async fn create_get_and_compare_and_set(store: &Store) {
    assert_eq!(
        store
            .create("g1", r#"{"head":1}"#, "e1", Lifetime::Playing)
            .await
            .unwrap(),
        1
    );
    assert_eq!(
        store.get("g1").await.unwrap(),
        Some(game(1, r#"{"head":1}"#, &["e1"]))
    );
    assert_eq!(
        store
            .compare_and_set(
                "g1",
                1,
                r#"{"head":2}"#,
                LogWrite::Append("e2"),
                Lifetime::Playing
            )
            .await
            .unwrap(),
        2
    );
    assert_eq!(
        store
            .compare_and_set(
                "g1",
                2,
                r#"{"head":3}"#,
                LogWrite::Append("e3"),
                Lifetime::Playing
            )
            .await
            .unwrap(),
        3
    );
    assert_eq!(
        store.get("g1").await.unwrap(),
        Some(game(3, r#"{"head":3}"#, &["e1", "e2", "e3"]))
    );
    // A log replaced whole (a game moving into the log) has one entry per version.
    let all = ["r1", "r2", "r3", "r4"].map(String::from);
    assert_eq!(
        store
            .compare_and_set("g1", 3, "h4", LogWrite::Replace(&all), Lifetime::Playing)
            .await
            .unwrap(),
        4
    );
    assert_eq!(
        store.get("g1").await.unwrap(),
        Some(game(4, "h4", &["r1", "r2", "r3", "r4"]))
    );
    // A write that would leave the log without one entry per version is refused, and
    // changes nothing.
    assert!(matches!(
        store
            .compare_and_set("g1", 4, "h5", LogWrite::Replace(&all), Lifetime::Playing)
            .await,
        Err(StoreError::Corrupt { .. })
    ));
    assert_eq!(store.get("g1").await.unwrap().unwrap().version, 4);
    store.ping().await.unwrap();
}

/// A stored game, whole.
fn game(version: u64, head: &str, log: &[&str]) -> StoredGame {
    StoredGame {
        version,
        head: head.to_owned(),
        log: log.iter().map(|e| (*e).to_owned()).collect(),
    }
}

/// A reader holding a version gets "unchanged" while it is current, the head and the entries
/// written since when it is behind, and the whole game for a version the store never had.
pub async fn get_if_changed_sends_the_document_only_when_it_changed(store: &Store) {
    store
        .create("g3", "v1", "e1", Lifetime::Playing)
        .await
        .unwrap();
    assert_eq!(
        store.get_if_changed("g3", 1).await.unwrap(),
        Some(Lookup::Unchanged)
    );
    // A version the store never had (ahead, or of another game) is not current either.
    for never in [0, 7] {
        assert_eq!(
            store.get_if_changed("g3", never).await.unwrap(),
            Some(Lookup::Changed(game(1, "v1", &["e1"])))
        );
    }
    for (version, head, entry) in [(1, "v2", "e2"), (2, "v3", "e3")] {
        store
            .compare_and_set(
                "g3",
                version,
                head,
                LogWrite::Append(entry),
                Lifetime::Playing,
            )
            .await
            .unwrap();
    }
    let appended = |entries: &[&str]| {
        Some(Lookup::Appended {
            version: 3,
            head: "v3".to_owned(),
            entries: entries.iter().map(|e| (*e).to_owned()).collect(),
        })
    };
    assert_eq!(
        store.get_if_changed("g3", 1).await.unwrap(),
        appended(&["e2", "e3"])
    );
    assert_eq!(
        store.get_if_changed("g3", 2).await.unwrap(),
        appended(&["e3"])
    );
    assert_eq!(
        store.get_if_changed("g3", 3).await.unwrap(),
        Some(Lookup::Unchanged)
    );
    assert_eq!(store.get_if_changed("nobody", 1).await.unwrap(), None);
    // The read changed nothing.
    assert_eq!(
        store.get("g3").await.unwrap(),
        Some(game(3, "v3", &["e1", "e2", "e3"]))
    );
}

pub async fn create_refuses_a_taken_id(store: &Store) {
    assert_eq!(
        store
            .create("taken", "first", "e1", Lifetime::Playing)
            .await
            .unwrap(),
        1
    );
    assert!(matches!(
        store
            .create("taken", "second", "e1", Lifetime::Playing)
            .await,
        Err(StoreError::AlreadyExists)
    ));
    let game = store.get("taken").await.unwrap().unwrap();
    assert_eq!((game.version, game.head.as_str()), (1, "first"));
}

pub async fn stale_versions_get_the_current_one(store: &Store) {
    store
        .create("g2", "v1", "e1", Lifetime::Playing)
        .await
        .unwrap();
    store
        .compare_and_set("g2", 1, "v2", LogWrite::Append("e"), Lifetime::Playing)
        .await
        .unwrap();
    for stale in [1, 3, 99] {
        match store
            .compare_and_set(
                "g2",
                stale,
                "lost",
                LogWrite::Append("e"),
                Lifetime::Playing,
            )
            .await
        {
            Err(StoreError::VersionMismatch { current }) => assert_eq!(current, 2),
            other => panic!("expected a version mismatch, got {other:?}"),
        }
    }
    let game = store.get("g2").await.unwrap().unwrap();
    assert_eq!((game.version, game.head.as_str()), (2, "v2"));
}

pub async fn unknown_games_are_not_found(store: &Store) {
    assert_eq!(store.get("nobody").await.unwrap(), None);
    assert!(matches!(
        store
            .compare_and_set("nobody", 1, "x", LogWrite::Append("e"), Lifetime::Playing)
            .await,
        Err(StoreError::NotFound)
    ));
    // A failed compare-and-set does not create the game.
    assert_eq!(store.get("nobody").await.unwrap(), None);
}

/// `store` must have been made with [`SHORT_TTL`].
pub async fn idle_games_expire_and_writes_restart_the_timer(store: &Store) {
    store
        .create("idle", "v1", "e1", Lifetime::Playing)
        .await
        .unwrap();
    store
        .create("busy", "v1", "e1", Lifetime::Playing)
        .await
        .unwrap();
    tokio::time::sleep(SHORT_TTL / 2 + Duration::from_millis(100)).await;
    // A write restarts the timer; a read does not.
    store
        .compare_and_set("busy", 1, "v2", LogWrite::Append("e"), Lifetime::Playing)
        .await
        .unwrap();
    assert!(store.get("idle").await.unwrap().is_some());
    tokio::time::sleep(SHORT_TTL / 2 + Duration::from_millis(100)).await;
    assert_eq!(
        store.get("idle").await.unwrap(),
        None,
        "idle game outlived its TTL"
    );
    assert_eq!(store.get_if_changed("idle", 1).await.unwrap(), None);
    assert!(matches!(
        store
            .compare_and_set("idle", 1, "late", LogWrite::Append("e"), Lifetime::Playing)
            .await,
        Err(StoreError::NotFound)
    ));
    assert_eq!(
        store.get("busy").await.unwrap().map(|game| game.version),
        Some(2)
    );
    tokio::time::sleep(SHORT_TTL / 2 + Duration::from_millis(200)).await;
    assert_eq!(
        store.get("busy").await.unwrap(),
        None,
        "busy game outlived its TTL"
    );
    // An expired id is free again.
    assert_eq!(
        store
            .create("idle", "new", "e1", Lifetime::Playing)
            .await
            .unwrap(),
        1
    );
}

/// What the concurrency test saw.
pub struct RaceOutcome {
    pub final_version: u64,
    pub conflicts: usize,
}

/// 50 tasks each append their number to a JSON list by read-modify-write, retrying on a
/// version mismatch. Nothing may be lost: the final version is 51 and the list holds every
/// number once.
pub async fn concurrent_read_modify_write_loses_nothing(store: &Store) -> RaceOutcome {
    const TASKS: usize = 50;
    store
        .create("race", "[]", "e1", Lifetime::Playing)
        .await
        .unwrap();
    let start = Arc::new(Barrier::new(TASKS));
    let conflicts = Arc::new(AtomicUsize::new(0));
    let mut handles = Vec::with_capacity(TASKS);
    for task in 0..TASKS {
        let store = store.clone();
        let start = Arc::clone(&start);
        let conflicts = Arc::clone(&conflicts);
        handles.push(tokio::spawn(async move {
            start.wait().await;
            loop {
                let game = store.get("race").await.unwrap().unwrap();
                let mut list: Vec<usize> = serde_json::from_str(&game.head).unwrap();
                list.push(task);
                // Let the other tasks read the same version before this one writes.
                tokio::task::yield_now().await;
                let document = serde_json::to_string(&list).unwrap();
                match store
                    .compare_and_set(
                        "race",
                        game.version,
                        &document,
                        LogWrite::Append("e"),
                        Lifetime::Playing,
                    )
                    .await
                {
                    Ok(version) => {
                        assert_eq!(version, game.version + 1);
                        break;
                    }
                    Err(StoreError::VersionMismatch { current }) => {
                        assert!(current > game.version);
                        conflicts.fetch_add(1, Ordering::Relaxed);
                    }
                    Err(other) => panic!("task {task}: {other:?}"),
                }
            }
        }));
    }
    for handle in handles {
        handle.await.unwrap();
    }
    let game = store.get("race").await.unwrap().unwrap();
    let mut list: Vec<usize> = serde_json::from_str(&game.head).unwrap();
    list.sort_unstable();
    assert_eq!(list, (0..TASKS).collect::<Vec<_>>(), "an update was lost");
    assert_eq!(game.version, 51);
    let conflicts = conflicts.load(Ordering::Relaxed);
    // The barrier and the yield make the tasks overlap: without conflicts the test would not
    // have tested the compare-and-set.
    assert!(conflicts > 0, "the tasks never raced");
    RaceOutcome {
        final_version: game.version,
        conflicts,
    }
}

/// Waits up to two seconds for news of a watched game.
async fn hears(watch: &mut halma_server::store::Watch) -> bool {
    tokio::time::timeout(Duration::from_secs(2), watch.changed())
        .await
        .is_ok()
}

/// A watcher of a game on `reader` hears of every write made through `writer` (the same store,
/// or another store on the same back end, as a second instance would have), and of that
/// game's writes only.
pub async fn watchers_hear_of_writes(writer: &Store, reader: &Store) {
    let mut watch = reader.changes().watch("w1");
    let mut other = reader.changes().watch("w2");
    // Give a fresh subscription time to be in place before the first write; it wakes every
    // watcher when it starts (a gap before it may have hidden a write).
    tokio::time::sleep(Duration::from_millis(200)).await;
    for w in [&mut watch, &mut other] {
        let _ = tokio::time::timeout(Duration::from_millis(20), w.changed()).await;
    }
    writer
        .create("w1", "v1", "e1", Lifetime::Playing)
        .await
        .unwrap();
    assert!(hears(&mut watch).await, "the creation was not announced");
    assert_eq!(watch.latest(), 1);
    writer
        .compare_and_set("w1", 1, "v2", LogWrite::Append("e"), Lifetime::Playing)
        .await
        .unwrap();
    assert!(hears(&mut watch).await, "the write was not announced");
    assert_eq!(watch.latest(), 2);
    // A failed write announces nothing.
    assert!(writer
        .compare_and_set("w1", 1, "stale", LogWrite::Append("e"), Lifetime::Playing)
        .await
        .is_err());
    assert!(
        tokio::time::timeout(Duration::from_millis(300), watch.changed())
            .await
            .is_err(),
        "a failed write woke the watcher"
    );
    assert!(
        tokio::time::timeout(Duration::from_millis(50), other.changed())
            .await
            .is_err(),
        "a watcher of another game woke"
    );
    // Several writes before the watcher looks: it wakes once and sees the newest version.
    writer
        .compare_and_set("w1", 2, "v3", LogWrite::Append("e"), Lifetime::Playing)
        .await
        .unwrap();
    writer
        .compare_and_set("w1", 3, "v4", LogWrite::Append("e"), Lifetime::Playing)
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(hears(&mut watch).await);
    assert_eq!(watch.latest(), 4);
    drop((watch, other));
    assert_eq!(reader.changes().watched_games(), 0);
}

/// A delete is a compare-and-set too: a stale one changes nothing; the watchers (of `reader`,
/// which may be another instance) hear of a successful one.
pub async fn deletes_check_the_version_and_are_announced(writer: &Store, reader: &Store) {
    let mut watch = reader.changes().watch("d1");
    tokio::time::sleep(Duration::from_millis(200)).await;
    let _ = tokio::time::timeout(Duration::from_millis(20), watch.changed()).await;
    writer
        .create("d1", "v1", "e1", Lifetime::Waiting)
        .await
        .unwrap();
    writer
        .compare_and_set("d1", 1, "v2", LogWrite::Append("e"), Lifetime::Waiting)
        .await
        .unwrap();
    assert!(matches!(
        writer.delete("d1", 1).await,
        Err(StoreError::VersionMismatch { current: 2 })
    ));
    assert_eq!(
        writer.get("d1").await.unwrap().map(|game| game.version),
        Some(2)
    );
    tokio::time::sleep(Duration::from_millis(200)).await;
    while tokio::time::timeout(Duration::from_millis(20), watch.changed())
        .await
        .is_ok()
    {}
    writer.delete("d1", 2).await.unwrap();
    assert!(hears(&mut watch).await, "the delete was not announced");
    assert_eq!(watch.latest(), 3);
    assert_eq!(writer.get("d1").await.unwrap(), None);
    assert_eq!(reader.get("d1").await.unwrap(), None);
    assert!(matches!(
        writer.delete("d1", 2).await,
        Err(StoreError::NotFound)
    ));
    assert!(matches!(
        writer.delete("nobody", 1).await,
        Err(StoreError::NotFound)
    ));
    // The id is free again.
    assert_eq!(
        writer
            .create("d1", "new", "e1", Lifetime::Playing)
            .await
            .unwrap(),
        1
    );
}

/// `store` must have been made with a game TTL of a day and a waiting TTL of [`SHORT_TTL`]: a
/// waiting game expires after the short time; once it is written as playing, after the long.
pub async fn waiting_games_have_a_timer_of_their_own(store: &Store) {
    store
        .create("wait", "v1", "e1", Lifetime::Waiting)
        .await
        .unwrap();
    store
        .create("start", "v1", "e1", Lifetime::Waiting)
        .await
        .unwrap();
    store
        .create("play", "v1", "e1", Lifetime::Playing)
        .await
        .unwrap();
    store
        .compare_and_set("start", 1, "v2", LogWrite::Append("e"), Lifetime::Playing)
        .await
        .unwrap();
    tokio::time::sleep(SHORT_TTL + Duration::from_millis(300)).await;
    assert_eq!(
        store.get("wait").await.unwrap(),
        None,
        "a waiting game outlived the waiting TTL"
    );
    assert_eq!(
        store.get("start").await.unwrap().map(|game| game.version),
        Some(2),
        "a started game expired with the waiting TTL"
    );
    assert!(store.get("play").await.unwrap().is_some());
}

/// The lobby indexes list entries newest first (by their text), page after page, each index
/// on its own.
pub async fn lobby_indexes_page_newest_first(store: &Store) {
    use halma_server::store::{lobby_entry, lobby_entry_id};
    let both = ["all".to_owned(), "b=star".to_owned()];
    let all = ["all".to_owned()];
    let entries: Vec<String> = (0..5)
        .map(|i| lobby_entry(1_000 + i, &format!("g{i}")))
        .collect();
    for (i, entry) in entries.iter().enumerate() {
        let indexes: &[String] = if i % 2 == 0 { &both } else { &all };
        store.lobby_add(entry, indexes).await.unwrap();
    }
    // Adding twice changes nothing.
    store.lobby_add(&entries[0], &both).await.unwrap();
    let first = store.lobby_page("all", None, 2).await.unwrap();
    assert_eq!(first, [entries[4].clone(), entries[3].clone()]);
    let second = store.lobby_page("all", Some(&first[1]), 2).await.unwrap();
    assert_eq!(second, [entries[2].clone(), entries[1].clone()]);
    let last = store.lobby_page("all", Some(&second[1]), 2).await.unwrap();
    assert_eq!(last, [entries[0].clone()]);
    assert!(store
        .lobby_page("all", Some(&last[0]), 2)
        .await
        .unwrap()
        .is_empty());
    let stars = store.lobby_page("b=star", None, 10).await.unwrap();
    assert_eq!(
        stars,
        [entries[4].clone(), entries[2].clone(), entries[0].clone()]
    );
    assert!(store
        .lobby_page("b=square8", None, 10)
        .await
        .unwrap()
        .is_empty());
    store.lobby_remove(&entries[2], &both).await.unwrap();
    // Removing what is not there is no error.
    store.lobby_remove(&entries[2], &both).await.unwrap();
    let stars = store.lobby_page("b=star", None, 10).await.unwrap();
    assert_eq!(stars, [entries[4].clone(), entries[0].clone()]);
    assert_eq!(store.lobby_page("all", None, 10).await.unwrap().len(), 4);
    assert_eq!(lobby_entry_id(&entries[3]), Some("g3"));
    for bad in ["", "g1", "12.g1", "000000001000.", "000000001000.a b"] {
        assert_eq!(lobby_entry_id(bad), None, "{bad:?}");
    }
}
