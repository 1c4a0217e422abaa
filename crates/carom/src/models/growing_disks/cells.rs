//! The growing model's grid of cells: laid out afresh at each interval's start from
//! the balls alone, kept by cell-crossing events within the interval.

use super::{Grow, END};
use crate::balls::Balls;
use crate::models::StepError;
use crate::table::{Boundary, Table};

impl Grow {
    /// Lays out the cells for this interval: at least one largest diameter at the
    /// interval's end wide, at least four on a periodic axis (so that a neighbour cell
    /// is one image only), at most about four per ball.
    pub(super) fn build_cells(
        &mut self,
        b: &Balls,
        table: &Table,
        len: f64,
    ) -> Result<(), StepError> {
        let r_max = b.r.iter().copied().fold(0.0, f64::max);
        let reach = 2.0 * r_max * (1.0 + self.s * len) * (1.0 + 1e-9);
        let cap = (4 * b.len()).max(16) as f64;
        self.side = [table.width, table.height];
        self.periodic = [table.is_periodic(0), table.is_periodic(1)];
        let mut k = self.side.map(|side| {
            let fit = (side / reach).floor();
            if fit.is_finite() && fit >= 1.0 {
                fit.min(cap) as usize
            } else {
                1
            }
        });
        while (k[0] * k[1]) as f64 > cap && k[0].max(k[1]) > 4 {
            let a = usize::from(k[1] > k[0]);
            k[a] = (k[a] / 2).max(4);
        }
        for (a, &count) in k.iter().enumerate() {
            if self.periodic[a] && count < 4 {
                return Err(StepError::Unfit(
                    "physics.compress",
                    format!(
                        "the periodic side {} is narrower than four largest diameters ({})",
                        self.side[a],
                        4.0 * reach
                    ),
                ));
            }
            self.width[a] = self.side[a] / count as f64;
        }
        self.n_cells = k;
        self.tab = super::CellTable(self.table());
        self.head.clear();
        self.head.resize(k[0] * k[1], END);
        let n = b.len();
        self.cell.resize(n, 0);
        self.link_prev.resize(n, END);
        for i in 0..n {
            let c = self.cell_at(b.x[i], b.y[i]);
            self.insert(i, c);
        }
        Ok(())
    }

    /// The table as the cells see it.
    fn table(&self) -> Table {
        Table {
            width: self.side[0],
            height: self.side[1],
            boundary: [boundary(self.periodic[0]), boundary(self.periodic[1])],
            shear_rate: 0.0,
            shift: 0.0,
        }
    }

    fn cell_at(&self, x: f64, y: f64) -> usize {
        let coord = |p: f64, a: usize| {
            let c = (p / self.width[a]).floor();
            if c >= 0.0 {
                (c as usize).min(self.n_cells[a] - 1)
            } else {
                0
            }
        };
        coord(x, 0) + self.n_cells[0] * coord(y, 1)
    }

    fn insert(&mut self, i: usize, c: usize) {
        self.cell[i] = c as u32;
        let h = self.head[c];
        self.d[i].link = h;
        self.link_prev[i] = END;
        if h != END {
            self.link_prev[h as usize] = i as u32;
        }
        self.head[c] = i as u32;
    }

    fn remove(&mut self, i: usize) {
        let (p, n) = (self.link_prev[i], self.d[i].link);
        if p == END {
            self.head[self.cell[i] as usize] = n;
        } else {
            self.d[p as usize].link = n;
        }
        if n != END {
            self.link_prev[n as usize] = p;
        }
    }

    /// The cell coordinate `d` (-1, 0 or 1) away from `c` along axis `a`, wrapping on
    /// a periodic axis; `None` past a wall.
    #[inline]
    pub(super) fn neighbour(&self, c: usize, d: i32, a: usize) -> Option<usize> {
        let n = self.n_cells[a];
        match d {
            0 => Some(c),
            1 if c + 1 < n => Some(c + 1),
            1 => self.periodic[a].then_some(0),
            _ if c > 0 => Some(c - 1),
            _ => self.periodic[a].then(|| n - 1),
        }
    }

    /// The neighbour cells' coordinates along axis `a` around `c`, lowest first, and
    /// the range of them that exists (a periodic axis has at least four cells, so the
    /// three are distinct).
    #[inline]
    pub(super) fn around(&self, c: usize, a: usize) -> ([usize; 3], usize, usize) {
        let n = self.n_cells[a];
        if self.periodic[a] {
            let low = if c == 0 { n - 1 } else { c - 1 };
            let high = if c + 1 == n { 0 } else { c + 1 };
            ([low, c, high], 0, 3)
        } else {
            let from = usize::from(c == 0);
            let to = if c + 1 < n { 3 } else { 2 };
            ([c.wrapping_sub(1), c, c + 1], from, to)
        }
    }

    /// Ball `i` crosses its cell's `side` (numbered as walls), wrapping across a
    /// periodic edge.
    pub(super) fn cross(&mut self, b: &mut Balls, i: usize, side: usize) {
        let (a, up) = (side / 2, side % 2 == 1);
        let k = self.n_cells;
        let c = self.cell[i] as usize;
        let mut cc = [c % k[0], c / k[0]];
        let (p, img) = if a == 0 {
            (&mut self.d[i].x, &mut b.ix[i])
        } else {
            (&mut self.d[i].y, &mut b.iy[i])
        };
        if up {
            if cc[a] + 1 == k[a] {
                cc[a] = 0;
                *p -= self.side[a];
                *img += 1;
            } else {
                cc[a] += 1;
            }
        } else if cc[a] == 0 {
            cc[a] = k[a] - 1;
            *p += self.side[a];
            *img -= 1;
        } else {
            cc[a] -= 1;
        }
        self.remove(i);
        self.insert(i, cc[0] + k[0] * cc[1]);
    }
}

pub(super) fn boundary(periodic: bool) -> Boundary {
    if periodic {
        Boundary::Periodic
    } else {
        Boundary::Walls
    }
}
