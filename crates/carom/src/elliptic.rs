//! Jacobi elliptic functions and the incomplete elliptic integral of the first kind,
//! to round-off: the closed form of a pendulum ([`crate::pendulum`]).
//!
//! The parameter is `m = k^2` in `[0, 1]`, always passed with its complement
//! `m1 = 1 - m` computed by the caller from its own quantities: near `m = 1` (a ball
//! nearly balanced on top of a peg) `1 - m` formed from `m` would have lost every digit
//! the motion depends on.
//!
//! - The amplitude `am(u | m)` comes from the arithmetic-geometric mean and its
//!   descending Landen transformation (Abramowitz and Stegun 16.4), after reducing `u`
//!   by the half period `2K` (`am(u + 2K) = am(u) + pi`) so that large arguments keep
//!   their digits. It is returned unwrapped (continuous in `u`), which a rotating
//!   pendulum needs.
//! - `F(phi | m)` comes from Carlson's symmetric integral `R_F` by its duplication
//!   theorem (Carlson 1995, Numer. Algorithms 10, 13-26), `F = sin phi R_F(cos^2 phi,
//!   1 - m sin^2 phi, 1)` for `|phi| <= pi/2`, and `F(phi + n pi) = F(phi) + 2 n K`.

use std::f64::consts::{FRAC_PI_2, PI};

/// The arithmetic-geometric mean ladder for `m` (complement `m1`): the `a_n` and `c_n`
/// (`c_0 = sqrt(m)`) down to where `c_n` is round-off of `a_n`, and their count.
/// Convergence is quadratic: a dozen rungs even for `m1` of 1e-300.
struct Ladder {
    a: [f64; 16],
    c: [f64; 16],
    n: usize,
}

impl Ladder {
    fn new(m: f64, m1: f64) -> Ladder {
        let mut a = [0.0; 16];
        let mut c = [0.0; 16];
        a[0] = 1.0;
        c[0] = m.max(0.0).sqrt();
        let mut b = m1.max(0.0).sqrt();
        let mut n = 0;
        while n + 1 < 16 && c[n].abs() > f64::EPSILON * a[n] {
            a[n + 1] = 0.5 * (a[n] + b);
            c[n + 1] = 0.5 * (a[n] - b);
            b = (a[n] * b).sqrt();
            n += 1;
        }
        Ladder { a, c, n }
    }
}

/// The complete integral `K(m)` (complement `m1 > 0`): `pi / (2 AGM(1, sqrt(m1)))`.
pub fn complete_k(m: f64, m1: f64) -> f64 {
    if m1 <= 0.0 {
        return f64::INFINITY;
    }
    let l = Ladder::new(m, m1);
    FRAC_PI_2 / l.a[l.n]
}

/// The amplitude `am(u | m)`, unwrapped: `sn = sin am`, `cn = cos am`.
pub fn am(u: f64, m: f64, m1: f64) -> f64 {
    if m1 <= 0.0 {
        // m = 1: the separatrix, am = gd(u).
        return u.sinh().atan();
    }
    if m <= 0.0 {
        return u;
    }
    let l = Ladder::new(m, m1);
    // Reduced by the half period: am(u + 2K) = am(u) + pi.
    let half = PI / l.a[l.n];
    let turns = (u / half).round();
    let u = u - turns * half;
    let mut phi = u * l.a[l.n] * f64::powi(2.0, l.n as i32);
    for j in (1..=l.n).rev() {
        phi = 0.5 * (phi + (l.c[j] / l.a[j] * phi.sin()).asin());
    }
    phi + turns * PI
}

/// `dn(u | m)` from the amplitude `phi = am(u | m)`: `sqrt(m1 + m cos^2 phi)`, which
/// keeps its digits near `m = 1`.
#[inline]
pub fn dn_of(phi: f64, m: f64, m1: f64) -> f64 {
    let c = phi.cos();
    (m1 + m * c * c).max(0.0).sqrt()
}

/// Carlson's `R_F(x, y, z)` (non-negative arguments, at most one zero).
pub fn carlson_rf(mut x: f64, mut y: f64, mut z: f64) -> f64 {
    // The series after the duplications errs by about tol^6 / 4: 1e-3 is below
    // round-off.
    let tol = 1e-3;
    for _ in 0..64 {
        let (sx, sy, sz) = (x.sqrt(), y.sqrt(), z.sqrt());
        let lam = sx * sy + sy * sz + sz * sx;
        x = 0.25 * (x + lam);
        y = 0.25 * (y + lam);
        z = 0.25 * (z + lam);
        let mean = (x + y + z) / 3.0;
        let (dx, dy) = (1.0 - x / mean, 1.0 - y / mean);
        let dz = -(dx + dy);
        if dx.abs().max(dy.abs()).max(dz.abs()) < tol {
            let e2 = dx * dy - dz * dz;
            let e3 = dx * dy * dz;
            return (1.0 - e2 / 10.0 + e3 / 14.0 + e2 * e2 / 24.0 - 3.0 * e2 * e3 / 44.0)
                / mean.sqrt();
        }
    }
    f64::NAN
}

/// The incomplete integral `F(phi | m) = int_0^phi dt / sqrt(1 - m sin^2 t)`, for any
/// real `phi` (complement `m1`; infinite at `phi = pi/2` when `m = 1`).
pub fn incomplete_f(phi: f64, m: f64, m1: f64) -> f64 {
    let turns = (phi / PI).round();
    let p = phi - turns * PI;
    let (s, c) = p.sin_cos();
    let part = if m1 <= 0.0 {
        s.atanh()
    } else {
        s * carlson_rf(c * c, c * c + m1 * s * s, 1.0)
    };
    if turns == 0.0 {
        part
    } else {
        part + 2.0 * turns * complete_k(m, m1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// K(1/2) = Gamma(1/4)^2 / (4 sqrt(pi)) (Legendre), to 17 digits.
    #[test]
    fn complete_integral_at_one_half() {
        let k = complete_k(0.5, 0.5);
        assert!((k - 1.854_074_677_301_372).abs() < 4e-16 * k, "{k}");
        // K(0) = pi/2.
        assert_eq!(complete_k(0.0, 1.0), FRAC_PI_2);
    }

    /// am inverts F (well conditioned: am' = dn <= 1), F inverts am where dn is not
    /// small, and am's derivative is dn, at parameters from 0 to within 1e-14 of 1
    /// and arguments over several periods.
    #[test]
    fn amplitude_inverts_the_integral() {
        for &m1 in &[1.0, 0.9, 0.5, 0.1, 1e-3, 1e-8, 1e-14] {
            let m = 1.0 - m1;
            for q in -40..=40 {
                let phi = q as f64 * 0.23;
                let u = incomplete_f(phi, m, m1);
                let back = am(u, m, m1);
                assert!(
                    (back - phi).abs() < 1e-14 * (1.0 + phi.abs()),
                    "m1 {m1} phi {phi}: {back}"
                );
            }
            let k = complete_k(m, m1);
            for q in -40..=40 {
                let u = q as f64 * 0.37 * k.min(30.0) / 4.0;
                let phi = am(u, m, m1);
                if m1 >= 1e-3 {
                    let back = incomplete_f(phi, m, m1);
                    assert!(
                        (back - u).abs() < 1e-13 * (1.0 + u.abs()),
                        "m1 {m1} u {u}: {back}"
                    );
                }
                // Central difference of am against dn: its error is h^2/6 times
                // am''' (of order 1), plus am's own error (1e-13 at worst, near m = 1)
                // over h: 2e-8 in all.
                let h = 1e-5;
                let d = (am(u + h, m, m1) - am(u - h, m, m1)) / (2.0 * h);
                assert!((d - dn_of(phi, m, m1)).abs() < 2e-8, "m1 {m1} u {u}");
            }
        }
    }

    /// sn(K) = 1 and the quarter periods add up: am(K) = pi/2, am(4K) = 2 pi.
    #[test]
    fn quarter_periods() {
        for &m in &[0.2, 0.7, 0.99] {
            let k = complete_k(m, 1.0 - m);
            assert!((am(k, m, 1.0 - m) - FRAC_PI_2).abs() < 1e-14);
            assert!((am(4.0 * k, m, 1.0 - m) - 2.0 * PI).abs() < 1e-13);
        }
    }

    /// At m = 1: sn = tanh, and F(phi | 1) = atanh(sin phi).
    #[test]
    fn separatrix() {
        for q in -10..=10 {
            let u = 0.3 * q as f64;
            assert!((am(u, 1.0, 0.0).sin() - u.tanh()).abs() < 1e-15);
        }
        assert!((incomplete_f(0.5, 1.0, 0.0) - 0.5f64.sin().atanh()).abs() < 1e-15);
    }
}
