//! Balls rolling over a corner or a peg, or swinging inside an arc, under gravity.
//!
//! A ball that comes to rest against a corner (a free end, a convex joint of a
//! polyline), the outside of an arc or a circle, or the inside of an arc, keeps touching
//! it while the wall pushes: its centre moves on a circle about the corner (radius `r`)
//! or the arc's centre (`R + r` outside, `R - r` inside), frictionless, with only the
//! tangential part of gravity moving it. That is a pendulum, followed in closed form
//! ([`crate::pendulum`]), so the model stays exact. The rules that decide it are those
//! of a face (`on_face.rs`): the ball's rebound would be back within `tc`, and the wall
//! pushes (`v^2 / rho < -g . n` round a corner or outside an arc; `v^2 / rho > g . n`
//! inside one, so a fast ball is also carried over the top of a loop).
//!
//! The motion ends, as one more event of the ball (the face-end slot), at the first of:
//! - the push vanishing (`cos theta` reaching [`Pendulum::release_cos`]): the ball flies
//!   off along its tangent;
//! - the centre leaving the region in which this corner or arc is the wall's nearest
//!   feature (a joint's or an end's half planes, an arc's angular span): the ball is
//!   then judged afresh, and rests on the face it reaches, turns round the next corner,
//!   or flies.
//!
//! Both are angles the pendulum reaches at a time it gives exactly
//! ([`Pendulum::reaches`]). Its times of impact with everything else (other balls, the
//! other walls, pockets, open edges, the sides of its cell) are not roots of
//! polynomials: each is found by [`first_touch`], stepping only as far as bounds on
//! the speeds and accelerations prove free of contact, up to the end of the output
//! interval (the ball is predicted afresh at every interval, as a resting ball is).

use super::clock::Laws;
use super::held::{dot, OnRound};
use super::inner::Inner;
use super::kinds::{self, END_CODE, EXIT_CODE, ON_ROUND, PIECE, POCKET};
use super::predict::Kin;
use super::queue::Ev;
use crate::balls::Balls;
use crate::models::Wall;
use crate::pendulum::{first_touch, first_touch_by, quadratic_step, safe_step, Pendulum};
use crate::walls::{Piece, Shape};

/// A ball's motion from a given time `tau = 0` on: on a circle (its pendulum, and the
/// time since the pendulum's start), or on a parabola (state and acceleration).
enum Course {
    Circle(Pendulum, f64),
    Parabola([f64; 4], [f64; 2]),
}

impl Course {
    #[inline]
    fn at(&self, tau: f64) -> [f64; 4] {
        match *self {
            Course::Circle(ref p, t0) => p.state(t0 + tau),
            Course::Parabola(s, a) => [
                s[0] + tau * (s[2] + 0.5 * a[0] * tau),
                s[1] + tau * (s[3] + 0.5 * a[1] * tau),
                s[2] + a[0] * tau,
                s[3] + a[1] * tau,
            ],
        }
    }
}

/// Speed and acceleration bounds of a ball over `horizon` from its state `s` with
/// acceleration `a` (a parabola: the speed is largest at an end).
#[inline]
fn parabola_bounds(s: &[f64; 4], a: [f64; 2], horizon: f64) -> (f64, f64) {
    let v0 = s[2].hypot(s[3]);
    let v1 = (s[2] + a[0] * horizon).hypot(s[3] + a[1] * horizon);
    (v0.max(v1), a[0].hypot(a[1]))
}

impl Kin<'_> {
    /// Ball `i`'s circle, if it is held on one.
    #[inline]
    fn round_of(&self, i: usize) -> Option<OnRound> {
        self.inner
            .and_then(|inner| inner.on.get(i).and_then(|o| o.round))
    }

    /// Ball `i`'s pendulum from its stored state (time `t[i]`), if it is on a circle.
    pub(super) fn pendulum(&self, i: usize) -> Option<Pendulum> {
        let round = self.round_of(i)?;
        let p = [self.x[i], self.y[i]];
        Some(Pendulum::new(
            round.center,
            p,
            [self.vx[i], self.vy[i]],
            self.g,
        ))
    }

    /// Ball `i`'s state at epoch time `t` on its circle.
    #[cold]
    #[inline(never)]
    pub(super) fn round_state(&self, i: usize, t: f64) -> Option<[f64; 4]> {
        Some(self.pendulum(i)?.state(t - self.t[i]))
    }

    /// Ball `j`'s course from `now` over `horizon`, made once for the many states a
    /// search for a meeting reads, with bounds on its speed and acceleration.
    fn course_of(&self, j: usize, now: f64, horizon: f64) -> (Course, f64, f64) {
        if self.hist[j].rest & ON_ROUND != 0 {
            if let Some(p) = self.pendulum(j) {
                let (v, a) = p.bounds();
                return (Course::Circle(p, now - self.t[j]), v, a);
            }
        }
        let (s, a) = (self.state(j, now), self.accel(j));
        let (vmax, amax) = parabola_bounds(&s, a, horizon);
        (Course::Parabola(s, a), vmax, amax)
    }

    /// The next meeting of `i` and `j` after `now`, one of them on a circle.
    #[cold]
    #[inline(never)]
    pub(super) fn round_pair(&self, i: usize, j: usize, now: f64) -> Option<Ev> {
        if self.inv_m[i] == 0.0 && self.inv_m[j] == 0.0 {
            return None;
        }
        let h = self.horizon - now;
        if h.is_nan() || h <= 0.0 {
            return None;
        }
        let (ci, vi, ai) = self.course_of(i, now, h);
        let (cj, vj, aj) = self.course_of(j, now, h);
        let sigma = self.r[i] + self.r[j];
        let lip = vi + vj;
        // |d|'' <= |a_j - a_i| + |v_j - v_i|^2 / |d|, and |d| >= sigma until contact.
        let curv = ai + aj + lip * lip / sigma;
        let gap = |tau: f64| {
            let (si, sj) = (ci.at(tau), cj.at(tau));
            let (dx, dy) = self.table.min_image(sj[0] - si[0], sj[1] - si[1]);
            let d = dx.hypot(dy);
            let dv = (dx * (sj[2] - si[2]) + dy * (sj[3] - si[3])) / d;
            (d - sigma, dv)
        };
        match first_touch(h, lip, Some(curv), 1e-12 * sigma, gap) {
            Ok(t) => t.map(|tau| self.pair_event(i, j, now + tau)),
            Err(_) => {
                self.overflow.set(true);
                None
            }
        }
    }

    /// Ball `i`'s (on a circle) first impact after `now` with the table's walls, the
    /// pieces of wall listed for its cell (but its own), its pockets and open edges.
    #[cold]
    #[inline(never)]
    pub(super) fn round_walls(&self, i: usize, now: f64) -> Option<Ev> {
        let (inner, pend) = (self.inner?, self.pendulum(i)?);
        let round = self.round_of(i)?;
        let h = self.horizon - now;
        if h.is_nan() || h <= 0.0 {
            return None;
        }
        let t_i = self.t[i];
        let at = |tau: f64| pend.state(now + tau - t_i);
        let (lip, curv) = pend.bounds();
        let r = self.r[i];
        let tol = 1e-12 * r;
        let mut best: Option<(f64, u32)> = None;
        let mut failed = false;
        let mut offer =
            |found: Result<Option<f64>, crate::pendulum::Unsettled>, code: u32| match found {
                Ok(Some(t)) => {
                    if best.is_none_or(|(b, _)| t < b) {
                        best = Some((t, code));
                    }
                }
                Ok(None) => {}
                Err(_) => failed = true,
            };
        let (w, ht) = (self.table.width, self.table.height);
        for wall in Wall::ALL {
            if self.hist[i].rest & (1 << wall as u8) != 0
                || !super::motion::has_wall(&self.table, wall)
            {
                continue;
            }
            let n = wall.normal();
            // The gap to the wall along its normal into the table.
            let c = match wall {
                Wall::Left | Wall::Top => r,
                Wall::Right => w - r,
                Wall::Bottom => ht - r,
            };
            let side = if n[0] + n[1] > 0.0 { 1.0 } else { -1.0 };
            let axis = usize::from(n[1] != 0.0);
            let g = |tau: f64| {
                let s = at(tau);
                (side * (s[axis] - c), side * s[axis + 2])
            };
            offer(
                first_touch(h, lip, Some(curv), tol, g),
                kinds::wall(wall as usize),
            );
        }
        let cell = self.cells.cell_of(i);
        for &item in inner.near(cell) {
            if item & POCKET != 0 {
                let q = inner.walls.pockets()[(item & !POCKET) as usize];
                let g = |tau: f64| {
                    let s = at(tau);
                    let d = [s[0] - q.center[0], s[1] - q.center[1]];
                    let len = d[0].hypot(d[1]);
                    (len - q.radius, dot(d, [s[2], s[3]]) / len)
                };
                offer(first_touch(h, lip, Some(curv), 0.0, g), EXIT_CODE);
                continue;
            }
            if item == round.piece || item == round.also {
                continue;
            }
            let piece = inner.walls.pieces()[item as usize];
            let g = |tau: f64| {
                let s = at(tau);
                let (p, v) = ([s[0], s[1]], [s[2], s[3]]);
                let (d, dd) = distance(&piece, p, v);
                let gap = d - r;
                let step = match piece.shape {
                    // A segment is a convex set, and so is a whole circle seen from
                    // outside: the distance's second derivative is at least -|a|.
                    Shape::Segment { .. } => safe_step(gap, dd, lip, Some(curv)),
                    Shape::Arc {
                        center,
                        radius,
                        span,
                        ..
                    } if span >= std::f64::consts::TAU
                        && (p[0] - center[0]).hypot(p[1] - center[1]) > radius =>
                    {
                        safe_step(gap, dd, lip, Some(curv))
                    }
                    // Elsewhere the distance to an arc is smooth but where two parts
                    // of it are equally near (its centre, or between its ends when the
                    // opening is narrower than the ball); its second derivative is at
                    // least -(v^2 / |p - c| + |a|), kept valid by a step that cannot
                    // halve |p - c|; and the bound by parts (`arc_step`) holds anyway.
                    Shape::Arc { center, .. } => {
                        let h = (p[0] - center[0]).hypot(p[1] - center[1]);
                        let bent = if h > 0.0 && lip > 0.0 {
                            let a = lip * lip / (0.5 * h) + curv;
                            safe_step(gap, dd, lip, Some(a)).min(0.5 * h / lip)
                        } else {
                            0.0
                        };
                        bent.max(safe_step(gap, dd, lip, None))
                            .max(arc_step(&piece, p, v, r, lip, curv))
                    }
                };
                (gap, dd, step)
            };
            offer(first_touch_by(h, tol, 1e-12 * lip, g), kinds::wall(PIECE));
        }
        for axis in 0..2 {
            if inner.open[axis] {
                let size = inner.size[axis];
                offer(
                    first_touch(h, lip, Some(curv), 0.0, |tau| {
                        let s = at(tau);
                        (s[axis], s[axis + 2])
                    }),
                    EXIT_CODE,
                );
                offer(
                    first_touch(h, lip, Some(curv), 0.0, |tau| {
                        let s = at(tau);
                        (size - s[axis], -s[axis + 2])
                    }),
                    EXIT_CODE,
                );
            }
        }
        if failed {
            self.overflow.set(true);
        }
        best.map(|(tau, code)| Ev {
            t: now + tau,
            i: i as u32,
            other: code,
            ci: self.counter[i],
            cj: 0,
        })
    }

    /// When ball `i` (on a circle) next leaves its cell, and through which side.
    #[cold]
    #[inline(never)]
    pub(super) fn round_cross(&self, i: usize, now: f64) -> Option<Ev> {
        use super::cells::Dir;
        let pend = self.pendulum(i)?;
        let h = self.horizon - now;
        if h.is_nan() || h <= 0.0 {
            return None;
        }
        let t_i = self.t[i];
        let (lip, curv) = pend.bounds();
        let (bounds, open) = self.cells.bounds(self.cells.cell_of(i));
        let sides = [
            (Dir::Left, 0, 1.0, bounds[0]),
            (Dir::Right, 0, -1.0, bounds[1]),
            (Dir::Up, 1, 1.0, bounds[2]),
            (Dir::Down, 1, -1.0, bounds[3]),
        ];
        let mut best: Option<(f64, Dir)> = None;
        for (k, (dir, axis, side, at)) in sides.into_iter().enumerate() {
            if !open[k] {
                continue;
            }
            let g = |tau: f64| {
                let s = pend.state(now + tau - t_i);
                (side * (s[axis] - at), side * s[axis + 2])
            };
            match first_touch(h, lip, Some(curv), 0.0, g) {
                Ok(Some(t)) if best.is_none_or(|(b, _)| t < b) => best = Some((t, dir)),
                Ok(_) => {}
                Err(_) => self.overflow.set(true),
            }
        }
        best.map(|(tau, dir)| Ev {
            t: now + tau,
            i: i as u32,
            other: kinds::cross(dir as u32),
            ci: self.counter[i],
            cj: 0,
        })
    }
}

/// A step over which a ball of radius `r` at `p` with velocity `v` (speed at most
/// `vmax`, acceleration at most `amax`) surely does not reach an arc: the distance to the
/// arc is at least the least of the distance to its circle and those to its two ends,
/// each bounded below by its value, rate and least second derivative. An end's distance
/// and the circle's from outside are convex (at least `-amax`); from inside, `R - |p -
/// c|` has at least `-(v^2 / |p - c| + amax)`, kept valid by a step that cannot halve
/// `|p - c|`. A part already closed proves nothing (no step).
fn arc_step(piece: &Piece, p: [f64; 2], v: [f64; 2], r: f64, vmax: f64, amax: f64) -> f64 {
    let Shape::Arc {
        center,
        radius,
        from,
        span,
    } = piece.shape
    else {
        return 0.0;
    };
    let part = |gap: f64, rate: f64, curv: f64| {
        if gap > 0.0 {
            quadratic_step(gap, rate, curv)
        } else {
            0.0
        }
    };
    let d = [p[0] - center[0], p[1] - center[1]];
    let h = d[0].hypot(d[1]);
    if h == 0.0 || vmax == 0.0 {
        return 0.0;
    }
    let dh = dot(d, v) / h;
    let mut s = if h >= radius {
        part(h - radius - r, dh, amax)
    } else {
        let inside = vmax * vmax / (0.5 * h) + amax;
        part(radius - h - r, -dh, inside).min(0.5 * h / vmax)
    };
    if span < std::f64::consts::TAU {
        for angle in [from, from + span] {
            let (sn, cs) = angle.sin_cos();
            let e = [
                p[0] - center[0] - radius * cs,
                p[1] - center[1] - radius * sn,
            ];
            let len = e[0].hypot(e[1]);
            let rate = if len > 0.0 { dot(e, v) / len } else { -vmax };
            s = s.min(part(len - r, rate, amax));
        }
    }
    s
}

/// The distance from `p` to a piece's curve, and its rate of change at velocity `v`.
fn distance(piece: &Piece, p: [f64; 2], v: [f64; 2]) -> (f64, f64) {
    let q = match piece.shape {
        Shape::Segment { a, b } => {
            let d = [b[0] - a[0], b[1] - a[1]];
            let s = (dot([p[0] - a[0], p[1] - a[1]], d) / dot(d, d)).clamp(0.0, 1.0);
            [a[0] + s * d[0], a[1] + s * d[1]]
        }
        Shape::Arc {
            center,
            radius,
            from,
            span,
        } => {
            let d = [p[0] - center[0], p[1] - center[1]];
            let phi = d[1].atan2(d[0]);
            let off = crate::walls::geometry::arc_offset(phi, from);
            let angle = if span >= std::f64::consts::TAU || off <= span {
                phi
            } else {
                // Past the ends: the nearer end.
                let (s0, c0) = from.sin_cos();
                let (s1, c1) = (from + span).sin_cos();
                let e0 = [
                    center[0] + radius * c0 - p[0],
                    center[1] + radius * s0 - p[1],
                ];
                let e1 = [
                    center[0] + radius * c1 - p[0],
                    center[1] + radius * s1 - p[1],
                ];
                if dot(e0, e0) <= dot(e1, e1) {
                    from
                } else {
                    from + span
                }
            };
            let (s, c) = angle.sin_cos();
            [center[0] + radius * c, center[1] + radius * s]
        }
    };
    let d = [p[0] - q[0], p[1] - q[1]];
    let len = d[0].hypot(d[1]);
    if len == 0.0 {
        return (0.0, -v[0].hypot(v[1]));
    }
    (len, dot(d, v) / len)
}

impl Kin<'_> {
    /// The event of ball `i` (on a circle) leaving it, from the view `kin`.
    #[inline(never)]
    pub(super) fn round_end_event(&self, i: usize) -> Option<Ev> {
        let kin = self;
        let round = kin.inner?.on.get(i)?.round?;
        let pend = kin.pendulum(i)?;
        let (tau, _) = round.leaves(&pend)?;
        Some(Ev {
            t: kin.t[i] + tau,
            i: i as u32,
            other: END_CODE,
            ci: kin.counter[i],
            cj: 0,
        })
    }
}

impl Inner {
    /// Ball `i`, at the end of its circle (under the interval's `laws`): released,
    /// it flies off along its tangent, set a few parts in 1e12 of the circle's radius
    /// off the wall so that round-off cannot read as an impact at once; at the end of the contact's
    /// region it is moved as far past it and judged afresh, as any ball touching walls
    /// is ([`Inner::settle_faces`]). Returns the wall it would turn round, if that is
    /// what the rules cannot follow.
    pub(super) fn leave_round(
        &mut self,
        b: &mut Balls,
        i: usize,
        c: u32,
        laws: &Laws,
        rest: &mut u8,
    ) -> Result<(), u32> {
        let g = laws.gravity;
        let Some(round) = self.on[i].round else {
            return Ok(());
        };
        let p = [b.x[i], b.y[i]];
        let v = [b.vx[i], b.vy[i]];
        let pend = Pendulum::new(round.center, p, v, g);
        let d = [p[0] - round.center[0], p[1] - round.center[1]];
        let rho = d[0].hypot(d[1]);
        let released = round.nearest_is_release(&pend);
        let mut on = self.on[i];
        on.round = None;
        self.set_on(i, on);
        let u = [d[0] / rho, d[1] / rho];
        if released {
            // Off the circle by more than its impacts' graze depth (a part in 1e12 of
            // the squared radius): the free parabola osculates the circle there, and
            // the ball must not read as meeting it again at once.
            let out = if round.outside { 1.0 } else { -1.0 } * 4e-12 * rho;
            b.x[i] += out * u[0];
            b.y[i] += out * u[1];
            return Ok(());
        }
        // Past the end of the region, along the circle.
        let turn = dot(v, [-u[1], u[0]]).signum() * 1e-12 * b.r[i] / rho;
        let (s, co) = turn.sin_cos();
        b.x[i] = round.center[0] + rho * (co * u[0] - s * u[1]);
        b.y[i] = round.center[1] + rho * (s * u[0] + co * u[1]);
        self.settle_faces(b, i, c, laws, rest).map(|_| ())
    }
}

impl super::state::Event {
    /// Moves ball `i`, held on a circle, along it by `tau` (its clock is the caller's
    /// to set).
    #[cold]
    #[inline(never)]
    pub(super) fn advance_round(&self, b: &mut Balls, i: usize, tau: f64) {
        let Some(round) = self.inner.as_deref().and_then(|inner| inner.on[i].round) else {
            return;
        };
        let p = [b.x[i], b.y[i]];
        let v = [b.vx[i], b.vy[i]];
        [b.x[i], b.y[i], b.vx[i], b.vy[i]] =
            Pendulum::new(round.center, p, v, self.laws.gravity).state(tau);
    }
}
