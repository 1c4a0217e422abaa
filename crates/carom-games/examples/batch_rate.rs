//! Shots per second of `simulate_shots` (and of a kept `Batch`) on the nine-ball
//! break and on a mid-game position, on 1 and 2 threads (wall clock), and the CPU
//! time of a mid-game shot on this thread alone, with the position's world built for each shot and copied from
//! one built once (a measurement, not a test):
//! `cargo run --release -p carom-games --example batch_rate`.
//!
//! The CPU time is the thread's own (`/proc/thread-self/schedstat`, Linux), so it
//! holds on a machine whose other cores are busy, where the wall clock does not.

use std::time::Instant;

use carom_games::batch::{simulate_shots, Batch};
use carom_games::shot::{simulate, Position};
use carom_games::{Game, GameKind, Shot};

fn rate(label: &str, g: &Game, shots: &[Shot]) {
    for threads in [1, 2] {
        // One warm-up pass, then the median of three timed passes: `simulate_shots`,
        // which makes its pool and storage for the call, and a kept `Batch`, which
        // reuses them and its results.
        let median = |f: &mut dyn FnMut()| {
            f();
            let mut times: Vec<f64> = (0..3)
                .map(|_| {
                    let t = Instant::now();
                    f();
                    t.elapsed().as_secs_f64()
                })
                .collect();
            times.sort_by(f64::total_cmp);
            times[1]
        };
        let fresh = median(&mut || {
            let r = simulate_shots(g, shots, None, threads).unwrap();
            assert_eq!(r.len(), shots.len());
        });
        let mut batch = Batch::new(threads).unwrap();
        let kept = median(&mut || {
            let r = batch.simulate(g, shots, None);
            assert_eq!(r.len(), shots.len());
        });
        println!(
            "{label}: {} shots on {threads} thread(s): {:.0} shots/s ({:.0} with a kept batch)",
            shots.len(),
            shots.len() as f64 / fresh,
            shots.len() as f64 / kept
        );
    }
}

fn main() {
    let g = Game::new(GameKind::NineBall, 1);
    let breaks: Vec<Shot> = (0..200)
        .map(|k| Shot {
            speed: 6.0,
            aim: -1.0 + 0.01 * k as f64,
            english: 0.0,
            follow: 0.0,
            elevation: 0.0,
        })
        .collect();
    rate("nine-ball break", &g, &breaks);
    // Mid-game: the position after a break, candidate shots all round.
    let mut mid = g.clone();
    mid.shoot(&Shot::new(6.0, 0.5), None).unwrap();
    let shots: Vec<Shot> = (0..1000)
        .map(|k| Shot {
            speed: 1.5 + 0.002 * k as f64,
            aim: 0.36 * k as f64,
            english: 0.0,
            follow: 0.0,
            elevation: 0.0,
        })
        .collect();
    rate("nine-ball mid-game", &mid, &shots);
    // CPU time per mid-game shot on this thread: the world built for each shot, and
    // copied from one built once; then building alone.
    let setup = mid.setup();
    let position = Position::new(&setup).unwrap();
    let per_shot = |f: &dyn Fn(&Shot)| {
        let mut v: Vec<f64> = (0..5)
            .map(|_| {
                let t = thread_cpu();
                shots.iter().for_each(f);
                (thread_cpu() - t) / shots.len() as f64 * 1e6
            })
            .collect();
        v.sort_by(f64::total_cmp);
        v[2]
    };
    let built = per_shot(&|s| {
        std::hint::black_box(simulate(&setup, 0, s).unwrap());
    });
    let copied = per_shot(&|s| {
        std::hint::black_box(position.simulate(0, s).unwrap());
    });
    let scenario = setup.scenario();
    let t = thread_cpu();
    for _ in 0..1000 {
        std::hint::black_box(carom::parse::build_world(&scenario).unwrap());
    }
    let build = (thread_cpu() - t) * 1e3;
    println!(
        "mid-game shot, CPU time on one thread (median of 5 passes): {built:.0} us with the \
         world built per shot, {copied:.0} us copied ({:.0} shots/s per core); building the \
         world alone {build:.0} us",
        1e6 / copied
    );
}

/// This thread's CPU time in seconds (Linux: the first field of its schedstat, in
/// nanoseconds); 0 where that file does not exist.
fn thread_cpu() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns * 1e-9)
}
