//! Three-cushion (UMB, in our words). Each player strikes an own ball (0 white, 1
//! yellow); the other two are the object balls. A point when the cue ball meets both
//! object balls and, before it meets the second, has made three or more cushion
//! contacts (any cushions, the same one again counting). A point keeps the inning; a
//! miss ends it. The first to the target score wins. No fouls are judged (the
//! engine's shots cannot touch a ball with the cue, jump, or push); the equalising
//! inning of the second player is left out.

use super::{Call, Judgement, Rules, State};
use crate::shot::Facts;

/// The target score: 40 points, the UMB's world-championship distance.
pub const TARGET: i64 = 40;

pub struct ThreeCushion;

/// Whether the shot of cue ball `cue` scored under three-cushion's rule.
pub fn scores(facts: &Facts, cue: u32) -> bool {
    // The time the cue ball met its second distinct object ball.
    let mut first = None;
    let mut second_time = None;
    for &(t, n) in &facts.cue_contacts {
        match first {
            None => first = Some(n),
            Some(f) if f != n => {
                second_time = Some(t);
                break;
            }
            _ => {}
        }
    }
    let Some(t2) = second_time else { return false };
    let cushions = facts
        .cushions
        .iter()
        .filter(|c| c.1 == cue && c.0 <= t2)
        .count();
    cushions >= 3
}

/// Carom book-keeping shared with sum-to-three: a point keeps the turn, a miss passes
/// it, the target ends the game.
pub(crate) fn carom_after(state: &State, point: bool) -> Judgement {
    let mut s = state.clone();
    s.shots = s.shots.saturating_add(1);
    let me = state.player;
    let mut points = [0, 0];
    if point {
        points[me] = 1;
        s.scores[me] = s.scores[me].saturating_add(1);
        if s.scores[me] >= s.target {
            s.over = true;
            s.winner = Some(me);
        }
    } else {
        s.player = 1 - me;
        s.inning = s.inning.saturating_add(1);
    }
    Judgement {
        foul: None,
        points,
        turn_over: !point,
        respot: Vec::new(),
        state: s,
    }
}

impl Rules for ThreeCushion {
    fn check_call(&self, _: &State, call: Option<Call>) -> Result<(), String> {
        match call {
            None => Ok(()),
            Some(_) => Err("three-cushion calls no shot".into()),
        }
    }

    fn judge(&self, state: &State, facts: &Facts, _: Option<Call>) -> Judgement {
        carom_after(state, scores(facts, state.player as u32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::test_facts::log;
    use crate::setups::GameKind;

    #[test]
    fn three_cushions_before_the_second_ball_score() {
        let s = State::start(GameKind::ThreeCushion, vec![1, 2]);
        let f = log(&[
            (0.1, "hit 2"),
            (0.3, "rail 0"),
            (0.5, "rail 0"),
            (0.8, "rail 0"),
            (1.0, "hit 1"),
        ]);
        let j = ThreeCushion.judge(&s, &f, None);
        assert_eq!(j.points, [1, 0]);
        assert!(!j.turn_over);
        assert_eq!(j.state.scores, [1, 0]);
    }

    #[test]
    fn two_cushions_or_the_third_after_the_second_ball_do_not() {
        let s = State::start(GameKind::ThreeCushion, vec![1, 2]);
        let two = log(&[
            (0.1, "hit 2"),
            (0.3, "rail 0"),
            (0.5, "rail 0"),
            (1.0, "hit 1"),
            (1.2, "rail 0"),
        ]);
        let j = ThreeCushion.judge(&s, &two, None);
        assert_eq!(j.points, [0, 0]);
        assert!(j.turn_over);
        assert_eq!(j.state.player, 1);
        // An object ball's cushions do not count; the same ball twice is not both.
        let others = log(&[
            (0.1, "hit 2"),
            (0.3, "rail 2"),
            (0.5, "rail 2"),
            (0.6, "rail 0"),
            (0.8, "hit 2"),
            (0.9, "rail 0"),
            (1.0, "rail 0"),
        ]);
        assert_eq!(ThreeCushion.judge(&s, &others, None).points, [0, 0]);
    }

    #[test]
    fn the_second_player_strikes_the_yellow_and_the_target_wins() {
        let mut s = State::start(GameKind::ThreeCushion, vec![0, 2]);
        s.player = 1;
        s.scores = [3, TARGET - 1];
        let f = log(&[
            (0.1, "hit 0"),
            (0.3, "rail 1"),
            (0.5, "rail 1"),
            (0.8, "rail 1"),
            (1.0, "hit 2"),
        ]);
        let j = ThreeCushion.judge(&s, &f, None);
        assert_eq!(j.points, [0, 1]);
        assert!(j.state.over);
        assert_eq!(j.state.winner, Some(1));
    }
}
