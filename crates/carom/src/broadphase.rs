//! Uniform-grid broad phase. Balls are binned by a counting sort (O(N), no hashing),
//! and a ball can only touch balls in its own or the eight surrounding cells because a
//! cell is at least one largest diameter wide. No model ever loops over all pairs.

use crate::world::Table;

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
}

impl Grid {
    pub fn new() -> Grid {
        Grid::default()
    }

    /// Rebins all balls. `reach` is the largest centre distance at which two balls can
    /// interact (twice the largest radius, plus any margin the caller wants).
    pub fn rebuild(&mut self, x: &[f64], y: &[f64], reach: f64, table: &Table) {
        let n = x.len();
        // Cells at least `reach` wide, but never more cells than a few per ball: a huge
        // table with tiny balls must not allocate a huge empty grid.
        let max_cells = (4 * n).max(1024) as f64;
        let mut cell = reach.max(f64::MIN_POSITIVE);
        let area = table.width * table.height;
        if area / (cell * cell) > max_cells {
            cell = (area / max_cells).sqrt();
        }
        let nx = ((table.width / cell).floor() as usize).max(1);
        let ny = ((table.height / cell).floor() as usize).max(1);
        self.nx = nx;
        self.ny = ny;
        self.inv_w = nx as f64 / table.width;
        self.inv_h = ny as f64 / table.height;

        let cells = nx * ny;
        self.cell_start.clear();
        self.cell_start.resize(cells + 1, 0);
        for i in 0..n {
            let c = self.cell_index(x[i], y[i]);
            self.cell_start[c + 1] += 1;
        }
        for c in 0..cells {
            self.cell_start[c + 1] += self.cell_start[c];
        }
        self.items.clear();
        self.items.resize(n, 0);
        // Fill using cell_start[c] as a cursor, then shift the starts back by one cell:
        // this avoids a second array of cursors.
        for i in 0..n {
            let c = self.cell_index(x[i], y[i]);
            let slot = self.cell_start[c] as usize;
            self.items[slot] = i as u32;
            self.cell_start[c] += 1;
        }
        for c in (1..=cells).rev() {
            self.cell_start[c] = self.cell_start[c - 1];
        }
        self.cell_start[0] = 0;
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

    /// Calls `f(j)` for every ball `j` in the 3x3 block of cells around (x, y),
    /// including the ball at (x, y) itself if it is binned.
    #[inline]
    pub fn for_each_near(&self, x: f64, y: f64, mut f: impl FnMut(usize)) {
        let (cx, cy) = self.cell_coords(x, y);
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
    pub fn for_each_candidate_pair(&self, mut f: impl FnMut(usize, usize)) {
        for cy in 0..self.ny {
            for cx in 0..self.nx {
                let own = self.cell(cx, cy);
                for (a, &i) in own.iter().enumerate() {
                    for &j in &own[a + 1..] {
                        f(i as usize, j as usize);
                    }
                }
                let mut visit = |ox: usize, oy: usize| {
                    for &i in own {
                        for &j in self.cell(ox, oy) {
                            f(i as usize, j as usize);
                        }
                    }
                };
                if cx + 1 < self.nx {
                    visit(cx + 1, cy);
                }
                if cy + 1 < self.ny {
                    if cx > 0 {
                        visit(cx - 1, cy + 1);
                    }
                    visit(cx, cy + 1);
                    if cx + 1 < self.nx {
                        visit(cx + 1, cy + 1);
                    }
                }
            }
        }
    }

    /// Every pair `(i, j)`, `i < j`, whose centres are at most `r_i + r_j + slack`
    /// apart, in ascending `(i, j)` order, into `out` (cleared first).
    pub fn touching_pairs(
        &self,
        x: &[f64],
        y: &[f64],
        r: &[f64],
        slack: f64,
        out: &mut Vec<(u32, u32)>,
    ) {
        out.clear();
        self.for_each_candidate_pair(|i, j| {
            let dx = x[j] - x[i];
            let dy = y[j] - y[i];
            let reach = r[i] + r[j] + slack;
            if dx * dx + dy * dy <= reach * reach {
                out.push(if i < j {
                    (i as u32, j as u32)
                } else {
                    (j as u32, i as u32)
                });
            }
        });
        out.sort_unstable();
    }
}

/// The O(N^2) reference: every pair within `r_i + r_j + slack`, ascending. Kept only as
/// a test oracle for the grid.
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
