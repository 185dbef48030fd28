//! The request and response bodies of the game API, with their OpenAPI schemas.
//!
//! These mirror the rules crate's types in a form that is stable on the wire: cells are named
//! in the notation (`e5`), seats are numbered from 0 in turn order, enums are snake_case
//! strings. Request bodies reject unknown fields.

use halma_rules as rules;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

/// The boards of the family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum BoardName {
    /// The six-pointed star of Chinese checkers (121 cells with arm size 4).
    Star,
    /// Square Halma, 16 x 16.
    Square16,
    /// Square Halma, 10 x 10.
    Square10,
    /// Square Halma, 8 x 8.
    Square8,
}

impl From<BoardName> for rules::BoardKind {
    fn from(b: BoardName) -> Self {
        match b {
            BoardName::Star => rules::BoardKind::Star,
            BoardName::Square16 => rules::BoardKind::Square16,
            BoardName::Square10 => rules::BoardKind::Square10,
            BoardName::Square8 => rules::BoardKind::Square8,
        }
    }
}

impl From<rules::BoardKind> for BoardName {
    fn from(b: rules::BoardKind) -> Self {
        match b {
            rules::BoardKind::Star => BoardName::Star,
            rules::BoardKind::Square16 => BoardName::Square16,
            rules::BoardKind::Square10 => BoardName::Square10,
            rules::BoardKind::Square8 => BoardName::Square8,
        }
    }
}

/// Where pieces may go in corners or camps that are neither their home nor their goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ForeignCornersRule {
    /// Pass through and stop there.
    Allowed,
    /// Jump through, but not end a move there.
    PassOnly,
    /// Never enter.
    Forbidden,
}

/// Which steps count as backward and are not allowed (square boards).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum BackwardStepsRule {
    /// All steps allowed.
    Allowed,
    /// Not the step straight back (diagonally towards the own corner).
    NoStraightBack,
    /// Not the three steps with a backward part.
    NoBackward,
}

/// Rule options of a new game. Every field is optional: an absent one takes the rule book's
/// default for the board and player count (see `GET /v1/rules/options`). An option that does
/// not apply to the board or player count is rejected (422 `invalid_setup`), never ignored.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct RuleOptions {
    /// Star: cells per side of each corner triangle (2 to 5; default 4: 121 cells, 10 pieces).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arm_size: Option<u8>,
    /// A piece in its goal never leaves it, not even inside a jump chain (default on).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goal_lock: Option<bool>,
    /// A goal with no empty cell and at least one own piece counts as filled, other players'
    /// pieces filling the rest as blockers (see `anti_blocking_grace`); default on for the star
    /// and 16 x 16, off where leave-home is on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anti_blocking: Option<bool>,
    /// The anti-blocking rule's grace period: another player's piece in a goal counts towards
    /// filling it only once its owner has finished, is out, or has made this many own moves
    /// (default: the board's leave-home number, 40 on the star, 50 on 16 x 16 and 10 x 10, 30
    /// on 8 x 8; 0 counts every piece at once). Only with the anti-blocking rule on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anti_blocking_grace: Option<u16>,
    /// After the first finish, the others play on for places (default on).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub play_on: Option<bool>,
    /// Star, 4 or 6 players: partners in opposite corners win together (default off).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub teams: Option<bool>,
    /// Star, 2 players: home corner plus the row in front of it, 15 pieces (default off).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fifteen_pieces: Option<bool>,
    /// Star: only the six cells nearest each tip (default off).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub six_pieces: Option<bool>,
    /// 16 x 16, 2 players: camps of 13 instead of 19 (default off).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub small_camps: Option<bool>,
    /// Star, 2 players: colour sets per player, 1 to 3 (default 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colours_per_player: Option<u8>,
    /// Star: long symmetric jumps (default off).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub long_jumps: Option<bool>,
    /// A player with a piece at home after their N-th move loses (default on for 8 x 8, 10 x 10).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leave_home: Option<bool>,
    /// The N of `leave_home` (default 40 star, 30 on 8 x 8, 50 on 10 x 10 and 16 x 16).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leave_home_moves: Option<u16>,
    /// Corners or camps that are neither home nor goal (default `allowed`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub foreign_corners: Option<ForeignCornersRule>,
    /// Third occurrence of a placement with the same player to move is a draw (default on for
    /// 2-player square games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repetition_draw: Option<bool>,
    /// Square: backward steps (default `allowed`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backward_steps: Option<BackwardStepsRule>,
    /// Square: steps only diagonally (default off).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diagonal_steps_only: Option<bool>,
}

impl From<&RuleOptions> for rules::RuleOptions {
    fn from(o: &RuleOptions) -> Self {
        rules::RuleOptions {
            arm_size: o.arm_size,
            goal_lock: o.goal_lock,
            anti_blocking: o.anti_blocking,
            anti_blocking_grace: o.anti_blocking_grace,
            play_on: o.play_on,
            teams: o.teams,
            fifteen_pieces: o.fifteen_pieces,
            six_pieces: o.six_pieces,
            small_camps: o.small_camps,
            colours_per_player: o.colours_per_player,
            long_jumps: o.long_jumps,
            leave_home: o.leave_home,
            leave_home_moves: o.leave_home_moves,
            foreign_corners: o.foreign_corners.map(|f| match f {
                ForeignCornersRule::Allowed => rules::ForeignCorners::Allowed,
                ForeignCornersRule::PassOnly => rules::ForeignCorners::PassOnly,
                ForeignCornersRule::Forbidden => rules::ForeignCorners::Forbidden,
            }),
            repetition_draw: o.repetition_draw,
            backward_steps: o.backward_steps.map(backward_from),
            diagonal_steps_only: o.diagonal_steps_only,
        }
    }
}

fn backward_from(b: BackwardStepsRule) -> rules::BackwardSteps {
    match b {
        BackwardStepsRule::Allowed => rules::BackwardSteps::Allowed,
        BackwardStepsRule::NoStraightBack => rules::BackwardSteps::NoStraightBack,
        BackwardStepsRule::NoBackward => rules::BackwardSteps::NoBackward,
    }
}

fn foreign_to(f: rules::ForeignCorners) -> ForeignCornersRule {
    match f {
        rules::ForeignCorners::Allowed => ForeignCornersRule::Allowed,
        rules::ForeignCorners::PassOnly => ForeignCornersRule::PassOnly,
        rules::ForeignCorners::Forbidden => ForeignCornersRule::Forbidden,
    }
}

fn backward_to(b: rules::BackwardSteps) -> BackwardStepsRule {
    match b {
        rules::BackwardSteps::Allowed => BackwardStepsRule::Allowed,
        rules::BackwardSteps::NoStraightBack => BackwardStepsRule::NoStraightBack,
        rules::BackwardSteps::NoBackward => BackwardStepsRule::NoBackward,
    }
}

impl From<&rules::RuleOptions> for RuleOptions {
    fn from(o: &rules::RuleOptions) -> Self {
        RuleOptions {
            arm_size: o.arm_size,
            goal_lock: o.goal_lock,
            anti_blocking: o.anti_blocking,
            anti_blocking_grace: o.anti_blocking_grace,
            play_on: o.play_on,
            teams: o.teams,
            fifteen_pieces: o.fifteen_pieces,
            six_pieces: o.six_pieces,
            small_camps: o.small_camps,
            colours_per_player: o.colours_per_player,
            long_jumps: o.long_jumps,
            leave_home: o.leave_home,
            leave_home_moves: o.leave_home_moves,
            foreign_corners: o.foreign_corners.map(foreign_to),
            repetition_draw: o.repetition_draw,
            backward_steps: o.backward_steps.map(backward_to),
            diagonal_steps_only: o.diagonal_steps_only,
        }
    }
}

/// The rules in force for a game, every default filled in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RulesInForce {
    /// Star arm size (absent on square boards).
    pub arm_size: Option<u8>,
    /// Goal lock.
    pub goal_lock: bool,
    /// Anti-blocking rule.
    pub anti_blocking: bool,
    /// The anti-blocking rule's grace period in own moves of a piece's owner (0 without grace,
    /// and when the anti-blocking rule is off).
    pub anti_blocking_grace: u16,
    /// Play on for places.
    pub play_on: bool,
    /// Teams.
    pub teams: bool,
    /// Fifteen pieces.
    pub fifteen_pieces: bool,
    /// Six pieces.
    pub six_pieces: bool,
    /// 13-cell camps on 16 x 16 with 2 players.
    pub small_camps: bool,
    /// Colour sets per player.
    pub colours_per_player: u8,
    /// Long jumps.
    pub long_jumps: bool,
    /// The leave-home move limit, when that rule is on.
    pub leave_home_moves: Option<u16>,
    /// Foreign corners.
    pub foreign_corners: ForeignCornersRule,
    /// Draw by three-fold repetition.
    pub repetition_draw: bool,
    /// Backward steps.
    pub backward_steps: BackwardStepsRule,
    /// Diagonal steps only.
    pub diagonal_steps_only: bool,
}

impl From<&rules::Options> for RulesInForce {
    fn from(o: &rules::Options) -> Self {
        RulesInForce {
            arm_size: (o.arm_size != 0).then_some(o.arm_size),
            goal_lock: o.goal_lock,
            anti_blocking: o.anti_blocking,
            anti_blocking_grace: o.anti_blocking_grace,
            play_on: o.play_on,
            teams: o.teams,
            fifteen_pieces: o.fifteen_pieces,
            six_pieces: o.six_pieces,
            small_camps: o.small_camps,
            colours_per_player: o.colours_per_player,
            long_jumps: o.long_jumps,
            leave_home_moves: o.leave_home_moves,
            foreign_corners: foreign_to(o.foreign_corners),
            repetition_draw: o.repetition_draw,
            backward_steps: backward_to(o.backward_steps),
            diagonal_steps_only: o.diagonal_steps_only,
        }
    }
}

/// Who plays a seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SeatKind {
    /// A person (or a client's own bot), moving with the seat's token.
    #[default]
    Human,
    /// The hosted AI: it moves by itself as soon as the seat is to move.
    Ai,
}

/// One seat of a new game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct SeatRequest {
    /// Display name (at most 64 characters; default `Player N`, or `AI level L`).
    pub name: Option<String>,
    /// Human (default) or AI.
    pub kind: SeatKind,
    /// AI strength from 1 (beginner) to 10 (full strength, the default); only for AI seats.
    pub level: Option<u8>,
}

/// A new game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateGameRequest {
    /// The board.
    pub board: BoardName,
    /// Players: 2, 3, 4 or 6 on the star; 2 or 4 on 16 x 16; 2 on 10 x 10 and 8 x 8.
    pub players: u8,
    /// Rule options; absent ones take the defaults.
    #[serde(default)]
    pub options: RuleOptions,
    /// The seats in turn order (clockwise from seat 0). Empty: all human. Otherwise exactly
    /// one entry per player.
    #[serde(default)]
    pub seats: Vec<SeatRequest>,
    /// The seat that moves first; absent: drawn by lot.
    #[serde(default)]
    pub first_seat: Option<u8>,
    /// Thinking time of the AI seats per move, in milliseconds (default 200, capped by the
    /// service's configuration).
    #[serde(default)]
    pub ai_time_ms: Option<u32>,
}

/// One seat of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SeatView {
    /// The seat's number, from 0, in turn order.
    pub seat: u8,
    /// Display name.
    pub name: String,
    /// Human or AI.
    pub kind: SeatKind,
    /// The AI level, for AI seats.
    pub level: Option<u8>,
    /// The armies (colour sets) the seat moves, as indexes into `armies`.
    pub armies: Vec<u8>,
    /// The partner's seat in a team game.
    pub partner: Option<u8>,
    /// Moves made so far.
    pub moves_made: u16,
    /// The seat has filled its goal(s).
    pub finished: bool,
    /// The seat lost by the leave-home rule.
    pub eliminated: bool,
}

/// One army: a colour set with its home and goal areas and where its pieces stand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ArmyView {
    /// The army's index.
    pub army: u8,
    /// The seat that moves it.
    pub seat: u8,
    /// The corner it starts in (`N`, `NE`, `SE`, `S`, `SW`, `NW` on the star; `BottomRight`,
    /// `BottomLeft`, `TopLeft`, `TopRight` on square boards).
    pub home_corner: String,
    /// The corner it races to.
    pub goal_corner: String,
    /// The home cells.
    pub home: Vec<String>,
    /// The goal cells.
    pub goal: Vec<String>,
    /// The cells its pieces stand on.
    pub pieces: Vec<String>,
}

/// Whether a game goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    /// Moves are being played.
    Ongoing,
    /// The game has a result.
    Finished,
}

/// How a group of seats came to its place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Standing {
    /// Filled its goal(s).
    Finished,
    /// Was the last one left.
    Last,
    /// Lost by the leave-home rule.
    LeftHomeTooLate,
    /// Still playing when the game was drawn.
    Drawn,
    /// Still playing when the game ended at the first finish (play-on off).
    Unplaced,
}

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DrawReason {
    /// The same placement with the same player to move occurred for the third time.
    Repetition,
    /// Nobody still playing had a legal move.
    NoLegalMoves,
    /// Nobody still playing could ever finish: each had a piece walled in for good by the
    /// pieces of players out of the game, and too few pieces left to fill that goal.
    Deadlock,
}

/// One place of the final ranking.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PlaceView {
    /// The place (1 for the winner); absent for unplaced seats.
    pub place: Option<u8>,
    /// The seats of the group (one seat, or a team).
    pub seats: Vec<u8>,
    /// How the group got there.
    pub standing: Standing,
}

/// The result of a finished game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct GameResult {
    /// The winning seats (one, or a team), when there is a single winner.
    pub winner: Option<Vec<u8>>,
    /// Set when the game ended in a draw.
    pub draw: Option<DrawReason>,
    /// Groups in ranking order.
    pub ranking: Vec<PlaceView>,
}

/// One move of a game's record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MoveView {
    /// The move's number in the game, from 1.
    pub ply: u32,
    /// The seat that moved.
    pub seat: u8,
    /// Start cell.
    pub from: String,
    /// End cell.
    pub to: String,
    /// Every cell the piece visited, start and end included.
    pub path: Vec<String>,
    /// The path in the notation, e.g. `c1-e3-g5`.
    pub notation: String,
    /// Seats that could not move and were skipped right after this move.
    pub skipped: Vec<u8>,
}

/// A game as the service shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct GameView {
    /// The game's id.
    pub id: String,
    /// The game's version: 1 when created, one more after every accepted change. It is also
    /// the `ETag`.
    pub version: u64,
    /// The board.
    pub board: BoardName,
    /// Number of players.
    pub players: u8,
    /// The options the game was created with.
    pub options: RuleOptions,
    /// The rules in force (every default filled in).
    pub rules: RulesInForce,
    /// The seats.
    pub seats: Vec<SeatView>,
    /// The armies.
    pub armies: Vec<ArmyView>,
    /// The seat that moved first.
    pub first_seat: u8,
    /// The seat to move; absent once the game is over.
    pub to_move: Option<u8>,
    /// Ongoing or finished.
    pub status: GameStatus,
    /// The result, once finished.
    pub result: Option<GameResult>,
    /// Moves played.
    pub move_count: u32,
    /// The last move.
    pub last_move: Option<MoveView>,
    /// The position in the notation (see the rules crate's `notation` module).
    pub position: String,
}

/// The secret tokens of a new game. They are shown once and stored only as hashes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct GameTokens {
    /// May move for every seat (hot-seat play) and start rematches.
    pub host: String,
    /// One token per seat, in seat order: each moves only for its seat.
    pub seats: Vec<String>,
}

/// A game just created.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CreatedGame {
    /// The game (AI seats that move first have already moved).
    pub game: GameView,
    /// The secret tokens.
    pub tokens: GameTokens,
}

/// One legal move with a shortest path.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct LegalMoveView {
    /// Start cell.
    pub from: String,
    /// End cell.
    pub to: String,
    /// A shortest path (a step, or the jump chain with the fewest hops).
    pub path: Vec<String>,
    /// The path in the notation.
    pub notation: String,
}

/// The legal moves of the seat to move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct LegalMoves {
    /// The game's version these moves belong to.
    pub version: u64,
    /// The seat to move; absent once the game is over (then `moves` is empty).
    pub to_move: Option<u8>,
    /// Each (from, to) pair once.
    pub moves: Vec<LegalMoveView>,
}

/// Query of the legal-moves listing.
#[derive(Clone, Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct MovesQuery {
    /// Only the moves of the piece on this cell.
    pub from: Option<String>,
}

/// A move to play: either `path` (the full path, checked hop by hop), or `from` and `to`
/// (accepted when some legal step or chain leads there), or `notation` (`a1-c3-e5`; two cells
/// mean from and to).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct PlayMoveRequest {
    /// The full path, start and end included.
    pub path: Option<Vec<String>>,
    /// Start cell (with `to`).
    pub from: Option<String>,
    /// End cell (with `from`).
    pub to: Option<String>,
    /// The move in the notation.
    pub notation: Option<String>,
    /// The version the move is based on, when no `If-Match` header is sent.
    pub version: Option<u64>,
}

/// The answer to a move: the game after it and after the AI seats that followed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MoveOutcome {
    /// The game now.
    pub game: GameView,
    /// The moves this request played: the client's own (if any), then the AI replies.
    pub played: Vec<MoveView>,
}

/// Query of the suggestion endpoint.
#[derive(Clone, Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct SuggestionQuery {
    /// Strength from 1 to 10 (default 10).
    pub level: Option<u8>,
    /// Thinking time in milliseconds (default 200; capped by the service's configuration).
    pub time_ms: Option<u32>,
}

/// A suggested move for the seat to move, with the search's statistics.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SuggestionView {
    /// The game's version the suggestion is for.
    pub version: u64,
    /// The seat the suggestion is for.
    pub seat: u8,
    /// Start cell.
    pub from: String,
    /// End cell.
    pub to: String,
    /// A shortest path for the move.
    pub path: Vec<String>,
    /// The move in the notation.
    pub notation: String,
    /// The evaluation for the seat to move (16 units per row of distance; wins score high).
    pub score: i32,
    /// Depth of the last completed search iteration.
    pub depth: u32,
    /// Positions searched.
    pub nodes: u64,
    /// The expected line of play, as moves in `from-to` notation, starting with this move.
    pub principal_variation: Vec<String>,
    /// Time the search took, in milliseconds.
    pub elapsed_ms: u64,
    /// The level used: the one asked for, or 4 (the one-ply player) when every search slot
    /// of the instance stayed busy for the whole budget.
    pub level: u8,
    /// The time budget used, in milliseconds.
    pub time_budget_ms: u32,
}

/// A game's full record and its text export.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct GameRecord {
    /// The game's id.
    pub id: String,
    /// The game's version.
    pub version: u64,
    /// The board.
    pub board: BoardName,
    /// Number of players.
    pub players: u8,
    /// The options the game was created with.
    pub options: RuleOptions,
    /// The seat that moved first.
    pub first_seat: u8,
    /// Every move.
    pub moves: Vec<MoveView>,
    /// The result, once finished.
    pub result: Option<GameResult>,
    /// The starting position in the notation.
    pub start_position: String,
    /// The current position in the notation.
    pub position: String,
    /// The whole game as text: tag lines, then one move per line (`12. S3 c1-e3-g5`).
    pub export: String,
}

/// One cell of a board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CellView {
    /// The cell's index.
    pub index: u8,
    /// The cell's name in the notation.
    pub name: String,
    /// Horizontal drawing coordinate: star, in half-cell units from the left (cells are two
    /// units apart in a row); square, the column from the left.
    pub x: u16,
    /// Vertical drawing coordinate: the row from the top (star rows are sqrt(3)/2 cell widths
    /// apart).
    pub y: u16,
    /// The neighbouring cells.
    pub neighbors: Vec<String>,
}

/// A named corner area of a board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CornerView {
    /// The corner's name.
    pub corner: String,
    /// What the area is: `corner` (a star triangle), or the camp shape it belongs to
    /// (`camp_19`, `camp_13`, `camp_15`, `camp_10`).
    pub area: String,
    /// The cells.
    pub cells: Vec<String>,
}

/// A board's geometry, enough to draw it without knowing it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BoardView {
    /// The board.
    pub board: BoardName,
    /// The star's arm size (absent on square boards).
    pub arm_size: Option<u8>,
    /// Line directions: 6 on the star, 8 on square boards.
    pub directions: u8,
    /// The player counts offered.
    pub players: Vec<u8>,
    /// Every cell.
    pub cells: Vec<CellView>,
    /// The corner areas: the star's six triangles, or the square boards' camps.
    pub corners: Vec<CornerView>,
}

/// The boards offered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BoardList {
    /// One entry per board, with the default geometry.
    pub boards: Vec<BoardSummary>,
}

/// A board in short.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BoardSummary {
    /// The board.
    pub board: BoardName,
    /// Cells of the default geometry.
    pub cells: u16,
    /// Player counts offered.
    pub players: Vec<u8>,
}

/// Query of the board geometry.
#[derive(Clone, Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct BoardQuery {
    /// Star arm size, 2 to 5 (default 4).
    pub arm_size: Option<u8>,
}

/// One rule option.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RuleOptionInfo {
    /// The option's name in `options` of a new game.
    pub name: String,
    /// `boolean`, `integer` or `choice`.
    pub kind: String,
    /// For `choice`: the values; for `integer`: the allowed range, e.g. `2..=5`.
    pub values: Vec<String>,
    /// The boards it applies to.
    pub boards: Vec<BoardName>,
    /// The default, in words (it may depend on the board and player count).
    pub default: String,
    /// What it does.
    pub description: String,
}

/// Every rule option.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RuleOptionList {
    /// The options.
    pub options: Vec<RuleOptionInfo>,
}

/// Game id in a path.
#[derive(Clone, Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct GamePath {
    /// The game's id.
    pub id: String,
}
