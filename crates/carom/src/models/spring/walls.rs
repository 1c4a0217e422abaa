//! Walls inside the table in the `spring` model: every contact of a ball with a wall
//! (see [`crate::walls::geometry`]) pushes with Hooke's law on the penetration of the
//! nearest point, `F = k (r - d)` along the normal from that point to the centre, with
//! the wall's own restitution (the force scaled by `e^2` while the surfaces separate,
//! as at the table's walls). With contact friction a tangential spring per ball and
//! piece (Cundall-Strack, as at the table's walls) acts against the slip of the
//! ball's surface over the wall's, which moves at the wall's `surface_velocity`.
//!
//! A moving wall (see [`crate::walls::motion`]) stands where it is at the step's start,
//! and the approach and slip are measured relative to its material's velocity at the
//! contact. Every force here is a ball's own (the wall's motion is prescribed), so the
//! per-ball pass that applies them reads nothing of any other ball: the step stays
//! bit-identical whatever the thread count.

use super::phase;
use crate::walls::{Touch, WallCells, Walls};

/// Tangential springs a ball remembers on interior walls at once. A ball meets more
/// pieces than this only in a crowd of walls (a concave corner is two): the extra
/// contacts then start their spring afresh each step, acting as a viscous drag capped
/// by Coulomb, which is still dissipative.
pub(super) const SLOTS: usize = 4;

/// No piece: an empty slot.
pub(super) const EMPTY: u32 = u32::MAX;

/// One ball's tangential springs on interior walls: `(piece, stretch)`.
pub(super) type WallSprings = [(u32, f64); SLOTS];

pub(super) const NO_SPRINGS: WallSprings = [(EMPTY, 0.0); SLOTS];

/// What the per-ball pass needs to apply interior walls.
#[derive(Clone, Copy)]
pub(super) struct Interior<'a> {
    pub walls: &'a Walls,
    pub cells: &'a WallCells,
    pub k: f64,
    pub dt: f64,
    /// The global restitution and contact-friction coefficient, for walls that give
    /// none of their own.
    pub e: f64,
    pub mu: f64,
    /// Tangential stiffness.
    pub k_t: f64,
}

impl Interior<'_> {
    /// Calls `each` for every interior wall contact of a ball at `(x, y)` of radius `r`.
    #[inline]
    fn touches(&self, x: f64, y: f64, r: f64, each: impl FnMut(Touch)) {
        self.walls.touches(self.cells.near(x, y), [x, y], r, each);
    }

    /// The ball's speed away from the wall along the contact's normal, relative to the
    /// wall's material there (a fixed wall's is the ball's own).
    #[inline]
    fn normal_speed(&self, t: &Touch, vx: f64, vy: f64) -> f64 {
        let vn = vx * t.normal[0] + vy * t.normal[1];
        match self.walls.wall_velocity(t.wall, t.point) {
            Some(v) => vn - (v[0] * t.normal[0] + v[1] * t.normal[1]),
            None => vn,
        }
    }

    /// The normal force of one contact on the ball, and whether it began this step.
    #[inline]
    fn normal(&self, t: &Touch, r: f64, vx: f64, vy: f64, w: f64) -> (f64, u64) {
        let e = self.walls.surfaces()[t.wall as usize]
            .restitution
            .unwrap_or(self.e);
        let s = r - t.distance;
        let vn = self.normal_speed(t, vx, vy);
        let f = self.k * s * phase(self.k, self.dt, e * e, vn, s, w);
        // The overlap a step ago, from the normal speed: none means it began now.
        (f, u64::from(s + self.dt * vn <= 0.0))
    }

    /// The summed force of the interior walls on a frictionless ball, and the contacts
    /// begun. A ball of infinite mass (kinematic, or out of play) feels none.
    #[inline]
    pub fn force(&self, x: f64, y: f64, vx: f64, vy: f64, r: f64, w: f64) -> (f64, f64, u64) {
        let (mut fx, mut fy, mut began) = (0.0, 0.0, 0);
        if w == 0.0 {
            return (fx, fy, began);
        }
        self.touches(x, y, r, |t| {
            let (f, b) = self.normal(&t, r, vx, vy, w);
            fx += f * t.normal[0];
            fy += f * t.normal[1];
            began += b;
        });
        (fx, fy, began)
    }

    /// The force and torque of the interior walls on a ball with contact friction,
    /// advancing its tangential springs; the contacts begun.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn rough_force(
        &self,
        (x, y, vx, vy, om): (f64, f64, f64, f64, f64),
        r: f64,
        w: f64,
        springs: &mut WallSprings,
    ) -> (f64, f64, f64, u64) {
        let (mut fx, mut fy, mut torque, mut began) = (0.0, 0.0, 0.0, 0);
        if w == 0.0 {
            *springs = NO_SPRINGS;
            return (fx, fy, torque, began);
        }
        let old = *springs;
        let mut kept = NO_SPRINGS;
        let mut slot = 0;
        self.touches(x, y, r, |t| {
            let (f_n, b) = self.normal(&t, r, vx, vy, w);
            began += b;
            fx += f_n * t.normal[0];
            fy += f_n * t.normal[1];
            let surface = &self.walls.surfaces()[t.wall as usize];
            let mu = surface.mu.unwrap_or(self.mu);
            // The contact.rs conventions with `n` from the ball into the wall: the
            // tangent `(-n_y, n_x)` and the slip of the ball's contact point over the
            // wall's surface, which moves at `surface_velocity` along the curve (and
            // with the wall's own velocity when it moves).
            let tan = [t.normal[1], -t.normal[0]];
            let sv = surface.surface_velocity;
            let (mut ux, mut uy) = (vx - sv * t.tangent[0], vy - sv * t.tangent[1]);
            if let Some(v) = self.walls.wall_velocity(t.wall, t.point) {
                ux -= v[0];
                uy -= v[1];
            }
            let u_t = ux * tan[0] + uy * tan[1] + om * r;
            let mut xi = old.iter().find(|s| s.0 == t.piece).map_or(0.0, |s| s.1);
            let stretch = xi + u_t * self.dt;
            let f = -self.k_t * stretch;
            let cap = mu * f_n.abs();
            let f_t = if f.abs() <= cap {
                xi = stretch;
                f
            } else {
                let f = -cap.copysign(stretch);
                xi = if self.k_t > 0.0 { -f / self.k_t } else { 0.0 };
                f
            };
            fx += f_t * tan[0];
            fy += f_t * tan[1];
            torque += r * f_t;
            if slot < SLOTS && xi != 0.0 {
                kept[slot] = (t.piece, xi);
                slot += 1;
            }
        });
        *springs = kept;
        (fx, fy, torque, began)
    }

    /// The energy of the springs of a ball's interior wall contacts: `k s^2 / 2`
    /// (scaled by `e^2` while separating, as the force is).
    pub fn energy(&self, x: f64, y: f64, vx: f64, vy: f64, r: f64) -> f64 {
        let mut e = 0.0;
        self.touches(x, y, r, |t| {
            let s = r - t.distance;
            let vn = self.normal_speed(&t, vx, vy);
            let wall_e = self.walls.surfaces()[t.wall as usize]
                .restitution
                .unwrap_or(self.e);
            e += 0.5 * self.k * s * s * if vn > 0.0 { wall_e * wall_e } else { 1.0 };
        });
        e
    }
}
