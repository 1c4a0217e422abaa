//! The checker: runs one scene under one model, asserting the invariants every `K`
//! steps, and returns the figures the long run prints.

use std::time::{Duration, Instant};

use carom::ModelKind;
use carom::{StepError, World};

use super::scenes::{Built, Expect, Scene, Size};

/// How many times a run is checked along its length (at least every step for short
/// runs): often enough to see a transient, rarely enough that the O(N) diagnostics
/// stay a small part of the run.
const CHECKS: u64 = 400;

/// The figures of one run.
#[derive(Debug, Clone)]
pub struct Figures {
    pub scene: &'static str,
    pub model: ModelKind,
    pub balls: usize,
    pub steps: u64,
    pub events: Option<u64>,
    pub collisions: u64,
    /// Worst rise of the total energy above its reference, relative to the energy
    /// scale (negative: it only ever fell); `None` where energy is not checked.
    pub worst_gain: Option<f64>,
    /// The energy at the end relative to the reference, as a fraction of the scale.
    pub final_change: Option<f64>,
    /// Worst momentum change relative to the momentum scale (periodic boxes only).
    pub worst_momentum: Option<f64>,
    /// Worst depth of a ball past a wall, relative to its radius, and the model's
    /// allowance at that moment (same units).
    pub worst_excursion: f64,
    pub allowance_at_worst: f64,
    pub wall: Duration,
    /// `None`: clean; otherwise the engine's error (allowed only where expected).
    pub error: Option<String>,
}

/// The precision the model keeps energy to, relative to the energy scale: how far the
/// total energy may rise above its reference at a check, after `collisions`
/// collisions among the world's dynamic balls.
///
/// - `impulse`, `simultaneous`, `event`: every collision law is an exact projection
///   that cannot add energy (`e <= 1`, `beta <= 1` with the Coulomb cap), free flight
///   under constant gravity keeps `KE + PE` exactly, and a collision moves no ball, so
///   the only source of a rise is round-off: ~1e-16 per operation, accumulating at
///   worst linearly over ~1e7 collisions per run: 1e-9 leaves a margin of ten.
/// - `spring` (semi-implicit Euler, contact frequency `w`): symplectic, so while in
///   contact the measured energy oscillates about a conserved shadow energy by at most
///   `w dt / 2` of the energy in the contacts (at most the scale): the first term. The
///   contact force switches on and off between steps, and the shadow energy is not
///   kept across that switch: each collision gains on average a small fraction of its
///   energy (about 2e-3 `(w dt)^3` in these gases, measured in elastic runs at 4, 6,
///   12 and 24 steps per contact: docs/reliability.md), a systematic drift, not a
///   random one. With about `2 E / N` of energy per collision of two of `N` balls,
///   `C` collisions give the second term, with five times the measured coefficient.
///   A dissipative run (`e < 1`) loses `(1 - e^2)` of the normal energy per collision,
///   far more, so there the first term is what is left.
pub fn energy_precision(w: &World) -> f64 {
    match w.physics().model {
        ModelKind::Spring => {
            let wdt = spring_w_dt(w);
            let b = w.balls();
            let n = (0..b.len()).filter(|&i| b.inv_m[i] > 0.0).count().max(1) as f64;
            0.5 * wdt + 1e-2 * wdt.powi(3) * 2.0 * w.collisions() as f64 / n
        }
        _ => 1e-9,
    }
}

/// `w dt` of the stiffest contact, `dt sqrt(k / mu_min)`, with `mu_min` half the
/// lightest dynamic mass (a pair of the lightest balls).
pub fn spring_w_dt(w: &World) -> f64 {
    let b = w.balls();
    let m_min = (0..b.len())
        .filter(|&i| b.inv_m[i] > 0.0)
        .map(|i| b.m[i])
        .fold(f64::INFINITY, f64::min);
    w.physics().dt * (w.physics().stiffness / (0.5 * m_min)).sqrt()
}

/// The energy that could ever be concentrated on one contact: kinetic energy, energy
/// stored in contacts, and the potential energy every ball has above the wall gravity
/// pulls it to (`m |g| * distance`), all non-negative. Equal to the total energy plus a
/// constant (the gravitational energy of all balls lying on that wall).
pub fn available_energy(w: &World) -> f64 {
    let d = w.diagnostics();
    let g = w.physics().gravity;
    let (t, b) = (w.table(), w.balls());
    let mut floor = 0.0;
    for i in 0..b.len() {
        if b.inv_m[i] == 0.0 {
            continue;
        }
        // -m g . x measured from the far wall along each component of g: shift the
        // zero of the gravitational energy to where it is smallest on the table.
        floor += b.m[i] * (g[0].max(0.0) * t.width + g[1].max(0.0) * t.height);
    }
    d.total_energy + floor
}

/// How deep a dynamic ball reaches past a wall (`r - distance from centre to wall`,
/// positive when it overlaps the wall), over walled axes only, relative to its radius.
fn excursion(w: &World) -> f64 {
    let (b, t) = (w.balls(), w.table());
    let mut worst = f64::NEG_INFINITY;
    for i in 0..b.len() {
        if b.inv_m[i] == 0.0 {
            continue;
        }
        let r = b.r[i];
        for axis in 0..2 {
            if t.is_periodic(axis) {
                continue;
            }
            let (p, side) = if axis == 0 {
                (b.x[i], t.width)
            } else {
                (b.y[i], t.height)
            };
            worst = worst.max((r - p).max(p + r - side) / r);
        }
    }
    worst
}

/// The largest depth past a wall (relative to the ball's radius) the model allows.
///
/// - `event`: hard disks never overlap a wall; collisions are resolved at the exact
///   touching time, so only round-off: a billionth of a radius (the event model's own
///   overlap tolerance at load).
/// - `impulse`, `simultaneous`: a whole step of free flight before the wall acts, so a
///   ball reaches `v dt + |g| dt^2 / 2` past the wall, with `v` bounded by the energy
///   available (`v <= sqrt(2 E / m)`). After their wall pass no ball overlapping a wall
///   moves into it (impulse reflects it, simultaneous solves until nothing approaches),
///   so only gravity can take it deeper. It does, without limit, when `e < 1`: the
///   design's wall rule changes velocities only, so a ball resting on the floor leaves
///   each wall pass at `e g dt / (1 + e)` (the steady state of `v' = -e (v' + g dt)`)
///   and the next free flight takes it `g dt^2 (1 - e) / (2 (1 + e))` deeper, step
///   after step (zero for `e = 1`). That creep, for every step run (doubled: the
///   balls under a heap carry its weight, and the single-ball rate is what the runs
///   are measured against), is added: the soak asserts the models creep no faster than
///   their rule implies, and docs/reliability.md reports the creep as a defect of the
///   rule (a heap sinks through the floor given enough steps).
/// - `spring`: the wall pushes back with `k s`, so a ball stops at the depth where
///   `e^2 k s^2 / 2` (the stored energy, scaled as the force is while it recedes)
///   equals the energy available; the semi-implicit Euler step overshoots the spring's
///   turning point by at most one step of travel, `v dt`.
pub fn allowance(w: &World, e_avail: f64, steps: u64) -> f64 {
    let b = w.balls();
    let p = w.physics();
    let (mut m_min, mut r_min) = (f64::INFINITY, f64::INFINITY);
    for i in 0..b.len() {
        if b.inv_m[i] > 0.0 {
            m_min = m_min.min(b.m[i]);
            r_min = r_min.min(b.r[i]);
        }
    }
    let e_avail = e_avail.max(0.0);
    let v = (2.0 * e_avail / m_min).sqrt();
    let g = p.gravity[0].hypot(p.gravity[1]);
    let depth = match p.model {
        // A chain stops each disk at exact contact.
        ModelKind::Event | ModelKind::Chain => return 1e-9,
        ModelKind::Impulse | ModelKind::Simultaneous => {
            let e = p.restitution;
            let creep = g * p.dt * p.dt * (1.0 - e) / (2.0 * (1.0 + e));
            v * p.dt + g * p.dt * p.dt + 2.0 * creep * steps as f64
        }
        ModelKind::Spring => {
            let e2 = (p.restitution * p.restitution).max(1e-12);
            (2.0 * e_avail / (e2 * p.stiffness)).sqrt() + v * p.dt
        }
    };
    depth / r_min
}

fn momentum(w: &World) -> ([f64; 2], f64) {
    let d = w.diagnostics();
    (d.momentum, d.momentum_scale)
}

/// Momentum precision, relative to the momentum scale `sum m |v|`: every model applies
/// equal and opposite impulses or forces, so only round-off: ~1e-16 per step on each
/// component, accumulating at worst linearly over ~1e6 steps: 1e-9 with margin.
const MOMENTUM_PRECISION: f64 = 1e-9;

/// Runs `scene` under `model` for the steps of `size`, asserting the invariants at
/// every check; panics (failing the test) on any violation.
pub fn run(scene: &Scene, model: ModelKind, size: Size) -> Figures {
    let steps = (scene.steps)(model, size);
    let Built {
        mut world,
        pistons,
        stop_step,
        piston_lines,
    } = (scene.build)(model);
    let expect = (scene.expect)(model);
    let label = format!("{} / {}", scene.name, model.name());
    let start = Instant::now();
    let every = (steps / CHECKS).max(1);
    let momentum_kept = world.table().boundary == [carom::Boundary::Periodic; 2]
        && world.physics().gravity == [0.0, 0.0]
        && pistons.is_empty();
    let (p0, p_scale) = momentum(&world);
    // The energy reference and scale: taken at the start, or when the pistons stop.
    let mut reference = if stop_step.is_none() {
        Some((world.diagnostics().total_energy, available_energy(&world)))
    } else {
        None
    };
    let mut avail_max = available_energy(&world);
    let mut fig = Figures {
        scene: scene.name,
        model,
        balls: world.balls().len(),
        steps: 0,
        events: None,
        collisions: 0,
        worst_gain: None,
        final_change: None,
        worst_momentum: None,
        worst_excursion: f64::NEG_INFINITY,
        allowance_at_worst: 0.0,
        wall: Duration::ZERO,
        error: None,
    };
    let mut done = 0;
    while done < steps {
        let mut chunk = every.min(steps - done);
        if let Some(stop) = stop_step {
            if done < stop {
                chunk = chunk.min(stop - done);
            }
        }
        let result = world.run_steps(chunk);
        match result {
            Ok(()) => done += chunk,
            Err(StepError::EventBudget(msg)) if expect == Expect::CleanOrBudget => {
                // The guard did its job: the run stopped in bounded time with the state
                // of the start of the failed interval, which must still be sound.
                assert!(
                    world.failed_step_restores(),
                    "{label}: budget error must restore"
                );
                fig.error = Some(format!("event budget: {}", first_words(&msg)));
                check_state(&world, &label);
                break;
            }
            Err(e) => panic!("{label}: step {done}: unexpected error: {e}"),
        }
        check_state(&world, &label);
        if Some(done) == stop_step {
            let b = world.balls_mut();
            for &i in &pistons {
                (b.vx[i], b.vy[i]) = (0.0, 0.0);
            }
            reference = Some((world.diagnostics().total_energy, available_energy(&world)));
            if let Some((left, right)) = piston_lines {
                check_pistons(&world, &pistons, left, right, &label);
            }
        }
        if stop_step.is_some_and(|s| done > s) {
            if let Some((left, right)) = piston_lines {
                check_between(&world, &pistons, left, right, &label);
            }
        }
        // Energy: never above the reference by more than the model's precision.
        let avail = available_energy(&world);
        let precision = energy_precision(&world);
        if let Some((e0, scale)) = reference {
            let gain = (world.diagnostics().total_energy - e0) / scale;
            fig.worst_gain = Some(fig.worst_gain.map_or(gain, |g: f64| g.max(gain)));
            fig.final_change = Some(gain);
            assert!(
                gain <= precision,
                "{label}: step {done}: energy rose by {gain:.3e} of its scale, beyond the \
                 model's precision {precision:.1e}"
            );
            avail_max = scale * (1.0 + precision);
        } else {
            // Pistons still moving: they do work; the bound follows what they gave.
            avail_max = avail_max.max(avail);
        }
        if momentum_kept {
            let (p, _) = momentum(&world);
            let dp = (p[0] - p0[0]).hypot(p[1] - p0[1]) / p_scale;
            fig.worst_momentum = Some(fig.worst_momentum.map_or(dp, |w: f64| w.max(dp)));
            assert!(
                dp <= MOMENTUM_PRECISION,
                "{label}: step {done}: momentum changed by {dp:.3e} of its scale"
            );
        }
        let ex = excursion(&world);
        let allow = allowance(&world, avail_max, done);
        if ex > fig.worst_excursion {
            fig.worst_excursion = ex;
            fig.allowance_at_worst = allow;
        }
        assert!(
            ex <= allow,
            "{label}: step {done}: a ball is {ex:.3e} radii past a wall, beyond the model's \
             allowance {allow:.3e}"
        );
    }
    fig.steps = done;
    fig.events = world.events();
    fig.collisions = world.collisions();
    fig.wall = start.elapsed();
    fig
}

fn first_words(msg: &str) -> String {
    msg.chars().take(60).collect()
}

/// Finite positions, velocities and spins, and the engine's own check.
fn check_state(w: &World, label: &str) {
    let b = w.balls();
    for i in 0..b.len() {
        let v = [b.x[i], b.y[i], b.vx[i], b.vy[i], b.omega[i], b.angle[i]];
        assert!(
            v.iter().all(|x| x.is_finite()),
            "{label}: ball {i} is no longer finite: {v:?}"
        );
    }
    if let Err(e) = w.check_physical() {
        panic!("{label}: {e}");
    }
}

/// The pistons stopped where they were sent: kinematic balls move as prescribed.
fn check_pistons(w: &World, pistons: &[usize], left: f64, right: f64, label: &str) {
    let b = w.balls();
    let mid = 0.5 * w.table().width;
    for &i in pistons {
        let target = if b.x[i] < mid { left } else { right };
        assert!(
            (b.x[i] - target).abs() < 1e-9 * w.table().width,
            "{label}: piston ball {i} at {} instead of {target}",
            b.x[i]
        );
    }
}

/// No squeezed ball got past a piston: a ball's centre stays between the two lines of
/// piston centres (a ball pressed into the pocket between two piston balls sits
/// `sqrt(3) r` inside the line; crossing the line needs an overlap of a full radius).
fn check_between(w: &World, pistons: &[usize], left: f64, right: f64, label: &str) {
    let b = w.balls();
    for i in 0..b.len() {
        if pistons.contains(&i) {
            continue;
        }
        assert!(
            left < b.x[i] && b.x[i] < right,
            "{label}: ball {i} at x = {} escaped the squeeze between {left} and {right}",
            b.x[i]
        );
    }
}
