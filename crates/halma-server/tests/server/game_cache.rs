//! The cache of restored games with two service instances (two `AppState`s, each with its own
//! cache) sharing one store: a write on one instance is never hidden from the other by a cached
//! game. Memory (one store shared in process) and a private Redis.

use std::sync::Arc;
use std::time::Duration;

use halma_server::api::PlayMoveRequest;
use halma_server::config::Config;
use halma_server::error::ApiError;
use halma_server::games::{self, Loaded};
use halma_server::state::AppState;
use halma_server::store::{MemoryStore, RedisStore, Store};
use halma_testkit::{two_player_star, RedisServer};

const DAY: Duration = Duration::from_secs(24 * 60 * 60);

fn instance(store: Store, game_cache: usize) -> AppState {
    let config = Config {
        game_cache,
        ..Config::default()
    };
    AppState::new(store, &config)
}

/// The first legal move of `loaded`, as a request.
fn first_move(loaded: &Loaded) -> PlayMoveRequest {
    let board = loaded.game.variant().board();
    let legal = loaded.game.legal_moves();
    PlayMoveRequest {
        from: Some(board.name(legal[0].mv.from).to_owned()),
        to: Some(board.name(legal[0].mv.to).to_owned()),
        ..PlayMoveRequest::default()
    }
}

async fn play_first_move(state: &AppState, id: &str, host: &str, loaded: &Loaded) -> u64 {
    let (version, _) = games::play(state, id, host, loaded.version, &first_move(loaded))
        .await
        .unwrap();
    version
}

/// Instance A caches a game; B writes it; A must read B's version, and so on both ways.
async fn writes_on_one_instance_are_seen_by_the_other(a: &AppState, b: &AppState) {
    let (id, version, created) = games::create(a, &two_player_star()).await.unwrap();
    assert_eq!(version, 1);
    let host = created.tokens.host;
    // The creation is cached, and reading it again while it is unchanged is a hit.
    assert_eq!(a.games.get(&id).map(|(v, _)| v), Some(1));
    let first = games::load(a, &id).await.unwrap();
    let again = games::load(a, &id).await.unwrap();
    assert_eq!((first.version, again.version), (1, 1));
    assert!(
        Arc::ptr_eq(&first.game, &again.game),
        "an unchanged game is a hit"
    );

    // B has not seen the game: it reads it from the store, then moves.
    let on_b = games::load(b, &id).await.unwrap();
    assert_eq!(on_b.version, 1);
    assert_eq!(play_first_move(b, &id, &host, &on_b).await, 2);

    // A still holds version 1, but the store decides: A reads version 2.
    assert_eq!(a.games.get(&id).map(|(v, _)| v), Some(1));
    let seen_by_a = games::load(a, &id).await.unwrap();
    assert_eq!(seen_by_a.version, 2);
    assert_eq!(seen_by_a.game.record().len(), 1);
    assert_eq!(a.games.get(&id).map(|(v, _)| v), Some(2));

    // A playing on its copy of the game does not change what it cached at version 2...
    let cached_game = Arc::clone(&seen_by_a.game);
    assert_eq!(play_first_move(a, &id, &host, &seen_by_a).await, 3);
    assert_eq!(cached_game.record().len(), 1);
    // ...and A's write is cached at version 3.
    assert_eq!(a.games.get(&id).map(|(v, _)| v), Some(3));

    // B cached its own write (version 2) and must read A's version 3.
    assert_eq!(b.games.get(&id).map(|(v, _)| v), Some(2));
    let seen_by_b = games::load(b, &id).await.unwrap();
    assert_eq!(seen_by_b.version, 3);
    assert_eq!(seen_by_b.game.record().len(), 2);

    // A stale write from B's earlier view is refused as before.
    let stale = games::play(b, &id, &host, 2, &first_move(&on_b)).await;
    assert!(
        matches!(stale, Err(ApiError::VersionMismatch { current: 3 })),
        "{stale:?}"
    );
}

/// A behind by several writes (moves, a resignation, AI replies) of B: A plays the log's new
/// entries forward on its cached game and ends where B is.
async fn an_instance_behind_catches_up_from_the_log(a: &AppState, b: &AppState) {
    let request: halma_server::api::CreateGameRequest = serde_json::from_value(serde_json::json!({
        "board": "star", "players": 4, "first_seat": 0,
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "ai", "level": 1}, {"kind": "human"}],
        "ai_time_ms": 1
    }))
    .unwrap();
    let (id, _, created) = games::create(a, &request).await.unwrap();
    let host = created.tokens.host;
    let held = games::load(a, &id).await.unwrap();
    let mut on_b = games::load(b, &id).await.unwrap();
    for _ in 0..3 {
        let version = play_first_move(b, &id, &host, &on_b).await;
        on_b = games::load(b, &id).await.unwrap();
        assert_eq!(on_b.version, version);
    }
    let (version, _) = games::resign(b, &id, &host, 3, on_b.version).await.unwrap();
    let on_b = games::load(b, &id).await.unwrap();
    assert_eq!(on_b.version, version);
    assert_eq!(on_b.game.record().len(), 4);
    assert_eq!(on_b.game.record()[2].seat.index(), 2, "the AI seat replied");
    assert_eq!(on_b.game.resignations().len(), 1);
    // A still holds the game as created.
    assert_eq!(a.games.get(&id).map(|(v, _)| v), Some(held.version));
    let on_a = games::load(a, &id).await.unwrap();
    assert_eq!(on_a.version, on_b.version);
    assert_eq!(on_a.game.snapshot(), on_b.game.snapshot());
    assert_eq!(
        on_a.header.changes_by_version,
        on_b.header.changes_by_version
    );
    // What A caught up to is what a reader holding nothing restores from the store.
    let fresh = instance(a.store.clone(), 0);
    let restored = games::load(&fresh, &id).await.unwrap();
    assert_eq!(restored.game.snapshot(), on_a.game.snapshot());
    assert_eq!(
        restored.header.changes_by_version,
        on_a.header.changes_by_version
    );
}

#[tokio::test]
async fn an_instance_behind_catches_up_on_one_memory_store() {
    let store = Store::Memory(MemoryStore::new(DAY));
    let a = instance(store.clone(), 100);
    let b = instance(store, 100);
    an_instance_behind_catches_up_from_the_log(&a, &b).await;
}

#[tokio::test]
async fn an_instance_behind_catches_up_on_one_redis() {
    let server = RedisServer::start();
    let url = server.url();
    let open = || RedisStore::open(&url, "catch:", DAY);
    let a = instance(Store::Redis(open().await.unwrap()), 100);
    let b = instance(Store::Redis(open().await.unwrap()), 100);
    an_instance_behind_catches_up_from_the_log(&a, &b).await;
}

#[tokio::test]
async fn two_instances_on_one_memory_store_see_each_others_writes() {
    let store = Store::Memory(MemoryStore::new(DAY));
    let a = instance(store.clone(), 100);
    let b = instance(store, 100);
    writes_on_one_instance_are_seen_by_the_other(&a, &b).await;
}

#[tokio::test]
async fn two_instances_on_one_redis_see_each_others_writes() {
    let server = RedisServer::start();
    // Two connections, as two processes would have.
    let a = instance(
        Store::Redis(
            RedisStore::open(&server.url(), "cache:", DAY)
                .await
                .unwrap(),
        ),
        100,
    );
    let b = instance(
        Store::Redis(
            RedisStore::open(&server.url(), "cache:", DAY)
                .await
                .unwrap(),
        ),
        100,
    );
    writes_on_one_instance_are_seen_by_the_other(&a, &b).await;
}

#[tokio::test]
async fn a_game_that_expired_is_not_served_from_the_cache() {
    let ttl = Duration::from_millis(300);
    let state = instance(Store::Memory(MemoryStore::new(ttl)), 100);
    let (id, _, _) = games::create(&state, &two_player_star()).await.unwrap();
    assert_eq!(games::load(&state, &id).await.unwrap().version, 1);
    tokio::time::sleep(ttl + Duration::from_millis(200)).await;
    assert!(matches!(
        games::load(&state, &id).await,
        Err(ApiError::GameNotFound)
    ));
    assert!(state.games.get(&id).is_none(), "the cache forgets it");
}

#[tokio::test]
async fn without_a_cache_every_read_restores_the_game() {
    let store = Store::Memory(MemoryStore::new(DAY));
    let a = instance(store.clone(), 0);
    let b = instance(store, 0);
    let (id, _, created) = games::create(&a, &two_player_star()).await.unwrap();
    let first = games::load(&a, &id).await.unwrap();
    let again = games::load(&a, &id).await.unwrap();
    assert!(!Arc::ptr_eq(&first.game, &again.game));
    assert_eq!(
        play_first_move(&b, &id, &created.tokens.host, &again).await,
        2
    );
    assert_eq!(games::load(&a, &id).await.unwrap().version, 2);
    assert!(a.games.is_empty() && b.games.is_empty());
}

/// The JSON of a game read and of its full legal-move list, through `state`.
async fn bodies(state: &AppState, id: &str) -> (serde_json::Value, serde_json::Value) {
    let game = match games::game(state, id, None, |_| false, Duration::ZERO)
        .await
        .unwrap()
    {
        games::Current::Changed(_, body) => serde_json::from_slice(&body).unwrap(),
        games::Current::Unchanged(v) => {
            panic!("a read knowing no version answered unchanged at {v}")
        }
    };
    let (_, moves) = games::legal_moves(state, id, None).await.unwrap();
    (game, serde_json::from_slice(&moves).unwrap())
}

/// The bodies kept per version follow the game: after another instance's move, the caching
/// instance answers what an instance without a cache answers, never the body of before.
async fn rendered_bodies_follow_the_version(store: Store) {
    let a = instance(store.clone(), 100);
    let b = instance(store.clone(), 100);
    let fresh = instance(store, 0);
    let (id, _, created) = games::create(&a, &two_player_star()).await.unwrap();
    let host = created.tokens.host;
    let (game_1, moves_1) = bodies(&a, &id).await;
    assert_eq!(
        bodies(&a, &id).await,
        (game_1.clone(), moves_1.clone()),
        "read twice"
    );
    assert_eq!(bodies(&fresh, &id).await, (game_1.clone(), moves_1.clone()));
    assert_eq!(
        (game_1["version"].as_u64(), moves_1["version"].as_u64()),
        (Some(1), Some(1))
    );

    let on_b = games::load(&b, &id).await.unwrap();
    assert_eq!(play_first_move(&b, &id, &host, &on_b).await, 2);
    let (game_2, moves_2) = bodies(&a, &id).await;
    assert_eq!(
        (game_2["version"].as_u64(), moves_2["version"].as_u64()),
        (Some(2), Some(2))
    );
    assert_eq!(game_2["move_count"], 1);
    assert_ne!(moves_2["to_move"], moves_1["to_move"]);
    assert_eq!(bodies(&fresh, &id).await, (game_2, moves_2));
}

#[tokio::test]
async fn rendered_bodies_follow_the_version_on_memory() {
    rendered_bodies_follow_the_version(Store::Memory(MemoryStore::new(DAY))).await;
}

#[tokio::test]
async fn rendered_bodies_follow_the_version_on_redis() {
    let server = RedisServer::start();
    let store = RedisStore::open(&server.url(), "bodies:", DAY)
        .await
        .unwrap();
    rendered_bodies_follow_the_version(Store::Redis(store)).await;
}
