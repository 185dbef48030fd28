//! The AI answers within its budget plus a small margin even when every search slot is busy:
//! a request that finds no free slot in time answers with the one-ply move, and long searches
//! never hold the slot that short ones need.

use std::sync::Arc;
use std::time::{Duration, Instant};

use halma_server::api::SuggestionQuery;
use halma_server::config::Config;
use halma_server::games;
use halma_server::state::AppState;
use halma_server::store::{MemoryStore, Store};
use halma_testkit::two_player_star;

/// Generous margin over the budget: this machine is shared, and CI runs tests in parallel.
const MARGIN: Duration = Duration::from_millis(400);

fn instance(slots: usize) -> AppState {
    let config = Config::default();
    let store = Store::Memory(MemoryStore::new(Duration::from_secs(3600)));
    AppState::with_ai_slots(store, &config, slots)
}

async fn new_game(state: &AppState) -> String {
    games::create(state, &two_player_star()).await.unwrap().0
}

fn query(level: u8, time_ms: u32) -> SuggestionQuery {
    SuggestionQuery {
        level: Some(level),
        time_ms: Some(time_ms),
    }
}

#[actix_web::test]
async fn busy_slots_give_the_one_ply_move_in_time() {
    let state = instance(1);
    let id = new_game(&state).await;
    // Someone else holds the only slot for longer than the request's budget.
    let held = Arc::clone(&state.ai_slots).acquire_owned().await.unwrap();
    let started = Instant::now();
    let (_, view) = games::suggest(&state, &id, &query(10, 150)).await.unwrap();
    let took = started.elapsed();
    assert!(took < Duration::from_millis(150) + MARGIN, "took {took:?}");
    // It waited for most of the budget, then answered with the one-ply player.
    assert!(took >= Duration::from_millis(100), "took {took:?}");
    assert_eq!((view.level, view.depth), (4, 1));
    drop(held);
    // With the slot free again, the same request searches at the level asked for.
    let (_, view) = games::suggest(&state, &id, &query(10, 150)).await.unwrap();
    assert_eq!(view.level, 10);
    assert!(view.depth >= 1);
}

#[actix_web::test]
async fn long_searches_leave_a_slot_for_short_ones() {
    let state = instance(2);
    let id = new_game(&state).await;
    // A long search running: it holds the only long-search slot and one of the two slots.
    // (Held here rather than by a real search, which may end before its budget does: a
    // search starts no new iteration late in its budget.)
    let long_held = Arc::clone(&state.ai_long_slots)
        .acquire_owned()
        .await
        .unwrap();
    let held = Arc::clone(&state.ai_slots).acquire_owned().await.unwrap();
    // A second long search cannot get a slot: it answers in time with the one-ply move.
    let started = Instant::now();
    let (_, second_long) = games::suggest(&state, &id, &query(10, 700)).await.unwrap();
    assert!(started.elapsed() < Duration::from_millis(700) + MARGIN);
    assert_eq!((second_long.level, second_long.depth), (4, 1));
    // A short one gets the slot the long searches may not take, and really searches.
    let started = Instant::now();
    let (_, short) = games::suggest(&state, &id, &query(10, 300)).await.unwrap();
    assert!(started.elapsed() < Duration::from_millis(300) + MARGIN);
    assert_eq!(short.level, 10);
    // Once the first long search ends, a long search searches at the level asked for.
    drop((long_held, held));
    let (_, long) = games::suggest(&state, &id, &query(10, 700)).await.unwrap();
    assert_eq!(long.level, 10);
    assert!(long.depth >= 1);
}

#[actix_web::test]
async fn identical_requests_share_one_search() {
    // One slot: without sharing, three of four simultaneous requests would find it busy and
    // answer with the one-ply move.
    let state = instance(1);
    let id = new_game(&state).await;
    let asks: Vec<_> = (0..4)
        .map(|_| {
            let state = state.clone();
            let id = id.clone();
            actix_web::rt::spawn(async move { games::suggest(&state, &id, &query(10, 250)).await })
        })
        .collect();
    let mut views = Vec::new();
    for ask in asks {
        views.push(ask.await.unwrap().unwrap().1);
    }
    for view in &views {
        assert_eq!(view.level, 10, "{view:?}");
        // One search: the same move, depth and node count for everyone.
        assert_eq!(
            (&view.from, &view.to, view.depth, view.nodes),
            (&views[0].from, &views[0].to, views[0].depth, views[0].nodes)
        );
    }
    assert!(views[0].depth > 1);
    // Asked again just after, it is answered from the same search at once.
    let started = Instant::now();
    let (_, again) = games::suggest(&state, &id, &query(10, 250)).await.unwrap();
    assert!(
        started.elapsed() < Duration::from_millis(100),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(again.nodes, views[0].nodes);
    // Another budget is another question: a search of its own.
    let (_, other) = games::suggest(&state, &id, &query(10, 120)).await.unwrap();
    assert_eq!(other.level, 10);
    assert_eq!(state.searches.len(), 2);
}
