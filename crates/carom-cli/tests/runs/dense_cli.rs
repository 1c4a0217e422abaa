//! `--color-by` in renders and the `psi6` column of the diagnostics CSV, as a user
//! runs them.

use crate::common;
use common::*;

/// A periodic box holding a perfect triangular crystal, 8 by 8 (spacing 2, rows
/// sqrt(3) apart), at rest except one ball of the first row moving slowly along x.
fn crystal() -> String {
    let (a, row) = (2.0, 3f64.sqrt());
    let mut s = format!(
        "[table]\nwidth = {}\nheight = {}\nboundary = \"periodic\"\n[physics]\nmodel = \"event\"\ndt = 0.01\n",
        8.0 * a,
        8.0 * row
    );
    for j in 0..8 {
        for i in 0..8 {
            let x = (i as f64 + 0.5 * (j % 2) as f64) * a + 0.5;
            let y = j as f64 * row + 0.5;
            let r = if i == 0 && j == 0 { 0.6 } else { 0.5 };
            s += &format!("[[balls]]\nx = {x}\ny = {y}\nr = {r}\n");
        }
    }
    s
}

fn fills(svg: &str) -> Vec<String> {
    svg.lines()
        .filter(|l| l.starts_with("<circle "))
        .map(|l| {
            let start = l.find(" fill=\"").unwrap() + 7;
            l[start..start + l[start..].find('"').unwrap()].to_string()
        })
        .collect()
}

/// Every ball of a perfect crystal has psi_6 = 1 (phase 0): one colour under
/// `--color-by psi6`. Under `--color-by size` the one larger ball differs from the
/// rest. The CSV's last column is psi6 = 1 (to round-off).
#[test]
fn color_by_and_the_psi6_column() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("c.toml"), crystal()).unwrap();
    run_ok(
        dir.path(),
        &[
            "run",
            "c.toml",
            "--steps",
            "1",
            "--render",
            "p.svg",
            "--color-by",
            "psi6",
            "--diagnostics",
            "d.csv",
            "-q",
        ],
    );
    let f = fills(&std::fs::read_to_string(dir.path().join("p.svg")).unwrap());
    assert!(f.len() >= 64, "{} circles", f.len());
    assert!(f.iter().all(|c| *c == f[0]), "psi6 colours differ: {f:?}");
    let csv = std::fs::read_to_string(dir.path().join("d.csv")).unwrap();
    let mut lines = csv.lines();
    assert!(lines.next().unwrap().ends_with(",psi6"));
    for row in lines {
        let psi: f64 = row.rsplit(',').next().unwrap().parse().unwrap();
        assert!((psi - 1.0).abs() < 1e-12, "{row}");
    }

    run_ok(
        dir.path(),
        &[
            "run",
            "c.toml",
            "--steps",
            "1",
            "--render",
            "s.svg",
            "--color-by",
            "size",
            "-q",
        ],
    );
    let f = fills(&std::fs::read_to_string(dir.path().join("s.svg")).unwrap());
    let odd = f.iter().filter(|c| **c != f[f.len() - 1]).count();
    assert!(
        (1..=4).contains(&odd),
        "one ball (drawn up to 4 times across edges) differs: {f:?}"
    );
}

#[test]
fn a_bad_color_by_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    bad_input(
        dir.path(),
        &["run", "level1", "--render", "x.png", "--color-by", "mood"],
        &["--color-by"],
    );
    bad_input(
        dir.path(),
        &["run", "level1", "--color-by", "speed"],
        &["--render"],
    );
}

/// A compression to area fraction 0.6 from 0.5 at rate 0.05 stops at
/// `t = (sqrt(1.2) - 1) / 0.05 = 1.9089`, long before the run's 10: the run ends
/// there, the summary says so, and the state file holds the grown radii (area
/// fraction 0.6 to round-off), no `physics.compress` (an ordinary scene) and the stop.
#[test]
fn a_compression_ends_the_run_at_its_target() {
    let dir = tempfile::tempdir().unwrap();
    let scene = r#"name = "squeeze"
duration = 10.0
[table]
boundary = "periodic"
[physics]
model = "event"
dt = 0.25
compress = { rate = 0.05, until = { area_fraction = 0.6 } }
[[generators]]
kind = "gas"
n = 200
area_fraction = 0.5
radii = { kind = "bidisperse", ratio = 1.4, fraction = 0.5 }
seed = 6
"#;
    std::fs::write(dir.path().join("s.toml"), scene).unwrap();
    let out = run_ok(dir.path(), &["run", "s.toml", "--out", "end.json"]);
    assert!(
        out.contains(
            "compression reached the target area fraction; area fraction 0.6 at t = 1.9089"
        ),
        "{out}"
    );
    let s = state(&dir.path().join("end.json"));
    let t = s["time"].as_f64().unwrap();
    assert!((t - (1.2f64.sqrt() - 1.0) / 0.05).abs() < 1e-12, "time {t}");
    assert!(s["physics"].get("compress").is_none());
    assert_eq!(s["compression"]["stopped"], "area_fraction");
    let (w, h) = (
        s["table"]["width"].as_f64().unwrap(),
        s["table"]["height"].as_f64().unwrap(),
    );
    let area: f64 = s["balls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| std::f64::consts::PI * b["r"].as_f64().unwrap().powi(2))
        .sum();
    assert!((area / (w * h) - 0.6).abs() < 1e-12);
    // Resumed, it is an ordinary run to the end of its duration.
    run_ok(dir.path(), &["run", "end.json", "--time", "1", "-q"]);
}

/// The same compression in the spring model shrinks the box instead: the run ends at
/// the same instant `t = (sqrt(1.2) - 1) / 0.05 = 1.9089` with the same summary line,
/// and the state file holds the unchanged radii (1) in a box whose side is that of
/// 200 unit disks at 0.6, `sqrt(200 pi / 0.6)` (to round-off).
#[test]
fn a_spring_compression_ends_the_run_at_its_target_in_a_smaller_box() {
    let dir = tempfile::tempdir().unwrap();
    let scene = r#"name = "squeeze"
duration = 10.0
[table]
boundary = "periodic"
[physics]
model = "spring"
dt = 0.01
stiffness = 1000.0
compress = { rate = 0.05, until = { area_fraction = 0.6 } }
[[generators]]
kind = "gas"
n = 200
area_fraction = 0.5
seed = 6
"#;
    std::fs::write(dir.path().join("s.toml"), scene).unwrap();
    let out = run_ok(dir.path(), &["run", "s.toml", "--out", "end.json"]);
    assert!(
        out.contains(
            "compression reached the target area fraction; area fraction 0.6 at t = 1.9089"
        ),
        "{out}"
    );
    let b = state(&dir.path().join("end.json"));
    let t = b["time"].as_f64().unwrap();
    assert!((t - (1.2f64.sqrt() - 1.0) / 0.05).abs() < 1e-12, "time {t}");
    assert!(b["physics"].get("compress").is_none());
    assert_eq!(b["compression"]["stopped"], "area_fraction");
    let side = b["table"]["width"].as_f64().unwrap();
    let expected = (200.0 * std::f64::consts::PI / 0.6).sqrt();
    assert!(
        (side / expected - 1.0).abs() < 1e-12,
        "{side} vs {expected}"
    );
    for ball in b["balls"].as_array().unwrap() {
        assert_eq!(ball["r"].as_f64(), Some(1.0));
    }
}
