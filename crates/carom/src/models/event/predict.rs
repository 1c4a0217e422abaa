//! Predictions: when a ball next meets a wall, a neighbour, or the side of its cell,
//! computed from the balls' stored states and local times without moving anything.

use super::cells::{Cells, Dir};
use super::motion::{accel_of, has_wall};
use super::queue::{Ev, CROSS, WALL};
use super::{times, MAX_PARTNERS, PARTNERS_OVERFLOW};
use crate::balls::Balls;
use crate::models::Wall;
use crate::table::Table;

/// Read-only view of the motion, for predictions (borrowed field by field so that the
/// queue can be pushed to at the same time).
pub(super) struct Kin<'a> {
    pub(super) b: &'a Balls,
    pub(super) t: &'a [f64],
    pub(super) counter: &'a [u32],
    pub(super) group: &'a [u32],
    pub(super) partners: &'a [[u32; MAX_PARTNERS]],
    pub(super) n_partners: &'a [u8],
    pub(super) rest: &'a [u8],
    pub(super) cells: &'a Cells,
    pub(super) table: &'a Table,
    pub(super) g: [f64; 2],
    /// No gravity: every ball moves in a straight line (the common case, worth its
    /// own shorter paths).
    pub(super) flat: bool,
    pub(super) horizon: f64,
}

macro_rules! kin {
    ($s:ident, $balls:expr) => {
        $crate::models::event::predict::Kin {
            b: $balls,
            t: &$s.t,
            counter: &$s.counter,
            group: &$s.group,
            partners: &$s.partners,
            n_partners: &$s.n_partners,
            rest: &$s.rest,
            cells: &$s.cells,
            table: &$s.table,
            g: $s.gravity,
            flat: $s.gravity == [0.0, 0.0],
            horizon: $s.horizon,
        }
    };
}

impl Kin<'_> {
    #[inline]
    pub(super) fn accel(&self, i: usize) -> [f64; 2] {
        if self.flat {
            return [0.0, 0.0];
        }
        accel_of(self.b.inv_m[i], self.rest[i], self.g)
    }

    /// Position and velocity of ball `i` at epoch time `t`, without moving it.
    /// (Always inlined: called for every neighbour, it is a few multiply-adds.)
    #[inline(always)]
    pub(super) fn state(&self, i: usize, t: f64) -> [f64; 4] {
        let tau = t - self.t[i];
        let b = self.b;
        if self.flat {
            return [
                b.x[i] + tau * b.vx[i],
                b.y[i] + tau * b.vy[i],
                b.vx[i],
                b.vy[i],
            ];
        }
        let a = self.accel(i);
        [
            b.x[i] + tau * (b.vx[i] + 0.5 * a[0] * tau),
            b.y[i] + tau * (b.vy[i] + 0.5 * a[1] * tau),
            b.vx[i] + a[0] * tau,
            b.vy[i] + a[1] * tau,
        ]
    }

    /// Whether `i` and `j` were resolved against each other in the collision group that
    /// last changed both: they separate, and cannot meet again on these trajectories
    /// through the image they touched through.
    #[inline]
    pub(super) fn just_collided(&self, i: usize, j: usize) -> bool {
        let g = self.group[i];
        if g == 0 || g != self.group[j] {
            return false;
        }
        let n = self.n_partners[i];
        n != PARTNERS_OVERFLOW && self.partners[i][..n as usize].contains(&(j as u32))
    }

    /// The next collision of `i` and `j` after `now`, if any, with ball `i`'s state at
    /// `now` already known (`si`), as when all of its neighbours are tried in turn.
    #[inline]
    pub(super) fn pair_from(&self, i: usize, si: &[f64; 4], j: usize, now: f64) -> Option<Ev> {
        let b = self.b;
        if b.inv_m[i] == 0.0 && b.inv_m[j] == 0.0 {
            return None;
        }
        let acc = if self.flat {
            [0.0, 0.0]
        } else {
            let (ai, aj) = (self.accel(i), self.accel(j));
            [aj[0] - ai[0], aj[1] - ai[1]]
        };
        let linear = acc == [0.0, 0.0];
        let sj = self.state(j, now);
        // Neighbouring cells are under half a periodic side apart, so the minimum image
        // is the one that can collide.
        let (px, py) = self.table.min_image(sj[0] - si[0], sj[1] - si[1]);
        let p = [px, py];
        let v = [sj[2] - si[2], sj[3] - si[3]];
        let sigma = b.r[i] + b.r[j];
        let tau = if linear {
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
            tau
        } else {
            // A kinematic or resting ball next to a flying one under gravity: quartic,
            // solved only up to the end of this interval; such balls are predicted afresh
            // at the start of every interval.
            let c = times::pair_quartic(p, v, acc, sigma);
            times::quartic_entry(&c, self.horizon - now, 1e-12 * sigma * sigma)?
        };
        Some(Ev {
            t: now + tau,
            i: i as u32,
            other: j as u32,
            ci: self.counter[i],
            cj: self.counter[j],
        })
    }

    /// The first wall ball `i` meets after `now` (kinematic balls ignore walls, a
    /// resting ball the walls it rests on).
    /// (`si`: the ball's state at `now`.)
    pub(super) fn wall(&self, i: usize, si: &[f64; 4], now: f64) -> Option<Ev> {
        if self.b.inv_m[i] == 0.0 {
            return None;
        }
        let [x, y, vx, vy] = *si;
        let r = self.b.r[i];
        let (w, h) = (self.table.width, self.table.height);
        if self.flat {
            // Straight lines: only the wall ahead on each axis can be met.
            let walls_x = !self.table.is_periodic(0);
            let walls_y = !self.table.is_periodic(1);
            let ex = linear_exit(vx, x - r, w - r - x, [walls_x, walls_x]);
            let ey = linear_exit(vy, y - r, h - r - y, [walls_y, walls_y]);
            let (tau, axis, hi) = earlier(ex, ey)?;
            let wall = [[Wall::Left, Wall::Right], [Wall::Top, Wall::Bottom]][axis][hi as usize];
            return Some(Ev {
                t: now + tau,
                i: i as u32,
                other: WALL + wall as u32,
                ci: self.counter[i],
                cj: 0,
            });
        }
        let [gx, gy] = self.accel(i);
        let (gx, gy) = (0.5 * gx, 0.5 * gy);
        // Gap to each wall as a function of time: a tau^2 + b tau + c.
        let gaps = [
            (Wall::Left, gx, vx, x - r),
            (Wall::Right, -gx, -vx, w - r - x),
            (Wall::Top, gy, vy, y - r),
            (Wall::Bottom, -gy, -vy, h - r - y),
        ];
        let mut best: Option<(f64, Wall)> = None;
        for (wall, a, b, c) in gaps {
            if self.rest[i] & (1 << wall as u8) != 0 || !has_wall(self.table, wall) {
                continue;
            }
            if let Some(tau) = times::first_exit(a, b, c) {
                if best.is_none_or(|(t, _)| tau < t) {
                    best = Some((tau, wall));
                }
            }
        }
        best.map(|(tau, wall)| Ev {
            t: now + tau,
            i: i as u32,
            other: WALL + wall as u32,
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
    pub(super) fn next_contact(
        &self,
        i: usize,
        si: &[f64; 4],
        now: f64,
        slack: f64,
        scratch: &mut Vec<Ev>,
        mut ties: impl FnMut(Ev),
    ) -> Ev {
        scratch.clear();
        scratch.extend(self.wall(i, si, now));
        self.cells.for_block(self.cells.cell_of(i), |j| {
            if j != i {
                scratch.extend(self.pair_from(i, si, j, now));
            }
        });
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

    /// When ball `i` (state `si` at `now`) next leaves its cell, and through which side.
    pub(super) fn cross(&self, i: usize, si: &[f64; 4], now: f64) -> Option<Ev> {
        let [x, y, vx, vy] = *si;
        let (bounds, open) = self.cells.bounds(self.cells.cell_of(i));
        if self.flat {
            // Straight lines: only the side ahead on each axis can be crossed.
            let ex = linear_exit(vx, x - bounds[0], bounds[1] - x, [open[0], open[1]]);
            let ey = linear_exit(vy, y - bounds[2], bounds[3] - y, [open[2], open[3]]);
            let (tau, axis, hi) = earlier(ex, ey)?;
            let dir = [[Dir::Left, Dir::Right], [Dir::Up, Dir::Down]][axis][hi as usize];
            return Some(Ev {
                t: now + tau,
                i: i as u32,
                other: CROSS + dir as u32,
                ci: self.counter[i],
                cj: 0,
            });
        }
        let [ax, ay] = self.accel(i);
        let sides = [
            (Dir::Left, 0.5 * ax, vx, x - bounds[0]),
            (Dir::Right, -0.5 * ax, -vx, bounds[1] - x),
            (Dir::Up, 0.5 * ay, vy, y - bounds[2]),
            (Dir::Down, -0.5 * ay, -vy, bounds[3] - y),
        ];
        let mut best: Option<(f64, Dir)> = None;
        for (k, (dir, a, b, c)) in sides.into_iter().enumerate() {
            if !open[k] {
                continue;
            }
            if let Some(tau) = times::first_exit(a, b, c) {
                if best.is_none_or(|(t, _)| tau < t) {
                    best = Some((tau, dir));
                }
            }
        }
        best.map(|(tau, dir)| Ev {
            t: now + tau,
            i: i as u32,
            other: CROSS + dir as u32,
            ci: self.counter[i],
            cj: 0,
        })
    }
}

/// Straight motion at speed `v` along one axis between a low and a high boundary, at
/// distances `gap_lo` and `gap_hi` (round-off may make one slightly negative): the time
/// until the boundary ahead is reached, and whether it is the high one. A boundary that
/// is not `open` is never reached. Agrees with [`times::first_exit`] without gravity.
#[inline]
fn linear_exit(v: f64, gap_lo: f64, gap_hi: f64, open: [bool; 2]) -> Option<(f64, bool)> {
    if v > 0.0 && open[1] {
        Some((if gap_hi <= 0.0 { 0.0 } else { gap_hi / v }, true))
    } else if v < 0.0 && open[0] {
        Some((if gap_lo <= 0.0 { 0.0 } else { gap_lo / -v }, false))
    } else {
        None
    }
}

/// The earlier of the exits along x and along y (x on a tie, as the general path
/// decides): its time, its axis and whether it is the high side.
#[inline]
fn earlier(ex: Option<(f64, bool)>, ey: Option<(f64, bool)>) -> Option<(f64, usize, bool)> {
    match (ex, ey) {
        (Some((tx, hx)), Some((ty, _))) if tx <= ty => Some((tx, 0, hx)),
        (_, Some((ty, hy))) => Some((ty, 1, hy)),
        (Some((tx, hx)), None) => Some((tx, 0, hx)),
        (None, None) => None,
    }
}
