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

/// One block of balls as pass 3 sees it: its own state, its summed pair forces, and
/// (for accelerations) where to write them.
struct BallBlock<'a> {
    x: &'a mut [f64],
    y: &'a mut [f64],
    vx: &'a mut [f64],
    vy: &'a mut [f64],
    pair_f: &'a mut [[f64; 2]],
}

/// The x and y components of one block of a per-ball quantity.
type Pair<'a> = (&'a mut [f64], &'a mut [f64]);

/// Positions, velocities and pair forces of one block.
type BlockState<'a> = ((Pair<'a>, Pair<'a>), &'a mut [[f64; 2]]);

/// A block's state with its radii and inverse masses.
type BallsBlock<'a> = (BlockState<'a>, (&'a [f64], &'a [f64]));

/// What pass 3 returns per block: wall contacts begun, the largest squared speed after
/// the kick, whether every position is finite.
type Pass3 = (u64, f64, bool);

fn join(a: Pass3, b: Pass3) -> Pass3 {
    (a.0 + b.0, a.1.max(b.1), a.2 & b.2)
}

/// Pass 2 done per block, inside pass 3: adds to the pair-force sums `acc` of block
/// `t` the forces of the earlier blocks' contacts whose higher ball lies in `t`, in
/// list order: the same sums, in the same order, as the serial pass 2, whatever the
/// thread count.
fn incoming(list: &NeighbourList, contacts: &[Vec<PairForce>], t: usize, acc: &mut [[f64; 2]]) {
    incoming_with(
        list,
        contacts,
        t,
        acc,
        |c| c.j,
        |a, c| {
            a[0] += c.fx;
            a[1] += c.fy;
        },
    );
}

/// Pass 3 of the semi-implicit Euler step on one block: `v += dt a; x += dt v`.
/// With `UNIFORM`, every ball has radius `r` and inverse mass `w`.
fn kick_drift<const UNIFORM: bool>(
    law: &Law,
    b: BallBlock<'_>,
    r: &[f64],
    inv_m: &[f64],
    uniform: (f64, f64),
) -> Pass3 {
    let dt = law.dt;
    let (mut began, mut v2max, mut finite) = (0, 0.0f64, true);
    for k in 0..b.x.len() {
        let (ri, wi) = if UNIFORM { uniform } else { (r[k], inv_m[k]) };
        let pair = take_pair_force(&mut b.pair_f[k]);
        let state = (b.x[k], b.y[k], b.vx[k], b.vy[k]);
        let (ax, ay, bw) = law.acceleration(state, ri, wi, pair);
        let (vx, vy) = (state.2 + dt * ax, state.3 + dt * ay);
        let (x, y) = (state.0 + dt * vx, state.1 + dt * vy);
        (b.vx[k], b.vy[k], b.x[k], b.y[k]) = (vx, vy, x, y);
        began += bw;
        v2max = v2max.max(vx * vx + vy * vy);
        finite &= x.is_finite() & y.is_finite();
    }
    (began, v2max, finite)
}
