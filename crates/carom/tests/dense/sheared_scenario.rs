//! A sheared box (Lees-Edwards) asked for by a scenario file: `table.boundary = { x =
//! "periodic", y = "sheared", shear_rate = G }` in TOML and JSON builds the box the
//! library's `Table::sheared` makes; the state file writes the map with the current
//! shift, and a run resumed from it continues bit for bit; a box whose boundary does
//! not say it stays as it was. (Bad input: `carom-cli/tests/refused/bad_input_sheared.rs`.)

use carom::parse::{build_world, parse_scenario, Format};
use carom::{Table, World};

/// A frictional granular gas of 200 unit disks (area fraction 200 pi / 1600 = 0.39),
/// sheared at G = 0.05 through its edges: contacts across the sliding edge are frequent
/// and the tangential springs are loaded, so a resumed run has contact memory to carry.
const SCENE: &str = r#"
name = "sheared gas"
duration = 4.0

[table]
width = 40.0
height = 40.0
boundary = { x = "periodic", y = "sheared", shear_rate = 0.05 }

[physics]
model = "spring"
dt = 0.005
stiffness = 1000.0
restitution = 0.8
contact_friction = { mu = 0.5 }

[[generators]]
kind = "gas"
n = 200
r = 1.0
speed = 1.0
seed = 7
"#;

fn world(text: &str, format: Format) -> World {
    let s = parse_scenario(text, format).unwrap_or_else(|e| panic!("{e}"));
    build_world(&s).unwrap_or_else(|e| panic!("{e}"))
}

/// The state file's text, as `--out` writes it.
fn state_text(w: &World) -> String {
    serde_json::to_string_pretty(&carom::state::snapshot(w, 4.0)).unwrap()
}

#[test]
fn the_map_form_builds_the_sheared_box_in_toml_and_json() {
    let w = world(SCENE, Format::Toml);
    assert_eq!(*w.table(), Table::sheared(40.0, 40.0, 0.05, 0.0));
    // The same scenario written as JSON (as a program would) builds the same box.
    let doc = parse_scenario(SCENE, Format::Toml).unwrap();
    let json = serde_json::to_string(&doc).unwrap();
    assert!(
        json.contains(r#""boundary":{"x":"periodic","y":"sheared","shear_rate":0.05}"#),
        "{json}"
    );
    let j = world(&json, Format::Json);
    assert_eq!(*j.table(), *w.table());
    assert_eq!(j.balls().x, w.balls().x);
    // A scenario may start from a shift, and the rate may be negative.
    let shifted = SCENE.replace("shear_rate = 0.05 }", "shear_rate = -0.1, shift = 12.5 }");
    let s = world(&shifted, Format::Toml);
    assert_eq!(*s.table(), Table::sheared(40.0, 40.0, -0.1, 12.5));
    // The word and list forms are as they were.
    let plain = SCENE.replace(
        r#"{ x = "periodic", y = "sheared", shear_rate = 0.05 }"#,
        r#"{ x = "periodic", y = "periodic" }"#,
    );
    assert_eq!(
        *world(&plain, Format::Toml).table(),
        Table::periodic(40.0, 40.0)
    );
    let words = SCENE.replace(
        r#"{ x = "periodic", y = "sheared", shear_rate = 0.05 }"#,
        r#""periodic""#,
    );
    assert_eq!(
        *world(&words, Format::Toml).table(),
        Table::periodic(40.0, 40.0)
    );
}

/// The state without the diagnostics a resumed world starts afresh: the pressure and
/// stress, averaged over the run that wrote them, and the collision count, which the
/// run layer (not the world) carries over. Energies and momentum are kept.
fn comparable(text: &str) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
    let d = v["diagnostics"].take();
    let mut kept = serde_json::Map::new();
    for key in [
        "kinetic_energy",
        "rotational_energy",
        "potential_energy",
        "momentum",
        "packing_fraction",
    ] {
        kept.insert(key.to_string(), d[key].clone());
    }
    v["diagnostics"] = serde_json::Value::Object(kept);
    v
}

/// Where two JSON values first differ (a path and the two values), if they do.
fn first_difference(a: &serde_json::Value, b: &serde_json::Value, at: &str) -> Option<String> {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(p), Value::Object(q)) => {
            let keys: std::collections::BTreeSet<&String> = p.keys().chain(q.keys()).collect();
            keys.into_iter().find_map(|k| {
                first_difference(
                    p.get(k).unwrap_or(&Value::Null),
                    q.get(k).unwrap_or(&Value::Null),
                    &format!("{at}.{k}"),
                )
            })
        }
        (Value::Array(p), Value::Array(q)) if p.len() == q.len() => p
            .iter()
            .zip(q)
            .enumerate()
            .find_map(|(i, (u, v))| first_difference(u, v, &format!("{at}[{i}]"))),
        _ => (a != b).then(|| format!("{at}: {a} against {b}")),
    }
}

#[test]
fn the_state_file_carries_the_shift_and_a_resumed_run_continues_bit_for_bit() {
    const T: u64 = 400;
    let mut straight = world(SCENE, Format::Toml);
    straight.run_steps(2 * T).unwrap();

    let mut first = world(SCENE, Format::Toml);
    first.run_steps(T).unwrap();
    let half = state_text(&first);
    let v: serde_json::Value = serde_json::from_str(&half).unwrap();
    let b = &v["table"]["boundary"];
    assert_eq!(b["x"], "periodic");
    assert_eq!(b["y"], "sheared");
    assert_eq!(b["shear_rate"], 0.05);
    // The shift written is the world's to the bit; the world sums G H dt step by step,
    // which after 400 steps is G H t = 0.05 * 40 * 2 = 4 within a few hundred
    // roundings of numbers below 40 (1e-12).
    let shift = b["shift"].as_f64().unwrap();
    assert_eq!(shift.to_bits(), first.table().shift.to_bits());
    assert!((shift - 4.0).abs() < 1e-12, "{shift}");
    assert!(
        v.get("tangential_springs").is_some(),
        "the interruption falls on loaded contacts"
    );

    let mut resumed = world(&half, Format::Json);
    assert_eq!(*resumed.table(), *first.table());
    resumed.run_steps(T).unwrap();
    let (a, b) = (state_text(&straight), state_text(&resumed));
    let diff = first_difference(&comparable(&a), &comparable(&b), "state");
    assert!(diff.is_none(), "{}", diff.unwrap_or_default());
    // The shift swept on: G H t = 8 at t = 4.
    assert!((straight.table().shift - 8.0).abs() < 1e-12);
    // Every ball crossed nothing it should not: the lab velocities carry the streaming
    // (the stored vx are the lab's), so the top half moves on average to +x against
    // the bottom half. With u_x = G (y - H/2) the halves' means differ by G H / 2 = 1;
    // after 2 strain units (4 time units) the gas, started at rest on average, has
    // taken up part of it; its sign is the test here, the profile's size is checked
    // by tests/dense/sheared.rs.
    let bl = straight.balls();
    let (mut lower, mut upper) = ((0.0, 0), (0.0, 0));
    for i in 0..bl.len() {
        let half = if bl.y[i] > 20.0 {
            &mut upper
        } else {
            &mut lower
        };
        half.0 += bl.vx[i];
        half.1 += 1;
    }
    let du = upper.0 / f64::from(upper.1) - lower.0 / f64::from(lower.1);
    assert!(du > 0.0, "{du}");
}

#[test]
fn a_box_not_written_sheared_keeps_its_state_file() {
    // A periodic box writes its boundary as the word it always did.
    let plain = SCENE.replace(
        r#"{ x = "periodic", y = "sheared", shear_rate = 0.05 }"#,
        r#""periodic""#,
    );
    let w = world(&plain, Format::Toml);
    let v: serde_json::Value = serde_json::from_str(&state_text(&w)).unwrap();
    assert_eq!(v["table"]["boundary"], "periodic");
    // A rate of zero is the periodic box, written so.
    let still = SCENE.replace("shear_rate = 0.05", "shear_rate = 0.0");
    let z = world(&still, Format::Toml);
    assert_eq!(*z.table(), Table::periodic(40.0, 40.0));
    let v: serde_json::Value = serde_json::from_str(&state_text(&z)).unwrap();
    assert_eq!(v["table"]["boundary"], "periodic");
}

/// A dense size mixture in a sheared box: above area fraction 0.6 the gas generator
/// compresses the hard disks into place, which it does in the unsheared box (the same
/// images at shift 0). The packing keeps the asked area fraction (to the round-off of
/// a sum of areas: 1e-12), no two disks overlap through any image of the sheared box
/// (centre distances from the box's own minimum image, with the tolerance of the
/// placement's exact contacts, 1e-9 of a radius), the box stays sheared at its rate,
/// and a spring run starts from it. At a nonzero shift the packing's images would not
/// be the box's: refused, naming the shift.
#[test]
fn a_dense_gas_is_placed_in_a_sheared_box() {
    let text = |shift: f64| {
        format!(
            r#"
[table]
boundary = {{ x = "periodic", y = "sheared", shear_rate = 0.1, shift = {shift} }}
[physics]
model = "spring"
dt = 0.001
stiffness = 10000.0
[[generators]]
kind = "gas"
n = 300
area_fraction = 0.8
r = 0.5
radii = {{ kind = "uniform", min = 0.4, max = 0.6 }}
speed = 0.1
seed = 3
"#
        )
    };
    let mut w = world(&text(0.0), Format::Toml);
    let t = *w.table();
    assert_eq!((t.shear_rate, t.shift), (0.1, 0.0));
    let b = w.balls();
    let area: f64 = b.r.iter().map(|r| std::f64::consts::PI * r * r).sum();
    assert!((area / t.area() - 0.8).abs() < 1e-12, "{}", area / t.area());
    for i in 0..b.len() {
        for j in 0..i {
            let (dx, dy) = t.min_image(b.x[j] - b.x[i], b.y[j] - b.y[i]);
            let gap = dx.hypot(dy) - b.r[i] - b.r[j];
            assert!(gap > -1e-9 * b.r[i], "balls {i} and {j} overlap by {gap}");
        }
    }
    // The packing is the plain periodic box's, bit for bit: the same images at shift 0.
    let plain = world(
        &text(0.0).replace(
            r#"{ x = "periodic", y = "sheared", shear_rate = 0.1, shift = 0 }"#,
            r#""periodic""#,
        ),
        Format::Toml,
    );
    assert!(!plain.table().is_sheared());
    let (p, b) = (plain.balls(), w.balls());
    assert!(p.x == b.x && p.y == b.y && p.r == b.r && p.vx == b.vx && p.vy == b.vy);
    w.run_steps(10).unwrap();
    let s = parse_scenario(&text(1.5), Format::Toml).unwrap();
    let e = build_world(&s).map(|_| ()).unwrap_err().to_string();
    assert!(e.contains("table.boundary.shift"), "{e}");
}
