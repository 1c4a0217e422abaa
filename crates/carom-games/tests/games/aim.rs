//! Aiming against geometry and the engine: a straight-in shot on the ghost-ball line
//! pots at any reasonable speed; a cut with english, where throw turns the object ball
//! off the ghost-ball line, misses on that line and pots on the solved one; a bank the
//! solver finds pots.

use carom_games::aim::{ghost_aim, ghost_aim_at_pocket, solve, solve_bank, Route};
use carom_games::{Game, GameKind, Shot};

const X0: f64 = 0.1524;
const X1: f64 = 0.1524 + 2.54;
const Y0: f64 = 0.1524;
const Y1: f64 = 0.1524 + 1.27;
const R: f64 = 0.028575;

fn pocket(g: &Game, name: &str) -> usize {
    g.table.pocket_index(name).unwrap()
}

fn pots(g: &Game, shot: Shot, ball: u32, pocket: usize) -> bool {
    let mut h = g.clone();
    let r = h.shoot(&shot, None).unwrap();
    r.facts
        .pocketed
        .iter()
        .any(|p| p.1 == ball && p.2 as usize == pocket)
}

#[test]
fn a_straight_in_shot_on_the_ghost_ball_line_pots_at_several_speeds() {
    // Cue ball, object ball and pocket on one line, not an axis: the ghost-ball aim is
    // the line itself (a full hit), whatever the speed.
    let d = |k: f64| [X1 - k, Y0 + 0.5 * k];
    let g = Game::layout(GameKind::NineBall, &[(0, d(1.2)), (1, d(0.6))], 0).unwrap();
    let k = pocket(&g, "top-right");
    let aim = ghost_aim_at_pocket(&g, 1, k).unwrap();
    // Along the line to the pocket's centre, (x1 + a, y0 - a): within the angle the
    // ball's offset from that centre line subtends (the pocket centre lies slightly off
    // the line through the two balls; a few tenths of a degree).
    let line = (-0.5f64).atan2(1.0).to_degrees();
    assert!((aim - line).abs() < 3.0, "{aim} vs {line}");
    for speed in [1.0, 2.0, 3.0, 4.0] {
        assert!(pots(&g, Shot::new(speed, aim), 1, k), "speed {speed}");
    }
    // Without a pocket: at the ball's centre.
    assert!((ghost_aim(&g, 1, None).unwrap() - line).abs() < 1e-9);
}

/// A 35-degree cut into the top-right corner from 1.3 m, struck at 2 m/s with
/// english: throw (the object ball dragged along the cue ball's surface by ball-ball
/// friction, about a degree or two here) moves the object ball off the ghost-ball
/// line by several centimetres at the pocket, more than its room to drop.
fn cut() -> (Game, usize, f64, f64) {
    let layout0 = Game::layout(GameKind::NineBall, &[(0, [X0 + 0.3, Y1 - 0.3])], 0).unwrap();
    let p = layout0.table.pockets[pocket(&layout0, "top-right")].center;
    let o = [X1 - 1.1, Y0 + 0.7];
    let d = (p[0] - o[0]).hypot(p[1] - o[1]);
    let u = [(p[0] - o[0]) / d, (p[1] - o[1]) / d];
    let ghost = [o[0] - 2.0 * R * u[0], o[1] - 2.0 * R * u[1]];
    let (s, c) = 35f64.to_radians().sin_cos();
    // The cue ball comes in 35 degrees off the object ball's line, from 0.5 m.
    let v = [c * u[0] + s * u[1], -s * u[0] + c * u[1]];
    let cue = [ghost[0] - 0.5 * v[0], ghost[1] - 0.5 * v[1]];
    let g = Game::layout(GameKind::NineBall, &[(0, cue), (1, o)], 0).unwrap();
    let k = pocket(&g, "top-right");
    (g, k, 2.0, 0.5)
}

#[test]
fn the_solved_aim_pots_a_cut_with_english_that_the_ghost_ball_aim_misses() {
    let (g, k, speed, english) = cut();
    let ghost = ghost_aim_at_pocket(&g, 1, k).unwrap();
    let shot = |aim| Shot {
        speed,
        aim,
        english,
        follow: 0.0,
        elevation: 0.0,
    };
    assert!(
        !pots(&g, shot(ghost), 1, k),
        "the ghost-ball aim pots: no throw to see"
    );
    let s = solve(&g, 1, k, speed, english, 0.0).expect("an aim pots the cut");
    assert_eq!(s.route, Route::Direct);
    assert!(pots(&g, shot(s.aim), 1, k));
    // The correction is a throw's size: some tenths of a degree to a few degrees.
    assert!((s.aim - ghost).abs() > 0.05 && (s.aim - ghost).abs() < SWEEP_LIMIT);
}

const SWEEP_LIMIT: f64 = carom_games::aim::SWEEP;

#[test]
fn a_bank_found_by_the_solver_pots() {
    // The 1 a foot from the top cushion, the bottom side pocket its target: the bank
    // solver's shot sends it off a cushion and into that pocket.
    let xm = X0 + 1.27;
    let g = Game::layout(
        GameKind::NineBall,
        &[(0, [xm + 0.45, Y0 + 0.95]), (1, [xm + 0.3, Y0 + 0.3])],
        0,
    )
    .unwrap();
    let k = pocket(&g, "bottom-side");
    let s = solve_bank(&g, 1, k, 3.0, 0.0, 0.0).expect("a bank pots it");
    assert!(matches!(s.route, Route::Bank(_)));
    let mut h = g.clone();
    let r = h.shoot(&Shot::new(3.0, s.aim), None).unwrap();
    let drop = r
        .facts
        .pocketed
        .iter()
        .find(|p| p.1 == 1 && p.2 as usize == k)
        .expect("potted");
    // A bank: the 1 met a cushion before it dropped.
    assert!(r.facts.cushions.iter().any(|c| c.1 == 1 && c.0 < drop.0));
}

#[test]
fn no_aim_pots_a_ball_too_far_for_the_speed() {
    // A 0.3 m/s cue sends the cue ball off at 2 (0.3) / 1.3 = 0.46 m/s; all of that
    // speed given to the 1 would roll it at most 0.46^2 / (2 * 0.01 * 9.81) = 1.1 m
    // (sliding only loses more), and the top-right pocket is 2.3 m away.
    let g = Game::layout(
        GameKind::NineBall,
        &[(0, [X0 + 0.2, Y0 + 0.6]), (1, [X0 + 0.4, Y0 + 0.6])],
        0,
    )
    .unwrap();
    let k = pocket(&g, "top-right");
    assert_eq!(solve(&g, 1, k, 0.3, 0.0, 0.0), None);
}

#[test]
fn bad_input_is_an_error_naming_it_not_none() {
    let g = Game::layout(
        GameKind::NineBall,
        &[(0, [X0 + 0.5, Y0 + 0.6]), (1, [X0 + 1.0, Y0 + 0.6])],
        0,
    )
    .unwrap();
    use carom_games::aim::{ghost_aim_checked, solve_checked};
    let e = ghost_aim_checked(&g, 5, None).unwrap_err();
    assert!(e.contains("ball 5 is not on the table"), "{e}");
    let e = ghost_aim_checked(&g, 0, None).unwrap_err();
    assert!(
        e.contains("ball 0 is the ball the player to shoot strikes"),
        "{e}"
    );
    let e = ghost_aim_checked(&g, 1, Some(6)).unwrap_err();
    assert!(e.contains("pocket 6 does not exist"), "{e}");
    let e = solve_checked(&g, 1, 2, f64::NAN, 0.0, 0.0).unwrap_err();
    assert!(e.contains("speed: must be finite"), "{e}");
    let e = solve_checked(&g, 1, 2, 2.0, 0.8, 0.8).unwrap_err();
    assert!(e.contains("english"), "{e}");
    // Good input: the same answers as the unchecked functions.
    assert_eq!(
        ghost_aim_checked(&g, 1, Some(2)).ok(),
        ghost_aim_at_pocket(&g, 1, 2)
    );
    let c = Game::new(GameKind::SumToThree, 1);
    let e = ghost_aim_checked(&c, 1, Some(0)).unwrap_err();
    assert!(e.contains("has no pockets"), "{e}");
}
