use super::*;
use crate::table::Boundary;

/// A small pseudo-random stream for the placements (any will do; fixed seed).
struct Lcg(u64);

impl Lcg {
    fn unit(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The cells at offsets `span` from cell `k` on an axis of `n` cells, as the
/// geometry says: wrapped on a periodic axis, absent beyond a wall; a periodic axis
/// too narrow for three distinct cells around `k` has each of its cells once, in
/// ascending order.
fn axis_cells(k: usize, n: usize, periodic: bool, span: &[i64]) -> Vec<usize> {
    if periodic && n < 3 && span.len() == 3 {
        return (0..n).collect();
    }
    span.iter()
        .filter_map(|&d| {
            let m = k as i64 + d;
            if periodic {
                Some(m.rem_euclid(n as i64) as usize)
            } else {
                (0..n as i64).contains(&m).then_some(m as usize)
            }
        })
        .collect()
}

/// The balls the grid files under each cell, from their positions alone.
fn by_cell(g: &Cells, x: &[f64], y: &[f64]) -> Vec<Vec<usize>> {
    let mut cells = vec![Vec::new(); g.head.len()];
    for i in 0..x.len() {
        cells[g.cell_at(x[i], y[i]) as usize].push(i);
    }
    cells
}

/// What a walk visited, as the cells it went through in order (each once) and the
/// set of balls.
fn cells_and_balls(g: &Cells, visited: &[usize]) -> (Vec<u32>, Vec<usize>) {
    let mut cells: Vec<u32> = visited.iter().map(|&j| g.cell_of(j)).collect();
    cells.dedup();
    let mut balls = visited.to_vec();
    balls.sort_unstable();
    (cells, balls)
}

/// The expected walk over the cells at offsets `xs` and `ys` from `(cx, cy)`, row
/// by row.
fn expected(
    g: &Cells,
    filed: &[Vec<usize>],
    (cx, cy): (usize, usize),
    xs: &[i64],
    ys: &[i64],
) -> (Vec<u32>, Vec<usize>) {
    let mut cells = Vec::new();
    let mut balls = Vec::new();
    for gy in axis_cells(cy, g.ny, g.periodic[1], ys) {
        for gx in axis_cells(cx, g.nx, g.periodic[0], xs) {
            let c = g.index(gx, gy);
            if !filed[c].is_empty() {
                cells.push(c as u32);
                balls.extend(&filed[c]);
            }
        }
    }
    balls.sort_unstable();
    (cells, balls)
}

/// Every cell's record (ghosts included) names its list's first ball, its second
/// and whether a third follows, as the list itself says.
fn assert_records_match_lists(g: &Cells, context: &str) {
    for (c, &[first, second]) in g.head.iter().enumerate() {
        let mut list = Vec::new();
        let mut j = first;
        while j != NONE {
            list.push(j);
            j = g.next[j as usize];
        }
        let want = match list[..] {
            [] | [_] => NO_SECOND,
            [_, b] => b,
            [_, b, ..] => b | MORE,
        };
        assert_eq!(second, want, "{context}: cell {c}, list {list:?}");
    }
}

/// The records are kept through insertions and removals of first, second, middle
/// and last balls of lists of every length, on walled and periodic grids: checked
/// against the lists after every move.
#[test]
fn cell_records_follow_their_lists() {
    let mut rng = Lcg(11);
    for boundary in [[Boundary::Walls; 2], [Boundary::Periodic; 2]] {
        let table = Table::new(6.0, 6.0).with_boundary(boundary);
        // Sixty balls in 36 cells: lists of none to five or so.
        let n = 60;
        let x: Vec<f64> = (0..n).map(|_| table.width * rng.unit()).collect();
        let y: Vec<f64> = (0..n).map(|_| table.height * rng.unit()).collect();
        let mut g = Cells::default();
        g.rebuild(&table, 0.49, &x, &y);
        assert_records_match_lists(&g, "rebuilt");
        for step in 0..2000 {
            let i = (rng.unit() * n as f64) as usize % n;
            let c = g.cell_at(table.width * rng.unit(), table.height * rng.unit());
            g.move_to(i, c);
            assert_records_match_lists(&g, &format!("{boundary:?} move {step}"));
        }
    }
}

/// On walled, periodic and mixed grids, with up to five balls to a cell (so that
/// both the gathered path and the crowded fallback run): the 3x3 block and the
/// new strips visit exactly the cells the geometry says (wrapped across periodic
/// edges, none beyond walls), row by row, each ball once, and the gathered block
/// is the walked block ball for ball. Checked again after every ball has moved to
/// another cell, which exercises the ghosts' upkeep at the edges. Periodic axes of
/// one and two cells (narrower than any scene allows) take the general path.
#[test]
fn blocks_and_strips_are_the_cells_around() {
    let walls = Boundary::Walls;
    let periodic = Boundary::Periodic;
    let mut rng = Lcg(7);
    for (boundary, (width, height), cells) in [
        ([walls, walls], (12.0, 8.0), (12, 8)),
        ([periodic, periodic], (12.0, 8.0), (12, 8)),
        ([periodic, walls], (12.0, 8.0), (12, 8)),
        ([walls, periodic], (12.0, 8.0), (12, 8)),
        ([periodic, periodic], (12.0, 2.5), (12, 2)),
        ([periodic, walls], (1.5, 8.0), (1, 8)),
    ] {
        let table = Table::new(width, height).with_boundary(boundary);
        let r = 0.49;
        let n = (150.0 * width * height / 96.0) as usize;
        let mut x: Vec<f64> = (0..n).map(|_| table.width * rng.unit()).collect();
        let mut y: Vec<f64> = (0..n).map(|_| table.height * rng.unit()).collect();
        let mut g = Cells::default();
        g.rebuild(&table, r, &x, &y);
        assert_eq!((g.nx, g.ny), cells);
        assert_eq!(g.fixed, cells.0 >= 3 && cells.1 >= 3);
        for round in 0..2 {
            let filed = by_cell(&g, &x, &y);
            let around = [-1, 0, 1];
            for cy in 0..g.ny {
                for cx in 0..g.nx {
                    let c = g.index(cx, cy) as u32;
                    let mut walked = Vec::new();
                    g.for_block(c, |j| walked.push(j));
                    let want = expected(&g, &filed, (cx, cy), &around, &around);
                    assert_eq!(
                        cells_and_balls(&g, &walked),
                        want,
                        "{boundary:?} block ({cx}, {cy}), round {round}"
                    );
                    let mut near = [0u32; GATHER];
                    if let Some(k) = g.gather_block(c, &mut near) {
                        let gathered: Vec<usize> =
                            near[..k].iter().map(|&j| j as usize).collect();
                        assert_eq!(gathered, walked, "{boundary:?} gathered ({cx}, {cy})");
                    }
                    for d in Dir::ALL {
                        let (xs, ys): (&[i64], &[i64]) = match d {
                            Dir::Left => (&[-1], &around),
                            Dir::Right => (&[1], &around),
                            Dir::Up => (&around, &[-1]),
                            Dir::Down => (&around, &[1]),
                        };
                        let mut walked = Vec::new();
                        g.for_new_strip(c, d, |j| walked.push(j));
                        let want = expected(&g, &filed, (cx, cy), xs, ys);
                        assert_eq!(
                            cells_and_balls(&g, &walked),
                            want,
                            "{boundary:?} strip {d:?} of ({cx}, {cy})"
                        );
                    }
                }
            }
            // Every ball to a new random place, one move at a time.
            for i in 0..n {
                x[i] = table.width * rng.unit();
                y[i] = table.height * rng.unit();
                let c = g.cell_at(x[i], y[i]);
                g.move_to(i, c);
            }
        }
    }
}
