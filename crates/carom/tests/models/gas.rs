//! Many-ball properties: energy of an elastic spring gas stays bounded, thread count
//! does not change results, the grid finds exactly the pairs the O(N^2) oracle finds,
//! and random scenes keep their invariants.

use crate::common;
use carom::broadphase::{touching_pairs_brute_force, Grid};
use carom::parse::build_world;
use carom::scenario::Generator;
use carom::ModelKind;
use carom::{Ball, Physics, Table, World};
use common::*;
use proptest::prelude::*;

/// The benchmark gas scene (the `gas` preset) with `n` balls.
fn gas(n: u64) -> World {
    let mut s = carom::presets::find("gas").unwrap().scenario().unwrap();
    match &mut s.generators[0] {
        Generator::Gas { n: count, .. } => *count = Some(n),
        other => panic!("gas preset changed: {other:?}"),
    }
    build_world(&s).unwrap()
}

/// Relative energy error of isolated elastic collisions at the gas scene's resolution
/// (20 steps per contact), over random impact parameters, speeds and onset phases
/// relative to the step grid: (mean, standard deviation).
fn collision_energy_errors(integrator: carom::Integrator) -> (f64, f64) {
    let gas = gas(1);
    let p = Physics {
        integrator,
        ..*gas.physics()
    };
    let mut rng = carom::SplitMix64(3);
    let (mut s1, mut s2, mut n) = (0.0, 0.0, 0.0);
    for _ in 0..2000 {
        let v = 0.5 + rng.unit();
        let (phase, b) = (0.05 * rng.unit(), 1.5 * rng.symmetric());
        let table = Table::new(100.0, 100.0);
        let mut w = world(
            table,
            p,
            &[
                Ball::new(40.0 + phase, 50.0, v, 0.0, 1.0, 1.0),
                Ball::new(45.0, 50.0 + b, -0.3 * v, 0.1, 1.0, 1.0),
            ],
        );
        let e0 = w.diagnostics().total_energy;
        w.run_steps(600).unwrap();
        if w.collisions() != 1 {
            continue; // a grazing miss
        }
        let r = (w.diagnostics().total_energy - e0) / e0;
        s1 += r;
        s2 += r * r;
        n += 1.0;
    }
    let mean = s1 / n;
    (mean, (s2 / n - mean * mean).sqrt())
}

/// The spring contact force is not smooth where a contact begins, so even a symplectic
/// scheme leaves each elastic collision with a small energy error, of order
/// (dt / T_contact)^2 = 1/400 of the pair's energy at 20 steps per contact. What must not
/// happen is a bias: errors of random sign make the total a random walk, with no drift.
#[test]
fn elastic_collision_energy_errors_are_small_and_unbiased() {
    for integrator in [
        carom::Integrator::SemiImplicitEuler,
        carom::Integrator::VelocityVerlet,
    ] {
        let (mean, sd) = collision_energy_errors(integrator);
        assert!(sd < 2.5e-3, "{integrator:?}: per-collision error {sd}");
        // 2000 samples: the mean of an unbiased error is within 3 sd / sqrt(2000).
        assert!(
            mean.abs() < 3.0 * sd / 2000f64.sqrt(),
            "{integrator:?}: biased, mean {mean} sd {sd}"
        );
    }
}

/// Over 100,000 steps (~600 collisions per ball) the total energy of an elastic gas
/// stays within the envelope of that unbiased random walk: after C collisions, each
/// changing the energy by sd times a pair's energy (2 E / N on average), the spread is
/// 2 sd sqrt(C) / N relative; four times that bounds it (a 4-sigma event is 6e-5 rare,
/// and the scene is deterministic). A systematic drift of the same per-collision size
/// would exceed it by a factor sqrt(C) / 4 ~ 100.
#[test]
fn elastic_spring_gas_energy_is_bounded() {
    let (_, sd) = collision_energy_errors(carom::Integrator::SemiImplicitEuler);
    let n = 400;
    let mut w = gas(n);
    let e0 = w.diagnostics().total_energy;
    let mut worst: f64 = 0.0;
    for _ in 0..1000 {
        w.run_steps(100).unwrap();
        worst = worst.max(rel(w.diagnostics().total_energy, e0));
    }
    let c = w.collisions() as f64;
    assert!(c > 100_000.0, "too few collisions to test anything: {c}");
    let envelope = 4.0 * 2.0 * sd * c.sqrt() / n as f64;
    assert!(
        worst < envelope,
        "energy excursion {worst} beyond the random-walk envelope {envelope}"
    );
}

/// Forces are gathered per ball in a fixed order, so 1 and 2 threads agree bit for bit.
#[test]
fn spring_results_identical_for_one_and_two_threads() {
    let run = |threads: usize| {
        let mut w = gas(20_000);
        w.set_threads(threads).unwrap();
        w.run_steps(50).unwrap();
        (w.balls().clone(), w.collisions())
    };
    let (a, ca) = run(1);
    let (b, cb) = run(2);
    assert_eq!(ca, cb);
    assert!(a == b, "ball states differ between 1 and 2 threads");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The grid returns exactly the oracle's pairs, for radii of mixed sizes, balls near
    /// and beyond the walls, and any slack.
    #[test]
    fn grid_finds_exactly_the_oracle_pairs(
        balls in prop::collection::vec((-20.0f64..220.0, -20.0f64..120.0, 0.5f64..8.0), 0..300),
        slack in 0.0f64..2.0,
    ) {
        let table = Table::new(200.0, 100.0);
        let x: Vec<f64> = balls.iter().map(|b| b.0).collect();
        let y: Vec<f64> = balls.iter().map(|b| b.1).collect();
        let r: Vec<f64> = balls.iter().map(|b| b.2).collect();
        let rmax = r.iter().copied().fold(0.0, f64::max);
        let mut grid = Grid::new();
        grid.rebuild(&x, &y, 2.0 * rmax + slack, &table);
        let mut pairs = Vec::new();
        grid.touching_pairs(&x, &y, &r, slack, &mut pairs);
        prop_assert_eq!(pairs, touching_pairs_brute_force(&x, &y, &r, slack));
    }

    /// Random scenes under impulse and spring: no NaN, no ball centre leaves the table,
    /// momentum conserved when nothing reaches a wall is covered elsewhere; here energy
    /// may only fall for e < 1 (impulse, where each collision is exact) and stays
    /// within the spring scheme's bounded error for e = 1.
    #[test]
    fn random_scenes_keep_their_invariants(
        seed in 0u64..1_000_000,
        n in 2usize..60,
        e in 0.0f64..=1.0,
        spring_model in any::<bool>(),
    ) {
        let table = Table::new(300.0, 200.0);
        let mut rng = carom::SplitMix64(seed);
        let cols = 10;
        let balls: Vec<Ball> = (0..n).map(|k| {
            let (cx, cy) = ((k % cols) as f64, (k / cols) as f64);
            Ball::new(
                20.0 + 28.0 * cx + 3.0 * rng.symmetric(),
                20.0 + 28.0 * cy + 3.0 * rng.symmetric(),
                3.0 * rng.symmetric(),
                3.0 * rng.symmetric(),
                6.0 + 4.0 * rng.unit(),
                0.5 + 2.0 * rng.unit(),
            )
        }).collect();
        let model = if spring_model { ModelKind::Spring } else { ModelKind::Impulse };
        let p = Physics { model, restitution: e, ..Physics::default() };
        let mut w = world(table, p, &balls);
        let e0 = w.diagnostics().total_energy;
        for _ in 0..400 {
            w.step().unwrap();
            let b = w.balls();
            for i in 0..b.len() {
                prop_assert!(b.x[i].is_finite() && b.y[i].is_finite() && b.vx[i].is_finite() && b.vy[i].is_finite());
                prop_assert!(b.x[i] > 0.0 && b.x[i] < table.width && b.y[i] > 0.0 && b.y[i] < table.height,
                    "ball {} left the table at ({}, {})", i, b.x[i], b.y[i]);
            }
        }
        let e1 = w.diagnostics().total_energy;
        if spring_model {
            // Bounded error of the scheme: a few percent of the energy in contact.
            prop_assert!(e1 <= e0 * 1.05, "spring energy grew {} -> {}", e0, e1);
        } else {
            prop_assert!(e1 <= e0 * (1.0 + 1e-12), "impulse energy grew {} -> {}", e0, e1);
        }
    }
}
