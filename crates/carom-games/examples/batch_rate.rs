//! Shots per second of `simulate_shots` on the nine-ball break and on a mid-game
//! position, on 1 and 2 threads (a measurement, not a test):
//! `cargo run --release -p carom-games --example batch_rate`.

use std::time::Instant;

use carom_games::batch::simulate_shots;
use carom_games::{Game, GameKind, Shot};

fn rate(label: &str, g: &Game, shots: &[Shot]) {
    for threads in [1, 2] {
        // One warm-up pass, then the median of three timed passes.
        let _ = simulate_shots(g, shots, None, threads).unwrap();
        let mut times: Vec<f64> = (0..3)
            .map(|_| {
                let t = Instant::now();
                let r = simulate_shots(g, shots, None, threads).unwrap();
                assert_eq!(r.len(), shots.len());
                t.elapsed().as_secs_f64()
            })
            .collect();
        times.sort_by(f64::total_cmp);
        println!(
            "{label}: {} shots on {threads} thread(s): {:.0} shots/s",
            shots.len(),
            shots.len() as f64 / times[1]
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
    // The set-up alone: building the position's world, as every shot does.
    let scenario = mid.setup().scenario();
    let t = Instant::now();
    for _ in 0..1000 {
        let w = carom::parse::build_world(&scenario).unwrap();
        std::hint::black_box(&w);
    }
    println!(
        "building the mid-game world: {:.1} us each",
        t.elapsed().as_secs_f64() * 1e3
    );
}
