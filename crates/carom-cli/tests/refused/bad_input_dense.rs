//! Bad inputs of the dense-disk keys, each through the command line's whole contract
//! (exit status 2, nothing on stdout, one line on stderr naming the file and the key,
//! no output file written): a gas's size distribution `radii`, a thermostat, the
//! Andersen clock a state file of the event model holds (`thermostat_clock`), and a
//! compression.

use crate::common;
use common::*;

/// A bidisperse gas in a periodic box, sized by the generator, with every new key on a
/// line of its own so that one edit spoils one key.
const BASE: &str = r#"name = "dense"
duration = 0.5
thermostat_clock = [[0, 0, 0.25], [1, 3, 0.1]]

[table]
boundary = "periodic"

[physics]
model = "event"
thermostat = { kind = "andersen", temperature = 1.0, rate = 0.5, seed = 2 }
compress = { rate = 0.01, until = { area_fraction = 0.45 } }

[[generators]]
kind = "gas"
n = 200
area_fraction = 0.4
radii = { kind = "bidisperse", ratio = 1.4, fraction = 0.5 }
seed = 4
"#;

/// `BASE` with the line starting with `key =` replaced by `line`.
fn with_line(key: &str, line: &str) -> String {
    with_line_in(BASE, key, line)
}

/// `base` with the line starting with `key =` replaced by `line`.
fn with_line_in(base: &str, key: &str, line: &str) -> String {
    replace_key(base, key, line).0
}

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
    (
        "radii",
        r#"radii = { kind = "bidisperse", ratio = 0.0 }"#,
        "generators[0].radii.ratio",
    ),
    (
        "radii",
        r#"radii = { kind = "bidisperse", ratio = -1.4 }"#,
        "generators[0].radii.ratio",
    ),
    (
        "radii",
        r#"radii = { kind = "bidisperse", fraction = 1.01 }"#,
        "generators[0].radii.fraction",
    ),
    (
        "radii",
        r#"radii = { kind = "bidisperse", fraction = -0.5 }"#,
        "generators[0].radii.fraction",
    ),
    (
        "radii",
        r#"radii = { kind = "uniform", min = 1.0, max = 0.5 }"#,
        "generators[0].radii.max",
    ),
    (
        "radii",
        r#"radii = { kind = "uniform", min = 0.0, max = 0.5 }"#,
        "generators[0].radii.min",
    ),
    (
        "radii",
        r#"radii = { kind = "uniform", min = 0.5 }"#,
        "generators[0]",
    ),
    (
        "radii",
        r#"radii = { kind = "lognormal", median = 1.0, sigma = -0.2 }"#,
        "generators[0].radii.sigma",
    ),
    (
        "radii",
        r#"radii = { kind = "lognormal", median = nan, sigma = 0.2 }"#,
        "generators[0].radii.median",
    ),
    ("radii", r#"radii = { kind = "weibull" }"#, "generators[0]"),
    (
        "radii",
        r#"radii = { kind = "bidisperse", ratio = 1.4, size = 2 }"#,
        "generators[0]",
    ),
    (
        "area_fraction",
        "area_fraction = 0.85",
        "generators[0].area_fraction",
    ),
    (
        "thermostat",
        r#"thermostat = { kind = "andersen", temperature = 0.0, rate = 0.5 }"#,
        "physics.thermostat.temperature",
    ),
    (
        "thermostat",
        r#"thermostat = { kind = "andersen", temperature = inf, rate = 0.5 }"#,
        "physics.thermostat.temperature",
    ),
    (
        "thermostat",
        r#"thermostat = { kind = "andersen", temperature = 1.0, rate = -0.5 }"#,
        "physics.thermostat.rate",
    ),
    (
        "thermostat",
        r#"thermostat = { kind = "andersen", temperature = 1.0, rate = nan }"#,
        "physics.thermostat.rate",
    ),
    (
        "thermostat",
        r#"thermostat = { kind = "rescale", temperature = -2.0 }"#,
        "physics.thermostat.temperature",
    ),
    (
        "thermostat",
        r#"thermostat = { kind = "rescale" }"#,
        "physics.thermostat",
    ),
    (
        "thermostat",
        r#"thermostat = { kind = "nose-hoover", temperature = 1.0 }"#,
        "physics.thermostat",
    ),
    (
        "thermostat_clock",
        "thermostat_clock = [[200, 0, 0.5]]",
        "thermostat_clock[0]",
    ),
    (
        "thermostat_clock",
        "thermostat_clock = [[0, 0, 0.5], [0, 1, 0.5]]",
        "thermostat_clock[1]",
    ),
    (
        "thermostat_clock",
        "thermostat_clock = [[0, 0, -0.5]]",
        "thermostat_clock[0]",
    ),
    (
        "thermostat_clock",
        "thermostat_clock = [[0, 0, nan]]",
        "thermostat_clock[0]",
    ),
    (
        "thermostat_clock",
        "thermostat_clock = [[0, -1, 0.5]]",
        "thermostat_clock",
    ),
    (
        "thermostat_clock",
        "thermostat_clock = 3",
        "thermostat_clock",
    ),
    (
        "compress",
        "compress = { rate = 0.0 }",
        "physics.compress.rate",
    ),
    (
        "compress",
        "compress = { rate = -0.5 }",
        "physics.compress.rate",
    ),
    (
        "compress",
        "compress = { rate = inf }",
        "physics.compress.rate",
    ),
    (
        "compress",
        "compress = { rate = 0.1, until = { area_fraction = 1.5 } }",
        "physics.compress.until.area_fraction",
    ),
    (
        "compress",
        "compress = { rate = 0.1, until = { area_fraction = 0.0 } }",
        "physics.compress.until.area_fraction",
    ),
    // Below the start's 0.4.
    (
        "compress",
        "compress = { rate = 0.1, until = { area_fraction = 0.35 } }",
        "physics.compress.until.area_fraction",
    ),
    (
        "compress",
        "compress = { rate = 0.1, until = { pressure = -3.0 } }",
        "physics.compress.until.pressure",
    ),
    (
        "compress",
        "compress = { rate = 0.1, temperature = nan }",
        "physics.compress.temperature",
    ),
    (
        "compress",
        "compress = { rate = 0.1, speed = 2 }",
        "physics.compress",
    ),
    ("compress", "compress = 0.1", "physics.compress"),
];

#[test]
fn bad_dense_keys_exit_2_naming_file_and_key_writing_nothing() {
    let dir = tempfile::tempdir().unwrap();
    for (key, line, field) in CASES {
        std::fs::write(dir.path().join("s.toml"), with_line(key, line)).unwrap();
        bad_input(dir.path(), &run_args("s.toml", &[]), &["s.toml", field]);
    }
}

/// A compression in a stepping model (the box shrinks), each key on a line of its own.
const STEPPING: &str = r#"name = "squeezed"
duration = 0.5

[table]
boundary = "periodic"

[physics]
model = "spring"
dt = 0.01
stiffness = 1000.0
restitution = 1.0
gravity = [0.0, 0.0]
compress = { rate = 0.05, until = { area_fraction = 0.45 } }

[[generators]]
kind = "gas"
n = 200
area_fraction = 0.4
seed = 4
"#;

const STEPPING_CASES: &[(&str, &str, &str)] = &[
    ("restitution", "restitution = 0.9", "physics.compress"),
    ("gravity", "gravity = [0.0, -1.0]", "physics.compress"),
    // 9 unit disks at 0.4: a side of 8.41, which at 0.45 would be 7.93, under the four
    // diameters (8) a periodic side keeps.
    ("n", "n = 9", "physics.compress"),
    (
        "compress",
        "compress = { rate = 0.05, until = { area_fraction = 0.3 } }",
        "physics.compress.until.area_fraction",
    ),
    (
        "compress",
        "compress = { rate = -0.05 }",
        "physics.compress.rate",
    ),
];

#[test]
fn bad_stepping_compressions_exit_2_naming_file_and_key_writing_nothing() {
    let dir = tempfile::tempdir().unwrap();
    for model in ["spring", "impulse", "simultaneous"] {
        let base = with_line_in(STEPPING, "model", &format!("model = \"{model}\""));
        std::fs::write(dir.path().join("s.toml"), &base).unwrap();
        run_ok(dir.path(), &run_args("s.toml", &["-q"]));
        for f in ["out.json", "t.csv", "r.png"] {
            assert!(dir.path().join(f).is_file(), "{model}: {f} written");
            std::fs::remove_file(dir.path().join(f)).unwrap();
        }
        for (key, line, field) in STEPPING_CASES {
            std::fs::write(dir.path().join("s.toml"), with_line_in(&base, key, line)).unwrap();
            bad_input(dir.path(), &run_args("s.toml", &[]), &["s.toml", field]);
        }
    }
}
