//! Moving walls a model does not run, through the command line: exit status 2, one
//! line naming the wall's key, nothing written. The event model translates walls
//! (without gravity) and `simultaneous` translates and turns them; turning walls,
//! servos, gravity with a moving wall in `event`, and servos outside `spring` are
//! refused.

use crate::common;
use common::*;

/// A gas between a fixed floor and a lid at y = 80 moving as `lid` says.
fn scene(physics: &str, lid: &str) -> String {
    format!(
        r#"name = "lid"
duration = 1.0

[table]
width = 100.0
height = 100.0

[physics]
{physics}
dt = 0.01

[[balls]]
x = 50.0
y = 50.0
vx = 1.0
vy = 0.5
r = 2.0

[[walls]]
kind = "segment"
points = [[10.0, 20.0], [90.0, 20.0]]

[[walls]]
kind = "segment"
points = [[10.0, 80.0], [90.0, 80.0]]
{lid}
"#
    )
}

fn run_args(file: &str) -> Vec<&str> {
    common::run_args(file, &["--steps", "3"])
}

#[test]
fn a_translating_lid_runs_in_the_event_model() {
    let dir = tempfile::tempdir().unwrap();
    let text = scene("model = \"event\"", "velocity = [0.5, -1.0]");
    std::fs::write(dir.path().join("s.toml"), text).unwrap();
    let mut args = run_args("s.toml");
    args.push("-q");
    run_ok(dir.path(), &args);
    let s = state(&dir.path().join("out.json"));
    // The lid moved by V t over the 3 steps (to round-off of the step's sum).
    let off = s["walls"][1]["offset"][1].as_f64().unwrap();
    assert!((off + 0.03).abs() < 1e-12, "offset {off}");
}

#[test]
fn a_translating_and_a_turning_wall_run_in_the_simultaneous_model() {
    let dir = tempfile::tempdir().unwrap();
    let text = scene(
        "model = \"simultaneous\"",
        "velocity = [0.5, -1.0]\nangular_velocity = 0.1\npivot = [50.0, 80.0]",
    );
    std::fs::write(dir.path().join("s.toml"), text).unwrap();
    let mut args = run_args("s.toml");
    args.push("-q");
    run_ok(dir.path(), &args);
    let s = state(&dir.path().join("out.json"));
    // Over the 3 steps of 0.01 the lid moved by V t and turned by omega t (to
    // round-off of the steps' sums).
    let off = s["walls"][1]["offset"][1].as_f64().unwrap();
    let angle = s["walls"][1]["angle"].as_f64().unwrap();
    assert!((off + 0.03).abs() < 1e-12, "offset {off}");
    assert!((angle - 0.003).abs() < 1e-12, "angle {angle}");
}

#[test]
fn moving_walls_a_model_refuses_exit_2_naming_the_key_writing_nothing() {
    let dir = tempfile::tempdir().unwrap();
    for (physics, lid, key) in [
        (
            "model = \"event\"\ngravity = [0.0, 1.0]",
            "velocity = [0.5, 0.0]",
            "walls[1].velocity",
        ),
        (
            "model = \"event\"",
            "angular_velocity = 0.5\npivot = [50.0, 80.0]",
            "walls[1].angular_velocity",
        ),
        (
            "model = \"event\"",
            "pressure = 1.0\naxis = \"y\"",
            "walls[1].pressure",
        ),
        (
            "model = \"simultaneous\"",
            "pressure = 1.0\naxis = \"y\"",
            "walls[1].pressure",
        ),
        (
            "model = \"impulse\"",
            "pressure = 1.0\naxis = \"y\"",
            "walls[1].pressure",
        ),
    ] {
        std::fs::write(dir.path().join("bad.toml"), scene(physics, lid)).unwrap();
        bad_input(dir.path(), &run_args("bad.toml"), &[key]);
    }
}
