//! Whether a position from outside (a client's notation) can stand in a game of its variant:
//! the counts of the pieces, who is to move, and the seats' standings.
//!
//! Reading the notation ([`crate::notation::parse_position`]) only checks that every field
//! reads and no cell is occupied twice; [`Variant::check_position`] checks the rest. When an
//! army's piece count does not fit the setup, the error names the rule option that would make
//! it fit (armies of 15 pieces on the star need `fifteen_pieces`).

use crate::options::RuleOptions;
use crate::position::Position;
use crate::variant::{GameSetup, Seat, Variant};
use crate::BoardKind;

/// A rule option and the value that would make a position fit its setup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionHint {
    /// The option's name, as in [`RuleOptions`] and the notation's options field.
    pub option: &'static str,
    /// Its value in the notation's form (`1` for a flag that is on).
    pub value: String,
}

impl std::fmt::Display for OptionHint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}={}", self.option, self.value)
    }
}

/// Why a position cannot stand in a game of its variant. Players are counted from 1 in the
/// messages, as in the notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// An army has another number of pieces than its home area has cells (pieces are never
    /// taken off the board).
    #[error(
        "army {} has {found} pieces, but an army of this setup has {expected}{}",
        .army + 1,
        fits_text(.fits.as_ref(), *.found)
    )]
    PieceCount {
        /// The army (index into [`Variant::armies`]).
        army: usize,
        /// Its pieces in the position.
        found: u32,
        /// The pieces an army of the setup has.
        expected: u32,
        /// The option that gives every army of the position its count, if one does.
        fits: Option<OptionHint>,
    },
    /// The player to move has finished or is out of the game while others still play.
    #[error("player {} is to move but {}", .seat.index() + 1, if *.finished { "has finished" } else { "is out of the game" })]
    NotPlaying {
        /// The seat to move.
        seat: Seat,
        /// Whether it finished (else it is out).
        finished: bool,
    },
    /// A seat still playing has filled its goal: it has finished, and must be marked so.
    #[error("player {}'s goal is filled: it has finished (mark it with 'f')", .seat.index() + 1)]
    FinishNotMarked {
        /// The seat.
        seat: Seat,
    },
    /// A seat still playing has a piece at home after the leave-home rule's move: it is out,
    /// and must be marked so.
    #[error(
        "player {} has made {moves} moves with a piece still at home: the leave-home rule took it out of the game (mark it with 'x')",
        .seat.index() + 1
    )]
    LeaveHomeNotMarked {
        /// The seat.
        seat: Seat,
        /// Its move count.
        moves: u16,
    },
}

fn fits_text(fits: Option<&OptionHint>, found: u32) -> String {
    match fits {
        Some(hint) => format!("; armies of {found} pieces need the option {hint}"),
        None => String::new(),
    }
}

impl PositionError {
    /// The field of the notation the error is about: its number (1 for the first) and name.
    #[must_use]
    pub fn field(&self) -> (usize, &'static str) {
        match self {
            PositionError::PieceCount { .. } => (4, "placement"),
            PositionError::NotPlaying { .. } => (5, "to-move"),
            PositionError::FinishNotMarked { .. } | PositionError::LeaveHomeNotMarked { .. } => {
                (6, "seats")
            }
        }
    }
}

impl Variant {
    /// Checks that `pos` can stand in a game of this variant: every army has as many pieces
    /// as its home area has cells; the seat to move still plays (unless nobody does); no seat
    /// still playing has filled its goals or, under the leave-home rule, kept a piece at home
    /// past the rule's move.
    ///
    /// # Errors
    /// The first [`PositionError`] found.
    ///
    /// ```
    /// use halma_rules::{notation, PositionError};
    /// let (variant, pos) = notation::parse_position("square8 2 - h1,g1/a8 1 0,0")?;
    /// let err = variant.check_position(&pos).err().ok_or("accepted")?;
    /// assert!(matches!(err, PositionError::PieceCount { army: 0, found: 2, expected: 10, .. }));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn check_position(&self, pos: &Position) -> Result<(), PositionError> {
        let counts: Vec<u32> = (0..self.armies().len())
            .map(|a| pos.army(a).count())
            .collect();
        for (a, army) in self.armies().iter().enumerate() {
            let expected = army.home.count();
            if counts[a] != expected {
                let fits = option_fitting(self.setup(), |v| {
                    v.armies().len() == counts.len()
                        && v.armies()
                            .iter()
                            .zip(&counts)
                            .all(|(army, &n)| army.home.count() == n)
                });
                return Err(PositionError::PieceCount {
                    army: a,
                    found: counts[a],
                    expected,
                    fits,
                });
            }
        }
        let anyone_plays = self.seats().any(|s| pos.is_active(s));
        let to_move = pos.to_move();
        if anyone_plays && !pos.is_active(to_move) {
            return Err(PositionError::NotPlaying {
                seat: to_move,
                finished: pos.is_finished(to_move),
            });
        }
        for seat in self.seats().filter(|&s| pos.is_active(s)) {
            if self.armies_of(seat).all(|a| self.goal_filled(pos, a)) {
                return Err(PositionError::FinishNotMarked { seat });
            }
            if let Some(limit) = self.options().leave_home_moves {
                let moves = pos.moves_made(seat);
                let at_home = self
                    .armies_of(seat)
                    .any(|a| !(pos.army(a) & self.armies()[a].home).is_empty());
                if moves >= limit && at_home {
                    return Err(PositionError::LeaveHomeNotMarked { seat, moves });
                }
            }
        }
        Ok(())
    }
}

/// The one option (changed from `setup`'s) under which `fits` holds for the variant, if there
/// is one: the options that decide how many armies there are and how many pieces each has.
pub(crate) fn option_fitting(
    setup: &GameSetup,
    fits: impl Fn(&Variant) -> bool,
) -> Option<OptionHint> {
    let mut candidates: Vec<(&'static str, String)> = Vec::new();
    let flag = |on: Option<bool>| if on == Some(true) { "0" } else { "1" };
    match setup.board {
        BoardKind::Star => {
            let o = &setup.options;
            candidates.push(("fifteen_pieces", flag(o.fifteen_pieces).to_owned()));
            candidates.push(("six_pieces", flag(o.six_pieces).to_owned()));
            for arm in crate::Board::STAR_ARM_SIZES {
                candidates.push(("arm_size", arm.to_string()));
            }
            for colours in RuleOptions::COLOURS_PER_PLAYER {
                candidates.push(("colours_per_player", colours.to_string()));
            }
        }
        BoardKind::Square16 => {
            candidates.push(("small_camps", flag(setup.options.small_camps).to_owned()));
        }
        BoardKind::Square10 | BoardKind::Square8 => {}
    }
    candidates.into_iter().find_map(|(option, value)| {
        let mut options = setup.options.clone();
        options.set_pair(option, &value).ok()?;
        if options == setup.options {
            return None;
        }
        let variant = Variant::new(&GameSetup {
            options,
            ..setup.clone()
        })
        .ok()?;
        fits(&variant).then_some(OptionHint { option, value })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation;

    #[test]
    fn a_fifteen_piece_position_names_the_option() {
        let v15 = Variant::new(&GameSetup {
            board: BoardKind::Star,
            players: 2,
            options: RuleOptions {
                fifteen_pieces: Some(true),
                ..RuleOptions::default()
            },
        })
        .unwrap_or_else(|e| panic!("{e}"));
        let first = v15.seat(0).unwrap_or_else(|| panic!("no seat"));
        let text = notation::format_position(&v15, &Position::start(&v15, first));
        let without = text.replace("fifteen_pieces=1", "-");
        let (variant, pos) = notation::parse_position(&without).unwrap_or_else(|e| panic!("{e}"));
        let err = variant.check_position(&pos).err();
        let Some(PositionError::PieceCount {
            found: 15,
            expected: 10,
            fits: Some(hint),
            ..
        }) = &err
        else {
            panic!("{err:?}");
        };
        assert_eq!(hint.to_string(), "fifteen_pieces=1");
        let message = err.map(|e| e.to_string()).unwrap_or_default();
        assert!(
            message.contains("need the option fifteen_pieces=1"),
            "{message}"
        );
    }

    #[test]
    fn six_pieces_and_small_camps_are_named_too() {
        for (board, option) in [
            (BoardKind::Star, "six_pieces"),
            (BoardKind::Square16, "small_camps"),
        ] {
            let mut options = RuleOptions::default();
            options
                .set_pair(option, "1")
                .unwrap_or_else(|e| panic!("{e}"));
            let setup = GameSetup {
                board,
                players: 2,
                options,
            };
            let v = Variant::new(&setup).unwrap_or_else(|e| panic!("{e}"));
            let pos = Position::start(&v, v.seat(0).unwrap_or_else(|| panic!("no seat")));
            let text = notation::format_position(&v, &pos).replace(&format!("{option}=1"), "-");
            let (variant, pos) = notation::parse_position(&text).unwrap_or_else(|e| panic!("{e}"));
            match variant.check_position(&pos) {
                Err(PositionError::PieceCount { fits: Some(h), .. }) => {
                    assert_eq!(h.option, option)
                }
                other => panic!("{option}: {other:?}"),
            }
        }
    }

    #[test]
    fn start_positions_pass_and_bad_standings_are_found() {
        let ok = "square8 2 - h1,g1,f1,e1,h2,g2,f2,h3,g3,h4/a8,b8,c8,d8,a7,b7,c7,a6,b6,a5 1 0,0";
        let (variant, pos) = notation::parse_position(ok).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(variant.check_position(&pos), Ok(()));
        // Player 2 has made 30 moves (the leave-home number of 8 x 8) and is still at home.
        let late = ok.replace(" 1 0,0", " 1 30,30");
        let (variant, pos) = notation::parse_position(&late).unwrap_or_else(|e| panic!("{e}"));
        let err = variant.check_position(&pos).err();
        assert!(
            matches!(
                err,
                Some(PositionError::LeaveHomeNotMarked { moves: 30, .. })
            ),
            "{err:?}"
        );
        // The player to move has finished.
        let done = ok.replace(" 1 0,0", " 1 0f,0");
        let (variant, pos) = notation::parse_position(&done).unwrap_or_else(|e| panic!("{e}"));
        let err = variant.check_position(&pos).err();
        assert_eq!(err.as_ref().map(PositionError::field), Some((5, "to-move")));
    }

    #[test]
    fn a_wrong_army_count_names_colours_per_player() {
        let setup = GameSetup {
            board: BoardKind::Star,
            players: 2,
            options: RuleOptions {
                colours_per_player: Some(3),
                ..RuleOptions::default()
            },
        };
        let v = Variant::new(&setup).unwrap_or_else(|e| panic!("{e}"));
        let pos = Position::start(&v, v.seat(0).unwrap_or_else(|| panic!("no seat")));
        let text = notation::format_position(&v, &pos).replace("colours_per_player=3", "-");
        let err = notation::parse_position(&text).err().map(|e| e.to_string());
        let message = err.unwrap_or_default();
        assert!(
            message.contains("6 armies need the option colours_per_player=3"),
            "{message}"
        );
    }
}
