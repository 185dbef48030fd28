//! Positions: the placement of every army, whose turn it is, and each seat's move count and
//! standing; move generation (steps and jump chains) and making moves.

use crate::bitboard::Bitboard;
use crate::board::{Board, Cell};
use crate::rng::SplitMix64;
use crate::variant::{Seat, Variant, MAX_ARMIES, MAX_SEATS};

/// A move: one piece from one cell to another. Its effect depends only on these two cells; a
/// step or a jump chain reaching `to` is its witness path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// The cell the piece leaves.
    pub from: Cell,
    /// The cell the piece ends on.
    pub to: Cell,
}

/// A position of one game: where every piece stands, whose turn it is, and each seat's move
/// count and standing. Small and `Copy`, so search can copy it freely.
///
/// Positions are made by [`Position::start`] or by parsing the notation; their fields are
/// private so that a position always agrees with its variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub(crate) armies: [Bitboard; MAX_ARMIES],
    pub(crate) occupied: Bitboard,
    pub(crate) hash: u64,
    pub(crate) moves_made: [u16; MAX_SEATS],
    pub(crate) to_move: u8,
    /// Seats that filled their goals.
    pub(crate) finished: u8,
    /// Seats that lost by the leave-home rule.
    pub(crate) eliminated: u8,
    /// Per cell, its occupancy pattern: bit `dir` set when the neighbour in `dir` is occupied,
    /// bit `8 + dir` when the cell two steps away is occupied or off the board (see
    /// `Board::edge_pattern`).
    pub(crate) patterns: [u16; 256],
}

/// Zobrist keys: one per (army, cell), one per seat to move.
struct Keys {
    pieces: [[u64; 256]; MAX_ARMIES],
    turn: [u64; MAX_SEATS],
}

/// The keys, drawn at compile time from a fixed seed (so hashes are the same in every
/// process): the pieces' keys army by army and cell by cell, then the turn keys.
static KEYS: Keys = {
    let mut rng = SplitMix64::new(0x9E37_79B9_7F4A_7C15);
    let mut pieces = [[0u64; 256]; MAX_ARMIES];
    let mut a = 0;
    while a < MAX_ARMIES {
        let mut c = 0;
        while c < 256 {
            pieces[a][c] = rng.next_u64();
            c += 1;
        }
        a += 1;
    }
    let mut turn = [0u64; MAX_SEATS];
    let mut t = 0;
    while t < MAX_SEATS {
        turn[t] = rng.next_u64();
        t += 1;
    }
    Keys { pieces, turn }
};

#[inline]
fn piece_key(army: usize, cell: u8) -> u64 {
    KEYS.pieces[army][usize::from(cell)]
}

#[inline]
fn turn_key(seat: u8) -> u64 {
    KEYS.turn[usize::from(seat)]
}

impl Position {
    /// The starting position: every army on its home cells, `first` to move.
    #[must_use]
    pub fn start(variant: &Variant, first: Seat) -> Position {
        let mut armies = [Bitboard::EMPTY; MAX_ARMIES];
        for (i, a) in variant.armies().iter().enumerate() {
            armies[i] = a.home;
        }
        Position::from_parts(variant.board(), armies, first.0, [0; MAX_SEATS], 0, 0)
    }

    pub(crate) fn from_parts(
        board: &Board,
        armies: [Bitboard; MAX_ARMIES],
        to_move: u8,
        moves_made: [u16; MAX_SEATS],
        finished: u8,
        eliminated: u8,
    ) -> Position {
        let mut p = Position {
            armies,
            occupied: Bitboard::EMPTY,
            hash: 0,
            moves_made,
            to_move,
            finished,
            eliminated,
            patterns: [0; 256],
        };
        for c in board.all().iter() {
            p.patterns[usize::from(c)] = board.edge_pattern(c);
        }
        p.occupied = armies.iter().fold(Bitboard::EMPTY, |acc, a| acc | *a);
        for c in p.occupied.iter() {
            p.toggle_patterns(board, c);
        }
        p.hash = p.compute_hash();
        p
    }

    /// Updates the neighbour occupancy patterns for `cell` filling or emptying.
    #[inline]
    fn toggle_patterns(&mut self, board: &Board, cell: u8) {
        for &(c, bits) in board.pattern_updates(cell) {
            self.patterns[usize::from(c)] ^= bits;
        }
    }

    /// The position key recomputed from scratch (placement and player to move).
    #[must_use]
    pub fn compute_hash(&self) -> u64 {
        let mut h = turn_key(self.to_move);
        for (a, bb) in self.armies.iter().enumerate() {
            for c in bb.iter() {
                h ^= piece_key(a, c);
            }
        }
        h
    }

    /// The position key (Zobrist hash of the placement and the player to move), kept up to date
    /// incrementally.
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The seat to move.
    #[must_use]
    pub fn to_move(&self) -> Seat {
        Seat(self.to_move)
    }

    /// The cells of one army (index into [`Variant::armies`]).
    #[must_use]
    pub fn army(&self, army: usize) -> Bitboard {
        self.armies[army]
    }

    /// All occupied cells.
    #[must_use]
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    /// The army whose piece stands on `cell`, if any.
    #[must_use]
    pub fn army_at(&self, cell: Cell) -> Option<usize> {
        self.armies.iter().position(|a| a.has(cell.0))
    }

    /// How many moves a seat has made.
    #[must_use]
    pub fn moves_made(&self, seat: Seat) -> u16 {
        self.moves_made[usize::from(seat.0)]
    }

    /// The jump directions open from `cell` (an occupied neighbour with an empty cell behind
    /// it), with the cells that `rel` marks (see `Board::relation_row`) counted empty: the
    /// moving piece's start cell during its chain.
    #[inline(always)]
    pub(crate) fn open_jumps(&self, cell: u8, rel: u16) -> u8 {
        let p = self.patterns[usize::from(cell)] & !rel;
        (p as u8) & !((p >> 8) as u8)
    }

    /// Whether a seat has filled its goal(s).
    #[must_use]
    pub fn is_finished(&self, seat: Seat) -> bool {
        self.finished & (1 << seat.0) != 0
    }

    /// Whether a seat lost by the leave-home rule.
    #[must_use]
    pub fn is_eliminated(&self, seat: Seat) -> bool {
        self.eliminated & (1 << seat.0) != 0
    }

    /// Whether a seat still takes turns (neither finished nor eliminated).
    #[must_use]
    pub fn is_active(&self, seat: Seat) -> bool {
        (self.finished | self.eliminated) & (1 << seat.0) == 0
    }
}

impl Board {
    /// The cells a piece on `cell` reaches in `pos` (a position on this board) with one
    /// ordinary jump: over an occupied neighbour onto the empty cell behind it, in direction
    /// order. Read from the position's occupancy patterns, without walking the lines.
    ///
    /// ```
    /// use halma_rules::{BoardKind, GameSetup, Position, RuleOptions, Variant};
    ///
    /// let v = Variant::new(&GameSetup { board: BoardKind::Star, players: 2, options: RuleOptions::default() })?;
    /// let pos = Position::start(&v, v.seat(0).ok_or("no seat")?);
    /// let c1 = v.board().parse_cell("c1")?;
    /// let landings: Vec<&str> = v.board().jump_landings(&pos, c1).map(|c| v.board().name(c)).collect();
    /// // Over d2 to e7 and over d1 to e5.
    /// assert_eq!(landings, ["e7", "e5"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn jump_landings(&self, pos: &Position, cell: Cell) -> JumpLandings<'_> {
        JumpLandings {
            board: self,
            cell: cell.0,
            dirs: pos.open_jumps(cell.0, 0),
        }
    }

    /// The cells a piece on `cell` would reach with one ordinary jump after a piece moves from
    /// `from` to `to` in `pos` (`from` occupied, `to` empty), without playing the move: as
    /// [`Board::jump_landings`] on the position the move leads to, for any cell but `from`.
    /// An evaluation that scores every move of a position updates the jump chances of the
    /// pieces near the move this way.
    #[must_use]
    pub fn jump_landings_after(
        &self,
        pos: &Position,
        cell: Cell,
        from: Cell,
        to: Cell,
    ) -> JumpLandings<'_> {
        let c = usize::from(cell.0);
        let p = (pos.patterns[c] & !self.relation_row(from.0)[c]) | self.relation_row(to.0)[c];
        JumpLandings {
            board: self,
            cell: cell.0,
            dirs: (p as u8) & !((p >> 8) as u8),
        }
    }
}

/// The landing cells of a piece's single jumps: see [`Board::jump_landings`].
#[derive(Clone, Debug)]
pub struct JumpLandings<'a> {
    board: &'a Board,
    cell: u8,
    /// The open jump directions not yet visited.
    dirs: u8,
}

impl Iterator for JumpLandings<'_> {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        while self.dirs != 0 {
            let d = self.dirs.trailing_zeros();
            self.dirs &= self.dirs - 1;
            // An open direction always has its landing on the board.
            if let Some(land) = self.board.landing_raw(self.cell, d) {
                return Some(Cell(land));
            }
        }
        None
    }
}

impl Variant {
    /// The army of the seat to move standing on `cell`.
    #[inline]
    pub(crate) fn own_army_at(&self, pos: &Position, cell: u8) -> Option<usize> {
        let mut mask = self.army_mask(pos.to_move);
        while mask != 0 {
            let a = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            if pos.armies.get(a).is_some_and(|b| b.has(cell)) {
                return Some(a);
            }
        }
        None
    }

    /// Whether `mv` is a legal move in `pos`.
    #[must_use]
    pub fn is_legal(&self, pos: &Position, mv: Move) -> bool {
        pos.is_active(pos.to_move())
            && self
                .own_army_at(pos, mv.from.0)
                .is_some_and(|army| self.destinations(pos, army, mv.from.0).has(mv.to.0))
    }

    /// Plays a move known to be legal: moves the piece, updates the hash, the mover's move
    /// count and the standings (goals filled, leave-home losses), and passes the turn to the
    /// next seat still playing. It does not skip seats that have no legal move: see
    /// [`Variant::pass`].
    ///
    /// # Panics
    /// Never for a legal move; an illegal one leaves a position that breaks the rules (debug
    /// builds assert that a piece of the seat to move stands on `from`).
    pub fn play_unchecked(&self, pos: &mut Position, mv: Move) {
        let seat = pos.to_move;
        let army = self.own_army_at(pos, mv.from.0);
        debug_assert!(
            army.is_some(),
            "play_unchecked: no own piece on the from cell"
        );
        let army = army.unwrap_or(0);
        pos.armies[army].move_member(mv.from.0, mv.to.0);
        pos.occupied.move_member(mv.from.0, mv.to.0);
        pos.toggle_patterns(self.board(), mv.from.0);
        pos.toggle_patterns(self.board(), mv.to.0);
        pos.hash ^= piece_key(army, mv.from.0) ^ piece_key(army, mv.to.0);
        pos.moves_made[usize::from(seat)] = pos.moves_made[usize::from(seat)].saturating_add(1);
        // A goal can become filled only when a piece enters it (one leaving it empties a cell
        // of it), or, under the anti-blocking rule's grace period, when the mover's pieces in
        // others' goals start to count as blockers (its grace-th move).
        let grace = self.options().anti_blocking_grace;
        if grace != 0 && pos.moves_made[usize::from(seat)] == grace {
            self.update_finished(pos);
        } else if self.all_goals.has(mv.to.0) {
            self.update_finished_entering(pos, mv.to.0);
        }
        if self
            .options()
            .leave_home_moves
            .is_some_and(|limit| pos.moves_made[usize::from(seat)] >= limit)
        {
            let out_before = pos.eliminated;
            self.update_leave_home(pos, seat);
            if grace != 0 && pos.eliminated != out_before {
                // The eliminated seat's pieces now count as blockers in others' goals.
                self.update_finished(pos);
            }
        }
        self.advance_turn(pos);
    }

    /// The move that led to `pos` from the position whose key ([`Position::hash`]) is
    /// `before`, with that position: the one move of one seat that explains both keys, found
    /// from the keys alone (a piece of the mover's moved back from `to` to `from`, the turn
    /// given back to the mover, and the move played again to check that it leads to exactly
    /// `pos`). `None` when no legal move does: the keys are a resignation's, or of positions
    /// further apart, or the move changed a seat's standing (a finish), which keys do not show.
    ///
    /// A game's position keys ([`crate::Game::recent_keys`]) so give its latest moves, newest
    /// first, by taking back one after the other.
    ///
    /// ```
    /// use halma_rules::{BoardKind, Game, GameSetup, MoveInput, RuleOptions, Variant};
    /// use std::sync::Arc;
    ///
    /// let variant = Arc::new(Variant::new(&GameSetup { board: BoardKind::Star, players: 3, options: RuleOptions::default() })?);
    /// let mut game = Game::new(Arc::clone(&variant), variant.seat(0).ok_or("seat")?);
    /// let mv = game.legal_moves()[0].mv;
    /// game.play(&MoveInput::FromTo(mv.from, mv.to))?;
    /// let keys = game.recent_keys();
    /// let (before, found) = variant.take_back(game.position(), keys[keys.len() - 2]).ok_or("no move")?;
    /// assert_eq!(found, mv);
    /// assert_eq!(before.hash(), keys[0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn take_back(&self, pos: &Position, before: u64) -> Option<(Position, Move)> {
        let changed = pos.hash ^ before;
        let empty = self.board().all() & !pos.occupied;
        for seat in 0..self.players() {
            let turn = turn_key(pos.to_move) ^ turn_key(seat);
            let mut mask = self.army_mask(seat);
            while mask != 0 {
                let army = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                for to in pos.armies[army].iter() {
                    // The key of the piece on its cell before the move.
                    let wanted = changed ^ turn ^ piece_key(army, to);
                    for from in empty.iter() {
                        if piece_key(army, from) != wanted {
                            continue;
                        }
                        let mut prev = *pos;
                        prev.armies[army].move_member(to, from);
                        prev.occupied.move_member(to, from);
                        prev.toggle_patterns(self.board(), to);
                        prev.toggle_patterns(self.board(), from);
                        prev.hash = before;
                        prev.to_move = seat;
                        let made = &mut prev.moves_made[usize::from(seat)];
                        *made = made.saturating_sub(1);
                        let mv = Move {
                            from: Cell(from),
                            to: Cell(to),
                        };
                        if self.is_legal(&prev, mv) {
                            let mut again = prev;
                            self.play_unchecked(&mut again, mv);
                            if again == *pos {
                                return Some((prev, mv));
                            }
                        }
                    }
                }
            }
        }
        None
    }

    /// Takes `seat` out of the game as if it had resigned, with its partner in a team game (a
    /// resignation is the team's, as a loss by the leave-home rule is): its pieces stay on the
    /// board as obstacles (and count as blockers in others' goals), and the turn passes on when
    /// it was theirs. Seats that finished already keep their finish. Returns whether any seat
    /// was still playing.
    pub fn resign(&self, pos: &mut Position, seat: Seat) -> bool {
        let mut out = false;
        for s in self.unit(seat) {
            if pos.is_active(s) {
                pos.eliminated |= 1 << s.0;
                out = true;
            }
        }
        if out {
            if self.options().anti_blocking_grace != 0 {
                self.update_finished(pos);
            }
            if !pos.is_active(pos.to_move()) {
                self.advance_turn(pos);
            }
        }
        out
    }

    /// Passes the turn of the seat to move (it has no legal move) to the next seat playing.
    pub fn pass(&self, pos: &mut Position) {
        self.advance_turn(pos);
    }

    fn advance_turn(&self, pos: &mut Position) {
        let n = self.players();
        let old = pos.to_move;
        let mut next = old;
        for _ in 0..n {
            // The next seat in turn order, without a division.
            next = if next + 1 == n { 0 } else { next + 1 };
            if pos.is_active(Seat(next)) {
                break;
            }
        }
        if next != old {
            pos.hash ^= turn_key(old) ^ turn_key(next);
            pos.to_move = next;
        }
    }

    /// Whether army `army`'s goal counts as filled.
    ///
    /// With the anti-blocking rule: no empty cell, at least one of the army's own pieces, and
    /// every piece of another player in it a blocker (see [`Variant::is_blocker_owner`]).
    /// Without it: the army's own pieces fill every cell.
    #[must_use]
    pub fn goal_filled(&self, pos: &Position, army: usize) -> bool {
        let a = &self.armies()[army];
        if !self.options().anti_blocking {
            return a.goal.is_subset(&pos.armies[army]);
        }
        if !a.goal.is_subset(&pos.occupied) || (pos.armies[army] & a.goal).is_empty() {
            return false;
        }
        self.armies().iter().enumerate().all(|(b, other)| {
            other.owner == a.owner
                || (pos.armies[b] & a.goal).is_empty()
                || self.is_blocker_owner(pos, other.owner)
        })
    }

    /// Whether the pieces of `seat` standing in another player's goal count towards filling it
    /// (the anti-blocking rule's blockers): when the seat has finished, is out of the game, or
    /// has made at least the grace period's number of own moves.
    #[must_use]
    pub fn is_blocker_owner(&self, pos: &Position, seat: Seat) -> bool {
        !pos.is_active(seat) || pos.moves_made(seat) >= self.options().anti_blocking_grace
    }

    fn seat_done(&self, pos: &Position, seat: u8) -> bool {
        let mask = self.army_mask(seat);
        (0..MAX_ARMIES)
            .filter(|a| mask & (1 << a) != 0)
            .all(|a| self.goal_filled(pos, a))
    }

    /// Marks every seat still playing whose goals count as filled as finished. A seat that
    /// finishes makes its pieces blockers in the others' goals, which can finish another seat
    /// in turn: repeated until nothing changes (at most once per seat).
    fn update_finished(&self, pos: &mut Position) {
        loop {
            let before = pos.finished;
            for s in 0..self.players() {
                if pos.is_active(Seat(s)) && self.seat_done(pos, s) {
                    pos.finished |= 1 << s;
                }
            }
            if pos.finished == before || self.options().anti_blocking_grace == 0 {
                return;
            }
        }
    }

    /// [`Variant::update_finished`] after a move that entered `cell` (a goal cell) and changed
    /// nobody's blockers: only the seats whose goal holds `cell` can have finished, and the
    /// others only in a cascade from them, so the others are checked only when one of these
    /// finished.
    fn update_finished_entering(&self, pos: &mut Position, cell: u8) {
        let before = pos.finished;
        let mut seats = self.goal_seats[usize::from(cell)];
        while seats != 0 {
            let s = seats.trailing_zeros() as u8;
            seats &= seats - 1;
            if pos.is_active(Seat(s)) && self.seat_done(pos, s) {
                pos.finished |= 1 << s;
            }
        }
        if pos.finished != before && self.options().anti_blocking_grace != 0 {
            self.update_finished(pos);
        }
    }

    fn update_leave_home(&self, pos: &mut Position, mover: u8) {
        if let Some(limit) = self.options().leave_home_moves {
            if pos.is_active(Seat(mover)) && pos.moves_made[usize::from(mover)] >= limit {
                let mask = self.army_mask(mover);
                let at_home = (0..MAX_ARMIES)
                    .filter(|a| mask & (1 << a) != 0)
                    .any(|a| !(pos.armies[a] & self.armies()[a].home).is_empty());
                if at_home {
                    // A loss by the leave-home rule takes the mover's whole team out.
                    for s in self.unit(Seat(mover)) {
                        if !pos.is_finished(s) {
                            pos.eliminated |= 1 << s.0;
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BoardKind, GameSetup, RuleOptions};

    /// The jump landings after a move, read without playing it, equal those of the position
    /// the move leads to, for every cell but the one left, every move of seeded games on the
    /// star and the 16 x 16 board.
    #[test]
    fn jump_landings_after_a_move_equal_those_of_the_position_it_leads_to() {
        for (board, players) in [(BoardKind::Star, 6), (BoardKind::Square16, 2)] {
            let v = Variant::new(&GameSetup {
                board,
                players,
                options: RuleOptions::default(),
            })
            .unwrap_or_else(|e| panic!("{e}"));
            let b = v.board();
            let mut pos = Position::start(&v, Seat(0));
            let mut list = Vec::new();
            let mut compared = 0;
            for ply in 0..120 {
                v.generate_moves(&pos, &mut list);
                let Some(&played) = list.get((ply * 7) % list.len().max(1)) else {
                    break;
                };
                for &mv in &list {
                    let mut next = pos;
                    v.play_unchecked(&mut next, mv);
                    for i in (0..b.len()).filter(|&i| i != usize::from(mv.from.0)) {
                        let Some(cell) = b.cell(i) else { continue };
                        let after: Vec<Cell> =
                            b.jump_landings_after(&pos, cell, mv.from, mv.to).collect();
                        let played: Vec<Cell> = b.jump_landings(&next, cell).collect();
                        assert_eq!(after, played, "{mv:?}, cell {i}");
                        compared += 1;
                    }
                }
                v.play_unchecked(&mut pos, played);
            }
            assert!(compared > 100_000, "only {compared} cells compared");
        }
    }

    /// The Zobrist keys are fixed: hashes stored with games (their recent keys) and tables
    /// built by one version must mean the same in the next.
    #[test]
    fn hashes_are_fixed() {
        let hash = |board, players| {
            let v = Variant::new(&GameSetup {
                board,
                players,
                options: RuleOptions::default(),
            })
            .unwrap_or_else(|e| panic!("{e}"));
            let mut pos = Position::start(&v, Seat(0));
            let mut list = Vec::new();
            v.generate_moves(&pos, &mut list);
            let start = pos.hash();
            v.play_unchecked(&mut pos, list[list.len() / 2]);
            (start, pos.hash())
        };
        let got = [
            hash(BoardKind::Star, 2),
            hash(BoardKind::Star, 6),
            hash(BoardKind::Square16, 4),
        ];
        // The values of the keys drawn at run time before they became a constant.
        assert_eq!(
            got,
            [
                (0x53ad_8252_ec3b_9173, 0x9928_4504_5474_1d7c),
                (0xa997_297b_9d11_b074, 0x6312_ee2d_255e_3c7b),
                (0xf79b_ad2c_35eb_adff, 0x57d9_72ce_4db7_ff03),
            ]
        );
    }
}
