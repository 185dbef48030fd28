//! A private `redis-server` child process per test, on a free port, killed when dropped.
//!
//! When `redis-server` is not installed, the test fails if `CI` is `true`, and otherwise
//! prints a warning and is skipped.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long a fresh server may take to answer PING.
const STARTUP_TIMEOUT: Duration = Duration::from_secs(10);

/// A running `redis-server` that persists nothing.
pub struct RedisServer {
    child: Child,
    port: u16,
}

/// Why a server did not start on a port.
enum StartError {
    NotInstalled,
    DidNotAnswer,
}

impl RedisServer {
    /// Starts a server on a free port; `None` (after a warning) when `redis-server` is
    /// missing outside CI.
    pub fn start(test: &str) -> Option<Self> {
        for _attempt in 0..5 {
            match Self::start_on(free_port()) {
                Ok(server) => return Some(server),
                Err(StartError::NotInstalled) => return skip_or_fail(test),
                // Someone took the port between our probe and the server's bind: try another.
                Err(StartError::DidNotAnswer) => {}
            }
        }
        panic!("{test}: redis-server did not start on any of 5 free ports");
    }

    fn start_on(port: u16) -> Result<Self, StartError> {
        let child = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let mut child = match child {
            Ok(child) => child,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                return Err(StartError::NotInstalled)
            }
            Err(err) => panic!("cannot run redis-server: {err}"),
        };
        let deadline = Instant::now() + STARTUP_TIMEOUT;
        while Instant::now() < deadline {
            if child.try_wait().ok().flatten().is_some() {
                return Err(StartError::DidNotAnswer);
            }
            if answers_ping(port) {
                return Ok(Self { child, port });
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = child.kill();
        let _ = child.wait();
        Err(StartError::DidNotAnswer)
    }

    /// The server's URL.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Fails the test when `CI` is `true`, else warns that it is skipped.
fn skip_or_fail(test: &str) -> Option<RedisServer> {
    if std::env::var("CI").is_ok_and(|value| value == "true") {
        panic!(
            "{test}: redis-server is not installed, and CI=true requires the Redis tests to run"
        );
    }
    // Straight to stderr: the test harness would capture `eprintln!` of a passing test.
    let _ = writeln!(
        std::io::stderr(),
        "warning: redis::{test} skipped: redis-server is not installed \
         (set CI=true to make this a failure)"
    );
    None
}

/// A port that was free a moment ago.
fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

fn answers_ping(port: u16) -> bool {
    let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_millis(500)));
    if stream.write_all(b"PING\r\n").is_err() {
        return false;
    }
    let mut reply = [0_u8; 7];
    stream.read_exact(&mut reply).is_ok() && &reply == b"+PONG\r\n"
}
