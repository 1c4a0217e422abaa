//! The full player: deterministic from its seed, a safety where no pot is worth it,
//! the wide-window pot before the thin one under noise, and a game of each kind played
//! without a refused shot (rates are measurements, in docs/games.md, not asserted).

use carom_games::agent::{play_game, run_rack, Agent, Intent, Match, Noise, THRESHOLD};
use carom_games::rules::Group;
use carom_games::{Game, GameKind};

const X0: f64 = 0.1524;
const X1: f64 = 0.1524 + 2.54;
const Y0: f64 = 0.1524;
const Y1: f64 = 0.1524 + 1.27;
const XM: f64 = X0 + 1.27;

#[test]
fn the_same_seed_plays_the_same_rack() {
    let play = |seed| {
        let mut a = Agent::new(Some(Noise::PRO), seed);
        let r = run_rack(GameKind::NineBall, 3, &mut a).unwrap();
        (r.shots, r.run_out, r.last, a.simulated)
    };
    assert_eq!(play(7), play(7));
}

#[test]
fn where_no_pot_is_worth_it_the_player_plays_safe() {
    // The 1 frozen on the bottom cushion a third of the way down the table, the 2
    // frozen between it and the near corner, the cue ball in the far top corner:
    // every pot is a long thin one off a cushion or into the far corner past the 9,
    // not worth it at an amateur's aim.
    let r = 0.028575;
    let g = Game::layout(
        GameKind::NineBall,
        &[
            (0, [X1 - 0.15, Y0 + 0.15]),
            (1, [X0 + 0.85, Y1 - r]),
            (9, [X0 + 1.6, Y1 - 0.4]),
            (2, [X0 + 0.55, Y1 - r]),
        ],
        0,
    )
    .unwrap();
    let mut agent = Agent::new(Some(Noise::AMATEUR), 1);
    let d = agent.plan(&g);
    // The opponent's chance it leaves, judged over sampled executions: a probability.
    assert_eq!(d.intent, Intent::Safety);
    assert!(
        d.estimate.is_some_and(|e| (0.0..=1.0).contains(&e)),
        "{d:?}"
    );
    let mut h = g.clone();
    let r = d.play(&mut h).unwrap();
    assert_eq!(r.foul, None, "{}", r.verdict(g.kind()));
    assert!(r.facts.pocketed.is_empty(), "{}", r.verdict(g.kind()));
    assert_eq!(r.facts.first_contact, Some(1));
    assert!(r.turn_over);
}

#[test]
fn under_noise_the_wide_window_pot_wins_over_the_thin_one() {
    // Eight-ball, solids to shoot: the 1 straight in, 0.25 m from the top-right
    // pocket with the cue ball 0.35 m behind it; the 2 a thin cut across the table.
    let d = |k: f64| [X1 - k * 0.894, Y0 + k * 0.447];
    let mut g = Game::layout(
        GameKind::EightBall,
        &[
            (0, d(0.6)),
            (1, d(0.25)),
            (2, [X0 + 0.5, Y1 - 0.1]),
            (8, [X0 + 0.4, Y0 + 0.3]),
            (9, [XM, Y1 - 0.3]),
        ],
        0,
    )
    .unwrap();
    g.state.groups = Some([Group::Solids, Group::Stripes]);
    let mut agent = Agent::new(Some(Noise::AMATEUR), 4);
    let d = agent.plan(&g);
    // A pot is played for itself only when its sampled chance reaches the threshold.
    assert_eq!(d.intent, Intent::Pot);
    assert!(
        d.estimate.is_some_and(|e| (THRESHOLD..=1.0).contains(&e)),
        "{d:?}"
    );
    let r = g.clone().shoot(&d.shot, d.call).unwrap();
    assert_eq!(r.facts.first_contact, Some(1), "{}", r.verdict(g.kind()));
    assert!(r.facts.is_pocketed(1));
}

#[test]
fn each_game_is_played_without_a_refused_shot() {
    let agents = || [Agent::new(None, 1), Agent::new(None, 2)];
    // Nine-ball without noise: the rack is played to its end.
    let m = play_game(GameKind::NineBall, 2, &mut agents(), 200).unwrap();
    assert!(m.finished && m.winner.is_some(), "{m:?}");
    record_is_consistent(&m, GameKind::NineBall);
    for (kind, shots) in [(GameKind::EightBall, 12), (GameKind::Snooker, 8)] {
        let mut a = [
            Agent::new(Some(Noise::PRO), 1),
            Agent::direct(Some(Noise::PRO), 2),
        ];
        let m = play_game(kind, 3, &mut a, shots).unwrap();
        assert!(m.shots > 0 && m.shots <= shots, "{m:?}");
        record_is_consistent(&m, kind);
    }
    let mut a = Agent::new(Some(Noise::PRO), 1);
    let r = run_rack(GameKind::ThreeCushion, 1, &mut a).unwrap();
    assert!(r.decisions >= 1 && r.points >= 0);
}

/// A match's record has a row a shot, a pool game's break first (snooker's break-off
/// is a safety); a shot that kept the turn is followed by the same player's; an
/// estimate is a probability.
fn record_is_consistent(m: &Match, kind: GameKind) {
    assert_eq!(m.played.len(), m.shots, "{m:?}");
    let first = if kind.is_pool() {
        Intent::Break
    } else {
        Intent::Safety
    };
    assert_eq!(m.played[0].intent, first);
    for w in m.played.windows(2) {
        if w[0].kept_turn {
            assert_eq!(w[1].player, w[0].player, "{m:?}");
        }
        assert_ne!(w[1].intent, Intent::Break);
    }
    for p in &m.played {
        if let Some(e) = p.estimate {
            assert!((0.0..=1.0).contains(&e), "{p:?}");
        }
    }
}
