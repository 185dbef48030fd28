//! A whole game: the position, the move record, turn skipping, repetition, and the result.

use std::collections::HashMap;
use std::sync::Arc;

use crate::bitboard::Bitboard;
use crate::board::Cell;
use crate::path::{IllegalMove, LegalMove};
use crate::position::{Move, Position};
use crate::variant::{Seat, Variant};

/// How a move is given by a client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveInput {
    /// Start and end cell: accepted when some legal step or chain leads there.
    FromTo(Cell, Cell),
    /// The full path, checked hop by hop.
    Path(Vec<Cell>),
}

/// One move of the record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// Who moved.
    pub seat: Seat,
    /// The move.
    pub mv: Move,
    /// The path the piece took (as given, or the shortest witness).
    pub path: Vec<Cell>,
    /// Seats whose turns were skipped right after this move because they could not move.
    pub skipped: Vec<Seat>,
}

/// Why a game ended in a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub enum DrawReason {
    /// The same placement with the same player to move occurred for the third time.
    Repetition,
    /// No player still in the game has a legal move.
    NoLegalMoves,
    /// No player (or team) still in the game can ever finish: each has a piece outside its
    /// goal walled in for good by the pieces of players who are out of the game, and not
    /// enough pieces left that could ever fill that goal.
    Deadlock,
}

/// How a ranked group of seats (a player, or a team) came to its place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub enum Standing {
    /// Filled its goal(s).
    Finished,
    /// Was the last one left in the game.
    Last,
    /// Lost by the leave-home rule.
    LeftHomeTooLate,
    /// Resigned (or its partner did).
    Resigned,
    /// Still playing when the game ended in a draw.
    Drawn,
    /// Still playing when the game ended without play-on.
    Unplaced,
}

/// One entry of the final ranking.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Place {
    /// The place, 1 for the winner; drawn groups share a place. `None` for seats left unplaced
    /// when the game ended at the first finish (play-on off).
    pub place: Option<u8>,
    /// The seats of the group (one seat, or a team).
    pub seats: Vec<Seat>,
    /// How the group got there.
    pub standing: Standing,
}

/// The result of a finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Outcome {
    /// Groups in ranking order.
    pub ranking: Vec<Place>,
    /// Set when the game ended in a draw among the groups still playing.
    pub draw: Option<DrawReason>,
}

impl Outcome {
    /// The winning group's seats, if there is a single winner.
    #[must_use]
    pub fn winner(&self) -> Option<&[Seat]> {
        let first = self.ranking.first()?;
        let shared = self.ranking.iter().filter(|p| p.place == Some(1)).count() > 1;
        (first.place == Some(1) && !shared && first.standing != Standing::Drawn)
            .then_some(first.seats.as_slice())
    }
}

/// A game in progress or finished: the variant, the position, the record and the result.
#[derive(Clone, Debug)]
pub struct Game {
    variant: Arc<Variant>,
    first: Seat,
    pos: Position,
    record: Vec<PlayedMove>,
    seen: HashMap<u64, u8>,
    /// Groups (by lowest seat) in the order they finished.
    finish_order: Vec<Vec<Seat>>,
    /// Groups in the order they were eliminated.
    eliminated_order: Vec<Vec<Seat>>,
    /// The resignations, in order.
    resignations: Vec<Resignation>,
    outcome: Option<Outcome>,
    /// Position keys after the latest moves, oldest first (at most [`RECENT_KEYS`]).
    recent: Vec<u64>,
}

/// How many recent position keys a game keeps (for the AI's repetition avoidance).
pub const RECENT_KEYS: usize = 32;

impl Game {
    /// A new game with `first` to move.
    #[must_use]
    pub fn new(variant: Arc<Variant>, first: Seat) -> Game {
        let pos = Position::start(&variant, first);
        Game::from_position(variant, first, pos)
    }

    /// A game that starts from a given position (e.g. parsed from the notation).
    #[must_use]
    pub fn from_position(variant: Arc<Variant>, first: Seat, pos: Position) -> Game {
        let mut g = Game {
            variant,
            first,
            pos,
            record: Vec::new(),
            seen: HashMap::new(),
            finish_order: Vec::new(),
            eliminated_order: Vec::new(),
            resignations: Vec::new(),
            outcome: None,
            recent: Vec::new(),
        };
        g.note_standings();
        g.seen.insert(g.pos.hash(), 1);
        g.settle(&mut Vec::new());
        g.remember_position();
        g
    }

    /// Notes the current position among the recent ones (for the AI's repetition avoidance),
    /// keeping the newest [`RECENT_KEYS`].
    fn remember_position(&mut self) {
        if self.recent.len() >= RECENT_KEYS {
            self.recent.remove(0);
        }
        self.recent.push(self.pos.hash());
    }

    /// Replays a record from the start.
    ///
    /// # Errors
    /// The index of the first move that is not legal, with the reason.
    pub fn replay(
        variant: Arc<Variant>,
        first: Seat,
        moves: &[MoveInput],
    ) -> Result<Game, (usize, IllegalMove)> {
        let mut g = Game::new(variant, first);
        for (i, m) in moves.iter().enumerate() {
            g.play(m).map_err(|e| (i, e))?;
        }
        Ok(g)
    }

    /// The variant.
    #[must_use]
    pub fn variant(&self) -> &Arc<Variant> {
        &self.variant
    }

    /// The seat that moved first.
    #[must_use]
    pub fn first(&self) -> Seat {
        self.first
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The moves played so far.
    #[must_use]
    pub fn record(&self) -> &[PlayedMove] {
        &self.record
    }

    /// Keys of the latest positions the game went through, oldest first, the current one last
    /// (at most [`RECENT_KEYS`]): the start, then the position after each move or resignation.
    #[must_use]
    pub fn recent_keys(&self) -> &[u64] {
        &self.recent
    }

    /// The result, once the game is over.
    #[must_use]
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// Whether the game is over.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The seat to move, `None` once the game is over.
    #[must_use]
    pub fn to_move(&self) -> Option<Seat> {
        (!self.is_over()).then(|| self.pos.to_move())
    }

    /// The legal moves of the seat to move, with paths (empty once the game is over).
    #[must_use]
    pub fn legal_moves(&self) -> Vec<LegalMove> {
        if self.is_over() {
            return Vec::new();
        }
        self.variant.legal_moves_with_paths(&self.pos)
    }

    /// The legal moves of the piece on `from`, with paths: empty once the game is over, and
    /// when no piece of the seat to move stands there.
    #[must_use]
    pub fn legal_moves_from(&self, from: Cell) -> Vec<LegalMove> {
        if self.is_over() {
            return Vec::new();
        }
        self.variant.piece_legal_moves(&self.pos, from)
    }

    /// Checks a move without playing it.
    ///
    /// # Errors
    /// [`IllegalMove`] with the reason.
    pub fn check(&self, input: &MoveInput) -> Result<LegalMove, IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        match input {
            MoveInput::FromTo(from, to) => self.variant.check_from_to(&self.pos, *from, *to),
            MoveInput::Path(path) => self.variant.check_path(&self.pos, path),
        }
    }

    /// Plays a move of the seat to move; then skips seats that cannot move and settles the
    /// result. Nothing changes when the move is illegal.
    ///
    /// # Errors
    /// [`IllegalMove`] with the reason.
    pub fn play(&mut self, input: &MoveInput) -> Result<&PlayedMove, IllegalMove> {
        let legal = self.check(input)?;
        let seat = self.pos.to_move();
        self.variant.play_unchecked(&mut self.pos, legal.mv);
        self.note_standings();
        let mut skipped = Vec::new();
        if self.outcome.is_none() && self.variant.options().repetition_draw {
            let n = self.seen.entry(self.pos.hash()).or_insert(0);
            *n += 1;
            if *n >= 3 {
                self.end_in_draw(DrawReason::Repetition);
            }
        }
        self.settle(&mut skipped);
        self.remember_position();
        self.record.push(PlayedMove {
            seat,
            mv: legal.mv,
            path: legal.path,
            skipped,
        });
        Ok(self
            .record
            .last()
            .unwrap_or_else(|| unreachable!("a move was just pushed")))
    }

    /// The resignations so far, in order.
    #[must_use]
    pub fn resignations(&self) -> &[Resignation] {
        &self.resignations
    }

    /// `seat` resigns (with its partner in a team game): it is out of the game and ranked like
    /// a player who lost by the leave-home rule, behind everyone still playing, with the
    /// standing [`Standing::Resigned`]; its pieces stay on the board. The game goes on for the
    /// others; with two sides left it ends and the other side wins. Seats that cannot move
    /// after it are skipped as after a move.
    ///
    /// # Errors
    /// [`ResignError::GameOver`] once the game is over, [`ResignError::NotPlaying`] for a seat
    /// that finished or is out already. Nothing changes then.
    pub fn resign(&mut self, seat: Seat) -> Result<&Resignation, ResignError> {
        if self.is_over() {
            return Err(ResignError::GameOver);
        }
        if !self.pos.is_active(seat) {
            return Err(ResignError::NotPlaying(seat));
        }
        let v = Arc::clone(&self.variant);
        v.resign(&mut self.pos, seat);
        // Recorded before the game settles, so that a result it reaches ranks the resignation.
        self.resignations.push(Resignation {
            after: self.record.len(),
            seats: v.unit(seat).collect(),
            skipped: Vec::new(),
        });
        self.note_standings();
        let mut skipped = Vec::new();
        self.settle(&mut skipped);
        self.remember_position();
        let resignation = self
            .resignations
            .last_mut()
            .unwrap_or_else(|| unreachable!("a resignation was just pushed"));
        resignation.skipped = skipped;
        Ok(resignation)
    }

    /// Records groups that finished or were eliminated since the last call.
    fn note_standings(&mut self) {
        let v = Arc::clone(&self.variant);
        for seat in v.seats() {
            let group: Vec<Seat> = v.unit(seat).collect();
            if group[0] != seat {
                continue;
            }
            let known =
                self.finish_order.contains(&group) || self.eliminated_order.contains(&group);
            if known {
                continue;
            }
            if group.iter().all(|&s| self.pos.is_finished(s)) {
                self.finish_order.push(group);
            } else if group.iter().any(|&s| self.pos.is_eliminated(s)) {
                self.eliminated_order.push(group);
            }
        }
    }

    /// Groups still in the game.
    fn alive(&self) -> Vec<Vec<Seat>> {
        self.variant
            .seats()
            .filter(|&s| self.variant.unit(s).next() == Some(s))
            .map(|s| self.variant.unit(s).collect::<Vec<_>>())
            .filter(|g| !self.finish_order.contains(g) && !self.eliminated_order.contains(g))
            .collect()
    }

    /// Ends the game when the standings say so, else skips seats that cannot move (and ends in
    /// a draw when nobody can).
    fn settle(&mut self, skipped: &mut Vec<Seat>) {
        if self.outcome.is_some() {
            return;
        }
        let alive = self.alive();
        let play_on = self.variant.options().play_on;
        if (!play_on && !self.finish_order.is_empty()) || alive.len() <= 1 {
            self.finish(alive, None);
            return;
        }
        if alive.len() < self.variant.players().into() && self.deadlocked(&alive) {
            self.end_in_draw(DrawReason::Deadlock);
            return;
        }
        let players = usize::from(self.variant.players());
        for _ in 0..players {
            if self.variant.has_moves(&self.pos) {
                return;
            }
            skipped.push(self.pos.to_move());
            self.variant.pass(&mut self.pos);
        }
        self.end_in_draw(DrawReason::NoLegalMoves);
    }

    /// Whether no group in `alive` can ever finish: each has a seat that can never fill its
    /// goals. That is judged soundly but not completely: one of the seat's armies has a piece
    /// outside its goal that is walled in for good (every neighbouring
    /// cell, and every cell a jump from it would land on, holds a piece of a seat that is out
    /// of the game, so nothing around it ever moves again), and that goal cannot be full
    /// without it: the army's other pieces, the out-of-game pieces already in the goal and
    /// every piece of the seats still playing that may still travel (with the goal lock, one
    /// standing in its own goal may not) are fewer than the goal's cells. Without the
    /// anti-blocking rule the walled-in piece alone decides. The grace period of the
    /// anti-blocking rule does not change the count: every foreign piece in a goal becomes a
    /// blocker once its owner makes enough moves, finishes or leaves the game, so it is counted
    /// as a piece that could fill the goal (an over-count only makes the check more careful).
    fn deadlocked(&self, alive: &[Vec<Seat>]) -> bool {
        let v = &self.variant;
        let board = v.board();
        let options = v.options();
        // Pieces that never move again: those of seats out of the game.
        let mut fixed = Bitboard::EMPTY;
        for (a, army) in v.armies().iter().enumerate() {
            if !self.pos.is_active(army.owner) {
                fixed |= self.pos.army(a);
            }
        }
        if fixed.is_empty() {
            return false;
        }
        let walled_in = |cell: u8| {
            let Some(c) = board.cell(usize::from(cell)) else {
                return false;
            };
            (0..board.directions()).all(|d| match board.neighbor(c, d) {
                None => true,
                Some(n) => {
                    fixed.has(n.index())
                        && board
                            .neighbor(n, d)
                            .is_none_or(|land| fixed.has(land.index()))
                }
            })
        };
        // Per army of a seat still playing: its walled-in pieces outside its goal, and its
        // pieces that may still travel (neither walled in nor held in their goal by the lock).
        let mut stuck = vec![0u32; v.armies().len()];
        let mut travelling = vec![0u32; v.armies().len()];
        for (a, army) in v.armies().iter().enumerate() {
            if !self.pos.is_active(army.owner) {
                continue;
            }
            let pieces = self.pos.army(a);
            let locked = if options.goal_lock {
                pieces & army.goal
            } else {
                Bitboard::EMPTY
            };
            for c in pieces.iter() {
                if walled_in(c) {
                    stuck[a] += u32::from(!army.goal.has(c));
                } else if !locked.has(c) {
                    travelling[a] += 1;
                }
            }
        }
        let all_travelling: u32 = travelling.iter().sum();
        let can_never_finish = |seat: Seat| {
            v.armies_of(seat).any(|a| {
                let army = &v.armies()[a];
                if stuck[a] == 0 {
                    return false;
                }
                if !options.anti_blocking {
                    return true;
                }
                // Pieces that could ever stand in this goal: the army's own but the stuck ones,
                // the other armies' travellers and the fixed pieces already in it.
                let could_fill = self.pos.army(a).count() - stuck[a]
                    + (all_travelling - travelling[a])
                    + (fixed & army.goal).count();
                could_fill < army.goal.count()
            })
        };
        alive.iter().all(|g| g.iter().any(|&s| can_never_finish(s)))
    }

    fn end_in_draw(&mut self, reason: DrawReason) {
        let alive = self.alive();
        self.finish(alive, Some(reason));
    }

    fn finish(&mut self, alive: Vec<Vec<Seat>>, draw: Option<DrawReason>) {
        let mut ranking = Vec::new();
        let mut place = 1u8;
        for g in &self.finish_order {
            ranking.push(Place {
                place: Some(place),
                seats: g.clone(),
                standing: Standing::Finished,
            });
            place += 1;
        }
        let play_on = self.variant.options().play_on;
        if draw.is_some() {
            let n = alive.len() as u8;
            for g in alive {
                ranking.push(Place {
                    place: Some(place),
                    seats: g,
                    standing: Standing::Drawn,
                });
            }
            place += n;
        } else if !play_on && !self.finish_order.is_empty() {
            for g in alive {
                ranking.push(Place {
                    place: None,
                    seats: g,
                    standing: Standing::Unplaced,
                });
            }
        } else {
            for g in alive {
                ranking.push(Place {
                    place: Some(place),
                    seats: g,
                    standing: Standing::Last,
                });
                place += 1;
            }
        }
        for g in self.eliminated_order.iter().rev() {
            let resigned = self.resignations.iter().any(|r| r.seats == *g);
            ranking.push(Place {
                place: Some(place),
                seats: g.clone(),
                standing: if resigned {
                    Standing::Resigned
                } else {
                    Standing::LeftHomeTooLate
                },
            });
            place += 1;
        }
        self.outcome = Some(Outcome { ranking, draw });
    }
}

/// Everything a game needs to be stored and restored without replaying it: the setup, the
/// current position in the notation, the record, the repetition counts and the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GameSnapshot {
    /// The setup.
    pub setup: crate::variant::GameSetup,
    /// The seat that moved first.
    pub first: u8,
    /// The current position in the notation.
    pub position: String,
    /// The moves: who moved, the path in the notation, and the seats skipped after it.
    pub record: Vec<SnapshotMove>,
    /// Position keys seen so far and how often (only kept when the repetition rule is on).
    pub seen: Vec<SeenCount>,
    /// Groups of seats in the order they finished.
    pub finish_order: Vec<Vec<u8>>,
    /// Groups of seats in the order they were eliminated.
    pub eliminated_order: Vec<Vec<u8>>,
    /// The result, once the game is over.
    pub outcome: Option<Outcome>,
    /// Position keys after the latest moves, oldest first.
    #[cfg_attr(feature = "serde", serde(default))]
    pub recent: Vec<u64>,
    /// The resignations, in order.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub resignations: Vec<SnapshotResignation>,
}

/// A resignation: who resigned, and when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resignation {
    /// How many moves had been played (the resignation came after the move of that ply).
    pub after: usize,
    /// The seats that left the game: the seat that resigned, and its partner in a team game.
    pub seats: Vec<Seat>,
    /// Seats whose turns were skipped right after it because they could not move.
    pub skipped: Vec<Seat>,
}

/// Why a seat cannot resign.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResignError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The seat finished or is out of the game already.
    #[error("seat {} is no longer playing", .0.index())]
    NotPlaying(Seat),
}

/// One resignation of a [`GameSnapshot`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SnapshotResignation {
    /// Moves played before it.
    pub after: usize,
    /// The seats that left.
    pub seats: Vec<u8>,
    /// Seats skipped right after it.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub skipped: Vec<u8>,
}

/// One move of a [`GameSnapshot`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SnapshotMove {
    /// The seat that moved.
    pub seat: u8,
    /// The path in the notation (`a1-c3-e5`).
    pub path: String,
    /// Seats skipped right after the move.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub skipped: Vec<u8>,
}

/// How often a position key was seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SeenCount {
    /// The position key.
    pub hash: u64,
    /// How often it occurred.
    pub count: u8,
}

/// A snapshot that does not describe a valid game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SnapshotError {
    /// The setup cannot be played.
    #[error("setup: {0}")]
    Setup(#[from] crate::variant::SetupError),
    /// The position text is invalid.
    #[error("position: {0}")]
    Position(#[from] crate::notation::PositionTextError),
    /// A move of the record is invalid.
    #[error("move {index}: {message}")]
    Move {
        /// The move's index in the record.
        index: usize,
        /// What is wrong.
        message: String,
    },
    /// A seat number is out of range.
    #[error("seat {0} is not a seat of this game")]
    Seat(u8),
}

impl Game {
    /// The game as a snapshot, for storage.
    #[must_use]
    pub fn snapshot(&self) -> GameSnapshot {
        GameSnapshot {
            record: self.snapshot_moves(0),
            seen: self.snapshot_seen(),
            resignations: self.snapshot_resignations(0),
            ..self.snapshot_state()
        }
    }

    /// The snapshot without its growing parts: everything but the record, the position keys
    /// seen and the resignations, which are left empty. What it takes does not grow with the
    /// game (the parts can be kept elsewhere, e.g. [`snapshot_moves`](Self::snapshot_moves)
    /// of each write in a log, and put back before [`Game::restore`]).
    #[must_use]
    pub fn snapshot_state(&self) -> GameSnapshot {
        let group = |g: &Vec<Seat>| g.iter().map(|s| s.0).collect::<Vec<u8>>();
        GameSnapshot {
            setup: self.variant.setup().clone(),
            first: self.first.0,
            position: crate::notation::format_position(&self.variant, &self.pos),
            record: Vec::new(),
            seen: Vec::new(),
            finish_order: self.finish_order.iter().map(group).collect(),
            eliminated_order: self.eliminated_order.iter().map(group).collect(),
            outcome: self.outcome.clone(),
            recent: self.recent.clone(),
            resignations: Vec::new(),
        }
    }

    /// The moves of the record from index `from` on, as in [`GameSnapshot::record`].
    #[must_use]
    pub fn snapshot_moves(&self, from: usize) -> Vec<SnapshotMove> {
        let board = self.variant.board();
        self.record
            .get(from..)
            .unwrap_or_default()
            .iter()
            .map(|m| SnapshotMove {
                seat: m.seat.0,
                path: crate::notation::format_path(board, &m.path),
                skipped: m.skipped.iter().map(|s| s.0).collect(),
            })
            .collect()
    }

    /// The resignations from index `from` on, as in [`GameSnapshot::resignations`].
    #[must_use]
    pub fn snapshot_resignations(&self, from: usize) -> Vec<SnapshotResignation> {
        let group = |g: &Vec<Seat>| g.iter().map(|s| s.0).collect::<Vec<u8>>();
        self.resignations
            .get(from..)
            .unwrap_or_default()
            .iter()
            .map(|r| SnapshotResignation {
                after: r.after,
                seats: group(&r.seats),
                skipped: group(&r.skipped),
            })
            .collect()
    }

    /// Every position key seen and how often, by key, as in [`GameSnapshot::seen`]: empty
    /// unless the repetition rule is in force.
    #[must_use]
    pub fn snapshot_seen(&self) -> Vec<SeenCount> {
        if !self.variant.options().repetition_draw {
            return Vec::new();
        }
        let mut seen: Vec<SeenCount> = self
            .seen
            .iter()
            .map(|(&hash, &count)| SeenCount { hash, count })
            .collect();
        seen.sort_by_key(|s| s.hash);
        seen
    }

    /// How often the position with key `hash` has occurred, as the repetition rule counts
    /// (0 for a key never seen; only kept up while the rule is in force).
    #[must_use]
    pub fn seen_count(&self, hash: u64) -> u8 {
        self.seen.get(&hash).copied().unwrap_or(0)
    }

    /// Restores a game from a snapshot, with its variant (built from the snapshot's setup by the
    /// caller, who may share one variant among many games).
    ///
    /// # Errors
    /// [`SnapshotError`] when the snapshot does not fit the variant or holds invalid data.
    pub fn restore(variant: Arc<Variant>, snapshot: &GameSnapshot) -> Result<Game, SnapshotError> {
        let pos = crate::notation::parse_position_with(&variant, &snapshot.position)?;
        let seat = |i: u8| variant.seat(usize::from(i)).ok_or(SnapshotError::Seat(i));
        let board = variant.board();
        let mut record = Vec::with_capacity(snapshot.record.len());
        for (index, m) in snapshot.record.iter().enumerate() {
            let path =
                crate::notation::parse_move(board, &m.path).map_err(|e| SnapshotError::Move {
                    index,
                    message: e.to_string(),
                })?;
            let (from, to) = (path[0], path[path.len() - 1]);
            record.push(PlayedMove {
                seat: seat(m.seat)?,
                mv: Move { from, to },
                path,
                skipped: m
                    .skipped
                    .iter()
                    .map(|&s| seat(s))
                    .collect::<Result<_, _>>()?,
            });
        }
        let groups = |gs: &Vec<Vec<u8>>| -> Result<Vec<Vec<Seat>>, SnapshotError> {
            gs.iter()
                .map(|g| g.iter().map(|&s| seat(s)).collect())
                .collect()
        };
        Ok(Game {
            first: seat(snapshot.first)?,
            pos,
            record,
            seen: snapshot.seen.iter().map(|s| (s.hash, s.count)).collect(),
            finish_order: groups(&snapshot.finish_order)?,
            eliminated_order: groups(&snapshot.eliminated_order)?,
            resignations: snapshot
                .resignations
                .iter()
                .map(|r| {
                    if r.after > snapshot.record.len() {
                        return Err(SnapshotError::Move {
                            index: r.after,
                            message: "a resignation after a move the record does not have".into(),
                        });
                    }
                    Ok(Resignation {
                        after: r.after,
                        seats: r.seats.iter().map(|&s| seat(s)).collect::<Result<_, _>>()?,
                        skipped: r
                            .skipped
                            .iter()
                            .map(|&s| seat(s))
                            .collect::<Result<_, _>>()?,
                    })
                })
                .collect::<Result<_, _>>()?,
            outcome: snapshot.outcome.clone(),
            recent: snapshot
                .recent
                .iter()
                .rev()
                .take(RECENT_KEYS)
                .rev()
                .copied()
                .collect(),
            variant,
        })
    }
}
