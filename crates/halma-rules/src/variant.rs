//! A validated game setup: board, seats, armies (colour sets) with their home and goal areas,
//! and the precomputed masks the move generator uses.

use crate::bitboard::Bitboard;
use crate::board::{Board, BoardKind, Camp, Corner, SQUARE_DIRS};
use crate::options::{BackwardSteps, ForeignCorners, OptionError, Options, RuleOptions};

/// Most armies (colour sets) on one board: the star's six corners.
pub const MAX_ARMIES: usize = 6;
/// Most seats (players) in one game.
pub const MAX_SEATS: usize = 6;

/// A player's seat, numbered from 0 in turn order (clockwise from the first seat).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct Seat(pub(crate) u8);

impl Seat {
    /// The seat's number (0-based).
    #[must_use]
    pub const fn index(self) -> u8 {
        self.0
    }
}

/// What a client asks for: board, player count and options.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct GameSetup {
    /// The board.
    pub board: BoardKind,
    /// Number of players: 2, 3, 4 or 6 on the star; 2 or 4 on 16 x 16; 2 on 10 x 10 and 8 x 8.
    pub players: u8,
    /// Rule options; absent ones take the rule book's defaults.
    #[cfg_attr(feature = "serde", serde(default))]
    pub options: RuleOptions,
}

/// Why a setup cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The player count is not offered on this board.
    #[error("{players} players cannot play on the {board} board ({allowed})")]
    Players {
        /// The board's name.
        board: &'static str,
        /// The requested count.
        players: u8,
        /// The counts that are offered.
        allowed: &'static str,
    },
    /// An option does not fit.
    #[error(transparent)]
    Option(#[from] OptionError),
}

/// One colour set: the pieces that start in one home area and race to one goal area.
#[derive(Clone, Debug)]
pub struct Army {
    /// The seat that moves these pieces.
    pub owner: Seat,
    /// The corner the pieces start in.
    pub home_corner: Corner,
    /// The corner they race to.
    pub goal_corner: Corner,
    /// The starting cells.
    pub home: Bitboard,
    /// The goal cells.
    pub goal: Bitboard,
    /// Corners or camps that are neither this army's home nor its goal.
    pub foreign: Bitboard,
    /// Step targets per cell for this army (backward or diagonal-only variants differ).
    pub(crate) steps: Vec<Bitboard>,
    /// The same as direction bits per cell, for the fast move count (0 beyond the board).
    pub(crate) step_dirs: Box<[u8; 256]>,
}

/// A validated setup, ready to play: shared by every position of a game (wrap it in an `Arc`).
#[derive(Clone, Debug)]
pub struct Variant {
    setup: GameSetup,
    board: &'static Board,
    options: Options,
    armies: Vec<Army>,
    /// `seat_armies[seat]`: bit mask of the seat's armies.
    seat_armies: [u8; MAX_SEATS],
    /// Ranking units: `unit_of[seat]` (teams share a unit).
    unit_of: [u8; MAX_SEATS],
    /// Every army's goal cells together: only a move touching them can fill a goal.
    pub(crate) all_goals: Bitboard,
    /// `goal_seats[cell]`: bit mask of the seats with an army whose goal holds `cell`.
    pub(crate) goal_seats: Vec<u8>,
}

impl Variant {
    /// Validates a setup and precomputes everything its games need.
    ///
    /// # Errors
    /// [`SetupError`] when the player count or an option does not fit the board.
    ///
    /// ```
    /// use halma_rules::{BoardKind, GameSetup, RuleOptions, Variant};
    /// let v = Variant::new(&GameSetup { board: BoardKind::Star, players: 3, options: RuleOptions::default() })?;
    /// assert_eq!(v.board().len(), 121);
    /// assert!(Variant::new(&GameSetup { board: BoardKind::Star, players: 5, options: RuleOptions::default() }).is_err());
    /// # Ok::<(), halma_rules::SetupError>(())
    /// ```
    pub fn new(setup: &GameSetup) -> Result<Variant, SetupError> {
        let players = setup.players;
        if !setup.board.players().contains(&players) {
            let allowed = match setup.board {
                BoardKind::Star => "2, 3, 4 or 6 players; 5 is not a legal setup",
                BoardKind::Square16 => "2 or 4 players",
                BoardKind::Square10 | BoardKind::Square8 => "2 players",
            };
            return Err(SetupError::Players {
                board: setup.board.name(),
                players,
                allowed,
            });
        }
        let options = setup.options.resolve(setup.board, players)?;
        let board = Board::get(setup.board, options.arm_size).map_err(|e| OptionError::Value {
            option: "arm_size",
            message: e.to_string(),
        })?;
        let homes: Vec<(u8, Corner)> =
            seat_corners(setup.board, players, options.colours_per_player);
        let camp = match (setup.board, players, options.small_camps) {
            (BoardKind::Square16, 2, false) => Some(Camp::CELLS_19),
            (BoardKind::Square16, _, _) => Some(Camp::CELLS_13),
            (BoardKind::Square10, _, _) => Some(Camp::CELLS_15),
            (BoardKind::Square8, _, _) => Some(Camp::CELLS_10),
            (BoardKind::Star, _, _) => None,
        };
        let camp_rows = camp.map_or(&[][..], Camp::rows);
        let area = |corner: Corner| -> Bitboard {
            if setup.board != BoardKind::Star {
                board.corner_cells(corner, camp_rows)
            } else if options.six_pieces {
                let n = options.arm_size as i8;
                board.star_area(corner, |d| d >= n - 2)
            } else if options.fifteen_pieces {
                board.star_area(corner, |_| true)
            } else {
                board.corner_cells(corner, &[])
            }
        };
        // The areas that count as corners for the foreign-corner rule.
        let corners: Vec<(Corner, Bitboard)> = if setup.board == BoardKind::Star {
            Corner::STAR
                .iter()
                .map(|&c| (c, board.corner_cells(c, &[])))
                .collect()
        } else {
            homes
                .iter()
                .map(|&(_, c)| (c, board.corner_cells(c, camp_rows)))
                .collect()
        };
        let mut armies = Vec::with_capacity(homes.len());
        let mut seat_armies = [0u8; MAX_SEATS];
        for (i, &(seat, home_corner)) in homes.iter().enumerate() {
            let goal_corner = home_corner.opposite();
            let home = area(home_corner);
            let goal = area(goal_corner);
            let mut foreign = Bitboard::EMPTY;
            for &(c, cells) in &corners {
                if c != home_corner && c != goal_corner {
                    foreign |= cells;
                }
            }
            let (steps, step_dirs) = step_masks(board, home_corner, &options);
            seat_armies[usize::from(seat)] |= 1 << i;
            armies.push(Army {
                owner: Seat(seat),
                home_corner,
                goal_corner,
                home,
                goal,
                foreign,
                steps,
                step_dirs,
            });
        }
        let mut unit_of = [0u8; MAX_SEATS];
        for (s, u) in unit_of.iter_mut().enumerate().take(usize::from(players)) {
            *u = if options.teams {
                (s % usize::from(players / 2)) as u8
            } else {
                s as u8
            };
        }
        let all_goals = armies.iter().fold(Bitboard::EMPTY, |acc, a| acc | a.goal);
        let goal_seats = (0..=255u8)
            .map(|c| {
                armies
                    .iter()
                    .filter(|a| a.goal.has(c))
                    .fold(0u8, |m, a| m | 1 << a.owner.0)
            })
            .collect();
        Ok(Variant {
            setup: setup.clone(),
            board,
            options,
            armies,
            seat_armies,
            unit_of,
            all_goals,
            goal_seats,
        })
    }

    /// The setup this variant was made from.
    #[must_use]
    pub fn setup(&self) -> &GameSetup {
        &self.setup
    }

    /// The board.
    #[must_use]
    pub fn board(&self) -> &'static Board {
        self.board
    }

    /// The options in force.
    #[must_use]
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Number of players.
    #[must_use]
    pub fn players(&self) -> u8 {
        self.setup.players
    }

    /// The seat with this number, if the game has it.
    #[must_use]
    pub fn seat(&self, index: usize) -> Option<Seat> {
        (index < usize::from(self.players())).then_some(Seat(index as u8))
    }

    /// All seats in turn order.
    pub fn seats(&self) -> impl Iterator<Item = Seat> {
        (0..self.players()).map(Seat)
    }

    /// The armies (colour sets), each with its owner, home and goal.
    #[must_use]
    pub fn armies(&self) -> &[Army] {
        &self.armies
    }

    /// The armies a seat moves, as indexes into [`Variant::armies`].
    pub fn armies_of(&self, seat: Seat) -> impl Iterator<Item = usize> {
        let mask = self.seat_armies[usize::from(seat.0)];
        (0..MAX_ARMIES).filter(move |a| mask & (1 << a) != 0)
    }

    pub(crate) fn army_mask(&self, seat: u8) -> u8 {
        self.seat_armies[usize::from(seat)]
    }

    /// The seats ranked together with `seat` (its team, or itself alone).
    pub fn unit(&self, seat: Seat) -> impl Iterator<Item = Seat> + '_ {
        let u = self.unit_of[usize::from(seat.0)];
        self.seats()
            .filter(move |s| self.unit_of[usize::from(s.0)] == u)
    }

    /// The partner's seat in a team game.
    #[must_use]
    pub fn partner(&self, seat: Seat) -> Option<Seat> {
        self.options
            .teams
            .then(|| Seat((seat.0 + self.players() / 2) % self.players()))
    }
}

/// Home corners by seat: `(seat, corner)` for every army, in army order.
fn seat_corners(board: BoardKind, players: u8, colours: u8) -> Vec<(u8, Corner)> {
    use Corner::{BottomLeft, BottomRight, TopLeft, TopRight, N, NE, NW, S, SE, SW};
    if board != BoardKind::Star {
        let corners: &[Corner] = if players == 4 {
            &[BottomRight, BottomLeft, TopLeft, TopRight]
        } else {
            &[BottomRight, TopLeft]
        };
        return corners
            .iter()
            .enumerate()
            .map(|(s, &c)| (s as u8, c))
            .collect();
    }
    match (players, colours) {
        (2, 2) => vec![(0, S), (0, SW), (1, N), (1, NE)],
        (2, 3) => vec![(0, S), (0, SW), (0, NW), (1, N), (1, NE), (1, SE)],
        _ => {
            let corners: &[Corner] = match players {
                2 => &[S, N],
                3 => &[S, NW, NE],
                4 => &[S, SW, N, NE],
                _ => &[S, SW, NW, N, NE, SE],
            };
            corners
                .iter()
                .enumerate()
                .map(|(s, &c)| (s as u8, c))
                .collect()
        }
    }
}

/// Step targets per cell for an army whose home is `home` (square variants restrict them), as
/// cell sets and as direction bits.
fn step_masks(board: &Board, home: Corner, options: &Options) -> (Vec<Bitboard>, Box<[u8; 256]>) {
    let mut allowed = [true; 8];
    if board.kind() != BoardKind::Star {
        // The diagonal pointing into the own corner, as a (file, rank) vector.
        let back: (i8, i8) = match home {
            Corner::BottomRight => (1, -1),
            Corner::BottomLeft => (-1, -1),
            Corner::TopLeft => (-1, 1),
            _ => (1, 1),
        };
        for (d, &(df, dr)) in SQUARE_DIRS.iter().enumerate() {
            let straight_back = (df, dr) == back;
            let has_back_part = (df != 0 && df == back.0) || (dr != 0 && dr == back.1);
            let has_forward_part = (df != 0 && df == -back.0) || (dr != 0 && dr == -back.1);
            match options.backward_steps {
                BackwardSteps::Allowed => {}
                BackwardSteps::NoStraightBack => allowed[d] &= !straight_back,
                BackwardSteps::NoBackward => allowed[d] &= !has_back_part || has_forward_part,
            }
            if options.diagonal_steps_only && (df == 0 || dr == 0) {
                allowed[d] = false;
            }
        }
    }
    let mut step_dirs = Box::new([0u8; 256]);
    let steps = (0..board.len())
        .map(|c| {
            let mut m = Bitboard::EMPTY;
            let mut dirs = 0u8;
            for (d, ok) in allowed
                .iter()
                .enumerate()
                .take(usize::from(board.directions()))
            {
                if let (true, Some(nb)) = (*ok, board.neighbor_raw(c as u8, d)) {
                    m.set(nb);
                    dirs |= 1 << d;
                }
            }
            step_dirs[c] = dirs;
            m
        })
        .collect();
    (steps, step_dirs)
}

impl Options {
    /// Whether pieces may end a move in foreign corners.
    pub(crate) fn foreign_end_blocked(&self) -> bool {
        self.foreign_corners != ForeignCorners::Allowed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(board: BoardKind, players: u8, options: RuleOptions) -> Variant {
        Variant::new(&GameSetup {
            board,
            players,
            options,
        })
        .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn piece_counts() {
        let count = |var: &Variant| {
            var.armies()
                .iter()
                .map(|a| a.home.count())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            count(&v(BoardKind::Star, 2, RuleOptions::default())),
            vec![10, 10]
        );
        assert_eq!(
            count(&v(BoardKind::Star, 6, RuleOptions::default())),
            vec![10; 6]
        );
        let o = RuleOptions {
            arm_size: Some(3),
            ..RuleOptions::default()
        };
        assert_eq!(count(&v(BoardKind::Star, 3, o)), vec![6; 3]);
        let o = RuleOptions {
            fifteen_pieces: Some(true),
            ..RuleOptions::default()
        };
        assert_eq!(count(&v(BoardKind::Star, 2, o)), vec![15, 15]);
        let o = RuleOptions {
            six_pieces: Some(true),
            ..RuleOptions::default()
        };
        assert_eq!(count(&v(BoardKind::Star, 4, o)), vec![6; 4]);
        let o = RuleOptions {
            colours_per_player: Some(3),
            ..RuleOptions::default()
        };
        assert_eq!(count(&v(BoardKind::Star, 2, o)), vec![10; 6]);
        assert_eq!(
            count(&v(BoardKind::Square16, 2, RuleOptions::default())),
            vec![19, 19]
        );
        assert_eq!(
            count(&v(BoardKind::Square16, 4, RuleOptions::default())),
            vec![13; 4]
        );
        let o = RuleOptions {
            small_camps: Some(true),
            ..RuleOptions::default()
        };
        assert_eq!(count(&v(BoardKind::Square16, 2, o)), vec![13, 13]);
        assert_eq!(
            count(&v(BoardKind::Square10, 2, RuleOptions::default())),
            vec![15, 15]
        );
        assert_eq!(
            count(&v(BoardKind::Square8, 2, RuleOptions::default())),
            vec![10, 10]
        );
    }

    #[test]
    fn seating_and_goals() {
        let var = v(BoardKind::Star, 3, RuleOptions::default());
        let homes: Vec<_> = var.armies().iter().map(|a| a.home_corner).collect();
        assert_eq!(homes, vec![Corner::S, Corner::NW, Corner::NE]);
        for a in var.armies() {
            assert_eq!(a.goal_corner, a.home_corner.opposite());
            assert!((a.home & a.goal).is_empty());
        }
        let var = v(BoardKind::Square16, 4, RuleOptions::default());
        let homes: Vec<_> = var.armies().iter().map(|a| a.home_corner).collect();
        assert_eq!(
            homes,
            vec![
                Corner::BottomRight,
                Corner::BottomLeft,
                Corner::TopLeft,
                Corner::TopRight
            ]
        );
        let var = v(
            BoardKind::Star,
            6,
            RuleOptions {
                teams: Some(true),
                ..RuleOptions::default()
            },
        );
        assert_eq!(var.partner(Seat(0)), Some(Seat(3)));
        assert_eq!(
            var.unit(Seat(4)).collect::<Vec<_>>(),
            vec![Seat(1), Seat(4)]
        );
        for players in [1, 5, 7] {
            assert!(Variant::new(&GameSetup {
                board: BoardKind::Star,
                players,
                options: RuleOptions::default()
            })
            .is_err());
        }
        assert!(Variant::new(&GameSetup {
            board: BoardKind::Square8,
            players: 4,
            options: RuleOptions::default()
        })
        .is_err());
    }

    #[test]
    fn backward_step_masks() {
        let b = Board::get(BoardKind::Square16, 0).unwrap_or_else(|e| panic!("{e}"));
        let centre = b.parse_cell("h8").unwrap_or_else(|e| panic!("{e}")).index();
        let count = |o: RuleOptions| {
            v(BoardKind::Square16, 2, o).armies()[0].steps[usize::from(centre)].count()
        };
        assert_eq!(count(RuleOptions::default()), 8);
        assert_eq!(
            count(RuleOptions {
                backward_steps: Some(BackwardSteps::NoStraightBack),
                ..RuleOptions::default()
            }),
            7
        );
        assert_eq!(
            count(RuleOptions {
                backward_steps: Some(BackwardSteps::NoBackward),
                ..RuleOptions::default()
            }),
            5
        );
        assert_eq!(
            count(RuleOptions {
                diagonal_steps_only: Some(true),
                ..RuleOptions::default()
            }),
            4
        );
        // The bottom-right army may not step to i7 (straight back towards its corner).
        let var = v(
            BoardKind::Square16,
            2,
            RuleOptions {
                backward_steps: Some(BackwardSteps::NoStraightBack),
                ..RuleOptions::default()
            },
        );
        let i7 = b.parse_cell("i7").unwrap_or_else(|e| panic!("{e}")).index();
        assert!(!var.armies()[0].steps[usize::from(centre)].has(i7));
        assert!(var.armies()[1].steps[usize::from(centre)].has(i7));
    }
}
