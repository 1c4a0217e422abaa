//! Walls inside the table, pockets and open edges under the hard-contact stepping
//! models, `impulse` and `simultaneous`, each against the physics written here.
//!
//! Both models find a contact at the end of the step in which the ball came to
//! overlap the wall, and then apply the instantaneous law along the contact's normal.
//! For a face the normal is the face's own, wherever the ball stands, so the outgoing
//! velocity is exact to round-off; for a point (a free end) the normal is read a
//! fraction of a step late, which turns it by at most `v dt / r` radians. A concave
//! corner separates the two models: `impulse` reflects off its two faces one after the
//! other, `simultaneous` solves them as one cluster.

use crate::common;
use carom::parse::{build_world, parse_scenario, Format};
use carom::walls::Exit;
use carom::World;
use common::scene::{run_past, world};

const MODELS: [&str; 2] = ["impulse", "simultaneous"];

/// One ball (radius 1, mass 1) and the given walls on a 200 x 200 table.
fn one_ball(model: &str, dt: f64, ball: &str, walls: &str, extra: &str) -> World {
    world(&format!(
        r#"
        [table]
        width = 200.0
        height = 200.0
        [physics]
        model = "{model}"
        dt = {dt}
        {extra}
        [[balls]]
        {ball}
        r = 1.0
        {walls}
        "#
    ))
}

/// A ball meets a segment inclined at `angle` with speed 1 at 45 degrees to its
/// normal: it leaves with the normal part reversed and scaled by the wall's e and the
/// tangential part kept. The face's normal is fixed, so this holds to round-off (the
/// normal is recomputed from coordinates of size 100: a few 1e-14) in both models;
/// one collision.
#[test]
fn an_oblique_segment_reflects_the_normal_part_and_keeps_the_tangential() {
    for model in MODELS {
        for angle_deg in [0.0f64, 10.0, 30.0, 45.0, 60.0, 135.0] {
            for e in [1.0, 0.5] {
                let a = angle_deg.to_radians();
                let t = [a.cos(), a.sin()];
                let n = [-t[1], t[0]];
                let s = 1.0 / 2f64.sqrt();
                let v = [(-n[0] + t[0]) * s, (-n[1] + t[1]) * s];
                let start = [100.0 + 5.0 * n[0], 100.0 + 5.0 * n[1]];
                let walls = format!(
                    "[[walls]]\nkind = \"segment\"\npoints = [[{}, {}], [{}, {}]]\nrestitution = {e}",
                    100.0 - 50.0 * t[0],
                    100.0 - 50.0 * t[1],
                    100.0 + 50.0 * t[0],
                    100.0 + 50.0 * t[1]
                );
                let ball = format!(
                    "x = {}\ny = {}\nvx = {}\nvy = {}",
                    start[0], start[1], v[0], v[1]
                );
                let mut w = one_ball(model, 0.01, &ball, &walls, "");
                run_past(&mut w, 12.0);
                let b = w.balls();
                let vn = b.vx[0] * n[0] + b.vy[0] * n[1];
                let vt = b.vx[0] * t[0] + b.vy[0] * t[1];
                let at = format!("{model}, {angle_deg} deg, e {e}");
                assert!((vt - s).abs() < 1e-13, "{at}: vt {vt}");
                assert!((vn - e * s).abs() < 1e-13, "{at}: vn {vn}");
                assert_eq!(w.collisions(), 1, "{at}");
                // Back on the side it came from, never through the wall.
                let side = (b.x[0] - 100.0) * n[0] + (b.y[0] - 100.0) * n[1];
                assert!(side > 1.0 - 0.01, "{at}: side {side}");
            }
        }
    }
}

/// A free end is a point: a ball coming along y = 100 - b meets the end of a segment on
/// y = 100 at impact parameter b and leaves turned by `2 asin(b)`, speed kept (e = 1).
/// The contact is seen up to one step late, when the centre has moved up to `v dt`
/// past the touching point: the normal, and with it the half-turn, is off by at most
/// `v dt / (r - v dt)`, so the turn by at most twice that.
#[test]
fn a_free_end_acts_as_a_point() {
    let dt = 1e-4;
    for model in MODELS {
        for b in [0.0f64, 0.3, 0.7, 0.95] {
            let walls = "[[walls]]\nkind = \"segment\"\npoints = [[50.0, 100.0], [100.0, 100.0]]";
            let ball = format!("x = 110.0\ny = {}\nvx = -1.0\nvy = 0.0", 100.0 - b);
            let mut w = one_ball(model, dt, &ball, walls, "");
            run_past(&mut w, 14.0);
            let bb = w.balls();
            let turned = bb.vy[0].atan2(bb.vx[0]).abs();
            let speed = bb.vx[0].hypot(bb.vy[0]);
            let tol = 2.0 * dt / (1.0 - dt);
            assert!((speed - 1.0).abs() < 1e-13, "{model} b {b}: speed {speed}");
            assert!(
                (turned - 2.0 * b.asin()).abs() < tol,
                "{model} b {b}: {turned} against {}",
                2.0 * b.asin()
            );
        }
    }
}

/// Into a V whose faces meet at `opening` degrees, along its bisector: both faces are
/// touched in the same step. `simultaneous` solves them as one problem: the ball's
/// velocity lies in the cone of the two normals, so the whole of it is the projection
/// and the ball comes straight back at e times its speed, whatever the opening.
/// `impulse` reflects off the first face, then (if still approaching) off the second,
/// which the test computes by hand; for a right angle the normals are orthogonal and
/// the two orders agree.
#[test]
fn a_concave_corner_is_two_contacts_in_sequence_or_one_cluster() {
    for opening in [90.0f64, 120.0] {
        for e in [1.0, 0.4] {
            let h = (opening / 2.0).to_radians();
            // Faces from the vertex (100, 100) up-left and up-right, 50 long.
            let (l, r) = ([-h.sin(), h.cos()], [h.sin(), h.cos()]);
            let walls = format!(
                "[[walls]]\nkind = \"polyline\"\npoints = [[{}, {}], [100.0, 100.0], [{}, {}]]\nrestitution = {e}",
                100.0 + 50.0 * l[0],
                100.0 + 50.0 * l[1],
                100.0 + 50.0 * r[0],
                100.0 + 50.0 * r[1]
            );
            // Normals into the V: the left face's turned towards +x, the right's to -x.
            let n1 = [h.cos(), h.sin()];
            let n2 = [-h.cos(), h.sin()];
            let v0 = [0.0, -1.0];
            let reflect = |v: [f64; 2], n: [f64; 2]| {
                let u = v[0] * n[0] + v[1] * n[1];
                if u < 0.0 {
                    [v[0] - (1.0 + e) * u * n[0], v[1] - (1.0 + e) * u * n[1]]
                } else {
                    v
                }
            };
            let sequential = reflect(reflect(v0, n1), n2);
            let ball = "x = 100.0\ny = 110.0\nvx = 0.0\nvy = -1.0";
            for model in MODELS {
                let mut w = one_ball(model, 1e-3, ball, &walls, "");
                // The faces are touched when the centre is r / sin(h) from the vertex: before t = 9.
                run_past(&mut w, 20.0);
                let b = w.balls();
                let want = if model == "simultaneous" {
                    [0.0, e]
                } else {
                    sequential
                };
                let at = format!("{model}, {opening} deg, e {e}");
                assert!(
                    (b.vx[0] - want[0]).abs() < 1e-12 && (b.vy[0] - want[1]).abs() < 1e-12,
                    "{at}: ({}, {}) against {want:?}",
                    b.vx[0],
                    b.vy[0]
                );
            }
            if opening == 90.0 {
                assert!((sequential[0]).abs() < 1e-15 && (sequential[1] - e).abs() < 1e-15);
            } else {
                // The orders differ: the sequential result leaves along a side.
                assert!(sequential[0].abs() > 0.1, "{sequential:?}");
            }
        }
    }
}

/// A ball dropped onto the inside of a turning ring meets a surface that moves at
/// `S = surface_velocity` along it. With the wall's own `mu` large and the default
/// tangential restitution 0, the rough-disk law stops the slip of the contact point
/// against the surface: from rest, a solid disk (tangential compliance `3/m`) leaves
/// with `v_t = S/3` along the surface's motion (and `omega r = 2S/3`). Later bounces
/// find no slip left, save what the ring's curvature adds: the ball travels under 0.2
/// along a rim of radius 49 in the run, so normals turn by under 0.005 rad and the
/// normal impulses (about 2 each) add under 0.01 along x; 0.02 is the tolerance.
#[test]
fn a_moving_wall_surface_drags_a_ball_along() {
    for model in MODELS {
        // A circle turning towards increasing angle (+x towards +y): at its lowest
        // point (largest y, angle 90 degrees) its surface moves towards -x.
        let walls = "[[walls]]\nkind = \"circle\"\ncenter = [100.0, 100.0]\nradius = 50.0\nsurface_velocity = 2.0\nmu = 5.0";
        let ball = "x = 100.0\ny = 148.9\nvx = 0.0\nvy = 0.0";
        let extra = "gravity = [0.0, 10.0]\nrestitution = 0.5";
        let mut w = one_ball(model, 1e-4, ball, walls, extra);
        run_past(&mut w, 0.3);
        let b = w.balls();
        assert!(
            (b.vx[0] + 2.0 / 3.0).abs() < 0.02,
            "{model}: vx {} against -S/3",
            b.vx[0]
        );
        let r = (b.x[0] - 100.0).hypot(b.y[0] - 100.0);
        assert!(r < 49.0 + 0.01, "{model}: inside the ring ({r})");
    }
}

/// A pocket and an open edge take balls at the time their straight paths enter
/// (found a step late and put back along the path: exact for straight motion); a ball
/// out of play is met by nothing: a ball rolling over the place where another left
/// passes straight on.
#[test]
fn exits_at_the_analytic_time_and_out_of_play_balls_meet_nothing() {
    for model in MODELS {
        let toml = common::fixtures::pocket_and_open_edge(
            model,
            0.05,
            "x = 120.0\ny = 30.0\nvx = 2.0\nr = 5.0",
        );
        let mut w = world(&toml);
        w.run_steps(2000).unwrap();
        let (r0, r1, r2) = (
            w.removal(0).unwrap(),
            w.removal(1).unwrap(),
            w.removal(2).unwrap(),
        );
        assert_eq!(r1.by, Exit::Left, "{model}");
        assert!((r1.time - 50.0 / 2.5).abs() < 1e-9, "{model}: {}", r1.time);
        // Ball 2 reaches the pocket first (t = 26), ball 0 follows on the same line
        // (t = 50.67) and passes through where ball 2 rests without meeting it.
        assert_eq!(r2.by, Exit::Pocket(0), "{model}");
        assert_eq!(r0.by, Exit::Pocket(0), "{model}");
        assert!((r2.time - 52.0 / 2.0).abs() < 1e-9, "{model}: {}", r2.time);
        assert!((r0.time - 152.0 / 3.0).abs() < 1e-9, "{model}: {}", r0.time);
        assert_eq!(w.collisions(), 0, "{model}");
    }
}

/// Balls poured through a funnel of segments and a peg onto a V, with friction on one
/// wall: one thread and two give the same bits (walls are met per ball, in ball and
/// piece order), and a run resumed from its state file half way continues to the same
/// bits.
#[test]
fn walled_runs_are_identical_on_any_threads_and_resume_bit_for_bit() {
    for model in MODELS {
        let toml = format!(
            r#"
            [table]
            width = 120.0
            height = 100.0
            boundary = ["walls", "open"]
            [physics]
            model = "{model}"
            dt = 0.01
            restitution = 0.5
            gravity = [0.0, 1.0]
            [[generators]]
            kind = "lattice"
            nx = 12
            ny = 6
            x0 = 15.0
            y0 = 8.0
            dx = 8.0
            dy = 6.0
            r = 2.5
            vx = 0.3
            [[walls]]
            kind = "polyline"
            points = [[5.0, 50.0], [55.0, 80.0]]
            [[walls]]
            kind = "polyline"
            points = [[65.0, 80.0], [115.0, 50.0]]
            mu = 0.8
            [[walls]]
            kind = "circle"
            center = [60.0, 55.0]
            radius = 4.0
            "#
        );
        let steps = 3000;
        let run = |threads: usize| {
            let mut w = world(&toml);
            w.set_threads(threads).unwrap();
            w.run_steps(steps).unwrap();
            w
        };
        let (a, b) = (run(1), run(2));
        assert_eq!(a.balls(), b.balls(), "{model}");
        assert!(
            a.in_play_count() < 72,
            "{model}: some grains fell through the gap"
        );
        assert!(a.in_play_count() > 0, "{model}");

        let mut first = world(&toml);
        first.run_steps(steps / 2).unwrap();
        let state = carom::state::snapshot(&first, 100.0);
        let text = serde_json::to_string(&state).unwrap();
        let s = parse_scenario(&text, Format::Json).unwrap();
        let mut resumed = build_world(&s).unwrap();
        resumed.run_steps(steps / 2).unwrap();
        assert_eq!(resumed.balls(), a.balls(), "{model}");
        for i in 0..a.balls().len() {
            assert_eq!(resumed.removal(i), a.removal(i), "{model} ball {i}");
        }
    }
}
