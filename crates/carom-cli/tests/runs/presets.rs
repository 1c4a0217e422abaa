//! The built-in presets: each builds, runs under its own model, and is the scene its
//! description claims.

use carom::parse::build_world;
use carom::presets::{find, PRESETS};
use carom::{StepError, World};

fn world(name: &str) -> World {
    let p = find(name).unwrap_or_else(|| panic!("preset {name}"));
    let s = p.scenario().unwrap_or_else(|e| panic!("{name}: {e}"));
    build_world(&s).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Whether the preset's model exists yet (others are built in parallel).
fn supported(name: &str) -> bool {
    let s = find(name).unwrap().scenario().unwrap();
    let kind = s.physics.model.or(s.model).unwrap_or_default();
    let table = carom::Table::new(1.0, 1.0);
    let made = carom::models::create(
        kind,
        &carom::Balls::default(),
        &table,
        &carom::Physics::default(),
        &carom::walls::NO_WALLS,
    );
    !matches!(made, Err(StepError::Unsupported(_)))
}

#[test]
fn every_preset_builds_and_runs_100_steps_under_its_model() {
    let mut ran = 0;
    for p in PRESETS {
        if !supported(p.name) {
            continue;
        }
        let mut w = world(p.name);
        assert!(w.warnings().is_empty(), "{}: {:?}", p.name, w.warnings());
        let e0 = w.diagnostics().total_energy;
        w.run_steps(100)
            .unwrap_or_else(|e| panic!("{}: {e}", p.name));
        assert!(w.diagnostics().total_energy.is_finite(), "{}", p.name);
        assert!(e0.is_finite());
        ran += 1;
    }
    // Everything but the models not built yet: at least the impulse and spring presets.
    assert!(ran >= 9, "ran {ran} presets");
}

/// level1 and level2 claim that no wall is reached within their duration: their whole
/// run is free flight, with no collision.
#[test]
fn level1_and_level2_stay_in_free_flight() {
    for name in ["level1", "level2"] {
        let s = find(name).unwrap().scenario().unwrap();
        let mut w = world(name);
        let steps = (s.duration / w.physics().dt).round() as u64;
        w.run_steps(steps).unwrap();
        assert_eq!(w.collisions(), 0, "{name}");
        let b = w.balls().get(0);
        let t = w.table();
        assert!(b.x - b.r > 0.0 && b.x + b.r < t.width && b.y - b.r > 0.0 && b.y + b.r < t.height);
    }
}

/// level3 bounces: walls are hit, and the impulse model (exact free flight, velocity
/// reflection) keeps its energy to round-off.
#[test]
fn level3_bounces_off_walls() {
    let mut w = world("level3");
    let e0 = w.diagnostics().total_energy;
    w.run_steps(12_000).unwrap();
    assert!(w.collisions() >= 4, "collisions {}", w.collisions());
    let e1 = w.diagnostics().total_energy;
    // Reflection happens at the step's end position, up to |v| dt inside the wall, so
    // the bounce itself does not change kinetic energy; only round-off remains.
    assert!(((e1 - e0) / e0).abs() < 1e-9, "{e0} -> {e1}");
}

/// level6 is the level-4 table on springs: same balls, different model.
#[test]
fn level6_is_level4_on_springs() {
    let (a, b) = (world("level4"), world("level6"));
    assert_eq!(a.balls(), b.balls());
    assert_eq!(a.physics().model, carom::ModelKind::Impulse);
    assert_eq!(b.physics().model, carom::ModelKind::Spring);
    // No two balls overlap at the start.
    let balls = a.balls();
    for i in 0..balls.len() {
        for j in i + 1..balls.len() {
            let d = (balls.x[i] - balls.x[j]).hypot(balls.y[i] - balls.y[j]);
            assert!(d > balls.r[i] + balls.r[j], "{i} {j}");
        }
    }
}

/// three-ball: balls 1 and 2 touch, mirror images about the cue line, and ball 0
/// moves along that line; newton-cradle: five equal balls touching in a row.
#[test]
fn three_ball_and_cradle_geometry() {
    let s = find("three-ball").unwrap().scenario().unwrap();
    let axis = s.symmetry.unwrap().axis_y;
    let b: Vec<_> = s.balls.iter().collect();
    assert_eq!(b.len(), 3);
    assert_eq!(b[0].y, axis);
    assert_eq!(b[0].vy, 0.0);
    assert!(b[0].vx > 0.0);
    assert_eq!(b[1].x, b[2].x);
    assert_eq!(b[1].y - axis, axis - b[2].y);
    assert_eq!((b[1].y - b[2].y).abs(), b[1].r + b[2].r, "touching");

    let s = find("newton-cradle").unwrap().scenario().unwrap();
    let b = &s.balls;
    assert_eq!(b.len(), 5);
    for k in 1..5 {
        assert_eq!(
            b[k].x - b[k - 1].x,
            b[k].r + b[k - 1].r,
            "balls {} and {k} touch",
            k - 1
        );
        assert_eq!(b[k].y, b[0].y);
        assert_eq!((b[k].vx, b[k].m), (0.0, b[0].m));
    }
    assert!(b[0].vx > 0.0);
}

/// Presets declaring a symmetry are built symmetric: zero error at the start.
#[test]
fn declared_symmetries_hold_at_the_start() {
    for p in PRESETS {
        let s = p.scenario().unwrap();
        if s.symmetry.is_none() || !supported(p.name) {
            continue;
        }
        let d = world(p.name).diagnostics();
        assert_eq!(d.symmetry_error, Some(0.0), "{}", p.name);
    }
}

/// level7's sweeper is kinematic and stays inside the table for the whole run.
#[test]
fn level7_sweeper_is_kinematic_and_stays_on_the_table() {
    let s = find("level7").unwrap().scenario().unwrap();
    let mut w = world("level7");
    assert!(w.balls().is_kinematic(0));
    let steps = (s.duration / w.physics().dt).round() as u64;
    w.run_steps(steps).unwrap();
    let b = w.balls().get(0);
    assert!(b.x + b.r < w.table().width, "sweeper at {}", b.x);
    // It struck balls and, having infinite mass, kept its velocity exactly.
    assert!(w.collisions() > 0);
    assert_eq!((b.vx, b.vy), (2.0, 0.0));
}
