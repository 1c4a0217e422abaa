//! The `[[generators]]` of a scenario: racks, grids and gases as written in a file
//! (expanded into balls when the world is built).

use serde::{Deserialize, Serialize};

use super::{default_radius, one};

/// Generators expand into balls, appended after the listed balls in the order the
/// generators are written (the layouts in `docs/scenarios.md`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Generator {
    /// A triangular rack: its apex at (`x`, `y`), opening towards +x, `rows` rows, row
    /// `k` holding `k + 1` balls; neighbours `gap` apart (0: touching).
    Rack {
        /// x of the apex ball's centre, table units.
        x: f64,
        /// y of the apex ball's centre, table units.
        y: f64,
        /// Number of rows (`rows`; default 5, the fifteen-ball rack).
        #[serde(default = "default_rows")]
        rows: u32,
        /// Every ball's radius, table units (`r`; default 10).
        #[serde(default = "default_radius")]
        r: f64,
        /// Every ball's mass (`m`; default 1).
        #[serde(default = "one")]
        m: f64,
        /// Gap between neighbouring balls' surfaces, table units (`gap`; default 0).
        #[serde(default)]
        gap: f64,
        /// Colours `#RRGGBB` given to the balls in order, cycling (`colors`; default none).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        colors: Vec<String>,
    },
    /// `nx` by `ny` balls, the first centred at (`x0`, `y0`), `dx` and `dy` apart, all
    /// with velocity (`vx`, `vy`).
    Lattice {
        /// Balls along x.
        nx: u32,
        /// Balls along y.
        ny: u32,
        /// x of the first ball's centre, table units.
        x0: f64,
        /// y of the first ball's centre, table units.
        y0: f64,
        /// Spacing of the centres along x, table units.
        dx: f64,
        /// Spacing of the centres along y, table units.
        dy: f64,
        /// Every ball's radius, table units (`r`; default 10).
        #[serde(default = "default_radius")]
        r: f64,
        /// Every ball's mass (`m`; default 1).
        #[serde(default = "one")]
        m: f64,
        /// Every ball's velocity x (`vx`; default 0).
        #[serde(default)]
        vx: f64,
        /// Every ball's velocity y (`vy`; default 0).
        #[serde(default)]
        vy: f64,
        /// Every ball's colour, `#RRGGBB` (`color`; default none).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        color: Option<String>,
    },
    /// A random gas over the whole table: `n` balls on a jittered square grid, velocities
    /// uniform in `[-speed, speed]^2`, all from `seed`. With `area_fraction` and no table
    /// size, the table is the square of side `sqrt(n pi r^2 / area_fraction)`; with
    /// `area_fraction` and no `n`, `n` is the count that fills the table to that fraction.
    /// With `radii` other than `mono`, the sizes follow that distribution and the balls
    /// are placed at random without overlap; the table's area is
    /// then the drawn balls' area over `area_fraction`.
    Gas {
        /// Number of balls (`n`; left out: from `area_fraction` and the table).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        n: Option<u64>,
        /// Ball area over table area, `> 0` (`area_fraction`; left out: the table's size
        /// and `n` decide).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        area_fraction: Option<f64>,
        /// Radius, table units; with `radii`, the distribution's scale (`r`; default 1).
        #[serde(default = "one")]
        r: f64,
        /// Every ball's mass; left out: 1 for `mono`, `r_i^2` (area over pi) for the
        /// other distributions.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        m: Option<f64>,
        /// The size distribution (default `mono`: every radius `r`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        radii: Option<RadiiSpec>,
        /// The largest velocity component, table units per time unit (`speed`; default 1).
        #[serde(default = "one")]
        speed: f64,
        /// Seed of the random stream that places the balls and draws their velocities and sizes
        /// (`seed`; default 1).
        #[serde(default = "default_seed")]
        seed: u64,
    },
}

/// `radii = { kind = ... }` of a `gas` generator.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum RadiiSpec {
    /// Every radius `r`: the jittered-grid gas.
    Mono,
    /// Two sizes: `r` (the small one, a number fraction `fraction` of the balls,
    /// rounded to the nearest count) and `ratio * r`.
    Bidisperse {
        /// The large radius over the small one (`ratio`; default 1.4).
        #[serde(default = "default_ratio")]
        ratio: f64,
        /// Number fraction of small balls, in `[0, 1]` (`fraction`; default 0.5).
        #[serde(default = "default_small_fraction")]
        fraction: f64,
    },
    /// Radii uniform in `[min, max]`.
    Uniform {
        /// The smallest radius, table units.
        min: f64,
        /// The largest radius, table units.
        max: f64,
    },
    /// `ln r` normal with mean `ln median` and standard deviation `sigma`.
    Lognormal {
        /// The median radius, table units.
        median: f64,
        /// Standard deviation of `ln r`.
        sigma: f64,
    },
}

fn default_ratio() -> f64 {
    1.4
}

fn default_small_fraction() -> f64 {
    0.5
}

fn default_rows() -> u32 {
    5
}

fn default_seed() -> u64 {
    1
}
