//! What every run reports: energies, momentum, collisions, mirror-symmetry error.

use crate::balls::Balls;
use crate::broadphase::Grid;
use crate::table::Table;

#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Diagnostics {
    pub kinetic_energy: f64,
    /// Energy stored in contacts plus gravitational energy `-m g . x`.
    pub potential_energy: f64,
    pub total_energy: f64,
    pub momentum: [f64; 2],
    /// The momentum scale `sum m |v|`, to make momentum drift relative.
    pub momentum_scale: f64,
    pub collisions: u64,
    pub symmetry_error: Option<f64>,
}

/// Kinematic balls have infinite mass: they carry no kinetic energy or momentum that
/// could be accounted for, so they are left out.
pub fn measure(
    balls: &Balls,
    gravity: [f64; 2],
    contact_energy: f64,
    collisions: u64,
    symmetry: Option<&Symmetry>,
) -> Diagnostics {
    let mut ke = 0.0;
    let mut pe = contact_energy;
    let mut p = [0.0, 0.0];
    let mut scale = 0.0;
    for i in 0..balls.len() {
        if balls.inv_m[i] == 0.0 {
            continue;
        }
        let m = balls.m[i];
        let (vx, vy) = (balls.vx[i], balls.vy[i]);
        ke += 0.5 * m * (vx * vx + vy * vy);
        pe -= m * (gravity[0] * balls.x[i] + gravity[1] * balls.y[i]);
        p[0] += m * vx;
        p[1] += m * vy;
        scale += m * vx.hypot(vy);
    }
    Diagnostics {
        kinetic_energy: ke,
        potential_energy: pe,
        total_energy: ke + pe,
        momentum: p,
        momentum_scale: scale,
        collisions,
        symmetry_error: symmetry.map(|s| s.error(balls)),
    }
}

/// Relative change of total energy between two diagnostics (absolute when the
/// start is zero).
pub fn energy_drift(start: &Diagnostics, end: &Diagnostics) -> f64 {
    let d = end.total_energy - start.total_energy;
    if start.total_energy != 0.0 {
        d / start.total_energy.abs()
    } else {
        d
    }
}

/// Change of momentum relative to the start's momentum scale `sum m |v|` (absolute
/// when everything started at rest).
pub fn momentum_drift(start: &Diagnostics, end: &Diagnostics) -> f64 {
    let d = (end.momentum[0] - start.momentum[0]).hypot(end.momentum[1] - start.momentum[1]);
    if start.momentum_scale > 0.0 {
        d / start.momentum_scale
    } else {
        d
    }
}

/// Mirror partners about a horizontal axis, paired once from the initial positions.
#[derive(Debug, Clone, PartialEq)]
pub struct Symmetry {
    pub axis_y: f64,
    partner: Vec<u32>,
}

impl Symmetry {
    /// Pairs each ball with the ball nearest to its mirror image (itself if it sits on
    /// the axis), using the grid so that large scenes pair in O(N).
    pub fn pair(balls: &Balls, table: &Table, axis_y: f64) -> Symmetry {
        let n = balls.len();
        let mut grid = Grid::new();
        let reach = 2.0 * balls.max_radius();
        grid.rebuild(&balls.x, &balls.y, reach, table);
        let mut partner = Vec::with_capacity(n);
        for i in 0..n {
            let (mx, my) = (balls.x[i], 2.0 * axis_y - balls.y[i]);
            let mut best = (f64::INFINITY, i);
            grid.for_each_near(mx, my, |j| {
                let d = (balls.x[j] - mx).hypot(balls.y[j] - my);
                if d < best.0 {
                    best = (d, j);
                }
            });
            if best.0.is_infinite() {
                // The mirror image is off the grid's neighbourhood: search everything.
                for j in 0..n {
                    let d = (balls.x[j] - mx).hypot(balls.y[j] - my);
                    if d < best.0 {
                        best = (d, j);
                    }
                }
            }
            partner.push(best.1 as u32);
        }
        Symmetry { axis_y, partner }
    }

    /// The largest distance between a ball and the mirror image of its partner.
    pub fn error(&self, balls: &Balls) -> f64 {
        let mut worst: f64 = 0.0;
        for (i, &j) in self.partner.iter().enumerate() {
            let j = j as usize;
            if j >= balls.len() || i >= balls.len() {
                continue;
            }
            let d = (balls.x[i] - balls.x[j]).hypot(balls.y[i] - (2.0 * self.axis_y - balls.y[j]));
            worst = worst.max(d);
        }
        worst
    }
}
