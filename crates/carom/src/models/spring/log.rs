//! The spring model's event log: one row per contact at the step its overlap began.
//!
//! After each step, with the log kept, the contacts that overlap then (pairs of the
//! neighbour list, the table's walls, pieces of the walls inside the table) are
//! compared with those of the step before; each new one is a row at the step's end.
//! The pass is serial, in list order, so the log is the same on any thread count. A
//! spring contact's impulse is known only when it ends: the rows carry NaN for it, and
//! the relative normal speed of approach at the step the overlap began.

use crate::balls::Balls;
use crate::broadphase::NeighbourList;
use crate::event_log::LoggedEvent;
use crate::models::Wall;
use crate::table::Table;
use crate::walls::{WallCells, Walls};

#[derive(Default, Clone)]
pub(super) struct ContactLog {
    pub(super) rows: Vec<LoggedEvent>,
    /// Overlapping pairs at the end of the last step, ascending.
    pairs: Vec<(u32, u32)>,
    /// Per ball, the table walls it overlapped (bit `Wall as u8`).
    walls: Vec<u8>,
    /// Overlapping `(ball, piece)` of the walls inside the table, ascending.
    pieces: Vec<(u32, u32)>,
    scratch: Vec<(u32, u32)>,
}

impl ContactLog {
    /// Notes the contacts overlapping now, and logs at `time` those that did not before.
    /// `walls`: the walls inside the table and their cells, or `None` when no wall is a
    /// spring (on cloth they are cushions, which log their own impacts): then only the
    /// pairs are looked at.
    pub(super) fn record(
        &mut self,
        balls: &Balls,
        table: &Table,
        list: &NeighbourList,
        walls: Option<(&Walls, Option<&WallCells>)>,
        time: f64,
    ) {
        let (x, y, vx, vy, r) = (&balls.x, &balls.y, &balls.vx, &balls.vy, &balls.r);
        self.scratch.clear();
        for block in list.blocks() {
            for &(i, j) in block.pairs() {
                let (iu, ju) = (i as usize, j as usize);
                let (dx, dy) = table.min_image(x[ju] - x[iu], y[ju] - y[iu]);
                let reach = r[iu] + r[ju];
                if dx * dx + dy * dy < reach * reach {
                    self.scratch.push((i.min(j), i.max(j)));
                }
            }
        }
        self.scratch.sort_unstable();
        for &(i, j) in &self.scratch {
            if self.pairs.binary_search(&(i, j)).is_err() {
                let (iu, ju) = (i as usize, j as usize);
                let (dx, dy) = table.min_image(x[ju] - x[iu], y[ju] - y[iu]);
                let d = dx.hypot(dy);
                let u = ((vx[iu] - vx[ju]) * dx + (vy[iu] - vy[ju]) * dy) / d;
                self.rows.push(LoggedEvent::pair(time, i, j, f64::NAN, u));
            }
        }
        std::mem::swap(&mut self.pairs, &mut self.scratch);

        let Some((walls, cells)) = walls else {
            return;
        };
        let n = balls.len();
        self.walls.resize(n, 0);
        let open = [table.has_walls(0), table.has_walls(1)];
        for i in 0..n {
            if balls.inv_m[i] == 0.0 {
                self.walls[i] = 0;
                continue;
            }
            let touching = [
                (open[0] && x[i] < r[i], Wall::Left, -vx[i]),
                (open[0] && x[i] > table.width - r[i], Wall::Right, vx[i]),
                (open[1] && y[i] < r[i], Wall::Top, -vy[i]),
                (open[1] && y[i] > table.height - r[i], Wall::Bottom, vy[i]),
            ];
            let mut now = 0u8;
            for (on, w, u) in touching {
                let bit = 1 << w as u8;
                if on {
                    now |= bit;
                    if self.walls[i] & bit == 0 {
                        let row = LoggedEvent::table_wall(time, i as u32, w, f64::NAN, u);
                        self.rows.push(row);
                    }
                }
            }
            self.walls[i] = now;
        }

        let Some(cells) = cells.filter(|_| walls.has_walls()) else {
            return;
        };
        self.scratch.clear();
        for i in 0..n {
            if balls.inv_m[i] == 0.0 {
                continue;
            }
            let p = [x[i], y[i]];
            let (rows, pieces, scratch) = (&mut self.rows, &self.pieces, &mut self.scratch);
            walls.touches(cells.near(p[0], p[1]), p, r[i], |t| {
                if t.distance >= r[i] {
                    return;
                }
                scratch.push((i as u32, t.piece));
                if pieces.binary_search(&(i as u32, t.piece)).is_err() {
                    let u = -(vx[i] * t.normal[0] + vy[i] * t.normal[1]);
                    rows.push(LoggedEvent::wall(time, i as u32, t.wall, f64::NAN, u));
                }
            });
        }
        self.scratch.sort_unstable();
        std::mem::swap(&mut self.pieces, &mut self.scratch);
    }
}
