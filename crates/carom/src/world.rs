//! The world: table, physics parameters, balls, and the step that advances them.

use std::sync::Arc;

use crate::balls::{Ball, Balls};
use crate::diagnostics::{self, Diagnostics, Symmetry};
use crate::friction;
use crate::models::{self, CollisionModel, StepContext, StepError};
use crate::scenario::{Friction, Integrator, ModelKind};

/// The table `[0, width] x [0, height]`, walls on all four sides, y pointing down.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Table {
    pub width: f64,
    pub height: f64,
}

/// Global physics parameters (scenario `[physics]`, with the model resolved).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Physics {
    pub model: ModelKind,
    pub dt: f64,
    pub gravity: [f64; 2],
    pub stiffness: f64,
    pub restitution: f64,
    pub integrator: Integrator,
    pub glitch_prevention: bool,
    pub friction: Friction,
}

impl Default for Physics {
    fn default() -> Self {
        Physics {
            model: ModelKind::Spring,
            dt: 0.05,
            gravity: [0.0, 0.0],
            stiffness: 5.0,
            restitution: 1.0,
            integrator: Integrator::SemiImplicitEuler,
            glitch_prevention: true,
            friction: Friction::None,
        }
    }
}

/// A world that cannot be built: names the parameter and what is wrong with it.
#[derive(Debug, Clone, PartialEq)]
pub struct BuildError {
    pub field: String,
    pub message: String,
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for BuildError {}

fn bad(field: &str, message: String) -> BuildError {
    BuildError {
        field: field.to_string(),
        message,
    }
}

pub struct World {
    pub name: String,
    table: Table,
    physics: Physics,
    balls: Balls,
    /// Simulated time.
    pub time: f64,
    /// Steps taken since the world was built.
    pub steps: u64,
    symmetry: Option<Symmetry>,
    model: Box<dyn CollisionModel>,
    pool: Option<Arc<rayon::ThreadPool>>,
    warnings: Vec<String>,
}

impl std::fmt::Debug for World {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("World")
            .field("name", &self.name)
            .field("table", &self.table)
            .field("physics", &self.physics)
            .field("balls", &self.balls.len())
            .field("time", &self.time)
            .field("steps", &self.steps)
            .finish()
    }
}

impl World {
    /// A world ready to step. Checks the parameters the physics needs (finite, positive
    /// where it must be, a spring time step that is stable) and refuses the rest.
    pub fn new(
        name: impl Into<String>,
        table: Table,
        physics: Physics,
        balls: Balls,
    ) -> Result<World, BuildError> {
        check_table(&table)?;
        let warnings = check_physics(&physics, &balls)?;
        let model = models::create(physics.model, &balls, &table, &physics)
            .map_err(|e| bad("physics.model", e.to_string()))?;
        Ok(World {
            name: name.into(),
            table,
            physics,
            balls,
            time: 0.0,
            steps: 0,
            symmetry: None,
            model,
            pool: None,
            warnings,
        })
    }

    /// Convenience for tests and examples: balls from plain values.
    pub fn from_balls(table: Table, physics: Physics, balls: &[Ball]) -> Result<World, BuildError> {
        World::new("unnamed", table, physics, Balls::from_vec(balls))
    }

    /// Declares the scene mirror-symmetric about `y = axis_y`: partners are paired now.
    pub fn declare_symmetry(&mut self, axis_y: f64) {
        self.symmetry = Some(Symmetry::pair(&self.balls, &self.table, axis_y));
    }

    pub fn symmetry_axis(&self) -> Option<f64> {
        self.symmetry.as_ref().map(|s| s.axis_y)
    }

    /// Runs the parallel parts of the step on `threads` threads (1: no pool at all).
    /// Results are bit-identical whatever the count.
    pub fn set_threads(&mut self, threads: usize) -> Result<(), BuildError> {
        if threads <= 1 {
            self.pool = None;
            return Ok(());
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| bad("threads", e.to_string()))?;
        self.pool = Some(Arc::new(pool));
        Ok(())
    }

    pub fn threads(&self) -> usize {
        self.pool.as_ref().map_or(1, |p| p.current_num_threads())
    }

    pub fn table(&self) -> &Table {
        &self.table
    }

    pub fn physics(&self) -> &Physics {
        &self.physics
    }

    pub fn balls(&self) -> &Balls {
        &self.balls
    }

    /// Mutable access for editors (the viewer's mouse, adding or removing balls). The
    /// model forgets whatever it cached about the balls.
    pub fn balls_mut(&mut self) -> &mut Balls {
        self.model.invalidate();
        &mut self.balls
    }

    /// Warnings found when the world was built or its physics last changed (e.g. a
    /// spring contact resolved by too few steps).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Replaces the physics parameters; a new model kind gets a fresh model. Refused,
    /// with the world unchanged, when the new parameters are not runnable.
    pub fn set_physics(&mut self, physics: Physics) -> Result<(), BuildError> {
        let warnings = check_physics(&physics, &self.balls)?;
        if physics.model != self.physics.model {
            self.model = models::create(physics.model, &self.balls, &self.table, &physics)
                .map_err(|e| bad("physics.model", e.to_string()))?;
        } else {
            self.model.invalidate();
        }
        self.physics = physics;
        self.warnings = warnings;
        Ok(())
    }

    /// One time step: the collision model advances every ball by `dt` (free flight,
    /// contacts, walls), then friction acts on the new velocities.
    pub fn step(&mut self) -> Result<(), StepError> {
        let ctx = StepContext {
            balls: &mut self.balls,
            table: &self.table,
            physics: &self.physics,
            pool: self.pool.as_deref(),
        };
        self.model.step(ctx)?;
        friction::apply(&mut self.balls, &self.physics.friction, self.physics.dt);
        self.steps += 1;
        self.time += self.physics.dt;
        Ok(())
    }

    /// `n` steps, stopping at the first error.
    pub fn run_steps(&mut self, n: u64) -> Result<(), StepError> {
        for _ in 0..n {
            self.step()?;
        }
        Ok(())
    }

    /// The state checks every model gets, whether or not it makes its own: positions
    /// and velocities finite, and no dynamic ball farther outside the table than the
    /// table's own size. Walls hold balls within a fraction of their radius in any sane
    /// run (a spring wall lets a ball in by `v sqrt(m/k)`), so a ball that far out means
    /// energy ran away, the mark of an unstable integration (e.g. a stack whose stiffest
    /// mode exceeds the pairwise stability limit); a kinematic ball goes where it is told
    /// and is exempt. O(N): callers run it every so many steps, not every step.
    pub fn check_physical(&self) -> Result<(), StepError> {
        let (b, t) = (&self.balls, &self.table);
        let margin = t.width.max(t.height);
        for i in 0..b.len() {
            let (x, y, vx, vy) = (b.x[i], b.y[i], b.vx[i], b.vy[i]);
            if !(x.is_finite() && y.is_finite() && vx.is_finite() && vy.is_finite()) {
                return Err(StepError::Unstable(format!(
                    "ball {i} has a position or velocity that is no longer finite"
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

    pub fn collisions(&self) -> u64 {
        self.model.collisions()
    }

    /// Events processed since the model was created, for event-driven models.
    pub fn events(&self) -> Option<u64> {
        self.model.event_count()
    }

    pub fn diagnostics(&self) -> Diagnostics {
        let contact = self
            .model
            .contact_energy(&self.balls, &self.table, &self.physics);
        diagnostics::measure(
            &self.balls,
            self.physics.gravity,
            contact,
            self.model.collisions(),
            self.symmetry.as_ref(),
        )
    }
}

fn check_table(t: &Table) -> Result<(), BuildError> {
    for (name, v) in [("table.width", t.width), ("table.height", t.height)] {
        if !(v.is_finite() && v > 0.0) {
            return Err(bad(
                name,
                format!("must be a positive finite number (got {v})"),
            ));
        }
    }
    Ok(())
}

fn check_finite(field: &str, v: f64) -> Result<(), BuildError> {
    if v.is_finite() {
        Ok(())
    } else {
        Err(bad(field, format!("must be finite (got {v})")))
    }
}

/// Validates the physics against these balls; returns warnings that do not stop a run.
pub fn check_physics(p: &Physics, balls: &Balls) -> Result<Vec<String>, BuildError> {
    if !(p.dt.is_finite() && p.dt > 0.0) {
        return Err(bad(
            "physics.dt",
            format!("must be positive (got {})", p.dt),
        ));
    }
    check_finite("physics.gravity[0]", p.gravity[0])?;
    check_finite("physics.gravity[1]", p.gravity[1])?;
    if !(p.restitution.is_finite() && (0.0..=1.0).contains(&p.restitution)) {
        return Err(bad(
            "physics.restitution",
            format!("must be in [0, 1] (got {})", p.restitution),
        ));
    }
    if !(p.stiffness.is_finite() && p.stiffness > 0.0) {
        return Err(bad(
            "physics.stiffness",
            format!("must be positive (got {})", p.stiffness),
        ));
    }
    friction::check(&p.friction)?;
    let mut warnings = Vec::new();
    if p.model == ModelKind::Spring {
        if let Some(mu) = smallest_reduced_mass(balls) {
            // A contact is a harmonic oscillator of angular frequency w = sqrt(k/mu);
            // the explicit schemes are unstable once w dt reaches 2.
            let w_dt = p.dt * (p.stiffness / mu).sqrt();
            if w_dt >= 2.0 {
                return Err(bad(
                    "physics.dt",
                    format!(
                        "dt = {} is unstable for the spring model: dt*sqrt(k/mu) = {:.3} >= 2 \
                         (k = {}, smallest reduced mass mu = {}); use dt < {:.4}",
                        p.dt,
                        w_dt,
                        p.stiffness,
                        mu,
                        2.0 / (p.stiffness / mu).sqrt()
                    ),
                ));
            }
            let contact_time = std::f64::consts::PI * (mu / p.stiffness).sqrt();
            let steps = contact_time / p.dt;
            if steps < 10.0 {
                warnings.push(format!(
                    "a spring contact lasts {contact_time:.4} time units = {steps:.1} steps \
                     (fewer than 10): collisions are poorly resolved; lower dt or stiffness"
                ));
            }
        }
    }
    Ok(warnings)
}

/// The smallest reduced mass of any possible contact: two lightest dynamic balls
/// (`m1 m2 / (m1 + m2)`), or the lightest ball against a wall or a kinematic ball (`m`).
pub fn smallest_reduced_mass(balls: &Balls) -> Option<f64> {
    let (mut a, mut b) = (f64::INFINITY, f64::INFINITY);
    for i in 0..balls.len() {
        if balls.inv_m[i] == 0.0 {
            continue;
        }
        let m = balls.m[i];
        if m < a {
            b = a;
            a = m;
        } else if m < b {
            b = m;
        }
    }
    if a.is_infinite() {
        None
    } else if b.is_infinite() {
        Some(a)
    } else {
        Some(a * b / (a + b))
    }
}
