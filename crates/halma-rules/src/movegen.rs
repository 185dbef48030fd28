//! Move generation: steps and jump chains of every piece, listed or counted.
//!
//! One implementation serves every board: the jump search is generic over the width of its cell
//! sets ([`CellSet`]): 128 bits on boards of at most 128 cells (the star up to arm size 4,
//! 10 x 10, 8 x 8), 256 bits otherwise. The jump directions open at a cell come from the
//! position's occupancy patterns (one 16-bit word per cell, see `Board::edge_pattern`); long
//! jumps walk the lines instead.

use core::ops::{BitAnd, BitOr, Not};

use crate::bitboard::Bitboard;
use crate::board::Cell;
use crate::options::ForeignCorners;
use crate::position::{Move, Position};
use crate::variant::Variant;

/// A set of cells for the jump search, as wide as the board needs.
pub(crate) trait CellSet:
    Copy + BitAnd<Output = Self> + BitOr<Output = Self> + Not<Output = Self>
{
    /// The empty set.
    const EMPTY: Self;
    /// Number of 64-bit words.
    const WORDS: usize;
    /// Word `i` (`i < WORDS`) of the set.
    fn word(&self, i: usize) -> u64;
    /// The set holding the cells of `b` (all below the set's width).
    fn from_bitboard(b: &Bitboard) -> Self;
    /// The set holding one cell.
    fn single(c: u8) -> Self;
    /// Whether `c` is in the set.
    fn has(&self, c: u8) -> bool;
    /// Adds `c`.
    fn insert(&mut self, c: u8);
    /// The jump search's stack: one (cell, jump directions) entry per cell of a board of this
    /// width.
    type Stack: AsMut<[(u8, u8)]>;
    /// An empty stack.
    const STACK: Self::Stack;
    /// A move list's buffer: room for the moves of two pieces (at most one move per cell).
    type Moves: AsMut<[Move]>;
    /// An empty buffer.
    const MOVES: Self::Moves;
    /// Calls `f` for every member, smallest first.
    #[inline(always)]
    fn for_each(self, f: impl FnMut(u8)) {
        for_each_bit(Self::WORDS, |i| self.word(i), f);
    }
}

/// The filler of move buffers.
const NO_MOVE: Move = Move {
    from: Cell(0),
    to: Cell(0),
};

/// A set of up to 128 cells in two words, for the boards of at most 128 cells (the star of
/// arm size 4 or less, 10 x 10, 8 x 8): half the work of a 256-bit set.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Set128([u64; 2]);

impl BitAnd for Set128 {
    type Output = Set128;
    #[inline(always)]
    fn bitand(self, r: Set128) -> Set128 {
        Set128([self.0[0] & r.0[0], self.0[1] & r.0[1]])
    }
}

impl BitOr for Set128 {
    type Output = Set128;
    #[inline(always)]
    fn bitor(self, r: Set128) -> Set128 {
        Set128([self.0[0] | r.0[0], self.0[1] | r.0[1]])
    }
}

impl Not for Set128 {
    type Output = Set128;
    #[inline(always)]
    fn not(self) -> Set128 {
        Set128([!self.0[0], !self.0[1]])
    }
}

impl CellSet for Set128 {
    const EMPTY: Set128 = Set128([0; 2]);
    const WORDS: usize = 2;
    type Stack = [(u8, u8); 128];
    const STACK: [(u8, u8); 128] = [(0, 0); 128];
    type Moves = [Move; 256];
    const MOVES: [Move; 256] = [NO_MOVE; 256];

    #[inline(always)]
    fn word(&self, i: usize) -> u64 {
        self.0[i & 1]
    }

    #[inline(always)]
    fn from_bitboard(b: &Bitboard) -> Set128 {
        Set128([b.0[0], b.0[1]])
    }

    #[inline(always)]
    fn single(c: u8) -> Set128 {
        let mut s = Set128::EMPTY;
        s.insert(c);
        s
    }

    #[inline(always)]
    fn has(&self, c: u8) -> bool {
        (self.0[usize::from((c >> 6) & 1)] >> (c & 63)) & 1 != 0
    }

    #[inline(always)]
    fn insert(&mut self, c: u8) {
        self.0[usize::from((c >> 6) & 1)] |= 1 << (c & 63);
    }
}

/// Boards of up to 256 cells (16 x 16, the star of arm size 5).
impl CellSet for Bitboard {
    const EMPTY: Bitboard = Bitboard::EMPTY;
    const WORDS: usize = 4;
    type Stack = [(u8, u8); 256];
    const STACK: [(u8, u8); 256] = [(0, 0); 256];
    type Moves = [Move; 512];
    const MOVES: [Move; 512] = [NO_MOVE; 512];

    #[inline(always)]
    fn word(&self, i: usize) -> u64 {
        self.0[i & 3]
    }

    #[inline(always)]
    fn from_bitboard(b: &Bitboard) -> Bitboard {
        *b
    }

    #[inline(always)]
    fn single(c: u8) -> Bitboard {
        Bitboard::single(c)
    }

    #[inline(always)]
    fn has(&self, c: u8) -> bool {
        Bitboard::has(self, c)
    }

    #[inline(always)]
    fn insert(&mut self, c: u8) {
        // One word updated in place: a whole-set operation here would stall store forwarding.
        self.0[usize::from(c >> 6)] |= 1 << (c & 63);
    }
}

/// What the jump search of one army needs, read once per move list or count.
#[derive(Clone, Copy)]
struct ArmyRules<'a, S> {
    /// The army's step directions per cell (see `Army::step_dirs`).
    step_dirs: &'a [u8; 256],
    /// The army's goal, when the goal lock holds pieces in it (else empty).
    locked_goal: S,
    /// Cells no hop may land on (forbidden camps), else empty.
    banned: S,
    /// Whether `banned` has any cell.
    any_banned: bool,
    /// Cells no move may end on (foreign corners under either foreign-corner rule), else empty.
    no_end: S,
}

/// The cells a piece can end a move on: its steps and the cells its jump chains reach, less
/// the cells a move may not end on.
///
/// Kept in parts and read word by word: the reached set was just built one word at a time,
/// and a whole-set read of it would stall store forwarding.
struct Destinations<S> {
    steps: S,
    reach: S,
    keep: S,
}

impl<S: CellSet> Destinations<S> {
    #[inline(always)]
    fn word(&self, i: usize) -> u64 {
        (self.steps.word(i) | self.reach.word(i)) & self.keep.word(i)
    }

    #[inline(always)]
    fn count(&self) -> u32 {
        (0..S::WORDS).map(|i| self.word(i).count_ones()).sum()
    }

    #[inline(always)]
    fn to_bitboard(&self) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for (i, w) in b.0.iter_mut().enumerate().take(S::WORDS) {
            *w = self.word(i);
        }
        b
    }
}

impl Variant {
    #[inline(always)]
    fn army_rules<S: CellSet>(&self, army: usize) -> ArmyRules<'_, S> {
        let a = &self.armies()[army];
        let o = self.options();
        let foreign = S::from_bitboard(&a.foreign);
        ArmyRules {
            step_dirs: &a.step_dirs,
            locked_goal: if o.goal_lock {
                S::from_bitboard(&a.goal)
            } else {
                S::EMPTY
            },
            banned: if o.foreign_corners == ForeignCorners::Forbidden {
                foreign
            } else {
                S::EMPTY
            },
            any_banned: o.foreign_corners == ForeignCorners::Forbidden,
            no_end: if o.foreign_end_blocked() {
                foreign
            } else {
                S::EMPTY
            },
        }
    }

    /// Every cell the piece on `from` (of army `army`) can end a legal move on.
    #[inline]
    pub(crate) fn destinations(&self, pos: &Position, army: usize, from: u8) -> Bitboard {
        if self.board().len() <= 128 {
            let mut stack = Set128::STACK;
            self.destinations_in::<Set128>(pos, army, from, &self.army_rules(army), &mut stack)
                .to_bitboard()
        } else {
            let mut stack = Bitboard::STACK;
            self.destinations_in::<Bitboard>(pos, army, from, &self.army_rules(army), &mut stack)
                .to_bitboard()
        }
    }

    /// [`Variant::destinations`] in sets of width `S`, with the caller's stack for the jump
    /// search.
    #[inline(always)]
    fn destinations_in<S: CellSet>(
        &self,
        pos: &Position,
        army: usize,
        from: u8,
        rules: &ArmyRules<'_, S>,
        stack: &mut S::Stack,
    ) -> Destinations<S> {
        let a = &self.armies()[army];
        // Steps: the army's step targets that are free (and allowed).
        let mut steps = S::from_bitboard(&a.steps[usize::from(from)])
            & !S::from_bitboard(&pos.occupied)
            & !rules.banned;
        if rules.locked_goal.has(from) {
            steps = steps & rules.locked_goal;
        }
        let mut reach = S::single(from);
        if self.options().long_jumps {
            let mut occ = pos.occupied;
            occ.clear(from);
            reach = S::from_bitboard(&self.flood_long(army, from, occ));
        } else {
            let first = pos.open_jumps(from, 0);
            if first != 0 {
                self.flood_in(pos, from, first, rules, &mut reach, stack);
            }
        }
        Destinations {
            steps,
            reach,
            keep: !rules.no_end & !S::single(from),
        }
    }

    /// Adds to `visited` (which holds `from`) every cell reachable by ordinary jump chains from
    /// `from`; returns how many were landed on. The caller owns the set and reads it cell by
    /// cell: copying it whole right after its one-word updates would stall store forwarding.
    ///
    /// A depth-first search whose open directions come from the position's occupancy patterns
    /// (an occupied neighbour with an empty cell behind it), corrected for the moving piece's
    /// start cell, which is empty during the chain. The stack (`S::Stack`, one entry per cell
    /// of the widest board of the set's width) is the caller's, so that a move list or count
    /// sets it up once.
    #[inline(always)]
    fn flood_in<S: CellSet>(
        &self,
        pos: &Position,
        from: u8,
        first_dirs: u8,
        rules: &ArmyRules<'_, S>,
        visited: &mut S,
        stack: &mut S::Stack,
    ) -> u32 {
        let stack = stack.as_mut();
        let board = self.board();
        let relation = board.relation_row(from);
        let mut landed = 0u32;
        let banned = rules.banned;
        let any_banned = rules.any_banned;
        // The cell being left, and its open jump directions; the stack holds the cells still to
        // leave with theirs, less the jump back to where the chain came from (it only returns
        // to a visited cell).
        let mut c = from;
        let mut dirs = first_dirs;
        let mut top = 0usize;
        loop {
            if dirs != 0 {
                // A chain standing in a locked goal may only land inside it.
                let locked = rules.locked_goal.has(c);
                while dirs != 0 {
                    let d = dirs.trailing_zeros();
                    dirs &= dirs - 1;
                    // An open direction's landing is on the board.
                    let land = board.open_landing(c, d);
                    if !visited.has(land)
                        && (!locked || rules.locked_goal.has(land))
                        && (!any_banned || !banned.has(land))
                    {
                        visited.insert(land);
                        landed += 1;
                        // The jumps open from the landing, less the one back: a cell with none
                        // is not stacked (at most one entry per cell of the board).
                        let onward =
                            pos.open_jumps(land, relation[usize::from(land)]) & !board.back_bit(d);
                        if onward != 0 {
                            if let Some(slot) = stack.get_mut(top) {
                                *slot = (land, onward);
                            }
                            top += 1;
                        }
                    }
                }
            }
            let Some(&(cell, onward)) = top.checked_sub(1).and_then(|t| stack.get(t)) else {
                break;
            };
            top -= 1;
            c = cell;
            dirs = onward;
        }
        landed
    }

    /// Like the ordinary jump search with long jumps: over one piece as far along a line as
    /// there are empty cells in front of it, landing as far behind it.
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

    /// Lists the legal moves of the seat to move into `out` (cleared first), each (from, to)
    /// pair once. A finished or eliminated seat has none.
    pub fn generate_moves(&self, pos: &Position, out: &mut Vec<Move>) {
        out.clear();
        if !pos.is_active(pos.to_move()) {
            return;
        }
        if self.board().len() <= 128 {
            self.generate_in::<Set128>(pos, out);
        } else {
            self.generate_in::<Bitboard>(pos, out);
        }
    }

    #[inline(always)]
    fn generate_in<S: CellSet>(&self, pos: &Position, out: &mut Vec<Move>) {
        let mut stack = S::STACK;
        // The moves are written here first and appended in few copies: a push per move would
        // check the capacity and reload the length each time, a copy per piece would call
        // `memcpy` for a handful of moves. Room for one more piece (at most one move per cell)
        // is kept free.
        let mut buffer = S::MOVES;
        let moves = buffer.as_mut();
        let room = moves.len() / 2;
        let mut n = 0;
        let long = self.options().long_jumps;
        let empty = !S::from_bitboard(&pos.occupied);
        self.for_each_army(pos.to_move, |army| {
            let rules = self.army_rules::<S>(army);
            let a = &self.armies()[army];
            // Where a step may end, and where a jump chain may (its landings are checked
            // hop by hop during the search).
            let step_ends = empty & !rules.banned & !rules.no_end;
            let chain_ends = !rules.no_end;
            S::from_bitboard(&pos.armies[army]).for_each(|from| {
                if n > room {
                    out.extend_from_slice(&moves[..n]);
                    n = 0;
                }
                let mut steps = a
                    .steps
                    .get(usize::from(from))
                    .map_or(S::EMPTY, |s| S::from_bitboard(s))
                    & step_ends;
                if rules.locked_goal.has(from) {
                    steps = steps & rules.locked_goal;
                }
                let first = if long { 0 } else { pos.open_jumps(from, 0) };
                if !long && first == 0 {
                    // No jump: the steps alone (the common case in the middle game).
                    for i in 0..S::WORDS {
                        write_moves(moves, &mut n, from, i, steps.word(i));
                    }
                    return;
                }
                let mut reach = S::single(from);
                if long {
                    let mut occ = pos.occupied;
                    occ.clear(from);
                    reach = S::from_bitboard(&self.flood_long(army, from, occ));
                } else {
                    self.flood_in(pos, from, first, &rules, &mut reach, &mut stack);
                }
                // The search's set holds the start cell, which no move ends on.
                let start = S::single(from);
                for i in 0..S::WORDS {
                    let ends =
                        (steps.word(i) | (reach.word(i) & chain_ends.word(i))) & !start.word(i);
                    write_moves(moves, &mut n, from, i, ends);
                }
            });
        });
        out.extend_from_slice(&moves[..n.min(moves.len())]);
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
        if self.board().len() <= 128 {
            self.count_in::<Set128>(pos)
        } else {
            self.count_in::<Bitboard>(pos)
        }
    }

    #[inline(always)]
    fn count_in<S: CellSet>(&self, pos: &Position) -> u32 {
        let mut stack = S::STACK;
        let mut n = 0;
        let simple = self.simple_rules();
        self.for_each_army(pos.to_move, |army| {
            let rules = self.army_rules::<S>(army);
            let pieces = S::from_bitboard(&pos.armies[army]);
            if !simple {
                pieces.for_each(|from| {
                    n += self
                        .destinations_in(pos, army, from, &rules, &mut stack)
                        .count();
                });
                return;
            }
            // Pieces standing in a locked goal take the general path; the others have their
            // free steps and their jump landings.
            (pieces & rules.locked_goal).for_each(|from| {
                n += self
                    .destinations_in(pos, army, from, &rules, &mut stack)
                    .count();
            });
            (pieces & !rules.locked_goal).for_each(|from| {
                n += self.free_piece_count(pos, army, from, &rules, &mut stack).0;
            });
        });
        n
    }

    /// Calls `f(army)` for every army of `seat`.
    #[inline(always)]
    fn for_each_army(&self, seat: u8, mut f: impl FnMut(usize)) {
        let mut mask = self.army_mask(seat);
        while mask != 0 {
            f(mask.trailing_zeros() as usize);
            mask &= mask - 1;
        }
    }

    /// Calls `f(army, cell)` for every piece of `seat`.
    #[inline(always)]
    pub(crate) fn for_each_piece(&self, seat: u8, pos: &Position, mut f: impl FnMut(usize, u8)) {
        let mut mask = self.army_mask(seat);
        while mask != 0 {
            let army = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let pieces = &pos.armies[army];
            for_each_bit(4, |w| pieces.0[w & 3], |cell| f(army, cell));
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
        stack: &mut [(u8, u8); 256],
    ) -> (u32, Option<[u64; 4]>) {
        let rules = self.army_rules(army);
        let (n, reach) =
            self.piece_count_in::<Bitboard>(pos, army, from, &rules, self.simple_rules(), stack);
        (n, reach.map(|r| r.0))
    }

    #[inline(always)]
    fn piece_count_in<S: CellSet>(
        &self,
        pos: &Position,
        army: usize,
        from: u8,
        rules: &ArmyRules<'_, S>,
        simple: bool,
        stack: &mut S::Stack,
    ) -> (u32, Option<S>) {
        if !simple || rules.locked_goal.has(from) {
            return (
                self.destinations_in(pos, army, from, rules, stack).count(),
                None,
            );
        }
        let (n, reach) = self.free_piece_count(pos, army, from, rules, stack);
        (n, Some(reach))
    }

    /// The number of moves of a piece under the simple rules (see [`Variant::simple_rules`])
    /// that does not stand in a locked goal, and the cells its chains visit (its start
    /// included): its free steps plus the cells its jump chains land on. No cell is both:
    /// every jump moves a piece two cells along a line, so a chain ends an even number of
    /// cells away along each axis of the board's lattice (its cube or file and rank
    /// coordinates), where no neighbour lies.
    #[inline(always)]
    fn free_piece_count<S: CellSet>(
        &self,
        pos: &Position,
        army: usize,
        from: u8,
        rules: &ArmyRules<'_, S>,
        stack: &mut S::Stack,
    ) -> (u32, S) {
        let f = usize::from(from);
        let pattern = pos.patterns[f];
        let free_steps = rules.step_dirs[f] & !(pattern as u8);
        let steps = u32::from(POPCOUNT8[usize::from(free_steps)]);
        let first = (pattern as u8) & !((pattern >> 8) as u8);
        if first == 0 {
            return (steps, S::single(from));
        }
        let mut reach = S::single(from);
        let landed = self.flood_in(pos, from, first, rules, &mut reach, stack);
        debug_assert!(
            (0..S::WORDS).all(|i| {
                S::from_bitboard(&self.armies()[army].steps[f]).word(i) & reach.word(i) == 0
            }),
            "a jump chain reached a neighbour of its start cell"
        );
        (steps + landed, reach)
    }

    /// Calls `f(army, from, destinations)` for every piece of the seat to move (none when that
    /// seat is out of the game), with the cells it can end a move on: [`Variant::destinations`]
    /// of every piece, with one jump stack and the army rules read once per army.
    pub(crate) fn for_each_destinations(&self, pos: &Position, f: impl FnMut(usize, u8, Bitboard)) {
        if !pos.is_active(pos.to_move()) {
            return;
        }
        if self.board().len() <= 128 {
            self.destinations_each::<Set128>(pos, f);
        } else {
            self.destinations_each::<Bitboard>(pos, f);
        }
    }

    #[inline(always)]
    fn destinations_each<S: CellSet>(
        &self,
        pos: &Position,
        mut f: impl FnMut(usize, u8, Bitboard),
    ) {
        let mut stack = S::STACK;
        self.for_each_army(pos.to_move, |army| {
            let rules = self.army_rules::<S>(army);
            S::from_bitboard(&pos.armies[army]).for_each(|from| {
                let dest = self.destinations_in(pos, army, from, &rules, &mut stack);
                f(army, from, dest.to_bitboard());
            });
        });
    }

    /// Whether the seat to move has any legal move.
    #[must_use]
    pub fn has_moves(&self, pos: &Position) -> bool {
        if !pos.is_active(pos.to_move()) {
            return false;
        }
        self.armies_of(pos.to_move()).any(|army| {
            pos.armies[army]
                .iter()
                .any(|from| !self.destinations(pos, army, from).is_empty())
        })
    }
}

/// Calls `f` with the index of every set bit of the first `words` words (`word(i)` gives word
/// `i`, at most 4), smallest first.
#[inline(always)]
fn for_each_bit(words: usize, word: impl Fn(usize) -> u64, mut f: impl FnMut(u8)) {
    for i in 0..words {
        let mut bits = word(i);
        while bits != 0 {
            // i < 4 and the bit < 64: an index below 256.
            f((i as u32 * 64 + bits.trailing_zeros()) as u8);
            bits &= bits - 1;
        }
    }
}

/// Writes the moves from `from` to the cells of word `word` of a set of destinations (`bits`)
/// into `moves` from position `*n` on, and advances `*n`.
#[inline(always)]
fn write_moves(moves: &mut [Move], n: &mut usize, from: u8, word: usize, mut bits: u64) {
    // word < 4: the cells of this word start below 256.
    let base = (word * 64) as u8;
    while bits != 0 {
        let to = base | bits.trailing_zeros() as u8;
        bits &= bits - 1;
        // The buffer's length is a power of two and `*n` stays below it (the caller keeps
        // room for a piece's moves): the mask only spares the bounds check.
        let slot = *n & (moves.len() - 1);
        if let Some(slot) = moves.get_mut(slot) {
            *slot = Move {
                from: Cell(from),
                to: Cell(to),
            };
        }
        *n += 1;
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
