//! A start the event model cannot honour is bad input: exit 2, one line naming the
//! balls and the overlap, nothing written. The same scene runs under other models, and
//! a state written by an event run (balls touching to round-off) resumes.

use crate::common;
use common::*;

/// Two radius-10 balls whose centres are 15 apart: 5 of overlap.
const OVERLAPPING: &str = r#"[table]
width = 100.0
height = 100.0

[physics]
model = "event"

[[balls]]
x = 30.0
y = 50.0
r = 10.0

[[balls]]
x = 45.0
y = 50.0
vx = -1.0
r = 10.0
"#;

#[test]
fn overlapping_balls_are_refused_with_exit_2_and_one_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("s.toml"), OVERLAPPING).unwrap();
    let o = carom(
        dir.path(),
        &["run", "s.toml", "--time", "1", "--out", "out.json"],
    );
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(err.contains("balls 0 and 1"), "names the balls: {err}");
    assert!(
        err.contains("overlap by 5.000e0"),
        "states the overlap: {err}"
    );
    assert!(!dir.path().join("out.json").exists(), "nothing written");

    // The spring model takes the same start (it pushes the balls apart).
    let o = carom(
        dir.path(),
        &["run", "s.toml", "--time", "1", "--model", "spring"],
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn a_state_written_by_an_event_run_resumes() {
    // The cradle ends with balls that have collided and touch; its state, resumed
    // under the event model, must not be mistaken for an overlapping start.
    let dir = tempfile::tempdir().unwrap();
    let o = carom(
        dir.path(),
        &[
            "run",
            "newton-cradle",
            "--model",
            "event",
            "--out",
            "a.json",
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = carom(
        dir.path(),
        &[
            "run", "a.json", "--model", "event", "--time", "1", "--quiet",
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}
