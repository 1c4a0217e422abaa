//! One cluster's problem of the `simultaneous` model, solved by a worker of its own:
//! the per-worker scratch and the split of a pass's clusters over the workers.

use super::*;

/// Per-worker scratch for one cluster solve.
#[derive(Debug, Clone, Default)]
pub(super) struct ClusterWorker {
    a: Vec<f64>,
    h: Vec<f64>,
    nnls: Nnls,
    pub(super) guard_hits: u64,
}

crate::copying::copy_fields!(ClusterWorker { a, h, guard_hits } deep { nnls });

/// Solves `clusters` (a range of cluster numbers of the pass) into `impulse` (the slice
/// of the pass's impulses that starts at the first of them), splitting the range over
/// the workers with `rayon::join`. Each cluster is solved by the same code whatever the
/// split, so the result does not depend on the number of workers.
pub(super) fn solve_clusters(
    set: &ContactSet,
    vx: &[f64],
    vy: &[f64],
    inelastic: bool,
    clusters: std::ops::Range<usize>,
    workers: &mut [ClusterWorker],
    impulse: &mut [f64],
) {
    let first = set.cluster_start[clusters.start] as usize;
    if workers.len() <= 1 || clusters.len() <= 1 {
        let w = &mut workers[0];
        for c in clusters {
            let (s, e) = (
                set.cluster_start[c] as usize,
                set.cluster_start[c + 1] as usize,
            );
            if e - s > MAX_CLUSTER {
                continue;
            }
            w.solve(
                set,
                vx,
                vy,
                inelastic,
                s,
                e,
                None,
                &mut impulse[s - first..e - first],
            );
        }
        return;
    }
    // Split the workers in two and the clusters where the contacts are shared alike.
    let last = set.cluster_start[clusters.end] as usize;
    let half = workers.len() / 2;
    let target = first + (last - first) * half / workers.len();
    let mut mid = clusters.start + 1;
    while mid < clusters.end - 1 && (set.cluster_start[mid] as usize) < target {
        mid += 1;
    }
    let split = set.cluster_start[mid] as usize - first;
    let (wl, wr) = workers.split_at_mut(half);
    let (il, ir) = impulse.split_at_mut(split);
    rayon::join(
        || solve_clusters(set, vx, vy, inelastic, clusters.start..mid, wl, il),
        || solve_clusters(set, vx, vy, inelastic, mid..clusters.end, wr, ir),
    );
}

impl ClusterWorker {
    /// Solves the contacts `order[s..e]` as one problem, from the current velocities,
    /// into `out` (one impulse per contact, same order).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn solve(
        &mut self,
        set: &ContactSet,
        vx: &[f64],
        vy: &[f64],
        inelastic: bool,
        s: usize,
        e: usize,
        start: Option<&[f64]>,
        out: &mut [f64],
    ) {
        let n = e - s;
        self.a.clear();
        self.a.resize(n * n, 0.0);
        self.h.clear();
        self.h.resize(n, 0.0);
        // A = J M^-1 J^T: contacts k and l couple through each dynamic ball they share,
        // by w_s (n_k . n_l) times the signs of the two sides (-1 on side a).
        for p in 0..n {
            let k = set.order[s + p] as usize;
            // Per-contact restitution keeps the problem a convex QP with the same Gram
            // matrix (h = (1 + e_k) g_k): the post-impact velocities stay unique.
            let e_k = if inelastic { 0.0 } else { set.e[k] };
            self.h[p] = (1.0 + e_k) * set.approach_speed(k, vx, vy);
            for (slot, w, sign_k) in [
                (set.side_a[k], set.w_a[k], -1.0),
                (set.side_b[k], set.w_b[k], 1.0),
            ] {
                if slot == NONE || w == 0.0 {
                    continue;
                }
                let (a0, a1) = (
                    set.adj_start[slot as usize] as usize,
                    set.adj_start[slot as usize + 1] as usize,
                );
                for &l in &set.adj[a0..a1] {
                    let l = l as usize;
                    let q = set.pos[l];
                    if q == NONE || (q as usize) < s || (q as usize) >= e {
                        continue;
                    }
                    let q = q as usize - s;
                    if l == k {
                        // n . n = 1 exactly in the physics; keep it exact here.
                        self.a[p * n + q] += w;
                        continue;
                    }
                    let sign_l = if set.side_a[l] == slot { -1.0 } else { 1.0 };
                    let dot = set.nx[k] * set.nx[l] + set.ny[k] * set.ny[l];
                    self.a[p * n + q] += w * sign_k * sign_l * dot;
                }
            }
        }
        if n == 1 && start.is_none() {
            // The overwhelmingly common cluster (a gas is made of them): the NNLS
            // minimiser in closed form, max(0, -h / A), one rounding instead of the
            // Cholesky pivot's square root and two divisions.
            out[0] = if self.h[0] < 0.0 {
                -self.h[0] / self.a[0]
            } else {
                0.0
            };
            return;
        }
        let report = self.nnls.solve(&self.a, &self.h, start);
        if report.guard_hit {
            self.guard_hits += 1;
        }
        out[..n].copy_from_slice(self.nnls.lambda());
    }
}
