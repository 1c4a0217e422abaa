//! The schedule against a brute-force order: every pop is the earliest slot.

use super::*;
use crate::models::event::kinds::WALL;

fn ev(i: usize, t: f64) -> Ev {
    Ev {
        t,
        i: i as u32,
        other: WALL,
        ci: 0,
        cj: 0,
    }
}

/// A small deterministic generator of test data (xorshift).
fn xorshift(mut x: u64) -> impl FnMut() -> u64 {
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

/// Checks a popped slot event against the brute-force earliest `(t, i)` (the
/// contact when both slots are due then) and empties that slot in the reference.
fn take_expected(
    e: &Ev,
    src: Source,
    (t, i): (f64, usize),
    contact: &mut [f64],
    crossing: &mut [f64],
    step: usize,
) {
    assert_eq!((e.t, e.i as usize), (t, i), "step {step}");
    if contact[i] == t {
        assert!(matches!(src, Source::Contact), "contact first, step {step}");
        contact[i] = f64::INFINITY;
    } else {
        assert!(matches!(src, Source::Crossing), "step {step}");
        crossing[i] = f64::INFINITY;
    }
}

/// The earliest (time, ball) over all slots, by brute force.
fn brute(contact: &[f64], crossing: &[f64]) -> Option<(f64, usize)> {
    (0..contact.len())
        .map(|i| (contact[i].min(crossing[i]), i))
        .filter(|(t, _)| t.is_finite())
        .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
}

#[test]
fn the_schedule_always_tops_with_the_earliest_slot() {
    let n = 37;
    let mut s = Schedule::default();
    s.reset(n);
    let (mut contact, mut crossing) = (vec![f64::INFINITY; n], vec![f64::INFINITY; n]);
    let mut rand = xorshift(12345);
    for step in 0..20_000 {
        let i = (rand() % n as u64) as usize;
        // Coarse times so that ties happen often.
        let t = (rand() % 50) as f64;
        let t = if rand().is_multiple_of(7) {
            f64::INFINITY
        } else {
            t
        };
        if step % 2 == 0 {
            contact[i] = t;
            s.set_contact(i, if t.is_finite() { ev(i, t) } else { Ev::NONE }, false);
        } else {
            crossing[i] = t;
            s.set_crossing(i, if t.is_finite() { ev(i, t) } else { Ev::NONE }, false);
        }
        let expect = brute(&contact, &crossing);
        assert_eq!(s.peek_time(), expect.map(|e| e.0), "step {step}");
        if step % 5 == 0 {
            if let Some((e, _)) = s.pop() {
                let (t, i) = expect.unwrap();
                assert_eq!((e.t, e.i as usize), (t, i), "step {step}");
                if contact[i] == t {
                    contact[i] = f64::INFINITY;
                } else {
                    crossing[i] = f64::INFINITY;
                }
            }
        }
    }
}

/// As the model uses it: time moves forward, slots are set at or after the last
/// popped time, spread over many orders of magnitude (so that the ring is gone
/// round, skipped over when empty and fed from the overflow list), with a rebuild
/// and an epoch shift now and then. Every pop must be the earliest (time, ball,
/// contact first) of a brute-force scan.
#[test]
fn calendar_pops_in_exact_order_over_wide_time_ranges() {
    let n = 300;
    let mut s = Schedule::default();
    s.reset(n);
    // Walking ahead as at a million balls (it only announces balls: the order
    // must be the same).
    s.early = true;
    let (mut contact, mut crossing) = (vec![f64::INFINITY; n], vec![f64::INFINITY; n]);
    let mut rand = xorshift(987654321);
    let mut now = 0.0f64;
    for step in 0..60_000 {
        let i = (rand() % n as u64) as usize;
        // Waits from 1e-6 to 1e6, and exact repeats of `now` (zero-time events);
        // in the second half, waits of one typical size that grows a hundredfold
        // (a gas cooling as it runs: the ring's width must follow).
        let wait = match rand() % 10 {
            0 => 0.0,
            1 => f64::INFINITY,
            _ if step < 30_000 => 10f64.powf((rand() % 1200) as f64 / 100.0 - 6.0),
            _ => (1.0 + (step - 30_000) as f64 / 300.0) * (rand() % 1000) as f64 * 1e-3,
        };
        let t = now + wait;
        let e = if t.is_finite() { ev(i, t) } else { Ev::NONE };
        match rand() % 3 {
            0 => {
                contact[i] = t;
                s.set_contact(i, e, false);
            }
            1 => {
                crossing[i] = t;
                s.set_crossing(i, e, false);
            }
            _ => {
                contact[i] = t;
                crossing[i] = if t.is_finite() { t * 1.5 + 1.0 } else { t };
                let c = if t.is_finite() {
                    ev(i, t * 1.5 + 1.0)
                } else {
                    Ev::NONE
                };
                s.set_both(i, e, c);
            }
        }
        if step % 7_919 == 0 {
            s.build();
        }
        if step % 15_013 == 0 && now > 0.0 {
            let shift = now;
            s.shift(shift);
            now -= shift;
            for t in contact.iter_mut().chain(crossing.iter_mut()) {
                *t -= shift;
            }
        }
        for _ in 0..(rand() % 3) {
            let expect = brute(&contact, &crossing);
            assert_eq!(s.peek_time(), expect.map(|e| e.0), "step {step}");
            let Some((e, src)) = s.pop() else { break };
            let (t, i) = expect.unwrap();
            take_expected(&e, src, (t, i), &mut contact, &mut crossing, step);
            now = t;
        }
    }
    // Drain: everything left comes out in order.
    while let Some(expect) = brute(&contact, &crossing) {
        let (e, _) = s.pop().expect("a slot is left");
        assert_eq!((e.t, e.i as usize), expect);
        if contact[expect.1] == expect.0 {
            contact[expect.1] = f64::INFINITY;
        } else {
            crossing[expect.1] = f64::INFINITY;
        }
    }
    assert!(s.pop().is_none());
}

/// As the event loop uses it: pop the next event up to a limit, then often look
/// for more within a short window (a group) before the popped ball is rewritten,
/// sometimes not rewritten at all (a stale contact's owner, a crossing that is
/// last in its interval). The popped ball's other slot waits unfiled meanwhile;
/// every pop and every refusal must still match a brute-force scan.
#[test]
fn a_popped_ball_waiting_unfiled_keeps_the_exact_order() {
    // Also as at a million balls, where a rewritten ball waits to be filed in
    // the ring until the next bucket is dealt.
    for early in [false, true] {
        popped_ball_order(early);
    }
}

fn popped_ball_order(early: bool) {
    let n = 50;
    let mut s = Schedule::default();
    s.reset(n);
    s.early = early;
    let (mut contact, mut crossing) = (vec![f64::INFINITY; n], vec![f64::INFINITY; n]);
    // Times in the side heap (near-tie contacts), which come after slots due at
    // the same time.
    let mut extras: Vec<f64> = Vec::new();
    let mut rand = xorshift(4242);
    // Coarse times so that ties (contact with crossing, ball with ball) are common.
    let mut now = 0.0f64;
    for i in 0..n {
        contact[i] = (rand() % 40) as f64;
        crossing[i] = (rand() % 40) as f64;
        s.set_both(i, ev(i, contact[i]), ev(i, crossing[i]));
    }
    for step in 0..40_000 {
        let slot = brute(&contact, &crossing);
        let extra = extras.iter().copied().fold(f64::INFINITY, f64::min);
        let from_extra = extra < slot.map_or(f64::INFINITY, |e| e.0);
        let expect = if from_extra { Some((extra, n)) } else { slot };
        // A limit before, at or after the next event.
        let limit = now + [0.0, 0.5, 1.0, 3.0][(rand() % 4) as usize];
        // The quick answer is never wrong: nothing is due by the limit when it
        // says so (it may fail to tell).
        if s.nothing_due_by(limit) {
            assert!(expect.is_none_or(|(t, _)| t > limit), "step {step}");
        }
        let got = s.pop_until(limit, |_, _, _| {});
        match (got, expect) {
            (Some((e, src)), Some((t, _))) if from_extra => {
                assert!(t <= limit, "step {step}");
                assert!(matches!(src, Source::Extra), "step {step}");
                assert_eq!(e.t, t, "step {step}");
                let k = extras.iter().position(|&x| x == t).unwrap();
                extras.swap_remove(k);
                now = t;
            }
            (Some((e, src)), Some((t, i))) => {
                assert!(t <= limit, "step {step}");
                take_expected(&e, src, (t, i), &mut contact, &mut crossing, step);
                now = t;
                // What follows the event: both slots anew, one, or nothing.
                let next = |r: u64| now + (r % 6) as f64;
                match rand() % 4 {
                    0 => {
                        (contact[i], crossing[i]) = (next(rand()), next(rand()));
                        s.set_both(i, ev(i, contact[i]), ev(i, crossing[i]));
                    }
                    1 => {
                        crossing[i] = next(rand());
                        s.set_crossing(i, ev(i, crossing[i]), false);
                    }
                    2 => {
                        contact[i] = next(rand());
                        s.set_contact(i, ev(i, contact[i]), false);
                    }
                    _ => {}
                }
            }
            (None, Some((t, _))) => {
                assert!(t > limit, "refused an event due by the limit, step {step}");
                now = limit;
            }
            (None, None) => break,
            (Some(_), None) => panic!("popped from an empty schedule, step {step}"),
        }
        // Another ball changes now and then, as a partner does.
        if rand().is_multiple_of(3) {
            let k = (rand() % n as u64) as usize;
            contact[k] = now + (rand() % 8) as f64;
            s.set_contact(k, ev(k, contact[k]), false);
        }
        if rand().is_multiple_of(5) {
            let k = (rand() % n as u64) as usize;
            let t = now + (rand() % 6) as f64;
            extras.push(t);
            s.push_extra(ev(k, t));
        }
    }
}
