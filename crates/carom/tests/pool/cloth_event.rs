//! Pool balls on cloth in the `event` model, against the physics written here: the
//! closed forms of a sphere sliding and rolling on cloth (solid sphere, `I = 2 m r^2 /
//! 5`), the classic cut-shot rules that follow from them, a cushion that reduces to a
//! wall (and Han's nose geometry), contact times between balls in different phases
//! against an independent root, and free flight against the law's own `evolve`
//! (`cloth_event_robust.rs` has the tests of the whole: energy, robustness).
//!
//! The model is exact: every phase is a parabola in time, and phase ends, contacts and
//! walls are found as roots, so quantities hold to round-off. Tolerances are argued
//! where they are set.

use crate::cloth;

use carom::cloth::{Body, Cloth, Sphere};
use carom::event_log::{EventKind, LoggedEvent};
use carom::solid_sphere_inertia;
use carom::Phase;
use cloth::*;

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
    type Motion = ([f64; 2], [f64; 3]);
    let cases: [(Motion, Motion, f64); 3] = [
        (
            ([1.2, 0.3], [60.0, -40.0, 0.0]),
            ([-0.8, 0.5], roll([-0.8, 0.5])),
            30.0,
        ),
        (
            ([1.2, 0.3], [60.0, -40.0, 0.0]),
            ([0.0, 0.0], [0.0; 3]),
            -50.0,
        ),
        (
            ([0.9, 0.0], roll([0.9, 0.0])),
            ([0.1, -1.4], [-30.0, 20.0, 5.0]),
            10.0,
        ),
    ];
    let t_meet = 0.08;
    let pa = [1.0, 1.0];
    for (k, &((va, wa), (vb, wb), angle)) in cases.iter().enumerate() {
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
