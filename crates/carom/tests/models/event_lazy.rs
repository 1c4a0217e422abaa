//! The event model leaves balls at their own local times between the steps of one
//! `run_steps` call and brings them up to date once, at its end. Whatever is read must
//! not depend on that: a run in one call equals the same run step by step (each step
//! brought up to date), and a step that fails after lazy steps leaves the world at the
//! last good step, bit for bit.

use carom::models::StepError;
use carom::parse::Format;
use carom::parse::{build_world, parse_scenario};
use carom::World;

fn gas(n: u64, fraction: f64, dt: f64) -> World {
    let text = format!(
        r#"
name = "lazy"
[table]
[physics]
model = "event"
dt = {dt}
[[generators]]
kind = "gas"
n = {n}
area_fraction = {fraction}
seed = 11
"#
    );
    build_world(&parse_scenario(&text, Format::Toml).unwrap()).unwrap()
}

#[test]
fn one_call_equals_step_by_step() {
    let (mut lazy, mut eager) = (gas(400, 0.4, 0.05), gas(400, 0.4, 0.05));
    lazy.run_steps(200).unwrap();
    for _ in 0..200 {
        eager.step().unwrap();
    }
    assert_eq!(lazy.steps, eager.steps);
    assert_eq!(lazy.time, eager.time);
    // The same collisions in the same order; only round-off differs (a ball moved in
    // one stretch or in several), ~1e-15 of a unit per event, grown by a few dozen
    // collisions per ball to far below this bound. A missed or extra collision would
    // change velocities by order one.
    assert_eq!(lazy.collisions(), eager.collisions());
    assert!(lazy.collisions() > 1000, "{} collisions", lazy.collisions());
    let (a, b) = (lazy.balls(), eager.balls());
    for i in 0..a.len() {
        for (u, v) in [
            (a.x[i], b.x[i]),
            (a.y[i], b.y[i]),
            (a.vx[i], b.vx[i]),
            (a.vy[i], b.vy[i]),
        ] {
            assert!((u - v).abs() < 1e-7, "ball {i}: {u} vs {v}");
        }
    }
    // The energy read after one call is the energy of a state brought up to date.
    let (ea, eb) = (
        lazy.diagnostics().total_energy,
        eager.diagnostics().total_energy,
    );
    assert!((ea - eb).abs() <= 1e-12 * eb.abs(), "{ea} vs {eb}");
}

#[test]
fn a_failure_after_lazy_steps_leaves_the_last_good_step() {
    let balls = [
        carom::Ball::new(600.0, 200.0, 1.0, 0.5, 10.0, 1.0),
        carom::Ball::new(100.0, 390.0, 0.0, 0.0, 10.0, 1.0),
        carom::Ball::new(300.0, 100.0, -2.0, 0.0, 10.0, 1.0),
    ];
    let physics = carom::Physics {
        model: carom::ModelKind::Event,
        dt: 0.05,
        gravity: [0.0, 1.0],
        restitution: 0.0,
        ..carom::Physics::default()
    };
    let mut w = World::from_balls(carom::Table::new(800.0, 400.0), physics, &balls).unwrap();
    w.run_steps(40).unwrap();
    // Ball 2 put at rest on ball 1, which rests on the floor: with e = 0 hard disks
    // answer its weight with endlessly many zero-time contacts, and the event budget
    // stops the next step.
    {
        let b = w.balls_mut();
        (b.x[2], b.y[2], b.vx[2], b.vy[2]) = (b.x[1], b.y[1] - 20.0, 0.0, 0.0);
    }
    let (before, t_before) = (w.balls().clone(), w.time);
    let err = w.run_steps(10_000).unwrap_err();
    assert!(matches!(err, StepError::EventBudget(_)), "{err}");
    assert_eq!(w.steps, 40);
    assert_eq!(w.time, t_before);
    // Bit for bit the state the call started from.
    assert_eq!(w.balls(), &before);
    // And it goes on failing the same way, never hanging.
    assert!(w.run_steps(1).is_err());
    assert_eq!(w.balls(), &before);
    // A failure in a chunk that reads nothing leaves the balls up to date too.
    assert!(w.run_steps_unread(5).is_err());
    assert!(w.is_current());
    assert_eq!(w.balls(), &before);
}

/// Every bit a reader can see: positions, velocities, spins, image counts, counters.
fn bits(w: &World) -> Vec<u64> {
    let b = w.balls();
    let mut v: Vec<u64> = [&b.x, &b.y, &b.vx, &b.vy, &b.angle, &b.omega]
        .iter()
        .flat_map(|a| a.iter().map(|x| x.to_bits()))
        .collect();
    v.extend(b.ix.iter().chain(&b.iy).map(|&i| i as u64));
    v.extend([
        w.steps,
        w.time.to_bits(),
        w.collisions(),
        w.events().unwrap_or(0),
    ]);
    v.push(w.virial().to_bits());
    v
}

#[test]
fn chunks_that_read_nothing_change_no_bit() {
    // A run split into chunks that read only counters (a progress bar, a benchmark's
    // blocks) is the run in one call, bit for bit: nothing is brought up to date, so
    // no prediction is restarted. Uneven chunks, ended by an ordinary call.
    let (mut whole, mut chunked) = (gas(600, 0.45, 0.02), gas(600, 0.45, 0.02));
    whole.run_steps(300).unwrap();
    let mut done = 0;
    for (k, chunk) in [1u64, 7, 50, 2, 93, 60].into_iter().enumerate() {
        chunked.run_steps_unread(chunk).unwrap();
        done += chunk;
        assert!(!chunked.is_current(), "chunk {k}");
        // The counters are readable between chunks.
        assert_eq!(chunked.steps, done);
    }
    chunked.run_steps(300 - done).unwrap();
    assert!(chunked.is_current());
    assert!(
        whole.collisions() > 1000,
        "{} collisions",
        whole.collisions()
    );
    assert_eq!(bits(&chunked), bits(&whole));
}

#[test]
fn synchronising_between_chunks_restarts_the_predictions() {
    // The contrast that shows the test above can fail: a read between the chunks
    // brings every ball up to date and restarts the model as a resumed run would,
    // exact to round-off but not the same bits.
    let (mut whole, mut read) = (gas(600, 0.45, 0.02), gas(600, 0.45, 0.02));
    whole.run_steps(300).unwrap();
    read.run_steps_unread(150).unwrap();
    read.synchronise();
    read.run_steps(150).unwrap();
    assert_eq!(read.collisions(), whole.collisions());
    assert_ne!(bits(&read), bits(&whole));
}

#[test]
fn an_edit_after_unread_chunks_sees_the_balls_up_to_date() {
    // Editing calls synchronise first: what they hand out is the state at the world's
    // time, the same as after an ordinary call.
    let (mut a, mut b) = (gas(300, 0.3, 0.05), gas(300, 0.3, 0.05));
    a.run_steps(40).unwrap();
    b.run_steps_unread(40).unwrap();
    let edited = b.balls_mut().clone();
    assert_eq!(&edited, a.balls());
    assert!(b.is_current());
}

#[test]
#[should_panic(expected = "without World::synchronise")]
fn reading_the_balls_behind_is_refused() {
    // A stale read would return positions from before the world's time without any
    // sign: the readers check instead.
    let mut w = gas(300, 0.3, 0.05);
    w.run_steps_unread(10).unwrap();
    let _ = w.diagnostics();
}
