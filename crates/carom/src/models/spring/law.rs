//! The spring model's force law: Hooke's law along the normal, scaled by `e^2` while
//! the surfaces separate, at the table's walls and between pairs (see the model's
//! outline in `spring.rs`).

use crate::physics::Physics;
use crate::table::Table;

/// The constants of the force law, and the walls.
#[derive(Clone, Copy)]
pub(super) struct Law {
    pub(super) width: f64,
    pub(super) height: f64,
    /// Which axes have walls (a periodic axis has none).
    pub(super) walls: [bool; 2],
    /// For minimum images when some axis is periodic.
    pub(super) table: Table,
    pub(super) periodic: bool,
    pub(super) k: f64,
    /// Force factor while surfaces separate.
    pub(super) unload: f64,
    pub(super) gravity: [f64; 2],
    pub(super) dt: f64,
}

impl Law {
    pub(super) fn new(table: &Table, physics: &Physics) -> Law {
        Law {
            width: table.width,
            height: table.height,
            // On cloth the walls are cushions, applied after the step (see the module's
            // notes): no spring force.
            walls: if physics.friction.is_cloth() {
                [false, false]
            } else {
                [table.has_walls(0), table.has_walls(1)]
            },
            table: *table,
            periodic: table.any_periodic(),
            k: physics.stiffness,
            unload: physics.restitution * physics.restitution,
            gravity: physics.gravity,
            dt: physics.dt,
        }
    }

    /// Force along one axis from the walls at 0 and `size`, and whether a contact began.
    #[inline]
    pub(super) fn wall(&self, p: f64, v: f64, r: f64, w: f64, size: f64) -> (f64, u64) {
        let low = r - p;
        let high = p + r - size;
        if low > 0.0 {
            let f = self.k * low * self.phase(v, low, w);
            (f, u64::from(r - (p - self.dt * v) <= 0.0))
        } else if high > 0.0 {
            let f = self.k * high * self.phase(-v, high, w);
            (-f, u64::from((p - self.dt * v) + r - size <= 0.0))
        } else {
            (0.0, 0)
        }
    }

    /// The acceleration of one ball from its summed pair force, the walls and gravity,
    /// and the wall contacts begun.
    #[inline(always)]
    pub(super) fn acceleration(
        &self,
        (x, y, vx, vy): (f64, f64, f64, f64),
        r: f64,
        w: f64,
        pair: (f64, f64),
    ) -> (f64, f64, u64) {
        let (fwx, bx) = if self.walls[0] {
            self.wall(x, vx, r, w, self.width)
        } else {
            (0.0, 0)
        };
        let (fwy, by) = if self.walls[1] {
            self.wall(y, vy, r, w, self.height)
        } else {
            (0.0, 0)
        };
        let (fx, fy) = (pair.0 + fwx, pair.1 + fwy);
        let g = if w > 0.0 { 1.0 } else { 0.0 };
        (
            fx * w + g * self.gravity[0],
            fy * w + g * self.gravity[1],
            bx + by,
        )
    }

    /// The force factor of a contact with overlap `s`, separation speed `vn` (> 0 when
    /// the surfaces separate) and summed inverse masses `w`: 1 while loading, `e^2`
    /// while unloading. In the step where an approaching contact turns (the loading
    /// force alone would raise `vn` past zero, by `dt k s w`), only the fraction of the
    /// step before the turn is loading: without this split the whole turning step is
    /// charged at full stiffness, a bias of order `dt / T_contact` towards a higher
    /// rebound that is largest for small `e`. An elastic contact (`e = 1`) is unaffected.
    #[inline]
    pub(super) fn phase(&self, vn: f64, s: f64, w: f64) -> f64 {
        phase(self.k, self.dt, self.unload, vn, s, w)
    }
}

/// [`Law::phase`] for a contact of stiffness `k` over a step `dt` that unloads at
/// `unload` (`e^2`): shared by the table's walls and pairs and by the walls inside the
/// table, which have a restitution of their own.
#[inline]
pub(super) fn phase(k: f64, dt: f64, unload: f64, vn: f64, s: f64, w: f64) -> f64 {
    if vn > 0.0 {
        return unload;
    }
    let gain = dt * k * s * w;
    if gain > -vn {
        let loading = -vn / gain;
        loading + (1.0 - loading) * unload
    } else {
        1.0
    }
}
