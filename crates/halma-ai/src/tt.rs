//! The transposition table: one entry per slot, keyed on the position hash.
//!
//! Entries are *depth-exact*: a stored bound is only used to cut off a node searched to the
//! same remaining depth, so a search with the table returns exactly the fixed-depth minimax
//! value a plain search returns (a deeper entry would be more accurate, but different). Entries
//! of any depth still supply the best move for ordering.

use crate::eval::WIN_THRESHOLD;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The score is the exact value.
    Exact,
    /// The true value is at least the score (a beta cutoff).
    Lower,
    /// The true value is at most the score (no move raised alpha).
    Upper,
}

impl Bound {
    /// What a node's value `best`, searched with the window `(alpha, beta)`, says.
    #[inline]
    pub(crate) fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best <= alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    score: i32,
    mv: u16,
    depth: u8,
    bound: Bound,
}

const EMPTY: Entry = Entry {
    key: 0,
    score: 0,
    mv: 0,
    depth: 0,
    bound: Bound::Upper,
};

/// A probe's answer.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hit {
    pub(crate) score: i32,
    pub(crate) mv: Option<u16>,
    pub(crate) depth: u8,
    pub(crate) bound: Bound,
}

/// A fixed-size table with always-replace slots.
#[derive(Clone, Debug)]
pub(crate) struct Table {
    slots: Vec<Entry>,
    mask: usize,
}

impl Table {
    /// A table of `2^bits` entries (16 bytes each).
    pub(crate) fn new(bits: u32) -> Table {
        let len = 1usize << bits.clamp(4, 26);
        Table {
            slots: vec![EMPTY; len],
            mask: len - 1,
        }
    }

    /// The entry stored for `key`, with a win score made relative to the probing node (`ply`).
    pub(crate) fn probe(&self, key: u64, ply: u32) -> Option<Hit> {
        let e = &self.slots[(key as usize) & self.mask];
        (e.key == key).then(|| Hit {
            score: from_tt(e.score, ply),
            mv: (e.mv != 0).then_some(e.mv),
            depth: e.depth,
            bound: e.bound,
        })
    }

    /// Stores a node's result.
    pub(crate) fn store(
        &mut self,
        key: u64,
        ply: u32,
        depth: u32,
        score: i32,
        bound: Bound,
        mv: Option<u16>,
    ) {
        let slot = &mut self.slots[(key as usize) & self.mask];
        // Keep the old best move when this result has none for the same position.
        let mv = mv.unwrap_or(if slot.key == key { slot.mv } else { 0 });
        *slot = Entry {
            key,
            score: to_tt(score, ply),
            mv,
            depth: depth.min(255) as u8,
            bound,
        };
    }
}

/// Win scores count plies from the root; in the table they count from the stored node.
fn to_tt(score: i32, ply: u32) -> i32 {
    let ply = ply as i32;
    if score >= WIN_THRESHOLD {
        score + ply
    } else if score <= -WIN_THRESHOLD {
        score - ply
    } else {
        score
    }
}

fn from_tt(score: i32, ply: u32) -> i32 {
    let ply = ply as i32;
    if score >= WIN_THRESHOLD {
        score - ply
    } else if score <= -WIN_THRESHOLD {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::WIN;

    #[test]
    fn win_scores_are_node_relative() {
        let mut t = Table::new(8);
        t.store(42, 3, 2, WIN - 5, Bound::Exact, Some(7));
        let hit = t.probe(42, 1);
        assert!(hit.is_some_and(|h| h.score == WIN - 3 && h.mv == Some(7) && h.depth == 2));
        assert!(t.probe(43, 1).is_none());
    }
}
