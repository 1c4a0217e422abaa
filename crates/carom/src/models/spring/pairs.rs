//! The pair-force kernel of the `spring` model: pass 1's overlap test and force of
//! every listed pair on one block of the neighbour list, and the spring energy of pairs
//! and walls for the diagnostics. The force law itself (`Law`) and the per-ball passes
//! stay in the parent module.

use super::{Law, PairForce};
use crate::balls::Balls;
use crate::hint::prefetch;
use crate::stress::{add_outer, Tensor};

/// What pass 1 reads, borrowed for one evaluation.
pub(super) struct Pairs<'a> {
    x: &'a [f64],
    y: &'a [f64],
    vx: &'a [f64],
    vy: &'a [f64],
    r: &'a [f64],
    inv_m: &'a [f64],
    law: Law,
}

impl<'a> Pairs<'a> {
    pub(super) fn new(balls: &'a Balls, law: Law) -> Pairs<'a> {
        Pairs {
            x: &balls.x,
            y: &balls.y,
            vx: &balls.vx,
            vy: &balls.vy,
            r: &balls.r,
            inv_m: &balls.inv_m,
            law,
        }
    }

    /// Pass 1 on one block of the list, whose lower indices start at `first`: the
    /// overlapping pairs, with their forces, into `out`, and their forces added into
    /// `acc`, the pair-force sums of the block's own balls, where both balls of a pair
    /// are in the block (at the lower ball only when the higher one is beyond it: the
    /// serial pass adds those). Returns the contacts that began, and the block's pair
    /// virial `sum r_ij . f_ij` with its tensor `sum r_ij (x) f_ij`.
    ///
    /// With `UNIFORM`, every ball has the radius `reach / 2` and the inverse mass `w`.
    /// The first loop is a distance test per pair (most pairs do not touch); it only
    /// notes the overlaps and asks for the memory they will need, which the second loop
    /// reads once it has arrived.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn detect<const UNIFORM: bool>(
        &self,
        pairs: &[(u32, u32)],
        reach: f64,
        w: f64,
        first: usize,
        acc: &mut [[f64; 2]],
        out: &mut Vec<PairForce>,
    ) -> (u64, f64, Tensor) {
        out.clear();
        for &(i, j) in pairs {
            let (iu, ju) = (i as usize, j as usize);
            let mut dx = self.x[ju] - self.x[iu];
            let mut dy = self.y[ju] - self.y[iu];
            if self.law.periodic {
                (dx, dy) = self.law.table.min_image(dx, dy);
            }
            let reach = if UNIFORM {
                reach
            } else {
                self.r[iu] + self.r[ju]
            };
            let d2 = dx * dx + dy * dy;
            if d2 >= reach * reach {
                continue;
            }
            prefetch(&self.vx[iu]);
            prefetch(&self.vy[iu]);
            prefetch(&self.vx[ju]);
            prefetch(&self.vy[ju]);
            prefetch(&acc[iu - first][0]);
            if let Some(a) = acc.get(ju - first) {
                prefetch(&a[0]);
            }
            out.push(PairForce {
                i,
                j,
                fx: dx,
                fy: dy,
            });
        }
        let mut began = 0;
        // Sum of r_ij . f_ij: the force f on j, at (dx, dy) from i, dotted with that
        // vector (positive when the pair repels).
        let mut virial = 0.0;
        // The same, as a tensor (r_ij = -(dx, dy) and f_ij = -f: r (x) f unchanged).
        let mut tensor = [0.0; 3];
        for c in out.iter_mut() {
            let (iu, ju) = (c.i as usize, c.j as usize);
            let (reach, w) = if UNIFORM {
                (reach, w + w)
            } else {
                (self.r[iu] + self.r[ju], self.inv_m[iu] + self.inv_m[ju])
            };
            let (f, b) = self.contact(iu, ju, c.fx, c.fy, reach, w);
            virial += c.fx * f.0 + c.fy * f.1;
            add_outer(&mut tensor, [c.fx, c.fy], [f.0, f.1]);
            (c.fx, c.fy) = f;
            began += b;
            let a = &mut acc[iu - first];
            a[0] -= f.0;
            a[1] -= f.1;
            if let Some(a) = acc.get_mut(ju - first) {
                a[0] += f.0;
                a[1] += f.1;
            }
        }
        (began, virial, tensor)
    }

    /// The force on `j` of an overlapping pair `i < j` (`j` seen from `i` at `(dx, dy)`),
    /// and whether the contact began this step.
    #[inline(always)]
    fn contact(
        &self,
        i: usize,
        j: usize,
        dx: f64,
        dy: f64,
        reach: f64,
        w: f64,
    ) -> ((f64, f64), u64) {
        let law = &self.law;
        let d = (dx * dx + dy * dy).sqrt();
        // Coincident centres: any fixed axis keeps the pair's forces opposite.
        let (nx, ny) = if d > 0.0 {
            (dx / d, dy / d)
        } else {
            (1.0, 0.0)
        };
        let (mut dvx, dvy) = (self.vx[j] - self.vx[i], self.vy[j] - self.vy[i]);
        if law.table.is_sheared() {
            // Across the sliding edge j's image moves at -+G height relative to j.
            dvx += law.table.image_velocity(self.y[j] - self.y[i], dy);
        }
        let s = reach - d;
        let f = law.k * s * law.phase(dvx * nx + dvy * ny, s, w);
        // The pair did not overlap one step ago (exact for the explicit schemes, whose
        // positions moved by dt times the current velocity).
        let (px, py) = (dx - law.dt * dvx, dy - law.dt * dvy);
        let began = u64::from(px * px + py * py >= reach * reach);
        ((f * nx, f * ny), began)
    }

    /// The normal force between balls `i < j` if they overlap: the law of
    /// [`Pairs::detect`] at the current state.
    pub(super) fn normal_force(&self, i: usize, j: usize) -> Option<f64> {
        let (dx, dy) = self
            .law
            .table
            .min_image(self.x[j] - self.x[i], self.y[j] - self.y[i]);
        let reach = self.r[i] + self.r[j];
        let d2 = dx * dx + dy * dy;
        if d2 >= reach * reach {
            return None;
        }
        let d = d2.sqrt();
        let (nx, ny) = if d > 0.0 {
            (dx / d, dy / d)
        } else {
            (1.0, 0.0)
        };
        let dvx =
            self.vx[j] - self.vx[i] + self.law.table.image_velocity(self.y[j] - self.y[i], dy);
        let vn = dvx * nx + (self.vy[j] - self.vy[i]) * ny;
        let s = reach - d;
        Some(self.law.k * s * self.law.phase(vn, s, self.inv_m[i] + self.inv_m[j]))
    }

    /// Spring energy of one pair (`i < j`), scaled as the force is.
    pub(super) fn energy(&self, i: usize, j: usize) -> f64 {
        let (dx, dy) = self
            .law
            .table
            .min_image(self.x[j] - self.x[i], self.y[j] - self.y[i]);
        let reach = self.r[i] + self.r[j];
        let d = dx.hypot(dy);
        if d >= reach {
            return 0.0;
        }
        let (nx, ny) = if d > 0.0 {
            (dx / d, dy / d)
        } else {
            (1.0, 0.0)
        };
        let separating = (self.vx[j] - self.vx[i]) * nx + (self.vy[j] - self.vy[i]) * ny > 0.0;
        let s = reach - d;
        0.5 * self.law.k * s * s * if separating { self.law.unload } else { 1.0 }
    }

    /// Spring energy of ball `i`'s walls.
    pub(super) fn wall_energy(&self, i: usize) -> f64 {
        let law = &self.law;
        let (xi, yi, ri) = (self.x[i], self.y[i], self.r[i]);
        let mut e = 0.0;
        for (axis, (p, v, size)) in [(xi, self.vx[i], law.width), (yi, self.vy[i], law.height)]
            .into_iter()
            .enumerate()
        {
            if !law.walls[axis] {
                continue;
            }
            let (low, high) = (ri - p, p + ri - size);
            if low > 0.0 {
                e += 0.5 * law.k * low * low * if v > 0.0 { law.unload } else { 1.0 };
            } else if high > 0.0 {
                e += 0.5 * law.k * high * high * if v < 0.0 { law.unload } else { 1.0 };
            }
        }
        e
    }
}
