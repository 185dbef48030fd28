//! Positions: the placement of every army, whose turn it is, and each seat's move count and
//! standing; move generation (steps and jump chains) and making moves.

use std::sync::OnceLock;

use crate::bitboard::Bitboard;
use crate::board::{Board, Cell};
use crate::options::ForeignCorners;
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
    /// Per cell, bit `dir` set when the neighbour in `dir` is occupied.
    pub(crate) nb_occ: [u8; 256],
    /// Per cell, bit `dir` set when the cell two steps away in `dir` is occupied.
    pub(crate) two_occ: [u8; 256],
}

/// Zobrist keys: one per (army, cell), one per seat to move.
struct Keys {
    pieces: Vec<u64>,
    turn: [u64; MAX_SEATS],
}

fn keys() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    KEYS.get_or_init(|| {
        // splitmix64: a fixed seed, so hashes are the same in every process.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let pieces = (0..MAX_ARMIES * 256).map(|_| next()).collect();
        let mut turn = [0u64; MAX_SEATS];
        for t in &mut turn {
            *t = next();
        }
        Keys { pieces, turn }
    })
}

#[inline]
fn piece_key(army: usize, cell: u8) -> u64 {
    keys().pieces[army * 256 + usize::from(cell)]
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
            nb_occ: [0; 256],
            two_occ: [0; 256],
        };
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
        for &(c, nb, two) in board.pattern_updates(cell) {
            self.nb_occ[usize::from(c)] ^= nb;
            self.two_occ[usize::from(c)] ^= two;
        }
    }

    /// The position key recomputed from scratch (placement and player to move).
    #[must_use]
    pub fn compute_hash(&self) -> u64 {
        let mut h = keys().turn[usize::from(self.to_move)];
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

impl Variant {
    /// Cells a hop of army `army` may land on when it leaves `cell`, before the rules that only
    /// concern the final cell.
    #[inline]
    fn landing_mask(&self, army: usize, cell: u8) -> Bitboard {
        let a = &self.armies()[army];
        let mut m = self.board().all();
        if self.options().goal_lock && a.goal.has(cell) {
            m &= a.goal;
        }
        if self.options().foreign_corners == ForeignCorners::Forbidden {
            m &= !a.foreign;
        }
        m
    }

    /// Every cell the piece on `from` (of army `army`) can end a legal move on.
    #[inline]
    pub(crate) fn destinations(&self, pos: &Position, army: usize, from: u8) -> Bitboard {
        let a = &self.armies()[army];
        let mut occ = pos.occupied;
        let allowed = self.landing_mask(army, from);
        let steps = a.steps[usize::from(from)] & !occ & allowed;
        let reach = if self.options().long_jumps {
            occ.clear(from);
            self.flood_long(army, from, occ)
        } else {
            self.flood(pos, army, from)
        };
        let mut dest = steps | reach;
        dest.clear(from);
        if self.options().foreign_end_blocked() {
            dest &= !a.foreign;
        }
        dest
    }

    /// All cells reachable by ordinary jump chains from `from` (including `from`).
    #[inline]
    fn flood(&self, pos: &Position, army: usize, from: u8) -> Bitboard {
        let mut stack = [0u8; 256];
        Bitboard(self.flood_words(pos, army, from, &mut stack).0)
    }

    /// The jump-chain search behind [`Variant::flood`], on plain words with a caller-supplied
    /// stack so that a move count can reuse one buffer for all pieces.
    ///
    /// The jump directions open from a cell come from the position's occupancy patterns (an
    /// occupied neighbour with an empty cell behind it), corrected for the moving piece's start
    /// cell, which is empty during the chain. The visited set is kept as words updated one bit
    /// at a time: whole-set vector operations mixed with single-word updates stall store
    /// forwarding.
    #[inline]
    /// Returns the visited cells (the start included) and how many cells were landed on
    /// (the start excluded).
    fn flood_words(
        &self,
        pos: &Position,
        army: usize,
        from: u8,
        stack: &mut [u8; 256],
    ) -> ([u64; 4], u32) {
        let board = self.board();
        let lock = self.options().goal_lock;
        let forbidden = self.options().foreign_corners == ForeignCorners::Forbidden;
        let a = &self.armies()[army];
        let mut visited = [0u64; 4];
        visited[usize::from(from >> 6)] |= 1 << (from & 63);
        let mut top = 1usize;
        let mut landed = 0u32;
        stack[0] = from;
        while top > 0 {
            top -= 1;
            let c = stack[top];
            let rel = board.relation_raw(c, from);
            let over = pos.nb_occ[usize::from(c)] & !(rel as u8);
            let behind = pos.two_occ[usize::from(c)] & !((rel >> 8) as u8);
            let mut dirs = over & !behind & board.jump_dirs_raw(c);
            if dirs == 0 {
                continue;
            }
            let locked = lock && a.goal.has(c);
            while dirs != 0 {
                let d = dirs.trailing_zeros();
                dirs &= dirs - 1;
                let Some(land) = board.landing_raw(c, d) else {
                    continue;
                };
                let (w, bit) = (usize::from(land >> 6), 1u64 << (land & 63));
                if visited[w] & bit == 0
                    && (!locked || a.goal.has(land))
                    && !(forbidden && a.foreign.has(land))
                {
                    visited[w] |= bit;
                    stack[top] = land;
                    top += 1;
                    landed += 1;
                }
            }
        }
        (visited, landed)
    }

    /// Like [`Variant::flood`] with long jumps: over one piece as far along a line as there are
    /// empty cells in front of it, landing as far behind it.
    fn flood_long(&self, army: usize, from: u8, occ: Bitboard) -> Bitboard {
        let board = self.board();
        let dirs = usize::from(board.directions());
        let mut visited = Bitboard::single(from);
        let mut stack = vec![from];
        while let Some(c) = stack.pop() {
            let allowed = self.landing_mask(army, c);
            for d in 0..dirs {
                if let Some(land) = long_jump_landing(board.ray_raw(c, d), &occ) {
                    if allowed.has(land) && !visited.has(land) {
                        visited.set(land);
                        stack.push(land);
                    }
                }
            }
        }
        visited
    }

    /// Lists the legal moves of the seat to move into `out` (cleared first), each (from, to)
    /// pair once. A finished or eliminated seat has none.
    pub fn generate_moves(&self, pos: &Position, out: &mut Vec<Move>) {
        out.clear();
        if !pos.is_active(pos.to_move()) {
            return;
        }
        let mask = self.army_mask(pos.to_move);
        for army in 0..MAX_ARMIES {
            if mask & (1 << army) == 0 {
                continue;
            }
            for from in pos.armies[army].iter() {
                for to in self.destinations(pos, army, from).iter() {
                    out.push(Move {
                        from: Cell(from),
                        to: Cell(to),
                    });
                }
            }
        }
    }

    /// The legal moves of one piece (empty when it is not a piece of the seat to move).
    #[must_use]
    pub fn moves_from(&self, pos: &Position, from: Cell) -> Vec<Move> {
        match self.own_army_at(pos, from.0) {
            Some(army) if pos.is_active(pos.to_move()) => self
                .destinations(pos, army, from.0)
                .iter()
                .map(|to| Move { from, to: Cell(to) })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The number of legal moves of the seat to move, without listing them.
    #[must_use]
    pub fn count_moves(&self, pos: &Position) -> u32 {
        if !pos.is_active(pos.to_move()) {
            return 0;
        }
        let mut stack = [0u8; 256];
        let mut n = 0;
        self.for_each_piece(pos.to_move, pos, |army, from| {
            n += self.piece_count(pos, army, from, &mut stack).0;
        });
        n
    }

    /// Calls `f(army, cell)` for every piece of `seat`.
    #[inline(always)]
    pub(crate) fn for_each_piece(&self, seat: u8, pos: &Position, mut f: impl FnMut(usize, u8)) {
        let mut mask = self.army_mask(seat);
        while mask != 0 {
            let army = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            for (w, &word) in pos.armies[army].0.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    f(army, (w as u32 * 64 + bits.trailing_zeros()) as u8);
                    bits &= bits - 1;
                }
            }
        }
    }

    /// Whether the fast counting path applies (no long jumps, no foreign-corner rule).
    #[inline]
    pub(crate) fn simple_rules(&self) -> bool {
        !self.options().long_jumps && self.options().foreign_corners == ForeignCorners::Allowed
    }

    /// The number of moves of one piece, and the cells its chains visit (the start included;
    /// `None` where the slow path was taken).
    #[inline(always)]
    pub(crate) fn piece_count(
        &self,
        pos: &Position,
        army: usize,
        from: u8,
        stack: &mut [u8; 256],
    ) -> (u32, Option<[u64; 4]>) {
        let a = &self.armies()[army];
        if !self.simple_rules() || (self.options().goal_lock && a.goal.has(from)) {
            return (self.destinations(pos, army, from).count(), None);
        }
        // The free step directions, plus the cells jump chains reach that a step does not.
        let board = self.board();
        let f = usize::from(from);
        let free_steps = a.step_dirs[f] & !pos.nb_occ[f];
        let mut n = u32::from(POPCOUNT8[usize::from(free_steps)]);
        if pos.nb_occ[f] & !pos.two_occ[f] & board.jump_dirs_raw(from) == 0 {
            let mut only = [0u64; 4];
            only[usize::from(from >> 6)] = 1 << (from & 63);
            return (n, Some(only));
        }
        let (reach, landed) = self.flood_words(pos, army, from, stack);
        n += landed;
        let mut dirs = free_steps;
        while dirs != 0 {
            let d = dirs.trailing_zeros();
            dirs &= dirs - 1;
            if let Some(nb) = board.neighbor_raw(from, d as usize) {
                n -= u32::from(reach[usize::from(nb >> 6)] & (1 << (nb & 63)) != 0);
            }
        }
        (n, Some(reach))
    }

    /// Whether the seat to move has any legal move.
    #[must_use]
    pub fn has_moves(&self, pos: &Position) -> bool {
        if !pos.is_active(pos.to_move()) {
            return false;
        }
        let mask = self.army_mask(pos.to_move);
        (0..MAX_ARMIES)
            .filter(|a| mask & (1 << a) != 0)
            .any(|army| {
                pos.armies[army]
                    .iter()
                    .any(|from| !self.destinations(pos, army, from).is_empty())
            })
    }

    /// The army of the seat to move standing on `cell`.
    pub(crate) fn own_army_at(&self, pos: &Position, cell: u8) -> Option<usize> {
        let mask = self.army_mask(pos.to_move);
        (0..MAX_ARMIES).find(|&a| mask & (1 << a) != 0 && pos.armies[a].has(cell))
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
        pos.armies[army].clear(mv.from.0);
        pos.armies[army].set(mv.to.0);
        pos.occupied.clear(mv.from.0);
        pos.occupied.set(mv.to.0);
        pos.toggle_patterns(self.board(), mv.from.0);
        pos.toggle_patterns(self.board(), mv.to.0);
        pos.hash ^= piece_key(army, mv.from.0) ^ piece_key(army, mv.to.0);
        pos.moves_made[usize::from(seat)] = pos.moves_made[usize::from(seat)].saturating_add(1);
        // A goal's state changes when a piece enters or leaves a goal, and, under the
        // anti-blocking rule's grace period, when the mover's pieces in others' goals start to
        // count as blockers (its grace-th move).
        let grace = self.options().anti_blocking_grace;
        let blockers_now = grace != 0 && pos.moves_made[usize::from(seat)] == grace;
        if blockers_now || self.all_goals.has(mv.from.0) || self.all_goals.has(mv.to.0) {
            self.update_finished(pos);
        }
        let out_before = pos.eliminated;
        self.update_leave_home(pos, seat);
        if grace != 0 && pos.eliminated != out_before {
            // The eliminated seat's pieces now count as blockers in others' goals.
            self.update_finished(pos);
        }
        self.advance_turn(pos);
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
            next = (next + 1) % n;
            if pos.is_active(Seat(next)) {
                break;
            }
        }
        if next != old {
            pos.hash ^= keys().turn[usize::from(old)] ^ keys().turn[usize::from(next)];
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

/// Bits set in each byte value (a table: the baseline x86-64 target has no popcount
/// instruction).
const POPCOUNT8: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as u8).count_ones() as u8;
        i += 1;
    }
    t
};

/// The landing cell of a (long) jump along `ray`: the first piece on the ray is jumped when as
/// many empty cells follow it as precede it, and the cell after those is empty too.
pub(crate) fn long_jump_landing(ray: &[u8], occ: &Bitboard) -> Option<u8> {
    let first = ray.iter().position(|&c| occ.has(c))?;
    let land = 2 * first + 1;
    if land >= ray.len() {
        return None;
    }
    ray[first + 1..=land]
        .iter()
        .all(|&c| !occ.has(c))
        .then(|| ray[land])
}
