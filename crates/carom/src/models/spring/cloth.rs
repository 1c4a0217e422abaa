//! The spring model on cloth, after each step: the balls' free motion over the step by
//! the cloth's closed form, then the walls as cushions (see the model's outline).

use super::Spring;
use crate::balls::Balls;
use crate::cloth::Cloth;
use crate::friction::{cloth_motion, ClothMotion};
use crate::models::{cushions, wrap_positions};
use crate::physics::Physics;
use crate::table::Table;
use crate::walls::Walls;

impl Spring {
    /// After the step on cloth: the balls' free motion over it (velocities and spins
    /// evolved, positions corrected to the closed form's displacement), then the
    /// cushions (see the module's notes); phase changes and cushion impacts go to the
    /// log, before the step's contact rows.
    pub(super) fn on_cloth(
        &mut self,
        balls: &mut Balls,
        table: &Table,
        physics: &Physics,
        pool: Option<&rayon::ThreadPool>,
        walls: &Walls,
        cloth: &Cloth,
    ) {
        let (g, dt, how) = (physics.gravity, physics.dt, ClothMotion::Correction);
        let mut none = Vec::new();
        let log = match self.log.as_deref_mut() {
            Some(l) => Some(&mut l.rows),
            None => None,
        };
        let left = Some(&mut self.cloth_phases);
        let moved = match log {
            None => cloth_motion::<false>(balls, cloth, g, dt, how, &mut none, left),
            Some(rows) => cloth_motion::<true>(balls, cloth, g, dt, how, rows, left),
        };
        wrap_positions(balls, table);
        let cells = cushions::cells_for(&mut self.wall_cells, walls, table, balls.max_radius());
        let reach = cushions::Reach {
            slack: 0.0,
            approach: 0.0,
        };
        self.collisions += match self.log.as_deref_mut() {
            None => {
                cushions::bounce::<false>(balls, table, physics, walls, cells, reach, &mut none, dt)
            }
            Some(l) => cushions::bounce::<true>(
                balls,
                table,
                physics,
                walls,
                cells,
                reach,
                &mut l.rows,
                dt,
            ),
        };
        // The correction moved the balls beyond what the step counted.
        self.list.moved(moved.sqrt());
        if Self::is_rough(physics, walls) {
            // A rebuild here must carry the tangential springs to the new list.
            let mut rough = std::mem::take(&mut self.rough);
            rough.refresh(self, balls, table, pool, true);
            self.rough = rough;
        } else {
            self.refresh_list(balls, table, pool);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::{CollisionModel, StepContext};
    use crate::parse::{load, Format};

    /// The list may come due in the pass after the step (the cloth's correction moves
    /// the balls a little beyond what the step counted, rarely tipping them over half
    /// the skin): that rebuild carries the loaded springs to the new list by pair, as
    /// one in the step does, instead of leaving the stretches on the old list's slots.
    #[test]
    fn a_rebuild_after_the_cloth_keeps_the_springs() {
        let r = 0.028575;
        let ball = |x: f64, y: f64, vx: f64, wy: f64| {
            format!(
                "[[balls]]\nx = {x:?}\ny = {y:?}\nvx = {vx:?}\nwy = {wy:?}\nr = {r:?}\nm = 0.17\n"
            )
        };
        let text = format!(
            "[table]\nwidth = 2.0\nheight = 1.0\n[physics]\nmodel = \"spring\"\ndt = 1e-5\n\
             stiffness = 1e5\nfriction = {{ kind = \"cloth\", g_normal = 9.81 }}\n\
             contact_friction = {{ mu = 0.06 }}\n{}{}{}",
            ball(0.5, 0.5, 1.0, -1.0 / r),
            ball(0.5 + 2.0 * r * 0.866, 0.5 + r, 0.0, 0.0),
            // Coming into the list's reach (touching plus the skin, 0.8 r) of ball 1
            // within the 100 steps (1 cm), not touching it: the rebuilt lists differ.
            ball(0.5 + 2.0 * r * 0.866 + 2.8 * r + 0.003, 0.5 + r, -10.0, 0.0),
        );
        let world = load(&text, Format::Toml).unwrap().1;
        let (mut balls, table, physics) = (world.balls().clone(), *world.table(), world.physics());
        let walls = world.walls().clone();
        let cloth = Cloth::of(&physics.friction).unwrap();
        let mut spring = Spring::new(&balls, physics, &walls);
        let mut listed = Vec::new();
        for _ in 0..100 {
            let ctx = StepContext {
                balls: &mut balls,
                table: &table,
                physics,
                pool: None,
                walls: &walls,
                in_play: None,
            };
            spring.step_model(ctx).unwrap();
            let before = spring.contact_history();
            // Due now, as if the correction had tipped it.
            spring.list.invalidate();
            spring.on_cloth(&mut balls, &table, physics, None, &walls, &cloth);
            assert!(spring.list.is_current(balls.len()));
            assert_eq!(spring.contact_history(), before);
            listed.push(spring.list.pairs().count());
        }
        let h = spring.contact_history();
        assert!(
            !h.pairs.is_empty() && !h.vertical.is_empty(),
            "loaded: {h:?}"
        );
        assert!(
            listed[0] == 1 && listed[99] == 2,
            "listed pairs: {listed:?}"
        );
    }
}
