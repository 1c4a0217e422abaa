//! Uniform-grid broad phase. Balls are binned by a counting sort (O(N), no hashing),
//! and a ball can only touch balls in its own or the eight surrounding cells because a
//! cell is at least one largest diameter wide. No model ever loops over all pairs.

use crate::table::Table;

#[derive(Debug, Clone, Default)]
pub struct Grid {
    nx: usize,
    ny: usize,
    inv_w: f64,
    inv_h: f64,
    /// `cell_start[c]..cell_start[c + 1]` indexes `items` for cell `c` (row-major).
    cell_start: Vec<u32>,
    /// Ball indices sorted by cell; within a cell in ascending index order.
    items: Vec<u32>,
    /// Each ball's cell (scratch of the serial rebuild).
    cell_of: Vec<u32>,
    /// The table, when one of its axes is periodic: neighbouring cells then wrap
    /// around that axis and distances are minimum images. `None` on a walled table,
    /// whose loops stay exactly as they were.
    periodic: Option<Table>,
}

crate::copying::copy_fields!(Grid { nx, ny, inv_w, inv_h, cell_start, items, cell_of, periodic });

/// The distinct cells next to cell `c` (itself included) along one axis of `n` cells:
/// clamped at the ends of a walled axis, wrapped around a periodic one (where one or
/// two cells are each listed once). Returns the cells and how many are valid.
#[inline]
fn stencil(c: usize, n: usize, periodic: bool) -> ([usize; 3], usize) {
    if periodic && n >= 3 {
        let lo = if c == 0 { n - 1 } else { c - 1 };
        let hi = if c + 1 == n { 0 } else { c + 1 };
        ([lo, c, hi], 3)
    } else if periodic {
        ([0, 1, 0], n)
    } else {
        let lo = c.saturating_sub(1);
        let hi = (c + 1).min(n - 1);
        ([lo, lo + 1, lo + 2], hi - lo + 1)
    }
}

impl Grid {
    pub fn new() -> Grid {
        Grid::default()
    }

    /// Rebins all balls. `reach` is the largest centre distance at which two balls can
    /// interact (twice the largest radius, plus any margin the caller wants).
    pub fn rebuild(&mut self, x: &[f64], y: &[f64], reach: f64, table: &Table) {
        let n = x.len();
        self.size_cells(n, reach, table);
        let cells = self.nx * self.ny;
        // Each ball's cell, computed once for both passes of the counting sort.
        let (nx, ny, inv_w, inv_h) = (self.nx, self.ny, self.inv_w, self.inv_h);
        self.cell_of.clear();
        self.cell_of.extend(x.iter().zip(y).map(|(&x, &y)| {
            let cx = ((x * inv_w) as usize).min(nx - 1);
            let cy = ((y * inv_h) as usize).min(ny - 1);
            (cy * nx + cx) as u32
        }));
        self.cell_start.clear();
        self.cell_start.resize(cells + 1, 0);
        let counts = &mut self.cell_start[1..];
        for &c in &self.cell_of {
            counts[c as usize] += 1;
        }
        for c in 0..cells {
            self.cell_start[c + 1] += self.cell_start[c];
        }
        self.items.clear();
        self.items.resize(n, 0);
        // Fill using cell_start[c] as a cursor, then shift the starts back by one cell:
        // this avoids a second array of cursors.
        let (starts, items) = (&mut self.cell_start[..cells], &mut self.items[..]);
        for (i, &c) in self.cell_of.iter().enumerate() {
            let cursor = &mut starts[c as usize];
            items[*cursor as usize] = i as u32;
            *cursor += 1;
        }
        for c in (1..=cells).rev() {
            self.cell_start[c] = self.cell_start[c - 1];
        }
        self.cell_start[0] = 0;
    }

    fn size_cells(&mut self, n: usize, reach: f64, table: &Table) {
        // Cells at least `reach` wide, but never more cells than balls: a huge table
        // with tiny balls must not allocate a huge empty grid, and in a sparse gas a
        // pass over mostly empty cells (and a start index per cell scattered over more
        // memory) costs more than testing a few more candidates per cell.
        let max_cells = n.max(1024) as f64;
        let mut cell = reach.max(f64::MIN_POSITIVE);
        let area = table.width * table.height;
        if area / (cell * cell) > max_cells {
            cell = (area / max_cells).sqrt();
        }
        // Each axis bounded on its own too: a table far longer than wide (a 1e46 x 400
        // table) would otherwise ask for ~1e44 cells along x and one along y, a count
        // that overflows. Fewer cells only makes each wider, never narrower than `cell`.
        let nx = (table.width / cell).floor().clamp(1.0, max_cells);
        let ny = (table.height / cell)
            .floor()
            .clamp(1.0, (max_cells / nx).floor().max(1.0));
        let (nx, ny) = (nx as usize, ny as usize);
        self.nx = nx;
        self.ny = ny;
        self.periodic = table.any_periodic().then_some(*table);
        self.inv_w = nx as f64 / table.width;
        self.inv_h = ny as f64 / table.height;
    }

    /// The same binning as [`Grid::rebuild`], on the pool's threads when one is given.
    /// The result is identical (within a cell, balls stay in ascending index order).
    /// `cell_of` is scratch kept by the caller, so that rebuilding allocates nothing
    /// in steady state.
    pub fn rebuild_with(
        &mut self,
        x: &[f64],
        y: &[f64],
        reach: f64,
        table: &Table,
        pool: Option<&rayon::ThreadPool>,
        cell_of: &mut Vec<u32>,
    ) {
        use rayon::prelude::*;
        let Some(pool) = pool else {
            self.rebuild(x, y, reach, table);
            return;
        };
        let n = x.len();
        self.size_cells(n, reach, table);
        let cells = self.nx * self.ny;
        cell_of.resize(n, 0);
        let this = &*self;
        pool.install(|| {
            let bl = block_len(n);
            cell_of
                .par_chunks_mut(bl)
                .zip(x.par_chunks(bl).zip(y.par_chunks(bl)))
                .for_each(|(c, (x, y))| {
                    for k in 0..c.len() {
                        c[k] = this.cell_index(x[k], y[k]) as u32;
                    }
                })
        });
        let cell_of = &cell_of[..];
        self.cell_start.clear();
        self.cell_start.resize(cells + 1, 0);
        self.items.clear();
        self.items.resize(n, 0);
        // Each thread owns a contiguous range of cells: it scans every ball but counts
        // and places only its own, so no two threads write the same memory.
        let parts = pool.current_num_threads().clamp(1, cells);
        let bounds: Vec<usize> = (0..=parts).map(|t| t * cells / parts).collect();
        // Count, then prefix-sum within the range: afterwards cell_start[c + 1] is the
        // end of cell c counted from the start of its range.
        {
            let mut slices = Vec::with_capacity(parts);
            let mut rest = &mut self.cell_start[1..];
            for t in 0..parts {
                let (a, b) = rest.split_at_mut(bounds[t + 1] - bounds[t]);
                slices.push((bounds[t], a));
                rest = b;
            }
            pool.install(|| {
                slices.par_iter_mut().for_each(|(c0, counts)| {
                    let (c0, len) = (*c0, counts.len());
                    for &c in cell_of {
                        let k = (c as usize).wrapping_sub(c0);
                        if k < len {
                            counts[k] += 1;
                        }
                    }
                    let mut sum = 0;
                    for v in counts.iter_mut() {
                        sum += *v;
                        *v = sum;
                    }
                })
            });
        }
        let mut offsets = Vec::with_capacity(parts + 1);
        let mut total = 0u32;
        for t in 0..parts {
            offsets.push(total);
            total += self.cell_start[bounds[t + 1]];
        }
        offsets.push(total);
        // Fill: range t owns cell_start[c0..c1] as write cursors and its own stretch of
        // items.
        {
            let mut slices = Vec::with_capacity(parts);
            let mut starts = &mut self.cell_start[..cells];
            let mut items = &mut self.items[..];
            for t in 0..parts {
                let (a, b) = starts.split_at_mut(bounds[t + 1] - bounds[t]);
                starts = b;
                let (ia, ib) = items.split_at_mut((offsets[t + 1] - offsets[t]) as usize);
                items = ib;
                slices.push((bounds[t], offsets[t], a, ia));
            }
            pool.install(|| {
                slices.par_iter_mut().for_each(|(c0, off, starts, items)| {
                    let (c0, off, len) = (*c0, *off, starts.len());
                    // starts[k] (k >= 1) is the local end of cell c0 + k - 1, i.e. the
                    // local start of cell c0 + k; starts[0] still belongs to the
                    // previous range's count.
                    starts[0] = 0;
                    for (i, &c) in cell_of.iter().enumerate() {
                        let k = (c as usize).wrapping_sub(c0);
                        if k < len {
                            items[starts[k] as usize] = i as u32;
                            starts[k] += 1;
                        }
                    }
                    // Each cursor now holds the end of its cell, the start of the next.
                    for k in (1..len).rev() {
                        starts[k] = starts[k - 1] + off;
                    }
                    starts[0] = off;
                })
            });
        }
        self.cell_start[cells] = n as u32;
    }

    /// Grid width and height in cells.
    #[cfg(any(test, feature = "internals"))]
    pub fn dims(&self) -> (usize, usize) {
        (self.nx, self.ny)
    }

    /// Cell coordinates, clamped: a ball pushed into or past a wall is binned with the
    /// edge cells, which still compares it against every ball it could touch.
    #[inline]
    pub fn cell_coords(&self, x: f64, y: f64) -> (usize, usize) {
        // `as usize` saturates (negative and NaN become 0), so no input can index out.
        let cx = ((x * self.inv_w) as usize).min(self.nx - 1);
        let cy = ((y * self.inv_h) as usize).min(self.ny - 1);
        (cx, cy)
    }

    #[inline]
    fn cell_index(&self, x: f64, y: f64) -> usize {
        let (cx, cy) = self.cell_coords(x, y);
        cy * self.nx + cx
    }

    #[inline]
    pub fn cell(&self, cx: usize, cy: usize) -> &[u32] {
        let c = cy * self.nx + cx;
        &self.items[self.cell_start[c] as usize..self.cell_start[c + 1] as usize]
    }

    /// Whether row `gy` of the stencil around row `cy` lies across the y edge (with
    /// fewer than three rows, every row may).
    #[inline]
    fn across_y(&self, cy: usize, gy: usize) -> bool {
        self.ny < 3 || (cy == 0 && gy == self.ny - 1) || (cy == self.ny - 1 && gy == 0)
    }

    /// Calls `f(j)` for every ball `j` in the 3x3 block of cells around (x, y),
    /// including the ball at (x, y) itself if it is binned.
    #[inline]
    pub fn for_each_near(&self, x: f64, y: f64, mut f: impl FnMut(usize)) {
        let (cx, cy) = self.cell_coords(x, y);
        if let Some(t) = &self.periodic {
            let (xs, nxs) = stencil(cx, self.nx, t.is_periodic(0));
            let (ys, nys) = stencil(cy, self.ny, t.is_periodic(1));
            for &gy in &ys[..nys] {
                if t.is_sheared() && self.across_y(cy, gy) {
                    // The cells across a sheared edge are displaced: the whole row.
                    for gx in 0..self.nx {
                        for &j in self.cell(gx, gy) {
                            f(j as usize);
                        }
                    }
                    continue;
                }
                for &gx in &xs[..nxs] {
                    for &j in self.cell(gx, gy) {
                        f(j as usize);
                    }
                }
            }
            return;
        }
        let x0 = cx.saturating_sub(1);
        let x1 = (cx + 1).min(self.nx - 1);
        let y0 = cy.saturating_sub(1);
        let y1 = (cy + 1).min(self.ny - 1);
        for gy in y0..=y1 {
            let row = gy * self.nx;
            // Cells x0..=x1 of one row are contiguous in `items`.
            let s = self.cell_start[row + x0] as usize;
            let e = self.cell_start[row + x1 + 1] as usize;
            for &j in &self.items[s..e] {
                f(j as usize);
            }
        }
    }

    /// Calls `f(i, j)` once for every unordered pair of balls in the same or adjacent
    /// cells (a half stencil: own cell, then east, south-west, south, south-east).
    #[cfg(any(test, feature = "internals"))]
    pub fn for_each_candidate_pair(&self, mut f: impl FnMut(usize, usize)) {
        let (nx, ny) = (self.nx, self.ny);
        if self.periodic.is_some() {
            // The full stencil, each pair from its lower ball: the wrapped stencil is
            // symmetric and lists distinct cells, so every pair comes exactly once.
            for cy in 0..ny {
                for cx in 0..nx {
                    for &i in self.cell(cx, cy) {
                        self.for_each_near_cell(cx, cy, |j| {
                            if (i as usize) < j {
                                f(i as usize, j);
                            }
                        });
                    }
                }
            }
            return;
        }
        let (starts, items) = (&self.cell_start[..], &self.items[..]);
        let cell = |c: usize| &items[starts[c] as usize..starts[c + 1] as usize];
        for cy in 0..ny {
            let row = cy * nx;
            for cx in 0..nx {
                let c = row + cx;
                // Most cells of a sparse scene are empty: skip them at the cost of one
                // comparison.
                if starts[c] == starts[c + 1] {
                    continue;
                }
                let own = cell(c);
                for (a, &i) in own.iter().enumerate() {
                    for &j in &own[a + 1..] {
                        f(i as usize, j as usize);
                    }
                }
                let mut visit = |other: &[u32]| {
                    for &i in own {
                        for &j in other {
                            f(i as usize, j as usize);
                        }
                    }
                };
                if cx + 1 < nx {
                    visit(cell(c + 1));
                }
                if cy + 1 < ny {
                    let below = c + nx;
                    if cx > 0 {
                        visit(cell(below - 1));
                    }
                    visit(cell(below));
                    if cx + 1 < nx {
                        visit(cell(below + 1));
                    }
                }
            }
        }
    }

    /// Calls `f(j)` for every ball of the cells around cell `(cx, cy)` (periodic grid),
    /// a row at a time: the cells of a row are one contiguous run of `items`, or two
    /// where the stencil wraps around the x edge.
    #[inline]
    fn for_each_near_cell(&self, cx: usize, cy: usize, mut f: impl FnMut(usize)) {
        let t = self.periodic.as_ref();
        let nx = self.nx;
        let spans: ([(usize, usize); 2], usize) = if t.is_some_and(|t| t.is_periodic(0)) {
            if nx < 3 {
                ([(0, nx - 1), (0, 0)], 1)
            } else if cx == 0 {
                ([(0, 1), (nx - 1, nx - 1)], 2)
            } else if cx + 1 == nx {
                ([(nx - 2, nx - 1), (0, 0)], 2)
            } else {
                ([(cx - 1, cx + 1), (0, 0)], 1)
            }
        } else {
            ([(cx.saturating_sub(1), (cx + 1).min(nx - 1)), (0, 0)], 1)
        };
        let (ys, nys) = stencil(cy, self.ny, t.is_some_and(|t| t.is_periodic(1)));
        let sheared = t.is_some_and(|t| t.is_sheared());
        for &gy in &ys[..nys] {
            let row = gy * nx;
            // Across a sheared box's y edge the cells are displaced by the shift: the
            // whole row is searched (a row of cells is one contiguous run).
            let whole = [(0, nx - 1), (0, 0)];
            let spans = if sheared && self.across_y(cy, gy) {
                (&whole, 1)
            } else {
                (&spans.0, spans.1)
            };
            for &(a, b) in &spans.0[..spans.1] {
                let s = self.cell_start[row + a] as usize;
                let e = self.cell_start[row + b + 1] as usize;
                for &j in &self.items[s..e] {
                    f(j as usize);
                }
            }
        }
    }

    /// Every pair `(i, j)`, `i < j`, whose centres are at most `r_i + r_j + slack`
    /// apart (minimum image on periodic axes), in ascending `(i, j)` order, into `out`
    /// (cleared first).
    pub fn touching_pairs(
        &self,
        x: &[f64],
        y: &[f64],
        r: &[f64],
        slack: f64,
        out: &mut Vec<(u32, u32)>,
    ) {
        out.clear();
        if let Some(t) = &self.periodic {
            for cy in 0..self.ny {
                for cx in 0..self.nx {
                    for &i in self.cell(cx, cy) {
                        let iu = i as usize;
                        self.for_each_near_cell(cx, cy, |ju| {
                            if iu < ju {
                                let (dx, dy) = t.min_image(x[ju] - x[iu], y[ju] - y[iu]);
                                let reach = r[iu] + r[ju] + slack;
                                if dx * dx + dy * dy <= reach * reach {
                                    out.push((i, ju as u32));
                                }
                            }
                        });
                    }
                }
            }
            out.sort_unstable();
            return;
        }
        let (nx, ny) = (self.nx, self.ny);
        let (starts, items) = (&self.cell_start[..], &self.items[..]);
        let mut test = |i: u32, xi: f64, yi: f64, ri: f64, others: &[u32]| {
            for &j in others {
                let ju = j as usize;
                let (dx, dy) = (x[ju] - xi, y[ju] - yi);
                let reach = ri + r[ju] + slack;
                if dx * dx + dy * dy <= reach * reach {
                    out.push(if i < j { (i, j) } else { (j, i) });
                }
            }
        };
        // The half stencil of `for_each_candidate_pair`, ball by ball of each cell: the
        // south-west, south and south-east cells are contiguous in `items`.
        for cy in 0..ny {
            let row = cy * nx;
            for cx in 0..nx {
                let c = row + cx;
                let (s, e) = (starts[c] as usize, starts[c + 1] as usize);
                if s == e {
                    continue;
                }
                let east = if cx + 1 < nx {
                    &items[e..starts[c + 2] as usize]
                } else {
                    &[]
                };
                let below = if cy + 1 < ny {
                    let b = c + nx;
                    let first = if cx > 0 { b - 1 } else { b };
                    let last = if cx + 1 < nx { b + 1 } else { b };
                    &items[starts[first] as usize..starts[last + 1] as usize]
                } else {
                    &[]
                };
                for a in s..e {
                    let i = items[a];
                    let iu = i as usize;
                    let (xi, yi, ri) = (x[iu], y[iu], r[iu]);
                    test(i, xi, yi, ri, &items[a + 1..e]);
                    test(i, xi, yi, ri, east);
                    test(i, xi, yi, ri, below);
                }
            }
        }
        out.sort_unstable();
    }
}

/// The O(N^2) reference: every pair within `r_i + r_j + slack`, ascending. Kept only as
/// a test oracle for the grid.
#[cfg(any(test, feature = "internals"))]
pub fn touching_pairs_brute_force(x: &[f64], y: &[f64], r: &[f64], slack: f64) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for i in 0..x.len() {
        for j in i + 1..x.len() {
            let dx = x[j] - x[i];
            let dy = y[j] - y[i];
            let reach = r[i] + r[j] + slack;
            if dx * dx + dy * dy <= reach * reach {
                out.push((i as u32, j as u32));
            }
        }
    }
    out
}

/// The most balls per block of a [`NeighbourList`], the unit of parallel work in the
/// list build and in the models' passes over it: large enough to amortise scheduling,
/// small enough to balance two cores on uneven scenes.
pub const BLOCK: usize = 4096;

/// How far, in skins, the images of a sheared box may slide before its neighbour list
/// is rebuilt: pairs across the sliding edge are listed with that much more reach in x
/// (a few more pairs per ball of the edge rows), so that the slide, often faster than
/// the balls, seldom forces a rebuild of the whole list.
pub const SLIDE_ROOM: f64 = 8.0;

/// Appends a pair to a block's list, growing it by a quarter (and 64) when full
/// rather than doubling it: the list's memory stays close to its longest build.
#[inline]
fn push_pair(pairs: &mut Vec<(u32, u32)>, pair: (u32, u32)) {
    if pairs.len() == pairs.capacity() {
        pairs.reserve_exact(pairs.len() / 4 + 64);
    }
    pairs.push(pair);
}

/// Balls per block for `n` balls: [`BLOCK`], or less for small scenes so that there are
/// some thirty blocks to share between threads. A function of `n` only, never of the
/// thread count, so that results do not depend on the thread count.
pub fn block_len(n: usize) -> usize {
    (n / 32).next_multiple_of(64).clamp(256, BLOCK)
}

/// The candidate pairs `(i, j)`, `i < j`, of one block of consecutive balls `i`, in
/// ascending `(i, j)` order.
#[derive(Debug, Clone, Default)]
pub struct ListBlock {
    pairs: Vec<(u32, u32)>,
    /// The last block holding a ball `j` of one of these pairs.
    last_target: usize,
}

impl ListBlock {
    #[inline]
    pub fn pairs(&self) -> &[(u32, u32)] {
        &self.pairs
    }
}

/// A Verlet neighbour list: every pair of balls whose surfaces were within `skin` of
/// each other (minimum image on periodic axes) when the list was built. Until some ball may have moved half the skin, no
/// pair outside the list can touch, so a step tests a few listed pairs per ball instead
/// of rebinning every ball and scanning nine cells.
///
/// The caller reports how far balls may have moved ([`NeighbourList::moved`]) and asks
/// for a current list ([`NeighbourList::update`]) before using it; the list rebuilds
/// only when needed. Pairs are stored by blocks of [`block_len`] consecutive lower indices,
/// in ascending `(i, j)` order, the same whatever the thread count.
#[derive(Debug, Clone, Default)]
pub struct NeighbourList {
    grid: Grid,
    cell_of: Vec<u32>,
    blocks: Vec<ListBlock>,
    /// Per block `t`: no block before this one has a pair with a ball in `t`.
    first_source: Vec<u32>,
    skin: f64,
    /// A bound on how far any ball has moved since the list was built.
    moved: f64,
    /// In a sheared box, how far the images across the y edge slid since the build,
    /// and how far they may (the extra x reach of the pairs listed across that edge).
    slid: f64,
    slide_room: f64,
    valid: bool,
    len: usize,
    uniform_radius: Option<f64>,
    rebuilds: u64,
}

impl NeighbourList {
    pub fn new() -> NeighbourList {
        NeighbourList::default()
    }

    /// Forget the list: balls were added, removed, moved or resized from outside.
    pub fn invalidate(&mut self) {
        self.valid = false;
    }

    /// Adds `distance`, a bound on how far any single ball moved since the last call.
    #[inline]
    pub fn moved(&mut self, distance: f64) {
        self.moved += distance;
    }

    /// Reports that a sheared box's images slid by `distance` in x: pairs across the
    /// y edge were listed with room for [`SLIDE_ROOM`] skins of it.
    pub fn slid(&mut self, distance: f64) {
        self.slid += distance;
    }

    /// Whether the list still holds every pair of `n` balls whose surfaces touch or
    /// overlap. Two balls each moving less than half the skin close their gap by less
    /// than the skin; the margin of 0.2% covers the rounding of the distance tests.
    pub fn is_current(&self, n: usize) -> bool {
        self.valid
            && self.len == n
            && 2.0 * self.moved < 0.998 * self.skin
            && self.slid < 0.998 * self.slide_room
    }

    /// Makes the list current for these balls, rebuilding it (on the pool's threads
    /// when given) if it is not or if the skin changed; returns whether it rebuilt.
    #[cfg(any(test, feature = "internals"))]
    pub fn update(
        &mut self,
        x: &[f64],
        y: &[f64],
        r: &[f64],
        skin: f64,
        table: &Table,
        pool: Option<&rayon::ThreadPool>,
    ) -> bool {
        self.update_masked(x, y, r, skin, table, pool, &[])
    }

    /// [`NeighbourList::update`] listing no pair with a ball whose entry in `in_play`
    /// is false (balls out of play); an empty `in_play` leaves out none. A change of
    /// the mask needs [`NeighbourList::invalidate`] first.
    #[allow(clippy::too_many_arguments)]
    pub fn update_masked(
        &mut self,
        x: &[f64],
        y: &[f64],
        r: &[f64],
        skin: f64,
        table: &Table,
        pool: Option<&rayon::ThreadPool>,
        in_play: &[bool],
    ) -> bool {
        if self.is_current(x.len()) && skin == self.skin {
            return false;
        }
        self.build(x, y, r, skin, table, pool, in_play);
        true
    }

    #[allow(clippy::too_many_arguments)]
    fn build(
        &mut self,
        x: &[f64],
        y: &[f64],
        r: &[f64],
        skin: f64,
        table: &Table,
        pool: Option<&rayon::ThreadPool>,
        in_play: &[bool],
    ) {
        let out = |i: usize| !in_play.is_empty() && !in_play[i];
        use rayon::prelude::*;
        let n = x.len();
        let r_max = r.iter().copied().fold(0.0, f64::max);
        let uniform = r
            .first()
            .copied()
            .filter(|&r0| r.iter().all(|&ri| ri == r0));
        self.grid
            .rebuild_with(x, y, 2.0 * r_max + skin, table, pool, &mut self.cell_of);
        let bl = block_len(n);
        self.blocks.resize_with(n.div_ceil(bl), ListBlock::default);
        let grid = &self.grid;
        let fill = |(b, block): (usize, &mut ListBlock)| {
            let first = b * bl;
            let last = (first + bl).min(n);
            // Room for the last build's pairs and a quarter more, grown by a quarter
            // when a build needs more (`push_pair`), not doubled, so that a slowly
            // growing list does not double its memory; shrunk below only when far too
            // big (after the balls spread out), so that a list whose length
            // fluctuates from build to build settles at its largest and stops
            // reallocating.
            let room = |len: usize| len + len / 4 + 64;
            let built = block.pairs.len();
            block.pairs.clear();
            // Grown ahead only when the last build's length came within an eighth
            // (and 64) of the capacity: a capacity chased to each new longest build
            // would grow by a few pairs at a time.
            if block.pairs.capacity() < built + built / 8 + 64 {
                block.pairs.reserve_exact(room(built));
            }
            for i in first..last {
                if out(i) {
                    continue;
                }
                let (xi, yi, ri) = (x[i], y[i], r[i]);
                let seg = block.pairs.len();
                let (cx, cy) = grid.cell_coords(xi, yi);
                if let Some(t) = &grid.periodic {
                    let room = SLIDE_ROOM * skin;
                    grid.for_each_near_cell(cx, cy, |ju| {
                        if ju > i && !out(ju) {
                            let (dx, dy) = t.min_image(x[ju] - xi, y[ju] - yi);
                            let reach = ri + r[ju] + skin;
                            // Across a sheared edge the pair's x distance changes with
                            // the slide too: listed within `room` more of it in x.
                            if dx * dx + dy * dy <= reach * reach
                                || (t.is_sheared()
                                    && (y[ju] - yi - dy).abs() > 0.5 * t.height
                                    && dy.abs() <= reach
                                    && dx.abs() <= reach + room)
                            {
                                push_pair(&mut block.pairs, (i as u32, ju as u32));
                            }
                        }
                    });
                    block.pairs[seg..].sort_unstable();
                    continue;
                }
                let x0 = cx.saturating_sub(1);
                let x1 = (cx + 1).min(grid.nx - 1);
                let y0 = cy.saturating_sub(1);
                let y1 = (cy + 1).min(grid.ny - 1);
                for gy in y0..=y1 {
                    let row = gy * grid.nx;
                    let s = grid.cell_start[row + x0] as usize;
                    let e = grid.cell_start[row + x1 + 1] as usize;
                    for &j in &grid.items[s..e] {
                        let ju = j as usize;
                        if ju <= i || out(ju) {
                            continue;
                        }
                        let (dx, dy) = (x[ju] - xi, y[ju] - yi);
                        let reach = ri + r[ju] + skin;
                        if dx * dx + dy * dy <= reach * reach {
                            push_pair(&mut block.pairs, (i as u32, j));
                        }
                    }
                }
                block.pairs[seg..].sort_unstable();
            }
            block.last_target = block
                .pairs
                .iter()
                .map(|p| p.1 as usize / bl)
                .fold(b, usize::max);
            let len = block.pairs.len();
            if block.pairs.capacity() > 2 * room(len) {
                block.pairs.shrink_to(room(len));
            }
        };
        match pool {
            Some(pool) => pool.install(|| self.blocks.par_iter_mut().enumerate().for_each(fill)),
            None => self.blocks.iter_mut().enumerate().for_each(fill),
        }
        // first_source[t]: the first block whose pairs may reach block t. The running
        // maximum of the blocks' last targets never decreases, so one sweep finds all.
        self.first_source.clear();
        let (mut b, mut reach) = (0, 0);
        for t in 0..self.blocks.len() {
            while b < t && reach.max(self.blocks[b].last_target) < t {
                reach = reach.max(self.blocks[b].last_target);
                b += 1;
            }
            self.first_source.push(b as u32);
        }
        self.skin = skin;
        self.moved = 0.0;
        self.slid = 0.0;
        self.slide_room = if table.is_sheared() {
            SLIDE_ROOM * skin
        } else {
            f64::INFINITY
        };
        self.valid = true;
        self.len = n;
        self.uniform_radius = uniform;
        self.rebuilds += 1;
    }

    /// The pairs in blocks of [`NeighbourList::block_len`] consecutive lower indices
    /// (the last shorter).
    pub fn blocks(&self) -> &[ListBlock] {
        &self.blocks
    }

    /// The blocks before block `t` that may hold pairs whose higher ball is in `t`.
    pub fn sources(&self, t: usize) -> std::ops::Range<usize> {
        self.first_source[t] as usize..t
    }

    /// Balls per block of the current list: [`block_len`] of its ball count.
    pub fn block_len(&self) -> usize {
        block_len(self.len)
    }

    /// Every listed pair, in ascending `(i, j)` order.
    pub fn pairs(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.blocks.iter().flat_map(|b| b.pairs.iter().copied())
    }

    /// The radius shared by every ball when the list was built, if they all share one:
    /// lets the hot loops skip loading radii.
    pub fn uniform_radius(&self) -> Option<f64> {
        self.uniform_radius
    }

    /// Rebuilds so far (for tuning the skin).
    #[cfg(any(test, feature = "internals"))]
    pub fn rebuilds(&self) -> u64 {
        self.rebuilds
    }
}
