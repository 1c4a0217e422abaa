//! Straight event-chain Monte Carlo for hard disks of any sizes in a periodic
//! rectangular box (Bernard, Krauth and Wilson, Phys. Rev. E 80 (2009) 056704), with
//! the chain pressure estimator (Michel, Kapfer and Krauth, J. Chem. Phys. 140 (2014)
//! 054116). Equilibrium sampling of configurations, not a dynamics. docs/chain.md has
//! the algorithm, the argument for its correctness and the measured speed.
//!
//! A chain picks a disk uniformly (from its own seeded stream) and moves it along the
//! chain's direction, `+x` and `+y` in turn, until it touches another disk at exactly
//! the pair's contact distance `r_i + r_j`; it stops there and the struck disk moves on
//! (a lifting), until the displacements add up to the chain length `L`.
//!
//! Self-contained: plain arrays in, plain arrays out. The outcome depends only on the
//! positions, the radii, the stream's state and the next direction (never on the order
//! of disks in memory), so a run rebuilt from those continues bit for bit.

mod cells;
mod model;
mod pressure;
#[cfg(test)]
mod tests;

use crate::random::SplitMix64;
use cells::{Grid, GridError, NONE};
pub use model::ChainModel;
#[cfg(test)]
use pressure::mean_and_error;
pub use pressure::Tally;

/// Why a sampler cannot be built or a chain cannot go on.
#[derive(Debug, Clone, PartialEq)]
pub enum ChainError {
    /// The box is not a positive, finite rectangle.
    Box(String),
    /// A disk's position or radius is unusable: its index and why.
    Disk(usize, String),
    /// The box holds fewer than three largest contact distances on a side.
    SmallBox(String),
    /// Two disks overlap: their indices and the depth as a fraction of their contact
    /// distance.
    Overlap(usize, usize, f64),
    /// The chain length is not positive and finite.
    Length(String),
    /// Every disk a chain meets touches the next one ahead: a row of touching disks
    /// closes on itself around the box, and the chain can never advance.
    Jammed,
}

impl std::fmt::Display for ChainError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ChainError::Box(why) => write!(f, "chain: box {why}"),
            ChainError::Disk(i, why) => write!(f, "chain: ball {i}: {why}"),
            ChainError::SmallBox(why) => write!(f, "chain: {why}"),
            ChainError::Overlap(i, j, depth) => write!(
                f,
                "chain: balls {i} and {j} overlap (by {depth:.3e} of their contact distance)"
            ),
            ChainError::Length(why) => write!(f, "chain: length {why}"),
            ChainError::Jammed => write!(
                f,
                "chain: a row of touching disks closes around the box; no chain can advance"
            ),
        }
    }
}

impl std::error::Error for ChainError {}

/// Overlaps deeper than this fraction of the contact distance are refused at the start
/// and reported by the debug check after every lifting: far above the round-off of a
/// contact computed in f64 (about 1e-16 of the box side), far below any real overlap.
pub const OVERLAP_TOLERANCE: f64 = 1e-9;

/// The direction of a chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axis {
    X,
    Y,
}

/// The default chain length: the free flight of a disk through an ideal gas of the
/// same density, `lambda_0 = A / (2 N <d>)` (the mover sweeps a strip `2 d` wide, `d`
/// the mean contact distance `2 <r>`), times `sqrt(N)`:
/// `L = A / (2 <d> sqrt(N))`.
///
/// Why: a chain much shorter than a mean free path is a single-disk Metropolis move
/// without rejection, and gains nothing from the liftings; Bernard, Krauth and Wilson
/// find the chains most effective when they are long enough to carry displacement
/// across many disks, of the order of the box (a chain far longer than the box only
/// wraps round and repeats the same collective move). `sqrt(N)` ideal-gas flights
/// are the box side in units of the spacing times the spacing over `2 <d>`: at area
/// fraction 0.70 this is about half the box side, and the chain makes some
/// `sqrt(N) g(d)` liftings (about 1,300 at `N = 256^2`); in a dilute gas, where a
/// disk rarely meets another, the chain grows to several box sides, still a few
/// hundred ideal-gas flights at most for any `N` used in practice. The length does not
/// bias anything (every length samples the same distribution, and the pressure
/// estimator holds for each); it sets only how fast the samples decorrelate.
pub fn default_length(width: f64, height: f64, r: &[f64]) -> f64 {
    let n = r.len().max(1) as f64;
    let mean_d = 2.0 * r.iter().sum::<f64>() / n;
    width * height / (2.0 * mean_d * n.sqrt())
}

/// The sampler: disks in a cell grid, the chain length, the stream and the tallies.
pub struct Chain {
    grid: Grid,
    n: usize,
    length: f64,
    rng: SplitMix64,
    next: Axis,
    tally: Tally,
}

impl Chain {
    /// A sampler for disks at `(x[i], y[i])` with radii `r[i]` in the periodic box
    /// `[0, width) x [0, height)` (positions outside are wrapped into it), with chains
    /// of displacement `length`, the first along `+x`, the stream seeded with `seed`.
    pub fn new(
        width: f64,
        height: f64,
        x: &[f64],
        y: &[f64],
        r: &[f64],
        length: f64,
        seed: u64,
    ) -> Result<Chain, ChainError> {
        for (name, v) in [("width", width), ("height", height)] {
            if !(v.is_finite() && v > 0.0) {
                return Err(ChainError::Box(format!(
                    "{name} must be positive and finite, got {v}"
                )));
            }
        }
        if !(length.is_finite() && length > 0.0) {
            return Err(ChainError::Length(format!(
                "must be positive and finite, got {length}"
            )));
        }
        let n = r.len();
        if x.len() != n || y.len() != n {
            return Err(ChainError::Disk(
                n.min(x.len()).min(y.len()),
                "x, y and r differ in length".into(),
            ));
        }
        if n == 0 || n >= NONE as usize {
            return Err(ChainError::Disk(
                0,
                format!("{n} disks; need 1 to 2^32 - 2"),
            ));
        }
        let (mut r_min, mut r_max) = (f64::INFINITY, 0.0f64);
        for i in 0..n {
            if !(r[i].is_finite() && r[i] > 0.0) {
                return Err(ChainError::Disk(
                    i,
                    format!("radius {} must be positive", r[i]),
                ));
            }
            if !(x[i].is_finite() && y[i].is_finite()) {
                return Err(ChainError::Disk(i, "position must be finite".into()));
            }
            r_min = r_min.min(r[i]);
            r_max = r_max.max(r[i]);
        }
        let grid = Grid::new(width, height, 2.0 * r_min, 2.0 * r_max, n).ok_or_else(|| {
            ChainError::SmallBox(format!(
                "the box ({width} by {height}) must be at least three largest contact \
                 distances ({}) on each side",
                2.0 * r_max
            ))
        })?;
        let mut chain = Chain {
            grid,
            n,
            length,
            rng: SplitMix64(seed),
            next: Axis::X,
            tally: Tally::default(),
        };
        for i in 0..n {
            let px = wrap(x[i], width);
            let py = wrap(y[i], height);
            if chain.grid.insert(i as u32, px, py, r[i]).is_err() {
                // Only overlapping disks crowd a cell past its bound: name a pair.
                return Err(chain.worst_overlap_error().unwrap_or(ChainError::Overlap(
                    i,
                    i,
                    f64::NAN,
                )));
            }
        }
        if let Some(e) = chain.worst_overlap_error() {
            return Err(e);
        }
        Ok(chain)
    }

    fn worst_overlap_error(&self) -> Option<ChainError> {
        let mut worst = (OVERLAP_TOLERANCE, 0, 0);
        for i in 0..self.n as u32 {
            if self.grid.slot_of(i) == NONE {
                continue;
            }
            let (depth, j) = self.grid.overlap_of(i);
            if depth > worst.0 {
                worst = (depth, i as usize, j as usize);
            }
        }
        (worst.0 > OVERLAP_TOLERANCE).then_some(ChainError::Overlap(worst.1, worst.2, worst.0))
    }

    /// Number of disks.
    pub fn len(&self) -> usize {
        self.n
    }

    #[cfg(any(test, feature = "internals"))]
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The chain length.
    pub fn length(&self) -> f64 {
        self.length
    }

    /// Totals over the chains so far (take differences for blocks).
    pub fn tally(&self) -> Tally {
        self.tally
    }

    /// The stream's state and the next chain's direction: with the positions, all a
    /// run needs to continue bit for bit ([`Chain::resume`]).
    pub fn stream(&self) -> (u64, Axis) {
        (self.rng.0, self.next)
    }

    /// Continues a stream saved by [`Chain::stream`].
    pub fn resume(&mut self, state: u64, next: Axis) {
        self.rng = SplitMix64(state);
        self.next = next;
    }

    /// Writes the positions, by disk index, into `x` and `y` (each `len()` long).
    pub fn positions(&self, x: &mut [f64], y: &mut [f64]) {
        for i in 0..self.n {
            let [px, py, _] = self.grid.disk(i as u32);
            x[i] = px;
            y[i] = py;
        }
    }

    /// The deepest overlap in the configuration, as a fraction of the pair's contact
    /// distance (0 when none), and the pair.
    #[cfg(any(test, feature = "internals"))]
    pub fn max_overlap(&self) -> (f64, usize, usize) {
        let mut worst = (0.0, 0, 0);
        for i in 0..self.n as u32 {
            let (depth, j) = self.grid.overlap_of(i);
            if depth > worst.0 {
                worst = (depth, i as usize, j as usize);
            }
        }
        worst
    }

    /// Bytes held by the sampler, for the memory per disk.
    #[cfg(any(test, feature = "internals"))]
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<Chain>() + self.grid.bytes()
    }

    /// Runs `chains` chains.
    pub fn run(&mut self, chains: u64) -> Result<(), ChainError> {
        for _ in 0..chains {
            // One copy of the chain per direction and common cell capacity, so the
            // search's index arithmetic is constant,
            // and (for the usual four slots) monodisperse disks reading no radii.
            match (self.next, self.grid.cap, self.grid.mono) {
                (Axis::X, 4, true) => self.chain::<0, 4, true>()?,
                (Axis::X, 4, false) => self.chain::<0, 4, false>()?,
                (Axis::X, 8, _) => self.chain::<0, 8, false>()?,
                (Axis::X, 16, _) => self.chain::<0, 16, false>()?,
                (Axis::X, _, _) => self.chain::<0, 0, false>()?,
                (Axis::Y, 4, true) => self.chain::<1, 4, true>()?,
                (Axis::Y, 4, false) => self.chain::<1, 4, false>()?,
                (Axis::Y, 8, _) => self.chain::<1, 8, false>()?,
                (Axis::Y, 16, _) => self.chain::<1, 16, false>()?,
                (Axis::Y, _, _) => self.chain::<1, 0, false>()?,
            }
            self.next = match self.next {
                Axis::X => Axis::Y,
                Axis::Y => Axis::X,
            };
        }
        Ok(())
    }

    /// One chain along `+x` (`AX = 0`) or `+y` (`AX = 1`), `CAP` the grid's slots per
    /// cell (0: any), `MONO` for disks all of one radius.
    fn chain<const AX: usize, const CAP: usize, const MONO: bool>(
        &mut self,
    ) -> Result<(), ChainError> {
        let start = self.rng.below(self.n as u64) as u32;
        let mut mover = self.grid.slot_of(start);
        let mut remaining = self.length;
        let mut offsets = 0.0;
        let mut liftings = 0u64;
        // Liftings in a row that moved nothing: with no position changing, the next
        // mover is a function of the present one, so more than N of them repeat a
        // disk and go round for ever.
        let mut idle = 0usize;
        loop {
            let step = self.grid.next_step::<AX, CAP, MONO>(mover, remaining);
            mover = self
                .grid
                .shift::<AX, CAP>(mover, step.dist)
                .map_err(|e| match e {
                    GridError::Crowded => ChainError::Overlap(0, 0, f64::NAN),
                })?;
            #[cfg(debug_assertions)]
            self.check_contact(mover);
            if step.target != NONE {
                liftings += 1;
                offsets += step.offset;
                remaining -= step.dist;
                mover = self.grid.slot_of(step.target);
                if step.dist == 0.0 {
                    idle += 1;
                    if idle > self.n {
                        return Err(ChainError::Jammed);
                    }
                } else {
                    idle = 0;
                }
                if remaining <= 0.0 {
                    break;
                }
            } else if step.capped {
                remaining -= step.dist;
            } else {
                break;
            }
        }
        self.tally.chains += 1;
        self.tally.liftings += liftings;
        self.tally.advance += self.length + offsets;
        self.tally.displacement += self.length;
        Ok(())
    }

    /// The debug check: the disk that just stopped overlaps nothing beyond round-off.
    #[cfg(debug_assertions)]
    fn check_contact(&self, slot: u32) {
        let id = self.grid.id_at(slot);
        let (depth, other) = self.grid.overlap_of(id);
        assert!(
            depth <= OVERLAP_TOLERANCE,
            "disks {id} and {other} overlap by {depth:e} of their contact distance"
        );
    }
}

/// `u` wrapped into `[0, len)`.
fn wrap(u: f64, len: f64) -> f64 {
    let w = u.rem_euclid(len);
    // rem_euclid of a tiny negative number rounds to len itself.
    if w >= len {
        0.0
    } else {
        w
    }
}
