//! Builds a world in code (a table, physics parameters, three balls) and steps it.
//!
//! ```sh
//! cargo run -p carom --example build_and_step
//! ```

use carom::{Ball, ModelKind, Physics, Table, World};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let table = Table::new(400.0, 200.0);
    let physics = Physics {
        model: ModelKind::Simultaneous,
        ..Physics::default()
    };
    // A ball moving right into two touching balls: the tutorial's double collision.
    let balls = [
        Ball::new(50.0, 100.0, 8.0, 0.0, 10.0, 1.0),
        Ball::new(200.0, 100.0, 0.0, 0.0, 10.0, 1.0),
        Ball::new(220.0, 100.0, 0.0, 0.0, 10.0, 1.0),
    ];
    let mut world = World::from_balls(table, physics, &balls)?;
    let before = world.diagnostics();
    world.run_steps(1000)?;
    let after = world.diagnostics();
    println!(
        "t = {}, {} collisions, kinetic energy {} -> {}",
        world.time, after.collisions, before.kinetic_energy, after.kinetic_energy
    );
    let b = world.balls();
    for i in 0..b.len() {
        println!("ball {i}: x = {:.3}, vx = {:.3}", b.x[i], b.vx[i]);
    }
    Ok(())
}
