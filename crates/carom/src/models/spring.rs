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
use crate::broadphase::Grid;
use crate::scenario::{Integrator, ModelKind};
use crate::world::{Physics, Table};

/// Balls per parallel task: large enough to amortise scheduling, small enough to
/// balance two cores on uneven scenes. It affects speed only, never results.
const CHUNK: usize = 4096;

pub struct Spring {
    grid: Grid,
    /// Acceleration at the latest force evaluation.
    ax: Vec<f64>,
    ay: Vec<f64>,
    /// Acceleration at the previous step's evaluation (schemes that average it).
    prev_ax: Vec<f64>,
    prev_ay: Vec<f64>,
    /// Whether `ax`/`ay` (Verlet) or `prev_ax`/`prev_ay` hold a valid earlier value.
    have_history: bool,
    collisions: u64,
}

impl Spring {
    pub fn new(_balls: &Balls, _physics: &Physics) -> Spring {
        Spring {
            grid: Grid::new(),
            ax: Vec::new(),
            ay: Vec::new(),
            prev_ax: Vec::new(),
            prev_ay: Vec::new(),
            have_history: false,
            collisions: 0,
        }
    }

    /// Evaluates every ball's acceleration at the current positions and velocities
    /// into `ax`/`ay`; returns the number of contacts that began since the last step.
    fn evaluate(
        &mut self,
        balls: &Balls,
        table: &Table,
        physics: &Physics,
        pool: Option<&rayon::ThreadPool>,
    ) -> u64 {
        let n = balls.len();
        self.ax.resize(n, 0.0);
        self.ay.resize(n, 0.0);
        self.grid
            .rebuild(&balls.x, &balls.y, 2.0 * balls.max_radius(), table);
        let forces = Forces::new(balls, table, physics, &self.grid);
        let (ax, ay) = (&mut self.ax[..], &mut self.ay[..]);
        match pool {
            None => forces.fill(0, ax, ay),
            Some(pool) => pool.install(|| {
                ax.par_chunks_mut(CHUNK)
                    .zip(ay.par_chunks_mut(CHUNK))
                    .enumerate()
                    .map(|(c, (ax, ay))| forces.fill(c * CHUNK, ax, ay))
                    .sum()
            }),
        }
    }
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
        let began = match physics.integrator {
            Integrator::SemiImplicitEuler => {
                let began = self.evaluate(balls, table, physics, pool);
                for i in 0..n {
                    balls.vx[i] += dt * self.ax[i];
                    balls.vy[i] += dt * self.ay[i];
                    balls.x[i] += dt * balls.vx[i];
                    balls.y[i] += dt * balls.vy[i];
                }
                began
            }
            Integrator::AverageVelocity => {
                let began = self.evaluate(balls, table, physics, pool);
                for i in 0..n {
                    let (vx0, vy0) = (balls.vx[i], balls.vy[i]);
                    balls.vx[i] += dt * self.ax[i];
                    balls.vy[i] += dt * self.ay[i];
                    balls.x[i] += dt * 0.5 * (vx0 + balls.vx[i]);
                    balls.y[i] += dt * 0.5 * (vy0 + balls.vy[i]);
                }
                began
            }
            Integrator::AverageAcceleration | Integrator::PredictedAcceleration => {
                let began = self.evaluate(balls, table, physics, pool);
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
                    if predicted {
                        // Average of the current force and its linear extrapolation
                        // one step ahead: the velocity "anticipates" the collision.
                        balls.vx[i] += dt * (1.5 * a.0 - 0.5 * a_old.0);
                        balls.vy[i] += dt * (1.5 * a.1 - 0.5 * a_old.1);
                        balls.x[i] += dt * balls.vx[i];
                        balls.y[i] += dt * balls.vy[i];
                    } else {
                        balls.vx[i] += dt * 0.5 * (a_old.0 + a.0);
                        balls.vy[i] += dt * 0.5 * (a_old.1 + a.1);
                        balls.x[i] += dt * 0.5 * (vx0 + balls.vx[i]);
                        balls.y[i] += dt * 0.5 * (vy0 + balls.vy[i]);
                    }
                }
                std::mem::swap(&mut self.prev_ax, &mut self.ax);
                std::mem::swap(&mut self.prev_ay, &mut self.ay);
                began
            }
            Integrator::VelocityVerlet => {
                if !self.have_history {
                    self.evaluate(balls, table, physics, pool);
                    self.have_history = true;
                }
                let h = 0.5 * dt;
                for i in 0..n {
                    balls.vx[i] += h * self.ax[i];
                    balls.vy[i] += h * self.ay[i];
                    balls.x[i] += dt * balls.vx[i];
                    balls.y[i] += dt * balls.vy[i];
                }
                // Forces at the new positions, loading or unloading judged with the
                // half-step velocity.
                let began = self.evaluate(balls, table, physics, pool);
                for i in 0..n {
                    balls.vx[i] += h * self.ax[i];
                    balls.vy[i] += h * self.ay[i];
                }
                began
            }
        };
        self.collisions += began;
        if balls.x.iter().chain(&balls.y).any(|v| !v.is_finite()) {
            return Err(StepError::Unstable(format!(
                "a ball position is no longer finite at step dt = {dt}; lower dt or stiffness"
            )));
        }
        Ok(())
    }

    fn contact_energy(&self, balls: &Balls, table: &Table, physics: &Physics) -> f64 {
        let mut grid = Grid::new();
        grid.rebuild(&balls.x, &balls.y, 2.0 * balls.max_radius(), table);
        let forces = Forces::new(balls, table, physics, &grid);
        (0..balls.len()).map(|i| forces.energy(i)).sum()
    }

    fn collisions(&self) -> u64 {
        self.collisions
    }

    fn invalidate(&mut self) {
        self.have_history = false;
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
    grid: &'a Grid,
    width: f64,
    height: f64,
    k: f64,
    /// Force factor while surfaces separate.
    unload: f64,
    gravity: [f64; 2],
    dt: f64,
}

impl<'a> Forces<'a> {
    fn new(balls: &'a Balls, table: &Table, physics: &Physics, grid: &'a Grid) -> Forces<'a> {
        Forces {
            x: &balls.x,
            y: &balls.y,
            vx: &balls.vx,
            vy: &balls.vy,
            r: &balls.r,
            inv_m: &balls.inv_m,
            grid,
            width: table.width,
            height: table.height,
            k: physics.stiffness,
            unload: physics.restitution * physics.restitution,
            gravity: physics.gravity,
            dt: physics.dt,
        }
    }

    /// Accelerations of balls `start..start + ax.len()`; returns contacts begun.
    fn fill(&self, start: usize, ax: &mut [f64], ay: &mut [f64]) -> u64 {
        let mut began = 0;
        for (k, (ax, ay)) in ax.iter_mut().zip(ay.iter_mut()).enumerate() {
            let i = start + k;
            let (fx, fy, b) = self.force(i);
            let w = self.inv_m[i];
            let g = if w > 0.0 { 1.0 } else { 0.0 };
            *ax = fx * w + g * self.gravity[0];
            *ay = fy * w + g * self.gravity[1];
            began += b;
        }
        began
    }

    /// Net contact force on ball `i`, and the contacts with it that began this step
    /// (pairs counted at their lower index, so each once).
    #[inline]
    fn force(&self, i: usize) -> (f64, f64, u64) {
        let (xi, yi, vxi, vyi, ri) = (self.x[i], self.y[i], self.vx[i], self.vy[i], self.r[i]);
        let wi = self.inv_m[i];
        let (mut fx, mut fy, mut began) = (0.0, 0.0, 0u64);
        self.grid.for_each_near(xi, yi, |j| {
            if j == i {
                return;
            }
            let dx = self.x[j] - xi;
            let dy = self.y[j] - yi;
            let reach = ri + self.r[j];
            let d2 = dx * dx + dy * dy;
            if d2 >= reach * reach {
                return;
            }
            let d = d2.sqrt();
            // Coincident centres: any fixed axis keeps the pair's forces opposite.
            let (nx, ny) = if d > 0.0 {
                (dx / d, dy / d)
            } else if i < j {
                (1.0, 0.0)
            } else {
                (-1.0, 0.0)
            };
            let (dvx, dvy) = (self.vx[j] - vxi, self.vy[j] - vyi);
            let s = reach - d;
            let f = self.k * s * self.phase(dvx * nx + dvy * ny, s, wi + self.inv_m[j]);
            fx -= f * nx;
            fy -= f * ny;
            if i < j {
                // The pair did not overlap one step ago (exact for the explicit
                // schemes, whose positions moved by dt times the current velocity).
                let (px, py) = (dx - self.dt * dvx, dy - self.dt * dvy);
                if px * px + py * py >= reach * reach {
                    began += 1;
                }
            }
        });
        let (fwx, bx) = self.wall(xi, vxi, ri, wi, self.width);
        let (fwy, by) = self.wall(yi, vyi, ri, wi, self.height);
        (fx + fwx, fy + fwy, began + bx + by)
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
    /// counted at the partner) plus its walls, scaled as the force is.
    fn energy(&self, i: usize) -> f64 {
        let (xi, yi, vxi, vyi, ri) = (self.x[i], self.y[i], self.vx[i], self.vy[i], self.r[i]);
        let mut e = 0.0;
        self.grid.for_each_near(xi, yi, |j| {
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
