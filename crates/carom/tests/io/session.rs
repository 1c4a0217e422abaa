//! The run session the Python package steps in pieces: its kept checkpoint is the last
//! good state across calls, and an edit between calls is part of that state.

use carom::load::{build, Source};
use carom::parse::Format;
use carom::run::Session;

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
