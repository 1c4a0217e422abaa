//! The chain sampler (`physics.model = "chain"`) through the command line: a run split
//! by `--out` and a resume is the unbroken run to the bit; `--time` counts the chains'
//! displacement per disk; the diagnostics, the trajectory, `psi6` and a render work as
//! for the other models; velocities are left as they are.

use crate::common;
use common::*;

const SCENE: &str = r#"name = "chain gas"
[table]
boundary = "periodic"
[physics]
model = "chain"
dt = 2.0
chain = { seed = 9 }
[[generators]]
kind = "gas"
n = 300
area_fraction = 0.5
r = 1.0
speed = 1.0
seed = 5
radii = { kind = "bidisperse", ratio = 1.4, fraction = 0.5 }
"#;

#[test]
fn a_run_split_by_its_state_file_is_the_unbroken_run_to_the_bit() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("s.toml"), SCENE).unwrap();
    run_ok(
        d,
        &[
            "run",
            "s.toml",
            "-q",
            "--steps",
            "301",
            "--out",
            "full.json",
        ],
    );
    run_ok(
        d,
        &["run", "s.toml", "-q", "--steps", "120", "--out", "a.json"],
    );
    run_ok(
        d,
        &["run", "a.json", "-q", "--steps", "100", "--out", "b.json"],
    );
    run_ok(
        d,
        &["run", "b.json", "-q", "--steps", "81", "--out", "c.json"],
    );
    let (full, c) = (state(&d.join("full.json")), state(&d.join("c.json")));
    assert_eq!(full["balls"], c["balls"], "positions and velocities");
    assert_eq!(
        full["physics"], c["physics"],
        "the stream and the next direction"
    );
    assert_eq!(full["time"], c["time"]);
    assert_eq!(full["steps"], c["steps"]);
    // The totals go on across the resumes as in the unbroken run.
    assert_eq!(full["diagnostics"]["chain"], c["diagnostics"]["chain"]);
    assert_eq!(
        full["diagnostics"]["collisions"],
        c["diagnostics"]["collisions"]
    );
    // An odd count leaves the next chain along y, and the state says so.
    assert_eq!(full["physics"]["chain"]["next"], "y");
}

#[test]
fn time_is_the_chains_displacement_per_disk_and_velocities_stay() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("s.toml"), SCENE).unwrap();
    run_ok(
        d,
        &["run", "s.toml", "-q", "--steps", "0", "--out", "start.json"],
    );
    let out = run_ok(
        d,
        &[
            "run",
            "s.toml",
            "--time",
            "40",
            "--out",
            "end.json",
            "--diagnostics",
            "d.csv",
            "--trajectory",
            "t.csv",
            "--every",
            "50",
            "--render",
            "r.png",
            "--color-by",
            "psi6",
        ],
    );
    let (start, end) = (state(&d.join("start.json")), state(&d.join("end.json")));
    let n = 300.0;
    let length = end["diagnostics"]["chain_length"].as_f64().unwrap();
    let chains = end["steps"].as_u64().unwrap();
    // The whole number of chains nearest to 40 units of displacement per disk.
    assert_eq!(chains, (40.0 * n / length).round() as u64);
    let time = end["time"].as_f64().unwrap();
    assert!((time - chains as f64 * length / n).abs() < 1e-9 * time);
    let totals = &end["diagnostics"]["chain"];
    assert_eq!(totals["chains"].as_u64(), Some(chains));
    for (a, b) in start["balls"]
        .as_array()
        .unwrap()
        .iter()
        .zip(end["balls"].as_array().unwrap())
    {
        assert_eq!(a["vx"], b["vx"]);
        assert_eq!(a["vy"], b["vy"]);
        assert_eq!(a["r"], b["r"]);
    }
    assert_ne!(start["balls"], end["balls"], "the disks moved");
    let diag = &end["diagnostics"];
    let z = diag["z"].as_f64().unwrap();
    assert!(z > 2.0 && z < 6.0, "z {z}");
    assert!(diag["z_error"].as_f64().unwrap() > 0.0);
    assert!(diag["psi6"].as_f64().is_some());
    // pressure = beta_p kT, so that P A / (N kT) = z as in every model.
    let (p, t, phi) = (
        diag["pressure"].as_f64().unwrap(),
        diag["temperature"].as_f64().unwrap(),
        diag["beta_p"].as_f64().unwrap(),
    );
    assert!((p - phi * t).abs() < 1e-12 * p);
    assert!(out.contains("chain       Z = beta P A / N"), "{out}");
    let csv = std::fs::read_to_string(d.join("d.csv")).unwrap();
    assert!(csv.lines().next().unwrap().ends_with(",psi6,z,beta_p"));
    assert!(d.join("t.csv").is_file() && d.join("r.png").is_file());
}

#[test]
fn the_dynamics_state_files_are_unchanged_by_the_chain_keys() {
    // A dynamics run writes no chain key, so its files are as before the sampler.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("s.toml"), SCENE.replace("\"chain\"", "\"event\"")).unwrap();
    run_ok(
        d,
        &["run", "s.toml", "-q", "--steps", "3", "--out", "e.json"],
    );
    let e = state(&d.join("e.json"));
    assert!(e["diagnostics"].get("z").is_none());
    // The given physics.chain is written back as given.
    assert_eq!(e["physics"]["chain"]["seed"], 9);
}
