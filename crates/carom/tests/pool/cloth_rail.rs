//! A pool ball rolling along a cushion on cloth, touching it (`rail_roll.toml`): its
//! velocity across the cushion is round-off, which the event model's prediction and
//! its impact judge alike, so the run goes on to rest instead of meeting the cushion
//! again and again at one instant until the stall guard stops it.

use carom::event_log::EventKind;
use carom::parse::{build_world, parse_scenario, Format};
use carom::World;

/// The ball's radius and the cushion's line (`rail_roll.toml`).
const R: f64 = 0.028575;
const RAIL: f64 = 0.1;

fn rail_roll() -> World {
    let s = parse_scenario(include_str!("rail_roll.toml"), Format::Toml).unwrap();
    let mut w = build_world(&s).unwrap();
    w.set_event_log(true);
    w
}

/// How far the ball's surface is from the cushion's line (negative: through it).
fn gap(w: &World) -> f64 {
    w.balls().x[0] - RAIL - R
}

/// Run as `carom run` runs it (the balls read only at the end): the ten seconds end;
/// the ball meets the cushion softly (4.7 mm/s, below the 9.5 mm/s of a soft impact),
/// rolls along it to the table's end, comes back and stops against the cushion,
/// touching it to round-off (1e-9 of a radius), having lost all its energy; a handful
/// of cushion impacts, every impulse pushing the ball off the cushion.
#[test]
fn a_ball_rolling_along_a_cushion_comes_to_rest_against_it() {
    let mut w = rail_roll();
    let e0 = w.diagnostics().total_energy;
    w.run_steps_unread(40).unwrap();
    w.synchronise();
    assert_eq!(w.time, 10.0);
    let b = w.balls();
    assert_eq!([b.vx[0], b.vy[0], b.wx[0], b.wy[0]], [0.0; 4], "at rest");
    assert!(
        gap(&w).abs() <= 1e-9 * R,
        "against the cushion: gap {}",
        gap(&w)
    );
    let e = w.diagnostics().total_energy;
    assert!(e0 > 0.0 && e == 0.0, "energy {e0} -> {e}");
    let log = w.event_log();
    let cushion: Vec<_> = log
        .iter()
        .filter(|r| r.kind == EventKind::Wall && r.wall == Some(0))
        .collect();
    assert!(
        !cushion.is_empty() && cushion.len() < 20,
        "{} cushion rows",
        cushion.len()
    );
    assert!(
        cushion[0].approach > 0.004 && cushion[0].approach < 0.005,
        "a soft impact: {:?}",
        cushion[0]
    );
    assert!(
        cushion
            .iter()
            .all(|r| r.impulse >= 0.0 && r.approach.abs() < 0.01),
        "{cushion:?}"
    );
    assert!(
        log.iter()
            .any(|r| matches!(r.kind, EventKind::TableWall(_))),
        "the table's end wall is met"
    );
}

/// The same run read after every step (each read restarts the model's predictions):
/// the energy never rises (1e-12 of the start: the round-off of its sum) and the ball
/// never goes through the cushion by more than round-off; it ends at rest against it.
#[test]
fn a_ball_rolling_along_a_cushion_never_gains_energy_nor_enters_it() {
    let mut w = rail_roll();
    let e0 = w.diagnostics().total_energy;
    let mut last = e0;
    for _ in 0..40 {
        w.run_steps(1).unwrap();
        let e = w.diagnostics().total_energy;
        assert!(
            e <= last + 1e-12 * e0,
            "energy rose from {last} to {e} at t = {}",
            w.time
        );
        assert!(
            gap(&w) >= -1e-9 * R,
            "through the cushion by {} at t = {}",
            -gap(&w),
            w.time
        );
        last = e;
    }
    assert_eq!(last, 0.0, "at rest");
    assert!(
        gap(&w).abs() <= 1e-9 * R,
        "against the cushion: gap {}",
        gap(&w)
    );
}
