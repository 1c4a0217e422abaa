//! From the SCENARIO argument and the overrides to a built world: the file is read
//! here, everything else (which source is meant, parsing, overrides, building, the
//! one-line errors) is the core's `carom::load`, shared with the Python package.

use std::path::Path;

pub use carom::load::Loaded;

use crate::error::CliError;
use crate::values::SetArg;

/// Reads, parses, edits and builds. `sets` are applied in order; a problem they cause
/// is reported against the one that caused it.
pub fn load(arg: &str, sets: &[SetArg]) -> Result<Loaded, CliError> {
    let src = carom::load::resolve(
        arg,
        |p| Path::new(p).exists(),
        |p| std::fs::read_to_string(p).map_err(|e| e.to_string()),
    )
    .map_err(CliError::input)?;
    carom::load::build(&src, sets).map_err(CliError::input)
}
