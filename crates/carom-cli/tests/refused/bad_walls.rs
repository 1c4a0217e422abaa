//! Bad walls, pockets and open edges through the command line's whole contract: exit
//! status 2, nothing on stdout, one line on stderr naming the file, the line and the
//! entry, and no output file written although `--out`, `--trajectory` and `--render`
//! were asked for. `python/tests/test_bad_input.py` refuses the same with the same
//! line.

use crate::common;
use common::*;

/// A walled spring scene with each kind of wall, a pocket and an open edge, every
/// line the cases below spoil present once.
const BASE: &str = r#"name = "walled"
duration = 1.0

[table]
width = 100.0
height = 80.0
boundary = ["walls", "open"]

[physics]
model = "spring"
dt = 0.01

[[balls]]
x = 20.0
y = 40.0
vx = 1.0
r = 2.0

[[walls]]
kind = "segment"
points = [[10.0, 10.0], [90.0, 20.0]]

[[walls]]
kind = "polyline"
closed = true
points = [[40.0, 50.0], [60.0, 50.0], [50.0, 60.0]]

[[walls]]
kind = "arc"
center = [80.0, 60.0]
radius = 10.0
from = 0.0
to = 180.0
restitution = 0.8

[[walls]]
kind = "circle"
center = [30.0, 65.0]
radius = 3.0
surface_velocity = 0.5
mu = 0.2

[[pockets]]
center = [100.0, 0.0]
radius = 6.0
"#;

/// `BASE` with its first line equal to `old` replaced by `new`; the 1-based line.
fn with_line(old: &str, new: &str) -> (String, usize) {
    replace_nth(BASE, |l| l == old, 0, new)
}

fn run_args(file: &str) -> Vec<&str> {
    common::run_args(file, &["--steps", "3"])
}

#[test]
fn the_walled_scene_runs_so_each_case_fails_for_its_own_reason() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("s.toml"), BASE).unwrap();
    let mut args = run_args("s.toml");
    args.push("-q");
    run_ok(dir.path(), &args);
    for f in ["out.json", "t.csv", "r.png"] {
        assert!(dir.path().join(f).is_file(), "{f} written");
    }
}

/// Each edit of one line, and what its error must name.
const CASES: &[(&str, &str, &str)] = &[
    // A segment of one point, of no length, with a non-finite point.
    (
        "points = [[10.0, 10.0], [90.0, 20.0]]",
        "points = [[10.0, 10.0]]",
        "walls[0].points",
    ),
    (
        "points = [[10.0, 10.0], [90.0, 20.0]]",
        "points = [[10.0, 10.0], [10.0, 10.0]]",
        "walls[0].points",
    ),
    (
        "points = [[10.0, 10.0], [90.0, 20.0]]",
        "points = [[10.0, nan], [90.0, 20.0]]",
        "walls[0].points[0]",
    ),
    // A wall wholly outside the table.
    (
        "points = [[10.0, 10.0], [90.0, 20.0]]",
        "points = [[110.0, 10.0], [190.0, 20.0]]",
        "walls[0]",
    ),
    // A closed polyline of two points; a repeated point.
    (
        "points = [[40.0, 50.0], [60.0, 50.0], [50.0, 60.0]]",
        "points = [[40.0, 50.0], [60.0, 50.0]]",
        "walls[1].points",
    ),
    (
        "points = [[40.0, 50.0], [60.0, 50.0], [50.0, 60.0]]",
        "points = [[40.0, 50.0], [40.0, 50.0], [50.0, 60.0]]",
        "walls[1].points",
    ),
    // An arc of no extent, of more than a turn, of non-positive radius.
    ("to = 180.0", "to = 0.0", "walls[2].to"),
    ("to = 180.0", "to = 400.0", "walls[2].to"),
    ("radius = 10.0", "radius = 0.0", "walls[2].radius"),
    (
        "restitution = 0.8",
        "restitution = 1.5",
        "walls[2].restitution",
    ),
    // A circle with a negative radius, bad surface values, a key it does not take.
    ("radius = 3.0", "radius = -3.0", "walls[3].radius"),
    ("mu = 0.2", "mu = -0.2", "walls[3].mu"),
    (
        "surface_velocity = 0.5",
        "surface_velocity = inf",
        "walls[3].surface_velocity",
    ),
    (
        "mu = 0.2",
        "points = [[1.0, 1.0], [2.0, 2.0]]",
        "walls[3].points",
    ),
    // Moving walls: a non-finite velocity, a turn without a pivot, a pivot outside the
    // table or without a turn, a servo without an axis, a negative pressure, a
    // velocity along the servo's axis, state keys on a fixed wall.
    ("mu = 0.2", "velocity = [inf, 0.0]", "walls[3].velocity"),
    ("mu = 0.2", "angular_velocity = 1.0", "walls[3]"),
    (
        "mu = 0.2",
        "pivot = [30.0, 200.0]\nangular_velocity = 1.0",
        "walls[3].pivot",
    ),
    ("mu = 0.2", "pivot = [30.0, 65.0]", "walls[3].pivot"),
    ("mu = 0.2", "pressure = 1.0", "walls[3]"),
    (
        "mu = 0.2",
        "pressure = -1.0\naxis = \"y\"",
        "walls[3].pressure",
    ),
    (
        "mu = 0.2",
        "velocity = [0.0, 1.0]\npressure = 1.0\naxis = \"y\"",
        "walls[3].velocity",
    ),
    ("mu = 0.2", r#"axis = "y""#, "walls[3].axis"),
    ("mu = 0.2", "offset = [1.0, 0.0]", "walls[3].offset"),
    // An unknown kind or key.
    (r#"kind = "circle""#, r#"kind = "ellipse""#, "walls[3].kind"),
    ("mu = 0.2", "thickness = 1.0", "thickness"),
    // A pocket of no radius, one wholly outside the table.
    ("radius = 6.0", "radius = 0.0", "pockets[0].radius"),
    (
        "center = [100.0, 0.0]",
        "center = [200.0, 0.0]",
        "pockets[0]",
    ),
    // An unknown boundary word.
    (
        r#"boundary = ["walls", "open"]"#,
        r#"boundary = ["walls", "opened"]"#,
        "table.boundary",
    ),
    // A ball overlapping a wall at the start.
    ("y = 40.0", "y = 12.5", "balls[0]"),
];

#[test]
fn bad_walls_pockets_and_edges_exit_2_naming_the_entry_writing_nothing() {
    let dir = tempfile::tempdir().unwrap();
    for (old, new, field) in CASES {
        let (text, at) = with_line(old, new);
        std::fs::write(dir.path().join("bad.toml"), text).unwrap();
        // The line named is the field's own (a key's line), or the entry's first line
        // for a fault of the whole entry (outside the table): at or before the edit.
        let e = bad_input(dir.path(), &run_args("bad.toml"), &[field]);
        let line: usize = e
            .strip_prefix("bad.toml:")
            .and_then(|r| r.split(':').next())
            .and_then(|l| l.parse().ok())
            .unwrap_or_else(|| panic!("{new}: no line in {e}"));
        assert!(
            line <= at && line + 6 > at,
            "{new}: line {line}, edit at {at}: {e}"
        );
    }
}

/// A state file's `removed` must name a pocket the scene has, a known edge and a
/// finite time.
#[test]
fn a_bad_removal_is_named() {
    let dir = tempfile::tempdir().unwrap();
    for (removed, field) in [
        (
            r#"removed = { time = 1.0, by = "pocket 3" }"#,
            "balls[0].removed.by",
        ),
        (
            r#"removed = { time = 1.0, by = "sideways" }"#,
            "balls[0].removed.by",
        ),
        (
            r#"removed = { time = nan, by = "left" }"#,
            "balls[0].removed.time",
        ),
        (r#"removed = { time = 1.0 }"#, "balls[0].removed"),
    ] {
        let (text, _) = with_line("r = 2.0", &format!("r = 2.0\n{removed}"));
        std::fs::write(dir.path().join("bad.toml"), text).unwrap();
        bad_input(dir.path(), &run_args("bad.toml"), &[field]);
    }
}
