//! Non-negative least squares in normal-equation form, by the Lawson-Hanson active-set
//! method.
//!
//! The contact problem of one cluster is `min |B lambda + c|` over `lambda >= 0` with
//! `B = M^(-1/2) J^T` and `c = (1+e) M^(1/2) v`. Expanding the square, it is the convex
//! quadratic programme
//!
//! ```text
//!     minimise f(lambda) = lambda . A lambda / 2 + h . lambda   subject to lambda >= 0
//! ```
//!
//! with `A = B^T B = J M^-1 J^T` (the contact Gram matrix) and `h = B^T c = (1+e) g`.
//! Working with `A` and `h` instead of `B` and `c` lets a moving kinematic ball enter
//! `h` directly (its velocity is not a row of `B`), and `A` is tiny (one row per
//! contact) where `B` has two rows per ball.
//!
//! The optimality (KKT) conditions are exactly Newton's restitution law in
//! complementarity form: with `w = -(A lambda + h) = -(g' + e g)`,
//! `lambda >= 0`, `w <= 0`, `lambda . w = 0`.
//!
//! Lawson-Hanson keeps a passive set `P` (the contacts allowed a positive impulse),
//! solves the equality-constrained problem on `P` exactly (a Cholesky factor of `A_PP`,
//! extended by one row when a contact joins `P`), and moves contacts between `P` and
//! the zero set until the KKT conditions hold. Each completed outer iteration strictly
//! lowers `f` and `P` determines the iterate, so no passive set repeats: the method
//! stops after finitely many steps with the exact minimiser, not after a chosen number
//! of sweeps. An iteration guard exists only against round-off cycling and is counted
//! when hit, so tests can check that it never is.
//!
//! Rank deficiency (loops in the contact graph: a tight rack, a hexagonal patch) makes
//! `A` singular and the minimiser `lambda` non-unique, although `B lambda`, and with it
//! every post-impact velocity, is unique (it is a projection onto a convex cone). In
//! exact arithmetic Lawson-Hanson only ever admits a contact whose column is
//! independent of the passive ones (a dependent column has `w = 0` after a
//! passive-set solve), so `A_PP` stays positive definite; in floating point the same
//! guarantee is enforced by refusing a column whose distance to the passive span is
//! at round-off level (see [`DEPENDENT`]).

/// A contact whose column `b_j` lies within this relative squared distance of the span
/// of the passive columns (`pivot^2 <= DEPENDENT * A_jj`, i.e. an angle below about
/// 3e-6 rad) is treated as dependent and not admitted. The squared pivot is computed as
/// `A_jj - |y|^2`, whose cancellation error is a few `n * eps * A_jj` (about 1e-14 for
/// 64 contacts): exactly dependent columns (a perfect rack, stored with round-off) sit at
/// that level, three to four orders below this threshold.
pub const DEPENDENT: f64 = 1e-11;

/// Optimality tolerance on `w`, relative to the largest `|h_j|`: a contact still
/// approaching by less than this after the solve is accepted. `w_j` is a sum of a few
/// products of size `|h|`, so its round-off is a few `eps * |h|` (about 1e-15); 1e-12
/// leaves a wide margin and is far below the propagation loop's approach tolerance.
pub const OPTIMALITY: f64 = 1e-12;

const ZERO: u8 = 0;
const PASSIVE: u8 = 1;
const EXCLUDED: u8 = 2;

/// What one solve did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NnlsReport {
    /// Outer iterations (contacts admitted or refused).
    pub outer: usize,
    /// Inner iterations (passive-set solves).
    pub inner: usize,
    /// The round-off guard stopped the iteration (the result is feasible but may not
    /// be optimal). Never expected; counted so that it is seen.
    pub guard_hit: bool,
}

/// Reusable solver: buffers grow to the largest problem seen and are then reused, so
/// solving allocates nothing in steady state.
#[derive(Debug, Clone, Default)]
pub struct Nnls {
    lambda: Vec<f64>,
    /// Negative gradient `-(A lambda + h)`.
    w: Vec<f64>,
    /// Passive-set solution, by position in `passive`.
    z: Vec<f64>,
    rhs: Vec<f64>,
    /// Cholesky factor of `A_PP`, row-major with row stride `n`, rows in `passive` order.
    chol: Vec<f64>,
    passive: Vec<usize>,
    /// The passive set before a refactor.
    previous: Vec<usize>,
    state: Vec<u8>,
    /// Leading entries of `rhs` (the forward substitution) still valid: admitting a
    /// contact appends a row to the factor and leaves the earlier ones unchanged.
    forward: usize,
    /// The non-zeros of `A` by row (`nz_start`, then column and value): a contact
    /// couples only to the few that share a ball with it, so the gradient is cheap.
    nz_start: Vec<usize>,
    nz_col: Vec<usize>,
    nz_val: Vec<f64>,
}

crate::copying::copy_fields!(Nnls {
    lambda, w, z, rhs, chol, passive, previous, state, forward, nz_start, nz_col, nz_val
});

impl Nnls {
    #[cfg(any(test, feature = "internals"))]
    pub fn new() -> Nnls {
        Nnls::default()
    }

    /// The minimiser found by the last [`Nnls::solve`].
    pub fn lambda(&self) -> &[f64] {
        &self.lambda
    }

    /// Minimises `lambda . A lambda / 2 + h . lambda` over `lambda >= 0`, where `a` is the
    /// `n x n` symmetric positive semi-definite matrix stored row-major (`n = h.len()`).
    /// `start`, if given, is a non-negative starting point (a warm start); the minimiser
    /// reached is optimal whatever the start, and `A lambda` is the same.
    pub fn solve(&mut self, a: &[f64], h: &[f64], start: Option<&[f64]>) -> NnlsReport {
        let n = h.len();
        assert!(a.len() >= n * n, "A must be n x n");
        self.lambda.clear();
        self.lambda.resize(n, 0.0);
        self.w.clear();
        self.w.resize(n, 0.0);
        self.z.clear();
        self.z.resize(n, 0.0);
        self.rhs.clear();
        self.rhs.resize(n, 0.0);
        self.chol.clear();
        self.chol.resize(n * n, 0.0);
        self.state.clear();
        self.state.resize(n, ZERO);
        self.forward = 0;
        self.nz_start.clear();
        self.nz_col.clear();
        self.nz_val.clear();
        for row in a[..n * n].chunks_exact(n.max(1)) {
            self.nz_start.push(self.nz_col.len());
            for (j, &v) in row.iter().enumerate() {
                if v != 0.0 {
                    self.nz_col.push(j);
                    self.nz_val.push(v);
                }
            }
        }
        self.nz_start.push(self.nz_col.len());
        self.passive.clear();
        let mut report = NnlsReport::default();

        let scale = h.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        if scale == 0.0 && start.is_none() {
            // h = 0: f >= 0 = f(0) because A is positive semi-definite.
            return report;
        }
        let tol = OPTIMALITY * scale;
        // Lawson-Hanson needs on the order of n admissions; the guard is far beyond that.
        let guard = 3 * n + 30;

        if let Some(start) = start {
            assert_eq!(start.len(), n, "start must have one value per contact");
            for (j, &l0) in start.iter().enumerate() {
                if l0 > 0.0 && l0.is_finite() && self.admit(a, n, j) {
                    self.lambda[j] = l0;
                }
            }
            // The start need not be the passive-set optimum: walk back to feasibility.
            self.inner(a, h, n, None, &mut report);
        }

        loop {
            if report.outer >= guard || report.inner >= 2 * guard {
                report.guard_hit = true;
                break;
            }
            self.gradient(h, n);
            let mut best = usize::MAX;
            let mut best_w = tol;
            for j in 0..n {
                if self.state[j] == ZERO && self.w[j] > best_w {
                    best_w = self.w[j];
                    best = j;
                }
            }
            if best == usize::MAX {
                break;
            }
            report.outer += 1;
            if !self.admit(a, n, best) {
                self.state[best] = EXCLUDED;
                continue;
            }
            self.inner(a, h, n, Some(best), &mut report);
        }
        report
    }

    /// `w = -(A lambda + h)`, using only the passive columns (the others are zero).
    fn gradient(&mut self, h: &[f64], n: usize) {
        for (i, (w, &hi)) in self.w[..n].iter_mut().zip(h).enumerate() {
            let (s, e) = (self.nz_start[i], self.nz_start[i + 1]);
            let mut acc = hi;
            for (&j, &v) in self.nz_col[s..e].iter().zip(&self.nz_val[s..e]) {
                acc += v * self.lambda[j];
            }
            *w = -acc;
        }
    }

    /// Appends contact `j` to the passive set and its row to the Cholesky factor, unless
    /// its column is (numerically) dependent on the passive ones.
    fn admit(&mut self, a: &[f64], n: usize, j: usize) -> bool {
        let k = self.passive.len();
        let ajj = a[j * n + j];
        if ajj <= 0.0 {
            return false;
        }
        // Row k of L solves L_(k x k) y = A_(P, j); its last entry is the pivot.
        let (head, tail) = self.chol.split_at_mut(k * n);
        let row_k = &mut tail[..=k];
        let mut d2 = ajj;
        for i in 0..k {
            let row_i = &head[i * n..=i * n + i];
            let y = (a[self.passive[i] * n + j] - dot(&row_i[..i], &row_k[..i])) / row_i[i];
            row_k[i] = y;
            d2 -= y * y;
        }
        // Written so that a NaN pivot is refused too.
        if d2.is_nan() || d2 <= DEPENDENT * ajj {
            return false;
        }
        row_k[k] = d2.sqrt();
        self.passive.push(j);
        self.state[j] = PASSIVE;
        true
    }

    /// Solves `A_PP z = -h_P` with the current factor, into `z` (by position).
    fn solve_passive(&mut self, h: &[f64], n: usize) {
        let k = self.passive.len();
        // Forward: L y = -h_P, row by row, from the first row not yet done.
        for i in self.forward..k {
            let row = &self.chol[i * n..=i * n + i];
            self.rhs[i] = (-h[self.passive[i]] - dot(&row[..i], &self.rhs[..i])) / row[i];
        }
        self.forward = k;
        // Backward: L^T z = y, column by column of L^T (rows of L), so that every
        // access is contiguous.
        self.z[..k].copy_from_slice(&self.rhs[..k]);
        for i in (0..k).rev() {
            let row = &self.chol[i * n..=i * n + i];
            let zi = self.z[i] / row[i];
            self.z[i] = zi;
            for (z, l) in self.z[..i].iter_mut().zip(&row[..i]) {
                *z -= l * zi;
            }
        }
    }

    /// Lawson-Hanson's inner loop: move from the current feasible point towards the
    /// passive-set optimum, dropping contacts whose impulse reaches zero, until the
    /// optimum is itself feasible.
    fn inner(
        &mut self,
        a: &[f64],
        h: &[f64],
        n: usize,
        newly: Option<usize>,
        report: &mut NnlsReport,
    ) {
        let mut first = true;
        loop {
            report.inner += 1;
            let k = self.passive.len();
            self.solve_passive(h, n);
            if self.z[..k].iter().all(|&z| z > 0.0) {
                for i in 0..k {
                    self.lambda[self.passive[i]] = self.z[i];
                }
                return;
            }
            if first {
                if let Some(j) = newly {
                    // In exact arithmetic the contact just admitted (w_j > 0) always
                    // gets a positive impulse; if round-off says otherwise, it was not a
                    // descent direction after all: take it back out.
                    if self.z[k - 1] <= 0.0 {
                        debug_assert_eq!(self.passive[k - 1], j);
                        self.passive.pop();
                        self.forward = self.forward.min(self.passive.len());
                        self.state[j] = EXCLUDED;
                        self.lambda[j] = 0.0;
                        return;
                    }
                }
            }
            first = false;
            if report.inner >= 6 * n + 60 {
                report.guard_hit = true;
                return;
            }
            // Largest step from lambda towards z that keeps every impulse non-negative.
            let mut alpha = f64::INFINITY;
            let mut blocking = 0;
            for i in 0..k {
                if self.z[i] <= 0.0 {
                    let l = self.lambda[self.passive[i]];
                    let t = if l <= 0.0 { 0.0 } else { l / (l - self.z[i]) };
                    if t < alpha {
                        alpha = t;
                        blocking = i;
                    }
                }
            }
            for i in 0..k {
                let p = self.passive[i];
                self.lambda[p] += alpha * (self.z[i] - self.lambda[p]);
            }
            self.lambda[self.passive[blocking]] = 0.0;
            // Drop every contact whose impulse reached zero, keep the others in order,
            // and refactor: a subset of independent columns stays independent.
            let mut kept = 0;
            for i in 0..k {
                let p = self.passive[i];
                if self.lambda[p] > 0.0 {
                    self.passive[kept] = p;
                    kept += 1;
                } else {
                    self.lambda[p] = 0.0;
                    self.state[p] = ZERO;
                }
            }
            self.passive.truncate(kept);
            for s in self.state.iter_mut() {
                if *s == EXCLUDED {
                    *s = ZERO;
                }
            }
            self.refactor(a, n);
        }
    }

    /// Rebuilds the Cholesky factor of the passive set from scratch (after removals),
    /// re-admitting the passive contacts in their order.
    fn refactor(&mut self, a: &[f64], n: usize) {
        self.forward = 0;
        self.previous.clear();
        self.previous.extend_from_slice(&self.passive);
        self.passive.clear();
        for i in 0..self.previous.len() {
            let j = self.previous[i];
            if !self.admit(a, n, j) {
                // Cannot happen in exact arithmetic (a subset of independent columns is
                // independent); at round-off level, drop the contact.
                self.lambda[j] = 0.0;
                self.state[j] = ZERO;
            }
        }
    }
}

/// Dot product with four independent partial sums: a fixed summation order (so results
/// are reproducible) that the compiler can keep in vector registers.
#[inline]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let (ca, cb) = (a.chunks_exact(4), b.chunks_exact(4));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    let mut acc = [0.0f64; 4];
    for (x, y) in ca.zip(cb) {
        for l in 0..4 {
            acc[l] += x[l] * y[l];
        }
    }
    let mut s = (acc[0] + acc[1]) + (acc[2] + acc[3]);
    for (x, y) in ra.iter().zip(rb) {
        s += x * y;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::SplitMix64;

    /// Solves the `k x k` system `m x = b` by Gaussian elimination with partial
    /// pivoting; `None` when it is singular (pivot below `1e-10` of the largest entry).
    fn gauss(mut m: Vec<f64>, mut b: Vec<f64>, k: usize) -> Option<Vec<f64>> {
        let big = m.iter().fold(0.0f64, |a, v| a.max(v.abs())).max(1e-300);
        for c in 0..k {
            let p = (c..k).max_by(|&i, &j| m[i * k + c].abs().total_cmp(&m[j * k + c].abs()))?;
            if m[p * k + c].abs() <= 1e-10 * big {
                return None;
            }
            for j in 0..k {
                m.swap(c * k + j, p * k + j);
            }
            b.swap(c, p);
            for i in c + 1..k {
                let f = m[i * k + c] / m[c * k + c];
                for j in c..k {
                    m[i * k + j] -= f * m[c * k + j];
                }
                b[i] -= f * b[c];
            }
        }
        let mut x = vec![0.0; k];
        for i in (0..k).rev() {
            let s: f64 = (i + 1..k).map(|j| m[i * k + j] * x[j]).sum();
            x[i] = (b[i] - s) / m[i * k + i];
        }
        Some(x)
    }

    /// The minimiser by brute force: every support set S whose equality-constrained
    /// solution is non-negative and leaves `w <= 0` outside S satisfies the KKT
    /// conditions, hence is optimal (the problem is convex).
    fn brute_force(a: &[f64], h: &[f64], tol: f64) -> Vec<f64> {
        let n = h.len();
        for mask in 0u32..1 << n {
            let s: Vec<usize> = (0..n).filter(|&j| mask & 1 << j != 0).collect();
            let k = s.len();
            let sub: Vec<f64> = s
                .iter()
                .flat_map(|&i| s.iter().map(move |&j| a[i * n + j]))
                .collect();
            let rhs: Vec<f64> = s.iter().map(|&i| -h[i]).collect();
            let Some(z) = gauss(sub, rhs, k) else {
                continue;
            };
            if z.iter().any(|&v| v < -tol) {
                continue;
            }
            let mut lambda = vec![0.0; n];
            for (p, &j) in s.iter().enumerate() {
                lambda[j] = z[p].max(0.0);
            }
            let kkt = (0..n).all(|i| {
                let g: f64 = h[i] + (0..n).map(|j| a[i * n + j] * lambda[j]).sum::<f64>();
                g >= -tol
            });
            if kkt {
                return lambda;
            }
        }
        panic!("no support set satisfies the KKT conditions");
    }

    /// `B` random `rows x n` (Gaussian-ish entries), `A = B^T B`, `h = B^T c` for a
    /// random `c`, as the contact problem has it.
    fn problem(rng: &mut SplitMix64, rows: usize, n: usize) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
        let b: Vec<f64> = (0..rows * n)
            .map(|_| rng.symmetric() + rng.symmetric())
            .collect();
        let c: Vec<f64> = (0..rows).map(|_| 3.0 * rng.symmetric()).collect();
        let mut a = vec![0.0; n * n];
        let mut h = vec![0.0; n];
        for i in 0..n {
            for j in 0..n {
                a[i * n + j] = (0..rows).map(|r| b[r * n + i] * b[r * n + j]).sum();
            }
            h[i] = (0..rows).map(|r| b[r * n + i] * c[r]).sum();
        }
        (a, h, b)
    }

    fn objective(a: &[f64], h: &[f64], l: &[f64]) -> f64 {
        let n = h.len();
        (0..n)
            .map(|i| l[i] * (h[i] + 0.5 * (0..n).map(|j| a[i * n + j] * l[j]).sum::<f64>()))
            .sum()
    }

    #[test]
    fn full_rank_problems_match_brute_force() {
        let mut rng = SplitMix64(41);
        let mut nnls = Nnls::new();
        for case in 0..2000 {
            let n = 1 + case % 7;
            let rows = n + (case / 7) % 4;
            let (a, h, _) = problem(&mut rng, rows, n);
            let report = nnls.solve(&a, &h, None);
            assert!(!report.guard_hit);
            let expect = brute_force(&a, &h, 1e-9);
            // Unique minimiser (A positive definite); compared to round-off amplified
            // by the conditioning of the random A.
            let scale = expect.iter().fold(1.0f64, |m, v| m.max(v.abs()));
            for j in 0..n {
                assert!(
                    (nnls.lambda()[j] - expect[j]).abs() <= 1e-8 * scale,
                    "case {case}: {:?} vs {expect:?}",
                    nnls.lambda()
                );
            }
        }
    }

    #[test]
    fn rank_deficient_problems_reach_the_same_fit() {
        // Fewer rows than unknowns: A is singular and the minimiser is not unique, but
        // B lambda (the velocity change in the contact problem) and the minimum are.
        let mut rng = SplitMix64(43);
        let mut nnls = Nnls::new();
        for case in 0..2000 {
            let n = 3 + case % 6;
            let rows = 1 + case % (n - 1);
            let (a, h, b) = problem(&mut rng, rows, n);
            let start: Vec<f64> = (0..n).map(|_| 2.0 * rng.unit()).collect();
            let report = nnls.solve(&a, &h, (case % 2 == 1).then_some(&start[..]));
            assert!(!report.guard_hit, "case {case}");
            let got = nnls.lambda().to_vec();
            assert!(got.iter().all(|&v| v >= 0.0));
            let expect = brute_force(&a, &h, 1e-9);
            let fit = |l: &[f64]| -> Vec<f64> {
                (0..rows)
                    .map(|r| (0..n).map(|j| b[r * n + j] * l[j]).sum())
                    .collect()
            };
            let (fg, fe) = (fit(&got), fit(&expect));
            let scale = fe.iter().fold(1.0f64, |m, v| m.max(v.abs()));
            for r in 0..rows {
                assert!(
                    (fg[r] - fe[r]).abs() <= 1e-8 * scale,
                    "case {case}: fit {fg:?} vs {fe:?}"
                );
            }
            let (og, oe) = (objective(&a, &h, &got), objective(&a, &h, &expect));
            assert!(
                (og - oe).abs() <= 1e-9 * oe.abs().max(1.0),
                "case {case}: {og} vs {oe}"
            );
        }
    }

    #[test]
    fn zero_right_hand_side_gives_zero() {
        let mut nnls = Nnls::new();
        let a = [2.0, -1.0, -1.0, 2.0];
        nnls.solve(&a, &[0.0, 0.0], None);
        assert_eq!(nnls.lambda(), &[0.0, 0.0]);
    }
}
