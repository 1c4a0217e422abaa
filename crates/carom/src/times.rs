//! Exact event times, for the event model and the walls' times of impact
//! ([`crate::walls::impact`]). Every event of the event model is the moment a smooth "inside" function
//! `h(tau)` of the time since now first turns negative while decreasing: the gap to a
//! wall, the distance to a cell boundary, or `|d|^2 - sigma^2` for two balls. Under
//! uniform gravity `h` is at most quadratic, except for a ball whose acceleration differs
//! from its partner's (a kinematic ball under gravity), where it is quartic.
//!
//! The quadratic roots are taken in the stable form (`q = -(b + sign(b) sqrt(D))/2`,
//! roots `q/a` and `c/q`), so no root is the difference of two nearly equal numbers,
//! and the pair discriminant uses Lagrange's identity so that a distant, nearly
//! grazing pair keeps its accuracy. A pair is a collision only if it approaches now
//! (`d . v < 0`): the contact predicate used when the event fires, so a pair that has
//! just collided (and now separates) is never predicted to collide again at once.

/// The earliest `tau >= 0` at which `h(tau) = a tau^2 + b tau + c` crosses zero
/// downwards, given that `h(0) = c` is (up to round-off) non-negative.
///
/// A slightly negative `c` (the ball a hair past the boundary after round-off) means
/// "at the boundary": if `h` decreases it is crossing now (`Some(0)`), if it increases
/// it is on its way back in and only a later downward crossing counts.
#[inline]
pub fn first_exit(a: f64, b: f64, c: f64) -> Option<f64> {
    if b < 0.0 {
        if c <= 0.0 {
            return Some(0.0);
        }
        // Moving out. With a <= 0 there is always a positive root; with a > 0 the
        // motion may turn round first (D < 0).
        let d = b * b - 4.0 * a * c;
        if d < 0.0 {
            return None;
        }
        // q > 0 and c > 0: the smaller positive root c/q, no cancellation.
        let q = 0.5 * (-b + d.sqrt());
        let t = c / q;
        t.is_finite().then_some(t)
    } else {
        if a >= 0.0 {
            // Not moving out and not accelerated out: h never decreases from here.
            return None;
        }
        // Accelerated outwards (gravity towards this wall): h rises to an apex, then
        // falls through zero at the larger root.
        let d = b * b - 4.0 * a * c;
        if d <= 0.0 {
            // The apex is not above zero: outside already and never back in (or at rest
            // exactly on the boundary): crossing now.
            return Some(0.0);
        }
        let t = (b + d.sqrt()) / (-2.0 * a);
        t.is_finite().then_some(t)
    }
}

/// [`first_exit`] of four boundaries at once (a ball's four cell sides or walls), `a`,
/// `b`, `c` each boundary's coefficients: each time as `first_exit` gives it, to the
/// bit, or infinity where it gives none (its times are finite). Written with
/// selections instead of branches, every lane computing both of `first_exit`'s
/// formulas and keeping the one its case takes: which boundary is ahead is a coin
/// toss to a branch predictor, and the four square roots and divisions proceed side
/// by side.
#[inline(always)]
pub fn first_exits(a: [f64; 4], b: [f64; 4], c: [f64; 4]) -> [f64; 4] {
    let mut out = [f64::INFINITY; 4];
    for k in 0..4 {
        let (a, b, c) = (a[k], b[k], c[k]);
        let d = b * b - 4.0 * a * c;
        // NaN where d < 0, and then not kept.
        let root = d.sqrt();
        let moving_out = b < 0.0;
        // Moving out: c / q with q = (-b + sqrt(d))/2; else the larger root, after
        // the apex.
        let num = if moving_out { c } else { b + root };
        let den = if moving_out {
            0.5 * (-b + root)
        } else {
            -2.0 * a
        };
        let t = num / den;
        let t = if t.is_finite() { t } else { f64::INFINITY };
        out[k] = if moving_out {
            if c <= 0.0 {
                0.0
            } else if d < 0.0 {
                f64::INFINITY
            } else {
                t
            }
        } else if a >= 0.0 {
            f64::INFINITY
        } else if d <= 0.0 {
            0.0
        } else {
            t
        };
    }
    out
}

/// Time until two balls with relative position `(px, py)` (second minus first) and
/// relative velocity `(vx, vy)`, moving without relative acceleration, come to centre
/// distance `sigma`: the earliest root of `|p + v t|^2 = sigma^2`, if they approach.
#[inline]
pub fn pair_time(px: f64, py: f64, vx: f64, vy: f64, sigma: f64) -> Option<f64> {
    // Half the linear coefficient: the approach rate times the distance.
    let bh = px * vx + py * vy;
    if bh.is_nan() || bh >= 0.0 {
        return None;
    }
    let c = px * px + py * py - sigma * sigma;
    if c <= 0.0 {
        // Touching or overlapping (round-off) and approaching: collide now.
        return Some(0.0);
    }
    // Quarter discriminant (p.v)^2 - v^2 (p^2 - sigma^2) = v^2 sigma^2 - (p x v)^2
    // (Lagrange's identity): the cancellation is between two terms of size v^2 sigma^2
    // instead of v^2 p^2, which for distant pairs is far more accurate. Factored so the
    // sign is exact when the two terms are close (grazing).
    let v2 = vx * vx + vy * vy;
    let sv = sigma * v2.sqrt();
    let cross = (px * vy - py * vx).abs();
    let disc = (sv - cross) * (sv + cross);
    if disc < 0.0 {
        return None;
    }
    // Smaller root of v^2 t^2 + 2 bh t + c: c / (-bh + sqrt(disc)), both terms positive.
    let t = c / (-bh + disc.sqrt());
    t.is_finite().then_some(t)
}

/// Coefficients of `|p + v t + A t^2/2|^2 - sigma^2`, lowest degree first.
pub fn pair_quartic(p: [f64; 2], v: [f64; 2], acc: [f64; 2], sigma: f64) -> [f64; 5] {
    let dot = |a: [f64; 2], b: [f64; 2]| a[0] * b[0] + a[1] * b[1];
    [
        dot(p, p) - sigma * sigma,
        2.0 * dot(p, v),
        dot(v, v) + dot(p, acc),
        dot(v, acc),
        0.25 * dot(acc, acc),
    ]
}

/// Whether the flight `d(t) = p + v t + acc t^2/2` (two balls' relative position, or
/// a centre's position from a point) provably keeps farther than `sigma` from the
/// origin over `[0, horizon]`, by more than the round-off of [`pair_quartic`]'s
/// coefficients and of their evaluation: [`quartic_entry`] then finds no contact in
/// that interval (it meets one only where a value it computes there is negative), so
/// its answer is known without solving. A few square roots and divisions against a
/// root search's hundreds of polynomial evaluations; most neighbours on cloth pass it
/// (a ball rolling past another off its line, a pair receding).
///
/// Why it is safe: for a unit vector `u`, `|d(t)| >= d(t).u`, a quadratic in `t`
/// whose least value over the interval is at an end or at its vertex. Three
/// directions, each making that quadratic simple: along `p` (a receding pair stays
/// out), across `v` (`d.u` has no linear term: a ball passing another on a line beside
/// it) and across `acc` (`d.u` is linear). The largest of the three least values is a
/// lower bound `l` of the distance over the interval, up to a few units of round-off
/// of `R = |p| + |v| h + |acc| h^2/2`. The quartic's computed coefficients are those
/// of `|d|^2 - sigma^2` to within a few units of round-off of `S = R^2 + sigma^2` (every
/// product in them is bounded by a term of `(|p| + |v| t + |acc| t^2/2)^2`), and
/// Horner's evaluation anywhere in the interval errs by at most eight units of
/// round-off of `sum |c_k| t^k <= S`: under twenty units (4.5e-15) of `S` in all. The
/// test asks for `l^2 - sigma^2 > 1e-12 S`, over two hundred times that. Anything
/// not finite (an infinite horizon, a vanishing `v` or `acc` leaving a direction
/// undefined) fails the comparisons and proves nothing.
#[inline]
pub fn stays_apart(p: [f64; 2], v: [f64; 2], acc: [f64; 2], sigma: f64, horizon: f64) -> bool {
    let h = horizon;
    let dot = |a: [f64; 2], b: [f64; 2]| a[0] * b[0] + a[1] * b[1];
    let cross = |a: [f64; 2], b: [f64; 2]| a[0] * b[1] - a[1] * b[0];
    let (np, nv, na) = (dot(p, p).sqrt(), dot(v, v).sqrt(), dot(acc, acc).sqrt());
    // Along p: |p| + (v.p/|p|) t + (acc.p/|p|) t^2/2, least at 0, at h, or at the
    // vertex when it opens upwards and turns inside the interval.
    let (beta, gamma) = (dot(v, p) / np, dot(acc, p) / np);
    let mut along = least(np, np + h * (beta + 0.5 * gamma * h));
    let turn = -beta / gamma;
    if gamma > 0.0 && turn > 0.0 && turn < h {
        along = least(along, np - 0.5 * beta * beta / gamma);
    }
    // Across v, on p's side: |p x v|/|v| - (acc x v)/|v| t^2/2 with the sign of the
    // side, least at 0 or at h.
    let side_v = cross(p, v).signum();
    let across_v = (side_v * cross(p, v)) / nv;
    let across_v = least(across_v, across_v + 0.5 * h * h * (side_v * cross(acc, v)) / nv);
    // Across acc, on p's side: |p x acc|/|acc| + (v x acc)/|acc| t with the sign of
    // the side, least at 0 or at h.
    let side_a = cross(p, acc).signum();
    let across_a = (side_a * cross(p, acc)) / na;
    let across_a = least(across_a, across_a + h * (side_a * cross(v, acc)) / na);
    // `f64::max` passes over a NaN: a direction that proves nothing.
    let l = along.max(across_v).max(across_a);
    let reach = np + h * (nv + 0.5 * na * h);
    let s = reach * reach + sigma * sigma;
    l > sigma && (l - sigma) * (l + sigma) > 1e-12 * s
}

/// The lesser of `a` and `b`, NaN if either is (unlike `f64::min`, which would pass
/// over it and leave a bound that was never established).
#[inline(always)]
fn least(a: f64, b: f64) -> f64 {
    if a <= b {
        a
    } else if b < a {
        b
    } else {
        f64::NAN
    }
}

/// The largest size a pair quartic's terms may reach for [`quartic_entry`] to be
/// trusted: 2^500 (about 3e150). Its root finder multiplies values and coefficients
/// two at a time (a discriminant, a sign test of a product), which stays finite below
/// the square root of the largest double; beyond it a collision could be missed.
pub const QUARTIC_LIMIT: f64 = 3.273390607896142e150;

/// Whether the quartic `c` (lowest degree first) can be solved over `[0, horizon]`
/// within [`QUARTIC_LIMIT`]: every coefficient, and every term's size over the
/// interval, below it. Only gravity beyond any physical scale (of order 1e75 times
/// the table's lengths over an output interval) fails it.
pub fn quartic_in_range(c: &[f64; 5], horizon: f64) -> bool {
    let h = horizon.max(1.0);
    let mut scale = 1.0;
    for k in c {
        // A NaN (an infinity minus an infinity) fails too.
        let size = k.abs() * scale;
        if size.is_nan() || size >= QUARTIC_LIMIT {
            return false;
        }
        scale *= h;
    }
    true
}

/// Horner evaluation, lowest degree first.
#[inline]
fn eval(c: &[f64], x: f64) -> f64 {
    c.iter().rev().fold(0.0, |acc, &k| acc * x + k)
}

/// Up to four real roots, ascending.
#[derive(Clone, Copy, Default)]
pub(crate) struct Roots {
    n: usize,
    r: [f64; 4],
}

impl Roots {
    fn push(&mut self, x: f64) {
        if self.n < 4 {
            self.r[self.n] = x;
            self.n += 1;
        }
    }
    pub(crate) fn as_slice(&self) -> &[f64] {
        &self.r[..self.n]
    }
}

/// The root of the monotone `f` between `lo` and `hi` (`f(lo)`, `f(hi)` of opposite sign
/// or one of them zero), by bisection to the last representable digit.
fn bisect(c: &[f64], mut lo: f64, mut hi: f64) -> f64 {
    let f_lo = eval(c, lo);
    if f_lo == 0.0 {
        return lo;
    }
    let lo_positive = f_lo > 0.0;
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        let f = eval(c, mid);
        if f == 0.0 {
            return mid;
        }
        if (f > 0.0) == lo_positive {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The real roots of the polynomial `c` (lowest degree first, degree <= 4) in
/// `[lo, hi]`, ascending. Isolation by derivatives: between consecutive roots of the
/// derivative the polynomial is monotone and holds at most one root, found by
/// bisection. Degree 2 and below are solved in closed (stable) form.
pub(crate) fn real_roots(c: &[f64], lo: f64, hi: f64) -> Roots {
    let mut out = Roots::default();
    roots_each(c, lo, hi, |x| {
        out.push(x);
        None::<()>
    });
    out
}

/// [`real_roots`]'s roots handed to `visit` one at a time as they are found, up to
/// the first for which it answers (that answer returned): a caller that needs only
/// the first few roots is spared the bisections for the others. The same roots,
/// computed by the same operations in the same order, as [`real_roots`] lists.
fn roots_each<R>(
    c: &[f64],
    lo: f64,
    hi: f64,
    visit: impl FnMut(f64) -> Option<R>,
) -> Option<R> {
    let mut deg = c.len() - 1;
    while deg > 0 && c[deg] == 0.0 {
        deg -= 1;
    }
    let mut out = Visits {
        n: 0,
        last: None,
        visit,
    };
    match deg {
        0 => None,
        1 => out.keep(-c[0] / c[1], lo, hi),
        2 => {
            let (a, b, k) = (c[2], c[1], c[0]);
            let d = b * b - 4.0 * a * k;
            if d < 0.0 {
                return None;
            }
            let q = -0.5 * (b + b.signum() * d.sqrt());
            let (mut r1, mut r2) = (q / a, if q != 0.0 { k / q } else { q / a });
            if r1 > r2 {
                std::mem::swap(&mut r1, &mut r2);
            }
            if let Some(r) = out.keep(r1, lo, hi) {
                return Some(r);
            }
            if r2 != r1 {
                return out.keep(r2, lo, hi);
            }
            None
        }
        _ => {
            let mut dc = [0.0; 4];
            for k in 1..=deg {
                dc[k - 1] = k as f64 * c[k];
            }
            let crit = real_roots(&dc[..deg], lo, hi);
            let mut a = lo;
            let mut fa = eval(&c[..=deg], a);
            for &b in crit.as_slice().iter().chain(std::iter::once(&hi)) {
                if b <= a {
                    continue;
                }
                let fb = eval(&c[..=deg], b);
                let found = if fa == 0.0 {
                    out.keep(a, lo, hi)
                } else if fa * fb < 0.0 {
                    out.push(bisect(&c[..=deg], a, b))
                } else {
                    None
                };
                if found.is_some() {
                    return found;
                }
                a = b;
                fa = fb;
            }
            if fa == 0.0 && out.last != Some(a) {
                return out.keep(a, lo, hi);
            }
            None
        }
    }
}

/// The roots [`roots_each`] has found: at most four taken, as [`Roots`] holds, the
/// last one remembered.
struct Visits<F> {
    n: usize,
    last: Option<f64>,
    visit: F,
}

impl<R, F: FnMut(f64) -> Option<R>> Visits<F> {
    fn push(&mut self, x: f64) -> Option<R> {
        if self.n < 4 {
            self.n += 1;
            self.last = Some(x);
            return (self.visit)(x);
        }
        None
    }

    fn keep(&mut self, x: f64, lo: f64, hi: f64) -> Option<R> {
        if x >= lo && x <= hi {
            return self.push(x);
        }
        None
    }
}

/// The earliest downward zero crossing of the quartic `c` (lowest degree first) in
/// `[0, horizon]`, given `c[0]` is about zero or positive (the balls are apart).
/// Touching and approaching now gives 0. A dip below zero shallower than `depth_tol`
/// (a grazing touch far below round-off of the positions) is not a collision.
///
/// Touching (or a round-off hair inside) and not closing now is not the end of the
/// contact when the relative acceleration pushes the balls together (a ball sliding down
/// a wall onto one resting in the corner, left touching by a perfectly inelastic
/// impact): the gap turns round while they still touch, and without a collision one
/// ball would sink into the other for the rest of the interval. The collision is then
/// where the gap is back at the depth it starts from, closing as fast as it opened (so
/// the impact sees the pair approach); a pair that separates first collides where the
/// gap closes through zero, as any other.
pub fn quartic_entry(c: &[f64; 5], horizon: f64, depth_tol: f64) -> Option<f64> {
    if horizon.is_nan() || horizon < 0.0 || c.iter().any(|k| !k.is_finite()) {
        return None;
    }
    if c[0] <= 0.0 {
        // Touching now: collide at once if the gap starts to close, judged by the first
        // derivative that does not vanish (at rest and pushed together counts).
        if let Some(&k) = c[1..].iter().find(|&&k| k != 0.0) {
            if k < 0.0 {
                return Some(0.0);
            }
        }
    }
    // The depth whose downward crossing is the collision: zero, or the starting depth
    // while the pair has not yet come apart. (At that depth the turn may be below the
    // round-off of `c[0]`: a piece that starts at it and falls is the crossing.)
    let mut level = c[0].min(0.0);
    let mut touching = c[0] <= 0.0;
    // Monotone pieces between the critical points (roots of the cubic derivative),
    // each piece looked at as soon as its end is known, so that the critical points
    // past the crossing are never computed.
    let dc = [c[1], 2.0 * c[2], 3.0 * c[3], 4.0 * c[4]];
    let mut a = 0.0;
    let mut fa = c[0];
    let mut piece = |b: f64| {
        if b <= a {
            return None;
        }
        let fb = eval(c, b);
        if touching {
            if fa >= level && fb < level && fb - level <= -depth_tol {
                let mut shifted = *c;
                shifted[0] -= level;
                return Some(first_below(&shifted, a, b));
            }
        } else if fa > 0.0 && fb < 0.0 && fb <= -depth_tol {
            return Some(bisect(c, a, b));
        }
        if fb > 0.0 {
            level = 0.0;
            touching = false;
        }
        a = b;
        fa = fb;
        None
    };
    roots_each(&dc, 0.0, horizon, &mut piece).or_else(|| piece(horizon))
}

/// The first time in `[lo, hi]` at which the falling `f` is below zero (`f(lo) >= 0 >
/// f(hi)`), by bisection to the last representable digit: where `f` only touches zero
/// at `lo` (the turn of a pair that stays in contact), a moment later, when it is
/// closing.
fn first_below(c: &[f64], mut lo: f64, mut hi: f64) -> f64 {
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if eval(c, mid) < 0.0 {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A relative flight that comes within `sigma (1 + e)` of the origin at `t0`: its
    /// position there on that circle at angle `phi`, its velocity and acceleration
    /// free. With `e` from -1e-6 to 1e-6 on a log scale (and exactly 0) it grazes,
    /// touches or just misses, the cases where a bound could cut too close.
    fn near_miss(
        sigma: f64,
        t0: f64,
        phi: f64,
        e: f64,
        v: [f64; 2],
        acc: [f64; 2],
    ) -> [f64; 2] {
        let rho = sigma * (1.0 + e);
        let q = [rho * phi.cos(), rho * phi.sin()];
        [
            q[0] - t0 * (v[0] + 0.5 * acc[0] * t0),
            q[1] - t0 * (v[1] + 0.5 * acc[1] * t0),
        ]
    }

    fn near_miss_case() -> impl Strategy<Value = ([f64; 2], [f64; 2], [f64; 2], f64, f64)> {
        let unit = -1.0f64..1.0;
        (
            0.01f64..0.1,
            0.0f64..3.0,
            0.0f64..std::f64::consts::TAU,
            prop_oneof![
                Just(0.0),
                (-15.0f64..-6.0, any::<bool>())
                    .prop_map(|(x, up)| if up { 10f64.powf(x) } else { -(10f64.powf(x)) }),
            ],
            [unit.clone(), unit.clone()],
            [unit.clone(), unit],
            0.0f64..4.0,
        )
            .prop_map(|(sigma, t0, phi, e, v, a, horizon)| {
                let (v, acc) = ([4.0 * v[0], 4.0 * v[1]], [3.0 * a[0], 3.0 * a[1]]);
                (near_miss(sigma, t0, phi, e, v, acc), v, acc, sigma, horizon)
            })
    }

    /// A coefficient for [`first_exits`]: ordinary sizes of either sign, and the
    /// values at which `first_exit` changes case (zeros of both signs), none finite.
    fn coefficient() -> impl Strategy<Value = f64> {
        prop_oneof![
            -10.0f64..10.0,
            Just(0.0),
            Just(-0.0),
            Just(1e-300),
            Just(-1e-300),
            Just(1e300),
            Just(f64::INFINITY),
            Just(f64::NAN),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        /// The four exits at once are `first_exit`'s one at a time, bit for bit, with
        /// infinity for none.
        #[test]
        fn first_exits_are_first_exit_each(
            a in [coefficient(), coefficient(), coefficient(), coefficient()],
            b in [coefficient(), coefficient(), coefficient(), coefficient()],
            c in [coefficient(), coefficient(), coefficient(), coefficient()],
        ) {
            let all = first_exits(a, b, c);
            for k in 0..4 {
                let one = first_exit(a[k], b[k], c[k]).unwrap_or(f64::INFINITY);
                prop_assert_eq!(all[k].to_bits(), one.to_bits(), "{} {} {}", a[k], b[k], c[k]);
            }
        }

        /// A pair the bound passes over is one the root search finds no contact for:
        /// the search with the bound in front returns what it returns alone, bit for
        /// bit.
        #[test]
        fn stays_apart_never_skips_a_contact(
            (p, v, acc, sigma, horizon) in near_miss_case()
        ) {
            let c = pair_quartic(p, v, acc, sigma);
            let alone = quartic_entry(&c, horizon, 1e-12 * sigma * sigma);
            let filtered = if stays_apart(p, v, acc, sigma, horizon) {
                None
            } else {
                quartic_entry(&c, horizon, 1e-12 * sigma * sigma)
            };
            prop_assert_eq!(alone.map(f64::to_bits), filtered.map(f64::to_bits));
        }

        /// The same over flights anywhere in a table's neighbourhood of a ball.
        #[test]
        fn stays_apart_never_skips_a_contact_nearby(
            p in [-0.3f64..0.3, -0.3f64..0.3],
            v in [-4.0f64..4.0, -4.0f64..4.0],
            acc in [-3.0f64..3.0, -3.0f64..3.0],
            sigma in 0.01f64..0.1,
            horizon in 0.0f64..10.0,
        ) {
            let c = pair_quartic(p, v, acc, sigma);
            if stays_apart(p, v, acc, sigma, horizon) {
                prop_assert_eq!(quartic_entry(&c, horizon, 1e-12 * sigma * sigma), None);
            }
        }
    }

    /// The bound is not idle: a ball rolling past a line of resting ones is cleared of
    /// every ball off its line and of those behind it.
    #[test]
    fn stays_apart_passes_over_clear_pairs() {
        // A ball rolling along +x (decelerating along its velocity) past balls resting
        // a diameter and more beside its line: its flight from each is a segment.
        let (sigma, v, acc) = (0.057, [-2.0, 0.0], [0.1, 0.0]);
        let horizon = 20.0;
        for k in 1..10 {
            let p = [-0.3 + 0.1 * k as f64, sigma * 1.01 + 0.01 * k as f64];
            assert!(stays_apart(p, v, acc, sigma, horizon), "{p:?}");
        }
        // (`p`, `v`, `acc` are the resting ball's relative to the rolling one.) Behind
        // it, receding: apart; ahead on its line: not.
        assert!(stays_apart([-0.2, 0.0], v, acc, sigma, horizon));
        assert!(!stays_apart([0.2, 0.0], v, acc, sigma, horizon));
        // Touching now: never.
        assert!(!stays_apart([sigma, 0.0], [1.0, 0.0], acc, sigma, horizon));
        // Over an infinite horizon the rolling ball's parabola turns round and comes
        // back; a NaN horizon proves nothing.
        assert!(!stays_apart([-0.2, 0.0], v, acc, sigma, f64::INFINITY));
        assert!(!stays_apart([0.2, 0.0], [0.0, 0.0], [0.0, 0.0], sigma, f64::NAN));
    }

    /// A pair quartic under everyday gravity is in range over any sane interval; under
    /// gravity of 1e150 (its square's quarter 2.5e299) it is not, whatever the interval.
    #[test]
    fn quartic_range_admits_physical_gravity_only() {
        let (p, v, sigma) = ([30.0, 40.0], [-1.0, -2.0], 2.0);
        let c = pair_quartic(p, v, [0.0, 9.81], sigma);
        assert!(quartic_in_range(&c, 1.0) && quartic_in_range(&c, 1e20));
        assert!(
            !quartic_in_range(&c, 1e40),
            "9.81 t^4 / 4 at t = 1e40 is 2.5e160"
        );
        let c = pair_quartic(p, v, [1e150, 1e150], sigma);
        assert!(!quartic_in_range(&c, 1e-3));
        assert!(!quartic_in_range(
            &pair_quartic(p, v, [1e300, 0.0], sigma),
            1.0
        ));
    }

    #[test]
    fn head_on_pair_time_is_gap_over_closing_speed() {
        // Centres 100 apart, radii summing to 20, closing at 4: contact after 80/4.
        let t = pair_time(100.0, 0.0, -4.0, 0.0, 20.0).unwrap();
        assert!((t - 20.0).abs() < 1e-14);
        assert_eq!(pair_time(100.0, 0.0, 4.0, 0.0, 20.0), None);
    }

    #[test]
    fn distant_grazing_pair_is_found() {
        // Offset exactly sigma sideways: tangent contact after 1e6 / 1 time.
        let t = pair_time(1e6, 2.0, -1.0, 0.0, 2.0).unwrap();
        assert!((t - 1e6).abs() < 1e-6, "{t}");
        assert_eq!(pair_time(1e6, 2.000001, -1.0, 0.0, 2.0), None);
    }

    #[test]
    fn falling_ball_exit_is_the_parabola_root() {
        // h = 10 + 3 t - 5 t^2 (thrown away from the floor, pulled back): root
        // (3 + sqrt(9 + 200)) / 10.
        let t = first_exit(-5.0, 3.0, 10.0).unwrap();
        assert!((t - (3.0 + 209f64.sqrt()) / 10.0).abs() < 1e-14);
        // Just bounced (h = 0, moving in): the next bounce, not now.
        let t = first_exit(-5.0, 3.0, 0.0).unwrap();
        assert!((t - 0.6).abs() < 1e-15);
        assert_eq!(first_exit(0.0, 3.0, 0.0), None);
    }

    #[test]
    fn quartic_matches_quadratic_when_acceleration_vanishes() {
        let c = pair_quartic([30.0, 5.0], [-2.0, 0.1], [0.0, 0.0], 10.0);
        let q = quartic_entry(&c, 100.0, 0.0).unwrap();
        let p = pair_time(30.0, 5.0, -2.0, 0.1, 10.0).unwrap();
        assert!((q - p).abs() < 1e-12 * p, "{q} {p}");
    }

    #[test]
    fn quartic_catches_balls_at_rest_in_contact_and_pushed_together() {
        // Touching, no relative velocity, relative acceleration into each other.
        let c = pair_quartic([0.0, -20.0], [0.0, 0.0], [0.0, 3.0], 20.0);
        assert_eq!(quartic_entry(&c, 1.0, 0.0), Some(0.0));
        // Pulled apart instead: no contact.
        let c = pair_quartic([0.0, -20.0], [0.0, 0.0], [0.0, -3.0], 20.0);
        assert_eq!(quartic_entry(&c, 1.0, 0.0), None);
    }

    #[test]
    fn quartic_finds_a_ball_falling_onto_a_fixed_one() {
        // Relative position (0, -50), no relative velocity, acceleration (0, 2) toward
        // it: the gap 50 - 10 closes at t = sqrt(2 * 40 / 2).
        let c = pair_quartic([0.0, -50.0], [0.0, 0.0], [0.0, 2.0], 10.0);
        let t = quartic_entry(&c, 100.0, 0.0).unwrap();
        assert!((t - 40f64.sqrt()).abs() < 1e-12);
        assert_eq!(quartic_entry(&c, 6.0, 0.0), None);
    }
}
