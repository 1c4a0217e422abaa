//! Bad sheared boxes (`table.boundary = { x = "periodic", y = "sheared", shear_rate =
//! G }`) through the command line's whole contract: exit status 2, nothing on stdout,
//! one line on stderr naming the file, the line and the key, and no output file
//! although `--out`, `--trajectory` and `--render` were all asked for. The inputs: an x
//! written "sheared", a sheared y beside a walled x, a shear rate on an axis that is
//! not sheared, a missing, non-finite or mistyped rate, a shift off the width, an
//! unknown key, the word "sheared" outside the map form, a model that does not run a
//! sheared box (named), what the event model cannot shear (gravity, walls inside the
//! table, a compression), and walls or pockets reaching the sliding edge. The good scene
//! runs and its state file writes the map with the shift.

use crate::common;
use common::*;

/// A sheared spring box with two balls: every case below spoils one line of it (or
/// adds walls at its end).
const BASE: &str = r#"name = "sheared box"
duration = 1.0

[table]
width = 40.0
height = 40.0
boundary = { x = "periodic", y = "sheared", shear_rate = 0.1 }

[physics]
model = "spring"
dt = 0.01

[[balls]]
x = 10.0
y = 20.0
vx = 1.0
r = 2.0

[[balls]]
x = 30.0
y = 38.5
vy = 1.0
r = 2.0
"#;

const BOUNDARY_LINE: &str = r#"boundary = { x = "periodic", y = "sheared", shear_rate = 0.1 }"#;

/// `BASE` with the line starting with `key =` replaced by `line`; the text and the
/// 1-based line number, which the error must name.
fn with_line(key: &str, line: &str) -> (String, usize) {
    replace_key(BASE, key, line)
}

#[test]
fn the_base_scene_runs_and_writes_the_map_with_the_shift() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("s.toml"), BASE).unwrap();
    run_ok(dir.path(), &run_args("s.toml", &["--steps", "100", "-q"]));
    for f in ["out.json", "t.csv", "r.png"] {
        assert!(dir.path().join(f).is_file(), "{f} written");
    }
    let s = state(&dir.path().join("out.json"));
    let b = &s["table"]["boundary"];
    assert_eq!(
        (b["x"].as_str(), b["y"].as_str()),
        (Some("periodic"), Some("sheared"))
    );
    assert_eq!(b["shear_rate"].as_f64(), Some(0.1));
    // 100 steps of 0.01: the copy above slid by G H t = 0.1 * 40 * 1 = 4, summed step
    // by step (round-off 1e-13).
    let shift = b["shift"].as_f64().unwrap();
    assert!((shift - 4.0).abs() < 1e-12, "{shift}");
    // The state file is a scenario: it runs on from there.
    std::fs::remove_file(dir.path().join("t.csv")).unwrap();
    std::fs::remove_file(dir.path().join("r.png")).unwrap();
    std::fs::rename(dir.path().join("out.json"), dir.path().join("half.json")).unwrap();
    run_ok(
        dir.path(),
        &run_args("half.json", &["--steps", "100", "-q"]),
    );
    let s = state(&dir.path().join("out.json"));
    let shift = s["table"]["boundary"]["shift"].as_f64().unwrap();
    assert!((shift - 8.0).abs() < 1e-12, "{shift}");
}

/// Edits of one line, and the key (and any word) the error must name.
const FILE_CASES: &[(&str, &str, &[&str])] = &[
    (
        "boundary",
        r#"boundary = { x = "sheared", y = "periodic", shear_rate = 0.1 }"#,
        &["table.boundary.x", "only y may be sheared"],
    ),
    (
        "boundary",
        r#"boundary = { x = "walls", y = "sheared", shear_rate = 0.1 }"#,
        &["table.boundary.x", "periodic"],
    ),
    // A shear rate on a walled (or merely periodic) y.
    (
        "boundary",
        r#"boundary = { x = "periodic", y = "walls", shear_rate = 0.1 }"#,
        &["table.boundary.shear_rate", "sheared"],
    ),
    (
        "boundary",
        r#"boundary = { x = "periodic", y = "periodic", shear_rate = 0.1 }"#,
        &["table.boundary.shear_rate"],
    ),
    (
        "boundary",
        r#"boundary = { x = "periodic", y = "sheared" }"#,
        &["table.boundary.shear_rate", "missing"],
    ),
    (
        "boundary",
        r#"boundary = { x = "periodic", y = "sheared", shear_rate = nan }"#,
        &["table.boundary.shear_rate", "finite"],
    ),
    (
        "boundary",
        r#"boundary = { x = "periodic", y = "sheared", shear_rate = -inf }"#,
        &["table.boundary.shear_rate", "finite"],
    ),
    (
        "boundary",
        r#"boundary = { x = "periodic", y = "sheared", shear_rate = "fast" }"#,
        &["table.boundary.shear_rate"],
    ),
    (
        "boundary",
        r#"boundary = { x = "periodic", y = "sheared", shear_rate = 0.1, shift = 40.0 }"#,
        &["table.boundary.shift"],
    ),
    (
        "boundary",
        r#"boundary = { x = "periodic", y = "sheared", shear_rate = 0.1, shift = -1.0 }"#,
        &["table.boundary.shift"],
    ),
    (
        "boundary",
        r#"boundary = { x = "periodic", y = "periodic", shift = 2.0 }"#,
        &["table.boundary.shift"],
    ),
    (
        "boundary",
        r#"boundary = { x = "periodic", y = "sheared", shear_rate = 0.1, skew = 1.0 }"#,
        &["table.boundary", "skew"],
    ),
    (
        "boundary",
        r#"boundary = { x = "periodic", shear_rate = 0.1 }"#,
        &["table.boundary", "missing y"],
    ),
    (
        "boundary",
        r#"boundary = "sheared""#,
        &["table.boundary", "map form"],
    ),
    (
        "boundary",
        r#"boundary = ["periodic", "sheared"]"#,
        &["table.boundary", "map form"],
    ),
    // Models that do not run a sheared box, named.
    (
        "model",
        r#"model = "simultaneous""#,
        &["table.boundary.shear_rate", "simultaneous"],
    ),
    (
        "model",
        r#"model = "impulse""#,
        &["table.boundary.shear_rate", "impulse"],
    ),
];

/// What the event model cannot run in a sheared box: each case the base scene in the
/// event model with one more line under `[physics]`, or walls inside the table, and
/// the key and words its error must name.
const EVENT_CASES: &[(&str, &[&str])] = &[
    (
        "gravity = [0.0, 9.8]\n",
        &["physics.gravity", "sheared box", "without gravity"],
    ),
    (
        "\n[[walls]]\nkind = \"segment\"\npoints = [[15.0, 10.0], [25.0, 10.0]]\n",
        &["physics.model", "sheared box", "walls inside the table"],
    ),
    (
        "compress = { rate = 0.01, until = { area_fraction = 0.3 } }\n",
        &["physics.compress", "sheared box"],
    ),
];

#[test]
fn what_the_event_model_cannot_shear_exits_2_naming_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let (event, _) = with_line("model", r#"model = "event""#);
    for (extra, needles) in EVENT_CASES {
        let text = if extra.starts_with('\n') {
            format!("{event}{extra}")
        } else {
            event.replace("dt = 0.01\n", &format!("dt = 0.01\n{extra}"))
        };
        std::fs::write(dir.path().join("bad.toml"), text).unwrap();
        let mut all = vec!["bad.toml"];
        all.extend_from_slice(needles);
        bad_input(dir.path(), &run_args("bad.toml", &["--steps", "3"]), &all);
    }
    // Without them the event model runs the box.
    std::fs::write(dir.path().join("s.toml"), &event).unwrap();
    run_ok(dir.path(), &run_args("s.toml", &["--steps", "30", "-q"]));
}

#[test]
fn bad_sheared_boxes_exit_2_naming_file_line_and_key_writing_nothing() {
    let dir = tempfile::tempdir().unwrap();
    for (key, line, needles) in FILE_CASES {
        let (text, mut at) = with_line(key, line);
        if *key == "model" {
            // The error is about the box, under its rate: on the boundary's line.
            at = with_line("boundary", BOUNDARY_LINE).1;
        }
        std::fs::write(dir.path().join("bad.toml"), text).unwrap();
        let located = format!("bad.toml:{at}:");
        let mut all = vec![located.as_str()];
        all.extend_from_slice(needles);
        bad_input(dir.path(), &run_args("bad.toml", &["--steps", "3"]), &all);
    }
}

#[test]
fn the_same_box_written_as_json_names_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let doc = serde_json::json!({
        "table": { "width": 40.0, "height": 40.0,
                   "boundary": { "x": "sheared", "y": "periodic", "shear_rate": 0.1 } },
        "balls": [ { "x": 10.0, "y": 20.0, "r": 2.0 } ]
    });
    std::fs::write(dir.path().join("bad.json"), doc.to_string()).unwrap();
    bad_input(
        dir.path(),
        &run_args("bad.json", &["--steps", "3"]),
        &["bad.json", "table.boundary.x"],
    );
}

#[test]
fn walls_or_pockets_at_the_sliding_edge_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    for (extra, needle) in [
        // A floor on the sliding edge itself, and a post crossing it.
        (
            "[[walls]]\nkind = \"segment\"\npoints = [[0.0, 40.0], [40.0, 40.0]]\n",
            "walls[0]",
        ),
        (
            "[[walls]]\nkind = \"circle\"\ncenter = [20.0, 1.0]\nradius = 3.0\n",
            "walls[0]",
        ),
        (
            "[[pockets]]\ncenter = [5.0, 39.0]\nradius = 2.0\n",
            "pockets[0]",
        ),
        // A wall inside the box that moves may be carried to the edge.
        (
            "[[walls]]\nkind = \"circle\"\ncenter = [20.0, 10.0]\nradius = 3.0\nvelocity = [0.0, 1.0]\n",
            "walls[0]",
        ),
    ] {
        std::fs::write(dir.path().join("bad.toml"), format!("{BASE}{extra}")).unwrap();
        bad_input(
            dir.path(),
            &run_args("bad.toml", &["--steps", "3"]),
            &["bad.toml", needle],
        );
    }
    // A fixed wall well inside the box is fine.
    std::fs::write(
        dir.path().join("ok.toml"),
        format!("{BASE}[[walls]]\nkind = \"circle\"\ncenter = [20.0, 8.0]\nradius = 3.0\n"),
    )
    .unwrap();
    run_ok(dir.path(), &["run", "ok.toml", "--steps", "3", "-q"]);
}

#[test]
fn a_model_flag_or_an_override_that_spoils_the_box_names_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("s.toml"), BASE).unwrap();
    bad_input(
        dir.path(),
        &run_args("s.toml", &["--steps", "3", "--model", "simultaneous"]),
        &["table.boundary.shear_rate", "simultaneous"],
    );
    bad_input(
        dir.path(),
        &run_args(
            "s.toml",
            &["--steps", "3", "--set", "table.boundary.shear_rate=nan"],
        ),
        &["--set table.boundary.shear_rate", "finite"],
    );
    bad_input(
        dir.path(),
        &run_args(
            "s.toml",
            &["--steps", "3", "--set", "table.boundary.x=sheared"],
        ),
        &["table.boundary.x"],
    );
}

/// A gas dense enough to be compressed into place is packed in the unsheared box, so a
/// sheared box holding one must start at shift 0: another shift is refused by name.
#[test]
fn a_dense_gas_in_a_box_started_at_a_shift_names_the_shift() {
    let dir = tempfile::tempdir().unwrap();
    let text = r#"[table]
boundary = { x = "periodic", y = "sheared", shear_rate = 0.1, shift = 2.0 }
[physics]
model = "spring"
dt = 0.001
[[generators]]
kind = "gas"
n = 200
area_fraction = 0.75
r = 0.5
radii = { kind = "uniform", min = 0.4, max = 0.6 }
speed = 0.1
"#;
    std::fs::write(dir.path().join("bad.toml"), text).unwrap();
    bad_input(
        dir.path(),
        &run_args("bad.toml", &["--steps", "3"]),
        &["bad.toml", "table.boundary.shift", "shift 0"],
    );
}
