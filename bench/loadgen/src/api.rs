//! The parts of the halma API the generator uses, timed requests, and a player that plays
//! legal moves in its own game.
//!
//! Only the fields the generator needs are read from the answers; the rest is ignored.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::Rng as _;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::json;

use crate::stats::Recorder;

/// The setup every generated game uses: the star with `players` players (2, 3, 4 or 6, as
/// `--players` allows), seat 0 first, all seats human (no AI search inside the measured
/// requests).
pub fn new_game_body(players: u8) -> serde_json::Value {
    json!({ "board": "star", "players": players, "first_seat": 0 })
}

/// `201` answer to `POST /v1/games`.
#[derive(Debug, Deserialize)]
pub struct CreatedGame {
    /// The game.
    pub game: GameView,
    /// Its tokens.
    pub tokens: GameTokens,
}

/// The tokens of a new game.
#[derive(Debug, Deserialize)]
pub struct GameTokens {
    /// The host token: moves for every seat.
    pub host: String,
}

/// A game as the service shows it (the fields used here).
#[derive(Debug, Deserialize)]
pub struct GameView {
    /// The game's id.
    pub id: String,
    /// Its version.
    pub version: u64,
    /// The seat to move; absent once the game is over.
    pub to_move: Option<u8>,
    /// Moves played.
    pub move_count: u32,
    /// The armies with their goal cells.
    pub armies: Vec<ArmyView>,
    /// The position in the service's notation.
    pub position: String,
}

/// One army (the fields used here).
#[derive(Debug, Deserialize)]
pub struct ArmyView {
    /// The seat that moves it.
    pub seat: u8,
    /// Its goal cells.
    pub goal: Vec<String>,
}

/// `200` answer to `GET /v1/games/{id}/moves`.
#[derive(Debug, Deserialize)]
pub struct LegalMoves {
    /// The version the moves belong to.
    pub version: u64,
    /// The seat to move.
    pub to_move: Option<u8>,
    /// The legal moves.
    pub moves: Vec<LegalMove>,
}

/// One legal move (the fields used here).
#[derive(Debug, Deserialize)]
pub struct LegalMove {
    /// Start cell.
    pub from: String,
    /// End cell.
    pub to: String,
}

/// `200` answer to `POST /v1/games/{id}/moves`.
#[derive(Debug, Deserialize)]
pub struct MoveOutcome {
    /// The game after the move.
    pub game: GameView,
}

/// `200` answer to `GET /v1/boards/star`.
#[derive(Debug, Deserialize)]
struct BoardView {
    cells: Vec<CellView>,
}

#[derive(Debug, Deserialize)]
struct CellView {
    name: String,
    x: u16,
    y: u16,
}

/// One connection to the service: a client whose pool keeps a single keep-alive connection,
/// used by one virtual user at a time.
#[derive(Clone, Debug)]
pub struct Http {
    client: reqwest::Client,
    base: String,
}

/// An error before the load starts (the service is not there, or answers nonsense).
#[derive(Debug)]
pub struct SetupError(pub String);

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SetupError {}

impl Http {
    /// A connection to `base` (already checked to be a local URL) with a per-request timeout.
    ///
    /// # Errors
    /// [`SetupError`] when the HTTP client cannot be built.
    pub fn new(base: &str, timeout: Duration) -> Result<Self, SetupError> {
        // No proxy and no redirects: requests go to the checked local address and nowhere else.
        let client = reqwest::Client::builder()
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none())
            .http1_only()
            .tcp_nodelay(true)
            .pool_max_idle_per_host(1)
            .connect_timeout(timeout)
            .timeout(timeout)
            .build()
            .map_err(|e| SetupError(format!("cannot build the HTTP client: {e}")))?;
        Ok(Self {
            client,
            base: base.to_owned(),
        })
    }

    /// The absolute URL of `path`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// `GET url`, timed into `rec`; the body is read to its end and dropped.
    pub async fn get_discard(&self, url: &str, rec: &mut Recorder) -> Option<u16> {
        exchange(self.client.get(url), rec).await.map(|(s, _, _)| s)
    }

    /// `GET url`, timed into `rec`, with a `200` answer parsed as `T` (a body that does not
    /// parse counts as unexpected). `None` when no answer came.
    pub async fn get_json<T: DeserializeOwned>(
        &self,
        url: &str,
        rec: &mut Recorder,
    ) -> Option<Answer<T>> {
        exchange_timed(self.client.get(url), 200, rec).await
    }

    /// Waits until `/readyz` answers 200, for at most `limit`.
    ///
    /// # Errors
    /// [`SetupError`] when it never does.
    pub async fn wait_ready(&self, limit: Duration) -> Result<(), SetupError> {
        let until = Instant::now() + limit;
        let mut last = String::from("no answer");
        while Instant::now() < until {
            match self.client.get(self.url("/readyz")).send().await {
                Ok(r) if r.status().as_u16() == 200 => return Ok(()),
                Ok(r) => last = format!("status {}", r.status()),
                Err(e) => last = e.to_string(),
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        Err(SetupError(format!(
            "{} is not ready after {limit:?}: {last}",
            self.url("/readyz")
        )))
    }

    /// The star's cell coordinates, for the move choice.
    ///
    /// # Errors
    /// [`SetupError`] when the board cannot be read.
    pub async fn geometry(&self) -> Result<Geometry, SetupError> {
        let mut rec = Recorder::default();
        let board: BoardView =
            match exchange(self.client.get(self.url("/v1/boards/star")), &mut rec).await {
                Some((200, body, _)) => serde_json::from_slice(body.as_ref())
                    .map_err(|e| SetupError(format!("GET /v1/boards/star: {e}")))?,
                Some((status, _, _)) => {
                    return Err(SetupError(format!("GET /v1/boards/star: status {status}")))
                }
                None => return Err(SetupError("GET /v1/boards/star: no answer".into())),
            };
        Ok(Geometry::new(
            board
                .cells
                .into_iter()
                .map(|c| (c.name, f64::from(c.x), f64::from(c.y))),
        ))
    }
}

/// Sends a request and reads its body; records the latency (from sending to the last body
/// byte) and the status into `rec`, or the failure. Gives the status, the body and the
/// latency, or `None` when no answer came.
async fn exchange(
    request: reqwest::RequestBuilder,
    rec: &mut Recorder,
) -> Option<(u16, impl AsRef<[u8]>, Duration)> {
    let started = Instant::now();
    let response = match request.send().await {
        Ok(response) => response,
        Err(e) => {
            rec.failed(e.is_timeout());
            return None;
        }
    };
    let status = response.status().as_u16();
    match response.bytes().await {
        Ok(body) => {
            let latency = started.elapsed();
            rec.answered(status, latency);
            Some((status, body, latency))
        }
        Err(e) => {
            rec.failed(e.is_timeout());
            None
        }
    }
}

/// Sends a request and parses a `expect` answer as `T`; any other status or a body that does
/// not parse gives `None` (the latter also counts as unexpected in `rec`).
async fn exchange_json<T: DeserializeOwned>(
    request: reqwest::RequestBuilder,
    expect: u16,
    rec: &mut Recorder,
) -> Option<T> {
    exchange_timed(request, expect, rec).await?.body
}

/// Sends a request and parses a `expect` answer as `T` (a body that does not parse counts as
/// unexpected in `rec`). `None` when no answer came.
async fn exchange_timed<T: DeserializeOwned>(
    request: reqwest::RequestBuilder,
    expect: u16,
    rec: &mut Recorder,
) -> Option<Answer<T>> {
    let (status, body, latency) = exchange(request, rec).await?;
    let body = if status == expect {
        match serde_json::from_slice(body.as_ref()) {
            Ok(value) => Some(value),
            Err(_) => {
                rec.unexpected();
                None
            }
        }
    } else {
        None
    };
    Some(Answer {
        status,
        latency,
        body,
    })
}

/// One answered request.
#[derive(Debug)]
pub struct Answer<T> {
    /// The HTTP status.
    pub status: u16,
    /// From sending the request to the last byte of the body.
    pub latency: Duration,
    /// The body of a `200` answer, when it parsed.
    pub body: Option<T>,
}

/// Cell positions of the star in one Euclidean frame, and the board's centre.
#[derive(Clone, Debug, Default)]
pub struct Geometry {
    points: HashMap<String, (f64, f64)>,
    centre: (f64, f64),
}

impl Geometry {
    /// From the board's drawing coordinates: `x` in half-cell units, `y` in rows, rows being
    /// sqrt(3) half-cells apart.
    pub fn new(cells: impl IntoIterator<Item = (String, f64, f64)>) -> Self {
        let row = 3f64.sqrt();
        let points: HashMap<String, (f64, f64)> = cells
            .into_iter()
            .map(|(name, x, y)| (name, (x, y * row)))
            .collect();
        let n = points.len().max(1) as f64;
        let centre = points
            .values()
            .fold((0.0, 0.0), |(sx, sy), (x, y)| (sx + x, sy + y));
        Self {
            points,
            centre: (centre.0 / n, centre.1 / n),
        }
    }

    /// The cell of `cells` furthest from the centre: the tip of a corner.
    fn tip<'a>(&self, cells: impl IntoIterator<Item = &'a String>) -> Option<(f64, f64)> {
        let (cx, cy) = self.centre;
        cells
            .into_iter()
            .filter_map(|c| self.point(c))
            .max_by(|a, b| {
                let da = (a.0 - cx).hypot(a.1 - cy);
                let db = (b.0 - cx).hypot(b.1 - cy);
                da.total_cmp(&db)
            })
    }

    fn point(&self, cell: &str) -> Option<(f64, f64)> {
        self.points.get(cell).copied()
    }
}

/// What one step of a [`Player`] came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A move was played.
    Played,
    /// The game is over: start a new one.
    GameOver,
    /// The game reached the ply limit: start a new one.
    PlyLimit,
    /// A request failed; the next step starts over from a fresh listing.
    Failed,
}

/// The recorders of the play loop, one per kind of request.
#[derive(Clone, Debug, Default)]
pub struct PlayRecorders {
    /// `POST /v1/games`.
    pub create: Recorder,
    /// `GET /v1/games/{id}/moves`.
    pub list: Recorder,
    /// `POST /v1/games/{id}/moves`.
    pub post: Recorder,
}

impl PlayRecorders {
    /// Requests sent, all kinds.
    pub fn sent(&self) -> u64 {
        self.create.sent() + self.list.sent() + self.post.sent()
    }

    /// Adds another set's observations.
    pub fn merge(&mut self, other: PlayRecorders) {
        self.create.merge(other.create);
        self.list.merge(other.list);
        self.post.merge(other.post);
    }
}

/// A client playing every seat of its own game with the host token (hot-seat): it lists the
/// legal moves, picks the one that brings its piece furthest towards the tip of the seat's
/// goal corner (ties at random), and posts it with the version as `If-Match`. Two-player
/// games end after about 130 plies.
#[derive(Debug)]
pub struct Player {
    /// The game's id.
    pub id: String,
    token: String,
    /// The version from the last answer.
    pub version: u64,
    /// Plies played.
    pub plies: u32,
    /// Per seat: the tips of its goal corners.
    goal_tips: HashMap<u8, Vec<(f64, f64)>>,
}

impl Player {
    /// Creates a game of `players` players (timed into `rec.create`).
    pub async fn create(
        http: &Http,
        geometry: &Geometry,
        players: u8,
        rec: &mut PlayRecorders,
    ) -> Option<Self> {
        let request = http
            .client
            .post(http.url("/v1/games"))
            .json(&new_game_body(players));
        let created: CreatedGame = exchange_json(request, 201, &mut rec.create).await?;
        let mut player = Self {
            id: created.game.id.clone(),
            token: created.tokens.host,
            version: created.game.version,
            plies: created.game.move_count,
            goal_tips: HashMap::new(),
        };
        player.observe(geometry, &created.game);
        Some(player)
    }

    /// Remembers the goal tips of every seat in `view`.
    fn observe(&mut self, geometry: &Geometry, view: &GameView) {
        self.goal_tips.clear();
        for army in &view.armies {
            if let Some(tip) = geometry.tip(&army.goal) {
                self.goal_tips.entry(army.seat).or_default().push(tip);
            }
        }
    }

    /// Distance from `cell` to the nearest goal tip of `seat`.
    fn distance(&self, geometry: &Geometry, seat: u8, cell: &str) -> f64 {
        let (Some((x, y)), Some(goals)) = (geometry.point(cell), self.goal_tips.get(&seat)) else {
            return 0.0;
        };
        goals
            .iter()
            .map(|(gx, gy)| ((gx - x).powi(2) + (gy - y).powi(2)).sqrt())
            .fold(f64::INFINITY, f64::min)
            .min(1e9)
    }

    /// The index of the move to play.
    fn choose(
        &self,
        geometry: &Geometry,
        seat: u8,
        moves: &[LegalMove],
        rng: &mut SmallRng,
    ) -> usize {
        let gains: Vec<f64> = moves
            .iter()
            .map(|m| self.distance(geometry, seat, &m.from) - self.distance(geometry, seat, &m.to))
            .collect();
        let best = gains.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let top: Vec<usize> = (0..moves.len())
            .filter(|&i| gains[i] >= best - 1e-6)
            .collect();
        top.get(rng.random_range(..top.len().max(1)))
            .copied()
            .unwrap_or_default()
    }

    /// Lists the moves (timed into `rec.list`) and plays one (timed into `rec.post`).
    pub async fn step(
        &mut self,
        http: &Http,
        geometry: &Geometry,
        max_plies: u32,
        rng: &mut SmallRng,
        rec: &mut PlayRecorders,
    ) -> Step {
        let path = format!("/v1/games/{}/moves", self.id);
        let request = http.client.get(http.url(&path));
        let Some(legal) = exchange_json::<LegalMoves>(request, 200, &mut rec.list).await else {
            return Step::Failed;
        };
        if legal.version != self.version {
            // Nobody else plays this game: the version must be the one of the last answer.
            rec.list.unexpected();
            self.version = legal.version;
        }
        let Some(seat) = legal.to_move.filter(|_| !legal.moves.is_empty()) else {
            return Step::GameOver;
        };
        let chosen = &legal.moves[self.choose(geometry, seat, &legal.moves, rng)];
        let request = http
            .client
            .post(http.url(&path))
            .header("authorization", format!("Bearer {}", self.token))
            .header("if-match", format!("\"{}\"", self.version))
            .json(&json!({ "from": chosen.from, "to": chosen.to }));
        let Some(outcome) = exchange_json::<MoveOutcome>(request, 200, &mut rec.post).await else {
            return Step::Failed;
        };
        if outcome.game.version != self.version + 1 {
            rec.post.unexpected();
        }
        self.version = outcome.game.version;
        self.plies = outcome.game.move_count;
        if outcome.game.to_move.is_none() {
            Step::GameOver
        } else if self.plies >= max_plies {
            Step::PlyLimit
        } else {
            Step::Played
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng as _;

    #[test]
    fn greedy_choice_heads_for_the_goal_tip() {
        // A row of cells; the goal is the corner {g, h} at the right end, h its tip.
        let geometry = Geometry::new(
            ["a", "b", "c", "d", "e", "f", "g", "h"]
                .iter()
                .enumerate()
                .map(|(i, n)| ((*n).to_owned(), 2.0 * i as f64, 0.0)),
        );
        let mut player = Player {
            id: "x".into(),
            token: "t".into(),
            version: 1,
            plies: 0,
            goal_tips: HashMap::new(),
        };
        let view = GameView {
            id: "x".into(),
            version: 1,
            to_move: Some(0),
            move_count: 0,
            armies: vec![ArmyView {
                seat: 0,
                goal: vec!["g".into(), "h".into()],
            }],
            position: String::new(),
        };
        player.observe(&geometry, &view);
        let mv = |from: &str, to: &str| LegalMove {
            from: from.into(),
            to: to.into(),
        };
        let moves = vec![mv("b", "a"), mv("a", "e"), mv("c", "d"), mv("g", "f")];
        let mut rng = SmallRng::seed_from_u64(7);
        for _ in 0..20 {
            assert_eq!(player.choose(&geometry, 0, &moves, &mut rng), 1);
        }
        assert!((player.distance(&geometry, 0, "e") - 6.0).abs() < 1e-9);
        assert_eq!(player.distance(&geometry, 1, "e"), 0.0);
    }
}
