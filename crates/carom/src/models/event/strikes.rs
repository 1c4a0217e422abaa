//! Andersen's heat bath as events of their own (`physics.thermostat = { kind =
//! "andersen", ... }` in a scene without gravity or cloth).
//!
//! Each dynamic ball in play is struck at the times of its own Poisson process of rate
//! `rate`: the waits between its strikes are exponential, the `k`-th drawn from a
//! counter-based hash of `(seed, ball, k)` ([`thermostat::strike_wait`]), and the
//! strike that ends wait `k` redraws the ball's velocity from the Maxwell distribution
//! with the same key ([`thermostat::strike_velocity`]). Strikes are due at exact times
//! between collisions: when one is due, the ball is moved to it, takes its new
//! velocity, and only its own predictions are redone (its event counter moves on, so
//! partners that predicted a contact with it find that stale). The rest of the
//! schedule is untouched.
//!
//! The strikes wait in a calendar of their own (`models/calendar.rs`), one entry per
//! ball, beside the collision schedule: the event loop takes events up to the earlier
//! of the interval's end and the next strike, so without a heat bath nothing changes
//! on its path. The next strike is the earliest, ties to the lower index.
//!
//! What the run depends on is, per ball, how many strikes it has had and when its
//! next one is due: the state file holds both (`thermostat_clock`, the wait measured
//! from the state's time), so a resumed run strikes at the same times to the bit. The
//! keys are the balls' own indices, never the model's layout, so no layout, thread
//! count or split of a run into resumed pieces changes a draw.

use super::bath::Strikes;
use super::state::Event;
use crate::balls::{gather, Balls};
use crate::thermostat::{self, Thermostat};

impl Event {
    /// Sets the heat bath the model strikes with (`None`, or a thermostat that is not
    /// Andersen's: none). The same parameters keep the clock; others start it afresh.
    pub fn set_thermostat(&mut self, th: Option<&Thermostat>) {
        let Some(&Thermostat::Andersen {
            temperature,
            rate,
            seed,
        }) = th
        else {
            self.strikes = None;
            return;
        };
        match self.strikes.as_deref_mut() {
            Some(s) if s.rate == rate && s.seed == seed => s.temperature = temperature,
            _ => self.strikes = Some(Box::new(Strikes::new(temperature, rate, seed))),
        }
    }

    /// Andersen strikes taken so far by this model.
    #[cfg(any(test, feature = "internals"))]
    pub fn strikes(&self) -> u64 {
        self.strikes.as_deref().map_or(0, |s| s.total)
    }

    /// Per ball with a strike to come, by its own index: `(ball, strikes so far, wait
    /// from now to the next)`, for the state file. `None` without a heat bath or
    /// before its clock is set. Read with the balls synchronised.
    pub fn thermostat_clock(&self) -> Option<Vec<(u32, u64, f64)>> {
        let s = self.strikes.as_deref()?;
        if s.count.is_empty() || !self.layout.order.is_empty() || !self.laws.flat {
            return None;
        }
        let now = self.clock.step_start;
        Some(
            (0..s.count.len())
                .filter(|&i| s.at[i] != f64::INFINITY)
                .map(|i| (i as u32, s.count[i], s.at[i] - now))
                .collect(),
        )
    }

    /// Takes back a clock that [`Event::thermostat_clock`] gave, for the `n` balls of a
    /// world just built from a state: the listed balls as listed, the others from the
    /// start. Entries naming balls beyond `n` are ignored. Without a heat bath, nothing.
    pub fn restore_thermostat_clock(&mut self, clock: &[(u32, u64, f64)], n: usize) {
        let now = self.clock.step_start;
        let Some(s) = self.strikes.as_deref_mut() else {
            return;
        };
        s.start(n, now, |i| i);
        for &(i, count, wait) in clock {
            let k = i as usize;
            if k < n {
                s.count[k] = count;
                s.at[k] = now + wait;
            }
        }
        self.needs_rebuild = true;
    }

    /// The epoch time of the next strike (infinite: none, or no bath in this scene).
    #[inline]
    pub(super) fn next_strike(&mut self) -> f64 {
        match self.strikes.as_deref_mut() {
            Some(s) if self.laws.flat => s.due.first().map_or(f64::INFINITY, |(_, t)| t),
            _ => f64::INFINITY,
        }
    }

    /// At a rebuild, after the layout is settled: the clock set up if it is not (or
    /// the ball count changed), balls that cannot be struck given no strike and balls
    /// that can given one, and the calendar filled afresh. O(N).
    pub(super) fn strikes_rebuild(&mut self, b: &Balls) {
        let n = b.len();
        let now = self.clock.step_start;
        let order = &self.layout.order;
        let Some(s) = self.strikes.as_deref_mut().filter(|_| self.laws.flat) else {
            return;
        };
        let id = |i: usize| order.get(i).map_or(i, |&k| k as usize);
        if s.count.len() != n {
            s.start(n, now, id);
        }
        for i in 0..n {
            if b.inv_m[i] == 0.0 {
                s.at[i] = f64::INFINITY;
            } else if s.at[i] == f64::INFINITY {
                s.at[i] = now + thermostat::strike_wait(s.seed, id(i) as u64, s.count[i], s.rate);
            }
        }
        s.file_all();
        s.undo.clear();
    }

    /// Moves every strike time by `-shift` (a new epoch); `refile`: the calendar is
    /// filled afresh (a rebase within an interval; a rebuild fills it itself).
    pub(super) fn strikes_shift(&mut self, shift: f64, refile: bool) {
        let Some(s) = self.strikes.as_deref_mut() else {
            return;
        };
        for t in &mut s.at {
            *t -= shift;
        }
        for u in &mut s.undo {
            u.2 -= shift;
        }
        if refile {
            s.file_all();
        }
    }

    /// The start of an interval: nothing struck in it yet.
    pub(super) fn strikes_new_interval(&mut self) {
        if let Some(s) = self.strikes.as_deref_mut() {
            s.undo.clear();
        }
    }

    /// A failed step: every clock struck in it put back (the calendar is filled afresh
    /// at the rebuild that follows).
    pub(super) fn strikes_rewind(&mut self) {
        if let Some(s) = self.strikes.as_deref_mut() {
            for &(i, count, at) in s.undo.iter().rev() {
                s.count[i as usize] = count;
                s.at[i as usize] = at;
            }
            s.undo.clear();
        }
    }

    /// The clock follows its balls into the model's layout (`order`) and back.
    pub(super) fn strikes_permute(&mut self, order: &[u32]) {
        if let Some(s) = self.strikes.as_deref_mut() {
            if s.count.len() == order.len() {
                gather(&mut s.count, order);
                gather(&mut s.at, order);
            }
        }
    }

    /// The earliest strike, due now: the ball moved to it, a velocity from
    /// the Maxwell distribution, the ball's next strike filed, and the ball's own
    /// predictions redone.
    #[inline(never)]
    pub(super) fn strike(&mut self, b: &mut Balls) {
        let id = |order: &[u32], i: usize| order.get(i).map_or(i, |&k| k as usize) as u64;
        let Some(s) = self.strikes.as_deref_mut() else {
            return;
        };
        let Some((i, t)) = s.due.first() else {
            return;
        };
        s.undo.push((i as u32, s.count[i], s.at[i]));
        if b.inv_m[i] == 0.0 {
            // Left play (or was made kinematic) since it was filed.
            s.at[i] = f64::INFINITY;
            s.due.set(i, f64::INFINITY);
            return;
        }
        let (key, k) = (id(&self.layout.order, i), s.count[i]);
        let v = thermostat::strike_velocity(s.seed, key, k, s.temperature, b.inv_m[i]);
        // (A count read from a state file may be any u64: it wraps, as a counter.)
        s.count[i] = k.wrapping_add(1);
        s.at[i] = t + thermostat::strike_wait(s.seed, key, s.count[i], s.rate);
        s.due.set(i, s.at[i]);
        s.total += 1;

        if self.rec.t[i] <= self.clock.step_start {
            self.remember(b, i);
        }
        // A group resolved just before may have taken the ball a round-off past the
        // strike's time: it is struck where it is.
        let t = t.max(self.rec.t[i]);
        self.advance(b, i, t);
        (b.vx[i], b.vy[i]) = v;
        self.clock.v2_max = self.clock.v2_max.max(v.0 * v.0 + v.1 * v.1);
        // No longer the course its last collision left: a partner it still touches may
        // be met again at once.
        let h = &mut self.rec.hist[i];
        h.group = 0;
        h.n_partners = 0;
        self.rec.counter[i] = self.rec.counter[i].wrapping_add(1);
        self.predict(b, i, t, true);
        if self.guard.audit {
            self.audit_at(b, t);
        }
    }
}
