//! Every rule option as a setup form offers it ([`RuleOptions::catalogue`]): its key, values,
//! boards, default and meaning, next to the rules that give them.

use std::ops::RangeInclusive;

use crate::board::{Board, BoardKind};
use crate::options::{BackwardSteps, ForeignCorners, RuleOptions};

/// The values a rule option takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValues {
    /// On or off (`true` or `false`).
    Flag,
    /// A whole number in the range.
    Number(RangeInclusive<u16>),
    /// One of the names.
    Choice(Vec<&'static str>),
}

/// A rule option's default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionDefault {
    /// One value on every board the option applies to and for every player count, in the text
    /// form [`RuleOptions::set_pair`] reads (`true`, `4`, `allowed`).
    Value(&'static str),
    /// A default that depends on the board, the player count or other options, in words.
    Varies(&'static str),
}

impl OptionDefault {
    /// The default as text: the value, or the words.
    #[must_use]
    pub const fn text(self) -> &'static str {
        match self {
            OptionDefault::Value(text) | OptionDefault::Varies(text) => text,
        }
    }
}

/// One rule option: a field of [`RuleOptions`] with what a setup form needs to offer it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionInfo {
    /// The option's key: the field of [`RuleOptions`], and its key in the text form.
    pub name: &'static str,
    /// The values it takes.
    pub values: OptionValues,
    /// The boards it applies to.
    pub boards: &'static [BoardKind],
    /// Its default.
    pub default: OptionDefault,
    /// What it does.
    pub description: &'static str,
}

const STAR: &[BoardKind] = &[BoardKind::Star];
const SQUARE: &[BoardKind] = &[BoardKind::Square16, BoardKind::Square10, BoardKind::Square8];
const EVERY: &[BoardKind] = &BoardKind::ALL;

fn number(range: RangeInclusive<u8>) -> OptionValues {
    OptionValues::Number(u16::from(*range.start())..=u16::from(*range.end()))
}

impl RuleOptions {
    /// Every rule option, in the order a setup form lists them.
    ///
    /// ```
    /// use halma_rules::{BoardKind, OptionDefault, RuleOptions};
    /// let options = RuleOptions::catalogue();
    /// let arm = options.iter().find(|o| o.name == "arm_size").ok_or("no arm_size")?;
    /// assert_eq!(arm.boards, &[BoardKind::Star]);
    /// assert_eq!(arm.default, OptionDefault::Value("4"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn catalogue() -> Vec<OptionInfo> {
        use OptionDefault::{Value, Varies};
        use OptionValues::{Choice, Flag};
        let info = |name, values, boards, default, description| OptionInfo {
            name,
            values,
            boards,
            default,
            description,
        };
        vec![
            info("arm_size", number(Board::STAR_ARM_SIZES), STAR, Value("4"), "Cells per side of each corner triangle: 4 gives the standard 121-cell board with 10 pieces each, 3 gives 73 cells with 6 pieces."),
            info("goal_lock", Flag, EVERY, Value("true"), "A piece in its goal area never leaves it again, not even in the middle of a jump chain."),
            info("anti_blocking", Flag, EVERY, Varies("true, except where leave-home is on (8 x 8 and 10 x 10 by default)"), "A goal counts as filled when it has no empty cell and at least one of the owner's pieces, other players' pieces filling the rest as blockers (see anti_blocking_grace); off: only the owner's own pieces fill it."),
            info("anti_blocking_grace", OptionValues::Number(0..=u16::MAX), EVERY, Varies("the board's leave-home number: 40 on the star, 30 on 8 x 8, 50 on 10 x 10 and 16 x 16"), "With the anti-blocking rule: another player's piece in a goal counts towards filling it only once its owner has finished, is out of the game, or has made this many own moves; 0 counts every piece at once."),
            info("play_on", Flag, EVERY, Value("true"), "After the first player finishes, the others play on for the following places."),
            info("teams", Flag, STAR, Value("false"), "With 4 or 6 players, partners in opposite corners win together when both goals are filled."),
            info("fifteen_pieces", Flag, STAR, Value("false"), "2 players: the home corner plus the row of cells in front of it (15 pieces on the standard board)."),
            info("six_pieces", Flag, STAR, Value("false"), "Only the six cells nearest each tip: the short version."),
            info("small_camps", Flag, &[BoardKind::Square16], Value("false"), "2 players on 16 x 16 with camps of 13 (4, 4, 3, 2) instead of 19."),
            info("colours_per_player", number(RuleOptions::COLOURS_PER_PLAYER), STAR, Value("1"), "2 players: each owns 2 or 3 colour sets in adjacent corners, each going to the opposite corner; a player wins when all colours are home."),
            info("long_jumps", Flag, STAR, Value("false"), "A piece may jump over a single distant piece, landing as far behind it as it was in front, over empty cells."),
            info("leave_home", Flag, EVERY, Varies("true on 8 x 8 and 10 x 10, false elsewhere"), "A player who still has a piece in their home area after their N-th move (or moves one back in later) loses."),
            info("leave_home_moves", OptionValues::Number(1..=u16::MAX), EVERY, Varies("40 on the star, 30 on 8 x 8, 50 on 10 x 10 and 16 x 16"), "The N of leave_home; setting it turns leave_home on."),
            info("foreign_corners", Choice(ForeignCorners::ALL.map(ForeignCorners::name).to_vec()), EVERY, Value(ForeignCorners::Allowed.name()), "Corners (star) or camps (4-player square) that are neither a piece's home nor its goal: pass_only lets pieces jump through but not stop there; forbidden keeps them out."),
            info("repetition_draw", Flag, EVERY, Varies("true for 2-player square games, false elsewhere"), "The same placement with the same player to move for the third time ends the game in a draw."),
            info("backward_steps", Choice(BackwardSteps::ALL.map(BackwardSteps::name).to_vec()), SQUARE, Value(BackwardSteps::Allowed.name()), "Steps may not go straight back (diagonally towards the own corner), or not in any of the three directions with a backward part. Jumps are not restricted."),
            info("diagonal_steps_only", Flag, SQUARE, Value("false"), "Steps only diagonally; jumps still go in all eight directions."),
        ]
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::options::OptionError;

    /// Every field set, none left to `..`: a new option fails to compile here until it is
    /// listed.
    fn every_option_set() -> RuleOptions {
        RuleOptions {
            arm_size: Some(3),
            goal_lock: Some(false),
            anti_blocking: Some(true),
            anti_blocking_grace: Some(3),
            play_on: Some(false),
            teams: Some(true),
            fifteen_pieces: Some(true),
            six_pieces: Some(true),
            small_camps: Some(true),
            colours_per_player: Some(2),
            long_jumps: Some(true),
            leave_home: Some(true),
            leave_home_moves: Some(9),
            foreign_corners: Some(ForeignCorners::PassOnly),
            repetition_draw: Some(true),
            backward_steps: Some(BackwardSteps::NoBackward),
            diagonal_steps_only: Some(true),
        }
    }

    #[test]
    fn the_catalogue_lists_every_option_once() {
        let listed: Vec<&str> = RuleOptions::catalogue().iter().map(|o| o.name).collect();
        let unique: BTreeSet<&str> = listed.iter().copied().collect();
        assert_eq!(unique.len(), listed.len(), "{listed:?}");
        let fields: BTreeSet<&str> = every_option_set()
            .to_pairs()
            .into_iter()
            .map(|(key, _)| key)
            .collect();
        assert_eq!(unique, fields);
    }

    /// A value other than the default, in the text form.
    fn other_value(option: &OptionInfo, default: &str) -> String {
        match &option.values {
            OptionValues::Flag => (default != "true").to_string(),
            OptionValues::Number(range) => (*range.start()..=*range.end())
                .map(|n| n.to_string())
                .find(|n| n != default)
                .unwrap_or_default(),
            OptionValues::Choice(names) => names
                .iter()
                .find(|n| **n != default)
                .map(|n| (*n).to_owned())
                .unwrap_or_default(),
        }
    }

    #[test]
    fn fixed_defaults_and_boards_are_those_of_the_rules() {
        for option in RuleOptions::catalogue() {
            let OptionDefault::Value(default) = option.default else {
                continue;
            };
            for board in BoardKind::ALL {
                for &players in board.players() {
                    let implicit = RuleOptions::default().resolve(board, players);
                    let mut explicit = RuleOptions::default();
                    explicit
                        .set_pair(option.name, default)
                        .unwrap_or_else(|e| panic!("{e}"));
                    let mut other = RuleOptions::default();
                    other
                        .set_pair(option.name, &other_value(&option, default))
                        .unwrap_or_else(|e| panic!("{e}"));
                    let what = format!("{} on {board:?} with {players}", option.name);
                    if option.boards.contains(&board) {
                        assert_eq!(explicit.resolve(board, players), implicit, "{what}");
                    } else {
                        assert!(
                            matches!(
                                other.resolve(board, players),
                                Err(OptionError::NotForBoard { option: o, .. }) if o == option.name
                            ),
                            "{what}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn choices_are_the_values_the_text_form_reads() {
        for option in RuleOptions::catalogue() {
            if let OptionValues::Choice(names) = &option.values {
                for name in names {
                    let mut o = RuleOptions::default();
                    assert_eq!(o.set_pair(option.name, name), Ok(()), "{}", option.name);
                    assert_eq!(o.to_pairs(), vec![(option.name, (*name).to_owned())]);
                }
            }
        }
    }

    #[cfg(feature = "serde")]
    #[test]
    fn choice_names_are_the_serde_names() {
        for v in ForeignCorners::ALL {
            assert_eq!(serde_json::to_value(v).ok(), Some(v.name().into()));
        }
        for v in BackwardSteps::ALL {
            assert_eq!(serde_json::to_value(v).ok(), Some(v.name().into()));
        }
    }
}
