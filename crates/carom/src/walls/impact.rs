//! Times of impact with the walls inside the table: when a ball moving on a straight line
//! or, under uniform acceleration, on a parabola first touches a piece of wall, enters a
//! pocket, or crosses an open edge of the table.
//!
//! Every contact is the moment a gap function `g(tau)` of the time from now crosses zero
//! while decreasing, at a place where the feature is really there:
//! - a face of a segment, from either side: `g = s (n . (p - a)) - r` with `s` the side,
//!   a linear or quadratic polynomial, taken where the foot of the centre lies within
//!   the segment;
//! - an end, a joint or an arc's end (a point `q`): `g = |p - q|^2 - r^2`, quadratic on a
//!   line, quartic on a parabola;
//! - an arc or circle of radius `R` from outside, `g = |p - c|^2 - (R + r)^2`, and from
//!   inside, `g = (R - r)^2 - |p - c|^2`, taken where the centre's direction from `c`
//!   lies within the arc.
//!
//! A root where the feature is not there (the foot beyond a segment's end, the direction
//! off an arc) is passed over and the next downward crossing tried, so a ball that flies
//! past an arc's gap and comes back to its inside is still caught. The ends of a segment
//! are tried as points whether or not they are contact features (a concave joint):
//! there a face is always met no later than the point, which is on it.
//!
//! A ball touching a feature (within round-off) counts as meeting it now only if it
//! moves into it; a ball that has just bounced off is moving away and its next contact
//! is a later one.

use super::{Piece, Pocket, Shape};
use crate::times::{self, first_exit, pair_quartic, pair_time, quartic_entry, real_roots};

/// A ball's centre in flight: `p(tau) = p + v tau + a tau^2 / 2`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Flight {
    pub p: [f64; 2],
    pub v: [f64; 2],
    /// Uniform acceleration (gravity), `[0, 0]` on a straight line.
    pub a: [f64; 2],
}

impl Flight {
    /// A straight flight.
    pub fn line(p: [f64; 2], v: [f64; 2]) -> Flight {
        Flight {
            p,
            v,
            a: [0.0, 0.0],
        }
    }

    /// Whether the flight is a straight line.
    #[inline]
    pub fn is_line(&self) -> bool {
        self.a == [0.0, 0.0]
    }

    /// The centre at `tau`.
    #[inline]
    pub fn at(&self, tau: f64) -> [f64; 2] {
        [
            self.p[0] + tau * (self.v[0] + 0.5 * self.a[0] * tau),
            self.p[1] + tau * (self.v[1] + 0.5 * self.a[1] * tau),
        ]
    }
}

#[inline]
fn sub(a: [f64; 2], b: [f64; 2]) -> [f64; 2] {
    [a[0] - b[0], a[1] - b[1]]
}

#[inline]
fn dot(a: [f64; 2], b: [f64; 2]) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

/// Keeps the earlier of two optional times.
#[inline]
fn earliest(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

/// Depth below which a quartic's dip under zero is a graze, not a contact: far below
/// the round-off of positions of size `len`.
#[inline]
fn graze(len: f64) -> f64 {
    1e-12 * len * len
}

impl Piece {
    /// The earliest `tau` in `[0, horizon]` at which a ball of radius `r` on flight `f`
    /// comes to touch this piece while moving into it. `None` if it does not.
    ///
    /// Under acceleration a point or an arc needs a quartic; one whose terms are beyond
    /// what its root finder can be trusted with ([`times::quartic_in_range`]) gives
    /// `Some(0.0)`, so that a caller resolving contacts then sees the ball where it is
    /// rather than miss the wall.
    pub fn impact(&self, f: &Flight, r: f64, horizon: f64) -> Option<f64> {
        match self.shape {
            // The face and the last point (if free), then the first point.
            Shape::Segment { a, .. } => earliest(
                self.impact_past_joint(f, r, horizon),
                point_time(a, f, r, horizon),
            ),
            Shape::Arc {
                center,
                radius,
                from,
                span,
            } => {
                let full = span >= std::f64::consts::TAU;
                let on_arc = |tau: f64| {
                    full || {
                        let d = sub(f.at(tau), center);
                        let phi = d[1].atan2(d[0]);
                        super::geometry::arc_offset(phi, from) <= span
                    }
                };
                let mut best = circle_time(center, radius, r, f, horizon, &on_arc);
                if !full {
                    for end in [from, from + span] {
                        let (s, c) = end.sin_cos();
                        let q = [center[0] + radius * c, center[1] + radius * s];
                        best = earliest(best, point_time(q, f, r, horizon));
                    }
                }
                best
            }
        }
    }
}

impl Piece {
    /// [`Piece::impact`] without the piece's first point, for a ball sliding along the
    /// segment before it towards the joint they share: it reaches that joint only
    /// tangentially, at the end of its face (which its own model meets), and round-off
    /// of a tangential touch must not read as an impact. The face and the last point
    /// stay (a concave joint's next face is met before the joint).
    pub fn impact_past_joint(&self, f: &Flight, r: f64, horizon: f64) -> Option<f64> {
        match self.shape {
            Shape::Segment { a, b } => {
                let face = face_time(a, b, f, r, horizon);
                if self.joint_after {
                    face
                } else {
                    earliest(face, point_time(b, f, r, horizon))
                }
            }
            Shape::Arc { .. } => self.impact(f, r, horizon),
        }
    }
}

impl Pocket {
    /// The earliest `tau` in `[0, horizon]` at which the centre of a ball on flight `f`
    /// comes within the pocket's radius (`Some(0.0)` if it is within it now).
    pub fn entry(&self, f: &Flight, horizon: f64) -> Option<f64> {
        let rel = sub(f.p, self.center);
        if dot(rel, rel) <= self.radius * self.radius {
            return Some(0.0);
        }
        if f.is_line() {
            return pair_time(rel[0], rel[1], f.v[0], f.v[1], self.radius)
                .filter(|&t| t <= horizon);
        }
        let c = pair_quartic(rel, f.v, f.a, self.radius);
        if !times::quartic_in_range(&c, horizon) {
            return Some(0.0);
        }
        if times::stays_apart(rel, f.v, f.a, self.radius, horizon) {
            return None;
        }
        quartic_entry(&c, horizon, graze(self.radius))
    }
}

/// The earliest `tau` at which the centre on flight `f` crosses the line `x = 0`
/// (`axis` 0) or `y = 0` (`axis` 1) going below it (`high == false`), or the line at
/// `size` going above it (`high == true`): an open edge of a table of that size.
pub fn edge_crossing(f: &Flight, axis: usize, size: f64, high: bool) -> Option<f64> {
    let (p, v, a) = (f.p[axis], f.v[axis], f.a[axis]);
    // The gap to the edge, positive on the table.
    if high {
        first_exit(-0.5 * a, -v, size - p)
    } else {
        first_exit(0.5 * a, v, p)
    }
}

/// A segment's face from either side (see the module's doc).
fn face_time(a: [f64; 2], b: [f64; 2], f: &Flight, r: f64, horizon: f64) -> Option<f64> {
    let d = sub(b, a);
    let len2 = dot(d, d);
    let len = len2.sqrt();
    let n = [-d[1] / len, d[0] / len];
    let s0 = dot(sub(f.p, a), n);
    let (sv, sa) = (dot(f.v, n), dot(f.a, n));
    // The foot of the centre within the segment at `tau`.
    let on_face = |tau: f64| {
        let along = dot(sub(f.at(tau), a), d);
        (0.0..=len2).contains(&along)
    };
    let mut best: Option<f64> = None;
    for side in [1.0, -1.0] {
        // g(tau) = side (s0 + sv tau + sa tau^2 / 2) - r.
        let (c0, c1, c2) = (side * s0 - r, side * sv, 0.5 * side * sa);
        // On this side, within reach, and moving in (or pushed in from rest): now.
        let moving_in = c1 < 0.0 || (c1 == 0.0 && c2 < 0.0);
        if c0 <= 0.0 && side * s0 >= 0.0 && moving_in && on_face(0.0) {
            return Some(0.0);
        }
        if c2 == 0.0 {
            if c1 < 0.0 && c0 > 0.0 {
                let t = c0 / -c1;
                if t <= horizon && on_face(t) {
                    best = earliest(best, Some(t));
                }
            }
            continue;
        }
        let roots = real_roots(&[c0, c1, c2], 0.0, horizon);
        for &t in roots.as_slice() {
            // Downward crossings only; the first one on the face is this side's contact.
            if c1 + 2.0 * c2 * t < 0.0 && on_face(t) {
                best = earliest(best, Some(t));
                break;
            }
        }
    }
    best
}

/// A point `q` (an end or a joint).
fn point_time(q: [f64; 2], f: &Flight, r: f64, horizon: f64) -> Option<f64> {
    let rel = sub(f.p, q);
    if f.is_line() {
        return pair_time(rel[0], rel[1], f.v[0], f.v[1], r).filter(|&t| t <= horizon);
    }
    let c = pair_quartic(rel, f.v, f.a, r);
    if !times::quartic_in_range(&c, horizon) {
        return Some(0.0);
    }
    if times::stays_apart(rel, f.v, f.a, r, horizon) {
        return None;
    }
    quartic_entry(&c, horizon, graze(r))
}

/// A circle of radius `big` about `center`, met from outside or inside by a ball of
/// radius `r`, where `on_arc` says the circle is there.
fn circle_time(
    center: [f64; 2],
    big: f64,
    r: f64,
    f: &Flight,
    horizon: f64,
    on_arc: &dyn Fn(f64) -> bool,
) -> Option<f64> {
    let rel = sub(f.p, center);
    let d2 = dot(rel, rel);
    let outside = big + r;
    let inside = big - r;
    if f.is_line() {
        let (v, bh) = (f.v, dot(rel, f.v));
        let v2 = dot(v, v);
        // From outside: the entry into distance R + r (a centre inside the circle is
        // not outside it, whatever round-off says of the gap).
        let mut best = pair_time(rel[0], rel[1], v[0], v[1], outside)
            .filter(|&t| t <= horizon && (t > 0.0 || d2 >= big * big) && on_arc(t));
        // From inside: the exit through distance R - r, the larger root of
        // v^2 t^2 + 2 bh t + (d2 - (R - r)^2).
        if inside > 0.0 && v2 > 0.0 {
            let c = d2 - inside * inside;
            let t = if c >= 0.0 && bh > 0.0 {
                // Touching or a hair beyond, moving out: now, if the centre is inside.
                (d2 < big * big).then_some(0.0)
            } else {
                let disc = bh * bh - v2 * c;
                if disc < 0.0 {
                    None
                } else if bh > 0.0 {
                    Some(-c / (bh + disc.sqrt()))
                } else {
                    Some((-bh + disc.sqrt()) / v2)
                }
            };
            if let Some(t) = t.filter(|&t| t.is_finite() && t >= 0.0 && t <= horizon) {
                if on_arc(t) {
                    best = earliest(best, Some(t));
                }
            }
        }
        return best;
    }
    // On a parabola: the quartics of both gaps; where the first crossing is off the arc,
    // the later downward crossings are tried in turn.
    let out = pair_quartic(rel, f.v, f.a, outside);
    if !times::quartic_in_range(&out, horizon) {
        return Some(0.0);
    }
    let mut best = None;
    if d2 >= big * big {
        if let Some(t) = quartic_entry(&out, horizon, graze(outside)) {
            best = if on_arc(t) {
                Some(t)
            } else {
                later_crossing(&out, t, horizon, on_arc)
            };
        }
    } else {
        // A centre inside the circle: the outer gap starts below zero, and a turn of it
        // there is no entry (it would read as one to the overlap rule of
        // `quartic_entry`); only a later downward crossing, after the centre has left
        // the circle past the arc's ends, is.
        best = later_crossing(&out, 0.0, horizon, on_arc);
    }
    if inside > 0.0 {
        let mut inn = pair_quartic(rel, f.v, f.a, inside);
        for k in &mut inn {
            *k = -*k;
        }
        let first = if d2 < big * big {
            quartic_entry(&inn, horizon, graze(inside))
        } else {
            // Outside the circle the inner gap is negative: its first downward crossing
            // is a root found among all of them.
            later_crossing(&inn, 0.0, horizon, &|_| true)
        };
        if let Some(t) = first {
            let t = if on_arc(t) {
                Some(t)
            } else {
                later_crossing(&inn, t, horizon, on_arc)
            };
            best = earliest(best, t);
        }
    }
    best
}

/// The first downward zero crossing of the quartic `c` after `after` (strictly) and up
/// to `horizon`, where `on_arc` holds.
fn later_crossing(
    c: &[f64; 5],
    after: f64,
    horizon: f64,
    on_arc: &dyn Fn(f64) -> bool,
) -> Option<f64> {
    let roots = real_roots(c, after, horizon);
    let slope = |t: f64| c[1] + t * (2.0 * c[2] + t * (3.0 * c[3] + t * 4.0 * c[4]));
    roots
        .as_slice()
        .iter()
        .copied()
        .find(|&t| t > after && slope(t) < 0.0 && on_arc(t))
}

#[cfg(test)]
mod tests;
