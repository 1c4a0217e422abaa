//! Walls inside the table, pockets and open edges under the `spring` model, each
//! against the physics written here: reflection off an oblique segment and off an
//! endpoint, a concave corner, a collinear joint, a disk rolling or sliding down an
//! incline, a grain on a turning drum, exits at the analytic time, resuming, threads.

use crate::common;
use carom::parse::{build_world, parse_scenario, Format};
use carom::walls::Exit;
use carom::World;
use common::scene::{run_past, world};

/// A scene of one ball (radius 1, mass 1) and the given walls on a 200 x 200 table,
/// frictionless, with a stiff spring (`k = 1e6`, contact time `pi sqrt(m/k)` =
/// 3.1e-3) resolved by 60 steps per contact.
fn one_ball(ball: &str, walls: &str, extra: &str) -> World {
    world(&format!(
        r#"
        [table]
        width = 200.0
        height = 200.0
        [physics]
        model = "spring"
        stiffness = 1e6
        dt = 5.2e-5
        integrator = "velocity-verlet"
        {extra}
        [[balls]]
        {ball}
        r = 1.0
        {walls}
        "#
    ))
}

/// A ball meets a segment inclined at `angle` to the x axis, with speed 1 at 45
/// degrees to its normal. The wall's force is along the segment's fixed normal, so
/// the tangential velocity is kept to round-off, and the normal part comes back
/// reversed and scaled by the restitution e. The spring model's rebound matches e to
/// the splitting of the turning step (docs/models.md: within 0.3% at 10 steps per contact;
/// here 60, so 0.2% is ample).
#[test]
fn an_oblique_segment_reflects_the_normal_part_and_keeps_the_tangential() {
    for angle_deg in [10.0f64, 30.0, 45.0, 60.0] {
        for e in [1.0, 0.6] {
            let a = angle_deg.to_radians();
            let (c, s) = (100.0, 100.0);
            let t = [a.cos(), a.sin()];
            // The left normal: the ball starts on that side, 5 units away.
            let n = [-t[1], t[0]];
            let v = [(-n[0] + t[0]) / 2f64.sqrt(), (-n[1] + t[1]) / 2f64.sqrt()];
            let start = [c + 5.0 * n[0] - 3.0 * t[0], s + 5.0 * n[1] - 3.0 * t[1]];
            let walls = format!(
                "[[walls]]\nkind = \"segment\"\npoints = [[{}, {}], [{}, {}]]\nrestitution = {e}",
                c - 50.0 * t[0],
                s - 50.0 * t[1],
                c + 50.0 * t[0],
                s + 50.0 * t[1]
            );
            let ball = format!(
                "x = {}\ny = {}\nvx = {}\nvy = {}",
                start[0], start[1], v[0], v[1]
            );
            let mut w = one_ball(&ball, &walls, "");
            run_past(&mut w, 12.0);
            let b = w.balls();
            let (vn, vt) = (
                b.vx[0] * n[0] + b.vy[0] * n[1],
                b.vx[0] * t[0] + b.vy[0] * t[1],
            );
            let (vn0, vt0) = (v[0] * n[0] + v[1] * n[1], v[0] * t[0] + v[1] * t[1]);
            assert!(
                (vt - vt0).abs() < 1e-12,
                "{angle_deg} deg, e {e}: tangential {vt} against {vt0}"
            );
            assert!(
                (vn / (-e * vn0) - 1.0).abs() < 2e-3,
                "{angle_deg} deg, e {e}: normal {vn} against {}",
                -e * vn0
            );
            assert_eq!(w.collisions(), 1);
        }
    }
}

/// Off a segment's free end a ball bounces as off a fixed point: the velocity is
/// reflected about the line from the point to the centre at contact, which for an
/// impact parameter `b` (ball radius r) turns the velocity by `pi - 2 asin(b / r)`.
/// A stiff spring gives way by `delta = v sqrt(m / k)` = 1e-3 of the radius, so the
/// contact normal turns a little while it acts; 1e-2 radians covers it.
#[test]
fn a_free_end_acts_as_a_point() {
    for b in [0.0f64, 0.3, 0.7] {
        // The segment runs from (100, 100) to the left; the ball comes from the right
        // along y = 100 - b... offset so that the end is hit at impact parameter b.
        let walls = "[[walls]]\nkind = \"segment\"\npoints = [[50.0, 100.0], [100.0, 100.0]]";
        let ball = format!("x = 110.0\ny = {}\nvx = -1.0\nvy = 0.0", 100.0 - b);
        let mut w = one_ball(&ball, walls, "");
        run_past(&mut w, 14.0);
        let bb = w.balls();
        let turned = bb.vy[0].atan2(bb.vx[0]).abs();
        // The incoming direction is pi (moving left); the outgoing one makes the angle
        // 2 asin(b) with the reversed direction.
        let expected = 2.0 * (b / 1.0f64).asin();
        let speed = bb.vx[0].hypot(bb.vy[0]);
        assert!((speed - 1.0).abs() < 1e-3, "b {b}: speed {speed}");
        assert!(
            (turned - expected).abs() < 1e-2,
            "b {b}: leaves at {turned} rad from +x, expected {expected}"
        );
    }
}

/// A ball driven along the bisector into a right-angle corner of one polyline touches
/// both faces at once; the two equal pushes send it back along the bisector. (A wall
/// that felt only its nearest piece would push along one normal and send it off at
/// 90 degrees to that face.)
#[test]
fn a_concave_corner_returns_a_ball_along_its_bisector() {
    let walls =
        "[[walls]]\nkind = \"polyline\"\npoints = [[50.0, 150.0], [100.0, 100.0], [150.0, 150.0]]";
    // The corner opens downwards (y grows down): the bisector is the vertical x = 100.
    let ball = "x = 100.0\ny = 110.0\nvx = 0.0\nvy = -1.0";
    let mut w = one_ball(ball, walls, "");
    run_past(&mut w, 14.0);
    let b = w.balls();
    assert!(b.vx[0].abs() < 1e-12, "vx {}", b.vx[0]);
    assert!((b.vy[0] - 1.0).abs() < 1e-3, "vy {}", b.vy[0]);
}

/// Over the joint of two collinear segments of one polyline a ball feels one face,
/// never a bump: its bounce there equals its bounce off one straight segment.
#[test]
fn a_collinear_joint_bounces_like_a_straight_segment() {
    let ball = "x = 97.0\ny = 95.0\nvx = 0.6\nvy = 0.8";
    let mut joint = one_ball(
        ball,
        "[[walls]]\nkind = \"polyline\"\npoints = [[20.0, 100.0], [100.0, 100.0], [180.0, 100.0]]",
        "",
    );
    let mut straight = one_ball(
        ball,
        "[[walls]]\nkind = \"segment\"\npoints = [[20.0, 100.0], [180.0, 100.0]]",
        "",
    );
    run_past(&mut joint, 12.0);
    run_past(&mut straight, 12.0);
    let (a, b) = (joint.balls(), straight.balls());
    for (p, q) in [
        (a.vx[0], b.vx[0]),
        (a.vy[0], b.vy[0]),
        (a.x[0], b.x[0]),
        (a.y[0], b.y[0]),
    ] {
        assert!((p - q).abs() < 1e-9, "{p} against {q}");
    }
    assert_eq!(joint.collisions(), 1);
}

/// A solid disk (I = m r^2 / 2) on an incline of angle theta under gravity g rolls
/// without slipping, with `a = g sin(theta) / (1 + I / (m r^2)) = (2/3) g sin(theta)`,
/// when friction can supply the force that needs, `mu >= tan(theta) / 3`; below that
/// it slides, `a = g (sin(theta) - mu cos(theta))`. The acceleration is taken from
/// the second difference of the position along the incline over three samples 2 time
/// units apart, after the contact has settled: the contact's spring modes (periods of
/// 0.06) move the centre by about `m g / k` = 1e-4, against `a dt^2` ~ 1: 1% is ample.
#[test]
fn a_disk_on_an_incline_rolls_or_slides_as_friction_allows() {
    let g = 1.0;
    for (theta_deg, mu) in [(20.0f64, 0.5), (20.0, 0.05), (35.0, 0.3), (35.0, 0.1)] {
        let th = theta_deg.to_radians();
        // The incline descends to the right: from (20, 100) going down (y grows down).
        let t = [th.cos(), th.sin()];
        let n = [t[1], -t[0]]; // the side above the incline
        let (p0, len) = ([20.0, 60.0], 170.0);
        let p1 = [p0[0] + len * t[0], p0[1] + len * t[1]];
        let r = 2.0;
        let start = [
            p0[0] + 10.0 * t[0] + r * n[0],
            p0[1] + 10.0 * t[1] + r * n[1],
        ];
        let toml = format!(
            r#"
            [table]
            width = 200.0
            height = 200.0
            [physics]
            model = "spring"
            stiffness = 1e4
            dt = 1e-3
            restitution = 0.3
            gravity = [0.0, {g}]
            contact_friction = {{ mu = {mu} }}
            [[balls]]
            x = {}
            y = {}
            r = {r}
            [[walls]]
            kind = "segment"
            points = [[{}, {}], [{}, {}]]
            "#,
            start[0], start[1], p0[0], p0[1], p1[0], p1[1]
        );
        let mut w = world(&toml);
        run_past(&mut w, 2.0);
        let mut s = Vec::new();
        for k in 0..3 {
            run_past(&mut w, 2.0 + 2.0 * k as f64);
            let b = w.balls();
            s.push((b.x[0] - p0[0]) * t[0] + (b.y[0] - p0[1]) * t[1]);
        }
        let a = (s[2] - 2.0 * s[1] + s[0]) / 4.0;
        let rolls = mu >= th.tan() / 3.0;
        let expected = if rolls {
            2.0 / 3.0 * g * th.sin()
        } else {
            g * (th.sin() - mu * th.cos())
        };
        assert!(
            (a / expected - 1.0).abs() < 1e-2,
            "theta {theta_deg}, mu {mu} ({}): a = {a}, expected {expected}",
            if rolls { "rolls" } else { "slides" }
        );
    }
}

/// A grain at the bottom of a drum whose wall turns (surface velocity `u`) is dragged
/// by friction in the direction the wall moves, up the side, until its spin has
/// caught up; then it sits rolling on the moving wall: its contact point moves with
/// the surface, so `|omega| r = |u|`, and its centre returns to rest near the bottom.
#[test]
fn a_grain_on_a_turning_drum_is_carried_up_then_rolls_on_the_wall() {
    let (cx, cy, big_r, r, u) = (100.0, 100.0, 50.0, 2.0, 0.5);
    let toml = format!(
        r#"
        [table]
        width = 200.0
        height = 200.0
        [physics]
        model = "spring"
        stiffness = 1e4
        dt = 1e-3
        restitution = 0.3
        gravity = [0.0, 1.0]
        contact_friction = {{ mu = 0.3 }}
        [[balls]]
        x = {cx}
        y = {}
        r = {r}
        [[walls]]
        kind = "circle"
        center = [{cx}, {cy}]
        radius = {big_r}
        surface_velocity = {u}
        "#,
        cy + big_r - r
    );
    let mut w = world(&toml);
    // The surface moves towards increasing angle: at the bottom (angle 90 degrees,
    // y down) that is towards -x. The grain is carried that way: its centre's x
    // falls below the drum's centre during the spin-up.
    let mut lowest_x = f64::INFINITY;
    for _ in 0..400 {
        w.run_steps(50).unwrap();
        lowest_x = lowest_x.min(w.balls().x[0]);
    }
    assert!(
        lowest_x < cx - 0.5,
        "carried to x = {lowest_x}, drum centre {cx}"
    );
    // Now it rolls on the moving wall (swinging about the bottom like a pendulum, as
    // rolling dissipates nothing): the slip of its contact point over the surface is
    // only the tangential spring's give, far below the surface speed.
    let b = w.balls();
    let (x, y, vx, vy, om) = (b.x[0], b.y[0], b.vx[0], b.vy[0], b.omega[0]);
    let dist = (x - cx).hypot(y - cy);
    let n = [(cx - x) / dist, (cy - y) / dist]; // from the wall's point to the centre
    let along = [-(y - cy) / dist, (x - cx) / dist]; // the wall's direction of motion
    let tan = [n[1], -n[0]];
    let slip = (vx - u * along[0]) * tan[0] + (vy - u * along[1]) * tan[1] + om * r;
    assert!(
        slip.abs() < 1e-2 * u,
        "slip {slip} against surface speed {u}"
    );
    assert!(
        (dist - (big_r - r)).abs() < 0.05,
        "at {dist} from the centre"
    );
}

/// A ball rolling straight into a pocket leaves play when its centre enters the
/// pocket's disk: at `t = (x_rim - x0) / v`. The stepping model finds the crossing a
/// step late and puts it back along its straight path, exact for straight motion.
#[test]
fn a_pocket_and_an_open_edge_take_balls_at_the_analytic_time() {
    let toml =
        common::fixtures::pocket_and_open_edge("spring", 0.05, "x = 100.0\ny = 50.0\nr = 5.0");
    let mut w = world(&toml);
    w.run_steps(2000).unwrap();
    let (rp, rl) = (w.removal(0).unwrap(), w.removal(1).unwrap());
    assert_eq!(rp.by, Exit::Pocket(0));
    assert_eq!(rl.by, Exit::Left);
    assert!((rp.time - (172.0 - 20.0) / 3.0).abs() < 1e-9, "{}", rp.time);
    assert!((rl.time - 50.0 / 2.5).abs() < 1e-9, "{}", rl.time);
    assert!(w.is_in_play(2) && !w.is_in_play(0) && !w.is_in_play(1));
    // Out of play: frozen where it left, out of the diagnostics.
    let b = w.balls();
    assert_eq!((b.vx[0], b.vy[0]), (0.0, 0.0));
    let d = w.diagnostics();
    assert_eq!(d.in_play, Some(1));
    assert_eq!(d.kinetic_energy, 0.0);
    let area = std::f64::consts::PI * 25.0 / (200.0 * 100.0);
    assert!((d.packing_fraction - area).abs() < 1e-15);
}

/// A walled frictional scene (grains poured onto a V of segments under gravity) gives
/// the same bits on one thread and on two, and a run resumed from its state file half
/// way (walls, springs on walls, balls out of play) continues to the same bits.
#[test]
fn walled_frictional_runs_are_identical_on_any_threads_and_resume_bit_for_bit() {
    let toml = r#"
        [table]
        width = 120.0
        height = 100.0
        boundary = ["walls", "open"]
        [physics]
        model = "spring"
        stiffness = 2000.0
        dt = 0.005
        restitution = 0.5
        gravity = [0.0, 1.0]
        contact_friction = { mu = 0.4 }
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
        "#;
    let steps = 6000;
    let run = |threads: usize| {
        let mut w = world(toml);
        w.set_threads(threads).unwrap();
        w.run_steps(steps).unwrap();
        w
    };
    let (a, b) = (run(1), run(2));
    assert_eq!(a.balls(), b.balls());
    assert!(a.in_play_count() < 72, "some grains fell through the gap");
    assert!(a.in_play_count() > 0);

    let mut first = world(toml);
    first.run_steps(steps / 2).unwrap();
    let state = carom::state::snapshot(&first, 100.0);
    let text = serde_json::to_string(&state).unwrap();
    let s = parse_scenario(&text, Format::Json).unwrap();
    let mut resumed = build_world(&s).unwrap();
    resumed.run_steps(steps / 2).unwrap();
    assert_eq!(resumed.balls(), a.balls());
    for i in 0..a.balls().len() {
        assert_eq!(resumed.removal(i), a.removal(i), "ball {i}");
    }
}

/// Scenario errors name the entry.
#[test]
fn bad_walls_and_pockets_are_named() {
    let base = "[table]\nwidth = 100.0\nheight = 100.0\n";
    let cases = [
        ("[[walls]]\nkind = \"segment\"\npoints = [[1.0, 1.0]]", "walls[0].points"),
        ("[[walls]]\nkind = \"segment\"\npoints = [[1.0, 1.0], [1.0, 1.0]]", "walls[0].points"),
        ("[[walls]]\nkind = \"circle\"\ncenter = [1.0, 1.0]\nradius = -1.0", "walls[0].radius"),
        ("[[walls]]\nkind = \"arc\"\ncenter = [1.0, 1.0]\nradius = 1.0\nfrom = 10.0\nto = 10.0", "walls[0].to"),
        ("[[walls]]\nkind = \"segment\"\npoints = [[-10.0, -10.0], [-5.0, -1.0]]", "walls[0]"),
        ("[[walls]]\nkind = \"segment\"\npoints = [[1.0, 1.0], [5.0, 1.0]]\nradius = 2.0", "walls[0].radius"),
        ("[[pockets]]\ncenter = [500.0, 500.0]\nradius = 3.0", "pockets[0]"),
        (
            "[[balls]]\nx = 50.0\ny = 50.0\n[[walls]]\nkind = \"segment\"\npoints = [[0.0, 55.0], [100.0, 55.0]]",
            "balls[0]",
        ),
    ];
    for (extra, field) in cases {
        let s = parse_scenario(&format!("{base}{extra}"), Format::Toml).unwrap();
        let e = build_world(&s).expect_err(extra);
        assert_eq!(e.field.as_deref(), Some(field), "{extra}: {e}");
    }
}
