//! Size distributions of the `gas` generator and the random, non-overlapping placement
//! of disks of several sizes (random sequential addition on a cell grid).
//!
//! Everything is drawn from one [`SplitMix64`] stream seeded with the generator's
//! `seed`, in this order: the radii (ball by ball; for `bidisperse` the counts are
//! exact and only their order is drawn, by a Fisher-Yates shuffle), then the positions,
//! largest ball first (ties by index), each a sequence of uniform tries until one
//! overlaps nothing placed, then the velocities, ball by ball (`vx`, then `vy`, uniform
//! in `[-speed, speed]`). The same scenario gives the same balls in every version.

use std::f64::consts::PI;

use crate::balls::{Ball, Balls};
use crate::error::ScenarioError;
use crate::random::SplitMix64;
use crate::scenario::RadiiSpec;
use crate::table::Table;

/// The highest area fraction random sequential addition is asked for: monodisperse
/// disks saturate near 0.547 (Hinrichsen, Feder and Jossang 1986), mixtures somewhat
/// higher; beyond this the tries would run for ever.
pub const MAX_RANDOM_FRACTION: f64 = 0.6;

/// How many uniform tries one ball gets before the placement gives up.
const TRIES_PER_BALL: u32 = 1_000_000;

/// Checks a distribution's parameters, naming the key (`field` is the generator's
/// `radii`).
pub fn check(spec: &RadiiSpec, r: f64, field: &str) -> Result<(), ScenarioError> {
    let invalid = |key: &str, msg: String| Err(ScenarioError::field(format!("{field}.{key}"), msg));
    match *spec {
        RadiiSpec::Mono => Ok(()),
        RadiiSpec::Bidisperse { ratio, fraction } => {
            if !(ratio.is_finite() && ratio >= 1.0) {
                return invalid(
                    "ratio",
                    format!("must be a finite number of at least 1: r is the small radius (got {ratio})"),
                );
            }
            if !(0.0..=1.0).contains(&fraction) {
                return invalid("fraction", format!("must be in [0, 1] (got {fraction})"));
            }
            if !(r * ratio).is_finite() {
                return invalid(
                    "ratio",
                    format!("makes the large radius {} not finite", r * ratio),
                );
            }
            Ok(())
        }
        RadiiSpec::Uniform { min, max } => {
            if !(min.is_finite() && min > 0.0) {
                return invalid(
                    "min",
                    format!("must be a positive finite number (got {min})"),
                );
            }
            if !(max.is_finite() && max >= min) {
                return invalid(
                    "max",
                    format!("must be finite and at least min = {min} (got {max})"),
                );
            }
            Ok(())
        }
        RadiiSpec::Lognormal { median, sigma } => {
            if !(median.is_finite() && median > 0.0) {
                return invalid(
                    "median",
                    format!("must be a positive finite number (got {median})"),
                );
            }
            // exp(2 sigma^2) in the mean area must stay finite.
            if !(sigma.is_finite() && (0.0..=10.0).contains(&sigma)) {
                return invalid("sigma", format!("must be in [0, 10] (got {sigma})"));
            }
            if !(median * median * (2.0 * sigma * sigma).exp()).is_finite() {
                return invalid("median", "gives a mean area that is not finite".into());
            }
            Ok(())
        }
    }
}

/// The distribution's mean disk area (`r` is the generator's radius, the small one of
/// a bidisperse mixture): `pi <r^2>`.
pub fn mean_area(spec: &RadiiSpec, r: f64) -> f64 {
    match *spec {
        RadiiSpec::Mono => PI * r * r,
        RadiiSpec::Bidisperse { ratio, fraction } => {
            PI * r * r * (fraction + (1.0 - fraction) * ratio * ratio)
        }
        // <r^2> of r uniform on [a, b] is (a^2 + ab + b^2) / 3.
        RadiiSpec::Uniform { min, max } => PI * (min * min + min * max + max * max) / 3.0,
        // ln r normal with mean ln(median) and deviation sigma: <r^2> = median^2 e^{2 sigma^2}.
        RadiiSpec::Lognormal { median, sigma } => {
            PI * median * median * (2.0 * sigma * sigma).exp()
        }
    }
}

/// The total area of the `n` disks a gas with this distribution and `seed` draws (the
/// radii [`place`] gives them, summed in index order): the table a gas sizes holds them
/// at its area fraction to round-off.
pub fn total_area(spec: &RadiiSpec, r: f64, n: usize, seed: u64) -> f64 {
    draw_radii(spec, r, n, &mut SplitMix64(seed))
        .iter()
        .map(|&ri| PI * ri * ri)
        .sum()
}

/// The number of small balls of a bidisperse mixture of `n`: `n * fraction` rounded
/// to the nearest whole number (halves away from zero).
pub fn small_count(n: usize, fraction: f64) -> usize {
    ((n as f64 * fraction).round() as usize).min(n)
}

/// The `n` radii, drawn first from `rng` (see the module's order).
pub fn draw_radii(spec: &RadiiSpec, r: f64, n: usize, rng: &mut SplitMix64) -> Vec<f64> {
    match *spec {
        RadiiSpec::Mono => vec![r; n],
        RadiiSpec::Bidisperse { ratio, fraction } => {
            let small = small_count(n, fraction);
            let mut v: Vec<f64> = (0..n)
                .map(|k| if k < small { r } else { r * ratio })
                .collect();
            // Fisher-Yates: position k swaps with one uniform in [0, k].
            for k in (1..n).rev() {
                let j = ((rng.unit() * (k + 1) as f64) as usize).min(k);
                v.swap(k, j);
            }
            v
        }
        RadiiSpec::Uniform { min, max } => (0..n).map(|_| min + (max - min) * rng.unit()).collect(),
        RadiiSpec::Lognormal { median, sigma } => (0..n)
            .map(|_| median * (sigma * normal(rng)).exp())
            .collect(),
    }
}

/// A standard normal deviate by the Box-Muller transform (two uniforms per deviate;
/// the second deviate is not kept, so the stream's use is simple to state).
fn normal(rng: &mut SplitMix64) -> f64 {
    let u1 = 1.0 - rng.unit(); // (0, 1]
    let u2 = rng.unit();
    (-2.0 * u1.ln()).sqrt() * (2.0 * PI * u2).cos()
}

/// The mass of a ball of radius `r` when the generator gives no `m`: its area over pi,
/// `r^2` (a surface density of `1 / pi`, so that a disk of radius 1 has mass 1, as in
/// the monodisperse gas whose default mass is 1).
pub fn mass_of_radius(r: f64) -> f64 {
    r * r
}

/// Places `n` balls of the distribution at random, never overlapping each other nor
/// (on a walled axis) the walls; on a periodic axis a ball may straddle the edge and
/// overlaps are tested with the minimum image. Appends them to `out` in index order.
/// `shrink`: every radius is that fraction of the one drawn (1: as drawn; below, for a
/// gas compressed into place afterwards), the masses those of the drawn radii.
#[allow(clippy::too_many_arguments)]
pub fn place(
    spec: &RadiiSpec,
    n: usize,
    r: f64,
    m: Option<f64>,
    speed: f64,
    seed: u64,
    table: &Table,
    field: &str,
    out: &mut Balls,
    shrink: f64,
) -> Result<(), ScenarioError> {
    if n == 0 {
        return Ok(());
    }
    let mut rng = SplitMix64(seed);
    let drawn = draw_radii(spec, r, n, &mut rng);
    let radii: Vec<f64> = if shrink == 1.0 {
        drawn.clone()
    } else {
        drawn.iter().map(|&r| r * shrink).collect()
    };
    let r_max = radii.iter().fold(0.0f64, |a, &b| a.max(b));
    let periodic = [table.is_periodic(0), table.is_periodic(1)];
    let (w, h) = (table.width, table.height);
    for (axis, side) in [(0, w), (1, h)] {
        if !periodic[axis] && 2.0 * r_max > side {
            return Err(ScenarioError::field(
                field,
                format!("a ball of radius {r_max} does not fit in the {w} x {h} table"),
            ));
        }
    }
    // Cells at least one largest diameter wide: a ball overlaps only balls of the 3 x 3
    // cells around its own. At least the mean spacing too, so that there are no more
    // cells than balls (tiny balls on a large table would otherwise ask for billions).
    let cell = (2.0 * r_max).max((w * h / n as f64).sqrt());
    let ncx = ((w / cell).floor() as usize).clamp(1, 1 << 15);
    let ncy = ((h / cell).floor() as usize).clamp(1, 1 << 15);
    let (cw, ch) = (w / ncx as f64, h / ncy as f64);
    let cell_of = |x: f64, y: f64| {
        let cx = ((x / cw) as usize).min(ncx - 1);
        let cy = ((y / ch) as usize).min(ncy - 1);
        (cx, cy)
    };
    const NONE: u32 = u32::MAX;
    let mut head = vec![NONE; ncx * ncy];
    let mut next = vec![NONE; n];
    let (mut xs, mut ys) = (vec![0.0; n], vec![0.0; n]);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| radii[b].total_cmp(&radii[a]).then(a.cmp(&b)));
    for &i in &order {
        let ri = radii[i];
        // The range of centres on each axis: clear of the walls, or the whole side.
        let (x0, xr) = if periodic[0] {
            (0.0, w)
        } else {
            (ri, w - 2.0 * ri)
        };
        let (y0, yr) = if periodic[1] {
            (0.0, h)
        } else {
            (ri, h - 2.0 * ri)
        };
        let mut placed = false;
        for _ in 0..TRIES_PER_BALL {
            let x = x0 + xr * rng.unit();
            let y = y0 + yr * rng.unit();
            let (cx, cy) = cell_of(x, y);
            let mut clear = true;
            'cells: for dy in -1i64..=1 {
                let Some(ky) = neighbour(cy, dy, ncy, periodic[1]) else {
                    continue;
                };
                for dx in -1i64..=1 {
                    let Some(kx) = neighbour(cx, dx, ncx, periodic[0]) else {
                        continue;
                    };
                    let mut j = head[ky * ncx + kx];
                    while j != NONE {
                        let jj = j as usize;
                        let (ex, ey) = table.min_image(x - xs[jj], y - ys[jj]);
                        let reach = ri + radii[jj];
                        if ex * ex + ey * ey < reach * reach {
                            clear = false;
                            break 'cells;
                        }
                        j = next[jj];
                    }
                }
            }
            if clear {
                xs[i] = x;
                ys[i] = y;
                let c = cy * ncx + cx;
                next[i] = head[c];
                head[c] = i as u32;
                placed = true;
                break;
            }
        }
        if !placed {
            return Err(ScenarioError::field(
                field,
                format!(
                    "random placement found no room for ball {i} of radius {ri} after \
                     {TRIES_PER_BALL} tries: the area fraction is too high for it"
                ),
            ));
        }
    }
    for (((&x, &y), &ri), &rd) in xs.iter().zip(&ys).zip(&radii).zip(&drawn) {
        let vx = speed * rng.symmetric();
        let vy = speed * rng.symmetric();
        let mass = m.unwrap_or_else(|| mass_of_radius(rd));
        out.push(Ball::new(x, y, vx, vy, ri, mass));
    }
    Ok(())
}

/// The cell `d` away from `c` on an axis of `count` cells: wrapped on a periodic axis,
/// none past the end of a walled one.
#[inline]
fn neighbour(c: usize, d: i64, count: usize, periodic: bool) -> Option<usize> {
    let k = c as i64 + d;
    if (0..count as i64).contains(&k) {
        Some(k as usize)
    } else if periodic {
        Some(k.rem_euclid(count as i64) as usize)
    } else {
        None
    }
}
