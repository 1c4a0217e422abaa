//! The checks of a single number read from input that the parser, the generators and
//! the scenario's builders share, each failure a [`ScenarioError`] naming the field.

use crate::error::ScenarioError;

/// `v` is a finite number greater than 0.
pub fn positive(field: String, v: f64) -> Result<(), ScenarioError> {
    if v.is_finite() && v > 0.0 {
        Ok(())
    } else {
        Err(ScenarioError::field(
            field,
            format!("must be a positive finite number (got {v})"),
        ))
    }
}

/// `v` is a finite number.
pub fn finite(field: String, v: f64) -> Result<(), ScenarioError> {
    if v.is_finite() {
        Ok(())
    } else {
        Err(ScenarioError::field(
            field,
            format!("must be finite (got {v})"),
        ))
    }
}
