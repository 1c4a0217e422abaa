//! The checks that a run is still physical, whatever the model.

use super::{World, MAX_IMAGE_COUNT};
use crate::models::StepError;

impl World {
    /// The state checks every model gets, whether or not it makes its own: positions
    /// and velocities finite, and no dynamic ball farther outside the table than the
    /// table's own size. Walls hold balls within a fraction of their radius in any sane
    /// run (a spring wall lets a ball in by `v sqrt(m/k)`), so a ball that far out means
    /// energy ran away, the mark of an unstable integration (e.g. a stack whose stiffest
    /// mode exceeds the pairwise stability limit); a kinematic ball goes where it is told
    /// and is exempt. O(N): callers run it every so many steps, not every step.
    pub fn check_physical(&self) -> Result<(), StepError> {
        self.assert_current();
        let (b, t) = (&self.balls, &self.table);
        let margin = t.runaway_margin();
        // Only cloth changes the spins about the table's axes (a rolling ball's are
        // `v / r`, beyond floating point for a fast ball of tiny radius); elsewhere they
        // stay as loaded, finite.
        let sphere = self.physics.friction.is_cloth();
        for i in 0..b.len() {
            let (x, y, vx, vy) = (b.x[i], b.y[i], b.vx[i], b.vy[i]);
            if !(x.is_finite() && y.is_finite() && vx.is_finite() && vy.is_finite()) {
                return Err(StepError::Unstable(format!(
                    "ball {i} has a position or velocity that is no longer finite"
                )));
            }
            // The spin too: contact friction on a ball of tiny inertia can blow it up,
            // and a state file cannot write a non-finite angle (JSON has no infinity).
            if !(b.angle[i].is_finite() && b.omega[i].is_finite()) {
                return Err(StepError::Unstable(format!(
                    "ball {i} has an angle or spin that is no longer finite"
                )));
            }
            if sphere && !(b.wx[i].is_finite() && b.wy[i].is_finite()) {
                return Err(StepError::Unstable(format!(
                    "ball {i} has a spin about the table's axes that is no longer finite"
                )));
            }
            // Past 2^53 crossings the unwrapped position `x + ix * width` no longer
            // has a unit of precision, and the count is about to saturate (see
            // `Table::wrap_all`): only a runaway crosses the table that often.
            if b.ix[i].unsigned_abs().max(b.iy[i].unsigned_abs()) > MAX_IMAGE_COUNT {
                return Err(StepError::Unstable(format!(
                    "ball {i} has crossed the periodic table more than 2^53 times \
                     (image counts {}, {})",
                    b.ix[i], b.iy[i]
                )));
            }
            let outside = (-x).max(x - t.width).max(-y).max(y - t.height);
            if outside > margin && !b.is_kinematic(i) {
                return Err(StepError::Unstable(format!(
                    "ball {i} is at ({x:.6e}, {y:.6e}), farther outside the {} x {} table than \
                     the table is large",
                    t.width, t.height
                )));
            }
        }
        Ok(())
    }
}
