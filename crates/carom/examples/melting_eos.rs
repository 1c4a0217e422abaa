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
//! [--block 1.0] [--time T] [--wall SECONDS] [--seed S]`; `bench/melting_eos.py`
//! runs the six area fractions of the study and makes the table and the plot.

use std::io::Write;
use std::time::Instant;

use carom::parse::{load, Format};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage =
        "usage: melting_eos PHI OUT.csv [--side N] [--block T] [--time T] [--wall S] [--seed S]";
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
    let mut w = match load(&text, Format::Toml) {
        Ok((_, w)) => w,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2)
        }
    };
    let mut file = std::fs::File::create(out).unwrap_or_else(|e| {
        eprintln!("{out}: {e}");
        std::process::exit(2)
    });
    let area = w.table().area();
    writeln!(
        file,
        "# n = {n}, area fraction {phi}, box {} x {}, seed {seed}",
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
    while w.time < time && started.elapsed().as_secs_f64() < wall {
        let start = w.window();
        let c0 = w.collisions();
        if let Err(e) = w.run_steps(1) {
            eprintln!("{e}");
            std::process::exit(1)
        }
        let d = w.with_order(w.diagnostics_over(&start));
        let kt = d.temperature;
        writeln!(
            file,
            "{},{},{},{},{},{},{:.1}",
            w.time,
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
