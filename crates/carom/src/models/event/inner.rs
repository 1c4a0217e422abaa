//! Walls inside the table, pockets and open edges, in the event model.
//!
//! They are one more partner of a ball's contact events: each prediction of a ball
//! (its earliest contact) also asks for the earliest time of impact with the pieces of
//! wall and the pockets listed for its cell of the grid (all those within a largest
//! radius of the cell, so a ball never tests walls far from it, however many there
//! are), and for the time its centre crosses an open edge. The times of impact are the
//! shared ones of [`crate::walls::impact`]. A ball entering a new cell meets the pieces
//! listed there.
//!
//! An impact with a piece is resolved from the ball's contacts at that instant
//! ([`crate::walls::Walls::touches`]): one contact reflects the normal velocity with the
//! wall's restitution (or takes the rough-disk impulse with the wall's `mu`); several (a
//! ball in a concave corner, or touching two walls at once) are solved together, as
//! one impact of a ball against fixed surfaces: the normal impulses `lambda_k >= 0`
//! such that each contact leaves at least `e_k` times its approach speed, and a contact
//! that leaves faster takes no impulse (projected Gauss-Seidel on that complementarity
//! problem, to round-off). A ball struck by another ball while touching a wall in the
//! same instant takes the ball-ball impulse first, then the wall's: the wall's contact
//! with a moving neighbour is not yet part of the contact solver's clusters.
//!
//! On cloth each wall is a cushion met at its nose: see `on_cloth.rs` and
//! [`Inner::hit_on_cloth`].
//!
//! An exit (the centre entering a pocket or crossing an open edge) takes the ball out
//! of play at that instant: it stops, becomes immovable, leaves the grid and is
//! predicted no more; the world records it from [`super::Event::take_exits`].
//!
//! Under gravity the times of impact are those of parabolic flights (up to quartic for
//! an end or an arc, a pocket's rim), exact as without it. A ball that comes to rest on
//! a straight face slides along it (`on_face.rs`); one that rolls over a corner or a peg,
//! or swings inside an arc, moves on a circle (`on_round.rs`).

use super::cells::Cells;
use super::held::OnFace;
use super::kinds::{EXIT, NO_FACE, PIECE, POCKET};
use super::translating_walls::Moving;
use crate::balls::Balls;
use crate::contact;
use crate::physics::ContactFriction;
use crate::walls::impact::{edge_crossing, Flight};
use crate::walls::{Exit, Removal, Touch, Walls};

/// A ball taken out of play within the current step.
#[derive(Debug, Clone, Copy)]
pub(super) struct Taken {
    pub(super) i: u32,
    pub(super) by: Exit,
    /// Time since the start of the step.
    pub(super) after: f64,
    /// What the ball's masses were, for a failed step to put back.
    inv_m: f64,
    inv_inertia: f64,
}

/// The walls, pockets and open edges of the table, binned by the model's grid.
#[derive(Debug, Clone, Default)]
pub(super) struct Inner {
    pub(super) walls: Walls,
    pub(super) open: [bool; 2],
    pub(super) size: [f64; 2],
    /// `start[c]..start[c + 1]` indexes `items` for cell `c` of the grid (border
    /// included): pieces by index, pockets as `POCKET | k`, ascending.
    pub(super) start: Vec<u32>,
    pub(super) items: Vec<u32>,
    /// The grid and reach `start` and `items` were binned for (columns, rows, cell
    /// count, and the bits of the cell width, height and reach): the walls never change
    /// within a model, so a rebuild on the same grid finds the same lists and skips
    /// the work.
    binned: Option<[u64; 6]>,
    /// Balls out of play, by the model's index.
    pub(super) out: Vec<bool>,
    pub(super) taken: Vec<Taken>,
    /// Under gravity, the faces each ball rests on (`on_face.rs`), by the model's index.
    pub(super) on: Vec<OnFace>,
    /// What `on` held before each change in the current interval (ball, faces), for a
    /// failed step to put back.
    pub(super) on_undo: Vec<(u32, OnFace)>,
    /// The walls that translate, tested by every ball rather than binned by cell
    /// (`translating_walls.rs`); `None` when no wall moves.
    pub(super) moving: Option<Moving>,
    /// On cloth, while a ball held at a cushion by round-off is predicted afresh
    /// (`Event::unstick_on_cloth`): the pieces it touches with a normal velocity of
    /// round-off are not met (see [`graze`]).
    pub(super) grazing: bool,
    /// Scratch: one ball's contacts with the pieces (each with its restitution, the
    /// approach speed relative to the wall, and the wall's own speed along the normal,
    /// 0 for a fixed wall).
    touches: Vec<(Touch, f64, f64, f64)>,
    /// Scratch on cloth: the contacts as cushions (normal, restitution, friction,
    /// surface velocity, nose height), and the impulse each took.
    cushion_touches: Vec<super::cushions::Cushion>,
    cushion_impulses: Vec<f64>,
}

crate::copying::copy_fields!(Inner {
    open, size, start, items, binned, out, taken, on, on_undo, grazing, touches, cushion_touches,
    cushion_impulses
} deep {
    walls, moving
});

impl Inner {
    pub(super) fn new(walls: &Walls, open: [bool; 2], size: [f64; 2]) -> Inner {
        Inner {
            walls: walls.clone(),
            moving: Moving::of(walls),
            open,
            size,
            ..Inner::default()
        }
    }

    /// Lists, for every cell of `cells`, the pieces that come within `reach` of it and
    /// the pockets that overlap it.
    pub(super) fn bin(&mut self, cells: &Cells, reach: f64) {
        let count = cells.cell_count();
        let key = [
            cells.nx as u64,
            cells.ny as u64,
            count as u64,
            cells.cw.to_bits(),
            cells.ch.to_bits(),
            reach.to_bits(),
        ];
        if self.binned == Some(key) {
            return;
        }
        self.binned = Some(key);
        let margin = 1e-6 * cells.cw.max(cells.ch);
        let mut lists: Vec<(u32, u32)> = Vec::new();
        let mut add = |bx: [f64; 4], item: u32| {
            let col = |x: f64, w: f64, n: usize| ((x / w).max(0.0) as usize).min(n - 1);
            let (x0, x1) = (
                col(bx[0] - margin, cells.cw, cells.nx),
                col(bx[2] + margin, cells.cw, cells.nx),
            );
            let (y0, y1) = (
                col(bx[1] - margin, cells.ch, cells.ny),
                col(bx[3] + margin, cells.ch, cells.ny),
            );
            for cy in y0..=y1 {
                for cx in x0..=x1 {
                    lists.push((cells.index_of(cx, cy) as u32, item));
                }
            }
        };
        for (k, p) in self.walls.pieces().iter().enumerate() {
            // A moving piece is in no cell's list: every ball tests it (`translating_walls.rs`).
            if self.walls.motion(p.wall).is_some() {
                continue;
            }
            let b = p.bounds();
            add(
                [b[0] - reach, b[1] - reach, b[2] + reach, b[3] + reach],
                k as u32,
            );
        }
        for (k, p) in self.walls.pockets().iter().enumerate() {
            let (c, r) = (p.center, p.radius);
            add([c[0] - r, c[1] - r, c[0] + r, c[1] + r], POCKET | k as u32);
        }
        // Within a cell, pieces in their order, then pockets.
        lists.sort_unstable();
        self.start.clear();
        self.start.resize(count + 1, 0);
        for &(c, _) in &lists {
            self.start[c as usize + 1] += 1;
        }
        for c in 0..count {
            self.start[c + 1] += self.start[c];
        }
        self.items.clear();
        self.items.extend(lists.iter().map(|&(_, item)| item));
    }

    #[inline]
    pub(super) fn near(&self, c: u32) -> &[u32] {
        let c = c as usize;
        &self.items[self.start[c] as usize..self.start[c + 1] as usize]
    }

    /// The earliest impact with a piece listed for cell `c` or a moving piece, or exit
    /// (a pocket listed there, an open edge) of a ball of radius `r` on flight `f`
    /// starting at epoch time `now`: its time from now and its code ([`PIECE`] or
    /// [`EXIT`]).
    #[inline(never)]
    pub(super) fn next(
        &self,
        now: f64,
        c: u32,
        f: &Flight,
        r: f64,
        horizon: f64,
        skip: [u32; 2],
    ) -> Option<(f64, usize)> {
        let mut best: Option<(f64, usize)> = None;
        let mut offer = |t: Option<f64>, code: usize| {
            if let Some(t) = t {
                if best.is_none_or(|(b, _)| t < b) {
                    best = Some((t, code));
                }
            }
        };
        for &item in self.near(c) {
            if item & POCKET != 0 {
                let p = self.walls.pockets()[(item & !POCKET) as usize];
                offer(p.entry(f, horizon), EXIT);
            } else if skip[0] == NO_FACE {
                let piece = &self.walls.pieces()[item as usize];
                let mut t = piece.impact(f, r, horizon);
                if self.grazing && t.is_some() {
                    // Touching it, across it at a speed of round-off: slides along it.
                    let touch = piece.touch(item, f.p, r * (1.0 + 1e-9));
                    if touch.is_some_and(|c| graze(&c, f.v, f.a).is_some()) {
                        t = None;
                    }
                }
                offer(t, PIECE);
            } else if !skip.contains(&item) {
                // Resting on a face: the next segment's first point is the joint the
                // ball slides to, met at the face's end (`on_face.rs`).
                let piece = &self.walls.pieces()[item as usize];
                let after_joint = item > 0
                    && skip.contains(&(item - 1))
                    && self.walls.pieces()[item as usize - 1].joint_after;
                let t = if after_joint {
                    piece.impact_past_joint(f, r, horizon)
                } else {
                    piece.impact(f, r, horizon)
                };
                offer(t, PIECE);
            }
        }
        if let Some(m) = &self.moving {
            offer(m.next(&self.walls, now, f, r, horizon), PIECE);
        }
        for axis in 0..2 {
            if self.open[axis] {
                offer(edge_crossing(f, axis, self.size[axis], false), EXIT);
                offer(edge_crossing(f, axis, self.size[axis], true), EXIT);
            }
        }
        best
    }

    /// How a ball centred at `p`, at the moment of its exit, left: the pocket it is in
    /// (or nearest, within round-off of its rim), else the open edge it is on or beyond.
    pub(super) fn exit_at(&self, p: [f64; 2]) -> Exit {
        let mut best: Option<(f64, u32)> = None;
        for (k, q) in self.walls.pockets().iter().enumerate() {
            let d = (p[0] - q.center[0]).hypot(p[1] - q.center[1]) - q.radius;
            if d <= 1e-9 * q.radius && best.is_none_or(|(b, _)| d < b) {
                best = Some((d, k as u32));
            }
        }
        if let Some((_, k)) = best {
            return Exit::Pocket(k);
        }
        // The edge the centre is nearest to (on it or a hair beyond).
        let gaps = [
            (self.open[0], p[0], Exit::Left),
            (self.open[0], self.size[0] - p[0], Exit::Right),
            (self.open[1], p[1], Exit::Top),
            (self.open[1], self.size[1] - p[1], Exit::Bottom),
        ];
        gaps.into_iter()
            .filter(|g| g.0)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map_or(Exit::Left, |g| g.2)
    }

    /// Ball `i` takes its impact with the pieces it touches, at cell `c` and epoch time
    /// `now`: the contacts within round-off of touching that it moves into (relative to
    /// a moving wall). `e` is the restitution the collapse guard allows (`None`: each
    /// wall's own), `friction` the scene's contact friction. Returns the contacts that
    /// took an impulse.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn hit(
        &mut self,
        b: &mut Balls,
        i: usize,
        c: u32,
        now: f64,
        e: Option<f64>,
        e_scene: f64,
        friction: &ContactFriction,
    ) -> u64 {
        self.gather_touches(b, i, c, e, e_scene, Some(now));
        let rough = friction.is_active() || self.walls.any_own_friction();
        match self.touches.len() {
            0 => 0,
            1 if rough => {
                let (t, e_k, _, w) = self.touches[0];
                let (_, f, surface) = self.walls.law_at(&t, e_scene, friction);
                let into = [-t.normal[0], -t.normal[1]];
                if w != 0.0 {
                    // A moving wall: the approach relative to it (`translating_walls.rs`).
                    let j_n =
                        super::translating_walls::collide_rough(b, i, into, surface, -w, e_k, &f);
                    return u64::from(j_n > 0.0);
                }
                let j = contact::collide_moving_wall_rough(b, i, into, surface, e_k, &f);
                u64::from(j.j_n > 0.0)
            }
            1 => {
                let (t, e_k, u, _) = self.touches[0];
                let n = t.normal;
                b.vx[i] -= (1.0 + e_k) * u * n[0];
                b.vy[i] -= (1.0 + e_k) * u * n[1];
                1
            }
            _ => self.hit_together(b, i, rough, friction),
        }
    }

    /// [`Inner::hit`] for a ball on cloth: each wall a cushion, met at its nose
    /// (`cushion_height`, or the standard one) by Han's impulse with the wall's
    /// restitution, friction and surface velocity; several contacts in turn while any
    /// still approaches (`on_cloth::cushions`; `press`: how the cloth may press the ball
    /// into them). Each contact's normal impulse per unit
    /// mass is kept for the log ([`Inner::last_cushion_impulses`]). With `pressed`, the
    /// contacts are those the ball slides along while the cloth presses it in
    /// ([`Inner::gather_pressed`]) instead of those it moves into.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn hit_on_cloth(
        &mut self,
        b: &mut Balls,
        i: usize,
        press: &super::cushions::Press,
        c: u32,
        e: Option<f64>,
        e_scene: f64,
        friction: &ContactFriction,
        pressed: bool,
    ) -> u64 {
        // On cloth no wall moves (`models::create` refuses it).
        if pressed {
            self.gather_pressed(b, i, c, e, e_scene, press.acc);
        } else {
            self.gather_touches(b, i, c, e, e_scene, None);
        }
        let nose = crate::cushion::DEFAULT_NOSE_HEIGHT * b.r[i];
        self.cushion_touches.clear();
        for &(t, e_k, _, _) in &self.touches {
            let (_, f, surface) = self.walls.law_at(&t, e_scene, friction);
            let h = self.walls.cushion_height(t.wall).unwrap_or(nose);
            self.cushion_touches.push(super::cushions::Cushion {
                normal: t.normal,
                restitution: e_k,
                mu: f.mu,
                surface,
                nose: h,
                pressed_touch: pressed,
            });
        }
        self.cushion_impulses.clear();
        self.cushion_impulses.resize(self.touches.len(), 0.0);
        super::cushions::cushions(
            b,
            i,
            press,
            &self.cushion_touches,
            &mut self.cushion_impulses,
        )
    }

    /// The normal impulse per unit mass each contact of the last
    /// [`Inner::hit_on_cloth`] took, in the order of [`Inner::last_touches`].
    pub(super) fn last_cushion_impulses(&self) -> &[f64] {
        &self.cushion_impulses
    }

    /// Ball `i`'s contacts with the pieces listed for cell `c` (and, at epoch time
    /// `now`, the moving pieces) that it touches within round-off and moves into
    /// (relative to the wall), with each one's restitution (`e` if the collapse guard
    /// sets one, else the wall's own or `e_scene`), approach and wall speed along the
    /// normal: into `touches`.
    fn gather_touches(
        &mut self,
        b: &Balls,
        i: usize,
        c: u32,
        e: Option<f64>,
        e_scene: f64,
        now: Option<f64>,
    ) {
        let p = [b.x[i], b.y[i]];
        let reach = b.r[i] * (1.0 + 1e-9);
        let v = [b.vx[i], b.vy[i]];
        self.touches.clear();
        let surfaces = self.walls.surfaces();
        let (start, end) = (self.start[c as usize], self.start[c as usize + 1]);
        let items = &self.items[start as usize..end as usize];
        for t in fixed_touches(&self.walls, items, p, reach) {
            let u = v[0] * t.normal[0] + v[1] * t.normal[1];
            if u < 0.0 {
                let s = surfaces[t.wall as usize];
                let e_k = e.unwrap_or(s.restitution.unwrap_or(e_scene));
                self.touches.push((t, e_k, u, 0.0));
            }
        }
        if let (Some(m), Some(now)) = (&self.moving, now) {
            let touches = &mut self.touches;
            m.touches(&self.walls, now, p, reach, |t, wv| {
                let w = wv[0] * t.normal[0] + wv[1] * t.normal[1];
                let u = v[0] * t.normal[0] + v[1] * t.normal[1] - w;
                if u < 0.0 {
                    let s = surfaces[t.wall as usize];
                    let e_k = e.unwrap_or(s.restitution.unwrap_or(e_scene));
                    touches.push((t, e_k, u, w));
                }
            });
        }
    }

    /// On cloth, in place of [`Inner::gather_touches`]: ball `i`'s contacts that it does
    /// not move into but touches, sliding along them, while the cloth (its acceleration
    /// `acc`) presses it in ([`Graze::Pressed`]), to be met as soft impacts at zero
    /// speed (`soft.rs`).
    fn gather_pressed(
        &mut self,
        b: &Balls,
        i: usize,
        c: u32,
        e: Option<f64>,
        e_scene: f64,
        acc: [f64; 2],
    ) {
        let p = [b.x[i], b.y[i]];
        let reach = b.r[i] * (1.0 + 1e-9);
        let v = [b.vx[i], b.vy[i]];
        self.touches.clear();
        let surfaces = self.walls.surfaces();
        let (start, end) = (self.start[c as usize], self.start[c as usize + 1]);
        let items = &self.items[start as usize..end as usize];
        for t in fixed_touches(&self.walls, items, p, reach) {
            let u = v[0] * t.normal[0] + v[1] * t.normal[1];
            if u >= 0.0 && graze(&t, v, acc) == Some(Graze::Pressed) {
                let s = surfaces[t.wall as usize];
                let e_k = e.unwrap_or(s.restitution.unwrap_or(e_scene));
                // Met at zero speed (the log's approach speed is `-u`: 0).
                self.touches.push((t, e_k, -0.0, 0.0));
            }
        }
    }

    /// The contacts of the last [`Inner::hit`], for the event log: each one's wall
    /// (`[[walls]]` entry), unit normal towards the ball, and approach speed.
    pub(super) fn last_touches(&self) -> impl Iterator<Item = (u32, [f64; 2], f64)> + '_ {
        self.touches
            .iter()
            .map(|(t, _, u, _)| (t.wall, t.normal, -u))
    }

    /// Several contacts of one ball with fixed surfaces, solved together: normal
    /// impulses `lambda_k >= 0` with `u_k' >= -e_k u_k` and `lambda_k (u_k' + e_k u_k)
    /// = 0`, by projected Gauss-Seidel (for a ball against fixed walls the problem is
    /// small and well conditioned: a concave corner converges in a few sweeps). With
    /// friction, the rough-disk law is applied contact by contact over the same sweeps.
    fn hit_together(
        &mut self,
        b: &mut Balls,
        i: usize,
        rough: bool,
        friction: &ContactFriction,
    ) -> u64 {
        let w = b.inv_m[i];
        if w == 0.0 {
            return 0;
        }
        let speed = b.vx[i].hypot(b.vy[i]);
        let mut lambda = [0.0f64; 8];
        let n = self.touches.len().min(lambda.len());
        for _ in 0..1000 {
            let mut change: f64 = 0.0;
            for (k, &(t, e_k, u0, wall_n)) in self.touches[..n].iter().enumerate() {
                let nk = t.normal;
                if rough {
                    let (_, f, surface) = self.walls.law_at(&t, 0.0, friction);
                    let into = [-nk[0], -nk[1]];
                    let before = [b.vx[i], b.vy[i]];
                    lambda[k] += if wall_n != 0.0 {
                        super::translating_walls::collide_rough(
                            b, i, into, surface, -wall_n, e_k, &f,
                        )
                    } else {
                        contact::collide_moving_wall_rough(b, i, into, surface, e_k, &f).j_n
                    };
                    change = change.max((b.vx[i] - before[0]).hypot(b.vy[i] - before[1]));
                    continue;
                }
                // Relative to the wall (`wall_n` is 0 for a fixed wall: `u` as it was).
                let u = b.vx[i] * nk[0] + b.vy[i] * nk[1] - wall_n;
                // The velocity this contact must leave with, at least.
                let target = -e_k * u0;
                let next = (lambda[k] + (target - u) / w).max(0.0);
                let d = next - lambda[k];
                if d != 0.0 {
                    b.vx[i] += d * w * nk[0];
                    b.vy[i] += d * w * nk[1];
                    lambda[k] = next;
                    change = change.max((d * w).abs());
                }
            }
            if change <= 1e-15 * speed {
                break;
            }
        }
        lambda[..n].iter().filter(|&&l| l > 0.0).count() as u64
    }

    /// Records ball `i` taken out of play, `after` the start of the step, and freezes
    /// it (at rest, immovable, no spin).
    pub(super) fn take(&mut self, b: &mut Balls, i: usize, by: Exit, after: f64) {
        self.taken.push(Taken {
            i: i as u32,
            by,
            after,
            inv_m: b.inv_m[i],
            inv_inertia: b.inv_inertia[i],
        });
        b.vx[i] = 0.0;
        b.vy[i] = 0.0;
        b.omega[i] = 0.0;
        b.inv_m[i] = 0.0;
        b.inv_inertia[i] = 0.0;
        self.out[i] = true;
    }

    /// A failed step: the balls taken out in it come back into play as they were
    /// (their motion is put back by the step's undo records).
    pub(super) fn give_back(&mut self, b: &mut Balls) {
        for t in self.taken.drain(..).rev() {
            let i = t.i as usize;
            b.inv_m[i] = t.inv_m;
            b.inv_inertia[i] = t.inv_inertia;
            self.out[i] = false;
        }
    }

    /// The exits of the last step, for the world.
    pub(super) fn removals(&mut self, out: &mut Vec<(usize, Removal)>) {
        for t in self.taken.drain(..) {
            out.push((
                t.i as usize,
                Removal {
                    time: t.after,
                    by: t.by,
                },
            ));
        }
    }
}

/// How a ball on cloth touching a piece (contact `t`) with a velocity `v` across it of
/// round-off (left so by a soft impact, or rolling along a cushion) meets it: it slides
/// along the cushion, and meets it only if the cloth presses it in (its acceleration
/// into the cushion beyond round-off), as a soft impact at zero speed (`soft.rs`).
/// `None` if it really moves into the cushion or away from it. Judged on the contact's
/// own normal (from the contact point to the centre), which the impact uses; the
/// prediction of a face reads the velocity along the face's normal, which differs from
/// it by round-off (see `Event::unstick_on_cloth`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Graze {
    Slides,
    Pressed,
}

/// See [`Graze`]: the bound on round-off is 1e-12 of the speed (and of the
/// acceleration for the press), as for a pair.
#[inline]
pub(super) fn graze(t: &Touch, v: [f64; 2], acc: [f64; 2]) -> Option<Graze> {
    let u = v[0] * t.normal[0] + v[1] * t.normal[1];
    if u.abs() > 1e-12 * v[0].hypot(v[1]) {
        return None;
    }
    let press = -(acc[0] * t.normal[0] + acc[1] * t.normal[1]);
    Some(if press > 1e-12 * acc[0].hypot(acc[1]) {
        Graze::Pressed
    } else {
        Graze::Slides
    })
}

/// The fixed pieces among a cell's `items` (pockets left out) that a ball at `p`
/// touches within `reach`, in the cell's order: what both gatherings of touches scan.
fn fixed_touches<'a>(
    walls: &'a Walls,
    items: &'a [u32],
    p: [f64; 2],
    reach: f64,
) -> impl Iterator<Item = Touch> + 'a {
    items
        .iter()
        .filter(|&&k| k & POCKET == 0)
        .filter_map(move |&k| walls.pieces()[k as usize].touch(k, p, reach))
}
