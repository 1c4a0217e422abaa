//! Size distributions of the `gas` generator: random placement never overlaps, gives
//! the exact number and area fractions asked for, is reproducible from the seed, and
//! the default (`mono`) is the jittered-grid gas of the scenario contract, bit for bit.

use std::f64::consts::PI;

use carom::parse::{load, Format};
use carom::SplitMix64;
use carom::{Balls, World};

fn world(text: &str) -> World {
    load(text, Format::Toml).expect("scenario loads").1
}

fn err(text: &str) -> String {
    load(text, Format::Toml)
        .expect_err("scenario refused")
        .to_string()
}

/// The deepest overlap of any pair (negative: the closest gap), by the O(N^2) oracle
/// with the minimum image on periodic axes.
fn deepest_overlap(w: &World) -> f64 {
    let (b, t) = (w.balls(), w.table());
    let mut worst = f64::NEG_INFINITY;
    for i in 0..b.len() {
        for j in i + 1..b.len() {
            let (dx, dy) = t.min_image(b.x[i] - b.x[j], b.y[i] - b.y[j]);
            worst = worst.max(b.r[i] + b.r[j] - (dx * dx + dy * dy).sqrt());
        }
    }
    worst
}

fn area_fraction(w: &World) -> f64 {
    let b = w.balls();
    (0..b.len()).map(|i| PI * b.r[i] * b.r[i]).sum::<f64>() / w.table().area()
}

fn bidisperse(boundary: &str, seed: u64) -> String {
    format!(
        r#"[table]
boundary = "{boundary}"
[[generators]]
kind = "gas"
n = 1500
area_fraction = 0.5
seed = {seed}
radii = {{ kind = "bidisperse", ratio = 1.4, fraction = 0.5 }}
"#
    )
}

/// Random sequential addition of a 50:50 mixture at area fraction 0.5 (below its
/// saturation, about 0.55 for equal disks and higher for mixtures): every ball placed,
/// none overlapping, 750 small ones exactly, and the table sized so that the balls
/// cover half of it to round-off (the sum of 1500 areas carries a relative error of a
/// few 1e-16 per term at most, hence 1e-12).
#[test]
fn bidisperse_placement_at_one_half_has_no_overlap_and_the_exact_fractions() {
    for boundary in ["walls", "periodic"] {
        let w = world(&bidisperse(boundary, 7));
        let b = w.balls();
        assert_eq!(b.len(), 1500);
        let overlap = deepest_overlap(&w);
        assert!(overlap <= 0.0, "{boundary}: overlap {overlap}");
        let small = (0..b.len()).filter(|&i| b.r[i] == 1.0).count();
        let large = (0..b.len()).filter(|&i| b.r[i] == 1.4).count();
        assert_eq!((small, large), (750, 750), "{boundary}");
        let phi = area_fraction(&w);
        assert!((phi - 0.5).abs() < 1e-12, "{boundary}: area fraction {phi}");
        // Masses follow the area (r^2) when no m is given.
        for i in 0..b.len() {
            assert_eq!(b.m[i], b.r[i] * b.r[i]);
        }
        // On walls every ball is inside; on a periodic box every centre on the table.
        for i in 0..b.len() {
            let reach = if boundary == "walls" { b.r[i] } else { 0.0 };
            let t = w.table();
            assert!(b.x[i] >= reach && b.x[i] <= t.width - reach);
            assert!(b.y[i] >= reach && b.y[i] <= t.height - reach);
        }
    }
}

/// An odd count rounds `n * fraction` to the nearest whole number, and the order of
/// sizes is shuffled (the small ones are not all first).
#[test]
fn the_number_fraction_is_rounded_and_the_sizes_shuffled() {
    let text = r#"[table]
width = 200.0
height = 200.0
[[generators]]
kind = "gas"
n = 101
seed = 3
m = 2.0
radii = { kind = "bidisperse", ratio = 2.0, fraction = 0.3 }
"#;
    let w = world(text);
    let b = w.balls();
    // 101 * 0.3 = 30.3 -> 30.
    assert_eq!((0..b.len()).filter(|&i| b.r[i] == 1.0).count(), 30);
    assert!((0..30).any(|i| b.r[i] == 2.0), "sizes not shuffled");
    assert!(
        b.m.iter().all(|&m| m == 2.0),
        "a given m is every ball's mass"
    );
    assert!(deepest_overlap(&w) <= 0.0);
}

fn same_bits(a: &Balls, b: &Balls) -> bool {
    a.len() == b.len()
        && (0..a.len()).all(|i| {
            [a.x[i], a.y[i], a.vx[i], a.vy[i], a.r[i], a.m[i]]
                .iter()
                .zip([b.x[i], b.y[i], b.vx[i], b.vy[i], b.r[i], b.m[i]])
                .all(|(p, q)| p.to_bits() == q.to_bits())
        })
}

#[test]
fn the_same_seed_gives_the_same_balls_and_another_seed_others() {
    let a = world(&bidisperse("periodic", 11));
    let b = world(&bidisperse("periodic", 11));
    let c = world(&bidisperse("periodic", 12));
    assert!(same_bits(a.balls(), b.balls()));
    assert!(!same_bits(a.balls(), c.balls()));
}

/// Uniform and lognormal radii: in range, no overlap, and their sample statistics
/// match the distribution. 2000 uniform radii on [0.5, 1.5] have a mean of 1 with a
/// standard error of (1 / sqrt 12) / sqrt 2000 = 0.0065; ln r of 2000 lognormal radii
/// has a mean of ln(median) = 0 with standard error 0.3 / sqrt 2000 = 0.0067 and a
/// standard deviation of 0.3 with standard error about 0.3 / sqrt(2 * 2000) = 0.0047.
/// Bounds at 5 standard errors: a correct draw fails about once in a million.
#[test]
fn uniform_and_lognormal_radii_follow_their_distributions() {
    let text = r#"[table]
boundary = "periodic"
[[generators]]
kind = "gas"
n = 2000
area_fraction = 0.4
seed = 5
radii = { kind = "uniform", min = 0.5, max = 1.5 }
"#;
    let w = world(text);
    let b = w.balls();
    assert!(b.r.iter().all(|&r| (0.5..=1.5).contains(&r)));
    let mean = b.r.iter().sum::<f64>() / 2000.0;
    assert!((mean - 1.0).abs() < 5.0 * 0.0065, "uniform mean {mean}");
    assert!(deepest_overlap(&w) <= 0.0);
    assert!((area_fraction(&w) - 0.4).abs() < 1e-12);

    let w = world(&text.replace(
        r#"{ kind = "uniform", min = 0.5, max = 1.5 }"#,
        r#"{ kind = "lognormal", median = 1.0, sigma = 0.3 }"#,
    ));
    let logs: Vec<f64> = w.balls().r.iter().map(|r| r.ln()).collect();
    let m = logs.iter().sum::<f64>() / 2000.0;
    let sd = (logs.iter().map(|l| (l - m) * (l - m)).sum::<f64>() / 1999.0).sqrt();
    assert!(m.abs() < 5.0 * 0.0067, "lognormal mean of ln r {m}");
    assert!((sd - 0.3).abs() < 5.0 * 0.0047, "lognormal sd of ln r {sd}");
    assert!(deepest_overlap(&w) <= 0.0);
    assert!((area_fraction(&w) - 0.4).abs() < 1e-12);
}

/// With `area_fraction` on a given table and no `n`, the count is the one the
/// distribution's mean area gives: a 50:50 1:1.4 mixture has mean area
/// pi (0.5 + 0.5 * 1.96) = 1.48 pi, so 0.3 of a 100 x 100 table holds
/// floor(3000 / (1.48 pi)) = 645 balls.
#[test]
fn the_count_from_an_area_fraction_uses_the_mean_area() {
    let text = r#"[table]
width = 100.0
height = 100.0
[[generators]]
kind = "gas"
area_fraction = 0.3
radii = { kind = "bidisperse" }
"#;
    assert_eq!(world(text).balls().len(), 645);
}

/// The documented jittered-grid layout, written out again from the contract's words
/// (`generators.rs`): cells row by row, jitter x, jitter y, vx, vy per ball.
fn jittered_grid(n: usize, r: f64, speed: f64, seed: u64, w: f64, h: f64) -> Vec<[f64; 4]> {
    let cols = ((n as f64 * w / h).sqrt().ceil() as usize).max(1);
    let rows = n.div_ceil(cols);
    let (cw, ch) = (w / cols as f64, h / rows as f64);
    let (jx, jy) = (0.5 * cw - r, 0.5 * ch - r);
    let mut rng = SplitMix64(seed);
    (0..n)
        .map(|k| {
            let x = ((k % cols) as f64 + 0.5) * cw + jx * rng.symmetric();
            let y = ((k / cols) as f64 + 0.5) * ch + jy * rng.symmetric();
            [x, y, speed * rng.symmetric(), speed * rng.symmetric()]
        })
        .collect()
}

/// `radii` left out or `mono`: the gas of before the key existed, bit for bit, with
/// mass 1 by default.
#[test]
fn mono_is_the_jittered_grid_gas_bit_for_bit() {
    let base = r#"[[generators]]
kind = "gas"
n = 500
area_fraction = 0.3
r = 1.5
speed = 2.0
seed = 9
"#;
    let side = (500.0 * PI * 1.5 * 1.5 / 0.3f64).sqrt();
    let expected = jittered_grid(500, 1.5, 2.0, 9, side, side);
    for text in [
        format!("[table]\n{base}"),
        format!("[table]\n{base}radii = {{ kind = \"mono\" }}\n"),
    ] {
        let w = world(&text);
        let b = w.balls();
        assert_eq!(w.table().width.to_bits(), side.to_bits());
        assert_eq!(b.len(), 500);
        for (i, e) in expected.iter().enumerate() {
            let got = [b.x[i], b.y[i], b.vx[i], b.vy[i]];
            assert!(
                got.iter().zip(e).all(|(g, e)| g.to_bits() == e.to_bits()),
                "ball {i}: {got:?} != {e:?}"
            );
            assert_eq!((b.r[i], b.m[i]), (1.5, 1.0));
        }
    }
}

/// Each bad value is refused with the key named.
#[test]
fn bad_distributions_name_the_key() {
    let cases = [
        (r#"{ kind = "bidisperse", ratio = 0.0 }"#, "radii.ratio"),
        (r#"{ kind = "bidisperse", ratio = 0.7 }"#, "radii.ratio"),
        (r#"{ kind = "bidisperse", ratio = nan }"#, "radii.ratio"),
        (
            r#"{ kind = "bidisperse", fraction = 1.5 }"#,
            "radii.fraction",
        ),
        (
            r#"{ kind = "bidisperse", fraction = -0.1 }"#,
            "radii.fraction",
        ),
        (r#"{ kind = "uniform", min = 2.0, max = 1.0 }"#, "radii.max"),
        (
            r#"{ kind = "uniform", min = -1.0, max = 1.0 }"#,
            "radii.min",
        ),
        (
            r#"{ kind = "lognormal", median = 1.0, sigma = -0.1 }"#,
            "radii.sigma",
        ),
        (
            r#"{ kind = "lognormal", median = 0.0, sigma = 0.1 }"#,
            "radii.median",
        ),
        (
            r#"{ kind = "lognormal", median = 1.0, sigma = inf }"#,
            "radii.sigma",
        ),
    ];
    for (radii, key) in cases {
        for sized in [true, false] {
            let table = if sized {
                ""
            } else {
                "width = 100.0\nheight = 100.0\n"
            };
            let text = format!(
                "[table]\n{table}[[generators]]\nkind = \"gas\"\nn = 100\narea_fraction = 0.3\nradii = {radii}\n"
            );
            let e = err(&text);
            assert!(e.contains(&format!("generators[0].{key}")), "{radii}: {e}");
        }
    }
    // Beyond what compression from random placement reaches (the mixture's jamming).
    let e = err("[table]\n[[generators]]\nkind = \"gas\"\nn = 100\narea_fraction = 0.85\nradii = { kind = \"bidisperse\" }\n");
    assert!(e.contains("generators[0].area_fraction"), "{e}");
}

/// Tiny balls on a large table: the placement's cells follow the mean spacing, not
/// only the diameter (which would ask for 10^12 cells here), and every ball is placed.
#[test]
fn tiny_balls_on_a_large_table_are_placed() {
    let text = r#"[table]
width = 1000000.0
height = 1000000.0
[physics]
model = "impulse"
[[generators]]
kind = "gas"
n = 100
radii = { kind = "uniform", min = 0.001, max = 0.002 }
"#;
    let w = world(text);
    assert_eq!(w.balls().len(), 100);
    assert!(deepest_overlap(&w) <= 0.0);
}
