//! The virial stress tensor (`stress_xx`, `stress_xy`, `stress_yy` in the diagnostics)
//! against independent expectations: the tensor virial theorem with the wall forces of
//! a compressed packing, Henderson's equation of state for hard disks, momentum
//! conservation in single contacts, and the scalar pressure as half its trace.
//!
//! The tensor is the pressure tensor `P_ab` (positive in compression):
//! `P_ab A = <sum m (v - V)_a (v - V)_b> + <sum r_ij,a f_ij,b>`, walls excluded.

use crate::common;
use carom::parse::{load, Format};
use carom::ModelKind;
use carom::{Ball, ContactFriction, Physics, Table, World};
use common::{mean_and_error, Lcg};

/// `-sum_i x_i (x) F_i` over the forces of the table's walls on the balls (symmetric
/// part), the elastic spring law `k s` with `s` the overlap: in a bounded steady motion
/// the tensor virial theorem makes its time average equal to `P A` (kinetic plus pair
/// parts), since `d/dt sum m x (x) v` averages to zero.
fn wall_virial(w: &World) -> [f64; 3] {
    let (b, t, k) = (w.balls(), w.table(), w.physics().stiffness);
    let mut out = [0.0; 3];
    for i in 0..b.len() {
        let (x, y, r) = (b.x[i], b.y[i], b.r[i]);
        let f = |p: f64, size: f64| {
            if r - p > 0.0 {
                k * (r - p)
            } else if p + r - size > 0.0 {
                -k * (p + r - size)
            } else {
                0.0
            }
        };
        let (fx, fy) = (f(x, t.width), f(y, t.height));
        out[0] -= x * fx;
        out[1] -= 0.5 * (x * fy + y * fx);
        out[2] -= y * fy;
    }
    out
}

/// A compressed, frictionless polydisperse packing of 100 disks in a walled box: placed
/// on a square grid closer than their diameters, then left to settle with dissipative
/// contacts (e = 0.3). Returns the settled world, switched to elastic contacts.
fn settled_packing() -> World {
    let (side, n_side) = (20.0, 10);
    let mut rng = Lcg(7);
    let mut balls = Vec::new();
    for i in 0..n_side {
        for j in 0..n_side {
            let r = 1.0 + 0.12 * rng.next();
            let x = 1.0 + 2.0 * i as f64 + 0.01 * rng.next();
            let y = 1.0 + 2.0 * j as f64 + 0.01 * rng.next();
            balls.push(Ball::new(x, y, 0.0, 0.0, r, 1.0));
        }
    }
    let physics = Physics {
        model: ModelKind::Spring,
        dt: 0.005,
        stiffness: 1000.0,
        restitution: 0.3,
        ..Physics::default()
    };
    let mut w = World::from_balls(Table::new(side, side), physics, &balls).unwrap();
    w.run_steps(40_000).unwrap();
    let mut elastic = *w.physics();
    elastic.restitution = 1.0;
    w.set_physics(elastic).unwrap();
    w
}

#[test]
fn a_static_packing_s_stress_balances_the_wall_forces() {
    let mut w = settled_packing();
    let area = w.table().area();
    let start = w.window();
    let steps = 4000;
    let (mut walls, mut vmax) = ([0.0; 3], 0.0f64);
    for _ in 0..steps {
        // The model's pair forces of a step act at its starting positions
        // (semi-implicit Euler): sample the wall forces at the same positions.
        let wv = wall_virial(&w);
        for k in 0..3 {
            walls[k] += wv[k] / steps as f64;
        }
        w.step().unwrap();
        let b = w.balls();
        for i in 0..b.len() {
            vmax = vmax.max(b.vx[i].hypot(b.vy[i]));
        }
    }
    let d = w.diagnostics_over(&start);
    let p = [d.stress_xx, d.stress_xy, d.stress_yy];
    let duration = w.time - start.time;
    eprintln!(
        "P A {:?}, wall virial {walls:?}, largest speed {vmax:e}",
        p.map(|v| v * area)
    );
    // The packing is compressed: both normal stresses are positive and large against
    // the kinetic part (100 m vmax^2).
    assert!(p[0] > 0.0 && p[2] > 0.0, "{p:?}");
    assert!(p[0] * area > 1e6 * 100.0 * vmax * vmax, "{p:?} {vmax}");
    // The pressure is half the trace (the same sums, rounded apart).
    assert!(
        (0.5 * (p[0] + p[2]) - d.pressure).abs() < 1e-12 * d.pressure,
        "{p:?} {}",
        d.pressure
    );
    // Virial theorem: P A + <sum x (x) F_wall> = [sum m x (x) v] / T, whose size is at
    // most 2 * 100 * side * vmax / T; the sampled average differs from the model's
    // step integral by the end steps, 2 / steps of the wall virial.
    let scale = walls[0].abs().max(walls[2].abs());
    let tol = 2.0 * 100.0 * 20.0 * vmax / duration + 2.0 * scale / steps as f64 + 1e-9 * scale;
    for k in 0..3 {
        assert!(
            (p[k] * area - walls[k]).abs() < tol,
            "component {k}: P A = {}, wall virial {} (tolerance {tol})",
            p[k] * area,
            walls[k]
        );
    }
    // And against the plain wall pressure, the force on the right wall per unit
    // length: the bulk virial leaves out the layer of half a diameter at each wall
    // (the balls touching a wall sit about r from it), so P_xx = (F / H) (1 - 2 r / W)
    // to within the spread of radii (r in [1, 1.12]) over the width.
    let b = w.balls();
    let (t, k) = (*w.table(), w.physics().stiffness);
    let right: f64 = (0..b.len())
        .map(|i| (b.x[i] + b.r[i] - t.width).max(0.0) * k)
        .sum();
    let plain = right / t.height;
    let ratio = p[0] / plain;
    eprintln!(
        "P_xx {} against the wall's F / H {plain}: ratio {ratio}",
        p[0]
    );
    assert!(
        ratio > 1.0 - 2.0 * 1.12 / t.width - 0.02 && ratio < 1.0 - 2.0 * 1.0 / t.width + 0.02,
        "ratio {ratio}"
    );
}

/// A periodic hard-disk gas of `n` unit disks at area fraction `eta`.
fn gas(model: &str, n: u64, eta: f64, dt: f64, friction: &str) -> World {
    let text = format!(
        r#"
[table]
boundary = "periodic"
[physics]
model = "{model}"
dt = {dt}
stiffness = 2000.0
{friction}
[[generators]]
kind = "gas"
n = {n}
area_fraction = {eta}
r = 1.0
speed = 1.0
seed = 5
"#
    );
    load(&text, Format::Toml).expect("gas loads").1
}

#[test]
fn an_elastic_hard_disk_gas_has_an_isotropic_stress_of_henderson_s_pressure() {
    // Henderson (Mol. Phys. 30, 1975): Z = P / (n kT) = (1 + eta^2 / 8) / (1 - eta)^2
    // for hard disks, within about 1% of simulations. In equilibrium the pressure
    // tensor is isotropic: P_xx = P_yy = Z n kT, P_xy = 0.
    let (n, eta, dt) = (1000u64, 0.3, 0.1);
    let mut w = gas("event", n, eta, dt, "");
    // Some 25 collisions per disk to forget the lattice start (Enskog: about 0.6
    // collisions per disk per unit time here).
    w.run_steps(400).unwrap();
    let area = w.table().area();
    let (mut zxx, mut zyy, mut zxy) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..12 {
        let start = w.window();
        w.run_steps(250).unwrap();
        let d = w.diagnostics_over(&start);
        let nkt = n as f64 * d.temperature / area;
        zxx.push(d.stress_xx / nkt);
        zyy.push(d.stress_yy / nkt);
        zxy.push(d.stress_xy / nkt);
        assert!((0.5 * (d.stress_xx + d.stress_yy) - d.pressure).abs() < 1e-12 * d.pressure);
    }
    let z = (1.0 + eta * eta / 8.0) / ((1.0 - eta) * (1.0 - eta));
    let ((xx, exx), (yy, eyy), (xy, exy)) = (
        mean_and_error(&zxx),
        mean_and_error(&zyy),
        mean_and_error(&zxy),
    );
    eprintln!("Z_xx {xx} +- {exx}, Z_yy {yy} +- {eyy}, Z_xy {xy} +- {exy}, Henderson {z}");
    // Four standard errors of the block means (blocks of some 15 collision times,
    // nearly independent), plus Henderson's 1% for the diagonal.
    assert!(
        (xx - z).abs() < 4.0 * exx + 0.01 * z,
        "Z_xx {xx} +- {exx}, {z}"
    );
    assert!(
        (yy - z).abs() < 4.0 * eyy + 0.01 * z,
        "Z_yy {yy} +- {eyy}, {z}"
    );
    assert!(xy.abs() < 4.0 * exy, "Z_xy {xy} +- {exy}");
}

#[test]
fn every_model_s_pressure_is_half_the_trace_with_and_without_friction() {
    for model in ["impulse", "spring", "simultaneous", "event"] {
        for friction in [
            "",
            "contact_friction = { mu = 0.5, tangential_restitution = 0.3 }",
        ] {
            let mut w = gas(model, 200, 0.5, 0.01, friction);
            w.run_steps(300).unwrap();
            let d = w.diagnostics();
            assert!(d.pressure > 0.0, "{model} {friction}");
            let half = 0.5 * (d.stress_xx + d.stress_yy);
            assert!(
                (half - d.pressure).abs() < 1e-9 * d.pressure,
                "{model} {friction}: half trace {half}, pressure {}",
                d.pressure
            );
            assert!(d.stress_xy.abs() < d.pressure, "{model} {friction}: {d:?}");
        }
    }
}

/// The model's pair tensor `sum r_ij (x) J_ij` after one oblique collision of two rough,
/// spinning disks, against the impulse read off ball 0's momentum change and the
/// centres' vector at the impulse.
#[test]
fn a_rough_collision_s_tensor_is_its_impulse_from_momentum() {
    for model in [
        ModelKind::Impulse,
        ModelKind::Simultaneous,
        ModelKind::Event,
    ] {
        let physics = Physics {
            model,
            dt: 0.01,
            contact_friction: ContactFriction {
                rolling_mu: 0.0,
                mu: 0.4,
                tangential_restitution: 0.5,
                tangential_stiffness: None,
            },
            ..Physics::default()
        };
        let mut a = Ball::new(40.0, 50.0, 3.0, 0.5, 5.0, 1.0);
        a.omega = 2.0;
        let b = Ball::new(52.0, 54.0, -1.0, 0.0, 6.0, 2.0);
        let mut w = World::from_balls(Table::new(200.0, 200.0), physics, &[a, b]).unwrap();
        let mut before = [3.0, 0.5];
        while w.collisions() == 0 {
            let bl = w.balls();
            before = [bl.vx[0], bl.vy[0]];
            w.step().unwrap();
        }
        let bl = w.balls();
        // Ball 0's mass is 1: its velocity change is the impulse it received.
        let j = [bl.vx[0] - before[0], bl.vy[0] - before[1]];
        let end = [bl.x[0] - bl.x[1], bl.y[0] - bl.y[1]];
        let u = [bl.vx[0] - bl.vx[1], bl.vy[0] - bl.vy[1]];
        let scalar = w.virial();
        let len = end[0].hypot(end[1]);
        let n = [end[0] / len, end[1] / len];
        let jn = j[0] * n[0] + j[1] * n[1];
        let jt = j[0] * -n[1] + j[1] * n[0];
        assert!(
            jt.abs() > 0.05 * jn.abs(),
            "{model:?}: friction acted ({jn}, {jt})"
        );
        // A model that resolves within the step lets the pair fly apart for the rest
        // of it: the centres' vector at the impulse is r = end - u tau (tau = 0 where
        // the impulse came at the step's end). The model's scalar virial is r . J
        // (the friction part of J is across r): that fixes tau.
        let dot = |a: [f64; 2], b: [f64; 2]| a[0] * b[0] + a[1] * b[1];
        let tau = (dot(end, j) - scalar) / dot(u, j);
        assert!(
            (-1e-9..=0.01 + 1e-9).contains(&tau),
            "{model:?}: the impulse came within the step ({tau})"
        );
        let r = [end[0] - u[0] * tau, end[1] - u[1] * tau];
        let want = [r[0] * j[0], 0.5 * (r[0] * j[1] + r[1] * j[0]), r[1] * j[1]];
        let t = w.virial_tensor();
        eprintln!("{model:?}: tensor {t:?}, from momentum {want:?}, tau {tau}");
        assert!(
            (t[0] + t[2] - scalar).abs() < 1e-12 * scalar.abs(),
            "{model:?}"
        );
        for k in 0..3 {
            // Rounding in the root and the velocity differences: relative 1e-9 of the
            // virial is generous.
            assert!(
                (t[k] - want[k]).abs() < 1e-9 * scalar.abs(),
                "{model:?} component {k}: {} against {}",
                t[k],
                want[k]
            );
        }
    }
}

/// In `spring` with contact friction, the tensor integrates `r_ij (x) f_ij` over the
/// steps: with the semi-implicit scheme a step's force is the momentum change it gives,
/// at the positions the step starts from.
#[test]
fn a_spring_contact_s_tensor_integrates_its_forces() {
    let physics = Physics {
        model: ModelKind::Spring,
        dt: 0.002,
        stiffness: 500.0,
        restitution: 0.8,
        contact_friction: ContactFriction {
            rolling_mu: 0.0,
            mu: 0.4,
            tangential_restitution: 0.5,
            tangential_stiffness: None,
        },
        ..Physics::default()
    };
    let mut a = Ball::new(40.0, 50.0, 3.0, 0.5, 5.0, 1.0);
    a.omega = 2.0;
    let b = Ball::new(52.0, 54.0, -1.0, 0.0, 6.0, 2.0);
    let mut w = World::from_balls(Table::new(200.0, 200.0), physics, &[a, b]).unwrap();
    let mut want = [0.0; 3];
    let mut slip_force = 0.0f64;
    for _ in 0..3000 {
        let bl = w.balls();
        let r = [bl.x[0] - bl.x[1], bl.y[0] - bl.y[1]];
        let v = [bl.vx[0], bl.vy[0]];
        w.step().unwrap();
        let bl = w.balls();
        let p = [bl.vx[0] - v[0], bl.vy[0] - v[1]];
        want[0] += r[0] * p[0];
        want[1] += 0.5 * (r[0] * p[1] + r[1] * p[0]);
        want[2] += r[1] * p[1];
        let len = r[0].hypot(r[1]);
        slip_force = slip_force.max((p[0] * -r[1] + p[1] * r[0]).abs() / len);
    }
    assert!(
        w.collisions() == 1 && slip_force > 0.0,
        "one frictional contact"
    );
    let t = w.virial_tensor();
    let scale = want[0].abs() + want[2].abs();
    eprintln!("spring: tensor {t:?}, from momentum {want:?}");
    for k in 0..3 {
        // Sums of the same products in another order: rounding only.
        assert!(
            (t[k] - want[k]).abs() < 1e-9 * scale,
            "component {k}: {t:?} {want:?}"
        );
    }
    assert!((t[0] + t[2] - w.virial()).abs() < 1e-9 * scale);
}
