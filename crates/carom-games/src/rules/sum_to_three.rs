//! Sum-to-three (pooltool's game for learning agents, in our words): a cue ball and
//! one object ball on a pocketless table. A point when the cue ball meets the object
//! ball and the shot's cushion contacts, of both balls together, total exactly three.
//! A point keeps the turn, a miss passes it; the first to the target wins.

use super::three_cushion::carom_after;
use super::{Call, Judgement, Rules, State};
use crate::shot::Facts;

/// The target score.
pub const TARGET: i64 = 10;

pub struct SumToThree;

impl Rules for SumToThree {
    fn check_call(&self, _: &State, call: Option<Call>) -> Result<(), String> {
        match call {
            None => Ok(()),
            Some(_) => Err("sum-to-three calls no shot".into()),
        }
    }

    fn judge(&self, state: &State, facts: &Facts, _: Option<Call>) -> Judgement {
        let point = facts.first_contact == Some(1) && facts.cushions.len() == 3;
        carom_after(state, point)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::test_facts::log;
    use crate::setups::GameKind;

    #[test]
    fn three_cushion_contacts_in_all_and_the_object_ball_met_score() {
        let s = State::start(GameKind::SumToThree, vec![1]);
        let f = log(&[
            (0.1, "rail 0"),
            (0.3, "hit 1"),
            (0.5, "rail 1"),
            (0.8, "rail 0"),
        ]);
        assert_eq!(SumToThree.judge(&s, &f, None).points, [1, 0]);
        let four = log(&[
            (0.1, "rail 0"),
            (0.3, "hit 1"),
            (0.5, "rail 1"),
            (0.8, "rail 0"),
            (0.9, "rail 1"),
        ]);
        let j = SumToThree.judge(&s, &four, None);
        assert_eq!(j.points, [0, 0]);
        assert!(j.turn_over);
        let missed = log(&[(0.1, "rail 0"), (0.3, "rail 0"), (0.5, "rail 0")]);
        assert_eq!(SumToThree.judge(&s, &missed, None).points, [0, 0]);
    }
}
