//! Three-cushion (UMB, in our words). Each player strikes an own ball (0 white, 1
//! yellow); the other two are the object balls. A point when the cue ball meets both
//! object balls and, before it meets the second, has made three or more cushion
//! contacts (any cushions, the same one again counting). A point keeps the inning; a
//! miss ends it. No fouls are judged: the UMB's fouls (a ball touched other than by
//! the cue's tip, a push or double stroke, a ball jumping off the table, the cue ball
//! struck while touching another ball, no foot on the floor) are acts the engine's
//! cue strike on a table with cushions cannot commit.
//!
//! The target score ends the match, with the UMB's equalising inning (`equalising`,
//! on for a new game): when the player who began the match (who plays the odd
//! innings) reaches the target, the inning ends there and the other player has one
//! last inning; reaching the target in it draws the match (the UMB's form for a
//! match that may end level; the penalty shots some competitions then play to decide
//! it are not played here), falling short loses it. The second player reaching the
//! target in an ordinary inning has had as many innings and wins at once. Without the
//! rule the first to the target wins.

use super::{Call, Judgement, Numbers, Rules, State};
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
/// it, the target ends the game (with the equalising inning where `equalising`).
pub(crate) fn carom_after(state: &State, point: bool) -> Judgement {
    let mut s = state.clone();
    s.shots = s.shots.saturating_add(1);
    let me = state.player;
    let mut points = [0, 0];
    let mut turn_over = !point;
    if point {
        points[me] = 1;
        s.scores[me] = s.scores[me].saturating_add(1);
        if s.scores[me] >= s.target {
            let starter = state.inning % 2 == 1;
            if state.last_inning {
                // The equalising inning reached the target too: a draw.
                s.over = true;
                s.winner = None;
            } else if state.equalising && starter {
                // The starter reached the target: the other player's last inning.
                s.last_inning = true;
                s.player = 1 - me;
                s.inning = s.inning.saturating_add(1);
                turn_over = true;
            } else {
                s.over = true;
                s.winner = Some(me);
            }
        }
    } else if state.last_inning {
        // The equalising inning fell short: the starter wins.
        s.over = true;
        s.winner = Some(1 - me);
    } else {
        s.player = 1 - me;
        s.inning = s.inning.saturating_add(1);
    }
    if s.over {
        s.last_inning = false;
    }
    Judgement {
        foul: None,
        points,
        turn_over,
        respot: Numbers::new(),
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
        // The second player's inning (even): as many innings as the first, a win.
        s.player = 1;
        s.inning = 2;
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

    fn point(cue: u32) -> Facts {
        let other = 1 - cue;
        log(&[
            (0.1, &format!("hit {other}")),
            (0.3, &format!("rail {cue}")),
            (0.5, &format!("rail {cue}")),
            (0.8, &format!("rail {cue}")),
            (1.0, "hit 2"),
        ])
    }

    #[test]
    fn the_starter_at_the_target_gives_the_other_an_equalising_inning() {
        let mut s = State::start(GameKind::ThreeCushion, vec![2]);
        s.scores = [TARGET - 1, TARGET - 1];
        let j = ThreeCushion.judge(&s, &point(0), None);
        assert!(!j.state.over);
        assert!(j.turn_over);
        assert!(j.state.last_inning);
        assert_eq!((j.state.player, j.state.inning), (1, 2));
        // Reaching the target in it: a draw.
        let d = ThreeCushion.judge(&j.state, &point(1), None);
        assert!(d.state.over);
        assert_eq!(d.state.winner, None);
        assert_eq!(d.state.scores, [TARGET, TARGET]);
        // Falling short: the starter wins.
        let m = ThreeCushion.judge(&j.state, &log(&[(0.1, "hit 2")]), None);
        assert!(m.state.over);
        assert_eq!(m.state.winner, Some(0));
        // Without the rule the starter wins at once.
        s.equalising = false;
        let w = ThreeCushion.judge(&s, &point(0), None);
        assert!(w.state.over);
        assert_eq!(w.state.winner, Some(0));
    }
}
