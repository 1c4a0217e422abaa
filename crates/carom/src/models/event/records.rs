//! What the model keeps of each ball besides its motion: its local time and event
//! counter, what its last collisions left (read and written at each of its impacts),
//! its identity while the model works on its own layout, and its state before its first
//! change in an interval (put back when a step fails).

use crate::balls::Balls;
use crate::stress::Virial;

/// The per-ball records every prediction reads beside the balls' motion, one flat array
/// each (indexed by the ball's place in the model's layout).
#[derive(Clone, Default)]
pub(super) struct Records {
    /// Local time of the state stored in `Balls` (epoch time).
    pub(super) t: Vec<f64>,
    /// Events the ball has taken part in: a prediction made against an older count is
    /// stale.
    pub(super) counter: Vec<u32>,
    /// What each ball's last collisions left: see [`History`].
    pub(super) hist: Vec<History>,
}

impl Records {
    /// The records of `n` balls at a new epoch: every clock at 0, every counter at 0,
    /// every history cleared except, when `keep_bursts`, the collapse guard's memory
    /// (the last collision's time and the count of quick ones).
    pub(super) fn restart(&mut self, n: usize, keep_bursts: bool) {
        self.t.clear();
        self.t.resize(n, 0.0);
        self.counter.clear();
        self.counter.resize(n, 0);
        if !keep_bursts {
            self.hist.clear();
            self.hist.resize(n, History::NEW);
        } else {
            for h in &mut self.hist {
                *h = History {
                    t_last: h.t_last,
                    quick: h.quick,
                    ..History::NEW
                };
            }
        }
    }
}

/// What a failed step puts back: each ball changed in the interval as it was before its
/// first change (O(events), not O(N)), and the virials at the interval's start.
#[derive(Clone, Default)]
pub(super) struct Rollback {
    pub(super) undo: Vec<Undo>,
    /// The pair virial and the solver's virial at the start of the interval.
    pub(super) virial_at_start: (Virial, Virial),
}

/// The balls' identities in the model's layout while it works on its own (ball `k` of
/// the layout is ball `order[k]`; empty: the balls' own order), and the ball count from
/// which a start is laid out cell by cell. See `renumber.rs`.
#[derive(Clone)]
pub(super) struct Layout {
    pub(super) order: Vec<u32>,
    pub(super) renumber_from: usize,
}

/// Ball-ball contacts of each ball's last collision group, remembered so that a pair
/// that has just collided (and, in exact arithmetic, now separates) is never predicted
/// to collide again because of round-off.
pub(super) const MAX_PARTNERS: usize = 6;
pub(super) const PARTNERS_OVERFLOW: u8 = u8::MAX;

/// What a ball's last collisions left, read and written together at each of its
/// impacts: one record (48 bytes) rather than eight arrays, so that an impact at a
/// million balls asks memory for one or two cache lines of it instead of eight.
#[derive(Debug, Clone, Copy)]
pub(super) struct History {
    /// Time of the last collision, and how many collisions in a row came within tc.
    pub(super) t_last: f64,
    /// Serial of the collision group that last changed the ball (0: none).
    pub(super) group: u32,
    /// Scratch marks, compared with `serial`.
    pub(super) mark: u32,
    pub(super) hit: u32,
    /// The balls it touched in that group (`n_partners` of them, or
    /// `PARTNERS_OVERFLOW`).
    pub(super) partners: [u32; MAX_PARTNERS],
    pub(super) n_partners: u8,
    pub(super) quick: u8,
    /// Walls the ball rests on (bit `1 << wall`).
    pub(super) rest: u8,
}

impl History {
    pub(super) const NEW: History = History {
        t_last: f64::NEG_INFINITY,
        group: 0,
        mark: 0,
        hit: 0,
        partners: [0; MAX_PARTNERS],
        n_partners: 0,
        quick: 0,
        rest: 0,
    };
}

// The record's size is part of the memory per ball (the target is 250 bytes at a
// million balls): a field added here must not grow it unnoticed.
const _: () = assert!(std::mem::size_of::<History>() == 48);

/// A ball's state before its first change in the current interval. Image counts and
/// spin are kept only where the model can change them (a periodic axis, contact
/// friction): loading them would cost two more cache misses per ball at a million balls.
/// (On cloth, the spins are kept beside it: `OnCloth::undo`.)
#[derive(Debug, Clone, Copy)]
pub(super) struct Undo {
    pub(super) i: u32,
    pub(super) rest: u8,
    pub(super) images: Option<(i64, i64)>,
    pub(super) spin: Option<(f64, f64)>,
    pub(super) t: f64,
    pub(super) x: f64,
    pub(super) y: f64,
    pub(super) vx: f64,
    pub(super) vy: f64,
}

impl Undo {
    /// Ball `i` as it is now, with its own clock `t` and resting flags `rest`;
    /// `images` and `spin`: whether its image counts and its spin can change.
    /// (Always inlined, as are the other small steps of every collision: left to the
    /// compiler they stayed calls, and inlined they take 3% fewer instructions.)
    #[inline(always)]
    pub(super) fn of(b: &Balls, i: usize, rest: u8, t: f64, images: bool, spin: bool) -> Undo {
        Undo {
            i: i as u32,
            rest,
            images: images.then(|| (b.ix[i], b.iy[i])),
            spin: spin.then(|| (b.angle[i], b.omega[i])),
            t,
            x: b.x[i],
            y: b.y[i],
            vx: b.vx[i],
            vy: b.vy[i],
        }
    }
}
