//! The bond-orientational order `psi6` ([`carom::order`]): 1 for a perfect triangular
//! crystal in any orientation, about `sqrt(pi <|psi_6(i)|^2> / (4 N))` for random points.

use std::f64::consts::PI;

use carom::Boundary;
use carom::SplitMix64;
use carom::{Ball, Physics, Table, World};

fn world(table: Table, balls: &[Ball]) -> World {
    World::from_balls(table, Physics::default(), balls).unwrap()
}

/// A triangular lattice of spacing `a`, `nx` by `ny` (`ny` even), filling a periodic
/// box exactly: every ball has its six neighbours at distance `a`.
fn periodic_crystal(nx: usize, ny: usize, a: f64) -> World {
    let row = a * 3f64.sqrt() / 2.0;
    let mut balls = Vec::new();
    for j in 0..ny {
        for i in 0..nx {
            let x = (i as f64 + 0.5 * (j % 2) as f64) * a + 0.1;
            let y = j as f64 * row + 0.1;
            balls.push(Ball::new(x, y, 0.0, 0.0, 0.4 * a, 1.0));
        }
    }
    let t = Table::new(nx as f64 * a, ny as f64 * row).with_boundary([Boundary::Periodic; 2]);
    world(t, &balls)
}

/// Every bond of a perfect crystal has `exp(6 i theta) = 1`; each of the N = 1200
/// terms is computed from cosines with an error of a few ulps, so the mean's modulus
/// is 1 to 1e-12.
#[test]
fn a_perfect_triangular_crystal_has_psi6_one() {
    let w = periodic_crystal(30, 40, 2.0);
    let psi = w.with_order(w.diagnostics()).psi6.unwrap();
    assert!((psi - 1.0).abs() < 1e-12, "psi6 {psi}");
    for p in w.psi6_per_ball() {
        assert!((p[0] - 1.0).abs() < 1e-12 && p[1].abs() < 1e-12, "{p:?}");
    }
}

/// A crystal turned by any angle `phi`: every interior ball's `psi_6` is
/// `exp(6 i phi)` (its bonds all turned by `phi`), so `|psi_6| = 1`, and the
/// modulus of their mean is 1. Balls within three spacings of the patch's edge miss
/// neighbours and are left out.
#[test]
fn a_rotated_crystal_has_psi6_one() {
    for phi in [0.0, 0.37, 1.0, PI / 7.0, 2.5] {
        let (a, c) = (1.0, 50.0);
        let row = a * 3f64.sqrt() / 2.0;
        let (cs, sn) = (f64::cos(phi), f64::sin(phi));
        let mut balls = Vec::new();
        for j in -30i32..=30 {
            for i in -30i32..=30 {
                let (u, v) = (
                    (i as f64 + 0.5 * (j.rem_euclid(2)) as f64) * a,
                    j as f64 * row,
                );
                if u.hypot(v) < 25.0 {
                    balls.push(Ball::new(
                        c + cs * u - sn * v,
                        c + sn * u + cs * v,
                        0.0,
                        0.0,
                        0.3,
                        1.0,
                    ));
                }
            }
        }
        let w = world(Table::new(2.0 * c, 2.0 * c), &balls);
        let per = w.psi6_per_ball();
        let (want_re, want_im) = ((6.0 * phi).cos(), (6.0 * phi).sin());
        let (mut re, mut im, mut n) = (0.0, 0.0, 0.0);
        for (k, b) in balls.iter().enumerate() {
            if (b.x - c).hypot(b.y - c) > 25.0 - 3.0 * a {
                continue;
            }
            let p = per[k];
            assert!(
                (p[0] - want_re).abs() < 1e-9 && (p[1] - want_im).abs() < 1e-9,
                "phi {phi}: ball {k} psi6 {p:?}"
            );
            re += p[0];
            im += p[1];
            n += 1.0;
        }
        assert!(((re / n).hypot(im / n) - 1.0).abs() < 1e-9, "phi {phi}");
    }
}

/// Uniform random points: each ball's `psi_6` has a uniformly random phase, so the
/// mean of N of them is a 2D random walk of N steps of mean square `s2 =
/// <|psi_6(i)|^2>`: `N |<psi_6>|^2` has mean `s2` for independent balls, and
/// `|<psi_6>|` mean `sqrt(pi s2 / (4 N))` (for unit phasors, `sqrt(pi / (4 N))`).
/// Neighbouring balls share bonds (a bond's `exp(6 i theta)` is the same seen from
/// either end), which makes their phases positively correlated and the variance larger
/// by a factor of order one. `N |<psi_6>|^2 / s2` is then exponential with mean of
/// order one: over 16 point sets its mean is known to 1/4, the root mean square of
/// `|<psi_6>|` to 1/8, and it must lie within a factor 2.5 of `sqrt(s2 / N)`; every
/// single value must be under 6 times `sqrt(s2 / N)` (a chance of e^-36 for the
/// independent walk, still negligible with correlations of order one).
#[test]
fn random_points_have_psi6_near_one_over_sqrt_n() {
    let n = 2000;
    let side = (n as f64).sqrt() * 2.0;
    let t = Table::new(side, side).with_boundary([Boundary::Periodic; 2]);
    let (mut sum_sq, mut s2_sum) = (0.0, 0.0);
    for seed in 0..16 {
        let mut rng = SplitMix64(seed);
        let balls: Vec<Ball> = (0..n)
            .map(|_| Ball::new(side * rng.unit(), side * rng.unit(), 0.0, 0.0, 0.01, 1.0))
            .collect();
        let w = world(t, &balls);
        let psi = w.with_order(w.diagnostics()).psi6.unwrap();
        let s2 = w
            .psi6_per_ball()
            .iter()
            .map(|p| p[0] * p[0] + p[1] * p[1])
            .sum::<f64>()
            / n as f64;
        assert!(
            psi < 6.0 * (s2 / n as f64).sqrt(),
            "seed {seed}: psi6 {psi}"
        );
        sum_sq += psi * psi;
        s2_sum += s2;
    }
    let rms = (sum_sq / 16.0).sqrt();
    let independent = (s2_sum / 16.0 / n as f64).sqrt();
    assert!(
        rms > independent / 2.5 && rms < independent * 2.5,
        "rms psi6 {rms}, independent-ball value {independent}"
    );
}

/// Periodic edges are crossed by the minimum image: the crystal shifted so that it
/// straddles both edges has the same order.
#[test]
fn psi6_sees_neighbours_across_periodic_edges() {
    let w = periodic_crystal(20, 20, 2.0);
    let t = *w.table();
    let shifted: Vec<Ball> = {
        let b = w.balls();
        (0..b.len())
            .map(|i| {
                let x = (b.x[i] + 0.5 * t.width).rem_euclid(t.width);
                let y = (b.y[i] + 0.37 * t.height).rem_euclid(t.height);
                Ball::new(x, y, 0.0, 0.0, b.r[i], 1.0)
            })
            .collect()
    };
    let v = world(t, &shifted);
    let psi = v.with_order(v.diagnostics()).psi6.unwrap();
    assert!((psi - 1.0).abs() < 1e-12, "psi6 {psi}");
}
