//! Text forms: moves (`a1-c3-e5`) and whole positions (a FEN-like line).
//!
//! # Cells
//! Square boards name cells like chess: a file letter from `a` (left) and a rank number from 1
//! (bottom), so `a1` is the bottom-left corner and `p16` the top-right one of 16 x 16. On the
//! star, drawn point-up, rows are lettered from the bottom tip (`a`) to the top tip (`q` on the
//! standard board) and cells are numbered from 1, left to right, within their row: `a1` is the S
//! tip, `q1` the N tip, `e1`..`e13` the widest row below the centre, `i5` the centre.
//!
//! # Moves
//! Cell names joined by `-`. Two cells are a start and an end (`a1-c3`): the move is accepted
//! when some legal step or chain leads there. Three or more cells are a full jump path, checked
//! hop by hop (`a1-c3-e5`).
//!
//! # Positions
//! Six fields separated by single spaces:
//! `BOARD PLAYERS OPTIONS PLACEMENT TO_MOVE SEATS`, e.g.
//! `star 2 - a1,b1,b2,c1,c2,c3,d1,d2,d3,d4/q1,p1,p2,o1,o2,o3,n1,n2,n3,n4 1 0,0`
//! - `BOARD`: `star`, `square16`, `square10` or `square8`;
//! - `PLAYERS`: the player count;
//! - `OPTIONS`: `-`, or the options that differ from the defaults as `key=value` pairs joined by
//!   `,` (keys as in [`RuleOptions`], flags as 1/0);
//! - `PLACEMENT`: one list of cells per army in army order, joined by `/`; `-` for an empty army;
//! - `TO_MOVE`: the player to move, by its player number;
//! - `SEATS`: per player, in turn order, its move count, followed by `f` when it has finished
//!   or `x` when it is out of the game (lost by the leave-home rule, or resigned), joined by `,`.
//!
//! # Seats and players
//! A [`Seat`](crate::Seat) is numbered from 0 in turn order: that is the number programs use
//! (`Seat::index`, and the `seat` fields of the service's JSON). Texts written for people count
//! *players* from 1 instead: player `n` is seat `n - 1`. The position's `TO_MOVE` field, its
//! error messages and the game service's text export are such texts.

use crate::bitboard::Bitboard;
use crate::board::{Board, BoardKind, Cell};
use crate::options::RuleOptions;
use crate::position::Position;
use crate::variant::{GameSetup, SetupError, Variant, MAX_ARMIES, MAX_SEATS};

/// A move's text that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveTextError {
    /// The text is empty.
    #[error("the move text is empty")]
    Empty,
    /// A move needs at least two cells.
    #[error("a move needs at least two cells joined by '-', got '{0}'")]
    OneCell(String),
    /// A part is not a cell of the board.
    #[error("part {part} of the move, '{text}', is not a cell of this board")]
    BadCell {
        /// The part's number, 1 for the first cell.
        part: usize,
        /// The text of that part.
        text: String,
    },
}

/// Reads a move's text (`a1-c3` or `a1-c3-e5`) into its cells.
///
/// # Errors
/// [`MoveTextError`] saying which part is wrong.
///
/// ```
/// use halma_rules::{notation, Board, BoardKind};
/// let board = Board::get(BoardKind::Square8, 0)?;
/// let cells = notation::parse_move(board, "h1-g2")?;
/// assert_eq!(cells.len(), 2);
/// assert!(notation::parse_move(board, "h1-z9").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_move(board: &Board, text: &str) -> Result<Vec<Cell>, MoveTextError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(MoveTextError::Empty);
    }
    let cells = text
        .split('-')
        .enumerate()
        .map(|(i, part)| {
            board
                .parse_cell(part.trim())
                .map_err(|_| MoveTextError::BadCell {
                    part: i + 1,
                    text: part.to_owned(),
                })
        })
        .collect::<Result<Vec<_>, _>>()?;
    if cells.len() < 2 {
        return Err(MoveTextError::OneCell(text.to_owned()));
    }
    Ok(cells)
}

/// Writes cells as a move's text (`a1-c3-e5`).
#[must_use]
pub fn format_path(board: &Board, cells: &[Cell]) -> String {
    cells
        .iter()
        .map(|&c| board.name(c))
        .collect::<Vec<_>>()
        .join("-")
}

/// A position's text that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionTextError {
    /// The wrong number of fields.
    #[error("a position has 6 fields separated by spaces (board, players, options, placement, to-move, seats); found {0}")]
    Fields(usize),
    /// A field could not be read.
    #[error("field {field} ({name}): {message}")]
    Field {
        /// The field's number, 1 for the first.
        field: usize,
        /// The field's name.
        name: &'static str,
        /// What is wrong.
        message: String,
    },
    /// The setup in the first three fields cannot be played.
    #[error("the setup cannot be played: {0}")]
    Setup(#[from] SetupError),
}

fn field_err(field: usize, name: &'static str, message: impl Into<String>) -> PositionTextError {
    PositionTextError::Field {
        field,
        name,
        message: message.into(),
    }
}

/// Writes a position as text (see the module documentation for the form).
#[must_use]
pub fn format_position(variant: &Variant, pos: &Position) -> String {
    let setup = variant.setup();
    let options = setup.options.to_text();
    let board = variant.board();
    let placement = (0..variant.armies().len())
        .map(|a| {
            let cells: Vec<&str> = pos.army(a).iter().map(|c| board.name(Cell(c))).collect();
            if cells.is_empty() {
                "-".to_owned()
            } else {
                cells.join(",")
            }
        })
        .collect::<Vec<_>>()
        .join("/");
    let seats = variant
        .seats()
        .map(|s| {
            let suffix = if pos.is_finished(s) {
                "f"
            } else if pos.is_eliminated(s) {
                "x"
            } else {
                ""
            };
            format!("{}{suffix}", pos.moves_made(s))
        })
        .collect::<Vec<_>>()
        .join(",");
    format!(
        "{} {} {options} {placement} {} {seats}",
        setup.board.name(),
        setup.players,
        pos.to_move().index() + 1
    )
}

/// Reads a position's text into its setup and position.
///
/// # Errors
/// [`PositionTextError`] naming the field and what is wrong with it.
///
/// ```
/// use halma_rules::notation;
/// let (variant, pos) = notation::parse_position("square8 2 - h1,g1/a8 2 3,2")?;
/// assert_eq!(pos.to_move().index(), 1);
/// assert_eq!(notation::format_position(&variant, &pos), "square8 2 - g1,h1/a8 2 3,2");
/// assert!(notation::parse_position("square8 2 - h1,h1/a8 1 0,0").is_err());
/// # Ok::<(), halma_rules::notation::PositionTextError>(())
/// ```
pub fn parse_position(text: &str) -> Result<(Variant, Position), PositionTextError> {
    let setup = parse_setup(text)?;
    let variant = Variant::new(&setup)?;
    let pos = parse_placement(&variant, text)?;
    Ok((variant, pos))
}

/// Reads the setup of a position's text: its first three fields (board, players, options),
/// without checking that the setup can be played (see [`Variant::new`]), so that a caller can
/// add options of its own first.
///
/// # Errors
/// [`PositionTextError`] naming the field and what is wrong with it.
///
/// ```
/// use halma_rules::{notation, BoardKind};
/// let setup = notation::parse_setup("star 2 fifteen_pieces=1 - 1 0,0")?;
/// assert_eq!((setup.board, setup.players), (BoardKind::Star, 2));
/// assert_eq!(setup.options.fifteen_pieces, Some(true));
/// # Ok::<(), halma_rules::notation::PositionTextError>(())
/// ```
pub fn parse_setup(text: &str) -> Result<GameSetup, PositionTextError> {
    let fields = split_fields(text)?;
    let board = BoardKind::ALL
        .into_iter()
        .find(|b| b.name() == fields[0])
        .ok_or_else(|| {
            field_err(
                1,
                "board",
                format!(
                    "'{}' is not a board (star, square16, square10, square8)",
                    fields[0]
                ),
            )
        })?;
    let players: u8 = fields[1].parse().map_err(|_| {
        field_err(
            2,
            "players",
            format!("'{}' is not a player count", fields[1]),
        )
    })?;
    let mut options = RuleOptions::default();
    if fields[2] != "-" {
        for pair in fields[2].split(',') {
            let (k, v) = pair
                .split_once('=')
                .ok_or_else(|| field_err(3, "options", format!("'{pair}' is not key=value")))?;
            options
                .set_pair(k, v)
                .map_err(|m| field_err(3, "options", m))?;
        }
    }
    Ok(GameSetup {
        board,
        players,
        options,
    })
}

/// Reads the placement, the player to move and the seats (fields 4 to 6) of a position's text
/// for `variant`, whose board and player count must be those of the text; its options field
/// is not compared (the caller chose the variant's options, e.g. the text's with more added).
///
/// # Errors
/// [`PositionTextError`] naming the field and what is wrong with it.
pub fn parse_placement(variant: &Variant, text: &str) -> Result<Position, PositionTextError> {
    let fields = split_fields(text)?;
    let setup = variant.setup();
    if fields[0] != setup.board.name() {
        return Err(field_err(
            1,
            "board",
            format!("'{}' is not the {} board", fields[0], setup.board.name()),
        ));
    }
    if fields[1] != setup.players.to_string() {
        return Err(field_err(
            2,
            "players",
            format!("'{}' is not {} players", fields[1], setup.players),
        ));
    }
    parse_fields(variant, &fields)
}

fn split_fields(text: &str) -> Result<Vec<&str>, PositionTextError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() == 6 {
        Ok(fields)
    } else {
        Err(PositionTextError::Fields(fields.len()))
    }
}

/// Reads a position's text for a variant already at hand; the setup in the text must be that
/// variant's.
///
/// # Errors
/// [`PositionTextError`] naming the field and what is wrong with it.
pub fn parse_position_with(variant: &Variant, text: &str) -> Result<Position, PositionTextError> {
    let fields = split_fields(text)?;
    let setup = variant.setup();
    let options = setup.options.to_text();
    if fields[0] != setup.board.name()
        || fields[1] != setup.players.to_string()
        || fields[2] != options
    {
        return Err(field_err(
            1,
            "board",
            "the position's setup is not the game's setup",
        ));
    }
    parse_fields(variant, &fields)
}

fn parse_fields(variant: &Variant, fields: &[&str]) -> Result<Position, PositionTextError> {
    let players = variant.players();
    let b = variant.board();
    let groups: Vec<&str> = fields[3].split('/').collect();
    if groups.len() != variant.armies().len() {
        return Err(field_err(
            4,
            "placement",
            format!(
                "{} armies given, this setup has {}{}",
                groups.len(),
                variant.armies().len(),
                crate::check::option_fitting(variant.setup(), |v| v.armies().len() == groups.len())
                    .map(|hint| format!("; {} armies need the option {hint}", groups.len()))
                    .unwrap_or_default()
            ),
        ));
    }
    let mut armies = [Bitboard::EMPTY; MAX_ARMIES];
    let mut all = Bitboard::EMPTY;
    for (i, g) in groups.iter().enumerate() {
        if *g == "-" {
            continue;
        }
        for name in g.split(',') {
            let c = b.parse_cell(name).map_err(|_| {
                field_err(
                    4,
                    "placement",
                    format!("army {}: '{name}' is not a cell of this board", i + 1),
                )
            })?;
            if all.has(c.index()) {
                return Err(field_err(
                    4,
                    "placement",
                    format!("army {}: {name} is occupied twice", i + 1),
                ));
            }
            all.set(c.index());
            armies[i].set(c.index());
        }
    }
    let to_move: usize = fields[4]
        .parse()
        .ok()
        .filter(|&s| (1..=usize::from(players)).contains(&s))
        .ok_or_else(|| {
            field_err(
                5,
                "to-move",
                format!("'{}' is not a player from 1 to {players}", fields[4]),
            )
        })?;
    let seat_fields: Vec<&str> = fields[5].split(',').collect();
    if seat_fields.len() != usize::from(players) {
        return Err(field_err(
            6,
            "seats",
            format!(
                "{} entries given, the game has {players} players",
                seat_fields.len()
            ),
        ));
    }
    let mut moves = [0u16; MAX_SEATS];
    let (mut finished, mut eliminated) = (0u8, 0u8);
    for (s, f) in seat_fields.iter().enumerate() {
        let (num, flag) = match f.strip_suffix('f') {
            Some(n) => (n, 'f'),
            None => match f.strip_suffix('x') {
                Some(n) => (n, 'x'),
                None => (*f, ' '),
            },
        };
        moves[s] = num.parse().map_err(|_| {
            field_err(
                6,
                "seats",
                format!("player {}: '{f}' is not a move count", s + 1),
            )
        })?;
        match flag {
            'f' => finished |= 1 << s,
            'x' => eliminated |= 1 << s,
            _ => {}
        }
    }
    Ok(Position::from_parts(
        b,
        armies,
        (to_move - 1) as u8,
        moves,
        finished,
        eliminated,
    ))
}
