//! The viewer's state and everything it does to the world, with no window involved: the
//! frame loop (fixed `dt`, a number of sub-steps per frame), the panel's physics
//! settings, the mouse ball, adding and removing balls, loading and saving. The window
//! in [`crate::app`] only reads this state and calls these methods, so all of it is
//! testable headlessly.

use std::collections::VecDeque;
use std::path::Path;
use std::time::{Duration, Instant};

use carom::energy_drift;
use carom::momentum_drift;
use carom::parse::{build_world, parse_scenario, Format};
use carom::scenario::Scenario;
use carom::{Ball, Balls, Diagnostics, ModelKind, Physics, Rgb, World};

mod cue;
pub use cue::CueSettings;

/// Sub-steps per displayed frame unless told otherwise: the tutorial's demos run 20.
pub const DEFAULT_SUBSTEPS: u32 = 20;

/// Frames per second assumed when the plot window is given in seconds.
const PLOT_FPS: f64 = 60.0;

/// Colours given in turn to balls added with the mouse.
const NEW_BALL_COLORS: [Rgb; 6] = [
    Rgb([0xFF, 0x70, 0x43]),
    Rgb([0x42, 0xA5, 0xF5]),
    Rgb([0xFF, 0xEE, 0x58]),
    Rgb([0xAB, 0x47, 0xBC]),
    Rgb([0x26, 0xC6, 0xDA]),
    Rgb([0xEC, 0x40, 0x7A]),
];

/// One point of the live plots.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    pub time: f64,
    pub kinetic: f64,
    pub potential: f64,
    pub total: f64,
    pub momentum: [f64; 2],
}

/// The ball held by the mouse.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Drag {
    ball: usize,
    /// Where the mouse wants the ball's centre (already kept inside the table).
    target: [f64; 2],
    /// Centre minus the grab point, so the ball does not jump to the cursor.
    offset: [f64; 2],
    /// The ball was dynamic before it was grabbed: it gets its mass back on release.
    was_dynamic: bool,
}

/// What a press of the primary button on the table did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Press {
    /// A ball was under the pointer and is now held.
    Grabbed(usize),
    /// Nothing there.
    Empty,
}

pub struct Sim {
    world: World,
    /// The scene as loaded: what Reset rebuilds.
    origin: Scenario,
    /// Where the scene came from, for the panel ("preset break", a file name).
    pub source: String,
    /// Steps per displayed frame at speed 1.
    pub substeps: u32,
    /// Multiplies the steps per frame (never `dt`): 2 runs twice as many steps a frame.
    pub speed: f64,
    pub running: bool,
    /// Fractional steps carried between frames, so speeds below one step a frame work.
    step_budget: f64,
    single_step: bool,
    drag: Option<Drag>,
    /// The physics as the panel shows it; applied to the world when it changes.
    pub draft: Physics,
    /// The last draft offered to the world, so a refused one is not retried every frame.
    tried: Physics,
    /// Why the world refused the draft (the world keeps its previous physics).
    pub physics_error: Option<String>,
    /// Why the simulation stopped (the state shown is the last good one).
    pub step_error: Option<String>,
    /// The outcome of the last load, save or edit, for the panel.
    pub notice: Option<Result<String, String>>,
    /// Drift is measured from here: the load, reset, or last edit of the scene.
    baseline: Diagnostics,
    current: Diagnostics,
    history: VecDeque<Sample>,
    /// How many seconds of frames the plots keep.
    pub plot_seconds: f64,
    /// Wall time of the last frame's simulation work (the steps only).
    pub frame_cost: Duration,
    /// Smoothed frame cost in milliseconds, for a readable panel.
    pub frame_cost_avg_ms: f64,
    /// Steps run by the last frame.
    pub last_frame_steps: u64,
    /// Radius and mass of balls added with the mouse.
    pub new_ball_radius: f64,
    pub new_ball_mass: f64,
    added: usize,
    threads: usize,
    /// The last good state, restored when a step fails.
    backup: Balls,
    /// The cue's settings (on cloth a drag strikes a ball: see [`Sim::aim_from`]).
    pub cue: CueSettings,
    aim: Option<cue::Aim>,
}

impl Sim {
    /// A viewer state around `world`; Reset returns to the world as given here.
    /// `threads` is the thread count for the parallel parts of the step (0: all cores).
    pub fn new(world: World, source: impl Into<String>, threads: usize) -> Sim {
        let origin = carom::state::snapshot(&world, 100.0);
        Sim::with_origin(world, origin, source, threads)
    }

    fn with_origin(
        mut world: World,
        origin: Scenario,
        source: impl Into<String>,
        threads: usize,
    ) -> Sim {
        let threads = if threads == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            threads
        };
        // A pool that cannot be built only costs speed: the step runs on this thread.
        if world.set_threads(threads).is_err() {
            let _ = world.set_threads(1);
        }
        let physics = *world.physics();
        let (r, m) = typical_ball(world.balls());
        let diagnostics = world.diagnostics();
        let mut sim = Sim {
            world,
            origin,
            source: source.into(),
            substeps: DEFAULT_SUBSTEPS,
            speed: 1.0,
            running: true,
            step_budget: 0.0,
            single_step: false,
            drag: None,
            draft: physics,
            tried: physics,
            physics_error: None,
            step_error: None,
            notice: None,
            baseline: diagnostics,
            current: diagnostics,
            history: VecDeque::new(),
            plot_seconds: 20.0,
            frame_cost: Duration::ZERO,
            frame_cost_avg_ms: 0.0,
            last_frame_steps: 0,
            new_ball_radius: r,
            new_ball_mass: m,
            added: 0,
            threads,
            backup: Balls::default(),
            cue: CueSettings::default(),
            aim: None,
        };
        sim.record();
        sim
    }

    pub fn world(&self) -> &World {
        &self.world
    }

    /// Diagnostics after the last frame.
    pub fn diagnostics(&self) -> &Diagnostics {
        &self.current
    }

    /// Relative energy drift since the load, reset or last edit.
    pub fn energy_drift(&self) -> f64 {
        energy_drift(&self.baseline, &self.current)
    }

    pub fn momentum_drift(&self) -> f64 {
        momentum_drift(&self.baseline, &self.current)
    }

    pub fn history(&self) -> &VecDeque<Sample> {
        &self.history
    }

    /// The ball held by the mouse, if any.
    pub fn held_ball(&self) -> Option<usize> {
        self.drag.map(|d| d.ball)
    }

    /// Runs one step at the next frame, even when paused.
    pub fn request_single_step(&mut self) {
        self.single_step = true;
    }

    /// Steps the next frame will run: one when a single step was asked for, otherwise
    /// `substeps * speed` carried over frames so that slow motion keeps an exact rate.
    fn steps_this_frame(&mut self) -> u64 {
        if std::mem::take(&mut self.single_step) {
            return 1;
        }
        if !self.running {
            return 0;
        }
        let speed = if self.speed.is_finite() && self.speed > 0.0 {
            self.speed
        } else {
            1.0
        };
        self.step_budget += f64::from(self.substeps) * speed;
        let n = self.step_budget.floor();
        self.step_budget -= n;
        n as u64
    }

    /// One displayed frame: applies the panel's physics if it changed, drives the mouse
    /// ball, runs this frame's steps and records the diagnostics. The steps run in one
    /// call, so that the event model synchronises its balls once per frame rather than
    /// once per sub-step.
    pub fn frame(&mut self) {
        self.run_frame(None);
    }

    /// [`Self::frame`], calling `observe` after every step (tests look inside a frame).
    pub fn frame_observed(&mut self, mut observe: impl FnMut(&World)) {
        self.run_frame(Some(&mut observe));
    }

    fn run_frame(&mut self, mut observe: Option<&mut dyn FnMut(&World)>) {
        self.apply_draft();
        let n = self.steps_this_frame();
        self.drive_drag(n);
        self.last_frame_steps = 0;
        if n == 0 {
            return;
        }
        self.backup.clone_from(self.world.balls());
        let (time, steps) = (self.world.time, self.world.steps);
        let start = Instant::now();
        let result = match observe.as_mut() {
            None => self.world.run_steps(n),
            Some(observe) => (0..n).try_for_each(|_| {
                self.world.step()?;
                observe(&self.world);
                Ok(())
            }),
        };
        self.last_frame_steps = self.world.steps - steps;
        if let Err(e) = result {
            // The balls may be half-way through the failed step: go back to the
            // frame's start and stay there until the user changes something.
            let good = std::mem::take(&mut self.backup);
            *self.world.balls_mut() = good;
            self.world.time = time;
            self.world.steps = steps;
            self.running = false;
            self.step_error = Some(format!("stopped at t = {time}: {e}"));
            self.last_frame_steps = 0;
        }
        self.frame_cost = start.elapsed();
        let ms = self.frame_cost.as_secs_f64() * 1e3;
        self.frame_cost_avg_ms = if self.frame_cost_avg_ms == 0.0 {
            ms
        } else {
            0.9 * self.frame_cost_avg_ms + 0.1 * ms
        };
        self.record();
    }

    fn record(&mut self) {
        self.current = self.world.diagnostics();
        let d = &self.current;
        self.history.push_back(Sample {
            time: self.world.time,
            kinetic: d.kinetic_energy,
            potential: d.potential_energy,
            total: d.total_energy,
            momentum: d.momentum,
        });
        let keep = (self.plot_seconds.max(0.0) * PLOT_FPS).ceil().max(2.0) as usize;
        while self.history.len() > keep {
            self.history.pop_front();
        }
    }

    /// The scene was changed from outside the physics: drift counts from here.
    fn rebaseline(&mut self) {
        self.current = self.world.diagnostics();
        self.baseline = self.current;
    }

    /// Offers the panel's physics to the world if it changed since the last offer.
    /// A refusal leaves the world as it was and shows the reason.
    pub fn apply_draft(&mut self) {
        if self.draft == self.tried {
            return;
        }
        self.tried = self.draft;
        match self.world.set_physics(self.draft) {
            Ok(()) => {
                self.physics_error = None;
                self.step_error = None;
                self.rebaseline();
            }
            Err(e) => self.physics_error = Some(e.to_string()),
        }
    }

    /// Sets the panel's physics and applies it at once; the error text on refusal.
    pub fn set_physics(&mut self, physics: Physics) -> Result<(), String> {
        self.draft = physics;
        self.apply_draft();
        match &self.physics_error {
            None => Ok(()),
            Some(e) => Err(e.clone()),
        }
    }

    /// The fastest the held ball may move. Two limits, both from the contact it may
    /// make with the smallest ball:
    /// - sampling: it moves at most half a contact distance `(r_held + r_min)/2` per
    ///   step, so any pass that would overlap a ball by more than 3% of the contact
    ///   distance is seen by at least one step (a chord of the contact disk shorter than
    ///   half its radius lies at more than 0.968 of the radius from the centre);
    /// - spring: an infinitely heavy ball at speed `u` compresses a resting ball of mass
    ///   `m` by at most `u sqrt(m/k)`; keeping that under half the contact distance for
    ///   the heaviest ball means the spring always pushes it out ahead, never through.
    pub fn drag_speed_limit(&self, held: usize) -> f64 {
        let b = self.world.balls();
        let p = self.world.physics();
        let (mut r_min, mut m_max) = (f64::INFINITY, 0.0f64);
        for i in (0..b.len()).filter(|&i| i != held) {
            r_min = r_min.min(b.r[i]);
            if b.inv_m[i] != 0.0 {
                m_max = m_max.max(b.m[i]);
            }
        }
        if r_min.is_infinite() {
            r_min = b.r[held];
        }
        let reach = b.r[held] + r_min;
        let mut limit = 0.5 * reach / p.dt;
        if p.model == ModelKind::Spring && m_max > 0.0 {
            limit = limit.min(0.5 * reach * (p.stiffness / m_max).sqrt());
        }
        limit
    }

    /// Gives the held ball the velocity that carries it from where it is to the mouse
    /// over this frame's `n` steps (capped by [`Self::drag_speed_limit`]). The model
    /// then moves it `1/n` of the way per step, so it is at interpolated positions
    /// inside the frame and, as important, every contact sees the velocity it really
    /// has. Placing it at interpolated points with zero velocity would make it an
    /// obstacle that teleports: impulses would be computed against a ball at rest and
    /// the spring model would count it as separating from whatever it pushes.
    fn drive_drag(&mut self, n: u64) {
        let Some(drag) = self.drag else { return };
        let i = drag.ball;
        let (x, y) = (self.world.balls().x[i], self.world.balls().y[i]);
        let [tx, ty] = drag.target;
        let (vx, vy, nx, ny) = if n == 0 {
            if self.running {
                // Slow motion between two steps: the ball waits for the next step.
                return;
            }
            // Paused: the mouse edits the scene directly.
            (0.0, 0.0, tx, ty)
        } else {
            let t = n as f64 * self.world.physics().dt;
            // Arrived up to round-off: stand still rather than creep (and be thrown
            // on release) at a velocity made of rounding errors.
            let arrived = |a: f64, b: f64| (a - b).abs() <= 1e-9 * (1.0 + b.abs());
            let (tx, ty) = if arrived(x, tx) && arrived(y, ty) {
                (x, y)
            } else {
                (tx, ty)
            };
            let (mut vx, mut vy) = ((tx - x) / t, (ty - y) / t);
            let speed = vx.hypot(vy);
            let limit = self.drag_speed_limit(i);
            if speed > limit {
                vx *= limit / speed;
                vy *= limit / speed;
            }
            (vx, vy, x, y)
        };
        let b = self.world.balls();
        if b.vx[i] == vx && b.vy[i] == vy && b.x[i] == nx && b.y[i] == ny {
            // Touching the balls would make the model drop its cached history.
            return;
        }
        let b = self.world.balls_mut();
        b.vx[i] = vx;
        b.vy[i] = vy;
        b.x[i] = nx;
        b.y[i] = ny;
    }

    /// Keeps a ball's centre inside the table.
    fn inside(&self, p: [f64; 2], r: f64) -> [f64; 2] {
        let t = self.world.table();
        [
            p[0].clamp(r.min(t.width / 2.0), (t.width - r).max(t.width / 2.0)),
            p[1].clamp(r.min(t.height / 2.0), (t.height - r).max(t.height / 2.0)),
        ]
    }

    /// The topmost ball (the last drawn) under the point `p`, in table coordinates.
    pub fn ball_at(&self, p: [f64; 2]) -> Option<usize> {
        let b = self.world.balls();
        (0..b.len())
            .rev()
            .find(|&i| (b.x[i] - p[0]).hypot(b.y[i] - p[1]) <= b.r[i])
    }

    /// Primary button pressed at `p`: grabs the ball there. While held it is kinematic
    /// (infinite mass, the tutorial's mouse ball): it moves only as the mouse says and
    /// the others bounce off it.
    pub fn press(&mut self, p: [f64; 2]) -> Press {
        self.release();
        let Some(i) = self.ball_at(p) else {
            return Press::Empty;
        };
        let was_dynamic = !self.world.balls().is_kinematic(i);
        let (x, y) = (self.world.balls().x[i], self.world.balls().y[i]);
        let b = self.world.balls_mut();
        b.inv_m[i] = 0.0;
        b.vx[i] = 0.0;
        b.vy[i] = 0.0;
        self.drag = Some(Drag {
            ball: i,
            target: [x, y],
            offset: [x - p[0], y - p[1]],
            was_dynamic,
        });
        self.rebaseline();
        Press::Grabbed(i)
    }

    /// The mouse moved to `p` while holding a ball.
    pub fn drag_to(&mut self, p: [f64; 2]) {
        let Some(drag) = self.drag else { return };
        let r = self.world.balls().r[drag.ball];
        let target = self.inside([p[0] + drag.offset[0], p[1] + drag.offset[1]], r);
        if let Some(d) = self.drag.as_mut() {
            d.target = target;
        }
    }

    /// Lets go of the held ball. A ball that was dynamic gets its mass back and keeps
    /// the velocity the mouse gave it (a throw); a kinematic one stops.
    pub fn release(&mut self) {
        let Some(drag) = self.drag.take() else { return };
        let i = drag.ball;
        let running = self.running;
        let b = self.world.balls_mut();
        if drag.was_dynamic {
            b.inv_m[i] = 1.0 / b.m[i];
            if !running {
                b.vx[i] = 0.0;
                b.vy[i] = 0.0;
            }
        } else {
            b.vx[i] = 0.0;
            b.vy[i] = 0.0;
        }
        self.rebaseline();
    }

    /// Adds a ball at rest at `p` (radius and mass from the panel), if it fits there
    /// without overlapping a wall or another ball: an overlap would start as a
    /// compressed spring or an impulse out of nowhere. Returns its index.
    pub fn add_ball_at(&mut self, p: [f64; 2]) -> Result<usize, String> {
        let (r, m) = (self.new_ball_radius, self.new_ball_mass);
        if !(r.is_finite() && r > 0.0 && m.is_finite() && m > 0.0) {
            return Err(format!(
                "new ball: radius and mass must be positive (got r = {r}, m = {m})"
            ));
        }
        let t = *self.world.table();
        if p[0] - r < 0.0 || p[0] + r > t.width || p[1] - r < 0.0 || p[1] + r > t.height {
            return Err(format!(
                "no room at ({:.1}, {:.1}): a ball of radius {r} would cross a wall",
                p[0], p[1]
            ));
        }
        let b = self.world.balls();
        if let Some(j) = (0..b.len()).find(|&j| (b.x[j] - p[0]).hypot(b.y[j] - p[1]) < r + b.r[j]) {
            return Err(format!(
                "no room at ({:.1}, {:.1}): a ball of radius {r} would overlap ball {j}",
                p[0], p[1]
            ));
        }
        let color = NEW_BALL_COLORS[self.added % NEW_BALL_COLORS.len()];
        let mut ball = Ball::new(p[0], p[1], 0.0, 0.0, r, m);
        ball.color = Some(color);
        self.world.balls_mut().push(ball);
        let i = self.world.balls().len() - 1;
        // A lighter ball can make the spring step unstable: ask the world again.
        let physics = *self.world.physics();
        if let Err(e) = self.world.set_physics(physics) {
            self.world.balls_mut().remove(i);
            return Err(format!("ball not added: {e}"));
        }
        self.added += 1;
        self.scene_edited();
        Ok(i)
    }

    /// Removes the ball under `p`; returns its former index.
    pub fn remove_ball_at(&mut self, p: [f64; 2]) -> Option<usize> {
        let i = self.ball_at(p)?;
        if let Some(d) = self.drag {
            if d.ball == i {
                self.drag = None;
            } else if d.ball > i {
                self.drag = Some(Drag {
                    ball: d.ball - 1,
                    ..d
                });
            }
        }
        self.world.balls_mut().remove(i);
        // An aim's ball index may have moved: aim again.
        self.aim = None;
        // Fewer balls can only make the spring step more stable; this refreshes the
        // warnings (and the model's view of the scene).
        let physics = *self.world.physics();
        let _ = self.world.set_physics(physics);
        self.scene_edited();
        Some(i)
    }

    fn scene_edited(&mut self) {
        // Mirror partners were paired by index; pair them again for the new scene.
        if let Some(axis) = self.world.symmetry_axis() {
            self.world.declare_symmetry(axis);
        }
        self.step_error = None;
        self.rebaseline();
        self.record();
    }

    /// Back to the scene as loaded, keeping the panel's run settings.
    pub fn reset(&mut self) {
        match build_world(&self.origin) {
            Ok(world) => {
                let (substeps, speed, running, seconds, cue) = (
                    self.substeps,
                    self.speed,
                    self.running,
                    self.plot_seconds,
                    self.cue,
                );
                let (source, origin) = (std::mem::take(&mut self.source), self.origin.clone());
                *self = Sim::with_origin(world, origin, source, self.threads);
                self.substeps = substeps;
                self.speed = speed;
                self.running = running;
                self.plot_seconds = seconds;
                self.cue = cue;
            }
            // The origin built once, so this is not expected; say so rather than panic.
            Err(e) => self.notice = Some(Err(format!("reset failed: {e}"))),
        }
    }

    /// Rebuilds the scene from its current state with another boundary per axis
    /// (image counts are kept on axes that stay periodic). On error (a ball across an
    /// edge that becomes a wall, a side too short to be periodic) nothing changes.
    pub fn set_boundary(&mut self, boundary: [carom::Boundary; 2]) -> Result<(), String> {
        let mut s = carom::state::snapshot(&self.world, 100.0);
        s.table.boundary = Some(carom::scenario::BoundarySpec::from(boundary));
        for b in &mut s.balls {
            if boundary[0] == carom::Boundary::Walls {
                b.ix = None;
            }
            if boundary[1] == carom::Boundary::Walls {
                b.iy = None;
            }
        }
        let source = self.source.clone();
        self.load_scenario(s, &source)
    }

    /// Replaces the scene. On error the current scene stays and the message says why.
    pub fn load_scenario(&mut self, scenario: Scenario, source: &str) -> Result<(), String> {
        let world = build_world(&scenario).map_err(|e| format!("{source}: {e}"))?;
        let (substeps, speed, seconds, cue) =
            (self.substeps, self.speed, self.plot_seconds, self.cue);
        *self = Sim::with_origin(world, scenario, source, self.threads);
        self.substeps = substeps;
        self.speed = speed;
        self.plot_seconds = seconds;
        self.cue = cue;
        self.notice = Some(Ok(format!("loaded {source}")));
        Ok(())
    }

    pub fn load_preset(&mut self, name: &str) -> Result<(), String> {
        let result =
            load_preset(name).and_then(|s| self.load_scenario(s, &format!("preset {name}")));
        self.note(result)
    }

    pub fn load_file(&mut self, path: &Path) -> Result<(), String> {
        let result =
            load_file(path).and_then(|s| self.load_scenario(s, &path.display().to_string()));
        self.note(result)
    }

    fn note(&mut self, result: Result<(), String>) -> Result<(), String> {
        if let Err(e) = &result {
            self.notice = Some(Err(e.clone()));
        }
        result
    }

    /// Writes the current state as a state file (a scenario that resumes from here),
    /// whole or not at all.
    pub fn save_state(&mut self, path: &Path) -> Result<(), String> {
        let state = carom::state::snapshot(&self.world, self.origin.duration);
        let result = serde_json::to_string_pretty(&state)
            .map_err(|e| format!("{}: cannot encode the state: {e}", path.display()))
            .and_then(|text| write_atomically(path, (text + "\n").as_bytes()));
        match &result {
            Ok(()) => self.notice = Some(Ok(format!("saved {}", path.display()))),
            Err(e) => self.notice = Some(Err(e.clone())),
        }
        result
    }
}

/// Radius and mass for balls added with the mouse: those of the scene's last ball, or
/// the design's defaults for an empty table.
fn typical_ball(b: &Balls) -> (f64, f64) {
    match b.len() {
        0 => (10.0, 1.0),
        n => (b.r[n - 1], b.m[n - 1]),
    }
}

/// A built-in scenario by name.
pub fn load_preset(name: &str) -> Result<Scenario, String> {
    let preset = carom::presets::find(name).ok_or_else(|| {
        let names: Vec<&str> = carom::presets::PRESETS.iter().map(|p| p.name).collect();
        format!("unknown preset {name:?} (built-in: {})", names.join(", "))
    })?;
    preset.scenario().map_err(|e| format!("preset {name}: {e}"))
}

/// A scenario file, TOML or JSON by extension.
pub fn load_file(path: &Path) -> Result<Scenario, String> {
    let name = path.display().to_string();
    let format = Format::from_path(&name)
        .ok_or_else(|| format!("{name}: unknown file type: expected a .toml or .json scenario"))?;
    let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
    parse_scenario(&text, format).map_err(|e| format!("{name}: {e}"))
}

/// A preset name, or else a scenario file: what `SCENARIO` means on the command line.
pub fn load_scenario(arg: &str) -> Result<(Scenario, String), String> {
    if carom::presets::find(arg).is_some() {
        return Ok((load_preset(arg)?, format!("preset {arg}")));
    }
    let path = Path::new(arg);
    if !path.exists() && Format::from_path(arg).is_none() {
        // Neither a file nor a scenario file name: most likely a mistyped preset.
        return Err(load_preset(arg).err().unwrap_or_default());
    }
    Ok((load_file(path)?, arg.to_string()))
}

/// Writes `bytes` to a temporary file beside `path`, then renames it over `path`, so
/// a reader sees the old file or the new one, never half of one.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    use std::io::Write;
    let name = path.display().to_string();
    let file_name = path
        .file_name()
        .ok_or_else(|| format!("{name}: not a file name"))?
        .to_string_lossy()
        .into_owned();
    // Named as every carom temporary is, `.carom-*.tmp` (see docs/reliability.md).
    let tmp = path.with_file_name(format!(".carom-{file_name}-{}.tmp", std::process::id()));
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("{name}: {e}")
    })
}

/// Load helper for the binary and `carom view`: the world a scenario describes, and
/// the viewer state around it with the scenario kept for Reset.
pub fn sim_for(scenario: Scenario, source: &str, threads: usize) -> Result<Sim, String> {
    let world = build_world(&scenario).map_err(|e| format!("{source}: {e}"))?;
    Ok(Sim::with_origin(world, scenario, source, threads))
}

#[cfg(test)]
mod tests;
