//! The contact history of the frictional spring step: the tangential stretches kept
//! across neighbour-list rebuilds, written to and read back from a state file, and
//! the energy they store.

use super::*;

/// One block of the new list, its stretches to fill, and the springs carried to it.
type RestoreBlock<'a> = (
    (
        (&'a crate::broadphase::ListBlock, &'a mut Vec<f64>),
        &'a mut Vec<f64>,
    ),
    &'a mut Vec<Carried>,
);

impl Rough {
    /// Makes the neighbour list current, carrying loaded springs over a rebuild.
    /// `cloth`: the balls are spheres on cloth, whose springs have a vertical part.
    pub(in crate::models::spring) fn refresh(
        &mut self,
        spring: &mut Spring,
        balls: &Balls,
        table: &Table,
        pool: Option<&rayon::ThreadPool>,
        cloth: bool,
    ) {
        let n = balls.len();
        let list_current = spring.list.is_current(n);
        if self.cloth != cloth {
            // The law changed under the springs (an edit of the physics): the vertical
            // parts start from zero, or are forgotten.
            self.cloth = cloth;
            self.xi_z.iter_mut().for_each(Vec::clear);
        }
        if self.balls != n {
            // New balls: no history to keep.
            self.xi.clear();
            self.xi_z.clear();
            self.carry.clear();
            self.restored.clear();
            self.wall_xi.clear();
            self.wall_xi.resize(n, [0.0; 2]);
            self.acc.clear();
            self.acc.resize(n, [0.0; 3]);
            self.balls = n;
        } else if !list_current && self.restored.is_empty() {
            self.save(&spring.list);
        } else if !list_current {
            // The restored springs replace whatever the old list held.
            self.carry.iter_mut().for_each(Vec::clear);
        }
        spring.refresh_list(balls, table, pool);
        let blocks = spring.list.blocks();
        if !self.restored.is_empty() {
            // Each pair goes to the block of its lower ball, in ascending order as
            // `save` would have left it. Once per restore, not per step.
            let bl = spring.list.block_len();
            self.carry.resize_with(blocks.len(), Vec::new);
            for &c in &self.restored {
                if let Some(carry) = self.carry.get_mut(c.0 as usize / bl) {
                    carry.push(c);
                }
            }
            self.restored.clear();
        }
        let aligned = self.xi.len() == blocks.len()
            && self
                .xi
                .iter()
                .zip(blocks)
                .all(|(x, b)| x.len() == b.pairs().len());
        if list_current && aligned {
            if cloth && !self.tilt_aligned(blocks) {
                // Cloth just switched on over a current list: no vertical stretch yet.
                self.xi_z.resize_with(blocks.len(), Vec::new);
                for (z, b) in self.xi_z.iter_mut().zip(blocks) {
                    z.clear();
                    z.resize(b.pairs().len(), 0.0);
                }
            }
            return;
        }
        self.xi.resize_with(blocks.len(), Vec::new);
        self.xi_z.resize_with(blocks.len(), Vec::new);
        self.carry.resize_with(blocks.len(), Vec::new);
        let restore = |(((block, xi), xi_z), carry): RestoreBlock| {
            xi.clear();
            xi.resize(block.pairs().len(), 0.0);
            xi_z.clear();
            if cloth {
                xi_z.resize(block.pairs().len(), 0.0);
            }
            let mut c = 0;
            for (k, &(i, j)) in block.pairs().iter().enumerate() {
                while c < carry.len() && (carry[c].0, carry[c].1) < (i, j) {
                    c += 1;
                }
                if c < carry.len() && (carry[c].0, carry[c].1) == (i, j) {
                    xi[k] = carry[c].2;
                    if let Some(z) = xi_z.get_mut(k) {
                        *z = carry[c].3;
                    }
                }
            }
            carry.clear();
        };
        match pool {
            None => blocks
                .iter()
                .zip(self.xi.iter_mut())
                .zip(self.xi_z.iter_mut())
                .zip(self.carry.iter_mut())
                .for_each(restore),
            Some(pool) => pool.install(|| {
                blocks
                    .par_iter()
                    .zip(self.xi.par_iter_mut())
                    .zip(self.xi_z.par_iter_mut())
                    .zip(self.carry.par_iter_mut())
                    .for_each(restore)
            }),
        }
    }

    /// Keeps the loaded springs of the list about to be rebuilt, by pair.
    fn save(&mut self, list: &NeighbourList) {
        let blocks = list.blocks();
        self.carry.resize_with(blocks.len(), Vec::new);
        for (b, block) in blocks.iter().enumerate() {
            let carry = &mut self.carry[b];
            carry.clear();
            let Some(xi) = self.xi.get(b).filter(|x| x.len() == block.pairs().len()) else {
                continue;
            };
            // Off cloth (or out of line) there is no vertical part: zeros.
            let z = self
                .xi_z
                .get(b)
                .filter(|z| z.len() == xi.len())
                .map_or(&[][..], |z| &z[..]);
            for (k, (&(i, j), &s)) in block.pairs().iter().zip(xi).enumerate() {
                let sz = z.get(k).copied().unwrap_or(0.0);
                if s != 0.0 || sz != 0.0 {
                    carry.push((i, j, s, sz));
                }
            }
        }
    }

    /// The loaded springs, for the state file: pairs ascending (list order), then walls
    /// by ball and axis; on cloth the pairs' vertical parts as well.
    pub(in crate::models::spring) fn history(&self, list: &NeighbourList) -> ContactHistory {
        let mut h = ContactHistory::default();
        if self.restored.is_empty() {
            // Between steps the stretches are aligned with the list (the step ends with
            // a refresh); a block that is not holds nothing loaded.
            for (b, (block, xi)) in list.blocks().iter().zip(&self.xi).enumerate() {
                if xi.len() == block.pairs().len() {
                    for (&(i, j), &s) in block.pairs().iter().zip(xi) {
                        if s != 0.0 {
                            h.pairs.push((i, j, s));
                        }
                    }
                }
                if let Some(z) = self.xi_z.get(b).filter(|z| z.len() == block.pairs().len()) {
                    for (&(i, j), &s) in block.pairs().iter().zip(z) {
                        if s != 0.0 {
                            h.vertical.push((i, j, s));
                        }
                    }
                }
            }
        } else {
            // Restored and not stepped since: give back what was handed over.
            for &(i, j, s, sz) in &self.restored {
                if s != 0.0 {
                    h.pairs.push((i, j, s));
                }
                if sz != 0.0 {
                    h.vertical.push((i, j, sz));
                }
            }
        }
        for (i, w) in self.wall_xi.iter().enumerate() {
            for (axis, &s) in w.iter().enumerate() {
                if s != 0.0 {
                    h.walls.push((i as u32, axis as u8, s));
                }
            }
        }
        h
    }

    /// Takes the springs of a state file for `n` balls: the pair springs wait in
    /// `restored` for the next list rebuild (the caller invalidates the list), the wall
    /// springs go straight to their balls. Entries out of range are dropped.
    pub(in crate::models::spring) fn restore(&mut self, h: &ContactHistory, n: usize) {
        self.xi.clear();
        self.xi_z.clear();
        self.carry.clear();
        self.wall_xi.clear();
        self.wall_xi.resize(n, [0.0; 2]);
        self.acc.clear();
        self.acc.resize(n, [0.0; 3]);
        self.balls = n;
        self.restored.clear();
        let valid = |&&(i, j, s): &&(u32, u32, f64)| i < j && (j as usize) < n && s != 0.0;
        let pairs = h
            .pairs
            .iter()
            .filter(valid)
            .map(|&(i, j, s)| (i, j, s, 0.0));
        let vertical = h
            .vertical
            .iter()
            .filter(valid)
            .map(|&(i, j, s)| (i, j, 0.0, s));
        self.restored.extend(pairs.chain(vertical));
        // The merge in `refresh` needs each block's pairs ascending, and a pair loaded
        // in both parts is one entry (a stable sort keeps its in-plane part first).
        self.restored.sort_by_key(|&(i, j, ..)| (i, j));
        self.restored.dedup_by(|later, kept| {
            let same = (later.0, later.1) == (kept.0, kept.1);
            if same && later.3 != 0.0 {
                kept.3 = later.3;
            }
            same
        });
        for &(i, axis, s) in &h.walls {
            if let Some(w) = self.wall_xi.get_mut(i as usize) {
                if let Some(slot) = w.get_mut(axis as usize) {
                    *slot = s;
                }
            }
        }
    }

    /// Energy stored in the tangential springs, `k_t |xi|^2 / 2` each.
    pub(in crate::models::spring) fn energy(&self, physics: &Physics) -> f64 {
        let k_t = physics
            .contact_friction
            .tangential_stiffness_for(physics.stiffness);
        // Restored springs not yet back on the list count as they will there: the same
        // nonzero values in the same (ascending) order, so the same sum.
        let pairs: f64 = self
            .xi
            .iter()
            .flatten()
            .chain(self.restored.iter().map(|(_, _, s, _)| s))
            .map(|x| x * x)
            .sum();
        // Off cloth this is exactly zero, which leaves the sum's bits as they were.
        let vertical: f64 = self
            .xi_z
            .iter()
            .flatten()
            .chain(self.restored.iter().map(|(.., s)| s))
            .map(|x| x * x)
            .sum();
        let walls: f64 = self.wall_xi.iter().map(|w| w[0] * w[0] + w[1] * w[1]).sum();
        0.5 * k_t * (pairs + vertical + walls)
    }
}
