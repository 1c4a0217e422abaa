//! One shot in each of many games at once (a vectorised environment's step), in
//! parallel over rayon threads, and the call a shot makes when the caller leaves it to
//! the shot itself. Each game shoots only its own shot, so the results are the same on
//! any number of threads and the same as shooting the games one by one.

use rayon::prelude::*;

use crate::game::{Game, ShotResult};
use crate::rules::{self, Call};
use crate::shot::{simulate, Shot};

/// The call of a player who knows what the shot will do (the engine is
/// deterministic: it is simulated once to find out), where the rules need a call:
/// the first the rules accept of the object balls the shot pockets, highest number
/// first, each into the pocket it drops in (so a ten-ball shot that drops the 10 calls
/// it); then a safety; then each object ball on the table, lowest first, into pocket 0
/// (eight-ball's 8 when the shot does not pocket it: the call then fails, as the
/// shot does). `None` when the rules need no call.
pub fn auto_call(game: &Game, shot: &Shot) -> Result<Option<Call>, String> {
    let rules = rules::rules(game.kind());
    if rules
        .check_call(&game.state, game.effective_call(None)?)
        .is_ok()
    {
        return Ok(None);
    }
    let cue = game.kind().cue_ball(game.state.player);
    let out = simulate(&game.setup(), cue, shot).map_err(|e| e.to_string())?;
    let mut dropped: Vec<(u32, u32)> = out
        .facts
        .pocketed
        .iter()
        .filter(|p| p.1 != cue && p.1 != 0)
        .map(|p| (p.1, p.2))
        .collect();
    dropped.sort_by_key(|d| std::cmp::Reverse(d.0));
    let mut on_table = game.state.on_table.clone();
    on_table.sort_unstable();
    let candidates = dropped
        .into_iter()
        .map(|(ball, pocket)| Call::Pot { ball, pocket })
        .chain(std::iter::once(Call::Safety))
        .chain(
            on_table
                .into_iter()
                .map(|ball| Call::Pot { ball, pocket: 0 }),
        );
    for c in candidates {
        if rules.check_call(&game.state, Some(c)).is_ok() {
            return Ok(Some(c));
        }
    }
    rules
        .check_call(&game.state, None)
        .map(|()| None)
        .map_err(|e| format!("call: {e}"))
}

/// A shot's call and result.
pub type Called = (Option<Call>, ShotResult);

/// Shoots `shots[k]` in `games[k]` for every k, on `threads` rayon threads (0: all
/// cores), each with the call [`auto_call`] chooses when `auto` (else none), moving
/// every game on. The results in the games' order, each the call made and the result,
/// or the one-line error that game's shot met (that game then unchanged).
pub fn shoot_each(
    games: &mut [Game],
    shots: &[Shot],
    auto: bool,
    threads: usize,
) -> Result<Vec<Result<Called, String>>, String> {
    if games.len() != shots.len() {
        return Err(format!(
            "shots: {} shots for {} games (one each)",
            shots.len(),
            games.len()
        ));
    }
    let one = |(game, shot): (&mut Game, &Shot)| {
        let call = if auto { auto_call(game, shot)? } else { None };
        game.shoot(shot, call).map(|r| (call, r))
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("threads: {e}"))?;
    Ok(pool.install(|| {
        games
            .par_iter_mut()
            .zip(shots.par_iter())
            .map(one)
            .collect()
    }))
}

/// What [`Game::shoot`] refuses before simulating, without simulating: a game over, a
/// shot number out of range, a missing or impossible call, a pocket that does not
/// exist. An error here is bad input; one from the shot after it passed is a failure
/// of the run.
pub fn check(game: &Game, shot: &Shot, call: Option<Call>) -> Result<(), String> {
    if game.state.over {
        return Err("shoot: the game is over".into());
    }
    shot.check().map_err(|e| e.to_string())?;
    check_call(game, call)
}

/// The call part of [`check`].
pub fn check_call(game: &Game, call: Option<Call>) -> Result<(), String> {
    let call = game.effective_call(call)?;
    rules::rules(game.kind())
        .check_call(&game.state, call)
        .map_err(|e| format!("call: {e}"))?;
    if let Some(Call::Pot { pocket, .. }) = call {
        if pocket as usize >= game.table.pockets.len() {
            return Err(format!(
                "call: pocket {pocket} does not exist (pockets 0 to {})",
                game.table.pockets.len().saturating_sub(1)
            ));
        }
    }
    Ok(())
}
