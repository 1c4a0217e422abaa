//! Aiming through cushions and other balls with the engine in the loop: a bank where
//! no direct pot exists, a kick onto a snookered ball, a combination, and bad requests
//! (no cushion path, a ball not on the table) answered with one line.

use carom_games::aim::{route_guess, solve_route, Route};
use carom_games::candidates::{prospects, shots};
use carom_games::{Game, GameKind, Shot};

const X0: f64 = 0.1524;
const Y0: f64 = 0.1524;
const XM: f64 = X0 + 1.27;
const YM: f64 = Y0 + 0.635;

fn pocket(g: &Game, name: &str) -> usize {
    g.table.pocket_index(name).unwrap()
}

/// The 1 at the table's centre, each of its six direct lines to a pocket blocked by a
/// ball 0.2 m along it; the cue ball up and right of it.
fn boxed_in() -> Game {
    let o = [XM, YM];
    let mut balls = vec![(0, [XM + 0.226, YM - 0.33]), (1, o)];
    let g = Game::layout(GameKind::NineBall, &balls, 0).unwrap();
    for (k, p) in g.table.pockets.iter().enumerate() {
        let d = (p.center[0] - o[0]).hypot(p.center[1] - o[1]);
        let b = [
            o[0] + 0.2 * (p.center[0] - o[0]) / d,
            o[1] + 0.2 * (p.center[1] - o[1]) / d,
        ];
        balls.push((2 + k as u32, b));
    }
    Game::layout(GameKind::NineBall, &balls, 0).unwrap()
}

#[test]
fn a_bank_is_found_where_no_direct_pot_exists_and_it_pots() {
    let g = boxed_in();
    // Every straight line from the 1 to a pocket is blocked.
    assert!(prospects(&g).iter().all(|c| c.route != Route::Direct));
    let list = shots(&g);
    assert!(list.iter().all(|c| c.route != Route::Direct));
    let bank = list
        .iter()
        .find(|c| c.route.kind() == "bank" && c.ball == 1)
        .unwrap_or_else(|| panic!("no bank among {list:?}"));
    assert!(bank.window > 0.0);
    let r = g.clone().shoot(&bank.shot(), None).unwrap();
    let drop = r
        .facts
        .pocketed
        .iter()
        .find(|p| p.1 == 1 && p.2 as usize == bank.pocket)
        .expect("the bank pots the 1");
    assert!(r.facts.cushions.iter().any(|c| c.1 == 1 && c.0 < drop.0));
    assert_eq!(r.facts.first_contact, Some(1));
}

#[test]
fn a_kick_meets_a_snookered_ball_first_and_pots_it() {
    // The 1 near the top-left pocket, the 2 straight between it and the cue ball.
    let g = Game::layout(
        GameKind::NineBall,
        &[
            (0, [X0 + 0.9, Y0 + 0.25]),
            (1, [X0 + 0.12, Y0 + 0.12]),
            (2, [X0 + 0.5, Y0 + 0.185]),
        ],
        0,
    )
    .unwrap();
    let k = pocket(&g, "top-left");
    assert!(prospects(&g)
        .iter()
        .all(|c| !(c.ball == 1 && c.route == Route::Direct)));
    let s = solve_route(&g, 1, k, Route::Kick(3), 3.5, 0.0, 0.0)
        .unwrap()
        .expect("a kick off the bottom cushion");
    let r = g.clone().shoot(&Shot::new(3.5, s.aim), None).unwrap();
    assert_eq!(r.facts.first_contact, Some(1));
    let t = r.facts.first_contact_time().unwrap();
    assert!(r.facts.cushions.iter().any(|c| c.1 == 0 && c.0 < t));
    assert!(r
        .facts
        .pocketed
        .iter()
        .any(|p| p.1 == 1 && p.2 as usize == k));
    assert!(r.foul.is_none());
}

#[test]
fn a_combination_sends_the_nine_in_off_the_one() {
    // Cue ball, 1 and 9 roughly in line with the top-right pocket, slightly bent.
    let p = [X0 + 2.54, Y0];
    let at = |d: f64, off: f64| {
        [
            p[0] - d * 0.894 + off * 0.447,
            p[1] + d * 0.447 + off * 0.894,
        ]
    };
    let g = Game::layout(
        GameKind::NineBall,
        &[(0, at(1.0, 0.03)), (1, at(0.6, 0.0)), (9, at(0.3, 0.0))],
        0,
    )
    .unwrap();
    let k = pocket(&g, "top-right");
    let s = solve_route(&g, 9, k, Route::Combination(1), 3.0, 0.0, 0.0)
        .unwrap()
        .expect("the combination");
    assert_eq!(s.route.kind(), "combination");
    let mut h = g.clone();
    let r = h.shoot(&Shot::new(3.0, s.aim), None).unwrap();
    assert_eq!(r.facts.first_contact, Some(1));
    assert!(
        r.game_over && r.winner == Some(0),
        "{}",
        r.verdict(h.kind())
    );
    assert!(shots(&g)
        .iter()
        .any(|c| c.route == Route::Combination(1) && c.ball == 9));
}

#[test]
fn bad_route_requests_are_one_line_and_change_nothing() {
    let g = Game::layout(
        GameKind::NineBall,
        &[(0, [X0 + 1.0, Y0 + 0.6]), (1, [X0 + 0.5, Y0 + 0.5])],
        0,
    )
    .unwrap();
    let before = g.clone();
    let tl = pocket(&g, "top-left");
    let one_line = |e: String| {
        assert!(!e.contains('\n'), "{e}");
        e
    };
    // Off the top cushion into a top pocket: the mirror image lies inside the table.
    let e = one_line(route_guess(&g, 1, tl, Route::Bank(2)).unwrap_err());
    assert!(e.contains("no path off the top cushion"), "{e}");
    let e = one_line(solve_route(&g, 1, tl, Route::Bank2(2, 0), 3.0, 0.0, 0.0).unwrap_err());
    assert!(e.contains("no path"), "{e}");
    let e = one_line(solve_route(&g, 1, tl, Route::Bank2(1, 1), 3.0, 0.0, 0.0).unwrap_err());
    assert!(e.contains("twice in a row"), "{e}");
    let e = one_line(solve_route(&g, 1, tl, Route::Kick(4), 3.0, 0.0, 0.0).unwrap_err());
    assert!(e.contains("cushion 4 does not exist"), "{e}");
    let e = one_line(solve_route(&g, 5, tl, Route::Bank(3), 3.0, 0.0, 0.0).unwrap_err());
    assert!(e.contains("ball 5 is not on the table"), "{e}");
    let e = one_line(solve_route(&g, 1, tl, Route::Combination(7), 3.0, 0.0, 0.0).unwrap_err());
    assert!(e.contains("ball 7 is not on the table"), "{e}");
    let e = one_line(Route::parse("bank", &[], None).unwrap_err());
    assert!(e.contains("one or two cushions"), "{e}");
    let e = one_line(Route::parse("masse", &[], None).unwrap_err());
    assert!(e.contains("no kind of shot"), "{e}");
    assert_eq!(g, before);
    // A carom table lists no shots.
    assert!(shots(&Game::new(GameKind::ThreeCushion, 1)).is_empty());
}
