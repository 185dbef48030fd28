//! The command line: every option has a default and a bound, so a run is always finite.

use std::fmt;
use std::time::Duration;

use crate::cpu::Watched;

/// The usage text, printed by `--help` and after a bad option.
pub const USAGE: &str = "\
loadgen: closed-loop load on a halma service (127.0.0.1 only)

USAGE: loadgen [OPTIONS]

OPTIONS (defaults in brackets):
  --url URL             base URL of the service, http://127.0.0.1:PORT [http://127.0.0.1:8080]
  --scenarios LIST      comma-separated: get, moves, play, suggest, health [get,moves,play]
  --connections C       concurrent connections, one virtual user each, 1..=1024 [32]
  --duration SECS       measured time per scenario, 1..=600 [10]
  --warmup SECS         unmeasured time before each scenario, 0..=60 [1]
  --games N             games read by the get and moves scenarios, 1..=10000 [64]
  --plies P             plies played into each of those games first, 0..=400 [20]
  --max-plies M         play: a game is replaced once it ends or reaches M plies, 1..=2000 [300]
  --players N           players of every game created (the star): 2, 3, 4 or 6 [2]
  --suggest-ms MS       suggest: the time_ms asked of the AI (level 10), 1..=10000 [200]
  --suggest-plies P     suggest: plies played into each of its --games games first, 1..=100 [40]
  --max-requests R      cap on the requests of one scenario, 1..=100000000 [10000000]
  --threads T           client runtime threads, 1..=64 [2]
  --timeout-ms MS       timeout of one request, 100..=60000 [5000]
  --seed S              seed of the move choices [1]
  --watch NAME=PID      report the CPU time of this local process per scenario (up to 8
                        times; the generator itself and the whole machine are always reported)
  --json                also print one JSON object per scenario
  -h, --help            this text
";

/// How much longer than the suggestion budget the request timeout must be.
const SUGGEST_TIMEOUT_MARGIN_MS: u64 = 1000;

/// One load scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scenario {
    /// `GET /v1/games/{id}`.
    GetGame,
    /// `GET /v1/games/{id}/moves`.
    ListMoves,
    /// `POST /v1/games/{id}/moves`, each virtual user playing its own game.
    PlayMoves,
    /// `GET /v1/games/{id}/suggestion?level=10&time_ms=N` on mid-game positions.
    Suggest,
    /// `GET /healthz`: no store, no game, a few bytes of JSON. The floor of what any request
    /// costs (HTTP, routing, middleware, the generator's own share) on the same machine.
    Health,
}

impl Scenario {
    /// The scenario's name on the command line and in the output.
    pub fn name(self) -> &'static str {
        match self {
            Self::GetGame => "get",
            Self::ListMoves => "moves",
            Self::PlayMoves => "play",
            Self::Suggest => "suggest",
            Self::Health => "health",
        }
    }

    fn parse(text: &str) -> Option<Self> {
        match text {
            "get" => Some(Self::GetGame),
            "moves" => Some(Self::ListMoves),
            "play" => Some(Self::PlayMoves),
            "suggest" => Some(Self::Suggest),
            "health" => Some(Self::Health),
            _ => None,
        }
    }
}

/// The parsed options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Args {
    /// Base URL, without a trailing slash.
    pub url: String,
    /// The scenarios, in the order given.
    pub scenarios: Vec<Scenario>,
    /// Concurrent connections (virtual users).
    pub connections: usize,
    /// Measured time per scenario.
    pub duration: Duration,
    /// Unmeasured time before each scenario.
    pub warmup: Duration,
    /// Games read by the read scenarios.
    pub games: usize,
    /// Plies played into each read game before the read scenarios.
    pub plies: u32,
    /// A played game is replaced once it reaches this many plies.
    pub max_plies: u32,
    /// Players of every game created, on the star: 2, 3, 4 or 6.
    pub players: u8,
    /// Suggest: the time budget asked of the AI, in milliseconds.
    pub suggest_ms: u32,
    /// Suggest: plies played into each of its games before it starts.
    pub suggest_plies: u32,
    /// Cap on the requests of one scenario.
    pub max_requests: u64,
    /// Client runtime threads.
    pub threads: usize,
    /// Timeout of one request.
    pub timeout: Duration,
    /// Seed of the move choices.
    pub seed: u64,
    /// Print JSON lines too.
    pub json: bool,
    /// Processes whose CPU time is reported.
    pub watch: Vec<Watched>,
}

impl Default for Args {
    fn default() -> Self {
        Self {
            url: "http://127.0.0.1:8080".to_owned(),
            scenarios: vec![Scenario::GetGame, Scenario::ListMoves, Scenario::PlayMoves],
            connections: 32,
            duration: Duration::from_secs(10),
            warmup: Duration::from_secs(1),
            games: 64,
            plies: 20,
            max_plies: 300,
            players: 2,
            suggest_ms: 200,
            suggest_plies: 40,
            max_requests: 10_000_000,
            threads: 2,
            timeout: Duration::from_millis(5000),
            seed: 1,
            json: false,
            watch: Vec::new(),
        }
    }
}

/// What the command line asked for.
#[derive(Debug, PartialEq, Eq)]
pub enum Command {
    /// Run with these options.
    Run(Args),
    /// Print the usage.
    Help,
}

/// A bad command line.
#[derive(Debug, PartialEq, Eq)]
pub struct ArgError(pub String);

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ArgError {}

fn number<T>(option: &str, text: &str, min: T, max: T) -> Result<T, ArgError>
where
    T: std::str::FromStr + PartialOrd + fmt::Display + Copy,
{
    match text.parse::<T>() {
        Ok(n) if n >= min && n <= max => Ok(n),
        _ => Err(ArgError(format!(
            "{option} takes a number from {min} to {max}, not {text:?}"
        ))),
    }
}

/// Checks that `url` is `http://127.0.0.1:PORT` (an optional trailing slash is dropped): the
/// generator only ever loads the local machine.
///
/// # Errors
/// [`ArgError`] for any other URL.
pub fn local_base_url(url: &str) -> Result<String, ArgError> {
    let base = url.trim_end_matches('/');
    let port = base
        .strip_prefix("http://127.0.0.1:")
        .and_then(|p| p.parse::<u16>().ok())
        .filter(|p| *p != 0);
    match port {
        Some(_) => Ok(base.to_owned()),
        None => Err(ArgError(format!(
            "--url must be http://127.0.0.1:PORT (only local targets), not {url:?}"
        ))),
    }
}

/// The star's player counts (the rule book's 2, 3, 4 or 6).
fn players(text: &str) -> Result<u8, ArgError> {
    match text.parse::<u8>() {
        Ok(n @ (2 | 3 | 4 | 6)) => Ok(n),
        _ => Err(ArgError(format!(
            "--players takes 2, 3, 4 or 6 (the star's player counts), not {text:?}"
        ))),
    }
}

fn watched(text: &str) -> Result<Watched, ArgError> {
    let bad = || ArgError(format!("--watch takes NAME=PID, not {text:?}"));
    let (name, pid) = text.split_once('=').ok_or_else(bad)?;
    let name = name.trim();
    if name.is_empty() || name.len() > 32 {
        return Err(bad());
    }
    Ok(Watched {
        name: name.to_owned(),
        pid: pid.trim().parse().map_err(|_| bad())?,
    })
}

impl Command {
    /// Parses the arguments after the program name.
    ///
    /// # Errors
    /// [`ArgError`] naming the bad option.
    pub fn parse(arguments: impl IntoIterator<Item = String>) -> Result<Self, ArgError> {
        let mut args = Args::default();
        let mut it = arguments.into_iter();
        while let Some(option) = it.next() {
            if option == "-h" || option == "--help" {
                return Ok(Self::Help);
            }
            if option == "--json" {
                args.json = true;
                continue;
            }
            let value = it
                .next()
                .ok_or_else(|| ArgError(format!("{option} needs a value (see --help)")))?;
            match option.as_str() {
                "--url" => args.url = local_base_url(&value)?,
                "--scenarios" => {
                    args.scenarios = value
                        .split(',')
                        .map(|s| {
                            Scenario::parse(s.trim()).ok_or_else(|| {
                                ArgError(format!(
                                    "unknown scenario {s:?}: get, moves, play or suggest"
                                ))
                            })
                        })
                        .collect::<Result<_, _>>()?;
                }
                "--connections" => args.connections = number(&option, &value, 1, 1024)?,
                "--duration" => {
                    args.duration = Duration::from_secs(number(&option, &value, 1, 600)?);
                }
                "--warmup" => args.warmup = Duration::from_secs(number(&option, &value, 0, 60)?),
                "--games" => args.games = number(&option, &value, 1, 10_000)?,
                "--plies" => args.plies = number(&option, &value, 0, 400)?,
                "--max-plies" => args.max_plies = number(&option, &value, 1, 2000)?,
                "--players" => args.players = players(&value)?,
                "--suggest-ms" => args.suggest_ms = number(&option, &value, 1, 10_000)?,
                "--suggest-plies" => args.suggest_plies = number(&option, &value, 1, 100)?,
                "--max-requests" => {
                    args.max_requests = number(&option, &value, 1, 100_000_000)?;
                }
                "--threads" => args.threads = number(&option, &value, 1, 64)?,
                "--timeout-ms" => {
                    args.timeout = Duration::from_millis(number(&option, &value, 100, 60_000)?);
                }
                "--seed" => args.seed = number(&option, &value, 0, u64::MAX)?,
                "--watch" => {
                    if args.watch.len() == 8 {
                        return Err(ArgError("at most 8 --watch options".into()));
                    }
                    args.watch.push(watched(&value)?);
                }
                _ => return Err(ArgError(format!("unknown option {option:?} (see --help)"))),
            }
        }
        // A suggestion takes its budget plus the wait for a search slot: a timeout close to the
        // budget would report the service's queue as timeouts instead of measuring it.
        let least = Duration::from_millis(u64::from(args.suggest_ms) + SUGGEST_TIMEOUT_MARGIN_MS);
        if args.scenarios.contains(&Scenario::Suggest) && args.timeout < least {
            return Err(ArgError(format!(
                "--timeout-ms must be at least --suggest-ms + {SUGGEST_TIMEOUT_MARGIN_MS} ({} ms) for the suggest scenario",
                least.as_millis()
            )));
        }
        Ok(Self::Run(args))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Command, ArgError> {
        Command::parse(args.iter().map(|s| (*s).to_owned()))
    }

    #[test]
    fn defaults_and_options() {
        assert_eq!(parse(&[]), Ok(Command::Run(Args::default())));
        assert_eq!(parse(&["--help"]), Ok(Command::Help));
        let Ok(Command::Run(args)) = parse(&[
            "--url",
            "http://127.0.0.1:9000/",
            "--scenarios",
            "play,get,health",
            "--connections",
            "8",
            "--duration",
            "3",
            "--json",
            "--watch",
            "server=42",
        ]) else {
            panic!("options rejected");
        };
        assert_eq!(args.url, "http://127.0.0.1:9000");
        assert_eq!(
            args.scenarios,
            vec![Scenario::PlayMoves, Scenario::GetGame, Scenario::Health]
        );
        assert_eq!(args.connections, 8);
        assert_eq!(args.duration, Duration::from_secs(3));
        assert!(args.json);
        assert_eq!(
            args.watch,
            vec![Watched {
                name: "server".into(),
                pid: 42
            }]
        );
    }

    #[test]
    fn only_local_targets_and_bounded_values() {
        for url in [
            "http://example.com:80",
            "http://10.0.0.1:8080",
            "https://127.0.0.1:8080",
            "http://127.0.0.1",
            "http://127.0.0.1:0",
            "http://127.0.0.1:8080@evil.example",
            "http://127.0.0.1:8080/x",
        ] {
            assert!(parse(&["--url", url]).is_err(), "{url}");
        }
        assert!(parse(&["--connections", "0"]).is_err());
        assert!(parse(&["--duration", "601"]).is_err());
        assert!(parse(&["--scenarios", "get,delete"]).is_err());
        assert!(parse(&["--duration"]).is_err());
        assert!(parse(&["--bogus", "1"]).is_err());
        assert!(parse(&["--watch", "server"]).is_err());
        assert!(parse(&["--watch", "=1"]).is_err());
        assert!(parse(&["--watch", "x=-1"]).is_err());
        assert!(parse(&["--suggest-ms", "0"]).is_err());
        assert!(parse(&["--suggest-plies", "0"]).is_err());
        for bad in ["1", "5", "7", "0", "six", ""] {
            assert!(parse(&["--players", bad]).is_err(), "{bad}");
        }
    }

    #[test]
    fn suggest_options() {
        let Ok(Command::Run(args)) = parse(&["--scenarios", "suggest", "--suggest-ms", "50"])
        else {
            panic!("options rejected");
        };
        assert_eq!(args.scenarios, vec![Scenario::Suggest]);
        assert_eq!((args.suggest_ms, args.suggest_plies), (50, 40));
        assert_eq!(args.players, 2);
        for players in [2, 3, 4, 6] {
            let Ok(Command::Run(args)) = parse(&["--players", &players.to_string()]) else {
                panic!("--players {players} rejected");
            };
            assert_eq!(args.players, players);
        }
        // The request timeout must leave room for the budget and the queue.
        assert!(parse(&["--scenarios", "suggest", "--suggest-ms", "4500"]).is_err());
        assert!(parse(&["--scenarios", "get", "--suggest-ms", "4500"]).is_ok());
        assert!(parse(&[
            "--scenarios",
            "suggest",
            "--suggest-ms",
            "4500",
            "--timeout-ms",
            "6000"
        ])
        .is_ok());
    }
}
