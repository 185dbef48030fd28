//! What the scenarios check about answers: problem documents, move listings against the game,
//! moves the listing leaves out, and finished games.

use std::collections::{BTreeSet, HashMap};
use std::fmt::Debug;

use halma_client::reqwest::StatusCode;
use halma_client::{types, GameSession, HalmaError, ProblemCode};

use crate::rng::Rng;

/// Asserts that `result` is the problem `code` with `status`; returns the error.
#[track_caller]
pub fn assert_problem<T: Debug>(
    result: Result<T, HalmaError>,
    status: StatusCode,
    code: ProblemCode,
) -> HalmaError {
    let err = match result {
        Ok(value) => panic!("expected {} {code}, got {value:?}", status.as_u16()),
        Err(err) => err,
    };
    assert_eq!(err.code(), Some(&code), "{err}");
    assert_eq!(err.status(), Some(status), "{err}");
    let problem = err.problem().unwrap();
    assert_eq!(problem.code, code);
    assert_eq!(problem.status, status.as_u16());
    assert_eq!(problem.type_, format!("urn:halma:problem:{code}"));
    assert!(!problem.detail.is_empty() && !problem.title.is_empty());
    err
}

/// Asserts that `result` is 422 `illegal_move` with `reason`.
#[track_caller]
pub fn assert_illegal<T: Debug>(result: Result<T, HalmaError>, reason: &str) -> HalmaError {
    let err = assert_problem(
        result,
        StatusCode::UNPROCESSABLE_ENTITY,
        ProblemCode::IllegalMove,
    );
    let text = err.reason().map(ToString::to_string);
    assert_eq!(text.as_deref(), Some(reason), "{err}");
    err
}

/// A board's cells and their neighbours, read once per game.
pub struct Board {
    /// Every cell, in the board's order.
    pub cells: Vec<String>,
    /// The neighbours of each cell.
    pub neighbors: HashMap<String, Vec<String>>,
}

impl Board {
    /// The board of `game`.
    pub async fn of(session: &GameSession) -> Self {
        let game = session.game();
        let mut request = session.client().get_board().board(game.board);
        if let Some(arm_size) = game.rules.arm_size {
            request = request.arm_size(arm_size);
        }
        let view = request.send().await.unwrap().into_inner();
        assert_eq!(view.board, game.board);
        assert_eq!(view.arm_size, game.rules.arm_size);
        assert!(view.players.contains(&game.players));
        let neighbors = view
            .cells
            .iter()
            .map(|cell| (cell.name.clone(), cell.neighbors.clone()))
            .collect();
        Self {
            cells: view.cells.into_iter().map(|cell| cell.name).collect(),
            neighbors,
        }
    }
}

/// The pieces of a game as last seen, split between the seat to move and the others.
pub struct Pieces {
    /// Cells of the seat to move's pieces.
    pub own: BTreeSet<String>,
    /// Cells of every other piece.
    pub others: BTreeSet<String>,
}

impl Pieces {
    /// The pieces of `game`, from the view of the seat to move.
    pub fn of(game: &types::GameView) -> Self {
        let mut pieces = Self {
            own: BTreeSet::new(),
            others: BTreeSet::new(),
        };
        for army in &game.armies {
            let side = if Some(army.seat) == game.to_move {
                &mut pieces.own
            } else {
                &mut pieces.others
            };
            side.extend(army.pieces.iter().cloned());
        }
        pieces
    }

    /// Whether a piece stands on `cell`.
    pub fn occupied(&self, cell: &str) -> bool {
        self.own.contains(cell) || self.others.contains(cell)
    }
}

/// Checks a listing of the legal moves against the game it was taken from: same version and
/// seat, each (from, to) once, from one of the mover's pieces to an empty cell along a path
/// of board cells that the notation spells.
pub fn check_listing(game: &types::GameView, listing: &types::LegalMoves, board: &Board) {
    assert_eq!(listing.version, game.version, "listing of another version");
    assert_eq!(listing.to_move, game.to_move);
    assert!(
        !listing.moves.is_empty(),
        "an ongoing game lists no move for seat {:?}",
        game.to_move
    );
    let pieces = Pieces::of(game);
    let mut pairs = BTreeSet::new();
    for mv in &listing.moves {
        assert!(
            pairs.insert((mv.from.as_str(), mv.to.as_str())),
            "{} listed twice",
            mv.notation
        );
        assert!(
            pieces.own.contains(&mv.from),
            "{}: not a piece of the mover",
            mv.notation
        );
        assert!(!pieces.occupied(&mv.to), "{}: ends on a piece", mv.notation);
        assert!(mv.path.len() >= 2, "{}: path too short", mv.notation);
        assert_eq!(mv.path.first(), Some(&mv.from));
        assert_eq!(mv.path.last(), Some(&mv.to));
        assert_eq!(mv.notation, mv.path.join("-"));
        for cell in &mv.path {
            assert!(
                board.neighbors.contains_key(cell),
                "{}: {cell} is not on the board",
                mv.notation
            );
        }
        if mv.path.len() == 2 && board.neighbors[&mv.from].contains(&mv.to) {
            continue; // a step
        }
        // A jump chain: every hop lands on an empty cell (or back where it started) two
        // cells away, never on a neighbour.
        for hop in mv.path.windows(2) {
            assert!(
                !board.neighbors[&hop[0]].contains(&hop[1]),
                "{}: a step inside a jump chain",
                mv.notation
            );
            assert!(
                hop[1] == mv.from || !pieces.occupied(&hop[1]),
                "{}: a hop lands on a piece",
                mv.notation
            );
        }
    }
}

/// Sends moves the listing leaves out and checks that each is refused (422 `illegal_move`)
/// without changing the game: one to an empty cell the piece cannot reach, one onto a piece,
/// one with another seat's piece, and one from an empty cell.
pub async fn probe_unlisted_moves(
    session: &mut GameSession,
    listing: &types::LegalMoves,
    board: &Board,
    rng: &mut Rng,
) {
    let pieces = Pieces::of(session.game());
    let own: Vec<&String> = pieces.own.iter().collect();
    let empty: Vec<&String> = board
        .cells
        .iter()
        .filter(|cell| !pieces.occupied(cell))
        .collect();
    let piece = *rng.pick(&own).unwrap();
    let reachable: BTreeSet<&str> = listing
        .moves
        .iter()
        .filter(|mv| &mv.from == piece)
        .map(|mv| mv.to.as_str())
        .collect();
    let unreachable: Vec<&String> = empty
        .iter()
        .copied()
        .filter(|cell| !reachable.contains(cell.as_str()))
        .collect();
    if let Some(target) = rng.pick(&unreachable) {
        let err = assert_problem(
            session.play(piece, target).await,
            StatusCode::UNPROCESSABLE_ENTITY,
            ProblemCode::IllegalMove,
        );
        let reason = err.reason().unwrap().to_string();
        assert!(
            !matches!(
                reason.as_str(),
                "not_your_turn" | "game_over" | "cell_occupied" | "not_your_piece" | "empty_cell"
            ),
            "{piece}-{target}: {err}"
        );
    }
    let occupied: Vec<&String> = pieces
        .own
        .iter()
        .chain(&pieces.others)
        .filter(|cell| *cell != piece)
        .collect();
    if let Some(target) = rng.pick(&occupied) {
        assert_illegal(session.play(piece, target).await, "cell_occupied");
    }
    let others: Vec<&String> = pieces.others.iter().collect();
    if let (Some(other), Some(target)) = (rng.pick(&others), rng.pick(&empty)) {
        assert_illegal(session.play(other, target).await, "not_your_piece");
    }
    if let [from, to, ..] = empty.as_slice() {
        assert_illegal(session.play(from, to).await, "empty_cell");
    }
    // Nothing changed: the game is still at the version the listing belongs to.
    assert!(
        !session.refresh().await.unwrap(),
        "a refused move changed the game"
    );
    assert_eq!(session.version(), listing.version);
}

/// Checks a finished game: its result and status, that nothing more can be played or
/// suggested, and that its record holds exactly `played`, the moves seen being played.
pub async fn check_finished(session: &mut GameSession, played: &[types::MoveView]) {
    let game = session.game().clone();
    assert_eq!(game.status, types::GameStatus::Finished);
    assert_eq!(game.to_move, None);
    let result = game.result.clone().expect("a finished game has a result");
    assert!(
        result.winner.is_some() || result.draw.is_some(),
        "{result:?}"
    );
    let mut ranked: Vec<u8> = result
        .ranking
        .iter()
        .flat_map(|place| place.seats.iter().copied())
        .collect();
    ranked.sort_unstable();
    assert_eq!(ranked, (0..game.players).collect::<Vec<_>>(), "{result:?}");

    let listing = session.legal_moves().await.unwrap();
    assert!(listing.moves.is_empty() && listing.to_move.is_none());
    assert_eq!(listing.version, game.version);
    assert_illegal(session.suggestion(Some(1), Some(5)).await, "game_over");
    let board = Board::of(session).await;
    let (from, to) = (&board.cells[0], &board.cells[1]);
    assert_illegal(session.play(from, to).await, "game_over");
    assert!(!session.refresh().await.unwrap());

    let record = session.record().await.unwrap();
    assert_eq!(record.id, game.id);
    assert_eq!(record.version, game.version);
    assert_eq!(record.result.as_ref(), Some(&result));
    assert_eq!(record.position, game.position);
    assert_eq!(
        record.moves.len(),
        usize::try_from(game.move_count).unwrap()
    );
    assert_eq!(
        record.moves, played,
        "the record differs from the moves played"
    );
    for (ply, mv) in record.moves.iter().enumerate() {
        assert_eq!(usize::try_from(mv.ply).unwrap(), ply + 1);
    }
    let move_lines = record
        .export
        .lines()
        .filter(|line| {
            line.split_once(". ")
                .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
        })
        .count();
    assert_eq!(move_lines, record.moves.len(), "{}", record.export);
}
