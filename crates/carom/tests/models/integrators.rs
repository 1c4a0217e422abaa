//! The tutorial's level-5 experiment: one ball bouncing on a spring floor under gravity,
//! with each time-step scheme. Averaging the velocity delays the position update and the
//! ball bounces higher and higher; averaging the acceleration delays it more; predicting
//! the acceleration anticipates it and the ball loses height; semi-implicit Euler keeps
//! it; velocity-Verlet (symplectic, second order) keeps it best.

use crate::common;
use carom::Integrator;
use carom::{Ball, Physics, Table};
use common::*;

const G: f64 = 0.7;
const START_Y: f64 = 80.0;

/// Apex heights (distance fallen below the top, as height above the floor contact) of
/// the first `bounces` bounces.
fn bounce_heights(integrator: Integrator, bounces: usize) -> Vec<f64> {
    let table = Table::new(300.0, 400.0);
    let p = Physics {
        gravity: [0.0, G],
        ..spring(integrator)
    };
    let r = 15.0;
    let mut w = world(table, p, &[Ball::new(150.0, START_Y, 0.0, 0.0, r, 1.0)]);
    let mut heights = Vec::new();
    let mut prev_vy = 0.0;
    // A bounce period is ~2 sqrt(2 h / g) ~ 60 time units = 1200 steps.
    for _ in 0..bounces * 3000 {
        w.step().unwrap();
        let vy = w.balls().vy[0];
        // Apex: vertical velocity turns from upward (negative y) to downward.
        if prev_vy < 0.0 && vy >= 0.0 {
            heights.push(table.height - r - w.balls().y[0]);
            if heights.len() == bounces {
                break;
            }
        }
        prev_vy = vy;
    }
    assert_eq!(heights.len(), bounces, "{integrator:?}: not enough bounces");
    heights
}

#[test]
fn bounce_heights_follow_the_tutorial() {
    let h0 = 400.0 - 15.0 - START_Y;
    let n = 20;
    let last = |i: Integrator| *bounce_heights(i, n).last().unwrap() / h0;
    let euler = last(Integrator::SemiImplicitEuler);
    let avg_v = last(Integrator::AverageVelocity);
    let avg_a = last(Integrator::AverageAcceleration);
    let predicted = last(Integrator::PredictedAcceleration);
    let verlet = last(Integrator::VelocityVerlet);
    eprintln!("height after {n} bounces / drop height: euler {euler:.4} avg-v {avg_v:.4} avg-a {avg_a:.4} predicted {predicted:.4} verlet {verlet:.4}");
    // Semi-implicit Euler is symplectic: energy oscillates but does not drift. Its
    // apex is sampled at step boundaries, which alone costs ~g dt^2 / h ~ 1e-5; a few
    // percent is what the tutorial observes ("keeps the height").
    assert!((euler - 1.0).abs() < 0.03, "semi-implicit Euler {euler}");
    // Growth and decay: after 20 bounces the effect must be far beyond that band.
    assert!(avg_v > 1.05, "average-velocity must gain height: {avg_v}");
    assert!(
        avg_a > avg_v,
        "average-acceleration gains more than average-velocity: {avg_a} vs {avg_v}"
    );
    assert!(
        predicted < 0.95,
        "predicted-acceleration must lose height: {predicted}"
    );
    // Verlet is second order: closest to the drop height of all.
    for (name, other) in [
        ("euler", euler),
        ("avg-v", avg_v),
        ("avg-a", avg_a),
        ("predicted", predicted),
    ] {
        assert!(
            (verlet - 1.0).abs() <= (other - 1.0).abs(),
            "verlet {verlet} not closer than {name} {other}"
        );
    }
}

/// Heights must change monotonically for the drifting schemes: the experiment is a
/// trend, not a fluctuation.
#[test]
fn drifting_schemes_drift_every_bounce() {
    let grow = bounce_heights(Integrator::AverageVelocity, 8);
    assert!(grow.windows(2).all(|w| w[1] > w[0]), "{grow:?}");
    let shrink = bounce_heights(Integrator::PredictedAcceleration, 8);
    assert!(shrink.windows(2).all(|w| w[1] < w[0]), "{shrink:?}");
}
