//! The event loop runs in one of two versions compiled from the same source: for any
//! x86-64, or for processors with AVX-512 (`models/event/isa.rs`). Which one ran must
//! never show: the same scene through both gives every ball to the last bit, the same
//! collision count and the same failure, if any.

use crate::common;

use carom::models::event::Event;
use carom::models::{CollisionModel, StepContext};
use carom::parse::build_world;
use carom::presets;
use carom::ModelKind;
use carom::{Balls, Physics, Table};
use common::assert_same_bits;

struct Run {
    balls: Balls,
    collisions: u64,
    error: Option<String>,
    wide: bool,
}

/// A preset under the event model for `time` (its own duration if `None`; in its own
/// steps), every ball read at the end; the wide version asked for if `wide`.
fn run(preset: &str, time: Option<f64>, wide: bool) -> Run {
    let mut scenario = presets::find(preset).unwrap().scenario().unwrap();
    scenario.physics.model = Some(ModelKind::Event);
    let w = build_world(&scenario).unwrap();
    let (table, physics): (Table, Physics) = (*w.table(), *w.physics());
    let mut balls = w.balls().clone();
    let mut model = Event::new(&balls, &table, &physics).unwrap();
    let wide = model.set_wide_instructions(wide);
    let mut error = None;
    let time = time.unwrap_or(scenario.duration);
    for _ in 0..(time / physics.dt).round() as usize {
        let r = model.step_deferred(StepContext {
            balls: &mut balls,
            table: &table,
            physics: &physics,
            pool: None,
            walls: &carom::walls::NO_WALLS,
            in_play: None,
        });
        if let Err(e) = r {
            error = Some(format!("{e:?}"));
            break;
        }
    }
    model.synchronise(&mut balls);
    Run {
        balls,
        collisions: model.collisions(),
        error,
        wide,
    }
}

#[test]
fn both_versions_of_the_event_loop_give_the_same_bits() {
    // Each scene takes another path through the loop: a walled gas (crossings,
    // walls, lone pairs), a periodic gas (wrapping), an inelastic one (the collapse
    // guard), simultaneous groups (a rack, a cradle), gravity with resting balls
    // (quartic pair times, the side heap), spin off a cushion (friction's rebuilds).
    let scenes = [
        ("gas", Some(20.0)),
        ("hard-disks", Some(20.0)),
        ("cooling", Some(20.0)),
        ("break", None),
        ("newton-cradle", None),
        ("three-ball", None),
        ("level3", None),
        ("column", Some(0.2)),
        ("english", None),
    ];
    let mut wide_ran = false;
    for (name, time) in scenes {
        let wide = run(name, time, true);
        let portable = run(name, time, false);
        assert!(!portable.wide, "{name}: the portable version was asked for");
        wide_ran |= wide.wide;
        assert_same_bits(name, &wide.balls, &portable.balls);
        assert_eq!(wide.collisions, portable.collisions, "{name}: collisions");
        assert_eq!(wide.error, portable.error, "{name}: how the run ended");
        assert!(portable.collisions > 0, "{name}: nothing collided");
    }
    // On a processor without AVX-512 there is one version only, and it is refused.
    assert_eq!(wide_ran, Event::wide_supported());
    if !wide_ran {
        eprintln!("note: no AVX-512 here; only the portable version ran");
    }
}
