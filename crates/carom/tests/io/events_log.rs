//! The event log against the physics: a head-on pair, walls, a pocket, the break's
//! first impact, thread-count identity, and the log leaving every result unchanged.

use carom::event_log::{EventKind, LoggedEvent};
use carom::models::Wall;
use carom::parse::build_world;
use carom::presets::PRESETS;
use carom::ModelKind;
use carom::{Ball, Physics, Table, World};

const MODELS: [ModelKind; 4] = [
    ModelKind::Impulse,
    ModelKind::Spring,
    ModelKind::Simultaneous,
    ModelKind::Event,
];

fn world(model: ModelKind, e: f64, balls: &[Ball]) -> World {
    let p = Physics {
        model,
        restitution: e,
        dt: 0.01,
        ..Default::default()
    };
    let mut w = World::from_balls(Table::new(100.0, 100.0), p, balls).unwrap();
    w.set_event_log(true);
    w
}

fn ball(x: f64, y: f64, vx: f64, vy: f64) -> Ball {
    Ball::new(x, y, vx, vy, 1.0, 2.0)
}

fn rows(w: &World, kind: EventKind) -> Vec<LoggedEvent> {
    w.event_log()
        .iter()
        .filter(|r| r.kind == kind)
        .copied()
        .collect()
}

#[test]
fn head_on_pair_one_row_at_the_analytic_time_with_the_reduced_mass_impulse() {
    let (v, e, m) = (2.0, 0.8, 2.0);
    // Gap 10 - 2 radii = 8 closed at 2 v: contact at t = 2.
    for model in [
        ModelKind::Impulse,
        ModelKind::Simultaneous,
        ModelKind::Event,
    ] {
        let mut w = world(
            model,
            e,
            &[ball(45.0, 50.0, v, 0.0), ball(55.0, 50.0, -v, 0.0)],
        );
        w.run_steps(400).unwrap();
        let r = rows(&w, EventKind::BallBall);
        assert_eq!(r.len(), 1, "{model:?}: {r:?}");
        let r = r[0];
        assert_eq!((r.i, r.j), (0, Some(1)));
        let tol = if model == ModelKind::Event {
            1e-9
        } else {
            0.0101
        };
        assert!((r.time - 2.0).abs() <= tol, "{model:?}: {}", r.time);
        // Stepping models find the pair a little overlapped, at the same speeds.
        assert!(
            (r.approach - 2.0 * v).abs() < 1e-9,
            "{model:?}: {}",
            r.approach
        );
        let expected = (m / 2.0) * (1.0 + e) * 2.0 * v;
        assert!(
            (r.impulse - expected).abs() < 1e-9,
            "{model:?}: {}",
            r.impulse
        );
    }
    let mut w = world(
        ModelKind::Spring,
        e,
        &[ball(45.0, 50.0, v, 0.0), ball(55.0, 50.0, -v, 0.0)],
    );
    w.run_steps(400).unwrap();
    let r = rows(&w, EventKind::BallBall);
    assert_eq!(r.len(), 1, "{r:?}");
    assert!((r[0].time - 2.0).abs() <= 0.0101 && r[0].impulse.is_nan());
}

#[test]
fn table_wall_row_with_the_wall_and_m_one_plus_e_v() {
    let (v, e, m) = (3.0, 0.5, 2.0);
    for model in [
        ModelKind::Impulse,
        ModelKind::Simultaneous,
        ModelKind::Event,
    ] {
        let mut w = world(model, e, &[ball(50.0, 50.0, v, 0.0)]);
        w.run_steps(9000).unwrap();
        let r = rows(&w, EventKind::TableWall(Wall::Right));
        assert!(!r.is_empty(), "{model:?}");
        let r = r[0];
        // 49 to go at speed 3.
        let tol = if model == ModelKind::Event {
            1e-9
        } else {
            0.0101
        };
        assert!((r.time - 49.0 / v).abs() <= tol, "{model:?}: {}", r.time);
        assert!(
            (r.impulse - m * (1.0 + e) * v).abs() < 1e-9,
            "{model:?}: {}",
            r.impulse
        );
        assert!((r.approach - v).abs() < 1e-9);
        assert_eq!(rows(&w, EventKind::TableWall(Wall::Left))[0].i, 0);
    }
}

fn preset_world(name: &str, model: ModelKind) -> Option<World> {
    let preset = PRESETS.iter().find(|p| p.name == name).unwrap();
    let mut s = preset.scenario().unwrap();
    s.physics.model = Some(model);
    build_world(&s).ok()
}

#[test]
fn interior_wall_and_pocket_rows_on_the_pool_table() {
    for model in MODELS {
        let Some(mut w) = preset_world("pool", model) else {
            continue;
        };
        w.set_event_log(true);
        let _ = w.run_steps(400);
        let walls = rows(&w, EventKind::Wall);
        assert!(walls.iter().all(|r| r.wall.is_some()), "{model:?}");
        for r in rows(&w, EventKind::Pocket) {
            let removal = w.removal(r.i as usize).unwrap();
            assert_eq!(r.time, removal.time, "{model:?}");
            assert!(r.pocket.is_some());
        }
    }
}

#[test]
fn the_break_under_event_starts_with_the_cue_ball_on_the_apex() {
    let mut w = preset_world("break", ModelKind::Event).unwrap();
    w.set_event_log(true);
    w.run_steps(2000).unwrap();
    let first = w.event_log()[0];
    assert_eq!(first.kind, EventKind::BallBall);
    // The preset lists the cue ball first and the apex ball second.
    assert_eq!((first.i, first.j), (0, Some(1)));
}

#[test]
fn the_log_is_the_same_on_any_thread_count() {
    for model in [
        ModelKind::Spring,
        ModelKind::Impulse,
        ModelKind::Simultaneous,
    ] {
        let run = |threads: usize| {
            let mut w = preset_world("gas", model).unwrap();
            w.set_threads(threads).unwrap();
            w.set_event_log(true);
            w.run_steps(30).unwrap();
            let log: Vec<String> = w
                .event_log()
                .iter()
                .map(carom::event_log::csv_line)
                .collect();
            log
        };
        let one = run(1);
        assert!(!one.is_empty(), "{model:?}");
        assert_eq!(one, run(2), "{model:?}");
    }
}

/// Positions and velocities, bit for bit, and the collision count.
fn state(w: &World) -> (Vec<u64>, u64) {
    let b = w.balls();
    let mut v = Vec::new();
    for i in 0..b.len() {
        for x in [b.x[i], b.y[i], b.vx[i], b.vy[i], b.omega[i]] {
            v.push(x.to_bits());
        }
    }
    (v, w.collisions())
}

#[test]
fn the_log_changes_no_result() {
    for preset in PRESETS {
        for model in MODELS {
            // Too slow in a debug build: the 10,000-ball gas and the big granular
            // scenes are run for a few steps only.
            let steps = match preset.name {
                "gas" | "hopper" | "hard-disks" | "cooling" | "column" | "drum" | "jamming"
                | "melting" => 20,
                _ => 1000,
            };
            let Some(mut off) = preset_world(preset.name, model) else {
                continue;
            };
            let mut on = preset_world(preset.name, model).unwrap();
            on.set_event_log(true);
            let (a, b) = (off.run_steps(steps), on.run_steps(steps));
            assert_eq!(a.is_ok(), b.is_ok(), "{} {model:?}", preset.name);
            assert_eq!(state(&off), state(&on), "{} {model:?}", preset.name);
        }
    }
}
