//! Dense placement: a gas of mixed sizes asked for above what random placement reaches
//! ([`crate::sizes::MAX_RANDOM_FRACTION`]) is placed at [`PLACE_FRACTION`] with every
//! radius shrunk by the same factor, then compressed in the event model
//! (Lubachevsky-Stillinger growth, [`crate::compression`]) until the area fraction is the
//! one asked for, exactly (to round-off): the radii are then the drawn ones to
//! round-off, the positions those of an equilibrated dense fluid, the temperature the
//! drawn velocities'.

use crate::balls::Balls;
use crate::compression::{Compress, StopReason, Until};
use crate::error::ScenarioError;
use crate::physics::ModelKind;
use crate::physics::Physics;
use crate::table::Table;
use crate::world::World;

/// The area fraction random placement starts a compressed gas at.
pub const PLACE_FRACTION: f64 = 0.5;

/// The densest gas of mixed sizes the generator makes: below the random jamming of
/// such mixtures (about 0.84 for the 50:50 1:1.4 disks, O'Hern et al. 2003), where a
/// compression at the generator's rate still flows.
pub const MAX_COMPRESSED_FRACTION: f64 = 0.82;

/// The growth rate, in units of the time a ball at the rms speed takes to cross the
/// mean radius: slow enough for the fluid to stay near equilibrium as it densifies.
pub const PLACE_RATE: f64 = 0.01;

/// Compresses `balls` (just placed at a lower fraction, all the table's balls) on
/// `table` to area fraction `target`. `field` names the generator in errors.
pub fn compress_to(
    balls: &mut Balls,
    table: &Table,
    target: f64,
    field: &str,
) -> Result<(), ScenarioError> {
    let n = balls.len();
    let fail = |msg: String| ScenarioError::field(format!("{field}.area_fraction"), msg);
    let r_mean = balls.r.iter().sum::<f64>() / n as f64;
    let v2 = (0..n)
        .map(|i| balls.vx[i] * balls.vx[i] + balls.vy[i] * balls.vy[i])
        .sum::<f64>()
        / n as f64;
    if !(v2 > 0.0 && v2.is_finite()) {
        return Err(ScenarioError::field(
            format!("{field}.speed"),
            format!(
                "a gas above area fraction {} is compressed into place, which needs the \
                 balls moving (speed > 0)",
                crate::sizes::MAX_RANDOM_FRACTION
            ),
        ));
    }
    // The time unit: a mean radius at the rms speed.
    let unit = r_mean / v2.sqrt();
    let physics = Physics {
        model: ModelKind::Event,
        dt: unit,
        ..Physics::default()
    };
    // A sheared box at shift 0 has the images of a plain periodic box, so the gas is
    // compressed in that box (the event model compresses no sheared box) and the shear
    // starts from the packing. At another shift the images across the sliding edge
    // would not be the ones the packing was made against.
    let place_table = if table.is_sheared() {
        if table.shift != 0.0 {
            return Err(ScenarioError::field(
                "table.boundary.shift",
                format!(
                    "a gas above area fraction {} is compressed into place in the unsheared \
                     box, so the sheared box must start at shift 0 (got {})",
                    crate::sizes::MAX_RANDOM_FRACTION,
                    table.shift
                ),
            ));
        }
        Table::periodic(table.width, table.height)
    } else {
        *table
    };
    let mut world = World::new("placement", place_table, physics, balls.clone())
        .map_err(|e| fail(format!("compressing the placed gas: {}", e.message)))?;
    world
        .set_compress(Some(Compress {
            rate: PLACE_RATE / unit,
            until: Until {
                area_fraction: Some(target),
                pressure: None,
            },
            origin: None,
            temperature: None,
        }))
        .map_err(|e| fail(format!("compressing the placed gas: {}", e.message)))?;
    // The growth factor is at most sqrt(0.82 / 0.5) < 1.3: 30 / PLACE_RATE steps of
    // one time unit hold it many times over.
    let most = (30.0 / PLACE_RATE) as u64;
    while world.compression_running() {
        if world.steps >= most {
            return Err(fail("the compression into place did not finish".into()));
        }
        world
            .run_steps(64)
            .map_err(|e| fail(format!("compressing the placed gas: {e}")))?;
    }
    let (_, p) = world.compression().expect("compressing");
    if p.stopped != Some(StopReason::AreaFraction) {
        return Err(fail(format!(
            "the gas jammed at area fraction {} before reaching {target}",
            p.area_fraction
        )));
    }
    let b = world.balls();
    balls.x.clone_from(&b.x);
    balls.y.clone_from(&b.y);
    balls.vx.clone_from(&b.vx);
    balls.vy.clone_from(&b.vy);
    balls.r.clone_from(&b.r);
    // The moments of inertia of the grown disks.
    for (((inertia, inv), &m), &r) in balls
        .inertia
        .iter_mut()
        .zip(balls.inv_inertia.iter_mut())
        .zip(&balls.m)
        .zip(&balls.r)
    {
        *inertia = crate::balls::solid_disk_inertia(m, r);
        *inv = 1.0 / *inertia;
    }
    Ok(())
}
