//! Prints the scene a `short_run` input decodes to and steps it under each model,
//! printing the balls after every step: `cargo run -p carom-fuzz-harness --example
//! show_scene -- FILE` (`-- --cloth FILE` for a `short_run_cloth` input). For reading
//! a finding, not for tests.
use carom::load::{build, Source};
use carom::overrides::Override;
use carom::parse::Format;
use carom::ModelKind;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let cloth = args.first().is_some_and(|a| a == "--cloth");
    let path = args
        .get(usize::from(cloth))
        .expect("usage: show_scene [--cloth] FILE");
    let data = std::fs::read(path).expect("readable file");
    let (text, steps) = if cloth {
        carom_fuzz_harness::short_run_cloth_scene(&data)
    } else {
        carom_fuzz_harness::short_run_scene(&data)
    };
    println!("{text}\nsteps: {steps}");
    let src = Source::text("scene.json", text, Format::Json);
    for model in ModelKind::ALL {
        println!("== {}", model.name());
        let mut w = match build(&src, &[Override::model(model)]) {
            Ok(l) => l.world,
            Err(e) => {
                println!("refused: {e}");
                continue;
            }
        };
        let start = std::time::Instant::now();
        for k in 0..steps {
            let r = w.step();
            if std::env::var_os("QUIET").is_some() {
                if r.is_err() {
                    println!("step {}: {r:?}", k + 1);
                }
                continue;
            }
            let b = w.balls();
            let balls: Vec<String> = (0..b.len())
                .map(|i| {
                    format!(
                        "({:.3}, {:.3}) v ({:.3}, {:.3})",
                        b.x[i], b.y[i], b.vx[i], b.vy[i]
                    )
                })
                .collect();
            println!("step {}: {r:?} {}", k + 1, balls.join(" "));
        }
        println!(
            "{:?} for {steps} steps, {} collisions",
            start.elapsed(),
            w.collisions()
        );
    }
}
