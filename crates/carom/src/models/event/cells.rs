//! A uniform grid whose cells are at least one largest diameter wide, so two balls in
//! contact are always in the same or neighbouring cells. Unlike the static broad phase
//! it is updated one ball at a time, when a ball's cell-crossing event fires: each cell
//! holds an intrusive doubly linked list (three index arrays, no allocation per move).

use crate::table::Table;

pub const NONE: u32 = u32::MAX;

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
    head: Vec<u32>,
    next: Vec<u32>,
    prev: Vec<u32>,
    /// The cell each ball is filed under. It changes only when the ball's crossing
    /// event fires, so round-off can leave a ball a hair outside its cell; the margin
    /// on the cell size keeps neighbours neighbours all the same.
    cell: Vec<u32>,
}

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
        self.cw = table.width / self.nx as f64;
        self.ch = table.height / self.ny as f64;
        self.head.clear();
        self.head.resize(self.nx * self.ny, NONE);
        self.next.clear();
        self.next.resize(n, NONE);
        self.prev.clear();
        self.prev.resize(n, NONE);
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
        (cy * self.nx + cx) as u32
    }

    #[inline]
    pub fn cell_of(&self, i: usize) -> u32 {
        self.cell[i]
    }

    #[inline]
    pub fn coords(&self, c: u32) -> (usize, usize) {
        let c = c as usize;
        (c % self.nx, c / self.nx)
    }

    pub fn insert(&mut self, i: usize, c: u32) {
        let h = self.head[c as usize];
        self.next[i] = h;
        self.prev[i] = NONE;
        if h != NONE {
            self.prev[h as usize] = i as u32;
        }
        self.head[c as usize] = i as u32;
        self.cell[i] = c;
    }

    pub fn remove(&mut self, i: usize) {
        let (p, n) = (self.prev[i], self.next[i]);
        if p != NONE {
            self.next[p as usize] = n;
        } else {
            self.head[self.cell[i] as usize] = n;
        }
        if n != NONE {
            self.prev[n as usize] = p;
        }
        self.next[i] = NONE;
        self.prev[i] = NONE;
    }

    pub fn move_to(&mut self, i: usize, c: u32) {
        if self.cell[i] != c {
            self.remove(i);
            self.insert(i, c);
        }
    }

    /// The neighbour of cell `c` in direction `d`, if inside the grid.
    pub fn step(&self, c: u32, d: Dir) -> Option<u32> {
        let (cx, cy) = self.coords(c);
        let (nx, ny) = match d {
            Dir::Left => (cx.checked_sub(1)?, cy),
            Dir::Right => (cx + 1, cy),
            Dir::Up => (cx, cy.checked_sub(1)?),
            Dir::Down => (cx, cy + 1),
        };
        (nx < self.nx && ny < self.ny).then_some((ny * self.nx + nx) as u32)
    }

    #[inline]
    fn for_cell(&self, cx: usize, cy: usize, f: &mut impl FnMut(usize)) {
        let mut j = self.head[cy * self.nx + cx];
        while j != NONE {
            f(j as usize);
            j = self.next[j as usize];
        }
    }

    /// Calls `f` for every ball in the 3x3 block of cells around `c` (itself included).
    #[inline]
    pub fn for_block(&self, c: u32, mut f: impl FnMut(usize)) {
        let (cx, cy) = self.coords(c);
        for gy in cy.saturating_sub(1)..=(cy + 1).min(self.ny - 1) {
            for gx in cx.saturating_sub(1)..=(cx + 1).min(self.nx - 1) {
                self.for_cell(gx, gy, &mut f);
            }
        }
    }

    /// After a ball moved into cell `c` going `d`: calls `f` for every ball in the
    /// three cells that just became neighbours (the row or column beyond `c`).
    pub fn for_new_strip(&self, c: u32, d: Dir, mut f: impl FnMut(usize)) {
        let (cx, cy) = self.coords(c);
        match d {
            Dir::Left | Dir::Right => {
                let gx = if d == Dir::Left {
                    match cx.checked_sub(1) {
                        Some(g) => g,
                        None => return,
                    }
                } else {
                    cx + 1
                };
                if gx >= self.nx {
                    return;
                }
                for gy in cy.saturating_sub(1)..=(cy + 1).min(self.ny - 1) {
                    self.for_cell(gx, gy, &mut f);
                }
            }
            Dir::Up | Dir::Down => {
                let gy = if d == Dir::Up {
                    match cy.checked_sub(1) {
                        Some(g) => g,
                        None => return,
                    }
                } else {
                    cy + 1
                };
                if gy >= self.ny {
                    return;
                }
                for gx in cx.saturating_sub(1)..=(cx + 1).min(self.nx - 1) {
                    self.for_cell(gx, gy, &mut f);
                }
            }
        }
    }

    /// The cell's walls: `[x_lo, x_hi, y_lo, y_hi]`, and which of them lead to another
    /// cell (the outer edges of the grid do not).
    #[inline]
    pub fn bounds(&self, c: u32) -> ([f64; 4], [bool; 4]) {
        let (cx, cy) = self.coords(c);
        (
            [
                cx as f64 * self.cw,
                (cx + 1) as f64 * self.cw,
                cy as f64 * self.ch,
                (cy + 1) as f64 * self.ch,
            ],
            [cx > 0, cx + 1 < self.nx, cy > 0, cy + 1 < self.ny],
        )
    }
}
