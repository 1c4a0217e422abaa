//! Noisy nine-ball breaks and the engine's event budget (a measurement, not a test):
//!
//! ```text
//! cargo run --release -p carom-games --example break_budget -- RACKS DRAWS [none|pro|amateur] [FILE]
//! ```
//!
//! For each rack of seeds 1 to RACKS, DRAWS breaks as the search player plays them
//! (the cue ball on the head spot, full on the apex ball at the break speed), each with
//! the noise of the level drawn from its own seeded player, simulated by
//! `batch::simulate_shots`. Prints how many shots the engine refused for its event
//! budget (each named), how many for anything else, and how many ended. With FILE, one
//! line per shot (rack, draw, and a fingerprint of its facts and event log, or the
//! error) goes there, so that two builds can be compared shot by shot.

use std::fmt::Write as _;
use std::hash::{Hash, Hasher};

use carom_games::agent::{Agent, Noise};
use carom_games::batch::simulate_shots;
use carom_games::{Game, GameKind};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let racks: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20);
    let draws: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(50);
    let level = args.get(3).map_or("pro", String::as_str);
    let noise = match level {
        "amateur" => Some(Noise::AMATEUR),
        "pro" => Some(Noise::PRO),
        "none" => None,
        other => {
            eprintln!("break_budget: noise {other:?} is not none, pro or amateur");
            std::process::exit(2);
        }
    };
    let mut lines = String::new();
    let (mut ended, mut budget, mut other) = (0u64, 0u64, 0u64);
    for seed in 1..=racks {
        let game = Game::new(GameKind::NineBall, seed);
        // Each draw from a player of its own seed: the break it plans, with its noise.
        let decisions: Vec<_> = (0..draws)
            .map(|k| Agent::new(noise, seed * 1_000_003 + k).choose(&game))
            .collect();
        let mut placed = game.clone();
        if let Some([x, y]) = decisions.first().and_then(|d| d.place) {
            if let Err(e) = placed.place_cue_ball(x, y) {
                eprintln!("break_budget: rack {seed}: {e}");
                std::process::exit(1);
            }
        }
        let shots: Vec<_> = decisions.iter().map(|d| d.shot).collect();
        let results = simulate_shots(&placed, &shots, None, 0).unwrap_or_else(|e| {
            eprintln!("break_budget: {e}");
            std::process::exit(1);
        });
        for (k, r) in results.iter().enumerate() {
            let print = match r {
                Ok(r) => {
                    ended += 1;
                    let mut h = std::collections::hash_map::DefaultHasher::new();
                    format!("{:?}{:?}", r.facts, r.events).hash(&mut h);
                    format!("{:016x}", h.finish())
                }
                Err(e) if e.contains("event budget") => {
                    budget += 1;
                    println!("rack {seed} draw {k}: {:?}: {e}", shots[k]);
                    format!("budget: {e}")
                }
                Err(e) => {
                    other += 1;
                    println!("rack {seed} draw {k}: {:?}: {e}", shots[k]);
                    format!("error: {e}")
                }
            };
            let _ = writeln!(lines, "{seed} {k} {print}");
        }
    }
    println!(
        "nine-ball breaks, noise {level}: {} shots over {racks} racks, {ended} ended, \
         {budget} refused for the event budget, {other} refused otherwise",
        racks * draws
    );
    if let Some(path) = args.get(4) {
        if let Err(e) = std::fs::write(path, lines) {
            eprintln!("break_budget: {path}: {e}");
            std::process::exit(1);
        }
    }
}
