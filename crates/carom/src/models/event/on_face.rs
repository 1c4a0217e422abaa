//! Balls resting on the straight faces of walls inside the table, under gravity.
//!
//! A ball whose rebound off a face that gravity presses it into is so slow that it
//! would be back within `tc` comes to rest on that face, as on the table's own floor
//! (`motion::settle`): its speed into the face is set to zero, and it slides along the
//! face (frictionless, as on the floor) with gravity less the part the face takes. Two
//! faces pressed at once (a concave corner) both take their part; the acceleration is
//! that of a ball against surfaces that can only push ([`constrained`]), which in a V
//! whose faces both lean into it is zero: the ball lies in the corner. Every motion is
//! still a parabola, so every time of impact stays exact.
//!
//! The face ends where the ball's centre passes the end of its segment. That is one
//! more event of the ball (the slot the phase end takes on cloth), at the root of a
//! quadratic. There the ball's contact moves to the corner: if a face of the next
//! segment takes over (a straight joint), the ball rests on it; if gravity presses the
//! ball into the corner harder than turning round it at its speed needs
//! (`-g . n > v_t^2 / r`), the ball rolls over the corner on a circle (`on_round.rs`).
//! Otherwise the ball leaves the corner in free flight, exactly. A ball come to rest
//! against a corner, a peg, or inside an arc moves on a circle in the same way.
//!
//! Struck by another ball, a resting ball takes the ball-ball impulse, then its faces'
//! (in that order, as a ball touching a wall inside the table always does), and rests
//! on, or lifts off if it now leaves the face faster than the rule allows.

use super::clock::Laws;
use super::held::{dot, OnFace, OnRound};
use super::inner::Inner;
use super::kinds::{END_CODE, HELD, NO_FACE, ON_FACE, ON_ROUND, ON_TABLE, POCKET};
use super::motion::touches_wall;
use super::predict::Kin;
use super::queue::Ev;
use super::state::Event;
use crate::balls::Balls;
use crate::models::{Contact, PieceContact, Wall};
use crate::table::Table;
use crate::walls::{Feature, Shape};

/// The acceleration `g` leaves a ball pressed against surfaces of unit normals `ns`
/// (towards the ball) that can only push: `g` plus non-negative multiples of the
/// normals, with no part into any surface. In the plane that is `g` itself, `g` less
/// its part into one surface (the ball slides along it), or zero (wedged between two).
pub(super) fn constrained(g: [f64; 2], ns: &[[f64; 2]]) -> [f64; 2] {
    // Round-off of a projection is a few ulps of |g|.
    let tol = 1e-12 * g[0].hypot(g[1]);
    let into_any = |a: [f64; 2]| ns.iter().any(|&n| dot(a, n) < -tol);
    if !into_any(g) {
        return g;
    }
    for &n in ns {
        let gn = dot(g, n);
        if gn < 0.0 {
            let a = [g[0] - gn * n[0], g[1] - gn * n[1]];
            if !into_any(a) {
                return a;
            }
        }
    }
    [0.0, 0.0]
}

/// Whether a ball with velocity `v` and acceleration `a`, touching a corner or the
/// outside of an arc whose normal towards it is `n`, stays on it: `a` presses it in, its
/// rebound would be back within `tc`, and turning round the point at distance `rho` at
/// its speed needs less than that press (`v_t^2 / rho < -a . n`; more, and it leaves
/// in free flight).
fn held_round(v: [f64; 2], n: [f64; 2], a: [f64; 2], rho: f64, tc: f64) -> bool {
    let (an, vn) = (dot(a, n), dot(v, n));
    let vt2 = (dot(v, v) - vn * vn).max(0.0);
    an < 0.0 && vn <= -an * tc && vt2 / rho < -an
}

/// Ball `i`'s velocity.
#[inline]
fn v_now(b: &Balls, i: usize) -> [f64; 2] {
    [b.vx[i], b.vy[i]]
}

/// Ball `i`'s speed along `n` set to zero, when it is more than round-off of its speed
/// (a rebuild then finds a resting ball as it left it). Returns whether it changed.
fn no_speed_into(b: &mut Balls, i: usize, n: [f64; 2]) -> bool {
    let (vx, vy) = (b.vx[i], b.vy[i]);
    let vn = vx * n[0] + vy * n[1];
    if vn.abs() > 4.0 * f64::EPSILON * vx.hypot(vy) {
        b.vx[i] -= vn * n[0];
        b.vy[i] -= vn * n[1];
        return true;
    }
    false
}

/// The resting contacts among `found` (see `Inner::touches_of`), grown until what they
/// leave of gravity `g` presses no other contact in (at most a few rounds: each adds
/// one), for a ball of velocity `v`; and the acceleration they leave.
fn resting(
    found: &[(Touched, [f64; 2], f64)],
    g: [f64; 2],
    v: [f64; 2],
    tc: f64,
) -> ([bool; 8], [f64; 2]) {
    let mut rests = [false; 8];
    let mut a = g;
    for _ in 0..found.len() + 1 {
        let mut ns = [[0.0; 2]; 8];
        let mut q = 0;
        for (k, f) in found.iter().enumerate() {
            if rests[k] {
                ns[q] = f.1;
                q += 1;
            }
        }
        a = constrained(g, &ns[..q]);
        let mut grew = false;
        for (k, &(kind, n, rho)) in found.iter().enumerate() {
            let (an, vn) = (dot(a, n), dot(v, n));
            let holds = match kind {
                Touched::Face(_) | Touched::Table(_) => an < 0.0 && vn <= -an * tc,
                // A point or the outside of an arc: left at once when the speed
                // round it needs more than the pull into it.
                Touched::Round(_) => held_round(v, n, a, rho, tc),
                // Inside an arc the wall pushes while the speed round it needs
                // more than gravity pulls the ball off it (`v^2 / rho > a . n`).
                Touched::Swing(_) => {
                    let vt2 = (dot(v, v) - vn * vn).max(0.0);
                    let push = vt2 / rho - an;
                    push > 0.0 && vn <= push * tc
                }
            };
            if !rests[k] && holds {
                rests[k] = true;
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    (rests, a)
}

/// What a ball touches, for the resting rules.
#[derive(Debug, Clone, Copy)]
enum Touched {
    /// A straight face (piece index): it can rest there and slide.
    Face(u32),
    /// One of the table's own walls (`Wall as u8`).
    Table(u8),
    /// A corner, an arc's end or the outside of an arc (the contact): a point or curve
    /// it would roll round.
    Round(crate::walls::Touch),
    /// The inside of an arc (the contact): it would swing along it.
    Swing(crate::walls::Touch),
}

impl Inner {
    /// Ball `i`'s acceleration while it rests on faces (and perhaps on the table's walls,
    /// `rest`'s low bits).
    pub(super) fn accel_on(&self, i: usize, rest: u8, g: [f64; 2]) -> [f64; 2] {
        let mut ns = [[0.0; 2]; 6];
        let mut m = 0;
        for w in Wall::ALL {
            if rest & (1 << w as u8) != 0 {
                ns[m] = w.normal();
                m += 1;
            }
        }
        let on = &self.on[i];
        for k in 0..2 {
            if on.piece[k] != NO_FACE {
                ns[m] = on.normal[k];
                m += 1;
            }
        }
        constrained(g, &ns[..m])
    }

    /// The time from now at which the centre of ball `i`, at `p` with velocity `v` and
    /// acceleration `a`, passes an end of a face it rests on.
    pub(super) fn face_end_in(
        &self,
        i: usize,
        p: [f64; 2],
        v: [f64; 2],
        a: [f64; 2],
    ) -> Option<f64> {
        let mut best: Option<f64> = None;
        for &k in &self.on[i].piece {
            if k == NO_FACE {
                continue;
            }
            let Shape::Segment { a: s0, b: s1 } = self.walls.pieces()[k as usize].shape else {
                continue;
            };
            let d = [s1[0] - s0[0], s1[1] - s0[1]];
            let len = d[0].hypot(d[1]);
            let u = [d[0] / len, d[1] / len];
            let s = dot([p[0] - s0[0], p[1] - s0[1]], u);
            let (vs, as_) = (dot(v, u), dot(a, u));
            // Distance left to each end, a quadratic in time that must not cross zero.
            let ends = [
                crate::times::first_exit(0.5 * as_, vs, s),
                crate::times::first_exit(-0.5 * as_, -vs, len - s),
            ];
            for t in ends.into_iter().flatten() {
                if best.is_none_or(|b| t < b) {
                    best = Some(t);
                }
            }
        }
        best
    }

    /// The pieces a resting ball's predictions pass over (its own faces: their ends are
    /// the face-end event).
    pub(super) fn faces_of(&self, i: usize) -> [u32; 2] {
        self.on.get(i).map_or([NO_FACE; 2], |o| o.piece)
    }

    /// Ball `i` rests on no face any more (taken out of play).
    pub(super) fn let_go(&mut self, i: usize) {
        if i < self.on.len() {
            self.set_on(i, OnFace::NONE);
        }
    }

    /// A failed step: every ball's faces as they were at the start of the interval.
    pub(super) fn put_faces_back(&mut self) {
        while let Some((i, on)) = self.on_undo.pop() {
            self.on[i as usize] = on;
        }
    }

    pub(super) fn set_on(&mut self, i: usize, on: OnFace) {
        if self.on[i] != on {
            self.on_undo.push((i as u32, self.on[i]));
            self.on[i] = on;
        }
    }

    /// Ball `i`, at cell `c`, under gravity `g`: which faces it rests on now, after an
    /// impact, a face's end, or at a rebuild (see the module's notes). A contact rests
    /// when the acceleration the ball keeps from its other resting contacts presses it
    /// in and its rebound would be back within `tc`; so a ball sliding down a slope
    /// rests against a vertical wall at its foot. While it rests on a face, the table's
    /// walls it touches are judged here too (their bits in `rest`); on none, they keep
    /// the table's own rule. A resting contact has the ball's speed into it set to zero
    /// (when that is more than round-off: a rebuild then finds a resting ball as it left
    /// it). Returns whether the ball's velocity or faces changed, or the wall
    /// (`[[walls]]` entry) it would turn round (not modelled).
    pub(super) fn settle_faces(
        &mut self,
        b: &mut Balls,
        i: usize,
        c: u32,
        laws: &Laws,
        rest: &mut u8,
    ) -> Result<bool, u32> {
        self.settle_faces_but(b, i, c, laws, rest, NO_FACE)
    }

    /// Every contact of ball `i` (in cell `c`) but piece `left`, at most eight: what it
    /// is, its normal towards the ball, and the distance to the point it would turn round.
    #[allow(clippy::type_complexity)]
    fn touches_of(
        &self,
        b: &Balls,
        i: usize,
        c: u32,
        table: &Table,
        left: u32,
    ) -> ([(Touched, [f64; 2], f64); 8], usize) {
        let p = [b.x[i], b.y[i]];
        let reach = b.r[i] * (1.0 + 1e-9);
        // Every contact: its normal towards the ball, what it is, and whether it rests.
        let mut found: [(Touched, [f64; 2], f64); 8] = [(Touched::Table(0), [0.0; 2], 0.0); 8];
        let mut m = 0;
        let (start, end) = (self.start[c as usize], self.start[c as usize + 1]);
        for idx in start..end {
            let k = self.items[idx as usize];
            if k & POCKET != 0 || k == left {
                continue;
            }
            let piece = self.walls.pieces()[k as usize];
            let Some(t) = piece.touch(k, p, reach) else {
                continue;
            };
            let kind = match (t.feature, piece.shape) {
                (Feature::Face, Shape::Segment { .. }) => Touched::Face(k),
                (Feature::Face, Shape::Arc { center, radius, .. }) => {
                    let d = (p[0] - center[0]).hypot(p[1] - center[1]);
                    if d < radius {
                        Touched::Swing(t)
                    } else {
                        Touched::Round(t)
                    }
                }
                _ => Touched::Round(t),
            };
            if m < found.len() {
                // The distance to the point turned round: a corner's, or the arc's
                // centre's for the outside of an arc.
                let rho = match (t.feature, piece.shape) {
                    (Feature::Face, Shape::Arc { center, .. }) => {
                        (p[0] - center[0]).hypot(p[1] - center[1])
                    }
                    _ => t.distance,
                };
                found[m] = (kind, t.normal, rho);
                m += 1;
            }
        }
        for w in Wall::ALL {
            if m < found.len() && touches_wall(b, table, i, w) {
                found[m] = (Touched::Table(w as u8), w.normal(), 0.0);
                m += 1;
            }
        }
        (found, m)
    }

    /// [`Inner::settle_faces`] passing over piece `left` (the face a ball has just
    /// left at its end, which round-off may still show it touching).
    fn settle_faces_but(
        &mut self,
        b: &mut Balls,
        i: usize,
        c: u32,
        laws: &Laws,
        rest: &mut u8,
        left: u32,
    ) -> Result<bool, u32> {
        let (g, tc, table) = (laws.gravity, laws.tc, &laws.table);
        if b.inv_m[i] == 0.0 || self.out.get(i).copied().unwrap_or(false) {
            return Ok(false);
        }
        let (found, m) = self.touches_of(b, i, c, table, left);
        let found = &found[..m];
        let v = [b.vx[i], b.vy[i]];
        let (mut rests, a) = resting(found, g, v, tc);
        let round = |k: usize| matches!(found[k].0, Touched::Round(_) | Touched::Swing(_));
        let count = |rests: &[bool; 8]| -> usize {
            rests[..found.len()].iter().map(|&r| usize::from(r)).sum()
        };
        if a != [0.0, 0.0] && count(&rests) > 1 {
            // Not wedged: a corner or an arc the final acceleration does not press into
            // is no resting contact (the ball moves away from it on its other ones).
            // (Not the contacts that shape it: `a` is along them, within round-off.)
            let tol = 1e-9 * g[0].hypot(g[1]);
            for k in 0..found.len() {
                if round(k) && dot(a, found[k].1) > tol {
                    rests[k] = false;
                }
            }
        }
        if count(&rests) == 1 {
            if let Some(k) = (0..found.len()).find(|&k| rests[k] && round(k)) {
                // Held by one corner or arc alone: it moves on a circle (`on_round.rs`),
                // on no face and no wall of the table.
                let (Touched::Round(t) | Touched::Swing(t)) = found[k].0 else {
                    return Ok(false);
                };
                *rest &= !ON_TABLE;
                return Ok(self.hold_round(b, i, t, found[k].1));
            }
        }
        let before = self.on[i];
        let mut on = OnFace::NONE;
        let mut q = 0;
        for (k, &(kind, n, _)) in found.iter().enumerate() {
            // A corner or an arc among two wedging contacts holds the ball at rest as a
            // face would: its normal is fixed while the ball does not move.
            let piece = match kind {
                Touched::Face(piece) => piece,
                Touched::Round(t) | Touched::Swing(t) => t.piece,
                Touched::Table(_) => continue,
            };
            if rests[k] {
                if q == 2 {
                    // A third contact at once: only a degenerate joint does that.
                    return Err(self.walls.pieces()[piece as usize].wall);
                }
                on.piece[q] = piece;
                on.normal[q] = n;
                q += 1;
            }
        }
        if q == 0 {
            // On no face: the table's walls keep their own rule, by which a ball an
            // impact with a wall inside the table sends off the floor rests there no more.
            let mut lifted = false;
            for w in Wall::ALL {
                let bit = 1 << w as u8;
                let (gn, vn) = (dot(g, w.normal()), dot(v_now(b, i), w.normal()));
                if *rest & bit != 0 && !(gn < 0.0 && vn <= -gn * tc) {
                    *rest &= !bit;
                    lifted = true;
                }
            }
            if !before.is_empty() {
                self.set_on(i, OnFace::NONE);
                return Ok(true);
            }
            return Ok(lifted);
        }
        let mut changed = false;
        // No speed into any resting contact; two of them span the plane.
        let mut first: Option<[f64; 2]> = None;
        let mut wedged = false;
        for (k, &(kind, n, _)) in found.iter().enumerate() {
            if !rests[k] {
                if let Touched::Table(w) = kind {
                    *rest &= !(1 << w);
                }
                continue;
            }
            if let Touched::Table(w) = kind {
                *rest |= 1 << w;
            }
            match first {
                None => first = Some(n),
                Some(f) => wedged |= (f[0] * n[1] - f[1] * n[0]).abs() > 1e-9,
            }
            changed |= no_speed_into(b, i, n);
        }
        if wedged && (b.vx[i], b.vy[i]) != (0.0, 0.0) {
            (b.vx[i], b.vy[i]) = (0.0, 0.0);
            changed = true;
        }
        // The same faces keep their normals as first found, so that a ball sliding
        // along a face keeps one constant acceleration.
        let same = on.piece.iter().all(|&k| k == NO_FACE || before.holds(k))
            && before.piece.iter().all(|&k| k == NO_FACE || on.holds(k));
        if !same {
            self.set_on(i, on);
            changed = true;
        }
        Ok(changed)
    }

    /// Ball `i` held on the circle of contact `t` (unit normal `n` towards it): its
    /// speed into the wall is set to zero (when more than round-off). Returns whether
    /// its velocity or its circle changed.
    fn hold_round(&mut self, b: &mut Balls, i: usize, t: crate::walls::Touch, n: [f64; 2]) -> bool {
        let p = [b.x[i], b.y[i]];
        let round = OnRound::of(self.walls.pieces(), t.piece, t.feature, t.point, p);
        let mut changed = no_speed_into(b, i, n);
        let before = self.on[i];
        let same = !before.has_faces()
            && before
                .round
                .is_some_and(|r| r.piece == round.piece && r.center == round.center);
        if !same {
            self.set_on(
                i,
                OnFace {
                    round: Some(round),
                    ..OnFace::NONE
                },
            );
            changed = true;
        }
        changed
    }

    /// Ball `i`, at a face's end: the faces whose segment its centre has left are let
    /// go. Then, as [`Inner::settle_faces`], what it touches now; if no face took over,
    /// the corner it left is judged as any corner is (it turns round it or flies off).
    pub(super) fn leave_faces(
        &mut self,
        b: &mut Balls,
        i: usize,
        c: u32,
        laws: &Laws,
        rest: &mut u8,
    ) -> Result<(), u32> {
        let (g, tc) = (laws.gravity, laws.tc);
        let p = [b.x[i], b.y[i]];
        let mut on = self.on[i];
        // Where along its segment the centre stands (0 and 1 its ends), per face. The
        // event came from the time a quadratic gave, so the face that ends is the one
        // within round-off of an end (or, should round-off put every face a hair
        // inside, the one nearest its end: the event is never lost).
        let pieces = self.walls.pieces();
        let along = on
            .piece
            .map(|k| match pieces.get(k as usize).map(|q| q.shape) {
                Some(Shape::Segment { a, b: e }) => {
                    let d = [e[0] - a[0], e[1] - a[1]];
                    dot([p[0] - a[0], p[1] - a[1]], d) / dot(d, d)
                }
                _ => f64::NAN,
            });
        let edge = |s: f64| s.min(1.0 - s);
        let nearest = if edge(along[1]) < edge(along[0]) {
            1
        } else {
            0
        };
        let mut corner: Option<([f64; 2], u32, u32, Feature)> = None;
        for (slot, &s) in along.iter().enumerate() {
            let k = on.piece[slot];
            if k == NO_FACE || !(edge(s) <= 1e-12 || slot == nearest) {
                continue;
            }
            let piece = self.walls.pieces()[k as usize];
            let Shape::Segment { a, b: e } = piece.shape else {
                continue;
            };
            on.piece[slot] = NO_FACE;
            corner = Some(if s < 0.5 {
                (a, piece.wall, k, Feature::Start)
            } else {
                (e, piece.wall, k, Feature::End)
            });
        }
        if on.piece[0] == NO_FACE && on.piece[1] != NO_FACE {
            on.piece.swap(0, 1);
            on.normal.swap(0, 1);
        }
        self.set_on(i, on);
        let left = corner.map_or(NO_FACE, |(_, _, k, _)| k);
        self.settle_faces_but(b, i, c, laws, rest, left)?;
        if let Some((q, _, k, feature)) = corner.filter(|_| self.on[i].is_empty()) {
            // What the table's walls it still rests on leave of gravity.
            let g = self.accel_on(i, *rest, g);
            let d = [p[0] - q[0], p[1] - q[1]];
            let dist = d[0].hypot(d[1]);
            let n = [d[0] / dist, d[1] / dist];
            let v = [b.vx[i], b.vy[i]];
            let vn = dot(v, n);
            if held_round(v, n, g, dist, tc) {
                // It rolls over the corner (`on_round.rs`). A joint of a polyline belongs
                // to the segment it starts, whose region is the wedge between the two.
                let (k, feature) = match (feature, self.walls.pieces()[k as usize].joint_after) {
                    (Feature::End, true) => (k + 1, Feature::Start),
                    _ => (k, feature),
                };
                let t = crate::walls::Touch {
                    piece: k,
                    wall: self.walls.pieces()[k as usize].wall,
                    feature,
                    point: q,
                    normal: n,
                    distance: dist,
                    tangent: [-n[1], n[0]],
                };
                self.hold_round(b, i, t, n);
                return Ok(());
            }
            // It leaves the corner along the tangent, its gap growing as tau^2: set a
            // part in 1e12 of a radius off the corner with no speed into it, so that the
            // round-off of where it stands cannot read as an impact at once.
            let want = b.r[i] * (1.0 + 1e-12);
            if dist < want {
                b.x[i] = q[0] + want * n[0];
                b.y[i] = q[1] + want * n[1];
            }
            if vn < 0.0 {
                b.vx[i] -= vn * n[0];
                b.vy[i] -= vn * n[1];
            }
        }
        Ok(())
    }
}

impl Event {
    /// Ball `ev.i`'s centre passes the end of a face it rests on (see the module's
    /// notes): it rests on what takes over, flies off, or the step fails at the corner.
    #[cold]
    #[inline(never)]
    pub(super) fn face_end(&mut self, b: &mut Balls, ev: Ev) {
        let i = ev.i as usize;
        if self.rec.t[i] <= self.clock.step_start {
            self.remember(b, i);
        }
        self.advance(b, i, ev.t);
        let c = self.cells.cell_of(i);
        let Some(inner) = self.inner.as_deref_mut() else {
            return;
        };
        let rest = &mut self.rec.hist[i].rest;
        let verdict = if inner.on[i].round.is_some() {
            inner.leave_round(b, i, c, &self.laws, rest)
        } else {
            inner.leave_faces(b, i, c, &self.laws, rest)
        };
        self.mark_faces(i);
        if let Err(wall) = verdict {
            self.guard.settled = self.guard.settled.or(Some((i as u32, wall)));
        }
        // Its parabola changed: every prediction made with the former one is stale.
        self.rec.counter[i] = self.rec.counter[i].wrapping_add(1);
        self.rec.hist[i].group = 0;
        self.predict(b, i, ev.t, true);
    }

    /// Under gravity, ball `i` after an impact of group `s` at `t0`: rests on faces,
    /// lifts off, or would turn round a corner (the step then fails after the group).
    pub(super) fn settle_on_faces<const CLOTH: bool>(
        &mut self,
        b: &mut Balls,
        i: usize,
        s: u32,
        t0: f64,
    ) {
        let c = self.cells.cell_of(i);
        let Some(inner) = self.inner.as_deref_mut() else {
            return;
        };
        let rest = &mut self.rec.hist[i].rest;
        match inner.settle_faces(b, i, c, &self.laws, rest) {
            Ok(changed) => {
                self.mark_faces(i);
                if changed && self.rec.hist[i].hit != s {
                    self.after_impact::<CLOTH>(b, i, s, t0);
                }
            }
            Err(wall) => self.guard.settled = self.guard.settled.or(Some((i as u32, wall))),
        }
    }

    /// The faces the balls of the group's contacts rest on, each one more contact of
    /// the impact (as the table's walls a ball rests on are): struck from above, a
    /// ball on a shelf is pushed back by it in the same instant, and a ball sliding down
    /// a slope into a wall meets both at once, as a concave corner. Returns whether any
    /// was added.
    pub(super) fn add_resting_faces(&mut self, bs: &Balls) -> bool {
        let Some(inner) = self.inner.as_deref() else {
            return false;
        };
        let pieces = self.solver.pieces_mut();
        pieces.clear();
        let n = self.scratch.contacts.len();
        for k in 0..n {
            let c = self.scratch.contacts[k];
            let balls = match c {
                Contact::Pair(i, j) => [Some(i), Some(j)],
                Contact::Wall(i, _) | Contact::Piece(i, _) => [Some(i), None],
            };
            for i in balls.into_iter().flatten() {
                let added = |c: &Contact| matches!(*c, Contact::Piece(b, _) if b == i);
                if self.rec.hist[i as usize].rest & HELD == 0
                    || self.scratch.contacts[n..].iter().any(added)
                {
                    continue;
                }
                let on = inner.on[i as usize];
                if let Some(round) = on.round {
                    // Its circle pushes back as a face would (no surface speed).
                    let surface = inner.walls.surfaces()[round.wall as usize];
                    let p = [bs.x[i as usize], bs.y[i as usize]];
                    pieces.push(PieceContact {
                        normal: round.normal(p),
                        restitution: surface.restitution.unwrap_or(self.laws.restitution),
                        mu: surface.mu.unwrap_or(self.laws.friction.mu),
                        surface: [0.0, 0.0],
                        wall: round.wall,
                    });
                    self.scratch
                        .contacts
                        .push(Contact::Piece(i, pieces.len() as u32 - 1));
                }
                for slot in 0..2 {
                    let k = on.piece[slot];
                    if k == NO_FACE {
                        continue;
                    }
                    let piece = inner.walls.pieces()[k as usize];
                    let wall = piece.wall;
                    let surface = inner.walls.surfaces()[wall as usize];
                    // The face's surface moves along it, from its first point on.
                    let along = match piece.shape {
                        Shape::Segment { a, b } => {
                            let d = [b[0] - a[0], b[1] - a[1]];
                            let len = d[0].hypot(d[1]);
                            let speed = surface.surface_velocity / len;
                            [speed * d[0], speed * d[1]]
                        }
                        Shape::Arc { .. } => [0.0, 0.0],
                    };
                    pieces.push(PieceContact {
                        normal: on.normal[slot],
                        restitution: surface.restitution.unwrap_or(self.laws.restitution),
                        mu: surface.mu.unwrap_or(self.laws.friction.mu),
                        surface: along,
                        wall,
                    });
                    self.scratch
                        .contacts
                        .push(Contact::Piece(i, pieces.len() as u32 - 1));
                }
            }
        }
        if pieces.is_empty() {
            return false;
        }
        self.scratch.contacts.sort_unstable();
        self.scratch.contacts.dedup();
        true
    }

    /// Sets ball `i`'s [`ON_FACE`] and [`ON_ROUND`] bits from its faces and circle, and
    /// lists it among the balls predicted afresh at every interval while it rests.
    pub(super) fn mark_faces(&mut self, i: usize) {
        let Some(inner) = self.inner.as_deref() else {
            return;
        };
        let on = inner.on[i];
        let was = self.rec.hist[i].rest & HELD;
        let bits = if on.has_faces() { ON_FACE } else { 0 }
            | if on.round.is_some() { ON_ROUND } else { 0 };
        if was == 0 && bits != 0 {
            self.quartic.push(i as u32);
        }
        self.rec.hist[i].rest = (self.rec.hist[i].rest & !HELD) | bits;
    }
}

impl Kin<'_> {
    /// The event of ball `i` reaching the end of a face it rests on, from the view
    /// `kin` (`None` when it rests on none or never gets there).
    #[inline(never)]
    pub(super) fn face_end_event(&self, i: usize) -> Option<Ev> {
        let kin = self;
        let inner = kin.inner?;
        let t_i = kin.t[i];
        let p = [kin.x[i], kin.y[i]];
        let v = [kin.vx[i], kin.vy[i]];
        let a = kin.accel(i);
        let tau = inner.face_end_in(i, p, v, a)?;
        Some(Ev {
            t: t_i + tau,
            i: i as u32,
            other: END_CODE,
            ci: kin.counter[i],
            cj: 0,
        })
    }
}
