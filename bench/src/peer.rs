//! The peer engine, rapier2d, on carom's scene: one dynamic body with one ball collider
//! per disk (restitution 1 combined with the Max rule, friction 0, the disk's mass),
//! fixed cuboid walls around the table, no gravity, `dt = 0.01`, every other
//! integration parameter at its default. Sleeping is off: a gas ball that fell asleep
//! would stop being simulated, which would measure less work and wrong physics.

use crate::sim::Sim;

#[cfg(feature = "peers")]
pub const VERSION: &str = "0.36";
#[cfg(not(feature = "peers"))]
pub const VERSION: &str = "(not built)";

#[cfg(not(feature = "peers"))]
pub fn build(_world: &carom::World) -> Result<Box<dyn Sim>, String> {
    Err("rapier2d is not built in: run with --features peers".to_string())
}

#[cfg(feature = "peers")]
pub fn build(world: &carom::World) -> Result<Box<dyn Sim>, String> {
    Ok(Box::new(imp::Rapier::new(world)))
}

#[cfg(feature = "peers")]
pub(crate) mod imp {
    use super::Sim;
    use rapier2d::prelude::*;

    pub struct Rapier {
        world: PhysicsWorld,
        bodies: Vec<RigidBodyHandle>,
        masses: Vec<f64>,
    }

    fn material(c: ColliderBuilder) -> ColliderBuilder {
        c.restitution(1.0)
            .restitution_combine_rule(CoefficientCombineRule::Max)
            .friction(0.0)
    }

    impl Rapier {
        pub fn new(w: &carom::World) -> Rapier {
            let mut world = PhysicsWorld::new();
            world.gravity = Vector::ZERO;
            world.integration_parameters.dt = w.physics().dt as Real;
            let t = *w.table();
            let (width, height) = (t.width as Real, t.height as Real);
            // Walls one unit thick, their inner faces on the table's edges, long enough
            // to close the corners.
            let th = 0.5;
            for (cx, cy, hx, hy) in [
                (-th, 0.5 * height, th, 0.5 * height + 2.0 * th),
                (width + th, 0.5 * height, th, 0.5 * height + 2.0 * th),
                (0.5 * width, -th, 0.5 * width + 2.0 * th, th),
                (0.5 * width, height + th, 0.5 * width + 2.0 * th, th),
            ] {
                world.insert_collider(
                    material(ColliderBuilder::cuboid(hx, hy)).translation(Vector::new(cx, cy)),
                    None,
                );
            }
            let b = w.balls();
            let mut bodies = Vec::with_capacity(b.len());
            for i in 0..b.len() {
                let body = RigidBodyBuilder::dynamic()
                    .translation(Vector::new(b.x[i] as Real, b.y[i] as Real))
                    .linvel(Vector::new(b.vx[i] as Real, b.vy[i] as Real))
                    .can_sleep(false);
                let collider = material(ColliderBuilder::ball(b.r[i] as Real)).mass(b.m[i] as Real);
                bodies.push(world.insert(body, collider).0);
            }
            Rapier {
                world,
                bodies,
                masses: b.m.clone(),
            }
        }
    }

    impl Rapier {
        /// The x velocities, in ball order (for tests).
        #[cfg(test)]
        pub fn velocities(&self) -> Vec<f64> {
            self.bodies
                .iter()
                .map(|&h| f64::from(self.world.bodies[h].linvel().x))
                .collect()
        }
    }

    impl Sim for Rapier {
        fn run(&mut self, steps: u64) -> Result<(), String> {
            for _ in 0..steps {
                self.world.step();
            }
            Ok(())
        }

        /// Kinetic energy: rapier's contacts store none.
        fn total_energy(&mut self) -> f64 {
            self.bodies
                .iter()
                .zip(&self.masses)
                .map(|(&h, &m)| {
                    let v = self.world.bodies[h].linvel();
                    0.5 * m * (f64::from(v.x).powi(2) + f64::from(v.y).powi(2))
                })
                .sum()
        }

        fn events(&self) -> u64 {
            0
        }
    }
}

#[cfg(all(test, feature = "peers"))]
mod tests {
    use carom::{Ball, Physics, Table, World};

    /// The peer scene is wired right: two balls meeting head on exchange their
    /// velocities (equal masses, restitution 1), and a ball bounces off a wall.
    #[test]
    fn peer_balls_collide_and_bounce() {
        let table = Table::new(40.0, 10.0);
        let balls = [
            Ball::new(10.0, 5.0, 1.0, 0.0, 1.0, 1.0),
            Ball::new(20.0, 5.0, -1.0, 0.0, 1.0, 1.0),
            Ball::new(35.0, 5.0, 1.0, 0.0, 1.0, 1.0),
        ];
        let w = World::from_balls(table, Physics::default(), &balls).unwrap();
        let mut sim = super::imp::Rapier::new(&w);
        // Ball 0 meets ball 1 at t = 4 and ball 2 meets the wall at t = 4: 6 time
        // units (600 steps of 0.01) leave time for both and for no second collision.
        super::Sim::run(&mut sim, 600).unwrap();
        let v = sim.velocities();
        // Rapier's restitution is not exact: within 5% of the exchange.
        assert!((v[0] + 1.0).abs() < 0.05, "{v:?}");
        assert!((v[1] - 1.0).abs() < 0.05, "{v:?}");
        assert!((v[2] + 1.0).abs() < 0.05, "{v:?}");
    }
}
