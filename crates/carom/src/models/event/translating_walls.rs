//! Walls inside the table that translate at constant velocity, in the event model.
//!
//! In the frame of a wall moving at a constant velocity `V` the wall is fixed and a
//! ball moves at `v - V` (under the same uniform acceleration, Galilean invariance),
//! so its time of impact with the wall's face, ends or arc is the fixed wall's time of
//! the relative flight: the same linear root for a face, quadratic for an end or an
//! arc ([`crate::walls::impact`]), exact as for a fixed wall. The impact reflects the
//! relative normal velocity with the wall's restitution (`v_n' = V_n - e (v_n - V_n)`,
//! so `2 V_n - v_n` for `e = 1`), and the rough-disk law takes the wall's material
//! velocity as the surface's.
//!
//! Where a wall is: its place (`offset` from its points as given) is a straight line in
//! the model's clock, `offset(t) = origin + V (t - t0)`, with the origin the place the
//! world gave when the predictions were last made afresh (`t0`: the start of that
//! epoch) and `t0` moved with every shift of the epoch. After each step the world
//! takes the walls' place from that line ([`crate::models::CollisionModel::place_walls`])
//! rather than summing `V dt` itself, so the state file holds the place the model
//! used, and a run resumed from it (which starts its line there) continues as a run
//! that was read at the same instant (which also starts afresh there): bit for bit.
//!
//! Which balls test which moving pieces: a moving wall sweeps across the grid's cells,
//! so its pieces are not binned by cell. They are kept in one short list that every
//! prediction of every ball tests after its cell's fixed pieces (and every impact
//! gathers touches from). Re-binning a moving piece as it crosses cells would need
//! crossing events of its own for the walls and a re-prediction of every ball in the
//! cells it enters; the list costs one time of impact per moving piece per prediction,
//! which is nothing for the few moving walls a scene has (a piston, a lid), and keeps
//! the predictions exact at any wall speed. A scene without moving walls has no list
//! and runs as before.
//!
//! What is not modelled: a wall that turns (its impacts are not polynomial roots: the
//! design keeps rotation to the stepping models), a servo (its speed follows the
//! contact forces, which hard disks do not have), and gravity (a ball that comes to
//! rest on a moving face would need the resting machinery of `on_face.rs` in the
//! wall's frame). `crate::models::create` refuses those with one line naming the key.

use crate::balls::Balls;
use crate::contact;
use crate::physics::ContactFriction;
use crate::walls::impact::Flight;
use crate::walls::{Touch, Walls};

/// The translating walls of a scene and their straight paths in the model's clock.
#[derive(Debug, Clone, Default)]
pub(super) struct Moving {
    /// The moving walls' pieces (indices into the walls' pieces), ascending.
    pieces: Vec<u32>,
    /// Per wall (`[[walls]]` entry), its velocity (zero for a fixed wall, never read).
    velocity: Vec<[f64; 2]>,
    /// Per wall, its place at epoch time `t0`.
    origin: Vec<[f64; 2]>,
    t0: f64,
}

crate::copying::copy_fields!(Moving { pieces, velocity, origin, t0 });

impl Moving {
    /// The moving walls of `walls`, starting at their places now; `None` when no wall
    /// moves.
    pub(super) fn of(walls: &Walls) -> Option<Moving> {
        if !walls.moves() {
            return None;
        }
        let pieces = walls
            .pieces()
            .iter()
            .enumerate()
            .filter(|(_, p)| walls.motion(p.wall).is_some())
            .map(|(k, _)| k as u32)
            .collect();
        let velocity = walls
            .motions()
            .iter()
            .map(|m| m.map_or([0.0, 0.0], |m| m.translation()))
            .collect();
        let mut m = Moving {
            pieces,
            velocity,
            origin: Vec::new(),
            t0: 0.0,
        };
        m.restart(walls);
        Some(m)
    }

    /// Starts the paths afresh at epoch time 0 from the walls' places in `walls`.
    pub(super) fn restart(&mut self, walls: &Walls) {
        self.origin.clear();
        self.origin.extend(
            walls
                .motions()
                .iter()
                .map(|m| m.map_or([0.0, 0.0], |m| m.offset)),
        );
        self.t0 = 0.0;
    }

    /// The epoch moved forward by `shift`.
    pub(super) fn shift(&mut self, shift: f64) {
        self.t0 -= shift;
    }

    /// Wall `wall`'s place at epoch time `t`.
    #[inline]
    pub(super) fn offset(&self, wall: u32, t: f64) -> [f64; 2] {
        let (o, v) = (self.origin[wall as usize], self.velocity[wall as usize]);
        let s = t - self.t0;
        [o[0] + v[0] * s, o[1] + v[1] * s]
    }

    #[inline]
    pub(super) fn velocity(&self, wall: u32) -> [f64; 2] {
        self.velocity[wall as usize]
    }

    /// The earliest impact within `horizon` of a ball of radius `r` on flight `f`
    /// (started at epoch time `now`) with a moving piece: the fixed piece as given met
    /// by the flight relative to its wall.
    #[inline(never)]
    pub(super) fn next(
        &self,
        walls: &Walls,
        now: f64,
        f: &Flight,
        r: f64,
        horizon: f64,
    ) -> Option<f64> {
        let base = walls.base();
        let mut best: Option<f64> = None;
        for &k in &self.pieces {
            let piece = &base[k as usize];
            let (o, v) = (self.offset(piece.wall, now), self.velocity(piece.wall));
            let rel = Flight {
                p: [f.p[0] - o[0], f.p[1] - o[1]],
                v: [f.v[0] - v[0], f.v[1] - v[1]],
                a: f.a,
            };
            if let Some(t) = piece.impact(&rel, r, horizon) {
                if best.is_none_or(|b| t < b) {
                    best = Some(t);
                }
            }
        }
        best
    }

    /// Every touch within `reach` of a ball centred at `p` at epoch time `now` with a
    /// moving piece, in the lab's frame (its point moved with the wall), with the
    /// wall's velocity.
    #[inline]
    pub(super) fn touches(
        &self,
        walls: &Walls,
        now: f64,
        p: [f64; 2],
        reach: f64,
        mut each: impl FnMut(Touch, [f64; 2]),
    ) {
        let base = walls.base();
        for &k in &self.pieces {
            let piece = &base[k as usize];
            let o = self.offset(piece.wall, now);
            if let Some(mut t) = piece.touch(k, [p[0] - o[0], p[1] - o[1]], reach) {
                t.point = [t.point[0] + o[0], t.point[1] + o[1]];
                each(t, self.velocity(piece.wall));
            }
        }
    }
}

/// One rough collision of ball `i` with a wall whose material moves at `surface`
/// (its translation plus its `surface_velocity` along it), `n` from the ball into the
/// wall and `w_n = V . n` the wall's own speed along `n`: the rough-disk law on the
/// velocities relative to the wall. Returns the normal impulse.
#[inline]
pub(super) fn collide_rough(
    b: &mut Balls,
    i: usize,
    n: [f64; 2],
    surface: [f64; 2],
    w_n: f64,
    e: f64,
    friction: &ContactFriction,
) -> f64 {
    // The tangential slip is already relative to `surface`; the normal approach is
    // made relative here.
    let (u_n, u_t, k_n, k_t) = contact::moving_wall_state(b, i, n, surface);
    let c = contact::rough_impulse(u_n - w_n, u_t, k_n, k_t, e, friction);
    if c.j_n > 0.0 {
        contact::apply_wall(b, i, n, c.j_n, c.j_t);
    }
    c.j_n
}
