//! Balls resting on the straight faces of walls inside the table under gravity, in the
//! `event` model, against the mechanics written here: a ball on a frictionless slope
//! slides with `g sin(theta)` along it; one pushed off the end of a shelf leaves it in
//! free flight when `v^2 >= g r` (nothing needs to hold it on the corner) and lands on
//! the parabola from the corner; slower, it would roll over the corner, which the model
//! does not follow and says so; a ball dropped into a V comes to rest wedged at the
//! point where it touches both faces; two balls on a shelf meet as on a line.

use carom::parse::{build_world, parse_scenario, Format};
use carom::World;

const G: f64 = 9.81;

fn world(toml: &str) -> World {
    let s = parse_scenario(toml, Format::Toml).unwrap_or_else(|e| panic!("{e}"));
    build_world(&s).unwrap_or_else(|e| panic!("{e}"))
}

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

/// Slower than `sqrt(g r)`, the ball would roll over the corner on a circle about it:
/// not a parabola, which the event model does not follow. The step fails, naming the
/// ball and the wall, with the balls put back as at the start of the interval.
#[test]
fn a_ball_too_slow_to_leave_a_corner_stops_the_run_by_name() {
    let balls = "[[balls]]\nx = 30.0\ny = 49.0\nvx = 2.0\nr = 1.0";
    let mut w = scene(balls, SHELF, 0.5, 1.0);
    // It reaches the end at t = 35, within the 35th interval.
    w.run_steps(34).unwrap();
    let before = w.balls().clone();
    let e = w.run_steps(1).expect_err("the corner is not followed");
    let e = e.to_string();
    assert!(
        e.contains("ball 0") && e.contains("walls[0]") && e.contains("corner"),
        "{e}"
    );
    assert_eq!(w.balls().x, before.x, "the interval is rewound");
    assert_eq!(w.balls().vx, before.vx);
}

/// A failed step puts back what its impacts counted too: a ball strikes another on a
/// shelf (an impulse, a collision, a pair virial) and the struck one then comes too
/// slowly to the shelf's end, within one output interval. After the failure the
/// collision count and the virial (from which the pressure is averaged) are what they
/// were at the interval's start: zero.
#[test]
fn a_failed_step_puts_back_its_collisions_and_virial() {
    let balls = r#"
        [[balls]]
        x = 90.0
        y = 49.0
        vx = 1.0
        r = 1.0
        [[balls]]
        x = 97.0
        y = 49.0
        r = 1.0
    "#;
    // B meets A at t = 5, A reaches the end at t = 8 at speed 1 < sqrt(g r).
    let mut w = scene(balls, SHELF, 1.0, 10.0);
    let e = w.run_steps(1).expect_err("the corner is not followed");
    assert!(e.to_string().contains("ball 1"), "{e}");
    assert_eq!((w.collisions(), w.virial()), (0, 0.0));
    assert_eq!((w.balls().x[0], w.balls().x[1]), (90.0, 97.0));
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
fn a_ball_leaves_a_convex_joint_on_its_parabola_or_stops_by_name() {
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

    let balls = "[[balls]]\nx = 30.0\ny = 49.0\nvx = 2.0\nr = 1.0";
    let mut w = scene(balls, walls, 0.5, 1.0);
    w.run_steps(14).unwrap();
    let e = w
        .run_steps(1)
        .expect_err("rolling over the joint is not followed");
    let e = e.to_string();
    assert!(
        e.contains("ball 0") && e.contains("walls[0]") && e.contains("corner"),
        "{e}"
    );
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

/// Random scenes of shelves, slopes and V hoppers with a dozen balls dropped on them
/// (e from 0.3 to 0.8): the model either runs on, or stops with one of its two
/// documented verdicts: a ball rolling over a corner (by name), or balls pressed
/// together needing endlessly many collisions, which takes two balls or more: a single
/// ball on straight faces never stalls.
#[test]
fn random_walled_scenes_under_gravity_never_stall_a_lone_ball() {
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    for scene_no in 0..12 {
        let mut walls = String::new();
        match scene_no % 3 {
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
        if let Err(err) = w.run_steps(300) {
            let m = err.to_string();
            let corner = m.contains("comes to rest against a corner or an arc");
            let pressed = m.contains("time stopped advancing") && !m.contains("involved 1 ball");
            assert!(corner || pressed, "scene {scene_no}: {m}\n{walls}{balls}");
        }
    }
}
