//! Steps per second of the `shear` preset (spring model, 391 frictional grains, a servo
//! lid), and of the same cell with the lid fixed where the servo left it, so the
//! difference is what the moving wall costs, and with the lid a moving wall at rest
//! there:
//!
//!     cargo run --release -p carom --example shear_rate

use carom::parse::build_world;
use std::time::Instant;

fn rate(mut w: carom::World, steps: u64) -> f64 {
    let t = Instant::now();
    w.run_steps(steps).unwrap();
    steps as f64 / t.elapsed().as_secs_f64()
}

fn main() {
    let s = carom::presets::find("shear").unwrap().scenario().unwrap();
    let mut w = build_world(&s).unwrap();
    // Past the lid's descent, into the sheared state.
    w.run_steps(10_000).unwrap();
    let lid = w.walls().motion(0).unwrap().offset[1];
    let state = carom::state::snapshot(&w, 0.0);
    let steps = 20_000;
    let moving = rate(build_world(&state).unwrap(), steps);
    let mut fixed = state.clone();
    let wall = &mut fixed.walls[0];
    wall.pressure = None;
    wall.axis = None;
    wall.offset = None;
    wall.points = Some(vec![[0.0, 20.0 + lid], [40.0, 20.0 + lid]]);
    // The lid's grains, glued to it, become plain kinematic balls moving at their own
    // velocity (U along x): the fixed lid's belt.
    for b in &mut fixed.balls {
        b.glue = None;
    }
    let still = rate(build_world(&fixed).unwrap(), steps);
    // The same fixed place, but a moving wall at zero velocity: the moving-wall
    // machinery without the servo.
    let mut idle = fixed.clone();
    idle.walls[0].velocity = Some([0.0, 0.0]);
    for b in idle.balls.iter_mut().filter(|b| b.kinematic) {
        b.glue = Some(0);
    }
    let idle = rate(build_world(&idle).unwrap(), steps);
    println!("shear, servo lid:  {moving:.0} steps/s");
    println!("shear, fixed lid:  {still:.0} steps/s");
    println!("shear, lid a moving wall at rest:  {idle:.0} steps/s");
    println!("ratio moving/fixed: {:.3}", moving / still);
}
