//! Soft contacts on cloth: impacts so slow that they belong to a contact the cloth
//! presses shut, or to the end of one.
//!
//! The cloth's friction can push two touching balls into each other (the ball behind
//! decelerating less, along the line of centres, than the one in front: a rolling
//! ball behind a sliding one, a follow shot's cue ball behind a frozen object ball) or
//! a sliding ball into a cushion (its slip pointing away from it). A rigid body would
//! stay in contact under a force, on a path no longer made of the phases' parabolas. A
//! hard sphere instead meets it again ever sooner and softer, endlessly often in a
//! finite time: restitution below one, a rolling ball's impulse partly turned into spin
//! by the slide it starts, Han's cushion losing horizontal speed even when elastic.
//!
//! So an impact is **soft** when it comes slower than twice `v_p = sqrt(2 g sigma A)`,
//! the speed a press `A` builds over a gap of `g = `[`PRESSED_GAP`] of the contact
//! distance `sigma` (the sum of the radii; the radius at a cushion), `A` being the
//! press (the relative acceleration into the contact) or, if larger, the cloth's
//! sliding deceleration. A soft impact stands for the contact's force:
//!
//! - the balls leave it along the line of centres (the cushion's horizontal normal) at
//!   `v_p` for the press they are under, `0` if none: a pressed contact bounces over
//!   gaps of at most `g sigma`, its impulses averaging to the contact's force, at about
//!   `sqrt(A / (8 g sigma))` impacts per unit of time; a slow touch without a press
//!   leaves them at rest relative to each other;
//! - no faster than brings them to rest relative to each other when the earlier of
//!   their phases ends (where the press may end), found by iterating over the phase
//!   ends the impulse itself moves: a press that ends leaves them touching, a hair
//!   apart, and moving together, as a contact force would, instead of drifting apart at
//!   the bouncing speed;
//! - the impulse is along the line of centres only: contact friction, which the hard
//!   impacts take (the rough-sphere law), does not act in a soft one;
//! - a ball that is not sliding stays gripped by the cloth through such a slow push
//!   (its spins stay locked to its velocity, its effective mass `m + I / r^2`), a
//!   sliding one keeps its spins;
//! - leaving faster than it came takes kinetic energy, taken from the motion the two
//!   share (their centre of effective mass; at a cushion, the motion along it), then
//!   from a sliding ball's spin about the table's axes (what the cloth's friction turns
//!   into the press anyway), so that the energy is never more than before; with too
//!   little of either, they leave slower. (A kinematic ball, moved from outside, does
//!   work on what it touches: against one, no energy is drawn.)
//!
//! Two balls touching, neither closing nor separating, that the cloth presses together
//! (left so by a soft impact that brought them to rest relative to each other, their
//! phases then changed) meet at once: that is a soft impact too, at zero speed.
//!
//! Only impacts slower than about a centimetre per second for pool balls are soft (a
//! rolling pool ball that slow has half a millimetre left to roll); every faster one
//! takes the exact impact laws.

use crate::cloth::{Body, Cloth, Phase, Sphere};

/// The gap, as a fraction of the contact distance, over which a contact the cloth
/// presses shut bounces (see the module's notes). A ten-thousandth: a few micrometres
/// on a pool ball; a pool ball pushed at the cloth's sliding deceleration leaves at
/// 4.7 mm/s, and impacts slower than 9.5 mm/s are soft.
pub(super) const PRESSED_GAP: f64 = 1e-4;

/// Rounds of the search for the speed that comes to rest at the phases' end: each
/// round moves that end by about a third of the round before (the impulse changes the
/// slip of a sliding ball), so eight leave a few ten-thousandths of the first shift.
const ROUNDS: usize = 8;

/// The speed a press `press` builds over a gap of [`PRESSED_GAP`] of `sigma`
/// (0 without a press).
#[inline]
fn press_speed(press: f64, sigma: f64) -> f64 {
    if press > 0.0 {
        (2.0 * PRESSED_GAP * sigma * press).sqrt()
    } else {
        0.0
    }
}

/// Whether an impact closing at `approach` under the press `press`, over a contact
/// distance `sigma`, on the cloth `law`, is soft (a pressed touch, closing at zero
/// speed, included).
#[inline]
pub(super) fn is_soft(approach: f64, press: f64, sigma: f64, law: &Cloth) -> bool {
    (approach > 0.0 || (approach == 0.0 && press > 0.0))
        && approach < 2.0 * press_speed(press.max(law.sliding), sigma)
}

/// One ball of a soft contact.
#[derive(Debug, Clone, Copy)]
pub(super) struct Held {
    pub(super) s: Sphere,
    pub(super) body: Body,
    /// Its inverse mass, effective: with its inertia about a horizontal axis when the
    /// cloth grips it. 0: kinematic.
    inv: f64,
    gripped: bool,
    /// Its spin about the table's axes' kinetic energy, if it slides (what a soft
    /// impact may draw on), else 0.
    spin_energy: f64,
}

impl Held {
    /// A ball of inverse mass `inv_m` in `phase`.
    pub(super) fn new(s: Sphere, body: Body, inv_m: f64, phase: Phase) -> Held {
        let gripped = inv_m != 0.0 && phase != Phase::Sliding;
        // m + I / r^2 = m (1 + 1 / k), k = m r^2 / I.
        let inv = if gripped {
            inv_m * body.k / (1.0 + body.k)
        } else {
            inv_m
        };
        // I = m r^2 / k.
        let spin_energy = if inv_m != 0.0 && !gripped {
            let inertia = body.r * body.r / (body.k * inv_m);
            0.5 * inertia * (s.w[0] * s.w[0] + s.w[1] * s.w[1])
        } else {
            0.0
        };
        Held {
            s,
            body,
            inv,
            gripped,
            spin_energy,
        }
    }

    /// The ball with `dv` added to its velocity (its spins locked to it if gripped),
    /// its spin about the table's axes scaled by `spin` otherwise.
    fn kicked(&self, dv: [f64; 2], spin: f64) -> Sphere {
        let v = [self.s.v[0] + dv[0], self.s.v[1] + dv[1]];
        if self.gripped {
            Sphere::rolling(v, self.s.w[2], self.body.r)
        } else {
            Sphere {
                v,
                w: [spin * self.s.w[0], spin * self.s.w[1], self.s.w[2]],
            }
        }
    }

    /// Draws up to `cost` of energy from this ball's spin about the table's axes: the
    /// scale of that spin after, and the cost left.
    fn draw_spin(&self, cost: f64) -> (f64, f64) {
        if cost <= 0.0 || self.spin_energy <= 0.0 {
            return (1.0, cost);
        }
        let taken = cost.min(self.spin_energy);
        (
            (1.0 - taken / self.spin_energy).max(0.0).sqrt(),
            cost - taken,
        )
    }

    /// How long the phase of `s`, this ball's state, lasts (for ever if kinematic).
    fn lasts(&self, law: &Cloth, s: &Sphere) -> f64 {
        if self.inv == 0.0 {
            return f64::INFINITY;
        }
        law.duration(law.phase(s, self.body), s, self.body)
    }
}

/// The outcome of a soft impact: the balls' new states and the normal impulse.
#[derive(Debug, Clone, Copy)]
pub(super) struct Outcome {
    pub(super) a: Sphere,
    pub(super) b: Sphere,
    pub(super) impulse: f64,
}

/// The speed a soft contact under `press` leaves at, given that the earlier of the
/// phases ends `left` from now.
#[inline]
fn leave_speed(press: f64, sigma: f64, left: f64) -> f64 {
    press_speed(press, sigma).min(press * left).max(0.0)
}

/// How a soft impact meets: the unit normal `n` (from the first ball to the second,
/// or from the ball into the cushion), the speed `approach` at which it closes, the
/// press, the contact distance `sigma` and the time `left` until the earlier phase of
/// those involved ends.
#[derive(Debug, Clone, Copy)]
pub(super) struct Meeting {
    pub(super) n: [f64; 2],
    pub(super) approach: f64,
    pub(super) press: f64,
    pub(super) sigma: f64,
    pub(super) left: f64,
}

/// A soft impact of balls `a` and `b`: see the module's notes.
pub(super) fn pair(law: &Cloth, a: &Held, b: &Held, m: &Meeting) -> Outcome {
    let mut leave = leave_speed(m.press, m.sigma, m.left);
    let mut out = pair_leaving(a, b, m.n, m.approach, leave);
    for _ in 0..ROUNDS {
        let left = a.lasts(law, &out.a).min(b.lasts(law, &out.b));
        let next = leave_speed(m.press, m.sigma, left);
        if next == leave {
            break;
        }
        leave = next;
        out = pair_leaving(a, b, m.n, m.approach, leave);
    }
    out
}

/// Balls `a` and `b` sent apart at `leave` along `n`, the energy that takes from their
/// shared motion, then from a sliding ball's spin.
fn pair_leaving(a: &Held, b: &Held, n: [f64; 2], approach: f64, leave: f64) -> Outcome {
    let (wa, wb) = (a.inv, b.inv);
    let mu = 1.0 / (wa + wb);
    let (mut leave, mut shift, mut spins) = (leave, [0.0, 0.0], (1.0, 1.0));
    // Against a kinematic ball (moved from outside, doing work on what it touches) the
    // energy is not the two balls' to keep.
    if wa != 0.0 && wb != 0.0 {
        // What leaving faster than coming costs, (1/2) mu (leave^2 - approach^2), and
        // the shared motion's energy, (1/2) (1/wa + 1/wb) |cm|^2.
        let cost = 0.5 * mu * (leave * leave - approach * approach);
        if cost > 0.0 {
            let cm = [
                (a.s.v[0] / wa + b.s.v[0] / wb) * mu,
                (a.s.v[1] / wa + b.s.v[1] / wb) * mu,
            ];
            let shared = 0.5 * (cm[0] * cm[0] + cm[1] * cm[1]) / (wa * wb * mu);
            let taken = cost.min(shared);
            if taken > 0.0 {
                let keep = (1.0 - taken / shared).max(0.0).sqrt();
                shift = [(keep - 1.0) * cm[0], (keep - 1.0) * cm[1]];
            }
            let (sa, left) = a.draw_spin(cost - taken);
            let (sb, left) = b.draw_spin(left);
            spins = (sa, sb);
            if left > 0.0 {
                leave = (approach * approach + 2.0 * (cost - left) / mu).sqrt();
            }
        }
    }
    let impulse = (approach + leave) * mu;
    Outcome {
        a: a.kicked(
            [
                shift[0] - impulse * wa * n[0],
                shift[1] - impulse * wa * n[1],
            ],
            spins.0,
        ),
        b: b.kicked(
            [
                shift[0] + impulse * wb * n[0],
                shift[1] + impulse * wb * n[1],
            ],
            spins.1,
        ),
        impulse,
    }
}

/// A soft impact of ball `a` with a cushion: its new state and the normal impulse per
/// unit of its own mass.
pub(super) fn wall(law: &Cloth, a: &Held, m: &Meeting) -> (Sphere, f64) {
    let mut leave = leave_speed(m.press, m.sigma, m.left);
    let mut out = wall_leaving(a, m.n, m.approach, leave);
    for _ in 0..ROUNDS {
        let next = leave_speed(m.press, m.sigma, a.lasts(law, &out.0));
        if next == leave {
            break;
        }
        leave = next;
        out = wall_leaving(a, m.n, m.approach, leave);
    }
    out
}

/// Ball `a` sent back from a cushion at `leave` along `-n`, the energy that takes from
/// its motion along the cushion, then from its spin if it slides.
fn wall_leaving(a: &Held, n: [f64; 2], approach: f64, leave: f64) -> (Sphere, f64) {
    let v = a.s.v;
    let along = [v[0] - approach * n[0], v[1] - approach * n[1]];
    // Energies over half the effective mass: speeds squared.
    let spare = along[0] * along[0] + along[1] * along[1];
    let cost = leave * leave - approach * approach;
    let (mut leave, mut keep, mut spin) = (leave, 1.0, 1.0);
    if cost > 0.0 {
        let taken = cost.min(spare);
        if taken > 0.0 {
            keep = (1.0 - taken / spare).max(0.0).sqrt();
        }
        let (s, left) = a.draw_spin(0.5 * (cost - taken) / a.inv);
        spin = s;
        if left > 0.0 {
            leave = (approach * approach + cost - 2.0 * left * a.inv).sqrt();
        }
    }
    let dv = [
        (keep - 1.0) * along[0] - (approach + leave) * n[0],
        (keep - 1.0) * along[1] - (approach + leave) * n[1],
    ];
    // Per unit of the ball's own mass: its effective mass over its mass, 1 + 1 / k
    // when gripped.
    let per_mass = if a.gripped { 1.0 + 1.0 / a.body.k } else { 1.0 };
    (a.kicked(dv, spin), (approach + leave) * per_mass)
}
