//! Balls resting on the straight faces of walls inside the table under gravity, in the
//! `event` model, against the mechanics written here: a ball on a frictionless slope
//! slides with `g sin(theta)` along it; one pushed off the end of a shelf leaves it in
//! free flight when `v^2 >= g r` (nothing needs to hold it on the corner) and lands on
//! the parabola from the corner; slower, it rolls over the corner on a circle and
//! leaves it where the corner stops pushing; a ball dropped into a V comes to rest
//! wedged at the point where it touches both faces; two balls on a shelf meet as on a
//! line.

use crate::common;
use common::scene::world;

use carom::World;
use common::{assert_in_flight, simpson};

const G: f64 = 9.81;

fn scene(balls: &str, walls: &str, e: f64, dt: f64) -> World {
    world(&format!(
        r#"
        [table]
        width = 200.0
        height = 200.0
        [physics]
        model = "event"
        dt = {dt}
        restitution = {e}
        gravity = [0.0, {G}]
        {balls}
        {walls}
        "#
    ))
}

/// The slope from (0, 60) down to (200, 80) (y points down, as gravity does).
const SLOPE: &str = r#"
    [[walls]]
    kind = "segment"
    points = [[0.0, 60.0], [200.0, 80.0]]
"#;

/// Unit vector down the slope, and its normal towards the side above it.
fn slope_axes() -> ([f64; 2], [f64; 2]) {
    let len = 200f64.hypot(20.0);
    let u = [200.0 / len, 20.0 / len];
    (u, [u[1], -u[0]])
}

/// A ball put at rest touching the slope rests on it at once and slides down it with
/// `g sin(theta)` (frictionless, as on the table's own floor), staying at one radius
/// from the face. Every motion is a parabola, so the position holds to round-off of
/// coordinates of size 100 (a few 1e-14) times the handful of operations per event.
#[test]
fn a_ball_on_a_slope_slides_down_it_with_g_sin_theta() {
    let (u, n) = slope_axes();
    let r = 5.0;
    // Touching the face 40 along it from its top end.
    let c = [40.0 * u[0] + r * n[0], 60.0 + 40.0 * u[1] + r * n[1]];
    let balls = format!("[[balls]]\nx = {}\ny = {}\nr = {r}", c[0], c[1]);
    let mut w = scene(&balls, SLOPE, 0.5, 0.25);
    let g_along = G * u[1];
    for step in 1..=8 {
        w.run_steps(1).unwrap();
        let t = 0.25 * step as f64;
        let s = 0.5 * g_along * t * t;
        let b = w.balls();
        let want = [c[0] + s * u[0], c[1] + s * u[1]];
        assert!(
            (b.x[0] - want[0]).abs() < 1e-11 && (b.y[0] - want[1]).abs() < 1e-11,
            "t = {t}: ({}, {}) against ({}, {})",
            b.x[0],
            b.y[0],
            want[0],
            want[1]
        );
        let speed = b.vx[0].hypot(b.vy[0]);
        assert!(
            (speed - g_along * t).abs() < 1e-12,
            "t = {t}: speed {speed}"
        );
    }
    assert_eq!(w.collisions(), 0, "sliding is not a collision");
}

/// The same ball slides into the table's right wall at the slope's foot (the wall and
/// the face met as one impact, a concave corner), bounces back ever shorter (e = 1/2),
/// and comes to rest wedged between the slope and the wall: centre one radius from
/// each, velocity exactly zero (the two contacts span the plane, so no speed is left).
/// It does not stall: each return trip is about e times the last (the first takes
/// about 17 time units), so the trips end by the rest rule well within 80.
#[test]
fn a_ball_sliding_into_the_wall_at_the_foot_of_a_slope_comes_to_rest_wedged() {
    let (u, n) = slope_axes();
    let r = 5.0;
    let c = [40.0 * u[0] + r * n[0], 60.0 + 40.0 * u[1] + r * n[1]];
    let balls = format!("[[balls]]\nx = {}\ny = {}\nr = {r}", c[0], c[1]);
    let mut w = scene(&balls, SLOPE, 0.5, 1.0);
    w.run_steps(80).unwrap();
    let b = w.balls();
    assert_eq!((b.vx[0], b.vy[0]), (0.0, 0.0), "at rest");
    // Centre at x = 200 - r, one radius above the face: the face's line at x is
    // y = 60 + x / 10, and one radius along n from it.
    let x = 200.0 - r;
    let y_face = 60.0 + (x - r * n[0]) * 0.1;
    let y = y_face + r * n[1];
    assert!((b.x[0] - x).abs() < 1e-9, "x {}", b.x[0]);
    assert!((b.y[0] - y).abs() < 1e-9, "y {} against {y}", b.y[0]);
    assert!(w.collisions() > 1, "it bounced off the wall first");
    // And it stays there.
    let before = (b.x[0], b.y[0]);
    w.run_steps(10).unwrap();
    assert_eq!((w.balls().x[0], w.balls().y[0]), before);
}

/// A shelf from (20, 50) to (100, 50) with a free end at x = 100.
const SHELF: &str = r#"
    [[walls]]
    kind = "segment"
    points = [[20.0, 50.0], [100.0, 50.0]]
"#;

/// Pushed along the shelf at `v0 >= sqrt(g r)`, a ball leaves its end in free flight
/// (the corner need not hold it: turning round it at that speed needs more than
/// gravity's pull), at `t1 = (100 - x0) / v0`, and then falls on the parabola from the
/// corner: one unit of time later it is at `(100 + v0, 49 + g / 2)`.
#[test]
fn a_ball_pushed_off_a_shelf_leaves_at_its_end_on_the_parabola() {
    for v0 in [3.2f64, 5.0, 12.0] {
        assert!(v0 * v0 >= G);
        let balls = format!("[[balls]]\nx = 30.0\ny = 49.0\nvx = {v0}\nr = 1.0");
        let mut w = scene(&balls, SHELF, 0.5, 0.125);
        let t1 = 70.0 / v0;
        let steps = ((t1 + 1.0) / 0.125).ceil() as u64;
        w.run_steps(steps).unwrap();
        let tau = steps as f64 * 0.125 - t1;
        let b = w.balls();
        let want = [100.0 + v0 * tau, 49.0 + 0.5 * G * tau * tau];
        // Positions near 100 (ulp 1.4e-14) after one face end and one flight.
        assert!(
            (b.x[0] - want[0]).abs() < 1e-11 && (b.y[0] - want[1]).abs() < 1e-11,
            "v0 {v0}: ({}, {}) against {want:?}",
            b.x[0],
            b.y[0]
        );
        assert!((b.vy[0] - G * tau).abs() < 1e-11);
        assert_eq!(w.collisions(), 0);
    }
}

/// `int_0^phi r dpsi / sqrt(v0^2 + 2 g r (1 - cos psi))`: the time a ball starting over
/// a corner at speed `v0` takes to roll round it (centre at `r` from it, frictionless)
/// through the angle `phi` from the top.
fn roll_time(v0: f64, r: f64, phi: f64) -> f64 {
    simpson(
        |p| r / (v0 * v0 + 2.0 * G * r * (1.0 - p.cos())).sqrt(),
        phi,
    )
}

/// Slower than `sqrt(g r)`, the ball rolls over the shelf's end on a circle about the
/// corner, frictionless, and leaves it where the corner stops pushing: at `cos(phi) =
/// (2 + v0^2 / (g r)) / 3` from the top (the textbook answer for a particle on a
/// sphere), at the time the energy integral gives, with speed `sqrt(v0^2 + 2 g r (1 -
/// cos phi))` along the circle's tangent; then it falls on the parabola from there.
#[test]
fn a_ball_too_slow_to_leave_a_corner_rolls_over_it_and_leaves_where_the_push_vanishes() {
    let r = 1.0;
    for v0 in [0.5f64, 2.0, 3.0] {
        assert!(v0 * v0 < G * r);
        let balls = format!("[[balls]]\nx = 30.0\ny = 49.0\nvx = {v0}\nr = 1.0");
        let mut w = scene(&balls, SHELF, 0.5, 0.25);
        let t_end = 70.0 / v0;
        let phi = ((2.0 + v0 * v0 / (G * r)) / 3.0).acos();
        let t_off = t_end + roll_time(v0, r, phi);
        let speed = (v0 * v0 + 2.0 * G * r * (1.0 - phi.cos())).sqrt();
        let p_off = [100.0 + r * phi.sin(), 50.0 - r * phi.cos()];
        let v_off = [speed * phi.cos(), speed * phi.sin()];
        let steps = ((t_off + 0.5) / 0.25).ceil() as u64;
        w.run_steps(steps).unwrap();
        let tau = steps as f64 * 0.25 - t_off;
        assert!(tau > 0.25);
        assert_in_flight(&w, p_off, v_off, G, tau, 1e-9, &format!("v0 {v0}"));
        let b = w.balls();
        assert!((b.vx[0] - v_off[0]).abs() < 1e-9, "v0 {v0}: vx {}", b.vx[0]);
        assert_eq!(
            w.collisions(),
            0,
            "rolling round the corner is not a collision"
        );
    }
}

/// A failed step puts back what its impacts counted too: two balls dropped into a V
/// end pressed together (the upper one resting on the lower), which hard disks cannot
/// represent: the collapse guard stops the step. After the failure the collision count,
/// the virial (from which the pressure is averaged) and the balls are what they were at
/// the interval's start.
#[test]
fn a_failed_step_puts_back_its_collisions_and_virial() {
    let walls = r#"
        [[walls]]
        kind = "polyline"
        points = [[50.0, 50.0], [100.0, 100.0], [150.0, 50.0]]
    "#;
    let balls = r#"
        [[balls]]
        x = 100.0
        y = 80.0
        r = 2.0
        [[balls]]
        x = 100.5
        y = 60.0
        r = 2.0
    "#;
    let mut w = scene(balls, walls, 0.5, 1.0);
    let mut failed = None;
    for _ in 0..40 {
        let before = (w.collisions(), w.virial(), w.balls().clone());
        if let Err(e) = w.run_steps(1) {
            failed = Some((e.to_string(), before));
            break;
        }
    }
    let (e, before) = failed.expect("two balls pressed together stop the run");
    assert!(e.contains("time stopped advancing"), "{e}");
    assert!(
        before.0 > 0,
        "the balls collided before the failing interval"
    );
    assert_eq!((w.collisions(), w.virial()), (before.0, before.1));
    assert_eq!((&w.balls().x, &w.balls().y), (&before.2.x, &before.2.y));
}

/// Dropped into a V of two faces at 45 degrees (a polyline), off its axis so that it
/// bounces from face to face, a ball (e = 1/2) comes to rest wedged: centre on the
/// axis, `r sqrt(2)` above the vertex, velocity exactly zero.
#[test]
fn a_ball_dropped_into_a_v_comes_to_rest_wedged_at_its_bottom() {
    let walls = r#"
        [[walls]]
        kind = "polyline"
        points = [[50.0, 50.0], [100.0, 100.0], [150.0, 50.0]]
    "#;
    for x0 in [100.0, 97.0, 104.5] {
        let balls = format!("[[balls]]\nx = {x0}\ny = 60.0\nr = 2.0");
        let mut w = scene(&balls, walls, 0.5, 1.0);
        w.run_steps(60).unwrap();
        let b = w.balls();
        assert_eq!((b.vx[0], b.vy[0]), (0.0, 0.0), "x0 {x0}: at rest");
        let y = 100.0 - 2.0 * 2f64.sqrt();
        assert!(
            (b.x[0] - 100.0).abs() < 1e-9 && (b.y[0] - y).abs() < 1e-9,
            "x0 {x0}: ({}, {}) against (100, {y})",
            b.x[0],
            b.y[0]
        );
    }
}

/// Two balls resting on a long shelf, one moving into the other: an elastic impact
/// along the shelf exchanges their velocities (equal masses, the line of centres
/// along the face, so the shelf takes no impulse), and both stay on it.
#[test]
fn two_balls_on_a_shelf_meet_as_on_a_line() {
    let walls = r#"
        [[walls]]
        kind = "segment"
        points = [[10.0, 50.0], [190.0, 50.0]]
    "#;
    let balls = r#"
        [[balls]]
        x = 30.0
        y = 49.0
        vx = 2.0
        r = 1.0
        [[balls]]
        x = 50.0
        y = 49.0
        r = 1.0
    "#;
    let mut w = scene(balls, walls, 1.0, 1.0);
    w.run_steps(20).unwrap();
    // They touch when the gap of 18 is closed, at t = 9; then the second goes on at 2.
    let b = w.balls();
    assert!((b.x[0] - 48.0).abs() < 1e-12, "first at {}", b.x[0]);
    assert!(
        (b.x[1] - (50.0 + 2.0 * 11.0)).abs() < 1e-12,
        "second at {}",
        b.x[1]
    );
    assert_eq!((b.y[0], b.y[1]), (49.0, 49.0), "both still on the shelf");
    assert!(b.vx[0].abs() < 1e-15 && (b.vx[1] - 2.0).abs() < 1e-15);
    assert_eq!(w.collisions(), 1);
}

/// A polyline shelf that bends down 45 degrees at x = 60 (a convex joint): a ball
/// sliding along it at `v0 >= sqrt(g r)` leaves at the joint on the parabola from it
/// (no impact at the joint, which it only grazes) and lands on the slope later, at the
/// larger root of `(g/2) tau^2 - v0 tau - (sqrt(2) - 1) r = 0` (its centre one radius
/// from the slope's line). Slower, it would roll over the joint: the step fails by
/// name, it does not stall.
#[test]
fn a_ball_leaves_a_convex_joint_on_its_parabola_or_rolls_over_it_onto_the_slope() {
    let walls = r#"
        [[walls]]
        kind = "polyline"
        points = [[20.0, 50.0], [60.0, 50.0], [90.0, 80.0]]
    "#;
    let v0 = 5.0;
    let balls = format!("[[balls]]\nx = 30.0\ny = 49.0\nvx = {v0}\nr = 1.0");
    let mut w = scene(&balls, walls, 0.5, 0.1);
    // Off the joint at t = 6; on the slope at 6 + tau_land.
    let tau_land = (v0 + (v0 * v0 + 2.0 * G * (2f64.sqrt() - 1.0)).sqrt()) / G;
    assert!(tau_land > 0.9);
    w.run_steps(69).unwrap();
    let tau = 6.9 - 6.0;
    let b = w.balls();
    let want = [60.0 + v0 * tau, 49.0 + 0.5 * G * tau * tau];
    assert!(
        (b.x[0] - want[0]).abs() < 1e-10 && (b.y[0] - want[1]).abs() < 1e-10,
        "({}, {}) against {want:?}",
        b.x[0],
        b.y[0]
    );
    assert_eq!(w.collisions(), 0, "the joint is not an impact");
    w.run_steps(2).unwrap();
    assert!(w.collisions() >= 1, "it lands on the slope before t = 7.1");

    // Slow enough that the push would vanish only past 45 degrees, it rolls over the
    // joint onto the slope at 45 degrees, tangentially, and slides down it at
    // g sin(45): the time round the joint from the energy integral, the speed there
    // from energy, then uniform acceleration along the slope.
    let r = 1.0;
    for v0 in [0.5f64, 1.0] {
        let phi = std::f64::consts::FRAC_PI_4;
        // Released only past 45 degrees: cos(release) below cos(45).
        assert!((2.0 + v0 * v0 / (G * r)) / 3.0 < phi.cos());
        let balls = format!("[[balls]]\nx = 30.0\ny = 49.0\nvx = {v0}\nr = 1.0");
        let mut w = scene(&balls, walls, 0.5, 0.5);
        let t_joint = 30.0 / v0 + roll_time(v0, r, phi);
        let v1 = (v0 * v0 + 2.0 * G * r * (1.0 - phi.cos())).sqrt();
        let steps = ((t_joint + 1.0) / 0.5).ceil() as u64;
        w.run_steps(steps).unwrap();
        let tau = steps as f64 * 0.5 - t_joint;
        let a = G * phi.sin();
        let s = v1 * tau + 0.5 * a * tau * tau;
        let u = [phi.cos(), phi.sin()];
        let want = [60.0 + r * u[1] + s * u[0], 50.0 - r * u[0] + s * u[1]];
        let b = w.balls();
        assert!(
            (b.x[0] - want[0]).abs() < 1e-9 && (b.y[0] - want[1]).abs() < 1e-9,
            "v0 {v0}: ({}, {}) against {want:?}",
            b.x[0],
            b.y[0]
        );
        assert_eq!(
            w.collisions(),
            0,
            "v0 {v0}: the joint and the landing are not impacts"
        );
    }
}

/// A ball sliding down a slope of 3 in 4 from rest leaves its free lower end at the
/// time and speed of uniform acceleration `g sin(theta)` over the distance, and flies
/// on the parabola from there: `T = sqrt(2 L / a)`, `V = a T`, then free fall.
#[test]
fn a_ball_slides_off_the_free_end_of_a_slope_onto_its_parabola() {
    let walls = r#"
        [[walls]]
        kind = "segment"
        points = [[20.0, 40.0], [60.0, 70.0]]
    "#;
    let (u, n) = ([0.8, 0.6], [0.6, -0.8]);
    let start = [20.0 + 10.0 * u[0] + n[0], 40.0 + 10.0 * u[1] + n[1]];
    let balls = format!("[[balls]]\nx = {}\ny = {}\nr = 1.0", start[0], start[1]);
    let mut w = scene(&balls, walls, 0.5, 0.1);
    let a = G * 0.6;
    let t_end = (2.0 * 40.0 / a).sqrt();
    let v = a * t_end;
    w.run_steps(42).unwrap();
    let tau = 4.2 - t_end;
    assert!(tau > 0.0);
    let launch = [60.0 + n[0], 70.0 + n[1]];
    let want = [
        launch[0] + v * u[0] * tau,
        launch[1] + v * u[1] * tau + 0.5 * G * tau * tau,
    ];
    let b = w.balls();
    // Positions near 70 after a slide of 3.7 time units: a few 1e-14 per operation.
    assert!(
        (b.x[0] - want[0]).abs() < 1e-10 && (b.y[0] - want[1]).abs() < 1e-10,
        "({}, {}) against {want:?}",
        b.x[0],
        b.y[0]
    );
    assert_eq!(w.collisions(), 0);
}

/// Random scenes of shelves, slopes, V hoppers, and pegs over a bowl, with a dozen
/// balls dropped on them (e from 0.3 to 0.8): the model either runs on, or stops with
/// its one documented verdict, balls pressed together needing endlessly many
/// collisions, which takes two balls or more: a single ball, on faces, round corners
/// and pegs, in the bowl, or wedged between any two of them, never stalls.
#[test]
fn random_walled_scenes_under_gravity_never_stall_a_lone_ball() {
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut verdicts = [0usize; 2];
    for scene_no in 0..16 {
        let mut walls = String::new();
        match scene_no % 4 {
            0 => {
                let (a, gap) = (20.0 + 25.0 * rnd(), 8.0 * rnd());
                walls += &format!(
                    "[[walls]]\nkind = \"polyline\"\npoints = [[5.0, {a}], [{}, 70.0]]\n",
                    50.0 - gap / 2.0
                );
                walls += &format!(
                    "[[walls]]\nkind = \"polyline\"\npoints = [[{}, 70.0], [95.0, {}]]\n",
                    50.0 + gap / 2.0,
                    a + 10.0 * rnd() - 5.0
                );
            }
            1 => {
                for _ in 0..4 {
                    let (x0, y0, len) = (60.0 * rnd(), 20.0 + 70.0 * rnd(), 15.0 + 25.0 * rnd());
                    let ang = (70.0 * rnd() - 35.0f64).to_radians();
                    walls += &format!(
                        "[[walls]]\nkind = \"segment\"\npoints = [[{x0}, {y0}], [{}, {}]]\n",
                        x0 + len * ang.cos(),
                        y0 + len * ang.sin()
                    );
                }
            }
            3 => {
                // Pegs over a bowl (the lower half of a circle, seen from inside).
                for _ in 0..6 {
                    walls += &format!(
                        "[[walls]]\nkind = \"circle\"\ncenter = [{}, {}]\nradius = {}\n",
                        10.0 + 80.0 * rnd(),
                        25.0 + 40.0 * rnd(),
                        0.5 + 2.5 * rnd()
                    );
                }
                walls += "[[walls]]\nkind = \"arc\"\ncenter = [50.0, 50.0]\nradius = 45.0\n";
                walls += "from = 0.0\nto = 180.0\n";
            }
            _ => {
                for _ in 0..5 {
                    let (x0, y0, len) = (70.0 * rnd(), 20.0 + 75.0 * rnd(), 10.0 + 20.0 * rnd());
                    let bend = [0.0, 0.0, 2.0, -2.0][(4.0 * rnd()) as usize];
                    walls += &format!(
                        "[[walls]]\nkind = \"polyline\"\npoints = [[{x0}, {y0}], [{}, {}], [{}, {}]]\n",
                        x0 + len,
                        y0 + bend,
                        x0 + len + 5.0,
                        y0 + bend + 5.0
                    );
                }
            }
        }
        let mut balls = String::new();
        for slot in 0..20 {
            if rnd() < 0.5 {
                continue;
            }
            balls += &format!(
                "[[balls]]\nx = {}\ny = {}\nvx = {}\nvy = {}\nr = {}\n",
                5.0 + 4.5 * slot as f64,
                3.0 + 13.0 * rnd(),
                10.0 * rnd() - 5.0,
                4.0 * rnd() - 2.0,
                0.8 + 1.2 * rnd()
            );
        }
        let e = [0.3, 0.5, 0.8][scene_no % 3];
        let mut w = scene(&balls, &walls, e, 0.05);
        match w.run_steps(300) {
            Ok(()) => verdicts[0] += 1,
            Err(err) => {
                let m = err.to_string();
                let pressed =
                    m.contains("time stopped advancing") && !m.contains("involved 1 ball");
                assert!(pressed, "scene {scene_no}: {m}\n{walls}{balls}");
                verdicts[1] += 1;
            }
        }
    }
    eprintln!("ran on, pressed: {verdicts:?}");
}
