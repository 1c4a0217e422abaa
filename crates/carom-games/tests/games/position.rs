//! A position's world built once and copied per shot gives, to the bit, what building
//! the world with the strike in the scenario gives (the reference below, written from
//! the scenario format: the cue ball's `cue` entry set, the world built, stepped an
//! output interval at a time, unread, until every ball rests).

use carom::event_log::LoggedEvent;
use carom_games::shot::{facts, Facts, Position, MAX_TIME};
use carom_games::{Game, GameKind, Setup, Shot};

fn reference(setup: &Setup, cue: u32, shot: &Shot) -> (Facts, Vec<LoggedEvent>) {
    let i = setup.balls.iter().position(|b| b.0 == cue).unwrap();
    let mut scenario = setup.scenario();
    scenario.balls[i].cue = Some(shot.cue());
    let mut world = carom::parse::build_world(&scenario).unwrap();
    world.set_event_log(true);
    let mut events = Vec::new();
    loop {
        world.run_steps_unread(1).unwrap();
        world.take_events(&mut events);
        if world.motion_ended() || world.time > MAX_TIME {
            break;
        }
    }
    world.synchronise();
    let numbers: Vec<u32> = setup.balls.iter().map(|b| b.0).collect();
    (facts(&numbers, i, &world, &events), events)
}

/// The event log as its CSV lines (NaN fields make rows unequal to themselves).
fn lines(events: &[LoggedEvent]) -> Vec<String> {
    events.iter().map(carom::event_log::csv_line).collect()
}

#[test]
fn a_copied_world_shoots_as_a_built_one_to_the_bit() {
    let g = Game::new(GameKind::NineBall, 2);
    let mut mid = g.clone();
    mid.shoot(&Shot::new(6.0, 0.3), None).unwrap();
    let mut compared = 0;
    for game in [&g, &mid] {
        let setup = game.setup();
        let position = Position::new(&setup).unwrap();
        // Copies of copies (one per thread in a batch) shoot alike as well.
        let copy = position.try_clone().unwrap();
        for k in 0..24 {
            let shot = Shot {
                speed: 1.0 + 0.25 * k as f64,
                aim: 15.0 * k as f64 - 1.0,
                english: 0.05 * (k % 5) as f64 - 0.1,
                follow: 0.1 * (k % 7) as f64 - 0.3,
                elevation: (k % 3) as f64 * 5.0,
            };
            let (f, e) = reference(&setup, 0, &shot);
            for p in [&position, &copy] {
                let out = p.simulate(0, &shot).unwrap();
                assert_eq!(out.facts, f, "shot {k}");
                assert_eq!(lines(&out.events), lines(&e), "shot {k}");
            }
            compared += 1;
        }
    }
    assert_eq!(compared, 48);
    // A ball that is not on the table is named.
    let p = Position::new(&mid.setup()).unwrap();
    let err = p.simulate(42, &Shot::new(1.0, 0.0)).unwrap_err();
    assert_eq!(err.field, "cue");
}
