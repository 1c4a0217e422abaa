//! Bond-orientational order: the local `psi_6` of each ball and the global `|<psi_6>|`.
//!
//! A ball's neighbours are its six nearest balls in play (centre distance, minimum
//! image across periodic edges; ties broken by index). Six nearest rather than Voronoi
//! neighbours: in the dense packings where `psi_6` means something the two agree for
//! almost every ball, and the six nearest are found on a plain cell grid, with no
//! triangulation and no dependency. With `theta_ij` the direction from ball `i` to
//! neighbour `j`,
//!
//! `psi_6(i) = (1/6) sum_j exp(6 i theta_ij)`,
//!
//! 1 in magnitude for a ball at the centre of a perfect hexagon (any orientation), and
//! `psi6 = |(1/N) sum_i psi_6(i)|` over the `N` balls in play: 1 for a perfect
//! triangular crystal, about `sqrt(pi <|psi_6(i)|^2> / (4 N))` for disorder (the
//! length of the mean of `N` phasors of random phase). A ball with fewer than six other
//! balls in play averages over those it has; with none its `psi_6` is 0.

use crate::balls::Balls;
use crate::table::Table;

/// Per ball, `(re, im)` of `psi_6` (0 for balls out of play). `in_play`: per ball
/// whether it is in play (empty: every ball is).
pub fn psi6_per_ball(balls: &Balls, table: &Table, in_play: &[bool]) -> Vec<[f64; 2]> {
    let mut out = vec![[0.0, 0.0]; balls.len()];
    each_psi6(balls, table, in_play, |i, p| out[i] = p);
    out
}

/// The global order `|<psi_6>|` over the balls in play (0 with fewer than two).
pub fn psi6(balls: &Balls, table: &Table, in_play: &[bool]) -> f64 {
    // Summed on the fly, in ascending index, so that no per-ball array is needed: the
    // diagnostics of a state file compute this for every ball of the run.
    let (mut re, mut im, mut n) = (0.0, 0.0, 0usize);
    each_psi6(balls, table, in_play, |_, p| {
        re += p[0];
        im += p[1];
        n += 1;
    });
    if n < 2 {
        return 0.0;
    }
    (re / n as f64).hypot(im / n as f64)
}

/// Calls `visit(i, psi_6(i))` for every ball `i` in play, in ascending index (a ball
/// with no other ball in play gets 0), when at least two are in play.
fn each_psi6(
    balls: &Balls,
    table: &Table,
    in_play: &[bool],
    mut visit: impl FnMut(usize, [f64; 2]),
) {
    let n = balls.len();
    let playing = |i: usize| in_play.get(i).copied().unwrap_or(true);
    // Indices and cells as u32: the scratch is transient but sized by the whole run
    // (a world of 2^32 balls would need hundreds of gigabytes before this).
    debug_assert!(n <= u32::MAX as usize);
    let mut members: Vec<u32> = Vec::with_capacity(n);
    members.extend((0..n).filter(|&i| playing(i)).map(|i| i as u32));
    if members.len() < 2 {
        return;
    }
    let grid = CellList::new(balls, table, &members);
    // The six nearest so far: (squared distance, index, dx, dy), kept sorted.
    let mut best: Vec<(f64, usize, f64, f64)> = Vec::with_capacity(7);
    for (k, &i) in members.iter().enumerate() {
        let i = i as usize;
        grid.six_nearest(balls, table, i, grid.cells[k] as usize, &mut best);
        visit(i, bond_order(&best));
    }
}

/// The balls in play sorted by cell (a counting sort), on cells about two mean
/// spacings wide: a 3 x 3 block then holds some 36 balls, more than the six wanted in
/// any packing that is not very uneven.
struct CellList {
    ncx: usize,
    ncy: usize,
    /// A cell's side along x and y.
    cw: f64,
    ch: f64,
    /// Each member's cell, in the members' order.
    cells: Vec<u32>,
    /// The balls of cell c are `sorted[start[c]..start[c + 1]]`.
    start: Vec<usize>,
    sorted: Vec<u32>,
    periodic: [bool; 2],
}

impl CellList {
    fn new(balls: &Balls, table: &Table, members: &[u32]) -> CellList {
        let (w, h) = (table.width, table.height);
        let spacing = (w * h / members.len() as f64).sqrt();
        let ncx = ((w / (2.0 * spacing)).floor() as usize).clamp(1, 1 << 14);
        let ncy = ((h / (2.0 * spacing)).floor() as usize).clamp(1, 1 << 14);
        let (cw, ch) = (w / ncx as f64, h / ncy as f64);
        let cell_of = |x: f64, y: f64| {
            let cx = ((x / cw).max(0.0) as usize).min(ncx - 1);
            let cy = ((y / ch).max(0.0) as usize).min(ncy - 1);
            (cx, cy)
        };
        let mut start = vec![0usize; ncx * ncy + 1];
        let cells: Vec<u32> = members
            .iter()
            .map(|&i| {
                let (cx, cy) = cell_of(balls.x[i as usize], balls.y[i as usize]);
                (cy * ncx + cx) as u32
            })
            .collect();
        for &c in &cells {
            start[c as usize + 1] += 1;
        }
        for c in 0..ncx * ncy {
            start[c + 1] += start[c];
        }
        let mut fill = start.clone();
        let mut sorted = vec![0u32; members.len()];
        for (k, &c) in cells.iter().enumerate() {
            let c = c as usize;
            sorted[fill[c]] = members[k];
            fill[c] += 1;
        }
        CellList {
            ncx,
            ncy,
            cw,
            ch,
            cells,
            start,
            sorted,
            periodic: [table.is_periodic(0), table.is_periodic(1)],
        }
    }

    /// The six balls nearest to ball `i` (in cell `cell`) into `best`, nearest first
    /// (ties by index), each with its squared distance and minimum-image offset;
    /// fewer when fewer others are in play. Rings of cells are searched outwards
    /// until the sixth is no farther than the ring's reach.
    fn six_nearest(
        &self,
        balls: &Balls,
        table: &Table,
        i: usize,
        cell: usize,
        best: &mut Vec<(f64, usize, f64, f64)>,
    ) {
        let (x, y) = (balls.x[i], balls.y[i]);
        let (cx, cy) = (cell % self.ncx, cell / self.ncx);
        let max_ring = self.ncx.max(self.ncy);
        let mut ring = 1;
        loop {
            best.clear();
            for ky in axis_cells(cy, ring, self.ncy, self.periodic[1]) {
                for kx in axis_cells(cx, ring, self.ncx, self.periodic[0]) {
                    let c = ky * self.ncx + kx;
                    for &j in &self.sorted[self.start[c]..self.start[c + 1]] {
                        let j = j as usize;
                        if j == i {
                            continue;
                        }
                        let (dx, dy) = table.min_image(balls.x[j] - x, balls.y[j] - y);
                        let d2 = dx * dx + dy * dy;
                        if best.len() == 6 && (d2, j) >= (best[5].0, best[5].1) {
                            continue;
                        }
                        let at = best.partition_point(|b| (b.0, b.1) < (d2, j));
                        best.insert(at, (d2, j, dx, dy));
                        best.truncate(6);
                    }
                }
            }
            // Every ball within `ring` cells of the ball's own cell's edge was seen:
            // the six are final when the sixth is no farther than that, or when the
            // block already covers the table.
            let reach = ring as f64 * self.cw.min(self.ch);
            if ring >= max_ring || (best.len() == 6 && best[5].0 <= reach * reach) {
                return;
            }
            ring += 1;
        }
    }
}

/// `psi_6` of a ball from its nearest neighbours' offsets: the mean of exp(6 i theta)
/// over the bonds; 0 with none.
fn bond_order(bonds: &[(f64, usize, f64, f64)]) -> [f64; 2] {
    if bonds.is_empty() {
        return [0.0, 0.0];
    }
    let (mut re, mut im) = (0.0, 0.0);
    for &(d2, _, dx, dy) in bonds {
        // exp(6 i theta) from cos and sin of theta: (c + i s)^6, no trigonometry.
        let r = d2.sqrt();
        let (c, s) = if r > 0.0 {
            (dx / r, dy / r)
        } else {
            (1.0, 0.0)
        };
        let (c2, s2) = (c * c - s * s, 2.0 * c * s);
        let (c3, s3) = (c2 * c - s2 * s, c2 * s + s2 * c);
        re += c3 * c3 - s3 * s3;
        im += 2.0 * c3 * s3;
    }
    let m = bonds.len() as f64;
    [re / m, im / m]
}

/// The cells at most `ring` away from cell `c` on an axis of `count` cells, each once:
/// wrapped on a periodic axis, clipped at a walled one's ends.
fn axis_cells(c: usize, ring: usize, count: usize, periodic: bool) -> Vec<usize> {
    if 2 * ring + 1 >= count {
        return (0..count).collect();
    }
    let (lo, hi) = (c as i64 - ring as i64, c as i64 + ring as i64);
    (lo..=hi)
        .filter_map(|k| {
            if (0..count as i64).contains(&k) {
                Some(k as usize)
            } else if periodic {
                Some(k.rem_euclid(count as i64) as usize)
            } else {
                None
            }
        })
        .collect()
}
