//! Walls inside the table, pockets and open edges under the `event` model, each
//! against the physics written here. The event model is exact: a reflection off an
//! oblique segment or a point, a concave corner, the time of a pocket or an open edge
//! hold to round-off; a thin wall is never crossed at any speed; in a circular
//! container energy and the angular momentum about its centre are conserved to
//! round-off (every wall impulse there points through the centre).

use crate::common;
use carom::parse::{build_world, parse_scenario, Format};
use carom::walls::Exit;
use carom::World;
use common::scene::world;

fn one_ball(ball: &str, walls: &str, extra: &str) -> World {
    world(&format!(
        r#"
        [table]
        width = 200.0
        height = 200.0
        [physics]
        model = "event"
        dt = 1.0
        {extra}
        [[balls]]
        {ball}
        r = 1.0
        {walls}
        "#
    ))
}

/// A ball meets a segment inclined at `angle` with speed 1 at 45 degrees to its
/// normal, from 5 away along the normal: it touches after `(5 - 1) sqrt(2)`, leaves
/// with the normal part reversed and scaled by e and the tangential part kept, and
/// then flies straight: its position at t = 12 is the reflected path's, to round-off.
#[test]
fn an_oblique_segment_reflects_exactly() {
    for angle_deg in [0.0f64, 10.0, 30.0, 45.0, 60.0, 135.0] {
        for e in [1.0, 0.5] {
            let a = angle_deg.to_radians();
            let t = [a.cos(), a.sin()];
            let n = [-t[1], t[0]];
            let v = [(-n[0] + t[0]) / 2f64.sqrt(), (-n[1] + t[1]) / 2f64.sqrt()];
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
            let mut w = one_ball(&ball, &walls, "");
            w.run_steps(12).unwrap();
            let b = w.balls();
            let (vn, vt) = (
                b.vx[0] * n[0] + b.vy[0] * n[1],
                b.vx[0] * t[0] + b.vy[0] * t[1],
            );
            // The contact normal comes from the centre and the nearest point, numbers of
            // size 100 (ulp 1.4e-14) a radius (1) apart: its direction, and so the
            // velocity, carries a few 1e-14 of round-off.
            let s = 1.0 / 2f64.sqrt();
            assert!((vt - s).abs() < 1e-13, "{angle_deg} e {e}: vt {vt}");
            assert!((vn - e * s).abs() < 1e-13, "{angle_deg} e {e}: vn {vn}");
            let hit = 4.0 * 2f64.sqrt();
            let at = [
                start[0] + hit * v[0] + (12.0 - hit) * b.vx[0],
                start[1] + hit * v[1] + (12.0 - hit) * b.vy[0],
            ];
            assert!((b.x[0] - at[0]).abs() < 1e-12 && (b.y[0] - at[1]).abs() < 1e-12);
            assert_eq!(w.collisions(), 1);
        }
    }
}

/// A free end is a point: a ball coming along y = 100 - b meets the end of a segment
/// on y = 100 at impact parameter b and leaves turned by `2 asin(b)` (radius 1),
/// speed kept.
#[test]
fn a_free_end_acts_as_a_point() {
    for b in [0.0f64, 0.3, 0.7, 0.95] {
        let walls = "[[walls]]\nkind = \"segment\"\npoints = [[50.0, 100.0], [100.0, 100.0]]";
        let ball = format!("x = 110.0\ny = {}\nvx = -1.0\nvy = 0.0", 100.0 - b);
        let mut w = one_ball(&ball, walls, "");
        w.run_steps(14).unwrap();
        let bb = w.balls();
        let turned = bb.vy[0].atan2(bb.vx[0]).abs();
        let speed = bb.vx[0].hypot(bb.vy[0]);
        assert!((speed - 1.0).abs() < 1e-13, "b {b}: speed {speed}");
        assert!(
            (turned - 2.0 * b.asin()).abs() < 1e-12,
            "b {b}: {turned} against {}",
            2.0 * b.asin()
        );
    }
}

/// Along the bisector into a right-angled concave corner: both faces at once, one
/// impact, the ball sent straight back (e = 1) or at e times its speed.
#[test]
fn a_concave_corner_returns_a_ball_along_its_bisector() {
    for e in [1.0, 0.4] {
        let walls = format!(
            "[[walls]]\nkind = \"polyline\"\npoints = [[50.0, 150.0], [100.0, 100.0], [150.0, 150.0]]\nrestitution = {e}"
        );
        let ball = "x = 100.0\ny = 110.0\nvx = 0.0\nvy = -1.0";
        let mut w = one_ball(ball, &walls, "");
        w.run_steps(14).unwrap();
        let b = w.balls();
        assert!(b.vx[0].abs() < 1e-14, "vx {}", b.vx[0]);
        assert!((b.vy[0] - e).abs() < 1e-14, "vy {}", b.vy[0]);
    }
}

/// A thin wall splits the table; a ball thrown at it at 1e6 (a million radii per unit
/// of time) bounces between it and the table's walls a hundred thousand times and is
/// always on its own side.
#[test]
fn a_thin_wall_is_never_crossed_at_any_speed() {
    let walls = "[[walls]]\nkind = \"segment\"\npoints = [[100.0, -1.0], [100.0, 201.0]]";
    for v in [1.0e3, 1.0e6] {
        let ball = format!("x = 50.0\ny = 37.0\nvx = {v}\nvy = {}", 0.37 * v);
        let mut w = one_ball(&ball, walls, "");
        for _ in 0..20 {
            w.run_steps(1).unwrap();
            let b = w.balls();
            assert!(b.x[0] <= 99.0 + 1e-9, "v {v}: x {}", b.x[0]);
        }
        // Crossing the 200 x 99 half table at v for 20 time units: of order v / 5
        // bounces.
        assert!(w.collisions() as f64 > v / 10.0, "{}", w.collisions());
    }
}

/// Twenty balls in a circular container (e = 1): energy is conserved to round-off,
/// and so is the angular momentum about the container's centre (ball-ball impulses
/// cancel in pairs; a wall impulse points through the centre), and no ball leaves it.
#[test]
fn a_circular_container_conserves_energy_and_angular_momentum() {
    let mut balls = String::new();
    for k in 0..20 {
        let a = k as f64 * 0.7;
        let rr = 10.0 + 3.0 * (k % 5) as f64;
        balls += &format!(
            "[[balls]]\nx = {}\ny = {}\nvx = {}\nvy = {}\nr = 1.5\nm = {}\n",
            100.0 + rr * a.cos(),
            100.0 + rr * a.sin(),
            (k as f64 * 1.3).sin() * 5.0,
            (k as f64 * 0.9).cos() * 5.0,
            1.0 + (k % 3) as f64
        );
    }
    let toml = format!(
        r#"
        [table]
        width = 200.0
        height = 200.0
        [physics]
        model = "event"
        dt = 5.0
        {balls}
        [[walls]]
        kind = "circle"
        center = [100.0, 100.0]
        radius = 40.0
        "#
    );
    let mut w = world(&toml);
    let measure = |w: &World| {
        let b = w.balls();
        let (mut e, mut l) = (0.0, 0.0);
        for i in 0..b.len() {
            let m = 1.0 / b.inv_m[i];
            e += 0.5 * m * (b.vx[i] * b.vx[i] + b.vy[i] * b.vy[i]);
            l += m * ((b.x[i] - 100.0) * b.vy[i] - (b.y[i] - 100.0) * b.vx[i]);
        }
        (e, l)
    };
    let (e0, l0) = measure(&w);
    w.run_steps(100).unwrap();
    let (e1, l1) = measure(&w);
    assert!(w.collisions() > 1000, "{}", w.collisions());
    assert!(((e1 - e0) / e0).abs() < 1e-12, "energy {e0} -> {e1}");
    // |L| ~ sum m r v ~ 1e3: round-off over the collisions stays far below 1e-9 of it.
    assert!(
        (l1 - l0).abs() < 1e-9 * e0.sqrt() * 40.0 * 20.0,
        "L {l0} -> {l1}"
    );
    let b = w.balls();
    for i in 0..b.len() {
        let d = (b.x[i] - 100.0).hypot(b.y[i] - 100.0);
        assert!(d <= 40.0 - 1.5 + 1e-9, "ball {i} at {d}");
    }
}

/// A ball rolling into a pocket, and one crossing an open edge, leave at the analytic
/// times (the centre within the pocket's radius; the centre on the edge), exactly.
#[test]
fn a_pocket_and_an_open_edge_take_balls_at_the_analytic_time() {
    let toml = common::fixtures::pocket_and_open_edge(
        "event",
        1.0,
        "x = 100.0\ny = 50.0\nvy = 1.0\nr = 5.0",
    );
    let mut w = world(&toml);
    w.run_steps(100).unwrap();
    let (rp, rl) = (w.removal(0).unwrap(), w.removal(1).unwrap());
    assert_eq!(rp.by, Exit::Pocket(0));
    assert_eq!(rl.by, Exit::Left);
    assert!(
        (rp.time - (172.0 - 20.0) / 3.0).abs() < 1e-12,
        "{}",
        rp.time
    );
    assert!((rl.time - 50.0 / 2.5).abs() < 1e-12, "{}", rl.time);
    assert!(w.is_in_play(2) && !w.is_in_play(0) && !w.is_in_play(1));
    let b = w.balls();
    assert_eq!((b.vx[0], b.vy[0]), (0.0, 0.0));
    // Frozen where it left: the pocket's rim, on its path.
    assert!((b.x[0] - 172.0).abs() < 1e-12 && (b.y[0] - 30.0).abs() < 1e-12);
    assert_eq!(w.diagnostics().in_play, Some(1));
}

/// A ball out of play is no obstacle: one rolling over the spot where another left
/// play passes through it.
#[test]
fn a_ball_out_of_play_is_not_met_again() {
    let toml = r#"
        [table]
        width = 200.0
        height = 100.0
        [physics]
        model = "event"
        dt = 1.0
        [[balls]]
        x = 20.0
        y = 50.0
        vx = 10.0
        r = 2.0
        [[balls]]
        x = 100.0
        y = 50.0
        vx = 1.0
        r = 2.0
        [[pockets]]
        center = [110.0, 50.0]
        radius = 4.0
        "#;
    let mut w = world(toml);
    w.run_steps(12).unwrap();
    // Ball 1 left at t = 6 at x = 106; ball 0 reaches x = 106 - 4 at t = 8.6 and goes on,
    // into the pocket itself at 20 + 10 t = 106.
    assert_eq!(w.removal(1).unwrap().by, Exit::Pocket(0));
    assert!((w.removal(1).unwrap().time - 6.0).abs() < 1e-12);
    assert!((w.removal(0).unwrap().time - 8.6).abs() < 1e-12);
    assert_eq!(w.collisions(), 0);
}

/// A closed polyline box with random balls: many collisions, no ball outside it; then
/// the same scene resumed from its state file half way continues to the same bits.
#[test]
fn a_polyline_box_holds_its_balls_and_a_resumed_run_continues_bit_for_bit() {
    let mut balls = String::new();
    for k in 0..30 {
        balls += &format!(
            "[[balls]]\nx = {}\ny = {}\nvx = {}\nvy = {}\nr = 1.0\n",
            60.0 + 8.0 * (k % 6) as f64,
            60.0 + 8.0 * (k / 6) as f64,
            ((k * 7) % 11) as f64 - 5.0,
            ((k * 5) % 13) as f64 - 6.0
        );
    }
    let toml = format!(
        r#"
        [table]
        width = 200.0
        height = 200.0
        [physics]
        model = "event"
        dt = 2.0
        restitution = 0.9
        {balls}
        [[walls]]
        kind = "polyline"
        points = [[40.0, 40.0], [160.0, 50.0], [150.0, 150.0], [45.0, 140.0]]
        closed = true
        "#
    );
    let mut a = world(&toml);
    a.run_steps(40).unwrap();
    let text = serde_json::to_string(&carom::state::snapshot(&a, 100.0)).unwrap();
    a.run_steps(40).unwrap();
    let s = parse_scenario(&text, Format::Json).unwrap();
    let mut b = build_world(&s).unwrap();
    b.run_steps(40).unwrap();
    assert!(a.collisions() > 200, "{}", a.collisions());
    let (p, q) = (a.balls(), b.balls());
    for i in 0..p.len() {
        assert_eq!(
            (p.x[i].to_bits(), p.y[i].to_bits(), p.vx[i].to_bits()),
            (q.x[i].to_bits(), q.y[i].to_bits(), q.vx[i].to_bits())
        );
        // Inside the quadrilateral: on the inner side of each edge, by a radius.
        let pts: [[f64; 2]; 4] = [[40.0, 40.0], [160.0, 50.0], [150.0, 150.0], [45.0, 140.0]];
        for k in 0..4 {
            let (u, v) = (pts[k], pts[(k + 1) % 4]);
            let d = [v[0] - u[0], v[1] - u[1]];
            let len = d[0].hypot(d[1]);
            let side = (d[0] * (p.y[i] - u[1]) - d[1] * (p.x[i] - u[0])) / len;
            assert!(side >= 1.0 - 1e-9, "ball {i} edge {k}: {side}");
        }
    }
}

/// Under gravity a ball flies on a parabola. Thrown at an inclined segment, it meets the
/// face when its centre is `r` from the face's line: `n . (p0 + v t + g t^2 / 2 - a)
/// = r`, a quadratic solved here; it leaves with the normal part of its velocity then
/// reversed and scaled by e and the tangential part kept, and flies on the new parabola.
/// All of it to round-off.
#[test]
fn under_gravity_a_parabola_meets_an_oblique_segment_at_its_exact_time() {
    let g = [0.0, 9.81];
    for (angle_deg, e) in [(20.0f64, 1.0), (-35.0, 0.6), (50.0, 0.9)] {
        let a = angle_deg.to_radians();
        let t = [a.cos(), a.sin()];
        // The normal on the side the ball comes from (above the segment, -y).
        let n = [t[1], -t[0]];
        let mid = [100.0, 150.0];
        let (p0, v0) = ([mid[0] - 20.0 * t[0] + 30.0 * n[0], 60.0], [3.0, -4.0]);
        let walls = format!(
            "[[walls]]\nkind = \"segment\"\npoints = [[{}, {}], [{}, {}]]\nrestitution = {e}",
            mid[0] - 90.0 * t[0],
            mid[1] - 90.0 * t[1],
            mid[0] + 90.0 * t[0],
            mid[1] + 90.0 * t[1]
        );
        let ball = format!(
            "x = {}\ny = {}\nvx = {}\nvy = {}",
            p0[0], p0[1], v0[0], v0[1]
        );
        let mut w = world(&format!(
            "[table]\nwidth = 200.0\nheight = 200.0\n[physics]\nmodel = \"event\"\n\
             dt = 0.01\ngravity = [0.0, 9.81]\n[[balls]]\n{ball}\nr = 1.0\n{walls}\n"
        ));
        // n . (p0 - mid) + n . v0 t + n . g t^2 / 2 = r (= 1): the smaller positive root.
        let d0 = n[0] * (p0[0] - mid[0]) + n[1] * (p0[1] - mid[1]) - 1.0;
        let (vn, gn) = (n[0] * v0[0] + n[1] * v0[1], n[0] * g[0] + n[1] * g[1]);
        let disc = vn * vn - 2.0 * gn * d0;
        let t_hit = (-vn - disc.sqrt()) / gn;
        assert!(t_hit > 0.0 && t_hit < 8.0, "{angle_deg}: t_hit {t_hit}");
        let at = |p: [f64; 2], v: [f64; 2], s: f64| {
            [
                p[0] + v[0] * s + 0.5 * g[0] * s * s,
                p[1] + v[1] * s + 0.5 * g[1] * s * s,
            ]
        };
        let p1 = at(p0, v0, t_hit);
        let v1 = [v0[0] + g[0] * t_hit, v0[1] + g[1] * t_hit];
        let u = v1[0] * n[0] + v1[1] * n[1];
        let v2 = [v1[0] - (1.0 + e) * u * n[0], v1[1] - (1.0 + e) * u * n[1]];
        // Shortly after the bounce, before anything else is met.
        let after = 0.05;
        let steps = ((t_hit + after) / 0.01).round() as u64;
        w.run_steps(steps).unwrap();
        let s = steps as f64 * 0.01 - t_hit;
        let want = at(p1, v2, s);
        let b = w.balls();
        let tag = format!("{angle_deg} deg, e {e}");
        assert_eq!(w.collisions(), 1, "{tag}");
        // Times and positions of size 100 carry round-off of a few 1e-14 each; the
        // root of the quadratic a few ulps of its terms more.
        assert!(
            (b.x[0] - want[0]).abs() < 1e-10 && (b.y[0] - want[1]).abs() < 1e-10,
            "{tag}: ({}, {}) against {want:?}",
            b.x[0],
            b.y[0]
        );
        let vw = [v2[0] + g[0] * s, v2[1] + g[1] * s];
        assert!(
            (b.vx[0] - vw[0]).abs() < 1e-10 && (b.vy[0] - vw[1]).abs() < 1e-10,
            "{tag}: v ({}, {}) against {vw:?}",
            b.vx[0],
            b.vy[0]
        );
    }
}

/// An elastic ball bouncing inside a circle under gravity, off its arc from inside (a
/// quartic in time at every bounce): energy, kinetic plus `m g (h - y)`, is kept to
/// round-off over a few hundred bounces, and the ball never leaves the circle.
#[test]
fn under_gravity_a_ball_in_a_circle_keeps_its_energy() {
    let toml = r#"
        [table]
        width = 200.0
        height = 200.0
        [physics]
        model = "event"
        dt = 1.0
        gravity = [0.0, 9.81]
        [[balls]]
        x = 90.0
        y = 80.0
        vx = 7.0
        vy = -3.0
        r = 2.0
        [[walls]]
        kind = "circle"
        center = [100.0, 100.0]
        radius = 50.0
        "#;
    let mut w = world(toml);
    let energy = |w: &World| {
        let b = w.balls();
        0.5 * (b.vx[0] * b.vx[0] + b.vy[0] * b.vy[0]) - 9.81 * b.y[0]
    };
    let e0 = energy(&w);
    for _ in 0..1000 {
        w.run_steps(1).unwrap();
        let b = w.balls();
        let d = (b.x[0] - 100.0).hypot(b.y[0] - 100.0);
        assert!(d <= 48.0 + 1e-9, "left the circle: {d}");
    }
    // A bounce about every 4 time units (the fall across the circle's height).
    assert!(w.collisions() > 150, "{}", w.collisions());
    // |E| ~ 1e3 (the potential at y ~ 100); each bounce rounds a few ulps.
    let e1 = energy(&w);
    assert!(((e1 - e0) / e0).abs() < 1e-11, "energy {e0} -> {e1}");
}

/// A ball dropped from rest above a pocket leaves play when its centre enters the
/// pocket's disk: `t = sqrt(2 (y_rim - y0) / g)`, to round-off.
#[test]
fn under_gravity_a_dropped_ball_enters_a_pocket_at_its_exact_time() {
    let toml = r#"
        [table]
        width = 200.0
        height = 200.0
        [physics]
        model = "event"
        dt = 0.1
        gravity = [0.0, 9.81]
        [[balls]]
        x = 100.0
        y = 20.0
        r = 2.0
        [[pockets]]
        center = [100.0, 150.0]
        radius = 6.0
        "#;
    let mut w = world(toml);
    w.run_steps(80).unwrap();
    let r = w.removal(0).expect("the ball left play");
    assert_eq!(r.by, Exit::Pocket(0));
    let want = (2.0 * (144.0 - 20.0) / 9.81f64).sqrt();
    assert!((r.time - want).abs() < 1e-12, "{} against {want}", r.time);
}
