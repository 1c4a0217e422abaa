//! A uniform grid whose cells are at least one largest diameter wide, so two balls in
//! contact are always in the same or neighbouring cells. Unlike the static broad phase
//! it is updated one ball at a time, when a ball's cell-crossing event fires: each cell
//! holds an intrusive singly linked list (two index arrays, no allocation per move).
//! A border of cells all round (empty beyond walls, ghosts of the far side across
//! periodic edges) makes the cells around any cell fixed offsets in the array.

use crate::table::Table;

pub const NONE: u32 = u32::MAX;

/// A cell's record of its second ball: the ball's index (below `2^30`, see
/// `queue::MAX_BALLS`), with `MORE` set if a third follows; `NO_SECOND` if there is
/// none. `NO_SECOND` leaves `MORE` clear, so the flag can be or-ed in without a test.
const NO_SECOND: u32 = 0x7fff_ffff;
const MORE: u32 = 1 << 31;

/// Room for the balls of one 3x3 block gathered at once (about four at area fraction
/// 0.3, eight at 0.6; a block of equal balls holds at most a few dozen).
pub const GATHER: usize = 64;

/// The four ways out of a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    Left = 0,
    Right = 1,
    Up = 2,
    Down = 3,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::Left, Dir::Right, Dir::Up, Dir::Down];

    pub fn from_index(k: u32) -> Dir {
        Dir::ALL[(k & 3) as usize]
    }
}

#[derive(Debug, Clone, Default)]
pub struct Cells {
    pub nx: usize,
    pub ny: usize,
    /// Cell width and height.
    pub cw: f64,
    pub ch: f64,
    /// Row length of `head`: the grid has a border one cell wide all round, so the
    /// 3x3 block around any cell lies inside the array and is nine fixed offsets, with
    /// no clamping or wrapping at the grid's edges. Beyond a wall the border cells are
    /// always empty; across a periodic edge they are ghosts of the cells on the other
    /// side (their heads kept equal, so they lead to the same list).
    stride: usize,
    /// Whether the block and the strips are the fixed offsets: a periodic axis of
    /// fewer than three cells would meet a cell twice through its ghosts (never the
    /// case in practice: a periodic axis has at least four).
    fixed: bool,
    /// The first two balls of each cell, border included, row by row: the first
    /// (`NONE`: empty), then the second as `NO_SECOND` or its index with `MORE` set if
    /// a third follows. The list itself runs through `next` from the first ball; the
    /// second is kept here as well so that gathering a block (a cell holds one ball or
    /// two, seldom more) reads nine records side by side in three rows instead of
    /// following each list link by link.
    head: Vec<[u32; 2]>,
    /// Singly linked: a cell holds a ball or two, so unlinking walks its short list
    /// instead of keeping a fourth array per ball. Its last slot, past the balls', is
    /// the end of every list's successor (`NONE`), so lists can be read ahead of
    /// their end without a test.
    next: Vec<u32>,
    /// Periodic axes (x, y): there the grid wraps around, the last cell's neighbour
    /// being the first.
    pub periodic: [bool; 2],
    /// The cell each ball is filed under. It changes only when the ball's crossing
    /// event fires, so round-off can leave a ball a hair outside its cell; the margin
    /// on the cell size keeps neighbours neighbours all the same.
    cell: Vec<u32>,
}

crate::copying::copy_fields!(Cells { nx, ny, cw, ch, stride, fixed, head, next, periodic, cell });

impl Cells {
    /// Lays out the grid for balls of largest radius `r_max` and files every ball.
    pub fn rebuild(&mut self, table: &Table, r_max: f64, x: &[f64], y: &[f64]) {
        let n = x.len();
        // One diameter plus a relative margin far above round-off (see `cell`).
        let mut reach = (2.0 * r_max * (1.0 + 1e-6)).max(f64::MIN_POSITIVE);
        // A huge table with tiny balls must not allocate a huge empty grid: cap the
        // cell count at a few per ball (cells only get wider, which stays correct).
        let max_cells = (4 * n).max(1024) as f64;
        if table.width * table.height / (reach * reach) > max_cells {
            reach = (table.width * table.height / max_cells).sqrt();
        }
        self.nx = ((table.width / reach).floor() as usize).clamp(1, 1 << 20);
        self.ny = ((table.height / reach).floor() as usize).clamp(1, 1 << 20);
        // A periodic axis needs at least four cells, so that the column (row) that
        // becomes a neighbour on a crossing is never one already next to the ball, and
        // neighbours are always less than half a side apart (their minimum image is the
        // one that collides). `Table::min_periodic_side` guarantees four diameters fit.
        let diameter = 2.0 * r_max * (1.0 + 1e-6);
        self.periodic = [table.is_periodic(0), table.is_periodic(1)];
        if self.periodic[0] && self.nx < 4 {
            self.nx = ((table.width / diameter).floor() as usize).clamp(1, 4);
        }
        if self.periodic[1] && self.ny < 4 {
            self.ny = ((table.height / diameter).floor() as usize).clamp(1, 4);
        }
        self.cw = table.width / self.nx as f64;
        self.ch = table.height / self.ny as f64;
        self.stride = self.nx + 2;
        self.fixed = (!self.periodic[0] || self.nx >= 3) && (!self.periodic[1] || self.ny >= 3);
        self.head.clear();
        self.head
            .resize(self.stride * (self.ny + 2), [NONE, NO_SECOND]);
        self.next.clear();
        // One slot more than there are balls, holding `NONE`: the link read after the
        // end of a list (see `Cells::record_of`).
        self.next.resize(n + 1, NONE);
        self.cell.clear();
        self.cell.resize(n, 0);
        for i in 0..n {
            let c = self.cell_at(x[i], y[i]);
            self.insert(i, c);
        }
    }

    /// The cell holding a position, clamped to the grid (a kinematic ball may leave the
    /// table; filed at the edge it is still next to every ball it could touch).
    #[inline]
    pub fn cell_at(&self, x: f64, y: f64) -> u32 {
        // `as usize` saturates: negative and NaN become 0.
        let cx = ((x / self.cw) as usize).min(self.nx - 1);
        let cy = ((y / self.ch) as usize).min(self.ny - 1);
        self.index(cx, cy) as u32
    }

    /// The index of the cell in column `cx`, row `cy` (inside the border), for lists
    /// kept per cell elsewhere (the walls inside the table).
    pub fn index_of(&self, cx: usize, cy: usize) -> usize {
        self.index(cx, cy)
    }

    /// How many cells the grid has, border included: the range of cell indices.
    pub fn cell_count(&self) -> usize {
        self.head.len()
    }

    /// The index of the cell in column `cx`, row `cy` (inside the border).
    #[inline(always)]
    fn index(&self, cx: usize, cy: usize) -> usize {
        (cy + 1) * self.stride + cx + 1
    }

    /// Asks for the cache lines of ball `i`'s cell and list link.
    #[inline(always)]
    pub fn prefetch(&self, i: usize) {
        crate::hint::prefetch_at(&self.cell, i);
        crate::hint::prefetch_at(&self.next, i);
    }

    /// Asks for the list heads of the 5x5 block around cell `c`: the 3x3 block a
    /// prediction gathers, and the strips beyond it that a crossing out of `c` makes
    /// neighbours (each row's five records, 40 bytes, on one cache line or two). Past
    /// the grid's border the addresses only waste the hint.
    #[inline(always)]
    pub fn prefetch_wide_block(&self, c: u32) {
        let (c, s) = (c as usize, self.stride);
        for row in [
            c.wrapping_sub(2 * s),
            c.wrapping_sub(s),
            c,
            c + s,
            c + 2 * s,
        ] {
            // Wrapping: above or below the grid the row number wraps round (in a grid
            // of fewer than five rows), and only the hint is wasted.
            crate::hint::prefetch_at(&self.head, row.wrapping_sub(2));
            crate::hint::prefetch_at(&self.head, row.wrapping_add(2));
        }
    }

    #[inline]
    pub fn cell_of(&self, i: usize) -> u32 {
        self.cell[i]
    }

    #[inline]
    pub fn coords(&self, c: u32) -> (usize, usize) {
        let c = c as usize;
        (c % self.stride - 1, c / self.stride - 1)
    }

    /// Every ball, cell by cell, the cells row by row: an order in which the balls
    /// of a cell and of the cells beside it are near one another in memory.
    pub fn balls_by_cell(&self) -> Vec<u32> {
        let mut order = Vec::with_capacity(self.cell.len());
        for cy in 0..self.ny {
            for cx in 0..self.nx {
                let mut j = self.head[self.index(cx, cy)][0];
                while j != NONE {
                    order.push(j);
                    j = self.next[j as usize];
                }
            }
        }
        order
    }

    /// Files ball `i` first in cell `c`. The cell's new record follows from its old
    /// one alone (the old first ball becomes the second, and a third follows if there
    /// was a second): no other ball's link is read, which at a million balls would be
    /// a wait on memory at every crossing.
    pub fn insert(&mut self, i: usize, c: u32) {
        let [first, second] = self.head[c as usize];
        self.next[i] = first;
        let record = if first == NONE {
            [i as u32, NO_SECOND]
        } else {
            let more = if second != NO_SECOND { MORE } else { 0 };
            [i as u32, first | more]
        };
        self.set_record(c as usize, record);
        self.cell[i] = c;
    }

    /// The record of a cell whose list starts at ball `first` (`NONE`: empty), read
    /// from the list.
    #[inline]
    fn record_of(&self, first: u32) -> [u32; 2] {
        let end = self.next.len() - 1;
        let link = |k: u32| self.next[(k as usize).min(end)];
        let second = link(first);
        if second == NONE {
            [first, NO_SECOND]
        } else {
            [first, second | if link(second) != NONE { MORE } else { 0 }]
        }
    }

    /// Sets the record of cell `c` and of its ghosts across periodic edges.
    #[inline]
    fn set_record(&mut self, c: usize, record: [u32; 2]) {
        self.head[c] = record;
        if self.periodic == [false, false] {
            return;
        }
        // The padded columns (rows) holding this cell: its own, and a ghost beyond
        // the opposite edge if it is a first or last column (row) of a periodic axis.
        let (cx, cy) = self.coords(c as u32);
        let copies = |k: usize, n: usize, p: bool| {
            let mut at = [k + 1, usize::MAX, usize::MAX];
            if p && k + 1 == n {
                at[1] = 0;
            }
            if p && k == 0 {
                at[2] = n + 1;
            }
            at
        };
        let xs = copies(cx, self.nx, self.periodic[0]);
        let ys = copies(cy, self.ny, self.periodic[1]);
        for &py in ys.iter().filter(|&&v| v != usize::MAX) {
            for &px in xs.iter().filter(|&&v| v != usize::MAX) {
                self.head[py * self.stride + px] = record;
            }
        }
    }

    // (Always inlined: with the event loop built in two versions (`isa.rs`) it has
    // twice the callers, and the optimiser would otherwise leave it as a call.)
    #[inline(always)]
    pub fn remove(&mut self, i: usize) {
        let c = self.cell[i] as usize;
        let after = self.next[i];
        let [first, second] = self.head[c];
        self.next[i] = NONE;
        if first == i as u32 {
            // The second ball becomes the first; only if there was a third is the
            // list read for the new second.
            let record = if second & MORE == 0 {
                [after, NO_SECOND]
            } else {
                self.record_of(after)
            };
            self.set_record(c, record);
        } else {
            let mut k = first;
            while k != NONE {
                if self.next[k as usize] == i as u32 {
                    self.next[k as usize] = after;
                    break;
                }
                k = self.next[k as usize];
            }
            // The second ball, or whether a third follows, may have changed (the
            // links read here were just walked).
            self.set_record(c, self.record_of(first));
        }
    }

    // (Always inlined: with the event loop built in two versions (`isa.rs`) it has
    // twice the callers, and the optimiser would otherwise leave it as a call.)
    #[inline(always)]
    pub fn move_to(&mut self, i: usize, c: u32) {
        if self.cell[i] != c {
            self.remove(i);
            self.insert(i, c);
        }
    }

    /// The neighbour of cell `c` in direction `d`, if inside the grid (on a periodic
    /// axis there always is one: past the last cell comes the first).
    pub fn step(&self, c: u32, d: Dir) -> Option<u32> {
        if self.periodic == [false, false] {
            // Walled: a ball is filed inside the grid and its crossings lead only
            // through inner sides (see `Cells::sides`), so the neighbour is a cell of
            // the grid, never of its border.
            let s = self.stride as u32;
            debug_assert!({
                let (cx, cy) = self.coords(c);
                match d {
                    Dir::Left => cx > 0,
                    Dir::Right => cx + 1 < self.nx,
                    Dir::Up => cy > 0,
                    Dir::Down => cy + 1 < self.ny,
                }
            });
            // Looked up, not matched: a crossing's direction is a coin toss, and a
            // jump table on it was mispredicted three times in four.
            let to = [c.wrapping_sub(1), c + 1, c.wrapping_sub(s), c + s];
            return Some(to[d as usize]);
        }
        let (cx, cy) = self.coords(c);
        let (nx, ny) = match d {
            Dir::Left => (self.back(cx, self.nx, 0)?, cy),
            Dir::Right => (self.ahead(cx, self.nx, 0)?, cy),
            Dir::Up => (cx, self.back(cy, self.ny, 1)?),
            Dir::Down => (cx, self.ahead(cy, self.ny, 1)?),
        };
        Some(self.index(nx, ny) as u32)
    }

    /// Whether leaving cell `c` in direction `d` crosses a periodic edge of the table:
    /// the ball then re-enters at the other side.
    pub fn wraps(&self, c: u32, d: Dir) -> bool {
        if self.periodic == [false, false] {
            return false;
        }
        let (cx, cy) = self.coords(c);
        match d {
            Dir::Left => self.periodic[0] && cx == 0,
            Dir::Right => self.periodic[0] && cx + 1 == self.nx,
            Dir::Up => self.periodic[1] && cy == 0,
            Dir::Down => self.periodic[1] && cy + 1 == self.ny,
        }
    }

    /// The cell before `c` on an axis of `n` cells (wrapping if that axis is periodic).
    #[inline]
    fn back(&self, c: usize, n: usize, axis: usize) -> Option<usize> {
        match c.checked_sub(1) {
            Some(b) => Some(b),
            None => self.periodic[axis].then_some(n - 1),
        }
    }

    /// The cell after `c` on an axis of `n` cells (wrapping if that axis is periodic).
    #[inline]
    fn ahead(&self, c: usize, n: usize, axis: usize) -> Option<usize> {
        if c + 1 < n {
            Some(c + 1)
        } else if self.periodic[axis] {
            Some(0)
        } else {
            None
        }
    }

    /// The distinct cells `c - 1, c, c + 1` along one axis, clamped at walls, wrapped
    /// on a periodic axis; and how many there are.
    #[inline]
    fn around(&self, c: usize, n: usize, axis: usize) -> ([usize; 3], usize) {
        if self.periodic[axis] && n >= 3 {
            let lo = if c == 0 { n - 1 } else { c - 1 };
            let hi = if c + 1 == n { 0 } else { c + 1 };
            ([lo, c, hi], 3)
        } else if self.periodic[axis] {
            ([0, 1, 0], n)
        } else {
            let lo = c.saturating_sub(1);
            let hi = (c + 1).min(n - 1);
            ([lo, lo + 1, lo + 2], hi - lo + 1)
        }
    }

    /// Calls `f` for every ball in the cell; or, not `ALL`, for its first ball only
    /// (asking for that ball's list link instead of waiting for it: a look-ahead that
    /// must not stall).
    #[inline(always)]
    fn for_cell<const ALL: bool>(&self, cell: usize, f: &mut impl FnMut(usize)) {
        let mut j = self.head[cell][0];
        while j != NONE {
            f(j as usize);
            if !ALL {
                crate::hint::prefetch_at(&self.next, j as usize);
                return;
            }
            j = self.next[j as usize];
        }
    }

    /// Collects the balls of the 3x3 block around `c`, in [`Cells::for_block`]'s
    /// order, into `out`: how many there are, or `None` if they do not fit (balls far
    /// smaller than the largest, many to a cell), when the caller walks the lists.
    #[inline(always)]
    pub fn gather_block(&self, c: u32, out: &mut [u32; GATHER]) -> Option<usize> {
        if self.fixed {
            if let Some(k) = self.gather_fixed(c as usize, out) {
                return Some(k);
            }
        }
        let mut k = Some(0);
        self.block_rows(c, |cell| {
            k = k.and_then(|k| self.gather_cell(cell, out, k));
        });
        k
    }

    /// [`Cells::gather_block`] by fixed offsets, when no cell of the block holds more
    /// than two balls (`None` otherwise): the block is the three cells left of, at
    /// and right of `c` in the row above, its own row and the row below (border cells
    /// included: empty, or ghosts). Each cell's record gives its first two balls
    /// without a test per ball (a cell holds none, one or two, a count no branch
    /// predictor guesses); whether a third follows is noted, not branched on, so that
    /// the nine cells are one straight run.
    #[inline(always)]
    fn gather_fixed(&self, c: usize, out: &mut [u32; GATHER]) -> Option<usize> {
        let mut k = 0;
        let mut more = 0;
        for row in [c - self.stride - 1, c - 1, c + self.stride - 1] {
            let cells: &[[u32; 2]; 3] = self.head.get(row..row + 3)?.try_into().ok()?;
            for &record in cells {
                // At most 2 balls from each of 9 cells: `k` stays below 18.
                k = first_two(record, out, k);
                more |= record[1];
            }
        }
        (more & MORE == 0).then_some(k)
    }

    /// Appends the balls of a cell with head record `record` to `out[k..]`: the new
    /// count, or `None` if they do not fit. `k` must leave room for the first two
    /// balls of each cell still to come in a block (at most `GATHER - 2 * 9` before
    /// its first cell): the first two are stored without a test, and a cell's third
    /// ball and beyond are kept only while they leave that room.
    #[inline(always)]
    fn gather_record(
        &self,
        record: [u32; 2],
        out: &mut [u32; GATHER],
        mut k: usize,
    ) -> Option<usize> {
        const ROOM: usize = GATHER - 2 * 9;
        k = first_two(record, out, k);
        if record[1] & MORE != 0 {
            let mut j = self.next[(record[1] & !MORE) as usize];
            while j != NONE {
                if k >= ROOM {
                    return None;
                }
                out[k] = j;
                k += 1;
                j = self.next[j as usize];
            }
        }
        Some(k)
    }

    /// Appends the balls of cell `c` to `out[k..]`, as [`Cells::gather_record`].
    #[inline(always)]
    fn gather_cell(&self, c: usize, out: &mut [u32; GATHER], k: usize) -> Option<usize> {
        self.gather_record(self.head[c], out, k)
    }

    /// Whether cell `c` is in the first or the last row (next to a y edge).
    #[inline(always)]
    pub fn on_y_edge(&self, c: u32) -> bool {
        let (_, cy) = self.coords(c);
        cy == 0 || cy + 1 == self.ny
    }

    /// In a sheared box (y periodic, at least four rows), for a cell `c` of the first
    /// or last row: calls `f` for every ball of its own row and of the next row inward
    /// (the three columns around it, wrapping in x), then of every cell of the row
    /// across the sliding edge, whose cells are displaced by the shift.
    pub fn for_sliding_block(&self, c: u32, mut f: impl FnMut(usize)) {
        let (cx, cy) = self.coords(c);
        debug_assert!(self.ny >= 4 && (cy == 0 || cy + 1 == self.ny));
        let (inward, across) = if cy == 0 {
            (1, self.ny - 1)
        } else {
            (self.ny - 2, 0)
        };
        let (xs, nxs) = self.around(cx, self.nx, 0);
        for gy in [cy, inward] {
            for &gx in &xs[..nxs] {
                self.for_cell::<true>(self.index(gx, gy), &mut f);
            }
        }
        for gx in 0..self.nx {
            self.for_cell::<true>(self.index(gx, across), &mut f);
        }
    }

    /// Calls `f` for every ball in the 3x3 block of cells around `c` (itself included).
    #[inline(always)]
    pub fn for_block(&self, c: u32, f: impl FnMut(usize)) {
        self.block::<true>(c, f);
    }

    /// Calls `f` for the first ball of each cell of the 3x3 block around `c` (most
    /// cells hold one ball or none), for fetching them ahead of time.
    #[inline]
    pub fn firsts_of_block(&self, c: u32, f: impl FnMut(usize)) {
        self.block::<false>(c, f);
    }

    #[inline(always)]
    fn block<const ALL: bool>(&self, c: u32, mut f: impl FnMut(usize)) {
        self.block_rows(c, |cell| self.for_cell::<ALL>(cell, &mut f));
    }

    /// Calls `f` with each cell of the 3x3 block around `c`, row by row, each cell
    /// once (a narrow periodic axis or a wall leaves fewer).
    #[inline(always)]
    fn block_rows(&self, c: u32, mut f: impl FnMut(usize)) {
        if self.fixed {
            // Nine fixed offsets: at the grid's edges the border cells stand for the
            // cells beyond (none beyond a wall, the wrapped ones across a periodic
            // edge), in the order of the general path below.
            let c = c as usize;
            for row in [c - self.stride - 1, c - 1, c + self.stride - 1] {
                for cell in row..row + 3 {
                    f(cell);
                }
            }
            return;
        }
        let (cx, cy) = self.coords(c);
        let (xs, nxs) = self.around(cx, self.nx, 0);
        let (ys, nys) = self.around(cy, self.ny, 1);
        for &gy in &ys[..nys] {
            for &gx in &xs[..nxs] {
                f(self.index(gx, gy));
            }
        }
    }

    /// After a ball moved into cell `c` going `d`: calls `f` for every ball in the
    /// three cells that just became neighbours (the row or column beyond `c`).
    pub fn for_new_strip(&self, c: u32, d: Dir, f: impl FnMut(usize)) {
        self.new_strip::<true>(c, d, f);
    }

    /// [`Cells::for_new_strip`], the first ball of each cell only (see
    /// [`Cells::firsts_of_block`]).
    #[inline]
    pub fn firsts_of_new_strip(&self, c: u32, d: Dir, f: impl FnMut(usize)) {
        self.new_strip::<false>(c, d, f);
    }

    #[inline(always)]
    fn new_strip<const ALL: bool>(&self, c: u32, d: Dir, mut f: impl FnMut(usize)) {
        self.strip_cells(c, d, |cell| self.for_cell::<ALL>(cell, &mut f));
    }

    /// Calls `f` with each cell of the strip beyond cell `c` in direction `d` (the row
    /// or column that became neighbours), each cell once, in ascending row (column)
    /// order.
    #[inline(always)]
    fn strip_cells(&self, c: u32, d: Dir, mut f: impl FnMut(usize)) {
        if self.fixed {
            // Three fixed offsets; at the grid's edges the border cells stand for the
            // cells beyond (see `Cells::block_rows`).
            let (s, c) = (self.stride, c as usize);
            // Looked up, not matched (see `Cells::step`). The cell is inside the
            // border, so `c - s - 1` does not underflow.
            let first = [c - 1 - s, c + 1 - s, c - s - 1, c + s - 1][d as usize];
            let along = [s, s, 1, 1][d as usize];
            for k in 0..3 {
                f(first + k * along);
            }
            return;
        }
        // The strip one beyond `c`, wrapped; its cross-range wrapped too (or clamped,
        // on a walled axis).
        let (cx, cy) = self.coords(c);
        let (strip, across) = match d {
            Dir::Left => (self.back(cx, self.nx, 0), self.around(cy, self.ny, 1)),
            Dir::Right => (self.ahead(cx, self.nx, 0), self.around(cy, self.ny, 1)),
            Dir::Up => (self.back(cy, self.ny, 1), self.around(cx, self.nx, 0)),
            Dir::Down => (self.ahead(cy, self.ny, 1), self.around(cx, self.nx, 0)),
        };
        let Some(g) = strip else { return };
        for &h in &across.0[..across.1] {
            f(match d {
                Dir::Left | Dir::Right => self.index(g, h),
                Dir::Up | Dir::Down => self.index(h, g),
            });
        }
    }

    /// From coordinate `x` in column (row, for `axis` 1) `k`: the distances to the
    /// low and the high side, and which of them lead to another cell; the sides are
    /// those of [`Cells::bounds`], computed alike.
    #[inline(always)]
    pub fn sides(&self, x: f64, k: usize, axis: usize) -> (f64, f64, [bool; 2]) {
        let (w, n) = if axis == 0 {
            (self.cw, self.nx)
        } else {
            (self.ch, self.ny)
        };
        let p = self.periodic[axis];
        (
            x - side(k) * w,
            side(k + 1) * w - x,
            [k > 0 || p, k + 1 < n || p],
        )
    }

    /// The cell's walls: `[x_lo, x_hi, y_lo, y_hi]`, and which of them lead to another
    /// cell (the outer edges of the grid do not).
    #[inline]
    pub fn bounds(&self, c: u32) -> ([f64; 4], [bool; 4]) {
        let (cx, cy) = self.coords(c);
        (
            [
                side(cx) * self.cw,
                side(cx + 1) * self.cw,
                side(cy) * self.ch,
                side(cy + 1) * self.ch,
            ],
            [
                cx > 0 || self.periodic[0],
                cx + 1 < self.nx || self.periodic[0],
                cy > 0 || self.periodic[1],
                cy + 1 < self.ny || self.periodic[1],
            ],
        )
    }
}

/// Appends the first two balls of a cell with head record `record` to `out[k..]`
/// without a test per ball (a cell holds none, one or two, a count no branch predictor
/// guesses): the new count. `k` must stay below `GATHER - 1`, so that the mask only
/// spares the bounds check; a `NONE` or `NO_SECOND` stored is overwritten by the next
/// ball.
#[inline(always)]
fn first_two(record: [u32; 2], out: &mut [u32; GATHER], mut k: usize) -> usize {
    let [j0, second] = record;
    let j1 = second & !MORE;
    out[k % GATHER] = j0;
    k += (j0 != NONE) as usize;
    out[k % GATHER] = j1;
    k += (j1 != NO_SECOND) as usize;
    k
}

/// Column (row) number `k` as a float: exact, as every count of cells is (at most
/// `2^20 + 1`). Converted from 32 bits, which baseline x86-64 does in one instruction,
/// where a conversion from 64 unsigned bits takes a sequence with a branch.
#[inline(always)]
fn side(k: usize) -> f64 {
    f64::from(k as u32)
}

#[cfg(test)]
mod tests;
