//! The search player's run-out rate over seeded nine-ball racks (a measurement, not
//! a test): `cargo run --release -p carom-games --example agent_runouts -- N [amateur|pro]`,
//! the same racks as `carom play nine-ball --agent --games N [--noise LEVEL]`.

use carom_games::agent::{run_rack, Agent, Noise};
use carom_games::GameKind;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(100);
    let noise = match args.get(2).map(String::as_str) {
        Some("amateur") => Some(Noise::AMATEUR),
        Some("pro") => Some(Noise::PRO),
        _ => None,
    };
    let mut agent = Agent::new(noise, 1);
    let (mut runouts, mut ended, mut decisions, mut thinking) = (0, 0, 0, 0.0);
    for seed in 1..=n {
        let r = run_rack(GameKind::NineBall, seed, &mut agent).unwrap();
        runouts += u64::from(r.run_out);
        ended += u64::from(r.break_ended);
        decisions += r.decisions;
        thinking += r.thinking;
        println!(
            "rack {seed}: {} shots, run-out {}; {}",
            r.shots, r.run_out, r.last
        );
    }
    println!(
        "noise {noise:?}: run-outs {runouts} of {} racks played from ball in hand ({ended} breaks \
         ended the game); decision time {:.0} ms per shot over {decisions} decisions",
        n - ended,
        1e3 * thinking / decisions as f64
    );
}
