//! The guards that keep an `event` run from hanging: the event budget, a stack or a
//! runaway ball stopped after one window of events, and a busy gas not mistaken for
//! a pile.

use super::event::{gas_scenario, physics, table, world, Direct};
use carom::models::event;
use carom::models::StepError;
use carom::parse::build_world;
use carom::{Ball, Physics, Table};

#[test]
fn exceeding_the_event_budget_is_an_error_not_a_hang() {
    // Ball 2 at rest on top of ball 1, which rests on the floor, under gravity with
    // e = 0: the floor holds ball 1, but hard-disk dynamics can only answer ball 2's
    // weight with endlessly many zero-time contacts.
    let p = Physics {
        gravity: [0.0, 1.0],
        restitution: 0.0,
        ..physics(0.05)
    };
    let balls = [
        Ball::new(600.0, 200.0, 1.0, 0.5, 10.0, 1.0),
        Ball::new(100.0, 390.0, 0.0, 0.0, 10.0, 1.0),
        Ball::new(100.0, 370.0, 0.0, 0.0, 10.0, 1.0),
    ];
    let mut w = world(table(800.0, 400.0), p, &balls);
    let before = w.balls().clone();
    match w.step() {
        Err(StepError::EventBudget(msg)) => {
            assert!(
                msg.contains("ball 1") || msg.contains("ball 2"),
                "the message names a ball of the stack: {msg}"
            );
            // Only the two stacked balls take part, under gravity: that is the cause
            // the evidence points to, and the one named.
            assert!(msg.contains("involved 2 balls"), "{msg}");
            assert!(msg.contains("pressed together by gravity"), "{msg}");
            assert!(!msg.contains('\n'));
        }
        other => panic!("expected an event budget error, got {other:?}"),
    }
    // The balls are left as they were at the start of the interval.
    assert_eq!(w.balls(), &before);

    // A deliberately tiny cap on an ordinary gas: the same error, state kept.
    let gas = build_world(&gas_scenario(200, 0.3, "event", 5.0)).unwrap();
    let mut d = Direct::from_world(&gas);
    d.model.set_budget(Some(10));
    let before = d.balls.clone();
    assert!(matches!(d.step(), Err(StepError::EventBudget(_))));
    assert_eq!(d.balls, before);
    // Without a cap the same interval runs.
    d.model.set_budget(None);
    d.step().unwrap();
    assert!(d.model.due_events() > 10);
}

/// The first number after `key` in `msg`.
fn number_after(msg: &str, key: &str) -> f64 {
    let at = msg
        .find(key)
        .unwrap_or_else(|| panic!("no '{key}' in: {msg}"))
        + key.len();
    let rest = msg[at..].trim_start();
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | 'e' | '-' | '+')))
        .unwrap_or(rest.len());
    rest[..end]
        .parse()
        .unwrap_or_else(|_| panic!("no number after '{key}' in: {msg}"))
}

#[test]
fn a_stack_is_stopped_after_one_window_of_events_whatever_the_output_interval() {
    // The stack of the test above, sampled every 0.05 or once in a million time units:
    // the clock stalls at the same instant either way, and the guard stops it after
    // one window of events (`stall_window`), the same work as the former budget per
    // interval, not after an amount of work that grows with dt.
    for dt in [0.05, 1e6] {
        let p = Physics {
            gravity: [0.0, 1.0],
            restitution: 0.0,
            ..physics(dt)
        };
        let balls = [
            Ball::new(600.0, 200.0, 1.0, 0.5, 10.0, 1.0),
            Ball::new(100.0, 390.0, 0.0, 0.0, 10.0, 1.0),
            Ball::new(100.0, 370.0, 0.0, 0.0, 10.0, 1.0),
        ];
        let mut w = world(table(800.0, 400.0), p, &balls);
        let before = w.balls().clone();
        let Err(StepError::EventBudget(msg)) = w.step() else {
            panic!("dt = {dt}: the stack must stop");
        };
        assert_eq!(w.balls(), &before, "dt = {dt}");
        let events = number_after(&msg, "time stopped advancing:");
        assert!(
            events > 0.0 && events <= (event::stall_window(3) + 1) as f64,
            "dt = {dt}: stopped after {events} events: {msg}"
        );
        // The stall is in the first second of flight (ball 0 flies freely, the stack
        // is at rest from the start): what the window covered is far below dt = 1e6.
        let span = number_after(&msg, "events covered");
        assert!(span < 10.0, "dt = {dt}: {msg}");
    }
}

#[test]
fn a_ball_absurdly_fast_in_a_periodic_box_stops_after_one_window() {
    // A ball at 1e300 per unit of time crosses the 20-wide box at every event while
    // the clock moves by 2e-299: no stall (the clock does move), but the rest of a
    // unit interval would need about 5e298 events. The guard stops it at its first
    // look, one window in, with the state back at the interval's start.
    let table = Table::periodic(20.0, 20.0);
    let balls = [
        Ball::new(5.0, 5.0, 1e300, 0.0, 1.0, 1.0),
        Ball::new(15.0, 15.0, 1.0, 0.0, 1.0, 1.0),
    ];
    let mut w = world(table, physics(1.0), &balls);
    let before = w.balls().clone();
    let Err(StepError::EventBudget(msg)) = w.step() else {
        panic!("the run must stop");
    };
    assert_eq!(w.balls(), &before);
    let events = number_after(&msg, "");
    assert!(events <= (event::stall_window(2) + 1) as f64, "{msg}");
    assert!(msg.contains("would need"), "{msg}");
}

#[test]
fn a_busy_gas_tripping_a_tiny_event_budget_is_not_blamed_on_a_pile() {
    // physics.event_budget is honoured: a gas at area fraction 0.3 has about a quarter
    // of an event per ball while its fastest ball moves one radius (measured with the
    // CLI, docs/models.md), so a budget of 0.01 stops it at the first look; its events
    // are spread over many balls, and no stack or collapse is suggested.
    let mut s = gas_scenario(200, 0.3, "event", 3e4);
    s.physics.event_budget = Some(0.01);
    let mut w = build_world(&s).unwrap();
    let before = w.balls().clone();
    let Err(StepError::EventBudget(msg)) = w.step() else {
        panic!("a budget of 0.01 must stop the gas");
    };
    assert_eq!(w.balls(), &before);
    assert!(msg.contains("spread over many balls"), "{msg}");
    assert!(
        !msg.contains("gravity") && !msg.contains("inelastic"),
        "{msg}"
    );
    let rate = number_after(&msg, "events per unit of time,");
    assert!(rate > 0.01 && rate < 1000.0, "{msg}");

    // The default lets one interval of 3 10^4 time units (several windows) run.
    let mut w = build_world(&gas_scenario(200, 0.3, "event", 3e4)).unwrap();
    w.step().unwrap();
    assert!(w.events().unwrap() > 2 * event::stall_window(200));
}
