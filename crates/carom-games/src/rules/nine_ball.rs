//! Nine-ball (WPA World Standardized Rules, in our words).
//!
//! - The cue ball must first meet the lowest-numbered ball on the table (6.2); after
//!   the contact a ball must be pocketed or some ball must reach a cushion (6.3); the
//!   cue ball must not be pocketed (6.1). A foul gives the opponent ball in hand
//!   anywhere; three fouls in a row lose the game (7.1).
//! - The break must pocket a ball or drive four object balls to a cushion.
//! - A shooter who pockets any ball legally shoots again; the 9 pocketed legally, on
//!   the break included, wins. The 9 pocketed on a foul (or a push-out) is spotted.
//! - The shot after the break may be a push-out (a foul on the break included): no
//!   ball need be met and no cushion reached (a scratch is still a foul); balls
//!   pocketed by it stay down (the 9 is spotted). After a push-out without a foul the
//!   other player chooses: to take the table as it lies and shoot (`accept`), or to
//!   hand the shot back to the player who pushed out (`pass-back`).

use super::{pocketed_objects, pool_after, wpa_illegal_break, wpa_standard_fouls};
use super::{Call, Choice, Judgement, Rules, State};
use crate::shot::Facts;

pub struct NineBall;

/// Nine- and ten-ball's shared judgement, `money` the ball that wins (9 or 10).
pub(crate) fn rotation(state: &State, facts: &Facts, call: Option<Call>, money: u32) -> Judgement {
    let lowest = state.lowest().unwrap_or(money);
    let down = pocketed_objects(facts);
    let breaking = state.shots == 0;
    let push = call == Some(Call::PushOut) && state.push_out;
    let mut foul = if push {
        if facts.is_pocketed(0) {
            super::foul("WPA 6.1 cue ball scratch", "the cue ball was pocketed")
        } else {
            None
        }
    } else {
        wpa_standard_fouls(facts, |n| n == lowest)
    };
    if foul.is_none() && breaking {
        foul = wpa_illegal_break(facts, "WPA legal break");
    }
    let money_down = down.contains(&money);
    let wins = money_down && foul.is_none() && !push;
    let respot: &[u32] = if money_down && !wins { &[money] } else { &[] };
    let continues = !push && !down.is_empty();
    let mut j = pool_after(state, facts, foul, continues, respot);
    if wins {
        j.state.over = true;
        j.state.winner = Some(state.player);
    }
    // The push-out is the shot after the break, for whoever plays it.
    j.state.push_out = breaking && !j.state.over;
    if push && j.foul.is_none() && !j.state.over {
        j.state.options = smallvec::smallvec![Choice::Accept, Choice::PassBack];
    }
    j
}

impl Rules for NineBall {
    fn check_call(&self, state: &State, call: Option<Call>) -> Result<(), String> {
        match call {
            None => Ok(()),
            Some(Call::PushOut) if state.push_out => Ok(()),
            Some(Call::PushOut) => Err("a push-out may only be the shot after the break".into()),
            Some(_) => Err("nine-ball calls no shot (only a push-out after the break)".into()),
        }
    }

    fn judge(&self, state: &State, facts: &Facts, call: Option<Call>) -> Judgement {
        rotation(state, facts, call, 9)
    }

    fn first_contacts(&self, state: &State) -> Vec<u32> {
        state.lowest().into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::test_facts::log;
    use crate::rules::{Placement, State};
    use crate::setups::GameKind;

    fn state(on: &[u32]) -> State {
        let mut s = State::start(GameKind::NineBall, on.to_vec());
        s.shots = 5;
        s.ball_in_hand = None;
        s
    }

    fn judge(s: &State, events: &[(f64, &str)]) -> Judgement {
        NineBall.judge(s, &log(events), None)
    }

    fn rule(j: &Judgement) -> &str {
        j.foul.as_ref().map_or("", |f| f.rule.as_str())
    }

    #[test]
    fn lowest_ball_first_then_a_pot_continues() {
        let s = state(&[3, 5, 9]);
        let j = judge(&s, &[(0.5, "hit 3"), (1.0, "pot 3 0")]);
        assert_eq!(j.foul, None);
        assert!(!j.turn_over);
        assert_eq!(j.state.player, 0);
        assert_eq!(j.state.on_table[..], [5, 9]);
    }

    #[test]
    fn wrong_ball_first_is_6_2_and_ball_in_hand_anywhere() {
        let s = state(&[3, 5, 9]);
        let j = judge(&s, &[(0.5, "hit 5"), (1.0, "pot 5 2")]);
        assert_eq!(rule(&j), "WPA 6.2 wrong ball first");
        assert!(j.turn_over);
        assert_eq!(j.state.player, 1);
        assert_eq!(j.state.ball_in_hand, Some(Placement::Anywhere));
        // The 5 stays down (only the 9 is spotted).
        assert_eq!(j.state.on_table[..], [3, 9]);
        assert!(j.respot.is_empty());
    }

    #[test]
    fn no_ball_met_is_6_2() {
        let j = judge(&state(&[3, 9]), &[(0.5, "rail 0"), (1.0, "rail 0")]);
        assert_eq!(rule(&j), "WPA 6.2 wrong ball first");
    }

    #[test]
    fn no_rail_after_contact_is_6_3_but_a_rail_before_contact_does_not_count() {
        let j = judge(&state(&[3, 9]), &[(0.2, "rail 0"), (0.5, "hit 3")]);
        assert_eq!(rule(&j), "WPA 6.3 no rail after contact");
        let ok = judge(&state(&[3, 9]), &[(0.5, "hit 3"), (0.9, "rail 3")]);
        assert_eq!(ok.foul, None);
        assert!(ok.turn_over);
        let cue_rail = judge(&state(&[3, 9]), &[(0.5, "hit 3"), (0.9, "rail 0")]);
        assert_eq!(cue_rail.foul, None);
    }

    #[test]
    fn scratch_is_6_1_even_with_a_legal_pot() {
        let j = judge(
            &state(&[3, 9]),
            &[(0.5, "hit 3"), (0.8, "pot 3 1"), (1.2, "pot 0 4")],
        );
        assert_eq!(rule(&j), "WPA 6.1 cue ball scratch");
        assert_eq!(j.state.player, 1);
    }

    #[test]
    fn the_nine_pocketed_legally_wins_even_on_a_combination() {
        let j = judge(&state(&[3, 9]), &[(0.5, "hit 3"), (0.9, "pot 9 5")]);
        assert!(j.state.over);
        assert_eq!(j.state.winner, Some(0));
    }

    #[test]
    fn the_nine_on_a_foul_is_spotted_and_the_game_goes_on() {
        let j = judge(&state(&[3, 9]), &[(0.5, "hit 9"), (0.9, "pot 9 5")]);
        assert_eq!(rule(&j), "WPA 6.2 wrong ball first");
        assert!(!j.state.over);
        assert_eq!(j.respot[..], [9]);
        assert_eq!(j.state.on_table[..], [3, 9]);
    }

    #[test]
    fn the_nine_on_the_break_wins() {
        let mut s = state(&[1, 2, 3, 4, 5, 6, 7, 8, 9]);
        s.shots = 0;
        let j = judge(&s, &[(0.1, "hit 1"), (0.9, "pot 9 2")]);
        assert!(j.state.over);
        assert_eq!(j.state.winner, Some(0));
    }

    #[test]
    fn a_break_that_drives_three_balls_to_a_rail_is_illegal_four_is_legal() {
        let mut s = state(&[1, 2, 3, 4, 5, 6, 7, 8, 9]);
        s.shots = 0;
        let three = [
            (0.1, "hit 1"),
            (0.5, "rail 2"),
            (0.6, "rail 3"),
            (0.7, "rail 3"),
            (0.8, "rail 4"),
        ];
        let j = judge(&s, &three);
        assert_eq!(rule(&j), "WPA legal break");
        let four = [
            (0.1, "hit 1"),
            (0.5, "rail 2"),
            (0.6, "rail 3"),
            (0.7, "rail 5"),
            (0.8, "rail 4"),
        ];
        let j = judge(&s, &four);
        assert_eq!(j.foul, None);
        assert!(j.state.push_out, "the next shot may be a push-out");
    }

    #[test]
    fn a_push_out_after_the_break_needs_no_contact_and_passes_the_turn() {
        let mut s = state(&[1, 2, 9]);
        s.shots = 1;
        s.push_out = true;
        assert!(NineBall.check_call(&s, Some(Call::PushOut)).is_ok());
        let j = NineBall.judge(&s, &log(&[(0.5, "rail 0")]), Some(Call::PushOut));
        assert_eq!(j.foul, None);
        assert!(j.turn_over);
        assert!(!j.state.push_out);
        assert_eq!(j.state.ball_in_hand, None);
        // Only once.
        assert!(NineBall.check_call(&j.state, Some(Call::PushOut)).is_err());
        // A scratch on a push-out is still a foul.
        let j = NineBall.judge(&s, &log(&[(0.5, "pot 0 1")]), Some(Call::PushOut));
        assert_eq!(rule(&j), "WPA 6.1 cue ball scratch");
    }

    #[test]
    fn three_successive_fouls_lose_a_legal_shot_clears_the_count() {
        let mut s = state(&[3, 9]);
        s.fouls = [2, 0];
        let j = judge(&s, &[(0.5, "hit 9"), (0.9, "rail 9")]);
        assert_eq!(rule(&j), "WPA 7.1 three consecutive fouls");
        assert!(j.state.over);
        assert_eq!(j.state.winner, Some(1));
        let j = judge(&s, &[(0.5, "hit 3"), (0.9, "rail 3")]);
        assert_eq!(j.state.fouls, [0, 0]);
    }
}
