//! The `event` model against independent expectations: closed-form collisions, the
//! analytical parabola, conservation laws, the spring model's limit, mirror symmetry,
//! and the guards that keep a run from hanging.

use carom::models::event::{self, Event};
use carom::models::{CollisionModel, StepContext, StepError};
use carom::parse::{build_world, parse_scenario, Format};
use carom::Friction;
use carom::Integrator;
use carom::ModelKind;
use carom::{Ball, Balls, Physics, Table, World};

pub(super) fn physics(dt: f64) -> Physics {
    Physics {
        model: ModelKind::Event,
        dt,
        ..Physics::default()
    }
}

pub(super) fn table(width: f64, height: f64) -> Table {
    Table::new(width, height)
}

pub(super) fn world(table: Table, physics: Physics, balls: &[Ball]) -> World {
    World::from_balls(table, physics, balls).expect("test world builds")
}

fn kinematic(mut b: Ball) -> Ball {
    b.kinematic = true;
    b
}

/// The model driven directly (for its test hooks), with the balls it steps.
pub(super) struct Direct {
    pub(super) model: Event,
    pub(super) balls: Balls,
    table: Table,
    physics: Physics,
}

impl Direct {
    fn new(table: Table, physics: Physics, balls: Balls) -> Direct {
        let model = Event::new(&balls, &table, &physics).unwrap();
        Direct {
            model,
            balls,
            table,
            physics,
        }
    }

    pub(super) fn from_world(w: &World) -> Direct {
        Direct::new(*w.table(), *w.physics(), w.balls().clone())
    }

    pub(super) fn step(&mut self) -> Result<(), StepError> {
        self.model.step(StepContext {
            balls: &mut self.balls,
            table: &self.table,
            physics: &self.physics,
            pool: None,
            walls: &carom::walls::NO_WALLS,
            in_play: None,
        })
    }

    fn energy(&self) -> f64 {
        kinetic(&self.balls) - potential_reference(&self.balls, self.physics.gravity)
    }
}

fn kinetic(b: &Balls) -> f64 {
    (0..b.len())
        .filter(|&i| b.inv_m[i] != 0.0)
        .map(|i| 0.5 * b.m[i] * (b.vx[i] * b.vx[i] + b.vy[i] * b.vy[i]))
        .sum()
}

/// `sum m g . x`, so that kinetic minus this is the conserved total under gravity.
fn potential_reference(b: &Balls, g: [f64; 2]) -> f64 {
    (0..b.len())
        .filter(|&i| b.inv_m[i] != 0.0)
        .map(|i| b.m[i] * (g[0] * b.x[i] + g[1] * b.y[i]))
        .sum()
}

/// A small deterministic generator for test scenes (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }

    fn sym(&mut self) -> f64 {
        2.0 * self.next() - 1.0
    }
}

/// The textbook result of a collision along unit normal `n` (from ball a to ball b):
/// normal components as in 1D with restitution e, tangential components unchanged.
fn closed_form_two_ball(
    ma: f64,
    va: [f64; 2],
    mb: f64,
    vb: [f64; 2],
    n: [f64; 2],
    e: f64,
) -> ([f64; 2], [f64; 2]) {
    let t = [-n[1], n[0]];
    let dot = |a: [f64; 2], b: [f64; 2]| a[0] * b[0] + a[1] * b[1];
    let (ua, ub) = (dot(va, n), dot(vb, n));
    let ua2 = (ma * ua + mb * ub + mb * e * (ub - ua)) / (ma + mb);
    let ub2 = (ma * ua + mb * ub + ma * e * (ua - ub)) / (ma + mb);
    let (ta, tb) = (dot(va, t), dot(vb, t));
    (
        [ua2 * n[0] + ta * t[0], ua2 * n[1] + ta * t[1]],
        [ub2 * n[0] + tb * t[0], ub2 * n[1] + tb * t[1]],
    )
}

#[test]
fn single_oblique_collision_matches_the_closed_form() {
    for e in [1.0, 0.6] {
        // Build the scene backwards from the contact: at t_c = 7.3 ball b sits at
        // (400, 200) and ball a touches it along the 30-degree line of centres.
        let (ra, rb, ma, mb) = (10.0, 15.0, 1.0, 3.0);
        let (va, vb) = ([5.0, 0.7], [-1.0, 0.5]);
        let t_c = 7.3;
        let theta = 30f64.to_radians();
        let n = [theta.cos(), theta.sin()];
        let pb = [400.0, 200.0];
        let pa = [pb[0] - (ra + rb) * n[0], pb[1] - (ra + rb) * n[1]];
        let start = |p: [f64; 2], v: [f64; 2]| [p[0] - v[0] * t_c, p[1] - v[1] * t_c];
        let (sa, sb) = (start(pa, va), start(pb, vb));
        let p = Physics {
            restitution: e,
            ..physics(10.0)
        };
        let mut w = world(
            table(800.0, 400.0),
            p,
            &[
                Ball::new(sa[0], sa[1], va[0], va[1], ra, ma),
                Ball::new(sb[0], sb[1], vb[0], vb[1], rb, mb),
            ],
        );
        w.step().unwrap();
        let (wa, wb) = closed_form_two_ball(ma, va, mb, vb, n, e);
        let after = 10.0 - t_c;
        let expect = [
            [pa[0] + wa[0] * after, pa[1] + wa[1] * after, wa[0], wa[1]],
            [pb[0] + wb[0] * after, pb[1] + wb[1] * after, wb[0], wb[1]],
        ];
        let b = w.balls();
        for (i, ex) in expect.iter().enumerate() {
            let got = [b.x[i], b.y[i], b.vx[i], b.vy[i]];
            for k in 0..4 {
                // Positions are a few hundred and velocities a few units; the model's
                // only error is round-off in the contact time and the impulse (a few
                // ulps of these magnitudes, ~1e-13), so 1e-12 of the magnitude is a
                // strict bound that any modelling error would exceed.
                let scale = if k < 2 { 400.0 } else { 5.0 };
                assert!(
                    (got[k] - ex[k]).abs() <= 1e-12 * scale,
                    "e = {e}, ball {i}, component {k}: got {} expected {}",
                    got[k],
                    ex[k]
                );
            }
        }
        assert_eq!(w.collisions(), 1);
    }
}

#[test]
fn collision_times_do_not_depend_on_the_output_interval() {
    // Three balls on a line, sampled every 10 or every 0.01 time units: the outcome at
    // t = 100 agrees to round-off. Along a line collisions exchange velocities without
    // the defocusing of oblique impacts, so the only difference, where positions are
    // rounded when sampled (at most 1e4 samples x half an ulp of 400 = 3e-10 in all),
    // is not amplified much.
    let balls = [
        Ball::new(100.0, 200.0, 7.0, 0.0, 10.0, 1.0),
        Ball::new(300.0, 200.0, -2.0, 0.0, 12.0, 2.0),
        Ball::new(200.0, 200.0, 1.0, 0.0, 8.0, 0.5),
    ];
    let mut coarse = world(table(400.0, 400.0), physics(10.0), &balls);
    let mut fine = world(table(400.0, 400.0), physics(0.01), &balls);
    coarse.run_steps(10).unwrap();
    fine.run_steps(10_000).unwrap();
    assert!(coarse.collisions() >= 5, "the scene should be busy");
    assert_eq!(coarse.collisions(), fine.collisions());
    for i in 0..3 {
        let (a, b) = (coarse.balls(), fine.balls());
        assert!(
            (a.x[i] - b.x[i]).abs() < 1e-9,
            "x[{i}] {} {}",
            a.x[i],
            b.x[i]
        );
        assert!((a.vx[i] - b.vx[i]).abs() < 1e-12);
    }
}

pub(super) fn gas_scenario(
    n: u64,
    fraction: f64,
    model: &str,
    dt: f64,
) -> carom::scenario::Scenario {
    let text = format!(
        r#"
name = "test gas"
[table]
[physics]
model = "{model}"
dt = {dt}
[[generators]]
kind = "gas"
n = {n}
area_fraction = {fraction}
seed = 7
"#
    );
    parse_scenario(&text, Format::Toml).unwrap()
}

#[test]
fn elastic_gas_conserves_energy_over_a_hundred_thousand_collisions() {
    let mut w = build_world(&gas_scenario(1000, 0.3, "event", 1.0)).unwrap();
    let e0 = w.diagnostics().total_energy;
    let p0 = w.diagnostics().momentum;
    let mut worst: f64 = 0.0;
    while w.collisions() < 100_000 {
        w.step().unwrap();
        worst = worst.max((w.diagnostics().total_energy - e0).abs() / e0);
        assert!(w.time < 10_000.0, "too few collisions");
    }
    // Each elastic collision conserves energy to a few ulps (~1e-16 relative); even if
    // all 1e5 errors added up in one direction that is ~1e-11, an order below 1e-10.
    assert!(worst <= 1e-10, "relative energy drift {worst}");
    // Walls take momentum, so only its boundedness is checked: no ball was lost.
    let p = w.diagnostics().momentum;
    assert!(p[0].is_finite() && p[1].is_finite() && p0[0].is_finite());
}

/// A varied scene: several radii and masses, kinematic balls, random velocities.
fn mixed_scene(seed: u64, n: usize, gravity: [f64; 2], e: f64, kin: usize) -> Direct {
    let t = table(400.0, 300.0);
    let mut rng = Rng(seed);
    let mut balls = Balls::default();
    let radii = [2.0, 3.5, 6.0];
    let spacing = 13.0;
    let per_row = (t.width / spacing) as usize - 1;
    for k in 0..n {
        let (cx, cy) = (
            spacing * (1 + k % per_row) as f64,
            spacing * (1 + k / per_row) as f64,
        );
        let r = radii[k % 3];
        let mut b = Ball::new(cx, cy, 20.0 * rng.sym(), 20.0 * rng.sym(), r, r * r);
        if k < kin {
            b = kinematic(b);
        }
        balls.push(b);
    }
    let p = Physics {
        gravity,
        restitution: e,
        ..physics(0.05)
    };
    Direct::new(t, p, balls)
}

/// Crowded cells: one large ball among many small ones. The grid's cells are a large
/// diameter wide (24), so a 3x3 block holds some 500 small balls on this 3-unit
/// lattice, far more than the event model gathers at once (64): its predictions then
/// walk the cell lists instead, the path no scene of similar balls takes.
fn crowded_scene(seed: u64) -> Direct {
    let t = table(150.0, 120.0);
    let mut rng = Rng(seed);
    let mut balls = Balls::default();
    let (big_x, big_y, big_r) = (75.0, 60.0, 12.0);
    balls.push(Ball::new(big_x, big_y, 0.0, 0.0, big_r, 40.0));
    let spacing = 3.0;
    for gy in 1..(t.height / spacing) as usize {
        for gx in 1..(t.width / spacing) as usize {
            let (x, y) = (gx as f64 * spacing, gy as f64 * spacing);
            if (x - big_x).hypot(y - big_y) < big_r + 2.0 {
                continue;
            }
            balls.push(Ball::new(x, y, 5.0 * rng.sym(), 5.0 * rng.sym(), 1.0, 1.0));
        }
    }
    Direct::new(t, physics(0.05), balls)
}

#[test]
fn no_overlap_deeper_than_a_billionth_of_a_radius_at_any_event() {
    let scenes = [
        ("elastic", mixed_scene(1, 300, [0.0, 0.0], 1.0, 0)),
        ("inelastic", mixed_scene(2, 300, [0.0, 0.0], 0.7, 0)),
        ("gravity", mixed_scene(3, 300, [0.0, 30.0], 1.0, 0)),
        ("kinematic", mixed_scene(4, 300, [0.0, 0.0], 1.0, 5)),
        (
            "kinematic+gravity",
            mixed_scene(5, 200, [3.0, 20.0], 1.0, 4),
        ),
        ("crowded cells", crowded_scene(6)),
    ];
    for (name, mut d) in scenes {
        d.model.set_overlap_audit(true);
        let start = d.model.events();
        while d.model.events() - start < 20_000 {
            d.step().unwrap();
        }
        // The audit measures every pair and wall in the whole system after every event
        // with an independent broad phase. Exact event times leave only round-off
        // (~1e-13 of a radius); a missed or late event shows as an overlap of the order
        // of a speed times a step, millions of times larger.
        let worst = d.model.worst_overlap();
        assert!(worst <= 1e-9, "{name}: overlap {worst} of a radius");
        assert!(d.model.collisions() > 1000, "{name}: too few collisions");
    }
}

#[test]
fn a_ball_at_a_million_units_per_time_never_tunnels() {
    // Ball 0 flies at 1e6 into ball 1 at rest (equal masses, elastic): it stops dead at
    // contact, ball 1 takes its velocity, hits the right wall and comes back. Each
    // step moves a ball 1000 units: over a table width, which any time-stepped model
    // would tunnel through.
    let mut w = world(
        table(800.0, 400.0),
        physics(1e-3),
        &[
            Ball::new(50.0, 200.0, 1e6, 0.0, 10.0, 1.0),
            Ball::new(400.0, 200.0, 0.0, 0.0, 10.0, 1.0),
        ],
    );
    w.step().unwrap();
    let b = w.balls();
    // Contact at x0 = 380 after 330e-6; ball 1 travels 670 more: 390 to the wall at
    // 790, 280 back.
    let tol = 1e-9 * 800.0;
    assert!((b.x[0] - 380.0).abs() < tol, "ball 0 at {}", b.x[0]);
    assert_eq!(b.vx[0], 0.0);
    assert!((b.x[1] - 510.0).abs() < tol, "ball 1 at {}", b.x[1]);
    assert_eq!(b.vx[1], -1e6);

    // And in a gas: one very fast ball among slow ones, audited at every event.
    let mut d = mixed_scene(9, 200, [0.0, 0.0], 1.0, 0);
    d.balls.vx[0] = 1e6;
    d.balls.vy[0] = 3.3e5;
    d.physics.dt = 1e-4;
    d.model.set_overlap_audit(true);
    for _ in 0..20 {
        d.step().unwrap();
    }
    let worst = d.model.worst_overlap();
    assert!(worst <= 1e-9, "overlap {worst} of a radius");
    // In 2e-3 time units the slow balls barely move: the collisions are the fast
    // ball's (and those it sets off), dozens of them across the table and back.
    assert!(
        d.model.collisions() > 20,
        "{} collisions",
        d.model.collisions()
    );
}

#[test]
fn parabolic_flight_hits_the_floor_at_the_analytical_time() {
    // y = 100 - 5 t + 5 t^2 reaches the floor contact y = 390 at t^2 - t - 58 = 0.
    let t_hit = (1.0 + 233f64.sqrt()) / 2.0;
    let v_hit = -5.0 + 10.0 * t_hit;
    let run = |dt: f64| {
        let p = Physics {
            gravity: [0.0, 10.0],
            ..physics(dt)
        };
        let mut w = world(
            table(800.0, 400.0),
            p,
            &[Ball::new(400.0, 100.0, 3.0, -5.0, 10.0, 1.0)],
        );
        w.step().unwrap();
        let b = w.balls();
        (b.y[0], b.vy[0])
    };
    // Sampled a nanosecond before and after the analytical time: falling, then rising.
    let delta = 1e-9;
    let (y, vy) = run(t_hit - delta);
    assert!(vy > 0.0, "not yet bounced");
    assert!((vy - (v_hit - 10.0 * delta)).abs() < 1e-12 * v_hit);
    assert!((y - (390.0 - v_hit * delta)).abs() < 1e-12 * 390.0);
    let (y, vy) = run(t_hit + delta);
    assert!(vy < 0.0, "bounced");
    assert!((vy - (-v_hit + 10.0 * delta)).abs() < 1e-12 * v_hit);
    assert!((y - (390.0 - v_hit * delta)).abs() < 1e-12 * 390.0);
}

#[test]
fn spring_outcome_converges_to_the_event_outcome_as_dt_shrinks() {
    // Head-on, unequal masses, restitution 0.8. The event model gives the hard-contact
    // result; a stiff spring contact lasts pi sqrt(mu/k) = 0.02, and its outcome
    // velocities approach the same values as dt resolves it ever better.
    let balls = [
        Ball::new(200.0, 200.0, 4.0, 0.0, 10.0, 1.0),
        Ball::new(300.0, 200.0, -2.0, 0.0, 10.0, 2.0),
    ];
    let e = 0.8;
    let t = table(800.0, 400.0);
    let mut ev = world(
        t,
        Physics {
            restitution: e,
            ..physics(1.0)
        },
        &balls,
    );
    ev.run_steps(20).unwrap();
    let exact = [ev.balls().vx[0], ev.balls().vx[1]];
    // Independent check of the reference itself: the 1D closed form.
    let (u1, u2) = closed_form_two_ball(1.0, [4.0, 0.0], 2.0, [-2.0, 0.0], [1.0, 0.0], e);
    assert!((exact[0] - u1[0]).abs() < 1e-14 && (exact[1] - u2[0]).abs() < 1e-14);

    // Contact duration T = pi sqrt(mu / k) = 0.02 for the reduced mass mu = 2/3.
    let k = (2.0 / 3.0) * (std::f64::consts::PI / 0.02).powi(2);
    let mut errors = Vec::new();
    for dt in [1e-3, 5e-4, 2.5e-4, 1.25e-4] {
        let p = Physics {
            model: ModelKind::Spring,
            integrator: Integrator::VelocityVerlet,
            stiffness: k,
            restitution: e,
            dt,
            ..Physics::default()
        };
        let mut w = world(t, p, &balls);
        let steps = (20.0 / dt) as u64;
        w.run_steps(steps).unwrap();
        let b = w.balls();
        let err = (b.vx[0] - exact[0]).abs().max((b.vx[1] - exact[1]).abs());
        errors.push(err);
    }
    // Velocity Verlet is second order: the outcome error behaves like C (dt/T)^2 times
    // the velocity scale (6), with C of order one. Require a clear second-order trend
    // (at least 3 per halving, where exactly 4 is the asymptotic value; the switch from
    // loading to unloading falling anywhere inside a step adds some irregularity) and
    // the finest error below that bound with C = 1.
    for w in errors.windows(2) {
        assert!(w[1] < w[0] / 3.0, "errors do not converge: {errors:?}");
    }
    let bound = 6.0 * (1.25e-4f64 / 0.02).powi(2);
    assert!(
        *errors.last().unwrap() < bound,
        "errors {errors:?}, bound {bound}"
    );
}

#[test]
fn break_stays_mirror_symmetric_twenty_time_units_into_the_rack() {
    let mut s = carom::presets::find("break").unwrap().scenario().unwrap();
    s.physics.model = Some(ModelKind::Event);
    let mut w = build_world(&s).unwrap();
    // The cue ball (x = 150, speed 8) touches the apex (x = 550, both r = 10) at
    // t = (550 - 20 - 150) / 8.
    let touch = (550.0 - 20.0 - 150.0) / 8.0;
    let end = touch + 20.0;
    while w.time < end - 1e-9 {
        w.step().unwrap();
    }
    assert!(w.collisions() > 20, "the rack must have been hit");
    let err = w.diagnostics().symmetry_error.unwrap();
    // Mirror partners differ only by the rounding of mirrored coordinates (~1e-13 of
    // the table); the exact grouped impacts keep that from growing beyond what the
    // chaotic collisions amplify, far below 1e-9 of the table width.
    assert!(err <= 1e-9 * 800.0, "symmetry error {err}");
}

#[test]
fn kinematic_ball_is_an_infinite_mass_moving_at_constant_velocity() {
    // Head-on against a kinematic paddle moving at -2: v' = u - e (v - u).
    let e = 0.7;
    let p = Physics {
        restitution: e,
        ..physics(30.0)
    };
    let mut w = world(
        table(800.0, 400.0),
        p,
        &[
            Ball::new(100.0, 200.0, 3.0, 0.0, 10.0, 1.0),
            kinematic(Ball::new(300.0, 200.0, -2.0, 0.0, 20.0, 1.0)),
        ],
    );
    w.step().unwrap();
    let b = w.balls();
    // Contact at t = (200 - 30) / 5 = 34 > 30: nothing yet.
    assert_eq!(b.vx[0], 3.0);
    w.step().unwrap();
    let b = w.balls();
    let v_after = -2.0 - e * (3.0 - -2.0);
    assert!((b.vx[0] - v_after).abs() < 1e-14);
    assert_eq!(b.vx[1], -2.0);
    assert_eq!(b.x[1], 300.0 - 2.0 * 60.0);
    // Ball 0 at the contact point 100 + 3 * 34, then back at v_after for 26.
    let x = 100.0 + 3.0 * 34.0 + v_after * 26.0;
    assert!((b.x[0] - x).abs() < 1e-12 * 400.0, "{} vs {x}", b.x[0]);
}

#[test]
fn falling_ball_bounces_off_a_kinematic_ball_that_ignores_gravity() {
    // A dynamic ball falls onto a kinematic ball gliding sideways: their relative motion
    // is accelerated, so the contact time is a quartic root. Found here independently
    // by scanning the distance finely and bisecting.
    let g = [0.0, 4.0];
    let dynamic = Ball::new(320.0, 100.0, 0.5, 0.0, 8.0, 1.0);
    let glider = kinematic(Ball::new(300.0, 180.0, 3.0, 0.0, 12.0, 1.0));
    let pos = |t: f64| {
        let d = [
            dynamic.x + dynamic.vx * t,
            dynamic.y + dynamic.vy * t + 0.5 * g[1] * t * t,
        ];
        let k = [glider.x + glider.vx * t, glider.y];
        (d, k)
    };
    let gap = |t: f64| {
        let (d, k) = pos(t);
        (d[0] - k[0]).hypot(d[1] - k[1]) - 20.0
    };
    let mut t = 0.0;
    while gap(t + 1e-3) > 0.0 {
        t += 1e-3;
        assert!(t < 20.0);
    }
    let (mut lo, mut hi) = (t, t + 1e-3);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if gap(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let t_c = 0.5 * (lo + hi);
    let (d, k) = pos(t_c);
    let n = [(d[0] - k[0]) / 20.0, (d[1] - k[1]) / 20.0];
    let v = [dynamic.vx, g[1] * t_c];
    let u = [glider.vx, 0.0];
    let vn = (v[0] - u[0]) * n[0] + (v[1] - u[1]) * n[1];
    assert!(vn < 0.0, "the scene must produce an impact");
    let v_after = [v[0] - 2.0 * vn * n[0], v[1] - 2.0 * vn * n[1]];
    let t_end = t_c + 0.25;
    let p = Physics {
        gravity: g,
        ..physics(t_end)
    };
    let mut w = world(table(800.0, 400.0), p, &[dynamic, glider]);
    w.step().unwrap();
    let b = w.balls();
    let s = t_end - t_c;
    let expect = [
        d[0] + v_after[0] * s,
        d[1] + v_after[1] * s + 0.5 * g[1] * s * s,
        v_after[0],
        v_after[1] + g[1] * s,
    ];
    let got = [b.x[0], b.y[0], b.vx[0], b.vy[0]];
    for c in 0..4 {
        // The bisection pins t_c to round-off; the model's quartic root likewise. Both
        // carry ~1e-13 relative error, amplified mildly by the oblique geometry.
        assert!(
            (got[c] - expect[c]).abs() < 1e-9,
            "component {c}: {} vs {}",
            got[c],
            expect[c]
        );
    }
    assert_eq!(w.collisions(), 1);
}

#[test]
fn predictions_follow_velocities_changed_by_friction_between_steps() {
    // Dry friction slows the ball after every step; the wall bounce must happen where
    // the slowed ball really reaches the wall. Reference: the same operator splitting
    // done by hand for one ball in 1D (flight with exact wall reflection, then friction).
    let (dt, mu) = (0.5, 0.2);
    let p = Physics {
        friction: Friction::Dry { mu, g_normal: 1.0 },
        ..physics(dt)
    };
    let mut w = world(
        table(100.0, 100.0),
        p,
        &[Ball::new(50.0, 50.0, 9.0, 0.0, 5.0, 1.0)],
    );
    let (mut x, mut v) = (50.0f64, 9.0f64);
    let mut bounced = false;
    for _ in 0..40 {
        w.step().unwrap();
        let mut left = dt;
        // Exact flight with reflection at x = 95 and x = 5.
        loop {
            let wall = if v > 0.0 { 95.0 } else { 5.0 };
            let t_hit = if v != 0.0 {
                (wall - x) / v
            } else {
                f64::INFINITY
            };
            if t_hit > left {
                x += v * left;
                break;
            }
            x = wall;
            v = -v;
            left -= t_hit;
            bounced = true;
        }
        let speed = (v.abs() - mu * dt).max(0.0);
        v = speed * v.signum();
        let b = w.balls();
        assert!((b.x[0] - x).abs() < 1e-11, "x {} vs {x}", b.x[0]);
        assert!((b.vx[0] - v).abs() < 1e-12);
    }
    assert!(bounced);
}

#[test]
fn edits_from_outside_are_picked_up() {
    // Ball 1 is moved into ball 0's path after the first step: the collision must
    // happen exactly as in a world built with it there from the start.
    let p = physics(1.0);
    let mut w = world(
        table(800.0, 400.0),
        p,
        &[
            Ball::new(100.0, 200.0, 10.0, 0.0, 10.0, 1.0),
            Ball::new(500.0, 50.0, 0.0, 0.0, 10.0, 1.0),
        ],
    );
    w.step().unwrap();
    {
        let b = w.balls_mut();
        b.y[1] = 205.0;
        b.x[1] = 300.0;
    }
    let mut fresh = world(
        table(800.0, 400.0),
        p,
        &[w.balls().get(0), w.balls().get(1)],
    );
    w.run_steps(30).unwrap();
    fresh.run_steps(30).unwrap();
    assert!(fresh.collisions() >= 1, "the moved ball must be hit");
    assert_eq!(w.collisions(), fresh.collisions());
    for i in 0..2 {
        assert!((w.balls().x[i] - fresh.balls().x[i]).abs() < 1e-12 * 800.0);
        assert!((w.balls().vy[i] - fresh.balls().vy[i]).abs() < 1e-12);
    }
}

/// The state a run of `time` in steps of `dt` ends in, as a state file holds it.
fn dense_gas_state(dt: f64, time: f64) -> serde_json::Value {
    let text = format!(
        r#"
name = "dense gas"
[table]
boundary = "periodic"
[physics]
model = "event"
dt = {dt}
[[generators]]
kind = "gas"
n = 1000
area_fraction = 0.55
seed = 3
"#
    );
    let mut w = build_world(&parse_scenario(&text, Format::Toml).unwrap()).unwrap();
    w.run_steps((time / dt).round() as u64).unwrap();
    let mut state = serde_json::to_value(carom::state::snapshot(&w, time)).unwrap();
    state["physics"]["dt"] = serde_json::Value::Null;
    state["steps"] = serde_json::Value::Null;
    state
}

#[test]
fn sampling_a_dense_gas_once_gives_the_bits_of_sampling_it_every_time_unit() {
    // Issue 35: how rarely the state is sampled must neither stop a healthy run nor
    // change it. 1000 disks at area fraction 0.55 over 600 time units: some 1.2
    // million events, more than the former budget of one output interval (1.1
    // million), and past the point where the model moves its epoch (a few hundred
    // time units for unit speeds and radii). Sampled once or 600 times, the dynamics
    // are the same operations on the same numbers: the states agree to the bit, all
    // but dt and the step count.
    let once = dense_gas_state(600.0, 600.0);
    let every = dense_gas_state(1.0, 600.0);
    assert_eq!(once, every);
    let collisions = once["diagnostics"]["collisions"].as_u64().unwrap();
    assert!(collisions > 500_000, "{collisions}");
}

#[test]
fn a_failed_step_puts_back_image_counts_and_spins_in_a_rough_periodic_box() {
    // The undo record keeps a ball's image counts only on a periodic table and its
    // spin only with contact friction: here both change within the interval (balls
    // wrap through the edges, rough collisions spin them), so a budget error must put
    // back every bit of them.
    let text = r#"
[table]
boundary = "periodic"
[physics]
model = "event"
dt = 5.0
contact_friction = { mu = 0.4, tangential_restitution = 0.5 }
[[generators]]
kind = "gas"
n = 400
area_fraction = 0.3
seed = 5
"#;
    let w = build_world(&parse_scenario(text, Format::Toml).unwrap()).unwrap();
    let mut d = Direct::from_world(&w);
    let before = d.balls.clone();

    // The same interval run through: it does change image counts and spins.
    let mut full = Direct::from_world(&w);
    full.step().unwrap();
    let wrapped = (0..before.len())
        .any(|i| (full.balls.ix[i], full.balls.iy[i]) != (before.ix[i], before.iy[i]));
    let spun = (0..before.len()).any(|i| full.balls.omega[i] != before.omega[i]);
    assert!(wrapped && spun, "the interval must wrap and spin balls");

    // Stopped by its budget two thirds of the way through: everything put back.
    d.model.set_budget(Some(full.model.due_events() * 2 / 3));
    assert!(matches!(d.step(), Err(StepError::EventBudget(_))));
    assert_eq!(d.balls, before);
}

#[test]
fn a_bouncing_ball_comes_to_rest_on_the_floor_at_the_analytical_time() {
    // Dropped from y = 100 onto the floor contact y = 390 under g = 10 with e = 0.5: it
    // lands after t_f = sqrt(58), each bounce lasts 2 e^k v_hit / g, and the series sums
    // to rest at T = t_f (1 + e) / (1 - e) = 3 t_f. Then it slides at its own vx.
    let (g, e, dt) = (10.0, 0.5, 0.05);
    let p = Physics {
        gravity: [0.0, g],
        restitution: e,
        ..physics(dt)
    };
    let mut w = world(
        table(800.0, 400.0),
        p,
        &[Ball::new(400.0, 100.0, 3.0, 0.0, 10.0, 1.0)],
    );
    let t_f = 58f64.sqrt();
    let rest = t_f * (1.0 + e) / (1.0 - e);
    let mut still_bouncing = false;
    while w.time < 0.99 * rest {
        w.step().unwrap();
        still_bouncing |= w.time > 0.98 * rest && w.balls().vy[0] != 0.0;
    }
    assert!(still_bouncing, "at rest too early");
    // Rest comes once a rebound would last less than tc = TC_FRACTION dt, cutting the
    // series short by less than that: one step past T is ample.
    while w.time < rest + dt {
        w.step().unwrap();
    }
    for _ in 0..100 {
        w.step().unwrap();
        let b = w.balls();
        assert_eq!(b.vy[0], 0.0);
        assert!((b.y[0] - 390.0).abs() < 1e-9, "y = {}", b.y[0]);
        assert_eq!(b.vx[0], 3.0);
        assert!((b.x[0] - (400.0 + 3.0 * w.time)).abs() < 1e-9);
    }
    // The bounces until a rebound is below g tc: log(v_hit / (g tc)) / log(1 / e),
    // about 24, where an unguarded hard disk would take infinitely many.
    let v_hit = g * t_f;
    let tc = event::TC_FRACTION * dt;
    let bounces = ((v_hit / (g * tc)).ln() / (1.0 / e).ln()).ceil() as u64 + 1;
    assert!(w.collisions() <= bounces, "{} collisions", w.collisions());
    assert!(
        w.collisions() >= bounces - 2,
        "{} collisions",
        w.collisions()
    );
}

/// Ball 0 rests on the floor; ball 1 (mass 2) falls from rest and strikes it at
/// t_c = 2 at 50 degrees from the vertical. Returns the world sampled 0.1 after the
/// impact, with the contact geometry.
fn struck_resting_ball(e: f64) -> (World, [f64; 2], [f64; 2], [f64; 2]) {
    let (g, t_c) = (10.0, 2.0);
    let theta = 50f64.to_radians();
    let a = [400.0, 390.0];
    let b_c = [a[0] + 20.0 * theta.sin(), a[1] - 20.0 * theta.cos()];
    let fall = 0.5 * g * t_c * t_c;
    let p = Physics {
        gravity: [0.0, g],
        restitution: e,
        ..physics(0.5)
    };
    let mut w = world(
        table(800.0, 400.0),
        p,
        &[
            Ball::new(a[0], a[1], 0.0, 0.0, 10.0, 1.0),
            Ball::new(b_c[0], b_c[1] - fall, 0.0, 0.0, 10.0, 2.0),
        ],
    );
    // Steps of 0.5 end at 2.0, just before the impact (contact is at 2 up to round-off,
    // so sample well clear of it), then one of 0.1.
    w.run_steps(4).unwrap();
    assert_eq!(w.collisions(), 0);
    w.set_physics(Physics {
        dt: 0.1,
        ..*w.physics()
    })
    .unwrap();
    w.step().unwrap();
    assert!(w.collisions() > 0);
    (w, a, b_c, [-theta.sin(), theta.cos()])
}

#[test]
fn a_resting_ball_struck_from_above_is_held_by_the_floor() {
    // The floor takes part in the impact. DESIGN's rule for contacts touching at the
    // same instant: resolve the approaching ones, then repeat while any touching
    // contact approaches. Here that alternates the two-ball formula for the pair and
    // the reflection v_n' = -e v_n for ball 0 on the floor, done by hand below.
    let (g, s) = (10.0, 0.1);
    for e in [0.5, 1.0] {
        let (w, a, b_c, n) = struck_resting_ball(e);
        let (w0, w1) = (1.0, 0.5);
        let (mut v0, mut v1) = ([0.0, 0.0], [0.0, g * 2.0]);
        // Nothing approaching faster than 1e-12 of the speed (20): round-off level.
        let tol = 1e-12 * 20.0;
        for _ in 0..1000 {
            let gn = n[0] * (v0[0] - v1[0]) + n[1] * (v0[1] - v1[1]);
            if gn < -tol {
                let j = -(1.0 + e) * gn / (w0 + w1);
                v0 = [v0[0] + j * n[0] * w0, v0[1] + j * n[1] * w0];
                v1 = [v1[0] - j * n[0] * w1, v1[1] - j * n[1] * w1];
            } else if v0[1] > tol {
                v0[1] *= -e;
            } else {
                break;
            }
        }
        assert!(v0[1] < 0.0, "ball 0 is thrown off the floor");
        let b = w.balls();
        let expect = [
            [
                a[0] + v0[0] * s,
                a[1] + v0[1] * s + 0.5 * g * s * s,
                v0[0],
                v0[1] + g * s,
            ],
            [
                b_c[0] + v1[0] * s,
                b_c[1] + v1[1] * s + 0.5 * g * s * s,
                v1[0],
                v1[1] + g * s,
            ],
        ];
        for (i, ex) in expect.iter().enumerate() {
            let got = [b.x[i], b.y[i], b.vx[i], b.vy[i]];
            for k in 0..4 {
                // The solver stops once nothing approaches faster than 1e-10 of the
                // speed: velocities within ~1e-9 of the exact sequence, positions 0.1
                // later within ~1e-10; 1e-8 bounds both.
                assert!(
                    (got[k] - ex[k]).abs() < 1e-8,
                    "e {e} ball {i} comp {k}: {} vs {}",
                    got[k],
                    ex[k]
                );
            }
        }
        // Whatever the sequence, the floor only pushes vertically: the momentum along
        // it is kept, and with e = 1 so is the energy.
        let px = b.m[0] * b.vx[0] + b.m[1] * b.vx[1];
        assert!(px.abs() < 1e-12 * 40.0, "momentum along the floor {px}");
        if e == 1.0 {
            let energy: f64 = (0..2)
                .map(|i| {
                    0.5 * b.m[i] * (b.vx[i] * b.vx[i] + b.vy[i] * b.vy[i]) - b.m[i] * g * b.y[i]
                })
                .sum();
            let start = -g * 390.0 - 2.0 * g * (b_c[1] - 20.0);
            assert!(
                (energy - start).abs() < 1e-12 * start.abs(),
                "energy {energy} vs {start}"
            );
        }
    }
}

#[test]
fn inelastic_collapse_is_cut_off_by_the_tc_rule() {
    // Three balls on a line with e = 0.05 (below the three-ball collapse threshold
    // 7 - 4 sqrt 3 = 0.072): the middle one rattles between the outer two ever faster,
    // infinitely many collisions in finite time in exact arithmetic.
    let scene = |guard: bool| {
        let p = Physics {
            restitution: 0.05,
            ..physics(100.0)
        };
        let balls = Balls::from_vec(&[
            Ball::new(300.0, 200.0, 1.0, 0.0, 10.0, 1.0),
            Ball::new(335.0, 200.0, 0.0, 0.0, 10.0, 1.0),
            Ball::new(360.0, 200.0, -1.0, 0.0, 10.0, 1.0),
        ]);
        let mut d = Direct::new(table(800.0, 400.0), p, balls);
        d.model.set_collapse_guard(guard);
        d.model.set_overlap_audit(true);
        d
    };
    // Without the guard the collapse runs on until round-off makes the three
    // velocities exactly equal: hundreds of collisions in a vanishing time.
    let mut raw = scene(false);
    raw.step().unwrap();
    let raw_collisions = raw.model.collisions();
    assert!(
        raw_collisions > 500,
        "no collapse: {raw_collisions} collisions"
    );

    let mut d = scene(true);
    let e0 = d.energy();
    d.step().unwrap();
    // With it, a ball's collisions turn elastic after TC_BURST in quick succession, so
    // the burst ends after about that many per ball (the pairs alternate).
    let guarded = d.model.collisions();
    assert!(
        guarded <= 3 * event::TC_BURST as u64,
        "{guarded} collisions (unguarded {raw_collisions})"
    );
    let b = &d.balls;
    // Momentum (zero) is conserved and energy only lost, whatever the guard did; the
    // balls stay on their line and never interpenetrate.
    let p: f64 = (0..3).map(|i| b.m[i] * b.vx[i]).sum();
    assert!(p.abs() < 1e-12, "momentum {p}");
    assert!(d.energy() <= e0);
    assert!(b.vy.iter().all(|&v| v == 0.0));
    assert!(d.model.worst_overlap() <= 1e-9);
    assert!(raw.model.worst_overlap() <= 1e-9);
}

#[test]
fn empty_and_kinematic_only_scenes_run() {
    let p = Physics {
        gravity: [0.0, 1.0],
        ..physics(0.5)
    };
    let mut w = world(table(100.0, 100.0), p, &[]);
    w.run_steps(10).unwrap();
    assert_eq!(w.collisions(), 0);
    // Kinematic balls ignore gravity, walls and each other: straight lines, even
    // through one another and out of the table.
    let mut w = world(
        table(100.0, 100.0),
        p,
        &[
            kinematic(Ball::new(20.0, 50.0, 10.0, 0.0, 10.0, 1.0)),
            kinematic(Ball::new(80.0, 50.0, -10.0, 0.0, 10.0, 1.0)),
        ],
    );
    w.run_steps(20).unwrap();
    let b = w.balls();
    assert_eq!((b.x[0], b.y[0], b.x[1]), (120.0, 50.0, -20.0));
    assert_eq!(w.collisions(), 0);
}
