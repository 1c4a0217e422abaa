//! Glued balls (`glue = K`) through the command line: a glued lid runs and its state
//! file names the glue; every bad use is exit status 2, one line naming the key,
//! nothing written.

use crate::common;
use common::*;

/// A frictionless gas ball under a lid at y = 20 (walls[0], moving as `lid` says) and a
/// fixed floor (walls[1]); ball 1 is a grain on the lid with `glue`.
fn scene(model: &str, lid: &str, glue: &str) -> String {
    format!(
        r#"name = "glued"
duration = 1.0

[table]
width = 100.0
height = 100.0

[physics]
model = "{model}"
dt = 0.01

[[balls]]
x = 50.0
y = 50.0
vx = 1.0
r = 2.0

[[balls]]
x = 50.0
y = 20.0
vx = 0.5
r = 1.0
{glue}

[[walls]]
kind = "segment"
points = [[10.0, 20.0], [90.0, 20.0]]
{lid}

[[walls]]
kind = "segment"
points = [[10.0, 80.0], [90.0, 80.0]]
"#
    )
}

#[test]
fn a_glued_grain_runs_and_its_state_names_its_wall_and_own_velocity() {
    let dir = tempfile::tempdir().unwrap();
    let text = scene("spring", "velocity = [0.0, 1.0]", "glue = 0");
    std::fs::write(dir.path().join("s.toml"), text).unwrap();
    run_ok(
        dir.path(),
        &["run", "s.toml", "--steps", "3", "--out", "out.json", "-q"],
    );
    let s = state(&dir.path().join("out.json"));
    let b = &s["balls"][1];
    assert_eq!(b["glue"].as_u64(), Some(0));
    assert_eq!(b["kinematic"].as_bool(), Some(true));
    // Its own velocity, not the sum with the wall's.
    assert_eq!((b["vx"].as_f64(), b["vy"].as_f64()), (Some(0.5), Some(0.0)));
    // It rose with the lid by 3 steps of 0.01 (to round-off of 3 sums).
    assert!((b["y"].as_f64().unwrap() - 20.03).abs() < 1e-12, "{b}");
}

#[test]
fn bad_glue_exits_2_naming_the_key_writing_nothing() {
    let dir = tempfile::tempdir().unwrap();
    for (model, lid, glue, key) in [
        (
            "spring",
            "velocity = [0.0, 1.0]",
            "glue = 2",
            "balls[1].glue",
        ),
        ("spring", "", "glue = 1", "balls[1].glue"),
        (
            "spring",
            "angular_velocity = 0.1\npivot = [50.0, 20.0]",
            "glue = 0",
            "balls[1].glue",
        ),
        (
            "event",
            "velocity = [0.0, 1.0]",
            "glue = 0",
            "balls[1].glue",
        ),
        ("spring", "velocity = [0.0, 1.0]", "glue = \"lid\"", "glue"),
        (
            "spring",
            "velocity = [0.0, 1.0]",
            "glue = 0\nremoved = { time = 0.0, by = \"left\" }",
            "balls[1].removed",
        ),
    ] {
        std::fs::write(dir.path().join("bad.toml"), scene(model, lid, glue)).unwrap();
        bad_input(dir.path(), &run_args("bad.toml", &["--steps", "3"]), &[key]);
    }
}
