//! The viewer state's tests: everything the window does, driven without one.

use super::*;
use carom::{Friction, Table};

fn physics(model: ModelKind) -> Physics {
    Physics {
        model,
        ..Physics::default()
    }
}

fn sim_with(p: Physics, width: f64, height: f64, balls: &[Ball]) -> Sim {
    let world = World::from_balls(Table::new(width, height), p, balls).expect("test world builds");
    Sim::new(world, "test", 1)
}

fn ball(x: f64, y: f64) -> Ball {
    Ball::new(x, y, 0.0, 0.0, 10.0, 1.0)
}

fn unique_dir(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("carom-viewer-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn the_boundary_selector_rebuilds_the_scene_with_its_state() {
    // A ball at x = 900 flying right at 200 on a 1000-wide table: made periodic, one
    // frame (20 steps of 0.05) takes it through the right edge to x = 100, its
    // image count 1; the
    // channel keeps that count on x; walls again drop it (and refuse nothing, the
    // ball being inside).
    let mut b = ball(900.0, 500.0);
    b.vx = 200.0;
    let mut sim = sim_with(physics(ModelKind::Impulse), 1000.0, 1000.0, &[b]);
    use carom::Boundary::{Periodic, Walls};
    sim.set_boundary([Periodic, Periodic]).unwrap();
    assert_eq!(sim.world().table().boundary, [Periodic, Periodic]);
    sim.frame();
    let x = sim.world().balls().x[0];
    assert_eq!(sim.world().balls().ix[0], 1, "x = {x}");
    assert!((x - 100.0).abs() < 1e-9, "x = {x}");
    sim.set_boundary([Periodic, Walls]).unwrap();
    assert_eq!(sim.world().balls().ix[0], 1);
    sim.set_boundary([Walls, Walls]).unwrap();
    assert_eq!(sim.world().table().boundary, [Walls, Walls]);
    assert_eq!(sim.world().balls().ix[0], 0);
}

#[test]
fn gravity_slider_reaches_the_world() {
    // One ball in free flight under the impulse model, whose free flight is exact
    // under constant gravity: after one frame of n steps, y moves by g (n dt)^2 / 2.
    let mut sim = sim_with(
        physics(ModelKind::Impulse),
        1000.0,
        1000.0,
        &[ball(500.0, 100.0)],
    );
    sim.draft.gravity = [0.0, 0.3];
    sim.frame();
    assert_eq!(sim.world().physics().gravity, [0.0, 0.3]);
    assert!(sim.physics_error.is_none());
    let t = 20.0 * 0.05;
    let expected = 100.0 + 0.5 * 0.3 * t * t;
    // Twenty additions of numbers near 100: a few ulps of 100 each.
    assert!(
        (sim.world().balls().y[0] - expected).abs() < 1e-11,
        "{}",
        sim.world().balls().y[0]
    );
    assert_eq!(sim.world().balls().x[0], 500.0);
}

#[test]
fn friction_slider_reaches_the_world() {
    // Linear friction multiplies the speed by (1 - mu)^dt each step: after one frame
    // of n steps the speed is v0 (1 - mu)^(n dt), whatever the path.
    let mut b = ball(100.0, 500.0);
    b.vx = 2.0;
    let mut sim = sim_with(physics(ModelKind::Spring), 1000.0, 1000.0, &[b]);
    sim.draft.friction = Friction::Linear { mu: 0.2 };
    sim.frame();
    assert_eq!(sim.world().physics().friction, Friction::Linear { mu: 0.2 });
    let expected = 2.0 * 0.8f64.powf(20.0 * 0.05);
    // powf per step versus once: a few ulps per step.
    assert!((sim.world().balls().vx[0] - expected).abs() < 1e-13);
}

#[test]
fn every_panel_setting_is_applied_at_once() {
    let mut sim = sim_with(
        physics(ModelKind::Spring),
        400.0,
        400.0,
        &[ball(100.0, 100.0)],
    );
    let mut p = sim.draft;
    p.stiffness = 7.5;
    p.restitution = 0.6;
    p.integrator = carom::Integrator::VelocityVerlet;
    p.friction = Friction::Dry {
        mu: 0.1,
        g_normal: 2.0,
    };
    p.dt = 0.02;
    sim.draft = p;
    sim.apply_draft();
    assert_eq!(*sim.world().physics(), p);
    sim.frame();
    // The next frame runs 20 steps of the new dt.
    assert!((sim.world().time - 20.0 * 0.02).abs() < 1e-12);
}

#[test]
fn refused_setting_shows_the_reason_and_keeps_the_world_running() {
    let mut sim = sim_with(
        physics(ModelKind::Spring),
        400.0,
        400.0,
        &[ball(100.0, 100.0), ball(300.0, 100.0)],
    );
    let before = *sim.world().physics();
    // dt sqrt(k / mu) = 2 sqrt(5 / 0.5) = 6.3 >= 2: unstable, refused.
    sim.draft.dt = 2.0;
    sim.frame();
    let err = sim.physics_error.clone().expect("unstable dt is refused");
    assert!(err.contains("physics.dt"), "{err}");
    assert_eq!(*sim.world().physics(), before);
    assert_eq!(sim.world().steps, 20, "still runs with the previous dt");
    sim.draft.restitution = 1.5;
    sim.frame();
    assert!(sim.physics_error.is_some());
    sim.draft = before;
    sim.frame();
    assert!(sim.physics_error.is_none());
    assert_eq!(
        sim.set_physics(Physics {
            restitution: -0.1,
            ..before
        })
        .unwrap_err(),
        sim.physics_error.clone().unwrap()
    );
}

#[test]
fn every_model_choice_is_applied_or_explained() {
    for start in ModelKind::ALL {
        for choice in ModelKind::ALL {
            let mut sim = sim_with(
                physics(ModelKind::Impulse),
                400.0,
                400.0,
                &[ball(100.0, 100.0), ball(300.0, 300.0)],
            );
            let _ = sim.set_physics(physics(start));
            let current = sim.world().physics().model;
            sim.draft.model = choice;
            sim.frame();
            let now = sim.world().physics().model;
            match &sim.physics_error {
                None => assert_eq!(now, choice),
                Some(e) => {
                    assert_eq!(now, current, "a refused model leaves the world as it was");
                    assert!(!e.is_empty());
                }
            }
        }
    }
}

#[test]
fn held_ball_moves_through_interpolated_positions() {
    // Kinematic ball alone on the table, impulse model: the limit on its speed is
    // half a contact distance per step, 10 / 0.05 = 200 per time unit; ask for 60.
    let mut k = ball(100.0, 100.0);
    k.kinematic = true;
    let mut sim = sim_with(physics(ModelKind::Impulse), 1000.0, 400.0, &[k]);
    assert_eq!(sim.press([103.0, 101.0]), Press::Grabbed(0));
    sim.drag_to([163.0, 101.0]);
    let mut seen = Vec::new();
    sim.frame_observed(|w| seen.push((w.balls().x[0], w.balls().vx[0])));
    assert_eq!(seen.len(), 20);
    for (step, &(x, vx)) in seen.iter().enumerate() {
        let expected = 100.0 + 60.0 * (step + 1) as f64 / 20.0;
        assert!(
            (x - expected).abs() < 1e-9,
            "step {step}: {x} vs {expected}"
        );
        assert!(
            (vx - 60.0).abs() < 1e-9,
            "the ball carries the velocity it moves at"
        );
    }
    assert_eq!(sim.world().balls().y[0], 100.0);
}

#[test]
fn held_ball_respects_the_spring_speed_limit() {
    // Spring, k = 5, unit masses, both r = 10: the limit is (r + r)/2 sqrt(k/m).
    let mut sim = sim_with(
        physics(ModelKind::Spring),
        2000.0,
        400.0,
        &[ball(100.0, 100.0), ball(1500.0, 300.0)],
    );
    sim.press([100.0, 100.0]);
    sim.drag_to([900.0, 100.0]);
    sim.frame();
    let limit = 10.0 * 5.0f64.sqrt();
    assert!((sim.drag_speed_limit(0) - limit).abs() < 1e-12);
    assert!((sim.world().balls().x[0] - (100.0 + limit * 1.0)).abs() < 1e-9);
    // It gets there in the end.
    for _ in 0..60 {
        sim.frame();
    }
    assert!((sim.world().balls().x[0] - 900.0).abs() < 1e-6);
    // Once there, it rests: letting go throws nothing.
    sim.frame();
    sim.release();
    assert_eq!(
        (sim.world().balls().vx[0], sim.world().balls().vy[0]),
        (0.0, 0.0)
    );
}

/// Drags ball 0 from x = 100 to x = 500 in one mouse move, across ball 1 at rest at
/// x = 200; returns the largest overlap seen at any step and the final state.
fn fast_drag_across(model: ModelKind) -> (f64, Balls) {
    let mut sim = sim_with(
        physics(model),
        4000.0,
        200.0,
        &[ball(100.0, 100.0), ball(200.0, 100.0)],
    );
    sim.press([100.0, 100.0]);
    sim.drag_to([500.0, 100.0]);
    let mut worst: f64 = 0.0;
    for _ in 0..100 {
        sim.frame_observed(|w| {
            let b = w.balls();
            worst = worst.max(20.0 - (b.x[1] - b.x[0]).hypot(b.y[1] - b.y[0]));
        });
        if (sim.world().balls().x[0] - 500.0).abs() < 1e-9 {
            break;
        }
    }
    (worst, sim.world().balls().clone())
}

#[test]
fn fast_drag_pushes_balls_ahead_instead_of_tunnelling() {
    for model in [ModelKind::Impulse, ModelKind::Spring] {
        let (worst, b) = fast_drag_across(model);
        assert!(
            (b.x[0] - 500.0).abs() < 1e-9,
            "{model:?}: the held ball reached the mouse"
        );
        assert!(
            b.x[1] > b.x[0] + 20.0 - 1e-9,
            "{model:?}: struck ball ahead ({} vs {})",
            b.x[1],
            b.x[0]
        );
        // Bounced off an infinitely heavy ball at speed u, elastically: 2u.
        let u = match model {
            ModelKind::Impulse => 200.0,
            _ => 10.0 * 5.0f64.sqrt(),
        };
        assert!(
            (b.vx[1] - 2.0 * u).abs() < 0.02 * 2.0 * u,
            "{model:?}: vx = {}",
            b.vx[1]
        );
        // The speed limit bounds the overlap by half the contact distance (10):
        // exactly for the impulse model (one step of relative motion), within the
        // semi-implicit Euler amplitude error (w dt / 2 = 6% here) for the spring.
        assert!(worst <= 10.0 * 1.07, "{model:?}: overlap {worst}");
    }
    // Without interpolation (the ball placed at the mouse at once) the same drag
    // passes straight through: the struck ball never moves.
    let mut sim = sim_with(
        physics(ModelKind::Impulse),
        4000.0,
        200.0,
        &[ball(100.0, 100.0), ball(200.0, 100.0)],
    );
    sim.world.balls_mut().inv_m[0] = 0.0;
    sim.world.balls_mut().x[0] = 500.0;
    sim.frame();
    assert_eq!(sim.world().balls().x[1], 200.0);
}

#[test]
fn released_ball_gets_its_mass_back_and_keeps_the_throw() {
    let mut sim = sim_with(
        physics(ModelKind::Impulse),
        1000.0,
        400.0,
        &[ball(100.0, 100.0)],
    );
    sim.press([100.0, 100.0]);
    assert!(
        sim.world().balls().is_kinematic(0),
        "held balls are kinematic"
    );
    sim.drag_to([130.0, 140.0]);
    sim.frame();
    sim.release();
    let b = sim.world().balls();
    assert_eq!(b.inv_m[0], 1.0);
    assert!((b.vx[0] - 30.0).abs() < 1e-9 && (b.vy[0] - 40.0).abs() < 1e-9);
    assert!(sim.held_ball().is_none());
}

#[test]
fn paused_drag_places_the_ball_without_stepping() {
    let mut sim = sim_with(
        physics(ModelKind::Spring),
        1000.0,
        400.0,
        &[ball(100.0, 100.0)],
    );
    sim.running = false;
    sim.press([100.0, 100.0]);
    sim.drag_to([700.0, 300.0]);
    sim.frame();
    let b = sim.world().balls();
    assert_eq!((b.x[0], b.y[0], b.vx[0], b.vy[0]), (700.0, 300.0, 0.0, 0.0));
    assert_eq!(sim.world().steps, 0);
    // The target is kept inside the table.
    sim.drag_to([5000.0, -50.0]);
    sim.frame();
    let b = sim.world().balls();
    assert_eq!((b.x[0], b.y[0]), (990.0, 10.0));
}

#[test]
fn click_adds_a_ball_where_there_is_room() {
    let mut sim = sim_with(
        physics(ModelKind::Spring),
        1000.0,
        400.0,
        &[ball(100.0, 100.0), ball(300.0, 100.0)],
    );
    let i = sim.add_ball_at([500.0, 200.0]).expect("room");
    assert_eq!(i, 2);
    let b = sim.world().balls().get(2);
    assert_eq!(
        (b.x, b.y, b.vx, b.vy, b.r, b.m),
        (500.0, 200.0, 0.0, 0.0, 10.0, 1.0)
    );
    assert!(b.color.is_some());
    let err = sim.add_ball_at([115.0, 100.0]).unwrap_err();
    assert!(err.contains("overlap ball 0"), "{err}");
    let err = sim.add_ball_at([995.0, 200.0]).unwrap_err();
    assert!(err.contains("wall"), "{err}");
    assert_eq!(sim.world().balls().len(), 3);
    // A ball so light that the spring step would be unstable is refused:
    // mu = 0.001 * 1 / 1.001, dt sqrt(k / mu) = 0.05 * sqrt(5005) = 3.5 >= 2.
    sim.new_ball_mass = 0.001;
    let err = sim.add_ball_at([700.0, 200.0]).unwrap_err();
    assert!(err.contains("physics.dt"), "{err}");
    assert_eq!(sim.world().balls().len(), 3);
    // The added ball takes part in the physics: a ball sent at it stops (equal
    // masses, head on, elastic) and it leaves with the incoming speed.
    let mut sim = sim_with(
        physics(ModelKind::Impulse),
        1000.0,
        400.0,
        &[Ball::new(100.0, 200.0, 5.0, 0.0, 10.0, 1.0)],
    );
    sim.add_ball_at([300.0, 200.0]).unwrap();
    for _ in 0..60 {
        sim.frame();
    }
    let b = sim.world().balls();
    assert!(
        b.vx[0].abs() < 1e-12 && (b.vx[1] - 5.0).abs() < 1e-12,
        "{:?}",
        b.vx
    );
}

#[test]
fn right_click_removes_exactly_that_ball() {
    let balls = [
        ball(100.0, 100.0),
        ball(300.0, 100.0),
        ball(500.0, 100.0),
        ball(700.0, 100.0),
    ];
    let mut sim = sim_with(physics(ModelKind::Spring), 1000.0, 400.0, &balls);
    sim.press([700.0, 100.0]);
    assert_eq!(sim.remove_ball_at([305.0, 95.0]), Some(1));
    assert_eq!(sim.world().balls().x, vec![100.0, 500.0, 700.0]);
    assert_eq!(
        sim.held_ball(),
        Some(2),
        "the held ball is still the same ball"
    );
    assert_eq!(sim.remove_ball_at([900.0, 300.0]), None);
    assert_eq!(sim.remove_ball_at([700.0, 100.0]), Some(2));
    assert_eq!(sim.held_ball(), None);
    assert_eq!(sim.world().balls().len(), 2);
}

#[test]
fn speed_factor_changes_steps_per_frame_never_dt() {
    let mut sim = sim_with(
        physics(ModelKind::Spring),
        400.0,
        400.0,
        &[ball(100.0, 100.0)],
    );
    sim.speed = 0.5;
    sim.frame();
    assert_eq!(sim.last_frame_steps, 10);
    sim.speed = 3.0;
    sim.frame();
    assert_eq!(sim.last_frame_steps, 60);
    // Slow motion: 0.2 steps a frame, one step every five frames.
    sim.speed = 0.01;
    let before = sim.world().steps;
    for _ in 0..100 {
        sim.frame();
    }
    assert_eq!(sim.world().steps - before, 20);
    assert_eq!(sim.world().physics().dt, 0.05);
}

#[test]
fn pause_and_single_step() {
    let mut sim = sim_with(
        physics(ModelKind::Spring),
        400.0,
        400.0,
        &[ball(100.0, 100.0)],
    );
    sim.running = false;
    sim.frame();
    assert_eq!(sim.world().steps, 0);
    sim.request_single_step();
    sim.frame();
    sim.frame();
    assert_eq!(sim.world().steps, 1);
}

#[test]
fn reset_returns_to_the_scene_as_loaded() {
    let scenario = load_preset("break").unwrap();
    let mut sim = sim_for(scenario.clone(), "preset break", 1).unwrap();
    for _ in 0..10 {
        sim.frame();
    }
    sim.add_ball_at([50.0, 50.0]).unwrap();
    assert!(sim.world().steps > 0);
    sim.reset();
    let fresh = build_world(&scenario).unwrap();
    assert_eq!(sim.world().balls(), fresh.balls());
    assert_eq!((sim.world().time, sim.world().steps), (0.0, 0));
    assert_eq!(sim.diagnostics().symmetry_error, Some(0.0));
}

#[test]
fn saved_state_resumes_the_same_scene() {
    let dir = unique_dir("save");
    let mut sim = sim_for(load_preset("break").unwrap(), "preset break", 1).unwrap();
    for _ in 0..30 {
        sim.frame();
    }
    let path = dir.join("state.json");
    sim.save_state(&path).expect("saves");
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        names,
        vec![std::ffi::OsString::from("state.json")],
        "no temporary left"
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let resumed = build_world(&parse_scenario(&text, Format::Json).unwrap()).unwrap();
    // serde_json writes the shortest text that reads back exactly, but its default
    // reader may land one ulp off (exact reading is its `float_roundtrip` feature).
    let (a, b) = (resumed.balls(), sim.world().balls());
    for (u, v) in [(&a.x, &b.x), (&a.y, &b.y), (&a.vx, &b.vx), (&a.vy, &b.vy)] {
        for (p, q) in u.iter().zip(v) {
            assert!(
                (p - q).abs() <= 2.0 * f64::EPSILON * q.abs().max(f64::MIN_POSITIVE),
                "{p} vs {q}"
            );
        }
    }
    assert_eq!(
        (&a.r, &a.m, &a.inv_m, &a.color),
        (&b.r, &b.m, &b.inv_m, &b.color)
    );
    assert_eq!(resumed.time, sim.world().time);
    assert_eq!(*resumed.physics(), *sim.world().physics());
    // A directory that does not exist: an error, nothing written, no panic.
    assert!(sim.save_state(&dir.join("missing/state.json")).is_err());
    assert!(matches!(sim.notice, Some(Err(_))));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_files_are_reported_and_the_scene_stays() {
    let dir = unique_dir("load");
    let mut sim = sim_for(load_preset("break").unwrap(), "preset break", 1).unwrap();
    let bad = dir.join("bad.toml");
    std::fs::write(
        &bad,
        "[table]\nwidth = 100.0\nheight = 100.0\n\n[[balls]]\nx = 50.0\ny = 50.0\nr = -1.0\n",
    )
    .unwrap();
    let err = sim.load_file(&bad).unwrap_err();
    assert!(
        err.contains("bad.toml") && err.contains("balls[0].r"),
        "{err}"
    );
    let err = sim.load_file(&dir.join("none.toml")).unwrap_err();
    assert!(err.contains("none.toml"), "{err}");
    let err = sim.load_file(&dir.join("scene.txt")).unwrap_err();
    assert!(err.contains(".toml or .json"), "{err}");
    assert!(sim
        .load_preset("no-such-preset")
        .unwrap_err()
        .contains("break"));
    assert_eq!(sim.world().name, "break");
    assert_eq!(sim.world().balls().len(), 16);
    let good = dir.join("good.json");
    std::fs::write(&good, r#"{"name": "two", "table": {"width": 100, "height": 50}, "balls": [{"x": 20, "y": 25}, {"x": 80, "y": 25}]}"#).unwrap();
    sim.load_file(&good).unwrap();
    assert_eq!(sim.world().balls().len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn failed_step_restores_the_last_good_state_and_pauses() {
    let mut sim = sim_with(
        physics(ModelKind::Spring),
        400.0,
        400.0,
        &[ball(100.0, 100.0), ball(300.0, 100.0)],
    );
    sim.frame();
    let (x, time) = (sim.world().balls().x.clone(), sim.world().time);
    sim.world.balls_mut().vx[1] = f64::INFINITY;
    sim.frame();
    let err = sim.step_error.clone().expect("the step failed");
    assert!(err.contains("unstable"), "{err}");
    assert!(!sim.running);
    assert_eq!(sim.world().balls().x, x);
    assert_eq!(sim.world().time, time);
}

#[test]
fn plots_keep_the_last_seconds_and_energy_is_tracked() {
    // An elastic impulse ball bouncing between walls keeps its kinetic energy
    // exactly (reflection only flips a sign), so the drift is exactly zero.
    let mut sim = sim_with(
        physics(ModelKind::Impulse),
        100.0,
        100.0,
        &[Ball::new(50.0, 50.0, 7.0, 3.0, 10.0, 2.0)],
    );
    sim.plot_seconds = 1.0;
    for _ in 0..200 {
        sim.frame();
    }
    assert_eq!(sim.history().len(), 60);
    let last = sim.history().back().unwrap();
    assert_eq!(last.time, sim.world().time);
    assert_eq!(last.kinetic, 0.5 * 2.0 * (49.0 + 9.0));
    assert_eq!(sim.energy_drift(), 0.0);
    assert!(sim.world().collisions() > 0);
}
