//! Tests that kill things: three service processes (the real binary) on loopback share one
//! Redis that keeps every acknowledged write on disk; clients play and race moves across the
//! instances while Redis is stopped and started again and one instance is killed with
//! SIGKILL. Afterwards every game's record must hold every move a client saw acknowledged, at
//! the ply it was acknowledged for, with versions gap-free; during the outage requests fail
//! fast with 503.
//!
//! Needs `redis-server` (the test fails without it). Run alone with
//! `cargo test -p halma-server --test faults -- --nocapture` to see the figures.

// Tests fail by panicking: unwrapping is how a test says "this must succeed".
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use halma_testkit::{free_port, RedisServer};
use rand::rngs::StdRng;
use rand::{Rng as _, SeedableRng as _};
use serde_json::{json, Value};

/// Games played at once; two clients race on each.
const GAMES: usize = 6;
/// Longest a request may take during the outage before it counts as hanging.
const FAST_FAILURE: Duration = Duration::from_secs(7);

/// One service process.
struct Instance {
    child: Option<Child>,
    base: String,
}

impl Instance {
    fn start(redis_url: &str) -> Self {
        let port = free_port();
        let child = Command::new(env!("CARGO_BIN_EXE_halma-server"))
            .env("HALMA_BIND", format!("127.0.0.1:{port}"))
            .env("REDIS_URL", redis_url)
            .env("HALMA_LOG", "warn")
            // Twelve clients on one address at machine speed: the limits would answer 429.
            .env("HALMA_RATE_LIMITS", "off")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        Self {
            child: Some(child),
            base: format!("http://127.0.0.1:{port}"),
        }
    }

    async fn wait_ready(&self, client: &reqwest::Client) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            if let Ok(r) = client.get(format!("{}/readyz", self.base)).send().await {
                if r.status().is_success() {
                    return;
                }
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("{} did not get ready", self.base);
    }

    fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            child.kill().unwrap();
            child.wait().unwrap();
        }
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A move a client saw acknowledged: its ply, and its notation.
#[derive(Clone, Debug)]
struct Acknowledged {
    ply: u64,
    notation: String,
}

/// What the clients saw.
#[derive(Default)]
struct Tally {
    acknowledged: AtomicU64,
    conflicts: AtomicU64,
    unavailable: AtomicU64,
    unreachable: AtomicU64,
    /// The longest a request that failed during the outage took, in milliseconds.
    slowest_failure_ms: AtomicU64,
}

/// Creates a two-player 8 x 8 game of two human seats, moved by the host token, on `base`.
/// Returns its id and host token, or `None` when the instance cannot create it now (Redis
/// down, instance dead).
async fn create_game(client: &reqwest::Client, base: &str) -> Option<(String, String)> {
    let r = client
        .post(format!("{base}/v1/games"))
        .json(&json!({"board": "square8", "players": 2, "first_seat": 0}))
        .send()
        .await
        .ok()?;
    if r.status().as_u16() != 201 {
        assert_eq!(r.status().as_u16(), 503, "creating a game");
        return None;
    }
    let created: Value = r.json().await.unwrap();
    Some((
        created["game"]["id"].as_str().unwrap().to_owned(),
        created["tokens"]["host"].as_str().unwrap().to_owned(),
    ))
}

/// The game two clients race on: when it ends (random games on 8 x 8 end in a few seconds,
/// often by repetition), the first client to see it ended puts a fresh game in its place and
/// both go on there, so moves are raced until the end of the test.
struct Table {
    current: Mutex<(String, String)>,
}

impl Table {
    fn current(&self) -> (String, String) {
        self.current.lock().unwrap().clone()
    }

    /// Replaces the game `ended` by a new one, unless the other client already did.
    async fn replace(&self, ended: &str, client: &reqwest::Client, base: &str) {
        if self.current.lock().unwrap().0 != ended {
            return;
        }
        if let Some(fresh) = create_game(client, base).await {
            let mut current = self.current.lock().unwrap();
            // The other client may have been quicker; its game stays, this one goes unused.
            if current.0 == ended {
                *current = fresh;
            }
        } else {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// One client racing on one table: reads the moves from one instance, posts one of them to
/// another, until `stop`. Returns the moves acknowledged to it, with their games.
async fn race(
    bases: Arc<Vec<String>>,
    table: Arc<Table>,
    seed: u64,
    stop: Arc<AtomicBool>,
    outage: Arc<AtomicBool>,
    tally: Arc<Tally>,
) -> Vec<(String, Acknowledged)> {
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(15))
        .build()
        .unwrap();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut acked = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        let (id, host) = table.current();
        let read = &bases[rng.random_range(0..bases.len())];
        let write = &bases[rng.random_range(0..bases.len())];
        let started = Instant::now();
        let note_failure = |tally: &Tally| {
            if outage.load(Ordering::Relaxed) {
                let ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
                tally.slowest_failure_ms.fetch_max(ms, Ordering::Relaxed);
            }
        };
        let moves = match client
            .get(format!("{read}/v1/games/{id}/moves"))
            .send()
            .await
        {
            Ok(r) if r.status().is_success() => r.json::<Value>().await.unwrap(),
            Ok(r) => {
                assert_eq!(r.status().as_u16(), 503, "reading moves");
                tally.unavailable.fetch_add(1, Ordering::Relaxed);
                note_failure(&tally);
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
            Err(_) => {
                tally.unreachable.fetch_add(1, Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let list = moves["moves"].as_array().unwrap();
        if list.is_empty() {
            table.replace(&id, &client, write).await;
            continue;
        }
        let version = moves["version"].as_u64().unwrap();
        let pick = &list[rng.random_range(0..list.len())];
        let answer = client
            .post(format!("{write}/v1/games/{id}/moves"))
            .bearer_auth(&host)
            .header("if-match", format!("\"{version}\""))
            .json(&json!({"path": pick["path"]}))
            .send()
            .await;
        match answer {
            Ok(r) if r.status().is_success() => {
                let outcome: Value = r.json().await.unwrap();
                let played = &outcome["played"][0];
                assert_eq!(outcome["game"]["version"].as_u64(), Some(version + 1));
                acked.push((
                    id.clone(),
                    Acknowledged {
                        ply: played["ply"].as_u64().unwrap(),
                        notation: played["notation"].as_str().unwrap().to_owned(),
                    },
                ));
                tally.acknowledged.fetch_add(1, Ordering::Relaxed);
            }
            Ok(r) => match r.status().as_u16() {
                412 => {
                    tally.conflicts.fetch_add(1, Ordering::Relaxed);
                }
                // The game ended with the other client's move.
                422 => {}
                503 => {
                    tally.unavailable.fetch_add(1, Ordering::Relaxed);
                    note_failure(&tally);
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                other => panic!("posting a move: {other} {}", r.text().await.unwrap()),
            },
            // The instance was killed, or the answer was lost: not acknowledged.
            Err(_) => {
                tally.unreachable.fetch_add(1, Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    }
    acked
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_moves_survive_a_redis_restart_and_a_killed_instance() {
    let dir = std::env::temp_dir().join(format!("halma-faults-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut redis = RedisServer::start_durable(&dir);
    let mut instances: Vec<Instance> = (0..3).map(|_| Instance::start(&redis.url())).collect();
    let client = reqwest::Client::new();
    for instance in &instances {
        instance.wait_ready(&client).await;
    }
    let bases: Arc<Vec<String>> = Arc::new(instances.iter().map(|i| i.base.clone()).collect());

    let mut tables = Vec::new();
    for g in 0..GAMES {
        let game = create_game(&client, &bases[g % bases.len()]).await.unwrap();
        tables.push(Arc::new(Table {
            current: Mutex::new(game),
        }));
    }
    let stop = Arc::new(AtomicBool::new(false));
    let outage = Arc::new(AtomicBool::new(false));
    let tally = Arc::new(Tally::default());
    let mut clients = Vec::new();
    for (g, table) in tables.iter().enumerate() {
        for side in 0..2 {
            clients.push(tokio::spawn(race(
                Arc::clone(&bases),
                Arc::clone(table),
                (g * 2 + side) as u64,
                Arc::clone(&stop),
                Arc::clone(&outage),
                Arc::clone(&tally),
            )));
        }
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let before_outage = tally.acknowledged.load(Ordering::Relaxed);
    // Redis goes away for two seconds, as a crash would, and comes back from its disk.
    outage.store(true, Ordering::Relaxed);
    redis.stop();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let restarted = tokio::task::spawn_blocking(move || {
        redis.restart();
        redis
    });
    let redis = restarted.await.unwrap();
    tokio::time::sleep(Duration::from_secs(1)).await;
    outage.store(false, Ordering::Relaxed);
    let during_outage = tally.unavailable.load(Ordering::Relaxed);
    tokio::time::sleep(Duration::from_secs(2)).await;
    let after_restart = tally.acknowledged.load(Ordering::Relaxed);
    // One instance dies in the middle of requests.
    instances[1].kill();
    tokio::time::sleep(Duration::from_secs(2)).await;
    stop.store(true, Ordering::Relaxed);

    let mut acknowledged: BTreeMap<String, Vec<Acknowledged>> = BTreeMap::new();
    for handle in clients {
        for (id, a) in handle.await.unwrap() {
            acknowledged.entry(id).or_default().push(a);
        }
    }
    let total: usize = acknowledged.values().map(Vec::len).sum();
    println!(
        "acknowledged {total} moves in {} games ({before_outage} before the outage, {after_restart} after Redis came back), {} conflicts, {during_outage} answers 503 during the outage (slowest failure {} ms), {} requests to a dead instance",
        acknowledged.len(),
        tally.conflicts.load(Ordering::Relaxed),
        tally.slowest_failure_ms.load(Ordering::Relaxed),
        tally.unreachable.load(Ordering::Relaxed),
    );
    assert!(during_outage > 0, "no request saw the outage");
    assert!(
        Duration::from_millis(tally.slowest_failure_ms.load(Ordering::Relaxed)) < FAST_FAILURE,
        "a request hung during the outage"
    );
    assert!(
        after_restart > before_outage,
        "no move was acknowledged after Redis came back"
    );
    assert!(
        tally.acknowledged.load(Ordering::Relaxed) > after_restart,
        "no move was acknowledged after the instance died"
    );

    // Every acknowledged move is in its game's record, at its ply; versions are gap-free.
    let survivor = &bases[0];
    for (id, acked) in &acknowledged {
        let r = client
            .get(format!("{survivor}/v1/games/{id}/record"))
            .send()
            .await
            .unwrap();
        assert!(r.status().is_success(), "{id}: {}", r.status());
        let record: Value = r.json().await.unwrap();
        let moves = record["moves"].as_array().unwrap();
        assert_eq!(
            record["version"].as_u64(),
            Some(moves.len() as u64 + 1),
            "{id}: one version per move"
        );
        for (i, m) in moves.iter().enumerate() {
            assert_eq!(
                m["ply"].as_u64(),
                Some(i as u64 + 1),
                "{id}: plies count up"
            );
        }
        for a in acked {
            let stored = moves
                .get(usize::try_from(a.ply).unwrap() - 1)
                .unwrap_or_else(|| panic!("{id}: acknowledged ply {} is lost", a.ply));
            assert_eq!(
                stored["notation"].as_str(),
                Some(a.notation.as_str()),
                "{id}: ply {}",
                a.ply
            );
        }
        // Two clients never saw the same ply acknowledged.
        let mut plies: Vec<u64> = acked.iter().map(|a| a.ply).collect();
        plies.sort_unstable();
        let count = plies.len();
        plies.dedup();
        assert_eq!(plies.len(), count, "{id}: a ply acknowledged twice");
    }
    drop(redis);
    let _ = std::fs::remove_dir_all(&dir);
}
