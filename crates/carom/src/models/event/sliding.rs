//! A sheared periodic box (Lees-Edwards) in the event model.
//!
//! The copy of the box across the y edge is displaced in x by the shift
//! `s(t) = s0 + G height t` (modulo the width) and moves at `G height` relative to the
//! box. The model keeps its own clock of the shift (`Event::shear_base`, the shift at
//! epoch 0, moved with the epoch) and sets the table's `shift` to `s(t)` before each
//! event at `t`, so that every minimum image taken at an event is the image at that
//! instant. The image of ball `j` across the edge is then a ball moving on a straight
//! line too (position `x_j -+ s(t)`, velocity `vx_j -+ G height`), and the time a pair
//! meets across the edge is a root of the same quadratic as any other pair's.
//!
//! Neighbour search across the sliding edge: the cells across it are displaced by a
//! shift that changes all the time, so a ball in the first or last row of cells takes
//! as neighbours across the edge every cell of the opposite row (`Cells::
//! for_sliding_block`). That is right at any shift with no further event; the price is
//! a row of cells, not a 3x3 block, for the balls of two rows out of `ny` (at 10^4
//! disks and area fraction 0.5, about 2% of the balls, each with ~60 candidates
//! instead of ~6). The other choice, a window of three columns around the current
//! shift with an extra event each time the shift moves it by a cell, costs an event
//! per cell of slide for every edge-row ball and a subtle invariant; the whole row is
//! simpler to get exactly right, which comes first.
//!
//! Over a prediction's life an image across the edge slides along x, so the image
//! that meets ball `i` need not be the nearest one now: the images `x_j + k width`
//! pass `i` one after the other ([`sliding_pair_time`] takes the first that meets it).
//!
//! A ball crossing the y edge wraps with `x -+ s(t)` and `vx -+ G height` (lab-frame
//! velocities are stored, as in `spring`), is filed in the cell it lands in, and is
//! predicted afresh. An impact across the edge is resolved in a common frame: each
//! ball of the cluster is given the velocity of the copy through which it touches the
//! others (`in_common_frame`), the impact solved as in any box, and the copies'
//! velocities taken off again. The virial takes the image separation, as every pair
//! does. What the event model cannot run in a sheared box is refused by name
//! (`sheared::check`, `Event::with_walls`, `World::set_compress`).

use super::cells::Dir;
use super::predict::Kin;
use super::queue::Ev;
use super::state::Event;
use crate::balls::Balls;
use crate::models::Contact;
use crate::table::Table;
use crate::times;

/// How many images of a pair across the sliding edge a prediction tries at most. The
/// images pass ball `i` at intervals `width / |vx|` (`width` > 2 `sigma`); the first
/// to pass `x = 0` while the pair is within `sigma` in y meets it, so within three
/// tries a meeting is found or the pair is out of reach in y. The cap guards against
/// a loop that NaNs would otherwise leave unbounded.
const MAX_IMAGES: u32 = 64;

/// The earliest `tau >= 0` at which a pair at relative position `(px, py)` (the
/// minimum image now: `|px| <= width / 2`) and relative velocity `(vx, vy)` touches
/// through any of the x images `px + k width`; with `skip_nearest`, not through the
/// nearest (`k = 0`, one just resolved and still touching).
///
/// With `vx > 0` (mirrored otherwise: the pair time is unchanged by `x -> -x`) the
/// images move to larger x and are within `sigma` of ball `i` in x during the disjoint
/// spans `[(-sigma - px - k w) / vx, (sigma - px - k w) / vx]`, in order of decreasing
/// `k`; in y the pair is within `sigma` during `[ta, tb]`. The first image in that
/// order whose quadratic has a root is the earliest meeting. The search starts at the
/// image whose x span ends at `ta` or later (one before it, for round-off) and stops
/// once an image's x span starts after `tb`.
pub(super) fn sliding_pair_time(
    px: f64,
    py: f64,
    vx: f64,
    vy: f64,
    sigma: f64,
    width: f64,
    skip_nearest: bool,
) -> Option<f64> {
    if vx == 0.0 {
        // No slide: only the nearest image comes within sigma in x (width > 2 sigma).
        return if skip_nearest {
            None
        } else {
            times::pair_time(px, py, vx, vy, sigma)
        };
    }
    let (px, vx) = if vx < 0.0 { (-px, -vx) } else { (px, vx) };
    let (ta, tb) = if vy == 0.0 {
        if py.abs() >= sigma {
            return None;
        }
        (0.0, f64::INFINITY)
    } else {
        let (a, b) = ((-sigma - py) / vy, (sigma - py) / vy);
        (a.min(b), a.max(b))
    };
    // (A NaN returns too.)
    if tb.is_nan() || tb <= 0.0 {
        return None;
    }
    let ta = ta.max(0.0);
    let first = ((sigma - px - vx * ta) / width).floor() + 1.0;
    if !first.is_finite() {
        return None;
    }
    let mut k = first;
    for tries in 0..MAX_IMAGES {
        let x = px + k * width;
        if tries >= 2 && (-sigma - x) / vx > tb {
            return None;
        }
        if !(skip_nearest && k == 0.0) {
            if let Some(tau) = times::pair_time(x, py, vx, vy, sigma) {
                return Some(tau);
            }
        }
        k -= 1.0;
    }
    None
}

impl Kin<'_> {
    /// Whether ball `i` is filed in the first or last row of cells of a sheared box,
    /// where its neighbours across the sliding edge are a whole row.
    #[inline(always)]
    pub(super) fn on_sliding_row(&self, i: usize) -> bool {
        self.table.is_sheared() && self.cells.on_y_edge(self.cells.cell_of(i))
    }

    /// When `i` (state `si` at `now`) and `j` next meet, in a sheared box (straight
    /// lines): across the sliding edge through whichever x image meets first
    /// ([`sliding_pair_time`]), within the box as in any periodic box.
    pub(super) fn sliding_pair(&self, i: usize, si: &[f64; 4], j: usize, now: f64) -> Option<f64> {
        if self.inv_m[i] == 0.0 && self.inv_m[j] == 0.0 {
            return None;
        }
        let tau_j = now - self.t[j];
        let (xj, yj) = (
            self.x[j] + tau_j * self.vx[j],
            self.y[j] + tau_j * self.vy[j],
        );
        let (rx, ry) = (xj - si[0], yj - si[1]);
        let (px, py) = self.table.min_image(rx, ry);
        let vx = self.vx[j] - si[2] + self.table.image_velocity(ry, py);
        let vy = self.vy[j] - si[3];
        let sigma = self.r[i] + self.r[j];
        let still_touching = px * px + py * py <= sigma * sigma * (1.0 + 1e-6);
        let skip = still_touching && self.just_collided(i, j);
        let tau = if (ry - py).abs() > 0.5 * self.table.height {
            sliding_pair_time(px, py, vx, vy, sigma, self.table.width, skip)?
        } else {
            if skip {
                return None;
            }
            times::pair_time(px, py, vx, vy, sigma)?
        };
        Some(now + tau)
    }

    /// [`Kin::next_contact`] for a ball in the first or last row of a sheared box: the
    /// candidates are its own and the next row inward (three columns) and the whole row
    /// across the sliding edge. Near-ties go to `ties`, as on the general path.
    pub(super) fn next_contact_sliding(
        &self,
        i: usize,
        si: &[f64; 4],
        now: f64,
        slack: f64,
        scratch: &mut Vec<Ev>,
        ties: impl FnMut(Ev),
    ) -> Ev {
        scratch.clear();
        self.cells.for_sliding_block(self.cells.cell_of(i), |j| {
            if j != i {
                if let Some(t) = self.sliding_pair(i, si, j, now) {
                    scratch.push(self.pair_event(i, j, t));
                }
            }
        });
        super::predict::earliest(scratch, slack, ties)
    }
}

impl Event {
    /// The shift of the copy across the y edge at epoch time `t`.
    #[inline]
    pub(super) fn shift_at(&self, t: f64) -> f64 {
        Table {
            shift: self.laws.shear_base,
            ..self.laws.table
        }
        .after(t)
        .shift
    }

    /// Sets the table's shift to its value at epoch time `t` (a sheared box only), so
    /// that the minimum images taken at an event at `t` are the ones at `t`.
    #[inline(always)]
    pub(super) fn slide_to(&mut self, t: f64) {
        if self.laws.table.is_sheared() {
            self.laws.table.shift = self.shift_at(t);
        }
    }

    /// Moves the shift's clock with the epoch (`shift` earlier becomes 0).
    pub(super) fn slide_epoch(&mut self, shift: f64) {
        if self.laws.table.is_sheared() {
            self.laws.shear_base = self.shift_at(shift);
        }
    }

    /// A cell crossing in a sheared box that touches the first or last row of cells
    /// (from, to or across the sliding edge): done here, and `true`; any other
    /// crossing is left to the general path (`false`). Across the sliding edge the ball
    /// is brought to the crossing and re-enters at the other side with `x -+ s(t)` and
    /// `vx -+ G height` (its counter moves on: its stored motion changed), filed where
    /// it lands; then, whichever the crossing, it is predicted afresh against its whole
    /// new neighbourhood.
    pub(super) fn cross_sliding(&mut self, b: &mut Balls, i: usize, dir: Dir, t: f64) -> bool {
        let c = self.cells.cell_of(i);
        let (_, cy) = self.cells.coords(c);
        let ny = self.cells.ny;
        let to_edge = match dir {
            Dir::Up => cy == 1 || cy == 0,
            Dir::Down => cy + 2 == ny || cy + 1 == ny,
            Dir::Left | Dir::Right => false,
        };
        if !(self.cells.on_y_edge(c) || to_edge) {
            return false;
        }
        let wraps = self.cells.wraps(c, dir);
        if wraps {
            self.remember(b, i);
        }
        match dir {
            Dir::Up | Dir::Down if wraps => {
                self.advance(b, i, t);
                let (w, h, s, u) = (
                    self.laws.table.width,
                    self.laws.table.height,
                    self.laws.table.shift,
                    self.laws.table.shear_velocity(),
                );
                // Out through y = 0 (up) it comes back at y + h, x + s, vx + u; out
                // through y = h (down) at y - h, x - s, vx - u.
                let k = if dir == Dir::Up { 1.0 } else { -1.0 };
                b.y[i] += k * h;
                b.iy[i] -= k as i64;
                b.x[i] += k * s;
                b.vx[i] += k * u;
                let (x, kx) = self.laws.table.wrap(b.x[i], 0);
                b.x[i] = x;
                b.ix[i] = b.ix[i].saturating_add(kx);
                debug_assert!(x.is_finite() && w > 0.0);
                self.rec.counter[i] = self.rec.counter[i].wrapping_add(1);
                self.clock.v2_max = self.clock.v2_max.max(b.vx[i] * b.vx[i] + b.vy[i] * b.vy[i]);
                let to = self.cells.cell_at(b.x[i], b.y[i]);
                self.cells.move_to(i, to);
            }
            _ => {
                if wraps {
                    let w = self.laws.table.width;
                    match dir {
                        Dir::Left => (b.x[i], b.ix[i]) = (b.x[i] + w, b.ix[i] - 1),
                        _ => (b.x[i], b.ix[i]) = (b.x[i] - w, b.ix[i] + 1),
                    }
                }
                if let Some(to) = self.cells.step(c, dir) {
                    self.cells.move_to(i, to);
                }
            }
        }
        self.predict(b, i, t, true);
        true
    }

    /// Runs `resolve` on the balls of `contacts` in a frame common to the cluster: each
    /// ball is given the x velocity of the copy through which it touches the others
    /// (`+-G height` per crossing of the sliding edge along the chain of contacts), so
    /// that every contact sees the image's velocity; the copies' velocities are taken
    /// off again after. A cluster that closes on itself around the box's height (no
    /// common frame exists) is resolved one contact at a time, each in its pair's
    /// frame. Outside a sheared box, `resolve` on the contacts as they are.
    pub(super) fn in_common_frame(
        &mut self,
        b: &mut Balls,
        contacts: &[Contact],
        mut resolve: impl FnMut(&mut Self, &mut Balls, &[Contact]),
    ) {
        if !self.laws.table.is_sheared() {
            resolve(self, b, contacts);
            return;
        }
        if self.frame_of(b, contacts) {
            self.resolve_shifted(b, contacts, &mut resolve);
        } else {
            for c in contacts {
                let one = std::slice::from_ref(c);
                self.frame_of(b, one);
                self.resolve_shifted(b, one, &mut resolve);
            }
        }
    }

    /// `resolve` with the copies' velocities of `slide` put on and taken off.
    fn resolve_shifted(
        &mut self,
        b: &mut Balls,
        contacts: &[Contact],
        resolve: &mut impl FnMut(&mut Self, &mut Balls, &[Contact]),
    ) {
        let u = self.laws.table.shear_velocity();
        for &(i, k) in &self.scratch.slide {
            if k != 0 {
                b.vx[i as usize] += k as f64 * u;
            }
        }
        resolve(self, b, contacts);
        for &(i, k) in &self.scratch.slide {
            if k != 0 {
                b.vx[i as usize] -= k as f64 * u;
            }
        }
    }

    /// Fills `slide` with each ball of `contacts` and the copy (in edge crossings, `k`
    /// for `+k G height`) whose velocity it takes in the cluster's frame. `false` when
    /// the contacts admit no common frame.
    fn frame_of(&mut self, b: &Balls, contacts: &[Contact]) -> bool {
        const UNSET: i32 = i32::MIN;
        self.scratch.slide.clear();
        let t = self.laws.table;
        let crossing = |i: usize, j: usize| -> i32 {
            let ry = b.y[j] - b.y[i];
            let (_, dy) = t.min_image(b.x[j] - b.x[i], ry);
            let v = t.image_velocity(ry, dy);
            if v > 0.0 {
                1
            } else if v < 0.0 {
                -1
            } else {
                0
            }
        };
        for c in contacts {
            for i in super::resolve::contact_balls(c) {
                if !self.scratch.slide.iter().any(|&(k, _)| k as usize == i) {
                    self.scratch.slide.push((i as u32, UNSET));
                }
            }
        }
        let find = |slide: &[(u32, i32)], i: u32| slide.iter().position(|&(k, _)| k == i);
        loop {
            let mut changed = false;
            let mut unset_left = false;
            for c in contacts {
                let Contact::Pair(i, j) = *c else { continue };
                let (a, z) = (find(&self.scratch.slide, i), find(&self.scratch.slide, j));
                let (Some(a), Some(z)) = (a, z) else { continue };
                let m = crossing(i as usize, j as usize);
                match (self.scratch.slide[a].1, self.scratch.slide[z].1) {
                    (UNSET, UNSET) => unset_left = true,
                    (ka, UNSET) => {
                        self.scratch.slide[z].1 = ka + m;
                        changed = true;
                    }
                    (UNSET, kz) => {
                        self.scratch.slide[a].1 = kz - m;
                        changed = true;
                    }
                    (ka, kz) => {
                        if kz - ka != m {
                            return false;
                        }
                    }
                }
            }
            if changed {
                continue;
            }
            if !unset_left {
                break;
            }
            // A part of the cluster not yet reached: its first ball sets its frame.
            if let Some(e) = self.scratch.slide.iter_mut().find(|e| e.1 == UNSET) {
                e.1 = 0;
            }
        }
        for e in &mut self.scratch.slide {
            if e.1 == UNSET {
                // A ball against a wall alone: its own frame.
                e.1 = 0;
            }
        }
        true
    }
}
