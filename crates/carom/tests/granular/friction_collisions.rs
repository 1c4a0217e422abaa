//! Single rough collisions (ball on ball, ball on wall) against the closed-form
//! rough-disk impulse, in the three hard models; energy and angular momentum where the
//! law conserves them.
//!
//! The expectation is written here from the law's definition, not from the library:
//! with `u` the velocity of ball i's surface against the other body's at the contact
//! point (spins included), the normal impulse gives `u_n' = -e u_n`, the tangential
//! one `u_t' = -beta u_t` unless that needs more than `mu J_n`, when it is `mu J_n`
//! against the slip. Each case is checked both ways: the final velocities and spins
//! against that closed form, and the defining properties (`u_n' = -e u_n`; sticking:
//! `u_t' = -beta u_t`; sliding: `|J_t| = mu J_n` against `u_t`) measured on the result.
//! Tolerances are round-off: every quantity is O(1) and a handful of operations deep,
//! so 1e-12 leaves three orders of magnitude above the double-precision error.

use carom::ModelKind;
use carom::{Ball, ContactFriction, Physics, Table, World};

/// A small deterministic generator (xorshift64*), so the cases are random but fixed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
    }

    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next()
    }
}

const TOL: f64 = 1e-12;

fn physics(model: ModelKind, e: f64, friction: ContactFriction, dt: f64) -> Physics {
    Physics {
        model,
        dt,
        restitution: e,
        contact_friction: friction,
        ..Physics::default()
    }
}

fn random_ball(rng: &mut Rng, x: f64, y: f64) -> Ball {
    let m = rng.range(0.5, 3.0);
    let r = rng.range(0.5, 2.0);
    let mut b = Ball::new(x, y, rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), r, m);
    // Rings to solid disks and beyond: the law holds for any inertia.
    b.inertia = rng.range(0.2, 0.9) * m * r * r;
    b.omega = rng.range(-2.0, 2.0);
    b
}

/// The closed-form outcome for body 1 (and body 2 unless it is a wall: `None`), normal
/// `n` from 1 towards 2. Returns (new ball 1, new ball 2, sliding).
fn closed_form(
    b1: &Ball,
    b2: Option<&Ball>,
    n: [f64; 2],
    e: f64,
    f: &ContactFriction,
) -> (Ball, Option<Ball>, bool) {
    let t = [-n[1], n[0]];
    let (v2, w2r, inv_m2, r2_over_i2) = match b2 {
        Some(b) => (
            [b.vx, b.vy],
            b.omega * b.r,
            1.0 / b.m,
            b.r * b.r / b.inertia,
        ),
        None => ([0.0, 0.0], 0.0, 0.0, 0.0),
    };
    let u = [
        b1.vx - v2[0] + (b1.omega * b1.r + w2r) * t[0],
        b1.vy - v2[1] + (b1.omega * b1.r + w2r) * t[1],
    ];
    let (u_n, u_t) = (u[0] * n[0] + u[1] * n[1], u[0] * t[0] + u[1] * t[1]);
    assert!(u_n > 0.0, "the test case must approach");
    let k_n = 1.0 / b1.m + inv_m2;
    let k_t = k_n + b1.r * b1.r / b1.inertia + r2_over_i2;
    let j_n = (1.0 + e) * u_n / k_n;
    let stick = -(1.0 + f.tangential_restitution) * u_t / k_t;
    let sliding = stick.abs() > f.mu * j_n;
    let j_t = if sliding {
        -f.mu * j_n * u_t.signum()
    } else {
        stick
    };
    let p = [-j_n * n[0] + j_t * t[0], -j_n * n[1] + j_t * t[1]];
    let mut a = *b1;
    a.vx += p[0] / b1.m;
    a.vy += p[1] / b1.m;
    a.omega += b1.r * j_t / b1.inertia;
    let b = b2.map(|b2| {
        let mut b = *b2;
        b.vx -= p[0] / b2.m;
        b.vy -= p[1] / b2.m;
        b.omega += b2.r * j_t / b2.inertia;
        b
    });
    (a, b, sliding)
}

fn close(a: f64, b: f64, what: &str) {
    assert!((a - b).abs() <= TOL * (1.0 + b.abs()), "{what}: {a} vs {b}");
}

fn same_motion(got: &Ball, want: &Ball, what: &str) {
    close(got.vx, want.vx, &format!("{what} vx"));
    close(got.vy, want.vy, &format!("{what} vy"));
    close(got.omega, want.omega, &format!("{what} omega"));
}

/// Tangential slip and normal approach of ball 1 against ball 2 (or a wall at rest).
fn slip(b1: &Ball, b2: Option<&Ball>, n: [f64; 2]) -> (f64, f64) {
    let t = [-n[1], n[0]];
    let (v2, w2r) = b2.map_or(([0.0, 0.0], 0.0), |b| ([b.vx, b.vy], b.omega * b.r));
    let u = [
        b1.vx - v2[0] + (b1.omega * b1.r + w2r) * t[0],
        b1.vy - v2[1] + (b1.omega * b1.r + w2r) * t[1],
    ];
    (u[0] * n[0] + u[1] * n[1], u[0] * t[0] + u[1] * t[1])
}

/// The law's defining properties measured on the outcome.
fn check_properties(
    before: (&Ball, Option<&Ball>),
    after: (&Ball, Option<&Ball>),
    n: [f64; 2],
    e: f64,
    f: &ContactFriction,
    sliding: bool,
) {
    let (u_n, u_t) = slip(before.0, before.1, n);
    let (u_n2, u_t2) = slip(after.0, after.1, n);
    close(u_n2, -e * u_n, "u_n' = -e u_n");
    let t = [-n[1], n[0]];
    let m = before.0.m;
    let j_n = -m * ((after.0.vx - before.0.vx) * n[0] + (after.0.vy - before.0.vy) * n[1]);
    let j_t = m * ((after.0.vx - before.0.vx) * t[0] + (after.0.vy - before.0.vy) * t[1]);
    // The spin change is the torque of the tangential impulse at the contact point.
    close(
        after.0.inertia * (after.0.omega - before.0.omega),
        before.0.r * j_t,
        "I dw = r J_t",
    );
    if sliding {
        close(j_t.abs(), f.mu * j_n, "|J_t| = mu J_n");
        assert!(j_t * u_t < 0.0, "friction opposes the slip");
    } else {
        close(u_t2, -f.tangential_restitution * u_t, "u_t' = -beta u_t");
    }
}

/// Translational plus rotational energy, and angular momentum about `o` (orbital plus
/// spin), of dynamic balls.
fn energy_and_angular_momentum(w: &World, o: [f64; 2]) -> (f64, f64) {
    let b = w.balls();
    let (mut e, mut l) = (0.0, 0.0);
    for k in 0..b.len() {
        e += 0.5 * b.m[k] * (b.vx[k] * b.vx[k] + b.vy[k] * b.vy[k])
            + 0.5 * b.inertia[k] * b.omega[k] * b.omega[k];
        l += b.m[k] * ((b.x[k] - o[0]) * b.vy[k] - (b.y[k] - o[1]) * b.vx[k])
            + b.inertia[k] * b.omega[k];
    }
    (e, l)
}

/// A random rough contact: mu from nearly smooth to very rough, any beta.
fn random_friction(rng: &mut Rng) -> ContactFriction {
    ContactFriction {
        rolling_mu: 0.0,
        mu: rng.range(0.02, 1.5),
        tangential_restitution: rng.range(-1.0, 1.0),
        tangential_stiffness: None,
    }
}

/// Two balls about to collide obliquely, in every hard model. For `impulse` and
/// `simultaneous` they overlap slightly after free flight (the collision normal is then
/// the line of centres after the flight, which is where these models collide them); for
/// `event` they start apart and meet within the step, at the time solved for here.
fn pair_case(model: ModelKind, rng: &mut Rng) -> bool {
    let e = rng.range(0.0, 1.0);
    let f = random_friction(rng);
    let dt = 0.01;
    let a = random_ball(rng, 500.0, 500.0);
    let mut b = random_ball(rng, 0.0, 0.0);
    let phi = rng.range(0.0, std::f64::consts::TAU);
    let n = [phi.cos(), phi.sin()];
    let reach = a.r + b.r;
    // Relative velocity of b against a: approaching along n, any sideways part.
    let (approach, side) = (rng.range(0.5, 2.0), rng.range(-2.0, 2.0));
    b.vx = a.vx - approach * n[0] - side * n[1];
    b.vy = a.vy - approach * n[1] + side * n[0];
    let gap = if model == ModelKind::Event {
        0.3 * approach * dt
    } else {
        -1e-3 * reach
    };
    b.x = a.x + (reach + gap) * n[0];
    b.y = a.y + (reach + gap) * n[1];
    let table = Table::new(1000.0, 1000.0);
    let mut w = World::from_balls(table, physics(model, e, f, dt), &[a, b]).unwrap();
    let (e0, l0) = energy_and_angular_momentum(&w, [0.0, 0.0]);
    let p0 = [a.m * a.vx + b.m * b.vx, a.m * a.vy + b.m * b.vy];
    w.step().unwrap();
    assert_eq!(w.collisions(), 1, "{model:?}: one collision");
    // Where the balls were when they collided.
    let (pa, pb) = if model == ModelKind::Event {
        // |p + q tau| = reach, the earlier root.
        let p = [b.x - a.x, b.y - a.y];
        let q = [b.vx - a.vx, b.vy - a.vy];
        let qq = q[0] * q[0] + q[1] * q[1];
        let pq = p[0] * q[0] + p[1] * q[1];
        let c = p[0] * p[0] + p[1] * p[1] - reach * reach;
        let tau = (-pq - (pq * pq - qq * c).sqrt()) / qq;
        (
            [a.x + a.vx * tau, a.y + a.vy * tau],
            [b.x + b.vx * tau, b.y + b.vy * tau],
        )
    } else {
        (
            [a.x + a.vx * dt, a.y + a.vy * dt],
            [b.x + b.vx * dt, b.y + b.vy * dt],
        )
    };
    let d = (pb[0] - pa[0]).hypot(pb[1] - pa[1]);
    let nc = [(pb[0] - pa[0]) / d, (pb[1] - pa[1]) / d];
    let (want_a, want_b, sliding) = closed_form(&a, Some(&b), nc, e, &f);
    let want_b = want_b.unwrap();
    let (ga, gb) = (w.balls().get(0), w.balls().get(1));
    same_motion(&ga, &want_a, &format!("{model:?} ball a"));
    same_motion(&gb, &want_b, &format!("{model:?} ball b"));
    check_properties((&a, Some(&b)), (&ga, Some(&gb)), nc, e, &f, sliding);
    // Momentum always; energy never gained.
    let bl = w.balls();
    let p1 = [
        bl.m[0] * bl.vx[0] + bl.m[1] * bl.vx[1],
        bl.m[0] * bl.vy[0] + bl.m[1] * bl.vy[1],
    ];
    close(p1[0], p0[0], "momentum x");
    close(p1[1], p0[1], "momentum y");
    let (e1, l1) = energy_and_angular_momentum(&w, [0.0, 0.0]);
    assert!(
        e1 <= e0 * (1.0 + TOL),
        "{model:?}: energy gained {e0} -> {e1}"
    );
    if model == ModelKind::Event {
        // Both impulses act at the one contact point: total angular momentum (orbital
        // plus spin) is kept, about the origin and about any other point. The orbital
        // part is ~ m |x| |v| ~ 1e3, so round-off is ~ 1e3 eps.
        let scale = a.m * 1000.0 * 3.0;
        assert!((l1 - l0).abs() <= TOL * scale, "L about 0: {l0} -> {l1}");
        let o = [rng.range(-300.0, 300.0), rng.range(-300.0, 300.0)];
        let mut before = World::from_balls(table, physics(model, e, f, dt), &[a, b]).unwrap();
        let (_, lb) = energy_and_angular_momentum(&before, o);
        before.step().unwrap();
        let (_, la) = energy_and_angular_momentum(&before, o);
        assert!(
            (la - lb).abs() <= TOL * scale,
            "L about {o:?}: {lb} -> {la}"
        );
    }
    sliding
}

fn wall_case(model: ModelKind, rng: &mut Rng) -> bool {
    let e = rng.range(0.0, 1.0);
    let f = random_friction(rng);
    let dt = 0.01;
    let height = 100.0;
    let mut a = random_ball(rng, 50.0, 0.0);
    a.vy = rng.range(0.5, 2.0);
    a.vx = rng.range(-2.0, 2.0);
    // The bottom wall, y = height: met within the step (event) or slightly overlapped
    // after the flight (impulse, simultaneous).
    let gap = if model == ModelKind::Event {
        0.3 * a.vy * dt
    } else {
        -1e-3 * a.r - a.vy * dt
    };
    a.y = height - a.r - gap;
    let mut w =
        World::from_balls(Table::new(100.0, height), physics(model, e, f, dt), &[a]).unwrap();
    w.step().unwrap();
    assert_eq!(w.collisions(), 1, "{model:?}: one bounce");
    let n = [0.0, 1.0];
    let (want, _, sliding) = closed_form(&a, None, n, e, &f);
    let got = w.balls().get(0);
    same_motion(&got, &want, &format!("{model:?} wall"));
    check_properties((&a, None), (&got, None), n, e, &f, sliding);
    sliding
}

/// Runs 300 random cases of `case` in each hard model; both branches of the law
/// (sticking and sliding) must have been exercised in each.
fn every_hard_model(seed: u64, case: fn(ModelKind, &mut Rng) -> bool) {
    for model in [
        ModelKind::Impulse,
        ModelKind::Simultaneous,
        ModelKind::Event,
    ] {
        let mut rng = Rng(seed);
        let slid = (0..300).filter(|_| case(model, &mut rng)).count();
        let stuck = 300 - slid;
        assert!(
            slid > 20 && stuck > 20,
            "{model:?}: {slid} sliding, {stuck} sticking"
        );
    }
}

#[test]
fn rough_pair_collisions_match_the_closed_form_in_every_hard_model() {
    every_hard_model(0x9E37_79B9_7F4A_7C15, pair_case);
}

#[test]
fn rough_wall_collisions_match_the_closed_form_in_every_hard_model() {
    every_hard_model(0xD1B5_4A32_D192_ED03, wall_case);
}

/// `e = 1`, `beta = 1` and no Coulomb cap: every collision reverses both the normal and
/// the tangential slip, which keeps translational plus rotational energy exactly. A
/// dense gas of unequal rough disks with walls, tens of thousands of collisions in the
/// event model: the energy must hold to round-off accumulated over the collisions
/// (each a few eps; 1e-10 relative covers 1e5 collisions at ~1e-15 each with margin).
#[test]
fn perfectly_rough_elastic_event_gas_keeps_energy_to_round_off() {
    let mut rng = Rng(7);
    let mut balls = Vec::new();
    for gx in 0..12 {
        for gy in 0..12 {
            let mut b = random_ball(&mut rng, 8.0 + 7.0 * gx as f64, 8.0 + 7.0 * gy as f64);
            b.r = rng.range(1.0, 3.0);
            b.inertia = 0.5 * b.m * b.r * b.r;
            balls.push(b);
        }
    }
    let f = ContactFriction {
        rolling_mu: 0.0,
        mu: 1e12,
        tangential_restitution: 1.0,
        tangential_stiffness: None,
    };
    let mut w = World::from_balls(
        Table::new(96.0, 96.0),
        physics(ModelKind::Event, 1.0, f, 0.5),
        &balls,
    )
    .unwrap();
    let e0 = w.diagnostics().total_energy;
    w.run_steps(800).unwrap();
    let d = w.diagnostics();
    assert!(w.collisions() > 10_000, "{} collisions", w.collisions());
    assert!(
        d.rotational_energy > 0.05 * d.kinetic_energy,
        "spins were exchanged"
    );
    assert!(
        ((d.total_energy - e0) / e0).abs() < 1e-10,
        "energy {e0} -> {}",
        d.total_energy
    );
}
