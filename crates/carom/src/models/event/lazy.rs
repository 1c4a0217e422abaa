//! Lazy motion: each ball keeps its own local time and is moved along its curve only
//! when an event needs it (see the model's notes), and the record of its state before
//! its first change in an interval, which a failed step puts back.

use super::kinds::{ON_FACE, ON_ROUND};
use super::motion::accel_of;
use super::records::Undo;
use super::state::Event;
use crate::balls::Balls;

impl Event {
    /// Records ball `i` as it is now, for a failed step to put back.
    /// (Always inlined: it runs at every event, where a call costs more than its body.)
    #[inline(always)]
    pub(super) fn remember(&mut self, b: &Balls, i: usize) {
        if self.cloth.is_some() {
            self.remember_as::<true>(b, i);
        } else {
            self.remember_as::<false>(b, i);
        }
    }

    /// [`Event::remember`] where the caller knows whether the balls are on cloth (the
    /// impacts' path is compiled for each: without cloth it is the path as it was).
    #[inline(always)]
    pub(super) fn remember_as<const CLOTH: bool>(&mut self, b: &Balls, i: usize) {
        let (images, spin) = (
            self.laws.table.any_periodic(),
            self.laws.friction.is_active(),
        );
        let u = Undo::of(b, i, self.rec.hist[i].rest, self.rec.t[i], images, spin);
        self.rollback.undo.push(u);
        if CLOTH {
            self.remember_spins(b, i);
        }
    }
    /// Moves ball `i` along its curve to epoch time `t` (its state is stored there).
    /// (Always inlined: it runs at every event, where a call costs more than its body.)
    #[inline(always)]
    pub(super) fn advance(&mut self, b: &mut Balls, i: usize, t: f64) {
        if self.cloth.is_some() {
            self.advance_as::<true>(b, i, t);
        } else {
            self.advance_as::<false>(b, i, t);
        }
    }

    /// [`Event::advance`] where the caller knows whether the balls are on cloth.
    #[inline(always)]
    pub(super) fn advance_as<const CLOTH: bool>(&mut self, b: &mut Balls, i: usize, t: f64) {
        if CLOTH {
            // On its phase's parabola, spins and all (`on_cloth.rs`).
            self.advance_on_cloth(b, i, t);
            return;
        }
        let tau = t - self.rec.t[i];
        if tau != 0.0 {
            let rest = self.rec.hist[i].rest;
            let [gx, gy] = match self.inner.as_deref() {
                // On its circle (`on_round.rs`), not a parabola.
                Some(_) if rest & ON_ROUND != 0 => {
                    self.advance_round(b, i, tau);
                    if self.laws.friction.is_active() {
                        b.angle[i] += b.omega[i] * tau;
                    }
                    self.rec.t[i] = t;
                    return;
                }
                Some(inner) if rest & ON_FACE != 0 => inner.accel_on(i, rest, self.laws.gravity),
                _ => accel_of(b.inv_m[i], rest, self.laws.gravity),
            };
            b.x[i] += tau * (b.vx[i] + 0.5 * gx * tau);
            b.y[i] += tau * (b.vy[i] + 0.5 * gy * tau);
            b.vx[i] += gx * tau;
            b.vy[i] += gy * tau;
            // The ball turns with its own clock (free of torque between collisions);
            // without contact friction the world turns it once per interval instead.
            if self.laws.friction.is_active() {
                b.angle[i] += b.omega[i] * tau;
            }
        }
        self.rec.t[i] = t;
    }
}
