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
/// order, each the result or the one-line error that shot met. [`Batch`] does the
/// same and keeps its storage for the next batch.
pub fn simulate_shots(
    game: &Game,
    shots: &[Shot],
    call: Option<Call>,
    threads: usize,
) -> Result<Vec<Result<ShotResult, String>>, String> {
    let mut batch = Batch::new(threads)?;
    batch.simulate(game, shots, call);
    let mut results = batch.results;
    results.truncate(shots.len());
    Ok(results)
}

/// A batch simulator that keeps everything it works in from one batch to the next:
/// its thread pool, each thread's storage (a copy of the position's world, a game
/// that shoots, the spare list of balls) and the results with their lists, which
/// the next batch overwrites in place. Once a few batches have grown them, a shot
/// allocates nothing but a foul's text; a batch allocates only its position's world.
///
/// The results are those of [`simulate_shots`], to the bit, on any number of
/// threads: each shot starts from its own copy of the position.
pub struct Batch {
    pool: rayon::ThreadPool,
    /// The threads' storage not in use: a chunk of shots takes one and gives it back.
    idle: Mutex<Vec<Worker>>,
    /// Every result made so far: the last batch's first, then spares kept for their
    /// storage.
    results: Vec<Result<ShotResult, String>>,
    /// Batches begun, so that a thread's storage knows whether it holds this one's
    /// position.
    batches: u64,
}

/// One thread's storage.
struct Worker {
    /// A copy of the position's world (`None`: the position did not build) and the
    /// batch it was copied for.
    position: Option<Position>,
    batch: u64,
    /// The game that shoots: the batch's table, its state and balls set in place
    /// before each shot.
    game: Game,
    /// The list of balls a shot lends its storage to.
    spare: Vec<(u32, [f64; 2])>,
}

/// A thread's storage lent to a run of shots, given back to the idle list when the
/// run ends.
struct Lent<'a> {
    worker: Option<Worker>,
    idle: &'a Mutex<Vec<Worker>>,
}

impl Drop for Lent<'_> {
    fn drop(&mut self) {
        if let (Some(w), Ok(mut l)) = (self.worker.take(), self.idle.lock()) {
            l.push(w);
        }
    }
}

impl Batch {
    /// A batch simulator on `threads` threads (0: rayon's default, all cores).
    pub fn new(threads: usize) -> Result<Batch, String> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| format!("threads: {e}"))?;
        Ok(Batch {
            pool,
            idle: Mutex::new(Vec::new()),
            results: Vec::new(),
            batches: 0,
        })
    }

    /// Shoots every shot from `game`'s position (the game itself unchanged) with
    /// `call`; the results in the shots' order, each the result or the one-line
    /// error that shot met, as [`simulate_shots`] returns them.
    pub fn simulate(
        &mut self,
        game: &Game,
        shots: &[Shot],
        call: Option<Call>,
    ) -> &[Result<ShotResult, String>] {
        if shots.is_empty() {
            return &[];
        }
        // The position's world is built once; each thread copies it into its own
        // storage (a world is not shared between threads), which copies it again for
        // every shot (`Position::simulate_into`): the same results as building it for
        // each. A position that does not build leaves every shot to meet its error
        // as `shoot` reports it.
        let position = Mutex::new(Position::new(&game.setup()).ok());
        self.batches += 1;
        let batch = self.batches;
        if self.results.len() < shots.len() {
            self.results
                .resize_with(shots.len(), || Ok(ShotResult::default()));
        }
        let results = &mut self.results[..shots.len()];
        let idle = &self.idle;
        self.pool.install(|| {
            results.par_iter_mut().zip(shots).for_each_init(
                // Each of rayon's runs of consecutive shots takes a thread's storage
                // and gives it back when it ends (`Lent`'s drop). A run never waits
                // on another, so no more are lent at once than there are threads,
                // and after the first batch the idle list holds one for each.
                || {
                    let taken = idle.lock().ok().and_then(|mut l| l.pop());
                    let worker = match taken {
                        Some(mut w) => {
                            w.ready(&position, game, batch);
                            w
                        }
                        None => Worker::new(&position, game, batch),
                    };
                    Lent {
                        worker: Some(worker),
                        idle,
                    }
                },
                |lent, (slot, shot)| {
                    if let Some(w) = &mut lent.worker {
                        w.shoot(game, shot, call, slot);
                    }
                },
            )
        });
        &self.results[..shots.len()]
    }
}

impl Worker {
    fn new(position: &Mutex<Option<Position>>, game: &Game, batch: u64) -> Worker {
        Worker {
            position: copy_of(position),
            batch,
            game: game.clone(),
            spare: Vec::new(),
        }
    }

    /// Holds `batch`'s position and `game`'s table, keeping the storage it can.
    fn ready(&mut self, position: &Mutex<Option<Position>>, game: &Game, batch: u64) {
        if self.batch == batch {
            return;
        }
        self.batch = batch;
        let copied = match (&mut self.position, position.lock().ok().as_deref()) {
            (Some(mine), Some(Some(theirs))) => mine.copy_from(theirs),
            _ => false,
        };
        if !copied {
            self.position = copy_of(position);
        }
        if self.game.table != game.table {
            self.game.table = game.table.clone();
        }
    }

    /// Shoots one shot from `game`'s position into `slot`.
    fn shoot(
        &mut self,
        game: &Game,
        shot: &Shot,
        call: Option<Call>,
        slot: &mut Result<ShotResult, String>,
    ) {
        let Some(p) = &self.position else {
            *slot = game.clone().shoot(shot, call);
            return;
        };
        let g = &mut self.game;
        g.state.clone_from(&game.state);
        g.balls.clone_from(&game.balls);
        if slot.is_err() {
            *slot = Ok(ShotResult::default());
        }
        if let Ok(r) = slot {
            if let Err(e) = g.shoot_into(Some(p), shot, call, &mut self.spare, r) {
                *slot = Err(e);
            }
        }
    }
}

/// A copy of the batch's position for one thread (`None` when it did not build or
/// would not copy).
fn copy_of(position: &Mutex<Option<Position>>) -> Option<Position> {
    position
        .lock()
        .ok()
        .and_then(|p| p.as_ref().and_then(Position::try_clone))
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
