//! The `impulse` model (tutorial levels 3 and 4, "deterministic collisions"): free
//! flight for the whole step, then every overlapping pair in ascending `(i, j)` order
//! gets an instantaneous collision, then the walls. Processing is sequential on purpose
//! ("the last collision wins"): a ball in several overlaps keeps only what the last
//! one left it, which is why this model breaks the symmetry of a billiard break.

use super::{free_flight, CollisionModel, StepContext, StepError};
use crate::balls::Balls;
use crate::broadphase::Grid;
use crate::scenario::ModelKind;
use crate::world::Table;

#[derive(Default)]
pub struct Impulse {
    grid: Grid,
    pairs: Vec<(u32, u32)>,
    collisions: u64,
}

impl Impulse {
    pub fn new() -> Impulse {
        Impulse::default()
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
            ..
        } = ctx;
        free_flight(balls, physics.gravity, physics.dt);
        self.grid
            .rebuild(&balls.x, &balls.y, 2.0 * balls.max_radius(), table);
        // Overlap is decided once, on the positions after free flight; approach is
        // decided on the velocities as earlier collisions of this step left them.
        self.grid
            .touching_pairs(&balls.x, &balls.y, &balls.r, 0.0, &mut self.pairs);
        let e = physics.restitution;
        let glitch_prevention = physics.glitch_prevention;
        for &(i, j) in &self.pairs {
            if collide_pair(balls, i as usize, j as usize, e, glitch_prevention) {
                self.collisions += 1;
            }
        }
        self.collisions += bounce_walls(balls, table, e, glitch_prevention);
        Ok(())
    }

    fn collisions(&self) -> u64 {
        self.collisions
    }
}

/// The two-ball collision along the line of centres, if the balls strictly overlap
/// (and, with glitch prevention, approach). Returns whether an impulse was applied.
pub fn collide_pair(
    balls: &mut Balls,
    i: usize,
    j: usize,
    e: f64,
    glitch_prevention: bool,
) -> bool {
    let dx = balls.x[j] - balls.x[i];
    let dy = balls.y[j] - balls.y[i];
    let d = dx.hypot(dy);
    let (wi, wj) = (balls.inv_m[i], balls.inv_m[j]);
    // Coincident centres have no line of centres; two kinematic balls have no response.
    if d >= balls.r[i] + balls.r[j] || d == 0.0 || wi + wj == 0.0 {
        return false;
    }
    let (sx, sy) = (dx / d, dy / d);
    let vis = balls.vx[i] * sx + balls.vy[i] * sy;
    let vjs = balls.vx[j] * sx + balls.vy[j] * sy;
    if glitch_prevention && vis <= vjs {
        return false;
    }
    // Written with inverse masses, m_j/(m_i+m_j) = w_i/(w_i+w_j), so a kinematic ball
    // (w = 0) is an infinite mass without a special case.
    let k = (1.0 + e) * (vjs - vis) / (wi + wj);
    balls.vx[i] += sx * k * wi;
    balls.vy[i] += sy * k * wi;
    balls.vx[j] -= sx * k * wj;
    balls.vy[j] -= sy * k * wj;
    true
}

/// Reflects the normal velocity of balls overlapping a wall (`v_n' = -e v_n`); with
/// glitch prevention only if the ball moves into that wall. Returns the bounces.
pub fn bounce_walls(balls: &mut Balls, table: &Table, e: f64, glitch_prevention: bool) -> u64 {
    let mut bounces = 0;
    for i in 0..balls.len() {
        if balls.inv_m[i] == 0.0 {
            continue;
        }
        let r = balls.r[i];
        if reflect(
            &mut balls.vx[i],
            balls.x[i],
            r,
            table.width,
            e,
            glitch_prevention,
        ) {
            bounces += 1;
        }
        if reflect(
            &mut balls.vy[i],
            balls.y[i],
            r,
            table.height,
            e,
            glitch_prevention,
        ) {
            bounces += 1;
        }
    }
    bounces
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
