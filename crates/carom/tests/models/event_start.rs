//! The event model refuses a start it cannot honour (balls overlapping, a ball through
//! a wall) instead of running it with the overlap kept, and tolerates round-off.

use carom::{Ball, Physics, Table, World};

fn physics() -> Physics {
    Physics {
        model: carom::ModelKind::Event,
        dt: 0.1,
        ..Physics::default()
    }
}

fn build(balls: &[Ball]) -> Result<World, String> {
    World::from_balls(Table::new(100.0, 100.0), physics(), balls).map_err(|e| e.to_string())
}

#[test]
fn overlapping_balls_are_refused_naming_both_and_the_depth() {
    // Centres 19 apart with radii 10 and 10: 1 of overlap, between balls 1 and 2.
    let err = build(&[
        Ball::new(80.0, 80.0, 0.0, 0.0, 5.0, 1.0),
        Ball::new(30.0, 50.0, 0.0, 0.0, 10.0, 1.0),
        Ball::new(49.0, 50.0, 0.0, 0.0, 10.0, 1.0),
    ])
    .unwrap_err();
    assert!(err.contains("balls 1 and 2"), "{err}");
    assert!(err.contains("overlap by 1.000e0"), "{err}");
    assert!(!err.contains('\n'));
}

#[test]
fn the_deepest_of_several_offences_is_named() {
    let err = build(&[
        Ball::new(30.0, 20.0, 0.0, 0.0, 10.0, 1.0),
        Ball::new(49.5, 20.0, 0.0, 0.0, 10.0, 1.0), // 0.5 deep into ball 0
        Ball::new(30.0, 70.0, 0.0, 0.0, 10.0, 1.0),
        Ball::new(46.0, 70.0, 0.0, 0.0, 10.0, 1.0), // 4 deep into ball 2
    ])
    .unwrap_err();
    assert!(err.contains("balls 2 and 3"), "{err}");
}

#[test]
fn a_ball_through_a_wall_is_refused() {
    // World::from_balls takes any balls (the scenario parser rejects balls outside the
    // table, the library does not): radius 10 at x = 7 is 3 through the left wall.
    let err = build(&[Ball::new(7.0, 50.0, 1.0, 0.0, 10.0, 1.0)]).unwrap_err();
    assert!(err.contains("ball 0"), "{err}");
    assert!(err.contains("left wall"), "{err}");
}

#[test]
fn round_off_overlaps_and_kinematic_pairs_are_tolerated() {
    // Touching to a relative 1e-13 (what a state file written after a collision holds):
    // far below the tolerance of 1e-9 of a radius.
    let touching = 20.0 * (1.0 - 1e-13);
    let mut w = build(&[
        Ball::new(30.0, 50.0, 1.0, 0.0, 10.0, 1.0),
        Ball::new(30.0 + touching, 50.0, 0.0, 0.0, 10.0, 1.0),
        // A ball resting exactly on the floor, and one a round-off hair through it.
        Ball::new(80.0, 90.0, 0.0, 0.0, 10.0, 1.0),
        Ball::new(10.0, 90.0 + 1e-12, 0.0, 0.0, 10.0, 1.0),
    ])
    .expect("round-off is tolerated");
    w.run_steps(10).unwrap();
    // The touching pair collided at once (equal masses, head-on): ball 1 took ball 0's
    // velocity exactly, so the overlap was not kept.
    assert_eq!(w.balls().vx[0], 0.0);
    assert_eq!(w.balls().vx[1], 1.0);

    // Two kinematic balls never interact: their overlap is no obstacle.
    let mut a = Ball::new(30.0, 50.0, 0.0, 0.0, 10.0, 1.0);
    let mut b = Ball::new(35.0, 50.0, 0.0, 0.0, 10.0, 1.0);
    a.kinematic = true;
    b.kinematic = true;
    build(&[a, b]).expect("kinematic balls may overlap");
}
