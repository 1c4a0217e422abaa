//! Pool balls on cloth in the `event` model, against the physics written here: the
//! closed forms of a sphere sliding and rolling on cloth (solid sphere, `I = 2 m r^2 /
//! 5`), the classic cut-shot rules that follow from them, a cushion that reduces to a
//! wall, energy that never rises, contact times between balls in different phases
//! against an independent root, and free flight against the law's own `evolve`.
//!
//! The model is exact: every phase is a parabola in time, and phase ends, contacts and
//! walls are found as roots, so quantities hold to round-off. Tolerances are argued
//! where they are set.

use carom::balls::solid_sphere_inertia;
use carom::cloth::{Body, Cloth, Phase, Sphere};
use carom::events::{EventKind, LoggedEvent};
use carom::scenario::{Friction, ModelKind};
use carom::{Ball, Physics, Table, World};

/// A pool ball (SI units): radius 28.575 mm, mass 0.17 kg.
const R: f64 = 0.028575;
const M: f64 = 0.17;
const G: f64 = 9.81;
/// The cloth's default coefficients (`Friction::cloth`).
const MU_S: f64 = 0.2;
const MU_R: f64 = 0.01;
const MU_SP: f64 = 0.0127;

fn cloth() -> Friction {
    Friction::cloth(G)
}

fn physics(e: f64, dt: f64) -> Physics {
    Physics {
        model: ModelKind::Event,
        dt,
        restitution: e,
        friction: cloth(),
        ..Default::default()
    }
}

/// A solid sphere on cloth at `(x, y)` with velocity `v` and spins `w = [wx, wy, omega]`.
fn ball(x: f64, y: f64, v: [f64; 2], w: [f64; 3]) -> Ball {
    let mut b = Ball::new(x, y, v[0], v[1], R, M);
    b.inertia = solid_sphere_inertia(M, R);
    (b.wx, b.wy, b.omega) = (w[0], w[1], w[2]);
    b
}

fn world(table: (f64, f64), p: Physics, balls: &[Ball]) -> World {
    let mut w = World::from_balls(Table::new(table.0, table.1), p, balls).unwrap();
    w.set_event_log(true);
    w
}

fn phase_rows(w: &World, i: u32) -> Vec<LoggedEvent> {
    w.event_log()
        .iter()
        .filter(|r| r.kind == EventKind::PhaseChange && r.i == i)
        .copied()
        .collect()
}

fn rel(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs()
}

/// A stun ball (no spin) struck at `v0` slides for `2 v0 / (7 mu_s g)`: the slip
/// `u = v` shrinks at `mu_s g (1 + 5/2)`. It then rolls at `5/7 v0` (friction took
/// `mu_s g t` off the speed), having slid `v0 t - mu_s g t^2 / 2 = 12 v0^2 / (49 mu_s
/// g)`, and rolls `(5/7 v0)^2 / (2 mu_r g) = 25 v0^2 / (98 mu_r g)` more before it
/// stops, `5/7 v0 / (mu_r g)` later. The phase times come from the log, the distances
/// from the balls.
///
/// Tolerance: every quantity is a few operations on numbers of order one (times of
/// order 1 to 10, positions of order 1) from the closed forms; the epoch arithmetic of
/// the model adds a few ulps of the times. 1e-12 relative is a thousand times that,
/// and a millionth of any error of the law (a wrong factor, a missed phase).
#[test]
fn a_stun_ball_slides_then_rolls_by_the_closed_forms() {
    for v0 in [0.5, 1.0, 1.7] {
        let x0 = 0.5;
        let mut w = world(
            (10.0, 2.0),
            physics(1.0, 0.25),
            &[ball(x0, 1.0, [v0, 0.0], [0.0; 3])],
        );
        // The roll takes at most 5/7 * 1.7 / 0.0981 = 12.4 s: run to 16.
        w.run_steps(64).unwrap();
        let rows = phase_rows(&w, 0);
        let phases: Vec<Phase> = rows.iter().map(|r| r.phase.unwrap()).collect();
        assert_eq!(phases, [Phase::Rolling, Phase::Stationary], "{rows:?}");
        let t_slide = 2.0 * v0 / (7.0 * MU_S * G);
        let t_roll = 5.0 / 7.0 * v0 / (MU_R * G);
        assert!(
            rel(rows[0].time, t_slide) < 1e-12,
            "slide ends at {} not {t_slide}",
            rows[0].time
        );
        assert!(
            rel(rows[1].time, t_slide + t_roll) < 1e-12,
            "stops at {} not {}",
            rows[1].time,
            t_slide + t_roll
        );
        let slide = 12.0 * v0 * v0 / (49.0 * MU_S * G);
        let roll = 25.0 * v0 * v0 / (98.0 * MU_R * G);
        let b = w.balls();
        assert!(
            rel(b.x[0] - x0, slide + roll) < 1e-12,
            "travelled {} not {}",
            b.x[0] - x0,
            slide + roll
        );
        assert_eq!((b.vx[0], b.vy[0], b.wx[0], b.wy[0]), (0.0, 0.0, 0.0, 0.0));
        assert_eq!(b.y[0], 1.0);
    }
}

/// The ball-ball rows of the log.
fn pair_rows(w: &World) -> Vec<LoggedEvent> {
    w.event_log()
        .iter()
        .filter(|r| r.kind == EventKind::BallBall)
        .copied()
        .collect()
}

/// Runs `w` in steps of its `dt` until ball `i` has entered `phase` after time `after`
/// (per the log), at most `max` steps; returns that row.
fn run_until_phase(w: &mut World, i: u32, phase: Phase, after: f64, max: u64) -> LoggedEvent {
    for _ in 0..max {
        w.run_steps(1).unwrap();
        if let Some(r) = phase_rows(w, i)
            .into_iter()
            .find(|r| r.phase == Some(phase) && r.time > after)
        {
            return r;
        }
    }
    panic!("ball {i} never entered {phase:?} after {after}");
}

/// The sliding ball's deceleration and the time a ball that slides with it from `v0`
/// covers `l` (the smaller root of `v0 t - a t^2 / 2 = l`, in the stable form).
fn time_to_cover(v0: f64, a: f64, l: f64) -> f64 {
    2.0 * l / (v0 + (v0 * v0 - 2.0 * a * l).sqrt())
}

/// The 90-degree rule: a cue ball with no spin at the impact (a stun shot) and an
/// object ball at rest, equal masses, `e = 1`, smooth contact: the object ball takes the
/// velocity's part along the line of centres, the cue ball keeps the part across it, so
/// they leave at right angles; with no spin about the table's axes, each then slides
/// and rolls along a straight line, and they come to rest on two lines at 90 degrees
/// through where they met.
///
/// No spin at the impact: the cue ball starts with the backspin that sliding friction
/// takes off by then. It slides along x at `a = mu_s g` (its slip `v + r wy` stays
/// positive), its spin falls at `(5/2) a / r`, so `wy0 = (5/2) a t_hit / r`, with
/// `t_hit` the time to cover `l`.
///
/// Tolerance: the directions are displacements of 0.08 m to 3 m between positions of
/// order 1 m (round-off 1e-15 m); the spin left at the impact by round-off (1e-14
/// rad/s) turns the cue ball's slip by 1e-15. 1e-12 is far above both, and far below
/// any physical deviation (a cue ball with the spin of 1 ms of sliding is 1e-2 off).
#[test]
fn a_stun_shot_sends_the_balls_off_at_ninety_degrees() {
    let (v0, l) = (1.5, 0.3);
    let a = MU_S * G;
    let t_hit = time_to_cover(v0, a, l);
    let wy0 = 2.5 * a * t_hit / R;
    for cut in [10.0f64, 30.0, 45.0, 60.0, 75.0] {
        let th = cut.to_radians();
        let n = [th.cos(), th.sin()];
        let (x0, y0) = (1.0, 4.0);
        let obj = [x0 + l + 2.0 * R * n[0], y0 + 2.0 * R * n[1]];
        let mut w = world(
            (8.0, 8.0),
            physics(1.0, 0.5),
            &[
                ball(x0, y0, [v0, 0.0], [0.0, wy0, 0.0]),
                ball(obj[0], obj[1], [0.0, 0.0], [0.0; 3]),
            ],
        );
        w.run_steps(30).unwrap();
        let hits = pair_rows(&w);
        assert_eq!(hits.len(), 1, "{cut}: {hits:?}");
        assert!(
            rel(hits[0].time, t_hit) < 1e-12,
            "{cut}: hit at {}",
            hits[0].time
        );
        let b = w.balls();
        assert_eq!((b.vx[0], b.vx[1]), (0.0, 0.0), "{cut}: both at rest");
        let d_cue = [b.x[0] - (x0 + l), b.y[0] - y0];
        let d_obj = [b.x[1] - obj[0], b.y[1] - obj[1]];
        let len = |d: [f64; 2]| d[0].hypot(d[1]);
        let cos = (d_cue[0] * d_obj[0] + d_cue[1] * d_obj[1]) / (len(d_cue) * len(d_obj));
        assert!(cos.abs() < 1e-12, "{cut}: cos {cos}");
        // The object ball along the line of centres, the cue ball across it.
        let across = (d_obj[0] * n[1] - d_obj[1] * n[0]) / len(d_obj);
        let along = (d_cue[0] * n[0] + d_cue[1] * n[1]) / len(d_cue);
        assert!(across.abs() < 1e-12 && along.abs() < 1e-12, "{cut}");
    }
}

/// A rolling cue ball cut into an object ball at angle `theta` (between its path and
/// the line of centres): the smooth elastic impact leaves it the velocity across the
/// line, `v sin(theta)`, and its forward roll, so its contact point slips at `-v
/// cos(theta) n`; sliding friction takes `2/7` of that slip off it as velocity, and it
/// rolls on at `v sin(theta) t + (2/7) v cos(theta) n` (`t` across the line): deflected
/// from its first line by `atan(5 sin cos / (5 sin^2 + 2))`, 33.7 degrees for a half-ball
/// hit (the "30-degree rule"). Its direction once rolling is read from its velocity.
///
/// Tolerance: the velocity's direction carries a few ulps; the line of centres at the
/// impact is positions of order 4 m (ulp 1e-15) two radii apart, 2e-14 of a radian.
/// 1e-12 rad is fifty times that.
#[test]
fn a_rolling_cue_ball_is_deflected_by_the_thirty_degree_rule() {
    let (v0, l) = (1.2, 0.25);
    for cut in [15.0f64, 30.0, 45.0, 60.0] {
        let th = cut.to_radians();
        let n = [th.cos(), th.sin()];
        let (x0, y0) = (1.0, 4.0);
        let obj = [x0 + l + 2.0 * R * n[0], y0 + 2.0 * R * n[1]];
        let mut w = world(
            (8.0, 8.0),
            physics(1.0, 0.01),
            &[
                ball(x0, y0, [v0, 0.0], [0.0, -v0 / R, 0.0]),
                ball(obj[0], obj[1], [0.0, 0.0], [0.0; 3]),
            ],
        );
        run_until_phase(&mut w, 0, Phase::Rolling, 0.0, 1000);
        let b = w.balls();
        assert_eq!(pair_rows(&w).len(), 1, "{cut}");
        let deflection = (-b.vy[0]).atan2(b.vx[0]);
        let (s, c) = th.sin_cos();
        let want = (5.0 * s * c / (5.0 * s * s + 2.0)).atan();
        assert!(
            (deflection - want).abs() < 1e-12,
            "{cut}: {} degrees, not {}",
            deflection.to_degrees(),
            want.to_degrees()
        );
        if cut == 30.0 {
            assert!((deflection.to_degrees() - 33.7).abs() < 0.05);
        }
    }
}

/// A draw shot: a cue ball sliding with backspin strikes an object ball head on,
/// equal masses, `e = 1`: it stops dead and keeps its spin `wy`. Its contact point then
/// slips at `r wy`, and sliding friction turns it back until it rolls at `(2/7) r wy`
/// (the slip shrinks at `(1 + 5/2) mu_s g`, the velocity grows at `mu_s g`) after
/// `r wy / (7/2 mu_s g)`. The spin at the impact follows from the slide before it:
/// `wy0 - (5/2) mu_s g t_hit / r`.
///
/// Tolerance: closed forms of a few operations on numbers of order one: 1e-12
/// relative is a thousand ulps.
#[test]
fn a_draw_shot_comes_back_at_two_sevenths_of_its_spin() {
    let (v0, wy0, l) = (2.0, 150.0, 0.4);
    let a = MU_S * G;
    let t_hit = time_to_cover(v0, a, l);
    let wy_hit = wy0 - 2.5 * a * t_hit / R;
    assert!(
        v0 + R * wy0 - 3.5 * a * t_hit > 0.0,
        "still sliding at the impact"
    );
    let (x0, y0) = (8.0, 1.0);
    let mut w = world(
        (20.0, 2.0),
        physics(1.0, 0.01),
        &[
            ball(x0, y0, [v0, 0.0], [0.0, wy0, 0.0]),
            ball(x0 + l + 2.0 * R, y0, [0.0, 0.0], [0.0; 3]),
        ],
    );
    let rolls = run_until_phase(&mut w, 0, Phase::Rolling, t_hit, 1000);
    let hit = pair_rows(&w);
    assert_eq!(hit.len(), 1);
    assert!(
        rel(hit[0].time, t_hit) < 1e-12,
        "{} vs {t_hit}",
        hit[0].time
    );
    let slide_back = R * wy_hit / (3.5 * a);
    assert!(rel(rolls.time - t_hit, slide_back) < 1e-12);
    // Rolling decelerates it by mu_r g from then on: its speed when it began to roll.
    let b = w.balls();
    let since = w.time - rolls.time;
    let back = -b.vx[0] + MU_R * G * since;
    let want = 2.0 / 7.0 * R * wy_hit;
    assert!(rel(back, want) < 1e-12, "comes back at {back}, not {want}");
    assert_eq!(b.vy[0], 0.0);
}

/// Energy never rises on cloth: the pool preset's break (tight rack, the cue ball at
/// 300 in/s, six cushions with jaws and pockets) on cloth, sampled every 0.01 s until
/// every ball has stopped, smooth and with ball-ball and cushion friction (throw).
/// Every process removes energy (cloth friction at every instant, `e = 0.95` between
/// balls, 0.8 at the cushions, Coulomb friction); a rise would be a gain.
///
/// Tolerance: the total is a sum of 16 balls' energies evaluated anew at each sample
/// (round-off some 1e-15 of the break's energy); 1e-12 of the initial energy is a
/// thousand times that and a million times below the energy of a ball at a tenth of
/// the break's speed.
#[test]
fn energy_never_rises_over_a_break_on_cloth() {
    for mu in [0.0, 0.06] {
        let preset = carom::presets::find("pool").unwrap();
        let mut s = preset.scenario().unwrap();
        s.physics.friction = Friction::cloth(386.0);
        s.physics.contact_friction.mu = mu;
        let mut w = carom::parse::build_world(&s).unwrap();
        w.set_event_log(true);
        let e0 = w.diagnostics().total_energy;
        let mut last = e0;
        let mut steps = 0;
        loop {
            w.run_steps(1).unwrap();
            steps += 1;
            let e = w.diagnostics().total_energy;
            assert!(
                e <= last + 1e-12 * e0,
                "mu {mu}: energy rose from {last} to {e} at t = {}",
                w.time
            );
            last = e;
            if e == 0.0 || steps > 5000 {
                break;
            }
        }
        assert_eq!(last, 0.0, "mu {mu}: every ball at rest within 50 s");
        let log = w.event_log();
        let count = |k: EventKind| log.iter().filter(|r| r.kind == k).count();
        assert!(count(EventKind::BallBall) > 15, "mu {mu}: the rack breaks");
        assert!(count(EventKind::Wall) > 0, "mu {mu}: cushions struck");
        assert!(count(EventKind::PhaseChange) > 30, "mu {mu}: phases");
    }
}

/// A sliding ball's centre: `p0 + v0 t - mu_s g t^2 u0 / (2 |u0|)` with the slip `u0 =
/// v0 + r (wy, -wx)`; a rolling ball's: `p0 + v0 t - mu_r g t^2 v0 / (2 |v0|)`; at rest:
/// `p0`. Written here from the law, independently of the library.
fn closed_form(p0: [f64; 2], v0: [f64; 2], w: [f64; 3], t: f64) -> [f64; 2] {
    let u = [v0[0] + R * w[1], v0[1] - R * w[0]];
    let (dir, a) = if u[0].hypot(u[1]) > 1e-9 {
        (u, MU_S * G)
    } else if v0 != [0.0, 0.0] {
        (v0, MU_R * G)
    } else {
        return p0;
    };
    let k = -0.5 * a * t * t / dir[0].hypot(dir[1]);
    [
        p0[0] + v0[0] * t + k * dir[0],
        p0[1] + v0[1] * t + k * dir[1],
    ]
}

/// Two balls in different phases (different constant accelerations: the gap is a
/// quartic in time) meet at the time the log gives, checked against the first root of
/// `|p_a(t) - p_b(t)|^2 - (2 r)^2` found here by scanning and bisection on the closed
/// forms (every meeting falls within both balls' first phase: checked).
///
/// Tolerance: the root is found to the last bit by both; the gap's slope at the
/// crossing is of order 0.1 m^2/s and its round-off some 1e-17 m^2, a time of 1e-16 s.
/// 1e-12 relative (of times near 0.1 s) is far above that and far below a wrong root
/// (a parabola taken for a line is off by milliseconds here).
#[test]
fn balls_in_different_phases_meet_at_the_quartic_root() {
    let roll = |v: [f64; 2]| [v[1] / R, -v[0] / R, 0.0];
    // (ball a: v, w), (ball b: v, w), and the angle (degrees) of the line of centres
    // at the meeting from the line of their relative velocity: a curving slide against
    // a roll, a slide onto a ball at rest, a roll against a slide with side spin.
    let cases: [([f64; 2], [f64; 3], [f64; 2], [f64; 3], f64); 3] = [
        (
            [1.2, 0.3],
            [60.0, -40.0, 0.0],
            [-0.8, 0.5],
            roll([-0.8, 0.5]),
            30.0,
        ),
        ([1.2, 0.3], [60.0, -40.0, 0.0], [0.0, 0.0], [0.0; 3], -50.0),
        (
            [0.9, 0.0],
            roll([0.9, 0.0]),
            [0.1, -1.4],
            [-30.0, 20.0, 5.0],
            10.0,
        ),
    ];
    let t_meet = 0.08;
    let pa = [1.0, 1.0];
    for (k, &(va, wa, vb, wb, angle)) in cases.iter().enumerate() {
        // Ball b placed so that the two touch at `t_meet`, b on the side the relative
        // velocity comes from, turned by `angle`.
        let at = closed_form(pa, va, wa, t_meet);
        let rv = [va[0] - vb[0], va[1] - vb[1]];
        let (s, c) = angle.to_radians().sin_cos();
        let len = rv[0].hypot(rv[1]);
        let d = [(c * rv[0] - s * rv[1]) / len, (s * rv[0] + c * rv[1]) / len];
        let moved = closed_form([0.0, 0.0], vb, wb, t_meet);
        let pb = [
            at[0] + 2.0 * R * d[0] - moved[0],
            at[1] + 2.0 * R * d[1] - moved[1],
        ];
        let gap = |t: f64| {
            let (a, b) = (closed_form(pa, va, wa, t), closed_form(pb, vb, wb, t));
            let d = [b[0] - a[0], b[1] - a[1]];
            d[0] * d[0] + d[1] * d[1] - 4.0 * R * R
        };
        assert!(gap(0.0) > 0.0, "case {k}: apart at the start");
        // The first sign change on a fine grid, then bisection to the last bit.
        let step = 1e-5;
        let mut lo = 0.0;
        while gap(lo + step) > 0.0 {
            lo += step;
            assert!(lo <= t_meet, "case {k}: no meeting");
        }
        let mut hi = lo + step;
        loop {
            let mid = 0.5 * (lo + hi);
            if mid <= lo || mid >= hi {
                break;
            }
            if gap(mid) > 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let mut w = world(
            (3.0, 3.0),
            physics(1.0, 0.5),
            &[ball(pa[0], pa[1], va, wa), ball(pb[0], pb[1], vb, wb)],
        );
        w.run_steps(1).unwrap();
        let hit = pair_rows(&w);
        assert!(!hit.is_empty(), "case {k}");
        // Both balls still in their first phase then (so the closed forms hold).
        let first_change = w
            .event_log()
            .iter()
            .filter(|r| r.kind == EventKind::PhaseChange && r.time < hit[0].time)
            .count();
        assert_eq!(first_change, 0, "case {k}");
        assert!(
            rel(hit[0].time, hi) < 1e-12,
            "case {k}: the model meets at {}, bisection at {hi}",
            hit[0].time
        );
    }
}

/// The state a ball reaches on cloth from `(x, v)` along one axis, moving towards the
/// high side at `v > 0` with the slip `u` (`v + r wy`) and no other motion, by the
/// closed forms: slide until `u = 0` (`|u| / (7/2 mu_s g)`), roll until it stops.
/// Returns where it stops.
fn rest_along_x(x: f64, v: f64, u: f64) -> f64 {
    let (a_s, a_r) = (MU_S * G, MU_R * G);
    let t_s = u.abs() / (3.5 * a_s);
    let a = -a_s * u.signum();
    let (x, v) = (x + v * t_s + 0.5 * a * t_s * t_s, v + a * t_s);
    x + v * v.abs() / (2.0 * a_r)
}

/// A ball rolling straight into a cushion without friction (`mu = 0`): the impulse acts
/// along the line from the centre to the nose, at angle `theta` above the horizontal
/// (`sin(theta) = (h - r) / r`), and the ball's normal speed `v` becomes `v (1 - (1 +
/// e) cos^2(theta))` (the impulse's vertical part goes into the cloth), its spins
/// unchanged (the impulse points through the centre). With the nose at the equator
/// (`h = r`, a wall inside the table with that `cushion_height`) the cushion is a wall:
/// `-e v`; with the table's own walls, the standard nose (`1.27 r`). Checked: the log's
/// approach speed (the closed-form speed at the cushion) and impulse `m (1 + e) v
/// cos(theta)`, then where the ball comes to rest after sliding and rolling back.
///
/// Tolerance: the closed forms are a few operations on numbers of order one; the impact
/// point comes from the walls' exact times of impact: 1e-12 relative is far above their
/// round-off and far below any error of the law (a cushion that ignored the nose height
/// is 15 % off).
#[test]
fn a_straight_shot_into_a_cushion_comes_back_by_the_nose_geometry() {
    let v0 = 1.5;
    let x0 = 1.0;
    for (inner, e) in [
        (true, 1.0),
        (true, 0.8),
        (true, 0.5),
        (false, 0.9),
        (false, 0.6),
    ] {
        let (wall_x, h) = if inner { (3.0, R) } else { (4.0, 1.27 * R) };
        let walls = if inner {
            format!(
                "[[walls]]\nkind = \"segment\"\npoints = [[3.0, 0.5], [3.0, 1.5]]\n\
                 restitution = {e}\nmu = 0.0\ncushion_height = {R}\n"
            )
        } else {
            String::new()
        };
        let toml = format!(
            "{walls}\n[table]\nwidth = 4.0\nheight = 2.0\n[physics]\nmodel = \"event\"\n\
             dt = 0.5\nrestitution = {e}\nfriction = {{ kind = \"cloth\", g_normal = {G} }}\n\
             [[balls]]\nx = {x0}\ny = 1.0\nvx = {v0}\nwy = {}\nr = {R}\nm = {M}\n",
            -v0 / R
        );
        let s = carom::parse::parse_scenario(&toml, carom::parse::Format::Toml).unwrap();
        let mut w = carom::parse::build_world(&s).unwrap();
        w.set_event_log(true);
        w.run_steps(30).unwrap();
        let d = wall_x - R - x0;
        let v_hit = (v0 * v0 - 2.0 * MU_R * G * d).sqrt();
        let rows: Vec<LoggedEvent> = w
            .event_log()
            .iter()
            .filter(|r| matches!(r.kind, EventKind::Wall | EventKind::TableWall(_)))
            .copied()
            .collect();
        assert_eq!(rows.len(), 1, "inner {inner}, e {e}: {rows:?}");
        let sin = (h - R) / R;
        let cos2 = 1.0 - sin * sin;
        assert!(rel(rows[0].approach, v_hit) < 1e-12, "{inner} {e}");
        assert!(
            rel(rows[0].impulse, M * (1.0 + e) * v_hit * cos2.sqrt()) < 1e-12,
            "{inner} {e}: impulse {}",
            rows[0].impulse
        );
        // Back from the cushion, still spinning forward: the slip is the new velocity
        // minus the old one.
        let v1 = v_hit * (1.0 - (1.0 + e) * cos2);
        let u1 = v1 - v_hit;
        assert!(v1 < 0.0 && v1 - 2.0 / 7.0 * u1 < 0.0, "it comes back");
        let want = rest_along_x(wall_x - R, v1, u1);
        let b = w.balls();
        assert_eq!((b.vx[0], b.vy[0]), (0.0, 0.0));
        assert!(
            rel(b.x[0], want) < 1e-12,
            "inner {inner}, e {e}: rests at {} not {want}",
            b.x[0]
        );
        assert_eq!(b.y[0], 1.0);
        let phases: Vec<Phase> = phase_rows(&w, 0).iter().map(|r| r.phase.unwrap()).collect();
        assert_eq!(phases, [Phase::Sliding, Phase::Rolling, Phase::Stationary]);
    }
}

/// Free flight in the event model against the law's own closed form over the whole
/// time at once ([`Cloth::evolve`]): a ball with a curving slide (slip across its
/// velocity), then a roll, with more spin about the vertical than the roll lasts, so
/// that it goes through every phase. Sampled every 0.05 s (each sample read from the
/// model, which then continues from what it wrote), velocity, spins and position agree
/// to round-off, the phase changes come at the law's times, and the angle has turned by
/// the integral of the decaying spin, `omega0^2 / (2 rate)` once it stopped.
///
/// Tolerance: both sides compute the same closed forms in a different order (the model
/// phase by phase from its samples, `evolve` from the start): velocities of order 1
/// m/s and spins of order 100 rad/s agree to 1e-12 relative of their scale, many
/// times their round-off.
#[test]
fn free_flight_follows_the_law_through_every_phase() {
    let law = Cloth::of(&cloth()).unwrap();
    let body = Body::new(R, M, solid_sphere_inertia(M, R));
    let s0 = Sphere {
        v: [0.6, -0.4],
        w: [30.0, 25.0, 80.0],
    };
    let p0 = [3.0, 3.0];
    let mut changes = Vec::new();
    let (end, _) = law.evolve(&s0, body, 20.0, |t, _, to| changes.push((t, to)));
    assert_eq!(
        changes.iter().map(|c| c.1).collect::<Vec<_>>(),
        [Phase::Rolling, Phase::Spinning, Phase::Stationary]
    );
    assert_eq!(end.v, [0.0, 0.0]);
    let mut w = world(
        (6.0, 6.0),
        physics(1.0, 0.05),
        &[ball(p0[0], p0[1], s0.v, s0.w)],
    );
    for k in 1..=200 {
        w.run_steps(1).unwrap();
        let t = 0.05 * k as f64;
        let (s, d) = law.evolve(&s0, body, t, |_, _, _| {});
        let b = w.balls();
        for (got, want, scale) in [
            (b.vx[0], s.v[0], 1.0),
            (b.vy[0], s.v[1], 1.0),
            (b.wx[0], s.w[0], 100.0),
            (b.wy[0], s.w[1], 100.0),
            (b.omega[0], s.w[2], 100.0),
            (b.x[0], p0[0] + d[0], 3.0),
            (b.y[0], p0[1] + d[1], 3.0),
        ] {
            assert!(
                (got - want).abs() <= 1e-12 * scale,
                "t {t}: {got} vs {want}"
            );
        }
    }
    let rows = phase_rows(&w, 0);
    assert_eq!(rows.len(), 3);
    for (r, (t, to)) in rows.iter().zip(&changes) {
        assert_eq!(r.phase, Some(*to));
        assert!(
            (r.time - t).abs() < 1e-12 * t,
            "{to:?} at {} not {t}",
            r.time
        );
    }
    let rate = 5.0 * MU_SP * G / (2.0 * R);
    let turned = s0.w[2] * s0.w[2] / (2.0 * rate);
    assert!(rel(w.balls().angle[0], turned) < 1e-12);
}

/// How often the state is read changes nothing but round-off: the draw shot sampled
/// every 0.01 s (each read restarts the model's predictions from the balls as written,
/// phases derived afresh) and in one 10 s interval agree to 1e-12 m (positions of order
/// 5 m, a few ulps each, through a handful of impacts); steps left unread one by one are
/// the single run of as many steps to the bit.
#[test]
fn sampling_does_not_change_a_cloth_run() {
    let balls = [
        ball(5.0, 1.0, [2.0, 0.3], [-5.0, 150.0, 20.0]),
        ball(5.5, 1.1, [0.0, 0.0], [0.0; 3]),
        ball(6.0, 0.9, [-1.0, 0.2], [0.0, 0.0, -10.0]),
    ];
    // Read after every step, read in chunks of one step left unread, or run at once.
    let run = |dt: f64, steps: u64, how: u8| {
        let mut w = world((12.0, 2.0), physics(0.95, dt), &balls);
        match how {
            0 => (0..steps).for_each(|_| w.run_steps(1).unwrap()),
            1 => {
                (0..steps).for_each(|_| w.run_steps_unread(1).unwrap());
                w.synchronise();
            }
            _ => w.run_steps(steps).unwrap(),
        }
        assert!(w.collisions() >= 2, "the balls meet");
        w.balls().clone()
    };
    let one = run(10.0, 1, 0);
    let many = run(0.01, 1000, 0);
    let chunks = run(0.01, 1000, 1);
    let single = run(0.01, 1000, 2);
    assert!(one.vx.iter().all(|&v| v == 0.0), "all at rest after 10 s");
    for i in 0..3 {
        assert!((one.x[i] - many.x[i]).abs() < 1e-12, "{i}");
        assert!((one.y[i] - many.y[i]).abs() < 1e-12, "{i}");
        assert_eq!(chunks.x[i].to_bits(), single.x[i].to_bits());
        assert_eq!(chunks.y[i].to_bits(), single.y[i].to_bits());
    }
}

/// Cloth is a level table seen from above: with gravity in the table's plane as well,
/// the event model refuses the scene with an error that names the field.
#[test]
fn cloth_with_gravity_in_the_plane_is_refused() {
    let p = Physics {
        gravity: [0.0, 9.81],
        ..physics(1.0, 0.1)
    };
    let err = World::from_balls(
        Table::new(2.0, 2.0),
        p,
        &[ball(1.0, 1.0, [0.0; 2], [0.0; 3])],
    )
    .unwrap_err();
    assert!(err.to_string().contains("physics.gravity"), "{err}");
}

/// A contact the cloth presses shut: a rolling ball touching a stun ball ahead of it,
/// both at `v0` along x. The stun ball slides (decelerating at `mu_s g`), the rolling
/// one behind only at `mu_r g`, so it pushes: as one rigid pair (the rolling ball's
/// effective mass `m + I / r^2 = 7/5 m`, the cloth gripping it) they decelerate at `a =
/// -mu_s g + F / m` with the contact force `F = (mu_s - mu_r) g / (1 / m + 5 / (7 m))`,
/// until the front ball's slip (shrinking at `a - 5/2 mu_s g`, its spin turned by the
/// sliding friction alone) is gone; then both roll on together and stop together. The
/// model stands for the contact's force by bounces over gaps of 1e-4 of the contact
/// distance; energy never rises, the run never stalls, and the pair ends where the
/// rigid pair does, touching.
///
/// Tolerance: the bounces carry the pair's relative speed to at most the pressed
/// contact's 4.6 mm/s around the rigid motion, which moves the front ball's switch to
/// rolling by at most a bounce's share of its slide and the pair's roll-out distance by
/// about 1e-3 m at most (`v1 / (mu_r g)` times the speed error); the test allows 2e-3
/// m of 3.8 m, and 1e-5 m between the two balls' gap and contact (a few of the bounces'
/// 5.7e-6 m gaps): a pair left flying apart at the contact's speed would be centimetres
/// apart.
#[test]
fn a_pressed_contact_pushes_like_a_rigid_pair() {
    let v0 = 1.0;
    let x0 = 1.0;
    let mut w = world(
        (6.0, 1.0),
        physics(0.95, 0.01),
        &[
            ball(x0, 0.5, [v0, 0.0], [0.0, -v0 / R, 0.0]),
            ball(x0 + 2.0 * R, 0.5, [v0, 0.0], [0.0; 3]),
        ],
    );
    let e0 = w.diagnostics().total_energy;
    let mut last = e0;
    for _ in 0..1000 {
        w.run_steps(1).unwrap();
        let e = w.diagnostics().total_energy;
        assert!(e <= last + 1e-12 * e0, "energy rose from {last} to {e}");
        last = e;
    }
    let (ms, mr) = (MU_S * G, MU_R * G);
    let f = (ms - mr) / (1.0 + 5.0 / 7.0);
    let a = -ms + f;
    let t1 = v0 / (2.5 * ms - a);
    let v1 = v0 + a * t1;
    let travel = v0 * t1 + 0.5 * a * t1 * t1 + v1 * v1 / (2.0 * mr);
    let b = w.balls();
    assert_eq!((b.vx[0], b.vx[1]), (0.0, 0.0));
    let gap = b.x[1] - b.x[0] - 2.0 * R;
    assert!(
        (b.x[0] - x0 - travel).abs() < 2e-3,
        "{} vs {travel}",
        b.x[0] - x0
    );
    assert!((0.0..1e-5).contains(&gap), "gap {gap}");
    assert!(w.collisions() < 200, "{} impacts", w.collisions());
}

/// A small pseudo-random stream for the scenes below (any will do; fixed seed).
struct Lcg(u64);

impl Lcg {
    fn unit(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Runs `w` in its steps until every ball is at rest (at most `max` steps), checking
/// that the total energy never rises by more than 1e-12 of its start (round-off of
/// sums over a few dozen balls, see `energy_never_rises_over_a_break_on_cloth`).
fn run_to_rest(w: &mut World, max: u64, what: &str) {
    let e0 = w.diagnostics().total_energy;
    let mut last = e0;
    for step in 0..max {
        if let Err(e) = w.run_steps(1) {
            panic!("{what}, step {step}: {e}");
        }
        let e = w.diagnostics().total_energy;
        assert!(
            e <= last + 1e-12 * e0,
            "{what}: energy rose from {last} to {e}"
        );
        last = e;
        if e == 0.0 {
            return;
        }
    }
    panic!("{what}: still moving after {max} steps");
}

/// Robustness: breaks of the pool rack on cloth with the cue ball at random speeds
/// (50 to 450 in/s), aims and spins, smooth and with throw, and random clusters of
/// balls (many touching) in a small box struck at random with random spins, each run
/// until every ball rests: none stalls (touching balls sliding past each other, balls
/// pressed together by the cloth, soft touches at every speed), and the energy never
/// rises.
#[test]
fn random_breaks_and_clusters_come_to_rest_without_gaining_energy() {
    let mut rng = Lcg(5);
    for k in 0..60 {
        let mut s = carom::presets::find("pool").unwrap().scenario().unwrap();
        s.physics.friction = Friction::cloth(386.0);
        s.physics.contact_friction.mu = if k % 2 == 0 { 0.0 } else { 0.06 };
        s.physics.dt = 0.05;
        let speed = 50.0 + 400.0 * rng.unit();
        let aim: f64 = (rng.unit() - 0.5) * 0.2;
        let cue = &mut s.balls[0];
        (cue.vx, cue.vy) = (speed * aim.cos(), speed * aim.sin());
        cue.wx = Some((rng.unit() - 0.5) * 400.0);
        cue.wy = Some((rng.unit() - 0.5) * 400.0);
        cue.omega = Some((rng.unit() - 0.5) * 400.0);
        let mut w = carom::parse::build_world(&s).unwrap();
        run_to_rest(&mut w, 1000, &format!("break {k}"));
    }
    for k in 0..60 {
        let mut p = physics(0.9 + 0.1 * rng.unit(), 0.05);
        p.contact_friction.mu = if k % 3 == 0 { 0.0 } else { 0.1 * rng.unit() };
        let mut balls: Vec<Ball> = Vec::new();
        for row in 0..5 {
            for col in 0..5 {
                if rng.unit() < 0.35 {
                    continue;
                }
                let spacing = if rng.unit() < 0.5 {
                    2.0 * R
                } else {
                    2.0 * R * (1.0 + 0.5 * rng.unit())
                };
                let (x, y) = (0.3 + col as f64 * spacing, 0.2 + row as f64 * spacing);
                let mut b = ball(x, y, [0.0; 2], [0.0; 3]);
                if rng.unit() < 0.3 {
                    b.vx = (rng.unit() - 0.5) * 6.0;
                    b.vy = (rng.unit() - 0.5) * 6.0;
                    b.wx = (rng.unit() - 0.5) * 200.0;
                    b.wy = (rng.unit() - 0.5) * 200.0;
                    b.omega = (rng.unit() - 0.5) * 200.0;
                }
                let free = balls
                    .iter()
                    .all(|o| (o.x - b.x).hypot(o.y - b.y) >= 2.0 * R);
                if free {
                    balls.push(b);
                }
            }
        }
        let mut w = world((1.27, 0.635), p, &balls);
        run_to_rest(&mut w, 2000, &format!("cluster {k}"));
    }
}
