//! The tangential spring of a ball-ball contact on cloth, where the balls are spheres:
//! the contact's tangent plane holds the in-plane tangent `t` and the vertical `z`, so
//! the stretch is two-component, `(xi, xi_z)`.
//!
//! With `n` the unit normal from `i` towards `j` in the table's plane and the contact
//! point on the line of centres at `+r_i n` from `i` (the balls' centres are at one
//! height), a spin `w = (wx, wy, omega)` moves `i`'s surface there at `r_i w x n`, whose
//! vertical part is `r_i (wx n_y - wy n_x)` (z into the table). `j`'s surface, at
//! `-r_j n`, moves at `-r_j w_j x n`. So the vertical slip of `i`'s surface against
//! `j`'s is
//!
//! `u_z = r_i (wx_i n_y - wy_i n_x) + r_j (wx_j n_y - wy_j n_x)`,
//!
//! the follow or draw of either ball seen at the contact (a rolling ball's front turns
//! down into the table: `u_z > 0` for a rolling ball meeting a ball at rest ahead).
//! The stretch integrates `(u_t, u_z)`; the force on `i` is `-k_t (xi, xi_z)`, capped as
//! a vector at `mu f_n` (sliding: the stretch is set back to the cap along its own
//! direction), and `j` feels the opposite. The `t` part acts as off cloth. The `z` part
//! `f_z` pushes the balls up or down, which the cloth answers (a ball on cloth does not
//! move vertically), so only its torques act: `r n x f_z z = r f_z (n_y, -n_x)` about
//! the table's axes, the same on both balls (each force at its own ball's contact
//! point), and they reduce `u_z` with the compliance `r_i^2/I_i + r_j^2/I_j`.
//!
//! The vertical stretches live beside the in-plane ones, aligned with the list's pairs,
//! and travel with them across rebuilds and through the state file. The torques of a
//! block's pairs go to its own balls at once and, for a higher ball in a later block,
//! into a list added afterwards serially in block order: every ball's sums in the same
//! order whatever the thread count. Off cloth none of this runs.

use rayon::prelude::*;

use super::{RoughForce, Tangential, View};
use crate::broadphase::ListBlock;
use crate::stress::{add_outer, Virial};

/// The torque about the table's axes on the higher ball `j` of a pair whose `j` lies in
/// a later block.
#[derive(Debug, Clone, Copy)]
pub(super) struct TiltForce {
    j: u32,
    tx: f64,
    ty: f64,
}

/// The scratch of the vertical part.
#[derive(Debug, Default)]
pub(super) struct Tilt {
    /// Per block: the torques on higher balls in later blocks, in list order.
    out: Vec<Vec<TiltForce>>,
    /// Per ball: the summed torque about the x and y axes; zero between steps.
    acc: Vec<[f64; 2]>,
}

impl Tangential {
    /// [`Tangential::force`] for a two-component stretch `(xi, xi_z)` advanced by the
    /// slip `(u_t, u_z)`: the force on the first body, capped as a vector at `mu f_n`.
    #[inline(always)]
    fn force_2d(&self, xi: &mut f64, xi_z: &mut f64, u_t: f64, u_z: f64, f_n: f64) -> (f64, f64) {
        let (st, sz) = (*xi + u_t * self.dt, *xi_z + u_z * self.dt);
        let cap = self.mu * f_n;
        let f2 = self.k_t * self.k_t * (st * st + sz * sz);
        if f2 <= cap * cap {
            (*xi, *xi_z) = (st, sz);
            (-self.k_t * st, -self.k_t * sz)
        } else {
            // f2 > 0 here, so the stretch has a direction.
            let norm = (st * st + sz * sz).sqrt();
            let (ft, fz) = (-cap * (st / norm), -cap * (sz / norm));
            (*xi, *xi_z) = (-ft / self.k_t, -fz / self.k_t);
            (ft, fz)
        }
    }
}

/// Where one block's pair pass on cloth writes.
struct Sums<'a> {
    /// The block's own balls: force and torque about the vertical.
    acc: &'a mut [[f64; 3]],
    /// The block's own balls: torque about the table's axes.
    tilt: &'a mut [[f64; 2]],
    /// Pairs reaching into later blocks.
    out: &'a mut Vec<RoughForce>,
    tilt_out: &'a mut Vec<TiltForce>,
    virial: &'a mut Virial,
}

impl View<'_> {
    /// [`View::block`] on cloth: the same pass with the two-component springs, and the
    /// vertical part's torques about the table's axes.
    fn block_cloth(
        &self,
        (wx, wy): (&[f64], &[f64]),
        pairs: &[(u32, u32)],
        (xi, xi_z): (&mut [f64], &mut [f64]),
        first: usize,
        s: Sums<'_>,
    ) -> u64 {
        s.out.clear();
        s.tilt_out.clear();
        let (law, tan) = (&self.law, &self.tan);
        let mut began = 0;
        let mut w_sum = 0.0;
        // In-plane forces only: the vertical one has no part in the table's stress.
        let mut tensor = [0.0; 3];
        for ((&(i, j), xi), xi_z) in pairs.iter().zip(xi.iter_mut()).zip(xi_z.iter_mut()) {
            let (iu, ju) = (i as usize, j as usize);
            let mut dx = self.x[ju] - self.x[iu];
            let mut dy = self.y[ju] - self.y[iu];
            if law.periodic {
                (dx, dy) = law.table.min_image(dx, dy);
            }
            let (ri, rj) = (self.r[iu], self.r[ju]);
            let reach = ri + rj;
            let d2 = dx * dx + dy * dy;
            if d2 >= reach * reach {
                (*xi, *xi_z) = (0.0, 0.0);
                continue;
            }
            let d = d2.sqrt();
            let (nx, ny) = if d > 0.0 {
                (dx / d, dy / d)
            } else {
                (1.0, 0.0)
            };
            let (dvx, dvy) = (self.vx[ju] - self.vx[iu], self.vy[ju] - self.vy[iu]);
            let sn = reach - d;
            let w = self.inv_m[iu] + self.inv_m[ju];
            let f_n = law.k * sn * law.phase(dvx * nx + dvy * ny, sn, w);
            w_sum += f_n * d;
            let u_t = dvx * ny - dvy * nx + self.omega[iu] * ri + self.omega[ju] * rj;
            let u_z = ri * (wx[iu] * ny - wy[iu] * nx) + rj * (wx[ju] * ny - wy[ju] * nx);
            let (f_t, f_z) = tan.force_2d(xi, xi_z, u_t, u_z, f_n);
            let fx = f_n * nx + f_t * ny;
            let fy = f_n * ny - f_t * nx;
            add_outer(&mut tensor, [dx, dy], [fx, fy]);
            let (ti, tj) = (ri * f_t, rj * f_t);
            // The vertical force's torque, `r f_z (n_y, -n_x)` on each ball.
            let (qx, qy) = (f_z * ny, -f_z * nx);
            let (px, py) = (dx - law.dt * dvx, dy - law.dt * dvy);
            began += u64::from(px * px + py * py >= reach * reach);
            let a = &mut s.acc[iu - first];
            a[0] -= fx;
            a[1] -= fy;
            a[2] += ti;
            let q = &mut s.tilt[iu - first];
            q[0] += ri * qx;
            q[1] += ri * qy;
            match (s.acc.get_mut(ju - first), s.tilt.get_mut(ju - first)) {
                (Some(a), Some(q)) => {
                    a[0] += fx;
                    a[1] += fy;
                    a[2] += tj;
                    q[0] += rj * qx;
                    q[1] += rj * qy;
                }
                _ => {
                    s.out.push(RoughForce { j, fx, fy, tj });
                    s.tilt_out.push(TiltForce {
                        j,
                        tx: rj * qx,
                        ty: rj * qy,
                    });
                }
            }
        }
        *s.virial = Virial { sum: w_sum, tensor };
        began
    }
}

/// One block of the list as the pair pass on cloth sees it: its pairs and stretches,
/// where its far contacts go, its balls' sums, its virial.
type ClothBlock<'a> = (
    usize,
    (
        (
            (
                Stretches<'a>,
                (&'a mut Vec<RoughForce>, &'a mut Vec<TiltForce>),
            ),
            (&'a mut [[f64; 3]], &'a mut [[f64; 2]]),
        ),
        &'a mut Virial,
    ),
);

/// A block's pairs with their in-plane and vertical stretches.
type Stretches<'a> = ((&'a ListBlock, &'a mut Vec<f64>), &'a mut Vec<f64>);

impl super::Rough {
    /// Whether the vertical stretches are aligned with `blocks`' pairs.
    pub(super) fn tilt_aligned(&self, blocks: &[ListBlock]) -> bool {
        self.xi_z.len() == blocks.len()
            && self
                .xi_z
                .iter()
                .zip(blocks)
                .all(|(z, b)| z.len() == b.pairs().len())
    }

    /// The pair pass on cloth over every block (`bl` balls each), in parallel on the
    /// pool when given: as the pass off cloth, plus the torques about the table's axes
    /// into `tilt`. Returns the contacts that began. The list must be current and the
    /// stretches aligned with it (`refresh` with `cloth`).
    pub(super) fn cloth_pairs(
        &mut self,
        view: &View,
        spins: (&[f64], &[f64]),
        blocks: &[ListBlock],
        bl: usize,
        pool: Option<&rayon::ThreadPool>,
    ) -> u64 {
        let n = self.acc.len();
        self.tilt.acc.resize(n, [0.0; 2]);
        self.tilt.out.resize_with(blocks.len(), Vec::new);
        let pass =
            |(b, (((((block, xi), xi_z), (out, tilt_out)), (acc, tilt)), virial)): ClothBlock| {
                let sums = Sums {
                    acc,
                    tilt,
                    out,
                    tilt_out,
                    virial,
                };
                view.block_cloth(spins, block.pairs(), (xi, xi_z), b * bl, sums)
            };
        match pool {
            None => blocks
                .iter()
                .zip(self.xi.iter_mut())
                .zip(self.xi_z.iter_mut())
                .zip(self.contacts.iter_mut().zip(self.tilt.out.iter_mut()))
                .zip(self.acc.chunks_mut(bl).zip(self.tilt.acc.chunks_mut(bl)))
                .zip(self.virial.iter_mut())
                .enumerate()
                .map(pass)
                .sum(),
            Some(pool) => pool.install(|| {
                blocks
                    .par_iter()
                    .zip(self.xi.par_iter_mut())
                    .zip(self.xi_z.par_iter_mut())
                    .zip(
                        self.contacts
                            .par_iter_mut()
                            .zip(self.tilt.out.par_iter_mut()),
                    )
                    .zip(
                        self.acc
                            .par_chunks_mut(bl)
                            .zip(self.tilt.acc.par_chunks_mut(bl)),
                    )
                    .zip(self.virial.par_iter_mut())
                    .enumerate()
                    .map(pass)
                    .sum()
            }),
        }
    }

    /// Turns every ball's spins about the table's axes by the step's summed torque
    /// (`w += dt tau / I`), first adding the torques that reached later blocks, in
    /// block order. Serial: a pass over the cloth's few balls, and the same sums on any
    /// thread count.
    pub(super) fn apply_tilts(
        &mut self,
        (wx, wy): (&mut [f64], &mut [f64]),
        inv_i: &[f64],
        dt: f64,
    ) {
        let acc = &mut self.tilt.acc;
        for c in self.tilt.out.iter().flatten() {
            if let Some(a) = acc.get_mut(c.j as usize) {
                a[0] += c.tx;
                a[1] += c.ty;
            }
        }
        for (((a, wx), wy), &inv_i) in acc.iter_mut().zip(wx).zip(wy).zip(inv_i) {
            *wx += dt * a[0] * inv_i;
            *wy += dt * a[1] * inv_i;
            *a = [0.0; 2];
        }
    }
}
