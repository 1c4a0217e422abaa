//! Plots a built-in scene's energies to look at: `cargo run -p carom-render --example
//! plot -- PRESET OUT.{png,svg} [STEPS]`. The command line's `--plot` is the real tool.

use std::path::Path;

use carom_render::{plot_energy, write_atomic, ImageFormat, Series, PLOT_SIZE};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: plot PRESET OUT.{{png,svg}} [STEPS]");
        std::process::exit(2);
    }
    let fail = |e: &dyn std::fmt::Display| -> ! {
        eprintln!("{e}");
        std::process::exit(2)
    };
    let preset = carom::presets::find(&args[1]).unwrap_or_else(|| fail(&"unknown preset"));
    let scenario = preset.scenario().unwrap_or_else(|e| fail(&e));
    let mut world = carom::parse::build_world(&scenario).unwrap_or_else(|e| fail(&e));
    let steps: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(4000);
    let format = ImageFormat::from_path(Path::new(&args[2])).unwrap_or_else(|e| fail(&e));
    let mut series = Series::new(world.physics().model.name());
    series.push(world.time, &world.diagnostics());
    for _ in 0..steps / 10 {
        if let Err(e) = world.run_steps(10) {
            eprintln!("{e}");
            break;
        }
        series.push(world.time, &world.diagnostics());
    }
    let p = world.physics();
    let title = format!(
        "{}: {}, {}",
        world.name,
        p.model.name(),
        p.integrator.name()
    );
    let bytes = plot_energy(&series, &title, format, PLOT_SIZE).unwrap_or_else(|e| fail(&e));
    write_atomic(Path::new(&args[2]), &bytes).unwrap_or_else(|e| fail(&e));
}
