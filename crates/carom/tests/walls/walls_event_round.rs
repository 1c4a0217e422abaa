//! Balls held on a circle by a wall inside the table under gravity, in the `event` model,
//! against the mechanics written here: a ball released inside a circular bowl swings as
//! a frictionless pendulum of length `R - r` (checked against the equation of motion
//! integrated by Runge-Kutta here, and energy to round-off); a ball sent round the
//! inside of a loop leaves it where the wall stops pushing, `cos(theta) = (2 g rho -
//! v0^2) / (3 g rho)` from the bottom, at the time the energy integral gives; a ball
//! rolling over the top of a peg leaves it at `cos(phi) = (2 + v0^2 / (g rho)) / 3` from
//! the top. `rho` is the distance of the ball's centre from the circle's centre.

use crate::common;

use carom::parse::{build_world, parse_scenario, Format};
use carom::World;
use common::{assert_in_flight, simpson};

const G: f64 = 9.81;
const C: [f64; 2] = [100.0, 100.0];

fn scene(balls: &str, radius: f64, dt: f64, e: f64) -> World {
    let toml = format!(
        r#"
        [table]
        width = 200.0
        height = 200.0
        [physics]
        model = "event"
        dt = {dt}
        restitution = {e}
        gravity = [0.0, {G}]
        [[walls]]
        kind = "circle"
        center = [{}, {}]
        radius = {radius}
        {balls}
        "#,
        C[0], C[1]
    );
    let s = parse_scenario(&toml, Format::Toml).unwrap_or_else(|e| panic!("{e}"));
    build_world(&s).unwrap_or_else(|e| panic!("{e}"))
}

fn ball(p: [f64; 2], v: [f64; 2], r: f64) -> String {
    format!(
        "[[balls]]\nx = {}\ny = {}\nvx = {}\nvy = {}\nr = {r}",
        p[0], p[1], v[0], v[1]
    )
}

/// The pendulum `a'' = -(g / rho) sin a` from `(a, w)` over `t`, by classical
/// Runge-Kutta with 1e5 steps a unit of time: its error (h^4 per unit time, 1e-20)
/// and round-off (1e-16 a step) stay far below 1e-9.
fn pendulum(a: f64, w: f64, rho: f64, t: f64) -> (f64, f64) {
    let n = (t * 1e5).ceil() as usize;
    let h = t / n as f64;
    let (mut x, mut v) = (a, w);
    let acc = |x: f64| -G / rho * x.sin();
    for _ in 0..n {
        let (k1x, k1v) = (v, acc(x));
        let (k2x, k2v) = (v + 0.5 * h * k1v, acc(x + 0.5 * h * k1x));
        let (k3x, k3v) = (v + 0.5 * h * k2v, acc(x + 0.5 * h * k2x));
        let (k4x, k4v) = (v + h * k3v, acc(x + h * k3x));
        x += h / 6.0 * (k1x + 2.0 * k2x + 2.0 * k3x + k4x);
        v += h / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
    }
    (x, v)
}

/// Released at rest 60 degrees up the inside of a bowl (a circle of radius 50, the ball
/// of radius 2: `rho = 48`), the ball swings on the pendulum: its angle from the bottom
/// agrees with the integrated equation of motion at every output time over about five
/// periods, its centre stays at `rho`, and its energy holds to round-off. It takes no
/// impact: the wall holds it throughout.
#[test]
fn a_ball_released_inside_a_bowl_swings_as_a_pendulum() {
    let (radius, r) = (50.0, 2.0);
    let rho = radius - r;
    let a0 = 60f64.to_radians();
    let p = [C[0] + rho * a0.sin(), C[1] + rho * a0.cos()];
    let mut w = scene(&ball(p, [0.0, 0.0], r), radius, 0.5, 0.5);
    let energy = |b: &carom::Balls| 0.5 * (b.vx[0].powi(2) + b.vy[0].powi(2)) - G * b.y[0];
    let e0 = energy(w.balls());
    let (mut a, mut om) = (a0, 0.0);
    for step in 1..=40 {
        w.run_steps(1).unwrap();
        (a, om) = pendulum(a, om, rho, 0.5);
        let b = w.balls();
        let d = [b.x[0] - C[0], b.y[0] - C[1]];
        let got = d[0].atan2(d[1]);
        assert!(
            (got - a).abs() < 1e-9,
            "t = {}: angle {got} against {a}",
            0.5 * step as f64
        );
        assert!((d[0].hypot(d[1]) - rho).abs() < 1e-11);
        let speed = b.vx[0].hypot(b.vy[0]);
        assert!((speed - rho * om.abs()).abs() < 1e-8, "speed {speed}");
        assert!(
            (energy(b) - e0).abs() < 1e-11 * e0.abs(),
            "energy {}",
            energy(b)
        );
    }
    assert_eq!(w.collisions(), 0);
}

/// Sent along the bottom of the inside of a circle at `v0^2 = 3.5 g rho` (between the
/// `2 g rho` that would not bring it above the centre and the `5 g rho` that would take
/// it over the top), the ball rises round the inside and leaves it where the push
/// `v^2 / rho + g cos(theta)` vanishes, 120 degrees from the bottom, at the time
/// `int rho dtheta / v(theta)`; then it falls on the parabola from there.
#[test]
fn a_ball_round_the_inside_of_a_loop_leaves_where_the_wall_stops_pushing() {
    let (radius, r) = (50.0, 2.0);
    let rho = radius - r;
    let v0 = (3.5 * G * rho).sqrt();
    let cos_off = (2.0 * G * rho - v0 * v0) / (3.0 * G * rho);
    let th = cos_off.acos();
    assert!((th - 120f64.to_radians()).abs() < 1e-12);
    let v = |t: f64| (v0 * v0 - 2.0 * G * rho * (1.0 - t.cos())).sqrt();
    let t_off = simpson(|t| rho / v(t), th);
    let p_off = [C[0] + rho * th.sin(), C[1] + rho * th.cos()];
    let v_off = [v(th) * th.cos(), -v(th) * th.sin()];
    // Four output intervals ending 0.2 after it leaves, still in the air.
    let tau = 0.2;
    let mut w = scene(
        &ball([C[0], C[1] + rho], [v0, 0.0], r),
        radius,
        (t_off + tau) / 4.0,
        0.5,
    );
    w.run_steps(4).unwrap();
    assert_in_flight(&w, p_off, v_off, G, tau, 1e-9, "off the loop");
    let b = w.balls();
    let d = [b.x[0] - C[0], b.y[0] - C[1]];
    assert!(d[0].hypot(d[1]) < rho, "in the air inside the circle");
    assert_eq!(w.collisions(), 0);
}

/// Set rolling over the top of a peg (radius 5, ball radius 1: `rho = 6`) at `v0 <
/// sqrt(g rho)`, a ball leaves it at `cos(phi) = (2 + v0^2 / (g rho)) / 3` from the top,
/// at the time of the energy integral, and falls on the parabola from there.
#[test]
fn a_ball_rolling_over_a_peg_leaves_it_at_the_textbook_angle() {
    let (radius, r) = (5.0, 1.0);
    let rho = radius + r;
    for v0 in [0.3f64, 2.0, 5.0] {
        assert!(v0 * v0 < G * rho);
        let phi = ((2.0 + v0 * v0 / (G * rho)) / 3.0).acos();
        let v = |p: f64| (v0 * v0 + 2.0 * G * rho * (1.0 - p.cos())).sqrt();
        let t_off = simpson(|p| rho / v(p), phi);
        let p_off = [C[0] + rho * phi.sin(), C[1] - rho * phi.cos()];
        let v_off = [v(phi) * phi.cos(), v(phi) * phi.sin()];
        let tau = 0.15;
        let mut w = scene(
            &ball([C[0], C[1] - rho], [v0, 0.0], r),
            radius,
            (t_off + tau) / 3.0,
            0.5,
        );
        w.run_steps(3).unwrap();
        assert_in_flight(&w, p_off, v_off, G, tau, 1e-9, &format!("v0 {v0}"));
        assert_eq!(w.collisions(), 0, "v0 {v0}");
    }
}

/// Two balls in the bowl, one released up its side, one at rest at the bottom, every
/// contact elastic: the model follows both on their circles and through their impacts
/// with each other and the wall (a ball struck off its circle flies and lands again),
/// energy holds to round-off over a hundred swings' worth of impacts, and neither leaves
/// the bowl nor passes through the other.
#[test]
fn two_balls_in_a_bowl_meet_on_their_circles() {
    let (radius, r) = (50.0, 2.0);
    let rho = radius - r;
    let a0 = 50f64.to_radians();
    let balls = format!(
        "{}\n{}",
        ball(
            [C[0] + rho * a0.sin(), C[1] + rho * a0.cos()],
            [0.0, 0.0],
            r
        ),
        ball([C[0], C[1] + rho], [0.0, 0.0], r)
    );
    let mut w = scene(&balls, radius, 0.25, 1.0);
    let energy = |b: &carom::Balls| {
        (0..2)
            .map(|i| 0.5 * (b.vx[i].powi(2) + b.vy[i].powi(2)) - G * b.y[i])
            .sum::<f64>()
    };
    let e0 = energy(w.balls());
    for _ in 0..400 {
        w.run_steps(1).unwrap();
        let b = w.balls();
        let e = energy(b);
        assert!((e - e0).abs() < 1e-10 * e0.abs(), "energy {e} against {e0}");
        for i in 0..2 {
            let d = (b.x[i] - C[0]).hypot(b.y[i] - C[1]);
            assert!(d <= rho * (1.0 + 1e-12), "ball {i} out of the bowl: {d}");
        }
        let gap = (b.x[0] - b.x[1]).hypot(b.y[0] - b.y[1]);
        assert!(gap >= 2.0 * r * (1.0 - 1e-9), "overlap: {gap}");
    }
    assert!(w.collisions() > 10, "{} collisions", w.collisions());
}

/// A state file written while a ball swings on its circle resumes to the same bits: the
/// circle is found again from the ball's position and velocity, as its faces are.
#[test]
fn a_run_resumed_while_a_ball_swings_continues_bit_for_bit() {
    let (radius, r) = (50.0, 2.0);
    let rho = radius - r;
    let a0 = 70f64.to_radians();
    let p = [C[0] + rho * a0.sin(), C[1] + rho * a0.cos()];
    let mut a = scene(&ball(p, [0.0, 0.0], r), radius, 0.3, 0.5);
    a.run_steps(25).unwrap();
    let b0 = a.balls();
    assert!(((b0.x[0] - C[0]).hypot(b0.y[0] - C[1]) - rho).abs() < 1e-12 * rho);
    let text = serde_json::to_string(&carom::state::snapshot(&a, 7.5)).unwrap();
    a.run_steps(25).unwrap();
    let s = parse_scenario(&text, Format::Json).unwrap();
    let mut b = build_world(&s).unwrap();
    b.run_steps(25).unwrap();
    let (p, q) = (a.balls(), b.balls());
    assert_eq!(
        [p.x[0], p.y[0], p.vx[0], p.vy[0]].map(f64::to_bits),
        [q.x[0], q.y[0], q.vx[0], q.vy[0]].map(f64::to_bits)
    );
}

/// Random scenes of partial arcs (met from either side), pegs, bowls and bent
/// polylines, with one ball dropped among them at random (e = 0.6, so it comes to be
/// held by them): the ball, alone so that nothing can press it, never stalls the
/// model, and its energy never rises (beyond round-off) through every hold, release,
/// wedge and impact.
#[test]
fn a_lone_ball_among_random_curved_walls_never_stalls_nor_gains_energy() {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut scene_no = 0;
    while scene_no < 300 {
        let mut walls = String::new();
        for _ in 0..4 {
            let (cx, cy) = (30.0 + 140.0 * rnd(), 40.0 + 130.0 * rnd());
            let radius = 3.0 + 30.0 * rnd();
            let from = 360.0 * rnd();
            let span = 30.0 + 300.0 * rnd();
            walls += &format!(
                "[[walls]]\nkind = \"arc\"\ncenter = [{cx}, {cy}]\nradius = {radius}\nfrom = {from}\nto = {}\n",
                from + span
            );
        }
        for _ in 0..3 {
            walls += &format!(
                "[[walls]]\nkind = \"circle\"\ncenter = [{}, {}]\nradius = {}\n",
                20.0 + 160.0 * rnd(),
                30.0 + 150.0 * rnd(),
                0.5 + 4.0 * rnd()
            );
        }
        let (x0, y0) = (20.0 + 160.0 * rnd(), 20.0 + 150.0 * rnd());
        walls += &format!(
            "[[walls]]\nkind = \"polyline\"\npoints = [[{x0}, {y0}], [{}, {}], [{}, {}]]\n",
            x0 + 20.0,
            y0 + 8.0 * rnd() - 4.0,
            x0 + 30.0,
            y0 + 10.0
        );
        let r = 0.5 + 2.0 * rnd();
        let p = [20.0 + 160.0 * rnd(), 5.0 + 20.0 * rnd()];
        let v = [20.0 * rnd() - 10.0, 10.0 * rnd() - 5.0];
        let toml = format!(
            r#"
            [table]
            width = 200.0
            height = 200.0
            [physics]
            model = "event"
            dt = 0.25
            restitution = 0.6
            gravity = [0.0, {G}]
            {walls}
            [[balls]]
            x = {}
            y = {}
            vx = {}
            vy = {}
            r = {r}
            "#,
            p[0], p[1], v[0], v[1]
        );
        let s = parse_scenario(&toml, Format::Toml).unwrap_or_else(|e| panic!("{e}"));
        // A ball drawn overlapping a wall is drawn again.
        let Ok(mut w) = build_world(&s) else {
            continue;
        };
        scene_no += 1;
        let energy = |w: &World| {
            let b = w.balls();
            0.5 * (b.vx[0].powi(2) + b.vy[0].powi(2)) - G * b.y[0]
        };
        let mut last = energy(&w);
        // The largest energy scale in the scene: falling the table's height.
        let scale = last.abs() + G * 200.0;
        for step in 0..400 {
            if let Err(e) = w.run_steps(1) {
                panic!("scene {scene_no}, step {step}: {e}\n{toml}");
            }
            let e = energy(&w);
            assert!(
                e <= last + 1e-9 * scale,
                "scene {scene_no}, step {step}: energy {e} after {last}\n{toml}"
            );
            last = e;
        }
    }
}
