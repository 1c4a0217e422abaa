//! The search player's safeties measured (a measurement, not a test):
//!
//! ```text
//! cargo run --release -p carom-games --example safety_rates -- GAME N [EXECUTIONS]
//! ```
//!
//! GAME is nine-ball or snooker. Positions are drawn from seeds 1, 2, ...: a few
//! object balls and the cue ball scattered over the bed, kept when the shooter has no
//! direct pot (no ball it may hit first with a clear line into a pocket,
//! `agent::best_ease` 0), until N are kept. On each the player (`pro` noise) chooses
//! its safety (`Agent::safety`), which is then played EXECUTIONS times (4 by default)
//! with the player's noise; after each, the opponent (the full player, `pro`) decides
//! and shoots. Printed: the player's own estimate of the opponent's chance (the mean
//! over positions), the fraction of executions after which the opponent potted and
//! kept the turn, the fraction that were fouls, each with its standard error, and the
//! decision time per safety.

use carom::SplitMix64;
use carom_games::agent::{best_ease, Agent, Noise};
use carom_games::{Game, GameKind};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let what = args.get(1).map_or("nine-ball", String::as_str);
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(20);
    let runs: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(4);
    let kind = match what {
        "nine-ball" => GameKind::NineBall,
        "snooker" => GameKind::Snooker,
        other => {
            eprintln!("safety_rates: {other:?} is not nine-ball or snooker");
            std::process::exit(2);
        }
    };
    let (mut estimates, mut potted, mut fouls) = (Vec::new(), Vec::new(), Vec::new());
    let mut thinking = 0.0;
    let mut seed = 0u64;
    while estimates.len() < n {
        seed += 1;
        let Some(game) = scatter(kind, seed) else {
            continue;
        };
        if best_ease(&game) > 0.0 {
            continue;
        }
        let mut player = Agent::new(Some(Noise::PRO), seed);
        let t = std::time::Instant::now();
        let (shot, call, theirs) = player.safety(&game);
        thinking += t.elapsed().as_secs_f64();
        estimates.push(theirs);
        let me = game.state.player;
        let (mut pots, mut fouled) = (0usize, 0usize);
        for k in 0..runs {
            let mut g = game.clone();
            let s = player.perturb(shot, Noise::PRO);
            let Ok(r) = g.shoot(&s, call) else {
                continue;
            };
            if r.foul.is_some() {
                fouled += 1;
            }
            if g.state.over || g.state.player == me {
                continue;
            }
            let mut opponent = Agent::new(Some(Noise::PRO), seed * 1000 + k as u64);
            if let Some(c) = opponent.respond(&g) {
                if g.choose(c).is_err() || g.state.player == me {
                    continue;
                }
            }
            let d = opponent.choose(&g);
            let them = g.state.player;
            if let Ok(r) = d.play(&mut g) {
                let kept =
                    r.foul.is_none() && (!r.turn_over || (r.game_over && r.winner == Some(them)));
                pots += usize::from(kept);
            }
        }
        potted.push(pots as f64 / runs as f64);
        fouls.push(fouled as f64 / runs as f64);
        println!(
            "position {seed}: estimate {theirs:.2}, the opponent potted {pots} of {runs}, \
             fouls {fouled}"
        );
    }
    let (e, ese) = mean_se(&estimates);
    let (p, pse) = mean_se(&potted);
    let (f, fse) = mean_se(&fouls);
    println!(
        "{what}: {n} positions without a direct pot, {runs} executions each: the player's \
         estimate of the opponent's chance {e:.2} +- {ese:.2}; the opponent potted after \
         {:.0} % +- {:.0} % of the safeties; fouls {:.0} % +- {:.0} %; {:.0} ms per safety",
        100.0 * p,
        100.0 * pse,
        100.0 * f,
        100.0 * fse,
        1e3 * thinking / n as f64
    );
}

/// A position from `seed`: the cue ball and a few object balls (nine-ball: three to
/// five of 1 to 9 with the 9; snooker: three to six reds and the six colours)
/// scattered over the bed clear of each other and of the pockets, the player 0 to
/// shoot; `None` when the layout is refused.
fn scatter(kind: GameKind, seed: u64) -> Option<Game> {
    let mut g = SplitMix64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let table = Game::new(kind, 1).table;
    let r = table.balls.radius;
    let mut numbers = vec![0u32];
    match kind {
        GameKind::Snooker => {
            let reds = 3 + (g.unit() * 4.0) as u32;
            numbers.extend(1..=reds);
            numbers.extend(16..=21);
        }
        _ => {
            let lowest = 1 + (g.unit() * 5.0) as u32;
            let more = 2 + (g.unit() * 3.0) as u32;
            numbers.extend(lowest..(lowest + more).min(9));
            numbers.push(9);
        }
    }
    let mut balls: Vec<(u32, [f64; 2])> = Vec::new();
    for n in numbers {
        let mut placed = false;
        for _ in 0..200 {
            let p = [
                table.rail + r + g.unit() * (table.length - 2.0 * r),
                table.rail + r + g.unit() * (table.width - 2.0 * r),
            ];
            let clear = balls.iter().all(|b| dist(b.1, p) > 2.0 * r + 1e-3)
                && table
                    .pockets
                    .iter()
                    .all(|k| dist(k.center, p) > k.radius + 2.0 * r);
            if clear {
                balls.push((n, p));
                placed = true;
                break;
            }
        }
        if !placed {
            return None;
        }
    }
    Game::layout(kind, &balls, 0).ok()
}

fn dist(a: [f64; 2], b: [f64; 2]) -> f64 {
    (b[0] - a[0]).hypot(b[1] - a[1])
}

/// The mean and its standard error.
fn mean_se(v: &[f64]) -> (f64, f64) {
    let n = v.len().max(1) as f64;
    let m = v.iter().sum::<f64>() / n;
    let var = v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0).max(1.0);
    (m, (var / n).sqrt())
}
