//! Many candidate shots from one position, simulated in parallel: each shot is
//! independent (a copy of the game shoots it), so the results are the same on any
//! number of threads and the same as shooting them one by one.

use rayon::prelude::*;

use crate::game::{Game, ShotResult};
use crate::rules::Call;
use crate::shot::Shot;

/// Shoots every shot from `game`'s position (the game itself unchanged) with `call`,
/// on `threads` threads (0: rayon's default, all cores); the results in the shots'
/// order, each the result or the one-line error that shot met.
pub fn simulate_shots(
    game: &Game,
    shots: &[Shot],
    call: Option<Call>,
    threads: usize,
) -> Result<Vec<Result<ShotResult, String>>, String> {
    let one = |shot: &Shot| game.clone().shoot(shot, call);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("threads: {e}"))?;
    Ok(pool.install(|| shots.par_iter().map(one).collect()))
}
