//! Draws a built-in scene to look at: `cargo run -p carom-render --example snapshot --
//! PRESET OUT.{png,gif,svg} [STEPS] [MODEL,MODEL,...]`, one panel per model side by side.
//! The command line's `--render` and `compare --render` are the real tools.

use std::path::Path;

use carom_render::{steps_per_frame, AnimationOptions, Frame, Recording, DEFAULT_SPEED};

fn fail(e: &dyn std::fmt::Display) -> ! {
    eprintln!("{e}");
    std::process::exit(2)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        fail(&"usage: snapshot PRESET OUT.{png,gif,svg} [STEPS] [MODEL,MODEL,...]");
    }
    let preset = carom::presets::find(&args[1]).unwrap_or_else(|| fail(&"unknown preset"));
    let mut scenario = preset.scenario().unwrap_or_else(|e| fail(&e));
    let steps: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(4000);
    let models: Vec<String> = args
        .get(4)
        .map(|m| m.split(',').map(str::to_string).collect())
        .unwrap_or_default();
    let mut worlds = Vec::new();
    if models.is_empty() {
        worlds.push(carom::parse::build_world(&scenario).unwrap_or_else(|e| fail(&e)));
    }
    for m in &models {
        scenario.physics.model =
            Some(carom::ModelKind::from_name(m).unwrap_or_else(|| fail(&"unknown model")));
        worlds.push(carom::parse::build_world(&scenario).unwrap_or_else(|e| fail(&e)));
    }
    let options = AnimationOptions {
        trails: Some(carom_render::DEFAULT_TRAIL_LEN),
        ..AnimationOptions::default()
    };
    let every = steps_per_frame(worlds[0].physics().dt, options.fps, DEFAULT_SPEED);
    let mut frames: Vec<Frame> = worlds.iter().map(Frame::from_world).collect();
    let labels: Vec<String> = worlds
        .iter()
        .map(|w| format!("{} · {}", w.name, w.physics().model.name()))
        .collect();
    let mut rec = Recording::create(Path::new(&args[2]), &frames, &labels, &options)
        .unwrap_or_else(|e| fail(&e));
    rec.push(&frames).unwrap_or_else(|e| fail(&e));
    let mut done = 0;
    while done < steps {
        let n = every.min(steps - done);
        for w in &mut worlds {
            if let Err(e) = w.run_steps(n) {
                fail(&e);
            }
        }
        done += n;
        for (f, w) in frames.iter_mut().zip(&worlds) {
            f.update_from_world(w);
        }
        rec.push(&frames).unwrap_or_else(|e| fail(&e));
    }
    let summary = rec.finish_file().unwrap_or_else(|e| fail(&e));
    println!("{summary:?}");
}
