//! `--color-by` in renders and the `psi6` column of the diagnostics CSV, as a user
//! runs them.

mod common;
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
