//! Sheared periodic boxes (Lees-Edwards boundary conditions): what a scene must be for
//! them. The geometry (images, wrapping, the shift) is the table's ([`Table`]); the
//! `spring` model runs them: its pair forces take the image's velocity across the
//! sliding edge ([`Table::image_velocity`]), its neighbour search looks along the whole
//! row of cells across that edge, and the world advances the shift by `G height dt`
//! after each step ([`Table::after`]).

use crate::physics::{bad, BuildError, Physics};
use crate::scenario::{Friction, ModelKind};
use crate::table::Table;

/// The key a sheared box's errors name.
pub const KEY: &str = "table.boundary.shear_rate";

/// Refuses a sheared box that this physics cannot run: a rate that is not finite, a
/// model other than `spring`, balls on cloth, or a shift off `[0, width)`.
pub fn check(table: &Table, physics: &Physics) -> Result<(), BuildError> {
    let g = table.shear_rate;
    if !g.is_finite() {
        return Err(bad(KEY, format!("must be a finite number (got {g})")));
    }
    if !table.is_sheared() {
        return Ok(());
    }
    if !(table.is_periodic(0) && table.is_periodic(1)) {
        return Err(bad(
            KEY,
            "a sheared box needs x periodic and y sheared (table.boundary = { x = \
             \"periodic\", y = \"sheared\", shear_rate = G })"
                .to_string(),
        ));
    }
    if physics.model != ModelKind::Spring {
        return Err(bad(
            KEY,
            format!(
                "a sheared box runs with the spring model (physics.model is {:?})",
                physics.model
            ),
        ));
    }
    if matches!(physics.friction, Friction::Cloth { .. }) {
        return Err(bad(
            KEY,
            "a sheared box cannot hold balls on cloth".to_string(),
        ));
    }
    let s = table.shift;
    if !(s.is_finite() && (0.0..table.width).contains(&s)) {
        return Err(bad(
            "table.shift",
            format!("must be in [0, table.width) (got {s})"),
        ));
    }
    Ok(())
}
