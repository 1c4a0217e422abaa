//! Speed of the event-chain sampler: liftings (events) per second on one thread, and
//! memory per disk, for `side^2` monodisperse disks (diameter 1) at an area fraction,
//! started from the triangular lattice fitted to the box (`side` by `side` disks in a
//! `side a` by `side a sqrt(3) / 2` box, `a` the spacing that gives the fraction).
//!
//! `cargo run --release -p carom --example chain_speed -- [--sides 64,256,1024]
//! [--eta 0.70] [--seconds 5] [--warm 1] [--seed 1]`
//!
//! Each size first runs `--warm` seconds of chains (melting the lattice's exact ties and
//! warming the caches), then times chains for `--seconds` of wall time; one line per
//! size: `N, eta, chain length, liftings, wall seconds, liftings per wall second, CPU
//! seconds, liftings per CPU second, bytes/disk, Z`. The CPU time is the thread's own
//! (Linux `/proc/thread-self/schedstat`; the wall time where that is missing): on a
//! shared machine it is the honest measure of the code's speed.

use std::time::Instant;

use carom::models::chain::{default_length, Chain};

fn main() {
    let mut sides = vec![64usize, 256, 1024];
    let mut eta = 0.70;
    let mut seconds = 5.0;
    let mut warm = 1.0;
    let mut seed = 1u64;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut k = 0;
    while k < args.len() {
        let value = args.get(k + 1).cloned().unwrap_or_default();
        match args[k].as_str() {
            "--sides" => sides = value.split(',').map(|s| s.parse().expect("side")).collect(),
            "--eta" => eta = value.parse().expect("eta"),
            "--seconds" => seconds = value.parse().expect("seconds"),
            "--warm" => warm = value.parse().expect("warm"),
            "--seed" => seed = value.parse().expect("seed"),
            other => {
                eprintln!("chain_speed: unknown argument {other}");
                std::process::exit(2);
            }
        }
        k += 2;
    }
    println!("n,eta,length,liftings,wall_s,liftings_per_wall_s,cpu_s,liftings_per_cpu_s,bytes_per_disk,z");
    for side in sides {
        let side = side + side % 2;
        let r = 0.5;
        let a = (2.0 * std::f64::consts::PI * r * r / (3f64.sqrt() * eta)).sqrt();
        let (width, height) = (side as f64 * a, side as f64 * a * 3f64.sqrt() / 2.0);
        let n = side * side;
        let (mut x, mut y) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for i in 0..side {
            for j in 0..side {
                let shift = if i % 2 == 1 { 0.5 } else { 0.0 };
                x.push((j as f64 + 0.25 + shift) * a);
                y.push((i as f64 + 0.5) * a * 3f64.sqrt() / 2.0);
            }
        }
        let radii = vec![r; n];
        let length = default_length(width, height, &radii);
        let mut c = Chain::new(width, height, &x, &y, &radii, length, seed).expect("lattice");
        let run_for = |c: &mut Chain, secs: f64| {
            let t0 = Instant::now();
            let cpu0 = cpu_seconds();
            let l0 = c.tally().liftings;
            let mut batch = 1u64;
            loop {
                c.run(batch).expect("chains");
                let el = t0.elapsed().as_secs_f64();
                if el >= secs {
                    let cpu = cpu_seconds().zip(cpu0).map_or(el, |(b, a)| b - a);
                    return (c.tally().liftings - l0, el, cpu);
                }
                if el < secs / 20.0 {
                    batch *= 2;
                }
            }
        };
        run_for(&mut c, warm);
        let before = c.tally();
        let (liftings, secs, cpu) = run_for(&mut c, seconds);
        let z = c.tally().since(&before).z();
        println!(
            "{n},{eta},{length:.3},{liftings},{secs:.3},{:.4e},{cpu:.3},{:.4e},{:.1},{z:.4}",
            liftings as f64 / secs,
            liftings as f64 / cpu,
            c.bytes() as f64 / n as f64
        );
    }
}

/// This thread's CPU time in seconds (the first field of its schedstat, in ns).
fn cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns * 1e-9)
}
