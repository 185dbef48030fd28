//! The request and response bodies of the game API, with their OpenAPI schemas.
//!
//! The views show the rules crate's games in a form that is stable on the wire: cells are
//! named in the notation (`e5`), seats are numbered from 0 in turn order, enums are snake_case
//! strings. Request bodies reject unknown fields.
//!
//! Seats and players: every `seat` in JSON (bodies, paths, queries) is a number for programs,
//! from 0 in turn order. Texts for people count *players* from 1 instead, player `n` being
//! seat `n - 1`: the position notation's player to move, the text export of a record, the
//! board picture's title, the default seat names (`Player 1`). Problem `detail`s say `seat`
//! for the first kind and `player` for the second.
//!
//! Where the rules crate's own type is what goes on the wire (the board, the rule options asked
//! for and in force, a standing, a draw reason), the API uses it as it is, with the schema the
//! rules crate derives behind its `utoipa` feature; schema names stay those of the API
//! (`BoardName`, `ForeignCornersRule`, `BackwardStepsRule`, `RulesInForce`).

use halma_rules::{self as rules, BoardKind, DrawReason, RuleOptions, Standing};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

/// Who plays a seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SeatKind {
    /// A person (or a client's own bot), moving with the seat's token.
    #[default]
    Human,
    /// The hosted AI: it moves by itself as soon as the seat is to move.
    Ai,
    /// A seat for someone to join later, with the invitation code the new game's answer
    /// carries (or freely, in a public game). The game waits until every seat is taken.
    Open,
}

/// One seat of a new game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct SeatRequest {
    /// Display name (at most 64 characters; default `Player N`, or `AI level L`); not for
    /// open seats, whose player gives a name on joining.
    #[schema(
        min_length = 1,
        max_length = 64,
        pattern = r"^[^\u0000-\u001F\u007F-\u009F]*[^\s\u0000-\u001F\u007F-\u009F][^\u0000-\u001F\u007F-\u009F]*$"
    )]
    pub name: Option<String>,
    /// Human (default), AI, or open (someone joins it later).
    pub kind: SeatKind,
    /// AI strength from 1 (beginner) to 10 (full strength, the default); only for AI seats.
    #[schema(minimum = 1, maximum = 10)]
    pub level: Option<u8>,
}

/// A new game: from the initial setup of `board` and `players`, or from a `position`, or as the
/// import of a `record` (text) or `record_json` (JSON). At most one of the three starts may be
/// given; with one of them, `board`, `players` and `options` may be left out (given, they must
/// agree with it, and `options` add to its own).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"board": "star", "players": 2, "seats": [{"name": "Ada"}, {"kind": "ai", "level": 3}]}))]
pub struct CreateGameRequest {
    /// The board (required unless a `position` or a record is given).
    #[serde(default)]
    pub board: Option<BoardKind>,
    /// Players: 2, 3, 4 or 6 on the star; 2 or 4 on 16 x 16; 2 on 10 x 10 and 8 x 8
    /// (required unless a `position` or a record is given).
    #[serde(default)]
    #[schema(minimum = 2, maximum = 6)]
    pub players: Option<u8>,
    /// Rule options; absent ones take the defaults (see `GET /v1/rules/options`), and one that
    /// does not apply to the board or player count is rejected (422 `invalid_setup`). With a
    /// position or a record they add to its own options and may not contradict them (422
    /// `invalid_position`, reason `options_disagree`).
    #[serde(default)]
    pub options: RuleOptions,
    /// Start from this position in the notation (as `position` of `GET /v1/games/{id}` shows
    /// it) instead of the initial setup; its player to move moves first. A position that
    /// cannot be played is 422 `invalid_position`, whose `field` names the field at fault
    /// (`position.placement`), or the option it needs (`options.fifteen_pieces` for armies of
    /// 15 pieces).
    #[serde(default)]
    pub position: Option<String>,
    /// Import a game from its text export (`export` of `GET /v1/games/{id}/record`, or the
    /// `text/plain` download): the setup, the start and every move, resignation and handover
    /// are replayed and checked against the rules, and the game goes on from its last
    /// position (AI seats to move then move). The seat names come from its `Player` tags (or
    /// the `Seat` tags of older exports) unless `seats` are given; seats the record hands to
    /// the AI are AI seats. A record that does not replay is 422 `invalid_record` with the
    /// `move_number` at fault and a `reason`.
    #[serde(default)]
    pub record: Option<String>,
    /// Import a game from the JSON form of its record (the body of
    /// `GET /v1/games/{id}/record`), as `record` does. Read: `board`, `players`, `options`,
    /// `first_seat`, `start_position`, and per move its `seat`, `path` and `skipped`, the
    /// `resignations` and the `handovers`; checked against the replay: `position` and
    /// `result`, and each move's `ply`, `from`, `to` and `notation`; not read: `id`,
    /// `version` and `export`.
    #[serde(default)]
    #[schema(value_type = Option<GameRecord>)]
    pub record_json: Option<crate::games::RecordImport>,
    /// The seats in turn order (clockwise from seat 0). Empty: all human. Otherwise exactly
    /// one entry per player.
    #[serde(default)]
    pub seats: Vec<SeatRequest>,
    /// The seat that moves first; absent: drawn by lot. Not with a `position` or a record
    /// (their player to move moves first).
    #[serde(default)]
    pub first_seat: Option<u8>,
    /// Thinking time of the AI seats per move, in milliseconds (default 200, capped by the
    /// service's configuration).
    #[serde(default)]
    #[schema(minimum = 1)]
    pub ai_time_ms: Option<u32>,
    /// List the game in the lobby (`GET /v1/lobby`) while it waits for players; anyone may
    /// then join its open seats without a code. Only for games with an open seat.
    #[serde(default)]
    pub public: bool,
}

/// One seat of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SeatView {
    /// The seat's number, from 0, in turn order.
    pub seat: u8,
    /// Display name.
    pub name: String,
    /// Human, AI, or open (nobody has joined it yet).
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
    /// Some seat is open: the game starts once every seat is taken.
    Waiting,
    /// Moves are being played.
    Ongoing,
    /// The game has a result.
    Finished,
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
    pub board: BoardKind,
    /// Number of players.
    pub players: u8,
    /// The options the game was created with.
    pub options: RuleOptions,
    /// The rules in force (every default filled in).
    pub rules: rules::Options,
    /// The seats.
    pub seats: Vec<SeatView>,
    /// The armies.
    pub armies: Vec<ArmyView>,
    /// The seat that moved first.
    pub first_seat: u8,
    /// The seat to move; absent while the game waits for players and once it is over.
    pub to_move: Option<u8>,
    /// Waiting for players, ongoing or finished.
    pub status: GameStatus,
    /// The open seats (while the game waits for players).
    pub open_seats: Vec<u8>,
    /// Listed in the lobby while it waits for players.
    pub public: bool,
    /// The result, once finished.
    pub result: Option<GameResult>,
    /// Moves played.
    pub move_count: u32,
    /// The id of the last event of the game's stream (`GET /v1/games/{id}/events`) that this
    /// view includes: its moves, resignations and seats handed to the AI so far. A client that
    /// holds this view follows the game from here with `Last-Event-ID` set to it.
    pub last_event_id: u64,
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
    /// One token per seat, in seat order: each moves only for its seat. Open seats have
    /// none (`null`): their token goes to whoever joins.
    pub seats: Vec<Option<String>>,
}

/// The invitation to an open seat: the code that lets one person join it. Shown once and
/// stored only as a hash; it works once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Invitation {
    /// The seat.
    pub seat: u8,
    /// The secret code, for `POST /v1/games/{id}/seats/{seat}/join`.
    pub code: String,
}

/// A game just created.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CreatedGame {
    /// The game (AI seats that move first have already moved, unless it waits for players).
    pub game: GameView,
    /// The secret tokens.
    pub tokens: GameTokens,
    /// One invitation per open seat, in seat order.
    pub invitations: Vec<Invitation>,
}

/// Joining an open seat.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct JoinRequest {
    /// The seat's invitation code; may be left out for a public game.
    pub code: Option<String>,
    /// The name to play under (1 to 64 characters; default `Player N`).
    #[schema(
        min_length = 1,
        max_length = 64,
        pattern = r"^[^\u0000-\u001F\u007F-\u009F]*[^\s\u0000-\u001F\u007F-\u009F][^\u0000-\u001F\u007F-\u009F]*$"
    )]
    pub name: Option<String>,
}

/// A seat just joined.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct JoinedSeat {
    /// The seat.
    pub seat: u8,
    /// The seat's secret token (shown only here): it moves for this seat.
    pub token: String,
    /// The game after the join (started, when it took the last open seat).
    pub game: GameView,
}

/// A seat given up in a waiting game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct LeftSeat {
    /// The game after it: the seat is open again.
    pub game: GameView,
    /// The seat's new invitation, when the host token asked (the seat's player gets none).
    pub invitation: Option<Invitation>,
}

/// Query of the lobby.
#[derive(Clone, Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct LobbyQuery {
    /// Only games on this board.
    pub board: Option<BoardKind>,
    /// Only games for this many players.
    #[param(minimum = 2, maximum = 6)]
    pub players: Option<u8>,
    /// Games per page, 1 to 100 (default 20).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<usize>,
    /// Where the page starts: `next_cursor` of the page before.
    #[param(pattern = r"^[0-9]{12}\.[A-Za-z0-9_-]{1,64}$")]
    pub cursor: Option<String>,
}

/// A game waiting for players, as the lobby lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct LobbyGame {
    /// The game's id.
    pub id: String,
    /// The game's version.
    pub version: u64,
    /// The board.
    pub board: BoardKind,
    /// Number of players.
    pub players: u8,
    /// The options the game was created with.
    pub options: RuleOptions,
    /// The seats (open ones with kind `open`).
    pub seats: Vec<SeatView>,
    /// The seats anyone may join.
    pub open_seats: Vec<u8>,
    /// Creation time, seconds since the Unix epoch.
    pub created_at: u64,
    /// Seconds since creation.
    pub age_secs: u64,
}

/// A page of the lobby: public games waiting for players, newest first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct LobbyPage {
    /// The games.
    pub games: Vec<LobbyGame>,
    /// Pass as `cursor` for the next page; absent on the last page.
    pub next_cursor: Option<String>,
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
    #[schema(min_items = 2)]
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
    #[param(minimum = 1, maximum = 10)]
    pub level: Option<u8>,
    /// Thinking time in milliseconds (default 200; capped by the service's configuration).
    #[param(minimum = 1)]
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
    pub board: BoardKind,
    /// Number of players.
    pub players: u8,
    /// The options the game was created with.
    pub options: RuleOptions,
    /// The seat that moved first.
    pub first_seat: u8,
    /// Every move.
    pub moves: Vec<MoveView>,
    /// Every resignation, in order.
    pub resignations: Vec<ResignationView>,
    /// Every seat handed to the AI during the game, in order.
    pub handovers: Vec<HandoverView>,
    /// The seats taken and given up while the game waited for players, in order.
    pub seat_changes: Vec<SeatChangeView>,
    /// The result, once finished.
    pub result: Option<GameResult>,
    /// The starting position in the notation.
    pub start_position: String,
    /// The current position in the notation.
    pub position: String,
    /// The whole game as text: tag lines, then one move per line (`12. S3 c1-e3-g5`).
    pub export: String,
}

/// A seat handed to the AI, in a game's record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct HandoverView {
    /// How many moves had been played: the change came after the move of this ply.
    pub after: u32,
    /// The seat.
    pub seat: u8,
    /// The AI level that plays it from then on.
    pub level: u8,
}

/// A seat taken or given up while the game waited for players, in a game's record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SeatChangeView {
    /// How many moves had been played (some, in a game started from a record).
    pub after: u32,
    /// The seat.
    pub seat: u8,
    /// `joined` or `left`.
    pub change: SeatChangeKind,
    /// The name joined with (for `joined`).
    pub name: Option<String>,
}

/// What happened to a seat while the game waited for players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SeatChangeKind {
    /// Someone took the open seat.
    Joined,
    /// The seat's player left; it was open again.
    Left,
}

/// A resignation in a game's record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ResignationView {
    /// How many moves had been played: the resignation came after the move of this ply.
    pub after: u32,
    /// The seats that left: the seat that resigned, and its partner in a team game.
    pub seats: Vec<u8>,
    /// Seats skipped right after it because they could not move.
    pub skipped: Vec<u8>,
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
    pub board: BoardKind,
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
    pub board: BoardKind,
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
    /// Star arm size, 2 to 5 (default 4); not for square boards.
    #[param(minimum = 2, maximum = 5)]
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
    pub boards: Vec<BoardKind>,
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

/// A position to analyse: the notation (as `position` of a game shows it) and rule options
/// that add to the position's own.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnalysisMovesRequest {
    /// The position in the notation.
    pub position: String,
    /// Rule options that add to the position's own (they may not contradict them).
    #[serde(default)]
    pub options: RuleOptions,
    /// Only the moves of the piece on this cell.
    #[serde(default)]
    pub from: Option<String>,
}

/// The legal moves of a position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct AnalysisMoves {
    /// The position as the service reads it (its options field with the request's added, and
    /// the turn passed on when the player to move cannot move).
    pub position: String,
    /// The seat to move; absent when the position ends the game (then `moves` is empty).
    pub to_move: Option<u8>,
    /// The result, when the position ends the game.
    pub result: Option<GameResult>,
    /// Each (from, to) pair once, with a shortest path.
    pub moves: Vec<LegalMoveView>,
}

/// A position to ask the AI about.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnalysisSuggestionRequest {
    /// The position in the notation.
    pub position: String,
    /// Rule options that add to the position's own (they may not contradict them).
    #[serde(default)]
    pub options: RuleOptions,
    /// The positions the game went through before this one, oldest first, in the notation
    /// (at most 64): the AI steers clear of repeating them, as it does in a stored game.
    #[serde(default)]
    #[schema(max_items = 64)]
    pub recent: Vec<String>,
    /// Strength from 1 to 10 (default 10).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 10)]
    pub level: Option<u8>,
    /// Thinking time in milliseconds (default 200; capped by the service's configuration),
    /// shared by the lines of `multipv`.
    #[serde(default)]
    #[schema(minimum = 1)]
    pub time_ms: Option<u32>,
    /// How many of the best moves to list in `lines`, best first, each with its score (1 to
    /// 10, default 1).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 10)]
    pub multipv: Option<u8>,
}

/// One of the best moves of a position, with its score and expected line of play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SuggestionLine {
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
    /// Positions searched for this line.
    pub nodes: u64,
    /// The expected line of play, as moves in `from-to` notation, starting with this move.
    pub principal_variation: Vec<String>,
}

/// The AI's answer about a position: the fields of a game's suggestion (without a version),
/// and the best moves of `multipv`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct AnalysisSuggestion {
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
    /// Positions searched, over every line.
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
    /// The best moves, best first (`multipv` of them, fewer when the seat has fewer moves):
    /// the first is the move above, each next one the best of the moves not listed before.
    pub lines: Vec<SuggestionLine>,
}

/// A move to check in a position: `path`, `from` with `to`, or `notation`, as when playing.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnalysisCheckRequest {
    /// The position in the notation.
    pub position: String,
    /// Rule options that add to the position's own (they may not contradict them).
    #[serde(default)]
    pub options: RuleOptions,
    /// The full path, start and end included.
    #[serde(default)]
    #[schema(min_items = 2)]
    pub path: Option<Vec<String>>,
    /// Start cell (with `to`).
    #[serde(default)]
    pub from: Option<String>,
    /// End cell (with `from`).
    #[serde(default)]
    pub to: Option<String>,
    /// The move in the notation.
    #[serde(default)]
    pub notation: Option<String>,
}

/// Whether a move is legal in a position, and where it leads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct AnalysisCheck {
    /// Whether the move is legal.
    pub legal: bool,
    /// When it is not: which rule it breaks (the `reason` of `illegal_move`).
    pub reason: Option<crate::problem::ProblemReason>,
    /// When it is not: the explanation.
    pub detail: Option<String>,
    /// The seat the move is for: the seat to move.
    pub seat: Option<u8>,
    /// When it is legal: the move as it would be played (the path given, or a shortest one),
    /// with the seats skipped after it.
    pub played: Option<MoveView>,
    /// When it is legal: the position after it, in the notation.
    pub position_after: Option<String>,
    /// When it is legal: the seat to move after it; absent when it ends the game.
    pub to_move_after: Option<u8>,
    /// When it is legal and ends the game: the result.
    pub result_after: Option<GameResult>,
}

/// The query of a board picture.
#[derive(Clone, Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct PictureQuery {
    /// The board as it stood after this ply (0: the start).
    pub ply: Option<u32>,
    /// Write each cell's name (`e5`) on the board (default false).
    pub names: Option<bool>,
    /// The length of the picture's longer side in pixels, 64 to 4096 (default 640).
    #[param(minimum = 64, maximum = 4096)]
    pub size: Option<u32>,
    /// The seat to draw at the bottom, as its player sees the board (default: the board
    /// unturned, seat 0's home at the bottom). The star turns by sixths of a turn, square
    /// boards by quarter turns; the text stays upright.
    pub bottom: Option<u8>,
}

/// Statistics of finished games: one group per board, player count and rule set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct StatsView {
    /// The groups, by board, player count and rules.
    pub groups: Vec<StatsGroup>,
}

/// The finished games of one board, player count and rule set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct StatsGroup {
    /// The board.
    pub board: BoardKind,
    /// Number of players.
    pub players: u8,
    /// The rule options as the position notation writes them (`-`: the defaults).
    pub rules: String,
    /// Games finished.
    pub games_finished: u64,
    /// Games won by the seat that moved first, second, ... in turn order (index 0: the first
    /// mover), whoever the seats were.
    pub wins_by_turn_order: Vec<u64>,
    /// Games whose first place was shared (play-on off, several finishing at once).
    pub shared_wins: u64,
    /// Draws by reason.
    pub draws: Vec<DrawCount>,
    /// AI seats in games with at least one human seat, by level: games and wins.
    pub ai_levels: Vec<AiLevelStats>,
    /// Mean game length in plies.
    pub average_plies: f64,
    /// Median game length in plies.
    pub median_plies: u32,
}

/// Draws of one reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct DrawCount {
    /// Why the games were drawn.
    pub reason: DrawReason,
    /// How many.
    pub games: u64,
}

/// The AI at one level against humans.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct AiLevelStats {
    /// The level.
    pub level: u8,
    /// Games an AI seat of this level played with humans at the table.
    pub games: u64,
    /// Of those, the games it won.
    pub wins: u64,
}

/// The record of a name that joined games through invitations. Names are not accounts:
/// anyone may join under any name, and every game played under it counts here.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PlayerStats {
    /// The name.
    pub name: String,
    /// Finished games played under it.
    pub games: u64,
    /// Of those, the games won.
    pub wins: u64,
    /// Games by place reached (1 for first).
    pub places: Vec<PlaceCount>,
}

/// Games that ended at one place.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PlaceCount {
    /// The place.
    pub place: u8,
    /// How many games.
    pub games: u64,
}

/// A player name in a path.
#[derive(Clone, Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct PlayerPath {
    /// The name, as joined (1 to 64 characters).
    #[param(
        min_length = 1,
        max_length = 64,
        pattern = r"^[^\u0000-\u001F\u007F-\u009F]*[^\s\u0000-\u001F\u007F-\u009F][^\u0000-\u001F\u007F-\u009F]*$"
    )]
    pub name: String,
}
