//! Snooker (WPBSA Rules, in our words).
//!
//! - While reds remain the striker is on a red; after potting one, on a colour (the
//!   colour first struck counts as the one nominated); then a red again. A colour
//!   potted while reds remain, or as the colour after the last red, is re-spotted.
//!   With the reds gone the colours are on in order, yellow to black, each staying
//!   down. When only the black remains, the first score or foul ends the frame; the
//!   higher score wins. Level scores then re-spot the black, and the player drawn by
//!   lot (here: player 0 when the shots played so far are even) plays it from in hand
//!   in the D; the next score or foul ends the frame.
//! - A legal pot scores the ball's value (each red 1, yellow 2 ... black 7) and keeps
//!   the turn; reds potted together all count.
//! - Fouls: the cue ball potted, no ball struck, a ball not on struck first, a ball not
//!   on potted. A foul scores the opponent the higher of 4 and the values of the ball
//!   on, the ball struck first and the balls wrongly potted; colours potted by it are
//!   re-spotted, reds stay down, and the turn passes. After the cue ball is potted the
//!   incoming player plays from in hand in the D.
//! - After a foul the incoming player chooses: to play from where the balls lie
//!   (`accept`), or to have the offender play again from there (`pass-back`); and,
//!   where the rules give them, the free ball and the replaced balls below.
//! - Free ball (WPBSA 3.12): after a foul that leaves the cue ball (not in hand)
//!   snookered, no ball on having both its extreme edges in a straight line's reach
//!   without a ball not on in the way, the incoming player may play a free ball
//!   (`free-ball`): the first ball struck, if it is not on, is the nominated free ball
//!   and counts as the ball on (a red's value, or the colour on's); potted, it scores
//!   so and is re-spotted; potted with the ball on, only the ball on scores (each red
//!   when on reds). Leaving the opponent snookered on every ball on by the free ball
//!   (the free ball in the way, unless only the pink and black remain) is a foul.
//! - The miss (WPBSA 3.14): whether the striker tried to hit the ball on is the
//!   referee's judgement; what can be judged from the table is the rule's fixed part:
//!   failing to hit a ball on first (or with a free ball any ball) while a straight
//!   line reached some part of a ball on (or any ball with a free ball) clear of balls
//!   not on, is a foul and a miss, unless the striker needed snookers before the shot
//!   (behind by more than the points on the table). Where every ball on was
//!   snookered, no miss is called (the referee's call on the attempt is not made
//!   here). After a miss the incoming player may also have the balls replaced where
//!   they were before the shot, the offender to play again (`replace`); the penalty
//!   stands. The rule's three-miss limit and warning, the referee's discretion, are
//!   not applied.

use super::{Before, Call, Choice, Foul, Judgement, On, Placement, Rules, State, TableView};
use crate::setups::snooker_value;
use crate::shot::Facts;

pub struct Snooker;

fn is_red(n: u32) -> bool {
    (1..=15).contains(&n)
}

fn is_colour(n: u32) -> bool {
    (16..=21).contains(&n)
}

fn named(n: u32) -> String {
    crate::setups::GameKind::Snooker.ball_name(n)
}

/// Whether ball `n` is on.
fn on_ball(on: On, n: u32) -> bool {
    match on {
        On::Red => is_red(n),
        On::Colour => is_colour(n),
        On::Next(c) => n == c,
    }
}

/// The free ball of a shot: with a free ball chosen, the first ball struck when it is
/// not on.
fn free_ball(state: &State, facts: &Facts) -> Option<u32> {
    let on = state.on.unwrap_or(On::Red);
    facts
        .first_contact
        .filter(|&n| state.chosen == Some(Choice::FreeBall) && !on_ball(on, n))
}

/// The foul a stroke commits, if any, by the first rule it breaks (the cue ball
/// potted, no ball struck, a ball not on struck first, a ball not on potted), and the
/// penalty: the higher of 4 and the values of the balls the stroke involves.
fn foul_of(
    on: On,
    free: Option<u32>,
    facts: &Facts,
    potted: &[u32],
) -> (Option<(&'static str, String)>, u32) {
    let is_on = |n: u32| on_ball(on, n) || Some(n) == free;
    let first = facts.first_contact;
    let on_value = on_value(on, first);
    let value = |n: u32| ball_value(n, free, on_value);
    // The higher of 4 and the values of the balls the foul involves.
    let mut penalty = 4.max(on_value);
    let mut why = None;
    if facts.is_pocketed(0) {
        why = Some((
            "WPBSA foul: cue ball potted",
            "the cue ball was potted".to_string(),
        ));
    }
    match first {
        None => {
            why.get_or_insert((
                "WPBSA foul: no ball struck",
                "the cue ball struck no ball".into(),
            ));
        }
        Some(n) => {
            penalty = penalty.max(value(n));
            if !is_on(n) {
                why.get_or_insert((
                    "WPBSA foul: ball not on struck first",
                    format!("the cue ball struck the {} first", named(n)),
                ));
            }
        }
    }
    // A legal stroke pots balls on only (the free ball counting as one), and on a
    // colour only the one struck.
    for &n in potted {
        let wrong = match on {
            On::Colour => Some(n) != first || potted.len() > 1,
            _ => !is_on(n),
        };
        if wrong {
            penalty = penalty.max(value(n));
            why.get_or_insert((
                "WPBSA foul: ball not on potted",
                format!("the {} was potted", named(n)),
            ));
        }
    }
    (why, penalty)
}

/// The frame's end (the table cleared, or the last black scored or fouled): won by
/// the higher score, or, level, the black re-spotted for a re-spotted black with the
/// player drawn by lot in hand in the D (`true`; its spot added to `respot`).
fn end_frame(s: &mut State, respot: &mut super::Numbers) -> bool {
    if s.scores[0] == s.scores[1] {
        if !s.on_table.contains(&21) {
            s.on_table.push(21);
            respot.push(21);
        }
        s.on = Some(On::Next(21));
        s.player = (s.shots % 2) as usize;
        s.ball_in_hand = Some(Placement::InD);
        true
    } else {
        s.over = true;
        s.on = None;
        s.ball_in_hand = None;
        s.winner = Some(if s.scores[0] > s.scores[1] { 0 } else { 1 });
        false
    }
}

/// A ball's value: a free ball has the value of the ball on.
fn ball_value(n: u32, free: Option<u32>, on_value: u32) -> u32 {
    if Some(n) == free {
        on_value
    } else {
        snooker_value(n)
    }
}

/// The value of the ball on: a red's, the colour first struck (the nominated one) or,
/// unnominated, the lowest colour's.
fn on_value(on: On, first: Option<u32>) -> u32 {
    match on {
        On::Red => 1,
        On::Colour => first.filter(|&n| is_colour(n)).map_or(2, snooker_value),
        On::Next(c) => snooker_value(c),
    }
}

/// The points still on the table for the state's striker: each red with a black,
/// the colour after a red, and the colours.
fn points_left(s: &State) -> i64 {
    let reds = s.on_table.iter().filter(|&&n| is_red(n)).count() as i64;
    let colours: i64 = s
        .on_table
        .iter()
        .filter(|&&n| is_colour(n))
        .map(|&n| i64::from(snooker_value(n)))
        .sum();
    match s.on.unwrap_or(On::Red) {
        On::Red => 8 * reds + colours,
        On::Colour => 7 + 8 * reds + colours,
        On::Next(c) => s
            .on_table
            .iter()
            .filter(|&&n| n >= c && is_colour(n))
            .map(|&n| i64::from(snooker_value(n)))
            .sum(),
    }
}

/// Whether the cue ball at `c` can be sent in a straight line to touch ball `b` with
/// its centre passing `offset` to one side of `b`'s centre (`|offset| < 2 r`), no ball
/// of `blockers` in the way.
fn reachable(c: [f64; 2], b: [f64; 2], offset: f64, r: f64, blockers: &[[f64; 2]]) -> bool {
    let reach = 2.0 * r;
    let d = [b[0] - c[0], b[1] - c[1]];
    let l = d[0].hypot(d[1]);
    if l <= reach {
        return true;
    }
    let a = (offset / l).asin();
    let base = d[1].atan2(d[0]) + a;
    let w = [base.cos(), base.sin()];
    // Travel until the balls touch.
    let s = l * a.cos() - (reach * reach - offset * offset).max(0.0).sqrt();
    blockers.iter().all(|o| {
        let q = [o[0] - c[0], o[1] - c[1]];
        let t = (q[0] * w[0] + q[1] * w[1]).clamp(0.0, s.max(0.0));
        (q[0] - t * w[0]).hypot(q[1] - t * w[1]) >= reach * (1.0 - 1e-9)
    })
}

/// The offsets of the lines tried: the two extreme edges (a grazing contact each
/// side) first, then across the ball.
fn offsets(r: f64) -> impl Iterator<Item = f64> {
    let edge = 2.0 * r * (1.0 - 1e-6);
    [-edge, edge]
        .into_iter()
        .chain((-9..=9).map(move |k| f64::from(k) * edge / 10.0))
}

/// The balls of `balls` (number, centre) that `is_target` picks, and the centres of
/// the others (the cue ball left out).
fn split(
    balls: &[(u32, [f64; 2])],
    is_target: impl Fn(u32) -> bool,
) -> (Vec<[f64; 2]>, Vec<[f64; 2]>) {
    let mut targets = Vec::new();
    let mut blockers = Vec::new();
    for &(n, p) in balls.iter().filter(|b| b.0 != 0) {
        if is_target(n) {
            targets.push(p);
        } else {
            blockers.push(p);
        }
    }
    (targets, blockers)
}

/// WPBSA's snookered: no ball that `is_target` picks has both extreme edges within a
/// straight line's reach of the cue ball, clear of the other balls.
fn snookered(balls: &[(u32, [f64; 2])], r: f64, is_target: impl Fn(u32) -> bool) -> bool {
    let Some(c) = balls.iter().find(|b| b.0 == 0).map(|b| b.1) else {
        return false;
    };
    let (targets, blockers) = split(balls, is_target);
    let edge = 2.0 * r * (1.0 - 1e-6);
    !targets
        .iter()
        .any(|&b| reachable(c, b, -edge, r, &blockers) && reachable(c, b, edge, r, &blockers))
}

/// Whether a straight line reaches some part of some ball `is_target` picks, clear of
/// the other balls.
fn in_sight(balls: &[(u32, [f64; 2])], r: f64, is_target: impl Fn(u32) -> bool) -> bool {
    let Some(c) = balls.iter().find(|b| b.0 == 0).map(|b| b.1) else {
        return false;
    };
    let (targets, blockers) = split(balls, is_target);
    targets
        .iter()
        .any(|&b| offsets(r).any(|o| reachable(c, b, o, r, &blockers)))
}

/// The foul's penalty for the opponent of the state's striker, scored.
fn penalise(j: &mut Judgement, me: usize, penalty: i64) {
    j.points[1 - me] = j.points[1 - me].saturating_add(penalty);
    j.state.scores[1 - me] = j.state.scores[1 - me].saturating_add(penalty);
}

impl Rules for Snooker {
    fn check_call(&self, _: &State, call: Option<Call>) -> Result<(), String> {
        match call {
            None => Ok(()),
            Some(_) => {
                Err("snooker takes no call (the colour struck first is the one nominated)".into())
            }
        }
    }

    /// The balls on; with a free ball chosen every ball, since the first struck, if
    /// not on, is the nominated free ball.
    fn first_contacts(&self, state: &State) -> Vec<u32> {
        let on = state.on.unwrap_or(On::Red);
        let free = state.chosen == Some(Choice::FreeBall);
        let mut v: Vec<u32> = state
            .on_table
            .iter()
            .copied()
            .filter(|&n| free || on_ball(on, n))
            .collect();
        v.sort_unstable();
        v
    }

    fn judge(&self, state: &State, facts: &Facts, _: Option<Call>) -> Judgement {
        let on = state.on.unwrap_or(On::Red);
        let free = free_ball(state, facts);
        let potted: super::Numbers = facts
            .pocketed
            .iter()
            .map(|p| p.1)
            .filter(|&n| n != 0)
            .collect();
        let (why, penalty) = foul_of(on, free, facts, &potted);
        let on_value = on_value(on, facts.first_contact);
        let value = |n: u32| ball_value(n, free, on_value);
        let mut s = state.clone();
        s.shots = s.shots.saturating_add(1);
        s.ball_in_hand = None;
        s.options.clear();
        s.chosen = None;
        s.before = None;
        let me = state.player;
        let mut points = [0, 0];
        let reds_left_after = s
            .on_table
            .iter()
            .any(|&n| is_red(n) && !potted.contains(&n));
        // Which potted balls come back: every colour, except one legally potted in the
        // sequence of colours; a free ball always.
        let sequence = matches!(on, On::Next(_));
        let foul = why.map(|(rule, what)| Foul {
            rule: rule.into(),
            what,
        });
        // Only the black left: the first score or foul ends the frame, the black not
        // re-spotted.
        let last_black = on == On::Next(21);
        let respot: super::Numbers = potted
            .iter()
            .copied()
            .filter(|&n| is_colour(n) && (foul.is_some() || !sequence || Some(n) == free))
            .filter(|&n| !(last_black && n == 21))
            .collect();
        s.on_table
            .retain(|n| !potted.contains(n) || respot.contains(n));
        let after_miss = |s: &State| {
            if reds_left_after {
                On::Red
            } else if let On::Next(c) = on {
                if s.on_table.contains(&c) {
                    On::Next(c)
                } else {
                    On::Next(c.saturating_add(1))
                }
            } else {
                On::Next(16)
            }
        };
        let turn_over;
        if foul.is_some() {
            let penalty = penalty as i64;
            points[1 - me] = penalty;
            s.scores[1 - me] = s.scores[1 - me].saturating_add(penalty);
            s.fouls[me] = s.fouls[me].saturating_add(1);
            turn_over = true;
            s.on = Some(after_miss(&s));
            if facts.is_pocketed(0) {
                s.ball_in_hand = Some(Placement::InD);
            }
        } else if potted.is_empty() {
            s.fouls[me] = 0;
            turn_over = true;
            s.on = Some(after_miss(&s));
        } else {
            s.fouls[me] = 0;
            // With a free ball potted beside the colour on, only the colour on scores.
            let gained: i64 = match (on, free) {
                (On::Next(c), Some(_)) => i64::from(snooker_value(c)),
                _ => potted.iter().map(|&n| i64::from(value(n))).sum(),
            };
            points[me] = gained;
            s.scores[me] = s.scores[me].saturating_add(gained);
            turn_over = false;
            s.on = Some(match on {
                On::Red => On::Colour,
                On::Colour if reds_left_after => On::Red,
                On::Colour => On::Next(16),
                On::Next(c) if s.on_table.contains(&c) => On::Next(c),
                On::Next(c) => On::Next(c.saturating_add(1)),
            });
        }
        if turn_over {
            s.player = 1 - me;
            s.inning = s.inning.saturating_add(1);
        }
        let mut respot = respot;
        let cleared = !s.on_table.iter().any(|&n| n != 0) || s.on == Some(On::Next(22));
        let ended = cleared || (last_black && (foul.is_some() || points != [0, 0]));
        let tie = ended && end_frame(&mut s, &mut respot);
        if foul.is_some() && !s.over && !tie {
            s.options = smallvec::smallvec![Choice::Accept, Choice::PassBack];
        }
        Judgement {
            foul,
            points,
            turn_over,
            respot,
            state: s,
        }
    }

    fn judge_table(&self, view: &TableView<'_>, prior: &State, j: &mut Judgement) {
        if j.state.over {
            return;
        }
        let r = view.table.balls.radius;
        let me = prior.player;
        let on = prior.on.unwrap_or(On::Red);
        let free_chosen = prior.chosen == Some(Choice::FreeBall);
        let free = free_ball(prior, view.facts);
        // Leaving the opponent snookered by the free ball (unless only the pink and
        // black remain): a foul worth the ball on, at least 4.
        let pink_and_black = prior.on_table.iter().all(|&n| n == 20 || n == 21);
        if let Some(fb) = free {
            if j.foul.is_none() && j.turn_over && !pink_and_black {
                let next = j.state.on.unwrap_or(On::Red);
                let target = |n: u32| on_ball(next, n);
                let without: Vec<(u32, [f64; 2])> =
                    view.after.iter().copied().filter(|b| b.0 != fb).collect();
                if snookered(view.after, r, target) && !snookered(&without, r, target) {
                    let penalty = i64::from(match on {
                        On::Next(c) => snooker_value(c).max(4),
                        _ => 4,
                    });
                    j.foul = Some(Foul {
                        rule: "WPBSA foul: snookered with the free ball".into(),
                        what: format!(
                            "the free ball, the {}, leaves the opponent snookered",
                            named(fb)
                        ),
                    });
                    penalise(j, me, penalty);
                    j.state.fouls[me] = j.state.fouls[me].saturating_add(1);
                    j.state.options = smallvec::smallvec![Choice::Accept, Choice::PassBack];
                }
            }
        }
        let Some(f) = &mut j.foul else { return };
        if j.state.options.is_empty() {
            return;
        }
        // The miss: no ball on (with a free ball: no ball) met first while one was in
        // sight, the striker not needing snookers.
        let missed = match view.facts.first_contact {
            None => true,
            Some(n) => !free_chosen && !on_ball(on, n),
        };
        let target = |n: u32| free_chosen || on_ball(on, n);
        let behind = prior.scores[1 - me].saturating_sub(prior.scores[me]);
        if missed && in_sight(view.before, r, target) && behind <= points_left(prior) {
            f.what.push_str(
                "; a foul and a miss (a ball on was in sight): the balls may be replaced",
            );
            let mut restored = prior.clone();
            restored.options.clear();
            restored.chosen = None;
            restored.before = None;
            j.state.before = Some(Box::new(Before {
                state: restored,
                balls: view.before.to_vec(),
            }));
        }
        // The free ball: the incoming player's cue ball (not in hand) snookered.
        let next = j.state.on.unwrap_or(On::Red);
        if j.state.ball_in_hand.is_none() && snookered(view.after, r, |n| on_ball(next, n)) {
            j.state.options.push(Choice::FreeBall);
        }
        if j.state.before.is_some() {
            j.state.options.push(Choice::Replace);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::test_facts::log;
    use crate::setups::GameKind;

    fn state(on_table: &[u32], on: On) -> State {
        let mut s = State::start(GameKind::Snooker, on_table.to_vec());
        s.on = Some(on);
        s.ball_in_hand = None;
        s.shots = 3;
        s
    }

    fn all() -> Vec<u32> {
        (1..=21).collect()
    }

    #[test]
    fn a_red_then_a_colour_re_spotted_then_a_red_again() {
        let s = state(&all(), On::Red);
        let j = Snooker.judge(&s, &log(&[(0.2, "hit 3"), (0.8, "pot 3 0")]), None);
        assert_eq!(j.foul, None);
        assert_eq!(j.points, [1, 0]);
        assert_eq!(j.state.on, Some(On::Colour));
        assert!(!j.state.on_table.contains(&3));
        // Then the black: 7 points, re-spotted, a red on next.
        let j = Snooker.judge(&j.state, &log(&[(0.2, "hit 21"), (0.8, "pot 21 2")]), None);
        assert_eq!(j.foul, None);
        assert_eq!(j.points, [7, 0]);
        assert_eq!(j.respot[..], [21]);
        assert!(j.state.on_table.contains(&21));
        assert_eq!(j.state.on, Some(On::Red));
        assert_eq!(j.state.scores, [8, 0]);
    }

    #[test]
    fn two_reds_in_one_stroke_score_two() {
        let s = state(&all(), On::Red);
        let j = Snooker.judge(
            &s,
            &log(&[(0.2, "hit 3"), (0.8, "pot 3 0"), (0.9, "pot 7 1")]),
            None,
        );
        assert_eq!(j.points, [2, 0]);
    }

    #[test]
    fn fouls_score_at_least_four_and_the_values_involved() {
        let s = state(&all(), On::Red);
        // The blue struck first when on a red: 5.
        let j = Snooker.judge(&s, &log(&[(0.2, "hit 19"), (0.5, "rail 19")]), None);
        assert_eq!(
            j.foul.as_ref().unwrap().rule,
            "WPBSA foul: ball not on struck first"
        );
        assert_eq!(j.points, [0, 5]);
        assert!(j.turn_over);
        // No ball struck on a red: 4.
        let j = Snooker.judge(&s, &log(&[(0.2, "rail 0")]), None);
        assert_eq!(j.foul.as_ref().unwrap().rule, "WPBSA foul: no ball struck");
        assert_eq!(j.points, [0, 4]);
        // A red first, the black potted with it: 7, the black re-spotted, the red down.
        let j = Snooker.judge(
            &s,
            &log(&[(0.2, "hit 2"), (0.6, "pot 2 1"), (0.7, "pot 21 4")]),
            None,
        );
        assert_eq!(
            j.foul.as_ref().unwrap().rule,
            "WPBSA foul: ball not on potted"
        );
        assert_eq!(j.points, [0, 7]);
        assert_eq!(j.respot[..], [21]);
        assert!(!j.state.on_table.contains(&2));
        // The cue ball potted after hitting a red: 4, in hand in the D.
        let j = Snooker.judge(&s, &log(&[(0.2, "hit 2"), (0.6, "pot 0 1")]), None);
        assert_eq!(j.foul.as_ref().unwrap().rule, "WPBSA foul: cue ball potted");
        assert_eq!(j.points, [0, 4]);
        assert_eq!(j.state.ball_in_hand, Some(Placement::InD));
        // On the pink in the sequence, the black struck first: 7.
        let s = state(&[20, 21], On::Next(20));
        let j = Snooker.judge(&s, &log(&[(0.2, "hit 21"), (0.6, "rail 21")]), None);
        assert_eq!(j.points, [0, 7]);
        assert_eq!(j.state.on, Some(On::Next(20)));
    }

    #[test]
    fn the_colour_after_the_last_red_then_the_colours_in_order() {
        let s = state(&[5, 16, 17, 18, 19, 20, 21], On::Red);
        let j = Snooker.judge(&s, &log(&[(0.2, "hit 5"), (0.6, "pot 5 1")]), None);
        assert_eq!(j.state.on, Some(On::Colour));
        let j = Snooker.judge(&j.state, &log(&[(0.2, "hit 19"), (0.6, "pot 19 1")]), None);
        assert_eq!(
            j.respot[..],
            [19],
            "the colour after the last red is re-spotted"
        );
        assert_eq!(j.state.on, Some(On::Next(16)));
        let j = Snooker.judge(&j.state, &log(&[(0.2, "hit 16"), (0.6, "pot 16 1")]), None);
        assert!(j.respot.is_empty(), "in the sequence a colour stays down");
        assert_eq!(j.points, [2, 0]);
        assert_eq!(j.state.on, Some(On::Next(17)));
        assert!(!j.state.on_table.contains(&16));
    }

    #[test]
    fn the_black_ends_the_frame_and_the_higher_score_wins() {
        let mut s = state(&[21], On::Next(21));
        s.scores = [50, 54];
        let j = Snooker.judge(&s, &log(&[(0.2, "hit 21"), (0.6, "pot 21 3")]), None);
        assert!(j.state.over);
        assert_eq!(j.state.scores, [57, 54]);
        assert_eq!(j.state.winner, Some(0));
    }

    #[test]
    fn a_free_ball_counts_as_the_ball_on_and_goes_back() {
        // On a red, the blue nominated: potted, it scores a red's 1 and is re-spotted.
        let mut s = state(&all(), On::Red);
        s.chosen = Some(Choice::FreeBall);
        let j = Snooker.judge(&s, &log(&[(0.2, "hit 19"), (0.7, "pot 19 2")]), None);
        assert_eq!(j.foul, None);
        assert_eq!(j.points, [1, 0]);
        assert_eq!(j.respot[..], [19]);
        assert_eq!(j.state.on, Some(On::Colour));
        assert_eq!(j.state.chosen, None);
        // On the green in the sequence, the pink nominated and potted with the green:
        // only the green scores, the pink goes back, the green stays down.
        let mut s = state(&[17, 18, 19, 20, 21], On::Next(17));
        s.chosen = Some(Choice::FreeBall);
        let j = Snooker.judge(
            &s,
            &log(&[(0.2, "hit 20"), (0.6, "pot 20 1"), (0.7, "pot 17 4")]),
            None,
        );
        assert_eq!(j.foul, None);
        assert_eq!(j.points, [3, 0]);
        assert_eq!(j.respot[..], [20]);
        assert_eq!(j.state.on, Some(On::Next(18)));
        // The free ball alone: the green's 3, the green still on.
        let j = Snooker.judge(&s, &log(&[(0.2, "hit 20"), (0.6, "pot 20 1")]), None);
        assert_eq!(j.points, [3, 0]);
        assert_eq!(j.state.on, Some(On::Next(17)));
        // A colour potted beside the free ball is a foul worth the higher value.
        let j = Snooker.judge(
            &s,
            &log(&[(0.2, "hit 20"), (0.6, "pot 20 1"), (0.7, "pot 21 4")]),
            None,
        );
        assert_eq!(j.points, [0, 7]);
    }

    #[test]
    fn a_foul_offers_play_on_or_pass_back_and_level_scores_re_spot_the_black() {
        let s = state(&all(), On::Red);
        let j = Snooker.judge(&s, &log(&[(0.2, "rail 0")]), None);
        assert_eq!(j.state.options[..], [Choice::Accept, Choice::PassBack]);
        // The last black potted to level the scores: re-spotted, the lot's player in
        // hand in the D.
        let mut s = state(&[21], On::Next(21));
        s.scores = [50, 43];
        s.player = 1;
        let j = Snooker.judge(&s, &log(&[(0.2, "hit 21"), (0.6, "pot 21 3")]), None);
        assert!(!j.state.over);
        assert_eq!(j.state.scores, [50, 50]);
        assert_eq!(j.respot[..], [21]);
        assert_eq!(j.state.on_table[..], [21]);
        assert_eq!(j.state.ball_in_hand, Some(Placement::InD));
        assert_eq!(j.state.player, (j.state.shots % 2) as usize);
        // Then a foul ends the frame.
        let f = Snooker.judge(&j.state, &log(&[(0.2, "rail 0")]), None);
        assert!(f.state.over);
        let mut expected = [0, 0];
        expected[1 - j.state.player] = 7;
        assert_eq!(f.points, expected);
        assert_eq!(f.state.winner, Some(1 - j.state.player));
    }

    #[test]
    fn snookered_and_in_sight_read_the_balls_in_the_way() {
        let r = 0.02625;
        // A red straight ahead, the black halfway: snookered, and not in sight.
        let behind = [(0, [0.0, 0.0]), (21, [0.5, 0.0]), (1, [1.0, 0.0])];
        assert!(snookered(&behind, r, is_red));
        assert!(!in_sight(&behind, r, is_red));
        // The black moved a ball's width aside: a part of the red in sight, one edge
        // hidden (still snookered).
        let half = [(0, [0.0, 0.0]), (21, [0.5, 2.0 * r]), (1, [1.0, 0.0])];
        assert!(snookered(&half, r, is_red));
        assert!(in_sight(&half, r, is_red));
        // Far aside: both edges clear.
        let clear = [(0, [0.0, 0.0]), (21, [0.5, 5.0 * r]), (1, [1.0, 0.0])];
        assert!(!snookered(&clear, r, is_red));
    }
}
