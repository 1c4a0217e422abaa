//! Stepping helpers shared by `run` and `compare`: how many steps a time is, the
//! progress bar, the thread count.

use std::io::IsTerminal;
use std::time::Duration;

use carom::World;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::error::CliError;

/// Whole steps covering `t`, as every front end counts them.
pub(crate) fn steps_for(t: f64, dt: f64, what: &str) -> Result<u64, CliError> {
    carom::run::steps_for(t, dt, what).map_err(CliError::input)
}

/// `--steps` held to the bound `--time` has (`carom::run::MAX_STEPS`).
pub(crate) fn check_steps(n: u64) -> Result<u64, CliError> {
    carom::run::check_steps(n, "--steps").map_err(CliError::input)
}

pub(crate) fn progress_bar(steps: u64, quiet: bool) -> Option<ProgressBar> {
    if quiet || !std::io::stderr().is_terminal() || steps == 0 {
        return None;
    }
    let bar = ProgressBar::with_draw_target(Some(steps), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{elapsed_precise} {wide_bar} {pos}/{len} steps ({per_sec}, {eta} left)",
    ) {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(200));
    Some(bar)
}

/// `--threads`, or by default all cores for scenes large enough to pay for them.
/// Results are the same whatever the count.
pub(crate) fn apply_threads(world: &mut World, requested: Option<u64>) -> Result<(), CliError> {
    let threads = match requested {
        Some(n) => n as usize,
        None => carom::run::default_threads(world.balls().len()),
    };
    world
        .set_threads(threads)
        .map_err(|e| CliError::input(format!("--threads {threads}: {}", e.message)))
}
