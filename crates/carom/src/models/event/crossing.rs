//! Cell-crossing events: a ball moves to the next cell of the grid, meets the balls
//! that have just become its neighbours, and wraps through a periodic edge.

use super::cells::Dir;
use super::kinds::Kind;
use super::queue::Ev;
use super::state::Event;
use crate::balls::Balls;

impl Event {
    two_versions! {
        /// A ball has left its cell: file it in the next one and predict its collisions with
        /// the balls that have just become neighbours. Leaving through a periodic edge, the
        /// ball re-enters at the other side: its whole trajectory shifts by one side (the
        /// stored state, at its own time, moves; its velocity and predictions, which use
        /// minimum images, stand) and its image count records the crossing.
        pub(super) fn cross / cross_portable / cross_wide => cross_body(&mut self, b: &mut Balls, ev: Ev)
    }

    #[inline(always)]
    fn cross_body(&mut self, b: &mut Balls, ev: Ev) {
        self.tally.crossings += 1;
        let i = ev.i as usize;
        let dir = match ev.kind() {
            Kind::Cross(d) => Dir::from_index(d),
            _ => return,
        };
        if self.laws.table.is_sheared() && self.cross_sliding(b, i, dir, ev.t) {
            return;
        }
        if self.cells.wraps(self.cells.cell_of(i), dir) {
            // Remembered for a failed step (the oldest record of a ball wins).
            self.remember(b, i);
            let (w, h) = (self.laws.table.width, self.laws.table.height);
            match dir {
                Dir::Left => (b.x[i], b.ix[i]) = (b.x[i] + w, b.ix[i] - 1),
                Dir::Right => (b.x[i], b.ix[i]) = (b.x[i] - w, b.ix[i] + 1),
                Dir::Up => (b.y[i], b.iy[i]) = (b.y[i] + h, b.iy[i] - 1),
                Dir::Down => (b.y[i], b.iy[i]) = (b.y[i] - h, b.iy[i] + 1),
            }
        }
        let b = &*b;
        if let Some(c) = self.cells.step(self.cells.cell_of(i), dir) {
            self.cells.move_to(i, c);
            self.scratch.nbrs.clear();
            let nbrs = &mut self.scratch.nbrs;
            self.cells.for_new_strip(c, dir, |j| nbrs.push(j as u32));
        }
        // New neighbours matter only if they come before (or with) the ball's earliest
        // contact already scheduled, which is otherwise still right.
        // The slots are written once at the end, not once per earlier contact found,
        // and the contact slot only if it changed (the schedule's order depends on
        // the slots' contents alone, so leaving it filed where it is changes nothing).
        let kin = kin!(self, b);
        let si = kin.state(i, ev.t);
        let mut cur = self.queue.contact(i);
        let mut earlier = false;
        let (kinematic_i, r_i) = (kin.inv_m[i] == 0.0, kin.r[i]);
        for &j in &self.scratch.nbrs {
            let j = j as usize;
            // Along straight lines the pair's time alone, inlined; its event is made
            // only when it is kept.
            let t = if kin.flat {
                kin.pair_line_time(i, &si, kinematic_i, r_i, j, ev.t)
            } else {
                kin.pair_from(i, &si, j, ev.t).map(|e| e.t)
            };
            if let Some(t) = t {
                let slack = self.clock.eps_t.max(16.0 * f64::EPSILON * t.abs());
                if t < cur.t {
                    if cur.t <= t + slack {
                        self.queue.push_extra(cur);
                    }
                    cur = kin.pair_event(i, j, t);
                    earlier = true;
                } else if t <= cur.t + slack {
                    self.queue.push_extra(kin.pair_event(i, j, t));
                }
            }
        }
        // The walls inside the table listed for the new cell.
        if let Some(inner) = kin.inner {
            if kin.inv_m[i] == 0.0 {
                // Kinematic: walls do not stop it.
            } else if let Some(e) = kin.inner_only(inner, i, &si, ev.t) {
                let slack = self.clock.eps_t.max(16.0 * f64::EPSILON * e.t.abs());
                if e.t < cur.t {
                    if cur.t <= e.t + slack {
                        self.queue.push_extra(cur);
                    }
                    cur = e;
                    earlier = true;
                } else if e.t <= cur.t + slack && (e.t, e.other) != (cur.t, cur.other) {
                    self.queue.push_extra(e);
                }
            }
        }
        let crossing = kin.cross(i, &si, ev.t).unwrap_or(Ev::NONE);
        if earlier {
            self.queue.set_both(i, cur, crossing);
        } else {
            self.queue.set_crossing(i, crossing, false);
        }
        self.scratch.nbrs.clear();
    }
}
