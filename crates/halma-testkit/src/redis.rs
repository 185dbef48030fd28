//! A private `redis-server` child process per test, on a free port of 127.0.0.1, persisting
//! nothing, killed when dropped.

use std::fmt;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long a fresh server may take to answer PING.
const STARTUP_TIMEOUT: Duration = Duration::from_secs(10);

/// How many free ports [`RedisServer::start`] tries (another process may take a port between
/// the probe and the server's bind).
const ATTEMPTS: usize = 5;

/// A running `redis-server` of the test's own.
#[derive(Debug)]
pub struct RedisServer {
    child: Option<Child>,
    port: u16,
    /// Arguments it was started with besides the defaults, used again by a restart.
    extra: Vec<String>,
}

/// Why a server did not start on a port.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartError {
    /// `redis-server` is not on the `PATH`.
    NotInstalled,
    /// It started but did not answer PING in time, or exited (the port was taken).
    DidNotAnswer,
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::NotInstalled => f.write_str(
                "redis-server is not installed, and this test needs it: install it \
                 (`apt-get install -y redis-server`), or leave the Redis tests out with \
                 `cargo test -- --skip redis`",
            ),
            StartError::DidNotAnswer => f.write_str("redis-server did not answer PING"),
        }
    }
}

impl std::error::Error for StartError {}

impl RedisServer {
    /// Starts a server on a free port.
    ///
    /// # Panics
    /// When `redis-server` is not installed (so a Redis test never passes without Redis), or
    /// it does not start on any of five free ports.
    #[must_use]
    pub fn start() -> RedisServer {
        for _attempt in 0..ATTEMPTS {
            match RedisServer::start_on(free_port()) {
                Ok(server) => return server,
                Err(StartError::DidNotAnswer) => {}
                Err(err @ StartError::NotInstalled) => panic!("{err}"),
            }
        }
        panic!("redis-server did not start on any of {ATTEMPTS} free ports");
    }

    /// Starts a server on `port`.
    ///
    /// # Errors
    /// [`StartError::NotInstalled`] without `redis-server`, [`StartError::DidNotAnswer`] when
    /// it does not answer PING within ten seconds.
    ///
    /// # Panics
    /// When `redis-server` is installed but cannot be run.
    pub fn start_on(port: u16) -> Result<RedisServer, StartError> {
        RedisServer::start_with(port, &[])
    }

    /// Starts a server on a free port that keeps every write on disk in `dir` before it
    /// answers (append-only file, `fsync` on every write), so that it comes back from
    /// [`RedisServer::restart`] with all it had acknowledged.
    ///
    /// # Panics
    /// As [`RedisServer::start`].
    #[must_use]
    pub fn start_durable(dir: &std::path::Path) -> RedisServer {
        let args = vec![
            "--dir".to_owned(),
            dir.display().to_string(),
            "--appendonly".to_owned(),
            "yes".to_owned(),
            "--appendfsync".to_owned(),
            "always".to_owned(),
        ];
        for _attempt in 0..ATTEMPTS {
            match RedisServer::start_with(free_port(), &args) {
                Ok(server) => return server,
                Err(StartError::DidNotAnswer) => {}
                Err(err @ StartError::NotInstalled) => panic!("{err}"),
            }
        }
        panic!("redis-server did not start on any of {ATTEMPTS} free ports");
    }

    /// Starts a server on `port` with `extra` arguments after the defaults (which they
    /// override).
    pub(crate) fn start_with(port: u16, extra: &[String]) -> Result<RedisServer, StartError> {
        let child = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .args(extra)
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
                return Ok(RedisServer {
                    child: Some(child),
                    port,
                    extra: extra.to_vec(),
                });
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = child.kill();
        let _ = child.wait();
        Err(StartError::DidNotAnswer)
    }

    /// The server's port.
    #[must_use]
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The server's URL, `redis://127.0.0.1:PORT`.
    #[must_use]
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Kills the server (as a crash would) and waits for it to exit.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Sends the server a signal with `kill`: `-STOP` freezes it (a Redis that accepts
    /// connections but never answers), `-CONT` thaws it.
    ///
    /// # Panics
    /// When the server was stopped, or `kill` fails.
    pub fn signal(&self, signal: &str) {
        let Some(child) = self.child.as_ref() else {
            panic!("kill {signal}: the server is stopped");
        };
        let status = Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .unwrap_or_else(|err| panic!("kill {signal}: {err}"));
        assert!(status.success(), "kill {signal} failed: {status}");
    }

    /// Starts the server again on the same port: empty, unless it was started with
    /// [`RedisServer::start_durable`].
    ///
    /// # Panics
    /// When it does not start again within ten seconds.
    pub fn restart(&mut self) {
        self.stop();
        let deadline = Instant::now() + STARTUP_TIMEOUT;
        loop {
            match RedisServer::start_with(self.port, &self.extra) {
                Ok(mut server) => {
                    self.child = server.child.take();
                    return;
                }
                Err(err @ StartError::NotInstalled) => panic!("{err}"),
                Err(StartError::DidNotAnswer) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(100));
                }
                Err(StartError::DidNotAnswer) => {
                    panic!("redis-server did not restart on port {}", self.port)
                }
            }
        }
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A port of 127.0.0.1 that was free a moment ago.
///
/// # Panics
/// When no port can be bound.
#[must_use]
pub fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0")
        .unwrap_or_else(|err| panic!("no free port on 127.0.0.1: {err}"));
    listener
        .local_addr()
        .unwrap_or_else(|err| panic!("the free port's address: {err}"))
        .port()
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
