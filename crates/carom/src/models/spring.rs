//! The `spring` model (tutorial levels 5 and 6): every overlap pushes with Hooke's law
//! `F = k s` along the normal, equal and opposite on both balls; walls are infinitely
//! heavy. While two surfaces separate the force is scaled by `e^2`: loading stores
//! `k s_max^2 / 2`, unloading returns `e^2` of it, so the rebound speed is exactly `e`
//! times the approach speed.
//!
//! A force evaluation runs in three passes over flat arrays:
//! 1. contacts, in parallel over blocks of the neighbour list (pairs `i < j` grouped by
//!    blocks of `i`): each listed pair is a distance test, and the few that overlap get
//!    their force computed once and added, equal and opposite, into the per-ball sums
//!    of the block's own balls; nothing else is written;
//! 2. serially, in list order, the pairs whose ball `j` lies in a later block add their
//!    force to `j`: a fraction of the few contacts, so this pass is short;
//! 3. per ball, in parallel: walls, gravity, and (for the semi-implicit Euler step) the
//!    kick and the drift, each ball reading only its own data.
//!
//! Every ball's forces are summed in the same order whatever the thread count (first
//! its own block's contacts in list order, then those of earlier blocks), so the
//! parallel step is bit-identical to the serial one, and no atomics are needed.
//!
//! On cloth (`physics.friction` of kind `cloth`) walls are cushions, and Hooke's law
//! cannot express a cushion: Han's impact law turns the ball's spins about the table's
//! axes with an impulse at the nose, which no spring along the normal through the
//! centre gives. So on cloth the walls exert no spring force at all; after the step a
//! ball that overlaps a wall while approaching it takes the cushion impulse once
//! ([`super::cushions`], `impulse`'s rule), which sends it away, so it overlaps no
//! longer, or at most recedes out of the overlap it entered during its last step. The
//! balls' free motion on cloth follows the step as an operator split
//! (`friction::ClothMotion::Correction`): exact for a ball free of contacts.
//! Pairs keep their springs.
//!
//! The neighbour list lists pairs within a skin of touching, and is rebuilt (in
//! parallel) only when some ball may have moved half the skin since the last build:
//! the step tracks the largest speed, which bounds every ball's displacement.

mod cloth;
mod euler;
mod integrators;
mod law;
mod log;
mod pairs;
mod rough;
mod walls;

use rayon::prelude::*;

use super::{wrap_positions, CollisionModel, ContactHistory, StepContext, StepError};
use crate::balls::Balls;
use crate::broadphase::{Grid, ListBlock, NeighbourList};
use crate::cloth::Cloth;
use crate::hint::prefetch;
use crate::physics::Physics;
use crate::physics::{Integrator, ModelKind};
use crate::stress::{self, Tensor, Virial};
use crate::table::Table;
use crate::walls::{WallCells, Walls};
use law::{phase, Law};
use pairs::Pairs;
use walls::{Interior, WallSprings, NO_SPRINGS};

/// The neighbour-list skin, in units of the largest radius. A wider skin rebuilds the
/// list less often but lists more pairs; it affects speed only, never results.
const SKIN: f64 = 0.8;

/// The force of one overlapping pair `i < j` on `j` (the force on `i` is its negative),
/// and whether the contact began this step.
#[derive(Debug, Clone, Copy)]
struct PairForce {
    i: u32,
    j: u32,
    fx: f64,
    fy: f64,
}

pub struct Spring {
    /// Candidate contacts: pairs within the skin.
    list: NeighbourList,
    /// Overlapping pairs found in the latest evaluation, per block of the list.
    contacts: Vec<Vec<PairForce>>,
    /// Pair forces summed per ball; all zero between evaluations.
    pair_f: Vec<[f64; 2]>,
    /// The inverse mass shared by every ball, if all share one (fixed at the list's
    /// build, as the radii are: only an edit of the balls can change them, and an edit
    /// invalidates the list).
    uniform_inv_m: Option<f64>,
    /// Acceleration at the latest force evaluation (schemes other than the default).
    ax: Vec<f64>,
    ay: Vec<f64>,
    /// Acceleration at the previous step's evaluation (schemes that average it).
    prev_ax: Vec<f64>,
    prev_ay: Vec<f64>,
    /// Whether `ax`/`ay` (Verlet) or `prev_ax`/`prev_ay` hold a valid earlier value.
    have_history: bool,
    collisions: u64,
    /// Pair virial `sum r_ij . f_ij` of each block of the list at the latest
    /// evaluation, summed in block order so that the total does not depend on threads.
    block_virial: Vec<Virial>,
    /// That total at the latest evaluation.
    last_virial: f64,
    /// Time integral of the pair virial over the steps taken.
    virial: f64,
    /// The tensors beside `last_virial` and `virial` (see [`crate::stress`]).
    last_tensor: Tensor,
    virial_tensor: Tensor,
    /// Tangential springs and scratch for contact friction (empty without it).
    rough: rough::Rough,
    /// The walls inside the table binned for the current radii; `None` without walls,
    /// or until the first step.
    wall_cells: Option<WallCells>,
    /// The event log, when kept (see `log.rs`).
    log: Option<Box<log::ContactLog>>,
    /// Per ball, its tangential springs on interior walls (contact friction only).
    wall_springs: Vec<WallSprings>,
    /// Per ball, whether it is in play, as the latest step was told; empty while every
    /// ball is.
    in_play: Vec<bool>,
    /// The walls inside the table (fixed for the model's life: new walls get a new
    /// model), for the contact energy.
    walls: Walls,
    /// On cloth, each ball's phase at the end of the last step (see
    /// [`crate::friction::cloth_motion`]); empty otherwise, and after an edit.
    cloth_phases: Vec<Option<crate::cloth::Phase>>,
}

/// One block of the list as pass 1 sees it: its pairs, where its contacts go, and the
/// pair-force sums of its own balls.
type DetectBlock<'a> = ((&'a ListBlock, &'a mut Vec<PairForce>), &'a mut [[f64; 2]]);

/// Takes a ball's summed pair force and leaves zero behind.
#[inline(always)]
fn take_pair_force(acc: &mut [f64; 2]) -> (f64, f64) {
    let f = (acc[0], acc[1]);
    if f.0 != 0.0 || f.1 != 0.0 {
        *acc = [0.0, 0.0];
    }
    f
}

/// The walk behind [`incoming`], shared with the frictional step (whose contacts also
/// carry a torque): each contact of block `t`'s source blocks whose higher ball `j(c)`
/// lies in block `t` is added to that ball's sum by `add`, in list order.
#[inline(always)]
fn incoming_with<C, A>(
    list: &NeighbourList,
    contacts: &[Vec<C>],
    t: usize,
    acc: &mut [A],
    j: impl Fn(&C) -> u32,
    add: impl Fn(&mut A, &C),
) {
    let first = t * list.block_len();
    for block in &contacts[list.sources(t)] {
        for c in block {
            if let Some(a) = (j(c) as usize)
                .checked_sub(first)
                .and_then(|k| acc.get_mut(k))
            {
                add(a, c);
            }
        }
    }
}

impl Spring {
    pub fn new(_balls: &Balls, _physics: &Physics, walls: &Walls) -> Spring {
        Spring {
            list: NeighbourList::new(),
            contacts: Vec::new(),
            pair_f: Vec::new(),
            uniform_inv_m: None,
            ax: Vec::new(),
            ay: Vec::new(),
            prev_ax: Vec::new(),
            prev_ay: Vec::new(),
            have_history: false,
            collisions: 0,
            block_virial: Vec::new(),
            last_virial: 0.0,
            virial: 0.0,
            last_tensor: [0.0; 3],
            virial_tensor: [0.0; 3],
            rough: rough::Rough::default(),
            wall_cells: None,
            log: None,
            wall_springs: Vec::new(),
            in_play: Vec::new(),
            walls: walls.clone(),
            cloth_phases: Vec::new(),
        }
    }

    /// The interior walls' per-ball pass, when the scene has walls: the cells are
    /// binned afresh when missing or too narrow for the largest radius.
    fn interior<'a>(
        cells: &'a mut Option<WallCells>,
        walls: &'a Walls,
        balls: &Balls,
        table: &Table,
        physics: &Physics,
    ) -> Option<Interior<'a>> {
        if !walls.has_walls() || physics.friction.is_cloth() {
            // On cloth they are cushions, applied after the step.
            return None;
        }
        let r_max = balls.max_radius();
        if cells.as_ref().is_none_or(|c| c.reach() < r_max) {
            *cells = Some(walls.cells(table.width, table.height, r_max));
        }
        let cf = &physics.contact_friction;
        Some(Interior {
            walls,
            cells: cells.as_ref()?,
            k: physics.stiffness,
            dt: physics.dt,
            e: physics.restitution,
            mu: cf.mu,
            k_t: cf.tangential_stiffness_for(physics.stiffness),
        })
    }

    /// Adds every ball's interior wall force to its pair-force sum (a pass per ball,
    /// on the pool's threads when given: each ball reads only its own state, so the
    /// sums do not depend on the thread count). Returns the contacts begun.
    fn add_interior(
        pair_f: &mut [[f64; 2]],
        balls: &Balls,
        interior: &Interior,
        pool: Option<&rayon::ThreadPool>,
        bl: usize,
    ) -> u64 {
        let b = balls;
        let block = |(t, acc): (usize, &mut [[f64; 2]])| {
            let mut began = 0;
            for (k, a) in acc.iter_mut().enumerate() {
                let i = t * bl + k;
                let (fx, fy, n) =
                    interior.force(b.x[i], b.y[i], b.vx[i], b.vy[i], b.r[i], b.inv_m[i]);
                a[0] += fx;
                a[1] += fy;
                began += n;
            }
            began
        };
        match pool {
            None => pair_f.chunks_mut(bl).enumerate().map(block).sum(),
            Some(pool) => pool.install(|| pair_f.par_chunks_mut(bl).enumerate().map(block).sum()),
        }
    }

    /// Makes the neighbour list current (rebuilding it if some ball may have moved half
    /// the skin), with the masses' uniformity judged at the same time.
    fn refresh_list(&mut self, balls: &Balls, table: &Table, pool: Option<&rayon::ThreadPool>) {
        // Radii change only through an edit of the balls, which invalidates the list:
        // while it is current, the skin (from the largest radius) needs no new scan.
        if self.list.is_current(balls.len()) {
            return;
        }
        let skin = SKIN * balls.max_radius();
        if self.list.update_masked(
            &balls.x,
            &balls.y,
            &balls.r,
            skin,
            table,
            pool,
            &self.in_play,
        ) {
            let w = &balls.inv_m;
            self.uniform_inv_m = w
                .first()
                .copied()
                .filter(|&w0| w.iter().all(|&wi| wi == w0));
        }
    }

    /// Pass 1, and pass 2 if `cross`: every ball's summed pair force into `pair_f`
    /// (without `cross`, the forces of pairs reaching into later blocks are left in
    /// `contacts` for the caller to add, see [`incoming`]); returns the pair contacts
    /// that began since the last step.
    fn pair_forces(
        &mut self,
        balls: &Balls,
        table: &Table,
        physics: &Physics,
        pool: Option<&rayon::ThreadPool>,
        cross: bool,
    ) -> u64 {
        let n = balls.len();
        self.pair_f.resize(n, [0.0; 2]);
        self.refresh_list(balls, table, pool);
        let bl = self.list.block_len();
        let blocks = self.list.blocks();
        self.contacts.resize_with(blocks.len(), Vec::new);
        let pairs = Pairs::new(balls, Law::new(table, physics));
        let uniform = match (self.list.uniform_radius(), self.uniform_inv_m) {
            (Some(r), Some(w)) => Some((r, w)),
            _ => None,
        };
        self.block_virial.resize(blocks.len(), Virial::default());
        let detect = |(b, (((block, out), acc), virial)): (usize, (DetectBlock, &mut Virial))| {
            let first = b * bl;
            let (began, v, t) = match uniform {
                Some((r, w)) => pairs.detect::<true>(block.pairs(), r + r, w, first, acc, out),
                None => pairs.detect::<false>(block.pairs(), 0.0, 0.0, first, acc, out),
            };
            *virial = Virial { sum: v, tensor: t };
            began
        };
        let began = match pool {
            None => blocks
                .iter()
                .zip(self.contacts.iter_mut())
                .zip(self.pair_f.chunks_mut(bl))
                .zip(self.block_virial.iter_mut())
                .enumerate()
                .map(detect)
                .sum(),
            Some(pool) => pool.install(|| {
                blocks
                    .par_iter()
                    .zip(self.contacts.par_iter_mut())
                    .zip(self.pair_f.par_chunks_mut(bl))
                    .zip(self.block_virial.par_iter_mut())
                    .enumerate()
                    .map(detect)
                    .sum()
            }),
        };
        self.last_virial = self.block_virial.iter().map(|v| v.sum).sum();
        self.last_tensor = self
            .block_virial
            .iter()
            .fold([0.0; 3], |a, v| stress::add(a, v.tensor));
        if !cross {
            return began;
        }
        // Pass 2: the pairs whose higher ball lies in a later block, in list order.
        let acc = &mut self.pair_f;
        for (b, block) in self.contacts.iter().enumerate() {
            let end = (b + 1) * bl;
            for (k, c) in block.iter().enumerate() {
                // Contacts are sparse, so each touches a cold line: ask for the line
                // of a contact a few places ahead now.
                if let Some(a) = block.get(k + 8) {
                    if a.j as usize >= end {
                        prefetch(&acc[a.j as usize][0]);
                    }
                }
                let j = c.j as usize;
                if j >= end {
                    acc[j][0] += c.fx;
                    acc[j][1] += c.fy;
                }
            }
        }
        began
    }

    /// Every ball's acceleration at the current positions and velocities into
    /// `ax`/`ay`; returns the contacts that began since the last step.
    fn evaluate(
        &mut self,
        balls: &Balls,
        table: &Table,
        physics: &Physics,
        pool: Option<&rayon::ThreadPool>,
        walls: &Walls,
    ) -> u64 {
        let mut began = self.pair_forces(balls, table, physics, pool, true);
        let bl = self.list.block_len();
        if let Some(interior) = Self::interior(&mut self.wall_cells, walls, balls, table, physics) {
            began += Self::add_interior(&mut self.pair_f, balls, &interior, pool, bl);
        }
        let n = balls.len();
        self.ax.resize(n, 0.0);
        self.ay.resize(n, 0.0);
        let law = Law::new(table, physics);
        let mut walls = 0;
        for i in 0..n {
            let pair = take_pair_force(&mut self.pair_f[i]);
            let state = (balls.x[i], balls.y[i], balls.vx[i], balls.vy[i]);
            let (ax, ay, b) = law.acceleration(state, balls.r[i], balls.inv_m[i], pair);
            (self.ax[i], self.ay[i]) = (ax, ay);
            walls += b;
        }
        began + walls
    }

    /// Every ball's acceleration (contacts, walls, gravity) at the balls' current
    /// state, as the step would evaluate it; for benchmarks and tools. Contacts begun
    /// are not counted here.
    #[cfg(any(test, feature = "internals"))]
    pub fn accelerations(
        &mut self,
        balls: &Balls,
        table: &Table,
        physics: &Physics,
        pool: Option<&rayon::ThreadPool>,
    ) -> (&[f64], &[f64]) {
        self.evaluate(balls, table, physics, pool, &crate::walls::NO_WALLS);
        (&self.ax, &self.ay)
    }
}

impl Spring {
    /// Integrates the latest evaluation's pair virial tensor over `dt`, as the scalar.
    fn add_tensor(&mut self, dt: f64) {
        let t = self.last_tensor.map(|v| dt * v);
        self.virial_tensor = stress::add(self.virial_tensor, t);
    }

    /// Whether steps take the frictional path (`rough.rs`): tangential springs at
    /// contacts, which carry a history.
    fn is_rough(physics: &Physics, walls: &Walls) -> bool {
        physics.contact_friction.is_active() || walls.any_own_friction()
    }

    fn step_model(&mut self, ctx: StepContext<'_>) -> Result<(), StepError> {
        let StepContext {
            balls,
            table,
            physics,
            pool,
            walls,
            in_play,
        } = ctx;
        let n = balls.len();
        if self.ax.len() != n {
            self.have_history = false;
        }
        // Balls out of play leave the neighbour list (a change of the mask came with
        // an invalidation, so the list rebuilds with it).
        self.in_play.clear();
        if let Some(m) = in_play {
            self.in_play.extend_from_slice(m);
        }
        let dt = physics.dt;
        let unstable = || {
            StepError::Unstable(format!(
                "a ball position is no longer finite at step dt = {dt}; lower dt or stiffness"
            ))
        };
        if Self::is_rough(physics, walls) {
            // The physics check allows only the semi-implicit Euler step here.
            let began = self
                .step_rough(balls, table, physics, pool, walls)
                .map_err(|_| unstable())?;
            self.collisions += began;
            return Ok(());
        }
        let (began, step2) = match physics.integrator {
            Integrator::SemiImplicitEuler => {
                let began = self
                    .step_euler(balls, table, physics, pool, walls)
                    .map_err(|_| unstable())?;
                self.collisions += began;
                return Ok(());
            }
            Integrator::AverageVelocity => {
                self.step_average_velocity(balls, table, physics, pool, walls)
            }
            Integrator::AverageAcceleration => {
                self.step_average_acceleration(balls, table, physics, pool, walls, false)
            }
            Integrator::PredictedAcceleration => {
                self.step_average_acceleration(balls, table, physics, pool, walls, true)
            }
            Integrator::VelocityVerlet => self.step_velocity_verlet(balls, table, physics, pool, walls),
        };
        self.collisions += began;
        self.virial += dt * self.last_virial;
        self.add_tensor(dt);
        self.list.moved(step2.sqrt());
        if table.is_sheared() {
            self.list.slid(dt * table.shear_velocity().abs());
        }
        if balls.x.iter().chain(&balls.y).any(|v| !v.is_finite()) {
            return Err(unstable());
        }
        let next = table.after(dt);
        wrap_positions(balls, &next);
        self.refresh_list(balls, &next, pool);
        Ok(())
    }
}

impl CollisionModel for Spring {
    fn kind(&self) -> ModelKind {
        ModelKind::Spring
    }

    fn step(&mut self, ctx: StepContext<'_>) -> Result<(), StepError> {
        let cloth = Cloth::of(&ctx.physics.friction);
        if self.log.is_none() && cloth.is_none() {
            return self.step_model(ctx);
        }
        let StepContext {
            balls,
            table,
            physics,
            pool,
            walls,
            in_play,
        } = ctx;
        self.step_model(StepContext {
            balls: &mut *balls,
            table,
            physics,
            pool,
            walls,
            in_play,
        })?;
        let dt = physics.dt;
        if let Some(cloth) = &cloth {
            self.on_cloth(balls, table, physics, pool, walls, cloth);
        }
        if let Some(log) = self.log.as_deref_mut() {
            // On cloth the cushions logged their own impacts.
            let walls = (cloth.is_none()).then_some((walls, self.wall_cells.as_ref()));
            log.record(balls, table, &self.list, walls, dt);
        }
        Ok(())
    }

    fn set_event_log(&mut self, on: bool) {
        self.log = on.then(Box::default);
    }

    fn take_events(&mut self, out: &mut Vec<crate::event_log::LoggedEvent>) {
        if let Some(log) = self.log.as_deref_mut() {
            out.append(&mut log.rows);
        }
    }

    fn walls_moved(&mut self, walls: &Walls) {
        // In place: the same walls moved on (no allocation inside a step).
        self.walls.follow(walls);
    }

    fn contact_energy(&self, balls: &Balls, table: &Table, physics: &Physics) -> f64 {
        let pairs = Pairs::new(balls, Law::new(table, physics));
        let in_play = |i: usize| self.in_play.get(i).copied().unwrap_or(true);
        let mut walls: f64 = (0..balls.len())
            .filter(|&i| in_play(i))
            .map(|i| pairs.wall_energy(i))
            .sum();
        if self.walls.has_walls() {
            let mut cells = self.wall_cells.clone();
            if let Some(interior) = Self::interior(&mut cells, &self.walls, balls, table, physics) {
                let b = balls;
                walls += (0..b.len())
                    .filter(|&i| b.inv_m[i] != 0.0)
                    .map(|i| interior.energy(b.x[i], b.y[i], b.vx[i], b.vy[i], b.r[i]))
                    .sum::<f64>();
                let k_t = interior.k_t;
                walls += 0.5
                    * k_t
                    * self
                        .wall_springs
                        .iter()
                        .flatten()
                        .map(|s| s.1 * s.1)
                        .sum::<f64>();
            }
        }
        if physics.contact_friction.is_active() {
            // The tangential springs, loaded as the last step left them.
            walls += self.rough.energy(physics);
        }
        if self.list.is_current(balls.len()) {
            // Every overlapping pair is listed: no need to bin the balls again.
            return walls
                + self
                    .list
                    .pairs()
                    .map(|(i, j)| pairs.energy(i as usize, j as usize))
                    .sum::<f64>();
        }
        let mut grid = Grid::new();
        grid.rebuild(&balls.x, &balls.y, 2.0 * balls.max_radius(), table);
        let mut e = walls;
        for i in 0..balls.len() {
            grid.for_each_near(balls.x[i], balls.y[i], |j| {
                if j > i {
                    e += pairs.energy(i, j);
                }
            });
        }
        e
    }

    fn collisions(&self) -> u64 {
        self.collisions
    }

    fn virial(&self) -> f64 {
        self.virial
    }

    fn virial_tensor(&self) -> Tensor {
        self.virial_tensor
    }

    fn contact_forces(
        &self,
        balls: &Balls,
        table: &Table,
        physics: &Physics,
        out: &mut Vec<stress::ContactForce>,
    ) -> bool {
        out.clear();
        let pairs = Pairs::new(balls, Law::new(table, physics));
        let mut add = |i: usize, j: usize| {
            if let Some(normal) = pairs.normal_force(i, j) {
                let (i, j) = (i as u32, j as u32);
                out.push(stress::ContactForce { i, j, normal });
            }
        };
        if self.list.is_current(balls.len()) {
            self.list
                .pairs()
                .for_each(|(i, j)| add(i as usize, j as usize));
        } else {
            let mut grid = Grid::new();
            grid.rebuild(&balls.x, &balls.y, 2.0 * balls.max_radius(), table);
            for i in 0..balls.len() {
                grid.for_each_near(balls.x[i], balls.y[i], |j| {
                    if j > i {
                        add(i, j);
                    }
                });
            }
        }
        true
    }

    fn invalidate(&mut self) {
        self.have_history = false;
        self.list.invalidate();
        // Radii may have changed: the walls are binned again at the next step.
        self.wall_cells = None;
        self.cloth_phases.clear();
    }

    fn contact_history(&self) -> ContactHistory {
        let mut h = self.rough.history(&self.list);
        for (i, springs) in self.wall_springs.iter().enumerate() {
            for &(piece, xi) in springs {
                if piece != walls::EMPTY {
                    h.pieces.push((i as u32, piece, xi));
                }
            }
        }
        h
    }

    fn restore_contact_history(&mut self, history: &ContactHistory, balls: &Balls) {
        let n = balls.len();
        self.wall_springs.clear();
        self.wall_springs.resize(n, NO_SPRINGS);
        for &(i, piece, xi) in &history.pieces {
            if let Some(springs) = self.wall_springs.get_mut(i as usize) {
                if let Some(slot) = springs.iter_mut().find(|s| s.0 == walls::EMPTY) {
                    *slot = (piece, xi);
                }
            }
        }
        self.rough.restore(history, balls.len());
        // The next step rebuilds the list, which puts each pair spring back in place.
        self.list.invalidate();
    }
}
