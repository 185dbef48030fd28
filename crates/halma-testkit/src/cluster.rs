//! A private Redis Cluster per test: three `redis-server --cluster-enabled yes` masters on
//! free loopback ports (each with its cluster bus port, 10000 above, free too), joined with
//! `redis-cli --cluster create`, persisting nothing, killed when dropped.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use halma_server::config::{Config, RedisUrl};

use crate::redis::{free_port, RedisServer, StartError};

/// How many masters a cluster has (Redis Cluster needs three).
const MASTERS: usize = 3;

/// How long the cluster may take to cover every slot after it was created.
const FORMING_TIMEOUT: Duration = Duration::from_secs(20);

/// A running cluster of the test's own.
#[derive(Debug)]
pub struct RedisCluster {
    nodes: Vec<RedisServer>,
    dir: PathBuf,
}

impl RedisCluster {
    /// Starts three masters, joins them into one cluster and waits until it serves every
    /// slot.
    ///
    /// # Panics
    /// When `redis-server` or `redis-cli` is not installed (a cluster test never passes
    /// without them), or the cluster does not form.
    #[must_use]
    pub fn start() -> RedisCluster {
        static CLUSTERS: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "halma-cluster-{}-{}",
            std::process::id(),
            CLUSTERS.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir)
            .unwrap_or_else(|err| panic!("cannot make {}: {err}", dir.display()));
        let mut nodes = Vec::with_capacity(MASTERS);
        while nodes.len() < MASTERS {
            let port = port_with_free_bus();
            let args = [
                "--cluster-enabled",
                "yes",
                "--cluster-config-file",
                &format!("nodes-{port}.conf"),
                "--cluster-node-timeout",
                "5000",
                "--dir",
                &dir.display().to_string(),
            ]
            .map(String::from);
            match RedisServer::start_with(port, &args) {
                Ok(node) => nodes.push(node),
                Err(err @ StartError::NotInstalled) => panic!("{err}"),
                Err(StartError::DidNotAnswer) => {}
            }
        }
        let addresses: Vec<String> = nodes
            .iter()
            .map(|n| format!("127.0.0.1:{}", n.port()))
            .collect();
        let created = Command::new("redis-cli")
            .arg("--cluster")
            .arg("create")
            .args(&addresses)
            .args(["--cluster-replicas", "0", "--cluster-yes"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .unwrap_or_else(|err| {
                panic!("cannot run redis-cli (it comes with redis-server): {err}")
            });
        assert!(
            created.status.success(),
            "redis-cli --cluster create failed: {}",
            String::from_utf8_lossy(&created.stderr)
        );
        let cluster = RedisCluster { nodes, dir };
        cluster.wait_until_formed();
        cluster
    }

    /// Waits until every node says the cluster is `ok`.
    fn wait_until_formed(&self) {
        let deadline = Instant::now() + FORMING_TIMEOUT;
        loop {
            let formed = self.nodes.iter().all(|node| {
                Command::new("redis-cli")
                    .args(["-p", &node.port().to_string(), "cluster", "info"])
                    .output()
                    .is_ok_and(|out| {
                        String::from_utf8_lossy(&out.stdout).contains("cluster_state:ok")
                    })
            });
            if formed {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "the cluster did not form in {FORMING_TIMEOUT:?}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The nodes' URLs, `redis://127.0.0.1:PORT`.
    #[must_use]
    pub fn urls(&self) -> Vec<String> {
        self.nodes.iter().map(RedisServer::url).collect()
    }

    /// The default configuration over this cluster (every node a seed), with the keys under
    /// `key_prefix`.
    ///
    /// # Panics
    /// Never: the URLs are always valid.
    #[must_use]
    pub fn config(&self, key_prefix: &str) -> Config {
        let nodes = self
            .urls()
            .into_iter()
            .map(|url| RedisUrl::parse(url.clone()).unwrap_or_else(|err| panic!("{url}: {err}")))
            .collect();
        Config {
            redis_cluster: nodes,
            key_prefix: key_prefix.to_owned(),
            ..Config::default()
        }
    }
}

impl Drop for RedisCluster {
    fn drop(&mut self) {
        for node in &mut self.nodes {
            node.stop();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A free port whose cluster bus port (10000 above) is free too.
fn port_with_free_bus() -> u16 {
    loop {
        let port = free_port();
        let Some(bus) = port.checked_add(10_000) else {
            continue;
        };
        if TcpListener::bind(("127.0.0.1", bus)).is_ok() {
            return port;
        }
    }
}
