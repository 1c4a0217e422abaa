//! Bad inputs of the chain sampler (`physics.model = "chain"`), each through the command
//! line's whole contract (exit status 2, nothing on stdout, one line on stderr naming
//! the key, no output file written): its own keys (`physics.chain`), a state file's
//! chain totals, and every feature of a scene it refuses by name.

use crate::common;
use common::*;

/// Hard disks in a periodic box, sampled by chains, with each key a case edits on a
/// line of its own.
const BASE: &str = r#"name = "chain"
duration = 2.0

[table]
boundary = "periodic"

[physics]
model = "chain"
gravity = [0.0, 0.0]
friction = { kind = "none" }
chain = { length = 20.0, seed = 3 }

[[generators]]
kind = "gas"
n = 100
area_fraction = 0.4
r = 1.0
seed = 4
"#;

#[test]
fn the_base_scene_runs_so_each_case_fails_for_its_own_reason() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("s.toml"), BASE).unwrap();
    run_ok(dir.path(), &run_args("s.toml", &["-q"]));
    for f in ["out.json", "t.csv", "r.png"] {
        assert!(dir.path().join(f).is_file(), "{f} written");
    }
}

/// Each edit: the key of the line, the new line, and what the error must contain.
const CASES: &[(&str, &str, &str)] = &[
    ("chain", "chain = { length = 0.0 }", "physics.chain.length"),
    ("chain", "chain = { length = -2.0 }", "physics.chain.length"),
    ("chain", "chain = { length = nan }", "physics.chain.length"),
    ("chain", "chain = { length = inf }", "physics.chain.length"),
    ("chain", "chain = { length = \"long\" }", "physics.chain"),
    ("chain", "chain = { seed = -1 }", "physics.chain"),
    ("chain", "chain = { seed = 1.5 }", "physics.chain"),
    ("chain", "chain = { next = \"z\" }", "physics.chain"),
    ("chain", "chain = { size = 3 }", "physics.chain"),
    ("chain", "chain = 3", "physics.chain"),
    ("boundary", "boundary = \"walls\"", "table.boundary"),
    ("boundary", "boundary = \"open\"", "table.boundary"),
    (
        "boundary",
        "boundary = [\"periodic\", \"walls\"]",
        "table.boundary",
    ),
    (
        "boundary",
        "boundary = [\"walls\", \"periodic\"]",
        "table.boundary",
    ),
    (
        "boundary",
        "boundary = { kind = \"sheared\", rate = 0.01 }",
        "table.boundary",
    ),
    ("gravity", "gravity = [0.0, 1.0]", "physics.gravity"),
    (
        "friction",
        "friction = { kind = \"cloth\" }",
        "physics.friction",
    ),
    (
        "friction",
        "friction = { kind = \"dry\", mu = 0.1 }",
        "physics.friction",
    ),
    (
        "friction",
        "contact_friction = { mu = 0.3 }",
        "physics.contact_friction",
    ),
    (
        "friction",
        "thermostat = { kind = \"rescale\", temperature = 1.0 }",
        "physics.thermostat",
    ),
    (
        "friction",
        "thermostat = { kind = \"andersen\", temperature = 1.0, rate = 0.5 }",
        "physics.thermostat",
    ),
    (
        "friction",
        "compress = { rate = 0.01, until = { area_fraction = 0.5 } }",
        "physics.compress",
    ),
];

#[test]
fn every_bad_chain_key_and_refused_feature_is_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    for (key, line, needle) in CASES {
        let text = replace_key(BASE, key, line).0;
        std::fs::write(dir.path().join("s.toml"), &text).unwrap();
        bad_input(dir.path(), &run_args("s.toml", &[]), &[needle]);
    }
}

#[test]
fn walls_pockets_and_kinematic_balls_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "[[walls]]\nkind = \"circle\"\ncenter = [5.0, 5.0]\nradius = 1.0\n",
            "walls",
        ),
        (
            "[[pockets]]\ncenter = [5.0, 5.0]\nradius = 1.0\n",
            "pockets",
        ),
        (
            "[[balls]]\nx = 1.5\ny = 1.5\nr = 1.0\nkinematic = true\n",
            "kinematic",
        ),
    ];
    for (extra, needle) in cases {
        std::fs::write(dir.path().join("s.toml"), format!("{BASE}\n{extra}")).unwrap();
        bad_input(dir.path(), &run_args("s.toml", &[]), &[needle]);
    }
}

#[test]
fn a_state_files_bad_chain_totals_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("s.toml"), BASE).unwrap();
    run_ok(
        dir.path(),
        &["run", "s.toml", "-q", "--steps", "5", "--out", "st.json"],
    );
    let good = state(&dir.path().join("st.json"));
    for (key, value) in [
        ("chains", serde_json::json!(-1)),
        ("liftings", serde_json::json!(1.5)),
        ("advance", serde_json::json!(-3.0)),
        ("displacement", serde_json::json!("far")),
    ] {
        let mut s = good.clone();
        s["diagnostics"]["chain"][key] = value;
        std::fs::write(dir.path().join("bad.json"), s.to_string()).unwrap();
        bad_input(
            dir.path(),
            &run_args("bad.json", &[]),
            &[&format!("diagnostics.chain.{key}")],
        );
    }
}

#[test]
fn disks_that_overlap_or_a_box_too_small_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let text = r#"[table]
width = 20.0
height = 20.0
boundary = "periodic"
[physics]
model = "chain"
[[balls]]
x = 5.0
y = 5.0
r = 1.0
[[balls]]
x = 6.0
y = 5.0
r = 1.0
"#;
    std::fs::write(dir.path().join("s.toml"), text).unwrap();
    bad_input(dir.path(), &run_args("s.toml", &[]), &["overlap"]);
}
