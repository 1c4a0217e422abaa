//! Eight-ball (WPA World Standardized Rules, in our words).
//!
//! - The break (WPA eight-ball 3.3) must pocket a ball or drive four object balls to
//!   a cushion. After an illegal break the incoming player chooses: the table as it
//!   lies (`accept`), or the balls re-racked and broken by the chooser (`re-rack`) or
//!   by the offender again (`re-rack-offender`). A scratch on the break is a foul: the
//!   incoming player has the cue ball in hand behind the head string (and, after an
//!   illegal break, the same three choices). The 8 pocketed on a legal break is
//!   spotted, and the breaker chooses to go on (`accept`) or to break again
//!   (`re-rack`); pocketed with a scratch, the incoming player chooses between the 8
//!   spotted with ball in hand behind the head string (`accept`) and a re-rack broken
//!   by the chooser (`re-rack`).
//! - After the break the table is open: any ball but the 8 may be met first. The first
//!   shot after the break that pockets balls of one group only, legally, gives the
//!   shooter that group (and the opponent the other); a shot pocketing both leaves the
//!   table open. Once groups are set, a ball of the shooter's group must be met first,
//!   and the 8 once the group is cleared.
//! - The standard fouls (6.1 to 6.3) and three successive fouls (7.1) as in nine-ball;
//!   a foul gives ball in hand anywhere. Object balls pocketed on a foul stay down.
//! - Only the 8 is called (ball and pocket). It wins when pocketed legally in the
//!   called pocket by a shooter whose group was cleared before the shot; pocketed in
//!   any other way after the break (early, with the last of the group, uncalled, in
//!   another pocket, or on a foul) it loses.
//! - A shooter who pockets a ball of the own group (on an open table, any ball)
//!   legally shoots again.

use super::{foul, pocketed_objects, pool_after, wpa_illegal_break, wpa_standard_fouls};
use super::{Call, Choice, Group, Judgement, Placement, Rules, State};
use crate::shot::Facts;

pub struct EightBall;

/// The shooter's group, if set.
fn group(state: &State) -> Option<Group> {
    state.groups.map(|g| g[state.player])
}

/// Whether the shooter's group is off the table (so the 8 is the target).
fn cleared(state: &State, g: Group) -> bool {
    !state.on_table.iter().any(|&n| g.has(n))
}

impl Rules for EightBall {
    fn check_call(&self, state: &State, call: Option<Call>) -> Result<(), String> {
        let on_eight = group(state).is_some_and(|g| cleared(state, g));
        match call {
            Some(Call::Pot { ball: 8, .. }) if on_eight => Ok(()),
            None if on_eight => Err("the 8 must be called: call_ball 8 and a pocket".into()),
            None => Ok(()),
            Some(Call::Pot { ball: 8, .. }) => {
                Err("the 8 may be called only when the shooter's group is cleared".into())
            }
            Some(_) => Err("eight-ball calls only the 8".into()),
        }
    }

    fn first_contacts(&self, state: &State) -> Vec<u32> {
        let breaking = state.shots == 0;
        let mine = group(state);
        let mut v: Vec<u32> = state
            .on_table
            .iter()
            .copied()
            .filter(|&n| match mine {
                _ if breaking => true,
                None => n != 8,
                Some(g) if cleared(state, g) => n == 8,
                Some(g) => g.has(n),
            })
            .collect();
        v.sort_unstable();
        v
    }

    fn judge(&self, state: &State, facts: &Facts, call: Option<Call>) -> Judgement {
        let breaking = state.shots == 0;
        let mine = group(state);
        let on_eight = mine.is_some_and(|g| cleared(state, g));
        let legal_first = |n: u32| match mine {
            _ if breaking => true,
            None => n != 8,
            Some(_) if on_eight => n == 8,
            Some(g) => g.has(n),
        };
        let mut f = wpa_standard_fouls(facts, legal_first);
        let down = pocketed_objects(facts);
        let eight_down = down.contains(&8);
        if breaking {
            let illegal = wpa_illegal_break(facts, "WPA legal break");
            let scratch = facts.is_pocketed(0);
            if f.is_none() {
                f = illegal.clone();
            }
            let respot: &[u32] = if eight_down { &[8] } else { &[] };
            let continues = !down.is_empty();
            let mut j = pool_after(state, facts, f, continues, respot);
            if j.state.over {
                return j;
            }
            // WPA eight-ball 3.3: after a scratch on the break, ball in hand behind the
            // head string; after an illegal break without one, the table as it lies.
            j.state.ball_in_hand = scratch.then_some(Placement::BehindHeadString);
            j.state.options = if illegal.is_some() {
                smallvec::smallvec![Choice::Accept, Choice::Rerack, Choice::RerackOffender]
            } else if eight_down {
                smallvec::smallvec![Choice::Accept, Choice::Rerack]
            } else {
                super::Choices::new()
            };
            return j;
        }
        if eight_down {
            let called = matches!(call, Some(Call::Pot { ball: 8, pocket })
                if facts.pocketed.iter().any(|p| p.1 == 8 && p.2 == pocket));
            let wins = on_eight && called && f.is_none();
            let why = if f.is_some() {
                "the 8 was pocketed on a foul"
            } else if !on_eight {
                "the 8 was pocketed before the shooter's group was cleared"
            } else {
                "the 8 was pocketed in a pocket not called"
            };
            let f = if wins {
                None
            } else {
                let what = match &f {
                    Some(x) => format!("{why} ({})", x.rule),
                    None => why.to_string(),
                };
                foul("WPA eight-ball: pocketing the 8 loses", what)
            };
            let mut j = pool_after(state, facts, f, false, &[]);
            j.state.over = true;
            j.state.winner = Some(if wins { state.player } else { state.opponent() });
            j.state.ball_in_hand = None;
            return j;
        }
        // Groups: set by the first legal shot pocketing one group only.
        let mut groups = state.groups;
        let solids = down.iter().any(|&n| Group::Solids.has(n));
        let stripes = down.iter().any(|&n| Group::Stripes.has(n));
        if groups.is_none() && f.is_none() && solids != stripes {
            let g = if solids {
                Group::Solids
            } else {
                Group::Stripes
            };
            let mut pair = [g.other(), g.other()];
            pair[state.player] = g;
            groups = Some(pair);
        }
        let continues = match groups.map(|g| g[state.player]) {
            None => !down.is_empty(),
            Some(g) => down.iter().any(|&n| g.has(n)),
        };
        let mut j = pool_after(state, facts, f, continues, &[]);
        j.state.groups = groups;
        j
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::test_facts::log;
    use crate::rules::Placement;
    use crate::setups::GameKind;

    fn open(on: &[u32]) -> State {
        let mut s = State::start(GameKind::EightBall, on.to_vec());
        s.shots = 1;
        s.ball_in_hand = None;
        s
    }

    fn closed(on: &[u32], g: Group) -> State {
        let mut s = open(on);
        s.groups = Some([g, g.other()]);
        s
    }

    fn rule(j: &Judgement) -> String {
        j.foul.as_ref().map_or(String::new(), |f| f.rule.clone())
    }

    #[test]
    fn open_table_any_ball_but_the_eight_first() {
        let s = open(&[1, 2, 8, 9, 10]);
        let j = EightBall.judge(&s, &log(&[(0.2, "hit 9"), (0.5, "rail 9")]), None);
        assert_eq!(j.foul, None);
        let j = EightBall.judge(&s, &log(&[(0.2, "hit 8"), (0.5, "rail 8")]), None);
        assert_eq!(rule(&j), "WPA 6.2 wrong ball first");
        assert_eq!(j.state.ball_in_hand, Some(Placement::Anywhere));
    }

    #[test]
    fn a_pot_of_one_group_on_an_open_table_assigns_the_groups() {
        let s = open(&[1, 2, 8, 9, 10]);
        let j = EightBall.judge(&s, &log(&[(0.2, "hit 9"), (0.5, "pot 10 3")]), None);
        assert_eq!(j.state.groups, Some([Group::Stripes, Group::Solids]));
        assert!(!j.turn_over);
        // Both groups: the table stays open, the shooter continues.
        let j = EightBall.judge(
            &s,
            &log(&[(0.2, "hit 9"), (0.5, "pot 10 3"), (0.6, "pot 1 2")]),
            None,
        );
        assert_eq!(j.state.groups, None);
        assert!(!j.turn_over);
    }

    #[test]
    fn own_group_first_once_closed() {
        let s = closed(&[1, 2, 8, 9, 10], Group::Solids);
        let j = EightBall.judge(&s, &log(&[(0.2, "hit 9"), (0.5, "pot 9 3")]), None);
        assert_eq!(rule(&j), "WPA 6.2 wrong ball first");
        let j = EightBall.judge(&s, &log(&[(0.2, "hit 1"), (0.5, "pot 9 3")]), None);
        assert_eq!(j.foul, None);
        assert!(j.turn_over, "the opponent's ball does not keep the turn");
    }

    #[test]
    fn the_eight_early_loses() {
        let s = closed(&[1, 2, 8, 9], Group::Solids);
        let j = EightBall.judge(&s, &log(&[(0.2, "hit 1"), (0.5, "pot 8 3")]), None);
        assert!(j.state.over);
        assert_eq!(j.state.winner, Some(1));
        assert_eq!(rule(&j), "WPA eight-ball: pocketing the 8 loses");
    }

    #[test]
    fn the_eight_called_in_its_pocket_wins_elsewhere_or_on_a_scratch_loses() {
        let s = closed(&[8, 9], Group::Solids);
        assert!(EightBall.check_call(&s, None).is_err());
        let call = Some(Call::Pot { ball: 8, pocket: 3 });
        assert!(EightBall.check_call(&s, call).is_ok());
        let j = EightBall.judge(&s, &log(&[(0.2, "hit 8"), (0.5, "pot 8 3")]), call);
        assert_eq!(j.state.winner, Some(0));
        assert_eq!(j.foul, None);
        let j = EightBall.judge(&s, &log(&[(0.2, "hit 8"), (0.5, "pot 8 4")]), call);
        assert_eq!(j.state.winner, Some(1));
        let j = EightBall.judge(
            &s,
            &log(&[(0.2, "hit 8"), (0.5, "pot 8 3"), (0.9, "pot 0 1")]),
            call,
        );
        assert_eq!(j.state.winner, Some(1));
        assert!(j.foul.unwrap().what.contains("WPA 6.1"));
    }

    #[test]
    fn the_eight_on_the_break_is_spotted() {
        let mut s = open(&(1..=15).collect::<Vec<_>>());
        s.shots = 0;
        let j = EightBall.judge(&s, &log(&[(0.1, "hit 1"), (0.6, "pot 8 2")]), None);
        assert!(!j.state.over);
        assert_eq!(j.respot[..], [8]);
        assert!(!j.turn_over);
    }
}
