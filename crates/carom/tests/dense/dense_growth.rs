//! Growing disks (`carom::growing_contact`): a growing pair meets at the analytic time, and an
//! impact conserves momentum and sends the pair apart faster than it grows.

use carom::growing_contact::{contact_time, impact};

fn close(a: f64, b: f64) -> bool {
    // A quadratic's root in the stable form carries a few ulps of relative error.
    (a - b).abs() <= 1e-13 * b.abs().max(1.0)
}

/// Head on along x: the gap `L - sigma` closes at the approach speed plus the growth
/// rate, so `tau = (L - sigma) / (v + sigma_dot)`; at rest, `(L - sigma) / sigma_dot`;
/// receding at `u < sigma_dot`, `(L - sigma) / (sigma_dot - u)`; receding faster than
/// the growth, never.
#[test]
fn a_growing_pair_meets_at_the_analytic_time() {
    let (l, sigma, sd) = (10.0, 2.0, 0.3);
    for v in [0.0, 0.5, 2.0, 17.0] {
        let t = contact_time([l, 0.0], [-v, 0.0], sigma, sd).unwrap();
        assert!(close(t, (l - sigma) / (v + sd)), "v {v}: {t}");
    }
    let t = contact_time([l, 0.0], [0.1, 0.0], sigma, sd).unwrap();
    assert!(close(t, (l - sigma) / (sd - 0.1)), "{t}");
    assert_eq!(contact_time([l, 0.0], [0.5, 0.0], sigma, sd), None);
    // Without growth, the fixed-size result.
    let t = contact_time([l, 0.0], [-2.0, 0.0], sigma, 0.0).unwrap();
    assert!(close(t, 4.0));
}

/// A pair passing side by side at offset `h` with speed `v` and growth `sigma_dot`:
/// at the returned time the distance equals the grown contact distance, and it is the
/// first such time (just before, the pair is apart). Checked over a grid of cases,
/// including growth faster than the approach (`a < 0`).
#[test]
fn contact_times_are_the_first_touch() {
    for h in [0.0, 1.0, 2.5, 4.0] {
        for v in [0.0, 0.2, 1.0, 5.0] {
            for sd in [0.0, 0.05, 0.5, 3.0] {
                let (d, w, sigma) = ([8.0, h], [-v, 0.0], 2.0);
                let Some(t) = contact_time(d, w, sigma, sd) else {
                    // Missed: then no time on a fine grid brings them to touch.
                    for k in 0..4000 {
                        let s = k as f64 * 0.01;
                        let (x, y) = (d[0] + w[0] * s, d[1] + w[1] * s);
                        assert!(
                            x.hypot(y) > sigma + sd * s,
                            "h {h} v {v} sd {sd}: touch at {s}"
                        );
                    }
                    continue;
                };
                let dist = |s: f64| (d[0] + w[0] * s).hypot(d[1] + w[1] * s) - (sigma + sd * s);
                assert!(
                    dist(t).abs() < 1e-12 * (1.0 + sd * t + v * t),
                    "h {h} v {v} sd {sd}"
                );
                assert!(
                    dist(t * (1.0 - 1e-6)) > 0.0,
                    "h {h} v {v} sd {sd}: touched before"
                );
            }
        }
    }
}

/// An impact conserves momentum; in the frame of the growing surfaces the normal
/// speed is reversed (elastic) so the separation speed is `2 sigma_dot - u`; with no
/// growth, kinetic energy is conserved.
#[test]
fn an_impact_of_growing_disks_separates_at_the_growth_speed() {
    let n = [0.6, 0.8];
    let (vi, vj, mi, mj) = ([1.0, 0.5], [-0.7, -1.2], 1.0, 1.96);
    for sd in [0.0, 0.1, 1.0] {
        let (di, dj) = impact(n, vi, vj, mi, mj, 1.0, sd);
        let (a, b) = (
            [vi[0] + di[0], vi[1] + di[1]],
            [vj[0] + dj[0], vj[1] + dj[1]],
        );
        for k in 0..2 {
            assert!((mi * a[k] + mj * b[k] - (mi * vi[k] + mj * vj[k])).abs() < 1e-14);
        }
        let u = n[0] * (vj[0] - vi[0]) + n[1] * (vj[1] - vi[1]);
        let u2 = n[0] * (b[0] - a[0]) + n[1] * (b[1] - a[1]);
        assert!((u2 - (2.0 * sd - u)).abs() < 1e-14, "sd {sd}: {u2}");
        if sd == 0.0 {
            let ke = |p: [f64; 2], q: [f64; 2]| {
                0.5 * mi * (p[0] * p[0] + p[1] * p[1]) + 0.5 * mj * (q[0] * q[0] + q[1] * q[1])
            };
            assert!((ke(a, b) - ke(vi, vj)).abs() < 1e-14);
        }
    }
}
