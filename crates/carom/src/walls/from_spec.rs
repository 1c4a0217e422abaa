//! From a scenario's `[[walls]]` and `[[pockets]]` entries to [`Walls`], every bad
//! entry a one-line error naming it (`walls[2].points: ...`).

use super::motion_from_spec;
use super::spec::{PocketSpec, WallKind, WallSpec};
use super::{Pocket, Surface, Walls};
use crate::balls::Balls;
use crate::error::ScenarioError;
use crate::table::Table;

fn err(field: String, message: impl Into<String>) -> ScenarioError {
    ScenarioError::field(field, message)
}

fn finite_point(field: &str, p: [f64; 2]) -> Result<(), ScenarioError> {
    if p[0].is_finite() && p[1].is_finite() {
        Ok(())
    } else {
        Err(err(
            field.to_string(),
            format!("must be finite numbers (got [{}, {}])", p[0], p[1]),
        ))
    }
}

fn kind_name(k: WallKind) -> &'static str {
    match k {
        WallKind::Segment => "segment",
        WallKind::Polyline => "polyline",
        WallKind::Arc => "arc",
        WallKind::Circle => "circle",
    }
}

/// The walls and pockets of a scenario on `table`, checked.
pub fn build(
    walls: &[WallSpec],
    pockets: &[PocketSpec],
    table: &Table,
) -> Result<Walls, ScenarioError> {
    let mut out = Walls::none();
    let mut motions = Vec::new();
    for (k, w) in walls.iter().enumerate() {
        let name = format!("walls[{k}]");
        let first = out.pieces().len();
        let bounds = add_wall(&mut out, w, &name, table)?;
        if let Some(m) = motion_from_spec::motion(w, &name, table, bounds, &out.pieces()[first..])?
        {
            motions.push((k as u32, m));
        }
    }
    // Set once every wall is in: a moving wall's pieces are placed from the pieces as
    // given.
    for (k, m) in motions {
        out.set_motion(k, m);
    }
    for (k, p) in pockets.iter().enumerate() {
        let name = format!("pockets[{k}]");
        finite_point(&format!("{name}.center"), p.center)?;
        if !(p.radius.is_finite() && p.radius > 0.0) {
            return Err(err(
                format!("{name}.radius"),
                format!("must be a positive finite number (got {})", p.radius),
            ));
        }
        let (cx, cy) = (
            p.center[0].clamp(0.0, table.width),
            p.center[1].clamp(0.0, table.height),
        );
        if (cx - p.center[0]).hypot(cy - p.center[1]) >= p.radius {
            return Err(err(
                name,
                format!(
                    "the pocket at ({}, {}) of radius {} lies wholly outside the {} x {} table",
                    p.center[0], p.center[1], p.radius, table.width, table.height
                ),
            ));
        }
        out.add_pocket(Pocket {
            center: p.center,
            radius: p.radius,
        });
    }
    Ok(out)
}

/// Adds one wall; returns its bounding box `[x0, y0, x1, y1]`.
fn add_wall(
    out: &mut Walls,
    w: &WallSpec,
    name: &str,
    table: &Table,
) -> Result<[f64; 4], ScenarioError> {
    let kind = kind_name(w.kind);
    let takes_points = matches!(w.kind, WallKind::Segment | WallKind::Polyline);
    let surface = surface(w, name, kind, takes_points)?;
    let bounds = if takes_points {
        add_points(out, w, name, kind, surface)?
    } else {
        add_round(out, w, name, kind, surface)?
    };
    // Its box's bounds are finite (finite points, finite radius), so this compares.
    if bounds[2] < 0.0 || bounds[0] > table.width || bounds[3] < 0.0 || bounds[1] > table.height {
        return Err(err(
            name.to_string(),
            format!(
                "the {kind} lies wholly outside the {} x {} table",
                table.width, table.height
            ),
        ));
    }
    Ok(bounds)
}

/// The keys of a wall of kind `kind` (`takes_points`: a segment or polyline) checked
/// against its kind, and its surface's values.
fn surface(
    w: &WallSpec,
    name: &str,
    kind: &str,
    takes_points: bool,
) -> Result<Surface, ScenarioError> {
    // Keys that do not belong to the kind are refused: a typo'd shape must not be
    // silently read as another.
    let given = [
        ("points", w.points.is_some(), takes_points),
        ("closed", w.closed.is_some(), w.kind == WallKind::Polyline),
        ("center", w.center.is_some(), !takes_points),
        ("radius", w.radius.is_some(), !takes_points),
        ("from", w.from.is_some(), w.kind == WallKind::Arc),
        ("to", w.to.is_some(), w.kind == WallKind::Arc),
    ];
    for (key, present, allowed) in given {
        if present && !allowed {
            return Err(err(
                format!("{name}.{key}"),
                format!("a {kind} takes no {key}"),
            ));
        }
    }
    if let Some(e) = w.restitution {
        if !(0.0..=1.0).contains(&e) {
            return Err(err(
                format!("{name}.restitution"),
                format!("must be between 0 and 1 (got {e})"),
            ));
        }
    }
    if let Some(mu) = w.mu {
        if !(mu.is_finite() && mu >= 0.0) {
            return Err(err(
                format!("{name}.mu"),
                format!("must be a finite number of at least 0 (got {mu})"),
            ));
        }
    }
    let surface_velocity = w.surface_velocity.unwrap_or(0.0);
    if !surface_velocity.is_finite() {
        return Err(err(
            format!("{name}.surface_velocity"),
            format!("must be finite (got {surface_velocity})"),
        ));
    }
    if let Some(h) = w.cushion_height {
        if !(h.is_finite() && h > 0.0) {
            return Err(err(
                format!("{name}.cushion_height"),
                format!("must be a finite number above 0 (got {h})"),
            ));
        }
    }
    Ok(Surface {
        restitution: w.restitution,
        mu: w.mu,
        surface_velocity,
        cushion_height: w.cushion_height,
    })
}

/// A segment or polyline from its points, checked; returns its bounding box.
fn add_points(
    out: &mut Walls,
    w: &WallSpec,
    name: &str,
    kind: &str,
    surface: Surface,
) -> Result<[f64; 4], ScenarioError> {
    let points = w.points.as_deref().ok_or_else(|| {
        err(
            name.to_string(),
            format!("a {kind} needs points = [[x, y], ...]"),
        )
    })?;
    let field = format!("{name}.points");
    for (i, &p) in points.iter().enumerate() {
        finite_point(&format!("{field}[{i}]"), p)?;
    }
    let closed = w.closed.unwrap_or(false);
    let need = if closed { 3 } else { 2 };
    if w.kind == WallKind::Segment && points.len() != 2 {
        return Err(err(
            field,
            format!("a segment needs exactly two points (got {})", points.len()),
        ));
    }
    if points.len() < need {
        return Err(err(
            field,
            format!(
                "a{} polyline needs at least {need} points (got {})",
                if closed { " closed" } else { "n open" },
                points.len()
            ),
        ));
    }
    let n = points.len();
    let segs = if closed { n } else { n - 1 };
    for k in 0..segs {
        let (a, b) = (points[k], points[(k + 1) % n]);
        let len = (b[0] - a[0]).hypot(b[1] - a[1]);
        // A length that is not a positive finite number (zero, or an overflow of
        // two huge coordinates) gives no direction to the segment.
        if !(len.is_finite() && len > 0.0) {
            return Err(err(
                field,
                format!(
                    "the segment from point {k} to point {} has no length ([{}, {}] to [{}, {}])",
                    (k + 1) % n,
                    a[0],
                    a[1],
                    b[0],
                    b[1]
                ),
            ));
        }
    }
    let bounds = points.iter().fold(
        [
            f64::INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
        ],
        |b, p| {
            [
                b[0].min(p[0]),
                b[1].min(p[1]),
                b[2].max(p[0]),
                b[3].max(p[1]),
            ]
        },
    );
    out.polyline(points, closed, surface);
    Ok(bounds)
}

/// An arc or circle from its centre, radius and angles, checked; returns its bounding
/// box.
fn add_round(
    out: &mut Walls,
    w: &WallSpec,
    name: &str,
    kind: &str,
    surface: Surface,
) -> Result<[f64; 4], ScenarioError> {
    let center = w
        .center
        .ok_or_else(|| err(name.to_string(), format!("a {kind} needs center = [x, y]")))?;
    finite_point(&format!("{name}.center"), center)?;
    let radius = w
        .radius
        .ok_or_else(|| err(name.to_string(), format!("a {kind} needs radius")))?;
    if !(radius.is_finite() && radius > 0.0) {
        return Err(err(
            format!("{name}.radius"),
            format!("must be a positive finite number (got {radius})"),
        ));
    }
    let (from, span) = if w.kind == WallKind::Arc {
        let from = w.from.unwrap_or(0.0);
        let to =
            w.to.ok_or_else(|| err(name.to_string(), "an arc needs to (degrees)"))?;
        for (key, v) in [("from", from), ("to", to)] {
            if !v.is_finite() {
                return Err(err(
                    format!("{name}.{key}"),
                    format!("must be finite (got {v})"),
                ));
            }
        }
        let extent = to - from;
        if !(extent > 0.0 && extent <= 360.0) {
            return Err(err(
                format!("{name}.to"),
                format!(
                    "the arc's extent to - from must be more than 0 and at most 360 degrees \
                     (got {to} - {from} = {extent})"
                ),
            ));
        }
        let span = if extent == 360.0 {
            std::f64::consts::TAU
        } else {
            extent.to_radians()
        };
        (from.to_radians(), span)
    } else {
        (0.0, std::f64::consts::TAU)
    };
    let bounds = [
        center[0] - radius,
        center[1] - radius,
        center[0] + radius,
        center[1] + radius,
    ];
    out.arc(center, radius, from, span, surface);
    Ok(bounds)
}

/// The first ball (in play, dynamic) that overlaps a wall at the start by more than
/// round-off: its index, the wall's, and the overlap.
pub fn first_overlap(
    balls: &Balls,
    walls: &Walls,
    table: &Table,
    skip: &[bool],
) -> Option<(usize, u32, f64)> {
    if !walls.has_walls() {
        return None;
    }
    let r_max = balls.max_radius();
    let cells = walls.cells(table.width, table.height, r_max);
    for i in 0..balls.len() {
        if skip.get(i).copied().unwrap_or(false) {
            continue;
        }
        let (p, r) = ([balls.x[i], balls.y[i]], balls.r[i]);
        // Round-off of a ball placed exactly touching: a few ulps of the coordinates.
        let tol = 1e-9 * r.max(p[0].abs()).max(p[1].abs());
        let mut found = None;
        walls.touches(cells.near(p[0], p[1]), p, r - tol, |t| {
            found.get_or_insert((i, t.wall, r - t.distance));
        });
        if found.is_some() {
            return found;
        }
    }
    None
}
