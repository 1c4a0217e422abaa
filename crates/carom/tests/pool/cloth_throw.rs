//! Throw on cloth: ball-ball contact friction between pool balls, the rough-sphere law
//! (`contact`'s notes), in every hard-contact model (`impulse`, `event`,
//! `simultaneous`), against Alciatore's throw analysis and conservation laws worked out
//! here.
//!
//! The physics, for a cue ball of velocity `v` and spins `w = (wx, wy)`, `omega`
//! meeting an object ball at rest, both of radius `r` and mass `m`, solid
//! (`I = 2 m r^2 / 5`), along the unit normal `n` (from the cue ball to the object
//! ball), `t = (-n_y, n_x)`, z into the table:
//!
//! - the cue ball's point of contact, `r n` from its centre, moves at `v + w x (r n)`:
//!   along `n` at `v . n`, along `t` at `s_t = v . t + r omega`, along z at
//!   `s_z = r (wx n_y - wy n_x)` (a rolling ball's front surface moves down into the
//!   table, a drawing one's up). The object ball's surface is at rest, so that is the
//!   slip `s = (s_t, s_z)`;
//! - the normal impulse per unit mass is `p = (1 + e) v . n / 2` (equal balls);
//! - the friction impulse per unit mass on the cue ball, `f = (f_t, f_z)`, opposes the
//!   slip: it would take it to `-beta s` through the compliance of the tangent plane,
//!   `7 / m` (both masses and both spins, `1 + 1 + 5/2 + 5/2`, Alciatore's TP A.14 and
//!   pooltool use it in both directions), unless that needs more than `mu p`:
//!   `f = -min(mu p / |s|, (1 + beta) / 7) s`;
//! - the cue ball's velocity changes by `-p n + f_t t`, the object ball's by
//!   `p n - f_t t` (the vertical part `f_z` would lift one ball and press the other
//!   into the cloth, which holds both on the table); the torque `r n x (m f)` of the
//!   impulse about each centre (`-f` at `-r n` on the object ball gives the same)
//!   turns both balls alike: `omega` by `5 f_t / (2 r)` and `(wx, wy)` by
//!   `-5 f_z t / (2 r)`. The object ball's spin about the table's axes is thus
//!   `5 / (2 r)` times the vertical velocity `-f_z` the cloth takes from it, about `t`.
//!
//! The object ball leaves at `atan(-f_t / p)` off the line of centres: with `e = 1`
//! and `beta = 0`, `atan(min(mu v_n / |s|, 1/7) s_t / v_n)`, Alciatore's throw (TP
//! A.14) with the slip's vertical part from follow or draw. A stun ball (`s_z = 0`)
//! throws `atan(min(mu, tan(phi) / 7))` at a cut of `phi`.
//!
//! Each shot is one step of `dt = 1e-9 s` with the balls `v dt / 2` from touching: the
//! impact falls inside the step, and the cloth acts on the balls for less than `dt`
//! around it (before it in the stepping models, which resolve an overlap at the end of
//! the step; after it in `event`). The cloth changes a velocity by at most
//! `delta = mu_s g dt = 2e-9 m/s` and a surface speed `r w` by at most `5/2 delta`; through
//! the law (gains below `1/7` sticking and `mu (1 + 3.5 v / |s|) < 3` sliding for the
//! slips here, `|s| >= 0.1 v`) that moves every velocity and `r w` by less than
//! `10 delta = 2e-8`. The tolerance is `5e-8` (m/s) on velocities and `r w`, and
//! `1e-7` rad on the throw (an error `10 delta` on a velocity of at least `0.5 m/s`
//! turns it by at most `4e-8` rad). Round-off is some 1e-16 of these numbers.

use crate::cloth;

use carom::balls::Balls;
use carom::ModelKind;
use carom::{ContactFriction, World};
use cloth::{ball, world, Lcg, R};

const MODELS: [ModelKind; 3] = [
    ModelKind::Impulse,
    ModelKind::Event,
    ModelKind::Simultaneous,
];

const DT: f64 = 1e-9;

/// Tolerance on velocities and on `r w`, m/s (module's notes).
const TOL_V: f64 = 5e-8;

/// Tolerance on the throw angle, rad (module's notes).
const TOL_THROW: f64 = 1e-7;

/// The contact law's coefficients of a shot.
#[derive(Debug, Clone, Copy)]
struct Law {
    e: f64,
    mu: f64,
    beta: f64,
}

/// Alciatore's numbers: elastic, a typical ball-ball friction, the slip stopped.
const ALCIATORE: Law = Law {
    e: 1.0,
    mu: 0.06,
    beta: 0.0,
};

/// A ball's motion, `[vx, vy, wx, wy, omega]`.
type State = [f64; 5];

/// The shot: the cue ball at `cue` (moving), the object ball at rest touching it along
/// the normal at `phi` from +x once the cue ball has covered `gap` along its path.
fn shot(model: ModelKind, law: Law, cue: State, phi: f64, gap: f64) -> World {
    let speed = cue[0].hypot(cue[1]);
    let p0 = [0.5, 0.5];
    let p1 = [
        p0[0] + gap * cue[0] / speed + 2.0 * R * phi.cos(),
        p0[1] + gap * cue[1] / speed + 2.0 * R * phi.sin(),
    ];
    let mut p = cloth::physics(law.e, DT);
    p.model = model;
    p.contact_friction = ContactFriction {
        rolling_mu: 0.0,
        mu: law.mu,
        tangential_restitution: law.beta,
        tangential_stiffness: None,
    };
    world(
        (1.0, 1.0),
        p,
        &[
            ball(p0[0], p0[1], [cue[0], cue[1]], [cue[2], cue[3], cue[4]]),
            ball(p1[0], p1[1], [0.0, 0.0], [0.0; 3]),
        ],
    )
}

fn state(b: &Balls, i: usize) -> State {
    [b.vx[i], b.vy[i], b.wx[i], b.wy[i], b.omega[i]]
}

/// The physics of the module's notes: the slip `(s_t, s_z)`, the normal impulse per
/// unit mass `p` and the friction impulse per unit mass `f` on the cue ball.
fn impulses(cue: State, n: [f64; 2], law: Law) -> ([f64; 2], f64, [f64; 2]) {
    let t = [-n[1], n[0]];
    let s_t = cue[0] * t[0] + cue[1] * t[1] + R * cue[4];
    let s_z = R * (cue[2] * n[1] - cue[3] * n[0]);
    let p = (1.0 + law.e) * (cue[0] * n[0] + cue[1] * n[1]) / 2.0;
    let slip = s_t.hypot(s_z);
    let k = if slip > 0.0 {
        (law.mu * p / slip).min((1.0 + law.beta) / 7.0)
    } else {
        0.0
    };
    ([s_t, s_z], p, [-k * s_t, -k * s_z])
}

/// Both balls just after the impact, by the module's notes.
fn after(cue: State, n: [f64; 2], law: Law) -> (State, State) {
    let t = [-n[1], n[0]];
    let (_, p, [f_t, f_z]) = impulses(cue, n, law);
    let spin = [-2.5 * f_z * t[0] / R, -2.5 * f_z * t[1] / R, 2.5 * f_t / R];
    let c = [
        cue[0] - p * n[0] + f_t * t[0],
        cue[1] - p * n[1] + f_t * t[1],
        cue[2] + spin[0],
        cue[3] + spin[1],
        cue[4] + spin[2],
    ];
    let o = [
        p * n[0] - f_t * t[0],
        p * n[1] - f_t * t[1],
        spin[0],
        spin[1],
        spin[2],
    ];
    (c, o)
}

/// Alciatore's throw (TP A.14, generalised to `e` and `beta` as in the module's
/// notes): the angle from the line of centres to the object ball's path, positive
/// from `n` towards `t`.
fn alciatore_throw(cue: State, n: [f64; 2], law: Law) -> f64 {
    let ([s_t, s_z], p, _) = impulses(cue, n, law);
    let slip = s_t.hypot(s_z);
    ((law.mu * p / slip).min((1.0 + law.beta) / 7.0) * s_t / p).atan()
}

/// Runs the shot one step; returns the world and the normal of the impact, from the
/// balls' positions at the impact (the log's time: the step's end in the stepping
/// models, within it in `event`, whose balls then move on for the rest of the step,
/// turning the line of centres by some `v dt / (4 r)`, 2e-8 rad; taken back along the
/// velocities, the cloth's share of that move, `a t^2 / 2`, is 1e-18 m).
fn struck(model: ModelKind, law: Law, cue: State, phi: f64) -> (World, [f64; 2]) {
    let speed = cue[0].hypot(cue[1]);
    let mut w = shot(model, law, cue, phi, 0.5 * speed * DT);
    w.run_steps(1).unwrap();
    let rows = cloth::pair_rows(&w);
    assert_eq!(rows.len(), 1, "{model:?}: one impact in the step");
    let since = w.time - rows[0].time;
    let b = w.balls();
    let at = |i: usize| [b.x[i] - b.vx[i] * since, b.y[i] - b.vy[i] * since];
    let (p0, p1) = (at(0), at(1));
    let (dx, dy) = (p1[0] - p0[0], p1[1] - p0[1]);
    let d = dx.hypot(dy);
    (w, [dx / d, dy / d])
}

/// Cue balls at `v` along +x: stun, rolling, follow, draw, english, both, and a spin
/// about the x axis (what a raised cue gives).
fn cue_balls(v: f64) -> Vec<(&'static str, State)> {
    let roll = v / R;
    vec![
        ("stun", [v, 0.0, 0.0, 0.0, 0.0]),
        ("rolling", [v, 0.0, 0.0, -roll, 0.0]),
        ("follow", [v, 0.0, 0.0, -2.0 * roll, 0.0]),
        ("draw", [v, 0.0, 0.0, roll, 0.0]),
        ("english", [v, 0.0, 0.0, 0.0, 0.6 * roll]),
        ("reverse-english", [v, 0.0, 0.0, 0.0, -0.6 * roll]),
        ("rolling-english", [v, 0.0, 0.0, -roll, 0.4 * roll]),
        ("draw-english", [v, 0.0, 0.0, 1.5 * roll, -0.4 * roll]),
        ("masse", [v, 0.0, 0.5 * roll, -0.5 * roll, 0.0]),
    ]
}

const CUTS: [f64; 7] = [10.0, 20.0, 30.0, 45.0, 60.0, -15.0, -40.0];

/// Every model throws the object ball by Alciatore's formula, stun, follow, draw and
/// english alike, at cuts of 10 to 60 degrees either way, and leaves both balls with
/// the velocities and spins the impulse and its torque give (module's notes), with
/// Alciatore's coefficients and with others (inelastic, some tangential restitution,
/// more friction).
#[test]
fn every_model_throws_as_alciatore_says_with_follow_draw_and_english() {
    let other = Law {
        e: 0.9,
        mu: 0.12,
        beta: 0.3,
    };
    let (mut slid, mut stuck) = (0, 0);
    for model in MODELS {
        for law in [ALCIATORE, other] {
            for v in [1.0, 2.5] {
                for (name, cue) in cue_balls(v) {
                    for phi_deg in CUTS {
                        let what = format!("{model:?} {law:?} {name} at {v} m/s, {phi_deg} deg");
                        let (w, n) = struck(model, law, cue, phi_deg.to_radians());
                        let b = w.balls();
                        let ([s_t, s_z], p, _) = impulses(cue, n, law);
                        if law.mu * p < (1.0 + law.beta) / 7.0 * s_t.hypot(s_z) {
                            slid += 1;
                        } else {
                            stuck += 1;
                        }
                        let moves = b.vy[1].atan2(b.vx[1]) - n[1].atan2(n[0]);
                        let want = alciatore_throw(cue, n, law);
                        assert!(
                            (moves - want).abs() < TOL_THROW,
                            "{what}: thrown {} degrees, Alciatore {}",
                            moves.to_degrees(),
                            want.to_degrees()
                        );
                        let (c, o) = after(cue, n, law);
                        for (k, (got, want)) in
                            [(state(b, 0), c), (state(b, 1), o)].into_iter().enumerate()
                        {
                            for q in 0..5 {
                                // Velocities as they are, spins as surface speeds.
                                let scale = if q < 2 { 1.0 } else { R };
                                let gap = (got[q] - want[q]).abs() * scale;
                                assert!(
                                    gap < TOL_V,
                                    "{what}: ball {k} component {q}: {} against {}",
                                    got[q],
                                    want[q]
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    // Both regimes of the law, many times each.
    assert!(slid > 50 && stuck > 50, "{slid} slid, {stuck} stuck");
}

/// The headline number: a rolling cue ball cut at 30 degrees with `mu = 0.05` throws
/// the object ball `atan(mu sin 30) = atan(0.025) = 1.432` degrees (its slip at the
/// contact is `v`, of which the tangent's share is `sin 30`), half the stun ball's
/// `atan(mu) = 2.862`, in every model. (The rough-disk law, blind to the follow, gave
/// the rolling ball the stun ball's 2.862.)
#[test]
fn a_rolling_cue_ball_cut_at_30_degrees_throws_1_43_degrees() {
    let law = Law {
        mu: 0.05,
        ..ALCIATORE
    };
    let v = 1.0;
    for model in MODELS {
        for (cue, want) in [
            ([v, 0.0, 0.0, -v / R, 0.0], 1.432),
            ([v, 0.0, 0.0, 0.0, 0.0], 2.862),
        ] {
            let (w, n) = struck(model, law, cue, 30f64.to_radians());
            let b = w.balls();
            let throw = n[1].atan2(n[0]) - b.vy[1].atan2(b.vx[1]);
            println!("{model:?}: thrown {:.6} degrees", throw.to_degrees());
            // To the three decimals quoted; `TOL_THROW` is 6e-6 degrees.
            assert!(
                (throw.to_degrees() - want).abs() < 5e-4,
                "{model:?}: {throw}"
            );
        }
    }
}

/// Over many random impacts (speeds up to 3 m/s, any spins, cuts up to 80 degrees,
/// restitution, friction and beta at random) no model adds energy, and the momentum
/// in the plane is the one before the impact. The cloth acts too, for less than `dt`
/// and only by taking energy away: the energy may only drop, and the momentum moves by
/// at most `m mu_s g dt` per ball, 3.4e-10 kg m/s (with round-off, 1e-9 bounds both).
#[test]
fn random_impacts_never_add_energy_and_keep_the_momentum_in_the_plane() {
    let mut rng = Lcg(2024);
    for model in MODELS {
        for k in 0..300 {
            let law = Law {
                e: rng.unit(),
                mu: 0.5 * rng.unit(),
                beta: 2.0 * rng.unit() - 1.0,
            };
            let v = 0.2 + 2.8 * rng.unit();
            let spin = |rng: &mut Lcg| (2.0 * rng.unit() - 1.0) * 3.0 * v / R;
            let cue = [v, 0.0, spin(&mut rng), spin(&mut rng), spin(&mut rng)];
            let phi = (160.0 * rng.unit() - 80.0f64).to_radians();
            let mut w = shot(model, law, cue, phi, 0.5 * v * DT);
            let momentum = |w: &World| {
                let b = w.balls();
                [
                    b.m[0] * b.vx[0] + b.m[1] * b.vx[1],
                    b.m[0] * b.vy[0] + b.m[1] * b.vy[1],
                ]
            };
            let (e0, p0) = (w.diagnostics().kinetic_energy, momentum(&w));
            w.run_steps(1).unwrap();
            assert_eq!(cloth::pair_rows(&w).len(), 1, "{model:?} shot {k}");
            let (e1, p1) = (w.diagnostics().kinetic_energy, momentum(&w));
            assert!(
                e1 <= e0 * (1.0 + 1e-12),
                "{model:?} shot {k}: energy {e0} -> {e1}"
            );
            for q in 0..2 {
                assert!(
                    (p1[q] - p0[q]).abs() < 1e-9,
                    "{model:?} shot {k}: momentum {p0:?} -> {p1:?}"
                );
            }
        }
    }
}

/// `mu = 0` is frictionless exactly: a shot with follow, draw or english comes out
/// with every bit as without contact friction, and in the stepping models (which
/// resolve the impact at the step's end) the object ball takes no spin at all and the
/// cue ball keeps the spins about the table's axes it would have had alone.
#[test]
fn without_friction_the_spins_pass_through_untouched() {
    let law = Law {
        mu: 0.0,
        beta: 0.5,
        ..ALCIATORE
    };
    for model in MODELS {
        for (name, cue) in cue_balls(1.5) {
            let (rough, _) = struck(model, law, cue, 25f64.to_radians());
            // `ContactFriction::NONE` is `mu = 0, beta = 0`.
            let none = Law { beta: 0.0, ..law };
            let (smooth, _) = struck(model, none, cue, 25f64.to_radians());
            assert_eq!(smooth.physics().contact_friction, ContactFriction::NONE);
            let bits = |w: &World, i: usize| state(w.balls(), i).map(f64::to_bits);
            for i in 0..2 {
                assert_eq!(bits(&rough, i), bits(&smooth, i), "{model:?} {name}");
            }
            if model != ModelKind::Event {
                let b = rough.balls();
                assert_eq!([b.wx[1], b.wy[1], b.omega[1]], [0.0; 3], "{model:?} {name}");
                let mut alone = world(
                    (1.0, 1.0),
                    *rough.physics(),
                    &[ball(0.5, 0.5, [cue[0], cue[1]], [cue[2], cue[3], cue[4]])],
                );
                alone.run_steps(1).unwrap();
                let a = alone.balls();
                assert_eq!([b.wx[0], b.wy[0]], [a.wx[0], a.wy[0]], "{model:?} {name}");
            }
        }
    }
}
