//! Resuming a frictional `spring` run through the `carom` binary: the state file
//! carries the loaded tangential springs, so `run column` for 2K steps and `run column`
//! for K steps then `run` its state for K more write the same balls, bit for bit. A
//! frictionless state file has no such key, and a bad value in it is refused with
//! exit 2, one line naming the field, and nothing written.

use crate::common;
use common::*;

/// K steps of the column (dt = 0.002): by 0.5 time units the column has landed on the
/// floor and most contacts stick, so the cut falls among loaded springs.
const K: &str = "250";
const TWO_K: &str = "500";

#[test]
fn a_frictional_column_resumed_from_its_state_file_continues_bit_for_bit() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    run_ok(
        d,
        &["run", "column", "--steps", K, "--out", "s1.json", "-q"],
    );
    run_ok(
        d,
        &["run", "s1.json", "--steps", K, "--out", "s2.json", "-q"],
    );
    run_ok(
        d,
        &["run", "column", "--steps", TWO_K, "--out", "s.json", "-q"],
    );
    let (half, resumed, straight) = (
        state(&d.join("s1.json")),
        state(&d.join("s2.json")),
        state(&d.join("s.json")),
    );
    // Springs were loaded at the cut (else nothing would be tested), on pairs and walls.
    let springs = &half["tangential_springs"];
    assert!(springs["pairs"].as_array().unwrap().len() > 20, "{springs}");
    assert!(
        !springs["walls"].as_array().unwrap().is_empty(),
        "{springs}"
    );
    // serde_json::Value compares numbers exactly (the files hold every float in its
    // shortest round-tripping form), so equal arrays mean equal bits.
    assert_eq!(resumed["balls"].as_array().unwrap().len(), 400);
    assert!(
        resumed["balls"] == straight["balls"],
        "the resumed balls differ from the straight run's"
    );
    assert!(resumed["tangential_springs"] == straight["tangential_springs"]);
    assert_eq!(resumed["steps"], straight["steps"]);
    assert_eq!(resumed["time"], straight["time"]);
    for key in ["collisions", "kinetic_energy", "potential_energy"] {
        assert_eq!(
            resumed["diagnostics"][key], straight["diagnostics"][key],
            "{key}"
        );
    }
}

/// A walled frictionless preset, a frictional one run by a hard model, and the column
/// made frictionless: no `tangential_springs` key, exactly as before it existed.
#[test]
fn state_files_without_springs_have_no_key() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let runs: [&[&str]; 3] = [
        &["run", "break", "--steps", "200", "--out", "a.json", "-q"],
        &["run", "english", "--steps", "200", "--out", "b.json", "-q"],
        &[
            "run",
            "column",
            "--steps",
            "300",
            "--set",
            "physics.contact_friction.mu=0",
            "--out",
            "c.json",
            "-q",
        ],
    ];
    for args in runs {
        run_ok(d, args);
        let out = args[args.len() - 2];
        let text = std::fs::read_to_string(d.join(out)).unwrap();
        assert!(!text.contains("tangential_springs"), "{args:?}");
    }
}

#[test]
fn bad_tangential_springs_exit_2_naming_the_field_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    run_ok(
        d,
        &["run", "column", "--steps", K, "--out", "s1.json", "-q"],
    );
    let good = state(&d.join("s1.json"));
    let cases = [
        (
            "pairs",
            serde_json::json!([[0, 400, 0.01]]),
            "tangential_springs.pairs[0][1]",
        ),
        (
            "pairs",
            serde_json::json!([[7, 5, 0.01]]),
            "tangential_springs.pairs[0]",
        ),
        (
            "walls",
            serde_json::json!([[3, 2, 0.01]]),
            "tangential_springs.walls[0][1]",
        ),
        (
            "walls",
            serde_json::json!([[3, 1, null]]),
            "tangential_springs.walls[0]",
        ),
        // The vertical stretches of balls on cloth, read by the same rules.
        (
            "vertical",
            serde_json::json!([[0, 400, 0.01]]),
            "tangential_springs.vertical[0][1]",
        ),
        (
            "vertical",
            serde_json::json!([[5, 5, 0.01]]),
            "tangential_springs.vertical[0]",
        ),
        (
            "vertical",
            serde_json::json!([[1, 2, 0.01], [1, 2, 0.02]]),
            "tangential_springs.vertical[1]",
        ),
        (
            "vertical",
            serde_json::json!([[1, 2, "x"]]),
            "tangential_springs.vertical[0]",
        ),
    ];
    for (key, value, field) in cases {
        let mut doc = good.clone();
        doc["tangential_springs"][key] = value;
        std::fs::write(d.join("bad.json"), doc.to_string()).unwrap();
        let o = carom(d, &["run", "bad.json", "--steps", "5", "--out", "out.json"]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{field}: {err}");
        assert!(err.contains(field), "{field}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
        assert!(!d.join("out.json").exists(), "{field}: a state was written");
    }
}
