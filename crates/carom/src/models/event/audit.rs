//! The overlap audit's state (a debugging aid for tests, see
//! `Event::set_overlap_audit`): an independent broad phase, the positions it is built
//! on, and the deepest overlap seen (`guard.rs` measures it).

use crate::broadphase::Grid;

#[derive(Clone)]
pub(super) struct Audit {
    pub(super) grid: Grid,
    pub(super) x: Vec<f64>,
    pub(super) y: Vec<f64>,
    pub(super) pairs: Vec<(u32, u32)>,
    /// The deepest overlap seen, as a fraction of the smaller radius.
    pub(super) worst: f64,
}

impl Audit {
    pub(super) fn new() -> Audit {
        Audit {
            grid: Grid::new(),
            x: Vec::new(),
            y: Vec::new(),
            pairs: Vec::new(),
            worst: 0.0,
        }
    }
}
