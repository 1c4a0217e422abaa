//! The sampler's own random stream: SplitMix64 (Steele, Lea and Flood, "Fast splittable
//! pseudorandom number generators", OOPSLA 2014). One 64-bit word of state, advanced by
//! a fixed odd increment (the golden-ratio constant) and passed through two
//! xor-shift-multiply rounds. A chain draws once (the disk that starts it), so the
//! stream's speed does not matter; what matters is that the whole state is one word a
//! state file can hold.

/// The golden-ratio increment, `2^64 / phi` rounded to odd.
const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The whole state (for a state file); `new(state)` continues the same stream.
    pub fn state(&self) -> u64 {
        self.state
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GAMMA);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
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

    /// Uniform in `[0, 1)` with 53 random bits.
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}
