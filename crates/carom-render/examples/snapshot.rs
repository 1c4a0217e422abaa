//! Draws a built-in scene to look at: `cargo run -p carom-render --example snapshot --
//! PRESET OUT.{png,gif,svg} [STEPS]`. The command line's `--render` is the real tool.

use std::path::Path;

use carom_render::{steps_per_frame, AnimationOptions, Frame, Recording, DEFAULT_SPEED};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: snapshot PRESET OUT.{{png,gif,svg}} [STEPS]");
        std::process::exit(2);
    }
    let Some(preset) = carom::presets::find(&args[1]) else {
        eprintln!("unknown preset {}", args[1]);
        std::process::exit(2);
    };
    let scenario = preset.scenario().unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let mut world = carom::parse::build_world(&scenario).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let steps: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(4000);
    let options = AnimationOptions {
        trails: Some(carom_render::DEFAULT_TRAIL_LEN),
        ..AnimationOptions::default()
    };
    let every = steps_per_frame(world.physics().dt, options.fps, DEFAULT_SPEED);
    let mut frame = Frame::from_world(&world);
    let labels = [format!("{} · {}", world.name, world.physics().model.name())];
    let mut rec = Recording::create(
        Path::new(&args[2]),
        std::slice::from_ref(&frame),
        &labels,
        &options,
    )
    .unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    rec.push(std::slice::from_ref(&frame)).expect("push");
    let mut done = 0;
    while done < steps {
        let n = every.min(steps - done);
        if let Err(e) = world.run_steps(n) {
            eprintln!("{e}");
            break;
        }
        done += n;
        frame.update_from_world(&world);
        rec.push(std::slice::from_ref(&frame)).expect("push");
    }
    let summary = rec.finish().expect("finish");
    println!("{summary:?}");
}
