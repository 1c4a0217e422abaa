//! Predictions: when a ball next meets a wall, a neighbour, or the side of its cell,
//! computed from the balls' stored states and local times without moving anything.

use super::cells::{Cells, Dir, GATHER};
use super::kinds::{self, END_CODE, HELD, NO_FACE, ON_FACE, ON_ROUND};
use super::motion::{accel_of, has_wall};
use super::queue::Ev;
use super::records::{History, PARTNERS_OVERFLOW};
use crate::models::Wall;
use crate::table::Table;
use crate::times;

/// Read-only view of the motion, for predictions (borrowed field by field so that the
/// queue can be pushed to at the same time).
///
/// Every per-ball array is sliced to the ball count when the view is made: indexing
/// one of them then proves the index for all the others, and a neighbour's reads carry
/// one bounds check instead of one per array. The table is held by value, so that its
/// sides and boundaries stay in registers across a loop over neighbours.
pub(super) struct Kin<'a> {
    pub(super) x: &'a [f64],
    pub(super) y: &'a [f64],
    pub(super) vx: &'a [f64],
    pub(super) vy: &'a [f64],
    pub(super) r: &'a [f64],
    pub(super) inv_m: &'a [f64],
    pub(super) t: &'a [f64],
    pub(super) counter: &'a [u32],
    pub(super) hist: &'a [History],
    pub(super) cells: &'a Cells,
    pub(super) table: Table,
    pub(super) g: [f64; 2],
    /// No gravity: every ball moves in a straight line (the common case, worth its
    /// own shorter paths).
    pub(super) flat: bool,
    pub(super) horizon: f64,
    /// Set when a pair's quartic is beyond what its root finder can be trusted with
    /// (see [`times::quartic_in_range`]): the step then fails instead of missing the
    /// collision.
    pub(super) overflow: &'a std::cell::Cell<bool>,
    /// Walls inside the table, pockets and open edges, if any.
    pub(super) inner: Option<&'a super::inner::Inner>,
    /// Cloth friction: each ball's acceleration and phase end (`on_cloth.rs`).
    pub(super) cloth: Option<&'a super::phases::OnCloth>,
}

macro_rules! kin {
    ($s:ident, $balls:expr) => {{
        let b: &$crate::balls::Balls = $balls;
        let n = $s.rec.t.len();
        $crate::models::event::predict::Kin {
            x: &b.x[..n],
            y: &b.y[..n],
            vx: &b.vx[..n],
            vy: &b.vy[..n],
            r: &b.r[..n],
            inv_m: &b.inv_m[..n],
            t: &$s.rec.t[..n],
            counter: &$s.rec.counter[..n],
            hist: &$s.rec.hist[..n],
            cells: &$s.cells,
            table: $s.laws.table,
            g: $s.laws.gravity,
            flat: $s.laws.flat,
            horizon: $s.clock.horizon,
            overflow: &$s.guard.overflow,
            inner: $s.inner.as_deref(),
            cloth: $s.cloth.as_deref(),
        }
    }};
}

impl Kin<'_> {
    #[inline]
    pub(super) fn accel(&self, i: usize) -> [f64; 2] {
        if self.flat {
            return [0.0, 0.0];
        }
        if let Some(cloth) = self.cloth {
            return cloth.acc[i];
        }
        let rest = self.hist[i].rest;
        if rest & ON_FACE != 0 {
            if let Some(inner) = self.inner {
                return inner.accel_on(i, rest, self.g);
            }
        }
        accel_of(self.inv_m[i], rest, self.g)
    }

    /// The epoch time up to which ball `i`'s parabola holds: its phase's end on cloth,
    /// else for ever.
    #[inline]
    pub(super) fn valid_until(&self, i: usize) -> f64 {
        self.cloth.map_or(f64::INFINITY, |c| c.end[i])
    }

    /// The end of ball `i`'s phase as one of its events, if a phase ends (cloth), or
    /// the end of the face it rests on (`on_face.rs`; the same slot: cloth and gravity in
    /// the table's plane never meet).
    #[inline]
    fn phase_end(&self, i: usize) -> Option<Ev> {
        let Some(cloth) = self.cloth else {
            if self.hist[i].rest & ON_ROUND != 0 {
                return self.round_end_event(i);
            }
            return self.face_end_event(i);
        };
        let t = cloth.end[i];
        t.is_finite().then(|| Ev {
            t,
            i: i as u32,
            other: END_CODE,
            ci: self.counter[i],
            cj: 0,
        })
    }

    /// Position and velocity of ball `i` at epoch time `t`, without moving it.
    /// (Always inlined: called for every neighbour, it is a few multiply-adds.)
    #[inline(always)]
    pub(super) fn state(&self, i: usize, t: f64) -> [f64; 4] {
        let tau = t - self.t[i];
        if self.flat {
            return [
                self.x[i] + tau * self.vx[i],
                self.y[i] + tau * self.vy[i],
                self.vx[i],
                self.vy[i],
            ];
        }
        if self.hist[i].rest & ON_ROUND != 0 {
            if let Some(s) = self.round_state(i, t) {
                return s;
            }
        }
        self.on_parabola(i, tau)
    }

    /// Ball `i`'s state `tau` after its stored one, on its parabola (a ball known not
    /// to be on a circle).
    #[inline(always)]
    fn on_parabola(&self, i: usize, tau: f64) -> [f64; 4] {
        let a = self.accel(i);
        [
            self.x[i] + tau * (self.vx[i] + 0.5 * a[0] * tau),
            self.y[i] + tau * (self.vy[i] + 0.5 * a[1] * tau),
            self.vx[i] + a[0] * tau,
            self.vy[i] + a[1] * tau,
        ]
    }

    /// Whether `i` and `j` were resolved against each other in the collision group that
    /// last changed both: they separate, and cannot meet again on these trajectories
    /// through the image they touched through.
    #[inline]
    pub(super) fn just_collided(&self, i: usize, j: usize) -> bool {
        let g = self.hist[i].group;
        if g == 0 || g != self.hist[j].group {
            return false;
        }
        let n = self.hist[i].n_partners;
        n != PARTNERS_OVERFLOW && self.hist[i].partners[..n as usize].contains(&(j as u32))
    }

    /// The next collision of `i` and `j` after `now`, if any, with ball `i`'s state at
    /// `now` already known (`si`), as when all of its neighbours are tried in turn.
    #[inline]
    pub(super) fn pair_from(&self, i: usize, si: &[f64; 4], j: usize, now: f64) -> Option<Ev> {
        if self.flat {
            let t = self.pair_line_time(i, si, self.inv_m[i] == 0.0, self.r[i], j, now)?;
            return Some(self.pair_event(i, j, t));
        }
        if self.inv_m[i] == 0.0 && self.inv_m[j] == 0.0 {
            return None;
        }
        if (self.hist[i].rest | self.hist[j].rest) & ON_ROUND != 0 {
            return self.round_pair(i, j, now);
        }
        let acc = if self.flat {
            [0.0, 0.0]
        } else {
            let (ai, aj) = (self.accel(i), self.accel(j));
            [aj[0] - ai[0], aj[1] - ai[1]]
        };
        let linear = acc == [0.0, 0.0];
        let sj = self.on_parabola(j, now - self.t[j]);
        // Neighbouring cells are under half a periodic side apart, so the minimum image
        // is the one that can collide.
        let (px, py) = self.table.min_image(sj[0] - si[0], sj[1] - si[1]);
        let p = [px, py];
        let v = [sj[2] - si[2], sj[3] - si[3]];
        let sigma = self.r[i] + self.r[j];
        // On cloth, a touching pair neither closing nor separating but by round-off.
        let sliding_past = self.cloth.is_some() && touching_slide(p, v, sigma);
        let tau = if linear {
            if sliding_past {
                // Without a relative acceleration they part (the gap grows as t^2).
                return None;
            }
            let tau = times::pair_time(p[0], p[1], v[0], v[1], sigma)?;
            // Asked only of a pair that would meet (most neighbours are receding or
            // miss): the partner's group and partner list are then not loaded at all.
            // The exclusion is for the root round-off finds while the two are still in
            // contact: once apart, balls that separated cannot approach again through
            // the same image, so a root then is a genuine meeting through another
            // image (on a periodic axis two fast balls can go round the box and meet
            // again with nothing in between).
            let still_touching = p[0] * p[0] + p[1] * p[1] <= sigma * sigma * (1.0 + 1e-6);
            if still_touching && self.just_collided(i, j) {
                return None;
            }
            // On cloth, not beyond either ball's phase: the one whose phase ends first
            // predicts its neighbours afresh then.
            if self.cloth.is_some() && now + tau > self.valid_until(i).min(self.valid_until(j)) {
                return None;
            }
            tau
        } else {
            // A kinematic or resting ball next to a flying one under gravity: quartic,
            // solved only up to the end of this interval; such balls are predicted afresh
            // at the start of every interval. On cloth (balls in different phases), up
            // to the earlier of the two phase ends, which is finite (an acceleration
            // belongs to a phase that ends).
            let horizon = if self.cloth.is_some() {
                self.valid_until(i).min(self.valid_until(j))
            } else {
                self.horizon
            };
            let mut c = times::pair_quartic(p, v, acc, sigma);
            if sliding_past {
                c[1] = 0.0;
            }
            if !times::quartic_in_range(&c, horizon - now) {
                self.overflow.set(true);
                return None;
            }
            if !sliding_past && times::stays_apart(p, v, acc, sigma, horizon - now) {
                return None;
            }
            times::quartic_entry(&c, horizon - now, 1e-12 * sigma * sigma)?
        };
        Some(self.pair_event(i, j, now + tau))
    }

    /// When `i` and `j` next meet along straight lines (no gravity), the common case:
    /// [`Kin::pair_from`]'s arithmetic, operation for operation, so the same time to
    /// the last bit; small enough to inline into the loops over neighbours, with ball
    /// `i`'s own data (whether it is kinematic, its radius) read once for all of them.
    #[inline(always)]
    pub(super) fn pair_line_time(
        &self,
        i: usize,
        si: &[f64; 4],
        kinematic_i: bool,
        r_i: f64,
        j: usize,
        now: f64,
    ) -> Option<f64> {
        if kinematic_i && self.inv_m[j] == 0.0 {
            return None;
        }
        let tau_j = now - self.t[j];
        let (xj, yj) = (
            self.x[j] + tau_j * self.vx[j],
            self.y[j] + tau_j * self.vy[j],
        );
        let (px, py) = self.table.min_image(xj - si[0], yj - si[1]);
        let (vx, vy) = (self.vx[j] - si[2], self.vy[j] - si[3]);
        let sigma = r_i + self.r[j];
        let tau = times::pair_time(px, py, vx, vy, sigma)?;
        // As in `pair_from`: the partner's records are read only for a pair that
        // would meet while still touching.
        let still_touching = px * px + py * py <= sigma * sigma * (1.0 + 1e-6);
        if still_touching && self.just_collided(i, j) {
            return None;
        }
        Some(now + tau)
    }

    /// The event of `i` meeting `j` at `t`, stamped with both balls' counters.
    #[inline(always)]
    pub(super) fn pair_event(&self, i: usize, j: usize, t: f64) -> Ev {
        Ev {
            t,
            i: i as u32,
            other: j as u32,
            ci: self.counter[i],
            cj: self.counter[j],
        }
    }

    /// The first wall ball `i` meets after `now` (kinematic balls ignore walls, a
    /// resting ball the walls it rests on).
    /// (`si`: the ball's state at `now`.)
    #[inline(always)]
    pub(super) fn wall(&self, i: usize, si: &[f64; 4], now: f64) -> Option<Ev> {
        if self.inv_m[i] == 0.0 {
            return None;
        }
        let table = if self.flat {
            self.wall_line(i, si, now)
        } else if self.hist[i].rest & ON_ROUND != 0 {
            return self.round_walls(i, now);
        } else {
            self.wall_curve(i, si, now)
        };
        match self.inner {
            None => table,
            Some(inner) => self.inner_wall(inner, i, si, now, table),
        }
    }

    /// The earliest event of ball `i` with the walls inside the table, pockets and open
    /// edges alone (for a ball entering a new cell).
    #[inline(never)]
    pub(super) fn inner_only(
        &self,
        inner: &super::inner::Inner,
        i: usize,
        si: &[f64; 4],
        now: f64,
    ) -> Option<Ev> {
        if self.hist[i].rest & ON_ROUND != 0 {
            return self.round_walls(i, now);
        }
        self.inner_wall(inner, i, si, now, None)
    }

    /// [`Kin::wall`] with the walls inside the table, pockets and open edges: the
    /// earlier of `table` (the table's own walls) and theirs.
    #[inline(never)]
    fn inner_wall(
        &self,
        inner: &super::inner::Inner,
        i: usize,
        si: &[f64; 4],
        now: f64,
        table: Option<Ev>,
    ) -> Option<Ev> {
        let f = crate::walls::impact::Flight {
            p: [si[0], si[1]],
            v: [si[2], si[3]],
            a: self.accel(i),
        };
        let horizon = if f.is_line() {
            f64::INFINITY
        } else if self.cloth.is_some() {
            // On cloth, up to the end of the ball's phase (then it is predicted afresh).
            self.valid_until(i) - now
        } else {
            self.horizon - now
        };
        // A ball resting on a face does not meet it: its ends are its face-end event.
        let skip = if self.hist[i].rest & ON_FACE != 0 {
            inner.faces_of(i)
        } else {
            [NO_FACE; 2]
        };
        let Some((tau, code)) =
            inner.next(now, self.cells.cell_of(i), &f, self.r[i], horizon, skip)
        else {
            return table;
        };
        let t = now + tau;
        if table.is_some_and(|e| e.t <= t) {
            return table;
        }
        Some(Ev {
            t,
            i: i as u32,
            other: kinds::wall(code),
            ci: self.counter[i],
            cj: 0,
        })
    }

    /// [`Kin::wall`] along a straight line: only the wall ahead on each axis can be met.
    #[inline(always)]
    fn wall_line(&self, i: usize, si: &[f64; 4], now: f64) -> Option<Ev> {
        let [x, y, vx, vy] = *si;
        let r = self.r[i];
        let (w, h) = (self.table.width, self.table.height);
        let walls_x = self.table.has_walls(0);
        let walls_y = self.table.has_walls(1);
        let ex = linear_exit(vx, x - r, w - r - x, [walls_x, walls_x]);
        let ey = linear_exit(vy, y - r, h - r - y, [walls_y, walls_y]);
        let codes = [[Wall::Left, Wall::Right], [Wall::Top, Wall::Bottom]]
            .map(|a| a.map(|w| kinds::wall(w as usize)));
        self.exit_event(i, now, ex, ey, codes)
    }

    /// The event of ball `i` leaving by the earlier of the exits `ex` and `ey`
    /// (found at `now`), coded `codes[axis][high side]`.
    #[inline(always)]
    fn exit_event(
        &self,
        i: usize,
        now: f64,
        ex: Exit,
        ey: Exit,
        codes: [[u32; 2]; 2],
    ) -> Option<Ev> {
        let (tau, axis, hi) = earlier(ex, ey)?;
        Some(Ev {
            t: now + tau,
            i: i as u32,
            other: codes[axis][hi as usize],
            ci: self.counter[i],
            cj: 0,
        })
    }

    /// [`Kin::wall`] under gravity: each wall's gap is a quadratic in time.
    #[inline(never)]
    fn wall_curve(&self, i: usize, si: &[f64; 4], now: f64) -> Option<Ev> {
        let [x, y, vx, vy] = *si;
        let r = self.r[i];
        let (w, h) = (self.table.width, self.table.height);
        let [gx, gy] = self.accel(i);
        let (gx, gy) = (0.5 * gx, 0.5 * gy);
        // Gap to each wall as a function of time: a tau^2 + b tau + c, in the order
        // left, right, top, bottom.
        let taus = times::first_exits(
            [gx, -gx, gy, -gy],
            [vx, -vx, vy, -vy],
            [x - r, w - r - x, y - r, h - r - y],
        );
        let walls = [Wall::Left, Wall::Right, Wall::Top, Wall::Bottom];
        // The earliest wall, the first of equals; an infinite time is no impact.
        let mut best = (f64::INFINITY, Wall::Left);
        for (wall, tau) in walls.into_iter().zip(taus) {
            if self.hist[i].rest & (1 << wall as u8) != 0 || !has_wall(&self.table, wall) {
                continue;
            }
            if tau < best.0 {
                best = (tau, wall);
            }
        }
        (best.0 < f64::INFINITY).then(|| Ev {
            t: now + best.0,
            i: i as u32,
            other: kinds::wall(best.1 as usize),
            ci: self.counter[i],
            cj: 0,
        })
    }

    /// Ball `i`'s earliest collision with a wall or a neighbour after `now`
    /// (`Ev::NONE` if none). Other collisions due within `slack` of it go to `ties`:
    /// near-ties are all kept, so that a simultaneous impact is seen whole.
    ///
    /// Only the earliest is scheduled: a later collision of `i` can only come once this
    /// one has fired (then `i` predicts afresh) or gone stale because the partner
    /// changed course (then it comes due stale and `i` predicts afresh), while a partner
    /// that changes course predicts its own earliest, which includes `i` when it should.
    // (Always inlined: with the event loop built in two versions (`isa.rs`) it has
    // twice the callers, and the optimiser would otherwise leave it as a call.)
    #[inline(always)]
    pub(super) fn next_contact(
        &self,
        i: usize,
        si: &[f64; 4],
        now: f64,
        slack: f64,
        scratch: &mut Vec<Ev>,
        ties: impl FnMut(Ev),
    ) -> Ev {
        if self.on_sliding_row(i) {
            // Next to a sheared box's sliding edge (`sliding.rs`).
            return self.next_contact_sliding(i, si, now, slack, scratch, ties);
        }
        if self.flat {
            if let Some(e) = self.next_contact_line(i, si, now, slack) {
                return e;
            }
        }
        scratch.clear();
        scratch.extend(self.wall(i, si, now));
        if self.cloth.is_some() || self.hist[i].rest & HELD != 0 {
            scratch.extend(self.phase_end(i));
        }
        let c = self.cells.cell_of(i);
        if self.flat {
            // The block's balls gathered first (see `Cells::gather_block`), then the
            // whole prediction of each pair inlined into one plain loop.
            let (kinematic_i, r_i) = (self.inv_m[i] == 0.0, self.r[i]);
            let mut near = [0u32; GATHER];
            if let Some(n) = self.cells.gather_block(c, &mut near) {
                for &j in &near[..n] {
                    let j = j as usize;
                    if j != i {
                        if let Some(t) = self.pair_line_time(i, si, kinematic_i, r_i, j, now) {
                            scratch.push(self.pair_event(i, j, t));
                        }
                    }
                }
            } else {
                // A block too crowded to gather: the lists walked one ball at a time.
                self.cells.for_block(c, |j| {
                    if j != i {
                        let t = self.pair_line_time(i, si, kinematic_i, r_i, j, now);
                        scratch.extend(t.map(|t| self.pair_event(i, j, t)));
                    }
                });
            }
        } else {
            self.cells.for_block(c, |j| {
                if j != i {
                    scratch.extend(self.pair_from(i, si, j, now));
                }
            });
        }
        earliest(scratch, slack, ties)
    }

    /// [`Kin::next_contact`] along straight lines when no other collision comes near
    /// the earliest (in a gas, always): one pass over the gathered block keeping the
    /// earliest time, its partner and the runner-up's time as plain numbers, and the
    /// event made once at the end. The same candidates in the same order, so the same
    /// choice to the bit. `None` when the block is too crowded to gather, or when the
    /// runner-up is a near-tie (a rack, a cradle): then the general path lists them all.
    #[inline(always)]
    fn next_contact_line(&self, i: usize, si: &[f64; 4], now: f64, slack: f64) -> Option<Ev> {
        let mut near = [0u32; GATHER];
        let n = self.cells.gather_block(self.cells.cell_of(i), &mut near)?;
        self.earliest_line(i, si, now, slack, &near[..n])
    }

    /// [`Kin::next_contact_line`] over a block already gathered (`near`).
    #[inline(always)]
    pub(super) fn earliest_line(
        &self,
        i: usize,
        si: &[f64; 4],
        now: f64,
        slack: f64,
        near: &[u32],
    ) -> Option<Ev> {
        let (mut t, mut other) = (f64::INFINITY, kinds::NO_PARTNER);
        // The earliest time among the candidates other than the earliest, and how
        // many candidates there were.
        let mut runner_up = f64::INFINITY;
        let mut count = 0u32;
        // Selections, not branches: whether a neighbour beats the earliest so far is
        // a coin toss to a branch predictor. (Times are never NaN here; if one were,
        // it would be passed over, as the general path passes over it.)
        let mut offer = |tk: f64, k: u32| {
            count += 1;
            let earlier = tk < t;
            let later = if earlier { t } else { tk };
            runner_up = if later < runner_up { later } else { runner_up };
            t = if earlier { tk } else { t };
            other = if earlier { k } else { other };
        };
        if let Some(e) = self.wall(i, si, now) {
            offer(e.t, e.other);
        }
        let (kinematic_i, r_i) = (self.inv_m[i] == 0.0, self.r[i]);
        for &j in near {
            if j as usize != i {
                if let Some(tj) = self.pair_line_time(i, si, kinematic_i, r_i, j as usize, now) {
                    offer(tj, j);
                }
            }
        }
        if count == 0 {
            return Some(Ev::NONE);
        }
        // A near-tie, or no finite time at all: the general path decides.
        if runner_up <= t + slack.max(16.0 * f64::EPSILON * t.abs()) || other == kinds::NO_PARTNER {
            return None;
        }
        Some(Ev {
            t,
            i: i as u32,
            other,
            ci: self.counter[i],
            cj: if kinds::is_ball(other) {
                self.counter[other as usize]
            } else {
                0
            },
        })
    }

    /// When ball `i` (state `si` at `now`) next leaves its cell, and through which side.
    #[inline(always)]
    pub(super) fn cross(&self, i: usize, si: &[f64; 4], now: f64) -> Option<Ev> {
        if self.flat {
            return self.cross_line(i, si, now);
        }
        self.cross_curve(i, si, now)
    }

    /// [`Kin::cross`] along a straight line: only the side ahead on each axis can be
    /// crossed.
    #[inline(always)]
    fn cross_line(&self, i: usize, si: &[f64; 4], now: f64) -> Option<Ev> {
        let [x, y, vx, vy] = *si;
        let (cx, cy) = self.cells.coords(self.cells.cell_of(i));
        let (lo_x, hi_x, open_x) = self.cells.sides(x, cx, 0);
        let (lo_y, hi_y, open_y) = self.cells.sides(y, cy, 1);
        let ex = linear_exit(vx, lo_x, hi_x, open_x);
        let ey = linear_exit(vy, lo_y, hi_y, open_y);
        let codes = [[Dir::Left, Dir::Right], [Dir::Up, Dir::Down]]
            .map(|a| a.map(|d| kinds::cross(d as u32)));
        self.exit_event(i, now, ex, ey, codes)
    }

    /// [`Kin::cross`] under gravity: each side's gap is a quadratic in time.
    #[inline(never)]
    fn cross_curve(&self, i: usize, si: &[f64; 4], now: f64) -> Option<Ev> {
        if self.hist[i].rest & ON_ROUND != 0 {
            return self.round_cross(i, now);
        }
        let [x, y, vx, vy] = *si;
        let (bounds, open) = self.cells.bounds(self.cells.cell_of(i));
        let [ax, ay] = self.accel(i);
        // Each side's gap a tau^2 + b tau + c, in the order left, right, up, down.
        let taus = times::first_exits(
            [0.5 * ax, -0.5 * ax, 0.5 * ay, -0.5 * ay],
            [vx, -vx, vy, -vy],
            [x - bounds[0], bounds[1] - x, y - bounds[2], bounds[3] - y],
        );
        // The earliest side, the first of equals; an infinite time is no exit.
        let mut best = (f64::INFINITY, 0);
        for k in 0..4 {
            let tau = if open[k] { taus[k] } else { f64::INFINITY };
            if tau < best.0 {
                best = (tau, k);
            }
        }
        let dirs = [Dir::Left, Dir::Right, Dir::Up, Dir::Down];
        (best.0 < f64::INFINITY).then(|| Ev {
            t: now + best.0,
            i: i as u32,
            other: kinds::cross(dirs[best.1] as u32),
            ci: self.counter[i],
            cj: 0,
        })
    }
}

/// On cloth: whether two balls touch (within round-off) with a relative velocity `v`
/// along their line of centres `p` that is round-off (left so by an impact: they neither
/// close nor separate, as when a rack ball slides past its neighbour). That part of `v`
/// is then taken as zero: a round-off approach would be a collision now that the
/// impact's own test (which sees no approach) never resolves, predicted again at once,
/// for ever. So the pair meets now only if the cloth presses it together (a soft
/// impact, `soft.rs`). A real approach is far above the bound (1e-12 of the relative
/// speed).
#[inline]
fn touching_slide(p: [f64; 2], v: [f64; 2], sigma: f64) -> bool {
    let pp = p[0] * p[0] + p[1] * p[1];
    let pv = p[0] * v[0] + p[1] * v[1];
    pp <= sigma * sigma * (1.0 + 1e-9) && pv.abs() <= 1e-12 * sigma * v[0].hypot(v[1])
}

/// A straight exit along one axis: after how long, through which side (the high one
/// if `hi`), and whether there is one at all (`ok`).
#[derive(Debug, Clone, Copy)]
pub(super) struct Exit {
    tau: f64,
    hi: bool,
    ok: bool,
}

/// Straight motion at speed `v` along one axis between a low and a high boundary, at
/// distances `gap_lo` and `gap_hi` (round-off may make one slightly negative): the time
/// until the boundary ahead is reached, and whether it is the high one. A boundary that
/// is not `open` is never reached. Agrees with [`times::first_exit`] without gravity.
///
/// Written with selects, not branches: the sign of a ball's velocity is a coin toss
/// to a branch predictor. (The division is done even when there is no exit; its
/// result is then not used.)
#[inline(always)]
fn linear_exit(v: f64, gap_lo: f64, gap_hi: f64, open: [bool; 2]) -> Exit {
    let hi = v > 0.0;
    let ok = (hi & open[1]) | ((v < 0.0) & open[0]);
    let gap = if hi { gap_hi } else { gap_lo };
    // `|v|` is `v` going up and `-v` going down, exactly.
    let tau = if gap <= 0.0 { 0.0 } else { gap / v.abs() };
    Exit { tau, hi, ok }
}

/// The earlier of the exits along x and along y (x on a tie, as the general path
/// decides): its time, its axis and whether it is the high side.
#[inline(always)]
fn earlier(ex: Exit, ey: Exit) -> Option<(f64, usize, bool)> {
    if !(ex.ok | ey.ok) {
        return None;
    }
    let take_x = ex.ok & (!ey.ok | (ex.tau <= ey.tau));
    Some(if take_x {
        (ex.tau, 0, ex.hi)
    } else {
        (ey.tau, 1, ey.hi)
    })
}

/// The earliest of the candidate events in `scratch`, and every other one within
/// `slack` of it (at least a few ulps of its time) handed to `ties`: contacts that
/// close together are resolved as one simultaneous impact.
pub(super) fn earliest(scratch: &[Ev], slack: f64, mut ties: impl FnMut(Ev)) -> Ev {
    let mut first = Ev::NONE;
    for e in scratch.iter() {
        if e.t < first.t {
            first = *e;
        }
    }
    if scratch.len() > 1 {
        let limit = first.t + slack.max(16.0 * f64::EPSILON * first.t.abs());
        for e in scratch.iter() {
            if e.t <= limit && (e.t, e.other) != (first.t, first.other) {
                ties(*e);
            }
        }
    }
    first
}
