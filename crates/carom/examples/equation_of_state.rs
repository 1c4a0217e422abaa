//! The hard-disk equation of state measured with the event model, against theory: for
//! each area fraction, a periodic elastic gas of 2,000 unit disks is equilibrated, then
//! its compressibility factor `Z = P / (n kT)` and collision rate per disk are averaged
//! over ten blocks (the error is the standard error of the block means). Theory:
//! Henderson's `Z = (1 + eta^2/8) / (1 - eta)^2` and Enskog's rate
//! `2 sigma n g(sigma) sqrt(pi kT / m)` with Henderson's contact value. Prints the
//! Markdown table of docs/statistical-physics.md:
//!
//! `cargo run --release -p carom --example equation_of_state`

use carom::parse::{load, Format};
use std::f64::consts::PI;

fn main() {
    println!(
        "| area fraction | Z measured | Z Henderson | collisions/disk/time measured | Enskog |"
    );
    println!("|---:|---:|---:|---:|---:|");
    for eta in [0.1, 0.2, 0.3, 0.4, 0.5, 0.6] {
        let n = 2000;
        let text = format!(
            "[table]\nboundary = \"periodic\"\n[physics]\nmodel = \"event\"\ndt = 0.05\n\
             [[generators]]\nkind = \"gas\"\nn = {n}\narea_fraction = {eta}\nr = 1.0\nspeed = 1.0\n\
             seed = 3\n"
        );
        let mut w = load(&text, Format::Toml).expect("gas loads").1;
        let g = (1.0 - 7.0 * eta / 16.0) / ((1.0 - eta) * (1.0 - eta));
        let density = n as f64 / w.table().area();
        let enskog = |kt: f64| 2.0 * 2.0 * density * g * (PI * kt).sqrt();
        let omega = enskog(w.diagnostics().temperature);
        let dt = w.physics().dt;
        w.run_steps((30.0 / omega / dt).ceil() as u64).unwrap();
        let (mut z, mut rate) = (Vec::new(), Vec::new());
        for _ in 0..10 {
            let start = w.window();
            let c0 = w.collisions();
            w.run_steps((20.0 / omega / dt).ceil() as u64).unwrap();
            let d = w.diagnostics_over(&start);
            z.push(d.pressure * w.table().area() / (n as f64 * d.temperature));
            rate.push(2.0 * (w.collisions() - c0) as f64 / (n as f64 * (w.time - start.time)));
        }
        let stats = |v: &[f64]| {
            let m = v.iter().sum::<f64>() / v.len() as f64;
            let var = v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (v.len() - 1) as f64;
            (m, (var / v.len() as f64).sqrt())
        };
        let ((zm, ze), (rm, re)) = (stats(&z), stats(&rate));
        let zh = (1.0 + eta * eta / 8.0) / ((1.0 - eta) * (1.0 - eta));
        let kt = w.diagnostics().temperature;
        println!(
            "| {eta:.1} | {zm:.4} ± {ze:.4} | {zh:.4} | {rm:.4} ± {re:.4} | {:.4} |",
            enskog(kt)
        );
    }
}
