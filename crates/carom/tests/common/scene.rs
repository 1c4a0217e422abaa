//! Worlds built from scenario text, as a user's file would make them.

use carom::parse::{build_world, parse_scenario, Format};
use carom::World;

/// The world a TOML scenario builds; a test scene that fails to build is a bug in the
/// test, so it panics with the error.
pub fn world(toml: &str) -> World {
    let s = parse_scenario(toml, Format::Toml).unwrap_or_else(|e| panic!("{e}"));
    build_world(&s).unwrap_or_else(|e| panic!("{e}"))
}

/// The error a TOML scenario is refused with, when parsing or when building.
pub fn build_error(toml: &str) -> String {
    let s = match parse_scenario(toml, Format::Toml) {
        Ok(s) => s,
        Err(e) => return e.to_string(),
    };
    match build_world(&s) {
        Ok(_) => panic!("built: {toml}"),
        Err(e) => e.to_string(),
    }
}

/// Runs whole steps to the one nearest time `t`.
pub fn run_to(w: &mut World, t: f64) {
    let steps = ((t - w.time) / w.physics().dt).round() as u64;
    w.run_steps(steps).unwrap();
}

/// Runs whole steps until time `t` is reached or passed.
pub fn run_past(w: &mut World, t: f64) {
    let steps = ((t - w.time) / w.physics().dt).ceil() as u64;
    w.run_steps(steps).unwrap();
}
