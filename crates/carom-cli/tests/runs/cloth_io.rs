//! Balls on cloth in the command line's files: every trajectory format carries
//! `angle, wx, wy, omega` per ball, equal to the state file's values at the same step,
//! the diagnostics CSV its rotational energy, and renders draw a spin dot on each ball;
//! a scene off cloth keeps the columns and pictures it had.

use crate::common;
use common::*;

/// A cue ball struck with draw and english towards a resting ball, on cloth (SI
/// units: a pool ball of radius 28.575 mm and 170 g, g = 9.81).
const SCENE: &str = r#"name = "cloth"
[table]
width = 2.54
height = 1.27
[physics]
model = "impulse"
dt = 0.001
friction = { kind = "cloth", g_normal = 9.81 }
[[balls]]
x = 0.5
y = 0.635
r = 0.028575
m = 0.17
cue = { speed = 3.0, aim = 5.0, english = 0.3, follow = -0.5 }
[[balls]]
x = 1.5
y = 0.65
r = 0.028575
m = 0.17
"#;

const STEPS: &str = "150";

/// The state file's balls: `[angle, wx, wy, omega]` per ball.
fn state_spins(dir: &std::path::Path) -> Vec<[f64; 4]> {
    let s = state(&dir.join("s.json"));
    s["balls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| ["angle", "wx", "wy", "omega"].map(|k| b[k].as_f64().unwrap()))
        .collect()
}

/// The last `n` rows' last four columns, split on `sep`.
fn last_spins(text: &str, n: usize, sep: char) -> Vec<[f64; 4]> {
    let rows: Vec<&str> = text.lines().collect();
    rows[rows.len() - n..]
        .iter()
        .map(|row| {
            let cols: Vec<f64> = row
                .split(sep)
                .filter(|c| !c.is_empty())
                .map(|c| c.parse().unwrap())
                .collect();
            let k = cols.len();
            [cols[k - 4], cols[k - 3], cols[k - 2], cols[k - 1]]
        })
        .collect()
}

#[test]
fn every_trajectory_format_carries_the_spins_of_the_state_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("c.toml"), SCENE).unwrap();
    for file in ["t.csv", "t.xyz", "t.dump"] {
        run_ok(
            d,
            &[
                "run",
                "c.toml",
                "--steps",
                STEPS,
                "--trajectory",
                file,
                "--every",
                "50",
                "--out",
                "s.json",
                "-q",
            ],
        );
        let want = state_spins(d);
        // The struck ball spins about all three axes: every column is exercised.
        assert!(want[0].iter().all(|&v| v != 0.0), "{want:?}");
        let text = std::fs::read_to_string(d.join(file)).unwrap();
        let sep = if file.ends_with(".csv") { ',' } else { ' ' };
        // Written in the shortest form that reads back to the same value: equal.
        assert_eq!(last_spins(&text, 2, sep), want, "{file}");
        let header = match file {
            "t.csv" => text.lines().next().unwrap().to_string(),
            "t.xyz" => text.lines().nth(1).unwrap().to_string(),
            _ => text
                .lines()
                .find(|l| l.starts_with("ITEM: ATOMS"))
                .unwrap()
                .to_string(),
        };
        let names = match file {
            "t.csv" => "step,time,id,x,y,vx,vy,ix,iy,angle,wx,wy,omega",
            "t.xyz" => "image:I:3:angle:R:1:wx:R:1:wy:R:1:omega:R:1 ",
            _ => "ITEM: ATOMS id type x y z vx vy vz radius ix iy iz angle wx wy omega",
        };
        assert!(header.contains(names), "{file}: {header}");
    }
}

#[test]
fn the_diagnostics_carry_the_rotational_energy_of_spheres() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("c.toml"), SCENE).unwrap();
    run_ok(
        d,
        &[
            "run",
            "c.toml",
            "--steps",
            "1",
            "--diagnostics",
            "d.csv",
            "--out",
            "s.json",
            "-q",
        ],
    );
    let text = std::fs::read_to_string(d.join("d.csv")).unwrap();
    assert!(text
        .lines()
        .next()
        .unwrap()
        .ends_with(",rotational_energy,psi6"));
    // rotational_energy is the column before the last (psi6).
    let last: f64 = text
        .lines()
        .last()
        .unwrap()
        .rsplit(',')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let s = state(&d.join("s.json"));
    assert_eq!(
        last,
        s["diagnostics"]["rotational_energy"].as_f64().unwrap()
    );
    // I |w|^2 / 2 of the struck ball, by hand from the state file (the other ball is
    // at rest): the sum over the three axes, up to the order of the additions.
    let b = &s["balls"][0];
    let w2: f64 = ["wx", "wy", "omega"]
        .iter()
        .map(|k| b[k].as_f64().unwrap().powi(2))
        .sum();
    let by_hand = 0.5 * b["inertia"].as_f64().unwrap() * w2;
    assert!((last - by_hand).abs() <= 4.0 * f64::EPSILON * by_hand);
}

#[test]
fn renders_draw_a_spin_dot_on_cloth_only() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("c.toml"), SCENE).unwrap();
    run_ok(
        d,
        &["run", "c.toml", "--steps", STEPS, "--render", "c.svg", "-q"],
    );
    let svg = std::fs::read_to_string(d.join("c.svg")).unwrap();
    let dot_r = format!(r#"r="{}""#, 0.2 * 0.028575);
    assert_eq!(
        svg.matches(&dot_r).count(),
        2,
        "one spin dot per ball:\n{svg}"
    );
    // The drawn (backspun) ball's dot is behind its centre: the dot follows the
    // ball's circle in the file, at a smaller x.
    let circles: Vec<(f64, &str)> = svg
        .lines()
        .filter(|l| l.starts_with("<circle"))
        .map(|l| {
            let cx = l.split(r#"cx=""#).nth(1).unwrap();
            (cx[..cx.find('"').unwrap()].parse().unwrap(), l)
        })
        .collect();
    let ball = circles
        .iter()
        .position(|(_, l)| l.contains("r=\"0.028575\""))
        .unwrap();
    assert!(circles[ball + 1].1.contains(&dot_r));
    assert!(
        circles[ball + 1].0 < circles[ball].0,
        "a drawing ball's dot trails it: {circles:?}"
    );
    // Off cloth (the same balls given a velocity instead of a cue): no dot.
    let plain = SCENE
        .replace("friction = { kind = \"cloth\", g_normal = 9.81 }\n", "")
        .replace(
            "cue = { speed = 3.0, aim = 5.0, english = 0.3, follow = -0.5 }",
            "vx = 3.0",
        );
    std::fs::write(d.join("p.toml"), plain).unwrap();
    run_ok(
        d,
        &["run", "p.toml", "--steps", STEPS, "--render", "p.svg", "-q"],
    );
    let svg = std::fs::read_to_string(d.join("p.svg")).unwrap();
    assert_eq!(svg.matches(&dot_r).count(), 0, "{svg}");
}
