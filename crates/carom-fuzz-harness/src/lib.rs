//! The bodies of carom's fuzz targets, one function per target. `fuzz/` (cargo-fuzz,
//! nightly) calls them with generated inputs; `tests/replay_corpus.rs` (stable, part
//! of `cargo test`) calls them with every file of the committed corpora, so that an
//! input that once failed keeps being checked without fuzzing.
//!
//! Every function takes any bytes and must return normally: a bad input is an `Err`
//! value inside carom, never a panic, a hang or an allocation out of proportion to the
//! input. Each one goes through the entry points the front ends use (`carom::load`,
//! `carom::overrides::Override::parse`, `carom::run::Session`), and checks the
//! contracts that hold whatever the input: errors are one line, a loaded scenario's
//! state file loads again and is its own fixed point, a run that reports success left
//! every ball finite.

use carom::load::{build, Loaded, Source};
use carom::overrides::Override;
use carom::parse::{parse_scenario, Format};
use carom::run::Session;
use carom::scenario::{Generator, Scenario};

mod games;
mod scene;

pub use games::{game_file, game_shots};

pub use scene::{short_run, short_run_cloth, short_run_cloth_scene, short_run_scene};

/// The most balls a fuzz input may ask a generator for before the harness declines to
/// build it. The engine accepts up to `carom::generators::MAX_GENERATED` per generator
/// (gigabytes, by design); building that many is memory the user asked for, not a
/// defect, and would only make each execution slow. Inputs beyond this bound are still
/// parsed.
pub const MAX_FUZZ_BALLS: f64 = 2_000.0;

/// The events an output interval of the event model may take here: the stall guard
/// stops degenerate scenes, but a healthy scene with a ball at 1e308 units per time
/// needs that many crossings per unit of time, and a fuzzed input must run in bounded
/// time. Two million, the former budget per interval of a small scene.
pub const EVENT_CAP: u64 = 2_000_000;

/// A scenario file in TOML, as `carom run FILE.toml` and `carom.World.load` read it.
pub fn scenario_toml(data: &[u8]) {
    scenario_text(data, Format::Toml);
}

/// A scenario file in JSON.
pub fn scenario_json(data: &[u8]) {
    scenario_text(data, Format::Json);
}

/// A state file (JSON, as `carom run --out` writes): loaded as a resume loads it, run
/// for a few steps, and written again.
pub fn state_file(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let src = Source::text("fuzz-state.json", text, Format::Json);
    let Some(loaded) = load_bounded(&src, &[]) else {
        return;
    };
    let mut session = Session::new(loaded);
    session.world.set_event_cap(Some(EVENT_CAP));
    // A resumed run: a few steps, whatever the outcome (a simulation error is a fine
    // answer to a strange state), then the state it stopped at.
    let outcome = session.advance(3, 1, |_| {});
    check_finite(&session, outcome.is_ok());
    check_state_reloads(&session);
}

/// `--set KEY=VALUE` overrides applied to a scenario. The first byte picks the
/// scenario (a preset, or a small JSON scenario so that the JSON editing path runs
/// too); the rest, as text, is up to four `--set` arguments, one per line.
pub fn set_override(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let mut sets = Vec::new();
    for line in text.split('\n').take(4) {
        match Override::parse(line) {
            Ok(o) => sets.push(o),
            Err(e) => {
                check_one_line(&e);
                return;
            }
        }
    }
    let src = match pick as usize % (carom::presets::PRESETS.len() + 1) {
        0 => Source::text("small.json", SMALL_JSON, Format::Json),
        k => Source::preset(carom::presets::PRESETS[k - 1].name).expect("listed preset"),
    };
    if let Some(loaded) = load_bounded(&src, &sets) {
        let session = Session::new(loaded);
        check_state_reloads(&session);
    }
}

/// A small scenario in JSON, for the JSON side of override editing.
const SMALL_JSON: &str = r#"{
  "name": "small",
  "table": { "width": 200.0, "height": 100.0 },
  "physics": { "model": "impulse", "dt": 0.1 },
  "balls": [
    { "x": 50.0, "y": 50.0, "vx": 1.0 },
    { "x": 150.0, "y": 50.0, "vx": -1.0 }
  ]
}"#;

fn scenario_text(data: &[u8], format: Format) {
    // A scenario file is read as UTF-8 text by both front ends: other bytes never
    // reach the parser.
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let ext = match format {
        Format::Toml => "toml",
        Format::Json => "json",
    };
    let src = Source::text(format!("fuzz.{ext}"), text, format);
    let Some(loaded) = load_bounded(&src, &[]) else {
        return;
    };
    // What the front ends compute from a loaded scenario before they run it.
    let dt = loaded.world.physics().dt;
    if let Err(e) = carom::run::steps_for(loaded.scenario.duration, dt, "duration") {
        check_one_line(&e);
    }
    check_state_reloads(&Session::new(loaded));
}

/// `build`, unless the scenario's generators, after the overrides, ask for more than
/// [`MAX_FUZZ_BALLS`]; `None` when it fails (after checking the error is one line) or
/// was declined.
pub fn load_bounded(src: &Source, sets: &[Override]) -> Option<Loaded> {
    if edited_bound(src, sets) > MAX_FUZZ_BALLS {
        return None;
    }
    match build(src, sets) {
        Ok(loaded) => Some(loaded),
        Err(e) => {
            check_one_line(&e);
            None
        }
    }
}

/// [`generated_bound`] of the scenario as the overrides leave it; 0 when it does not
/// read as a scenario (the build then refuses it before generating anything). The
/// document is edited as a TOML value whatever its format: only the counts matter.
fn edited_bound(src: &Source, sets: &[Override]) -> f64 {
    if sets.is_empty() {
        return parse_scenario(&src.text, src.format).map_or(0.0, |s| generated_bound(&s));
    }
    let doc: Option<toml::Value> = match src.format {
        Format::Toml => src.text.parse::<toml::Table>().ok().map(toml::Value::Table),
        Format::Json => serde_json::from_str(&src.text).ok(),
    };
    let Some(mut doc) = doc else {
        return 0.0;
    };
    for set in sets {
        if carom::overrides::apply(&mut doc, &set.path, set.value.clone()).is_err() {
            return 0.0;
        }
    }
    doc.try_into::<Scenario>()
        .map_or(0.0, |s| generated_bound(&s))
}

/// An upper bound on the balls the scenario's generators produce, as the generators
/// count them (a gas sized by its area fraction fills the table).
pub fn generated_bound(s: &Scenario) -> f64 {
    let table = carom::generators::resolve_table(s).ok();
    let mut total = 0.0;
    for g in &s.generators {
        total += match g {
            Generator::Rack { rows, .. } => {
                let rows = f64::from(*rows);
                rows * (rows + 1.0) / 2.0
            }
            Generator::Lattice { nx, ny, .. } => f64::from(*nx) * f64::from(*ny),
            Generator::Gas { n: Some(n), .. } => *n as f64,
            Generator::Gas {
                n: None,
                area_fraction: Some(phi),
                r,
                radii,
                ..
            } => match table {
                Some(t) => {
                    let area = match radii {
                        Some(spec) => carom::sizes::mean_area(spec, *r),
                        None => std::f64::consts::PI * r * r,
                    };
                    phi * t.width * t.height / area
                }
                None => 0.0,
            },
            Generator::Gas { .. } => 0.0,
        };
    }
    // NaN (a NaN fraction or radius, refused by the build) counts as nothing.
    if total.is_nan() {
        0.0
    } else {
        total
    }
}

/// The one-line error contract: the command line prints it, Python raises it.
fn check_one_line(e: &str) {
    assert!(
        !e.contains('\n') && !e.contains('\r'),
        "an error message spans lines: {e:?}"
    );
}

/// A run that reported success left every ball finite; one that failed left the world
/// at its last good state, which is finite too.
fn check_finite(session: &Session, _ok: bool) {
    let b = session.world.balls();
    for i in 0..b.len() {
        assert!(
            b.x[i].is_finite() && b.y[i].is_finite() && b.vx[i].is_finite() && b.vy[i].is_finite(),
            "ball {i} is not finite after a run: ({}, {}) v ({}, {})",
            b.x[i],
            b.y[i],
            b.vx[i],
            b.vy[i]
        );
        // Its spins too (a state file would write a non-finite one as null).
        assert!(
            b.wx[i].is_finite() && b.wy[i].is_finite() && b.omega[i].is_finite(),
            "ball {i}'s spin is not finite after a run: (wx, wy, omega) = ({}, {}, {})",
            b.wx[i],
            b.wy[i],
            b.omega[i]
        );
    }
}

/// A state file is itself a scenario: the state `carom run --out` would write for this
/// session loads again, and the state of that load is the same (a resumed run continues
/// bit for bit only if nothing is lost or changed on the way). Of the diagnostics only
/// the collision count is compared: the pressure is averaged over the run since the
/// world was built, which a reload starts afresh (DESIGN: "a resumed run measures
/// afresh"), and the energies are sums recomputed from the balls whose order of
/// summation (over contacts the model finds) may change their last bit.
fn check_state_reloads(session: &Session) {
    let text = session.state_json();
    let src = Source::text("state.json", text.as_str(), Format::Json);
    let again = match build(&src, &[]) {
        Ok(l) => l,
        Err(e) => panic!("the state file of a loaded scenario does not load: {e}\n{text}"),
    };
    let text2 = Session::new(again).state_json();
    let (a, b) = (without_pressure(&text), without_pressure(&text2));
    if let Some((k, (la, lb))) = a
        .lines()
        .zip(b.lines())
        .enumerate()
        .find(|(_, (x, y))| x != y)
    {
        panic!(
            "a state file's state differs from it at line {}: {la:?} became {lb:?}\n{text}",
            k + 1
        );
    }
    assert_eq!(
        a, b,
        "a state file's state differs from it in length\n{text}"
    );
}

/// The state text, reformatted with only the diagnostics that are counts.
fn without_pressure(text: &str) -> String {
    // The text was written by serde_json from a value a moment ago: it parses.
    let mut v: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
    if let Some(d) = v.get_mut("diagnostics").and_then(|d| d.as_object_mut()) {
        d.retain(|k, _| k == "collisions");
    }
    serde_json::to_string_pretty(&v).unwrap_or_default()
}
