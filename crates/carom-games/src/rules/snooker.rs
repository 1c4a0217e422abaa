//! Snooker (WPBSA Rules, in our words).
//!
//! - While reds remain the striker is on a red; after potting one, on a colour (the
//!   colour first struck counts as the one nominated); then a red again. A colour
//!   potted while reds remain, or as the colour after the last red, is re-spotted.
//!   With the reds gone the colours are on in order, yellow to black, each staying
//!   down; the frame ends when the black is potted.
//! - A legal pot scores the ball's value (each red 1, yellow 2 ... black 7) and keeps
//!   the turn; reds potted together all count.
//! - Fouls: the cue ball potted, no ball struck, a ball not on struck first, a ball not
//!   on potted. A foul scores the opponent the higher of 4 and the values of the ball
//!   on, the ball struck first and the balls wrongly potted; colours potted by it are
//!   re-spotted, reds stay down, and the turn passes (the opponent's right to make the
//!   offender play again is left out). After the cue ball is potted the incoming player
//!   plays from in the D.
//! - Left out: the free ball (after a foul that snookers), the miss rule (the referee's
//!   call that the striker did not try to hit the ball on), the re-spotted black after
//!   a tied frame (a tie is a draw here).

use super::{Call, Foul, Judgement, On, Placement, Rules, State};
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

impl Rules for Snooker {
    fn check_call(&self, _: &State, call: Option<Call>) -> Result<(), String> {
        match call {
            None => Ok(()),
            Some(_) => {
                Err("snooker takes no call (the colour struck first is the one nominated)".into())
            }
        }
    }

    fn first_contacts(&self, state: &State) -> Vec<u32> {
        let on = state.on.unwrap_or(On::Red);
        let mut v: Vec<u32> = state
            .on_table
            .iter()
            .copied()
            .filter(|&n| match on {
                On::Red => is_red(n),
                On::Colour => is_colour(n),
                On::Next(c) => n == c,
            })
            .collect();
        v.sort_unstable();
        v
    }

    fn judge(&self, state: &State, facts: &Facts, _: Option<Call>) -> Judgement {
        let on = state.on.unwrap_or(On::Red);
        let is_on = |n: u32| match on {
            On::Red => is_red(n),
            On::Colour => is_colour(n),
            On::Next(c) => n == c,
        };
        let potted: Vec<u32> = facts
            .pocketed
            .iter()
            .map(|p| p.1)
            .filter(|&n| n != 0)
            .collect();
        let first = facts.first_contact;
        // The value of the ball on: a red's, the colour first struck (the nominated
        // one) or, unnominated, the lowest colour's.
        let on_value = match on {
            On::Red => 1,
            On::Colour => first.filter(|&n| is_colour(n)).map_or(2, snooker_value),
            On::Next(c) => snooker_value(c),
        };
        let mut values = vec![4, on_value];
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
                values.push(snooker_value(n));
                if !is_on(n) {
                    why.get_or_insert((
                        "WPBSA foul: ball not on struck first",
                        format!("the cue ball struck the {} first", named(n)),
                    ));
                }
            }
        }
        // A legal stroke pots balls on only, and on a colour only the one struck.
        for &n in &potted {
            let wrong = match on {
                On::Red => !is_red(n),
                On::Colour => Some(n) != first || potted.len() > 1,
                On::Next(c) => n != c,
            };
            if wrong {
                values.push(snooker_value(n));
                why.get_or_insert((
                    "WPBSA foul: ball not on potted",
                    format!("the {} was potted", named(n)),
                ));
            }
        }
        let mut s = state.clone();
        s.shots = s.shots.saturating_add(1);
        s.ball_in_hand = None;
        let me = state.player;
        let mut points = [0, 0];
        let reds_left_after = s
            .on_table
            .iter()
            .any(|&n| is_red(n) && !potted.contains(&n));
        // Which potted balls come back: every colour, except one legally potted in the
        // sequence of colours.
        let sequence = matches!(on, On::Next(_));
        let foul = why.map(|(rule, what)| Foul {
            rule: rule.into(),
            what,
        });
        // The black potted on a foul as the last ball ends the frame: not re-spotted.
        let last_black = on == On::Next(21);
        let respot: Vec<u32> = potted
            .iter()
            .copied()
            .filter(|&n| is_colour(n) && (foul.is_some() || !sequence))
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
            let penalty = values.into_iter().max().unwrap_or(4) as i64;
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
            let gained: i64 = potted.iter().map(|&n| snooker_value(n) as i64).sum();
            points[me] = gained;
            s.scores[me] = s.scores[me].saturating_add(gained);
            turn_over = false;
            s.on = Some(match on {
                On::Red => On::Colour,
                On::Colour if reds_left_after => On::Red,
                On::Colour => On::Next(16),
                On::Next(c) => On::Next(c.saturating_add(1)),
            });
        }
        if turn_over {
            s.player = 1 - me;
            s.inning = s.inning.saturating_add(1);
        }
        if !s.on_table.iter().any(|&n| n != 0) || s.on == Some(On::Next(22)) {
            s.over = true;
            s.on = None;
            s.winner = match s.scores[0].cmp(&s.scores[1]) {
                std::cmp::Ordering::Greater => Some(0),
                std::cmp::Ordering::Less => Some(1),
                std::cmp::Ordering::Equal => None,
            };
        }
        Judgement {
            foul,
            points,
            turn_over,
            respot,
            state: s,
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
        assert_eq!(j.respot, vec![21]);
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
        assert_eq!(j.respot, vec![21]);
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
            j.respot,
            vec![19],
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
}
