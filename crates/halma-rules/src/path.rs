//! Witness paths of moves, and checking a move given as a full path hop by hop.

use crate::bitboard::Bitboard;
use crate::board::Cell;
use crate::movegen::long_jump_landing;
use crate::options::ForeignCorners;
use crate::position::{Move, Position};
use crate::variant::Variant;

/// Why a move is not legal in a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// A path needs at least two cells.
    #[error("a move needs at least a start and an end cell")]
    PathTooShort,
    /// There is no piece on the start cell.
    #[error("there is no piece on {cell}")]
    EmptyCell {
        /// The start cell's name.
        cell: String,
    },
    /// The piece on the start cell belongs to another player.
    #[error("the piece on {cell} belongs to another player")]
    NotYourPiece {
        /// The start cell's name.
        cell: String,
    },
    /// The destination is occupied.
    #[error("{cell} is occupied")]
    CellOccupied {
        /// The occupied cell's name.
        cell: String,
    },
    /// A piece in its goal may not leave it.
    #[error("the piece on {cell} stands in its goal and may not leave it")]
    GoalLocked {
        /// The cell in the goal the piece would leave.
        cell: String,
    },
    /// The move would end in a corner that is neither the piece's home nor its goal.
    #[error(
        "a piece may not end its move on {cell}, in a corner that is neither its home nor its goal"
    )]
    ForeignCorner {
        /// The destination.
        cell: String,
    },
    /// The move would enter a camp that is neither the piece's home nor its goal.
    #[error("a piece may not enter {cell}, in a camp that is neither its home nor its goal")]
    ForbiddenCamp {
        /// The cell in the forbidden camp.
        cell: String,
    },
    /// This step direction is not allowed by the options (backward or non-diagonal step).
    #[error("the step from {from} to {to} is not allowed by this game's step rules")]
    StepDirection {
        /// Start cell.
        from: String,
        /// Destination.
        to: String,
    },
    /// A hop of the path is neither a step nor a jump over one piece.
    #[error(
        "hop {hop} from {from} to {to} is not a jump over exactly one piece onto an empty cell"
    )]
    NotAJump {
        /// The hop's number, 1 for the first.
        hop: usize,
        /// Where the hop starts.
        from: String,
        /// Where it lands.
        to: String,
    },
    /// A step was combined with jumps.
    #[error("a step ends the move: steps cannot be combined with jumps")]
    StepInChain,
    /// The move ends where it started.
    #[error("a move may not end on the cell it started from")]
    ReturnsToStart,
    /// No step or jump chain leads from the start to the destination.
    #[error("no step or jump chain leads from {from} to {to}")]
    Unreachable {
        /// Start cell.
        from: String,
        /// Destination.
        to: String,
    },
}

impl IllegalMove {
    /// A stable machine-readable code for the reason.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            IllegalMove::GameOver => "game_over",
            IllegalMove::PathTooShort => "path_too_short",
            IllegalMove::EmptyCell { .. } => "empty_cell",
            IllegalMove::NotYourPiece { .. } => "not_your_piece",
            IllegalMove::CellOccupied { .. } => "cell_occupied",
            IllegalMove::GoalLocked { .. } => "goal_locked",
            IllegalMove::ForeignCorner { .. } => "foreign_corner",
            IllegalMove::ForbiddenCamp { .. } => "forbidden_camp",
            IllegalMove::StepDirection { .. } => "step_direction",
            IllegalMove::NotAJump { .. } => "not_a_jump",
            IllegalMove::StepInChain => "step_in_chain",
            IllegalMove::ReturnsToStart => "returns_to_start",
            IllegalMove::Unreachable { .. } => "unreachable",
        }
    }
}

/// A legal move together with one shortest witness path (start and end included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegalMove {
    /// The move.
    pub mv: Move,
    /// The cells the piece visits, from the start to the end cell.
    pub path: Vec<Cell>,
}

impl Variant {
    fn name_of(&self, c: u8) -> String {
        self.board().cells()[usize::from(c)].name.clone()
    }

    /// The landing cell of a jump from `c` in direction `d` (ordinary or long), if any.
    fn jump_landing(&self, c: u8, d: usize, occ: &Bitboard) -> Option<u8> {
        let ray = self.board().ray_raw(c, d);
        if self.options().long_jumps {
            long_jump_landing(ray, occ)
        } else if ray.len() >= 2 && occ.has(ray[0]) && !occ.has(ray[1]) {
            Some(ray[1])
        } else {
            None
        }
    }

    /// Breadth-first search over jump chains from `from`: fills `search` with the cells reached
    /// (`from` included) and the parent of each of them but `from`.
    fn chain_parents(&self, pos: &Position, army: usize, from: u8, search: &mut ChainSearch) {
        let a = &self.armies()[army];
        let board = self.board();
        let mut occ = pos.occupied();
        occ.clear(from);
        let lock = self.options().goal_lock;
        let forbidden = self.options().foreign_corners == ForeignCorners::Forbidden;
        let long = self.options().long_jumps;
        let relation = board.relation_row(from);
        let mut visited = Bitboard::single(from);
        // Breadth first, so each cell's parent lies on a path with the fewest hops.
        let queue = &mut search.queue;
        let (mut head, mut tail) = (0usize, 1usize);
        queue[0] = from;
        while head < tail {
            let c = queue[head];
            head += 1;
            // The open jump directions: from the occupancy patterns for ordinary jumps (with
            // the start cell counted empty), else walking the lines.
            let mut dirs: u8 = if long {
                (0..board.directions())
                    .filter(|&d| self.jump_landing(c, usize::from(d), &occ).is_some())
                    .fold(0, |m, d| m | 1 << d)
            } else {
                pos.open_jumps(c, relation[usize::from(c)])
            };
            while dirs != 0 {
                let d = dirs.trailing_zeros();
                dirs &= dirs - 1;
                let landing = if long {
                    self.jump_landing(c, d as usize, &occ)
                } else {
                    board.landing_raw(c, d)
                };
                let Some(land) = landing else {
                    continue;
                };
                if visited.has(land)
                    || (lock && a.goal.has(c) && !a.goal.has(land))
                    || (forbidden && a.foreign.has(land))
                {
                    continue;
                }
                visited.set(land);
                search.parent[usize::from(land)] = c;
                // Each cell enters the queue once: at most one entry per cell of the board.
                if let Some(slot) = queue.get_mut(tail) {
                    *slot = land;
                    tail += 1;
                }
            }
        }
        search.reached = visited;
    }

    /// Every legal move of the seat to move with one shortest witness path each (a step when
    /// the destination is a neighbour, else the jump chain with the fewest hops).
    #[must_use]
    pub fn legal_moves_with_paths(&self, pos: &Position) -> Vec<LegalMove> {
        let mut out = Vec::new();
        let mut search = ChainSearch::new();
        self.for_each_destinations(pos, |army, from, dest| {
            self.paths_into(pos, army, from, dest, &mut search, &mut out);
        });
        out
    }

    /// The legal moves of the piece on `from` with one shortest witness path each: empty when
    /// no piece of the seat to move stands there (or that seat is out of the game).
    #[must_use]
    pub fn piece_legal_moves(&self, pos: &Position, from: Cell) -> Vec<LegalMove> {
        let mut out = Vec::new();
        if pos.is_active(pos.to_move()) {
            if let Some(army) = self.own_army_at(pos, from.0) {
                self.piece_moves_with_paths(pos, army, from.0, &mut out);
            }
        }
        out
    }

    /// Appends the legal moves of the piece of army `army` on `from`, with witness paths.
    pub fn piece_moves_with_paths(
        &self,
        pos: &Position,
        army: usize,
        from: u8,
        out: &mut Vec<LegalMove>,
    ) {
        let dest = self.destinations(pos, army, from);
        self.paths_into(pos, army, from, dest, &mut ChainSearch::new(), out);
    }

    /// Appends the moves from `from` to each cell of `dest` (the piece's destinations) with
    /// their witness paths, using `search` for the chain search.
    fn paths_into(
        &self,
        pos: &Position,
        army: usize,
        from: u8,
        dest: Bitboard,
        search: &mut ChainSearch,
        out: &mut Vec<LegalMove>,
    ) {
        if dest.is_empty() {
            return;
        }
        let steps = self.armies()[army].steps[usize::from(from)];
        // The chain search, only when some destination is not a step.
        let chains = !(dest & !steps).is_empty();
        if chains {
            self.chain_parents(pos, army, from, search);
        }
        for to in dest.iter() {
            let path = if steps.has(to) {
                Some(vec![Cell(from), Cell(to)])
            } else if chains {
                search.unwind(from, to)
            } else {
                None
            };
            // Every destination that is not a step was reached by the chain search.
            let Some(path) = path else { continue };
            out.push(LegalMove {
                mv: Move {
                    from: Cell(from),
                    to: Cell(to),
                },
                path,
            });
        }
    }

    /// A shortest witness path of a legal move, `None` when the move is not legal.
    #[must_use]
    pub fn witness_path(&self, pos: &Position, mv: Move) -> Option<Vec<Cell>> {
        let army = self.own_army_at(pos, mv.from.0)?;
        if !pos.is_active(pos.to_move()) || !self.destinations(pos, army, mv.from.0).has(mv.to.0) {
            return None;
        }
        if self.armies()[army].steps[usize::from(mv.from.0)].has(mv.to.0) {
            return Some(vec![mv.from, mv.to]);
        }
        let mut search = ChainSearch::new();
        self.chain_parents(pos, army, mv.from.0, &mut search);
        search.unwind(mv.from.0, mv.to.0)
    }

    fn check_start(&self, pos: &Position, from: u8) -> Result<usize, IllegalMove> {
        if !pos.is_active(pos.to_move()) {
            return Err(IllegalMove::GameOver);
        }
        match self.own_army_at(pos, from) {
            Some(a) => Ok(a),
            None if pos.occupied().has(from) => Err(IllegalMove::NotYourPiece {
                cell: self.name_of(from),
            }),
            None => Err(IllegalMove::EmptyCell {
                cell: self.name_of(from),
            }),
        }
    }

    /// Checks a move given as (from, to): legal when a step or jump chain leads there. The
    /// error names the most specific reason it can find.
    ///
    /// # Errors
    /// [`IllegalMove`] with the reason.
    pub fn check_from_to(
        &self,
        pos: &Position,
        from: Cell,
        to: Cell,
    ) -> Result<LegalMove, IllegalMove> {
        let army = self.check_start(pos, from.0)?;
        if from == to {
            return Err(IllegalMove::ReturnsToStart);
        }
        if let Some(path) = self.witness_path(pos, Move { from, to }) {
            return Ok(LegalMove {
                mv: Move { from, to },
                path,
            });
        }
        let a = &self.armies()[army];
        let (f, t) = (self.name_of(from.0), self.name_of(to.0));
        Err(if pos.occupied().has(to.0) {
            IllegalMove::CellOccupied { cell: t }
        } else if self.options().goal_lock && a.goal.has(from.0) && !a.goal.has(to.0) {
            IllegalMove::GoalLocked { cell: f }
        } else if self.options().foreign_corners == ForeignCorners::Forbidden && a.foreign.has(to.0)
        {
            IllegalMove::ForbiddenCamp { cell: t }
        } else if self.options().foreign_end_blocked() && a.foreign.has(to.0) {
            IllegalMove::ForeignCorner { cell: t }
        } else if self.board().neighbors(from).contains(&to) {
            IllegalMove::StepDirection { from: f, to: t }
        } else {
            IllegalMove::Unreachable { from: f, to: t }
        })
    }

    /// Checks a move given as its full path, hop by hop: either one step, or a chain of jumps.
    ///
    /// # Errors
    /// [`IllegalMove`] naming the first hop or rule that fails.
    pub fn check_path(&self, pos: &Position, path: &[Cell]) -> Result<LegalMove, IllegalMove> {
        let (Some(&from), Some(&to)) = (path.first(), path.last()) else {
            return Err(IllegalMove::PathTooShort);
        };
        if path.len() < 2 {
            return Err(IllegalMove::PathTooShort);
        }
        let army = self.check_start(pos, from.0)?;
        let a = &self.armies()[army];
        let lock = self.options().goal_lock;
        let forbidden = self.options().foreign_corners == ForeignCorners::Forbidden;
        let mut occ = pos.occupied();
        occ.clear(from.0);
        let is_neighbor = |x: Cell, y: Cell| self.board().neighbors(x).contains(&y);
        if path.len() == 2 && is_neighbor(from, to) {
            let (f, t) = (self.name_of(from.0), self.name_of(to.0));
            if occ.has(to.0) {
                return Err(IllegalMove::CellOccupied { cell: t });
            }
            if lock && a.goal.has(from.0) && !a.goal.has(to.0) {
                return Err(IllegalMove::GoalLocked { cell: f });
            }
            if forbidden && a.foreign.has(to.0) {
                return Err(IllegalMove::ForbiddenCamp { cell: t });
            }
            if !a.steps[usize::from(from.0)].has(to.0) {
                return Err(IllegalMove::StepDirection { from: f, to: t });
            }
        } else {
            for (i, hop) in path.windows(2).enumerate() {
                let (x, y) = (hop[0].0, hop[1].0);
                if is_neighbor(hop[0], hop[1]) {
                    return Err(IllegalMove::StepInChain);
                }
                let landing = self
                    .board()
                    .line_between(x, y)
                    .and_then(|(d, _)| self.jump_landing(x, d, &occ));
                if landing != Some(y) {
                    if occ.has(y) {
                        return Err(IllegalMove::CellOccupied {
                            cell: self.name_of(y),
                        });
                    }
                    return Err(IllegalMove::NotAJump {
                        hop: i + 1,
                        from: self.name_of(x),
                        to: self.name_of(y),
                    });
                }
                if lock && a.goal.has(x) && !a.goal.has(y) {
                    return Err(IllegalMove::GoalLocked {
                        cell: self.name_of(x),
                    });
                }
                if forbidden && a.foreign.has(y) {
                    return Err(IllegalMove::ForbiddenCamp {
                        cell: self.name_of(y),
                    });
                }
            }
            if from == to {
                return Err(IllegalMove::ReturnsToStart);
            }
        }
        if self.options().foreign_end_blocked() && a.foreign.has(to.0) {
            return Err(IllegalMove::ForeignCorner {
                cell: self.name_of(to.0),
            });
        }
        debug_assert!(self.destinations(pos, army, from.0).has(to.0));
        Ok(LegalMove {
            mv: Move { from, to },
            path: path.to_vec(),
        })
    }
}

/// The buffers of the breadth-first chain search, reused by the pieces of one listing: a
/// cell's entry in `parent` is read only while the cell is in `reached`, which each search sets
/// anew, so nothing needs clearing between searches.
struct ChainSearch {
    /// The cells the last search reached, its start included.
    reached: Bitboard,
    /// `parent[cell]`: the cell the last search reached `cell` from, for the cells of
    /// `reached` other than the start.
    parent: [u8; 256],
    /// The search's queue.
    queue: [u8; 256],
}

impl ChainSearch {
    fn new() -> ChainSearch {
        ChainSearch {
            reached: Bitboard::EMPTY,
            parent: [0; 256],
            queue: [0; 256],
        }
    }

    /// The chain from `from` (the last search's start) to `to` read back from the parents,
    /// `None` when the search did not reach `to`.
    fn unwind(&self, from: u8, to: u8) -> Option<Vec<Cell>> {
        if !self.reached.has(to) {
            return None;
        }
        // The length first, so that the path is allocated once. Parents lead back to the start
        // in fewer steps than the board has cells.
        let mut len = 1;
        let mut c = to;
        while c != from {
            c = self.parent[usize::from(c)];
            len += 1;
            if len > 256 {
                return None;
            }
        }
        let mut path = vec![Cell(from); len];
        let mut c = to;
        for slot in path.iter_mut().rev() {
            *slot = Cell(c);
            c = self.parent[usize::from(c)];
        }
        Some(path)
    }
}
