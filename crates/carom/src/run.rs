//! Running a loaded scenario the way every front end does: the number of steps a run
//! length means, the default thread count, and stepping with a checkpoint of the last
//! good state so that a run that fails (an unstable integration, say) stops at a state
//! worth keeping. The command line and the Python package share this, so their runs
//! and their failures are the same.

use crate::balls::Balls;
use crate::error::ScenarioError;
use crate::load::Loaded;
use crate::models::StepError;
use crate::scenario::short_number as short;
use crate::scenario::Scenario;
use crate::state;
use crate::world::World;

/// Steps between checkpoints when no sample falls sooner. Copying the balls costs
/// about as much as a small fraction of one step; every 16 steps it is below 1% of
/// the run while the state kept after a failure is at most 16 steps old.
pub const CHECKPOINT_EVERY: u64 = 16;

/// Scenes at least this large get all cores by default: below it the spring model's
/// parallel chunks (4096 balls) leave little to share and a pool only costs.
pub const PARALLEL_FROM_BALLS: usize = 8192;

/// The most steps a run may ask for (about 10^15: years of stepping even for one ball).
pub const MAX_STEPS: f64 = 1e15;

/// Whole steps covering `t`, to the nearest (so 200 / 0.05 is 4000 despite rounding).
/// `what` names the length in the error (`--time`, `duration`, `time=`).
pub fn steps_for(t: f64, dt: f64, what: &str) -> Result<u64, String> {
    let n = (t / dt).round();
    let shown = short(t);
    if !(n.is_finite() && n >= 0.0) {
        return Err(format!("{what} {shown}: not a run length"));
    }
    if n > MAX_STEPS {
        return Err(format!(
            "{what} {shown}: {n:e} steps of dt = {} is more than any run can take \
             ({MAX_STEPS:e})",
            short(dt)
        ));
    }
    Ok(n as u64)
}

/// A step count asked for directly (`--steps`, `steps=`), held to the bound a run
/// length has: a count above `MAX_STEPS` is no run anyone can wait for (without the
/// bound, `--steps 18446744073709551615` would be accepted and never end). `what`
/// names the option in the error.
pub fn check_steps(n: u64, what: &str) -> Result<u64, String> {
    // 1e15 is below 2^53, so the comparison in floating point is exact at the bound.
    if n as f64 > MAX_STEPS {
        return Err(format!(
            "{what} {n}: more steps than any run can take (at most {MAX_STEPS:e})"
        ));
    }
    Ok(n)
}

/// The thread count a run uses unless told: all cores for scenes large enough to pay
/// for them, else one. Results are the same whatever the count.
pub fn default_threads(balls: usize) -> usize {
    if balls >= PARALLEL_FROM_BALLS {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        1
    }
}

/// A copy of the last state known to be good.
struct Checkpoint {
    balls: Balls,
    time: f64,
    steps: u64,
    /// The model's collision count at the checkpoint.
    collisions: u64,
    /// The world's edit count when copied (see [`Checkpoint::is_of`]).
    edits: u64,
}

impl Checkpoint {
    fn new(world: &World) -> Checkpoint {
        Checkpoint {
            balls: world.balls().clone(),
            time: world.time,
            steps: world.steps,
            collisions: world.collisions(),
            edits: world.edits(),
        }
    }

    /// Copies the world's state in as it is, reusing the buffers.
    fn take(&mut self, world: &World) {
        self.balls.clone_from(world.balls());
        self.time = world.time;
        self.steps = world.steps;
        self.collisions = world.collisions();
        self.edits = world.edits();
    }

    /// Whether this is a copy of the world as it is now: same step, same time to the
    /// bit, and nothing edited since. Only stepping changes a world otherwise.
    fn is_of(&self, world: &World) -> bool {
        self.steps == world.steps
            && self.time.to_bits() == world.time.to_bits()
            && self.edits == world.edits()
    }

    /// Copies the world's state in (reusing the buffers), unless it is no longer
    /// physical: then the previous checkpoint stays the last good one.
    fn update(&mut self, world: &World) -> Result<(), StepError> {
        world.check_physical()?;
        self.take(world);
        Ok(())
    }

    fn restore(&self, world: &mut World) {
        world.balls_mut().clone_from(&self.balls);
        world.time = self.time;
        world.steps = self.steps;
    }
}

/// A run that could not go on: what went wrong, where, and the state it stopped at.
#[derive(Debug, Clone)]
pub struct Failure {
    /// What went wrong.
    pub error: StepError,
    /// The step and time at which the failure showed.
    pub failed_step: u64,
    /// The simulated time at which the failure showed.
    pub failed_time: f64,
    /// The last good state, where the world now is.
    pub step: u64,
    /// The simulated time of the last good state.
    pub time: f64,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "carom: {} (step {}, t = {}); stopped at the last good state, step {} (t = {})",
            self.error, self.failed_step, self.failed_time, self.step, self.time
        )
    }
}

impl std::error::Error for Failure {}

/// What a front end watches while [`Session::run`] runs: the steps at which it reads
/// the world and what it does there (write a sample, draw a frame), the event log after
/// each stretch of steps, progress. Every method has a default that does nothing, so an
/// observer writes only those it needs. Steps are counted from the run's start: `k` of
/// `steps`.
pub trait Observer {
    /// An observer's own failure (a file that cannot be written): it ends the run at
    /// once and comes back as [`RunError::Observer`].
    type Error;

    /// Whether the world is to be read after step `k` of `steps`: the session then
    /// brings the balls up to date, checks and keeps them as the last good state, and
    /// calls [`Observer::sample`]. Asked for each step ahead of a stretch of the event
    /// model, so it is to be cheap and to give the same answer each time it is asked.
    fn due(&self, _k: u64, _steps: u64) -> bool {
        false
    }

    /// The world after step `k` of `steps`, a step [`Observer::due`] chose (not the
    /// state before the run: that is the caller's to take).
    fn sample(&mut self, _world: &World, _k: u64, _steps: u64) -> Result<(), Self::Error> {
        Ok(())
    }

    /// The state a run stopped at before its end: where a compression stopped, or the
    /// last good state after a failure.
    fn last(&mut self, _world: &World) -> Result<(), Self::Error> {
        Ok(())
    }

    /// After every call that stepped the world, failed or not, with its balls not to
    /// be read (see [`World::run_steps_unread`]): where the event log is taken.
    fn stepped(&mut self, _world: &mut World) -> Result<(), Self::Error> {
        Ok(())
    }

    /// `k` steps are done: called about every 2^20 ball-steps, for a progress display
    /// (only the count is passed, since the balls may not be read between due steps).
    fn progress(&mut self, _k: u64) {}
}

/// Why [`Session::run`] stopped short.
#[derive(Debug)]
pub enum RunError<E> {
    /// The simulation could not go on; the world is at the last good state.
    Failed(Failure),
    /// The observer failed.
    Observer(E),
}

/// The observer of [`Session::advance`]: a sample every `every` steps and at the end.
struct Every<F> {
    every: u64,
    sample: F,
}

impl<F: FnMut(&World)> Observer for Every<F> {
    type Error = std::convert::Infallible;

    fn due(&self, k: u64, steps: u64) -> bool {
        self.every > 0 && (k.is_multiple_of(self.every) || k == steps)
    }

    fn sample(&mut self, world: &World, _k: u64, _steps: u64) -> Result<(), Self::Error> {
        (self.sample)(world);
        Ok(())
    }

    fn last(&mut self, world: &World) -> Result<(), Self::Error> {
        if self.every > 0 {
            (self.sample)(world);
        }
        Ok(())
    }
}

/// A loaded scenario being run, by the command line in one go and by the Python package
/// in pieces: it keeps what the state file needs besides the world (the scenario's
/// duration and description, the collisions counted before a resume) and leaves the
/// world at its last good state when a run fails.
///
/// # Example
///
/// The `three-ball` preset, run for its duration as `carom run three-ball --out` runs
/// it: one ball strikes two touching balls at once, the `simultaneous` model resolves
/// both contacts together, and the state file shows the scene still mirror symmetric
/// and the striker's momentum `(8, 0)` shared out, not changed.
///
/// ```
/// use carom::load::{build, Source};
/// use carom::run::{steps_for, Session};
///
/// let mut session = Session::new(build(&Source::preset("three-ball").unwrap(), &[]).unwrap());
/// let dt = session.world.physics().dt;
/// let steps = steps_for(session.scenario.duration, dt, "duration").unwrap();
/// session.advance(steps, 0, |_| {}).unwrap();
///
/// let state: serde_json::Value = serde_json::from_str(&session.state_json()).unwrap();
/// assert_eq!(state["steps"], 1200);
/// let d = &state["diagnostics"];
/// assert!(d["collisions"].as_u64().unwrap() >= 2);
/// assert!((d["momentum"][0].as_f64().unwrap() - 8.0).abs() < 1e-12);
/// assert!(d["momentum"][1].as_f64().unwrap().abs() < 1e-12);
/// assert!(d["symmetry_error"].as_f64().unwrap() < 1e-9);
/// // The striker slows, the struck balls leave at 30 degrees either side.
/// let vx0 = state["balls"][0]["vx"].as_f64().unwrap();
/// assert!(vx0 < 8.0);
/// ```
pub struct Session {
    /// The scenario as loaded: its name, description and duration, and, for a resumed
    /// state, the counters it carries.
    pub scenario: Scenario,
    /// The world being run.
    pub world: World,
    /// Collisions counted by the model after its last good state, before a failure
    /// rewound the balls (the model's own counter cannot be rewound).
    uncounted: u64,
    /// The last good state, kept between runs: a run that ends well leaves it equal
    /// to the world, so the next run (a notebook's `step()` after `step()`) need not
    /// copy every ball again before it starts; it is taken afresh only when the world
    /// changed in between. Made at load, before any run's clock starts.
    checkpoint: Checkpoint,
}

impl Session {
    /// A session on a loaded scenario, its last good state the state as loaded.
    pub fn new(loaded: Loaded) -> Session {
        Session {
            checkpoint: Checkpoint::new(&loaded.world),
            scenario: loaded.scenario,
            world: loaded.world,
            uncounted: 0,
        }
    }

    /// Collisions since the scenario's run began: a resumed state's count continues.
    pub fn collisions(&self) -> u64 {
        let before = self
            .scenario
            .diagnostics
            .as_ref()
            .and_then(|d| d.get("collisions"))
            .and_then(serde_json::Value::as_u64)
            .unwrap_or(0);
        before + self.collisions_since_load()
    }

    /// Collisions since this session's world was built, to its last good state (a
    /// failed run's collisions after that state are not counted).
    pub fn collisions_since_load(&self) -> u64 {
        self.world.collisions() - self.uncounted
    }

    /// The diagnostics as the state file has them.
    pub fn diagnostics(&self) -> serde_json::Value {
        let mut d = state::diagnostics_json(&self.world.with_order(self.world.diagnostics()));
        d["collisions"] = serde_json::json!(self.collisions());
        d
    }

    /// The state file `carom run --out` writes for this world.
    pub fn state(&self) -> Scenario {
        let mut s = state::snapshot(&self.world, self.scenario.duration);
        s.description = self.scenario.description.clone();
        s.diagnostics = Some(self.diagnostics());
        s
    }

    /// [`Session::state`] without its balls: with [`state::StateFile`] it encodes to
    /// the same bytes, ball by ball, for a writer that streams.
    pub fn state_head(&self) -> Scenario {
        let mut s = state::snapshot_head(&self.world, self.scenario.duration);
        s.description = self.scenario.description.clone();
        s.diagnostics = Some(self.diagnostics());
        s
    }

    /// The state file's text, exactly as `--out` writes it.
    pub fn state_json(&self) -> String {
        state_text(&self.state())
    }

    /// `steps` steps, calling `sample` after every `every`-th one and after the last
    /// (`every = 0`: never), and, where the run stops early (a compression's stop, a
    /// failure), at the state it stops at. The rest is [`Session::run`]'s.
    pub fn advance(
        &mut self,
        steps: u64,
        every: u64,
        sample: impl FnMut(&World),
    ) -> Result<(), Failure> {
        match self.run(steps, &mut Every { every, sample }) {
            Ok(()) => Ok(()),
            Err(RunError::Failed(f)) => Err(f),
            Err(RunError::Observer(never)) => match never {},
        }
    }

    /// `steps` steps, the one checkpointed run loop of every front end: `observer`
    /// says where the world is to be read ([`Observer::due`]) and is shown it there.
    ///
    /// The state is checked and kept as the last good one at each due step, at the
    /// end, and every [`CHECKPOINT_EVERY`] steps in between. A model whose failed step
    /// leaves the world at its last good state (the event model) instead runs from one
    /// due step to the next in a single call that reads nothing, so its balls are
    /// brought up to date only there: where the due steps fall is part of its bits, and
    /// two front ends that read at the same steps get the same bits.
    ///
    /// A compression's stop (`physics.compress`) ends the run there, with
    /// [`Observer::last`]. On a failure the world goes back to the last good state,
    /// [`Observer::last`] is shown it, and the failure says where it showed;
    /// `Unsupported` (the model cannot run this scene) comes back as it is, a matter of
    /// input rather than of running, with no last state shown. An observer's own error
    /// ends the run at once, the world where it is.
    pub fn run<O: Observer>(
        &mut self,
        steps: u64,
        observer: &mut O,
    ) -> Result<(), RunError<O::Error>> {
        let world = &mut self.world;
        let checkpoint = &mut self.checkpoint;
        if !checkpoint.is_of(world) {
            checkpoint.take(world);
        }
        let clean = world.failed_step_restores();
        // Progress about every 2^20 ball-steps: often enough to look live, rarely
        // enough to cost nothing even for a single ball.
        let tick = ((1u64 << 20) / world.balls().len().max(1) as u64).max(1);
        let mut k = 0;
        while k < steps {
            let next = if clean {
                // At least every `tick` steps (and never fewer than 16 a call) the
                // progress moves: splitting steps that read nothing changes no bit.
                let limit = (k + tick.max(16)).min(steps);
                (k + 1..=limit)
                    .find(|&j| observer.due(j, steps))
                    .unwrap_or(limit)
            } else {
                k + 1
            };
            let compressing = world.compression_running();
            let stepped = world.run_steps_unread(next - k);
            observer.stepped(world).map_err(RunError::Observer)?;
            let mut stopped = false;
            let mut due = false;
            let result = stepped.and_then(|()| {
                k = next;
                stopped = compressing && !world.compression_running();
                due = !stopped && observer.due(k, steps);
                let checkpoint_due =
                    stopped || due || k == steps || (!clean && k.is_multiple_of(CHECKPOINT_EVERY));
                if checkpoint_due {
                    world.synchronise();
                    checkpoint.update(world)
                } else {
                    Ok(())
                }
            });
            if let Err(error) = result {
                // The world is at its last good step (a failed event step rewinds
                // itself): that is the checkpoint. Unless the failure was the state
                // itself going bad (a NaN the model found): then the last checkpoint.
                if clean && world.check_physical().is_ok() {
                    checkpoint.take(world);
                }
                let (failed_step, failed_time) = (world.steps, world.time);
                self.uncounted += world.collisions() - checkpoint.collisions;
                checkpoint.restore(world);
                if !matches!(error, StepError::Unsupported(_)) {
                    observer.last(world).map_err(RunError::Observer)?;
                }
                return Err(RunError::Failed(Failure {
                    error,
                    failed_step,
                    failed_time,
                    step: world.steps,
                    time: world.time,
                }));
            }
            if stopped {
                // The compression stopped (at its target, or jammed): so does the run.
                return observer.last(world).map_err(RunError::Observer);
            }
            if due {
                observer
                    .sample(world, k, steps)
                    .map_err(RunError::Observer)?;
            }
            if clean || k.is_multiple_of(tick) {
                observer.progress(k);
            }
        }
        Ok(())
    }

    /// Puts new positions (x, y per ball) in, checked as a state file's are: finite,
    /// centres on the table. Nothing changes unless every value passes.
    pub fn set_positions(&mut self, xy: &[f64]) -> Result<(), ScenarioError> {
        let t = *self.world.table();
        self.check_len(xy)?;
        for (i, p) in xy.chunks_exact(2).enumerate() {
            let (x, y) = (p[0], p[1]);
            for (name, v) in [("x", x), ("y", y)] {
                if !v.is_finite() {
                    return Err(ScenarioError::field(
                        format!("balls[{i}].{name}"),
                        format!("must be finite (got {v})"),
                    ));
                }
            }
            if x < 0.0 || x > t.width || y < 0.0 || y > t.height {
                return Err(ScenarioError::field(
                    format!("balls[{i}]"),
                    format!(
                        "ball at ({x}, {y}) has its centre outside the {} x {} table",
                        t.width, t.height
                    ),
                ));
            }
        }
        let b = self.world.balls_mut();
        for (i, p) in xy.chunks_exact(2).enumerate() {
            b.x[i] = p[0];
            b.y[i] = p[1];
        }
        Ok(())
    }

    /// Puts new velocities (vx, vy per ball) in, checked as a scenario's are: finite.
    pub fn set_velocities(&mut self, v: &[f64]) -> Result<(), ScenarioError> {
        self.check_len(v)?;
        for (i, p) in v.chunks_exact(2).enumerate() {
            for (name, c) in [("vx", p[0]), ("vy", p[1])] {
                if !c.is_finite() {
                    return Err(ScenarioError::field(
                        format!("balls[{i}].{name}"),
                        format!("must be finite (got {c})"),
                    ));
                }
            }
        }
        let b = self.world.balls_mut();
        for (i, p) in v.chunks_exact(2).enumerate() {
            b.vx[i] = p[0];
            b.vy[i] = p[1];
        }
        Ok(())
    }

    fn check_len(&self, values: &[f64]) -> Result<(), ScenarioError> {
        let n = self.world.balls().len();
        if values.len() != 2 * n {
            return Err(ScenarioError::field(
                "balls",
                format!(
                    "expected {n} rows of 2 values (one per ball), got {} values",
                    values.len()
                ),
            ));
        }
        Ok(())
    }
}

/// A state as the state file's text: pretty JSON and a final newline.
pub fn state_text(state: &Scenario) -> String {
    // Serialising plain numbers, strings and maps cannot fail.
    let mut s = serde_json::to_string_pretty(state).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_counts_are_held_to_the_run_length_bound() {
        // The bound itself is allowed, one more is not, and neither is the largest u64
        // (the count that used to run forever). The bound agrees with `steps_for`: a
        // time of exactly MAX_STEPS steps passes both.
        let max = MAX_STEPS as u64;
        assert_eq!(check_steps(max, "--steps"), Ok(max));
        assert_eq!(steps_for(MAX_STEPS, 1.0, "--time"), Ok(max));
        assert!(check_steps(max + 1, "--steps").is_err());
        let e = check_steps(u64::MAX, "--steps").unwrap_err();
        assert!(
            e.starts_with("--steps 18446744073709551615: ") && e.contains("1e15"),
            "{e}"
        );
        assert_eq!(check_steps(0, "steps"), Ok(0));
    }

    #[test]
    fn run_lengths_are_shown_as_written() {
        // A huge time is shown in exponent form, not as 301 digits; ordinary ones plain.
        let e = steps_for(1e300, 0.05, "--time").unwrap_err();
        assert!(
            e.starts_with("--time 1e300: 2e301 steps of dt = 0.05 "),
            "{e}"
        );
        let e = steps_for(-3.5, 0.05, "time").unwrap_err();
        assert_eq!(e, "time -3.5: not a run length");
        assert_eq!(short(600.0), "600");
        assert_eq!(short(1e-9), "1e-9");
    }
}
