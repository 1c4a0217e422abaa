//! A shot ends at the first output interval's end after its last ball stopped moving,
//! read off the event log's own rows (phase changes and pockets), not off the loop
//! that looked for rest without reading the balls.

use carom::event_log::EventKind;
use carom::Phase;
use carom_games::shot::Position;
use carom_games::{Game, GameKind, Shot};

/// The time the last ball stopped moving across the cloth: for each ball, the first
/// row that stops it (entering `Spinning` or `Stationary`, or a pocket) after the last
/// row that set it moving (entering `Sliding` or `Rolling`); the latest over balls.
fn last_stop(events: &[carom::event_log::LoggedEvent]) -> f64 {
    let mut stopped = std::collections::HashMap::<u32, f64>::new();
    for e in events {
        let stop = match (e.kind, e.phase) {
            (EventKind::PhaseChange, Some(Phase::Sliding | Phase::Rolling)) => false,
            (EventKind::PhaseChange, Some(Phase::Spinning | Phase::Stationary)) => true,
            (EventKind::Pocket, _) => true,
            _ => continue,
        };
        if stop {
            stopped.entry(e.i).or_insert(e.time);
        } else {
            stopped.remove(&e.i);
        }
    }
    stopped.values().copied().fold(0.0, f64::max)
}

#[test]
fn a_shot_ends_in_the_interval_its_last_ball_stops() {
    let g = Game::new(GameKind::NineBall, 3);
    let mut mid = g.clone();
    mid.shoot(&Shot::new(6.5, -0.4), None).unwrap();
    for game in [&g, &mid] {
        let setup = game.setup();
        let dt = setup.scenario().physics.dt;
        let position = Position::new(&setup).unwrap();
        for k in 0..30 {
            let shot = Shot {
                speed: 1.0 + 0.2 * k as f64,
                aim: 12.0 * k as f64 + 0.5,
                english: 0.04 * (k % 5) as f64 - 0.08,
                follow: 0.1 * (k % 7) as f64 - 0.3,
                elevation: 0.0,
            };
            let out = position.simulate(0, &shot).unwrap();
            let (end, stop) = (out.facts.duration, last_stop(&out.events));
            // The run looks for rest at the end of each interval of length dt, so the
            // last stop lies in the last interval, (end - dt, end]; the rows' times
            // are the interval's start plus the model's time within it, so allow a
            // few ulps of the clock at either edge.
            let ulps = 8.0 * f64::EPSILON * end;
            assert!(
                stop <= end + ulps && stop > end - dt - ulps,
                "shot {k}: last stop {stop} s, ended at {end} s (interval {dt} s)"
            );
        }
    }
}
