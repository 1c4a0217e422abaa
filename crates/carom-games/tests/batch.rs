//! A batch of shots equals shooting them one by one, on one thread and on two.

use carom_games::batch::simulate_shots;
use carom_games::{Game, GameKind, Shot, ShotResult};

/// Everything a result says, with the event log as the CSV lines it writes (its NaN
/// fields make rows unequal to themselves as numbers).
fn key(r: &Result<ShotResult, String>) -> String {
    match r {
        Err(e) => e.clone(),
        Ok(r) => {
            let events: Vec<String> = r.events.iter().map(carom::events::csv_line).collect();
            format!(
                "{:?} {:?} {:?} {} {} {:?} {} {:?} {}",
                r.facts,
                r.foul,
                r.points,
                r.turn_over,
                r.next_player,
                r.ball_in_hand,
                r.game_over,
                r.winner,
                events.join("\n")
            )
        }
    }
}

#[test]
fn a_batch_equals_one_by_one_on_one_and_two_threads() {
    let g = Game::new(GameKind::NineBall, 5);
    // 40 breaks across aims and spins, one out of range (an error in its slot).
    let mut shots: Vec<Shot> = (0..39)
        .map(|k| Shot {
            speed: 4.0 + 0.1 * k as f64,
            aim: -2.0 + 0.1 * k as f64,
            english: 0.01 * (k % 7) as f64,
            follow: -0.02 * (k % 5) as f64,
            elevation: 0.0,
        })
        .collect();
    shots.push(Shot::new(f64::NAN, 0.0));
    let alone: Vec<String> = shots
        .iter()
        .map(|s| key(&g.clone().shoot(s, None)))
        .collect();
    for threads in [1, 2] {
        let batch = simulate_shots(&g, &shots, None, threads).unwrap();
        let keys: Vec<String> = batch.iter().map(key).collect();
        assert_eq!(keys, alone, "{threads} threads");
    }
    assert!(alone[39].contains("speed"));
    // The game itself did not move.
    assert_eq!(g, Game::new(GameKind::NineBall, 5));
}
