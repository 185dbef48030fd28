//! A small seeded random generator (SplitMix64) for the random games: reproducible from the
//! seed each game prints, with no dependency.

use std::hash::{DefaultHasher, Hash, Hasher};

/// A SplitMix64 generator.
pub struct Rng(u64);

impl Rng {
    /// The generator of a test, seeded by the test's name and a base seed: the value of
    /// `HALMA_BLACKBOX_SEED` when set, else a constant. Returns the base seed, which replays
    /// the test's random moves (the service's AI, which finishes the games, may still choose
    /// differently from one run to the next).
    pub fn for_test(test: &str) -> (Self, u64) {
        let base = std::env::var("HALMA_BLACKBOX_SEED")
            .ok()
            .and_then(|text| text.trim().parse::<u64>().ok())
            .unwrap_or(0x4a11_a5ee_d000_0001);
        let mut hasher = DefaultHasher::new();
        test.hash(&mut hasher);
        (Self(base ^ hasher.finish()), base)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `bound` (which must not be 0).
    pub fn below(&mut self, bound: usize) -> usize {
        // The modulo bias is irrelevant for picking moves.
        usize::try_from(self.next_u64() % bound as u64).unwrap()
    }

    /// A random element of `items`, `None` when it is empty.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            None
        } else {
            items.get(self.below(items.len()))
        }
    }
}
