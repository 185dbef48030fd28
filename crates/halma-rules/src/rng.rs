//! A small seeded random number generator (SplitMix64, Steele, Lea and Flood 2014): the
//! Zobrist keys of [`crate::Position`] come from it with a fixed seed, so hashes are the same in
//! every process, and the AI draws its move noise from it, so that every choice made at random
//! is reproducible from the request's seed. Tests use it for reproducible random play.

/// A SplitMix64 generator: fast, tiny, and good enough for hash keys, move noise and random
/// openings (not for anything secret).
///
/// ```
/// use halma_rules::SplitMix64;
///
/// let mut rng = SplitMix64::new(7);
/// let roll = rng.below(6);
/// assert!(roll < 6);
/// assert_eq!(SplitMix64::new(7).below(6), roll);
/// ```
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator started from `seed`.
    #[must_use]
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub const fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`0` when `n == 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        // Multiply-shift keeps the bias negligible for the small ranges used here.
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// An index into a slice of length `n` (`0` when `n == 0`).
    pub fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reproducible_and_in_range() {
        let mut a = SplitMix64::new(7);
        let mut b = SplitMix64::new(7);
        for _ in 0..100 {
            let x = a.below(10);
            assert_eq!(x, b.below(10));
            assert!(x < 10);
        }
        assert_eq!(a.below(0), 0);
    }

    #[test]
    fn the_published_sequence() {
        // The first outputs for seed 0, as in the reference implementation.
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }
}
