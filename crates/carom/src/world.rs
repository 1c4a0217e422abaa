//! The world: table, physics parameters, balls, and the step that advances them.

use std::sync::Arc;

use crate::balls::{Ball, Balls};
use crate::diagnostics::{self, Diagnostics, Symmetry};
use crate::friction;
use crate::models::{self, CollisionModel, StepContext, StepError};
use crate::physics::{bad, check_physics, BuildError, Physics};
use crate::table::Table;

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
