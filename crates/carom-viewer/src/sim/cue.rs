//! The cue: on cloth, a drag from a ball aims a strike and releasing it strikes. The
//! drag's direction is the aim, its length the cue's speed; english, follow and the
//! cue's elevation come from the panel. The strike is the engine's own cue model
//! (`carom::cue::strike`, the one a scenario's `cue = { ... }` uses at load), so a
//! strike here gives exactly what the same `cue` in a scenario file would.

use carom::cue::CueSpec;

use super::Sim;

/// The panel's cue settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CueSettings {
    /// A drag on the table aims a strike (on cloth) instead of moving a ball.
    pub on: bool,
    /// Where the tip meets the ball, in radii from the centre: right of the cue's
    /// line, and up.
    pub english: f64,
    pub follow: f64,
    /// The cue's angle above the table, in degrees (a masse when high).
    pub elevation: f64,
    /// Multiplies the speed a drag gives (see [`Sim::cue_speed_of`]).
    pub power: f64,
}

impl Default for CueSettings {
    fn default() -> Self {
        CueSettings {
            on: true,
            english: 0.0,
            follow: 0.0,
            elevation: 0.0,
            power: 1.0,
        }
    }
}

/// A strike being aimed: the ball, and where the pointer is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Aim {
    pub(super) ball: usize,
    pub(super) to: [f64; 2],
}

impl Sim {
    /// The cue is offered: the balls are spheres on cloth.
    pub fn cue_ready(&self) -> bool {
        self.world.physics().friction.is_cloth()
    }

    /// The speed a drag of `length` (table units) gives the cue: in proportion, and
    /// `power * sqrt(g L)` for a drag as long as the table's longer side `L` (`g` the
    /// cloth's `g_normal`): the speed at which a ball crosses the table in about the
    /// time a body falls half its length, a hard shot on a pool table (5 m/s for a
    /// 2.54 m table) and a scale that follows the scene's units. Without gravity on the
    /// cloth, a full drag crosses the table in two time units.
    pub fn cue_speed_of(&self, length: f64) -> f64 {
        let t = self.world.table();
        let side = t.width.max(t.height);
        let g = match self.world.physics().friction {
            carom::Friction::Cloth { g_normal, .. } => g_normal,
            _ => 0.0,
        };
        let full = if g > 0.0 {
            (g * side).sqrt()
        } else {
            0.5 * side
        };
        self.cue.power * full * length / side
    }

    /// Starts aiming at `p` (table coordinates): from the ball under the pointer, or,
    /// on empty felt, from ball 0 (the cue ball). `None` when the cue is not offered,
    /// switched off, or there is no ball to strike (none, or out of play).
    pub fn aim_from(&mut self, p: [f64; 2]) -> Option<usize> {
        self.aim = None;
        if !(self.cue.on && self.cue_ready()) {
            return None;
        }
        let ball = match self.ball_at(p) {
            Some(i) => i,
            None if !self.world.balls().is_empty() => 0,
            None => return None,
        };
        if !self.world.is_in_play(ball) {
            return None;
        }
        self.aim = Some(Aim { ball, to: p });
        Some(ball)
    }

    /// The pointer moved to `p` while aiming.
    pub fn aim_to(&mut self, p: [f64; 2]) {
        if let Some(a) = self.aim.as_mut() {
            a.to = p;
        }
    }

    /// Drops the aim without striking.
    pub fn cancel_aim(&mut self) {
        self.aim = None;
    }

    /// The strike being aimed: the ball and the cue a release would use (`None` when
    /// not aiming, or while the pointer is on the ball's centre: no direction).
    pub fn aimed(&self) -> Option<(usize, CueSpec)> {
        let a = self.aim?;
        let b = self.world.balls();
        let (dx, dy) = (a.to[0] - b.x[a.ball], a.to[1] - b.y[a.ball]);
        let length = dx.hypot(dy);
        if !(length > 0.0 && length.is_finite()) {
            return None;
        }
        Some((
            a.ball,
            CueSpec {
                speed: self.cue_speed_of(length),
                aim: dy.atan2(dx).to_degrees(),
                english: self.cue.english,
                follow: self.cue.follow,
                elevation: self.cue.elevation,
            },
        ))
    }

    /// Releases the aimed strike: the ball takes the velocity and spins of
    /// [`Sim::strike`]. `Ok(None)` when nothing was aimed (a click on the ball, say).
    pub fn release_aim(&mut self) -> Result<Option<usize>, String> {
        let aimed = self.aimed();
        self.aim = None;
        let Some((ball, cue)) = aimed else {
            return Ok(None);
        };
        let result = self.strike(ball, &cue).map(|()| Some(ball));
        self.notice = Some(match &result {
            Ok(_) => Ok(format!(
                "struck ball {ball}: speed {:.3}, aim {:.1}°",
                cue.speed, cue.aim
            )),
            Err(e) => Err(e.clone()),
        });
        result
    }

    /// Strikes ball `ball` with `cue`: its velocity and spins become what the cue
    /// model gives a ball at rest (whatever it was doing: the strike replaces its
    /// motion). Refused, changing nothing, for a kinematic ball, a ball out of play or
    /// a cue the model refuses (the tip off the ball, a vertical cue).
    pub fn strike(&mut self, ball: usize, cue: &CueSpec) -> Result<(), String> {
        let b = self.world.balls();
        if ball >= b.len() || !self.world.is_in_play(ball) {
            return Err(format!("ball {ball}: no such ball in play to strike"));
        }
        if b.is_kinematic(ball) || self.held_ball() == Some(ball) {
            return Err(format!(
                "ball {ball}: a kinematic or held ball moves as prescribed and takes no cue \
                 strike"
            ));
        }
        carom::cue::check(cue).map_err(|(key, message)| format!("cue {key}: {message}"))?;
        let (m, r, inertia) = (b.m[ball], b.r[ball], b.inertia[ball]);
        let s = carom::cue::strike(cue, m, r, inertia);
        let b = self.world.balls_mut();
        (b.vx[ball], b.vy[ball]) = (s.v[0], s.v[1]);
        (b.wx[ball], b.wy[ball], b.omega[ball]) = (s.w[0], s.w[1], s.w[2]);
        self.step_error = None;
        self.rebaseline();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use carom::{Ball, Friction, ModelKind, Physics, Table, World};

    /// A pool table in SI units with two pool balls (solid spheres) on cloth.
    fn pool() -> Sim {
        let (r, m) = (0.028575, 0.17);
        let ball = |x: f64, y: f64| Ball {
            inertia: carom::solid_sphere_inertia(m, r),
            ..Ball::new(x, y, 0.0, 0.0, r, m)
        };
        let physics = Physics {
            model: ModelKind::Impulse,
            dt: 0.001,
            friction: Friction::cloth(9.81),
            ..Physics::default()
        };
        let world = World::from_balls(
            Table::new(2.54, 1.27),
            physics,
            &[ball(0.6, 0.6), ball(1.8, 0.6)],
        )
        .expect("pool world builds");
        Sim::new(world, "test", 1)
    }

    #[test]
    fn a_drag_from_a_ball_strikes_it_as_the_scenario_cue_would() {
        let mut sim = pool();
        sim.cue = CueSettings {
            english: 0.3,
            follow: -0.4,
            elevation: 10.0,
            ..CueSettings::default()
        };
        // From ball 1, 0.3 to the left and 0.4 up: aim 180 + 53.13 degrees, a drag of
        // 0.5, so speed sqrt(9.81 * 2.54) * 0.5 / 2.54 (power 1).
        assert_eq!(sim.aim_from([1.8, 0.6]), Some(1));
        sim.aim_to([1.5, 0.2]);
        let (ball, cue) = sim.aimed().unwrap();
        assert_eq!(ball, 1);
        let speed = (9.81f64 * 2.54).sqrt() * 0.5 / 2.54;
        // The drag's length is 0.5 up to the round-off of the coordinates' differences.
        assert!((cue.speed - speed).abs() < 1e-14, "{}", cue.speed);
        assert!((cue.aim - (-0.4f64).atan2(-0.3).to_degrees()).abs() < 1e-12);
        assert_eq!(sim.release_aim(), Ok(Some(1)));
        // Exactly what the cue model gives, as a scenario's `cue` would.
        let (m, r) = (0.17, 0.028575);
        let want = carom::cue::strike(&cue, m, r, carom::solid_sphere_inertia(m, r));
        let b = sim.world().balls();
        assert_eq!([b.vx[1], b.vy[1]], want.v);
        assert_eq!([b.wx[1], b.wy[1], b.omega[1]], want.w);
        // Ball 0 untouched; the aim is gone.
        assert_eq!([b.vx[0], b.vy[0], b.wx[0], b.wy[0], b.omega[0]], [0.0; 5]);
        assert!(sim.aimed().is_none());
        // The struck ball moves off along the aim.
        sim.frame();
        assert!(sim.world().balls().y[1] < 0.6 && sim.world().balls().x[1] < 1.8);
    }

    #[test]
    fn a_drag_on_empty_felt_aims_the_cue_ball() {
        let mut sim = pool();
        assert_eq!(sim.aim_from([1.2, 1.0]), Some(0));
        sim.aim_to([0.6, 0.9]);
        let (ball, cue) = sim.aimed().unwrap();
        assert_eq!(ball, 0);
        assert!(
            (cue.aim - 90.0).abs() < 1e-12,
            "straight down the table's y"
        );
        // A release with the pointer back on the centre has no direction: no strike.
        sim.aim_to([0.6, 0.6]);
        assert_eq!(sim.release_aim(), Ok(None));
        assert_eq!(sim.world().balls().vy[0], 0.0);
    }

    #[test]
    fn the_cue_is_offered_on_cloth_only_and_can_be_switched_off() {
        let mut sim = pool();
        sim.cue.on = false;
        assert_eq!(sim.aim_from([0.6, 0.6]), None);
        sim.cue.on = true;
        let mut p = *sim.world().physics();
        p.friction = Friction::None;
        sim.set_physics(p).unwrap();
        assert!(!sim.cue_ready());
        assert_eq!(sim.aim_from([0.6, 0.6]), None);
    }

    #[test]
    fn refused_strikes_change_nothing_and_say_why() {
        let mut sim = pool();
        // The tip beyond 0.9 radii of the centre misses the ball.
        sim.cue.english = 0.8;
        sim.cue.follow = 0.6;
        sim.aim_from([0.6, 0.6]);
        sim.aim_to([0.9, 0.6]);
        let e = sim.release_aim().unwrap_err();
        assert!(e.starts_with("cue english: with follow (0.6)"), "{e}");
        assert_eq!(sim.notice, Some(Err(e)));
        // A kinematic ball takes no strike.
        sim.cue = CueSettings::default();
        sim.world.balls_mut().inv_m[0] = 0.0;
        let cue = CueSpec {
            speed: 1.0,
            aim: 0.0,
            english: 0.0,
            follow: 0.0,
            elevation: 0.0,
        };
        assert!(sim.strike(0, &cue).unwrap_err().contains("kinematic"));
        assert!(sim.strike(7, &cue).unwrap_err().contains("no such ball"));
        let b = sim.world().balls();
        assert_eq!([b.vx[0], b.vy[0], b.wx[0], b.wy[0], b.omega[0]], [0.0; 5]);
    }

    #[test]
    fn power_scales_the_speed_and_a_struck_ball_keeps_the_scene_running() {
        let mut sim = pool();
        let full = sim.cue_speed_of(2.54);
        assert!((full - (9.81f64 * 2.54).sqrt()).abs() < 1e-12);
        sim.cue.power = 2.0;
        assert!((sim.cue_speed_of(2.54) - 2.0 * full).abs() < 1e-12);
        sim.step_error = Some("old".into());
        let cue = CueSpec {
            speed: 1.0,
            aim: 0.0,
            english: 0.0,
            follow: 0.4,
            elevation: 0.0,
        };
        sim.strike(0, &cue).unwrap();
        assert_eq!(sim.step_error, None);
        // A level strike 2/5 of the radius above the centre rolls at once: no slip.
        let b = sim.world().balls();
        let slip = [b.vx[0] + b.r[0] * b.wy[0], b.vy[0] - b.r[0] * b.wx[0]];
        assert!(slip[0].hypot(slip[1]) < 1e-12 * b.vx[0].abs());
    }
}
