//! Sheared periodic boxes (Lees-Edwards boundary conditions): what a scene must be for
//! them. The geometry (images, wrapping, the shift) is the table's ([`Table`]); the
//! `event` model runs them exactly (`models/event/sliding.rs`: pair times across the
//! sliding edge are roots of the same quadratic, the neighbours across it a whole row
//! of cells), without gravity, walls inside the table, pockets or a compression; the
//! `spring` model runs them: its pair forces take the image's velocity across the
//! sliding edge ([`Table::image_velocity`]), its neighbour search looks along the whole
//! row of cells across that edge, and the world advances the shift by `G height dt`
//! after each step ([`Table::after`]).
//!
//! A scenario asks for one with `table.boundary = { x = "periodic", y = "sheared",
//! shear_rate = G }` ([`crate::scenario::table_with_boundary`] reads it); the state file writes the same map with the
//! current `shift`, from which a resumed run continues bit for bit.

use crate::error::BuildError;
use crate::physics::params::{Friction, ModelKind};
use crate::physics::Physics;
use crate::table::Table;
use crate::walls::Walls;

/// The key a sheared box's errors name.
pub const KEY: &str = "table.boundary.shear_rate";
/// The key of the copy's current offset.
pub const SHIFT_KEY: &str = "table.boundary.shift";

/// Refuses a sheared box that this physics cannot run: a rate that is not finite, a
/// model other than `spring` or `event`, gravity in `event`, balls on cloth, or a shift
/// off `[0, width)`.
pub fn check(table: &Table, physics: &Physics) -> Result<(), BuildError> {
    let g = table.shear_rate;
    if !g.is_finite() {
        return Err(BuildError::invalid(
            KEY,
            format!("must be a finite number (got {g})"),
        ));
    }
    if !table.is_sheared() {
        return Ok(());
    }
    if !(table.is_periodic(0) && table.is_periodic(1)) {
        return Err(BuildError::invalid(
            KEY,
            "a sheared box needs x periodic and y sheared (table.boundary = { x = \
             \"periodic\", y = \"sheared\", shear_rate = G })"
                .to_string(),
        ));
    }
    if !matches!(physics.model, ModelKind::Spring | ModelKind::Event) {
        return Err(BuildError::invalid(
            KEY,
            format!(
                "a sheared box runs with the spring or event model, not {}",
                physics.model.name()
            ),
        ));
    }
    if physics.model == ModelKind::Event && physics.gravity != [0.0, 0.0] {
        return Err(BuildError::invalid(
            "physics.gravity",
            "a sheared box in the event model runs without gravity".to_string(),
        ));
    }
    if matches!(physics.friction, Friction::Cloth { .. }) {
        return Err(BuildError::invalid(
            KEY,
            "a sheared box cannot hold balls on cloth".to_string(),
        ));
    }
    let s = table.shift;
    if !(s.is_finite() && (0.0..table.width).contains(&s)) {
        return Err(BuildError::invalid(
            SHIFT_KEY,
            format!("must be in [0, table.width) (got {s})"),
        ));
    }
    Ok(())
}

/// Refuses walls inside a sheared box that it cannot hold: a wall is not copied
/// across the edges (as in any periodic box), so one reaching the sliding edge (`y = 0`
/// or `height`) would be met by a ball on one side and not by its image on the other;
/// nor a moving wall, which may be carried there; pockets alike.
pub fn check_walls(table: &Table, walls: &Walls) -> Result<(), BuildError> {
    if !table.is_sheared() {
        return Ok(());
    }
    let h = table.height;
    for p in walls.pieces() {
        let name = format!("walls[{}]", p.wall);
        if walls.motion(p.wall).is_some() {
            return Err(BuildError::invalid(
                &name,
                "a sheared box holds fixed walls only (a moving wall may reach the \
                 sliding edge)"
                    .to_string(),
            ));
        }
        let [_, y0, _, y1] = p.bounds();
        if y0 <= 0.0 || y1 >= h {
            return Err(BuildError::invalid(
                &name,
                format!(
                    "reaches the sliding edge of the sheared box (y from {} to {}, the \
                     edges at 0 and {h}): walls are not copied across it",
                    y0, y1
                ),
            ));
        }
    }
    for (k, p) in walls.pockets().iter().enumerate() {
        if p.center[1] - p.radius <= 0.0 || p.center[1] + p.radius >= h {
            return Err(BuildError::invalid(
                &format!("pockets[{k}]"),
                format!(
                    "reaches the sliding edge of the sheared box (y from {} to {}): \
                     pockets are not copied across it",
                    p.center[1] - p.radius,
                    p.center[1] + p.radius
                ),
            ));
        }
    }
    Ok(())
}
