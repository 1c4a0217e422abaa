//! A batch of shots equals shooting them one by one, on one thread and on two.

use carom_games::batch::{simulate_shots, Batch};
use carom_games::{Game, GameKind, Shot, ShotResult};

/// Everything a result says, with the event log as the CSV lines it writes (its NaN
/// fields make rows unequal to themselves as numbers).
fn key(r: &Result<ShotResult, String>) -> String {
    match r {
        Err(e) => e.clone(),
        Ok(r) => {
            let events: Vec<String> = r.events.iter().map(carom::event_log::csv_line).collect();
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

#[test]
fn a_kept_batch_equals_one_by_one_from_position_to_position() {
    // One batch simulator for a nine-ball break, the position after it, a snooker
    // break (another table) and the nine-ball break again, shorter: each batch's
    // results are those of shooting its shots one by one, whatever the threads kept
    // from the batches before.
    let nine = Game::new(GameKind::NineBall, 5);
    let mut after = nine.clone();
    after.shoot(&Shot::new(7.0, 0.3), None).unwrap();
    let snooker = Game::new(GameKind::Snooker, 2);
    let shots: Vec<Shot> = (0..24)
        .map(|k| Shot {
            speed: 1.0 + 0.25 * k as f64,
            aim: -3.0 + 15.0 * k as f64,
            english: 0.02 * (k % 5) as f64,
            follow: -0.03 * (k % 3) as f64,
            elevation: 0.0,
        })
        .collect();
    for threads in [1, 2] {
        let mut batch = Batch::new(threads).unwrap();
        for (g, n) in [(&nine, 24), (&after, 24), (&snooker, 24), (&nine, 9)] {
            let alone: Vec<String> = shots[..n]
                .iter()
                .map(|s| key(&g.clone().shoot(s, None)))
                .collect();
            let kept: Vec<String> = batch
                .simulate(g, &shots[..n], None)
                .iter()
                .map(key)
                .collect();
            assert_eq!(kept, alone, "{threads} threads, {n} shots");
        }
    }
}

#[test]
fn the_nine_on_a_real_break_wins_and_on_a_foul_is_spotted() {
    // WPA nine-ball: the 9 pocketed on a legal break wins for the breaker; pocketed on
    // a foul it is spotted and the game goes on. Breaks over seeds, speeds and aims;
    // the rule must hold on every one that drops the 9, and some must.
    let mut seen = 0;
    for seed in 0..6 {
        let g = Game::new(GameKind::NineBall, seed);
        let shots: Vec<Shot> = (0..120)
            .map(|k| Shot {
                speed: 5.0 + 0.05 * (k % 40) as f64,
                aim: -1.5 + 0.025 * k as f64,
                english: 0.0,
                follow: 0.1 * ((k % 3) as f64 - 1.0),
                elevation: 0.0,
            })
            .collect();
        for r in simulate_shots(&g, &shots, None, 2)
            .unwrap()
            .into_iter()
            .flatten()
        {
            if !r.facts.is_pocketed(9) {
                continue;
            }
            seen += 1;
            if r.foul.is_none() {
                assert!(r.game_over);
                assert_eq!(r.winner, Some(0));
            } else {
                assert!(!r.game_over);
            }
        }
    }
    assert!(seen > 0, "no break of 720 dropped the 9");
}
