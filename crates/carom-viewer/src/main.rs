//! `carom-viewer [SCENARIO] [--screenshot FILE.png] [--frames N] [--seed S]`: the interactive
//! viewer on its own (the same window as `carom view`).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

/// Opens the interactive viewer on a built-in preset or a scenario file.
#[derive(Parser, Debug)]
#[command(name = "carom-viewer", version)]
struct Args {
    /// A built-in preset name, a scenario file (.toml or .json), or a game to play
    /// (eight-ball, nine-ball, ten-ball, snooker, three-cushion, sum-to-three).
    #[arg(default_value = "break")]
    scenario: String,
    /// Steps of the fixed dt per displayed frame.
    #[arg(long, default_value_t = carom_viewer::DEFAULT_SUBSTEPS)]
    substeps: u32,
    /// Run this many frames, then close (after the screenshot, if asked).
    #[arg(long)]
    frames: Option<u64>,
    /// Save a PNG of the window after --frames frames (default 300), then close.
    #[arg(long, value_name = "FILE.png")]
    screenshot: Option<PathBuf>,
    /// Threads for the simulation (0: all cores).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// A game's rack seed (a game only; default 1).
    #[arg(long)]
    seed: Option<u64>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    if let Some(kind) = carom_viewer::game_named(&args.scenario) {
        let options = carom_viewer::Options {
            frames: args.frames,
            screenshot: args.screenshot,
            source: kind.name().to_string(),
            ..Default::default()
        };
        return match carom_viewer::run_game(kind, args.seed.unwrap_or(1), options) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e @ carom_viewer::ViewerError::Usage(_)) => {
                eprintln!("carom-viewer: {e}");
                ExitCode::from(2)
            }
            Err(e) => {
                eprintln!("carom-viewer: {e}");
                ExitCode::FAILURE
            }
        };
    }
    if args.seed.is_some() {
        eprintln!(
            "carom-viewer: --seed: a game's rack seed, and {} is no game",
            args.scenario
        );
        return ExitCode::from(2);
    }
    let (scenario, source) = match carom_viewer::sim::load_scenario(&args.scenario) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("carom-viewer: {e}");
            return ExitCode::from(2);
        }
    };
    let options = carom_viewer::Options {
        substeps: args.substeps,
        threads: args.threads,
        frames: args.frames,
        screenshot: args.screenshot,
        source: source.clone(),
        ..Default::default()
    };
    match carom_viewer::run_scenario(scenario, &source, options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e @ carom_viewer::ViewerError::Usage(_)) => {
            eprintln!("carom-viewer: {e}");
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("carom-viewer: {e}");
            ExitCode::FAILURE
        }
    }
}
