//! A 256-bit set of cell indexes, large enough for every board of the family.

use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of cell indexes (0..256) stored as four 64-bit words.
///
/// Single-cell updates are written as whole-set operations: an indexed store of one word
/// followed by a vector load of the set stalls store forwarding, which cost a third of the move
/// generator's time.
///
/// Every board of the family has at most 256 cells (the 16 x 16 square), so one fixed-size
/// type serves all of them and a position can be copied without allocation.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub(crate) [u64; 4]);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard([0; 4]);

    /// The set holding the first `n` indexes (`n <= 256`).
    #[must_use]
    pub const fn first(n: usize) -> Bitboard {
        let mut words = [0u64; 4];
        let mut i = 0;
        while i < 4 {
            let lo = i * 64;
            if n >= lo + 64 {
                words[i] = u64::MAX;
            } else if n > lo {
                words[i] = (1u64 << (n - lo)) - 1;
            }
            i += 1;
        }
        Bitboard(words)
    }

    /// The set holding one index.
    #[inline]
    #[must_use]
    pub const fn single(i: u8) -> Bitboard {
        // Built without an indexed store: a scalar store followed by a vector load of the
        // same array stalls store forwarding in the hot loops.
        let bit = 1u64 << (i & 63);
        let w = i >> 6;
        Bitboard([
            if w == 0 { bit } else { 0 },
            if w == 1 { bit } else { 0 },
            if w == 2 { bit } else { 0 },
            if w == 3 { bit } else { 0 },
        ])
    }

    /// Whether `i` is in the set.
    #[inline]
    #[must_use]
    pub const fn has(&self, i: u8) -> bool {
        (self.0[(i >> 6) as usize] >> (i & 63)) & 1 != 0
    }

    /// Adds `i`.
    #[inline]
    pub fn set(&mut self, i: u8) {
        *self |= Bitboard::single(i);
    }

    /// Removes `i`.
    #[inline]
    pub fn clear(&mut self, i: u8) {
        *self &= !Bitboard::single(i);
    }

    /// Removes `from` (a member) and adds `to` (not a member), one word at a time: making a
    /// move updates a few sets this way, and whole-set operations would cost several times the
    /// instructions.
    #[inline]
    pub(crate) fn move_member(&mut self, from: u8, to: u8) {
        self.0[usize::from(from >> 6)] ^= 1 << (from & 63);
        self.0[usize::from(to >> 6)] ^= 1 << (to & 63);
    }

    /// Toggles `i`.
    #[inline]
    pub fn toggle(&mut self, i: u8) {
        *self ^= Bitboard::single(i);
    }

    /// Number of members.
    #[inline]
    #[must_use]
    pub const fn count(&self) -> u32 {
        self.0[0].count_ones()
            + self.0[1].count_ones()
            + self.0[2].count_ones()
            + self.0[3].count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        (self.0[0] | self.0[1] | self.0[2] | self.0[3]) == 0
    }

    /// Whether every member of `self` is in `other`.
    #[inline]
    #[must_use]
    pub fn is_subset(&self, other: &Bitboard) -> bool {
        (*self & !*other).is_empty()
    }

    /// Removes and returns the smallest member.
    #[inline]
    pub fn pop(&mut self) -> Option<u8> {
        for (w, word) in self.0.iter_mut().enumerate() {
            if *word != 0 {
                let bit = word.trailing_zeros();
                *word &= *word - 1;
                // w < 4 and bit < 64, so the index fits in a u8.
                return Some((w as u32 * 64 + bit) as u8);
            }
        }
        None
    }

    /// The members in increasing order.
    #[inline]
    #[must_use]
    pub fn iter(self) -> BitIter {
        BitIter {
            words: self.0,
            word: 0,
        }
    }
}

/// Iterator over the members of a [`Bitboard`], smallest first.
#[derive(Clone, Debug)]
pub struct BitIter {
    /// The members not yet returned.
    words: [u64; 4],
    /// The word being read: the ones before it are empty.
    word: usize,
}

impl Iterator for BitIter {
    type Item = u8;
    #[inline]
    fn next(&mut self) -> Option<u8> {
        while let Some(w) = self.words.get_mut(self.word) {
            if *w != 0 {
                let bit = w.trailing_zeros();
                *w &= *w - 1;
                // word < 4 and bit < 64, so the index fits in a u8.
                return Some((self.word as u32 * 64 + bit) as u8);
            }
            self.word += 1;
        }
        None
    }
}

impl core::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl FromIterator<u8> for Bitboard {
    fn from_iter<I: IntoIterator<Item = u8>>(iter: I) -> Self {
        let mut b = Bitboard::EMPTY;
        for i in iter {
            b.set(i);
        }
        b
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, r: Bitboard) -> Bitboard {
                Bitboard([
                    self.0[0] $op r.0[0],
                    self.0[1] $op r.0[1],
                    self.0[2] $op r.0[2],
                    self.0[3] $op r.0[3],
                ])
            }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, r: Bitboard) {
                *self = *self $op r;
            }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard([!self.0[0], !self.0[1], !self.0[2], !self.0[3]])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_ops() {
        let mut b = Bitboard::EMPTY;
        b.set(3);
        b.set(200);
        b.set(64);
        assert!(b.has(200) && b.has(3) && b.has(64) && !b.has(4));
        assert_eq!(b.count(), 3);
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![3, 64, 200]);
        b.clear(64);
        assert_eq!(b.count(), 2);
        assert_eq!(Bitboard::first(121).count(), 121);
        assert_eq!(Bitboard::first(256).count(), 256);
        assert_eq!(Bitboard::first(0).count(), 0);
        assert!(Bitboard::single(5).is_subset(&Bitboard::first(6)));
        assert!(!Bitboard::single(6).is_subset(&Bitboard::first(6)));
    }
}
