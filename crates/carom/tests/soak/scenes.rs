//! The hostile scenes, each built for one model: the same balls and table for every
//! model, with the time step (and for `spring` the stiffness) chosen where the model
//! needs it. Every scene is deterministic (a fixed seed).

use carom::ModelKind;
use carom::SplitMix64;
use carom::{Ball, ContactFriction, Physics, Table, World};

/// The scenes' jitter: the library's own SplitMix64 (reproducible, and the same stream
/// as the scenario generators), with a symmetric draw added.
pub struct Rng(SplitMix64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(SplitMix64(seed))
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        self.0.unit()
    }

    /// Uniform in [-a, a).
    pub fn sym(&mut self, a: f64) -> f64 {
        a * (2.0 * self.unit() - 1.0)
    }
}

/// What a scene is, for the checker: which invariants apply and how.
pub struct Built {
    pub world: World,
    /// Indices of kinematic balls that stop (velocity set to zero) at `stop_step`: the
    /// squeeze. Energy is checked only once they are at rest, since a moving kinematic
    /// ball does work on the balls it pushes.
    pub pistons: Vec<usize>,
    pub stop_step: Option<u64>,
    /// x of the left and right piston lines once stopped (balls must stay between).
    pub piston_lines: Option<(f64, f64)>,
}

/// One hostile scene. `steps` gives the length of the short run and of the long run
/// for a model. `build` gives the world for a model, or `None` with the reason the model is not
/// run on that scene.
pub struct Scene {
    pub name: &'static str,
    pub build: fn(ModelKind) -> Built,
    pub steps: fn(ModelKind, Size) -> u64,
    /// The outcome the design requires of a model on this scene.
    pub expect: fn(ModelKind) -> Expect,
}

/// The two sizes of every run: the short one is part of `cargo test` (a few seconds
/// per model in the test profile), the long one (ignored by default) runs millions of
/// steps or events per model in release.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Size {
    Short,
    Long,
}

/// What a run must end in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Expect {
    /// Every step succeeds with every invariant kept.
    Clean,
    /// Every step succeeds, or the event model stops with its budget error (the
    /// documented outcome for balls stacked on balls under gravity): both are passes;
    /// anything else (a panic, a NaN, an `Unstable` error) is a failure.
    CleanOrBudget,
}

fn physics(model: ModelKind, dt: f64, k: f64, e: f64) -> Physics {
    Physics {
        model,
        dt,
        stiffness: k,
        restitution: e,
        ..Physics::default()
    }
}

/// The spring stiffness that makes the stiffest contact (reduced mass `mu_min`) span
/// `steps_per_contact` steps of `dt`: the contact lasts `pi sqrt(mu/k)`.
pub fn stiffness_for(mu_min: f64, dt: f64, steps_per_contact: f64) -> f64 {
    let t = steps_per_contact * dt;
    mu_min * (std::f64::consts::PI / t).powi(2)
}

/// Balls of radius `r` on a square grid of pitch `pitch` filling `[x0, x1] x [y0, y1]`,
/// jittered by up to `jitter` (keep `2 jitter < pitch - 2 r` so none overlap), velocities
/// uniform in `[-speed, speed]^2`, at most `n` of them, skipping spots `keep_out`
/// rejects.
#[allow(clippy::too_many_arguments)]
pub fn grid(
    rng: &mut Rng,
    area: [f64; 4],
    pitch: f64,
    jitter: f64,
    r: f64,
    m: f64,
    speed: f64,
    n: usize,
    keep_out: impl Fn(f64, f64) -> bool,
) -> Vec<Ball> {
    let [x0, y0, x1, y1] = area;
    let mut out = Vec::new();
    let mut y = y0 + 0.5 * pitch;
    while y + 0.5 * pitch <= y1 + 1e-9 && out.len() < n {
        let mut x = x0 + 0.5 * pitch;
        while x + 0.5 * pitch <= x1 + 1e-9 && out.len() < n {
            let (bx, by) = (x + rng.sym(jitter), y + rng.sym(jitter));
            if !keep_out(bx, by) {
                out.push(Ball::new(bx, by, rng.sym(speed), rng.sym(speed), r, m));
            }
            x += pitch;
        }
        y += pitch;
    }
    out
}

fn world(table: Table, physics: Physics, balls: &[Ball]) -> World {
    World::from_balls(table, physics, balls).expect("soak scene builds")
}

fn plain(world: World) -> Built {
    Built {
        world,
        pistons: Vec::new(),
        stop_step: None,
        piston_lines: None,
    }
}

/// Hard models step at `dt = 0.05`, where a unit-speed ball moves a twentieth of the
/// small radius per step; `spring` steps at the same `dt` with a stiffness giving the
/// stiffest contact `SPRING_STEPS` steps (the design's warning threshold is 10).
const DT: f64 = 0.05;
const SPRING_STEPS: f64 = 12.0;

// --- radii 1:50 --------------------------------------------------------------------

/// One ball of radius 25 among 900 of radius 0.5 (1:50), equal density (mass ratio
/// 2500), elastic, walled.
fn radii(model: ModelKind) -> Built {
    let mut rng = Rng::new(1);
    let (w, h) = (120.0, 120.0);
    let big = Ball::new(60.0, 60.0, 0.3, -0.2, 25.0, 2500.0);
    let mut balls = vec![big];
    balls.extend(grid(
        &mut rng,
        [0.0, 0.0, w, h],
        2.0,
        0.4,
        0.5,
        1.0,
        1.0,
        900,
        |x, y| (x - 60.0).hypot(y - 60.0) < 26.5,
    ));
    let k = stiffness_for(0.5, DT, SPRING_STEPS);
    plain(world(Table::new(w, h), physics(model, DT, k, 1.0), &balls))
}

// --- mass 1:10^6 ---------------------------------------------------------------------

/// 399 unit-mass balls and one of mass 10^6 (same radius) whose momentum (about 360)
/// matches the gas's `sum m |v|` (about 300): a periodic box without gravity, so
/// momentum must be kept while the two exchange it at a 1:10^6 mass ratio.
fn masses(model: ModelKind) -> Built {
    let mut rng = Rng::new(2);
    let (w, h) = (60.0, 60.0);
    let mut balls = grid(
        &mut rng,
        [0.0, 0.0, w, h],
        3.0,
        0.4,
        1.0,
        1.0,
        1.0,
        400,
        |_, _| false,
    );
    balls[0].m = 1.0e6;
    balls[0].inertia = 0.5e6;
    (balls[0].vx, balls[0].vy) = (3.0e-4, -2.0e-4);
    let k = stiffness_for(0.5, DT, SPRING_STEPS);
    plain(world(
        Table::periodic(w, h),
        physics(model, DT, k, 1.0),
        &balls,
    ))
}

// --- speeds near the stability limit ----------------------------------------------------

/// An elastic walled gas run as fast as each model can take it. `impulse` and
/// `simultaneous`: speeds up to one radius per step (beyond that they miss
/// collisions, by design). `spring`: the stiffest contact resolved by ten steps, the
/// design's threshold for an accurate contact (`dt sqrt(k/mu) = pi/10`; it refuses
/// `dt sqrt(k/mu) >= 2`, about 1.6 steps, as unstable, and warns below ten), with
/// speeds whose overlap `v sqrt(mu/k)` reaches half a radius. Between the two, the
/// semi-implicit Euler step gains energy at every contact, a few per mille of the
/// contact's energy times `(w dt)^3`, steadily enough to run away within some 10^4
/// steps at four steps per contact (docs/reliability.md, "Soak runs"), so that range is
/// not a place where energy can be checked.
/// `event`: no limit exists, so speeds of 200 radii per step.
fn fast(model: ModelKind) -> Built {
    let mut rng = Rng::new(3);
    let (w, h) = (80.0, 80.0);
    let (k, speed) = match model {
        ModelKind::Spring => {
            let k = stiffness_for(0.5, DT, 10.0);
            // Overlap v sqrt(mu/k) = 0.5 for a head-on pair at relative speed v.
            (k, 0.5 * (k / 0.5f64).sqrt() / 2.0)
        }
        ModelKind::Event => (1.0, 200.0 / DT),
        _ => (1.0, 1.0 / DT / 1.5),
    };
    let balls = grid(
        &mut rng,
        [0.0, 0.0, w, h],
        4.0,
        0.8,
        1.0,
        1.0,
        speed,
        400,
        |_, _| false,
    );
    plain(world(Table::new(w, h), physics(model, DT, k, 1.0), &balls))
}

// --- dense packing near jamming -----------------------------------------------------

/// 600 unit disks on a triangular lattice at area fraction 0.80 (hexagonal close
/// packing is 0.9069) in a walled box, random velocities, inelastic (`e = 0.9`): the
/// gas cools towards a jammed state, inelastic collapse included.
fn jammed(model: ModelKind) -> Built {
    let mut rng = Rng::new(4);
    let phi = 0.80;
    // Pitch a of the triangular lattice: area per disk sqrt(3)/2 a^2 = pi / phi.
    let a = (std::f64::consts::PI / phi / (3f64.sqrt() / 2.0)).sqrt();
    let (cols, rows) = (24usize, 25usize);
    let row_h = a * 3f64.sqrt() / 2.0;
    // Nearest neighbours are `a` apart (also between rows); a jitter `j` per coordinate
    // brings two of them at most `2 sqrt(2) j` closer, so `j = 0.3 (a - 2)` keeps every
    // pair apart. The walls keep the same gap `a - 2` from the outermost balls.
    let gap = a - 2.0;
    let jitter = 0.3 * gap;
    let (w, h) = (
        2.0 + 2.0 * gap + (cols as f64 - 0.5) * a,
        2.0 + 2.0 * gap + (rows - 1) as f64 * row_h,
    );
    let mut balls = Vec::new();
    for row in 0..rows {
        let y = 1.0 + gap + row as f64 * row_h;
        let shift = if row % 2 == 1 { 0.5 * a } else { 0.0 };
        for col in 0..cols {
            let x = 1.0 + gap + col as f64 * a + shift;
            balls.push(Ball::new(
                x + rng.sym(jitter),
                y + rng.sym(jitter),
                rng.sym(1.0),
                rng.sym(1.0),
                1.0,
                1.0,
            ));
        }
    }
    let k = stiffness_for(0.5, DT, SPRING_STEPS);
    plain(world(Table::new(w, h), physics(model, DT, k, 0.9), &balls))
}

// --- squeezed by kinematic balls ----------------------------------------------------

/// Two pistons, each a column of touching kinematic balls from the top wall to the
/// bottom one, close in on 150 balls from both sides at speed 0.25 until the space
/// between them holds the balls at area fraction about 0.75, then stop. Inelastic.
pub const SQUEEZE_SPEED: f64 = 0.25;

fn squeeze(model: ModelKind) -> Built {
    let mut rng = Rng::new(5);
    let (w, h) = (120.0, 40.0);
    let mut balls = Vec::new();
    let mut pistons = Vec::new();
    let (left0, right0) = (2.0, w - 2.0);
    for (x, v) in [(left0, SQUEEZE_SPEED), (right0, -SQUEEZE_SPEED)] {
        let mut y = 1.0;
        while y < h {
            let mut b = Ball::new(x, y, v, 0.0, 1.0, 1.0);
            b.kinematic = true;
            pistons.push(balls.len());
            balls.push(b);
            y += 2.0;
        }
    }
    let gas = grid(
        &mut rng,
        [4.0, 0.0, w - 4.0, h],
        4.0,
        0.8,
        1.0,
        1.0,
        1.0,
        150,
        |_, _| false,
    );
    let n = gas.len() as f64;
    balls.extend(gas);
    // Final free width L between the piston lines: n pi r^2 = 0.75 L h, less the half
    // disks of the pistons inside it (each piston line takes r of the width).
    let free = n * std::f64::consts::PI / (0.75 * h) + 2.0;
    let travel = 0.5 * ((right0 - left0) - free);
    let stop = (travel / SQUEEZE_SPEED / DT).round() as u64;
    let travelled = stop as f64 * DT * SQUEEZE_SPEED;
    let k = stiffness_for(0.5, DT, SPRING_STEPS);
    Built {
        world: world(Table::new(w, h), physics(model, DT, k, 0.9), &balls),
        pistons,
        stop_step: Some(stop),
        piston_lines: Some((left0 + travelled, right0 - travelled)),
    }
}

// --- gravity stacks -----------------------------------------------------------------

/// A column of 20 touching balls standing on the floor beside a heap of 150 balls
/// dropped onto it: gravity 0.1 downwards, `e = 0.8`.
fn stack(model: ModelKind) -> Built {
    let mut rng = Rng::new(6);
    let (w, h) = (40.0, 120.0);
    let g = 0.1;
    let mut balls = Vec::new();
    for i in 0..20 {
        balls.push(Ball::new(3.0, h - 1.0 - 2.0 * i as f64, 0.0, 0.0, 1.0, 1.0));
    }
    balls.extend(grid(
        &mut rng,
        [8.0, 0.0, w, 80.0],
        2.6,
        0.2,
        1.0,
        1.0,
        0.3,
        150,
        |_, _| false,
    ));
    // The stiffest load: the bottom of the column carries 20 balls, overlap 20 m g / k;
    // the contact-time stiffness keeps that a small fraction of a radius.
    let k = stiffness_for(0.5, DT, SPRING_STEPS);
    let mut p = physics(model, DT, k, 0.8);
    p.gravity = [0.0, g];
    plain(world(Table::new(w, h), p, &balls))
}

// --- periodic box -----------------------------------------------------------------

/// An elastic gas of 484 balls (a 22 x 22 grid) at area fraction about 0.5 in a fully
/// periodic box.
fn periodic(model: ModelKind) -> Built {
    let mut rng = Rng::new(7);
    let side = (500.0 * std::f64::consts::PI / 0.5f64).sqrt();
    let pitch = side / 22.0;
    let balls = grid(
        &mut rng,
        [0.0, 0.0, side, side],
        pitch,
        0.2 * (pitch - 2.0),
        1.0,
        1.0,
        1.0,
        500,
        |_, _| false,
    );
    let k = stiffness_for(0.5, DT, SPRING_STEPS);
    plain(world(
        Table::periodic(side, side),
        physics(model, DT, k, 1.0),
        &balls,
    ))
}

// --- contact friction -------------------------------------------------------------

fn rough(mu: f64, beta: f64) -> ContactFriction {
    ContactFriction {
        rolling_mu: 0.0,
        mu,
        tangential_restitution: beta,
        tangential_stiffness: None,
    }
}

fn spin(balls: &mut [Ball], rng: &mut Rng, omega: f64) {
    for b in balls {
        b.omega = rng.sym(omega);
    }
}

/// A spinning inelastic gas (`e = 0.9`, `mu = 0.4`, `beta = 0.5`) at area fraction
/// 0.4 in a periodic box: momentum must be kept through the rough impulses.
fn friction_periodic(model: ModelKind) -> Built {
    let mut rng = Rng::new(8);
    let side = (400.0 * std::f64::consts::PI / 0.4f64).sqrt();
    let pitch = side / 20.0;
    let mut balls = grid(
        &mut rng,
        [0.0, 0.0, side, side],
        pitch,
        0.2 * (pitch - 2.0),
        1.0,
        1.0,
        1.0,
        400,
        |_, _| false,
    );
    spin(&mut balls, &mut rng, 2.0);
    let k = stiffness_for(0.5, DT, SPRING_STEPS);
    let mut p = physics(model, DT, k, 0.9);
    p.contact_friction = rough(0.4, 0.5);
    plain(world(Table::periodic(side, side), p, &balls))
}

/// Perfectly rough contacts (`beta = 1`) capped by Coulomb (`mu = 0.2`), elastic in
/// the normal direction, on a walled table with gravity: rough walls, spins, a heap.
/// With `e = 1, beta = 1` only the cap takes energy away, so a gain would show at once.
fn friction_walls(model: ModelKind) -> Built {
    let mut rng = Rng::new(9);
    let (w, h) = (60.0, 60.0);
    let mut balls = grid(
        &mut rng,
        [0.0, 0.0, w, h],
        3.0,
        0.4,
        1.0,
        1.0,
        1.0,
        300,
        |_, _| false,
    );
    spin(&mut balls, &mut rng, 3.0);
    let k = stiffness_for(0.5, DT, SPRING_STEPS);
    let mut p = physics(model, DT, k, 1.0);
    p.gravity = [0.0, 0.02];
    p.contact_friction = rough(0.2, 1.0);
    plain(world(Table::new(w, h), p, &balls))
}

/// Steps per model: `[impulse, spring, simultaneous, event]`, short and long.
fn pick(model: ModelKind, size: Size, short: [u64; 4], long: [u64; 4]) -> u64 {
    let i = match model {
        ModelKind::Impulse => 0,
        ModelKind::Spring => 1,
        ModelKind::Simultaneous => 2,
        // The soak's scenes are dynamics; a chain stands where an event step does.
        ModelKind::Event | ModelKind::Chain => 3,
    };
    match size {
        Size::Short => short[i],
        Size::Long => long[i],
    }
}

fn clean(_: ModelKind) -> Expect {
    Expect::Clean
}

/// Balls resting on balls under gravity: the event model's TC rule does not settle a
/// ball on another ball (docs/models.md), so its event budget may stop the run.
fn stacked(model: ModelKind) -> Expect {
    if model == ModelKind::Event {
        Expect::CleanOrBudget
    } else {
        Expect::Clean
    }
}

pub const SCENES: &[Scene] = &[
    Scene {
        name: "radii 1:50",
        build: radii,
        steps: |m, s| {
            pick(
                m,
                s,
                [2_000, 2_000, 2_000, 2_000],
                [300_000, 300_000, 60_000, 300_000],
            )
        },
        expect: clean,
    },
    Scene {
        name: "mass 1:1e6 periodic",
        build: masses,
        steps: |m, s| {
            pick(
                m,
                s,
                [2_000, 2_000, 2_000, 2_000],
                [300_000, 300_000, 100_000, 300_000],
            )
        },
        expect: clean,
    },
    Scene {
        name: "stability limit",
        build: fast,
        steps: |m, s| {
            pick(
                m,
                s,
                [2_000, 2_000, 2_000, 20],
                [300_000, 300_000, 100_000, 1_000],
            )
        },
        expect: clean,
    },
    Scene {
        name: "jamming phi=0.80",
        build: jammed,
        steps: |m, s| {
            pick(
                m,
                s,
                [1_500, 1_500, 1_500, 1_500],
                [300_000, 300_000, 100_000, 300_000],
            )
        },
        expect: clean,
    },
    Scene {
        name: "kinematic squeeze",
        build: squeeze,
        steps: |m, s| {
            pick(
                m,
                s,
                [5_000, 5_000, 5_000, 5_000],
                [300_000, 300_000, 100_000, 300_000],
            )
        },
        expect: clean,
    },
    Scene {
        name: "gravity stack",
        build: stack,
        steps: |m, s| {
            pick(
                m,
                s,
                [3_000, 3_000, 300, 3_000],
                [300_000, 300_000, 3_000, 300_000],
            )
        },
        expect: stacked,
    },
    Scene {
        name: "periodic elastic",
        build: periodic,
        steps: |m, s| {
            pick(
                m,
                s,
                [2_000, 2_000, 2_000, 2_000],
                [300_000, 300_000, 100_000, 300_000],
            )
        },
        expect: clean,
    },
    Scene {
        name: "friction periodic",
        build: friction_periodic,
        steps: |m, s| {
            pick(
                m,
                s,
                [2_000, 2_000, 2_000, 2_000],
                [300_000, 300_000, 100_000, 300_000],
            )
        },
        expect: clean,
    },
    Scene {
        name: "friction walls+g",
        build: friction_walls,
        steps: |m, s| {
            pick(
                m,
                s,
                [2_000, 2_000, 1_000, 1_000],
                [300_000, 300_000, 20_000, 300_000],
            )
        },
        expect: stacked,
    },
];
