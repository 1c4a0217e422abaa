//! The cell grid of the event-chain sampler: the periodic box cut into `nx` by `ny`
//! cells whose sides are at least the largest contact distance `d_max`, each holding
//! its disks' positions and radii in place (no index to follow from a cell to a disk
//! in the search).
//!
//! A disk moving along `+x` can only strike a disk whose centre lies within `d_max`
//! across (its own row of cells and the two beside it) and ahead of it (its own column
//! and those after it), so the search walks the columns ahead, three cells each, and
//! stops at the first column whose nearest possible contact lies beyond the best one
//! found. Motion along `+y` is the same walk with the axes exchanged; the two are one
//! generic function over the axis, so each compiles to straight code.
//!
//! Layout: cell `c` (`c = row * nx + col`) owns slots `c * cap .. (c + 1) * cap`; its
//! data block `c * per * cap ..` holds the `cap` x positions, then the `cap` y
//! positions, then (`per = 3`, disks of several sizes) the `cap` radii of its disks, the
//! first `count[c]` of each in use. Disks of one size store no radii (`per = 2`): with
//! the usual four slots a cell's block is then 64 bytes, and the blocks start on 64-byte
//! boundaries, so a cell the search visits is one cache line (with radii it was one and
//! a half on average, and a third of the cache held radii never read). A disk's slot
//! changes only when it crosses into another cell (removal fills the hole with the
//! cell's last disk). Positions lie in `[0, width) x [0, height)`.

/// No disk.
pub const NONE: u32 = u32::MAX;

/// Why a configuration does not fit the grid.
#[derive(Debug, Clone, PartialEq)]
pub enum GridError {
    /// A cell holds more disks than the geometric bound allows: only an overlapping
    /// configuration can do that.
    Crowded,
}

/// One step of a chain: how far the mover goes, and whom it strikes there.
#[derive(Debug, Clone, Copy)]
pub struct Step {
    /// Displacement of the mover along the chain's direction.
    pub dist: f64,
    /// The disk struck at the end of it (its identity), or [`NONE`].
    pub target: u32,
    /// Offset along the direction between the two centres at contact,
    /// `sqrt(d^2 - delta_across^2)` (the pressure estimator's term).
    pub offset: f64,
    /// The step stopped short of the remaining displacement without a contact: the
    /// search covers less than one box length ahead, so a longer free flight is cut in
    /// pieces (the same disk moves on; no lifting).
    pub capped: bool,
}

pub struct Grid {
    /// Box sides, `[width, height]`.
    pub len: [f64; 2],
    /// Cells along x and y (each at least 3, so that the three rows of a search are
    /// distinct and no pair meets two images of each other).
    pub n: [usize; 2],
    /// Cell sides and their inverses.
    pub side: [f64; 2],
    inv_side: [f64; 2],
    /// Slots per cell.
    pub cap: usize,
    /// The largest contact distance, `2 r_max`.
    pub d_max: f64,
    /// Every disk has the same radius: the contact distance is `d_max` for every
    /// pair, and the search reads no radii.
    pub mono: bool,
    /// Margin on the lower bound of a column's nearest contact, for the cell of a
    /// position near an edge being decided by a rounded product.
    slack: [f64; 2],
    count: Vec<u32>,
    /// Coordinates stored per slot: 2 (x, y) for disks of one size, 3 (x, y, radius).
    per: usize,
    /// The radius of every disk when they are all one size.
    r_mono: f64,
    /// The cells' blocks, from `data[base]` on, `base` putting that element on a 64-byte
    /// boundary (the vector is allocated once, with room for the shift, and never
    /// grows, so the boundary holds for the grid's life).
    data: Vec<f64>,
    base: usize,
    /// Disk identity per slot.
    id: Vec<u32>,
    /// Slot per disk identity.
    slot: Vec<u32>,
}

impl Grid {
    /// An empty grid for disks of contact distances between `d_min` and `d_max` in a
    /// `width` by `height` periodic box, or `None` when the box is narrower than three
    /// largest contact distances on either side.
    pub fn new(width: f64, height: f64, d_min: f64, d_max: f64, disks: usize) -> Option<Grid> {
        // Sides a hair above d_max: round-off in a cell index then never hides a
        // contact across two rows.
        let target = d_max * (1.0 + 1e-9);
        let nx = (width / target).floor();
        let ny = (height / target).floor();
        if !(nx >= 3.0 && ny >= 3.0) || nx * ny > (u32::MAX / 64) as f64 {
            return None;
        }
        let n = [nx as usize, ny as usize];
        let side = [width / nx, height / ny];
        // Split the cell into m by m squares of diagonal below d_min: each holds at
        // most one centre (two in one would be closer than any contact distance), so
        // m^2 bounds a cell's disks.
        let longest = side[0].max(side[1]);
        let m = (longest * std::f64::consts::SQRT_2 / d_min * (1.0 + 1e-9)).floor() as usize + 1;
        // Rounded up to a power of two: the search's index arithmetic is then shifts.
        let cap = (m * m).min(disks.max(1)).next_power_of_two();
        let cells = n[0] * n[1];
        let mono = d_min == d_max;
        let per = if mono { 2 } else { 3 };
        let data = vec![0.0; cells * per * cap + 7];
        // Elements (8 bytes) to the next 64-byte boundary.
        let base = (64 - data.as_ptr() as usize % 64) % 64 / 8;
        Some(Grid {
            len: [width, height],
            n,
            side,
            inv_side: [1.0 / side[0], 1.0 / side[1]],
            cap,
            d_max,
            mono,
            slack: [1e-9 * width, 1e-9 * height],
            count: vec![0; cells],
            per,
            r_mono: 0.5 * d_max,
            data,
            base,
            id: vec![NONE; cells * cap],
            slot: vec![NONE; disks],
        })
    }

    /// Bytes held, for the memory per disk.
    #[cfg(any(test, feature = "internals"))]
    pub fn bytes(&self) -> usize {
        self.count.capacity() * 4
            + self.data.capacity() * 8
            + self.id.capacity() * 4
            + self.slot.capacity() * 4
    }

    /// The cell index along `axis` of coordinate `u` (in `[0, len)`).
    #[inline(always)]
    fn index(&self, axis: usize, u: f64) -> usize {
        // Through i64: a single truncating conversion (u is never negative).
        (((u * self.inv_side[axis]) as i64) as usize).min(self.n[axis] - 1)
    }

    #[inline(always)]
    fn cell_of(&self, x: f64, y: f64) -> usize {
        self.index(1, y) * self.n[0] + self.index(0, x)
    }

    /// Where in `data` coordinate `k` (0 x, 1 y, 2 radius; `k < per`) of slot `s` lives.
    #[inline(always)]
    fn at(&self, s: usize, k: usize) -> usize {
        let cell = s / self.cap;
        self.base + cell * self.per * self.cap + k * self.cap + (s - cell * self.cap)
    }

    /// Coordinate `k` of slot `s`, the radius of a disk of one size included.
    #[inline(always)]
    fn value(&self, s: usize, k: usize) -> f64 {
        if k < self.per {
            self.data[self.at(s, k)]
        } else {
            self.r_mono
        }
    }

    /// Puts disk `id` at `(x, y)` (inside the box) with radius `r`.
    pub fn insert(&mut self, id: u32, x: f64, y: f64, r: f64) -> Result<(), GridError> {
        let c = self.cell_of(x, y);
        self.put(c, id, [x, y, r])
    }

    fn put(&mut self, c: usize, id: u32, v: [f64; 3]) -> Result<(), GridError> {
        let k = self.count[c] as usize;
        if k == self.cap {
            return Err(GridError::Crowded);
        }
        self.count[c] += 1;
        let s = c * self.cap + k;
        for (q, value) in v.into_iter().take(self.per).enumerate() {
            let i = self.at(s, q);
            self.data[i] = value;
        }
        self.id[s] = id;
        self.slot[id as usize] = s as u32;
        Ok(())
    }

    /// Takes slot `s` out of its cell (the cell's last disk fills the hole).
    fn remove(&mut self, s: usize) {
        let c = s / self.cap;
        let last = c * self.cap + self.count[c] as usize - 1;
        if last != s {
            for q in 0..self.per {
                let (from, to) = (self.at(last, q), self.at(s, q));
                self.data[to] = self.data[from];
            }
            let moved = self.id[last];
            self.id[s] = moved;
            self.slot[moved as usize] = s as u32;
        }
        self.id[last] = NONE;
        self.count[c] -= 1;
    }

    /// The slot of disk `id`.
    #[inline(always)]
    pub fn slot_of(&self, id: u32) -> u32 {
        self.slot[id as usize]
    }

    /// The disk in slot `s`.
    #[cfg(debug_assertions)]
    pub fn id_at(&self, s: u32) -> u32 {
        self.id[s as usize]
    }

    /// Position and radius of disk `id`.
    pub fn disk(&self, id: u32) -> [f64; 3] {
        let s = self.slot[id as usize] as usize;
        [0, 1, 2].map(|q| self.value(s, q))
    }

    /// The next step of a chain along `+x` (`AX = 0`) or `+y` (`AX = 1`) for the disk
    /// in slot `mover`, with `remaining` displacement left in the chain. `CAP` is the
    /// grid's slots per cell as a constant (index arithmetic by shifts, no bounds
    /// checks inside a cell), or 0 for any; `MONO` that every disk has the same radius.
    ///
    /// The mover strikes disk `j` after moving `s = da - sqrt(d^2 - db^2)`, `da` and
    /// `db` the offsets of `j` along and across (nearest image across; first image
    /// ahead along), for `|db| < d` and `da > 0`; a disk at `da <= 0` lies behind (or
    /// is the mover) and is never struck. The smallest `s` wins, ties (exact lattices)
    /// going to the lower identity, so the outcome does not depend on the order of
    /// disks within cells. Round-off can leave `s` a hair below zero at a contact: it
    /// moves the mover by zero.
    #[inline(always)]
    pub fn next_step<const AX: usize, const CAP: usize, const MONO: bool>(
        &self,
        mover: u32,
        remaining: f64,
    ) -> Step {
        let across = 1 - AX;
        let cap = if CAP == 0 { self.cap } else { CAP };
        debug_assert_eq!(cap, self.cap);
        debug_assert!(!MONO || self.mono);
        // A grid of one size searched without `MONO` (a capacity other than four)
        // takes the contact distance from the stored radii it does not have: so
        // `mono` decides here too (a branch the predictor always gets right).
        let mono = MONO || self.mono;
        let per = if MONO { 2 } else { self.per };
        let data = &self.data[self.base..];
        let ms = mover as usize;
        let cell = ms / cap;
        let k = ms % cap;
        let block = cell * per * cap;
        let a = data[block + AX * cap + k];
        let b = data[block + across * cap + k];
        let r = if mono { self.r_mono } else { data[block + 2 * cap + k] };
        let (na, nb) = (self.n[AX], self.n[across]);
        // The mover's column and row, from its position exactly as `insert` and
        // `shift` filed it.
        let (ia, ib) = (self.index(AX, a), self.index(across, b));
        // Cell strides along and across.
        let nx = self.n[0];
        let (sa, sb) = if AX == 0 { (1, nx) } else { (nx, 1) };
        let (len_a, len_b) = (self.len[AX], self.len[across]);
        // The three rows of the strip: their first cells, and the across coordinate
        // of the mover as seen from each (shifted by a box length across the edge).
        let below = if ib == 0 {
            ((nb - 1) * sb, b + len_b)
        } else {
            ((ib - 1) * sb, b)
        };
        let above = if ib + 1 == nb {
            (0, b - len_b)
        } else {
            ((ib + 1) * sb, b)
        };
        let rows = [below, (ib * sb, b), above];
        let w = self.side[AX];
        // Nearest possible contact in column ia + j: its lower edge less d_max.
        let reach = a + self.d_max + self.slack[AX];
        // The search covers the columns ia .. ia + na - 1; the mover's own column seen
        // again one box length on bounds a free flight.
        let limit = (ia + na) as f64 * w - reach;
        let (mut best, capped) = if limit < remaining {
            (limit, true)
        } else {
            (remaining, false)
        };
        let mut target = NONE;
        let mut offset = 0.0;
        let ids = &self.id[..];
        let counts = &self.count[..];
        for j in 0..na {
            let mut col = ia + j;
            // The mover's along coordinate as seen from this column's disks.
            let mut a_here = a;
            if col >= na {
                col -= na;
                a_here -= len_a;
            }
            if j > 0 && (ia + j) as f64 * w - reach > best {
                break;
            }
            for &(row, b_here) in &rows {
                let c = col * sa + row;
                let count = (counts[c] as usize).min(cap);
                let cell = &data[c * per * cap..(c + 1) * per * cap];
                for q in 0..count {
                    // Outside the strip `h2 < 0` and the square root is NaN, which no
                    // comparison accepts; a disk behind (`da <= 0`, the mover itself
                    // included) is never struck. The two tests join in one branch
                    // (`&`, not `&&`), taken only by a new best: rare, so predicted.
                    let da = cell[AX * cap + q] - a_here;
                    let db = cell[across * cap + q] - b_here;
                    let d = if mono {
                        self.d_max
                    } else {
                        cell[2 * cap + q] + r
                    };
                    let h = (d * d - db * db).sqrt();
                    let s = da - h;
                    if (da > 0.0) & (s <= best) && (s < best || ids[c * cap + q] < target) {
                        best = s;
                        target = ids[c * cap + q];
                        offset = h;
                    }
                }
            }
        }
        Step {
            dist: best.max(0.0),
            target,
            offset,
            capped: capped && target == NONE,
        }
    }

    /// Moves the disk in slot `mover` by `dist` along axis `AX` (wrapping), moving it
    /// to its new cell when it crosses one. Returns its slot afterwards.
    #[inline(always)]
    pub fn shift<const AX: usize, const CAP: usize>(
        &mut self,
        mover: u32,
        dist: f64,
    ) -> Result<u32, GridError> {
        let cap = if CAP == 0 { self.cap } else { CAP };
        let ms = mover as usize;
        let cell = ms / cap;
        let k = ms % cap;
        let per = self.per;
        let at = self.base + cell * per * cap + AX * cap + k;
        let old = self.data[at];
        let len = self.len[AX];
        let mut u = old + dist;
        if u >= len {
            u -= len;
        }
        let (ia, new) = (self.index(AX, old), self.index(AX, u));
        if new == ia {
            self.data[at] = u;
            return Ok(mover);
        }
        let stride = if AX == 0 { 1 } else { self.n[0] };
        let c = cell + new * stride - ia * stride;
        let block = self.base + cell * per * cap;
        let mut v = [
            self.data[block + k],
            self.data[block + cap + k],
            if per == 3 {
                self.data[block + 2 * cap + k]
            } else {
                self.r_mono
            },
        ];
        v[AX] = u;
        let id = self.id[ms];
        self.remove(ms);
        self.put(c, id, v)?;
        Ok(self.slot[id as usize])
    }

    /// The deepest overlap of disk `id` with any other, as a fraction of the pair's
    /// contact distance (0 when none).
    pub fn overlap_of(&self, id: u32) -> (f64, u32) {
        let [x, y, r] = self.disk(id);
        let (ix, iy) = (self.index(0, x), self.index(1, y));
        let mut worst = (0.0, NONE);
        for dy in [self.n[1] - 1, 0, 1] {
            for dx in [self.n[0] - 1, 0, 1] {
                let c = ((iy + dy) % self.n[1]) * self.n[0] + (ix + dx) % self.n[0];
                for q in 0..self.count[c] as usize {
                    let s = c * self.cap + q;
                    let other = self.id[s];
                    if other == id {
                        continue;
                    }
                    let mut ddx = self.value(s, 0) - x;
                    let mut ddy = self.value(s, 1) - y;
                    ddx -= self.len[0] * (ddx / self.len[0]).round();
                    ddy -= self.len[1] * (ddy / self.len[1]).round();
                    let d = self.value(s, 2) + r;
                    let depth = 1.0 - (ddx * ddx + ddy * ddy).sqrt() / d;
                    if depth > worst.0 {
                        worst = (depth, other);
                    }
                }
            }
        }
        worst
    }
}
