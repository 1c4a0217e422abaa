//! The `spring` model (tutorial levels 5 and 6): every overlap pushes with Hooke's law
//! `F = k s` along the normal, equal and opposite on both balls; walls are infinitely
//! heavy. While two surfaces separate the force is scaled by `e^2`: loading stores
//! `k s_max^2 / 2`, unloading returns `e^2` of it, so the rebound speed is exactly `e`
//! times the approach speed.
//!
//! Forces are gathered per ball (each ball sums over its own neighbours, so every pair
//! is evaluated twice) rather than scattered per pair: no two threads ever write the
//! same ball, no atomics are needed, and each ball's sum is taken in the same order
//! whatever the thread count, so the parallel step is bit-identical to the serial one.

use rayon::prelude::*;

use super::{CollisionModel, StepContext, StepError};
use crate::balls::Balls;
use crate::broadphase::{Grid, ListBlock, NeighbourList, BLOCK};
use crate::scenario::{Integrator, ModelKind};
use crate::world::{Physics, Table};

/// The neighbour-list skin, in units of the largest radius. A wider skin rebuilds the
/// list less often but lists more candidates per ball; it affects speed only, never
/// results.
const SKIN: f64 = 0.5;

pub struct Spring {
    /// Candidate contacts, gathered per ball (both directions of every pair).
    list: NeighbourList,
    /// Acceleration at the latest force evaluation; for the semi-implicit Euler step,
    /// the new velocities (swapped into the balls afterwards).
    ax: Vec<f64>,
    ay: Vec<f64>,
    /// Acceleration at the previous step's evaluation (schemes that average it).
    prev_ax: Vec<f64>,
    prev_ay: Vec<f64>,
    /// Whether `ax`/`ay` (Verlet) or `prev_ax`/`prev_ay` hold a valid earlier value.
    have_history: bool,
    collisions: u64,
}

/// One block of a pair of per-ball outputs (x and y components).
type AccBlock<'a> = (&'a mut [f64], &'a mut [f64]);

/// What a force evaluation writes per ball.
#[derive(Clone, Copy)]
enum Output {
    /// The acceleration.
    Acceleration,
    /// The velocity after a kick of `dt` by that acceleration.
    Kicked(f64),
}

impl Spring {
    pub fn new(_balls: &Balls, _physics: &Physics) -> Spring {
        Spring {
            list: NeighbourList::new(false),
            ax: Vec::new(),
            ay: Vec::new(),
            prev_ax: Vec::new(),
            prev_ay: Vec::new(),
            have_history: false,
            collisions: 0,
        }
    }

    /// Evaluates every ball's acceleration at the current positions and velocities
    /// into `ax`/`ay` (or the kicked velocity, see [`Output`]); returns the number of
    /// contacts that began since the last step.
    fn evaluate(
        &mut self,
        balls: &Balls,
        table: &Table,
        physics: &Physics,
        pool: Option<&rayon::ThreadPool>,
        out: Output,
    ) -> u64 {
        let n = balls.len();
        self.ax.resize(n, 0.0);
        self.ay.resize(n, 0.0);
        let skin = SKIN * balls.max_radius();
        self.list
            .update(&balls.x, &balls.y, &balls.r, skin, table, pool);
        let forces = Forces::new(balls, table, physics);
        let list = &self.list;
        let uniform = list.uniform_radius();
        let fill = |(b, ((ax, ay), block)): (usize, (AccBlock, &ListBlock))| match uniform {
            Some(r) => forces.fill::<true>(b * BLOCK, ax, ay, block, r + r, out),
            None => forces.fill::<false>(b * BLOCK, ax, ay, block, 0.0, out),
        };
        let (ax, ay) = (&mut self.ax[..], &mut self.ay[..]);
        match pool {
            None => ax
                .chunks_mut(BLOCK)
                .zip(ay.chunks_mut(BLOCK))
                .zip(list.blocks())
                .enumerate()
                .map(fill)
                .sum(),
            Some(pool) => pool.install(|| {
                ax.par_chunks_mut(BLOCK)
                    .zip(ay.par_chunks_mut(BLOCK))
                    .zip(list.blocks())
                    .enumerate()
                    .map(fill)
                    .sum()
            }),
        }
    }
}

/// The semi-implicit Euler drift `x += dt v` with the new velocities, on the pool's
/// threads when given. Returns the largest squared speed, or `None` when a position
/// is no longer finite.
fn drift(balls: &mut Balls, dt: f64, pool: Option<&rayon::ThreadPool>) -> Option<f64> {
    let block = |((x, y), (vx, vy)): (AccBlock, (&[f64], &[f64]))| {
        let (mut v2max, mut finite) = (0.0f64, true);
        for k in 0..x.len() {
            x[k] += dt * vx[k];
            y[k] += dt * vy[k];
            v2max = v2max.max(vx[k] * vx[k] + vy[k] * vy[k]);
            finite &= x[k].is_finite() & y[k].is_finite();
        }
        (v2max, finite)
    };
    let join = |a: (f64, bool), b: (f64, bool)| (a.0.max(b.0), a.1 & b.1);
    let Balls { x, y, vx, vy, .. } = balls;
    let (v2max, finite) = match pool {
        None => x
            .chunks_mut(BLOCK)
            .zip(y.chunks_mut(BLOCK))
            .zip(vx.chunks(BLOCK).zip(vy.chunks(BLOCK)))
            .map(block)
            .fold((0.0, true), join),
        Some(pool) => pool.install(|| {
            x.par_chunks_mut(BLOCK)
                .zip(y.par_chunks_mut(BLOCK))
                .zip(vx.par_chunks(BLOCK).zip(vy.par_chunks(BLOCK)))
                .map(block)
                .reduce(|| (0.0, true), join)
        }),
    };
    finite.then_some(v2max)
}

impl CollisionModel for Spring {
    fn kind(&self) -> ModelKind {
        ModelKind::Spring
    }

    fn step(&mut self, ctx: StepContext<'_>) -> Result<(), StepError> {
        let StepContext {
            balls,
            table,
            physics,
            pool,
        } = ctx;
        let n = balls.len();
        if self.ax.len() != n {
            self.have_history = false;
        }
        let dt = physics.dt;
        let unstable = || {
            StepError::Unstable(format!(
                "a ball position is no longer finite at step dt = {dt}; lower dt or stiffness"
            ))
        };
        // The largest squared displacement of any ball in this step.
        let mut step2: f64 = 0.0;
        let began = match physics.integrator {
            Integrator::SemiImplicitEuler => {
                // The force pass writes the kicked velocities; swapping them in costs
                // nothing, and the drift is one streaming pass.
                let began = self.evaluate(balls, table, physics, pool, Output::Kicked(dt));
                std::mem::swap(&mut balls.vx, &mut self.ax);
                std::mem::swap(&mut balls.vy, &mut self.ay);
                let v2max = drift(balls, dt, pool).ok_or_else(unstable)?;
                self.collisions += began;
                self.list.moved(dt * v2max.sqrt());
                return Ok(());
            }
            Integrator::AverageVelocity => {
                let began = self.evaluate(balls, table, physics, pool, Output::Acceleration);
                for i in 0..n {
                    let (vx0, vy0) = (balls.vx[i], balls.vy[i]);
                    balls.vx[i] += dt * self.ax[i];
                    balls.vy[i] += dt * self.ay[i];
                    let (sx, sy) = (
                        dt * 0.5 * (vx0 + balls.vx[i]),
                        dt * 0.5 * (vy0 + balls.vy[i]),
                    );
                    balls.x[i] += sx;
                    balls.y[i] += sy;
                    step2 = step2.max(sx * sx + sy * sy);
                }
                began
            }
            Integrator::AverageAcceleration | Integrator::PredictedAcceleration => {
                let began = self.evaluate(balls, table, physics, pool, Output::Acceleration);
                if !self.have_history {
                    // No earlier force: start as if it had been constant.
                    self.prev_ax.clone_from(&self.ax);
                    self.prev_ay.clone_from(&self.ay);
                    self.have_history = true;
                }
                let predicted = physics.integrator == Integrator::PredictedAcceleration;
                for i in 0..n {
                    let (vx0, vy0) = (balls.vx[i], balls.vy[i]);
                    let (a, a_old) = ((self.ax[i], self.ay[i]), (self.prev_ax[i], self.prev_ay[i]));
                    let (sx, sy);
                    if predicted {
                        // Average of the current force and its linear extrapolation
                        // one step ahead: the velocity "anticipates" the collision.
                        balls.vx[i] += dt * (1.5 * a.0 - 0.5 * a_old.0);
                        balls.vy[i] += dt * (1.5 * a.1 - 0.5 * a_old.1);
                        (sx, sy) = (dt * balls.vx[i], dt * balls.vy[i]);
                    } else {
                        balls.vx[i] += dt * 0.5 * (a_old.0 + a.0);
                        balls.vy[i] += dt * 0.5 * (a_old.1 + a.1);
                        (sx, sy) = (
                            dt * 0.5 * (vx0 + balls.vx[i]),
                            dt * 0.5 * (vy0 + balls.vy[i]),
                        );
                    }
                    balls.x[i] += sx;
                    balls.y[i] += sy;
                    step2 = step2.max(sx * sx + sy * sy);
                }
                std::mem::swap(&mut self.prev_ax, &mut self.ax);
                std::mem::swap(&mut self.prev_ay, &mut self.ay);
                began
            }
            Integrator::VelocityVerlet => {
                if !self.have_history {
                    self.evaluate(balls, table, physics, pool, Output::Acceleration);
                    self.have_history = true;
                }
                let h = 0.5 * dt;
                for i in 0..n {
                    balls.vx[i] += h * self.ax[i];
                    balls.vy[i] += h * self.ay[i];
                    let (sx, sy) = (dt * balls.vx[i], dt * balls.vy[i]);
                    balls.x[i] += sx;
                    balls.y[i] += sy;
                    step2 = step2.max(sx * sx + sy * sy);
                }
                self.list.moved(step2.sqrt());
                step2 = 0.0;
                // Forces at the new positions, loading or unloading judged with the
                // half-step velocity.
                let began = self.evaluate(balls, table, physics, pool, Output::Acceleration);
                for i in 0..n {
                    balls.vx[i] += h * self.ax[i];
                    balls.vy[i] += h * self.ay[i];
                }
                began
            }
        };
        self.collisions += began;
        self.list.moved(step2.sqrt());
        if balls.x.iter().chain(&balls.y).any(|v| !v.is_finite()) {
            return Err(unstable());
        }
        Ok(())
    }

    fn contact_energy(&self, balls: &Balls, table: &Table, physics: &Physics) -> f64 {
        let forces = Forces::new(balls, table, physics);
        if self.list.is_current(balls.len()) {
            // Every overlapping pair is listed: no need to bin the balls again.
            let blocks = self.list.blocks();
            return (0..balls.len())
                .map(|i| {
                    forces.energy(i, |f| {
                        blocks[i / BLOCK]
                            .of(i % BLOCK)
                            .iter()
                            .for_each(|&j| f(j as usize))
                    })
                })
                .sum();
        }
        let mut grid = Grid::new();
        grid.rebuild(&balls.x, &balls.y, 2.0 * balls.max_radius(), table);
        (0..balls.len())
            .map(|i| forces.energy(i, |f| grid.for_each_near(balls.x[i], balls.y[i], f)))
            .sum()
    }

    fn collisions(&self) -> u64 {
        self.collisions
    }

    fn invalidate(&mut self) {
        self.have_history = false;
        self.list.invalidate();
    }
}

/// Everything the per-ball force sum reads, borrowed for one evaluation.
struct Forces<'a> {
    x: &'a [f64],
    y: &'a [f64],
    vx: &'a [f64],
    vy: &'a [f64],
    r: &'a [f64],
    inv_m: &'a [f64],
    width: f64,
    height: f64,
    k: f64,
    /// Force factor while surfaces separate.
    unload: f64,
    gravity: [f64; 2],
    dt: f64,
}

impl<'a> Forces<'a> {
    fn new(balls: &'a Balls, table: &Table, physics: &Physics) -> Forces<'a> {
        Forces {
            x: &balls.x,
            y: &balls.y,
            vx: &balls.vx,
            vy: &balls.vy,
            r: &balls.r,
            inv_m: &balls.inv_m,
            width: table.width,
            height: table.height,
            k: physics.stiffness,
            unload: physics.restitution * physics.restitution,
            gravity: physics.gravity,
            dt: physics.dt,
        }
    }

    /// Accelerations (or kicked velocities) of balls `start..start + ax.len()`, whose
    /// candidates are `block`; returns contacts begun. With `UNIFORM`, every ball has
    /// the same radius and `reach` is its double.
    fn fill<const UNIFORM: bool>(
        &self,
        start: usize,
        ax: &mut [f64],
        ay: &mut [f64],
        block: &ListBlock,
        reach: f64,
        out: Output,
    ) -> u64 {
        let mut began = 0;
        for (k, (ax, ay)) in ax.iter_mut().zip(ay.iter_mut()).enumerate() {
            let i = start + k;
            let (fx, fy, b) = self.force::<UNIFORM>(i, block.of(k), reach);
            let w = self.inv_m[i];
            let g = if w > 0.0 { 1.0 } else { 0.0 };
            let (accx, accy) = (fx * w + g * self.gravity[0], fy * w + g * self.gravity[1]);
            match out {
                Output::Acceleration => (*ax, *ay) = (accx, accy),
                Output::Kicked(dt) => (*ax, *ay) = (self.vx[i] + dt * accx, self.vy[i] + dt * accy),
            }
            began += b;
        }
        began
    }

    /// Net contact force on ball `i` from its candidates `nbrs` and the walls, and the
    /// contacts with it that began this step (pairs counted at their lower index, so
    /// each once). The loop only measures distances: most candidates do not touch.
    #[inline(always)]
    fn force<const UNIFORM: bool>(
        &self,
        i: usize,
        nbrs: &[u32],
        reach_uniform: f64,
    ) -> (f64, f64, u64) {
        let (xi, yi, ri) = (self.x[i], self.y[i], self.r[i]);
        let (mut fx, mut fy, mut began) = (0.0, 0.0, 0u64);
        for &j in nbrs {
            let j = j as usize;
            let dx = self.x[j] - xi;
            let dy = self.y[j] - yi;
            let reach = if UNIFORM {
                reach_uniform
            } else {
                ri + self.r[j]
            };
            let d2 = dx * dx + dy * dy;
            if d2 >= reach * reach {
                continue;
            }
            let (f, nx, ny, b) = self.contact(i, j, dx, dy, d2, reach);
            fx -= f * nx;
            fy -= f * ny;
            began += b;
        }
        let (vxi, vyi, wi) = (self.vx[i], self.vy[i], self.inv_m[i]);
        let (fwx, bx) = self.wall(xi, vxi, ri, wi, self.width);
        let (fwy, by) = self.wall(yi, vyi, ri, wi, self.height);
        (fx + fwx, fy + fwy, began + bx + by)
    }

    /// The spring force magnitude of an overlapping pair (`j` seen from `i` at
    /// `(dx, dy)`, `d2 < reach^2`), its unit normal from `i` to `j`, and whether the
    /// contact began this step (counted at `i < j` only).
    #[inline(never)]
    fn contact(
        &self,
        i: usize,
        j: usize,
        dx: f64,
        dy: f64,
        d2: f64,
        reach: f64,
    ) -> (f64, f64, f64, u64) {
        let d = d2.sqrt();
        // Coincident centres: any fixed axis keeps the pair's forces opposite.
        let (nx, ny) = if d > 0.0 {
            (dx / d, dy / d)
        } else if i < j {
            (1.0, 0.0)
        } else {
            (-1.0, 0.0)
        };
        let (dvx, dvy) = (self.vx[j] - self.vx[i], self.vy[j] - self.vy[i]);
        let s = reach - d;
        let f = self.k * s * self.phase(dvx * nx + dvy * ny, s, self.inv_m[i] + self.inv_m[j]);
        let mut began = 0;
        if i < j {
            // The pair did not overlap one step ago (exact for the explicit schemes,
            // whose positions moved by dt times the current velocity).
            let (px, py) = (dx - self.dt * dvx, dy - self.dt * dvy);
            if px * px + py * py >= reach * reach {
                began = 1;
            }
        }
        (f, nx, ny, began)
    }

    /// Force along one axis from the walls at 0 and `size`, and whether a contact began.
    #[inline]
    fn wall(&self, p: f64, v: f64, r: f64, w: f64, size: f64) -> (f64, u64) {
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

    /// The force factor of a contact with overlap `s`, separation speed `vn` (> 0 when
    /// the surfaces separate) and summed inverse masses `w`: 1 while loading, `e^2`
    /// while unloading. In the step where an approaching contact turns (the loading
    /// force alone would raise `vn` past zero, by `dt k s w`), only the fraction of the
    /// step before the turn is loading: without this split the whole turning step is
    /// charged at full stiffness, a bias of order `dt / T_contact` towards a higher
    /// rebound that is largest for small `e`. An elastic contact (`e = 1`) is unaffected.
    #[inline]
    fn phase(&self, vn: f64, s: f64, w: f64) -> f64 {
        if vn > 0.0 {
            return self.unload;
        }
        let gain = self.dt * self.k * s * w;
        if gain > -vn {
            let loading = -vn / gain;
            loading + (1.0 - loading) * self.unload
        } else {
            1.0
        }
    }

    /// Spring energy of ball `i`'s contacts: half of each pair (the other half is
    /// counted at the partner) plus its walls, scaled as the force is. `near` calls its
    /// argument with every ball that may touch ball `i` (itself included or not).
    fn energy(&self, i: usize, near: impl FnOnce(&mut dyn FnMut(usize))) -> f64 {
        let (xi, yi, vxi, vyi, ri) = (self.x[i], self.y[i], self.vx[i], self.vy[i], self.r[i]);
        let mut e = 0.0;
        near(&mut |j| {
            if j == i {
                return;
            }
            let (dx, dy) = (self.x[j] - xi, self.y[j] - yi);
            let reach = ri + self.r[j];
            let d = dx.hypot(dy);
            if d >= reach {
                return;
            }
            let (nx, ny) = if d > 0.0 {
                (dx / d, dy / d)
            } else {
                (1.0, 0.0)
            };
            let separating = (self.vx[j] - vxi) * nx + (self.vy[j] - vyi) * ny > 0.0;
            let s = reach - d;
            e += 0.25 * self.k * s * s * if separating { self.unload } else { 1.0 };
        });
        for (p, v, size) in [(xi, vxi, self.width), (yi, vyi, self.height)] {
            let (low, high) = (ri - p, p + ri - size);
            if low > 0.0 {
                e += 0.5 * self.k * low * low * if v > 0.0 { self.unload } else { 1.0 };
            } else if high > 0.0 {
                e += 0.5 * self.k * high * high * if v < 0.0 { self.unload } else { 1.0 };
            }
        }
        e
    }
}
