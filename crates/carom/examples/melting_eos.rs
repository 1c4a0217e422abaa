//! One run of the hard-disk melting equation of state (docs/dense.md): `side^2`
//! monodisperse disks of diameter `sigma = 1` in a periodic square box at area
//! fraction `phi`, started from the `gas` generator's jittered square grid, run by the
//! event model without a thermostat (elastic, so the temperature is constant), the
//! pressure measured block by block. Each block is one line of CSV, written as soon as
//! it ends: `time, beta_p_sigma2, z, temperature, collisions, psi6, wall_s`, where
//! `beta_p_sigma2 = P sigma^2 / kT` with `P` the block's virial pressure (the
//! diagnostics' `(sum m v^2 + sum r_ij . J_ij / T) / (2 A)`) and `kT` its temperature.
//!
//! `cargo run --release -p carom --example melting_eos -- PHI OUT.csv [--side 256]
//! [--block 1.0] [--time T] [--wall SECONDS] [--seed S] [--start grid|crystal|melt]
//! [--psi6-every K]`; `bench/melting_eos.py` runs the area fractions of the study and
//! makes the table and the plot.
//!
//! Starts: `grid` (the default) is the `gas` generator's jittered square grid in a
//! square box. `crystal` and `melt` use the box that holds a perfect triangular
//! lattice of `side` by `side` disks (`side` even), `side a` by `side a sqrt(3) / 2`
//! with the spacing `a` that gives the area fraction: `crystal` starts from that
//! lattice (the solid side of the transition), `melt` from the same lattice with every
//! diameter shrunk to area fraction 0.45, run for 20 time units (a liquid, whatever the
//! start), then grown back to `sigma = 1` by the event model's exact compression at
//! rate 0.005 with the temperature held (the liquid side). Equilibrium does not
//! remember the start, so the two agreeing is the evidence of equilibration. The
//! velocities are uniform in `[-1, 1]^2` less their mean (`kT` near 1/3); the pressure
//! is reported over `kT` so the temperature drops out.

use std::io::Write;
use std::time::Instant;

use carom::compression::Until;
use carom::parse::{load, Format};
use carom::Compress;
use carom::{Ball, Physics, Table, World};

/// A SplitMix64 stream: the velocities of the lattice starts, from the seed.
struct Draw(u64);

impl Draw {
    fn unit(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// `side` x `side` disks of diameter `sigma` on the triangular lattice that fills a
/// periodic box at area fraction `phi` of unit-diameter disks, in the event model.
fn lattice(side: u64, phi: f64, sigma: f64, seed: u64, block: f64) -> World {
    // Each disk owns a rhombus of area a^2 sqrt(3) / 2: phi = pi / (2 sqrt(3) a^2).
    let a = (std::f64::consts::PI / (2.0 * 3f64.sqrt() * phi)).sqrt();
    let row = a * 3f64.sqrt() / 2.0;
    let table = Table::periodic(side as f64 * a, side as f64 * row);
    let mut draw = Draw(seed);
    let mut balls = Vec::new();
    for j in 0..side {
        for i in 0..side {
            let x = (i as f64 + 0.5 * (j % 2) as f64 + 0.25) * a;
            let y = (j as f64 + 0.5) * row;
            let (vx, vy) = (2.0 * draw.unit() - 1.0, 2.0 * draw.unit() - 1.0);
            balls.push(Ball::new(x, y, vx, vy, 0.5 * sigma, 1.0));
        }
    }
    let n = balls.len() as f64;
    let (mx, my) = balls
        .iter()
        .fold((0.0, 0.0), |(p, q), b| (p + b.vx / n, q + b.vy / n));
    for b in &mut balls {
        b.vx -= mx;
        b.vy -= my;
    }
    let physics = Physics {
        model: carom::ModelKind::Event,
        dt: block,
        ..Default::default()
    };
    World::from_balls(table, physics, &balls).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    })
}

/// The liquid start: the lattice shrunk to area fraction 0.45, melted, and grown back.
fn melted(side: u64, phi: f64, seed: u64, block: f64) -> World {
    let shrunk = 0.45;
    let mut w = lattice(side, phi, (shrunk / phi).sqrt(), seed, block);
    let steps = (20.0 / block).ceil() as u64;
    w.run_steps(steps).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    let grow = Compress {
        rate: 0.005,
        until: Until {
            area_fraction: Some(phi),
            pressure: None,
        },
        origin: None,
        temperature: None,
    };
    w.set_compress(Some(grow)).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    while w.compression_running() {
        w.run_steps(1).unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(1)
        });
    }
    w.set_compress(None).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    w
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage =
        "usage: melting_eos PHI OUT.csv [--side N] [--block T] [--time T] [--wall S] [--seed S] \
         [--start grid|crystal|melt] [--psi6-every K]";
    if args.len() < 2 {
        eprintln!("{usage}");
        std::process::exit(2);
    }
    let phi: f64 = args[0].parse().unwrap_or_else(|_| {
        eprintln!("PHI must be a number (got {})", args[0]);
        std::process::exit(2)
    });
    let out = &args[1];
    let (mut side, mut block, mut time, mut wall, mut seed) =
        (256u64, 1.0f64, f64::INFINITY, f64::INFINITY, 1u64);
    let (mut start, mut psi6_every) = (String::from("grid"), 1u64);
    let mut k = 2;
    while k < args.len() {
        let value = args.get(k + 1).unwrap_or_else(|| {
            eprintln!("{} needs a value", args[k]);
            std::process::exit(2)
        });
        let bad = || -> ! {
            eprintln!("{}: not a valid value ({value})", args[k]);
            std::process::exit(2)
        };
        match args[k].as_str() {
            "--side" => side = value.parse().unwrap_or_else(|_| bad()),
            "--block" => block = value.parse().unwrap_or_else(|_| bad()),
            "--time" => time = value.parse().unwrap_or_else(|_| bad()),
            "--wall" => wall = value.parse().unwrap_or_else(|_| bad()),
            "--seed" => seed = value.parse().unwrap_or_else(|_| bad()),
            "--start" if ["grid", "crystal", "melt"].contains(&value.as_str()) => {
                start = value.clone()
            }
            "--psi6-every" => psi6_every = value.parse().unwrap_or_else(|_| bad()),
            _ => {
                eprintln!("unknown option {}; {usage}", args[k]);
                std::process::exit(2)
            }
        }
        k += 2;
    }
    let n = side * side;
    let text = format!(
        "name = \"melting\"\n[table]\nboundary = \"periodic\"\n[physics]\nmodel = \"event\"\n\
         dt = {block}\n[[generators]]\nkind = \"gas\"\nn = {n}\narea_fraction = {phi}\n\
         r = 0.5\nm = 1.0\nspeed = 1.0\nseed = {seed}\n"
    );
    if start != "grid" && side % 2 == 1 {
        eprintln!("--side: the lattice starts need an even side (got {side})");
        std::process::exit(2)
    }
    let prepared = Instant::now();
    let mut w = match start.as_str() {
        "crystal" => lattice(side, phi, 1.0, seed, block),
        "melt" => melted(side, phi, seed, block),
        _ => match load(&text, Format::Toml) {
            Ok((_, w)) => w,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2)
            }
        },
    };
    let preparation = prepared.elapsed().as_secs_f64();
    let t0 = w.time;
    let phi_now = w.diagnostics().packing_fraction;
    let mut file = std::fs::File::create(out).unwrap_or_else(|e| {
        eprintln!("{out}: {e}");
        std::process::exit(2)
    });
    let area = w.table().area();
    writeln!(
        file,
        "# n = {n}, area fraction {phi_now}, box {} x {}, seed {seed}, start {start} \
         (prepared in {preparation:.1} s)",
        w.table().width,
        w.table().height
    )
    .unwrap();
    writeln!(
        file,
        "time,beta_p_sigma2,z,temperature,collisions,psi6,wall_s"
    )
    .unwrap();
    let started = Instant::now();
    let mut blocks = 0u64;
    while w.time - t0 < time && started.elapsed().as_secs_f64() < wall {
        let window = w.window();
        let c0 = w.collisions();
        if let Err(e) = w.run_steps(1) {
            eprintln!("{e}");
            std::process::exit(1)
        }
        let d = w.diagnostics_over(&window);
        blocks += 1;
        // psi6 takes a Delaunay triangulation, costly beside a block of a few
        // collisions per disk: every `psi6_every` blocks (NaN between).
        let d = if blocks.is_multiple_of(psi6_every.max(1)) {
            w.with_order(d)
        } else {
            d
        };
        let kt = d.temperature;
        writeln!(
            file,
            "{},{},{},{},{},{},{:.1}",
            w.time - t0,
            d.pressure / kt,
            d.pressure * area / (n as f64 * kt),
            kt,
            w.collisions() - c0,
            d.psi6.unwrap_or(f64::NAN),
            started.elapsed().as_secs_f64()
        )
        .unwrap();
        file.flush().unwrap();
    }
}
