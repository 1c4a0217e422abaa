//! The `impulse` model (tutorial levels 3 and 4, "deterministic collisions"): free
//! flight for the whole step, then every overlapping pair in ascending `(i, j)` order
//! gets an instantaneous collision, then the walls. Processing is sequential on purpose
//! ("the last collision wins"): a ball in several overlaps keeps only what the last
//! one left it, which is why this model breaks the symmetry of a billiard break.
//!
//! Walls inside the table come last, after the table's own: each ball in ascending
//! order, each of its contacts with the pieces near it in ascending piece order (a
//! concave corner is two contacts, one after the other), reflected as at the table's
//! walls along the contact's normal, with the wall's own restitution and friction and
//! its surface's velocity.
//!
//! On cloth (`physics.friction` of kind `cloth`) the free flight is the cloth's closed
//! form (`friction::cloth_motion`, exact for a ball that meets nothing, phase
//! changes logged at their times), the pairs collide as above (with contact friction by
//! the rough-sphere law of `contact`, whose vertical slip and impulse involve
//! the spins about the table's axes), and every wall, the table's and those inside it, is a cushion
//! ([`super::cushions`]) in the same order.

use rayon::prelude::*;

use super::{wrap_positions, CollisionModel, StepContext, StepError};
use crate::balls::Balls;
use crate::broadphase::{block_len, ListBlock, NeighbourList};
use crate::cloth::Cloth;
use crate::contact::{self, tangential_impulse};
use crate::event_log::LoggedEvent;
use crate::friction::{cloth_motion, ClothMotion};
use crate::models::Wall;
use crate::physics::ContactFriction;
use crate::physics::ModelKind;
use crate::stress::{self, Tensor};
use crate::table::Table;
use crate::walls::{WallCells, Walls};

/// The neighbour-list skin, in units of the largest radius (speed only, never results).
const SKIN: f64 = 0.8;

/// Finding the overlapping pairs is read-only and runs in parallel over blocks of the
/// neighbour list; only the collisions themselves are applied one after the other, in
/// ascending `(i, j)` order, which is the model's definition.
#[derive(Default)]
pub struct Impulse {
    list: NeighbourList,
    /// Overlapping pairs of this step, per block of the list.
    overlaps: Vec<Vec<(u32, u32)>>,
    collisions: u64,
    /// Sum of `r_ij . J_ij` over the pair impulses applied (for the pressure).
    virial: f64,
    /// Sum of `r_ij (x) J_ij` over the same impulses (see [`crate::stress`]).
    virial_tensor: Tensor,
    /// The walls inside the table binned for the largest radius (none without walls).
    wall_cells: Option<WallCells>,
    /// Per ball, whether it is in play (empty while every ball is): the list leaves the
    /// others out.
    in_play: Vec<bool>,
    /// The event log of the steps not yet drained, when kept: every row at the step's
    /// end, the moment the model resolves its impacts.
    log: Option<Vec<LoggedEvent>>,
}

impl Impulse {
    pub fn new() -> Impulse {
        Impulse::default()
    }
}

/// Free flight over `dt` (as [`super::free_flight`], the same arithmetic) of one block;
/// returns the largest squared displacement.
fn fly(
    x: &mut [f64],
    y: &mut [f64],
    vx: &mut [f64],
    vy: &mut [f64],
    inv_m: &[f64],
    gravity: [f64; 2],
    dt: f64,
) -> f64 {
    let (hx, hy) = (0.5 * gravity[0] * dt * dt, 0.5 * gravity[1] * dt * dt);
    let (gx, gy) = (gravity[0] * dt, gravity[1] * dt);
    let mut d2max: f64 = 0.0;
    for k in 0..x.len() {
        let (x0, y0) = (x[k], y[k]);
        if inv_m[k] == 0.0 {
            x[k] += vx[k] * dt;
            y[k] += vy[k] * dt;
        } else {
            x[k] += vx[k] * dt + hx;
            y[k] += vy[k] * dt + hy;
            vx[k] += gx;
            vy[k] += gy;
        }
        let (dx, dy) = (x[k] - x0, y[k] - y0);
        d2max = d2max.max(dx * dx + dy * dy);
    }
    d2max
}

/// The listed pairs of one block that overlap or touch now (the exact test is
/// [`collide_pair`]'s).
fn overlapping(
    x: &[f64],
    y: &[f64],
    r: &[f64],
    table: &Table,
    block: &ListBlock,
    out: &mut Vec<(u32, u32)>,
) {
    out.clear();
    for &(i, j) in block.pairs() {
        let (iu, ju) = (i as usize, j as usize);
        let (dx, dy) = table.min_image(x[ju] - x[iu], y[ju] - y[iu]);
        let reach = r[iu] + r[ju];
        if dx * dx + dy * dy <= reach * reach {
            out.push((i, j));
        }
    }
}

impl CollisionModel for Impulse {
    fn kind(&self) -> ModelKind {
        ModelKind::Impulse
    }

    fn step(&mut self, ctx: StepContext<'_>) -> Result<(), StepError> {
        let StepContext {
            balls,
            table,
            physics,
            pool,
            walls,
            in_play,
        } = ctx;
        let (gravity, dt) = (physics.gravity, physics.dt);
        let bl = block_len(balls.len());
        // A change of the mask came with an invalidation, so the list rebuilds with it.
        self.in_play.clear();
        if let Some(m) = in_play {
            self.in_play.extend_from_slice(m);
        }
        let cloth = Cloth::of(&physics.friction);
        let d2max = if let Some(cloth) = &cloth {
            match self.log.as_mut() {
                None => cloth_motion::<false>(
                    balls,
                    cloth,
                    gravity,
                    dt,
                    ClothMotion::Flight,
                    &mut Vec::new(),
                    None,
                ),
                Some(log) => {
                    cloth_motion::<true>(balls, cloth, gravity, dt, ClothMotion::Flight, log, None)
                }
            }
        } else {
            let Balls {
                x,
                y,
                vx,
                vy,
                inv_m,
                ..
            } = &mut *balls;
            let blocks = x
                .chunks_mut(bl)
                .zip(y.chunks_mut(bl))
                .zip(vx.chunks_mut(bl).zip(vy.chunks_mut(bl)))
                .zip(inv_m.chunks(bl));
            let flight = |(((x, y), (vx, vy)), w): FlightBlock| fly(x, y, vx, vy, w, gravity, dt);
            match pool {
                None => blocks.map(flight).fold(0.0, f64::max),
                Some(pool) => pool.install(|| {
                    x.par_chunks_mut(bl)
                        .zip(y.par_chunks_mut(bl))
                        .zip(vx.par_chunks_mut(bl).zip(vy.par_chunks_mut(bl)))
                        .zip(inv_m.par_chunks(bl))
                        .map(flight)
                        .reduce(|| 0.0, f64::max)
                }),
            }
        };
        self.list.moved(d2max.sqrt());
        wrap_positions(balls, table);
        // Radii change only through an edit of the balls, which invalidates the list:
        // while it is current, the skin (from the largest radius) needs no new scan.
        if !self.list.is_current(balls.len()) {
            let skin = SKIN * balls.max_radius();
            self.list.update_masked(
                &balls.x,
                &balls.y,
                &balls.r,
                skin,
                table,
                pool,
                &self.in_play,
            );
        }
        // Overlap is decided once, on the positions after free flight; approach is
        // decided on the velocities as earlier collisions of this step left them.
        let blocks = self.list.blocks();
        self.overlaps.resize_with(blocks.len(), Vec::new);
        let (x, y, r) = (&balls.x[..], &balls.y[..], &balls.r[..]);
        let find = |(block, out): (&ListBlock, &mut Vec<(u32, u32)>)| {
            overlapping(x, y, r, table, block, out)
        };
        match pool {
            None => blocks.iter().zip(self.overlaps.iter_mut()).for_each(find),
            Some(pool) => pool.install(|| {
                blocks
                    .par_iter()
                    .zip(self.overlaps.par_iter_mut())
                    .for_each(find)
            }),
        }
        // The log's code is compiled into a copy of the collision passes of its own, so
        // the passes run without it exactly as they did before it existed.
        let cloth = cloth.is_some();
        match self.log.take() {
            None => self.collide::<false>(balls, table, physics, walls, cloth, &mut Vec::new()),
            Some(mut log) => {
                self.collide::<true>(balls, table, physics, walls, cloth, &mut log);
                self.log = Some(log);
            }
        }
        Ok(())
    }

    fn collisions(&self) -> u64 {
        self.collisions
    }

    fn virial(&self) -> f64 {
        self.virial
    }

    fn virial_tensor(&self) -> Tensor {
        self.virial_tensor
    }

    fn invalidate(&mut self) {
        self.list.invalidate();
    }

    fn set_event_log(&mut self, on: bool) {
        self.log = on.then(Vec::new);
    }

    fn take_events(&mut self, out: &mut Vec<LoggedEvent>) {
        if let Some(log) = self.log.as_mut() {
            out.append(log);
        }
    }
}

/// The centre distance of pair `(i, j)` (minimum image) and its relative normal speed
/// of approach, for the log, read before the collision changes the velocities.
fn approach(balls: &Balls, table: &Table, i: u32, j: u32) -> (f64, f64) {
    let (i, j) = (i as usize, j as usize);
    let (dx, dy) = table.min_image(balls.x[j] - balls.x[i], balls.y[j] - balls.y[i]);
    let d = dx.hypot(dy);
    let u = ((balls.vx[i] - balls.vx[j]) * dx + (balls.vy[i] - balls.vy[j]) * dy) / d;
    (d, u)
}

impl Impulse {
    /// The collisions of the step, in the model's order: the overlapping pairs found,
    /// then the table's walls, then the walls inside the table (as cushions on
    /// `cloth`). With `LOG`, every impact applied is also written to `log`, timed at
    /// the step's end.
    fn collide<const LOG: bool>(
        &mut self,
        balls: &mut Balls,
        table: &Table,
        physics: &crate::physics::Physics,
        walls: &Walls,
        cloth: bool,
        log: &mut Vec<LoggedEvent>,
    ) {
        let (e, dt) = (physics.restitution, physics.dt);
        let glitch_prevention = physics.glitch_prevention;
        let friction = &physics.contact_friction;
        if friction.is_active() {
            // Rough disks: the same order and the same tests, the impulse of
            // `contact::rough_impulse` (kept apart so frictionless runs stay as they were).
            for &(i, j) in self.overlaps.iter().flatten() {
                let before = if LOG {
                    approach(balls, table, i, j)
                } else {
                    (0.0, 0.0)
                };
                if let Some(v) = collide_pair_rough(
                    balls,
                    table,
                    i as usize,
                    j as usize,
                    e,
                    glitch_prevention,
                    friction,
                    cloth,
                    &mut self.virial_tensor,
                ) {
                    self.collisions += 1;
                    self.virial += v;
                    if LOG {
                        log.push(LoggedEvent::pair(dt, i, j, v / before.0, before.1));
                    }
                }
            }
            if cloth {
                self.collisions += self.cushions::<LOG>(balls, table, physics, walls, log);
                return;
            }
            self.collisions += bounce_walls_rough_with::<LOG>(
                balls,
                table,
                e,
                glitch_prevention,
                friction,
                log,
                dt,
            );
        } else {
            for &(i, j) in self.overlaps.iter().flatten() {
                let before = if LOG {
                    approach(balls, table, i, j)
                } else {
                    (0.0, 0.0)
                };
                let tensor = &mut self.virial_tensor;
                if let Some(v) = collide_pair(
                    balls,
                    table,
                    i as usize,
                    j as usize,
                    e,
                    glitch_prevention,
                    tensor,
                ) {
                    self.collisions += 1;
                    self.virial += v;
                    if LOG {
                        log.push(LoggedEvent::pair(dt, i, j, v / before.0, before.1));
                    }
                }
            }
            if cloth {
                self.collisions += self.cushions::<LOG>(balls, table, physics, walls, log);
                return;
            }
            self.collisions +=
                bounce_walls_with::<LOG>(balls, table, e, glitch_prevention, log, dt);
        }
        self.collisions += self.bounce_interior::<LOG>(balls, table, physics, walls, log);
    }

    /// On cloth, every wall as a cushion, in the order of the walls' disk law: the
    /// table's walls then those inside the table, by ball. Returns the impacts.
    fn cushions<const LOG: bool>(
        &mut self,
        balls: &mut Balls,
        table: &Table,
        physics: &crate::physics::Physics,
        walls: &Walls,
        log: &mut Vec<LoggedEvent>,
    ) -> u64 {
        let r_max = balls.max_radius();
        let cells = super::cushions::cells_for(&mut self.wall_cells, walls, table, r_max);
        let reach = super::cushions::Reach {
            slack: 0.0,
            approach: 0.0,
        };
        super::cushions::bounce::<LOG>(balls, table, physics, walls, cells, reach, log, physics.dt)
    }

    /// The walls inside the table, after the table's own: see the module's outline.
    /// Returns the bounces.
    fn bounce_interior<const LOG: bool>(
        &mut self,
        balls: &mut Balls,
        table: &Table,
        physics: &crate::physics::Physics,
        walls: &Walls,
        log: &mut Vec<LoggedEvent>,
    ) -> u64 {
        if !walls.has_walls() {
            return 0;
        }
        let r_max = balls.max_radius();
        if self.wall_cells.as_ref().is_none_or(|c| c.reach() < r_max) {
            self.wall_cells = Some(walls.cells(table.width, table.height, r_max));
        }
        let Some(cells) = self.wall_cells.as_ref() else {
            return 0;
        };
        bounce_interior(balls, walls, cells, physics, LOG.then_some(log), physics.dt)
    }
}

/// Each ball's contacts with the walls inside the table (pieces listed near it in
/// `cells`), in ascending ball then piece order: a ball overlapping a piece (and, with
/// glitch prevention, moving into it) has its normal velocity relative to the wall
/// reversed and scaled by the wall's restitution; with friction (the scene's, or the
/// wall's own `mu`) the rough-disk law against the wall's surface velocity. The
/// contacts of one ball are found on its position, which the bounces do not move.
pub fn bounce_interior(
    balls: &mut Balls,
    walls: &Walls,
    cells: &WallCells,
    physics: &crate::physics::Physics,
    mut log: Option<&mut Vec<LoggedEvent>>,
    time: f64,
) -> u64 {
    let (e_scene, glitch) = (physics.restitution, physics.glitch_prevention);
    let friction = &physics.contact_friction;
    let rough = friction.is_active() || walls.any_own_friction();
    let mut bounces = 0;
    for i in 0..balls.len() {
        if balls.inv_m[i] == 0.0 {
            continue;
        }
        let (p, r) = ([balls.x[i], balls.y[i]], balls.r[i]);
        walls.touches(cells.near(p[0], p[1]), p, r, |t| {
            // Strict overlap, as for the table's walls and ball pairs.
            if t.distance >= r {
                return;
            }
            let (e, f, surface) = walls.law_at(&t, e_scene, friction);
            let into = [-t.normal[0], -t.normal[1]];
            // Approach towards the wall, relative to it (a moving surface moves along
            // itself, so the normal part is the ball's own, less a moving wall's).
            let wall_n = walls
                .wall_velocity(t.wall, t.point)
                .map(|v| v[0] * into[0] + v[1] * into[1]);
            let mut u_n = balls.vx[i] * into[0] + balls.vy[i] * into[1];
            if let Some(w) = wall_n {
                u_n -= w;
            }
            if glitch && u_n <= 0.0 {
                return;
            }
            if rough {
                let (mut u_n, u_t, k_n, k_t) = contact::moving_wall_state(balls, i, into, surface);
                if let Some(w) = wall_n {
                    u_n -= w;
                }
                // Without glitch prevention a receding ball is pulled back, as the
                // table's walls do (v_n' = -e v_n whatever its sign).
                let j_n = (1.0 + e) * u_n / k_n;
                let (j_t, _) = tangential_impulse(j_n, u_t, k_t, &f);
                contact::apply_wall(balls, i, into, j_n, j_t);
                if let Some(log) = log.as_deref_mut() {
                    log.push(LoggedEvent::wall(time, i as u32, t.wall, j_n, u_n));
                }
            } else {
                let k = (1.0 + e) * u_n;
                balls.vx[i] -= k * into[0];
                balls.vy[i] -= k * into[1];
                if let Some(log) = log.as_deref_mut() {
                    let j_n = k / balls.inv_m[i];
                    log.push(LoggedEvent::wall(time, i as u32, t.wall, j_n, u_n));
                }
            }
            bounces += 1;
        });
    }
    bounces
}

/// Positions, velocities and inverse masses of one block.
type FlightBlock<'a> = (
    (
        (&'a mut [f64], &'a mut [f64]),
        (&'a mut [f64], &'a mut [f64]),
    ),
    &'a [f64],
);

/// The two-ball collision along the line of centres (minimum image on a periodic
/// axis), if the balls strictly overlap (and, with glitch prevention, approach).
/// Returns the pair virial `r_ij . J_ij` of the impulse applied, `None` if none was,
/// and adds `r_ij (x) J_ij` to `tensor`.
pub fn collide_pair(
    balls: &mut Balls,
    table: &Table,
    i: usize,
    j: usize,
    e: f64,
    glitch_prevention: bool,
    tensor: &mut Tensor,
) -> Option<f64> {
    let (dx, dy) = table.min_image(balls.x[j] - balls.x[i], balls.y[j] - balls.y[i]);
    let d = dx.hypot(dy);
    let (wi, wj) = (balls.inv_m[i], balls.inv_m[j]);
    // Coincident centres have no line of centres; two kinematic balls have no response.
    if d >= balls.r[i] + balls.r[j] || d == 0.0 || wi + wj == 0.0 {
        return None;
    }
    let (sx, sy) = (dx / d, dy / d);
    let vis = balls.vx[i] * sx + balls.vy[i] * sy;
    let vjs = balls.vx[j] * sx + balls.vy[j] * sy;
    if glitch_prevention && vis <= vjs {
        return None;
    }
    // Written with inverse masses, m_j/(m_i+m_j) = w_i/(w_i+w_j), so a kinematic ball
    // (w = 0) is an infinite mass without a special case.
    let k = (1.0 + e) * (vjs - vis) / (wi + wj);
    balls.vx[i] += sx * k * wi;
    balls.vy[i] += sy * k * wi;
    balls.vx[j] -= sx * k * wj;
    balls.vy[j] -= sy * k * wj;
    // i receives k s (k <= 0 when they approach) and sits at -d s from j: r_ij . J_ij
    // = -d k, positive for a repulsive impulse.
    stress::add_contact(tensor, [sx, sy], d, -k, 0.0);
    Some(-d * k)
}

/// Reflects the normal velocity of balls overlapping a wall (`v_n' = -e v_n`); with
/// glitch prevention only if the ball moves into that wall. Periodic and open axes
/// have no walls. Returns the bounces.
/// Each bounce is logged at `time` when `log` is given.
#[cfg(any(test, feature = "internals"))]
pub fn bounce_walls(balls: &mut Balls, table: &Table, e: f64, glitch_prevention: bool) -> u64 {
    bounce_walls_with::<false>(balls, table, e, glitch_prevention, &mut Vec::new(), 0.0)
}

/// [`bounce_walls`], writing each bounce to `log` at `time` when `LOG`.
pub fn bounce_walls_with<const LOG: bool>(
    balls: &mut Balls,
    table: &Table,
    e: f64,
    glitch_prevention: bool,
    log: &mut Vec<LoggedEvent>,
    time: f64,
) -> u64 {
    let mut bounces = 0;
    let walls = [table.has_walls(0), table.has_walls(1)];
    if walls == [false, false] {
        return 0;
    }
    for i in 0..balls.len() {
        if balls.inv_m[i] == 0.0 {
            continue;
        }
        let r = balls.r[i];
        let (vx0, vy0) = if LOG {
            (balls.vx[i], balls.vy[i])
        } else {
            (0.0, 0.0)
        };
        if walls[0]
            && reflect(
                &mut balls.vx[i],
                balls.x[i],
                r,
                table.width,
                e,
                glitch_prevention,
            )
        {
            bounces += 1;
            if LOG {
                let walls = (Wall::Left, Wall::Right);
                log.push(table_wall_row(
                    time,
                    i,
                    balls.x[i] < r,
                    walls,
                    vx0,
                    e,
                    balls,
                ));
            }
        }
        if walls[1]
            && reflect(
                &mut balls.vy[i],
                balls.y[i],
                r,
                table.height,
                e,
                glitch_prevention,
            )
        {
            bounces += 1;
            if LOG {
                let walls = (Wall::Top, Wall::Bottom);
                log.push(table_wall_row(
                    time,
                    i,
                    balls.y[i] < r,
                    walls,
                    vy0,
                    e,
                    balls,
                ));
            }
        }
    }
    bounces
}

/// The log's row of ball `i`'s bounce along one axis: off its `low` wall (`walls.0`)
/// or its high one, with `v0` the ball's velocity along the axis before the bounce.
fn table_wall_row(
    time: f64,
    i: usize,
    low: bool,
    walls: (Wall, Wall),
    v0: f64,
    e: f64,
    balls: &Balls,
) -> LoggedEvent {
    let (w, u) = if low { (walls.0, -v0) } else { (walls.1, v0) };
    let j_n = (1.0 + e) * u / balls.inv_m[i];
    LoggedEvent::table_wall(time, i as u32, w, j_n, u)
}

/// One axis of the wall rule: low wall at 0, high wall at `size`.
#[inline]
fn reflect(v: &mut f64, pos: f64, r: f64, size: f64, e: f64, glitch_prevention: bool) -> bool {
    let into_low = pos < r && (!glitch_prevention || *v < 0.0);
    let into_high = size - r < pos && (!glitch_prevention || *v > 0.0);
    if into_low || into_high {
        *v *= -e;
        true
    } else {
        false
    }
}

/// [`collide_pair`] for rough disks: the same overlap and approach tests, the normal
/// impulse `(1 + e) u_n / k_n` (a separating pair, collided only without glitch
/// prevention, is pulled together as in the smooth rule) and the rough-disk tangential
/// impulse, capped at `mu |j_n|`. Minimum image on a periodic axis. Returns the pair
/// virial `r_ij . J_ij` of the impulse applied (the tangential part is perpendicular
/// to the line of centres and adds nothing), `None` if none was. Spheres on cloth
/// (`cloth`) take the rough-sphere law instead (`contact`'s notes): the same normal
/// impulse, the friction with the vertical slip too. Adds `r_ij (x) J_ij`, in-plane
/// friction included, to `tensor`.
#[allow(clippy::too_many_arguments)]
pub fn collide_pair_rough(
    balls: &mut Balls,
    table: &Table,
    i: usize,
    j: usize,
    e: f64,
    glitch_prevention: bool,
    friction: &ContactFriction,
    cloth: bool,
    tensor: &mut Tensor,
) -> Option<f64> {
    let (dx, dy) = table.min_image(balls.x[j] - balls.x[i], balls.y[j] - balls.y[i]);
    let d = dx.hypot(dy);
    if d >= balls.r[i] + balls.r[j] || d == 0.0 || balls.inv_m[i] + balls.inv_m[j] == 0.0 {
        return None;
    }
    let n = [dx / d, dy / d];
    if cloth {
        let s = contact::sphere_pair_state(balls, i, j, n);
        if glitch_prevention && s.u_n <= 0.0 {
            return None;
        }
        let j_n = (1.0 + e) * s.u_n / s.k_n;
        let (jt, _) = contact::sphere_tangential_impulse(j_n, s.u, s.k_t, friction);
        contact::apply_sphere_pair(balls, i, j, n, j_n, jt);
        stress::add_contact(tensor, n, d, j_n, jt[0]);
        return Some(d * j_n);
    }
    let (u_n, u_t, k_n, k_t) = contact::pair_state(balls, i, j, n);
    if glitch_prevention && u_n <= 0.0 {
        return None;
    }
    let j_n = (1.0 + e) * u_n / k_n;
    let (j_t, _) = tangential_impulse(j_n, u_t, k_t, friction);
    contact::apply_pair(balls, i, j, n, j_n, j_t);
    stress::add_contact(tensor, n, d, j_n, j_t);
    // i receives -j_n n and sits at -d n from j.
    Some(d * j_n)
}

/// [`bounce_walls`] for rough disks: each wall a ball overlaps (and, with glitch
/// prevention, moves into), in the order x then y, gets the rough-disk impulse.
#[cfg(any(test, feature = "internals"))]
pub fn bounce_walls_rough(
    balls: &mut Balls,
    table: &Table,
    e: f64,
    glitch_prevention: bool,
    friction: &ContactFriction,
) -> u64 {
    bounce_walls_rough_with::<false>(
        balls,
        table,
        e,
        glitch_prevention,
        friction,
        &mut Vec::new(),
        0.0,
    )
}

/// [`bounce_walls_rough`], writing each bounce to `log` at `time` when `LOG`.
pub fn bounce_walls_rough_with<const LOG: bool>(
    balls: &mut Balls,
    table: &Table,
    e: f64,
    glitch_prevention: bool,
    friction: &ContactFriction,
    log: &mut Vec<LoggedEvent>,
    time: f64,
) -> u64 {
    let mut bounces = 0;
    for i in 0..balls.len() {
        if balls.inv_m[i] == 0.0 {
            continue;
        }
        let r = balls.r[i];
        let (x, y) = (balls.x[i], balls.y[i]);
        // Normals from the ball into the wall; a periodic or open axis has no walls.
        let (wx, wy) = (table.has_walls(0), table.has_walls(1));
        let walls = [
            (wx && x < r, [-1.0, 0.0], Wall::Left),
            (wx && table.width - r < x, [1.0, 0.0], Wall::Right),
            (wy && y < r, [0.0, -1.0], Wall::Top),
            (wy && table.height - r < y, [0.0, 1.0], Wall::Bottom),
        ];
        for (overlaps, n, wall) in walls {
            if !overlaps {
                continue;
            }
            let (u_n, u_t, k_n, k_t) = contact::wall_state(balls, i, n);
            if glitch_prevention && u_n <= 0.0 {
                continue;
            }
            let j_n = (1.0 + e) * u_n / k_n;
            let (j_t, _) = tangential_impulse(j_n, u_t, k_t, friction);
            contact::apply_wall(balls, i, n, j_n, j_t);
            bounces += 1;
            if LOG {
                log.push(LoggedEvent::table_wall(time, i as u32, wall, j_n, u_n));
            }
        }
    }
    bounces
}
