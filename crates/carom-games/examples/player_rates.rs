//! The search player's rates (a measurement, not a test), one command each:
//!
//! ```text
//! cargo run --release -p carom-games --example player_rates -- nine-ball N [none|pro|amateur]
//! cargo run --release -p carom-games --example player_rates -- eight-ball N [none|pro|amateur] [FIRST]
//! cargo run --release -p carom-games --example player_rates -- snooker N [none|pro|amateur] [FIRST]
//! cargo run --release -p carom-games --example player_rates -- three-cushion N [none|pro|amateur]
//! ```
//!
//! nine-ball: the run-out rate from ball in hand after the break over N racks (seeds
//! 1 to N, as `carom play nine-ball --agent`); eight-ball: the full player's win rate
//! against the direct-pots-only player over N games from seed FIRST (1 unless given),
//! breaking in turn, and each player's shots by intent (kept the turn, fouled, its own
//! estimate, the opponent's answer); snooker: the
//! mean break (points of a scoring visit) over N frames from seed FIRST (1 unless
//! given), each cut off after 60 shots;
//! three-cushion: points per inning over N innings from the start position. Each line
//! gives the binomial (or sample) standard error and the decision time per shot.

use carom_games::agent::{play_game, run_rack, Agent, Intent, Noise, Played};
use carom_games::GameKind;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let what = args.get(1).map_or("nine-ball", String::as_str);
    let n: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(20);
    let level = args.get(3).map_or("none", String::as_str);
    // Eight-ball and snooker: the first game's seed (1 unless given), so that a long
    // measurement may be taken in parts (each game's players are seeded by the game).
    let first: u64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1);
    let noise = match level {
        "amateur" => Some(Noise::AMATEUR),
        "pro" => Some(Noise::PRO),
        "none" => None,
        other => {
            eprintln!("player_rates: noise {other:?} is not none, pro or amateur");
            std::process::exit(2);
        }
    };
    let (thinking, decisions) = match what {
        "nine-ball" | "three-cushion" => {
            let kind = GameKind::parse(what).unwrap_or(GameKind::NineBall);
            racks(kind, n, noise, level)
        }
        "eight-ball" => eight_ball(first, n, noise, level),
        "snooker" => snooker(first, n, noise, level),
        other => {
            eprintln!(
                "player_rates: {other:?} is not nine-ball, eight-ball, snooker or three-cushion"
            );
            std::process::exit(2);
        }
    };
    println!(
        "decision time {:.0} ms per shot over {decisions} decisions",
        1e3 * thinking / decisions.max(1) as f64
    );
}

/// Nine-ball's run-outs from ball in hand after the break, or three-cushion's points
/// per inning, over racks (innings) 1 to `n`; the time spent deciding and the
/// decisions.
fn racks(kind: GameKind, n: u64, noise: Option<Noise>, level: &str) -> (f64, usize) {
    let (mut thinking, mut decisions) = (0.0, 0usize);
    let mut agent = Agent::new(noise, 1);
    let (mut hits, mut played, mut points) = (0u64, 0u64, Vec::new());
    let mut refused = 0u64;
    for seed in 1..=n {
        // A shot the engine refuses (its event budget spent) ends the rack as a
        // failure: counted, said, and the measurement goes on.
        let r = match run_rack(kind, seed, &mut agent) {
            Ok(r) => r,
            Err(e) => {
                println!("rack {seed}: refused, counted as no run-out: {e}");
                refused += 1;
                played += 1;
                points.push(0.0);
                continue;
            }
        };
        thinking += r.thinking;
        decisions += r.decisions;
        if r.break_ended {
            continue;
        }
        played += 1;
        hits += u64::from(r.run_out);
        points.push(r.points as f64);
        println!(
            "rack {seed}: {} shots, run-out {}, points {}; {}",
            r.shots, r.run_out, r.points, r.last
        );
    }
    if kind == GameKind::NineBall {
        let p = hits as f64 / played.max(1) as f64;
        let se = (p * (1.0 - p) / played.max(1) as f64).sqrt();
        println!(
            "nine-ball, noise {level}: run-outs {hits} of {played} racks from ball in hand \
             ({:.0} % +- {:.0} %; {refused} refused by the engine)",
            100.0 * p,
            100.0 * se
        );
    } else {
        let (m, se) = mean_se(&points);
        println!(
            "three-cushion, noise {level}: {m:.2} +- {se:.2} points per inning over {} innings",
            points.len()
        );
    }
    (thinking, decisions)
}

/// The full player against direct pots only over `n` eight-ball games from seed
/// `first`, breaking in turn: its win rate and each player's shots by intent.
fn eight_ball(first: u64, n: u64, noise: Option<Noise>, level: &str) -> (f64, usize) {
    let (mut thinking, mut decisions) = (0.0, 0usize);
    let (mut wins, mut decided, mut refused) = (0u64, 0u64, 0u64);
    // Each player's shots by intent (full, direct).
    let mut tallies = [Tally::default(), Tally::default()];
    for seed in first..first + n {
        let full_first = seed % 2 == 1;
        let (full, direct) = (Agent::new(noise, seed), Agent::direct(noise, seed ^ 0xA5A5));
        let mut agents = if full_first {
            [full, direct]
        } else {
            [direct, full]
        };
        // A shot the engine refuses (its event budget spent) ends the game undecided:
        // counted, said, and the measurement goes on.
        let m = match play_game(GameKind::EightBall, seed, &mut agents, 200) {
            Ok(m) => m,
            Err(e) => {
                println!("game {seed}: refused, counted as undecided: {e}");
                refused += 1;
                continue;
            }
        };
        thinking += m.thinking;
        decisions += m.decisions;
        let full_seat = if full_first { 0 } else { 1 };
        tallies[0].add(&m.played, full_seat);
        tallies[1].add(&m.played, 1 - full_seat);
        if let Some(w) = m.winner {
            decided += 1;
            wins += u64::from(w == full_seat);
        }
        println!(
            "game {seed}: {} shots, winner {:?} (full player is {full_seat})",
            m.shots, m.winner
        );
    }
    let p = wins as f64 / decided.max(1) as f64;
    let se = (p * (1.0 - p) / decided.max(1) as f64).sqrt();
    println!(
        "eight-ball, noise {level}: the full player won {wins} of {decided} finished games \
         against direct pots only ({:.0} % +- {:.0} %; {} of {n} cut off at 200 shots, \
         {refused} refused by the engine)",
        100.0 * p,
        100.0 * se,
        n - decided - refused
    );
    for (who, t) in ["full player", "direct pots only"].iter().zip(&tallies) {
        t.print(who);
    }
    (thinking, decisions)
}

/// The mean snooker break over `n` frames from seed `first`, each cut off after 60
/// shots.
fn snooker(first: u64, n: u64, noise: Option<Noise>, level: &str) -> (f64, usize) {
    let (mut thinking, mut decisions) = (0.0, 0usize);
    let (mut breaks, mut refused) = (Vec::new(), 0u64);
    for seed in first..first + n {
        let mut agents = [Agent::new(noise, seed), Agent::new(noise, seed ^ 0xA5A5)];
        let m = match play_game(GameKind::Snooker, seed, &mut agents, 60) {
            Ok(m) => m,
            Err(e) => {
                println!("frame {seed}: refused, left out: {e}");
                refused += 1;
                continue;
            }
        };
        thinking += m.thinking;
        decisions += m.decisions;
        println!(
            "frame {seed}: {} shots, scores {:?}, breaks {:?}",
            m.shots, m.scores, m.breaks
        );
        breaks.extend(m.breaks.iter().map(|&b| b as f64));
    }
    let (m, se) = mean_se(&breaks);
    let high = breaks.iter().copied().fold(0.0, f64::max);
    println!(
        "snooker, noise {level}: mean break {m:.1} +- {se:.1} over {} breaks in {} frames \
         (60 shots each), highest {high}; {refused} refused by the engine",
        breaks.len(),
        n - refused
    );
    (thinking, decisions)
}

/// The mean and its standard error.
fn mean_se(v: &[f64]) -> (f64, f64) {
    let n = v.len().max(1) as f64;
    let m = v.iter().sum::<f64>() / n;
    let var = v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0).max(1.0);
    (m, (var / n).sqrt())
}

/// One player's shots by intent: how many, how many kept the turn or fouled, the mean
/// of the player's own estimate, and how often the opponent's next shot kept the turn
/// (what a safety's estimate predicts).
#[derive(Default)]
struct Tally {
    rows: [Row; Intent::ALL.len()],
}

#[derive(Default, Clone, Copy)]
struct Row {
    shots: u32,
    kept: u32,
    fouled: u32,
    estimates: f64,
    estimated: u32,
    answered: u32,
    answer_kept: u32,
}

impl Tally {
    fn add(&mut self, played: &[Played], seat: usize) {
        for (k, p) in played.iter().enumerate().filter(|(_, p)| p.player == seat) {
            let at = Intent::ALL.iter().position(|&i| i == p.intent).unwrap_or(0);
            let row = &mut self.rows[at];
            row.shots += 1;
            row.kept += u32::from(p.kept_turn);
            row.fouled += u32::from(p.foul);
            if let Some(e) = p.estimate {
                row.estimates += e;
                row.estimated += 1;
            }
            if let Some(next) = played.get(k + 1).filter(|q| q.player != seat) {
                row.answered += 1;
                row.answer_kept += u32::from(next.kept_turn);
            }
        }
    }

    fn print(&self, who: &str) {
        let pc = |a: u32, b: u32| 100.0 * f64::from(a) / f64::from(b.max(1));
        for (intent, r) in Intent::ALL.iter().zip(&self.rows) {
            if r.shots == 0 {
                continue;
            }
            let estimate = if r.estimated > 0 {
                format!("{:.2}", r.estimates / f64::from(r.estimated))
            } else {
                "-".into()
            };
            println!(
                "  {who}, {}: {} shots, kept the turn {:.0} %, fouled {:.0} %, own estimate \
                 {estimate}, opponent's next shot kept the turn {:.0} % (of {})",
                intent.name(),
                r.shots,
                pc(r.kept, r.shots),
                pc(r.fouled, r.shots),
                pc(r.answer_kept, r.answered),
                r.answered
            );
        }
    }
}
