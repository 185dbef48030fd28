//! The seeded random generator of the random games: reproducible from the seed each game
//! prints.

use std::hash::{DefaultHasher, Hash, Hasher};

use halma_rules::SplitMix64;

/// A generator for one test.
pub struct Rng(SplitMix64);

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
        (Self(SplitMix64::new(base ^ hasher.finish())), base)
    }

    /// A random element of `items`, `None` when it is empty.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        items.get(self.0.index(items.len()))
    }
}
