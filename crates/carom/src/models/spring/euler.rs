//! The `spring` model's semi-implicit Euler step (the tutorial's integrator): the pair
//! forces, then each ball's kick and drift in the same parallel pass.

use super::*;

impl Spring {
    /// The semi-implicit Euler step: pair forces, then kick and drift in one pass.
    pub(super) fn step_euler(
        &mut self,
        balls: &mut Balls,
        table: &Table,
        physics: &Physics,
        pool: Option<&rayon::ThreadPool>,
        walls: &Walls,
    ) -> Result<u64, ()> {
        // Pass 2 is folded into pass 3 block by block (see `incoming`) because a block's
        // pairs reach only a few blocks ahead; across a periodic edge the first rows
        // pair with the last, which would make every block scan nearly all the earlier
        // blocks' contacts: there the serial pass 2 (the same sums in the same order)
        // costs one pass over the contacts instead.
        let cross = table.any_periodic();
        let mut began = self.pair_forces(balls, table, physics, pool, cross);
        if let Some(interior) = Self::interior(&mut self.wall_cells, walls, balls, table, physics) {
            let bl = self.list.block_len();
            began += Self::add_interior(&mut self.pair_f, balls, &interior, pool, bl);
        }
        let law = Law::new(table, physics);
        let uniform = match (self.list.uniform_radius(), self.uniform_inv_m) {
            (Some(r), Some(w)) => Some((r, w)),
            _ => None,
        };
        let Balls {
            x,
            y,
            vx,
            vy,
            r,
            inv_m,
            ix,
            iy,
            ..
        } = balls;
        let (r, inv_m) = (&r[..], &inv_m[..]);
        let (list, contacts) = (&self.list, &self.contacts[..]);
        // A sheared box's balls wrap on the shift at the step's end.
        let next = table.after(law.dt);
        type Images<'a> = (&'a mut [i64], &'a mut [i64]);
        let run = |(b, ((((xy, v), f), (r, w)), img)): (usize, (BallsBlock, Images))| {
            if !cross {
                incoming(list, contacts, b, f);
            }
            let block = BallBlock {
                x: &mut *xy.0,
                y: &mut *xy.1,
                vx: &mut *v.0,
                vy: v.1,
                pair_f: f,
            };
            let out = match uniform {
                Some(u) => kick_drift::<true>(&law, block, r, w, u),
                None => kick_drift::<false>(&law, block, r, w, (0.0, 0.0)),
            };
            // Wrapped here, block by block while the positions are still in cache,
            // rather than in a pass of its own over all balls.
            if next.is_sheared() {
                next.wrap_sheared(xy.0, xy.1, v.0, img.0, img.1);
            } else {
                table.wrap_all(xy.0, xy.1, img.0, img.1);
            }
            out
        };
        let bl = self.list.block_len();
        let (began_walls, v2max, finite) = match pool {
            None => x
                .chunks_mut(bl)
                .zip(y.chunks_mut(bl))
                .zip(vx.chunks_mut(bl).zip(vy.chunks_mut(bl)))
                .zip(self.pair_f.chunks_mut(bl))
                .zip(r.chunks(bl).zip(inv_m.chunks(bl)))
                .zip(ix.chunks_mut(bl).zip(iy.chunks_mut(bl)))
                .enumerate()
                .map(run)
                .fold((0, 0.0, true), join),
            Some(pool) => pool.install(|| {
                x.par_chunks_mut(bl)
                    .zip(y.par_chunks_mut(bl))
                    .zip(vx.par_chunks_mut(bl).zip(vy.par_chunks_mut(bl)))
                    .zip(self.pair_f.par_chunks_mut(bl))
                    .zip(r.par_chunks(bl).zip(inv_m.par_chunks(bl)))
                    .zip(ix.par_chunks_mut(bl).zip(iy.par_chunks_mut(bl)))
                    .enumerate()
                    .map(run)
                    .reduce(|| (0, 0.0, true), join)
            }),
        };
        if !finite {
            return Err(());
        }
        self.list.moved(law.dt * v2max.sqrt());
        if table.is_sheared() {
            // The images across the sliding edge moved by G height dt.
            self.list.slid(law.dt * table.shear_velocity().abs());
        }
        self.virial += law.dt * self.last_virial;
        self.add_tensor(law.dt);
        // Rebuilt now rather than at the next step's start (the same work): between
        // steps the list is always current, so the contact energy of the diagnostics
        // never needs a grid of its own.
        self.refresh_list(balls, &next, pool);
        Ok(began + began_walls)
    }
}
