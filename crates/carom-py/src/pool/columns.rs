//! `simulate_shots`' columns: a batch's results as one array a field (a row a shot,
//! a column a ball of the position), filled without the GIL by the batch simulator
//! the module keeps between calls.

use std::sync::Mutex;

use carom::load;
use carom_games::batch::{self, Batch};
use carom_games::rules::Call;
use carom_games::{Game, Shot, ShotResult};

/// The batch simulator kept between calls (its thread pool, each thread's storage
/// and the results' lists, so that a call allocates nothing a shot), with the
/// process that made it and the threads it was made for. A call that finds it in use
/// by another Python thread makes a batch of its own.
static KEPT: Mutex<Option<Kept>> = Mutex::new(None);

struct Kept {
    process: u32,
    threads: usize,
    batch: Batch,
}

/// The results of a batch, a row a shot; `numbers`' balls are the columns.
pub(super) struct Columns {
    pub pocketed: Vec<i64>,
    pub cushions: Vec<i64>,
    pub positions: Vec<f64>,
    pub first: Vec<i64>,
    pub foul: Vec<bool>,
    pub points: Vec<i64>,
    pub turn_over: Vec<bool>,
    pub game_over: Vec<bool>,
    pub winner: Vec<i64>,
    pub errors: Vec<String>,
}

/// Shoots every shot from `game`'s position on `threads` threads (0: all cores)
/// and tabulates the results for the balls `numbers`.
pub(super) fn simulate(
    game: &Game,
    shots: &[Shot],
    call: Option<Call>,
    threads: usize,
    numbers: &[u32],
) -> Result<Columns, String> {
    if let Ok(mut kept) = KEPT.try_lock() {
        let process = std::process::id();
        if let Some(k) = kept.take() {
            if k.process != process {
                // A child forked from the process that made it (Python's
                // multiprocessing): its pool's threads did not come along, and
                // dropping it would signal threads that are not there. Left be.
                std::mem::forget(k);
            } else if k.threads == threads {
                *kept = Some(k);
            }
        }
        if kept.is_none() {
            *kept = Some(Kept {
                process,
                threads,
                batch: Batch::new(threads)?,
            });
        }
        if let Some(k) = kept.as_mut() {
            return Ok(tabulate(k.batch.simulate(game, shots, call), numbers));
        }
    }
    let results = batch::simulate_shots(game, shots, call, threads)?;
    Ok(tabulate(&results, numbers))
}

/// The columns of `results`. A shot that failed while running (bad input was
/// refused before) has its message in `errors` and the empty values in its row.
fn tabulate(results: &[Result<ShotResult, String>], numbers: &[u32]) -> Columns {
    let n = results.len();
    let nb = numbers.len();
    let mut c = Columns {
        pocketed: vec![-1; n * nb],
        cushions: vec![0; n * nb],
        positions: vec![f64::NAN; n * nb * 2],
        first: vec![-1; n],
        foul: vec![false; n],
        points: vec![0; n],
        turn_over: vec![false; n],
        game_over: vec![false; n],
        winner: vec![-1; n],
        errors: vec![String::new(); n],
    };
    let col = |b: u32| numbers.iter().position(|&m| m == b);
    for (k, r) in results.iter().enumerate() {
        let r = match r {
            Ok(r) => r,
            Err(e) => {
                c.errors[k] = load::one_line(e);
                continue;
            }
        };
        let f = &r.facts;
        for p in &f.pocketed {
            if let Some(j) = col(p.1) {
                c.pocketed[k * nb + j] = i64::from(p.2);
            }
        }
        for h in &f.cushions {
            if let Some(j) = col(h.1) {
                c.cushions[k * nb + j] += 1;
            }
        }
        for (j, (_, p)) in f.positions.iter().enumerate().take(nb) {
            if let Some(p) = p {
                c.positions[2 * (k * nb + j)] = p[0];
                c.positions[2 * (k * nb + j) + 1] = p[1];
            }
        }
        c.first[k] = f.first_contact.map_or(-1, i64::from);
        c.foul[k] = r.foul.is_some();
        c.points[k] = r.points[r.shooter];
        c.turn_over[k] = r.turn_over;
        c.game_over[k] = r.game_over;
        c.winner[k] = r.winner.map_or(-1, |w| w as i64);
    }
    c
}
