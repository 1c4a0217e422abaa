//! One shot in each of many games: equal to shooting them one by one on one and two
//! threads; the call a shot makes for itself is what the rules accept and what it did.

use carom_games::many::{auto_call, check, shoot_each};
use carom_games::rules::Call;
use carom_games::{Game, GameKind, Shot, ShotResult};

const X0: f64 = 0.1524;
const X1: f64 = 0.1524 + 2.54;
const Y0: f64 = 0.1524;
const Y1: f64 = 0.1524 + 1.27;

/// A result as text, the event log as its CSV lines (NaN fields are unequal to
/// themselves as numbers).
fn key(r: &ShotResult) -> String {
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

fn shots(n: usize) -> Vec<Shot> {
    (0..n)
        .map(|k| Shot {
            speed: 2.0 + 0.7 * k as f64,
            aim: -3.0 + 47.0 * k as f64,
            english: 0.05 * (k % 3) as f64,
            follow: -0.1 * (k % 4) as f64,
            elevation: 0.0,
        })
        .collect()
}

#[test]
fn each_game_shoots_its_shot_as_it_would_alone_on_any_thread_count() {
    let games: Vec<Game> = [
        GameKind::NineBall,
        GameKind::TenBall,
        GameKind::EightBall,
        GameKind::Snooker,
        GameKind::ThreeCushion,
        GameKind::SumToThree,
    ]
    .iter()
    .enumerate()
    .map(|(k, &g)| Game::new(g, k as u64))
    .collect();
    let shots = shots(games.len());
    let mut alone = games.clone();
    let expected: Vec<(Option<Call>, String, String)> = alone
        .iter_mut()
        .zip(&shots)
        .map(|(g, s)| {
            let call = auto_call(g, s).unwrap();
            let r = g.shoot(s, call).unwrap();
            (call, key(&r), g.save())
        })
        .collect();
    for threads in [1, 2] {
        let mut many = games.clone();
        let got: Vec<(Option<Call>, String, String)> = shoot_each(&mut many, &shots, true, threads)
            .unwrap()
            .into_iter()
            .zip(&many)
            .map(|(r, g)| {
                let (call, r) = r.unwrap();
                (call, key(&r), g.save())
            })
            .collect();
        assert_eq!(got, expected, "{threads} threads");
    }
    assert!(shoot_each(&mut games.clone(), &shots[1..], true, 1).is_err());
}

/// Ten-ball after the break: every shot is called (WPA), so a shot that pots the 1
/// calls the 1 in the pocket it drops in, and a shot that pots nothing a safety.
#[test]
fn a_ten_ball_shot_calls_what_it_pots() {
    let d = |k: f64| [X1 - k, Y0 + 0.5 * k];
    let g = Game::layout(
        GameKind::TenBall,
        &[(0, d(1.2)), (1, d(0.6)), (10, [X0 + 0.3, Y1 - 0.2])],
        0,
    )
    .unwrap();
    let top_right = g.table.pocket_index("top-right").unwrap() as u32;
    let aim = carom_games::aim::ghost_aim_at_pocket(&g, 1, top_right as usize).unwrap();
    let pot = Shot::new(2.0, aim);
    assert_eq!(
        auto_call(&g, &pot).unwrap(),
        Some(Call::Pot {
            ball: 1,
            pocket: top_right
        })
    );
    let r = g.clone().shoot(&pot, auto_call(&g, &pot).unwrap()).unwrap();
    assert!(r.foul.is_none() && !r.turn_over, "{r:?}");
    // Away from every ball, slowly: nothing pocketed, a safety.
    let miss = Shot::new(0.3, 153.0);
    assert_eq!(auto_call(&g, &miss).unwrap(), Some(Call::Safety));
    // Nine-ball calls nothing.
    let n = Game::new(GameKind::NineBall, 1);
    assert_eq!(auto_call(&n, &Shot::new(8.0, 0.0)).unwrap(), None);
    // Bad input is refused before simulating.
    assert!(check(&g, &Shot::new(f64::NAN, 0.0), None)
        .unwrap_err()
        .contains("speed"));
    assert!(check(&g, &pot, None).unwrap_err().starts_with("call:"));
    assert!(check(&g, &pot, Some(Call::Pot { ball: 1, pocket: 9 }))
        .unwrap_err()
        .contains("pocket 9 does not exist"));
}
