//! Pool balls on cloth in the stepping models (`impulse`, `simultaneous`, `spring`),
//! against closed forms and conservation laws worked out here, not against the code.
//!
//! Units: metres, seconds, kilograms; a pool ball (r = 28.575 mm, 170 g) on a cloth
//! with the standard coefficients (sliding 0.2, rolling 0.01, spinning 0.0127) and
//! g = 9.81 m/s^2.
//!
//! The stepping models move every ball by the cloth's closed form over each step (see
//! `friction::cloth_motion`): a ball that meets nothing follows the law exactly, so
//! its results match the closed forms to round-off, whatever the step; an impact is
//! resolved at the end of the step that finds it, so what follows one carries that
//! step's error (argued test by test).

use carom::cloth::{Body, Cloth, Sphere};
use carom::event_log::{EventKind, LoggedEvent};
use carom::parse::{load, Format};
use carom::Phase;
use carom::World;

const R: f64 = 0.028575;
const M: f64 = 0.17;
const G: f64 = 9.81;
const MU_S: f64 = 0.2;
const MU_R: f64 = 0.01;
const MU_SP: f64 = 0.0127;

const STEPPING: [&str; 3] = ["impulse", "simultaneous", "spring"];

/// The cloth every test runs on.
fn cloth() -> Cloth {
    Cloth {
        sliding: MU_S * G,
        rolling: MU_R * G,
        spinning: MU_SP * G,
    }
}

/// A solid sphere's `m r^2 / I`.
const BODY: Body = Body { r: R, k: 2.5 };

/// One ball as a `[[balls]]` entry: position, velocity, spins (wx, wy, omega).
fn ball(p: [f64; 2], v: [f64; 2], w: [f64; 3]) -> String {
    format!(
        "[[balls]]\nx = {:?}\ny = {:?}\nvx = {:?}\nvy = {:?}\nwx = {:?}\nwy = {:?}\nomega = {:?}\nr = {R:?}\nm = {M:?}\n",
        p[0], p[1], v[0], v[1], w[0], w[1], w[2]
    )
}

/// A scene on cloth: a `width` x `height` table, the model, the time step, more
/// `[physics]` keys and top-level TOML (walls), and the balls. Springs stiff enough
/// for a contact to last some 30 steps of 1e-4 s between two balls (`pi sqrt(m/(2k))`
/// = 2.9 ms), the log on.
fn scene(
    (width, height): (f64, f64),
    model: &str,
    dt: f64,
    physics: &str,
    top: &str,
    balls: &[String],
) -> World {
    let text = format!(
        "duration = 1.0\n{top}\n[table]\nwidth = {width:?}\nheight = {height:?}\n\n[physics]\n\
         model = \"{model}\"\ndt = {dt:?}\nstiffness = 1e5\n\
         friction = {{ kind = \"cloth\", sliding_mu = {MU_S:?}, rolling_mu = {MU_R:?}, \
         spinning_mu = {MU_SP:?}, g_normal = {G:?} }}\n{physics}\n\n{}",
        balls.concat()
    );
    let (_, mut w) = load(&text, Format::Toml).unwrap_or_else(|e| panic!("{e}\n{text}"));
    w.set_event_log(true);
    w
}

fn sphere(w: &World, i: usize) -> Sphere {
    let b = w.balls();
    Sphere {
        v: [b.vx[i], b.vy[i]],
        w: [b.wx[i], b.wy[i], b.omega[i]],
    }
}

fn phase_rows(w: &World, i: u32) -> Vec<(f64, Phase)> {
    w.event_log()
        .iter()
        .filter(|e| e.kind == EventKind::PhaseChange && e.i == i)
        .map(|e| (e.time, e.phase.expect("a phase row names its phase")))
        .collect()
}

/// Steps until `done`, at most `max` steps.
fn run(w: &mut World, max: u64, mut done: impl FnMut(&World) -> bool) {
    for _ in 0..max {
        if done(w) {
            return;
        }
        w.step().expect("step");
    }
    panic!("not done after {max} steps");
}

/// A stun shot (no spin) at v0: it slides for `2 v0 / (7 mu_s g)`, rolls on at
/// `5/7 v0`, having slid `12 v0^2 / (49 mu_s g)`, and rolls `25 v0^2 / (98 mu_r g)`
/// more. A lone ball's motion is the closed form itself in every stepping model, so
/// the only errors are round-off: the world's clock adds `dt` once a step (after n
/// steps it is off by at most n eps t, 1e-11 s here) and the positions sum n
/// displacements (n eps x, 1e-11 m for 7e4 steps over 3 m). 1e-9 covers both with
/// room, at two time steps ten times apart: the result does not depend on `dt`.
#[test]
fn a_stun_shot_slides_rolls_and_stops_where_the_closed_form_says() {
    let v0 = 1.0;
    let t_slide = 2.0 * v0 / (7.0 * MU_S * G);
    let t_roll = 5.0 / 7.0 * v0 / (MU_R * G);
    let slide = 12.0 * v0 * v0 / (49.0 * MU_S * G);
    let roll = 25.0 * v0 * v0 / (98.0 * MU_R * G);
    for model in STEPPING {
        for dt in [1e-3, 1e-4] {
            let what = format!("{model} at dt = {dt}");
            let x0 = 0.2;
            let mut w = scene(
                (4.0, 1.0),
                model,
                dt,
                "",
                "",
                &[ball([x0, 0.5], [v0, 0.0], [0.0; 3])],
            );
            // To the step that enters rolling: there the velocity is 5/7 v0 less the
            // rolling deceleration since the change.
            run(&mut w, 10_000_000, |w| !phase_rows(w, 0).is_empty());
            let (t, to) = phase_rows(&w, 0)[0];
            assert_eq!(to, Phase::Rolling, "{what}");
            assert!(
                (t - t_slide).abs() < 1e-9,
                "{what}: slid for {t}, not {t_slide}"
            );
            let v = w.balls().vx[0] + MU_R * G * (w.time - t);
            assert!((v - 5.0 / 7.0 * v0).abs() < 1e-9, "{what}: rolls at {v}");
            run(&mut w, 10_000_000, |w| phase_rows(w, 0).len() == 2);
            let rows = phase_rows(&w, 0);
            assert_eq!(rows[1].1, Phase::Stationary, "{what}");
            let t_stop = t_slide + t_roll;
            assert!(
                (rows[1].0 - t_stop).abs() < 1e-9,
                "{what}: stopped at {}",
                rows[1].0
            );
            let b = w.balls();
            assert_eq!((b.vx[0], b.vy[0], b.wx[0], b.wy[0]), (0.0, 0.0, 0.0, 0.0));
            let went = b.x[0] - x0;
            assert!(
                (went - (slide + roll)).abs() < 1e-9,
                "{what}: went {went}, not {}",
                slide + roll
            );
            assert_eq!(b.y[0], 0.5, "{what}: a straight shot stays on its line");
        }
    }
}

/// A free ball with every spin (follow, side, english: a curving masse path) ends
/// where one call of the closed form over the whole time puts it, in every model, and
/// the models agree. Round-off only (see the stun shot): positions of order 1 m summed
/// over 3000 steps, 1e-9 m; velocities and spins are set afresh each phase change and
/// follow linear laws, 1e-9 relative to their size.
#[test]
fn the_three_models_move_a_free_ball_as_the_closed_form() {
    let s0 = Sphere {
        v: [1.2, -0.4],
        w: [25.0, 60.0, -40.0],
    };
    let p0 = [2.0, 2.5];
    let t_end = 3.0;
    let (want, d) = cloth().evolve(&s0, BODY, t_end, |_, _, _| {});
    let mut ends = Vec::new();
    for model in STEPPING {
        let dt = 1e-3;
        let mut w = scene((5.0, 5.0), model, dt, "", "", &[ball(p0, s0.v, s0.w)]);
        w.run_steps((t_end / dt).round() as u64).unwrap();
        assert!((w.time - t_end).abs() < 1e-12);
        let s = sphere(&w, 0);
        let b = w.balls();
        let p = [b.x[0], b.y[0]];
        assert!(
            (p[0] - p0[0] - d[0]).abs() < 1e-9 && (p[1] - p0[1] - d[1]).abs() < 1e-9,
            "{model}: at {p:?}, the closed form at {:?}",
            [p0[0] + d[0], p0[1] + d[1]]
        );
        for k in 0..2 {
            assert!(
                (s.v[k] - want.v[k]).abs() < 1e-9,
                "{model}: v {:?} vs {:?}",
                s.v,
                want.v
            );
        }
        for k in 0..3 {
            assert!(
                (s.w[k] - want.w[k]).abs() < 1e-9 * want.w[k].abs().max(1.0),
                "{model}: w {:?} vs {:?}",
                s.w,
                want.w
            );
        }
        // The path curved: the test is not a straight line in disguise.
        assert!(d[0].abs() > 0.1 && d[1].abs() > 0.1);
        ends.push(p);
    }
    for p in &ends[1..] {
        assert!((p[0] - ends[0][0]).abs() < 1e-9 && (p[1] - ends[0][1]).abs() < 1e-9);
    }
}

/// The cue ball `(x, y)` of a cut: moving along +x at `v`, it meets a ball at rest
/// whose centre is `2r` away along the direction `phi` from +x when the cue ball has
/// travelled `gap`.
fn cut(phi: f64, gap: f64) -> ([f64; 2], [f64; 2]) {
    let cue = [0.5, 0.5];
    let obj = [
        cue[0] + gap + 2.0 * R * phi.cos(),
        cue[1] + 2.0 * R * phi.sin(),
    ];
    (cue, obj)
}

/// The first ball-ball row of the log.
fn first_impact(w: &World) -> Option<LoggedEvent> {
    w.event_log()
        .iter()
        .find(|e| e.kind == EventKind::BallBall)
        .copied()
}

/// The 90-degree rule: a stun cut (equal balls, elastic, no contact friction) sends the
/// cue ball off at right angles to the object ball, and on cloth both then slide
/// straight and roll on, still at right angles. What can bend it: the cue ball
/// acquires draw-free follow while sliding before the impact, `r wy` up to
/// `5/2 mu_s g t` for the `t <= dt` it travels before the step that finds the overlap
/// ends; afterwards that slip turns its path by at most `(2/5) r |wy| / v1` (its
/// rolling velocity is `v1 - (2/7) u`, `u` the slip), `v1 = v sin(phi)`:
/// `mu_s g dt / (v sin(phi))`, 4e-5 rad here. Twice that bounds it.
#[test]
fn a_stun_cut_leaves_at_ninety_degrees() {
    let (v, phi, dt) = (1.0, 30f64.to_radians(), 1e-5);
    let (cue, obj) = cut(phi, 0.5 * v * dt);
    for model in ["impulse", "simultaneous"] {
        let mut w = scene(
            (2.0, 1.0),
            model,
            dt,
            "",
            "",
            &[ball(cue, [v, 0.0], [0.0; 3]), ball(obj, [0.0; 2], [0.0; 3])],
        );
        // Until both roll after the impact.
        let rolling = |w: &World, i| phase_rows(w, i).iter().any(|r| r.1 == Phase::Rolling);
        run(&mut w, 1_000_000, |w| rolling(w, 0) && rolling(w, 1));
        assert!(first_impact(&w).is_some(), "{model}: the balls met");
        let b = w.balls();
        let (a, c) = ([b.vx[0], b.vy[0]], [b.vx[1], b.vy[1]]);
        let angle = (a[0] * c[1] - a[1] * c[0])
            .abs()
            .atan2(a[0] * c[0] + a[1] * c[1]);
        let tol = 2.0 * MU_S * G * dt / (v * phi.sin());
        assert!(
            (angle - std::f64::consts::FRAC_PI_2).abs() < tol,
            "{model}: {} degrees apart",
            angle.to_degrees()
        );
    }
}

/// A rolling cue ball cut at theta leaves the line it came on by
/// `atan(5 sin(theta) cos(theta) / (5 sin^2(theta) + 2))` once it rolls again (33.7
/// degrees for a half-ball hit): its slip after the impact is its rolling spin's,
/// `-v0`, plus its new velocity `v0 sin(theta)` along the tangent, and sliding friction
/// takes 2/7 of the slip off the velocity. A rolling ball stays rolling up to the
/// impact, so the only error is where the impact is resolved: at the end of a step,
/// with the balls overlapping by up to `v dt`, which turns the line of centres by up to
/// `v dt / (2 r cos(theta))`, 2e-4 rad here; theta is therefore measured on the line
/// of centres the model used (the balls' positions at the impact, which the impact
/// does not move), leaving round-off.
#[test]
fn a_rolling_cue_ball_leaves_a_cut_by_the_thirty_degree_rule() {
    let (v, dt) = (1.0, 1e-5);
    let (cue, obj) = cut(30f64.to_radians(), 0.5 * v * dt);
    let rolling = Sphere::rolling([v, 0.0], 0.0, R);
    for model in ["impulse", "simultaneous"] {
        let mut w = scene(
            (2.0, 1.0),
            model,
            dt,
            "",
            "",
            &[
                ball(cue, rolling.v, rolling.w),
                ball(obj, [0.0; 2], [0.0; 3]),
            ],
        );
        run(&mut w, 100_000, |w| first_impact(w).is_some());
        let b = w.balls();
        let theta = (b.y[1] - b.y[0]).atan2(b.x[1] - b.x[0]);
        assert!((theta - 30f64.to_radians()).abs() < 2.0 * v * dt / (2.0 * R * theta.cos()));
        let back = |w: &World| {
            phase_rows(w, 0)
                .iter()
                .filter(|r| r.1 == Phase::Rolling)
                .count()
        };
        run(&mut w, 1_000_000, |w| back(w) == 1);
        let b = w.balls();
        let deflection = (-b.vy[0]).atan2(b.vx[0]);
        let (s, c) = theta.sin_cos();
        let want = (5.0 * s * c).atan2(5.0 * s * s + 2.0);
        assert!(
            (deflection - want).abs() < 1e-9,
            "{model}: {} degrees, the rule {} ({} for exactly 30)",
            deflection.to_degrees(),
            want.to_degrees(),
            (5.0 * 0.5 * 0.75f64.sqrt()).atan2(3.25).to_degrees()
        );
    }
}

/// Throw: with contact friction, a stun cut sends the object ball off the line of
/// centres. The rough-disk law with a sphere's inertia gives, for equal balls, `e = 1`
/// and a slip stopped when it can be (`tangential_restitution = 0`), a normal impulse
/// `m u_n` and a tangential one `min(m u_t / 7, mu m u_n)`: the `7` is `1 + 1 + 5/2 +
/// 5/2`, both masses and both rotations about the vertical. So the throw angle is
/// `atan(min(mu, tan(phi) / 7))`, Alciatore's stun-shot throw (TP A.14) exactly. Both
/// regimes: a thin cut slides (`tan(phi)/7 > mu`), a full one sticks. Measured on the
/// line of centres of the impact and the cue ball's direction (+x: a stun ball slides
/// straight), so only round-off remains. The cue ball slides for one step before it
/// meets the object ball and picks up follow, `(5/2) mu_s g dt / r` of spin, whose
/// vertical slip the rough-sphere law counts: over `dt` it moves a sliding throw by
/// about `mu (r w / u_t)^2 / 2`, 7e-11 rad at `dt = 1e-5` but 7e-15 at the `1e-7` used
/// here, so the ball is stun to well within the tolerance.
#[test]
fn a_stun_cut_with_contact_friction_throws_the_object_ball_as_alciatore_says() {
    let (v, dt, mu) = (1.0, 1e-7, 0.06f64);
    let friction = format!("contact_friction = {{ mu = {mu}, tangential_restitution = 0.0 }}");
    for model in ["impulse", "simultaneous"] {
        for phi_deg in [10.0f64, 45.0] {
            let (cue, obj) = cut(phi_deg.to_radians(), 0.5 * v * dt);
            let mut w = scene(
                (2.0, 1.0),
                model,
                dt,
                &friction,
                "",
                &[ball(cue, [v, 0.0], [0.0; 3]), ball(obj, [0.0; 2], [0.0; 3])],
            );
            run(&mut w, 100_000, |w| first_impact(w).is_some());
            let b = w.balls();
            let n = (b.y[1] - b.y[0]).atan2(b.x[1] - b.x[0]);
            let moves = b.vy[1].atan2(b.vx[1]);
            let throw = n - moves;
            let want = mu.min(n.tan() / 7.0).atan();
            assert!(
                (throw - want).abs() < 1e-12,
                "{model} at {phi_deg} degrees: thrown {} degrees, Alciatore {}",
                throw.to_degrees(),
                want.to_degrees()
            );
        }
    }
}

/// A cushion whose nose is at the ball's equator, without friction, is a wall: a ball
/// meeting it straight comes back at `-e` times its approach, its spins untouched. The
/// state just before the impact is the closed form over the step from the state at
/// the step's start (the model moves a lone ball by it, and a cushion acts at the end
/// of the step), so this holds to round-off in every model, and the log's row carries
/// the impact.
#[test]
fn a_straight_hit_on_an_equator_high_frictionless_cushion_returns_minus_e_v() {
    let e = 0.8;
    let wall = format!(
        "walls = [{{ kind = \"segment\", points = [[1.5, 0.2], [1.5, 0.8]], \
         restitution = {e}, cushion_height = {R:?} }}]"
    );
    for model in STEPPING {
        let dt = 1e-4;
        let mut w = scene(
            (2.0, 1.0),
            model,
            dt,
            "restitution = 1.0",
            &wall,
            &[ball([1.0, 0.5], [1.0, 0.0], [0.0; 3])],
        );
        let mut before = sphere(&w, 0);
        run(&mut w, 100_000, |w| {
            let hit = w.event_log().iter().any(|e| e.kind == EventKind::Wall);
            if !hit {
                before = sphere(w, 0);
            }
            hit
        });
        let (pre, _) = cloth().evolve(&before, BODY, dt, |_, _, _| {});
        let now = sphere(&w, 0);
        let row = *w
            .event_log()
            .iter()
            .find(|e| e.kind == EventKind::Wall)
            .unwrap();
        assert!((row.approach - pre.v[0]).abs() < 1e-15, "{model}: {row:?}");
        assert!(
            (now.v[0] + e * pre.v[0]).abs() < 1e-15,
            "{model}: {:?} {:?}",
            now,
            pre
        );
        assert_eq!(now.v[1], 0.0);
        assert_eq!(now.w, pre.w, "{model}");
        assert!((row.impulse - M * (1.0 + e) * pre.v[0]).abs() < 1e-15);
    }
}

/// The table's own walls stand at the standard nose height, 1.27 r: the nose meets
/// the ball `theta = asin(0.27)` above its equator, so without friction the impulse
/// runs along that contact normal, through the centre: the spins are untouched, and
/// of the normal impulse `(1 + e) m v cos(theta)` the horizontal part
/// `(1 + e) m v cos^2(theta)` is all the velocity feels, `v' = v (1 - (1 + e)
/// cos^2(theta))` (-0.854 v for e = 1; the rest goes into the cloth). Round-off, as
/// above.
#[test]
fn a_table_cushion_at_the_standard_nose_height_returns_the_closed_form() {
    let cos2 = 1.0 - 0.27f64 * 0.27;
    for model in STEPPING {
        for e in [1.0, 0.7] {
            let dt = 1e-4;
            let physics = format!("restitution = {e:?}");
            let mut w = scene(
                (2.0, 1.0),
                model,
                dt,
                &physics,
                "",
                &[ball([1.5, 0.5], [1.0, 0.0], [0.0; 3])],
            );
            let mut before = sphere(&w, 0);
            let hit = |w: &World| w.event_log().iter().any(|e| e.kind.name() == "right");
            run(&mut w, 100_000, |w| {
                if !hit(w) {
                    before = sphere(w, 0);
                }
                hit(w)
            });
            let (pre, _) = cloth().evolve(&before, BODY, dt, |_, _, _| {});
            let now = sphere(&w, 0);
            let want = pre.v[0] * (1.0 - (1.0 + e) * cos2);
            assert!(
                (now.v[0] - want).abs() < 1e-14,
                "{model}, e = {e}: {} vs {want}",
                now.v[0]
            );
            for k in 0..3 {
                assert!(
                    (now.w[k] - pre.w[k]).abs() < 1e-12,
                    "{model}: {:?} {:?}",
                    now.w,
                    pre.w
                );
            }
            // Once, however long the ball overlaps the wall.
            w.run_steps(200).unwrap();
            let rows = w
                .event_log()
                .iter()
                .filter(|e| e.kind.name() == "right")
                .count();
            assert_eq!(rows, 1, "{model}");
        }
    }
}

/// A small break: a cue ball into a rack of six with contact friction, cushions all
/// round. Energy (translation plus rotation about all three axes, plus the springs'
/// in `spring`) never rises: cloth friction, impacts with `e < 1` and Coulomb friction
/// only take it. Hard models: each step's energy at most the step before's, up to
/// round-off (1e-12 relative). `spring`: semi-implicit Euler keeps a shadow energy
/// that differs from the energy by `dt k s v / 2` per contact, at most `omega dt / 2`
/// of the contact's energy (`omega = sqrt(2 k / m)`, 1085 rad/s, so 5% at dt = 1e-4),
/// so there the energy may rise within a step by that much of the start's, never more.
#[test]
fn energy_never_rises_on_a_small_break() {
    let mut balls = vec![ball([0.4, 0.635], [4.0, 0.02], [0.0; 3])];
    let d = 2.0 * R + 1e-6;
    for row in 0..3 {
        for k in 0..=row {
            let x = 1.6 + row as f64 * d * 0.75f64.sqrt();
            let y = 0.635 + (k as f64 - row as f64 / 2.0) * d;
            balls.push(ball([x, y], [0.0; 2], [0.0; 3]));
        }
    }
    let physics =
        "restitution = 0.9\ncontact_friction = { mu = 0.06, tangential_restitution = 0.0 }";
    for model in STEPPING {
        let dt = 1e-4;
        let mut w = scene((2.54, 1.27), model, dt, physics, "", &balls);
        let e0 = w.diagnostics().total_energy;
        let slack = if model == "spring" {
            0.5 * (2.0 * 1e5 / M).sqrt() * dt * e0
        } else {
            1e-12 * e0
        };
        let mut last = e0;
        let mut highest = e0;
        for _ in 0..30_000 {
            w.step().unwrap();
            let e = w.diagnostics().total_energy;
            if model == "spring" {
                highest = highest.max(e);
            } else {
                assert!(e <= last + slack, "{model}: energy rose from {last} to {e}");
            }
            last = e;
        }
        assert!(
            highest <= e0 + slack,
            "{model}: energy reached {highest} from {e0}"
        );
        let hits = w.event_log();
        let cushions = hits
            .iter()
            .filter(|e| matches!(e.kind, EventKind::TableWall(_)))
            .count();
        let pairs = hits
            .iter()
            .filter(|e| e.kind == EventKind::BallBall)
            .count();
        assert!(
            cushions > 2 && pairs > 5,
            "{model}: a break, {pairs} pairs {cushions} cushions"
        );
        assert!(last < 0.5 * e0, "{model}: the cloth took energy");
    }
}

/// Every per-ball number, bit for bit.
fn bits(w: &World) -> Vec<u64> {
    let b = w.balls();
    [&b.x, &b.y, &b.vx, &b.vy, &b.wx, &b.wy, &b.omega, &b.angle]
        .iter()
        .flat_map(|v| v.iter().map(|f| f.to_bits()))
        .collect()
}

/// `spring` on cloth gives the same bits on one thread and on two (the cloth's motion
/// and the cushions are per ball, serial, after the parallel step).
#[test]
fn spring_on_cloth_is_the_same_on_one_and_two_threads() {
    let mut balls = vec![ball([0.4, 0.45], [4.0, 0.3], [0.0, -50.0, 20.0])];
    for k in 0..40 {
        let (x, y) = (1.2 + 0.07 * (k % 8) as f64, 0.3 + 0.07 * (k / 8) as f64);
        balls.push(ball([x, y], [0.0; 2], [0.0; 3]));
    }
    let physics = "restitution = 0.9\ncontact_friction = { mu = 0.06 }";
    let runs: Vec<(Vec<u64>, Vec<String>)> = [1, 2]
        .iter()
        .map(|&threads| {
            let mut w = scene((2.54, 1.27), "spring", 1e-4, physics, "", &balls);
            w.set_threads(threads).unwrap();
            w.run_steps(5000).unwrap();
            let log = w
                .event_log()
                .iter()
                .map(carom::event_log::csv_line)
                .collect();
            (bits(&w), log)
        })
        .collect();
    let impacts = runs[0].1.iter().filter(|l| l.contains(",ball,")).count();
    assert!(impacts > 10, "the run had impacts: {impacts}");
    assert_eq!(runs[0].0, runs[1].0);
    assert_eq!(runs[0].1, runs[1].1);
}

/// Without cloth, the spins about the table's axes are inert: a run whose balls carry
/// them ends with every other number identical to a run without them, and them as
/// given, in every stepping model (walls, pairs, contact friction and dry friction all
/// in play).
#[test]
fn without_cloth_wx_and_wy_change_nothing() {
    for model in STEPPING {
        let text = |spin: bool| {
            let mut s = format!(
                "duration = 1.0\n[table]\nwidth = 200.0\nheight = 100.0\n[physics]\nmodel = \
                 \"{model}\"\ndt = 0.01\nstiffness = 500.0\nrestitution = 0.9\nfriction = \
                 {{ kind = \"dry\", mu = 0.02, g_normal = 10.0 }}\ncontact_friction = {{ mu = \
                 0.2 }}\n"
            );
            for k in 0..12 {
                let (wx, wy) = if spin {
                    (k as f64 - 3.0, 0.5 * k as f64)
                } else {
                    (0.0, 0.0)
                };
                s += &format!(
                    "[[balls]]\nx = {}\ny = {}\nvx = {}\nvy = {}\nr = 4.0\nomega = {}\nwx = {wx:?}\nwy = {wy:?}\n",
                    20.0 + 13.0 * k as f64,
                    30.0 + 5.0 * (k % 5) as f64,
                    (20.0 - 3.0 * k as f64),
                    (k as f64 * 1.7).sin() * 15.0,
                    0.1 * k as f64,
                );
            }
            s
        };
        let go = |spin: bool| {
            let (_, mut w) = load(&text(spin), Format::Toml).unwrap();
            w.run_steps(3000).unwrap();
            w
        };
        let (plain, spun) = (go(false), go(true));
        assert!(plain.collisions() > 10, "{model}: the balls met");
        let (a, b) = (plain.balls(), spun.balls());
        for (u, v) in [
            (&a.x, &b.x),
            (&a.y, &b.y),
            (&a.vx, &b.vx),
            (&a.vy, &b.vy),
            (&a.omega, &b.omega),
        ] {
            assert_eq!(
                u.iter().map(|f| f.to_bits()).collect::<Vec<_>>(),
                v.iter().map(|f| f.to_bits()).collect::<Vec<_>>(),
                "{model}"
            );
        }
        for k in 0..12 {
            assert_eq!(
                (b.wx[k], b.wy[k]),
                (k as f64 - 3.0, 0.5 * k as f64),
                "{model}"
            );
        }
    }
}

/// Two balls at rest in `spring`, pressed together by an overlap whose spring force
/// (`k s` = 0.1 N) is far below what sliding friction holds (`7/2 mu_s m g` = 1.2 N
/// keeps a ball pushed through its centre rolling): they roll apart without slipping.
/// The step applies the push as a kick, which makes each ball slip for a moment that
/// the cloth ends within the step: the split's excursion, not a change of the balls'
/// motion, so the log has the start of the rolling and its end, not a row per ball
/// per step.
#[test]
fn a_pressed_spring_contact_at_rest_writes_no_phase_rows() {
    let s = 1e-6;
    let balls = [
        ball([1.0, 0.5], [0.0; 2], [0.0; 3]),
        ball([1.0 + 2.0 * R - s, 0.5], [0.0; 2], [0.0; 3]),
    ];
    let mut w = scene((2.0, 1.0), "spring", 1e-4, "", "", &balls);
    // The push's velocity over a step, k s dt / m, is within what sliding friction takes
    // off in one step, mu_s g dt: the premise of the test.
    assert!(1e5 * s < 3.5 * MU_S * M * G);
    w.run_steps(1000).unwrap();
    let rows: Vec<(u32, Phase)> = (w.event_log().iter())
        .filter(|e| e.kind == EventKind::PhaseChange)
        .map(|e| (e.i, e.phase.unwrap()))
        .collect();
    let each = [Phase::Rolling, Phase::Stationary];
    for i in 0..2 {
        let mine: Vec<Phase> = rows.iter().filter(|r| r.0 == i).map(|r| r.1).collect();
        assert_eq!(mine, each, "ball {i}: {rows:?}");
    }
    let b = w.balls();
    assert!(b.x[1] - b.x[0] - 2.0 * R > 0.0, "they parted");
}
