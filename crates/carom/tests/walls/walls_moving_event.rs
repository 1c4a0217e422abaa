//! Translating walls in the `event` model, exact: a struck ball leaves with the
//! reflected relative velocity to round-off (a face, and a circle whose time of impact
//! is a quadratic root), a ball overtaken by a rising floor takes its velocity and
//! stays above it, a gas compressed slowly by a piston heats along its adiabat, a run
//! resumed from its state file continues bit for bit, one and two threads agree, and
//! the combinations the model refuses are one-line errors naming the key.

use crate::common;
use carom::parse::{build_world, parse_scenario, Format};
use carom::World;
use common::scene::{build_error, run_to, world};

/// One ball (radius 1, mass 1) at (70, 100) moving at `vx` and a vertical segment at
/// x = 50 moving at `wall_vx`, with restitution `e`, on a table wide enough that
/// neither reaches its walls in the runs below.
fn struck(vx: f64, wall_vx: f64, e: f64) -> World {
    world(&format!(
        r#"
        [table]
        width = 1000.0
        height = 200.0
        [physics]
        model = "event"
        dt = 0.5
        [[balls]]
        x = 70.0
        y = 100.0
        vx = {vx}
        r = 1.0
        [[walls]]
        kind = "segment"
        points = [[50.0, 60.0], [50.0, 140.0]]
        velocity = [{wall_vx}, 0.0]
        restitution = {e}
        "#
    ))
}

/// In the wall's frame the ball meets a fixed wall, so its normal velocity relative to
/// the wall, `v - V`, comes back as `-e (v - V)`: it leaves at `V + e (V - v)` (for
/// `e = 1`, `2 V - v`). The model finds the impact at its exact time and applies that
/// law once: a few operations on numbers of order 1, so 1e-14 is ample for round-off.
/// The wall is where `V t` puts it (to a few ulps of 50), and the ball's flight after
/// the impact starts from the wall's face at the time of impact `t*`, found here by
/// hand: the gap 19 closes at `V - v`.
#[test]
fn a_ball_struck_by_a_translating_face_leaves_with_the_reflected_relative_velocity() {
    for e in [1.0, 0.5] {
        for (v, wall) in [(-1.0, 2.0), (0.5, 1.5), (-2.0, -0.5), (0.0, 3.0)] {
            let expect = wall + e * (wall - v);
            let mut w = struck(v, wall, e);
            let t_end = 30.0;
            run_to(&mut w, t_end);
            let b = w.balls();
            assert!(
                (b.vx[0] - expect).abs() < 1e-14,
                "e={e} v={v} V={wall}: {} vs {expect}",
                b.vx[0]
            );
            assert_eq!(b.vy[0], 0.0);
            let hit = 19.0 / (wall - v);
            let x = 50.0 + wall * hit + 1.0 + expect * (t_end - hit);
            assert!(
                (b.x[0] - x).abs() < 1e-11,
                "e={e} v={v} V={wall}: x {}",
                b.x[0]
            );
            let off = w.walls().motion(0).unwrap().offset;
            assert!((off[0] - wall * t_end).abs() < 1e-12, "{off:?}");
            assert_eq!(w.collisions(), 1);
        }
    }
}

/// A circle wall (radius 5) moving at V = (2, 0) overtakes a ball at rest 3 off its
/// line: in the circle's frame the ball comes at (-2, 0) and first touches it where the
/// centres are 6 apart, the normal from the circle to the ball then `n = (sqrt 27, 3)
/// / 6` (a quadratic's root, as for a fixed circle). The ball leaves along `n` with
/// `(1 + e) (V . n)`: exact to round-off.
#[test]
fn a_translating_circle_strikes_a_ball_along_the_normal_of_first_touch() {
    for e in [1.0, 0.7] {
        let mut w = world(&format!(
            r#"
            [table]
            width = 200.0
            height = 200.0
            [physics]
            model = "event"
            dt = 1.0
            [[balls]]
            x = 70.0
            y = 103.0
            r = 1.0
            [[walls]]
            kind = "circle"
            center = [50.0, 100.0]
            radius = 5.0
            velocity = [2.0, 0.0]
            restitution = {e}
            "#
        ));
        run_to(&mut w, 20.0);
        let n = [27f64.sqrt() / 6.0, 3.0 / 6.0];
        let speed = (1.0 + e) * 2.0 * n[0];
        let b = w.balls();
        assert!((b.vx[0] - speed * n[0]).abs() < 1e-14, "e={e}: {}", b.vx[0]);
        assert!((b.vy[0] - speed * n[1]).abs() < 1e-14, "e={e}: {}", b.vy[0]);
        assert_eq!(w.collisions(), 1);
    }
}

/// A floor (a horizontal segment under the ball) rising at u overtakes a ball at rest
/// or sinking slowly towards it. With `e = 0` the ball takes the floor's velocity
/// (relative normal velocity 0 after the impact) and rides on it: its gap to the floor
/// stays 0 to round-off of positions of order 100 (1e-9 allowed: a thousand ulps) and
/// never goes below. With `e = 1` it leaves at `2 u + v` upward (`-(2u + v)` in y)
/// and the floor never catches it again.
#[test]
fn a_ball_overtaken_by_a_rising_floor_takes_its_velocity_and_stays_above_it() {
    let u = 0.05;
    for (e, v0) in [(0.0, 0.0), (0.0, 0.02), (1.0, 0.0), (1.0, 0.02)] {
        let mut w = world(&format!(
            r#"
            [table]
            width = 200.0
            height = 200.0
            [physics]
            model = "event"
            dt = 0.25
            [[balls]]
            x = 100.0
            y = 140.0
            vy = {v0}
            r = 1.0
            [[walls]]
            kind = "segment"
            points = [[20.0, 150.0], [180.0, 150.0]]
            velocity = [0.0, {}]
            restitution = {e}
            "#,
            -u
        ));
        for _ in 0..400 {
            w.run_steps(4).unwrap();
            let floor = 150.0 + w.walls().motion(0).unwrap().offset[1];
            let gap = floor - w.balls().y[0] - 1.0;
            assert!(
                gap > -1e-9,
                "e={e} v0={v0} t={}: below the floor by {gap}",
                w.time
            );
        }
        let b = w.balls();
        let floor = 150.0 + w.walls().motion(0).unwrap().offset[1];
        let expect = -u - e * (u + v0);
        assert!(
            (b.vy[0] - expect).abs() < 1e-14,
            "e={e} v0={v0}: vy {}",
            b.vy[0]
        );
        if e == 0.0 {
            let gap = floor - b.y[0] - 1.0;
            assert!(gap.abs() < 1e-9, "e={e} v0={v0}: rides at gap {gap}");
        }
        assert_eq!(b.vx[0], 0.0);
    }
}

/// `n` balls of radius `r` on a jittered square grid in [0, x_max] x [0, height],
/// velocities uniform in [-1, 1]^2 from a fixed linear congruential sequence: TOML
/// `[[balls]]` entries.
fn gas_balls(n_side: usize, r: f64, x_max: f64, height: f64) -> String {
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let (dx, dy) = (x_max / n_side as f64, height / n_side as f64);
    let mut out = String::new();
    for j in 0..n_side {
        for i in 0..n_side {
            let jitter = 0.5 * (dx.min(dy) - 2.0 * r) - 1e-6;
            let x = (i as f64 + 0.5) * dx + jitter * (2.0 * next() - 1.0);
            let y = (j as f64 + 0.5) * dy + jitter * (2.0 * next() - 1.0);
            let (vx, vy) = (2.0 * next() - 1.0, 2.0 * next() - 1.0);
            out += &format!("[[balls]]\nx = {x}\ny = {y}\nvx = {vx}\nvy = {vy}\nr = {r}\n");
        }
    }
    out
}

/// A dilute elastic gas (256 disks of radius 0.5, area fraction 0.02 at the start)
/// between the table's walls and a piston spanning the height, pushed in slowly from
/// x = 100 to x = 50. With no heat exchanged, `dE = -P dA` with `E = N T` (2D, k = 1,
/// translational energy only: smooth disks). The hard-disk equation of state to second
/// order, `P A = N T (1 + 2 phi)` with `phi = N a / A` (`a = pi r^2`; the second virial
/// coefficient of disks is twice their area), gives `d ln T = -(1 + 2 N a / A) d ln A`:
/// `T A = T0 A0 exp(2 N a (1/A - 1/A0))`, with `A` the area the centres move in,
/// `(L - 2r)(H - 2r)`. The ideal-gas adiabat `T A = const` is the leading term; the
/// correction here is 4%.
///
/// The tolerance, 2%: the piston moves at `V = 0.01` against thermal speeds of order 1,
/// and each impact gives the gas `2 m V (u + V)` where the quasi-static work is `2 m V
/// u`: the excess over the work is of relative size `m V <|u|> / T` (`<|u|> = sqrt(2 T
/// / (pi m))`), 1.4% at the start's T = 1/3 and 1% at the end's, an upper bound here;
/// the gradient the piston leaves in the gas is of the same order; the third virial
/// term `3.13 phi^2` is under 0.5% at phi = 0.04; the energy itself is summed exactly
/// (elastic impacts), so nothing statistical enters beyond those biases.
#[test]
fn a_gas_pushed_in_slowly_by_a_piston_heats_along_its_adiabat() {
    let (r, height, l0, speed, n_side) = (0.5, 100.0, 100.0, 0.01, 16usize);
    let toml = format!(
        r#"
        [table]
        width = 120.0
        height = {height}
        [physics]
        model = "event"
        dt = 10.0
        [[walls]]
        kind = "segment"
        points = [[{l0}, 0.0], [{l0}, {height}]]
        velocity = [{}, 0.0]
        {}
        "#,
        -speed,
        gas_balls(n_side, r, l0, height)
    );
    let mut w = world(&toml);
    let n = (n_side * n_side) as f64;
    let temperature = |w: &World| {
        let b = w.balls();
        (0..b.len())
            .map(|i| 0.5 * (b.vx[i] * b.vx[i] + b.vy[i] * b.vy[i]) / b.inv_m[i])
            .sum::<f64>()
            / n
    };
    let area = |l: f64| (l - 2.0 * r) * (height - 2.0 * r);
    let a_disk = n * std::f64::consts::PI * r * r;
    let (t0, a0) = (temperature(&w), area(l0));
    // Let the start's square velocity distribution relax first (a few collision times).
    run_to(&mut w, 5000.0);
    let l = l0 + w.walls().motion(0).unwrap().offset[0];
    assert!((l - 50.0).abs() < 1e-9, "piston at {l}");
    let t1 = temperature(&w);
    let a1 = area(l);
    let expect = t0 * a0 / a1 * (2.0 * a_disk * (1.0 / a1 - 1.0 / a0)).exp();
    let rel = t1 / expect - 1.0;
    println!(
        "T {t0} -> {t1}; adiabat {expect} ({:+.3}%); ideal gas {}",
        100.0 * rel,
        t0 * a0 / a1
    );
    assert!(
        rel.abs() < 0.02,
        "T {t0} -> {t1}, adiabat {expect} ({:+.2}%), ideal {}",
        100.0 * rel,
        t0 * a0 / a1
    );
    // Every ball stayed on the gas's side of the piston.
    let b = w.balls();
    assert!((0..b.len()).all(|i| b.x[i] + b.r[i] <= l + 1e-9));
}

/// A gas with a translating lid and a translating circle, elastic and rough walls: a
/// run resumed half way from its state file continues to the same bits, balls and
/// walls' places alike; one and two threads give the same state.
#[test]
fn translating_walls_in_event_resume_bit_for_bit_and_ignore_threads() {
    let toml = format!(
        r#"
        [table]
        width = 120.0
        height = 100.0
        boundary = ["periodic", "walls"]
        [physics]
        model = "event"
        dt = 0.5
        restitution = 0.9
        [[walls]]
        kind = "segment"
        points = [[0.0, 99.0], [120.0, 99.0]]
        velocity = [0.8, -0.01]
        mu = 0.4
        [[walls]]
        kind = "circle"
        center = [60.0, 50.0]
        radius = 6.0
        velocity = [0.3, 0.05]
        {}
        "#,
        gas_balls(8, 1.0, 40.0, 40.0)
    );
    // The state is read half way (as writing it reads it), then the run goes on; the
    // state file resumed goes the same way.
    let steps = 400;
    let mut a = world(&toml);
    a.run_steps(steps / 2).unwrap();
    let text = serde_json::to_string(&carom::state::snapshot(&a, 100.0)).unwrap();
    assert!(
        text.contains("\"offset\""),
        "the state has the walls' place"
    );
    a.run_steps(steps / 2).unwrap();
    let s = parse_scenario(&text, Format::Json).unwrap();
    let mut resumed = build_world(&s).unwrap();
    resumed.run_steps(steps / 2).unwrap();
    assert!(
        a.collisions() > 100,
        "the walls and balls met: {}",
        a.collisions()
    );
    assert!(resumed.balls() == a.balls(), "resumed balls differ");
    assert!(resumed.walls() == a.walls(), "resumed walls differ");
    // The lid moved as far as `V t` says.
    let off = a.walls().motion(0).unwrap().offset;
    assert!((off[0] - 0.8 * 200.0).abs() < 1e-10 && (off[1] + 0.01 * 200.0).abs() < 1e-12);

    let mut one = world(&toml);
    let mut two = world(&toml);
    one.set_threads(1).unwrap();
    two.set_threads(2).unwrap();
    one.run_steps(steps / 2).unwrap();
    two.run_steps(steps / 2).unwrap();
    one.run_steps(steps / 2).unwrap();
    two.run_steps(steps / 2).unwrap();
    assert!(one.balls() == two.balls(), "one and two threads differ");
    assert!(one.balls() == a.balls(), "the runs differ");
}

/// What the event model cannot run with moving walls: gravity (a ball resting on a
/// moving face), a turning wall, a servo; and cloth everywhere. One line each, naming
/// the wall's key.
#[test]
fn moving_walls_the_event_model_refuses_are_one_line_errors_naming_the_key() {
    let scene = |physics: &str, wall: &str| {
        format!(
            r#"
            [table]
            width = 100.0
            height = 100.0
            [physics]
            model = "event"
            {physics}
            [[balls]]
            x = 50.0
            y = 50.0
            r = 1.0
            [[walls]]
            kind = "segment"
            points = [[10.0, 20.0], [90.0, 20.0]]
            [[walls]]
            kind = "segment"
            points = [[10.0, 80.0], [90.0, 80.0]]
            {wall}
            "#
        )
    };
    for (physics, wall, needle) in [
        (
            "gravity = [0.0, 1.0]",
            "velocity = [1.0, 0.0]",
            "walls[1].velocity",
        ),
        (
            "",
            "angular_velocity = 1.0\npivot = [50.0, 80.0]",
            "walls[1].angular_velocity",
        ),
        ("", "pressure = 1.0\naxis = \"y\"", "walls[1].pressure"),
        (
            "",
            "velocity = [1.0, 0.0]\npressure = 1.0\naxis = \"y\"",
            "walls[1].pressure",
        ),
    ] {
        let e = build_error(&scene(physics, wall));
        assert!(e.contains(needle), "{physics} {wall}: {e}");
        assert!(!e.contains('\n'), "one line: {e}");
    }
}
