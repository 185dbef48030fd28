//! Rule options as a client asks for them ([`RuleOptions`]) and as they are in force for one
//! game ([`Options`]), with the defaults of the rule book.

use std::ops::RangeInclusive;

use crate::board::{Board, BoardKind};

/// Where a piece may go in corners (star) or camps (square) that are neither its home nor its
/// goal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = ForeignCornersRule))]
pub enum ForeignCorners {
    /// Pieces may pass through and stop there (the default).
    #[default]
    Allowed,
    /// Pieces may jump through but may not end a move there (star variant).
    PassOnly,
    /// Pieces may not enter them at all (4-player square variant).
    Forbidden,
}

impl ForeignCorners {
    /// Every value, the default first.
    pub const ALL: [ForeignCorners; 3] = [
        ForeignCorners::Allowed,
        ForeignCorners::PassOnly,
        ForeignCorners::Forbidden,
    ];

    /// The value's name in the text form and in serde's form (`pass_only`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            ForeignCorners::Allowed => "allowed",
            ForeignCorners::PassOnly => "pass_only",
            ForeignCorners::Forbidden => "forbidden",
        }
    }
}

/// Which steps count as backward and are not allowed (square variants). Jumps are never
/// restricted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = BackwardStepsRule))]
pub enum BackwardSteps {
    /// Steps in all directions (the default).
    #[default]
    Allowed,
    /// Not the one step straight back (diagonally towards the own corner).
    NoStraightBack,
    /// Not the three steps with a backward part (the diagonal towards the own corner and the
    /// two straight steps towards its edges).
    NoBackward,
}

impl BackwardSteps {
    /// Every value, the default first.
    pub const ALL: [BackwardSteps; 3] = [
        BackwardSteps::Allowed,
        BackwardSteps::NoStraightBack,
        BackwardSteps::NoBackward,
    ];

    /// The value's name in the text form and in serde's form (`no_straight_back`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            BackwardSteps::Allowed => "allowed",
            BackwardSteps::NoStraightBack => "no_straight_back",
            BackwardSteps::NoBackward => "no_backward",
        }
    }
}

/// The one value named `text` of `all`, or a message listing the names.
fn value_named<T: Copy>(
    all: &[T],
    name: fn(T) -> &'static str,
    key: &str,
    text: &str,
) -> Result<T, String> {
    all.iter()
        .copied()
        .find(|&v| name(v) == text)
        .ok_or_else(|| {
            let names: Vec<&str> = all.iter().map(|&v| name(v)).collect();
            format!("'{text}' is not a value for '{key}' ({})", names.join(", "))
        })
}

/// The rule options a game is created with. Every field is optional: an absent one takes the
/// rule book's default for the board and player count, and one that does not apply to the board
/// or player count is an error, never ignored. (`resolve` fills in the defaults; `catalogue`
/// lists every option with its values, boards and default.)
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct RuleOptions {
    /// Star: cells per side of each corner triangle: 4 (default, 121 cells, 10 pieces), 3 (73
    /// cells, 6 pieces), or 2 or 5.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub arm_size: Option<u8>,
    /// A piece in its goal area never leaves it, not even in the middle of a chain (default on).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub goal_lock: Option<bool>,
    /// A goal counts as filled when it has no empty cell and at least one of the owner's pieces,
    /// other players' pieces filling the rest as blockers (see `anti_blocking_grace`); default on
    /// for the star and 16 x 16, off where leave-home is on.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub anti_blocking: Option<bool>,
    /// The anti-blocking rule's grace period: another player's piece in a goal counts towards
    /// filling it only when its owner has finished, is out of the game, or has made at least
    /// this many own moves. Default: the board's leave-home number (40 on the star, 50 on
    /// 16 x 16 and 10 x 10, 30 on 8 x 8); 0 counts every piece at once (the rule without
    /// grace). Only with the anti-blocking rule on.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub anti_blocking_grace: Option<u16>,
    /// After the first player finishes, the others play on for the following places (default on).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub play_on: Option<bool>,
    /// Star with 4 or 6 players: partners in opposite corners win together (default off).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub teams: Option<bool>,
    /// Star, 2 players: the home corner plus the row of cells in front of it (15 pieces on the
    /// standard board; default off).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub fifteen_pieces: Option<bool>,
    /// Star: only the six cells nearest each tip (the short version; default off).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub six_pieces: Option<bool>,
    /// 16 x 16 with 2 players: camps of 13 cells (4, 4, 3, 2) instead of 19 (default off).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub small_camps: Option<bool>,
    /// Star, 2 players: colour sets per player, 1 (default), 2 or 3.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub colours_per_player: Option<u8>,
    /// Star: long symmetric jumps over a single distant piece (default off).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub long_jumps: Option<bool>,
    /// A player with a piece in their home area after their own N-th move loses (default on for
    /// 8 x 8 and 10 x 10).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub leave_home: Option<bool>,
    /// The N of `leave_home`: default 40 on the star, 30 on 8 x 8, 50 on 10 x 10 and 16 x 16.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub leave_home_moves: Option<u16>,
    /// Corners or camps that are neither home nor goal: allowed (default), pass-only, forbidden.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub foreign_corners: Option<ForeignCorners>,
    /// The same placement with the same player to move for the third time is a draw (default on
    /// for 2-player square games).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub repetition_draw: Option<bool>,
    /// Square: backward steps allowed (default), or without the straight-back step, or without
    /// the three backward steps.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub backward_steps: Option<BackwardSteps>,
    /// Square: steps only diagonally; jumps still use all eight directions (default off).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub diagonal_steps_only: Option<bool>,
}

/// The board's leave-home number: the move after which the leave-home rule takes out a player
/// still at home (40 on the star, 50 on 16 x 16 and 10 x 10, 30 on 8 x 8), and the default
/// grace period of the anti-blocking rule.
#[must_use]
pub const fn board_leave_home_moves(board: BoardKind) -> u16 {
    match board {
        BoardKind::Star => 40,
        BoardKind::Square8 => 30,
        BoardKind::Square10 | BoardKind::Square16 => 50,
    }
}

/// The options in force for one game, every default filled in (the fields are those of
/// `RuleOptions`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = RulesInForce))]
#[allow(clippy::struct_excessive_bools)] // each flag is one independent rule of the rule book
pub struct Options {
    /// The star's arm size, absent on square boards (where this field holds 0).
    #[cfg_attr(feature = "serde", serde(default, with = "arm_size_on_the_star"))]
    #[cfg_attr(feature = "utoipa", schema(value_type = Option<u8>))]
    pub arm_size: u8,
    /// The goal lock (`goal_lock`).
    pub goal_lock: bool,
    /// The anti-blocking rule (`anti_blocking`).
    pub anti_blocking: bool,
    /// The anti-blocking rule's grace period in own moves of a piece's owner
    /// (`anti_blocking_grace`): 0 without grace, and when the anti-blocking rule is off.
    pub anti_blocking_grace: u16,
    /// Play on for places (`play_on`).
    pub play_on: bool,
    /// Teams (`teams`).
    pub teams: bool,
    /// Fifteen pieces (`fifteen_pieces`).
    pub fifteen_pieces: bool,
    /// Six pieces (`six_pieces`).
    pub six_pieces: bool,
    /// 13-cell camps on 16 x 16 with 2 players (`small_camps`).
    pub small_camps: bool,
    /// Colour sets per player (`colours_per_player`).
    pub colours_per_player: u8,
    /// Long jumps (`long_jumps`).
    pub long_jumps: bool,
    /// The leave-home move limit, when that rule is on (`leave_home`, `leave_home_moves`).
    pub leave_home_moves: Option<u16>,
    /// Foreign corners (`foreign_corners`).
    pub foreign_corners: ForeignCorners,
    /// Draw by three-fold repetition (`repetition_draw`).
    pub repetition_draw: bool,
    /// Backward steps (`backward_steps`).
    pub backward_steps: BackwardSteps,
    /// Diagonal steps only (`diagonal_steps_only`).
    pub diagonal_steps_only: bool,
}

/// The serde form of [`Options::arm_size`]: the arm size on the star, absent (`null`) on square
/// boards.
#[cfg(feature = "serde")]
mod arm_size_on_the_star {
    pub(super) fn serialize<S: serde::Serializer>(arm: &u8, to: S) -> Result<S::Ok, S::Error> {
        serde::Serialize::serialize(&(*arm != 0).then_some(*arm), to)
    }

    pub(super) fn deserialize<'de, D: serde::Deserializer<'de>>(from: D) -> Result<u8, D::Error> {
        Ok(<Option<u8> as serde::Deserialize>::deserialize(from)?.unwrap_or(0))
    }
}

/// Why a set of options does not fit a board or player count.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// The option exists, but not for this board.
    #[error("option '{option}' does not apply to the {board} board")]
    NotForBoard {
        /// The option's name.
        option: &'static str,
        /// The board's name.
        board: &'static str,
    },
    /// The option exists, but not for this number of players.
    #[error("option '{option}' needs {needs}, but the game has {players} players")]
    NotForPlayers {
        /// The option's name.
        option: &'static str,
        /// The player counts the option is for.
        needs: &'static str,
        /// The game's player count.
        players: u8,
    },
    /// Two options exclude each other.
    #[error("options '{0}' and '{1}' cannot be combined")]
    Conflict(&'static str, &'static str),
    /// A value out of range.
    #[error("option '{option}': {message}")]
    Value {
        /// The option's name.
        option: &'static str,
        /// What is wrong with the value.
        message: String,
    },
}

impl RuleOptions {
    /// The colour sets a player may own on the star (with 2 players).
    pub const COLOURS_PER_PLAYER: RangeInclusive<u8> = 1..=3;

    /// Fills in the defaults for `board` and `players` and checks that every option given
    /// applies.
    ///
    /// # Errors
    /// [`OptionError`] naming the first option that does not fit.
    pub fn resolve(&self, board: BoardKind, players: u8) -> Result<Options, OptionError> {
        let star = board == BoardKind::Star;
        let bname = board.name();
        let not_for_board = |option| {
            Err(OptionError::NotForBoard {
                option,
                board: bname,
            })
        };
        if !star {
            if self.arm_size.is_some() {
                return not_for_board("arm_size");
            }
            for (name, on) in [
                ("teams", self.teams),
                ("fifteen_pieces", self.fifteen_pieces),
                ("six_pieces", self.six_pieces),
                ("long_jumps", self.long_jumps),
            ] {
                if on == Some(true) {
                    return not_for_board(name);
                }
            }
            if self.colours_per_player.is_some_and(|c| c != 1) {
                return not_for_board("colours_per_player");
            }
        } else {
            if self.small_camps == Some(true) {
                return not_for_board("small_camps");
            }
            if self.diagonal_steps_only == Some(true) {
                return not_for_board("diagonal_steps_only");
            }
            if self
                .backward_steps
                .is_some_and(|b| b != BackwardSteps::Allowed)
            {
                return not_for_board("backward_steps");
            }
        }
        if self.small_camps == Some(true) && board != BoardKind::Square16 {
            return not_for_board("small_camps");
        }
        let arm_size = if star {
            self.arm_size.unwrap_or(Board::STANDARD_ARM_SIZE)
        } else {
            0
        };
        if star && !Board::STAR_ARM_SIZES.contains(&arm_size) {
            return Err(OptionError::Value {
                option: "arm_size",
                message: format!("{arm_size} is not offered; use 2, 3, 4 (standard) or 5"),
            });
        }
        let teams = self.teams.unwrap_or(false);
        if teams && players != 4 && players != 6 {
            return Err(OptionError::NotForPlayers {
                option: "teams",
                needs: "4 or 6 players",
                players,
            });
        }
        let fifteen = self.fifteen_pieces.unwrap_or(false);
        if fifteen && players != 2 {
            return Err(OptionError::NotForPlayers {
                option: "fifteen_pieces",
                needs: "2 players",
                players,
            });
        }
        let six = self.six_pieces.unwrap_or(false);
        if six && fifteen {
            return Err(OptionError::Conflict("six_pieces", "fifteen_pieces"));
        }
        if six && arm_size < 3 {
            return Err(OptionError::Value {
                option: "six_pieces",
                message: "needs an arm size of at least 3".into(),
            });
        }
        let small = self.small_camps.unwrap_or(false);
        if small && players != 2 {
            return Err(OptionError::NotForPlayers {
                option: "small_camps",
                needs: "2 players",
                players,
            });
        }
        let colours = self.colours_per_player.unwrap_or(1);
        if !RuleOptions::COLOURS_PER_PLAYER.contains(&colours) {
            return Err(OptionError::Value {
                option: "colours_per_player",
                message: format!("{colours} colours per player; use 1, 2 or 3"),
            });
        }
        if colours > 1 && players != 2 {
            return Err(OptionError::NotForPlayers {
                option: "colours_per_player",
                needs: "2 players",
                players,
            });
        }
        let default_leave = match board {
            BoardKind::Square8 | BoardKind::Square10 => true,
            BoardKind::Star | BoardKind::Square16 => false,
        };
        let leave_home = self
            .leave_home
            .unwrap_or(default_leave || self.leave_home_moves.is_some());
        let leave_home_moves = if leave_home {
            let n = self
                .leave_home_moves
                .unwrap_or_else(|| board_leave_home_moves(board));
            if n == 0 {
                return Err(OptionError::Value {
                    option: "leave_home_moves",
                    message: "must be at least 1".into(),
                });
            }
            Some(n)
        } else {
            if self.leave_home_moves.is_some() {
                return Err(OptionError::Conflict(
                    "leave_home_moves",
                    "leave_home = false",
                ));
            }
            None
        };
        let foreign = self.foreign_corners.unwrap_or_default();
        if !star && foreign != ForeignCorners::Allowed && players != 4 {
            return Err(OptionError::NotForPlayers {
                option: "foreign_corners",
                needs: "4 players on a square board (2-player square games have no foreign camps)",
                players,
            });
        }
        let anti_blocking = self.anti_blocking.unwrap_or(!leave_home);
        let anti_blocking_grace = match (anti_blocking, self.anti_blocking_grace) {
            (true, grace) => grace.unwrap_or_else(|| board_leave_home_moves(board)),
            (false, None) => 0,
            (false, Some(_)) => {
                return Err(OptionError::Conflict(
                    "anti_blocking_grace",
                    "anti_blocking = false",
                ))
            }
        };
        Ok(Options {
            arm_size,
            goal_lock: self.goal_lock.unwrap_or(true),
            anti_blocking,
            anti_blocking_grace,
            play_on: self.play_on.unwrap_or(true),
            teams,
            fifteen_pieces: fifteen,
            six_pieces: six,
            small_camps: small,
            colours_per_player: colours,
            long_jumps: self.long_jumps.unwrap_or(false),
            leave_home_moves,
            foreign_corners: foreign,
            repetition_draw: self.repetition_draw.unwrap_or(!star && players == 2),
            backward_steps: self.backward_steps.unwrap_or_default(),
            diagonal_steps_only: self.diagonal_steps_only.unwrap_or(false),
        })
    }

    /// The options that are set, as `key=value` pairs (the notation's options field).
    #[must_use]
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        let b = |v: bool| if v { "1".to_owned() } else { "0".to_owned() };
        if let Some(v) = self.arm_size {
            out.push(("arm_size", v.to_string()));
        }
        for (k, v) in [
            ("goal_lock", self.goal_lock),
            ("anti_blocking", self.anti_blocking),
            ("play_on", self.play_on),
            ("teams", self.teams),
            ("fifteen_pieces", self.fifteen_pieces),
            ("six_pieces", self.six_pieces),
            ("small_camps", self.small_camps),
        ] {
            if let Some(v) = v {
                out.push((k, b(v)));
            }
        }
        if let Some(v) = self.anti_blocking_grace {
            out.push(("anti_blocking_grace", v.to_string()));
        }
        if let Some(v) = self.colours_per_player {
            out.push(("colours_per_player", v.to_string()));
        }
        if let Some(v) = self.long_jumps {
            out.push(("long_jumps", b(v)));
        }
        if let Some(v) = self.leave_home {
            out.push(("leave_home", b(v)));
        }
        if let Some(v) = self.leave_home_moves {
            out.push(("leave_home_moves", v.to_string()));
        }
        if let Some(v) = self.foreign_corners {
            out.push(("foreign_corners", v.name().to_owned()));
        }
        if let Some(v) = self.repetition_draw {
            out.push(("repetition_draw", b(v)));
        }
        if let Some(v) = self.backward_steps {
            out.push(("backward_steps", v.name().to_owned()));
        }
        if let Some(v) = self.diagonal_steps_only {
            out.push(("diagonal_steps_only", b(v)));
        }
        out
    }

    /// The options that are set, in the notation's options field: `key=value` pairs joined by
    /// `,`, or `-` when none is set.
    #[must_use]
    pub fn to_text(&self) -> String {
        let pairs = self.to_pairs();
        if pairs.is_empty() {
            return "-".to_owned();
        }
        pairs
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// Sets one option from its `key=value` text form.
    ///
    /// # Errors
    /// A message naming the key or value that is not understood.
    pub fn set_pair(&mut self, key: &str, value: &str) -> Result<(), String> {
        let flag = |v: &str| match v {
            "1" | "true" | "on" => Ok(true),
            "0" | "false" | "off" => Ok(false),
            _ => Err(format!(
                "'{v}' is not a flag value for '{key}' (use 1 or 0)"
            )),
        };
        let num = |v: &str| {
            v.parse::<u16>()
                .map_err(|_| format!("'{v}' is not a number for '{key}'"))
        };
        let small = |v: &str| {
            v.parse::<u8>()
                .map_err(|_| format!("'{v}' is not a number for '{key}'"))
        };
        match key {
            "arm_size" => self.arm_size = Some(small(value)?),
            "goal_lock" => self.goal_lock = Some(flag(value)?),
            "anti_blocking" => self.anti_blocking = Some(flag(value)?),
            "anti_blocking_grace" => self.anti_blocking_grace = Some(num(value)?),
            "play_on" => self.play_on = Some(flag(value)?),
            "teams" => self.teams = Some(flag(value)?),
            "fifteen_pieces" => self.fifteen_pieces = Some(flag(value)?),
            "six_pieces" => self.six_pieces = Some(flag(value)?),
            "small_camps" => self.small_camps = Some(flag(value)?),
            "colours_per_player" => self.colours_per_player = Some(small(value)?),
            "long_jumps" => self.long_jumps = Some(flag(value)?),
            "leave_home" => self.leave_home = Some(flag(value)?),
            "leave_home_moves" => self.leave_home_moves = Some(num(value)?),
            "foreign_corners" => {
                let v = value_named(&ForeignCorners::ALL, ForeignCorners::name, key, value)?;
                self.foreign_corners = Some(v);
            }
            "repetition_draw" => self.repetition_draw = Some(flag(value)?),
            "backward_steps" => {
                let v = value_named(&BackwardSteps::ALL, BackwardSteps::name, key, value)?;
                self.backward_steps = Some(v);
            }
            "diagonal_steps_only" => self.diagonal_steps_only = Some(flag(value)?),
            _ => return Err(format!("unknown option '{key}'")),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_the_rule_book() {
        let star = RuleOptions::default()
            .resolve(BoardKind::Star, 2)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(star.anti_blocking && star.goal_lock && star.play_on && !star.repetition_draw);
        assert_eq!(star.leave_home_moves, None);
        assert_eq!(star.arm_size, 4);
        let sq8 = RuleOptions::default()
            .resolve(BoardKind::Square8, 2)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(sq8.leave_home_moves, Some(30));
        assert!(!sq8.anti_blocking && sq8.repetition_draw);
        let sq10 = RuleOptions::default()
            .resolve(BoardKind::Square10, 2)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(sq10.leave_home_moves, Some(50));
        let sq16 = RuleOptions::default()
            .resolve(BoardKind::Square16, 4)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(sq16.anti_blocking && !sq16.repetition_draw && sq16.leave_home_moves.is_none());
        let leave = RuleOptions {
            leave_home: Some(true),
            ..RuleOptions::default()
        };
        let star_leave = leave
            .resolve(BoardKind::Star, 3)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(star_leave.leave_home_moves, Some(40));
        assert!(!star_leave.anti_blocking);
    }

    #[cfg(feature = "serde")]
    #[test]
    fn the_serde_form_has_an_arm_size_on_the_star_only() {
        for (board, arm) in [
            (BoardKind::Star, serde_json::json!(4)),
            (BoardKind::Square8, serde_json::Value::Null),
        ] {
            let options = RuleOptions::default()
                .resolve(board, 2)
                .unwrap_or_else(|e| panic!("{e}"));
            let value = serde_json::to_value(options).unwrap_or_default();
            assert_eq!(value["arm_size"], arm, "{board:?}");
            let back: Option<Options> = serde_json::from_value(value).ok();
            assert_eq!(back, Some(options), "{board:?}");
        }
    }

    #[test]
    fn the_grace_period_defaults_to_the_leave_home_number() {
        for (board, players, grace) in [
            (BoardKind::Star, 6, 40),
            (BoardKind::Square16, 4, 50),
            (BoardKind::Square10, 2, 50),
            (BoardKind::Square8, 2, 30),
        ] {
            let on = RuleOptions {
                anti_blocking: Some(true),
                ..RuleOptions::default()
            };
            let o = on.resolve(board, players).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(o.anti_blocking_grace, grace, "{board:?}");
        }
        // Off with the rule, and an error when set without it.
        let sq8 = RuleOptions::default()
            .resolve(BoardKind::Square8, 2)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(sq8.anti_blocking_grace, 0);
        let o = RuleOptions {
            anti_blocking_grace: Some(5),
            ..RuleOptions::default()
        };
        assert_eq!(
            o.resolve(BoardKind::Square8, 2),
            Err(OptionError::Conflict(
                "anti_blocking_grace",
                "anti_blocking = false"
            ))
        );
        let zero = RuleOptions {
            anti_blocking_grace: Some(0),
            ..RuleOptions::default()
        };
        let star = zero
            .resolve(BoardKind::Star, 2)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(star.anti_blocking);
        assert_eq!(star.anti_blocking_grace, 0);
    }

    #[test]
    fn options_that_do_not_apply_are_rejected() {
        let o = RuleOptions {
            long_jumps: Some(true),
            ..RuleOptions::default()
        };
        assert!(matches!(
            o.resolve(BoardKind::Square16, 2),
            Err(OptionError::NotForBoard { .. })
        ));
        let o = RuleOptions {
            diagonal_steps_only: Some(true),
            ..RuleOptions::default()
        };
        assert!(matches!(
            o.resolve(BoardKind::Star, 2),
            Err(OptionError::NotForBoard { .. })
        ));
        let o = RuleOptions {
            teams: Some(true),
            ..RuleOptions::default()
        };
        assert!(matches!(
            o.resolve(BoardKind::Star, 3),
            Err(OptionError::NotForPlayers { .. })
        ));
        let o = RuleOptions {
            fifteen_pieces: Some(true),
            six_pieces: Some(true),
            ..RuleOptions::default()
        };
        assert!(matches!(
            o.resolve(BoardKind::Star, 2),
            Err(OptionError::Conflict(..))
        ));
        let o = RuleOptions {
            foreign_corners: Some(ForeignCorners::Forbidden),
            ..RuleOptions::default()
        };
        assert!(o.resolve(BoardKind::Square16, 2).is_err());
        assert!(o.resolve(BoardKind::Square16, 4).is_ok());
        let o = RuleOptions {
            colours_per_player: Some(4),
            ..RuleOptions::default()
        };
        assert!(o.resolve(BoardKind::Star, 2).is_err());
        let o = RuleOptions {
            arm_size: Some(3),
            ..RuleOptions::default()
        };
        assert!(o.resolve(BoardKind::Square8, 2).is_err());
    }

    #[test]
    fn pairs_round_trip() {
        let o = RuleOptions {
            arm_size: Some(3),
            long_jumps: Some(true),
            foreign_corners: Some(ForeignCorners::PassOnly),
            backward_steps: Some(BackwardSteps::NoBackward),
            leave_home_moves: Some(12),
            anti_blocking_grace: Some(7),
            ..RuleOptions::default()
        };
        let mut back = RuleOptions::default();
        for (k, v) in o.to_pairs() {
            back.set_pair(k, &v).unwrap_or_else(|e| panic!("{e}"));
        }
        assert_eq!(back, o);
        assert!(back.set_pair("nonsense", "1").is_err());
        assert!(back.set_pair("teams", "maybe").is_err());
    }
}
