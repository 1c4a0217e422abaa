//! The run session, the one run loop of the command line and the Python package: its
//! kept checkpoint is the last good state across calls (an edit between calls is part
//! of that state), its observer is shown the world at the steps it asks for, and a
//! failure leaves the world at its last good state.

use carom::load::{build, Source};
use carom::parse::Format;
use carom::run::{Observer, RunError, Session};
use carom::World;

const SCENE: &str = r#"
name = "two balls"
[table]
width = 100.0
height = 100.0
[physics]
model = "spring"
dt = 0.01
stiffness = 1000.0
[[balls]]
x = 30.0
y = 50.0
vx = 1.0
r = 2.0
[[balls]]
x = 70.0
y = 50.0
vx = -1.0
r = 2.0
"#;

fn session() -> Session {
    Session::new(build(&Source::text("two.toml", SCENE, Format::Toml), &[]).expect("loads"))
}

#[test]
fn a_failure_after_an_edit_goes_back_to_the_edited_state() {
    let mut s = session();
    s.advance(20, 0, |_| {}).expect("a quiet run");
    // A speed that carries ball 0 farther off the table in one step than the table is
    // large: the state check fails at the next checkpoint.
    s.set_velocities(&[1e9, 0.0, -1.0, 0.0])
        .expect("finite velocities");
    let before = s.world.balls().clone();
    let f = s
        .advance(20, 0, |_| {})
        .expect_err("the run goes off the table");
    assert_eq!(f.step, 20, "back at the last good step");
    // The last good state is the edited one, not the one the previous run ended on.
    assert_eq!(s.world.balls(), &before);
}

#[test]
fn runs_in_pieces_equal_one_run() {
    let mut a = session();
    let mut b = session();
    a.advance(100, 0, |_| {}).unwrap();
    for _ in 0..10 {
        b.advance(10, 0, |_| {}).unwrap();
    }
    assert_eq!(a.world.balls(), b.world.balls());
    assert_eq!(a.state_json(), b.state_json());
}

/// An observer that reads the world at the steps it lists and notes all it is shown.
#[derive(Default)]
struct Notes {
    at: Vec<u64>,
    /// (k, the world's step, the world's time) at each sample.
    samples: Vec<(u64, u64, f64)>,
    /// The world's step at each `last`.
    last: Vec<u64>,
    stretches: u64,
    /// Fail at this sample (an output that cannot be written).
    fail_at: Option<u64>,
}

impl Observer for Notes {
    type Error = String;

    fn due(&self, k: u64, _steps: u64) -> bool {
        self.at.contains(&k)
    }

    fn sample(&mut self, world: &World, k: u64, _steps: u64) -> Result<(), String> {
        // The balls are current: reading them does not panic.
        let _ = world.balls().x[0];
        self.samples.push((k, world.steps, world.time));
        match self.fail_at {
            Some(f) if f == k => Err(format!("cannot write at {k}")),
            _ => Ok(()),
        }
    }

    fn last(&mut self, world: &World) -> Result<(), String> {
        self.last.push(world.steps);
        Ok(())
    }

    fn stepped(&mut self, _world: &mut World) -> Result<(), String> {
        self.stretches += 1;
        Ok(())
    }
}

fn with_model(model: &str) -> Session {
    let scene = SCENE.replace("model = \"spring\"", &format!("model = \"{model}\""));
    Session::new(build(&Source::text("two.toml", &scene, Format::Toml), &[]).expect("loads"))
}

#[test]
fn samples_arrive_at_the_steps_asked() {
    for model in ["spring", "event"] {
        let mut s = with_model(model);
        s.advance(5, 0, |_| {}).unwrap();
        let mut notes = Notes {
            at: vec![3, 10, 11, 40],
            ..Notes::default()
        };
        s.run(40, &mut notes).expect("a quiet run");
        let ks: Vec<u64> = notes.samples.iter().map(|s| s.0).collect();
        assert_eq!(ks, [3, 10, 11, 40], "{model}");
        // Steps are counted from the run's start; the world's count continues.
        for &(k, step, time) in &notes.samples {
            assert_eq!(step, 5 + k, "{model}");
            assert!(
                (time - s.world.physics().dt * step as f64).abs() < 1e-9,
                "{model}"
            );
        }
        assert!(notes.last.is_empty(), "{model}: the run reached its end");
        assert_eq!(s.world.steps, 45);
        // The event model steps from one due step to the next in one call.
        let stretches = if model == "event" { 4 } else { 40 };
        assert_eq!(notes.stretches, stretches, "{model}");
    }
}

#[test]
fn an_observed_run_has_the_bits_of_advance() {
    // Reading at the same steps gives the same bits, whichever way the reads are asked.
    for model in ["spring", "event"] {
        let mut a = with_model(model);
        let mut b = with_model(model);
        let mut seen = Vec::new();
        a.advance(60, 7, |w| seen.push(w.steps)).unwrap();
        let mut notes = Notes {
            at: (7..60).step_by(7).chain([60]).collect(),
            ..Notes::default()
        };
        b.run(60, &mut notes).unwrap();
        assert_eq!(seen, [7, 14, 21, 28, 35, 42, 49, 56, 60], "{model}");
        assert_eq!(a.state_json(), b.state_json(), "{model}");
    }
}

#[test]
fn a_failure_leaves_the_last_good_state_and_says_where() {
    let mut s = session();
    s.advance(20, 0, |_| {}).unwrap();
    s.set_velocities(&[1e9, 0.0, -1.0, 0.0]).unwrap();
    let good = s.world.balls().clone();
    let mut notes = Notes {
        at: vec![10],
        ..Notes::default()
    };
    let f = match s.run(100, &mut notes) {
        Err(RunError::Failed(f)) => f,
        other => panic!("expected a failure, got {other:?}"),
    };
    // The state check at the first checkpoint (the due step 10 of the run, 30 of the
    // world) finds the ball off the table; the last good state is the run's start.
    assert_eq!((f.failed_step, f.step), (30, 20));
    assert_eq!(f.time, s.world.time);
    assert_eq!(s.world.steps, 20);
    assert_eq!(s.world.balls(), &good);
    assert!(notes.samples.is_empty(), "no due step was reached");
    assert_eq!(notes.last, [20], "the last good state is shown");
    assert!(f
        .to_string()
        .contains("stopped at the last good state, step 20"));
}

#[test]
fn an_observer_error_ends_the_run_there() {
    let mut s = session();
    let mut notes = Notes {
        at: vec![5, 9, 30],
        fail_at: Some(9),
        ..Notes::default()
    };
    match s.run(30, &mut notes) {
        Err(RunError::Observer(e)) => assert_eq!(e, "cannot write at 9"),
        other => panic!("expected the observer's error, got {other:?}"),
    }
    assert_eq!(s.world.steps, 9);
    assert!(notes.last.is_empty());
}
