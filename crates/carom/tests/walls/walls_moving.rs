//! Walls that move (`velocity`, `angular_velocity` about `pivot`, servo `pressure`)
//! in the stepping models, each against the physics written here: a struck ball leaves
//! with the relative velocity reflected, a ball resting on a rising floor rides it, a
//! turning paddle, a servo over an elastic column, resuming bit for bit, and the
//! models that refuse them.

use crate::common;
use carom::parse::{build_world, parse_scenario, Format};
use carom::World;
use common::scene::{build_error, run_to, world};

/// One ball (radius 1, mass 1) at x = 70 moving at `vx` towards a vertical segment at
/// x = 50 that moves at `wall_vx`, on a 200 x 200 table.
fn struck(model: &str, extra: &str, vx: f64, wall_vx: f64, e: f64) -> World {
    world(&format!(
        r#"
        [table]
        width = 200.0
        height = 200.0
        [physics]
        model = "{model}"
        {extra}
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

/// In the wall's frame the ball meets a fixed wall: its relative normal velocity
/// `v - V` comes back as `-e (v - V)`, so it leaves at `V - e (v - V)`. The impulse
/// model applies that law in one step: exact to round-off of a few operations on
/// numbers of order 1 (1e-12 is ample). The spring model's rebound matches `e` to its
/// integrator's splitting of the contact (60 steps per contact, as walls_spring.rs
/// argues: within 0.2%).
#[test]
fn a_ball_struck_by_a_translating_wall_leaves_with_the_reflected_relative_velocity() {
    for e in [1.0, 0.5] {
        for (v, wall) in [(-1.0, 2.0), (0.5, 1.5), (-2.0, -0.5)] {
            // The ball always ends to the right of the wall: it leaves at V + e |v - V|.
            let expect = wall + e * (wall - v);
            let mut w = struck("impulse", "dt = 0.001", v, wall, e);
            run_to(&mut w, 30.0);
            let got = w.balls().vx[0];
            assert!(
                (got - expect).abs() < 1e-12,
                "impulse e={e} v={v} V={wall}: {got} vs {expect}"
            );
            let mut w = struck(
                "spring",
                "stiffness = 1e6\ndt = 5.2e-5\nintegrator = \"velocity-verlet\"",
                v,
                wall,
                e,
            );
            run_to(&mut w, 30.0);
            let got = w.balls().vx[0];
            let rel = (got - wall) / (wall - v);
            assert!(
                (rel - e).abs() < 2e-3 * e,
                "spring e={e} v={v} V={wall}: relative rebound {rel}"
            );
            assert!(w.balls().vy[0].abs() < 1e-12);
        }
    }
}

/// A ball (m = 1, e = 1) touching a floor under gravity g = 1, at rest, as the floor
/// starts rising at speed u. In the floor's frame (a Galilean one) the ball meets a
/// fixed floor at speed u, with energy `u^2 / 2` at zero overlap: with the potential
/// `k x^2 / 2 - g x` for an overlap x > 0 and `-g x` above, it swings about the
/// equilibrium overlap `s = g / k` between the deepest overlap `x+`, the root of
/// `k x^2 / 2 - g x = u^2 / 2` (a distance `sqrt(s^2 + u^2 / k)` beyond s), and a
/// height `u^2 / (2 g)` above the floor (a distance `s + u^2 / (2 g)` short of it).
/// So after time T it has risen with the floor by u T, to within the larger of the
/// two (plus the integrator's energy error, under 5% at 60 steps per period).
#[test]
fn a_ball_resting_on_a_rising_floor_rises_with_it() {
    let (k, g, u, t_end): (f64, f64, f64, f64) = (100.0, 1.0, 0.05, 100.0);
    let s = g / k;
    let floor = 150.0;
    let y0 = floor - 1.0;
    {
        let model = "spring";
        let mut w = world(&format!(
            r#"
            [table]
            width = 200.0
            height = 200.0
            [physics]
            model = "{model}"
            stiffness = {k}
            dt = 0.01
            gravity = [0.0, {g}]
            [[balls]]
            x = 100.0
            y = {y0}
            r = 1.0
            [[walls]]
            kind = "segment"
            points = [[20.0, {floor}], [180.0, {floor}]]
            velocity = [0.0, {}]
            "#,
            -u
        ));
        run_to(&mut w, t_end);
        let amplitude = (s * s + u * u / k).sqrt().max(s + u * u / (2.0 * g));
        let y = w.balls().y[0];
        let expect = y0 + s - u * t_end;
        assert!(
            (y - expect).abs() <= amplitude * 1.05,
            "{model}: y {y} against {expect} (amplitude {amplitude})"
        );
        let offset = w.walls().motion(0).unwrap().offset;
        assert!((offset[1] + u * t_end).abs() < 1e-9, "{offset:?}");
    }
}

/// Balls between a fixed floor and a frictional lid that slides along x and sinks,
/// with friction (tangential springs on the walls): a run resumed from its state file
/// half way continues to the same bits, balls and the walls' place alike.
#[test]
fn moving_walls_resume_bit_for_bit() {
    for (model, extra) in [
        (
            "spring",
            "stiffness = 50.0\n[physics.contact_friction]\nmu = 0.5",
        ),
        ("impulse", "restitution = 0.8"),
    ] {
        let toml = format!(
            r#"
            [table]
            width = 120.0
            height = 100.0
            boundary = ["periodic", "walls"]
            [physics]
            model = "{model}"
            dt = 0.01
            gravity = [0.0, 0.5]
            {extra}
            [[generators]]
            kind = "lattice"
            nx = 10
            ny = 4
            x0 = 6.0
            y0 = 60.0
            dx = 12.0
            dy = 8.0
            r = 3.0
            [[walls]]
            kind = "segment"
            points = [[0.0, 52.0], [120.0, 52.0]]
            velocity = [0.8, 0.01]
            mu = 0.6
            [[walls]]
            kind = "circle"
            center = [60.0, 30.0]
            radius = 5.0
            velocity = [0.3, -0.1]
            "#
        );
        let steps = 2000;
        let mut a = world(&toml);
        a.run_steps(steps).unwrap();
        let mut first = world(&toml);
        first.run_steps(steps / 2).unwrap();
        let state = carom::state::snapshot(&first, 100.0);
        let text = serde_json::to_string(&state).unwrap();
        assert!(
            text.contains("\"offset\""),
            "{model}: the state has the walls' place"
        );
        let s = parse_scenario(&text, Format::Json).unwrap();
        let mut resumed = build_world(&s).unwrap();
        resumed.run_steps(steps / 2).unwrap();
        assert_eq!(resumed.balls(), a.balls(), "{model}");
        assert_eq!(resumed.walls(), a.walls(), "{model}");
        // The lid moved as far as its velocity says (to round-off of 2000 sums).
        let off = a.walls().motion(0).unwrap().offset;
        assert!((off[0] - 0.8 * 20.0).abs() < 1e-9 && (off[1] - 0.01 * 20.0).abs() < 1e-9);
    }
}

#[test]
fn bad_motion_keys_are_one_line_errors_naming_the_key() {
    let scene = |model: &str, wall: &str| {
        format!(
            r#"
            [table]
            width = 100.0
            height = 100.0
            [physics]
            model = "{model}"
            [[balls]]
            x = 50.0
            y = 50.0
            r = 1.0
            [[walls]]
            kind = "segment"
            points = [[10.0, 80.0], [90.0, 80.0]]
            {wall}
            "#
        )
    };
    for (model, wall, needle) in [
        ("spring", "velocity = [nan, 0.0]", "walls[0].velocity"),
        ("spring", "velocity = [1.0, inf]", "walls[0].velocity"),
        ("spring", "offset = [1.0, 0.0]", "walls[0].offset"),
        ("spring", "angular_velocity = 1.0", "needs pivot"),
        (
            "spring",
            "angular_velocity = 1.0\npivot = [500.0, 0.0]",
            "walls[0].pivot",
        ),
        ("spring", "pivot = [50.0, 50.0]", "walls[0].pivot"),
        ("spring", "pressure = 1.0", "needs axis"),
        (
            "spring",
            "pressure = -1.0\naxis = \"y\"",
            "walls[0].pressure",
        ),
        (
            "spring",
            "pressure = 1.0\naxis = \"y\"\nvelocity = [0.0, 1.0]",
            "walls[0].velocity",
        ),
        ("spring", "pressure = 1.0\naxis = \"z\"", "axis"),
        ("spring", "axis = \"y\"", "walls[0].axis"),
        (
            "spring",
            "pressure = 1.0\naxis = \"y\"\nservo_time = 0.0",
            "walls[0].servo_time",
        ),
        (
            "impulse",
            "pressure = 1.0\naxis = \"y\"",
            "spring model only",
        ),
        (
            "event",
            "angular_velocity = 1.0\npivot = [50.0, 80.0]",
            "walls[0].angular_velocity",
        ),
        (
            "simultaneous",
            "pressure = 1.0\naxis = \"y\"",
            "walls[0].pressure",
        ),
    ] {
        let e = build_error(&scene(model, wall));
        assert!(e.contains(needle), "{model} {wall}: {e}");
        assert!(!e.contains('\n'), "one line: {e}");
    }
}

/// A paddle turning about its end at angular velocity omega strikes a ball at rest,
/// elastically (impulse model): at the contact, at distance `rho` from the pivot, the
/// paddle's material moves at `omega rho` along its normal, so the ball leaves at
/// twice that along the normal. `rho = sqrt(|b - c|^2 - r^2)` when the paddle's face
/// touches the ball. The impulse model finds the contact at the end of the step in
/// which it began: the angle and the lever are then off by at most `omega dt` and
/// `rho omega dt` relative, 1e-5 here, so 1e-4 relative is the bound.
#[test]
fn a_turning_paddle_strikes_a_ball_at_twice_its_speed_at_the_contact() {
    let omega = 0.1;
    let mut w = world(&format!(
        r#"
        [table]
        width = 200.0
        height = 200.0
        [physics]
        model = "impulse"
        dt = 1e-4
        [[balls]]
        x = 70.0
        y = 60.0
        r = 1.0
        [[walls]]
        kind = "segment"
        points = [[50.0, 50.0], [90.0, 50.0]]
        angular_velocity = {omega}
        pivot = [50.0, 50.0]
        "#
    ));
    run_to(&mut w, 6.0);
    let rho = (20.0f64 * 20.0 + 10.0 * 10.0 - 1.0).sqrt();
    let b = w.balls();
    let speed = b.vx[0].hypot(b.vy[0]);
    let expect = 2.0 * omega * rho;
    assert!(
        (speed - expect).abs() < 1e-4 * expect,
        "speed {speed} against {expect}"
    );
    // Along the paddle's normal at the contact: the angle at which its face is 1 from
    // the ball's centre, theta = atan2(10, 20) - asin(1 / |b - c|).
    let theta = 10.0f64.atan2(20.0) - (1.0 / 500f64.sqrt()).asin();
    let n = [-theta.sin(), theta.cos()];
    let along = (b.vx[0] * n[0] + b.vy[0] * n[1]) / speed;
    assert!((along - 1.0).abs() < 1e-8, "direction {along}");
    // The paddle turned through omega t.
    let angle = w.walls().motion(0).unwrap().angle;
    assert!((angle - omega * 6.0).abs() < 1e-9);
}

/// A servo lid over a column of five balls (r = 1) standing on a fixed floor (a
/// segment at y = 20), no gravity; the lid starts touching the top ball at y = 10, on
/// the table's top side, so it pushes towards the middle (+y). Every contact
/// (lid-ball, ball-ball, ball-floor) pushes `k s`, so at rest each carries the lid's
/// force, which the servo holds at `P L`: each of the six overlaps is `s = P L / k`,
/// and the lid settles at `20 - 2 n r + (n + 1) s`. The servo's gap to that balance
/// decays as `exp(-t K / (k tau))` with the column's stiffness `K = k / 6` (six
/// springs in series), so after 20 / (6 tau) = 17 time constants it is below 1e-7 of
/// the 0.06 travel; what remains is the column's own ringing, excited by the lid's
/// approach: 1e-5 is well above round-off and far below the 0.01 overlap the test
/// checks.
#[test]
fn a_servo_lid_settles_where_the_column_pushes_back_with_its_pressure() {
    let (k, p, len, n, floor) = (1000.0, 0.5, 20.0, 5, 20.0);
    let s = p * len / k;
    let mut balls = String::new();
    for i in 0..n {
        balls += &format!(
            "[[balls]]\nx = 50.0\ny = {}\nr = 1.0\n",
            floor - 1.0 - 2.0 * i as f64
        );
    }
    let lid = floor - 2.0 * n as f64;
    let mut w = world(&format!(
        r#"
        [table]
        width = 100.0
        height = 100.0
        [physics]
        model = "spring"
        stiffness = {k}
        dt = 0.002
        {balls}
        [[walls]]
        kind = "segment"
        points = [[30.0, {floor}], [70.0, {floor}]]
        [[walls]]
        kind = "segment"
        points = [[40.0, {lid}], [60.0, {lid}]]
        pressure = {p}
        axis = "y"
        "#
    ));
    run_to(&mut w, 20.0);
    let m = w.walls().motion(1).unwrap();
    let got = lid + m.offset[1];
    let expect = floor - 2.0 * n as f64 + (n as f64 + 1.0) * s;
    assert!(
        (got - expect).abs() < 1e-5,
        "lid at {got}, expected {expect} (travel {})",
        (n as f64 + 1.0) * s
    );
}

/// The `shear` preset: the servo lid comes down onto the grains and holds them (it
/// stays between the lattice's first row, y = 21.4, and the bottom plate), and the
/// grains are sheared: after 20 time units the mean x velocity of the grains in the
/// top fifth of the gap, dragged by the lid's glued grains at U = 1, exceeds that of the
/// bottom fifth, held by the glued grains, by 0.1 U (the mean of some 80 grains, whose
/// velocity fluctuations are of order 0.05 U in a flow this slow, has an error near
/// 0.01 U), and neither moves faster than the lid's surface (plus 5%) or backwards
/// faster than 5% of it.
#[test]
fn the_shear_preset_shears_its_grains_under_the_servo_lid() {
    let s = carom::presets::find("shear").unwrap().scenario().unwrap();
    let mut w = build_world(&s).unwrap();
    run_to(&mut w, 20.0);
    let lid = 20.0 + w.walls().motion(0).unwrap().offset[1];
    assert!(lid > 21.4 && lid < 30.0, "lid at {lid}");
    let b = w.balls();
    let gap = 50.0 - lid;
    let mean = |lo: f64, hi: f64| {
        let v: Vec<f64> = (0..b.len())
            .filter(|&i| {
                // The lid's glued grains ride on it: only the free grains count.
                if b.inv_m[i] == 0.0 {
                    return false;
                }
                let h = (50.0 - b.y[i]) / gap;
                h >= lo && h < hi
            })
            .map(|i| b.vx[i])
            .collect();
        v.iter().sum::<f64>() / v.len() as f64
    };
    let (top, bottom) = (mean(0.8, 1.01), mean(-0.01, 0.2));
    assert!(top - bottom > 0.1, "top {top}, bottom {bottom}");
    assert!(top < 1.05 && bottom > -0.05, "top {top}, bottom {bottom}");
}
