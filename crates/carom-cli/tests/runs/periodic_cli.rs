//! The command line with periodic boundaries and the statistical observables: the
//! particle formats of `--trajectory` (extended XYZ, LAMMPS dump) parse back to the
//! state the run ends in, an unknown extension is a usage error, the diagnostics CSV,
//! the summary and `compare` report the observables, a bad boundary is one clear line.

use crate::common;
use common::*;

use std::path::Path;

/// Three balls in a 40 x 30 box periodic in x, walled in y; ball 0 crosses the x edge
/// twice in the run, ball 1 once backwards.
const BOX: &str = r#"name = "box"
[table]
width = 40.0
height = 30.0
boundary = ["periodic", "walls"]
[physics]
model = "event"
dt = 0.5
[[balls]]
x = 10.0
y = 5.0
vx = 4.0
r = 1.0
[[balls]]
x = 20.0
y = 15.0
vx = -2.5
r = 1.5
[[balls]]
x = 30.0
y = 25.0
vy = 0.5
r = 2.0
"#;

fn state_balls(path: &Path) -> Vec<serde_json::Value> {
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    s["balls"].as_array().unwrap().clone()
}

/// One frame of a particle file: the box, the periodicity and the per-ball columns.
#[derive(Debug)]
struct Frame {
    sides: [f64; 2],
    periodic: [bool; 3],
    /// id, x, y, z, vx, vy, vz, radius, ix, iy, iz
    rows: Vec<[f64; 11]>,
}

/// A small reader of extended XYZ as written by carom (and as OVITO reads it): a count
/// line, a comment line of key=value pairs (quoted values may hold spaces), then the
/// columns the Properties key declares.
fn read_xyz(text: &str) -> Vec<Frame> {
    let mut lines = text.lines();
    let mut frames = Vec::new();
    while let Some(count) = lines.next() {
        let n: usize = count.trim().parse().unwrap();
        let comment = lines.next().unwrap();
        let mut keys = std::collections::HashMap::new();
        let mut rest = comment;
        while let Some(eq) = rest.find('=') {
            let key = rest[..eq].trim().to_string();
            let after = &rest[eq + 1..];
            let (value, tail) = if let Some(q) = after.strip_prefix('"') {
                let end = q.find('"').unwrap();
                (&q[..end], &q[end + 1..])
            } else {
                let end = after.find(' ').unwrap_or(after.len());
                (&after[..end], &after[end..])
            };
            keys.insert(key, value.to_string());
            rest = tail;
        }
        assert_eq!(
            keys["Properties"],
            "id:I:1:pos:R:3:velo:R:3:radius:R:1:image:I:3"
        );
        let lattice: Vec<f64> = keys["Lattice"]
            .split_whitespace()
            .map(|v| v.parse().unwrap())
            .collect();
        assert_eq!(lattice.len(), 9);
        let pbc: Vec<bool> = keys["pbc"].split_whitespace().map(|v| v == "T").collect();
        let rows = (0..n)
            .map(|_| {
                let v: Vec<f64> = lines
                    .next()
                    .unwrap()
                    .split_whitespace()
                    .map(|v| v.parse().unwrap())
                    .collect();
                v.try_into().unwrap()
            })
            .collect();
        frames.push(Frame {
            sides: [lattice[0], lattice[4]],
            periodic: [pbc[0], pbc[1], pbc[2]],
            rows,
        });
    }
    frames
}

/// A small reader of the LAMMPS text dump: ITEM sections, the box bounds with their
/// boundary flags, and the atom columns named on the ATOMS line.
fn read_dump(text: &str) -> Vec<Frame> {
    let mut lines = text.lines().peekable();
    let mut frames = Vec::new();
    let (mut n, mut sides, mut periodic) = (0, [0.0; 2], [false; 3]);
    while let Some(item) = lines.next() {
        if item == "ITEM: NUMBER OF ATOMS" {
            n = lines.next().unwrap().trim().parse().unwrap();
        } else if let Some(flags) = item.strip_prefix("ITEM: BOX BOUNDS ") {
            let f: Vec<&str> = flags.split_whitespace().collect();
            periodic = [f[0] == "pp", f[1] == "pp", f[2] == "pp"];
            for side in &mut sides {
                let b: Vec<f64> = lines
                    .next()
                    .unwrap()
                    .split_whitespace()
                    .map(|v| v.parse().unwrap())
                    .collect();
                *side = b[1] - b[0];
            }
            lines.next();
        } else if let Some(cols) = item.strip_prefix("ITEM: ATOMS ") {
            assert_eq!(cols, "id type x y z vx vy vz radius ix iy iz");
            let rows = (0..n)
                .map(|_| {
                    let mut v: Vec<f64> = lines
                        .next()
                        .unwrap()
                        .split_whitespace()
                        .map(|v| v.parse().unwrap())
                        .collect();
                    // Every ball has type 1; the rest of the row is as in XYZ.
                    assert_eq!(v.remove(1), 1.0);
                    // LAMMPS ids start at 1.
                    v[0] -= 1.0;
                    v.try_into().unwrap()
                })
                .collect();
            frames.push(Frame {
                sides,
                periodic,
                rows,
            });
        } else {
            // TIMESTEP, TIME: their value line.
            lines.next();
        }
    }
    frames
}

#[test]
fn particle_trajectories_parse_back_to_the_final_state() {
    for (file, read) in [
        ("t.xyz", read_xyz as fn(&str) -> Vec<Frame>),
        ("t.dump", read_dump),
        ("t.lammpstrj", read_dump),
    ] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("box.toml"), BOX).unwrap();
        let o = carom(
            dir.path(),
            &[
                "run",
                "box.toml",
                "--steps",
                "40",
                "--every",
                "10",
                "--trajectory",
                file,
                "--out",
                "s.json",
                "-q",
            ],
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let frames = read(&std::fs::read_to_string(dir.path().join(file)).unwrap());
        // Steps 0, 10, 20, 30, 40.
        assert_eq!(frames.len(), 5, "{file}");
        let last = frames.last().unwrap();
        assert_eq!(last.sides, [40.0, 30.0], "{file}");
        assert_eq!(last.periodic, [true, false, false], "{file}");
        let balls = state_balls(&dir.path().join("s.json"));
        assert_eq!(last.rows.len(), 3);
        for (i, row) in last.rows.iter().enumerate() {
            let b = &balls[i];
            let get = |k: &str| b[k].as_f64().unwrap();
            assert_eq!(row[0], i as f64);
            for (col, key) in [(1, "x"), (2, "y"), (4, "vx"), (5, "vy"), (7, "r")] {
                assert_eq!(
                    row[col].to_bits(),
                    get(key).to_bits(),
                    "{file} ball {i} {key}"
                );
            }
            assert_eq!((row[3], row[6], row[10]), (0.0, 0.0, 0.0));
            assert_eq!(row[8], get("ix"), "{file} ball {i} ix");
            assert_eq!(row[9], 0.0, "walled y: no image count");
            assert!(b.get("iy").is_none(), "iy only on a periodic axis");
        }
        // In 20 time units ball 0 moved 80 = two sides forward (10 -> 90); ball 1 moved
        // 50 back (20 -> -30), one side back (to 10).
        assert_eq!(last.rows[0][8], 2.0, "{file}");
        assert_eq!(last.rows[1][8], -1.0, "{file}");
    }
}

#[test]
fn an_unknown_trajectory_extension_is_a_usage_error_writing_nothing() {
    for name in ["t.txt", "t"] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("box.toml"), BOX).unwrap();
        let before = files(dir.path());
        let o = carom(
            dir.path(),
            &["run", "box.toml", "--trajectory", name, "--out", "s.json"],
        );
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("--trajectory"), "{}", stderr(&o));
        assert_eq!(files(dir.path()), before, "nothing written");
    }
}

#[test]
fn the_diagnostics_summary_and_compare_report_the_observables() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("box.toml"), BOX).unwrap();
    let o = carom(
        dir.path(),
        &[
            "run",
            "box.toml",
            "--steps",
            "20",
            "--diagnostics",
            "d.csv",
            "--out",
            "s.json",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("packing fraction") && out.contains("pressure"),
        "{out}"
    );
    let d = std::fs::read_to_string(dir.path().join("d.csv")).unwrap();
    let header: Vec<&str> = d.lines().next().unwrap().split(',').collect();
    assert_eq!(
        &header[9..],
        [
            "packing_fraction",
            "temperature",
            "pressure",
            "stress_xx",
            "stress_xy",
            "stress_yy",
            "psi6"
        ]
    );
    // Ball area pi (1 + 2.25 + 4) over 1200.
    let phi: f64 = d
        .lines()
        .nth(1)
        .unwrap()
        .split(',')
        .nth(9)
        .unwrap()
        .parse()
        .unwrap();
    let expected = std::f64::consts::PI * 7.25 / 1200.0;
    assert!((phi - expected).abs() < 1e-15, "{phi}");
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("s.json")).unwrap()).unwrap();
    for key in [
        "packing_fraction",
        "temperature",
        "pressure",
        "stress_xx",
        "stress_xy",
        "stress_yy",
    ] {
        assert!(s["diagnostics"][key].is_f64(), "{key}");
    }
    assert_eq!(
        s["table"]["boundary"],
        serde_json::json!(["periodic", "walls"])
    );
    let o = carom(
        dir.path(),
        &[
            "compare",
            "box.toml",
            "--models",
            "event,simultaneous",
            "--time",
            "5",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.lines().any(|l| l.contains("pressure")), "{out}");
}

#[test]
fn a_bad_boundary_is_one_line_naming_file_line_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let text = BOX.replace(r#"["periodic", "walls"]"#, r#""helical""#);
    std::fs::write(dir.path().join("box.toml"), text).unwrap();
    let before = files(dir.path());
    let o = carom(dir.path(), &["run", "box.toml", "--out", "s.json"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert_eq!(e.trim_end().lines().count(), 1, "{e}");
    assert!(
        e.contains("box.toml:5:") && e.contains("table.boundary"),
        "{e}"
    );
    assert_eq!(files(dir.path()), before);
}
