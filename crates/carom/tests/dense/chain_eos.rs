//! The chain sampler (`physics.model = "chain"`), wired as a model, against independent
//! expectations: the virial series of hard disks at low and moderate density, the event
//! model's own pressure at the same N (two exact methods), and Henderson's equation of
//! state as the event model's tests use it (`statistical.rs`).
//!
//! References (values quoted, formulas in our own words):
//! - The virial series `Z = 1 + sum_k b_k (2 eta)^(k-1)`, `b_k = B_k / B_2^(k-1)`
//!   (`B_2 rho = 2 eta` for disks): `b_3 = 4/3 - sqrt(3)/pi` and
//!   `b_4 = 2 - 9 sqrt(3) / (2 pi) + 10 / pi^2` exactly; `b_5` to `b_10` from N. Clisby
//!   and B. M. McCoy, J. Stat. Phys. 122 (2006) 15 (0.33355604, 0.19883, 0.11487,
//!   0.06497, 0.03622, 0.01995). At `eta <= 0.3` the terms after `b_10` add less than
//!   `3e-4` (they fall faster than a geometric series of ratio `0.6`, from `2e-4`).
//! - D. Henderson, Mol. Phys. 30 (1975) 971: `Z = (1 + eta^2 / 8) / (1 - eta)^2`,
//!   within about 1% of simulation up to `eta = 0.6`.
//!
//! Kolafa and Rottner's equation of state is not among the event model's tests (they
//! use Henderson's), so Henderson's stands for it here, with its 1%.

use crate::common::mean_and_error;
use carom::parse::{load, Format};
use carom::World;
use std::f64::consts::PI;

/// The reduced virial coefficients `b_2 .. b_10` of hard disks.
fn virial_coefficients() -> [f64; 9] {
    let s3 = 3f64.sqrt();
    [
        1.0,
        4.0 / 3.0 - s3 / PI,
        2.0 - 9.0 * s3 / (2.0 * PI) + 10.0 / (PI * PI),
        0.333_556_04,
        0.198_83,
        0.114_87,
        0.064_97,
        0.036_22,
        0.019_95,
    ]
}

/// `Z` by the virial series through `b_10`.
fn virial_z(eta: f64) -> f64 {
    let x = 2.0 * eta;
    1.0 + virial_coefficients()
        .iter()
        .enumerate()
        .map(|(k, b)| b * x.powi(k as i32 + 1))
        .sum::<f64>()
}

fn henderson_z(eta: f64) -> f64 {
    (1.0 + eta * eta / 8.0) / ((1.0 - eta) * (1.0 - eta))
}

/// `n` unit disks at area fraction `eta` in a periodic square box, under `model`.
fn gas(model: &str, n: u64, eta: f64, dt: f64) -> World {
    let text = format!(
        r#"
[table]
boundary = "periodic"
[physics]
model = "{model}"
dt = {dt}
chain = {{ seed = 17 }}
[[generators]]
kind = "gas"
n = {n}
area_fraction = {eta}
r = 1.0
speed = 1.0
seed = 11
"#
    );
    load(&text, Format::Toml).expect("gas loads").1
}

/// The chain sampler's `Z` as (mean, standard error) of `blocks` blocks of `chains`
/// chains each, after `equilibrate` chains.
fn chain_z(w: &mut World, equilibrate: u64, blocks: usize, chains: u64) -> (f64, f64) {
    w.run_steps(equilibrate).unwrap();
    let z: Vec<f64> = (0..blocks)
        .map(|_| {
            let start = w.window();
            w.run_steps(chains).unwrap();
            w.diagnostics_over(&start).chain.expect("chain pressure").z
        })
        .collect();
    mean_and_error(&z)
}

/// The event model's `Z = P A / (N kT)` likewise, blocks of `steps` steps.
fn event_z(w: &mut World, equilibrate: u64, blocks: usize, steps: u64) -> (f64, f64) {
    let n = w.balls().len() as f64;
    let area = w.table().area();
    w.run_steps(equilibrate).unwrap();
    let z: Vec<f64> = (0..blocks)
        .map(|_| {
            let start = w.window();
            w.run_steps(steps).unwrap();
            let d = w.diagnostics_over(&start);
            d.pressure * area / (n * d.temperature)
        })
        .collect();
    mean_and_error(&z)
}

/// Chains for about `sweeps` displacements of a disk diameter per disk.
fn chains_for(w: &World, sweeps: f64) -> u64 {
    (sweeps * 2.0 / w.step_length()).ceil() as u64
}

/// Low density, where the series is exact to far below the error: `Z` within four
/// standard errors of the block mean (blocks of some 20 diameters of displacement per
/// disk, far beyond the pressure's correlation at this density).
#[test]
fn chains_follow_the_virial_series_at_low_density() {
    for eta in [0.05, 0.15] {
        let mut w = gas("chain", 256, eta, 1.0);
        let block = chains_for(&w, 20.0);
        let (z, err) = chain_z(&mut w, block, 20, block);
        let theory = virial_z(eta);
        eprintln!("chain eta {eta}: Z {z:.5} +- {err:.5}, virial {theory:.5}");
        assert!(
            (z - theory).abs() < 4.0 * err + 1e-4,
            "eta {eta}: Z = {z} +- {err}, virial series {theory}"
        );
    }
}

/// `eta = 0.3`: the series through `b_10` (truncated at most `3e-4`) and Henderson
/// (1%).
#[test]
fn chains_follow_the_virial_series_and_henderson_at_eta_0_3() {
    let eta = 0.3;
    let mut w = gas("chain", 256, eta, 1.0);
    let block = chains_for(&w, 20.0);
    let (z, err) = chain_z(&mut w, 2 * block, 20, block);
    let (virial, henderson) = (virial_z(eta), henderson_z(eta));
    eprintln!("chain eta 0.3: Z {z:.5} +- {err:.5}, virial {virial:.5}, Henderson {henderson:.5}");
    assert!(
        (z - virial).abs() < 4.0 * err + 3e-4,
        "Z = {z} +- {err}, virial series {virial}"
    );
    assert!(
        (z - henderson).abs() < 4.0 * err + 0.01 * henderson,
        "Z = {z} +- {err}, Henderson {henderson}"
    );
}

/// The chains against the event model at the same N, two exact methods for the same
/// system: the difference within four combined standard errors plus the two
/// ensembles' own difference at finite N. The event gas keeps its total momentum (a
/// microcanonical ensemble, its temperature per disk counted over `N` rather than the
/// `N - 1` free centre-of-mass motions) while the chains sample positions canonically:
/// their `Z` differ by order `1/N`, bounded here by `2 Z / N` (0.8% at N = 256).
fn chains_agree_with_the_event_model(eta: f64, chain_sweeps: f64, event_time: f64) {
    let n = 256;
    let mut c = gas("chain", n, eta, 1.0);
    let block = chains_for(&c, chain_sweeps);
    let (zc, ec) = chain_z(&mut c, 5 * block, 20, block);
    let dt = 1.0;
    let mut e = gas("event", n, eta, dt);
    let steps = (event_time / dt).ceil() as u64;
    let (ze, ee) = event_z(&mut e, 5 * steps, 20, steps);
    let combined = ec.hypot(ee);
    let ensembles = 2.0 * zc / n as f64;
    eprintln!(
        "eta {eta}: chain Z {zc:.4} +- {ec:.4}, event Z {ze:.4} +- {ee:.4}, Henderson {:.4}",
        henderson_z(eta)
    );
    assert!(
        (zc - ze).abs() < 4.0 * combined + ensembles,
        "eta {eta}: chain {zc} +- {ec}, event {ze} +- {ee}"
    );
    let h = henderson_z(eta);
    assert!(
        (zc - h).abs() < 4.0 * ec + 0.01 * h,
        "eta {eta}: chain {zc} +- {ec}, Henderson {h}"
    );
}

#[test]
fn chains_agree_with_the_event_model_at_eta_0_3() {
    chains_agree_with_the_event_model(0.3, 20.0, 20.0);
}

/// Under a second in the test profile: N = 256, 20 blocks of 20 diameters per disk.
#[test]
fn chains_agree_with_the_event_model_at_eta_0_6() {
    chains_agree_with_the_event_model(0.6, 20.0, 20.0);
}
