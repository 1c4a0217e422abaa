//! Balls glued to a moving wall: the grains of a rough plate.
//!
//! A glued ball (`glue = K` on a `[[balls]]` entry) is kinematic (infinite mass) and
//! rides on wall `K`: at the start of every step its velocity is set to the wall's
//! translation velocity now (its own `velocity` plus the servo's speed along its axis)
//! plus the ball's own given velocity `(vx, vy)`, and the model then moves it as any
//! kinematic ball. A ball is not a rigid part of the wall: on a periodic axis it wraps
//! across the edge like every ball, and the ball broad phase finds its contacts across
//! that edge, which a translated circle wall could not do. Its own velocity makes a
//! belt of grains: a lid that slides along itself (`surface_velocity = U` along x)
//! carries grains with `vx = U`.
//!
//! Glued balls are part of what holds a servo wall: the normal force the servo reads
//! includes the free balls' overlaps with the wall's glued balls, `k s (n . push)` per
//! contact (`n` from the glued ball to the free one), as for its own pieces.
//!
//! A glued ball's place is the sum of its steps, so after a time `t` it has moved by the
//! wall's displacement plus its own velocity times `t`, to the round-off of the sums;
//! its own velocity is what the state file writes back as `vx`, `vy` (with `glue`), so a
//! resumed run sets the same velocities and continues bit for bit.

use crate::balls::Balls;
use crate::table::Table;

/// One glued ball.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Glued {
    /// The ball's index.
    pub ball: u32,
    /// The wall it rides on (a translating wall, `walls[wall]`).
    pub wall: u32,
    /// Its own velocity on top of the wall's translation.
    pub velocity: [f64; 2],
}

impl super::Walls {
    /// The glued balls, in the order of the balls (empty when none is glued).
    #[inline]
    pub fn glued(&self) -> &[Glued] {
        &self.glued
    }

    /// Ball `ball`'s glue, if it is glued.
    pub fn glue_of(&self, ball: usize) -> Option<&Glued> {
        let k = self
            .glued
            .binary_search_by_key(&ball, |g| g.ball as usize)
            .ok()?;
        Some(&self.glued[k])
    }

    /// Glues balls to walls: `glued` sorted by ball, each ball once, each wall one
    /// that translates (as [`crate::World::set_glue`] checks).
    pub fn set_glued(&mut self, glued: Vec<Glued>) {
        debug_assert!(glued.windows(2).all(|w| w[0].ball < w[1].ball));
        self.glued = glued;
    }

    /// Sets every glued ball's velocity: its wall's translation now plus its own.
    pub fn carry_glued(&self, balls: &mut Balls) {
        for g in &self.glued {
            let v = self.motion(g.wall).map_or([0.0, 0.0], |m| m.translation());
            let i = g.ball as usize;
            balls.vx[i] = g.velocity[0] + v[0];
            balls.vy[i] = g.velocity[1] + v[1];
        }
    }

    /// The normal force along `push` of the free balls (finite mass, in play) on the
    /// balls glued to wall `wall`: `sum k s (n . push)` over their overlaps, `n` from
    /// the glued ball to the free one, images taken across periodic edges.
    pub(super) fn glued_force(
        &self,
        wall: u32,
        push: [f64; 2],
        balls: &Balls,
        table: &Table,
        k: f64,
        in_play: Option<&[bool]>,
    ) -> f64 {
        let mine = || self.glued.iter().filter(move |g| g.wall == wall);
        // The box of the glued balls grown by the largest free radius: a free ball
        // outside it on a walled axis touches none of them.
        let mut bx = [f64::INFINITY, f64::INFINITY, -f64::INFINITY, -f64::INFINITY];
        for g in mine() {
            let i = g.ball as usize;
            let r = balls.r[i];
            bx = [
                bx[0].min(balls.x[i] - r),
                bx[1].min(balls.y[i] - r),
                bx[2].max(balls.x[i] + r),
                bx[3].max(balls.y[i] + r),
            ];
        }
        if bx[0] > bx[2] {
            return 0.0;
        }
        let open = [!table.is_periodic(0), !table.is_periodic(1)];
        let mut force = 0.0;
        for i in 0..balls.len() {
            if balls.inv_m[i] == 0.0 || in_play.is_some_and(|p| !p[i]) {
                continue;
            }
            let (r, x, y) = (balls.r[i], balls.x[i], balls.y[i]);
            if (open[0] && (x < bx[0] - r || x > bx[2] + r))
                || (open[1] && (y < bx[1] - r || y > bx[3] + r))
            {
                continue;
            }
            for g in mine() {
                let j = g.ball as usize;
                let (dx, dy) = table.min_image(x - balls.x[j], y - balls.y[j]);
                let reach = r + balls.r[j];
                let d2 = dx * dx + dy * dy;
                if d2 >= reach * reach || d2 == 0.0 {
                    continue;
                }
                let d = d2.sqrt();
                force += k * (reach - d) * (dx * push[0] + dy * push[1]) / d;
            }
        }
        force
    }
}

/// Checks a scene's glue: `glue` lists `(ball, wall, own velocity)` in ball order.
/// Each ball must be kinematic, each wall must exist and translate (velocity or a
/// servo) without turning. The error names the ball's `glue` key.
pub fn check(glue: &[Glued], walls: &super::Walls, balls: &Balls) -> Result<(), (String, String)> {
    let count = walls.surfaces().len();
    for g in glue {
        let field = format!("balls[{}].glue", g.ball);
        let k = g.wall;
        if k as usize >= count {
            return Err((
                field,
                format!("names walls[{k}], but the scene has {count} walls"),
            ));
        }
        if !balls.is_kinematic(g.ball as usize) {
            return Err((field, "a glued ball must be kinematic".into()));
        }
        match walls.motion(k) {
            None => {
                return Err((
                    field,
                    format!(
                        "walls[{k}] does not move: glue balls to a wall with velocity or \
                         pressure"
                    ),
                ))
            }
            Some(m) if m.angular_velocity != 0.0 => {
                return Err((
                    field,
                    format!(
                        "walls[{k}] turns: a glued ball follows a wall that translates \
                         (velocity or pressure)"
                    ),
                ))
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// Whether model `kind` refuses the glued balls `glue`: glued balls run in the
/// stepping models that set a kinematic ball's velocity each step, `spring` and
/// `impulse`; the error names the first glued ball's `glue` key.
pub fn refuse(
    kind: crate::physics::params::ModelKind,
    glue: &[Glued],
) -> Option<crate::error::BuildError> {
    use crate::physics::params::ModelKind;
    let g = glue.first()?;
    if matches!(kind, ModelKind::Spring | ModelKind::Impulse) {
        return None;
    }
    Some(crate::error::BuildError {
        field: format!("balls[{}].glue", g.ball),
        message: format!(
            "glued balls run in the spring and impulse models (got {})",
            kind.name()
        ),
    })
}
