//! Generators expand into balls, appended after the listed balls, generator by generator
//! in the order written. The layouts below are part of the scenario contract: the same
//! scenario gives the same balls, bit for bit, in every version.

use std::f64::consts::PI;

use crate::balls::{Ball, Balls, Rgb};
use crate::dense_placement;
use crate::error::ScenarioError;
use crate::scenario::{Generator, RadiiSpec, Scenario};
use crate::sizes;
use crate::table::Table;
use crate::value_checks::{finite, positive};

use crate::random::SplitMix64;

/// The table: as written, or, when both sizes are left out, the square that holds the
/// first `gas` generator giving both `n` and `area_fraction`.
/// `table.boundary` then closes its axes, or makes it a sheared box
/// ([`crate::scenario::table_with_boundary`]).
pub fn resolve_table(s: &Scenario) -> Result<Table, ScenarioError> {
    let size = resolve_size(s)?;
    crate::scenario::table_with_boundary(s.table.boundary.as_ref(), size)
        .map_err(|e| ScenarioError::field(e.field, e.message))
}

fn resolve_size(s: &Scenario) -> Result<Table, ScenarioError> {
    match (s.table.width, s.table.height) {
        (Some(width), Some(height)) => {
            for (name, v) in [("table.width", width), ("table.height", height)] {
                if !(v.is_finite() && v > 0.0) {
                    return Err(ScenarioError::field(
                        name,
                        format!("must be a positive finite number (got {v})"),
                    ));
                }
            }
            Ok(Table::new(width, height))
        }
        (None, None) => {
            for (g, gen) in s.generators.iter().enumerate() {
                if let Generator::Gas {
                    n: Some(n),
                    area_fraction: Some(phi),
                    r,
                    radii,
                    seed,
                    ..
                } = gen
                {
                    let field = format!("generators[{g}]");
                    let side = match radii {
                        None | Some(RadiiSpec::Mono) => {
                            check_fraction(&format!("{field}.area_fraction"), *phi)?;
                            (*n as f64 * PI * r * r / phi).sqrt()
                        }
                        Some(spec) => {
                            check_sized(spec, *r, *n, *phi, &field)?;
                            (sizes::total_area(spec, *r, *n as usize, *seed) / phi).sqrt()
                        }
                    };
                    if !(side.is_finite() && side > 0.0) {
                        return Err(ScenarioError::field(
                            format!("generators[{g}]"),
                            "cannot size the table from this gas (n and r must be positive)",
                        ));
                    }
                    return Ok(Table::new(side, side));
                }
            }
            Err(ScenarioError::field(
                "table",
                "needs width and height (or a gas generator with n and area_fraction to size it)",
            ))
        }
        (None, Some(_)) => Err(ScenarioError::field("table.width", "missing")),
        (Some(_), None) => Err(ScenarioError::field("table.height", "missing")),
    }
}

fn check_fraction(field: &str, phi: f64) -> Result<(), ScenarioError> {
    // Random close packing of disks is about 0.82; a jittered square grid holds at most
    // pi/4 = 0.785 without overlap.
    if phi.is_finite() && phi > 0.0 && phi < PI / 4.0 {
        Ok(())
    } else {
        Err(ScenarioError::field(
            field,
            format!(
                "must be in (0, {:.4}) for a square-grid gas (got {phi})",
                PI / 4.0
            ),
        ))
    }
}

/// The checks of a gas with a size distribution: its parameters, its count and its
/// area fraction (random placement reaches no further than [`sizes::MAX_RANDOM_FRACTION`]).
fn check_sized(
    spec: &RadiiSpec,
    r: f64,
    n: u64,
    phi: f64,
    field: &str,
) -> Result<(), ScenarioError> {
    positive(format!("{field}.r"), r)?;
    sizes::check(spec, r, &format!("{field}.radii"))?;
    if n > MAX_GENERATED {
        return Err(ScenarioError::field(
            format!("{field}.n"),
            format!("at most {MAX_GENERATED} balls (got {n})"),
        ));
    }
    let max = dense_placement::MAX_COMPRESSED_FRACTION;
    if !(phi.is_finite() && phi > 0.0 && phi <= max) {
        return Err(ScenarioError::field(
            format!("{field}.area_fraction"),
            format!(
                "must be in (0, {max}]: random placement reaches {}, compression from \
                 there stays below the random jamming of a size mixture (got {phi})",
                sizes::MAX_RANDOM_FRACTION
            ),
        ));
    }
    Ok(())
}

fn colour(field: String, c: &str) -> Result<Rgb, ScenarioError> {
    Rgb::parse(c)
        .ok_or_else(|| ScenarioError::field(field, format!("must be a colour #RRGGBB (got {c:?})")))
}

/// The largest number of balls one generator may produce (the memory of ~10^8 balls
/// would exceed any machine this runs on; a typo should not try).
pub const MAX_GENERATED: u64 = 50_000_000;

pub fn expand(
    gen: &Generator,
    table: &Table,
    field: &str,
    out: &mut Balls,
) -> Result<(), ScenarioError> {
    match gen {
        Generator::Rack { .. } => rack(gen, field, out),
        Generator::Lattice { .. } => lattice(gen, field, out),
        Generator::Gas { .. } => gas_of(gen, table, field, out),
    }
}

/// A triangular rack of `rows` rows, its apex at `(x, y)`, opening towards +x.
fn rack(gen: &Generator, field: &str, out: &mut Balls) -> Result<(), ScenarioError> {
    let Generator::Rack {
        x,
        y,
        rows,
        r,
        m,
        gap,
        colors,
    } = gen
    else {
        unreachable!("expand passes only a rack here")
    };
    finite(format!("{field}.x"), *x)?;
    finite(format!("{field}.y"), *y)?;
    positive(format!("{field}.r"), *r)?;
    positive(format!("{field}.m"), *m)?;
    if !(gap.is_finite() && *gap >= 0.0) {
        return Err(ScenarioError::field(
            format!("{field}.gap"),
            format!("must be non-negative (got {gap})"),
        ));
    }
    if u64::from(*rows) * u64::from(*rows + 1) / 2 > MAX_GENERATED {
        return Err(ScenarioError::field(
            format!("{field}.rows"),
            "too many balls",
        ));
    }
    let palette: Vec<Rgb> = colors
        .iter()
        .enumerate()
        .map(|(k, c)| colour(format!("{field}.colors[{k}]"), c))
        .collect::<Result<_, _>>()?;
    let pitch = 2.0 * r + gap;
    let row_step = pitch * 3f64.sqrt() / 2.0;
    let mut count = 0;
    for k in 0..*rows {
        let bx = x + f64::from(k) * row_step;
        for j in 0..=k {
            // (j - k/2) is a half-integer, so the offsets of a row are exact
            // negatives of each other: the rack is mirror-symmetric about y.
            let off = (f64::from(j) - 0.5 * f64::from(k)) * pitch;
            let mut b = Ball::new(bx, y + off, 0.0, 0.0, *r, *m);
            if !palette.is_empty() {
                b.color = Some(palette[count % palette.len()]);
            }
            out.push(b);
            count += 1;
        }
    }
    Ok(())
}

/// An `nx` by `ny` lattice from `(x0, y0)` with spacings `dx`, `dy`, every ball at `(vx, vy)`.
fn lattice(gen: &Generator, field: &str, out: &mut Balls) -> Result<(), ScenarioError> {
    let Generator::Lattice {
        nx,
        ny,
        x0,
        y0,
        dx,
        dy,
        r,
        m,
        vx,
        vy,
        color,
    } = gen
    else {
        unreachable!("expand passes only a lattice here")
    };
    for (name, v) in [
        ("x0", x0),
        ("y0", y0),
        ("dx", dx),
        ("dy", dy),
        ("vx", vx),
        ("vy", vy),
    ] {
        finite(format!("{field}.{name}"), *v)?;
    }
    positive(format!("{field}.r"), *r)?;
    positive(format!("{field}.m"), *m)?;
    if u64::from(*nx) * u64::from(*ny) > MAX_GENERATED {
        return Err(ScenarioError::field(
            format!("{field}.nx"),
            "too many balls",
        ));
    }
    let c = match color {
        Some(c) => Some(colour(format!("{field}.color"), c)?),
        None => None,
    };
    // Row by row: y outer, x inner.
    for iy in 0..*ny {
        for ix in 0..*nx {
            let mut b = Ball::new(
                x0 + f64::from(ix) * dx,
                y0 + f64::from(iy) * dy,
                *vx,
                *vy,
                *r,
                *m,
            );
            b.color = c;
            out.push(b);
        }
    }
    Ok(())
}

/// A gas: a jittered grid of equal balls, or balls of a size distribution placed at
/// random (and compressed into place above what random placement reaches).
fn gas_of(
    gen: &Generator,
    table: &Table,
    field: &str,
    out: &mut Balls,
) -> Result<(), ScenarioError> {
    let Generator::Gas {
        n,
        area_fraction,
        r,
        m,
        radii,
        speed,
        seed,
    } = gen
    else {
        unreachable!("expand passes only a gas here")
    };
    positive(format!("{field}.r"), *r)?;
    if let Some(m) = m {
        positive(format!("{field}.m"), *m)?;
    }
    if !(speed.is_finite() && *speed >= 0.0) {
        return Err(ScenarioError::field(
            format!("{field}.speed"),
            format!("must be non-negative (got {speed})"),
        ));
    }
    if let Some(spec) = radii.filter(|s| *s != RadiiSpec::Mono) {
        sizes::check(&spec, *r, &format!("{field}.radii"))?;
        let n = match (n, area_fraction) {
            (Some(n), Some(phi)) => {
                check_sized(&spec, *r, *n, *phi, field)?;
                *n
            }
            (Some(n), None) => *n,
            (None, Some(phi)) => {
                check_sized(&spec, *r, 0, *phi, field)?;
                (phi * table.width * table.height / sizes::mean_area(&spec, *r)).floor() as u64
            }
            (None, None) => {
                return Err(ScenarioError::field(
                    field,
                    "a gas needs n or area_fraction",
                ));
            }
        };
        if n > MAX_GENERATED {
            return Err(ScenarioError::field(
                format!("{field}.n"),
                format!("at most {MAX_GENERATED} balls (got {n})"),
            ));
        }
        // The area fraction of the radii drawn: above what random placement
        // reaches, the gas is placed smaller and compressed into place.
        let phi = sizes::total_area(&spec, *r, n as usize, *seed) / table.area();
        if phi <= sizes::MAX_RANDOM_FRACTION || n == 0 {
            return sizes::place(
                &spec, n as usize, *r, *m, *speed, *seed, table, field, out, 1.0,
            );
        }
        let max = dense_placement::MAX_COMPRESSED_FRACTION;
        if phi > max {
            return Err(ScenarioError::field(
                format!("{field}.area_fraction"),
                format!(
                    "the gas would fill {phi} of the table, beyond the {max} it can \
                         be compressed to (below the random jamming of a size mixture)"
                ),
            ));
        }
        if !out.is_empty() {
            return Err(ScenarioError::field(
                field,
                format!(
                    "a gas above area fraction {} is compressed into place, so it \
                         must be the table's only balls",
                    sizes::MAX_RANDOM_FRACTION
                ),
            ));
        }
        let shrink = (dense_placement::PLACE_FRACTION / phi).sqrt();
        sizes::place(
            &spec, n as usize, *r, *m, *speed, *seed, table, field, out, shrink,
        )?;
        return dense_placement::compress_to(out, table, phi, field);
    }
    let m = &m.unwrap_or(1.0);
    let n = match (n, area_fraction) {
        (Some(n), _) => *n,
        (None, Some(phi)) => {
            check_fraction(&format!("{field}.area_fraction"), *phi)?;
            (phi * table.width * table.height / (PI * r * r)).floor() as u64
        }
        (None, None) => {
            return Err(ScenarioError::field(
                field,
                "a gas needs n or area_fraction",
            ));
        }
    };
    if n > MAX_GENERATED {
        return Err(ScenarioError::field(
            format!("{field}.n"),
            format!("at most {MAX_GENERATED} balls (got {n})"),
        ));
    }
    gas(n as usize, *r, *m, *speed, *seed, table, field, out)?;
    Ok(())
}

/// `n` balls on a jittered grid of `cols x rows` cells covering the table (cells filled
/// row by row), each ball displaced uniformly within its cell by as much as keeps it
/// clear of its neighbours and the walls, velocity uniform in `[-speed, speed]^2`.
/// Random numbers are drawn in the order: jitter x, jitter y, vx, vy, ball by ball.
#[allow(clippy::too_many_arguments)]
fn gas(
    n: usize,
    r: f64,
    m: f64,
    speed: f64,
    seed: u64,
    table: &Table,
    field: &str,
    out: &mut Balls,
) -> Result<(), ScenarioError> {
    if n == 0 {
        return Ok(());
    }
    let cols = ((n as f64 * table.width / table.height).sqrt().ceil() as usize).max(1);
    let rows = n.div_ceil(cols);
    let (cw, ch) = (table.width / cols as f64, table.height / rows as f64);
    if cw < 2.0 * r || ch < 2.0 * r {
        return Err(ScenarioError::field(
            field,
            format!(
                "{n} balls of radius {r} do not fit on a grid in the {} x {} table",
                table.width, table.height
            ),
        ));
    }
    let (jx, jy) = (0.5 * cw - r, 0.5 * ch - r);
    let mut rng = SplitMix64(seed);
    for k in 0..n {
        let (c, row) = (k % cols, k / cols);
        let x = (c as f64 + 0.5) * cw + jx * rng.symmetric();
        let y = (row as f64 + 0.5) * ch + jy * rng.symmetric();
        let vx = speed * rng.symmetric();
        let vy = speed * rng.symmetric();
        out.push(Ball::new(x, y, vx, vy, r, m));
    }
    Ok(())
}

/// The note a run prints for generator `g` (its balls' radii `radii`, placed on
/// `table`) when it is a gas of mixed sizes denser than random placement reaches: it
/// was placed smaller and compressed into place.
pub fn compression_note(gen: &Generator, g: usize, radii: &[f64], table: &Table) -> Option<String> {
    if let Generator::Gas {
        radii: Some(spec), ..
    } = gen
    {
        let area: f64 = radii.iter().map(|r| PI * r * r).sum();
        let phi = area / table.area();
        if !matches!(spec, RadiiSpec::Mono) && phi > sizes::MAX_RANDOM_FRACTION {
            return Some(format!(
                "generators[{g}]: placed at random at area fraction {} and compressed \
                 to {phi} (event model, Lubachevsky-Stillinger growth)",
                dense_placement::PLACE_FRACTION
            ));
        }
    }
    None
}
