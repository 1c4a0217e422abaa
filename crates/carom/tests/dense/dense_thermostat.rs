//! Thermostats (`physics.thermostat`): Andersen's heat bath gives the Maxwell
//! distribution at its temperature and strikes at its rate; rescaling holds the
//! temperature exactly at the end of every step; both are the same on 1 and 2 threads
//! and continue bit for bit from a state file. (Without the key the dynamics are
//! today's: `friction_off.rs` pins every preset under every model to hashes recorded
//! before thermostats existed.)

use carom::parse::{build_world, load, parse_scenario, Format};
use carom::Thermostat;
use carom::World;

/// `n` balls on a square lattice far apart (no contact in a step), masses alternating
/// 1 and 3, all at rest: whatever moves them is the thermostat.
fn sparse(n: usize, thermostat: &str) -> World {
    let side = (n as f64).sqrt().ceil() as usize;
    let mut balls = String::new();
    for k in 0..n {
        let (x, y) = (
            10.0 + 20.0 * (k % side) as f64,
            10.0 + 20.0 * (k / side) as f64,
        );
        let m = if k % 2 == 0 { 1.0 } else { 3.0 };
        balls += &format!("[[balls]]\nx = {x}\ny = {y}\nm = {m}\n");
    }
    let w = 20.0 * side as f64;
    let text = format!(
        "[table]\nwidth = {w}\nheight = {w}\n[physics]\nmodel = \"impulse\"\ndt = 1.0\nthermostat = {thermostat}\n{balls}"
    );
    load(&text, Format::Toml).unwrap().1
}

/// After one step of length 1 at rate 50 every ball has been struck (all but
/// e^-50 of the time), so the 2 x 10^4 components `u = v sqrt(m / kT)` are 2 x 10^4
/// independent standard normals: their mean square is 1 with standard error
/// sqrt(2 / 20000) = 0.010 and their kurtosis <u^4> / <u^2>^2 is 3 with standard error
/// about sqrt(24 / 20000) = 0.035. Bounds at 5 standard errors (a correct heat bath
/// fails about once in a million runs).
#[test]
fn andersen_gives_the_maxwell_distribution_at_its_temperature() {
    let kt = 2.5;
    let mut w = sparse(
        10_000,
        &format!("{{ kind = \"andersen\", temperature = {kt}, rate = 50.0, seed = 8 }}"),
    );
    w.step().unwrap();
    let b = w.balls();
    let mut us = Vec::new();
    for i in 0..b.len() {
        let s = (b.m[i] / kt).sqrt();
        us.push(b.vx[i] * s);
        us.push(b.vy[i] * s);
    }
    let n = us.len() as f64;
    let m2 = us.iter().map(|u| u * u).sum::<f64>() / n;
    let m4 = us.iter().map(|u| u.powi(4)).sum::<f64>() / n;
    let mean = us.iter().sum::<f64>() / n;
    assert!((m2 - 1.0).abs() < 5.0 * 0.010, "<u^2> = {m2}");
    assert!(
        (m4 / (m2 * m2) - 3.0).abs() < 5.0 * 0.035,
        "kurtosis {}",
        m4 / (m2 * m2)
    );
    // The mean is 0 with standard error 1 / sqrt(20000) = 0.0071.
    assert!(mean.abs() < 5.0 * 0.0071, "<u> = {mean}");
    // The temperature the diagnostics report (centre-of-mass frame, per ball) is kT
    // with relative standard error 1 / sqrt(10^4) (a ball's 2D kinetic energy is
    // exponential with mean kT).
    let t = w.diagnostics().temperature;
    assert!((t / kt - 1.0).abs() < 5.0 * 0.01, "temperature {t}");
}

/// At rate 0.1 and dt = 1 a ball is struck in a step with probability
/// p = 1 - e^-0.1 = 0.0952: of 10^4 balls at rest the number set moving is binomial,
/// mean 951.6, standard deviation 29.4; bound at 5 of them.
#[test]
fn andersen_strikes_at_its_rate() {
    let mut w = sparse(
        10_000,
        "{ kind = \"andersen\", temperature = 1.0, rate = 0.1, seed = 3 }",
    );
    w.step().unwrap();
    let b = w.balls();
    let moving = (0..b.len()).filter(|&i| b.vx[i] != 0.0).count() as f64;
    let p = -(-0.1f64).exp_m1();
    let (mean, sd) = (1e4 * p, (1e4 * p * (1.0 - p)).sqrt());
    assert!(
        (moving - mean).abs() < 5.0 * sd,
        "{moving} struck, expected {mean}"
    );
}

/// A gas of `n` balls at area fraction 0.3 under `model`, with `thermostat`.
fn gas(model: &str, thermostat: &str) -> String {
    format!(
        r#"name = "thermostatted gas"
[table]
boundary = "periodic"
[physics]
model = "{model}"
dt = 0.01
stiffness = 123.37005501361698
thermostat = {thermostat}
[[generators]]
kind = "gas"
n = 400
area_fraction = 0.3
seed = 2
"#
    )
}

/// Rescaling sets `sum m |v - V|^2 / (2 N)` to kT; computed again by the diagnostics
/// from the scaled velocities it is kT to round-off: a few ulps per term of a sum of
/// 400, so 1e-12 relative.
#[test]
fn rescale_holds_the_temperature_exactly_at_its_instants() {
    for model in ["spring", "impulse", "simultaneous", "event"] {
        let mut w = load(
            &gas(model, "{ kind = \"rescale\", temperature = 0.7 }"),
            Format::Toml,
        )
        .unwrap()
        .1;
        for _ in 0..20 {
            w.step().unwrap();
            let t = w.diagnostics().temperature;
            assert!((t / 0.7 - 1.0).abs() < 1e-12, "{model}: temperature {t}");
        }
        assert!(w.collisions() > 0, "{model}: the gas collided");
    }
}

fn same_bits(a: &World, b: &World, what: &str) {
    let (p, q) = (a.balls(), b.balls());
    for (name, u, v) in [
        ("x", &p.x, &q.x),
        ("y", &p.y, &q.y),
        ("vx", &p.vx, &q.vx),
        ("vy", &p.vy, &q.vy),
    ] {
        for i in 0..u.len() {
            assert_eq!(u[i].to_bits(), v[i].to_bits(), "{what}: ball {i} {name}");
        }
    }
}

const ANDERSEN: &str = "{ kind = \"andersen\", temperature = 1.5, rate = 2.0, seed = 11 }";

#[test]
fn one_and_two_threads_give_the_same_run() {
    for model in ["spring", "impulse", "event"] {
        let s = parse_scenario(&gas(model, ANDERSEN), Format::Toml).unwrap();
        let mut one = build_world(&s).unwrap();
        let mut two = build_world(&s).unwrap();
        two.set_threads(2).unwrap();
        one.run_steps(60).unwrap();
        two.run_steps(60).unwrap();
        same_bits(&one, &two, model);
        assert_eq!(one.collisions(), two.collisions(), "{model}: collisions");
    }
}

/// 30 steps, a state file, 30 more from it: the run of 60 steps read after its 30th,
/// bit for bit. The state file holds the thermostat and the step count the stepping
/// models' draws are keyed on, or the event model's strike clock. (The event model
/// predicts afresh from balls that were read, as a resumed run does, so the run it is
/// held to is read where the state was written: `run_steps` reads at its end.)
#[test]
fn a_resumed_thermostatted_run_continues_bit_for_bit() {
    for thermostat in [ANDERSEN, "{ kind = \"rescale\", temperature = 0.4 }"] {
        for model in ["spring", "impulse", "event"] {
            let s = parse_scenario(&gas(model, thermostat), Format::Toml).unwrap();
            let mut whole = build_world(&s).unwrap();
            whole.run_steps(30).unwrap();
            whole.run_steps(30).unwrap();
            let mut first = build_world(&s).unwrap();
            first.run_steps(30).unwrap();
            let text = serde_json::to_string_pretty(&carom::state::snapshot(&first, 1.0)).unwrap();
            let mut resumed = build_world(&parse_scenario(&text, Format::Json).unwrap()).unwrap();
            assert_eq!(resumed.thermostat(), first.thermostat());
            resumed.run_steps(30).unwrap();
            same_bits(&whole, &resumed, &format!("{model} {thermostat}"));
            // A resumed world counts its own collisions (a session adds the state's).
            assert_eq!(
                whole.collisions(),
                first.collisions() + resumed.collisions()
            );
        }
    }
}

#[test]
fn bad_thermostats_name_the_key() {
    for (th, key) in [
        (
            "{ kind = \"rescale\", temperature = 0.0 }",
            "physics.thermostat.temperature",
        ),
        (
            "{ kind = \"rescale\", temperature = -1.0 }",
            "physics.thermostat.temperature",
        ),
        (
            "{ kind = \"rescale\", temperature = nan }",
            "physics.thermostat.temperature",
        ),
        (
            "{ kind = \"andersen\", temperature = inf, rate = 1.0 }",
            "physics.thermostat.temperature",
        ),
        (
            "{ kind = \"andersen\", temperature = 1.0, rate = 0.0 }",
            "physics.thermostat.rate",
        ),
        (
            "{ kind = \"andersen\", temperature = 1.0, rate = -2.0 }",
            "physics.thermostat.rate",
        ),
        (
            "{ kind = \"andersen\", temperature = 1.0, rate = inf }",
            "physics.thermostat.rate",
        ),
        (
            "{ kind = \"andersen\", temperature = 1.0 }",
            "physics.thermostat",
        ),
        (
            "{ kind = \"berendsen\", temperature = 1.0 }",
            "physics.thermostat",
        ),
    ] {
        let e = load(&gas("spring", th), Format::Toml)
            .unwrap_err()
            .to_string();
        assert!(e.contains(key), "{th}: {e}");
    }
    // The parsed value round-trips.
    let s = parse_scenario(&gas("spring", ANDERSEN), Format::Toml).unwrap();
    assert_eq!(
        s.physics.thermostat,
        Some(Thermostat::Andersen {
            temperature: 1.5,
            rate: 2.0,
            seed: 11
        })
    );
}
