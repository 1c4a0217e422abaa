//! Ten-ball (WPA World Standardized Rules, in our words): nine-ball's fouls, legal
//! break and push-out, with called shots.
//!
//! - Every shot after the break is called: a ball and a pocket, or a safety.
//! - The called ball in the called pocket (legally) lets the shooter continue; any
//!   other ball pocketed with it stays down. A shot whose call fails ends the turn;
//!   balls it pocketed stay down, and when it pocketed one (a safety included) the
//!   incoming player chooses: to take the table as it lies (`accept`) or to hand the
//!   shot back (`pass-back`).
//! - The 10 wins only when called and pocketed legally; pocketed on the break,
//!   uncalled, on a foul or on a push-out it is spotted. A safety ends the turn.

use super::nine_ball::rotation;
use super::{pocketed_objects, Call, Choice, Judgement, Rules, State};
use crate::shot::Facts;

pub struct TenBall;

impl Rules for TenBall {
    fn check_call(&self, state: &State, call: Option<Call>) -> Result<(), String> {
        match call {
            _ if state.shots == 0 => match call {
                None => Ok(()),
                Some(_) => Err("the break calls no shot".into()),
            },
            Some(Call::PushOut) if state.push_out => Ok(()),
            Some(Call::PushOut) => Err("a push-out may only be the shot after the break".into()),
            Some(Call::Pot { ball, .. }) if !state.on_table.contains(&ball) => {
                Err(format!("the called ball {ball} is not on the table"))
            }
            Some(_) => Ok(()),
            None => Err("ten-ball calls every shot: a ball and a pocket, or a safety".into()),
        }
    }

    fn first_contacts(&self, state: &State) -> Vec<u32> {
        state.lowest().into_iter().collect()
    }

    fn judge(&self, state: &State, facts: &Facts, call: Option<Call>) -> Judgement {
        let mut j = rotation(state, facts, call, 10);
        if state.shots == 0 || call == Some(Call::PushOut) || j.foul.is_some() {
            if state.shots == 0 && j.state.over {
                // The 10 on the break is spotted and the breaker goes on.
                j.state.over = false;
                j.state.winner = None;
                j.respot = smallvec::smallvec![10];
                if !j.state.on_table.contains(&10) {
                    j.state.on_table.push(10);
                }
            }
            return j;
        }
        let made = match call {
            Some(Call::Pot { ball, pocket }) => {
                facts.pocketed.iter().any(|p| p.1 == ball && p.2 == pocket)
            }
            _ => false,
        };
        let ten_down = pocketed_objects(facts).contains(&10);
        if ten_down && !(made && call.is_some_and(|c| matches!(c, Call::Pot { ball: 10, .. }))) {
            // The 10 uncalled: spotted, no win.
            j.state.over = false;
            j.state.winner = None;
            if !j.respot.contains(&10) {
                j.respot.push(10);
            }
            if !j.state.on_table.contains(&10) {
                j.state.on_table.push(10);
            }
        }
        if !made && !j.turn_over {
            // The call failed: the turn ends (the pocketed balls stay down), and the
            // incoming player may hand the shot back.
            j.turn_over = true;
            j.state.player = state.opponent();
            j.state.inning = j.state.inning.saturating_add(1);
            if !j.state.over {
                j.state.options = smallvec::smallvec![Choice::Accept, Choice::PassBack];
            }
        }
        j
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::test_facts::log;
    use crate::setups::GameKind;

    fn state(on: &[u32]) -> State {
        let mut s = State::start(GameKind::TenBall, on.to_vec());
        s.shots = 4;
        s.ball_in_hand = None;
        s
    }

    #[test]
    fn every_shot_after_the_break_needs_a_call() {
        let s = state(&[2, 10]);
        assert!(TenBall.check_call(&s, None).is_err());
        assert!(TenBall.check_call(&s, Some(Call::Safety)).is_ok());
        assert!(TenBall
            .check_call(&s, Some(Call::Pot { ball: 2, pocket: 0 }))
            .is_ok());
        assert!(TenBall
            .check_call(&s, Some(Call::Pot { ball: 7, pocket: 0 }))
            .is_err());
        let mut b = s.clone();
        b.shots = 0;
        assert!(TenBall.check_call(&b, None).is_ok());
    }

    #[test]
    fn the_called_ball_in_the_called_pocket_continues_elsewhere_the_turn_ends() {
        let s = state(&[2, 5, 10]);
        let call = Some(Call::Pot { ball: 2, pocket: 3 });
        let made = TenBall.judge(&s, &log(&[(0.3, "hit 2"), (0.9, "pot 2 3")]), call);
        assert_eq!(made.foul, None);
        assert!(!made.turn_over);
        let wrong_pocket = TenBall.judge(&s, &log(&[(0.3, "hit 2"), (0.9, "pot 2 4")]), call);
        assert_eq!(wrong_pocket.foul, None);
        assert!(wrong_pocket.turn_over);
        assert_eq!(wrong_pocket.state.player, 1);
        assert_eq!(wrong_pocket.state.on_table[..], [5, 10], "the 2 stays down");
    }

    #[test]
    fn the_ten_wins_only_called() {
        let s = state(&[2, 10]);
        let combo = log(&[(0.3, "hit 2"), (0.9, "pot 10 5")]);
        let uncalled = TenBall.judge(&s, &combo, Some(Call::Pot { ball: 2, pocket: 1 }));
        assert!(!uncalled.state.over);
        assert_eq!(uncalled.respot[..], [10]);
        assert!(uncalled.state.on_table.contains(&10));
        let called = TenBall.judge(
            &s,
            &combo,
            Some(Call::Pot {
                ball: 10,
                pocket: 5,
            }),
        );
        assert!(called.state.over);
        assert_eq!(called.state.winner, Some(0));
    }

    #[test]
    fn the_ten_on_the_break_is_spotted_and_the_breaker_continues() {
        let mut s = state(&(1..=10).collect::<Vec<_>>());
        s.shots = 0;
        let j = TenBall.judge(&s, &log(&[(0.1, "hit 1"), (0.7, "pot 10 2")]), None);
        assert_eq!(j.foul, None);
        assert!(!j.state.over);
        assert_eq!(j.respot[..], [10]);
        assert!(!j.turn_over);
    }

    #[test]
    fn fouls_are_nine_balls() {
        let s = state(&[2, 10]);
        let j = TenBall.judge(
            &s,
            &log(&[(0.3, "hit 10"), (0.5, "rail 10")]),
            Some(Call::Safety),
        );
        assert_eq!(j.foul.unwrap().rule, "WPA 6.2 wrong ball first");
    }
}
