//! A frictional `spring` run resumed from its state file continues bit for bit: the
//! state carries the loaded tangential springs (`tangential_springs`), which the
//! resumed model puts back on their contacts. Frictionless and hard-model state files
//! do not gain the key, and bad values in it name their field.

use carom::models::ContactHistory;
use carom::parse::{build_world, parse_scenario, Format};
use carom::presets::find;
use carom::World;

fn column(threads: usize) -> World {
    let mut w = build_world(&find("column").unwrap().scenario().unwrap()).unwrap();
    w.set_threads(threads).unwrap();
    w
}

/// The state file's text, as `--out` writes it.
fn state_text(w: &World) -> String {
    serde_json::to_string_pretty(&carom::state::snapshot(w, 1.0)).unwrap()
}

fn resume(text: &str, threads: usize) -> World {
    let mut w = build_world(&parse_scenario(text, Format::Json).unwrap()).unwrap();
    w.set_threads(threads).unwrap();
    w
}

/// Every float of the dynamic state, compared by bits, and the loaded springs.
fn assert_same(a: &World, b: &World, what: &str) {
    let (p, q) = (a.balls(), b.balls());
    for (name, u, v) in [
        ("x", &p.x, &q.x),
        ("y", &p.y, &q.y),
        ("vx", &p.vx, &q.vx),
        ("vy", &p.vy, &q.vy),
        ("omega", &p.omega, &q.omega),
        ("angle", &p.angle, &q.angle),
    ] {
        for i in 0..u.len() {
            assert_eq!(u[i].to_bits(), v[i].to_bits(), "{what}: ball {i} {name}");
        }
    }
    let (h, k) = (a.contact_history(), b.contact_history());
    assert_eq!(h.pairs.len(), k.pairs.len(), "{what}: loaded pairs");
    assert_eq!(h.walls.len(), k.walls.len(), "{what}: loaded walls");
    for (s, t) in h.pairs.iter().zip(&k.pairs) {
        assert_eq!((s.0, s.1), (t.0, t.1), "{what}: pair");
        assert_eq!(
            s.2.to_bits(),
            t.2.to_bits(),
            "{what}: pair ({}, {}) xi",
            s.0,
            s.1
        );
    }
    for (s, t) in h.walls.iter().zip(&k.walls) {
        assert_eq!((s.0, s.1), (t.0, t.1), "{what}: wall");
        assert_eq!(
            s.2.to_bits(),
            t.2.to_bits(),
            "{what}: wall ({}, {}) xi",
            s.0,
            s.1
        );
    }
}

/// The column after 300 steps (0.6 time units) is a collapsing heap on the floor with
/// many sticking contacts, so the interruption falls in the middle of loaded springs;
/// 300 more steps carry them through rebuilds of the neighbour list.
const HALF: u64 = 300;

#[test]
fn a_frictional_spring_run_resumed_from_its_state_continues_bit_for_bit() {
    let mut straight_1 = column(1);
    straight_1.run_steps(2 * HALF).unwrap();
    for threads in [1, 2] {
        let mut straight = column(threads);
        straight.run_steps(2 * HALF).unwrap();
        // The thread count never changes results (the model's own contract), so one
        // straight run is the reference for both.
        assert_same(&straight, &straight_1, &format!("{threads} threads vs 1"));

        let mut first = column(threads);
        first.run_steps(HALF).unwrap();
        let text = state_text(&first);
        let h = first.contact_history();
        // Otherwise the test would prove nothing: springs are loaded at the cut, on
        // ball pairs and on walls (the floor), and the state file holds every one.
        assert!(h.pairs.len() > 50, "loaded pairs: {}", h.pairs.len());
        assert!(!h.walls.is_empty(), "no loaded wall spring");
        let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
        let ts = &doc["tangential_springs"];
        assert_eq!(ts["pairs"].as_array().unwrap().len(), h.pairs.len());
        assert_eq!(ts["walls"].as_array().unwrap().len(), h.walls.len());

        let mut resumed = resume(&text, threads);
        // Straight after loading, the world gives back what it was handed, and the
        // energy it stores counts the restored springs exactly.
        assert_eq!(
            resumed.contact_history(),
            h,
            "{threads} threads: round trip"
        );
        assert_eq!(
            resumed.diagnostics().potential_energy.to_bits(),
            first.diagnostics().potential_energy.to_bits(),
            "{threads} threads: stored energy after loading"
        );
        // Written again at once, the state is the same file but for the pressure and
        // its tensor, which a resumed run measures afresh over its own (here empty)
        // window, and the collision count, which the run layer (not the world) carries over.
        let strip = |t: &str| {
            let mut d: serde_json::Value = serde_json::from_str(t).unwrap();
            let diagnostics = d["diagnostics"].as_object_mut().unwrap();
            for key in ["pressure", "stress_xx", "stress_xy", "stress_yy"] {
                diagnostics.remove(key);
            }
            diagnostics.remove("collisions");
            d
        };
        assert!(
            strip(&state_text(&resumed)) == strip(&text),
            "{threads} threads: the reloaded state differs"
        );

        resumed.run_steps(HALF).unwrap();
        assert_same(&resumed, &straight, &format!("{threads} threads, resumed"));
        assert_eq!(resumed.steps, straight.steps);
        assert_eq!(resumed.time.to_bits(), straight.time.to_bits());
    }
}

/// The springs are what made the difference: the same state without them resumes a
/// different run (the failure this key exists to prevent).
#[test]
fn without_its_springs_the_resumed_run_departs() {
    let mut first = column(1);
    first.run_steps(HALF).unwrap();
    let mut doc = serde_json::to_value(carom::state::snapshot(&first, 1.0)).unwrap();
    doc.as_object_mut().unwrap().remove("tangential_springs");
    let mut unloaded = resume(&doc.to_string(), 1);
    assert!(unloaded.contact_history().is_empty());
    let mut resumed = resume(&state_text(&first), 1);
    unloaded.run_steps(20).unwrap();
    resumed.run_steps(20).unwrap();
    assert!(unloaded.balls().omega != resumed.balls().omega);
}

/// The key is written only when a spring is loaded: a frictionless state file, a hard
/// model's, and a frictional spring state before any contact are as they were.
#[test]
fn state_files_without_loaded_springs_have_no_key() {
    for (preset, frictionless) in [("break", false), ("column", true), ("english", false)] {
        let mut s = find(preset).unwrap().scenario().unwrap();
        if frictionless {
            s.physics.contact_friction.mu = 0.0;
        }
        let mut w = build_world(&s).unwrap();
        w.run_steps(200).unwrap();
        assert!(w.contact_history().is_empty(), "{preset}");
        let text = state_text(&w);
        assert!(!text.contains("tangential_springs"), "{preset}");
    }
    // The column at rest before anything touches.
    assert!(!state_text(&column(1)).contains("tangential_springs"));
}

/// A frictional state resumed with friction off (or by a hard model) drops the springs
/// instead of failing: those models keep none.
#[test]
fn models_without_springs_ignore_the_key() {
    let mut first = column(1);
    first.run_steps(HALF).unwrap();
    let text = state_text(&first);
    for set in ["mu = 0", "model = impulse"] {
        let mut s = parse_scenario(&text, Format::Json).unwrap();
        assert!(s.tangential_springs.is_some());
        if set == "mu = 0" {
            s.physics.contact_friction.mu = 0.0;
        } else {
            s.physics.model = Some(carom::ModelKind::Impulse);
        }
        let w = build_world(&s).unwrap();
        assert_eq!(w.contact_history(), ContactHistory::default(), "{set}");
        assert!(!state_text(&w).contains("tangential_springs"), "{set}");
    }
}

#[test]
fn bad_tangential_springs_name_their_field() {
    let mut first = column(1);
    first.run_steps(HALF).unwrap();
    let doc = serde_json::to_value(carom::state::snapshot(&first, 1.0)).unwrap();
    let n = first.balls().len();
    let cases: [(&str, serde_json::Value, &str); 8] = [
        (
            "pairs",
            serde_json::json!([[0, n, 0.1]]),
            "tangential_springs.pairs[0][1]",
        ),
        (
            "pairs",
            serde_json::json!([[3, 3, 0.1]]),
            "tangential_springs.pairs[0]",
        ),
        (
            "pairs",
            serde_json::json!([[4, 3, 0.1]]),
            "tangential_springs.pairs[0]",
        ),
        (
            "pairs",
            serde_json::json!([[1, 2, 0.1], [1, 2, 0.2]]),
            "tangential_springs.pairs[1]",
        ),
        (
            "pairs",
            serde_json::json!([[-1, 2, 0.1]]),
            "tangential_springs.pairs[0]",
        ),
        (
            "walls",
            serde_json::json!([[n + 5, 0, 0.1]]),
            "tangential_springs.walls[0][0]",
        ),
        (
            "walls",
            serde_json::json!([[0, 2, 0.1]]),
            "tangential_springs.walls[0][1]",
        ),
        (
            "walls",
            serde_json::json!([[0, 1, "x"]]),
            "tangential_springs.walls[0]",
        ),
    ];
    for (key, value, field) in cases {
        let mut d = doc.clone();
        d["tangential_springs"][key] = value;
        let text = d.to_string();
        let msg = match carom::parse::load(&text, Format::Json) {
            Ok(_) => panic!("accepted {key}: {}", d["tangential_springs"][key]),
            Err(e) => e.to_string(),
        };
        assert!(msg.contains(field), "{field}: {msg}");
        assert!(!msg.contains('\n'), "one line: {msg}");
    }
    // JSON has no non-finite numbers; TOML does, and a stretch must be finite.
    let toml =
        "[table]\nwidth = 100.0\nheight = 50.0\n[physics]\ncontact_friction = { mu = 0.5 }\n\
                [[balls]]\nx = 20.0\ny = 20.0\n[[balls]]\nx = 30.0\ny = 20.0\n\
                [tangential_springs]\npairs = [[0, 1, nan]]\n";
    let msg = carom::parse::load(toml, Format::Toml)
        .unwrap_err()
        .to_string();
    assert!(msg.contains("tangential_springs.pairs[0][2]"), "{msg}");
    // And an unknown key inside it is refused like any other.
    let toml = toml.replace("pairs = [[0, 1, nan]]", "pair = []");
    let msg = carom::parse::load(&toml, Format::Toml)
        .unwrap_err()
        .to_string();
    assert!(msg.contains("pair"), "{msg}");
}
