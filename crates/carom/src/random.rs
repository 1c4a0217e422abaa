//! The random stream of generated scenes and of the event-chain sampler: one fully
//! specified generator, so that a seed gives the same balls and the same chains in
//! every version.

/// SplitMix64: a tiny, fully specified generator. Written out here rather than taken
/// from a crate because a scenario's seed must give the same scene in every version,
/// and a dependency upgrade may change its streams. The whole state is the one word, so
/// a state file can hold it and `SplitMix64(word)` continues the stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1), 53 bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in `0..n` (`n >= 1`), without bias: the high word of `u * n` is uniform
    /// once the draws whose low word falls in the short first stretch `2^64 mod n` are
    /// drawn again (Lemire, ACM TOMACS 29 (2019) 3).
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = u128::from(self.next_u64()) * u128::from(n);
            if (m as u64) >= threshold {
                return (m >> 64) as u64;
            }
        }
    }

    /// Uniform in [-1, 1).
    pub fn symmetric(&mut self) -> f64 {
        2.0 * self.unit() - 1.0
    }
}
