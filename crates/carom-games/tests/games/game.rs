//! Games played with real shots from drill positions: the rules' verdicts on what the
//! engine did, ball in hand, calls, and save/load resuming to the bit.

use carom_games::rules::{Call, Placement};
use carom_games::{Game, GameKind, Shot};

/// A 9-ft table's noses: x0 = y0 = 6 in rail, x1 = x0 + 100 in, y1 = y0 + 50 in.
const X0: f64 = 0.1524;
const X1: f64 = 0.1524 + 2.54;
const Y0: f64 = 0.1524;
const CY: f64 = 0.1524 + 0.635;

fn rule(r: &carom_games::ShotResult) -> String {
    r.foul.as_ref().map_or("legal".into(), |f| f.rule.clone())
}

#[test]
fn a_cue_ball_into_a_corner_is_a_scratch_and_ball_in_hand_anywhere() {
    // The 1 far off the line; the cue ball sent down the diagonal into the top-left
    // corner pocket.
    let mut g = Game::layout(
        GameKind::NineBall,
        &[(0, [X0 + 0.5, Y0 + 0.5]), (1, [X1 - 0.3, CY])],
        0,
    )
    .unwrap();
    let r = g.shoot(&Shot::new(2.0, -135.0), None).unwrap();
    assert_eq!(rule(&r), "WPA 6.1 cue ball scratch");
    assert_eq!(r.next_player, 1);
    assert_eq!(r.ball_in_hand, Some(Placement::Anywhere));
    // The cue ball is back on the table, in hand.
    assert!(g.balls.iter().any(|b| b.0 == 0));
    g.place_cue_ball(X0 + 1.0, CY + 0.3).unwrap();
}

#[test]
fn hitting_the_five_before_the_lowest_ball_is_wrong_ball_first() {
    let cue = [X0 + 0.6, CY];
    let mut g = Game::layout(
        GameKind::NineBall,
        &[(0, cue), (5, [X0 + 1.2, CY]), (2, [X0 + 1.2, CY + 0.4])],
        0,
    )
    .unwrap();
    let r = g.shoot(&Shot::new(2.0, 0.0), None).unwrap();
    assert_eq!(r.facts.first_contact, Some(5));
    assert_eq!(rule(&r), "WPA 6.2 wrong ball first");
    assert_eq!(g.state.player, 1);
}

#[test]
fn a_soft_touch_that_reaches_no_cushion_is_no_rail() {
    // The cue ball leaves at 2 V / 1.3 = 0.46 m/s; with rolling resistance 0.0981 m/s^2
    // no ball can travel the 0.6 m to a cushion (a rolling ball at 0.46 m/s stops in
    // 1.1 m only if undisturbed and gives the 1 less than its speed).
    let mut g = Game::layout(
        GameKind::NineBall,
        &[(0, [X0 + 1.0, CY]), (1, [X0 + 1.2, CY])],
        0,
    )
    .unwrap();
    let r = g.shoot(&Shot::new(0.3, 0.0), None).unwrap();
    assert_eq!(r.facts.first_contact, Some(1));
    assert!(r.facts.cushions.is_empty());
    assert_eq!(rule(&r), "WPA 6.3 no rail after contact");
}

#[test]
fn a_one_nine_combination_into_the_corner_wins_nine_ball() {
    // Cue, 1 and 9 on the diagonal to the top-right pocket: a straight combination.
    let d = |k: f64| [X1 - k, Y0 + k];
    let mut g = Game::layout(
        GameKind::NineBall,
        &[(0, d(0.9)), (1, d(0.55)), (9, d(0.3))],
        1,
    )
    .unwrap();
    let r = g.shoot(&Shot::new(3.0, -45.0), None).unwrap();
    assert_eq!(r.facts.first_contact, Some(1));
    assert!(r.facts.is_pocketed(9), "{:?}", r.facts.pocketed);
    assert_eq!(rule(&r), "legal");
    assert!(r.game_over);
    assert_eq!(r.winner, Some(1));
}

#[test]
fn the_eight_pocketed_before_the_group_loses() {
    let d = |k: f64| [X1 - k, Y0 + k];
    let mut g = Game::layout(
        GameKind::EightBall,
        &[(0, d(0.8)), (8, d(0.4)), (3, [X0 + 0.5, CY])],
        0,
    )
    .unwrap();
    g.state.groups = Some([
        carom_games::rules::Group::Solids,
        carom_games::rules::Group::Stripes,
    ]);
    // The open-table rule is not what fails here: the solids' 3 is still on the table,
    // so the 8 is not the shooter's ball, and potting it loses.
    let r = g.shoot(&Shot::new(2.0, -45.0), None).unwrap();
    assert!(r.facts.is_pocketed(8));
    assert!(r.game_over);
    assert_eq!(r.winner, Some(1));
}

#[test]
fn snooker_a_red_potted_then_on_a_colour() {
    // A red straight into the top-right pocket: one point, a colour on next.
    let (x1, y0) = (0.1524 + 3.569, 0.1524);
    let d = |k: f64| [x1 - k, y0 + k];
    let mut g = Game::layout(
        GameKind::Snooker,
        &[(0, d(0.8)), (4, d(0.4)), (21, [x1 - 0.324, y0 + 0.889])],
        0,
    )
    .unwrap();
    let r = g.shoot(&Shot::new(2.0, -45.0), None).unwrap();
    assert!(r.facts.is_pocketed(4));
    assert_eq!(r.points, [1, 0]);
    assert_eq!(g.state.on, Some(carom_games::rules::On::Colour));
}

#[test]
fn the_break_places_behind_the_head_string_only() {
    let mut g = Game::new(GameKind::NineBall, 2);
    assert_eq!(g.state.ball_in_hand, Some(Placement::BehindHeadString));
    let head = X0 + 0.635;
    assert!(g
        .place_cue_ball(head + 0.01, CY)
        .unwrap_err()
        .contains("head string"));
    assert!(g
        .place_cue_ball(f64::NAN, CY)
        .unwrap_err()
        .contains("playing surface"));
    g.place_cue_ball(head - 0.2, CY + 0.1).unwrap();
    // Not in hand after a legal break.
    let mut h = Game::layout(
        GameKind::NineBall,
        &[(0, [X0 + 0.5, CY]), (1, [X0 + 1.5, CY])],
        0,
    )
    .unwrap();
    assert!(h
        .place_cue_ball(X0 + 0.3, CY)
        .unwrap_err()
        .contains("not in hand"));
    // Overlapping another ball.
    h.state.ball_in_hand = Some(Placement::Anywhere);
    let e = h.place_cue_ball(X0 + 1.5 + 0.03, CY).unwrap_err();
    assert!(e.contains("overlaps ball 1"), "{e}");
    assert!(!e.contains('\n'));
}

#[test]
fn ten_ball_needs_a_call_after_the_break() {
    let mut g = Game::layout(
        GameKind::TenBall,
        &[(0, [X0 + 0.5, CY]), (1, [X0 + 1.5, CY])],
        0,
    )
    .unwrap();
    let e = g.shoot(&Shot::new(2.0, 0.0), None).unwrap_err();
    assert!(e.starts_with("call:"), "{e}");
    let e = g
        .shoot(&Shot::new(2.0, 0.0), Some(Call::Pot { ball: 1, pocket: 9 }))
        .unwrap_err();
    assert!(e.contains("pocket 9"), "{e}");
    g.shoot(&Shot::new(2.0, 0.0), Some(Call::Safety)).unwrap();
}

fn snapshot(g: &Game, r: &carom_games::ShotResult) -> (String, Vec<String>) {
    let lines = r.events.iter().map(carom::event_log::csv_line).collect();
    (g.save(), lines)
}

#[test]
fn a_saved_game_resumes_to_the_bit() {
    for game in GameKind::ALL {
        let mut g = Game::new(game, 11);
        let break_shot = Shot {
            speed: 6.0,
            aim: 0.7,
            english: 0.1,
            follow: -0.1,
            elevation: 2.0,
        };
        let _ = g.shoot(&break_shot, None).unwrap();
        let text = g.save();
        let mut h = Game::load(&text).unwrap();
        assert_eq!(h, g, "{game:?}");
        let next = Shot {
            speed: 3.0,
            aim: 123.4,
            english: -0.2,
            follow: 0.3,
            elevation: 0.0,
        };
        let call = match game {
            GameKind::TenBall => Some(Call::Safety),
            _ => None,
        };
        // Eight-ball may need the 8 called; every other state takes the same call.
        let a = g.shoot(&next, call);
        let b = h.shoot(&next, call);
        match (a, b) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a.facts, b.facts);
                assert_eq!(snapshot(&g, &a), snapshot(&h, &b));
            }
            (Err(a), Err(b)) => assert_eq!(a, b),
            _ => panic!("{game:?}: one shot failed"),
        }
    }
}

#[test]
fn bad_game_files_are_one_line() {
    let g = Game::new(GameKind::NineBall, 1);
    let good = g.save();
    for (bad, what) in [
        ("{", "game file"),
        (
            &good.replace("\"nine-ball\"", "\"snooker-ish\"") as &str,
            "game file",
        ),
        (&good.replace("\"version\": 1", "\"version\": 7"), "version"),
        (&good.replace("\"player\": 0", "\"player\": 5"), "player"),
    ] {
        let e = Game::load(bad).unwrap_err();
        assert!(e.contains(what), "{e}");
        assert!(!e.contains('\n'), "{e}");
    }
}
