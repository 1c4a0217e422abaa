//! Pool balls on cloth in the `event` model, as a whole: energy never rises over a
//! break (nor over random breaks and clusters, every one run to rest without the model
//! stalling), contacts the cloth presses shut push as a rigid pair would, sampling
//! changes nothing but round-off, and cloth with gravity in the table's plane is
//! refused.

use crate::cloth;

use carom::event_log::EventKind;
use carom::{Ball, Physics, Table, World};
use cloth::*;

/// Energy never rises on cloth: the pool preset's break (tight rack, the cue ball struck
/// to 7.5 m/s, six cushions with jaws and pockets), sampled every 0.01 s until every
/// ball has stopped, with its ball-ball friction (throw) and without. Every process
/// removes energy (cloth friction at every instant, `e = 0.95` between balls, Han's
/// cushions with `e = 0.85`, Coulomb friction); a rise would be a gain.
///
/// Tolerance: the total is a sum of 16 balls' energies evaluated anew at each sample
/// (round-off some 1e-15 of the break's energy); 1e-12 of the initial energy is a
/// thousand times that and a million times below the energy of a ball at a tenth of
/// the break's speed.
#[test]
fn energy_never_rises_over_a_break_on_cloth() {
    for mu in [0.0, 0.05] {
        let preset = carom::presets::find("pool").unwrap();
        let mut s = preset.scenario().unwrap();
        assert!(s.physics.friction.is_cloth());
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

/// Robustness: breaks of the pool rack on cloth with the cue ball struck at random
/// speeds (1 to 6 m/s), aims, english, follow and draw, smooth and with throw, and
/// random clusters of
/// balls (many touching) in a small box struck at random with random spins, each run
/// until every ball rests: none stalls (touching balls sliding past each other, balls
/// pressed together by the cloth, soft touches at every speed), and the energy never
/// rises.
#[test]
fn random_breaks_and_clusters_come_to_rest_without_gaining_energy() {
    let mut rng = Lcg(5);
    for k in 0..60 {
        let mut s = carom::presets::find("pool").unwrap().scenario().unwrap();
        s.physics.contact_friction.mu = if k % 2 == 0 { 0.0 } else { 0.05 };
        s.physics.dt = 0.05;
        let cue = s.balls[0].cue.as_mut().unwrap();
        cue.speed = 1.0 + 5.0 * rng.unit();
        cue.aim = (rng.unit() - 0.5) * 12.0;
        // Tip offsets within half a radius of the centre, where a cue does not miscue.
        cue.english = (rng.unit() - 0.5) * 0.7;
        cue.follow = (rng.unit() - 0.5) * 0.7;
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
