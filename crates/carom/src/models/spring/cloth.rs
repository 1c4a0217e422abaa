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
