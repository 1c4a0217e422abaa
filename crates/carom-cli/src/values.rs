//! The values of flags, checked as clap reads them: shared by every subcommand's
//! arguments, so that `run` and `compare` accept the same numbers alike.

use std::path::PathBuf;

use carom::ModelKind;

/// One `--set` (or `--model`, `--dt`): the core's override, so that the command line
/// and the Python package edit scenarios alike.
pub use carom::overrides::Override as SetArg;

pub fn parse_set(s: &str) -> Result<SetArg, String> {
    SetArg::parse(s)
}

pub fn parse_model(s: &str) -> Result<ModelKind, String> {
    ModelKind::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = ModelKind::ALL
            .iter()
            .chain(&ModelKind::SAMPLERS)
            .map(|m| m.name())
            .collect();
        format!("unknown model (expected one of: {})", names.join(", "))
    })
}

pub fn parse_count(s: &str, max: u64) -> Result<u64, String> {
    let n: u64 = s
        .trim()
        .parse()
        .map_err(|_| "not a whole number".to_string())?;
    match n {
        0 => Err("must be at least 1".to_string()),
        n if n > max => Err(format!("must be at most {max}")),
        n => Ok(n),
    }
}

pub fn parse_every(s: &str) -> Result<u64, String> {
    parse_count(s, u64::MAX)
}

/// More threads than this is a typo, not a machine.
const MAX_THREADS: u64 = 1024;

pub fn parse_threads(s: &str) -> Result<u64, String> {
    parse_count(s, MAX_THREADS)
}

pub fn parse_f64(s: &str) -> Result<f64, String> {
    s.trim()
        .parse::<f64>()
        .map_err(|_| "not a number".to_string())
}

pub fn parse_dt(s: &str) -> Result<f64, String> {
    let v = parse_f64(s)?;
    if v.is_finite() && v > 0.0 {
        Ok(v)
    } else {
        Err("must be a positive finite number".to_string())
    }
}

pub fn parse_time(s: &str) -> Result<f64, String> {
    let v = parse_f64(s)?;
    if v.is_finite() && v >= 0.0 {
        Ok(v)
    } else {
        Err("must be a non-negative finite number".to_string())
    }
}

pub fn parse_events_path(s: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(s);
    match path.extension().and_then(|e| e.to_str()) {
        Some(e) if e.eq_ignore_ascii_case("csv") => Ok(path),
        _ => Err(format!("{s}: the event log is written as .csv")),
    }
}

pub fn parse_trajectory_path(s: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(s);
    crate::output::TrajectoryFormat::from_path(&path)?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use carom::parse::PathSeg;

    #[test]
    fn set_values_are_toml_or_plain_strings() {
        let s = parse_set("physics.stiffness=10").unwrap();
        assert_eq!(s.value, toml::Value::Integer(10));
        assert_eq!(
            s.path,
            vec![
                PathSeg::Key("physics".into()),
                PathSeg::Key("stiffness".into())
            ]
        );
        let s = parse_set("physics.integrator=velocity-verlet").unwrap();
        assert_eq!(s.value, toml::Value::String("velocity-verlet".into()));
        let s = parse_set("physics.model=\"impulse\"").unwrap();
        assert_eq!(s.value, toml::Value::String("impulse".into()));
        let s = parse_set("balls.2.vx=-3.5").unwrap();
        assert_eq!(s.path[1], PathSeg::Index(2));
        assert_eq!(s.value, toml::Value::Float(-3.5));
        let s = parse_set("physics.gravity=[0, 0.7]").unwrap();
        assert!(s.value.is_array());
        assert!(parse_set("physics.dt").is_err());
        assert!(parse_set("physics..dt=1").is_err());
        assert!(parse_set("=1").is_err());
    }
}
