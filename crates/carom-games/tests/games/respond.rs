//! The player's answers to the choices the rules offer, each on a constructed
//! position played on the table: the free ball taken when a nominated ball pots, a
//! push-out accepted when it leaves a pot and passed back when it leaves a hidden
//! ball, an illegal eight-ball break re-racked when the table as it lies gives no pot
//! and accepted when it does, the balls replaced after a miss that leaves nothing.

use carom_games::agent::{Agent, Noise, THRESHOLD};
use carom_games::rules::Choice;
use carom_games::{Game, GameKind, Shot, Table};

fn unit(from: [f64; 2], to: [f64; 2]) -> [f64; 2] {
    let d = (to[0] - from[0]).hypot(to[1] - from[1]);
    [(to[0] - from[0]) / d, (to[1] - from[1]) / d]
}

fn along(p: [f64; 2], u: [f64; 2], d: f64) -> [f64; 2] {
    [p[0] + d * u[0], p[1] + d * u[1]]
}

fn degrees(u: [f64; 2]) -> f64 {
    u[1].atan2(u[0]).to_degrees()
}

/// A wall of two balls in front of `hidden`, seen from `eye`: centres 1.1 radii
/// towards the eye and 1.15 radii either side of that line, too close together for a
/// ball to pass, so that no line from near the eye reaches any part of it.
fn wall(hidden: [f64; 2], eye: [f64; 2], r: f64) -> [[f64; 2]; 2] {
    let w = unit(hidden, eye);
    let n = [-w[1], w[0]];
    let front = along(hidden, w, 2.2 * r);
    [along(front, n, 1.15 * r), along(front, n, -1.15 * r)]
}

/// A straight-in pot: the object ball 0.3 m out of the pocket named `pocket` towards
/// the table's centre, the cue ball 0.4 m behind it on the same line; with the
/// direction out of the pocket.
fn straight_in(t: &Table, pocket: &str) -> ([f64; 2], [f64; 2], [f64; 2]) {
    let p = t.pockets[t.pocket_index(pocket).unwrap()].center;
    let u = unit(p, t.center());
    let ball = along(p, u, 0.3);
    (ball, along(ball, u, 0.4), u)
}

#[test]
fn a_free_ball_is_taken_when_a_nominated_ball_pots_and_is_played_legally() {
    // The only red hidden behind a wall of the blue and the pink at the baulk end;
    // the black straight in to the top-right corner. Player 0 rolls the cue ball a
    // little away from the black, striking nothing: a foul that leaves player 1
    // snookered on the red, with the black a straight pot.
    let t = Table::new(GameKind::Snooker.default_table());
    let r = t.balls.radius;
    let (black, cue, u) = straight_in(&t, "top-right");
    let red = [t.rail + 0.5, t.rail + t.width - 0.3];
    let [blue, pink] = wall(red, cue, r);
    let mut g = Game::layout(
        GameKind::Snooker,
        &[(0, cue), (21, black), (1, red), (19, blue), (20, pink)],
        0,
    )
    .unwrap();
    let foul = g.shoot(&Shot::new(0.3, degrees(u)), None).unwrap();
    assert_eq!(foul.facts.first_contact, None);
    assert!(foul.foul.is_some());
    assert_eq!(g.state.player, 1);
    assert!(g.options().contains(&Choice::FreeBall), "{:?}", g.options());

    let mut agent = Agent::new(Some(Noise::PRO), 5);
    let (_, on) = agent.option_chance(&g, Choice::Accept).unwrap();
    let (mine, free) = agent.option_chance(&g, Choice::FreeBall).unwrap();
    assert!(mine);
    assert!(
        free > on && free >= THRESHOLD,
        "free ball {free}, ball on {on}"
    );
    assert_eq!(agent.respond(&g), Some(Choice::FreeBall));

    g.choose(Choice::FreeBall).unwrap();
    let d = agent.choose(&g);
    let r = d.play(&mut g).unwrap();
    assert_eq!(r.foul, None, "{}", r.verdict(GameKind::Snooker));
    assert_ne!(r.facts.first_contact, Some(1), "the free ball, not the red");
    assert!(
        !r.facts.pocketed.is_empty(),
        "{}",
        r.verdict(GameKind::Snooker)
    );
    assert_eq!(g.state.player, 1, "the pot keeps the turn");
}

/// A nine-ball layout where player 0 may push out, pushes out by rolling the cue ball
/// softly along `aim` and leaves the choice to player 1.
fn pushed(balls: &[(u32, [f64; 2])], aim: f64) -> Game {
    let mut g = Game::layout(GameKind::NineBall, balls, 0).unwrap();
    g.state.push_out = true;
    g.choose(Choice::PushOut).unwrap();
    let r = g.shoot(&Shot::new(0.3, aim), None).unwrap();
    assert_eq!(r.foul, None, "{}", r.verdict(GameKind::NineBall));
    assert_eq!(g.state.player, 1);
    assert_eq!(g.options(), vec![Choice::Accept, Choice::PassBack]);
    g
}

#[test]
fn a_push_out_that_leaves_a_pot_is_accepted_and_one_that_hides_the_ball_passed_back() {
    let t = Table::new(GameKind::NineBall.default_table());
    let r = t.balls.radius;
    // The 1 straight in to the bottom-left corner, the push-out rolling the cue ball
    // a little further back along the line.
    let (one, cue, u) = straight_in(&t, "bottom-left");
    let nine = [t.rail + 0.7 * t.length, t.rail + 0.3 * t.width];
    let g = pushed(&[(0, cue), (1, one), (9, nine)], degrees(u));
    let mut agent = Agent::new(Some(Noise::PRO), 3);
    assert_eq!(agent.respond(&g), Some(Choice::Accept));

    // The 1 hidden behind the 2 and the 9 near the foot cushion.
    let one = [t.rail + t.length - 0.25, t.rail + 0.5 * t.width];
    let cue = [t.rail + 0.4, t.rail + 0.45 * t.width];
    let [two, nine] = wall(one, cue, r);
    let g = pushed(&[(0, cue), (1, one), (2, two), (9, nine)], 180.0);
    let (_, mine) = agent.option_chance(&g, Choice::Accept).unwrap();
    assert!(mine < THRESHOLD, "{mine}");
    assert_eq!(agent.respond(&g), Some(Choice::PassBack));
}

#[test]
fn an_illegal_eight_ball_break_is_re_racked_unless_the_table_gives_a_pot() {
    // A gentle break: fewer than four balls reach a cushion, the rack stays packed
    // and no pot is worth it: the player re-racks, breaking itself when its break
    // keeps the turn at least as often as the threshold, else making the offender
    // break again.
    let mut g = Game::new(GameKind::EightBall, 3);
    g.shoot(&Shot::new(1.2, 0.0), None).unwrap();
    assert_eq!(
        g.options(),
        vec![Choice::Accept, Choice::Rerack, Choice::RerackOffender]
    );
    let mut agent = Agent::new(Some(Noise::PRO), 2);
    let (_, table) = agent.option_chance(&g, Choice::Accept).unwrap();
    let (mine, breaking) = agent.option_chance(&g, Choice::Rerack).unwrap();
    assert!(mine);
    let answer = agent.respond(&g);
    if table < THRESHOLD && breaking < THRESHOLD {
        assert_eq!(answer, Some(Choice::RerackOffender), "{table} {breaking}");
    } else if breaking > table {
        assert_eq!(answer, Some(Choice::Rerack), "{table} {breaking}");
    } else {
        assert_eq!(answer, Some(Choice::Accept), "{table} {breaking}");
    }
    assert_ne!(answer, Some(Choice::Accept), "a packed rack gives no pot");

    // The same choice on a table with a short straight-in pot: accepted.
    let t = Table::new(GameKind::EightBall.default_table());
    let (one, cue, _) = straight_in(&t, "top-right");
    let far = [t.rail + 0.3 * t.length, t.rail + 0.7 * t.width];
    let mut g = Game::layout(
        GameKind::EightBall,
        &[(0, cue), (1, one), (8, far), (12, [far[0] + 0.3, far[1]])],
        1,
    )
    .unwrap();
    g.state.options = [Choice::Accept, Choice::Rerack, Choice::RerackOffender]
        .into_iter()
        .collect();
    let (_, table) = agent.option_chance(&g, Choice::Accept).unwrap();
    assert!(table >= THRESHOLD, "{table}");
    let (_, breaking) = agent.option_chance(&g, Choice::Rerack).unwrap();
    if table >= breaking {
        assert_eq!(agent.respond(&g), Some(Choice::Accept));
    }
}

#[test]
fn after_a_miss_that_leaves_nothing_the_balls_are_replaced() {
    // The only red frozen on the baulk cushion's middle (no pocket in line), in plain
    // sight; player 0 plays the blue instead: a foul and a miss. Player 1 has no pot
    // from where the cue ball stops, nor would player 0 from the position put back:
    // the balls are replaced and the offender plays the red again.
    let t = Table::new(GameKind::Snooker.default_table());
    let r = t.balls.radius;
    let c = t.center();
    let red = [t.rail + r, c[1] + 0.2];
    let cue = [c[0] + 0.3, c[1] - 0.1];
    let blue = [c[0] + 0.8, c[1] - 0.1];
    let mut g = Game::layout(GameKind::Snooker, &[(0, cue), (1, red), (19, blue)], 0).unwrap();
    let miss = g.shoot(&Shot::new(0.8, 0.0), None).unwrap();
    assert!(miss.foul.as_ref().is_some_and(|f| f.what.contains("miss")));
    assert!(g.options().contains(&Choice::Replace), "{:?}", g.options());
    let mut agent = Agent::new(Some(Noise::PRO), 4);
    let (_, mine) = agent.option_chance(&g, Choice::Accept).unwrap();
    let (theirs_now, theirs) = agent.option_chance(&g, Choice::Replace).unwrap();
    assert!(!theirs_now);
    assert!(mine < THRESHOLD && theirs <= mine, "{mine} {theirs}");
    assert_eq!(agent.respond(&g), Some(Choice::Replace));
    g.choose(Choice::Replace).unwrap();
    assert_eq!(g.state.player, 0);
    assert_eq!(g.balls.iter().find(|b| b.0 == 0).unwrap().1, cue);
}
