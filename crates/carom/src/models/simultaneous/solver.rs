//! The contact solver of the `simultaneous` model: the contact set of one resolution
//! (ball slots, normals, inverse masses, the slot-to-contact adjacency), the
//! propagation loop that groups approaching contacts into clusters pass after pass, and
//! the per-thread workspaces that solve each cluster. The parent module describes the
//! algorithm; the friction step on top of it lives in `rough`.

use super::nnls::Nnls;
use super::{iteration_cap, SolverStats, APPROACH, MAX_CLUSTER, NONE};
use crate::balls::Balls;
use crate::models::{Contact, PieceContact};
use crate::stress::{self, Tensor};
use crate::table::Table;

/// Work (active contacts in a pass) below which the clusters are solved on the calling
/// thread even when a pool is given: spreading a few tiny solves costs more than it saves.
const PARALLEL_MIN_CONTACTS: usize = 256;

mod cluster;

use cluster::{solve_clusters, ClusterWorker};

/// Contact data read by the cluster solves, separate from the scratch they write.
/// The friction step in `rough` reads the slots and normals too, hence the `pub(super)`.
#[derive(Debug, Clone, Default)]
pub(super) struct ContactSet {
    /// Slot of side a (NONE for a wall) and side b. The normal points from a to b; for
    /// a wall, a is the wall and the normal points into the table.
    pub(super) side_a: Vec<u32>,
    pub(super) side_b: Vec<u32>,
    pub(super) nx: Vec<f64>,
    pub(super) ny: Vec<f64>,
    /// Centre distance of a ball pair (minimum image), 0 for a wall: `lambda` times it
    /// is the pair's virial `r_ij . J_ij`.
    pub(super) dist: Vec<f64>,
    /// Inverse masses of the two sides (0 for a wall or a kinematic ball).
    w_a: Vec<f64>,
    w_b: Vec<f64>,
    /// Restitution of each contact: the scene's, or a wall's own.
    e: Vec<f64>,
    /// Per contact, the velocity of side a's material along the normal: a moving
    /// wall's at the contact, 0 for a pair or a fixed wall. Empty when no wall moves,
    /// so a scene without moving walls takes the arithmetic it always took.
    bias: Vec<f64>,
    /// Index of the contact in the caller's list.
    pub(super) source: Vec<u32>,
    /// Ball of each slot (the distinct balls that appear in contacts).
    pub(super) slot_ball: Vec<u32>,
    /// Contacts of each slot: `adj[adj_start[s]..adj_start[s + 1]]`, in contact order.
    adj_start: Vec<u32>,
    adj: Vec<u32>,
    /// Contacts of the current pass grouped by cluster; `cluster_start` delimits them.
    order: Vec<u32>,
    cluster_start: Vec<u32>,
    /// Position of a contact in `order` during a pass, NONE otherwise.
    pos: Vec<u32>,
}

crate::copying::copy_fields!(ContactSet {
    side_a, side_b, nx, ny, dist, w_a, w_b, e, bias, source, slot_ball, adj_start, adj, order,
    cluster_start, pos
});

impl ContactSet {
    pub(super) fn len(&self) -> usize {
        self.side_b.len()
    }

    /// Normal relative velocity `g = (v_b - v_a) . n`; for a wall, `v_a . n` is its
    /// material's normal velocity at the contact (0 for a fixed wall).
    #[inline]
    fn approach_speed(&self, k: usize, vx: &[f64], vy: &[f64]) -> f64 {
        let b = self.slot_ball[self.side_b[k] as usize] as usize;
        let (mut dvx, mut dvy) = (vx[b], vy[b]);
        let a = self.side_a[k];
        if a != NONE {
            let a = self.slot_ball[a as usize] as usize;
            dvx -= vx[a];
            dvy -= vy[a];
        }
        let g = dvx * self.nx[k] + dvy * self.ny[k];
        if self.bias.is_empty() {
            g
        } else {
            g - self.bias[k]
        }
    }
}

/// Reusable state for resolving simultaneous contacts: the contact set of the current
/// call, the clustering and iteration scratch, and one solver workspace per thread.
#[derive(Debug, Clone, Default)]
pub struct ContactSolver {
    pub(super) set: ContactSet,
    /// Per ball: its slot during a call, NONE otherwise (reset after each call).
    ball_slot: Vec<u32>,
    /// Per contact: got a positive impulse during this call.
    hit: Vec<bool>,
    /// Per contact: last pass that listed it as a candidate (dedup stamp).
    seen: Vec<u32>,
    candidates: Vec<u32>,
    active: Vec<u32>,
    /// Per slot: velocity changed in the last pass.
    changed: Vec<bool>,
    changed_slots: Vec<u32>,
    /// Union-find over slots, and the cluster number of each root.
    parent: Vec<u32>,
    root_cluster: Vec<u32>,
    cluster_of: Vec<u32>,
    cluster_size: Vec<u32>,
    /// Impulses of the current pass, by position in `set.order`.
    impulse: Vec<f64>,
    /// `solve_all_active`: the warm start by loaded contact, the impulses by given contact.
    start: Vec<f64>,
    by_source: Vec<f64>,
    workers: Vec<ClusterWorker>,
    stats: SolverStats,
    /// The table, when some axis is periodic: pair normals use the minimum image.
    periodic: Option<Table>,
    /// Sum of `r_ij . J_ij` over every pair impulse applied so far (for the pressure).
    virial: f64,
    /// Sum of `r_ij (x) J_ij` over the same impulses and the tangential ones of contact
    /// friction (see [`crate::stress`]).
    pub(super) virial_tensor: Tensor,
    /// Per loaded contact: the normal impulse summed over the passes of this call
    /// (what contact friction's Coulomb cap is measured against).
    pub(super) lambda_sum: Vec<f64>,
    /// The contacts with walls inside the table that [`Contact::Piece`] indexes, set by
    /// the caller before a call ([`ContactSolver::pieces_mut`]).
    pub(super) pieces: Vec<PieceContact>,
    /// Per entry of `pieces`, the normal velocity of the wall's material at the contact
    /// (along the normal, from the wall towards the ball); empty when no wall moves
    /// ([`ContactSolver::pieces_and_speeds_mut`]).
    wall_speeds: Vec<f64>,
    /// For the event log: per contact given to the calls since
    /// [`ContactSolver::start_log`], the normal impulse it received (`None`: not kept).
    logged: Option<Vec<f64>>,
}

crate::copying::copy_fields!(ContactSolver {
    ball_slot, hit, seen, candidates, active, changed, changed_slots, parent, root_cluster,
    cluster_of, cluster_size, impulse, start, by_source, stats, periodic, virial, virial_tensor,
    lambda_sum, pieces, wall_speeds, logged
} deep {
    set, workers
});

impl ContactSolver {
    /// The contacts with walls inside the table of the next call: a
    /// [`Contact::Piece`]`(i, k)` is ball `i` against `pieces[k]`.
    pub fn pieces_mut(&mut self) -> &mut Vec<PieceContact> {
        self.wall_speeds.clear();
        &mut self.pieces
    }

    /// [`ContactSolver::pieces_mut`] with, beside it, the normal velocity of each
    /// piece's wall at the contact (from the wall towards the ball): moving walls. Left
    /// empty, the walls are fixed; filled, it holds one value per piece.
    pub fn pieces_and_speeds_mut(&mut self) -> (&mut Vec<PieceContact>, &mut Vec<f64>) {
        (&mut self.pieces, &mut self.wall_speeds)
    }

    /// The contacts with walls inside the table of the latest call.
    pub fn pieces(&self) -> &[PieceContact] {
        &self.pieces
    }

    pub fn new() -> ContactSolver {
        ContactSolver::default()
    }

    pub fn stats(&self) -> SolverStats {
        self.stats
    }

    /// The table whose periodic axes the pair normals wrap across (walled: nothing).
    pub fn set_table(&mut self, table: &Table) {
        self.periodic = table.any_periodic().then_some(*table);
    }

    /// Sum of `r_ij . J_ij` (centre distance times impulse) over every pair impulse
    /// this solver applied.
    pub fn virial(&self) -> f64 {
        self.virial
    }

    /// Puts the virial back to `v` (a failed step undoing its impulses).
    pub fn set_virial(&mut self, v: f64) {
        self.virial = v;
    }

    /// The tensor beside [`ContactSolver::virial`]: `sum r_ij (x) J_ij`.
    pub fn virial_tensor(&self) -> Tensor {
        self.virial_tensor
    }

    /// Puts the virial tensor back to `t` (with [`ContactSolver::set_virial`]).
    pub fn set_virial_tensor(&mut self, t: Tensor) {
        self.virial_tensor = t;
    }

    /// [`resolve_contacts`](super::resolve_contacts) with an optional thread pool: clusters are then solved in
    /// parallel when there is enough work. Results are bit-identical with or without it.
    pub fn resolve(
        &mut self,
        balls: &mut Balls,
        contacts: &[Contact],
        restitution: f64,
        pool: Option<&rayon::ThreadPool>,
    ) -> usize {
        self.load(balls, contacts, restitution);
        let n = self.set.len();
        if n == 0 {
            self.unload();
            return 0;
        }
        self.stats.resolutions += 1;
        let mut speed: f64 = 0.0;
        for &b in &self.set.slot_ball {
            let b = b as usize;
            speed = speed.max(balls.vx[b].hypot(balls.vy[b]));
        }
        // A moving wall's speed sets the scale of the round-off too (a ball at rest
        // struck by it ends at the wall's speed, to round-off of that speed).
        for &w in &self.set.bias {
            speed = speed.max(w.abs());
        }
        let tol = APPROACH * speed;

        // Pass 1 looks at every contact, later passes only at those next to a ball
        // whose velocity changed: the others' g cannot have moved.
        self.candidates.clear();
        self.candidates.extend(0..n as u32);
        let cap = iteration_cap(n);
        let passes_before = self.stats.passes;
        let mut passes = 0;
        loop {
            self.active.clear();
            for &k in &self.candidates {
                if self.set.approach_speed(k as usize, &balls.vx, &balls.vy) < -tol {
                    self.active.push(k);
                }
            }
            if self.active.is_empty() {
                break;
            }
            if passes == cap {
                self.fallback(balls, tol, pool);
                break;
            }
            // Ascending contact order makes the clustering (and so every result)
            // independent of how the candidates were gathered.
            self.active.sort_unstable();
            self.pass(balls, false, pool);
            passes += 1;
            self.gather_candidates(passes as u32);
        }
        // The fallback's one or two passes are counted in `stats.passes` by `pass`.
        let done = self.stats.passes - passes_before;
        self.stats.extra_passes += done.saturating_sub(n as u64);
        let hits = self.hit.iter().filter(|&&h| h).count();
        if let Some(by) = self.logged.as_mut() {
            by.resize(by.len().max(contacts.len()), 0.0);
            for (&c, &lambda) in self.set.source.iter().zip(&self.lambda_sum) {
                by[c as usize] += lambda;
            }
        }
        self.unload();
        hits
    }

    /// Starts summing, for the event log, the normal impulse each given contact
    /// receives over the calls until [`ContactSolver::take_log`] (several calls on the
    /// same contacts, as the rough resolution's passes, add up).
    pub fn start_log(&mut self) {
        let mut by = self.logged.take().unwrap_or_default();
        by.clear();
        self.logged = Some(by);
    }

    /// The impulses summed since [`ContactSolver::start_log`], by contact given (empty
    /// when no contact was loaded), and stops summing.
    pub fn take_log(&mut self) -> Vec<f64> {
        self.logged.take().unwrap_or_default()
    }

    /// Solves the contact problem once with every given contact active (whether it
    /// approaches or not), as one problem, and applies the impulses: the cluster solver
    /// on its own, for tests and benchmarks. `start` is an optional non-negative warm
    /// start, one value per contact. Returns the impulses (valid until the next call),
    /// one per contact in the order given (0 for an ignored contact); an impulse `lambda` changes the
    /// velocities by `-lambda n / m_i` and `+lambda n / m_j`, `n` pointing from `i` to `j`
    /// (from a wall into the table).
    pub fn solve_all_active(
        &mut self,
        balls: &mut Balls,
        contacts: &[Contact],
        restitution: f64,
        start: Option<&[f64]>,
    ) -> &[f64] {
        self.load(balls, contacts, restitution);
        let n = self.set.len();
        self.by_source.clear();
        self.by_source.resize(contacts.len(), 0.0);
        if n > 0 {
            self.start.clear();
            if let Some(s) = start {
                assert_eq!(s.len(), contacts.len(), "one start value per contact");
                self.start
                    .extend(self.set.source.iter().map(|&c| s[c as usize]));
            }
            // One cluster holding everything, whatever the graph.
            self.set.order.clear();
            self.set.order.extend(0..n as u32);
            self.set.cluster_start.clear();
            self.set.cluster_start.extend([0, n as u32]);
            for p in 0..n {
                self.set.pos[p] = p as u32;
            }
            self.impulse.clear();
            self.impulse.resize(n, 0.0);
            if self.workers.is_empty() {
                self.workers.push(ClusterWorker::default());
            }
            let st = (start.is_some()).then_some(&self.start[..]);
            self.workers[0].solve(
                &self.set,
                &balls.vx,
                &balls.vy,
                false,
                0,
                n,
                st,
                &mut self.impulse,
            );
            self.stats.guard_hits += self.workers[0].guard_hits;
            self.workers[0].guard_hits = 0;
            self.apply(balls);
            for &s in &self.changed_slots {
                self.changed[s as usize] = false;
            }
            self.changed_slots.clear();
            for p in 0..n {
                self.set.pos[p] = NONE;
                self.by_source[self.set.source[p] as usize] = self.impulse[p];
            }
        }
        self.unload();
        &self.by_source
    }

    /// Builds the contact set: slots for the balls involved, normals, inverse masses,
    /// and the slot-to-contact adjacency (`link_slots`).
    fn load(&mut self, balls: &Balls, contacts: &[Contact], restitution: f64) {
        if self.ball_slot.len() < balls.len() {
            self.ball_slot.resize(balls.len(), NONE);
        }
        let set = &mut self.set;
        set.side_a.clear();
        set.side_b.clear();
        set.nx.clear();
        set.ny.clear();
        set.dist.clear();
        set.w_a.clear();
        set.w_b.clear();
        set.e.clear();
        set.bias.clear();
        set.source.clear();
        set.slot_ball.clear();
        let moving = !self.wall_speeds.is_empty();
        let ball_slot = &mut self.ball_slot;
        let periodic = self.periodic;
        let mut slot = |i: usize, slot_ball: &mut Vec<u32>| -> u32 {
            if ball_slot[i] == NONE {
                ball_slot[i] = slot_ball.len() as u32;
                slot_ball.push(i as u32);
            }
            ball_slot[i]
        };
        for (c, contact) in contacts.iter().enumerate() {
            match *contact {
                Contact::Pair(i, j) => {
                    let (i, j) = (i as usize, j as usize);
                    let (wi, wj) = (balls.inv_m[i], balls.inv_m[j]);
                    let mut dx = balls.x[j] - balls.x[i];
                    let mut dy = balls.y[j] - balls.y[i];
                    if let Some(t) = &periodic {
                        (dx, dy) = t.min_image(dx, dy);
                    }
                    let d = dx.hypot(dy);
                    // No line of centres, or nothing that can respond.
                    if i == j || d == 0.0 || !d.is_finite() || wi + wj == 0.0 {
                        continue;
                    }
                    let si = slot(i, &mut set.slot_ball);
                    let sj = slot(j, &mut set.slot_ball);
                    set.side_a.push(si);
                    set.side_b.push(sj);
                    set.nx.push(dx / d);
                    set.ny.push(dy / d);
                    set.dist.push(d);
                    set.w_a.push(wi);
                    set.w_b.push(wj);
                    set.e.push(restitution);
                    if moving {
                        set.bias.push(0.0);
                    }
                }
                Contact::Wall(i, wall) => {
                    let i = i as usize;
                    let wi = balls.inv_m[i];
                    if wi == 0.0 {
                        continue;
                    }
                    let si = slot(i, &mut set.slot_ball);
                    let [nx, ny] = wall.normal();
                    set.side_a.push(NONE);
                    set.side_b.push(si);
                    set.nx.push(nx);
                    set.ny.push(ny);
                    set.dist.push(0.0);
                    set.w_a.push(0.0);
                    set.w_b.push(wi);
                    set.e.push(restitution);
                    if moving {
                        set.bias.push(0.0);
                    }
                }
                Contact::Piece(i, k) => {
                    let i = i as usize;
                    let wi = balls.inv_m[i];
                    let Some(piece) = self.pieces.get(k as usize) else {
                        continue;
                    };
                    if wi == 0.0 {
                        continue;
                    }
                    let si = slot(i, &mut set.slot_ball);
                    set.side_a.push(NONE);
                    set.side_b.push(si);
                    set.nx.push(piece.normal[0]);
                    set.ny.push(piece.normal[1]);
                    set.dist.push(0.0);
                    set.w_a.push(0.0);
                    set.w_b.push(wi);
                    set.e.push(piece.restitution);
                    if moving {
                        set.bias.push(self.wall_speeds[k as usize]);
                    }
                }
            }
            set.source.push(c as u32);
        }
        self.link_slots();
    }

    /// The slot-to-contact adjacency of the loaded set, and the solver's scratch sized
    /// to it.
    fn link_slots(&mut self) {
        let set = &mut self.set;
        let n = set.len();
        let slots = set.slot_ball.len();
        // Slot-to-contact adjacency by counting sort, contacts ascending per slot.
        set.adj_start.clear();
        set.adj_start.resize(slots + 1, 0);
        for k in 0..n {
            if set.side_a[k] != NONE {
                set.adj_start[set.side_a[k] as usize + 1] += 1;
            }
            set.adj_start[set.side_b[k] as usize + 1] += 1;
        }
        for s in 0..slots {
            set.adj_start[s + 1] += set.adj_start[s];
        }
        set.adj.clear();
        set.adj.resize(set.adj_start[slots] as usize, 0);
        // Fill with cluster_size as cursors (reused scratch).
        self.cluster_size.clear();
        self.cluster_size.extend_from_slice(&set.adj_start[..slots]);
        for k in 0..n {
            for s in [set.side_a[k], set.side_b[k]] {
                if s != NONE {
                    let c = &mut self.cluster_size[s as usize];
                    set.adj[*c as usize] = k as u32;
                    *c += 1;
                }
            }
        }
        set.pos.clear();
        set.pos.resize(n, NONE);
        self.hit.clear();
        self.hit.resize(n, false);
        self.lambda_sum.clear();
        self.lambda_sum.resize(n, 0.0);
        self.seen.clear();
        self.seen.resize(n, 0);
        self.changed.clear();
        self.changed.resize(slots, false);
        self.parent.clear();
        self.parent.resize(slots, NONE);
        self.root_cluster.clear();
        self.root_cluster.resize(slots, NONE);
        self.cluster_of.clear();
        self.cluster_of.resize(n, NONE);
    }

    /// Forgets the balls' slots so the next call starts clean.
    fn unload(&mut self) {
        for &b in &self.set.slot_ball {
            self.ball_slot[b as usize] = NONE;
        }
    }

    /// The dynamic slot that stands for a contact's cluster (side b always is, unless
    /// side b is kinematic, in which case side a is).
    #[inline]
    fn anchor(&self, k: usize) -> u32 {
        if self.set.w_b[k] != 0.0 {
            self.set.side_b[k]
        } else {
            self.set.side_a[k]
        }
    }

    fn find(&mut self, mut s: u32) -> u32 {
        while self.parent[s as usize] != s {
            let p = self.parent[s as usize];
            self.parent[s as usize] = self.parent[p as usize];
            s = p;
        }
        s
    }

    /// One pass: clusters of the contacts in `active`, each solved exactly, impulses
    /// applied, changed balls recorded.
    /// With `inelastic`, every contact takes `e = 0` (the fallback's last solve).
    fn pass(&mut self, balls: &mut Balls, inelastic: bool, pool: Option<&rayon::ThreadPool>) {
        self.stats.passes += 1;
        // Union-find over the dynamic balls of the active contacts.
        for i in 0..self.active.len() {
            let k = self.active[i] as usize;
            for (s, w) in [
                (self.set.side_a[k], self.set.w_a[k]),
                (self.set.side_b[k], self.set.w_b[k]),
            ] {
                if s != NONE && w != 0.0 {
                    self.parent[s as usize] = s;
                }
            }
        }
        for i in 0..self.active.len() {
            let k = self.active[i] as usize;
            if self.set.w_a[k] != 0.0 && self.set.w_b[k] != 0.0 {
                let ra = self.find(self.set.side_a[k]);
                let rb = self.find(self.set.side_b[k]);
                if ra != rb {
                    // The smaller root wins: deterministic, whatever the order of unions.
                    let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
                    self.parent[hi as usize] = lo;
                }
            }
        }
        // Clusters numbered by first appearance in ascending contact order.
        self.cluster_size.clear();
        for i in 0..self.active.len() {
            let k = self.active[i] as usize;
            let root = self.find(self.anchor(k));
            let mut c = self.root_cluster[root as usize];
            if c == NONE {
                c = self.cluster_size.len() as u32;
                self.root_cluster[root as usize] = c;
                self.cluster_size.push(0);
            }
            self.cluster_of[k] = c;
            self.cluster_size[c as usize] += 1;
        }
        let clusters = self.cluster_size.len();
        let set = &mut self.set;
        set.cluster_start.clear();
        set.cluster_start.push(0);
        for c in 0..clusters {
            let next = set.cluster_start[c] + self.cluster_size[c];
            set.cluster_start.push(next);
        }
        set.order.clear();
        set.order.resize(self.active.len(), 0);
        // cluster_size becomes the fill cursor.
        for c in 0..clusters {
            self.cluster_size[c] = set.cluster_start[c];
        }
        for &k in &self.active {
            let c = self.cluster_of[k as usize] as usize;
            let p = self.cluster_size[c];
            set.order[p as usize] = k;
            set.pos[k as usize] = p;
            self.cluster_size[c] += 1;
        }
        self.impulse.clear();
        self.impulse.resize(self.active.len(), 0.0);

        // Clusters small enough for one dense solve go first (in parallel if it pays),
        // then oversized ones block by block.
        let mut largest = 0;
        for c in 0..clusters {
            largest = largest.max((set.cluster_start[c + 1] - set.cluster_start[c]) as usize);
        }
        self.stats.clusters += clusters as u64;
        self.stats.largest_cluster = self.stats.largest_cluster.max(largest);
        let threads = pool.map_or(1, |p| p.current_num_threads()).max(1);
        let parallel = threads > 1 && clusters > 1 && self.active.len() >= PARALLEL_MIN_CONTACTS;
        let workers = if parallel { threads } else { 1 };
        if parallel {
            self.stats.parallel_passes += 1;
        }
        if self.workers.len() < workers {
            self.workers.resize_with(workers, ClusterWorker::default);
        }
        {
            let set = &self.set;
            let (vx, vy) = (&balls.vx[..], &balls.vy[..]);
            let impulse = &mut self.impulse[..];
            let ws = &mut self.workers[..workers];
            match pool {
                Some(pool) if parallel => pool.install(|| {
                    solve_clusters(set, vx, vy, inelastic, 0..clusters, ws, impulse);
                }),
                _ => solve_clusters(set, vx, vy, inelastic, 0..clusters, ws, impulse),
            }
        }
        self.apply_range(balls, 0, self.active.len(), true);
        if largest > MAX_CLUSTER {
            self.solve_oversized(balls, inelastic, clusters);
        }
        for w in &mut self.workers {
            self.stats.guard_hits += w.guard_hits;
            w.guard_hits = 0;
        }
        // Reset the per-pass marks.
        for i in 0..self.active.len() {
            let k = self.active[i] as usize;
            self.set.pos[k] = NONE;
            self.cluster_of[k] = NONE;
            let root = self.find(self.anchor(k));
            self.root_cluster[root as usize] = NONE;
        }
        for i in 0..self.active.len() {
            let k = self.active[i] as usize;
            for s in [self.set.side_a[k], self.set.side_b[k]] {
                if s != NONE {
                    self.parent[s as usize] = NONE;
                }
            }
        }
    }

    /// Oversized clusters: consecutive blocks of [`MAX_CLUSTER`] contacts, each solved
    /// exactly with the velocities the previous block left.
    fn solve_oversized(&mut self, balls: &mut Balls, inelastic: bool, clusters: usize) {
        for c in 0..clusters {
            let (s, e) = (
                self.set.cluster_start[c] as usize,
                self.set.cluster_start[c + 1] as usize,
            );
            if e - s <= MAX_CLUSTER {
                continue;
            }
            self.stats.split_clusters += 1;
            let mut b = s;
            while b < e {
                let be = (b + MAX_CLUSTER).min(e);
                self.workers[0].solve(
                    &self.set,
                    &balls.vx,
                    &balls.vy,
                    inelastic,
                    b,
                    be,
                    None,
                    &mut self.impulse[b..be],
                );
                self.apply_range(balls, b, be, false);
                b = be;
            }
        }
    }

    /// Applies the impulses of `order[s..e]`; with `skip_oversized`, leaves out the
    /// clusters above [`MAX_CLUSTER`] (solved separately).
    fn apply_range(&mut self, balls: &mut Balls, s: usize, e: usize, skip_oversized: bool) {
        let clusters = self.set.cluster_start.len() - 1;
        for c in 0..clusters {
            let (cs, ce) = (
                self.set.cluster_start[c] as usize,
                self.set.cluster_start[c + 1] as usize,
            );
            if skip_oversized && ce - cs > MAX_CLUSTER {
                continue;
            }
            for p in cs.max(s)..ce.min(e) {
                let k = self.set.order[p] as usize;
                let lambda = self.impulse[p];
                if lambda > 0.0 {
                    self.push(balls, k, lambda);
                }
            }
        }
    }

    /// Applies all impulses of the single all-in-one cluster of `solve_all_active`.
    fn apply(&mut self, balls: &mut Balls) {
        for p in 0..self.set.order.len() {
            let k = self.set.order[p] as usize;
            let lambda = self.impulse[p];
            if lambda > 0.0 {
                self.push(balls, k, lambda);
            }
        }
    }

    /// Impulse `lambda` on contact `k`: equal and opposite along the normal.
    #[inline]
    fn push(&mut self, balls: &mut Balls, k: usize, lambda: f64) {
        let set = &self.set;
        let (nx, ny) = (set.nx[k], set.ny[k]);
        let b = set.side_b[k];
        if set.w_b[k] != 0.0 {
            let i = set.slot_ball[b as usize] as usize;
            balls.vx[i] += lambda * set.w_b[k] * nx;
            balls.vy[i] += lambda * set.w_b[k] * ny;
            if !self.changed[b as usize] {
                self.changed[b as usize] = true;
                self.changed_slots.push(b);
            }
        }
        let a = set.side_a[k];
        if a != NONE {
            // j gets +lambda n, i = j - d n gets -lambda n: r_ij . J_ij = lambda d.
            self.virial += lambda * set.dist[k];
            stress::add_contact(&mut self.virial_tensor, [nx, ny], set.dist[k], lambda, 0.0);
        }
        if a != NONE && set.w_a[k] != 0.0 {
            let i = set.slot_ball[a as usize] as usize;
            balls.vx[i] -= lambda * set.w_a[k] * nx;
            balls.vy[i] -= lambda * set.w_a[k] * ny;
            if !self.changed[a as usize] {
                self.changed[a as usize] = true;
                self.changed_slots.push(a);
            }
        }
        self.hit[k] = true;
        self.lambda_sum[k] += lambda;
    }

    /// The contacts next to a ball whose velocity changed in the last pass.
    fn gather_candidates(&mut self, stamp: u32) {
        self.candidates.clear();
        for i in 0..self.changed_slots.len() {
            let s = self.changed_slots[i] as usize;
            self.changed[s] = false;
            let (a, b) = (
                self.set.adj_start[s] as usize,
                self.set.adj_start[s + 1] as usize,
            );
            for &k in &self.set.adj[a..b] {
                if self.seen[k as usize] != stamp {
                    self.seen[k as usize] = stamp;
                    self.candidates.push(k);
                }
            }
        }
        self.changed_slots.clear();
    }

    /// The cap was reached: one solve with every touching contact active, with the
    /// model's restitution. A separating contact may then be pushed into a slow approach
    /// (the complementarity law only bounds `g' >= -e g`), so if anything still
    /// approaches, one perfectly inelastic solve over every touching contact removes it:
    /// it is the projection of the velocities onto the non-approaching ones. That
    /// projection exists whenever nothing moving crushes a ball against something that
    /// cannot give way (a moving kinematic ball or a moving wall pressing a ball into a
    /// corner is the exception, where no impulses can stop the approach: the solver then
    /// stops with finite impulses and the approach left over).
    fn fallback(&mut self, balls: &mut Balls, tol: f64, pool: Option<&rayon::ThreadPool>) {
        self.stats.fallbacks += 1;
        let n = self.set.len();
        self.active.clear();
        self.active.extend(0..n as u32);
        self.pass(balls, false, pool);
        let approaching = (0..n).any(|k| self.set.approach_speed(k, &balls.vx, &balls.vy) < -tol);
        if approaching {
            self.active.clear();
            self.active.extend(0..n as u32);
            self.pass(balls, true, pool);
        }
        for &s in &self.changed_slots {
            self.changed[s as usize] = false;
        }
        self.changed_slots.clear();
    }
}
