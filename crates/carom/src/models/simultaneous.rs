//! The `simultaneous` model: exact simultaneous multi-ball collisions (the double
//! collision of the tutorial's seed 001, generalised to any number of balls and walls).
//!
//! Each step: free flight as in `impulse` (exact under constant gravity), then the
//! contacts are resolved by [`ContactSolver`]:
//!
//! 1. Contacts are the ball pairs with `d <= r_i + r_j` and the balls touching or
//!    penetrating a wall ("touching" allows a slack for round-off, see [`touch_slack`]):
//!    the table's walls, and each contact with a wall inside the table (its nearest
//!    point, see [`crate::walls::geometry`]; a concave corner is two contacts of one
//!    cluster), which takes that wall's own restitution.
//!    A contact is active when it approaches: its normal relative velocity `g < 0`
//!    (beyond round-off, see [`APPROACH`]). At a moving wall `g` is relative to the
//!    wall's material at the contact, `(v - v_wall(q)) . n` (a translation, or a turn
//!    about a pivot, see [`crate::walls::motion`]): the cluster problem below takes it
//!    unchanged, as a bias in that wall's row, and the friction pass measures the slip
//!    against the wall's material plus its `surface_velocity`. The world moves the walls
//!    on after each step, as for the other stepping models.
//! 2. Active contacts are grouped into clusters (connected through dynamic balls: a wall
//!    or a kinematic ball has infinite mass, its velocity never changes, so it does not
//!    couple the contacts that share it). Each cluster is solved exactly as the
//!    non-negative least-squares problem `min |B lambda + (1+e) M^(1/2) v|`,
//!    `lambda >= 0` ([`nnls`]), independently of the others, in parallel when there is
//!    enough work; the result does not depend on the thread count.
//! 3. `g` is recomputed on the touching contacts next to balls whose velocity changed;
//!    while any approaches, repeat from 2 with the approaching ones. This carries an
//!    impact along a touching chain (Newton's cradle) within one step. After a generous
//!    number of passes ([`iteration_cap`]) one last solve takes every touching contact
//!    as active, which always terminates.
//!
//! On cloth (`physics.friction` of kind `cloth`) the free flight is the cloth's closed
//! form (`friction::cloth_motion`), and walls are cushions: Han's impulse is a
//! law of its own (it turns the ball's spins about the table's axes, which no column
//! of the cluster problem expresses), so the clusters take the ball pairs only, and
//! after them every ball touching a wall and approaching it takes the cushion impulse
//! ([`super::cushions`]), in `impulse`'s order (by ball: the table's walls, then those
//! inside the table). A ball sent back by a cushion into a ball it touches meets it at
//! the next step's resolution: one step later than the disk law, which resolves both
//! in one cluster. With contact friction the pairs' friction pass takes the
//! rough-sphere law (`rough.rs`).
//!
//! In mass-weighted velocities `u = M^(1/2) v` the outcome of a solve is
//! `u' = u + (1+e) p`, with `p` the projection of `-u` onto the convex cone spanned by
//! the contact columns of `B`: unique even when the impulses are not (loops in the
//! contact graph), and kinetic energy drops by exactly `(1 - e^2) |p|^2 / 2`.

pub mod nnls;
mod rough;
mod solver;

pub use solver::ContactSolver;

use super::{
    free_flight, wrap_positions, CollisionModel, Contact, PieceContact, StepContext, StepError,
    Wall,
};
use crate::balls::Balls;
use crate::broadphase::Grid;
use crate::cloth::Cloth;
use crate::friction::{cloth_motion, ClothMotion};
use crate::physics::ModelKind;
use crate::physics::{ContactFriction, Physics};
use crate::table::Table;
use crate::walls::{WallCells, Walls};

const NONE: u32 = u32::MAX;

/// A contact approaches when `g < -APPROACH * V`, with `V` the largest speed among the
/// balls in contact when the resolution starts. Solved contacts end with `g'` equal to
/// `-e g` or above up to the solver's round-off (a few `eps` times the impulse scale,
/// about 1e-15 V, more for very unequal masses), so without a threshold a resting
/// contact could be taken as approaching on the sign of round-off alone. 1e-10 sits five
/// orders above that and still far below any approach that matters: a contact left
/// approaching at 1e-10 V moves its balls by 1e-10 V dt per step.
pub const APPROACH: f64 = 1e-10;

/// Relative slack for "touching": pairs with `d <= r_i + r_j + s` and balls within `s`
/// of a wall count as in contact. Positions carry round-off relative to their own
/// magnitude (a few `eps` of the table size: a generated rack "touches" only up to
/// that), so the slack scales with the table size and the largest diameter. 1e-9 is six
/// orders above that round-off and far below a step's motion.
pub const TOUCH_SLACK: f64 = 1e-9;

/// Clusters with more contacts than this are solved in consecutive blocks of this size
/// (each block exact, one after the other, the propagation loop then settling what the
/// blocks leave). The dense solver costs O(n^3) time and O(n^2) memory per cluster:
/// 512 contacts is a 2 MB matrix and some tens of milliseconds at worst (the benchmark
/// measures 64), far beyond a rack or a cradle.
pub const MAX_CLUSTER: usize = 512;

/// The absolute touching slack for this table and these balls (see [`TOUCH_SLACK`]).
pub fn touch_slack(balls: &Balls, table: &Table) -> f64 {
    TOUCH_SLACK * (2.0 * balls.max_radius() + table.width.max(table.height))
}

/// Passes of the propagation loop before the all-contacts fallback. An impact crosses a
/// touching chain in one pass per contact; four per contact lets it cross there and
/// back twice. The constant covers the rattling of a light ball between heavy ones,
/// about `pi sqrt(M/m)` passes: mass ratios up to some 1e5 still settle exactly.
/// (Inelastic rattling is slower, of the order of `M/m` passes; beyond the cap the
/// fallback settles it, and the event model counts the passes towards its budget, see
/// [`SolverStats::extra_passes`].)
pub fn iteration_cap(contacts: usize) -> usize {
    1000 + 4 * contacts
}

/// Resolves several contacts that happen at the same instant.
///
/// `contacts` are all the contacts touching at that instant (pairs `i < j` with
/// `d <= r_i + r_j` up to round-off, and balls touching a wall), approaching or not;
/// the solver decides which are active. Velocities in `balls` are updated in place,
/// positions are not touched. Kinematic balls (`inv_m = 0`) are infinite masses and
/// keep their velocity; so do walls, the table's fixed and those inside it moving at
/// the speeds given beside their contacts ([`ContactSolver::pieces_and_speeds_mut`]).
/// Contacts with no dynamic ball, and pairs with
/// coincident centres, are ignored.
///
/// The resolution is the model's step 2 and 3: every cluster of approaching contacts
/// solved exactly (Newton's restitution law as a complementarity problem, solved as a
/// non-negative least-squares problem by an active-set method), repeated while any
/// touching contact approaches, with the all-contacts fallback after
/// [`iteration_cap`] passes. Afterwards no contact approaches faster than
/// [`APPROACH`] times the largest speed involved (unless a moving kinematic ball
/// or a moving wall crushes a ball against walls or other kinematic balls, where nothing
/// can stop it). Impulses conserve momentum (pairs),
/// never add kinetic energy (static walls and kinematic balls at rest included), and
/// keep it exactly when `e = 1`.
///
/// `table` is not needed today (the table's walls are static, their normals fixed); it is part of
/// the signature so that callers need not know that. Returns how many contacts received
/// a positive impulse (each counted once, however many passes it took part in).
/// `solver` keeps scratch buffers between calls: nothing is allocated once they have
/// grown to the largest problem seen.
pub fn resolve_contacts(
    balls: &mut Balls,
    table: &Table,
    contacts: &[Contact],
    restitution: f64,
    solver: &mut ContactSolver,
) -> usize {
    solver.set_table(table);
    solver.resolve(balls, contacts, restitution, None)
}

/// Counters kept over the solver's lifetime, for tests and diagnostics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SolverStats {
    /// Calls that had at least one contact.
    pub resolutions: u64,
    /// Passes of the propagation loop (each solving every cluster once).
    pub passes: u64,
    /// Cluster solves.
    pub clusters: u64,
    /// Largest cluster solved, in contacts.
    pub largest_cluster: usize,
    /// Resolutions that reached the iteration cap and took the all-contacts fallback.
    pub fallbacks: u64,
    /// Cluster solves stopped by the NNLS round-off guard (never expected).
    pub guard_hits: u64,
    /// Clusters above [`MAX_CLUSTER`] solved block by block.
    pub split_clusters: u64,
    /// Passes whose clusters were spread over a thread pool.
    pub parallel_passes: u64,
    /// Passes (fallback included) beyond one per contact of their resolution: the
    /// rattling that the propagation loop does on top of carrying an impact along a
    /// chain, which the event model counts towards its event budget.
    pub extra_passes: u64,
}

/// The model: free flight, then every touching contact resolved by [`ContactSolver`].
///
/// Collisions counted: each contact that received a positive impulse during a step,
/// once per step however many passes it took part in (a ball resting against a wall
/// under gravity counts again every step it is pushed).
#[derive(Debug, Default)]
pub struct Simultaneous {
    grid: Grid,
    pairs: Vec<(u32, u32)>,
    contacts: Vec<Contact>,
    solver: ContactSolver,
    collisions: u64,
    /// The walls inside the table binned for the largest radius and the touching
    /// slack (none without walls).
    wall_cells: Option<WallCells>,
    /// The event log of the steps not yet drained, when kept.
    log: Option<Vec<crate::event_log::LoggedEvent>>,
}

impl Simultaneous {
    pub fn new(
        _balls: &Balls,
        _table: &Table,
        _physics: &Physics,
    ) -> Result<Simultaneous, StepError> {
        Ok(Simultaneous::default())
    }

    /// The contact solver's counters (passes, fallbacks, guard hits).
    #[cfg(any(test, feature = "internals"))]
    pub fn stats(&self) -> SolverStats {
        self.solver.stats()
    }
}

/// Every touching contact of the balls as they stand: pairs ascending (minimum image
/// across periodic axes) between balls in play (`in_play` empty: every ball), then the
/// table's walls by ball, in the order left, right, top, bottom (none on a periodic or
/// open axis).
pub fn touching_contacts(
    balls: &Balls,
    table: &Table,
    grid: &mut Grid,
    pairs: &mut Vec<(u32, u32)>,
    in_play: &[bool],
    out: &mut Vec<Contact>,
) {
    out.clear();
    if balls.is_empty() {
        return;
    }
    let slack = touch_slack(balls, table);
    grid.rebuild(&balls.x, &balls.y, 2.0 * balls.max_radius() + slack, table);
    grid.touching_pairs(&balls.x, &balls.y, &balls.r, slack, pairs);
    if !in_play.is_empty() {
        // A ball out of play rests where it left, and meets nothing.
        pairs.retain(|&(i, j)| in_play[i as usize] && in_play[j as usize]);
    }
    out.extend(pairs.iter().map(|&(i, j)| Contact::Pair(i, j)));
    let walls = [table.has_walls(0), table.has_walls(1)];
    for i in 0..balls.len() {
        if balls.inv_m[i] == 0.0 {
            continue;
        }
        let (x, y, r) = (balls.x[i], balls.y[i], balls.r[i]);
        let id = i as u32;
        if walls[0] && x - r <= slack {
            out.push(Contact::Wall(id, Wall::Left));
        }
        if walls[0] && x + r >= table.width - slack {
            out.push(Contact::Wall(id, Wall::Right));
        }
        if walls[1] && y - r <= slack {
            out.push(Contact::Wall(id, Wall::Top));
        }
        if walls[1] && y + r >= table.height - slack {
            out.push(Contact::Wall(id, Wall::Bottom));
        }
    }
}

/// Every touching contact of the balls with the walls inside the table, by ball, then
/// as [`Walls::touches`] lists them (ascending piece), appended to `out` as
/// [`Contact::Piece`] indexing `pieces` (cleared first). Each takes its wall's
/// restitution, friction and surface velocity, or the scene's `e` and `friction`. A
/// contact is a piece within `slack` (the model's touching slack) of the ball's surface.
/// When some wall moves, `speeds` (cleared first) gets one value per piece contact: the
/// velocity of its wall's material at the contact point along the normal (towards the
/// ball), 0 for a fixed wall; otherwise it stays empty.
#[allow(clippy::too_many_arguments)]
pub fn touching_pieces(
    balls: &Balls,
    walls: &Walls,
    cells: &WallCells,
    e: f64,
    friction: &ContactFriction,
    slack: f64,
    pieces: &mut Vec<PieceContact>,
    speeds: &mut Vec<f64>,
    out: &mut Vec<Contact>,
) {
    pieces.clear();
    speeds.clear();
    let moving = walls.moves();
    for i in 0..balls.len() {
        if balls.inv_m[i] == 0.0 {
            continue;
        }
        let p = [balls.x[i], balls.y[i]];
        let reach = balls.r[i] + slack;
        walls.touches(cells.near(p[0], p[1]), p, reach, |t| {
            let (restitution, f, surface) = walls.law_at(&t, e, friction);
            if moving {
                let n = t.normal;
                speeds.push(
                    walls
                        .wall_velocity(t.wall, t.point)
                        .map_or(0.0, |v| v[0] * n[0] + v[1] * n[1]),
                );
            }
            out.push(Contact::Piece(i as u32, pieces.len() as u32));
            pieces.push(PieceContact {
                normal: t.normal,
                restitution,
                mu: f.mu,
                surface,
                wall: t.wall,
            });
        });
    }
}

impl CollisionModel for Simultaneous {
    fn kind(&self) -> ModelKind {
        ModelKind::Simultaneous
    }

    fn step(&mut self, ctx: StepContext<'_>) -> Result<(), StepError> {
        let StepContext {
            balls,
            table,
            physics,
            pool,
            walls,
            in_play,
        } = ctx;
        let cloth = Cloth::of(&physics.friction);
        if let Some(cloth) = &cloth {
            let (g, dt, how) = (physics.gravity, physics.dt, ClothMotion::Flight);
            match self.log.as_mut() {
                None => cloth_motion::<false>(balls, cloth, g, dt, how, &mut Vec::new(), None),
                Some(log) => cloth_motion::<true>(balls, cloth, g, dt, how, log, None),
            };
        } else {
            free_flight(balls, physics.gravity, physics.dt);
        }
        wrap_positions(balls, table);
        touching_contacts(
            balls,
            table,
            &mut self.grid,
            &mut self.pairs,
            in_play.unwrap_or(&[]),
            &mut self.contacts,
        );
        if cloth.is_some() {
            // Walls are cushions, resolved after the clusters (see the module's notes).
            self.contacts.retain(|c| matches!(c, Contact::Pair(..)));
            self.solver.pieces_mut().clear();
        } else if walls.has_walls() {
            // Binned for the largest reach a contact is looked for at (radius + slack).
            let slack = touch_slack(balls, table);
            let reach = balls.max_radius() + slack;
            if self.wall_cells.as_ref().is_none_or(|c| c.reach() < reach) {
                self.wall_cells = Some(walls.cells(table.width, table.height, reach));
            }
            if let Some(cells) = &self.wall_cells {
                let (pieces, speeds) = self.solver.pieces_and_speeds_mut();
                touching_pieces(
                    balls,
                    walls,
                    cells,
                    physics.restitution,
                    &physics.contact_friction,
                    slack,
                    pieces,
                    speeds,
                    &mut self.contacts,
                );
            }
        }
        self.solver.set_table(table);
        let Some(log) = self.log.as_mut() else {
            let hits = resolve(
                &mut self.solver,
                balls,
                &self.contacts,
                physics,
                walls,
                pool,
            );
            self.collisions += hits as u64;
            if cloth.is_some() {
                self.collisions += self.cushions::<false>(balls, table, physics, walls, None);
            }
            // Non-finite states are caught by the world after every step, for every model.
            return Ok(());
        };
        // Approach speeds before the impulses; the impulses summed by the solver.
        let approach: Vec<f64> = (self.contacts.iter())
            .map(|&c| super::approach_speed(balls, table, c, self.solver.pieces_mut()))
            .collect();
        self.solver.start_log();
        let hits = resolve(
            &mut self.solver,
            balls,
            &self.contacts,
            physics,
            walls,
            pool,
        );
        let impulses = self.solver.take_log();
        let pieces = self.solver.pieces_mut();
        for (k, (&lambda, &c)) in impulses.iter().zip(&self.contacts).enumerate() {
            if lambda > 0.0 {
                log.push(super::contact_row(
                    physics.dt,
                    c,
                    pieces,
                    lambda,
                    approach[k],
                ));
            }
        }
        self.collisions += hits as u64;
        if cloth.is_some() {
            let mut log = self.log.take();
            self.collisions += self.cushions::<true>(balls, table, physics, walls, log.as_mut());
            self.log = log;
        }
        Ok(())
    }

    fn set_event_log(&mut self, on: bool) {
        self.log = on.then(Vec::new);
    }

    fn take_events(&mut self, out: &mut Vec<crate::event_log::LoggedEvent>) {
        if let Some(log) = self.log.as_mut() {
            out.append(log);
        }
    }

    fn collisions(&self) -> u64 {
        self.collisions
    }

    fn virial(&self) -> f64 {
        self.solver.virial()
    }

    fn virial_tensor(&self) -> crate::stress::Tensor {
        self.solver.virial_tensor()
    }
}

impl Simultaneous {
    /// On cloth, every wall contact as a cushion after the clusters: touching within
    /// the model's slack and approaching beyond round-off. Returns the impacts.
    fn cushions<const LOG: bool>(
        &mut self,
        balls: &mut Balls,
        table: &Table,
        physics: &Physics,
        walls: &Walls,
        log: Option<&mut Vec<crate::event_log::LoggedEvent>>,
    ) -> u64 {
        let slack = touch_slack(balls, table);
        let reach = balls.max_radius() + slack;
        let cells = super::cushions::cells_for(&mut self.wall_cells, walls, table, reach);
        let reach = super::cushions::Reach {
            slack,
            approach: APPROACH,
        };
        let mut none = Vec::new();
        let log = log.unwrap_or(&mut none);
        super::cushions::bounce::<LOG>(balls, table, physics, walls, cells, reach, log, physics.dt)
    }
}

/// The step's resolution: the rough one when friction acts somewhere.
fn resolve(
    solver: &mut ContactSolver,
    balls: &mut Balls,
    contacts: &[Contact],
    physics: &crate::physics::Physics,
    walls: &Walls,
    pool: Option<&rayon::ThreadPool>,
) -> usize {
    let rough = physics.contact_friction.is_active() || walls.any_own_friction();
    if rough {
        solver.resolve_rough(
            balls,
            contacts,
            physics.restitution,
            &physics.contact_friction,
            physics.friction.is_cloth(),
            pool,
        )
    } else {
        solver.resolve(balls, contacts, physics.restitution, pool)
    }
}
