//! Statistical physics against independent theory: the hard-disk equation of state and
//! collision rate (event and simultaneous models), granular cooling by Haff's law, and
//! the spring gas approaching hard disks as its stiffness grows. Every expectation is
//! computed here from the published formulas, never from a carom run.
//!
//! References (formulas re-derived or quoted in our own words):
//! - D. Henderson, "A simple equation of state for hard discs", Mol. Phys. 30 (1975)
//!   971: `Z = (1 + eta^2 / 8) / (1 - eta)^2`, eta the area fraction; within about 1%
//!   of simulation data up to eta = 0.6 or so.
//! - The virial theorem for hard disks: `Z = 1 + 2 eta g(sigma)`, hence Henderson's
//!   contact value `g(sigma) = (1 - 7 eta / 16) / (1 - eta)^2`.
//! - Enskog: in equilibrium a disk collides `omega = g(sigma) n 2 sigma <|v_12|>` times
//!   per unit time (it sweeps a strip of width 2 sigma; the relative velocity is a 2D
//!   Maxwellian of variance kT/mu per component, mu = m/2, whose mean speed is
//!   `sqrt(pi kT / m)`): `omega = 2 sigma n g(sigma) sqrt(pi kT / m)`.
//! - P. K. Haff, J. Fluid Mech. 134 (1983) 401: a homogeneous granular gas cools as
//!   `T(t) = T0 / (1 + t / t0)^2`; `t0` for disks is derived below.

use crate::common;
use carom::parse::{load, Format};
use carom::World;
use common::mean_and_error;
use std::f64::consts::PI;

/// Henderson's compressibility factor of hard disks at area fraction `eta`.
fn henderson_z(eta: f64) -> f64 {
    (1.0 + eta * eta / 8.0) / ((1.0 - eta) * (1.0 - eta))
}

/// Henderson's contact value of the pair distribution.
fn henderson_g(eta: f64) -> f64 {
    (1.0 - 7.0 * eta / 16.0) / ((1.0 - eta) * (1.0 - eta))
}

/// Enskog collision frequency per disk (diameter `sigma`, number density `n`).
fn enskog_rate(eta: f64, sigma: f64, n: f64, kt: f64, m: f64) -> f64 {
    2.0 * sigma * n * henderson_g(eta) * (PI * kt / m).sqrt()
}

/// A periodic gas of `n` unit disks (r = 1, m = 1) at area fraction `eta`.
fn gas(model: &str, n: u64, eta: f64, dt: f64, stiffness: f64, e: f64) -> World {
    let text = format!(
        r#"
[table]
boundary = "periodic"
[physics]
model = "{model}"
dt = {dt}
stiffness = {stiffness}
restitution = {e}
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

/// Mean and standard error of block values (blocks long compared with the collision
/// time, so nearly independent).
/// Compressibility factor `P / (n kT)` and collisions per disk per unit time, each as
/// (mean, standard error) over `blocks` blocks of `steps` steps.
fn measure(w: &mut World, blocks: usize, steps: u64) -> ((f64, f64), (f64, f64)) {
    let n = w.balls().len() as f64;
    let area = w.table().area();
    let (mut z, mut rate) = (Vec::new(), Vec::new());
    for _ in 0..blocks {
        let start = w.window();
        let c0 = w.collisions();
        w.run_steps(steps).unwrap();
        let d = w.diagnostics_over(&start);
        let duration = w.time - start.time;
        z.push(d.pressure * area / (n * d.temperature));
        // Each collision is one for each of its two disks.
        rate.push(2.0 * (w.collisions() - c0) as f64 / (n * duration));
    }
    (mean_and_error(&z), mean_and_error(&rate))
}

/// Hard disks in equilibrium: measured Z and collision rate against Henderson and
/// Enskog. Tolerance: four standard errors of the block means, plus 1% for Henderson's
/// own accuracy (it is a fit, not exact), plus `model_error` (relative) for the model.
fn check_hard_disks(model: &str, eta: f64, dt: f64, model_error: f64) {
    let n = 1500;
    let mut w = gas(model, n, eta, dt, 1.0, 1.0);
    // Equilibrate: some 20 collisions per disk forget the square-lattice start.
    let sigma = 2.0;
    let density = n as f64 / w.table().area();
    let kt = w.diagnostics().temperature;
    let omega = enskog_rate(eta, sigma, density, kt, 1.0);
    let equilibrate = (20.0 / omega / dt).ceil() as u64;
    w.run_steps(equilibrate).unwrap();
    // Ten blocks of about 15 collision times each.
    let block = (15.0 / omega / dt).ceil() as u64;
    let ((z, z_err), (rate, rate_err)) = measure(&mut w, 10, block);
    let kt = w.diagnostics().temperature;
    let z_theory = henderson_z(eta);
    let rate_theory = enskog_rate(eta, sigma, density, kt, 1.0);
    eprintln!(
        "{model} eta {eta}: Z {z:.4} +- {z_err:.4} (Henderson {z_theory:.4}), rate {rate:.4} +- \
         {rate_err:.4} (Enskog {rate_theory:.4})"
    );
    let z_tol = 4.0 * z_err + (0.01 + model_error) * z_theory;
    let rate_tol = 4.0 * rate_err + (0.01 + model_error) * rate_theory;
    assert!(
        (z - z_theory).abs() < z_tol,
        "{model} eta {eta}: Z = {z} +- {z_err}, Henderson {z_theory}"
    );
    assert!(
        (rate - rate_theory).abs() < rate_tol,
        "{model} eta {eta}: rate = {rate} +- {rate_err}, Enskog {rate_theory}"
    );
}

#[test]
fn event_model_hard_disks_follow_henderson_and_enskog_at_eta_0_3() {
    // The event model is exact: no model error.
    check_hard_disks("event", 0.3, 0.1, 0.0);
}

#[test]
fn event_model_hard_disks_follow_henderson_and_enskog_at_eta_0_5() {
    check_hard_disks("event", 0.5, 0.05, 0.0);
}

#[test]
fn simultaneous_model_hard_disks_agree_within_the_time_step_error() {
    // The time-stepped model finds a collision only once the disks overlap, on
    // average by about half the distance they close in a step, <|v_12|> dt / 2
    // (sqrt(pi kT / m) dt / 2 ~ 0.005 at kT = 1/3, dt = 0.01), and it misses the
    // grazing contacts that begin and end within one step: both are relative errors of
    // order <|v_12|> dt / sigma. Allow twice that.
    let dt = 0.01;
    let v12 = (PI / 3.0).sqrt();
    check_hard_disks("simultaneous", 0.3, dt, 2.0 * v12 * dt / 2.0);
}

#[test]
fn an_inelastic_gas_cools_by_haffs_law() {
    // Haff's t0 for disks, derived here. A collision of equal disks (mass m) with
    // normal relative speed u loses (1 - e^2) (m/2) u^2 / 2 = (1 - e^2) m u^2 / 4.
    // Collisions come at a rate proportional to u = |g| cos(theta), theta the angle
    // between the relative velocity g and the line of centres, uniform over
    // (-pi/2, pi/2) for a homogeneous gas. So over collisions
    //   <u^2> = <|g|^3 cos^3> / <|g| cos> = (<|g|^3> / <|g|>) (4/3 / 2),
    // and for the 2D Maxwellian of g (variance s^2 = 2 kT / m per component),
    // <|g|^3> / <|g|> = 3 s^2 = 6 kT / m. Hence <u^2> = 4 kT / m and each collision
    // loses (1 - e^2) kT on average. With N omega / 2 collisions per unit time and
    // E = N kT (two degrees of freedom per disk):
    //   dT/dt = -(1 - e^2) omega(T) T / 2,   omega(T) = omega0 sqrt(T / T0),
    // whose solution is T0 / (1 + t / t0)^2 with 1 / t0 = (1 - e^2) omega0 / 4.
    // Equivalently sqrt(T0 / T) - 1 = t / t0: a straight line of slope 1 / t0.
    let (eta, e, n, dt) = (0.25, 0.9, 1500, 0.05);
    let mut w = gas("event", n, eta, dt, 1.0, 1.0);
    let density = n as f64 / w.table().area();
    let kt = w.diagnostics().temperature;
    let omega = enskog_rate(eta, 2.0, density, kt, 1.0);
    // Equilibrate elastically first, so that cooling starts from a Maxwellian.
    w.run_steps((20.0 / omega / dt).ceil() as u64).unwrap();
    let p = carom::Physics {
        restitution: e,
        ..*w.physics()
    };
    w.set_physics(p).unwrap();
    let t0_temp = w.diagnostics().temperature;
    let omega0 = enskog_rate(eta, 2.0, density, t0_temp, 1.0);
    let t0 = 4.0 / ((1.0 - e * e) * omega0);
    // Follow the gas to t = t0 (T falls to a quarter), sampling ten times.
    let samples = 10;
    let per = (t0 / samples as f64 / dt).ceil() as u64;
    let start = w.time;
    let (mut sxx, mut sxy) = (0.0, 0.0);
    for _ in 0..samples {
        w.run_steps(per).unwrap();
        let t = w.time - start;
        let y = (t0_temp / w.diagnostics().temperature).sqrt() - 1.0;
        // Least squares through the origin: a free intercept would hide a bad start.
        sxx += t * t;
        sxy += t * y;
    }
    let slope = sxy / sxx;
    // Tolerance: 1% for Henderson's g(sigma); about 1% for the homogeneous cooling
    // state's departure from a Maxwellian (its fourth cumulant a2 changes the cooling
    // rate by a factor 1 + 3 a2 / 16, |a2| < 0.05 at e = 0.9); 3% for the velocity
    // correlations and incipient clustering a finite inelastic gas builds up by t0;
    // the statistical error of some 30 collisions per disk is far below these.
    let rel = (slope * t0 - 1.0).abs();
    eprintln!("Haff: 1/t0 measured {slope:.5}, theory {:.5}", 1.0 / t0);
    assert!(
        rel < 0.05,
        "cooling rate 1/t0: measured {slope}, Haff {}",
        1.0 / t0
    );
    // And the temperature did fall as far as Haff says (a quarter at t0).
    let t_end = w.time - start;
    let haff = t0_temp / (1.0 + t_end / t0).powi(2);
    let measured = w.diagnostics().temperature;
    assert!(
        (measured / haff - 1.0).abs() < 0.1,
        "T = {measured}, Haff {haff}"
    );
}

#[test]
fn the_spring_gas_pressure_converges_to_hard_disks_as_stiffness_grows() {
    // A soft disk is a hard disk of a smaller effective diameter. To first order in
    // the softness, the Barker-Henderson diameter of the pair potential
    // u(r) = k (sigma - r)^2 / 2 is d = sigma - int_0^sigma exp(-u / kT) dr, that is
    // sigma - sqrt(pi kT / (2 k)) for k sigma^2 >> kT. The spring gas at area fraction
    // eta should then have Z = Z_Henderson(eta (d / sigma)^2), which tends to
    // Z_Henderson(eta) as k grows.
    let (eta, n) = (0.3, 1000);
    let sigma = 2.0;
    let mut gaps = Vec::new();
    for k in [100.0f64, 1000.0, 10000.0] {
        // 20 steps per two-body contact: T = pi sqrt(mu / k), mu = 1/2.
        let dt = PI * (0.5 / k).sqrt() / 20.0;
        let mut w = gas("spring", n, eta, dt, k, 1.0);
        let kt = w.diagnostics().temperature;
        let density = n as f64 / w.table().area();
        let omega = enskog_rate(eta, sigma, density, kt, 1.0);
        w.run_steps((10.0 / omega / dt).ceil() as u64).unwrap();
        let ((z, z_err), _) = measure(&mut w, 8, (8.0 / omega / dt).ceil() as u64);
        let kt = w.diagnostics().temperature;
        let d = sigma - (PI * kt / (2.0 * k)).sqrt();
        let z_soft = henderson_z(eta * (d / sigma).powi(2));
        // Four standard errors, 1% for Henderson, and the second-order softness term,
        // bounded by the first-order shift itself squared relative to it.
        eprintln!("spring k {k}: Z {z:.4} +- {z_err:.4}, soft-disk theory {z_soft:.4}");
        let first = (henderson_z(eta) - z_soft).abs();
        let tol = 4.0 * z_err + 0.01 * z_soft + first * first / z_soft;
        assert!(
            (z - z_soft).abs() < tol,
            "k = {k}: Z = {z} +- {z_err}, soft-disk theory {z_soft}"
        );
        gaps.push((z - henderson_z(eta)).abs());
    }
    // The stiffest gas is nearer hard disks than the softest, by more than the noise.
    assert!(gaps[2] < gaps[0], "|Z - Z_hard| by stiffness: {gaps:?}");
}
