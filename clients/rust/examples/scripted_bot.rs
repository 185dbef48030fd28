//! A scripted bot: lists the legal moves, picks one, applies it, and repeats until the game is
//! over.
//!
//! It picks the move that brings a piece nearest to the free cells of its goal (by the board
//! geometry of `GET /v1/boards/{board}`). With a seat token it plays that seat and waits (long
//! polling) while the others move; with the host token it plays every seat. Without a game to
//! join it creates a hot-seat game on the 8 x 8 board and plays both seats.
//!
//! ```text
//! cargo run -p halma-client --example scripted_bot                  # service on 127.0.0.1:8080
//! cargo run -p halma-client --example scripted_bot -- http://host:port
//! HALMA_GAME=<id> HALMA_TOKEN=<seat or host token> cargo run -p halma-client --example scripted_bot
//! ```

use std::collections::{HashMap, HashSet};
use std::error::Error;
use std::time::Duration;

use halma_client::{types, Client, GameSession, ProblemCode, ProblemReason};

/// The service used when neither an argument nor `HALMA_URL` names one.
const DEFAULT_URL: &str = "http://127.0.0.1:8080";
/// The bot stops after this many of its own moves if the game has not ended.
const MAX_MOVES: usize = 1_000;
/// How long the bot waits for the other players when it is not its turn.
const WAIT_SECS: u64 = 10;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn Error>> {
    let url = std::env::args()
        .nth(1)
        .or_else(|| std::env::var("HALMA_URL").ok())
        .unwrap_or_else(|| DEFAULT_URL.to_owned());
    // Long enough for the long polls of `wait_for_change`.
    let client = halma_client::build_client(
        url.trim_end_matches('/'),
        Duration::from_secs(WAIT_SECS + 5),
    )?;

    let mut session = match (std::env::var("HALMA_GAME"), std::env::var("HALMA_TOKEN")) {
        (Ok(game), Ok(token)) => GameSession::join(&client, &game, token).await?,
        _ => {
            let request = types::CreateGameRequest::builder()
                .board(types::BoardName::Square8)
                .players(2_u8);
            let (session, _tokens) = GameSession::create(&client, request.try_into()?).await?;
            println!("created hot-seat game {} on {url}", session.id());
            session
        }
    };
    let geometry = Geometry::read(&client, session.game()).await?;

    let mut moves_made = 0;
    while !session.is_finished() && moves_made < MAX_MOVES {
        // 1. List the moves.
        let legal = session.legal_moves().await?;
        if legal.version != session.version() {
            session.refresh().await?;
            continue;
        }
        // 2. Pick one.
        let Some(choice) = geometry.best_move(session.game(), &legal.moves) else {
            return Err("the seat to move has no legal move".into());
        };
        // 3. Apply it.
        match session.play(&choice.from, &choice.to).await {
            Ok(played) => {
                moves_made += 1;
                for mv in played {
                    println!("{:>4}. seat {} {}", mv.ply, mv.seat, mv.notation);
                }
            }
            // A seat token, and another seat is to move: wait until the game changes.
            Err(err) if err.reason() == Some(&ProblemReason::NotYourTurn) => {
                session.wait_for_change(WAIT_SECS).await?;
            }
            // Someone moved since the game was read: read it again.
            Err(err) if err.is(&ProblemCode::VersionMismatch) => {
                session.refresh().await?;
            }
            Err(err) => return Err(err.into()),
        }
    }

    match &session.game().result {
        Some(result) => println!("game over: {result:?}"),
        None => println!("stopped after {moves_made} moves; the game goes on"),
    }
    Ok(())
}

/// Where the cells of the game's board are drawn, to measure how far a piece is from its goal.
struct Geometry {
    /// Cell name to drawing position, scaled so that neighbours are about one unit apart.
    cells: HashMap<String, (f64, f64)>,
}

impl Geometry {
    async fn read(client: &Client, game: &types::GameView) -> Result<Self, Box<dyn Error>> {
        let mut request = client.get_board().board(game.board);
        if let Some(arm_size) = game.rules.arm_size {
            request = request.arm_size(arm_size);
        }
        let board = request.send().await?.into_inner();
        // Star: x counts half cells and rows are sqrt(3)/2 cells apart; square: x and y are
        // columns and rows.
        let (x_scale, y_scale) = if board.directions == 6 {
            (0.5, 3.0_f64.sqrt() / 2.0)
        } else {
            (1.0, 1.0)
        };
        let cells = board
            .cells
            .into_iter()
            .map(|cell| {
                let position = (f64::from(cell.x) * x_scale, f64::from(cell.y) * y_scale);
                (cell.name, position)
            })
            .collect();
        Ok(Self { cells })
    }

    /// The move that brings its piece nearest to a free cell of the mover's goal, measured
    /// as the distance gained (ties: the first listed).
    fn best_move<'m>(
        &self,
        game: &types::GameView,
        moves: &'m [types::LegalMoveView],
    ) -> Option<&'m types::LegalMoveView> {
        let seat = game.to_move?;
        let armies: Vec<&types::ArmyView> = game
            .armies
            .iter()
            .filter(|army| army.seat == seat)
            .collect();
        let own: HashSet<&str> = armies
            .iter()
            .flat_map(|army| army.pieces.iter().map(String::as_str))
            .collect();
        let free_goal: Vec<(f64, f64)> = armies
            .iter()
            .flat_map(|army| army.goal.iter())
            .filter(|cell| !own.contains(cell.as_str()))
            .filter_map(|cell| self.cells.get(cell).copied())
            .collect();
        let distance = |cell: &str| -> f64 {
            let Some(&(x, y)) = self.cells.get(cell) else {
                return 0.0;
            };
            let nearest = free_goal
                .iter()
                .map(|&(gx, gy)| (gx - x).hypot(gy - y))
                .fold(f64::INFINITY, f64::min);
            // No free goal cell: the goal is full, every cell is as good as another.
            if nearest.is_finite() {
                nearest
            } else {
                0.0
            }
        };
        moves
            .iter()
            .map(|mv| (distance(&mv.from) - distance(&mv.to), mv))
            .fold(
                None,
                |best: Option<(f64, &types::LegalMoveView)>, (gain, mv)| match best {
                    Some((best_gain, _)) if best_gain >= gain => best,
                    _ => Some((gain, mv)),
                },
            )
            .map(|(_, mv)| mv)
    }
}
