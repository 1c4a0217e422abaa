//! The event loop of an interval: events taken in time order and processed (a cell
//! crossing, or an impact of everything due within round-off of the same time),
//! under the stall guard; and the balls brought to the interval's end for a reader.

use super::kinds::{self, Kind, EXIT_CODE};
use super::queue::{self, Ev};
use super::state::{stall_window, Event};
use crate::balls::Balls;
use crate::models::StepError;
use crate::physics::Physics;

impl Event {
    two_versions! {
        /// Runs the events of the interval prepared by `prepare`, up to its end.
        pub(super) fn run_events / run_events_portable / run_events_wide => run_events_body
            (&mut self, balls: &mut Balls, physics: &Physics) -> Result<(), StepError>
    }

    #[inline(always)]
    fn run_events_body(&mut self, balls: &mut Balls, physics: &Physics) -> Result<(), StepError> {
        let before = (self.tally.collisions, self.tally.crossings);
        let solver = crate::stress::Virial {
            sum: self.solver.virial(),
            tensor: self.solver.virial_tensor(),
        };
        self.rollback.virial_at_start = (self.tally.pair_virial, solver);
        // Where the events of the interval (and the solver's extra passes) are next
        // looked at: the end of the stall guard's window or the hard cap, whichever
        // comes first. One comparison per event, as the former budget took.
        let mut guard = Watch::new(
            self.clock.step_start,
            stall_window(balls.len()),
            self.guard.budget,
        );
        let mut count: u64 = 0;
        // The contact solver's passes beyond one per contact count as events: a cluster
        // that rattles (a light ball between a heavy one and a wall takes of the order
        // of the mass ratio in passes) runs to the solver's iteration cap at every
        // event, a thousand passes each, and the budget must bound that work too.
        let extra_at_start = self.solver.stats().extra_passes;
        let mut extra: u64 = 0;
        // From this many balls on, the balls around the next event are fetched into
        // cache one event ahead (below it they stay in cache anyway, and the look
        // costs time).
        let far_apart = balls.len() > queue::EARLY_FROM;
        // The events up to the interval's end, with a pause where the epoch moves (see
        // `rebase_within`): at a time of the run's own, not of the sampling.
        loop {
            let end = self.clock.horizon.min(self.clock.rebase_at);
            // Andersen's strikes, events of their own (`strikes.rs`): the events up to
            // the next one, then it (infinitely far without a heat bath).
            let strike_at = self.next_strike();
            let limit = end.min(strike_at);
            while let Some((ev, src)) = self.queue.pop_until(limit, |i, other, late| {
                if late {
                    // Its cell was asked for in the first round: the cell lists it will
                    // scan can be fetched now. Two cells around, not one: a crossing (more
                    // than half the events) scans the strip beyond the cell it enters,
                    // outside the 3x3 block; at a million balls, waiting for those lists
                    // was a sixth of the event loop's time.
                    self.cells.prefetch_wide_block(self.cells.cell_of(i));
                    return;
                }
                let b = &*balls;
                fetch_ball!(self, b, i);
                if kinds::is_ball(other) {
                    fetch_ball!(self, b, other as usize);
                }
            }) {
                if far_apart {
                    self.fetch_neighbours(balls);
                }
                // A sheared box's images at the event's time (`sliding.rs`).
                self.slide_to(ev.t);
                if !self.due(balls, &ev, src) {
                    continue;
                }
                count += 1;
                if count + extra > guard.next {
                    self.look(balls, &mut guard, count + extra, ev.t, before)?;
                }
                self.guard.note_recent(ev.i);
                // An exit or the end of a course (one comparison tells them from the
                // rest).
                if kinds::is_exit_or_end(ev.other) {
                    if ev.other == EXIT_CODE {
                        self.take_out(balls, ev);
                    } else {
                        self.end_of_course(balls, ev);
                        if let Some((i, wall)) = self.guard.settled.take() {
                            return Err(self.settled_on(balls, ev.t, before, i, wall));
                        }
                    }
                    continue;
                }
                if let Kind::Cross(_) = ev.kind() {
                    self.cross(balls, ev);
                    if self.guard.overflow.get() {
                        return Err(self.overflowed(balls, physics, ev.t, before));
                    }
                    if self.guard.audit {
                        self.audit_at(balls, ev.t);
                    }
                    continue;
                }
                // Everything due within round-off of t0 is one impact.
                let t0 = ev.t;
                self.gather_group(balls, ev, &mut count, extra, &mut guard, before)?;
                if let Kind::Pair(j) = ev.kind() {
                    self.guard.note_recent(j as u32);
                }
                self.slide_to(t0);
                if self.cloth.is_some() {
                    self.resolve_group_on_cloth(balls, t0);
                } else {
                    self.resolve_group(balls, t0);
                }
                self.take_pending_exits(balls);
                if self.guard.overflow.get() {
                    return Err(self.overflowed(balls, physics, t0, before));
                }
                if let Some((i, wall)) = self.guard.settled.take() {
                    return Err(self.settled_on(balls, t0, before, i, wall));
                }
                extra = self.solver.stats().extra_passes - extra_at_start;
                if count + extra > guard.next {
                    self.look(balls, &mut guard, count + extra, t0, before)?;
                }
                if self.guard.audit {
                    self.audit_at(balls, t0);
                }
            }
            if strike_at <= end {
                self.strike(balls);
                continue;
            }
            if self.clock.rebase_at < self.clock.horizon {
                self.rebase_within(&mut guard, self.tally.events + count);
                continue;
            }
            break;
        }
        self.tally.events += count;
        let t_end = self.clock.horizon;
        if self.guard.overflow.get() {
            return Err(self.overflowed(balls, physics, t_end, before));
        }

        // The balls stay at their local times until someone reads them.
        self.clock.step_start = t_end;
        self.slide_to(t_end);
        if self.guard.audit {
            self.audit_at(balls, t_end);
        }
        Ok(())
    }
}

impl Event {
    /// The events due within round-off of `ev`'s time (`ev` first) gathered as one
    /// impact in `group_events`; the crossings among them processed, and the exits and
    /// ends of courses put aside in `pending_exits`. Counts them as the event loop
    /// does.
    #[inline(always)]
    fn gather_group(
        &mut self,
        balls: &mut Balls,
        ev: Ev,
        count: &mut u64,
        extra: u64,
        guard: &mut Watch,
        before: (u64, u64),
    ) -> Result<(), StepError> {
        let t0 = ev.t;
        let window = t0 + self.clock.eps_t.max(16.0 * f64::EPSILON * t0.abs());
        self.scratch.group_events.clear();
        self.scratch.group_events.push(ev);
        loop {
            // Nearly always nothing else is due so soon, and the schedule can tell
            // without sorting out its near set.
            if self.queue.nothing_due_by(window) {
                break;
            }
            let Some((e, src)) = self.queue.pop_until(window, |_, _, _| {}) else {
                break;
            };
            self.slide_to(e.t);
            if !self.due(balls, &e, src) {
                continue;
            }
            *count += 1;
            if *count + extra > guard.next {
                self.look(balls, guard, *count + extra, e.t, before)?;
            }
            self.guard.note_recent(e.i);
            match e.kind() {
                Kind::Cross(_) => self.cross(balls, e),
                Kind::Exit | Kind::End => self.scratch.pending_exits.push(e),
                Kind::Pair(j) => {
                    self.guard.note_recent(j as u32);
                    self.scratch.group_events.push(e);
                }
                Kind::Wall(_) => self.scratch.group_events.push(e),
            }
        }
        Ok(())
    }

    /// The exits and ends of courses due in the same instant as an impact, unless the
    /// impact changed the ball (its phase was then derived afresh at the impact).
    #[inline(always)]
    fn take_pending_exits(&mut self, balls: &mut Balls) {
        for k in 0..self.scratch.pending_exits.len() {
            let e = self.scratch.pending_exits[k];
            if self.rec.counter[e.i as usize] == e.ci {
                if e.other == EXIT_CODE {
                    self.take_out(balls, e);
                } else {
                    self.end_of_course(balls, e);
                }
            }
        }
        self.scratch.pending_exits.clear();
    }
}

impl Event {
    /// The end of ball `ev.i`'s course: its phase on cloth, or the face it rests on.
    fn end_of_course(&mut self, b: &mut Balls, ev: Ev) {
        if self.cloth.is_some() {
            self.phase_end(b, ev);
        } else {
            self.face_end(b, ev);
        }
    }

    /// Ball `ev.i` leaves play at `ev.t` (its centre enters a pocket or crosses an
    /// open edge): frozen there, out of the grid and the schedule; the world records
    /// it after the step.
    #[cold]
    fn take_out(&mut self, b: &mut Balls, ev: Ev) {
        let i = ev.i as usize;
        if self.rec.t[i] <= self.clock.step_start {
            self.remember(b, i);
        }
        self.advance(b, i, ev.t);
        let after = ev.t - self.clock.step_start;
        let Some(inner) = self.inner.as_deref_mut() else {
            return;
        };
        let by = inner.exit_at([b.x[i], b.y[i]]);
        inner.take(b, i, by, after);
        if let Some(cloth) = self.cloth.as_deref_mut() {
            // Out of play it spins no more, about any axis.
            (b.wx[i], b.wy[i]) = (0.0, 0.0);
            cloth.derive(b, i, ev.t);
        }
        self.rec.hist[i].rest = 0;
        if let Some(inner) = self.inner.as_deref_mut() {
            inner.let_go(i);
        }
        self.cells.remove(i);
        self.queue.set_both(i, Ev::NONE, Ev::NONE);
        // Partners that predicted a contact with it find it stale.
        self.rec.counter[i] = self.rec.counter[i].wrapping_add(1);
    }
}

/// The most events the rest of an output interval may need at the rate of the latest
/// window of the stall guard: 1e12, days of work at the event loop's rate.
const MAX_PROJECTED_EVENTS: f64 = 1e12;

/// The stall guard's state within one interval: where the current window began (its
/// event count and clock) and at which count to look next.
pub(super) struct Watch {
    /// Look when the count of the interval exceeds this.
    next: u64,
    /// Events of a window.
    window: u64,
    /// The hard cap on the events of the interval, if any.
    cap: Option<u64>,
    /// The count and the epoch time at the start of the current window.
    from_count: u64,
    pub(super) from_t: f64,
}

impl Watch {
    fn new(start: f64, window: u64, cap: Option<u64>) -> Watch {
        let mut w = Watch {
            next: 0,
            window,
            cap,
            from_count: 0,
            from_t: start,
        };
        w.next = w.next_look();
        w
    }

    fn next_look(&self) -> u64 {
        let end = self.from_count.saturating_add(self.window);
        self.cap.map_or(end, |c| c.min(end))
    }
}

impl Event {
    /// The look at the clock once the count passes `guard.next`: the step fails if the
    /// hard cap is exceeded or the window just ended was too dense in time; otherwise a
    /// new window starts here. Kept out of line: it runs once in a million events.
    #[cold]
    #[inline(never)]
    fn look(
        &mut self,
        balls: &mut Balls,
        guard: &mut Watch,
        count: u64,
        now: f64,
        before: (u64, u64),
    ) -> Result<(), StepError> {
        if let Some(cap) = guard.cap.filter(|&c| count > c) {
            return Err(self.over_cap(balls, cap, now, before));
        }
        let events = count - guard.from_count;
        let span = now - guard.from_t;
        if let Some(rate) = self.stalled(balls, events, span) {
            return Err(self.stalled_error(balls, events, span, rate, now, before));
        }
        // A window whose clock moves, but so slowly that the rest of the interval would
        // take more events than any run can do (a ball at 1e308 per unit of time in a
        // periodic box crosses an edge at every event, the clock moving by 1e-306 each):
        // stopped too, or it would run for ages. A healthy run is many orders below the
        // bound (a million balls over 400 time units in one interval: a few 1e9).
        let remaining = (self.clock.horizon - now).max(0.0) * (events as f64 / span);
        if remaining > MAX_PROJECTED_EVENTS {
            return Err(self.too_busy(balls, events, span, remaining, now, before));
        }
        guard.from_count = count;
        guard.from_t = now;
        guard.next = guard.next_look();
        Ok(())
    }
}

impl Event {
    /// Every ball to the end of the last interval, for a reader.
    pub(super) fn bring_forward(&mut self, balls: &mut Balls) {
        // Awaiting a rebuild, the balls are as given from outside (or as a failed
        // step put them back): nothing to bring forward.
        if self.needs_rebuild || balls.len() != self.rec.t.len() {
            return;
        }
        let now = self.clock.step_start;
        for i in 0..balls.len() {
            self.advance(balls, i, now);
        }
        self.slide_to(now);
        // A ball read just as it crosses a periodic edge can come out a round-off
        // beyond it (`y == height`); what is read is what a state file holds, and its
        // load wraps it, so wrap it here and the file loads to the same text.
        crate::models::wrap_positions(balls, &self.laws.table);
        // What is read may be written to a state file and resumed: the next step starts
        // afresh from exactly these balls (epoch, predictions, collapse-guard memory), as
        // the resumed run will, so that both continue bit for bit. The cost, O(N)
        // predictions, falls on reads, never on steps that sample nothing.
        self.needs_rebuild = true;
        self.resumed = true;
    }
}
