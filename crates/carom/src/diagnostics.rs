//! What every run reports: energies, momentum, collisions, mirror-symmetry error.

use crate::balls::Balls;
use crate::broadphase::Grid;
use crate::table::Table;

/// What a run reports at one instant: energies, momentum, collisions and the
/// statistical observables, over the balls in play (kinematic balls, of infinite mass,
/// left out). [`crate::World::diagnostics`] measures them; [`energy_drift`] and
/// [`momentum_drift`] compare two.
///
/// # Example
///
/// An elastic hard-disk gas in a periodic box, where no wall takes momentum: the
/// `event` model conserves energy and momentum to round-off, and with them the
/// temperature.
///
/// ```
/// use carom::{energy_drift, momentum_drift, Ball, ModelKind, Physics, Table, World};
///
/// // 8 x 8 disks of radius 1, 5 apart, with velocities from a fixed pattern.
/// let balls: Vec<Ball> = (0..64)
///     .map(|k| {
///         let (i, j) = ((k % 8) as f64, (k / 8) as f64);
///         let (vx, vy) = ((k * 7 % 11) as f64 - 5.0, (k * 5 % 13) as f64 - 6.0);
///         Ball::new(2.5 + 5.0 * i, 2.5 + 5.0 * j, vx, vy, 1.0, 1.0)
///     })
///     .collect();
/// let physics = Physics { model: ModelKind::Event, ..Physics::default() };
/// let mut world = World::from_balls(Table::periodic(40.0, 40.0), physics, &balls).unwrap();
/// let start = world.diagnostics();
/// world.run_steps(200).unwrap(); // t = 10
/// let end = world.diagnostics();
///
/// assert!(end.collisions > 50);
/// assert!(energy_drift(&start, &end).abs() < 1e-12);
/// assert!(momentum_drift(&start, &end) < 1e-12);
/// assert!((end.temperature - start.temperature).abs() < 1e-12 * start.temperature);
/// // 64 disks of area pi on a 40 x 40 table.
/// let phi = 64.0 * std::f64::consts::PI / 1600.0;
/// assert!((end.packing_fraction - phi).abs() < 1e-15);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Diagnostics {
    /// Translational plus rotational.
    pub kinetic_energy: f64,
    /// The rotational part of `kinetic_energy`, `sum I |w|^2 / 2` (`w = (wx, wy, omega)`).
    pub rotational_energy: f64,
    /// Energy stored in contacts plus gravitational energy `-m g . x`.
    pub potential_energy: f64,
    /// Kinetic plus potential energy.
    pub total_energy: f64,
    /// Linear momentum `sum m v`, `[px, py]`.
    pub momentum: [f64; 2],
    /// The momentum scale `sum m |v|`, to make momentum drift relative.
    pub momentum_scale: f64,
    /// Collisions counted by the model (for `spring`, contacts begun).
    pub collisions: u64,
    /// The largest distance between a ball and the mirror image of its partner, where a
    /// symmetry is declared.
    pub symmetry_error: Option<f64>,
    /// Ball area over table area.
    pub packing_fraction: f64,
    /// Translational kinetic energy in the centre-of-mass frame per dynamic ball (2D,
    /// k_B = 1: an equilibrium gas has kT = KE/N).
    pub temperature: f64,
    /// Virial pressure `(sum m v^2 + sum r_ij . f_ij) / (2 A)`, time-averaged over a
    /// window: a state file's is the run that wrote it, a diagnostics row's the interval
    /// since the previous row.
    pub pressure: f64,
    /// The virial pressure tensor `P_ab = (sum m (v - V)_a (v - V)_b + sum r_ij,a
    /// f_ij,b) / A` (positive in compression; symmetric part), averaged over the same
    /// window as `pressure`, which is half its trace. `xx` component.
    pub stress_xx: f64,
    /// The pressure tensor's `xy` component (the symmetric part).
    pub stress_xy: f64,
    /// The pressure tensor's `yy` component.
    pub stress_yy: f64,
    /// Balls in play, when the scene can lose some (pockets, open edges); `None` on a
    /// table that keeps every ball.
    pub in_play: Option<usize>,
    /// The global bond-orientational order `|<psi_6>|` (each ball's neighbours its six
    /// nearest), where it was measured ([`crate::World::with_order`]): it costs a neighbour
    /// search, so the per-frame and per-step readers go without.
    pub psi6: Option<f64>,
    /// The chain sampler's pressure (`physics.model = "chain"`); `None` for the
    /// dynamics.
    pub chain: Option<ChainPressure>,
}

/// The chain estimator's pressure over a window, with the block error of the run.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ChainPressure {
    /// `beta P A / N`: the chains' mean advance over their displacement.
    pub z: f64,
    /// `beta P = z N / A`.
    pub beta_p: f64,
    /// The standard error of `z` from the spread of its block values (blocks of `dt`
    /// of the clock since the run began); `None` with fewer than two blocks, and over
    /// any window but the run's.
    pub z_error: Option<f64>,
    /// The blocks behind `z_error`.
    pub blocks: u64,
    /// Totals over every chain of the run's history (a resumed run's include those of
    /// the state it started from).
    pub total: crate::models::chain::Tally,
    /// The chain length.
    pub length: f64,
}

/// The statistical state of the balls at one instant: packing fraction, and the
/// centre-of-mass-frame `sum m |v - V|^2` with the count of dynamic balls it is over
/// (kinematic balls, of infinite mass, are left out).
///
/// `in_play`, when not empty, leaves out the balls out of play (held at rest with
/// infinite mass, they would otherwise count in the area).
pub fn statistics(balls: &Balls, table: &Table, in_play: &[bool]) -> (f64, f64, usize) {
    let mut area = 0.0;
    let (mut m_tot, mut p, mut mv2, mut n) = (0.0, [0.0, 0.0], 0.0, 0usize);
    for i in 0..balls.len() {
        if !in_play.get(i).copied().unwrap_or(true) {
            continue;
        }
        let r = balls.r[i];
        area += std::f64::consts::PI * r * r;
        if balls.inv_m[i] == 0.0 {
            continue;
        }
        let (m, vx, vy) = (balls.m[i], balls.vx[i], balls.vy[i]);
        m_tot += m;
        p[0] += m * vx;
        p[1] += m * vy;
        mv2 += m * (vx * vx + vy * vy);
        n += 1;
    }
    // sum m |v - V|^2 = sum m |v|^2 - |P|^2 / M.
    let com = if m_tot > 0.0 {
        (mv2 - (p[0] * p[0] + p[1] * p[1]) / m_tot).max(0.0)
    } else {
        0.0
    };
    (area / table.area(), com, n)
}

/// The virial pressure over a window of length `duration` on a table of area `area`:
/// `kinetic` is the window's mean of `sum m |v - V|^2`, `virial` the change of the pair
/// virial across it (impulses `sum r_ij . J_ij` for hard models, the time integral of
/// `sum r_ij . f_ij` for springs). A window of no length has only its kinetic part.
pub fn pressure(kinetic: f64, virial: f64, duration: f64, area: f64) -> f64 {
    let pair = if duration > 0.0 {
        virial / duration
    } else {
        0.0
    };
    (kinetic + pair) / (2.0 * area)
}

/// Kinematic balls have infinite mass: they carry no kinetic energy or momentum that
/// could be accounted for, so they are left out.
pub fn measure(
    balls: &Balls,
    gravity: [f64; 2],
    contact_energy: f64,
    collisions: u64,
    symmetry: Option<&Symmetry>,
) -> Diagnostics {
    let mut ke = 0.0;
    let mut rot = 0.0;
    let mut pe = contact_energy;
    let mut p = [0.0, 0.0];
    let mut scale = 0.0;
    for i in 0..balls.len() {
        if balls.inv_m[i] == 0.0 {
            continue;
        }
        let m = balls.m[i];
        let (vx, vy) = (balls.vx[i], balls.vy[i]);
        ke += 0.5 * m * (vx * vx + vy * vy);
        rot += 0.5 * balls.inertia[i] * balls.omega[i] * balls.omega[i];
        // A sphere on cloth also turns about the table's axes (zero otherwise, and
        // then the sum is unchanged to the bit).
        let (wx, wy) = (balls.wx[i], balls.wy[i]);
        if wx != 0.0 || wy != 0.0 {
            rot += 0.5 * balls.inertia[i] * (wx * wx + wy * wy);
        }
        pe -= m * (gravity[0] * balls.x[i] + gravity[1] * balls.y[i]);
        p[0] += m * vx;
        p[1] += m * vy;
        scale += m * vx.hypot(vy);
    }
    // Added once at the end: with no spin the translational sums are untouched.
    let ke = ke + rot;
    Diagnostics {
        kinetic_energy: ke,
        rotational_energy: rot,
        potential_energy: pe,
        total_energy: ke + pe,
        momentum: p,
        momentum_scale: scale,
        collisions,
        symmetry_error: symmetry.map(|s| s.error(balls)),
        packing_fraction: 0.0,
        temperature: 0.0,
        pressure: 0.0,
        stress_xx: 0.0,
        stress_xy: 0.0,
        stress_yy: 0.0,
        in_play: None,
        psi6: None,
        chain: None,
    }
}

/// Relative change of total energy between two diagnostics (absolute when the
/// start is zero).
pub fn energy_drift(start: &Diagnostics, end: &Diagnostics) -> f64 {
    let d = end.total_energy - start.total_energy;
    if start.total_energy != 0.0 {
        d / start.total_energy.abs()
    } else {
        d
    }
}

/// Change of momentum relative to the start's momentum scale `sum m |v|` (absolute
/// when everything started at rest).
pub fn momentum_drift(start: &Diagnostics, end: &Diagnostics) -> f64 {
    let d = (end.momentum[0] - start.momentum[0]).hypot(end.momentum[1] - start.momentum[1]);
    if start.momentum_scale > 0.0 {
        d / start.momentum_scale
    } else {
        d
    }
}

/// Mirror partners about a horizontal axis, paired once from the initial positions.
#[derive(Debug, Clone, PartialEq)]
pub struct Symmetry {
    pub axis_y: f64,
    partner: Vec<u32>,
}

impl Symmetry {
    /// Pairs each ball with the ball nearest to its mirror image (itself if it sits on
    /// the axis), using the grid so that large scenes pair in O(N).
    pub fn pair(balls: &Balls, table: &Table, axis_y: f64) -> Symmetry {
        let n = balls.len();
        let mut grid = Grid::new();
        let reach = 2.0 * balls.max_radius();
        grid.rebuild(&balls.x, &balls.y, reach, table);
        let mut partner = Vec::with_capacity(n);
        for i in 0..n {
            let (mx, my) = (balls.x[i], 2.0 * axis_y - balls.y[i]);
            let mut best = (f64::INFINITY, i);
            grid.for_each_near(mx, my, |j| {
                let d = (balls.x[j] - mx).hypot(balls.y[j] - my);
                if d < best.0 {
                    best = (d, j);
                }
            });
            if best.0.is_infinite() {
                // The mirror image is off the grid's neighbourhood: search everything.
                for j in 0..n {
                    let d = (balls.x[j] - mx).hypot(balls.y[j] - my);
                    if d < best.0 {
                        best = (d, j);
                    }
                }
            }
            partner.push(best.1 as u32);
        }
        Symmetry { axis_y, partner }
    }

    /// The largest distance between a ball and the mirror image of its partner.
    pub fn error(&self, balls: &Balls) -> f64 {
        let mut worst: f64 = 0.0;
        for (i, &j) in self.partner.iter().enumerate() {
            let j = j as usize;
            if j >= balls.len() || i >= balls.len() {
                continue;
            }
            let d = (balls.x[i] - balls.x[j]).hypot(balls.y[i] - (2.0 * self.axis_y - balls.y[j]));
            worst = worst.max(d);
        }
        worst
    }
}
