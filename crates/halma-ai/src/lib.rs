//! The hosted AI of the Halma service: evaluation and search over [`halma_rules`].
//!
//! The pieces are separate and small: an [`Evaluator`] scores positions (the
//! [`RaceEvaluator`] measures every piece's distance to its goal on the board's own geometry),
//! and a [`Strategy`] chooses a move: [`Pvs`] for games of two sides, [`Brs`] (Best-Reply
//! Search) for three or more, [`Greedy`] one-ply players for the beginner levels, and the plain
//! searches the optimised ones are tested against ([`Reference`] negamax for two sides,
//! [`MultiReference`] for more). [`suggest`] puts them together
//! behind playing levels and a time budget. No I/O anywhere.
//!
//! ```
//! use std::time::Duration;
//! use halma_ai::{suggest, SearchLimits};
//! use halma_rules::{BoardKind, GameSetup, Position, RuleOptions, Variant};
//!
//! let variant = Variant::new(&GameSetup { board: BoardKind::Square8, players: 2, options: RuleOptions::default() })?;
//! let pos = Position::start(&variant, variant.seat(0).ok_or("no seat")?);
//! let s = suggest(&variant, &pos, &[pos.hash()], &SearchLimits::new(10, Duration::from_millis(50))).ok_or("no move")?;
//! assert!(variant.is_legal(&pos, s.mv));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]

pub mod brs;
pub mod ensemble;
pub mod eval;
pub mod greedy;
mod level;
pub mod mcts;
mod mistakes;
pub mod opponents;
pub mod pvs;
pub mod reference;
pub mod search;
pub mod sides;
mod tt;

pub use brs::{Brs, MultiMode, ReplyModel};
pub use ensemble::Ensemble;
pub use eval::{Evaluator, RaceEvaluator};
pub use greedy::Greedy;
pub use level::{
    suggest, suggest_lines, suggest_lines_with, suggest_with, SearchLimits, Suggestion, MAX_LEVEL,
};
pub use mcts::{Mcts, MctsOptions};
pub use opponents::Opponents;
pub use pvs::{Pvs, PvsOptions};
pub use reference::{MultiReference, Reference};
pub use search::{Budget, ExcludeRootMoves, SearchResult, Strategy};
pub use sides::Sides;
