//! The child side: builds one configuration and answers the parent's commands, one line
//! each, on stdin/stdout:
//! - `run S`: runs S steps reading nothing but counters; answers `done SECONDS EVENTS CPU_SECONDS`.
//! - `mark`: remembers the total energy now; answers `marked`.
//! - `end`: answers `end DRIFT PEAK_BYTES` (drift since `mark`, peak resident memory).
//! - `hash S`: runs S steps; answers `hash HEX`, a hash of every bit of the state.
//! - `drift S K`: runs S steps sampling energy every K; answers
//!   `drift S COLLISIONS END_DRIFT LARGEST_DRIFT PEAK_BYTES_PER_BALL`.
//!
//! Failures answer `error MESSAGE` and end the child.

use std::io::{BufRead, Write};
use std::time::Instant;

use carom::parse::build_world;
use carom::scenario::Generator;
use carom::World;

use crate::sim::Sim;
use crate::Engine;

/// The benchmark scene: the `gas` preset with `n` balls under `model`.
pub fn gas(n: u64, model: carom::ModelKind) -> Result<World, String> {
    gas_with(n, model, false, None)
}

/// The benchmark scene, in a periodic box when `periodic` (same balls, same box side).
pub fn gas_in(n: u64, model: carom::ModelKind, periodic: bool) -> Result<World, String> {
    gas_with(n, model, periodic, None)
}

/// The gas, optionally periodic and at another area fraction (`None`: the preset's 0.3).
pub fn gas_with(
    n: u64,
    model: carom::ModelKind,
    periodic: bool,
    fraction: Option<f64>,
) -> Result<World, String> {
    let preset = carom::presets::find("gas").ok_or("the gas preset is missing")?;
    let mut s = preset.scenario().map_err(|e| e.to_string())?;
    match s.generators.first_mut() {
        Some(Generator::Gas {
            n: count,
            area_fraction,
            ..
        }) => {
            *count = Some(n);
            if fraction.is_some() {
                *area_fraction = fraction;
            }
        }
        _ => return Err("the gas preset no longer starts with a gas generator".into()),
    }
    s.physics.model = Some(model);
    if periodic {
        s.table.boundary = Some(carom::scenario::BoundarySpec::from(
            [carom::Boundary::Periodic; 2],
        ));
    }
    build_world(&s).map_err(|e| e.to_string())
}

/// The benchmark's walled scene: the `hopper` preset's silo grown to about `n` grains.
/// Two interleaved lattices (radii 0.55 and 0.45, as in the preset) fill a square of
/// side `2.05 sqrt(n / 2)` standing on a floor of two segments with an orifice 10 wide
/// in its middle; the table's bottom edge, 60 below the floor, is open.
pub fn hopper(n: u64) -> Result<World, String> {
    let preset = carom::presets::find("hopper").ok_or("the hopper preset is missing")?;
    let base = preset.scenario().map_err(|e| e.to_string())?;
    let side = ((n as f64 / 2.0).sqrt()).ceil().max(8.0) as u64;
    let width = 2.05 * side as f64 + 1.0;
    let floor = 2.05 * side as f64 + 2.0;
    let (mid, half) = (width / 2.0, 5.0);
    let text = format!(
        r#"
        [table]
        width = {width}
        height = {}
        boundary = ["walls", "open"]
        [[generators]]
        kind = "lattice"
        nx = {side}
        ny = {side}
        x0 = 0.6
        y0 = 0.6
        dx = 2.05
        dy = 2.05
        r = 0.55
        m = 0.3025
        [[generators]]
        kind = "lattice"
        nx = {}
        ny = {}
        x0 = 1.625
        y0 = 1.625
        dx = 2.05
        dy = 2.05
        r = 0.45
        m = 0.2025
        [[walls]]
        kind = "segment"
        points = [[0.0, {floor}], [{}, {floor}]]
        [[walls]]
        kind = "segment"
        points = [[{}, {floor}], [{width}, {floor}]]
        "#,
        floor + 60.0,
        side - 1,
        side - 1,
        mid - half,
        mid + half
    );
    let mut s = carom::parse::parse_scenario(&text, carom::parse::Format::Toml)
        .map_err(|e| e.to_string())?;
    s.physics = base.physics;
    build_world(&s).map_err(|e| e.to_string())
}

/// The benchmark's walled event scene: the gas (area fraction 0.3, event model) among
/// fixed circular pegs of radius 1 on a square lattice of pitch 12 (a Lorentz gas,
/// the periodic Sinai billiard's many-ball cousin), each peg kept where no ball
/// overlaps it at the start (about a third of the sites at this density).
pub fn lorentz(n: u64) -> Result<World, String> {
    let mut w = gas(n, carom::ModelKind::Event)?;
    let (width, height) = (w.table().width, w.table().height);
    let (peg, pitch) = (1.0, 12.0);
    let mut grid = std::collections::HashMap::<(i64, i64), Vec<usize>>::new();
    let b = w.balls();
    for i in 0..b.len() {
        let key = (
            (b.x[i] / pitch).floor() as i64,
            (b.y[i] / pitch).floor() as i64,
        );
        grid.entry(key).or_default().push(i);
    }
    let mut walls = Vec::new();
    let mut y = pitch / 2.0;
    while y < height {
        let mut x = pitch / 2.0;
        while x < width {
            let (cx, cy) = ((x / pitch).floor() as i64, (y / pitch).floor() as i64);
            let clear = (cx - 1..=cx + 1)
                .flat_map(|gx| (cy - 1..=cy + 1).map(move |gy| (gx, gy)))
                .filter_map(|k| grid.get(&k))
                .flatten()
                .all(|&i| (b.x[i] - x).hypot(b.y[i] - y) > b.r[i] + peg + 1e-6);
            if clear {
                walls.push(carom::scenario::WallSpec {
                    kind: carom::scenario::WallKind::Circle,
                    points: None,
                    closed: None,
                    center: Some([x, y]),
                    radius: Some(peg),
                    from: None,
                    to: None,
                    restitution: None,
                    mu: None,
                    surface_velocity: None,
                    cushion_height: None,
                    ..Default::default()
                });
            }
            x += pitch;
        }
        y += pitch;
    }
    w.set_walls(&walls, &[]).map_err(|e| e.to_string())?;
    Ok(w)
}

fn build(engine: Engine, n: u64) -> Result<Box<dyn Sim>, String> {
    match engine {
        Engine::Carom {
            model,
            threads,
            periodic,
        } => {
            let mut w = gas_in(n, model, periodic)?;
            w.set_threads(threads).map_err(|e| e.to_string())?;
            Ok(Box::new(w))
        }
        Engine::RoughSpring { threads } => {
            let mut w = gas(n, carom::ModelKind::Spring)?;
            let mut p = *w.physics();
            p.contact_friction.mu = 0.5;
            w.set_physics(p).map_err(|e| e.to_string())?;
            w.set_threads(threads).map_err(|e| e.to_string())?;
            Ok(Box::new(w))
        }
        Engine::Hopper { threads } => {
            let mut w = hopper(n)?;
            w.set_threads(threads).map_err(|e| e.to_string())?;
            Ok(Box::new(w))
        }
        Engine::Lorentz => Ok(Box::new(lorentz(n)?)),
        Engine::EventAndersen => Ok(Box::new(andersen(n)?)),
        Engine::EventCompress => Ok(Box::new(compressing(n)?)),
        Engine::EventAt { percent } => {
            let mut w = gas_with(
                n,
                carom::ModelKind::Event,
                false,
                Some(f64::from(percent) / 100.0),
            )?;
            let threads = 1;
            w.set_threads(threads).map_err(|e| e.to_string())?;
            Ok(Box::new(w))
        }
        Engine::Rapier => {
            let w = gas(n, carom::ModelKind::Spring)?;
            crate::peer::build(&w)
        }
    }
}

/// The benchmark gas under the event model with Andersen's heat bath at the gas's own
/// temperature, each ball struck at a tenth of its collision frequency (Enskog's
/// `2 sigma n g(sigma) sqrt(pi kT / m)`, with Henderson's contact value at the gas's
/// area fraction): one strike for every five collisions (a collision changes two
/// balls).
pub fn andersen(n: u64) -> Result<World, String> {
    let mut w = gas(n, carom::ModelKind::Event)?;
    let (kt, eta) = {
        let d = w.diagnostics();
        (d.temperature, d.packing_fraction)
    };
    let b = w.balls();
    let (sigma, m) = (2.0 * b.r[0], b.m[0]);
    let density = b.len() as f64 / w.table().area();
    let g = (1.0 - 7.0 * eta / 16.0) / ((1.0 - eta) * (1.0 - eta));
    let omega = 2.0 * sigma * density * g * (std::f64::consts::PI * kt / m).sqrt();
    w.set_thermostat(Some(carom::Thermostat::Andersen {
        temperature: kt,
        rate: 0.1 * omega,
        seed: 1,
    }));
    Ok(w)
}

/// The benchmark gas under the event model while it compresses (`physics.compress`,
/// Lubachevsky-Stillinger growth with the temperature held), with the output interval
/// of `bench/dense_bench.py`, `dt = 1`: the temperature is put back at every interval's
/// end, which changes every velocity, so the growing model predicts every ball afresh
/// there, and the interval sets that share of the cost. The rate, 10^-5, keeps the
/// area fraction within 0.3 to 0.31 over the few thousand time units a benchmark runs.
pub fn compressing(n: u64) -> Result<World, String> {
    let mut w = gas(n, carom::ModelKind::Event)?;
    let physics = carom::Physics {
        dt: 1.0,
        ..*w.physics()
    };
    w.set_physics(physics).map_err(|e| e.to_string())?;
    w.set_compress(Some(carom::Compress {
        rate: 1e-5,
        until: Default::default(),
        origin: None,
        temperature: None,
    }))
    .map_err(|e| e.to_string())?;
    Ok(w)
}

/// Peak resident set size of this process, in bytes (VmHWM, Linux).
pub fn peak_rss() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024.0)
}

/// CPU time used so far by all threads of this process, in seconds: the run time in
/// each thread's schedstat (nanoseconds). Unlike wall time it does not grow when other
/// processes take the cores.
pub fn cpu_seconds() -> f64 {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return f64::NAN;
    };
    let mut ns = 0u64;
    for t in tasks.flatten() {
        if let Ok(s) = std::fs::read_to_string(t.path().join("schedstat")) {
            ns += s
                .split_whitespace()
                .next()
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
        }
    }
    ns as f64 * 1e-9
}

fn relative(e: f64, e0: f64) -> f64 {
    (e - e0) / e0.abs().max(f64::MIN_POSITIVE)
}

pub fn main(args: &[String]) -> i32 {
    if std::env::var_os(crate::PORTABLE_ENV).is_some() {
        carom::models::event::set_portable_only(true);
    }
    let out = std::io::stdout();
    let mut out = out.lock();
    let mut say = |line: String| {
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    };
    let parsed = match args {
        [engine, n] => Engine::parse(engine).zip(n.parse::<u64>().ok()),
        _ => None,
    };
    let Some((engine, n)) = parsed else {
        say(format!("error bad child arguments {args:?}"));
        return 2;
    };
    let mut sim = match build(engine, n) {
        Ok(s) => s,
        Err(e) => {
            say(format!("error {e}"));
            return 1;
        }
    };
    say("ready".into());
    let mut e0 = sim.total_energy();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let num = |k: usize| words.get(k).and_then(|s| s.parse::<u64>().ok());
        match (words.first().copied(), num(1), num(2)) {
            (Some("run"), Some(steps), _) => {
                let (events, collisions) = (sim.events(), sim.collisions());
                let cpu = cpu_seconds();
                let t = Instant::now();
                if let Err(e) = sim.run(steps) {
                    say(format!("error {e}"));
                    return 1;
                }
                let secs = t.elapsed().as_secs_f64();
                let cpu = cpu_seconds() - cpu;
                say(format!(
                    "done {secs} {} {cpu} {}",
                    sim.events() - events,
                    sim.collisions() - collisions
                ));
            }
            (Some("hash"), Some(steps), _) => {
                if let Err(e) = sim.run(steps) {
                    say(format!("error {e}"));
                    return 1;
                }
                match sim.state_hash() {
                    Some(h) => say(format!("hash {h:016x}")),
                    None => say("error this engine has no state hash".into()),
                }
                return 0;
            }
            (Some("mark"), _, _) => {
                e0 = sim.total_energy();
                say("marked".into());
            }
            (Some("end"), _, _) => {
                let drift = relative(sim.total_energy(), e0);
                say(format!("end {drift} {}", peak_rss().unwrap_or(f64::NAN)));
                return 0;
            }
            (Some("drift"), Some(steps), Some(every)) => {
                let e0 = sim.total_energy();
                let events = sim.events();
                let (mut done, mut worst) = (0, 0.0f64);
                while done < steps {
                    let k = every.max(1).min(steps - done);
                    if let Err(e) = sim.run(k) {
                        say(format!("error {e}"));
                        return 1;
                    }
                    done += k;
                    worst = worst.max(relative(sim.total_energy(), e0).abs());
                }
                let end = relative(sim.total_energy(), e0);
                say(format!(
                    "drift {steps} {} {end:+.2e} {worst:.2e} {:.0}",
                    sim.events() - events,
                    peak_rss().unwrap_or(f64::NAN) / n as f64
                ));
                return 0;
            }
            _ => {
                say(format!("error unknown command {line:?}"));
                return 2;
            }
        }
    }
    0
}
