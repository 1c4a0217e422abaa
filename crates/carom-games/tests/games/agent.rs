//! The search player: it pots a straight-in drill, places the cue ball in hand where
//! the rules allow, decides the same for the same seed, and its execution noise has
//! the documented spread. The rules' "which balls may be met first" follows the rules
//! text.

use carom_games::agent::{Agent, Intent, Noise};
use carom_games::rules::{self, Group, On, Placement};
use carom_games::{Game, GameKind, Shot};

// The 9-ft table's playing surface (WPA 100 x 50 in) inside its 6-in rail.
const X0: f64 = 0.1524;
const X1: f64 = 0.1524 + 2.54;
const Y0: f64 = 0.1524;
const Y1: f64 = 0.1524 + 1.27;

#[test]
fn on_a_straight_in_drill_the_agent_pots_the_ball() {
    // Cue ball, the 1 and the top-right corner on one line, 0.6 m apart: a full hit
    // any player makes; the 9 far away, out of the path.
    let d = |k: f64| [X1 - k, Y0 + 0.5 * k];
    let g = Game::layout(
        GameKind::NineBall,
        &[(0, d(1.2)), (1, d(0.6)), (9, [X0 + 0.3, Y1 - 0.2])],
        0,
    )
    .unwrap();
    let mut agent = Agent::new(None, 1);
    let d = agent.choose(&g);
    assert_eq!(d.place, None, "no ball in hand");
    // Without noise its one execution is the shot itself, which pots.
    assert_eq!((d.intent, d.estimate), (Intent::Pot, Some(1.0)));
    let mut h = g.clone();
    let r = d.play(&mut h).unwrap();
    assert_eq!(r.foul, None);
    assert!(r.facts.is_pocketed(1), "{:?}", r.facts.pocketed);
    assert!(!r.turn_over);
}

#[test]
fn with_ball_in_hand_the_agent_places_the_cue_ball_legally_and_pots() {
    // After a foul: ball in hand anywhere, the 3 to pot, the 9 on the table.
    let mut g = Game::layout(
        GameKind::NineBall,
        &[
            (0, [X0 + 0.2, Y0 + 0.2]),
            (3, [X0 + 1.7, Y0 + 0.5]),
            (9, [X0 + 0.9, Y1 - 0.3]),
        ],
        0,
    )
    .unwrap();
    g.state.ball_in_hand = Some(Placement::Anywhere);
    let mut agent = Agent::new(None, 2);
    let d = agent.choose(&g);
    let [x, y] = d.place.expect("a place for the cue ball in hand");
    let mut h = g.clone();
    h.place_cue_ball(x, y)
        .expect("the place is legal and clear");
    let r = h.shoot(&d.shot, d.call).unwrap();
    assert_eq!(r.foul, None);
    assert!(r.facts.is_pocketed(3), "{:?}", r.facts);

    // The break: ball in hand behind the head string (a quarter of the length from the
    // head cushion), and the shot meets the 1 (the apex ball) first.
    let g = Game::new(GameKind::NineBall, 4);
    let d = agent.choose(&g);
    assert_eq!((d.intent, d.estimate), (Intent::Break, None));
    let [x, _] = d.place.expect("the breaker places the cue ball");
    assert!(x <= X0 + 0.25 * 2.54);
    let mut h = g.clone();
    let r = d.play(&mut h).unwrap();
    assert_eq!(r.facts.first_contact, Some(1));
}

#[test]
fn the_same_seed_gives_the_same_decisions_another_seed_other_noise() {
    let g = Game::layout(
        GameKind::NineBall,
        &[
            (0, [X0 + 0.5, Y0 + 0.6]),
            (1, [X0 + 1.2, Y0 + 0.4]),
            (9, [X1 - 0.5, Y1 - 0.3]),
        ],
        0,
    )
    .unwrap();
    let run = |seed| {
        let mut a = Agent::new(Some(Noise::AMATEUR), seed);
        [a.choose(&g), a.choose(&g)]
    };
    assert_eq!(run(5), run(5));
    assert_ne!(run(5)[0].shot, run(6)[0].shot);
    // Without noise the plan is the decision, whatever the seed.
    assert_eq!(
        Agent::new(None, 5).choose(&g),
        Agent::new(None, 9).choose(&g)
    );
}

#[test]
fn noise_has_the_documented_spread() {
    // 4000 draws: a sample mean lies within 4 standard errors (sigma / sqrt(n)) of the
    // shot's number, a sample standard deviation within 4 of its relative standard
    // error, 1 / sqrt(2 (n - 1)) = 1.1 % for a normal sample. Each bound fails by
    // chance with probability about 6e-5.
    let n = 4000;
    let noise = Noise {
        aim: 0.5,
        speed: 0.05,
        english: 0.04,
        follow: 0.06,
    };
    let base = Shot {
        speed: 2.0,
        aim: 30.0,
        english: 0.1,
        follow: -0.1,
        elevation: 0.0,
    };
    let mut a = Agent::new(Some(noise), 11);
    let draws: Vec<Shot> = (0..n).map(|_| a.perturb(base, noise)).collect();
    let check = |name: &str, v: Vec<f64>, mean: f64, sd: f64| {
        let m = v.iter().sum::<f64>() / n as f64;
        let s = (v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1) as f64).sqrt();
        let se = sd / (n as f64).sqrt();
        assert!((m - mean).abs() < 4.0 * se, "{name}: mean {m} vs {mean}");
        let rel = 1.0 / (2.0 * (n as f64 - 1.0)).sqrt();
        assert!((s / sd - 1.0).abs() < 4.0 * rel, "{name}: sd {s} vs {sd}");
    };
    check("aim", draws.iter().map(|s| s.aim).collect(), 30.0, 0.5);
    // Speed errors are relative: 5 % of 2 m/s.
    check("speed", draws.iter().map(|s| s.speed).collect(), 2.0, 0.1);
    check(
        "english",
        draws.iter().map(|s| s.english).collect(),
        0.1,
        0.04,
    );
    check(
        "follow",
        draws.iter().map(|s| s.follow).collect(),
        -0.1,
        0.06,
    );
    assert!(draws.iter().all(|s| s.check().is_ok()));
    assert!(Noise { aim: -1.0, ..noise }
        .check()
        .unwrap_err()
        .contains("noise.aim"));
    assert!(Noise {
        speed: f64::NAN,
        ..noise
    }
    .check()
    .is_err());
}

#[test]
fn the_balls_that_may_be_met_first_follow_the_rules() {
    // WPA 9- and 10-ball: the lowest-numbered ball on the table.
    let mut s = rules::State::start(GameKind::NineBall, vec![4, 2, 9, 7]);
    assert_eq!(rules::rules(GameKind::NineBall).first_contacts(&s), vec![2]);
    s.game = GameKind::TenBall;
    assert_eq!(rules::rules(GameKind::TenBall).first_contacts(&s), vec![2]);
    // WPA 8-ball: an open table after the break, any ball but the 8; then the
    // shooter's group; the 8 once the group is cleared.
    let eight = rules::rules(GameKind::EightBall);
    let mut s = rules::State::start(GameKind::EightBall, vec![3, 8, 12, 1]);
    s.shots = 3;
    assert_eq!(eight.first_contacts(&s), vec![1, 3, 12]);
    s.groups = Some([Group::Stripes, Group::Solids]);
    assert_eq!(eight.first_contacts(&s), vec![12]);
    s.on_table = [8, 2].into_iter().collect();
    assert_eq!(eight.first_contacts(&s), vec![8]);
    // WPBSA snooker: a red when a red is on (reds are 1 to 15), the colours (16 to 21)
    // after a red, then the next colour in order.
    let snooker = rules::rules(GameKind::Snooker);
    let mut s = rules::State::start(GameKind::Snooker, vec![1, 2, 16, 21]);
    assert_eq!(snooker.first_contacts(&s), vec![1, 2]);
    s.on = Some(On::Colour);
    assert_eq!(snooker.first_contacts(&s), vec![16, 21]);
    s.on = Some(On::Next(21));
    assert_eq!(snooker.first_contacts(&s), vec![21]);
}
