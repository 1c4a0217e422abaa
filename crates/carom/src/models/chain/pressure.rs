//! The chain pressure estimator (Michel, Kapfer and Krauth, J. Chem. Phys. 140 (2014)
//! 054116) and block averages of it.
//!
//! A chain of set displacement `L` along `+x` carries the "advance" from the start of
//! its first disk to the end of its last: the displacement `L` itself plus, at every
//! lifting, the offset along `x` between the two centres at contact,
//! `sqrt(d_ij^2 - dy^2)`, `d_ij = r_i + r_j` and `dy` the pair's offset across. In
//! equilibrium `beta P A / N = <advance> / L`: the offsets are the jumps the chain
//! makes through the disks, and their rate per unit displacement is the contact
//! density of the pair distribution seen along the direction of motion, the same
//! quantity the virial sums over collisions in a dynamics.

/// Running totals over the chains done so far. Differences between two snapshots give
/// a block: its `z` is the block's `beta P A / N`.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Tally {
    /// Chains completed.
    pub chains: u64,
    /// Liftings (a disk stopping at contact and the struck one moving on).
    pub liftings: u64,
    /// Sum over chains of the chain's advance (displacement plus contact offsets).
    pub advance: f64,
    /// Sum over chains of the chain's displacement (`chains * L` for a fixed `L`).
    pub displacement: f64,
}

impl Tally {
    /// The totals of the chains between `earlier` and `self`.
    pub fn since(&self, earlier: &Tally) -> Tally {
        Tally {
            chains: self.chains - earlier.chains,
            liftings: self.liftings - earlier.liftings,
            advance: self.advance - earlier.advance,
            displacement: self.displacement - earlier.displacement,
        }
    }

    /// `beta P A / N` over these chains (`NaN` for none).
    pub fn z(&self) -> f64 {
        self.advance / self.displacement
    }
}

/// Mean and standard error of block values: the blocks are taken as independent, so
/// they must each be long compared with the correlation time of the quantity (their
/// spread then gives the error honestly; too short blocks understate it).
#[cfg(test)]
pub fn mean_and_error(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    if values.len() < 2 {
        return (mean, f64::NAN);
    }
    let var = values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}
