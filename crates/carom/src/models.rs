//! The collision models. Each lives in its own module behind the same small interface,
//! [`CollisionModel`]: advance the balls by one time step, report the energy stored in
//! contacts, count collisions.

pub(crate) mod calendar;
pub mod chain;
pub mod cushions;
pub mod event;
pub mod growing_disks;
pub mod impulse;
pub mod simultaneous;
pub mod spring;

use crate::balls::Balls;
use crate::physics::ModelKind;
use crate::physics::Physics;
use crate::table::Table;
use crate::walls::{Removal, Walls};

/// What a model sees during a step.
pub struct StepContext<'a> {
    pub balls: &'a mut Balls,
    pub table: &'a Table,
    pub physics: &'a Physics,
    /// `Some` when the step may use several threads. Models must give bit-identical
    /// results with or without it.
    pub pool: Option<&'a rayon::ThreadPool>,
    /// Walls inside the table, and pockets (often none).
    pub walls: &'a Walls,
    /// Per ball, whether it is in play; `None` while every ball is. A ball out of play
    /// is held at rest with infinite mass, and takes part in no contact.
    pub in_play: Option<&'a [bool]>,
}

/// Why a step could not be completed. The balls may be left part-way through the step:
/// a caller that must report the last good state keeps its own copy of it.
#[derive(Debug, Clone, PartialEq)]
pub enum StepError {
    /// The state stopped being physical (a non-finite value, a ball far outside).
    Unstable(String),
    /// The run reached a state the model does not represent (a ball held by three
    /// walls inside the table at once under the event model's gravity): it stops there.
    Unmodelled(String),
    /// The event model needed more events than its budget for one output interval.
    EventBudget(String),
    /// The model cannot run this scene (e.g. not built yet).
    Unsupported(String),
    /// The model cannot run a feature of the scene: the scenario field, and why.
    Unfit(&'static str, String),
}

impl StepError {
    /// The scenario field a build error concerns.
    pub fn field(&self) -> &'static str {
        match self {
            StepError::Unfit(field, _) => field,
            _ => "physics.model",
        }
    }
}

impl std::fmt::Display for StepError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StepError::Unstable(s) => write!(f, "simulation became unstable: {s}"),
            StepError::Unmodelled(s) => write!(f, "the model cannot continue: {s}"),
            StepError::EventBudget(s) => write!(f, "event budget exceeded: {s}"),
            StepError::Unsupported(s) => write!(f, "{s}"),
            StepError::Unfit(_, s) => write!(f, "{s}"),
        }
    }
}

impl std::error::Error for StepError {}

pub trait CollisionModel: Send {
    /// Which model this is (the workspace's tests check what [`create`] built).
    #[cfg_attr(not(feature = "internals"), allow(dead_code))]
    fn kind(&self) -> ModelKind;

    /// Advances every ball by exactly `physics.dt`.
    fn step(&mut self, ctx: StepContext<'_>) -> Result<(), StepError>;

    /// Like [`CollisionModel::step`], but the model may leave the balls in `Balls`
    /// behind, each at a time of its own, until [`CollisionModel::synchronise`]: an
    /// event-driven model then pays only for the events of a step that nobody reads.
    /// Between the two calls the balls must be neither read nor changed.
    fn step_deferred(&mut self, ctx: StepContext<'_>) -> Result<(), StepError> {
        self.step(ctx)
    }

    /// Brings every ball in `Balls` to the model's current time after
    /// [`CollisionModel::step_deferred`] (after a failed step: to the start of that
    /// step when [`CollisionModel::failed_step_restores`]).
    fn synchronise(&mut self, _balls: &mut Balls) {}

    /// Whether a step that fails leaves the balls as they were at its start (otherwise
    /// they may be left part-way through it).
    fn failed_step_restores(&self) -> bool {
        false
    }

    /// The walls moved (see [`crate::walls::motion`]): a model that keeps its own copy
    /// of them takes their new place.
    fn walls_moved(&mut self, _walls: &Walls) {}

    /// Whether every ball in play has stopped moving across the table (it may still
    /// spin on the spot), told from the model's own state between
    /// [`CollisionModel::step_deferred`] and [`CollisionModel::synchronise`], without
    /// bringing the balls forward (which, in `event`, restarts the predictions). `None`
    /// where the model cannot tell so: the caller synchronises and reads the balls.
    fn motion_ended(&self, _balls: &Balls) -> Option<bool> {
        None
    }

    /// Does the model's one-off work for these balls on this table now, so that copies
    /// ([`CollisionModel::try_clone`]) start with it; changes no result (the first step
    /// would do the same work, or redo it if the balls or the table changed).
    fn warm(&mut self, _balls: &Balls, _table: &Table) {}

    /// Places the moving walls where the step just taken left them, for a model that
    /// moves them on its own clock (the event model: each translating wall's place is
    /// a straight line in its time, see `models/event/translating_walls.rs`); `false` for a
    /// model that leaves it to [`Walls::advance`], which the world then calls.
    fn place_walls(&self, _walls: &mut Walls) -> bool {
        false
    }

    /// Energy stored in contacts right now (springs); 0 for hard-contact models.
    fn contact_energy(&self, _balls: &Balls, _table: &Table, _physics: &Physics) -> f64 {
        0.0
    }

    /// Collisions so far: ball-ball and ball-wall contacts that began (an impulse
    /// applied, or a spring contact that started).
    fn collisions(&self) -> u64;

    /// Events processed so far, for models that advance event by event (collisions
    /// plus bookkeeping events such as cell crossings); `None` for time-stepped models.
    fn event_count(&self) -> Option<u64> {
        None
    }

    /// The pair virial accumulated since the model was created, for the pressure:
    /// the sum of `r_ij . J_ij` over every ball-ball collision impulse (hard models),
    /// or the time integral of `sum r_ij . f_ij` over the steps (`spring`), with `r_ij`
    /// the minimum-image vector from `j` to `i` and `J_ij`, `f_ij` what `j` exerts on
    /// `i`. Walls are excluded. The pressure over a window of length `T` takes the
    /// difference of this value across the window divided by `T`.
    fn virial(&self) -> f64 {
        0.0
    }

    /// The tensor form of [`CollisionModel::virial`], `sum r_ij (x) J_ij` (hard models)
    /// or the time integral of `sum r_ij (x) f_ij` (`spring`), tangential parts
    /// included, as `[xx, xy, yy]` (the symmetric part, see [`crate::stress`]): its trace
    /// is the virial, up to rounding.
    fn virial_tensor(&self) -> crate::stress::Tensor {
        [0.0; 3]
    }

    /// The normal force of every ball-ball contact now (the force the next step would
    /// apply), into `out` (cleared first), for drawing force chains; `false` for a model
    /// that has no forces to report (the hard models act by impulses).
    fn contact_forces(
        &self,
        _balls: &Balls,
        _table: &Table,
        _physics: &Physics,
        _out: &mut Vec<crate::stress::ContactForce>,
    ) -> bool {
        false
    }

    /// The balls were changed from outside (added, removed, moved): drop any cache.
    fn invalidate(&mut self) {}

    /// A copy that continues exactly as this model would, for models that can be
    /// copied (the event model); `None` for the others.
    fn try_clone(&self) -> Option<Box<dyn CollisionModel>> {
        None
    }

    /// Makes this model a copy of `source` (as [`CollisionModel::try_clone`] would
    /// make it) in its own storage, its arrays kept where they are large enough;
    /// `false`, with this model unchanged, where the two cannot be copied so (only an
    /// event model copies into an event model).
    fn copy_from(&mut self, _source: &dyn CollisionModel) -> bool {
        false
    }

    /// The event model itself, for [`CollisionModel::copy_from`]; `None` for the others.
    fn as_event(&self) -> Option<&event::Event> {
        None
    }

    /// Whether the model itself finds when balls leave play (an event-driven model
    /// finds the exact moment a ball enters a pocket or crosses an open edge). When
    /// false, the world looks for balls in pockets or beyond open edges after each step.
    fn finds_exits(&self) -> bool {
        false
    }

    /// The balls the model took out of play in the step just taken, with when (the
    /// time since the step's start) and how, for a model that
    /// [`CollisionModel::finds_exits`]. The model has already frozen
    /// them (at rest, infinite mass, no spin: as [`crate::world::World::remove_ball`]
    /// leaves a ball) and left them out of its contacts; the world only records them.
    fn take_exits(&mut self, _out: &mut Vec<(usize, Removal)>) {}

    /// A hard cap on the events of one output interval, for models that count events
    /// (the event model: [`event::Event::set_budget`]); the others ignore it.
    fn set_event_cap(&mut self, _cap: Option<u64>) {}

    /// The growth of the next step, for a compression (`physics.compress`): every
    /// radius grows by `growth.rate` times its size at the step's start per unit time,
    /// the step lasts `growth.len` (at most `dt`) unless the packing jams first. Only
    /// the growing event model ([`growing_disks::Grow`]) takes it; the others ignore it.
    fn set_growth(&mut self, _growth: growing_disks::Growth) {}

    /// What the last compressing step measured, for a model that measures it exactly
    /// ([`growing_disks::Grow`]); `None` otherwise.
    fn grown(&self) -> Option<growing_disks::Grown> {
        None
    }

    /// The per-contact memory the next step depends on, for the state file: the
    /// loaded tangential springs of `spring` with contact friction. Models that keep no
    /// such memory (the hard models, which act on each contact afresh) have none.
    fn contact_history(&self) -> ContactHistory {
        ContactHistory::default()
    }

    /// Takes back what [`CollisionModel::contact_history`] gave, for `balls` as they
    /// are now (a world just built from a state file), so that the run continues as if
    /// never interrupted. Entries naming balls out of range are ignored. Models without
    /// per-contact memory ignore it all.
    fn restore_contact_history(&mut self, _history: &ContactHistory, _balls: &Balls) {}

    /// Starts (`true`) or stops keeping the event log ([`crate::event_log`]). Off, a model
    /// keeps no log and spends nothing on it. Models that resolve no impacts of their
    /// own ignore it.
    fn set_event_log(&mut self, _on: bool) {}

    /// Moves the rows logged since the last call to `out`, each timed from the start of
    /// the step that wrote it (the world adds that start), in the order resolved.
    fn take_events(&mut self, _out: &mut Vec<crate::event_log::LoggedEvent>) {}

    /// Whether the model applies thermostat `th` itself under `physics` (the event
    /// model strikes with Andersen's bath as events of their own: see
    /// `models/event/strikes.rs`); the world then leaves it alone. Otherwise the world
    /// applies it at the end of every step.
    fn applies_thermostat(&self, _th: &crate::thermostat::Thermostat, _physics: &Physics) -> bool {
        false
    }

    /// The world's thermostat, for a model that applies it itself.
    fn set_thermostat(&mut self, _th: Option<&crate::thermostat::Thermostat>) {}

    /// What the next steps of a thermostat the model applies itself depend on, for the
    /// state file: per ball with a strike to come, `(ball, strikes so far, wait to the
    /// next)`. `None` for the other models. Read with the balls synchronised.
    fn thermostat_clock(&self) -> Option<Vec<(u32, u64, f64)>> {
        None
    }

    /// Takes back what [`CollisionModel::thermostat_clock`] gave, for `balls` as they
    /// are now (a world just built from a state file).
    fn restore_thermostat_clock(&mut self, _clock: &[(u32, u64, f64)], _balls: &Balls) {}

    /// The chain sampler, for the world's clock, pressure and state file; `None` for
    /// every dynamics.
    fn chain(&self) -> Option<&chain::ChainModel> {
        None
    }

    /// [`CollisionModel::chain`], to restore a state file's tally and restart blocks.
    fn chain_mut(&mut self) -> Option<&mut chain::ChainModel> {
        None
    }
}

/// Loaded tangential springs (contact friction in `spring`): the stretch `xi` of each
/// ball-ball contact `(i, j, xi)` with `i < j`, and of each ball-wall contact
/// `(i, axis, xi)` (axis 0: an x wall, left or right; 1: a y wall); on cloth also the
/// vertical part `xi_z` of each ball-ball contact's stretch, `(i, j, xi_z)`. Only
/// nonzero stretches are listed, pairs ascending by `(i, j)`, walls by `(i, axis)`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ContactHistory {
    pub pairs: Vec<(u32, u32, f64)>,
    pub walls: Vec<(u32, u8, f64)>,
    /// Springs on pieces of the walls inside the table: `(i, piece, xi)`, by ball,
    /// then as the ball met its pieces.
    pub pieces: Vec<(u32, u32, f64)>,
    /// On cloth, the vertical part of the ball-ball stretches: `(i, j, xi_z)`,
    /// ascending by `(i, j)` as `pairs` (a pair may be in either list or both).
    pub vertical: Vec<(u32, u32, f64)>,
}

impl ContactHistory {
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
            && self.walls.is_empty()
            && self.pieces.is_empty()
            && self.vertical.is_empty()
    }
}

/// The model of the given kind, ready to step these balls.
pub fn create(
    kind: ModelKind,
    balls: &Balls,
    table: &Table,
    physics: &Physics,
    walls: &Walls,
) -> Result<Box<dyn CollisionModel>, StepError> {
    if let Some(e) = crate::walls::glue::refuse(kind, walls.glued()) {
        return Err(StepError::Unfit("physics.model", e.to_string()));
    }
    if kind == ModelKind::Spring
        && walls.any_own_friction()
        && physics.integrator != crate::physics::Integrator::SemiImplicitEuler
    {
        return Err(StepError::Unfit(
            "walls",
            format!(
                "a wall's contact friction (mu) runs with the semi-implicit-euler integrator \
                 only (got {})",
                physics.integrator.name()
            ),
        ));
    }
    if walls.moves() {
        refuse_moving_walls(kind, physics, walls)?;
    }
    Ok(match kind {
        ModelKind::Impulse => Box::new(impulse::Impulse::new()),
        ModelKind::Spring => Box::new(spring::Spring::new(balls, physics, walls)),
        ModelKind::Simultaneous => {
            Box::new(simultaneous::Simultaneous::new(balls, table, physics)?)
        }
        ModelKind::Event => Box::new(event::Event::with_walls(balls, table, physics, walls)?),
        ModelKind::Chain => Box::new(chain::ChainModel::new(balls, table, physics, walls)?),
    })
}

/// Whether model `kind` runs the moving walls of `walls` under `physics`: each refusal
/// names the first wall concerned and its key. Every model translates walls (`event`
/// without gravity, exactly); walls turn in the stepping models (`impulse`, `spring`,
/// `simultaneous`) and servos run in `spring` only (a servo reads the contacts' spring
/// forces); no moving wall runs on cloth.
fn refuse_moving_walls(kind: ModelKind, physics: &Physics, walls: &Walls) -> Result<(), StepError> {
    let motions = || {
        walls
            .motions()
            .iter()
            .enumerate()
            .filter_map(|(k, m)| m.map(|m| (k, m)))
    };
    let key_of = |m: &crate::walls::Motion| {
        if m.servo.is_some() {
            "pressure"
        } else if m.angular_velocity != 0.0 {
            "angular_velocity"
        } else {
            "velocity"
        }
    };
    let refuse = |k: usize, key: &str, why: String| {
        Err(StepError::Unfit(
            "walls",
            format!("walls[{k}].{key}: {why}"),
        ))
    };
    let (k, m) = motions().next().expect("a moving wall");
    if physics.friction.is_cloth() {
        return refuse(
            k,
            key_of(&m),
            "moving walls do not run on cloth (walls are cushions there)".into(),
        );
    }
    if let Some((k, _)) = motions().find(|(_, m)| m.servo.is_some()) {
        if kind != ModelKind::Spring {
            return refuse(
                k,
                "pressure",
                format!(
                    "a servo wall (pressure) runs in the spring model only (got {})",
                    kind.name()
                ),
            );
        }
    }
    if let Some((k, _)) = motions().find(|(_, m)| m.angular_velocity != 0.0) {
        if kind == ModelKind::Event {
            return refuse(
                k,
                "angular_velocity",
                "a turning wall runs in the impulse, spring and simultaneous models (got event)"
                    .into(),
            );
        }
    }
    if kind == ModelKind::Event && physics.gravity != [0.0, 0.0] {
        return refuse(
            k,
            key_of(&m),
            format!(
                "moving walls run in the event model without gravity (got physics.gravity = \
                 [{}, {}]): a ball resting on a moving face is not modelled",
                physics.gravity[0], physics.gravity[1]
            ),
        );
    }
    Ok(())
}

/// Free flight over `dt`, exact under constant gravity. Kinematic balls move at their
/// prescribed velocity and feel no gravity.
pub fn free_flight(balls: &mut Balls, gravity: [f64; 2], dt: f64) {
    let (hx, hy) = (0.5 * gravity[0] * dt * dt, 0.5 * gravity[1] * dt * dt);
    let (gx, gy) = (gravity[0] * dt, gravity[1] * dt);
    for i in 0..balls.len() {
        if balls.inv_m[i] == 0.0 {
            balls.x[i] += balls.vx[i] * dt;
            balls.y[i] += balls.vy[i] * dt;
        } else {
            balls.x[i] += balls.vx[i] * dt + hx;
            balls.y[i] += balls.vy[i] * dt + hy;
            balls.vx[i] += gx;
            balls.vy[i] += gy;
        }
    }
}

/// Brings every ball back onto the table across its periodic axes, counting the sides
/// crossed in the image counts; nothing at all on a walled table. Called by each model
/// right after its balls moved (free flight or drift), before contacts are looked for.
#[inline]
pub fn wrap_positions(balls: &mut Balls, table: &Table) {
    if table.is_sheared() {
        let Balls {
            x, y, vx, ix, iy, ..
        } = balls;
        table.wrap_sheared(x, y, vx, ix, iy);
    } else if table.any_periodic() {
        let Balls { x, y, ix, iy, .. } = balls;
        table.wrap_all(x, y, ix, iy);
    }
}

/// The table's four walls live with the table (a foundation below the models);
/// named here too for the models' own use.
pub use crate::table::Wall;

/// A contact between two balls (`i < j`), between a ball and one of the table's walls,
/// or between a ball and a wall inside the table: `Piece(i, k)` is ball `i` against the
/// `k`-th [`PieceContact`] its resolver was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Contact {
    Pair(u32, u32),
    Wall(u32, Wall),
    Piece(u32, u32),
}

/// One ball's contact with a wall inside the table, as a contact solver needs it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PieceContact {
    /// Unit normal from the wall's nearest point towards the ball's centre.
    pub normal: [f64; 2],
    /// The wall's restitution (its own, or the scene's).
    pub restitution: f64,
    /// The wall's contact-friction coefficient (its own, or the scene's).
    pub mu: f64,
    /// The velocity of the wall's surface at the contact.
    pub surface: [f64; 2],
    /// The wall (`[[walls]]` entry) the piece belongs to, for the event log.
    pub wall: u32,
}

/// The relative normal speed at which contact `c` closes (positive: approaching), for
/// the event log; `pieces` are what [`Contact::Piece`] indexes.
pub fn approach_speed(balls: &Balls, table: &Table, c: Contact, pieces: &[PieceContact]) -> f64 {
    let v = |i: u32| [balls.vx[i as usize], balls.vy[i as usize]];
    match c {
        Contact::Pair(i, j) => {
            let (iu, ju) = (i as usize, j as usize);
            let ry = balls.y[ju] - balls.y[iu];
            let (dx, dy) = table.min_image(balls.x[ju] - balls.x[iu], ry);
            let d = dx.hypot(dy);
            let (a, mut b) = (v(i), v(j));
            if table.is_sheared() {
                // Across a sliding edge, the image's velocity.
                b[0] += table.image_velocity(ry, dy);
            }
            ((a[0] - b[0]) * dx + (a[1] - b[1]) * dy) / d
        }
        Contact::Wall(i, w) => {
            let (a, n) = (v(i), w.normal());
            -(a[0] * n[0] + a[1] * n[1])
        }
        Contact::Piece(i, k) => {
            let (a, p) = (v(i), pieces[k as usize]);
            -((a[0] - p.surface[0]) * p.normal[0] + (a[1] - p.surface[1]) * p.normal[1])
        }
    }
}

/// The event-log row of contact `c` resolved at `time` with normal impulse `impulse`.
pub fn contact_row(
    time: f64,
    c: Contact,
    pieces: &[PieceContact],
    impulse: f64,
    approach: f64,
) -> crate::event_log::LoggedEvent {
    use crate::event_log::LoggedEvent;
    match c {
        Contact::Pair(i, j) => LoggedEvent::pair(time, i, j, impulse, approach),
        Contact::Wall(i, w) => LoggedEvent::table_wall(time, i, w, impulse, approach),
        Contact::Piece(i, k) => {
            LoggedEvent::wall(time, i, pieces[k as usize].wall, impulse, approach)
        }
    }
}
