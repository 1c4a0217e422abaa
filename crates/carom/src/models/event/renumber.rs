//! Renumbering by cell. An event reads the ball it concerns and the balls in the cells
//! around it; at a million balls that costs a trip to memory for each array touched,
//! unless the neighbours' records share cache lines and pages with the ball's own. A
//! start built row by row (the generators, and any state a run of carom wrote) has that
//! locality already, and keeps it for hundreds of time units at liquid and gas
//! densities; a start given in a scrambled order (another program's output, balls
//! listed by some other property) has none, and ran 1.25 to 1.4 times slower.
//!
//! So when the model starts from balls read (a rebuild) and their order in memory has
//! no spatial sense left, it lays them out cell by cell, the cells row by row, and
//! works on that layout until the balls are read again; then it puts every ball back
//! where it came from. A ball's index is its identity (the order of the scenario, of
//! every output and of the Python arrays): outside the model nothing ever sees the
//! other layout. Ties in time between events are broken by the layout's indices, so a
//! renumbered run can differ from the same run unrenumbered only where two events fall
//! at exactly the same time, which a generic gas never has (a test runs one both ways
//! and compares every bit); small or ordered scenes (the presets, every generated
//! start) are never renumbered.

use super::state::Event;
use crate::balls::{gather, inverse, Balls};
use crate::table::Table;

/// From this many balls on, a scattered order is renumbered. Below, the order in
/// memory made no difference (at 10^5 balls a shuffled gas ran 0.96 to 1.06 times as
/// long as the ordered one), and the layout's cost at every read would be pure loss;
/// at 3 x 10^5 shuffled ran 1.28 times as long, at 10^6 1.32 (`bench/event_order.py`).
pub const RENUMBER_FROM: usize = 1 << 17;

/// The order counts as scattered when consecutive balls in memory are on average more
/// than this many mean spacings apart (`|dx| + |dy|` against `sqrt(area / n)`). The
/// generators' rows give about 2 at every density; a shuffled order about `sqrt(n) /
/// 1.5` (210 at 10^5 balls, 670 at 10^6). A million balls over four time units, the
/// rows blurred by sorting on positions moved a few spacings at random (medians of
/// three runs against the rows'): blurred by one spacing (3.8 by this measure) 1.09
/// times as long, by three (8.0) 1.12, by ten (23) 1.20, by thirty (67) 1.23,
/// shuffled 1.34; laid out by cell, 1.04 to 1.11, the layout's cost included (it is
/// paid at every read). From about 6 on, the layout pays for itself within a few time
/// units.
const SCATTERED: f64 = 6.0;

impl Event {
    /// Sets the ball count from which scattered starts are renumbered (tests use 0 to
    /// renumber small scenes; `usize::MAX` turns renumbering off).
    #[cfg(any(test, feature = "internals"))]
    pub fn set_renumber_from(&mut self, n: usize) {
        self.layout.renumber_from = n;
    }

    /// Whether the model is working on its own layout of the balls (until they are
    /// next read).
    #[cfg(any(test, feature = "internals"))]
    pub fn is_renumbered(&self) -> bool {
        !self.layout.order.is_empty()
    }

    /// At a rebuild, with the balls as given: lays them out cell by cell if their order
    /// is scattered. The records kept across a rebuild (the collapse guard's) move with
    /// their balls.
    pub(super) fn renumber(&mut self, b: &mut Balls) {
        let n = b.len();
        // Still in the model's layout (a step failed and nobody read the balls since):
        // it stands.
        if !self.layout.order.is_empty() && self.layout.order.len() == n {
            return;
        }
        self.layout.order.clear();
        // Walls inside the table keep per-ball records by index (who is out of play):
        // such scenes keep their own order.
        if n < self.layout.renumber_from.max(2)
            || self.inner.is_some()
            || !scattered(&b.x, &b.y, &self.laws.table)
        {
            return;
        }
        self.cells
            .rebuild(&self.laws.table, b.max_radius(), &b.x, &b.y);
        let order = self.cells.balls_by_cell();
        b.permute(&order);
        if self.rec.hist.len() == n {
            gather(&mut self.rec.hist, &order);
        }
        self.strikes_permute(&order);
        self.layout.order = order;
    }

    /// When the balls are read: every ball back under its own index. The model's other
    /// per-ball records are rebuilt before the next event (a read always ends in a
    /// rebuild), except the collapse guard's, which moves back with its balls.
    pub(super) fn restore_order(&mut self, b: &mut Balls) {
        if self.layout.order.is_empty() {
            return;
        }
        let back = inverse(&self.layout.order);
        b.permute(&back);
        if self.rec.hist.len() == back.len() {
            gather(&mut self.rec.hist, &back);
        }
        self.strikes_permute(&back);
        self.layout.order.clear();
        self.needs_rebuild = true;
    }

    /// The identity of the ball at index `i` of the model's layout, for messages.
    pub(super) fn id(&self, i: usize) -> usize {
        self.layout.order.get(i).map_or(i, |&k| k as usize)
    }
}

/// Whether consecutive balls in memory are far apart, measured against the mean
/// spacing of balls over the table (see [`SCATTERED`]). Positions are finite here
/// (checked before a rebuild).
fn scattered(x: &[f64], y: &[f64], table: &Table) -> bool {
    let n = x.len();
    if n < 2 {
        return false;
    }
    let mut sum = 0.0;
    for i in 1..n {
        sum += (x[i] - x[i - 1]).abs() + (y[i] - y[i - 1]).abs();
    }
    let spacing = (table.width * table.height / n as f64).sqrt();
    sum / (n - 1) as f64 > SCATTERED * spacing
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 100 x 100 lattice in a square of side 100, listed row by row, then shuffled.
    #[test]
    fn rows_are_ordered_and_a_shuffle_is_scattered() {
        let table = Table::new(100.0, 100.0);
        let (mut x, mut y) = (Vec::new(), Vec::new());
        for row in 0..100 {
            for col in 0..100 {
                x.push(col as f64 + 0.5);
                y.push(row as f64 + 0.5);
            }
        }
        // Row by row: one spacing per step, plus a row's width at each new row (1 per
        // step on average): 2 spacings.
        assert!(!scattered(&x, &y, &table));
        // A fixed scramble (7919 is prime, so k -> 7919 k mod n is a permutation).
        let n = x.len();
        let order: Vec<u32> = (0..n).map(|k| (7919 * k % n) as u32).collect();
        gather(&mut x, &order);
        gather(&mut y, &order);
        assert!(scattered(&x, &y, &table));
    }
}
