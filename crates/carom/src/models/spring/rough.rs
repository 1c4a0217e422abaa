//! Contact friction in the spring model: a tangential spring at every contact
//! (Cundall and Strack's model, in 2D), capped by Coulomb.
//!
//! Each contact carries a tangential stretch `xi`, the slip of its contact point
//! integrated over the contact's life: `xi += u_t dt`, with `u_t` the tangential
//! velocity of ball `i`'s surface against ball `j`'s (`contact`'s conventions, spins
//! included). The spring pushes `i` with `f_t = -k_t xi` along the tangent `t` (and `j`
//! with the opposite force), and both balls feel the torque `r f_t`. When `|f_t|`
//! exceeds `mu` times the normal force the contact slides: the force is held at the cap
//! and the stretch set back to `|xi| = mu f_n / k_t`, so that the spring stores only
//! what it can give back. In 2D the tangent is a single direction, so `xi` is a scalar
//! and follows the contact as it turns without any rotation of the history. A contact
//! that stops overlapping forgets its stretch. Wall contacts see the wall at rest. On
//! cloth the balls are spheres, and a ball-ball stretch gets a vertical part from their
//! spins about the table's axes (`rough/tilt.rs`); off cloth that code never runs.
//!
//! The history lives with the neighbour list, one stretch per listed pair (aligned with
//! the block's pairs), so a step reads and writes it in list order without a lookup.
//! When the list is rebuilt, the stretches of loaded pairs are carried over by pair
//! identity: both the old and the new block list their pairs in ascending `(i, j)`
//! order, so one merge per block finds them. Blocks are fixed ranges of ball indices
//! and every ball's forces and torques are summed in list order, as in the frictionless
//! step, so the results are bit-identical whatever the thread count. A wall spring is
//! per ball and axis (a ball touches at most one wall per axis).
//!
//! Only the semi-implicit Euler step has this path (the physics check refuses the
//! other integrators with contact friction); the frictionless step is untouched.

mod history;
mod tilt;

use rayon::prelude::*;

use super::walls::{WallSprings, NO_SPRINGS};
use super::{Law, Spring};
use crate::balls::Balls;
use crate::broadphase::NeighbourList;
use crate::models::ContactHistory;
use crate::physics::Physics;
use crate::rolling;
use crate::stress::{self, add_outer, Virial};
use crate::table::Table;
use crate::walls::Walls;

/// One overlapping pair `i < j`, as its higher ball `j` needs it when that lies in a
/// later block: the force on `j` and the torque on `j` (ball `i` took its share in the
/// pair pass).
#[derive(Debug, Clone, Copy)]
struct RoughForce {
    j: u32,
    fx: f64,
    fy: f64,
    tj: f64,
}

/// The tangential spring state and the scratch of the frictional step.
#[derive(Debug, Default)]
pub(super) struct Rough {
    /// Stretch per neighbour-list entry, block by block, aligned with the pairs.
    xi: Vec<Vec<f64>>,
    /// On cloth, the stretch's vertical component per entry, aligned as `xi` is (see
    /// `tilt.rs`); each block's empty otherwise.
    xi_z: Vec<Vec<f64>>,
    /// Whether the balls are spheres on cloth (the springs are then two-component).
    cloth: bool,
    /// On cloth: the scratch of the vertical part (see `tilt.rs`).
    tilt: tilt::Tilt,
    /// Per ball: the stretch of its spring on an x wall and on a y wall.
    wall_xi: Vec<[f64; 2]>,
    /// Overlapping pairs of the latest step, per block.
    contacts: Vec<Vec<RoughForce>>,
    /// Per ball: summed pair force and torque; zero between steps.
    acc: Vec<[f64; 3]>,
    /// Loaded springs saved across a list rebuild: per block, ascending by pair.
    carry: Vec<Vec<Carried>>,
    /// Per block: the pair virial `sum r_ij . f_ij` of the latest step, summed in block
    /// order afterwards so that the total does not depend on the thread count.
    virial: Vec<Virial>,
    /// Ball count the history belongs to.
    balls: usize,
    /// Springs handed over by a restore (a run resumed from its state file), ascending
    /// by pair: the list they belonged to is gone, so they wait here for the next
    /// rebuild to put them back on their pairs, as `carry` does across a rebuild.
    restored: Vec<Carried>,
}

/// A loaded pair spring away from the list: `(i, j, xi, xi_z)`, `xi_z` zero off cloth.
type Carried = (u32, u32, f64, f64);

/// The constants of the tangential law.
#[derive(Clone, Copy)]
struct Tangential {
    mu: f64,
    k_t: f64,
    dt: f64,
    /// Rolling resistance (`crate::rolling`); 0: none.
    rolling: f64,
}

impl Tangential {
    /// Advances a spring's stretch by the slip `u_t` and returns the tangential force
    /// on the first body, capped at `mu f_n`; `xi` is left as the force implies.
    #[inline(always)]
    fn force(&self, xi: &mut f64, u_t: f64, f_n: f64) -> f64 {
        let stretch = *xi + u_t * self.dt;
        let f = -self.k_t * stretch;
        let cap = self.mu * f_n;
        if f.abs() <= cap {
            *xi = stretch;
            f
        } else {
            let f = -cap.copysign(stretch);
            *xi = -f / self.k_t;
            f
        }
    }
}

/// What the pair pass reads.
struct View<'a> {
    x: &'a [f64],
    y: &'a [f64],
    vx: &'a [f64],
    vy: &'a [f64],
    r: &'a [f64],
    inv_m: &'a [f64],
    omega: &'a [f64],
    inv_i: &'a [f64],
    law: Law,
    tan: Tangential,
}

impl View<'_> {
    /// The pair pass on one block (lower balls from `first`): stretches advanced,
    /// overlapping pairs with their forces into `out`, summed into `acc` for the block's
    /// own balls. Returns the contacts that began.
    fn block(
        &self,
        pairs: &[(u32, u32)],
        xi: &mut [f64],
        first: usize,
        acc: &mut [[f64; 3]],
        out: &mut Vec<RoughForce>,
        virial: &mut Virial,
    ) -> u64 {
        out.clear();
        let (law, tan) = (&self.law, &self.tan);
        let mut began = 0;
        // r_ij . f_ij of each overlapping pair: only the normal force counts, the
        // tangential one being perpendicular to the line of centres.
        let mut w_sum = 0.0;
        // And r_ij (x) f_ij, the tangential force included (see `crate::stress`).
        let mut tensor = [0.0; 3];
        for (&(i, j), xi) in pairs.iter().zip(xi.iter_mut()) {
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
                if *xi != 0.0 {
                    *xi = 0.0;
                }
                continue;
            }
            let d = d2.sqrt();
            let (nx, ny) = if d > 0.0 {
                (dx / d, dy / d)
            } else {
                (1.0, 0.0)
            };
            let (mut dvx, dvy) = (self.vx[ju] - self.vx[iu], self.vy[ju] - self.vy[iu]);
            if law.table.is_sheared() {
                dvx += law.table.image_velocity(self.y[ju] - self.y[iu], dy);
            }
            let s = reach - d;
            let w = self.inv_m[iu] + self.inv_m[ju];
            let f_n = law.k * s * law.phase(dvx * nx + dvy * ny, s, w);
            w_sum += f_n * d;
            // Slip of i's surface against j's along t = (-ny, nx).
            let u_t = dvx * ny - dvy * nx + self.omega[iu] * ri + self.omega[ju] * rj;
            let f_t = tan.force(xi, u_t, f_n);
            // Force on j: the normal push minus the tangential force on i.
            let fx = f_n * nx + f_t * ny;
            let fy = f_n * ny - f_t * nx;
            add_outer(&mut tensor, [dx, dy], [fx, fy]);
            let (mut ti, mut tj) = (ri * f_t, rj * f_t);
            if tan.rolling > 0.0 {
                let w_rel = self.omega[iu] - self.omega[ju];
                let r_eff = ri * rj / reach;
                let inv_i = self.inv_i[iu] + self.inv_i[ju];
                let m = rolling::torque(tan.rolling, w_rel, r_eff, f_n, law.dt, inv_i);
                ti += m;
                tj -= m;
            }
            let (px, py) = (dx - law.dt * dvx, dy - law.dt * dvy);
            began += u64::from(px * px + py * py >= reach * reach);
            let a = &mut acc[iu - first];
            a[0] -= fx;
            a[1] -= fy;
            a[2] += ti;
            match acc.get_mut(ju - first) {
                Some(a) => {
                    a[0] += fx;
                    a[1] += fy;
                    a[2] += tj;
                }
                // Ball j lies in a later block, which adds it itself (`incoming`).
                None => out.push(RoughForce { j, fx, fy, tj }),
            }
        }
        *virial = Virial { sum: w_sum, tensor };
        began
    }
}

/// One block of balls as the kick sees it.
struct Kick<'a> {
    x: &'a mut [f64],
    y: &'a mut [f64],
    vx: &'a mut [f64],
    vy: &'a mut [f64],
    angle: &'a mut [f64],
    omega: &'a mut [f64],
    acc: &'a mut [[f64; 3]],
    wall_xi: &'a mut [[f64; 2]],
    r: &'a [f64],
    inv_m: &'a [f64],
    inv_i: &'a [f64],
}

/// Wall contacts begun, largest squared speed, all positions finite.
type Out = (u64, f64, bool);

fn join(a: Out, b: Out) -> Out {
    (a.0 + b.0, a.1.max(b.1), a.2 & b.2)
}

/// Walls (normal and tangential springs), gravity, the kick (velocity and spin) and
/// the drift (position and angle) of one block of balls.
fn kick_drift(law: &Law, tan: &Tangential, b: Kick<'_>) -> Out {
    let dt = law.dt;
    let (mut began, mut v2max, mut finite) = (0, 0.0f64, true);
    for k in 0..b.x.len() {
        let [px, py, mut torque] = b.acc[k];
        b.acc[k] = [0.0; 3];
        let (x, y, vx, vy, om) = (b.x[k], b.y[k], b.vx[k], b.vy[k], b.omega[k]);
        let (r, w) = (b.r[k], b.inv_m[k]);
        let (mut fx, mut fy) = (px, py);
        // x walls: sigma = -1 left, +1 right; normal (sigma, 0), tangent (0, sigma).
        let (fwx, bx) = if law.walls[0] {
            law.wall(x, vx, r, w, law.width)
        } else {
            (0.0, 0)
        };
        if fwx != 0.0 {
            let sigma = if fwx > 0.0 { -1.0 } else { 1.0 };
            let f_t = tan.force(&mut b.wall_xi[k][0], sigma * vy + om * r, fwx.abs());
            fx += fwx;
            fy += sigma * f_t;
            torque += r * f_t;
            if tan.rolling > 0.0 {
                torque += rolling::torque(tan.rolling, om, r, fwx, dt, b.inv_i[k]);
            }
        } else {
            b.wall_xi[k][0] = 0.0;
        }
        // y walls: sigma = -1 top, +1 bottom; normal (0, sigma), tangent (-sigma, 0).
        let (fwy, by) = if law.walls[1] {
            law.wall(y, vy, r, w, law.height)
        } else {
            (0.0, 0)
        };
        if fwy != 0.0 {
            let sigma = if fwy > 0.0 { -1.0 } else { 1.0 };
            let f_t = tan.force(&mut b.wall_xi[k][1], -sigma * vx + om * r, fwy.abs());
            fy += fwy;
            fx -= sigma * f_t;
            torque += r * f_t;
            if tan.rolling > 0.0 {
                torque += rolling::torque(tan.rolling, om, r, fwy, dt, b.inv_i[k]);
            }
        } else {
            b.wall_xi[k][1] = 0.0;
        }
        let g = if w > 0.0 { 1.0 } else { 0.0 };
        let vx = vx + dt * (fx * w + g * law.gravity[0]);
        let vy = vy + dt * (fy * w + g * law.gravity[1]);
        let om = om + dt * torque * b.inv_i[k];
        let (x, y) = (x + dt * vx, y + dt * vy);
        (b.vx[k], b.vy[k], b.x[k], b.y[k], b.omega[k]) = (vx, vy, x, y, om);
        b.angle[k] += dt * om;
        began += bx + by;
        v2max = v2max.max(vx * vx + vy * vy);
        finite &= x.is_finite() & y.is_finite() & om.is_finite();
    }
    (began, v2max, finite)
}

impl Spring {
    /// The semi-implicit Euler step with contact friction: pair springs (normal and
    /// tangential), then walls, kick and drift per ball. Returns the contacts begun, or
    /// `Err` when a state stopped being finite.
    pub(super) fn step_rough(
        &mut self,
        balls: &mut Balls,
        table: &Table,
        physics: &Physics,
        pool: Option<&rayon::ThreadPool>,
        walls: &Walls,
    ) -> Result<u64, ()> {
        let mut rough = std::mem::take(&mut self.rough);
        let result = self.step_rough_with(&mut rough, balls, table, physics, pool, walls);
        self.rough = rough;
        result
    }

    fn step_rough_with(
        &mut self,
        rough: &mut Rough,
        balls: &mut Balls,
        table: &Table,
        physics: &Physics,
        pool: Option<&rayon::ThreadPool>,
        walls: &Walls,
    ) -> Result<u64, ()> {
        let cloth = physics.friction.is_cloth();
        rough.refresh(self, balls, table, pool, cloth);
        let law = Law::new(table, physics);
        let cf = &physics.contact_friction;
        let tan = Tangential {
            mu: cf.mu,
            k_t: cf.tangential_stiffness_for(physics.stiffness),
            dt: physics.dt,
            rolling: cf.rolling_mu,
        };
        let mut began = self.rough_pairs(rough, balls, law, tan, pool, cloth);
        // Interior walls, per ball, into the same sums: after the ball's own block's
        // pairs and before the earlier blocks' (`incoming`), whatever the threads.
        began += self.rough_interior(rough, balls, table, physics, pool, walls);
        let (began_walls, v2max, finite) =
            kick_drift_blocks(&self.list, rough, balls, &law, &tan, pool);
        if !finite {
            return Err(());
        }
        if cloth {
            let spins = (&mut balls.wx[..], &mut balls.wy[..]);
            rough.apply_tilts(spins, &balls.inv_inertia, law.dt);
        }
        // The pair forces acted over the whole step (semi-implicit Euler): their virial
        // integrates as force times dt, summed in block order.
        self.virial += law.dt * rough.virial.iter().map(|v| v.sum).sum::<f64>();
        let t = rough
            .virial
            .iter()
            .fold([0.0; 3], |a, v| stress::add(a, v.tensor));
        self.virial_tensor = stress::add(self.virial_tensor, t.map(|v| law.dt * v));
        self.list.moved(law.dt * v2max.sqrt());
        // A sheared box's images slid by G height dt (the list counts it), and the balls
        // wrap on the new shift.
        let next = table.after(law.dt);
        if table.is_sheared() {
            self.list.slid(law.dt * table.shear_velocity().abs());
        }
        super::wrap_positions(balls, &next);
        rough.refresh(self, balls, &next, pool, cloth);
        Ok(began + began_walls)
    }

    /// The pair springs, block by block: each block's forces on its own balls are
    /// summed into its accumulators, those on later blocks' balls kept in its contacts
    /// for them (`incoming`). Returns the contacts begun.
    fn rough_pairs(
        &self,
        rough: &mut Rough,
        balls: &Balls,
        law: Law,
        tan: Tangential,
        pool: Option<&rayon::ThreadPool>,
        cloth: bool,
    ) -> u64 {
        let bl = self.list.block_len();
        let blocks = self.list.blocks();
        rough.contacts.resize_with(blocks.len(), Vec::new);
        rough.virial.resize(blocks.len(), Virial::default());
        let view = View {
            x: &balls.x,
            y: &balls.y,
            vx: &balls.vx,
            vy: &balls.vy,
            r: &balls.r,
            inv_m: &balls.inv_m,
            omega: &balls.omega,
            inv_i: &balls.inv_inertia,
            law,
            tan,
        };
        type Block<'a> = (
            usize,
            (
                (
                    (
                        (&'a crate::broadphase::ListBlock, &'a mut Vec<f64>),
                        &'a mut Vec<RoughForce>,
                    ),
                    &'a mut [[f64; 3]],
                ),
                &'a mut Virial,
            ),
        );
        let pass = |(b, ((((block, xi), out), acc), virial)): Block| {
            view.block(block.pairs(), xi, b * bl, acc, out, virial)
        };
        match pool {
            // Spheres: the springs have a vertical part (`tilt.rs`). Decided once
            // per step; the pass off cloth is untouched.
            _ if cloth => rough.cloth_pairs(&view, (&balls.wx, &balls.wy), blocks, bl, pool),
            None => blocks
                .iter()
                .zip(rough.xi.iter_mut())
                .zip(rough.contacts.iter_mut())
                .zip(rough.acc.chunks_mut(bl))
                .zip(rough.virial.iter_mut())
                .enumerate()
                .map(pass)
                .sum::<u64>(),
            Some(pool) => pool.install(|| {
                blocks
                    .par_iter()
                    .zip(rough.xi.par_iter_mut())
                    .zip(rough.contacts.par_iter_mut())
                    .zip(rough.acc.par_chunks_mut(bl))
                    .zip(rough.virial.par_iter_mut())
                    .enumerate()
                    .map(pass)
                    .sum::<u64>()
            }),
        }
    }

    /// The walls inside the table, ball by ball, into each ball's accumulator. Returns
    /// the contacts begun (none without such walls, or on cloth, where they are
    /// cushions applied after the step).
    fn rough_interior(
        &mut self,
        rough: &mut Rough,
        balls: &Balls,
        table: &Table,
        physics: &Physics,
        pool: Option<&rayon::ThreadPool>,
        walls: &Walls,
    ) -> u64 {
        let Some(interior) = Spring::interior(&mut self.wall_cells, walls, balls, table, physics)
        else {
            return 0;
        };
        let bl = self.list.block_len();
        let n = balls.len();
        if self.wall_springs.len() != n {
            self.wall_springs.clear();
            self.wall_springs.resize(n, NO_SPRINGS);
        }
        let b = balls;
        let block = |(t, (acc, springs)): (usize, (&mut [[f64; 3]], &mut [WallSprings]))| {
            let mut began = 0;
            for (k, (a, sp)) in acc.iter_mut().zip(springs.iter_mut()).enumerate() {
                let i = t * bl + k;
                let state = (b.x[i], b.y[i], b.vx[i], b.vy[i], b.omega[i]);
                let (fx, fy, tq, n) = interior.rough_force(state, b.r[i], b.inv_m[i], sp);
                a[0] += fx;
                a[1] += fy;
                a[2] += tq;
                began += n;
            }
            began
        };
        match pool {
            None => rough
                .acc
                .chunks_mut(bl)
                .zip(self.wall_springs.chunks_mut(bl))
                .enumerate()
                .map(block)
                .sum::<u64>(),
            Some(pool) => pool.install(|| {
                rough
                    .acc
                    .par_chunks_mut(bl)
                    .zip(self.wall_springs.par_chunks_mut(bl))
                    .enumerate()
                    .map(block)
                    .sum::<u64>()
            }),
        }
    }
}

/// The kick and drift of every block, each after the forces the earlier blocks' contacts
/// left for its balls are added (`incoming`): the contacts begun with the table's walls,
/// the largest squared speed, and whether every state stayed finite.
fn kick_drift_blocks(
    list: &NeighbourList,
    rough: &mut Rough,
    balls: &mut Balls,
    law: &Law,
    tan: &Tangential,
    pool: Option<&rayon::ThreadPool>,
) -> Out {
    let bl = list.block_len();
    let Balls {
        x,
        y,
        vx,
        vy,
        r,
        inv_m,
        angle,
        omega,
        inv_inertia,
        ..
    } = balls;
    let contacts = &rough.contacts[..];
    let run = |(
        t,
        ((((x, y), (vx, vy)), (angle, omega)), ((acc, wall_xi), ((r, inv_m), inv_i))),
    ): KickBlock| {
        incoming(list, contacts, t, acc);
        let block = Kick {
            x,
            y,
            vx,
            vy,
            angle,
            omega,
            acc,
            wall_xi,
            r,
            inv_m,
            inv_i,
        };
        kick_drift(law, tan, block)
    };
    match pool {
        None => x
            .chunks_mut(bl)
            .zip(y.chunks_mut(bl))
            .zip(vx.chunks_mut(bl).zip(vy.chunks_mut(bl)))
            .zip(angle.chunks_mut(bl).zip(omega.chunks_mut(bl)))
            .zip(
                rough
                    .acc
                    .chunks_mut(bl)
                    .zip(rough.wall_xi.chunks_mut(bl))
                    .zip(
                        r.chunks(bl)
                            .zip(inv_m.chunks(bl))
                            .zip(inv_inertia.chunks(bl)),
                    ),
            )
            .enumerate()
            .map(run)
            .fold((0, 0.0, true), join),
        Some(pool) => pool.install(|| {
            x.par_chunks_mut(bl)
                .zip(y.par_chunks_mut(bl))
                .zip(vx.par_chunks_mut(bl).zip(vy.par_chunks_mut(bl)))
                .zip(angle.par_chunks_mut(bl).zip(omega.par_chunks_mut(bl)))
                .zip(
                    rough
                        .acc
                        .par_chunks_mut(bl)
                        .zip(rough.wall_xi.par_chunks_mut(bl))
                        .zip(
                            r.par_chunks(bl)
                                .zip(inv_m.par_chunks(bl))
                                .zip(inv_inertia.par_chunks(bl)),
                        ),
                )
                .enumerate()
                .map(run)
                .reduce(|| (0, 0.0, true), join)
        }),
    }
}

type KickBlock<'a> = (
    usize,
    (
        (
            (
                (&'a mut [f64], &'a mut [f64]),
                (&'a mut [f64], &'a mut [f64]),
            ),
            (&'a mut [f64], &'a mut [f64]),
        ),
        (
            (&'a mut [[f64; 3]], &'a mut [[f64; 2]]),
            ((&'a [f64], &'a [f64]), &'a [f64]),
        ),
    ),
);

/// The earlier blocks' contacts whose higher ball lies in block `t`, added in list
/// order (as the frictionless step's `incoming`).
fn incoming(list: &NeighbourList, contacts: &[Vec<RoughForce>], t: usize, acc: &mut [[f64; 3]]) {
    super::incoming_with(
        list,
        contacts,
        t,
        acc,
        |c| c.j,
        |a, c| {
            a[0] += c.fx;
            a[1] += c.fy;
            a[2] += c.tj;
        },
    );
}
