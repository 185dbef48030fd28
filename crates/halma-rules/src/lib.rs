//! The rules of the Halma family: Chinese checkers (Sternhalma, trylma) on the star for 2, 3, 4
//! or 6 players, and square Halma on 16 x 16, 10 x 10 and 8 x 8 boards, with every option of the
//! project's rule book.
//!
//! No I/O, no async: boards ([`Board`]), validated setups ([`Variant`]), positions
//! ([`Position`]) with fast move generation, whole games with records and results ([`Game`]),
//! and the text notation ([`notation`]).
//!
//! ```
//! use std::sync::Arc;
//! use halma_rules::{notation, BoardKind, Game, GameSetup, MoveInput, RuleOptions, Variant};
//!
//! let variant = Arc::new(Variant::new(&GameSetup { board: BoardKind::Star, players: 2, options: RuleOptions::default() })?);
//! let seat = variant.seat(0).ok_or("no seat")?;
//! let mut game = Game::new(variant.clone(), seat);
//! assert_eq!(game.legal_moves().len(), 14);
//! let cells = notation::parse_move(variant.board(), "d1-e5")?;
//! game.play(&MoveInput::Path(cells))?;
//! assert_eq!(game.record().len(), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]

mod bitboard;
mod board;
mod catalogue;
mod check;
mod game;
mod movegen;
pub mod notation;
mod options;
mod path;
pub mod perft;
mod position;
mod rng;
mod variant;

pub use bitboard::{BitIter, Bitboard};
pub use board::{Board, BoardError, BoardKind, Camp, Cell, CellInfo, CellNameError, Corner};
pub use catalogue::{OptionDefault, OptionInfo, OptionValues};
pub use check::{OptionHint, PositionError};
pub use game::{
    DrawReason, Game, GameSnapshot, MoveInput, Outcome, Place, PlayedMove, ResignError,
    Resignation, SeenCount, SnapshotError, SnapshotMove, SnapshotResignation, Standing,
    RECENT_KEYS,
};
pub use options::{
    board_leave_home_moves, BackwardSteps, ForeignCorners, OptionError, Options, RuleOptions,
};
pub use path::{IllegalMove, LegalMove};
pub use position::{JumpLandings, Move, Position};
pub use rng::SplitMix64;
pub use variant::{Army, GameSetup, Seat, SetupError, Variant, MAX_ARMIES, MAX_SEATS};
