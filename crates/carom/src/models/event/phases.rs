//! Every ball's phase on cloth (sliding, rolling, spinning, at rest), its acceleration
//! and when the phase ends: the part of the model's state that cloth friction adds
//! (`on_cloth.rs` moves the balls along it).

use crate::balls::Balls;
use crate::cloth::{Body, Cloth, Phase, Sphere};

/// The cloth's law and every ball's phase.
#[derive(Debug, Clone)]
pub(super) struct OnCloth {
    pub(super) law: Cloth,
    pub(super) phase: Vec<Phase>,
    /// The centre's acceleration in the current phase.
    pub(super) acc: Vec<[f64; 2]>,
    /// Epoch time the current phase ends (infinite: nothing ends it).
    pub(super) end: Vec<f64>,
    /// `[angle, wx, wy, omega]` of each record of the model's undo list, side by side
    /// with it (a failed step puts the spins back with the motion).
    pub(super) undo: Vec<[f64; 4]>,
}

impl OnCloth {
    pub(super) fn new(law: Cloth) -> OnCloth {
        OnCloth {
            law,
            phase: Vec::new(),
            acc: Vec::new(),
            end: Vec::new(),
            undo: Vec::new(),
        }
    }

    /// Every ball's phase derived from its state, all at epoch time `now`.
    pub(super) fn derive_all(&mut self, b: &Balls, now: f64) {
        let n = b.len();
        self.phase.clear();
        self.phase.resize(n, Phase::Stationary);
        self.acc.clear();
        self.acc.resize(n, [0.0, 0.0]);
        self.end.clear();
        self.end.resize(n, f64::INFINITY);
        for i in 0..n {
            self.derive(b, i, now);
        }
    }

    /// Ball `i`'s phase, its acceleration and its end, from its state at epoch time
    /// `now`; returns the phase it was in. A kinematic ball (or one out of play) moves
    /// as it is told: no phase ends for it, and it keeps its velocity.
    pub(super) fn derive(&mut self, b: &Balls, i: usize, now: f64) -> Phase {
        let before = self.phase[i];
        if b.inv_m[i] == 0.0 {
            self.phase[i] = Phase::Stationary;
            self.acc[i] = [0.0, 0.0];
            self.end[i] = f64::INFINITY;
            return before;
        }
        let (s, body) = (Sphere::of(b, i), Body::of(b, i));
        let p = self.law.phase(&s, body);
        self.phase[i] = p;
        self.acc[i] = self.law.accel(p, &s, body);
        self.end[i] = now + self.law.duration(p, &s, body);
        before
    }

    /// Moves ball `i` by `tau` from its state at epoch time `from` along its phase
    /// (never past the phase's end: a round-off beyond it stays at the end). The
    /// position is the parabola's in the form the predictions use.
    #[inline]
    pub(super) fn advance(&self, b: &mut Balls, i: usize, from: f64, tau: f64) {
        if b.inv_m[i] == 0.0 {
            // Kinematic, or out of play (at rest): a straight line, spin kept.
            b.x[i] += tau * b.vx[i];
            b.y[i] += tau * b.vy[i];
            b.angle[i] += b.omega[i] * tau;
            return;
        }
        let s = tau.min(self.end[i] - from);
        if s.is_nan() || s <= 0.0 {
            return;
        }
        let a = self.acc[i];
        b.x[i] += s * (b.vx[i] + 0.5 * a[0] * s);
        b.y[i] += s * (b.vy[i] + 0.5 * a[1] * s);
        b.vx[i] += a[0] * s;
        b.vy[i] += a[1] * s;
        let body = Body::of(b, i);
        match self.phase[i] {
            Phase::Sliding => {
                // The friction torque's spin change, (m r / I)(-a_y, a_x) per unit time.
                let c = body.k / body.r * s;
                b.wx[i] -= c * a[1];
                b.wy[i] += c * a[0];
            }
            Phase::Rolling => {
                b.wx[i] = b.vy[i] / body.r;
                b.wy[i] = -b.vx[i] / body.r;
            }
            Phase::Spinning | Phase::Stationary => {}
        }
        // The spin about z decays at a constant rate until it stops; the angle turns by
        // its integral.
        let w = b.omega[i];
        if w != 0.0 {
            let decay = self.law.spin_decay(body);
            let stop = if decay > 0.0 {
                w.abs() / decay
            } else {
                f64::INFINITY
            };
            b.angle[i] += if s < stop {
                s * (w - 0.5 * decay * s * w.signum())
            } else {
                0.5 * w * stop
            };
            b.omega[i] = self.law.spun_down(w, body, s);
        }
    }

    /// Ball `i`, moved to the end of its phase at epoch time `now`, set exactly as the
    /// law ends that phase; its next phase taken. Returns the new phase.
    pub(super) fn finish(&mut self, b: &mut Balls, i: usize, now: f64) -> Phase {
        let r = b.r[i];
        match self.phase[i] {
            Phase::Sliding => {
                // The slip is gone: the spins lock to the velocity (a slide that ends at
                // rest, a stun shot's draw cancelled exactly, keeps no spin about the
                // table's axes).
                (b.wx[i], b.wy[i]) = (b.vy[i] / r, -b.vx[i] / r);
                if b.vx[i] == 0.0 && b.vy[i] == 0.0 {
                    (b.wx[i], b.wy[i]) = (0.0, 0.0);
                }
            }
            Phase::Rolling => {
                (b.vx[i], b.vy[i], b.wx[i], b.wy[i]) = (0.0, 0.0, 0.0, 0.0);
            }
            Phase::Spinning | Phase::Stationary => b.omega[i] = 0.0,
        }
        self.derive(b, i, now);
        self.phase[i]
    }
}
