//! Scenario files: defaults, generators, and every class of bad input as an error value.

use carom::parse::{build_world, parse_scenario, Format};
use carom::scenario::Scenario;
use carom::ModelKind;

fn toml(text: &str) -> Result<Scenario, carom::ScenarioError> {
    parse_scenario(text, Format::Toml)
}

fn world(text: &str) -> carom::World {
    build_world(&toml(text).unwrap()).unwrap()
}

fn build_err(text: &str) -> String {
    match toml(text).and_then(|s| build_world(&s)) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn defaults_are_the_designs() {
    let w = world("[table]\nwidth = 100.0\nheight = 50.0\n[[balls]]\nx = 20.0\ny = 20.0\n");
    let p = w.physics();
    assert_eq!(p.model, ModelKind::Spring);
    assert_eq!((p.dt, p.stiffness, p.restitution), (0.05, 5.0, 1.0));
    assert_eq!(p.gravity, [0.0, 0.0]);
    assert!(p.glitch_prevention);
    let b = w.balls().get(0);
    assert_eq!(
        (b.r, b.m, b.vx, b.vy, b.kinematic),
        (10.0, 1.0, 0.0, 0.0, false)
    );
}

#[test]
fn json_and_toml_give_the_same_scenario() {
    let t = toml("name = \"x\"\n[table]\nwidth = 100.0\nheight = 50.0\n[physics]\nmodel = \"impulse\"\n[[balls]]\nx = 20.0\ny = 20.0\nvx = 1.5\n").unwrap();
    let j = parse_scenario(
        r#"{"name": "x", "table": {"width": 100.0, "height": 50.0}, "physics": {"model": "impulse"},
            "balls": [{"x": 20.0, "y": 20.0, "vx": 1.5}]}"#,
        Format::Json,
    )
    .unwrap();
    assert_eq!(t, j);
}

/// A state snapshot is itself a scenario: it parses back (JSON) and rebuilds the same
/// balls and physics.
#[test]
fn state_snapshot_loads_back_as_a_scenario() {
    let mut w = world(include_str!("../../presets/break.toml"));
    w.run_steps(1200).unwrap();
    let snap = carom::state::snapshot(&w, 10.0);
    let text = serde_json::to_string(&snap).unwrap();
    let back = build_world(&parse_scenario(&text, Format::Json).unwrap()).unwrap();
    assert!(back.balls() == w.balls());
    assert_eq!(back.physics(), w.physics());
    assert_eq!(back.time, w.time);
    assert_eq!(back.symmetry_axis(), Some(200.0));
}

/// The rack: rows k = 0..rows with k + 1 balls, touching neighbours (distance exactly
/// 2r up to round-off), apex at the given point, mirror symmetric about its y.
#[test]
fn rack_generator_layout() {
    let w = world(
        "[table]\nwidth = 800.0\nheight = 400.0\n[[generators]]\nkind = \"rack\"\nx = 500.0\ny = 200.0\nrows = 5\nr = 10.0\n",
    );
    let b = w.balls();
    assert_eq!(b.len(), 15);
    assert_eq!((b.x[0], b.y[0]), (500.0, 200.0));
    // Row 1 holds balls 1 and 2, each touching the apex.
    for i in [1, 2] {
        let d = (b.x[i] - b.x[0]).hypot(b.y[i] - b.y[0]);
        assert!((d - 20.0).abs() < 1e-12, "ball {i} at {d}");
    }
    // Mirror symmetry: the set of y offsets is symmetric, to round-off.
    let mut sym =
        carom::World::from_balls(*w.table(), *w.physics(), &b.iter().collect::<Vec<_>>()).unwrap();
    sym.declare_symmetry(200.0);
    assert!(sym.diagnostics().symmetry_error.unwrap() < 1e-12);
}

#[test]
fn lattice_generator_layout() {
    let w = world(
        "[table]\nwidth = 100.0\nheight = 100.0\n[[balls]]\nx = 90.0\ny = 90.0\n[[generators]]\nkind = \"lattice\"\nnx = 3\nny = 2\nx0 = 10.0\ny0 = 20.0\ndx = 25.0\ndy = 30.0\nr = 5.0\nvx = 1.0\n",
    );
    let b = w.balls();
    assert_eq!(b.len(), 7, "listed ball first, then 6 generated");
    assert_eq!((b.x[0], b.y[0]), (90.0, 90.0));
    // Row by row: (x0 + ix dx, y0 + iy dy), x fastest.
    assert_eq!((b.x[1], b.y[1]), (10.0, 20.0));
    assert_eq!((b.x[3], b.y[3]), (60.0, 20.0));
    assert_eq!((b.x[4], b.y[4]), (10.0, 50.0));
    assert!(b.vx[1..].iter().all(|&v| v == 1.0));
}

/// The gas: area fraction as asked, no overlaps, all inside, velocities in range, and
/// the same seed giving the same scene.
#[test]
fn gas_generator_fills_to_the_area_fraction() {
    let text = "[table]\n[[generators]]\nkind = \"gas\"\nn = 5000\narea_fraction = 0.3\nr = 1.0\nspeed = 2.0\nseed = 9\n";
    let w = world(text);
    let (t, b) = (w.table(), w.balls());
    assert_eq!(b.len(), 5000);
    let phi = 5000.0 * std::f64::consts::PI / (t.width * t.height);
    assert!((phi - 0.3).abs() < 1e-12, "area fraction {phi}");
    let pairs = carom::broadphase::touching_pairs_brute_force(&b.x, &b.y, &b.r, 0.0);
    assert!(
        pairs.is_empty(),
        "overlapping balls: {:?}",
        &pairs[..pairs.len().min(3)]
    );
    for i in 0..b.len() {
        assert!(
            b.x[i] >= 1.0 && b.x[i] <= t.width - 1.0 && b.y[i] >= 1.0 && b.y[i] <= t.height - 1.0
        );
        assert!(b.vx[i].abs() <= 2.0 && b.vy[i].abs() <= 2.0);
    }
    assert!(world(text).balls() == b);
    let other = world(&text.replace("seed = 9", "seed = 10"));
    assert!(other.balls() != b);
}

#[test]
fn bad_values_name_their_field() {
    let base = "[table]\nwidth = 100.0\nheight = 50.0\n";
    let cases = [
        ("[[balls]]\nx = 20.0\ny = 20.0\nr = -1.0\n", "balls[0].r"),
        ("[[balls]]\nx = 20.0\ny = 20.0\nm = 0.0\n", "balls[0].m"),
        ("[[balls]]\nx = 20.0\ny = nan\n", "balls[0].y"),
        ("[[balls]]\nx = 95.0\ny = 20.0\n", "outside"),
        (
            "[[balls]]\nx = 20.0\ny = 20.0\ncolor = \"red\"\n",
            "balls[0].color",
        ),
        ("[physics]\nrestitution = 1.5\n", "physics.restitution"),
        ("[physics]\ndt = -0.1\n", "physics.dt"),
        (
            "[physics]\nstiffness = 1e6\n[[balls]]\nx = 20.0\ny = 20.0\n",
            "unstable",
        ),
    ];
    for (extra, expect) in cases {
        let msg = build_err(&format!("{base}{extra}"));
        assert!(msg.contains(expect), "{extra:?}: {msg}");
        assert!(!msg.contains('\n'), "one line: {msg}");
    }
}

#[test]
fn bad_syntax_and_types_carry_lines() {
    let cases = [
        (
            "[table]\nwidth = 100.0\nheight = 50.0\nbogus = 1\n",
            4,
            "bogus",
        ),
        (
            "[table]\nwidth = 100.0\nheight = \"tall\"\n",
            3,
            "table.height",
        ),
        (
            "[table]\nwidth = 100.0\nheight = 50.0\n[physics]\nmodel = \"quantum\"\n",
            5,
            "physics.model",
        ),
        (
            "[table]\nwidth = 100.0\nheight = 50.0\n[physics]\nintegrator = \"rk4\"\n",
            5,
            "physics.integrator",
        ),
        ("[table]\nwidth = 100.0\nheight = = 50.0\n", 3, ""),
    ];
    for (text, line, field) in cases {
        let e = toml(text).unwrap_err();
        assert_eq!(e.line, Some(line), "{text:?}: {e}");
        assert!(e.to_string().contains(field), "{text:?}: {e}");
        assert!(!e.to_string().contains('\n'));
    }
    let e = parse_scenario(
        "{\"table\": {\"width\": 1.0,\n \"height\": true}}",
        Format::Json,
    )
    .unwrap_err();
    assert_eq!(e.line, Some(2), "{e}");
    assert!(e.to_string().contains("table.height"), "{e}");
}
