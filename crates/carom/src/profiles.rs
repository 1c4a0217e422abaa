//! Profiles: solid fraction, mean velocity and stress in slabs across the table.
//!
//! The table is cut into `bins` slabs of equal width along one axis (a slab spans the
//! whole table along the other axis). The coarse-graining is exact in area:
//!
//! - each disk's area is split between the slabs it overlaps in proportion to the area
//!   of the disk inside each (the circular segments between the slab's two lines), so a
//!   ball's weight `w_ib` in slab `b` is that share of its area (the weights of a ball
//!   sum to 1). On a periodic axis a disk cut by the edge gives its far part to the slabs
//!   at the other end; on a walled or open axis the part of a disk beyond the table's
//!   edge counts in the edge slab, so that every ball's whole area is counted;
//! - the solid fraction of a slab is `sum_i w_ib pi r_i^2` over its area;
//! - its velocity is the mass-weighted mean `u_b = sum_i w_ib m_i v_i / sum_i w_ib m_i`
//!   over the dynamic balls (0 in an empty slab);
//! - its stress, the pressure tensor as [`crate::stress`] defines it (positive in
//!   compression), is a kinetic part `sum_i w_ib m_i (v_i - u_b) (x) (v_i - u_b)` (the
//!   velocity fluctuations about the slab's own mean, so that a streaming profile adds
//!   no stress) plus a contact part: each contact's `r_ij (x) f_ij` is split between
//!   the slabs that the segment joining the two centres crosses, in proportion to the
//!   length of the segment inside each; both over the slab's area.
//!
//! Both parts add up: the slabs' stresses, weighted by their areas, sum to the global
//! tensor taken at the same instant, once the streaming term `sum_b M_b (u_b - V) (x)
//! (u_b - V)` (`M_b` a slab's mass, `V` the centre-of-mass velocity), which the global
//! tensor counts as kinetic stress and the slabs as mean flow, is added back.
//!
//! The contact part is instantaneous: the forces a model would apply at this moment
//! (the `spring` model's springs, tangential ones included, see
//! [`crate::world::World::pair_forces`]). The hard models act by impulses and have no
//! forces at an instant, so their profiles carry the kinetic part only; average many
//! profiles in time for a smooth measurement.

use std::f64::consts::PI;

use std::collections::HashMap;

use crate::balls::Balls;
use crate::models::ContactHistory;
use crate::physics::Physics;
use crate::stress::{add_outer, ContactForce, Tensor};
use crate::table::Table;

/// One ball-ball contact's force at an instant: balls `i` and `j`, the branch vector
/// `branch` from `i`'s centre to `j`'s (minimum image) and the force `force` that `i`
/// exerts on `j` (so `branch (x) force` is the pair's `r_ij (x) f_ij`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairForce {
    pub i: u32,
    pub j: u32,
    pub branch: [f64; 2],
    pub force: [f64; 2],
}

/// The full forces of the contacts whose normal forces are `normals`: the normal
/// push along the line of centres, and with contact friction the tangential spring's
/// force `-k_t xi` for the stretch `xi` the contact holds in `history` (the force the
/// last step left it at, see `models::spring::rough`).
pub fn pair_forces(
    balls: &Balls,
    table: &Table,
    physics: &Physics,
    normals: &[ContactForce],
    history: &ContactHistory,
) -> Vec<PairForce> {
    let k_t = physics
        .contact_friction
        .tangential_stiffness_for(physics.stiffness);
    let stretch: HashMap<(u32, u32), f64> = history
        .pairs
        .iter()
        .map(|&(i, j, xi)| ((i, j), xi))
        .collect();
    normals
        .iter()
        .map(|c| {
            let (i, j) = (c.i as usize, c.j as usize);
            let (dx, dy) = table.min_image(balls.x[j] - balls.x[i], balls.y[j] - balls.y[i]);
            let d = dx.hypot(dy);
            let (nx, ny) = if d > 0.0 {
                (dx / d, dy / d)
            } else {
                (1.0, 0.0)
            };
            // The tangential force on i along t = (-ny, nx); j feels the opposite.
            let f_t = stretch.get(&(c.i, c.j)).map_or(0.0, |xi| -k_t * xi);
            PairForce {
                i: c.i,
                j: c.j,
                branch: [dx, dy],
                force: [c.normal * nx + f_t * ny, c.normal * ny - f_t * nx],
            }
        })
        .collect()
}

/// The profiles along one axis (see the module's notes).
#[derive(Debug, Clone, PartialEq)]
pub struct Profiles {
    /// 0: slabs across x (profiles against x); 1: across y.
    pub axis: usize,
    /// The `bins + 1` slab boundaries along the axis, from 0 to the side length.
    pub edges: Vec<f64>,
    /// Per slab, the solid (area) fraction.
    pub solid_fraction: Vec<f64>,
    /// Per slab, the mass-weighted mean velocity `[vx, vy]`.
    pub velocity: Vec<[f64; 2]>,
    /// Per slab, the pressure tensor `[xx, xy, yy]`: kinetic plus contact part.
    pub stress: Vec<Tensor>,
    /// Per slab, the mass of the dynamic balls in it (their weights times their masses).
    pub mass: Vec<f64>,
}

/// The area of a disk of radius `r` centred at 0 that lies below the line `t` (at
/// coordinates `< t`), as a fraction of its whole area.
#[inline]
fn below(t: f64, r: f64) -> f64 {
    let h = (t / r).clamp(-1.0, 1.0);
    (h.asin() + h * (1.0 - h * h).sqrt() + 0.5 * PI) / PI
}

/// Calls `f(bin, q, q0, q1)` for each unwrapped slab `q` (from `q0` to `q1`, the one
/// below and above the lines `q * width` and `(q + 1) * width`) that the span `[lo,
/// hi]` of the axis meets; `bin` is its slab on the table: the index wraps on a
/// periodic axis and is clamped to the edge slabs otherwise.
#[inline]
fn for_slabs(
    lo: f64,
    hi: f64,
    width: f64,
    bins: usize,
    periodic: bool,
    mut f: impl FnMut(usize, i64, i64, i64),
) {
    let q0 = (lo / width).floor();
    let q1 = (hi / width).floor();
    // A runaway coordinate would make the range huge: it is counted in one slab.
    let (q0, q1) = if q0.is_finite() && q1.is_finite() && q1 - q0 <= bins as f64 {
        (q0 as i64, q1 as i64)
    } else {
        let q = if q0.is_finite() { q0 as i64 } else { 0 };
        (q, q)
    };
    for q in q0..=q1 {
        let bin = if periodic {
            q.rem_euclid(bins as i64) as usize
        } else {
            q.clamp(0, bins as i64 - 1) as usize
        };
        f(bin, q, q0, q1);
    }
}

/// Measures the profiles of `balls` along `axis` in `bins` slabs, with the contact
/// forces `pairs` (empty: kinetic stress only). `in_play` as the diagnostics take it
/// (empty: every ball).
pub fn measure(
    balls: &Balls,
    table: &Table,
    in_play: &[bool],
    pairs: &[PairForce],
    axis: usize,
    bins: usize,
) -> Profiles {
    assert!(axis < 2 && bins > 0, "profiles need an axis and a bin");
    let side = table.side(axis);
    let width = side / bins as f64;
    let slab_area = table.side(1 - axis) * width;
    let periodic = table.is_periodic(axis);
    let mut area = vec![0.0; bins];
    let mut mass = vec![0.0; bins];
    let mut momentum = vec![[0.0; 2]; bins];
    let mut second = vec![[0.0; 3]; bins];
    let coord = if axis == 0 { &balls.x } else { &balls.y };
    // Across a sheared box's y edges the part of a disk beyond the edge is its copy
    // `k` heights away, which moves at `vx - k G height`: that, not the disk's own
    // velocity, is what the far slab holds (else a disk at the edge would bring the
    // other side's streaming velocity into it).
    let slide = if axis == 1 && table.is_sheared() {
        table.shear_velocity()
    } else {
        0.0
    };
    for (i, &c) in coord.iter().enumerate() {
        if !in_play.get(i).copied().unwrap_or(true) {
            continue;
        }
        let r = balls.r[i];
        let dynamic = balls.inv_m[i] != 0.0;
        let (m, vx, vy) = (balls.m[i], balls.vx[i], balls.vy[i]);
        for_slabs(c - r, c + r, width, bins, periodic, |bin, q, q0, q1| {
            // The first and last slab take everything below and above their inner
            // line, so the shares sum to 1 exactly up to rounding.
            let lo = if q == q0 {
                0.0
            } else {
                below(q as f64 * width - c, r)
            };
            let hi = if q == q1 {
                1.0
            } else {
                below((q + 1) as f64 * width - c, r)
            };
            let w = hi - lo;
            area[bin] += w * PI * r * r;
            if dynamic {
                let vx = if slide != 0.0 {
                    vx - q.div_euclid(bins as i64) as f64 * slide
                } else {
                    vx
                };
                let wm = w * m;
                mass[bin] += wm;
                momentum[bin][0] += wm * vx;
                momentum[bin][1] += wm * vy;
                second[bin][0] += wm * vx * vx;
                second[bin][1] += wm * vx * vy;
                second[bin][2] += wm * vy * vy;
            }
        });
    }
    let mut velocity = vec![[0.0; 2]; bins];
    let mut stress = vec![[0.0; 3]; bins];
    for b in 0..bins {
        if mass[b] > 0.0 {
            let (p, m) = (momentum[b], mass[b]);
            velocity[b] = [p[0] / m, p[1] / m];
            // sum w m (v - u)(v - u) = sum w m v v - p p / M.
            stress[b] = [
                (second[b][0] - p[0] * p[0] / m).max(0.0),
                second[b][1] - p[0] * p[1] / m,
                (second[b][2] - p[1] * p[1] / m).max(0.0),
            ];
        }
    }
    for pf in pairs {
        let i = pf.i as usize;
        let start = coord[i];
        let end = start + pf.branch[axis];
        let (lo, hi) = if end >= start {
            (start, end)
        } else {
            (end, start)
        };
        let len = hi - lo;
        let mut contact = [0.0; 3];
        add_outer(&mut contact, pf.branch, pf.force);
        for_slabs(lo, hi, width, bins, periodic, |bin, q, q0, q1| {
            let share = if len > 0.0 {
                let a = if q == q0 { lo } else { q as f64 * width };
                let b = if q == q1 { hi } else { (q + 1) as f64 * width };
                (b - a) / len
            } else {
                1.0
            };
            for (s, c) in stress[bin].iter_mut().zip(contact) {
                *s += share * c;
            }
        });
    }
    for s in &mut stress {
        *s = s.map(|v| v / slab_area);
    }
    Profiles {
        axis,
        edges: (0..=bins).map(|b| b as f64 * width).collect(),
        solid_fraction: area.iter().map(|a| a / slab_area).collect(),
        velocity,
        stress,
        mass,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_disks_area_below_a_line_runs_from_none_to_all() {
        assert_eq!(below(-2.0, 1.0), 0.0);
        assert_eq!(below(2.0, 1.0), 1.0);
        assert!((below(0.0, 1.0) - 0.5).abs() < 1e-15);
        // The segment above y = r/2: (pi/3 - sqrt(3)/4) r^2 of pi r^2.
        let cap = (PI / 3.0 - 3f64.sqrt() / 4.0) / PI;
        assert!((below(0.5, 1.0) - (1.0 - cap)).abs() < 1e-14);
    }
}
