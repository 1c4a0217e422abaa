//! Granular cooling against Haff's law: runs the `cooling` preset (2,000 disks,
//! e = 0.9, periodic) after an elastic start that makes the velocities Maxwellian, and
//! plots its kinetic energy over time next to Haff's `E0 / (1 + t/t0)^2`, with
//! `1/t0 = (1 - e^2) omega0 / 4` and omega0 Enskog's collision rate (Henderson's contact
//! value); see `crates/carom/tests/dense/statistical.rs` for the derivation.
//!
//! `cargo run --release -p carom-render --example haff -- docs/haff.png`

use carom::Diagnostics;
use carom_render::plot::{plot_total_energies, Series};
use carom_render::ImageFormat;
use std::f64::consts::PI;

fn main() {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "haff.png".to_string());
    let preset = carom::presets::find("cooling").expect("the cooling preset");
    let s = preset.scenario().expect("it parses");
    let mut w = carom::parse::build_world(&s).expect("it builds");
    let e = w.physics().restitution;
    let elastic = carom::Physics {
        restitution: 1.0,
        ..*w.physics()
    };
    w.set_physics(elastic).unwrap();
    w.run_steps(40).unwrap();
    let inelastic = carom::Physics {
        restitution: e,
        ..*w.physics()
    };
    w.set_physics(inelastic).unwrap();
    let n = w.balls().len() as f64;
    let eta = w.diagnostics().packing_fraction;
    let g = (1.0 - 7.0 * eta / 16.0) / ((1.0 - eta) * (1.0 - eta));
    let density = n / w.table().area();
    let d0 = w.diagnostics();
    let omega0 = 2.0 * 2.0 * density * g * (PI * d0.temperature).sqrt();
    let t0 = 4.0 / ((1.0 - e * e) * omega0);
    let start = w.time;
    let (mut measured, mut haff) = (Series::new("carom, event model"), Series::new("Haff's law"));
    let steps = (s.duration / w.physics().dt).round() as u64;
    for k in 0..=steps {
        if k > 0 {
            w.step().expect("step");
        }
        let t = w.time - start;
        let d = w.diagnostics();
        measured.push(t, &d);
        let theory = Diagnostics {
            total_energy: d0.kinetic_energy / (1.0 + t / t0).powi(2),
            ..Diagnostics::default()
        };
        haff.push(t, &theory);
    }
    let mut m = measured.clone();
    // The chart shows totals; the gas's total is its kinetic energy (no potential).
    m.total.clone_from(&measured.kinetic);
    let png = plot_total_energies(
        &[m, haff],
        &format!("cooling (e = {e}): kinetic energy against Haff's law, t0 = {t0:.1}"),
        ImageFormat::Png,
        (900, 560),
    )
    .expect("plot");
    std::fs::write(&out, png).expect("write the plot");
    eprintln!("wrote {out}");
}
