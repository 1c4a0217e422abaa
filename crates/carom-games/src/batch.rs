//! Many candidate shots from one position, simulated in parallel: each shot is
//! independent (a copy of the game shoots it), so the results are the same on any
//! number of threads and the same as shooting them one by one.

use std::sync::Mutex;

use rayon::prelude::*;

use crate::game::{Game, ShotResult};
use crate::rules::Call;
use crate::shot::{Position, Shot};

/// Shoots every shot from `game`'s position (the game itself unchanged) with `call`,
/// on `threads` threads (0: rayon's default, all cores); the results in the shots'
/// order, each the result or the one-line error that shot met.
pub fn simulate_shots(
    game: &Game,
    shots: &[Shot],
    call: Option<Call>,
    threads: usize,
) -> Result<Vec<Result<ShotResult, String>>, String> {
    // The position's world is built once, each thread takes its own copy (a world
    // is not shared between threads) and copies it per shot into the one world it
    // reuses for every shot (`Position::simulate`): the same results as building it
    // for each. A position that does not build leaves every shot to meet its error as
    // `shoot` reports it.
    let position = Position::new(&game.setup()).ok().map(Mutex::new);
    // Each thread's storage, kept across its shots: the position's world, a game
    // that shoots (its table is the game's; its state and balls are set from the
    // game's before each shot, in place), and the spare list of balls the shot
    // lends its storage to. A shot then allocates only the result it returns.
    let copy = || {
        let world = position
            .as_ref()
            .and_then(|p| p.lock().ok().and_then(|p| p.try_clone()));
        (world, game.clone(), Vec::new())
    };
    let one = |(p, g, spare): &mut (Option<Position>, Game, _), shot: &Shot| match p {
        Some(p) => {
            g.state.clone_from(&game.state);
            g.balls.clone_from(&game.balls);
            g.shoot_reusing(p, shot, call, spare)
        }
        None => game.clone().shoot(shot, call),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("threads: {e}"))?;
    Ok(pool.install(|| shots.par_iter().map_init(copy, one).collect()))
}

/// Shoots each `(shot, call)` from `game`'s position on its own copy of the game, in
/// parallel on the current rayon pool; each result with the game after the shot (or
/// the one-line error that shot met), in the shots' order, the same on any number
/// of threads.
pub fn play_shots(
    game: &Game,
    shots: &[(Shot, Option<Call>)],
) -> Vec<Result<(Game, ShotResult), String>> {
    let position = Position::new(&game.setup()).ok().map(Mutex::new);
    let copy = || {
        position
            .as_ref()
            .and_then(|p| p.lock().ok().and_then(|p| p.try_clone()))
    };
    shots
        .par_iter()
        .map_init(copy, |p, &(shot, call)| {
            let mut g = game.clone();
            let r = match p {
                Some(p) => g.shoot_prepared(p, &shot, call),
                None => g.shoot(&shot, call),
            }?;
            Ok((g, r))
        })
        .collect()
}
