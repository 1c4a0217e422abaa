//! The world: table, physics parameters, balls, and the step that advances them.

use std::sync::Arc;

use crate::balls::{Ball, Balls};
use crate::diagnostics::Symmetry;
use crate::error::BuildError;
use crate::event_log::LoggedEvent;
use crate::friction;
use crate::models::{self, CollisionModel, StepContext, StepError};
use crate::physics::{check_physics, Friction, ModelKind, Physics};
use crate::stress::Tensor;
use crate::table::Table;
use crate::thermostat::Thermostat;
use crate::walls::spec::{PocketSpec, WallSpec};
use crate::walls::{Removal, Walls};

mod checks;
mod compressing;
mod measure;
mod play;
mod rest;
mod stepping;

/// A table, its physics and its balls, with the collision model that steps them: the
/// engine's entry point for a program that builds a scene in code.
///
/// Built from balls ([`World::from_balls`], [`World::new`]) or from a scenario
/// ([`crate::parse::build_world`], [`crate::load::build`]); advanced by [`World::step`]
/// and [`World::run_steps`]; measured by [`World::diagnostics`].
///
/// # Example
///
/// A heavy ball strikes a light one at rest, head on and elastically: the velocities
/// after are the textbook's `(m1 - m2) / (m1 + m2) v` and `2 m1 / (m1 + m2) v`, and the
/// momentum is what it was.
///
/// ```
/// use carom::{momentum_drift, Ball, ModelKind, Physics, Table, World};
///
/// let physics = Physics { model: ModelKind::Event, ..Physics::default() };
/// let balls = [
///     Ball::new(100.0, 100.0, 3.0, 0.0, 10.0, 4.0),
///     Ball::new(200.0, 100.0, 0.0, 0.0, 10.0, 1.0),
/// ];
/// let mut world = World::from_balls(Table::new(1000.0, 200.0), physics, &balls).unwrap();
/// let before = world.diagnostics();
/// world.run_steps(1000).unwrap(); // t = 50: they meet at t = 80 / 3, no wall reached
/// let after = world.diagnostics();
///
/// assert_eq!(after.collisions, 1);
/// assert!((world.balls().vx[0] - 1.8).abs() < 1e-12); // (4 - 1) / 5 * 3
/// assert!((world.balls().vx[1] - 4.8).abs() < 1e-12); // 2 * 4 / 5 * 3
/// assert!(momentum_drift(&before, &after) < 1e-15);
/// assert!((after.kinetic_energy - before.kinetic_energy).abs() < 1e-12);
/// ```
pub struct World {
    /// The scenario's name, written into the outputs.
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
    pool: Option<Arc<Threads>>,
    warnings: Vec<String>,
    /// Where the run's averaging window for the pressure began (the world's creation,
    /// or the last change of model).
    run_window: Window,
    /// Whether some ball spins, once known (forgotten when the balls are edited). Only
    /// contact friction changes spins, so without it this stays true or false.
    spinning: Option<bool>,
    /// How many times the balls or the physics were changed from outside the step
    /// (`balls_mut`, `set_physics`): with `steps` and `time`, tells a kept copy of the
    /// state whether it is still this world's.
    edits: u64,
    /// Whether [`World::run_steps_unread`] left the balls behind the world's time (an
    /// event-driven model keeps each at its own last event). Nothing may read them
    /// until [`World::synchronise`] brings them up to date.
    behind: bool,
    /// Walls inside the table and pockets (empty: the plain rectangle).
    walls: Arc<Walls>,
    /// The scenario entries they were built from, written back into state files as
    /// given, so that a resumed run rebuilds the same walls to the bit.
    specs: Arc<(Vec<WallSpec>, Vec<PocketSpec>)>,
    /// Per ball, whether it is still in play; empty while every ball is.
    in_play: Vec<bool>,
    /// Per ball, when and how it left play; empty while every ball is in play.
    removals: Vec<Option<Removal>>,
    /// Scratch: the balls the model took out of play in a step, kept empty between
    /// steps so that its storage serves every step.
    exits: Vec<(usize, Removal)>,
    /// The event log, when kept ([`World::set_event_log`]).
    event_log: Option<Vec<LoggedEvent>>,
    /// The thermostat acting at the end of every step (`physics.thermostat`).
    thermostat: Option<Thermostat>,
    /// A compression under way or stopped (`physics.compress`; see `compressing.rs`).
    compressing: Option<Box<compressing::Compressing>>,
    /// What building the scene did that a user should be told (a gas compressed into
    /// place); the summary prints them.
    notes: Vec<String>,
}

/// The start of a time-averaging window for the pressure: the time, the model's pair
/// virial and `sum m |v - V|^2` (centre-of-mass frame) at that moment.
///
/// The kinetic part of a window's pressure is the mean of `sum m |v - V|^2` at its two
/// ends: exact for an elastic hard-disk gas, whose kinetic energy only collisions could
/// change and do not, and a trapezoid estimate otherwise (a cooling gas, a spring gas
/// whose contacts hold a little energy). Sampling it at the ends keeps every step free
/// of an O(N) pass that only the observables would need.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Window {
    /// Simulated time at the window's start.
    pub time: f64,
    /// The model's accumulated pair virial at the window's start.
    pub virial: f64,
    /// `sum m |v - V|^2` (centre-of-mass frame) at the window's start.
    pub kinetic: f64,
    /// The tensor forms of `virial` and `kinetic`, for the stress tensor.
    pub virial_tensor: Tensor,
    /// The tensor form of `kinetic`, `[xx, xy, yy]`.
    pub kinetic_tensor: Tensor,
    /// The chain sampler's totals (zero for the dynamics), for its pressure.
    pub chain: crate::models::chain::Tally,
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

/// The most sides a ball may have crossed on a periodic axis before its state counts as
/// a runaway: 2^53, beyond which an f64 no longer counts every crossing.
pub const MAX_IMAGE_COUNT: u64 = 1 << 53;


/// The thread pool the parallel parts of a step run on, and the process that made it.
struct Threads {
    pool: rayon::ThreadPool,
    process: u32,
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
        check_table(&table, &balls)?;
        let warnings = check_physics(&physics, &balls)?;
        crate::sheared::check(&table, &physics)?;
        let walls = Arc::new(Walls::none());
        let model = models::create(physics.model, &balls, &table, &physics, &walls)
            .map_err(|e| BuildError::invalid(e.field(), e.to_string()))?;
        let mut world = World {
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
            spinning: None,
            edits: 0,
            behind: false,
            walls,
            specs: Arc::default(),
            in_play: Vec::new(),
            removals: Vec::new(),
            exits: Vec::new(),
            event_log: None,
            thermostat: None,
            compressing: None,
            notes: Vec::new(),
            run_window: Window {
                time: 0.0,
                virial: 0.0,
                kinetic: 0.0,
                virial_tensor: [0.0; 3],
                kinetic_tensor: [0.0; 3],
                chain: Default::default(),
            },
        };
        world.restart_window();
        Ok(world)
    }

    /// Convenience for tests and examples: balls from plain values.
    pub fn from_balls(table: Table, physics: Physics, balls: &[Ball]) -> Result<World, BuildError> {
        World::new("unnamed", table, physics, Balls::from_vec(balls))
    }

    /// Declares the scene mirror-symmetric about `y = axis_y`: partners are paired now.
    pub fn declare_symmetry(&mut self, axis_y: f64) {
        self.synchronise();
        self.symmetry = Some(Symmetry::pair(&self.balls, &self.table, axis_y));
    }

    /// The declared mirror axis `y = axis_y`, if any.
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
            .map_err(|e| BuildError::invalid("threads", e.to_string()))?;
        self.pool = Some(Arc::new(Threads {
            pool,
            process: std::process::id(),
        }));
        Ok(())
    }

    /// The number of threads the parallel parts of the step run on (1 without a pool).
    pub fn threads(&self) -> usize {
        self.pool.as_ref().map_or(1, |p| p.pool.current_num_threads())
    }

    /// In a child forked from the process that made the pool (Python's
    /// `multiprocessing`), a pool of the same size of its own: the child has none of
    /// the parent's pool threads, and a step would wait on them for ever. The
    /// parent's pool is left be, not dropped, since dropping it would signal threads
    /// that are not there.
    pub(crate) fn own_threads(&mut self) {
        let Some(t) = &self.pool else {
            return;
        };
        if t.process == std::process::id() {
            return;
        }
        let threads = t.pool.current_num_threads();
        std::mem::forget(self.pool.take());
        // The same count built before; should the system refuse the threads now,
        // the steps run on this thread alone, with the same results.
        let _ = self.set_threads(threads);
    }

    /// Does the model's one-off work for the balls as they are now (the event model
    /// lays out its grid and files the table's walls and pockets under its cells), so
    /// that copies made by [`World::try_clone`] start with it. Changes no result.
    pub fn warm(&mut self) {
        if self.is_current() {
            self.model.warm(&self.balls, &self.table);
        }
    }

    /// A copy of the world that continues exactly as this one would (the same steps
    /// give the same results to the bit), sharing its walls and thread pool; `None`
    /// when the model cannot be copied (only the event model can) or while a
    /// compression runs. Cheaper than
    /// building the world again: a caller trying many starts from one position (a
    /// billiards shot search) builds it once and copies it per try.
    pub fn try_clone(&self) -> Option<World> {
        if self.compressing.is_some() {
            return None;
        }
        Some(World {
            name: self.name.clone(),
            table: self.table,
            physics: self.physics,
            balls: self.balls.clone(),
            time: self.time,
            steps: self.steps,
            symmetry: self.symmetry.clone(),
            model: self.model.try_clone()?,
            pool: self.pool.clone(),
            warnings: self.warnings.clone(),
            run_window: self.run_window,
            spinning: self.spinning,
            edits: self.edits,
            behind: self.behind,
            walls: Arc::clone(&self.walls),
            specs: Arc::clone(&self.specs),
            in_play: self.in_play.clone(),
            removals: self.removals.clone(),
            exits: Vec::new(),
            event_log: self.event_log.clone(),
            thermostat: self.thermostat,
            compressing: None,
            notes: self.notes.clone(),
        })
    }

    /// Makes this world a copy of `source` (the copy [`World::try_clone`] makes: it
    /// continues exactly as `source` would) in this world's own storage: every array
    /// of the balls and of the model is overwritten in place and keeps its capacity,
    /// so that a world reused for one try after another (a shot search's thread
    /// copying its position for every shot) stops allocating once its arrays have
    /// grown to a try's needs. `false`, with this world unchanged, where `try_clone`
    /// gives `None` or the two models differ.
    pub fn copy_from(&mut self, source: &World) -> bool {
        if source.compressing.is_some() || !self.model.copy_from(&*source.model) {
            return false;
        }
        let World {
            name,
            table,
            physics,
            balls,
            time,
            steps,
            symmetry,
            model: _,
            pool,
            warnings,
            run_window,
            spinning,
            edits,
            behind,
            walls,
            specs,
            in_play,
            removals,
            exits: _,
            event_log,
            thermostat,
            compressing,
            notes,
        } = self;
        name.clone_from(&source.name);
        *table = source.table;
        *physics = source.physics;
        balls.clone_from(&source.balls);
        *time = source.time;
        *steps = source.steps;
        symmetry.clone_from(&source.symmetry);
        pool.clone_from(&source.pool);
        warnings.clone_from(&source.warnings);
        *run_window = source.run_window;
        *spinning = source.spinning;
        *edits = source.edits;
        *behind = source.behind;
        walls.clone_from(&source.walls);
        specs.clone_from(&source.specs);
        in_play.clone_from(&source.in_play);
        removals.clone_from(&source.removals);
        event_log.clone_from(&source.event_log);
        *thermostat = source.thermostat;
        *compressing = None;
        notes.clone_from(&source.notes);
        true
    }

    /// The table: its size and boundaries.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// The physics parameters in force.
    pub fn physics(&self) -> &Physics {
        &self.physics
    }

    /// The balls, in scenario order, brought up to the world's time.
    pub fn balls(&self) -> &Balls {
        self.assert_current();
        &self.balls
    }

    /// Mutable access for editors (the viewer's mouse, adding or removing balls). The
    /// model forgets whatever it cached about the balls.
    pub fn balls_mut(&mut self) -> &mut Balls {
        self.synchronise();
        self.edits += 1;
        self.model.invalidate();
        self.spinning = None;
        &mut self.balls
    }

    /// How many times the balls or the physics were changed from outside the step.
    pub fn edits(&self) -> u64 {
        self.edits
    }

    /// What building the scene did that the summary tells (see [`World::add_note`]).
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// Adds a line for the summary about how the scene was built.
    pub fn add_note(&mut self, note: String) {
        self.notes.push(note);
    }

    /// Warnings found when the world was built or its physics last changed (e.g. a
    /// spring contact resolved by too few steps).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// A hard cap on the events of one output interval (the event model; `None`, the
    /// default: none). The stall guard stops degenerate scenes whatever the cap; a cap
    /// bounds the work of an interval of a scene that is healthy but astronomically
    /// busy (a ball at 1e308 units per time), for callers that must bound it, such as
    /// the fuzzing harness. Kept until the model is replaced (`set_physics` with
    /// another model).
    pub fn set_event_cap(&mut self, cap: Option<u64>) {
        self.model.set_event_cap(cap);
    }

    /// The thermostat acting at the end of every step, if any.
    pub fn thermostat(&self) -> Option<Thermostat> {
        self.thermostat
    }

    /// Sets or removes the thermostat; its parameters are checked by the scenario
    /// ([`Thermostat::check`]).
    pub fn set_thermostat(&mut self, thermostat: Option<Thermostat>) {
        self.thermostat = thermostat;
        self.model.set_thermostat(thermostat.as_ref());
    }

    /// What the thermostat's next strikes depend on, where the model strikes with
    /// Andersen's bath as events of its own (`event`): per ball with a strike to come,
    /// `(ball, strikes so far, wait from now to the next)`, as the state file's
    /// `thermostat_clock` holds it. `None` elsewhere (the stepping models key their
    /// draws on the step count).
    pub fn thermostat_clock(&self) -> Option<Vec<(u32, u64, f64)>> {
        self.assert_current();
        self.model.thermostat_clock()
    }

    /// Takes back a clock from [`World::thermostat_clock`] (a world just built from a
    /// state file, its thermostat set): the run strikes on as it would have.
    pub fn restore_thermostat_clock(&mut self, clock: &[(u32, u64, f64)]) {
        self.synchronise();
        self.model.restore_thermostat_clock(clock, &self.balls);
    }

    /// Replaces the physics parameters; a new model kind gets a fresh model. Refused,
    /// with the world unchanged, when the new parameters are not runnable.
    pub fn set_physics(&mut self, physics: Physics) -> Result<(), BuildError> {
        self.synchronise();
        let warnings = check_physics(&physics, &self.balls)?;
        crate::sheared::check(&self.table, &physics)?;
        if self.compression_running() {
            self.check_compressible(&physics)?;
        }
        if physics.model == ModelKind::Chain && self.thermostat.is_some() {
            return Err(BuildError::invalid(
                "physics.thermostat",
                "the chain model samples configurations and leaves velocities alone: \
                 thermostats are refused"
                    .to_string(),
            ));
        }
        self.edits += 1;
        // New chain parameters (length, seed) make a new sampler.
        let new_chain = physics.model == ModelKind::Chain && physics.chain != self.physics.chain;
        if physics.model != self.physics.model || new_chain {
            self.model = models::create(
                physics.model,
                &self.balls,
                &self.table,
                &physics,
                &self.walls,
            )
            .map_err(|e| BuildError::invalid(e.field(), e.to_string()))?;
            self.model.set_event_log(self.event_log.is_some());
            self.model.set_thermostat(self.thermostat.as_ref());
            self.physics = physics;
            self.warnings = warnings;
            // A new model's virial starts from zero: so does the window.
            self.restart_window();
            return Ok(());
        } else {
            self.model.invalidate();
        }
        self.physics = physics;
        self.spinning = None;
        self.warnings = warnings;
        Ok(())
    }

    /// How far one step moves the clock: `dt`, or for the chain sampler, whose step is
    /// one chain, the chain's displacement shared among the disks (`L / N`).
    pub fn step_length(&self) -> f64 {
        self.model
            .chain()
            .map_or(self.physics.dt, |c| c.step_length())
    }

    /// The chain sampler, when it is the model.
    pub(crate) fn chain(&self) -> Option<&crate::models::chain::ChainModel> {
        self.model.chain()
    }

    /// Takes back a state file's chain totals (see
    /// [`crate::models::chain::ChainModel::restore_tally`]); nothing for the dynamics.
    pub(crate) fn restore_chain_tally(&mut self, tally: crate::models::chain::Tally) {
        if let Some(c) = self.model.chain_mut() {
            c.restore_tally(tally);
        }
    }

    /// Starts or stops keeping the event log ([`crate::event_log`]): off by default, and
    /// off it costs nothing and changes no result. Stopping drops the rows not taken.
    pub fn set_event_log(&mut self, on: bool) {
        if on != self.event_log.is_some() {
            self.event_log = on.then(Vec::new);
            self.model.set_event_log(on);
        }
    }

    /// Whether the event log is kept.
    pub fn event_log_on(&self) -> bool {
        self.event_log.is_some()
    }

    /// The rows logged and not yet taken, in time order within each step (empty when
    /// the log is off).
    pub fn event_log(&self) -> &[LoggedEvent] {
        self.event_log.as_deref().unwrap_or(&[])
    }

    /// Moves the rows logged so far to `out` (a writer streaming them to a file).
    pub fn take_events(&mut self, out: &mut Vec<LoggedEvent>) {
        if let Some(log) = self.event_log.as_mut() {
            out.append(log);
        }
    }

    /// The walls inside the table and the pockets.
    pub fn walls(&self) -> &Walls {
        &self.walls
    }

    /// The `[[walls]]` entries the walls were built from.
    pub fn wall_specs(&self) -> &[WallSpec] {
        &self.specs.0
    }

    /// The `[[pockets]]` entries.
    pub fn pocket_specs(&self) -> &[PocketSpec] {
        &self.specs.1
    }

    /// Gives the world the walls and pockets that the scenario entries `walls` and
    /// `pockets` describe; the model is built afresh for them, and refused when it
    /// cannot run them.
    pub fn set_walls(
        &mut self,
        walls: &[WallSpec],
        pockets: &[PocketSpec],
    ) -> Result<(), BuildError> {
        let built = crate::walls::from_spec::build(walls, pockets, &self.table)
            .map_err(|e| BuildError::invalid(e.field.as_deref().unwrap_or("walls"), e.message))?;
        self.set_built_walls(built)?;
        self.specs = Arc::new((walls.to_vec(), pockets.to_vec()));
        Ok(())
    }

    /// Glues balls to the walls (a ball's `glue` key): `glue` in ball order, each
    /// ball kinematic, each wall one that translates. Refused, naming the ball's `glue`
    /// key, when a check fails or the model does not run glued balls.
    pub fn set_glue(&mut self, glue: Vec<crate::walls::Glued>) -> Result<(), BuildError> {
        self.synchronise();
        if let Some(g) = glue.iter().find(|g| g.ball as usize >= self.balls.len()) {
            return Err(BuildError::invalid(
                "glue",
                format!("names ball {}, but there are {}", g.ball, self.balls.len()),
            ));
        }
        crate::walls::glue::check(&glue, &self.walls, &self.balls)
            .map_err(|(field, message)| BuildError { field, message })?;
        if let Some(refusal) = crate::walls::glue::refuse(self.physics.model, &glue) {
            return Err(refusal);
        }
        let mut walls = (*self.walls).clone();
        walls.set_glued(glue);
        walls.carry_glued(&mut self.balls);
        self.set_built_walls(walls)
    }

    fn set_built_walls(&mut self, walls: Walls) -> Result<(), BuildError> {
        self.synchronise();
        let walls = Arc::new(walls);
        self.model = models::create(
            self.physics.model,
            &self.balls,
            &self.table,
            &self.physics,
            &walls,
        )
        .map_err(|e| BuildError::invalid(e.field(), e.to_string()))?;
        self.model.set_event_log(self.event_log.is_some());
        self.model.set_thermostat(self.thermostat.as_ref());
        self.walls = walls;
        self.restart_window();
        Ok(())
    }

    /// Whether a failed step leaves the world as it was before that step (the event
    /// model's budget error does): callers need no copy of the last good state.
    pub fn failed_step_restores(&self) -> bool {
        self.model.failed_step_restores()
    }

    /// Whether the model turns the balls on cloth itself, with their spins' decay (the
    /// `event` model, along with each ball's own clock), so that the world does not.
    fn model_rolls_on_cloth(&self) -> bool {
        self.physics.friction.is_cloth() && self.physics.model == ModelKind::Event
    }

    /// Free flight turns every ball, `angle += omega dt`. Done here, before the model's
    /// step, wherever the spin over the step is the spin at its start: always without
    /// contact friction (spins never change), and for `impulse` and `simultaneous`,
    /// whose free flight comes before their collisions. With contact friction, `spring`
    /// (which turns balls with its kick) and `event` (which turns them along with their
    /// local clock) do it themselves, as `event` does on cloth (where the spin decays).
    /// Skipped, at the cost of nothing, when nothing spins.
    fn turn_in_free_flight(&mut self) {
        // A wall's own friction coefficient puts friction in play at that wall even
        // with no global contact friction (the spring model then takes its frictional
        // step, which turns the balls itself).
        let friction = self.physics.contact_friction.is_active() || self.walls.any_own_friction();
        if friction && matches!(self.physics.model, ModelKind::Spring | ModelKind::Event) {
            return;
        }
        if self.model_rolls_on_cloth() {
            return;
        }
        if !friction {
            let b = &self.balls;
            let spinning = *self
                .spinning
                .get_or_insert_with(|| b.omega.iter().any(|&w| w != 0.0));
            if !spinning {
                return;
            }
        }
        let dt = self.physics.dt;
        let b = &mut self.balls;
        for (a, w) in b.angle.iter_mut().zip(&b.omega) {
            *a += w * dt;
        }
    }
}

fn check_table(t: &Table, balls: &Balls) -> Result<(), BuildError> {
    for (name, v) in [("table.width", t.width), ("table.height", t.height)] {
        if !(v.is_finite() && v > 0.0) {
            return Err(BuildError::invalid(
                name,
                format!("must be a positive finite number (got {v})"),
            ));
        }
    }
    // See `Table::min_periodic_side` for why four diameters.
    let min = Table::min_periodic_side(balls.max_radius());
    for (axis, name) in [(0, "table.width"), (1, "table.height")] {
        let side = t.side(axis);
        if t.is_periodic(axis) && side < min {
            return Err(BuildError::invalid(
                name,
                format!(
                    "{side} is too short for a periodic axis: it must be at least four largest \
                     ball diameters ({min})"
                ),
            ));
        }
    }
    Ok(())
}
