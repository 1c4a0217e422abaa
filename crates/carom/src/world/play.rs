//! Balls in and out of play: pockets and open edges take balls out, each with the
//! moment and the way it left.

use super::World;
use crate::event_log::LoggedEvent;
use crate::walls::{Exit, Removal};

impl World {
    /// Whether balls can leave play here: the scene has pockets or open edges, or some
    /// ball already left.
    pub fn can_lose_balls(&self) -> bool {
        self.table.any_open() || !self.walls.pockets().is_empty() || !self.in_play.is_empty()
    }

    /// Whether ball `i` is in play (it has not left through a pocket or an open edge).
    pub fn is_in_play(&self, i: usize) -> bool {
        self.in_play.get(i).copied().unwrap_or(true)
    }

    /// Per ball, whether it is in play; empty while every ball is.
    pub fn in_play_mask(&self) -> &[bool] {
        &self.in_play
    }

    /// How many balls are in play.
    pub fn in_play_count(&self) -> usize {
        if self.in_play.is_empty() {
            self.balls.len()
        } else {
            self.in_play.iter().filter(|&&p| p).count()
        }
    }

    /// When and how ball `i` left play, if it did.
    pub fn removal(&self, i: usize) -> Option<Removal> {
        self.removals.get(i).copied().flatten()
    }

    /// Takes ball `i` out of play: it keeps its index and its position, stops, and no
    /// longer moves, collides or counts in the diagnostics. (It is held as a ball of
    /// infinite mass at rest, which every model already leaves where it is; the models
    /// leave it out of their contacts through the in-play mask.)
    pub fn remove_ball(&mut self, i: usize, removal: Removal) {
        self.synchronise();
        if !self.record_removal(i, removal) {
            return;
        }
        let b = &mut self.balls;
        b.vx[i] = 0.0;
        b.vy[i] = 0.0;
        b.omega[i] = 0.0;
        b.inv_m[i] = 0.0;
        b.inv_inertia[i] = 0.0;
        self.model.invalidate();
        self.spinning = None;
    }

    /// Marks ball `i` out of play (the model, or the caller, freezes it); false when it
    /// already was.
    pub(super) fn record_removal(&mut self, i: usize, removal: Removal) -> bool {
        let n = self.balls.len();
        if self.in_play.is_empty() {
            // In place: a world copied into a reused one keeps the arrays' storage.
            self.in_play.resize(n, true);
            self.removals.clear();
            self.removals.resize(n, None);
        }
        if !self.in_play[i] {
            return false;
        }
        self.in_play[i] = false;
        self.removals[i] = Some(removal);
        if let Some(log) = self.event_log.as_mut() {
            log.push(LoggedEvent::removal(removal.time, i as u32, removal.by));
        }
        true
    }

    /// After a step: every dynamic ball in play whose centre lies in a pocket or beyond
    /// an open edge leaves play, at the moment its straight path over the step entered
    /// (the step's own error, as for any contact of the stepping models).
    pub(super) fn take_exits(&mut self) {
        let (t, dt) = (self.time, self.physics.dt);
        let mut leaving = Vec::new();
        {
            let (b, table, walls) = (&self.balls, &self.table, &self.walls);
            for i in 0..b.len() {
                if b.inv_m[i] == 0.0 || !self.in_play.get(i).copied().unwrap_or(true) {
                    continue;
                }
                let (x, y, vx, vy) = (b.x[i], b.y[i], b.vx[i], b.vy[i]);
                // How long ago the centre crossed `at` along an axis, moving at `v`.
                let ago = |over: f64, v: f64| (over / v.abs()).clamp(0.0, dt);
                let exit = if let Some(k) = walls.pocket_at([x, y]) {
                    let c = walls.pockets()[k as usize];
                    // Back along the path to the pocket's rim: the root of
                    // |p - v s - c| = R with s in [0, dt].
                    let (dx, dy) = (x - c.center[0], y - c.center[1]);
                    let a = vx * vx + vy * vy;
                    let bq = dx * vx + dy * vy;
                    let cq = dx * dx + dy * dy - c.radius * c.radius;
                    let s = if a > 0.0 {
                        ((bq + (bq * bq - a * cq).max(0.0).sqrt()) / a).clamp(0.0, dt)
                    } else {
                        0.0
                    };
                    Some((Exit::Pocket(k), s))
                } else if table.is_open(0) && x < 0.0 {
                    Some((Exit::Left, ago(-x, vx)))
                } else if table.is_open(0) && x > table.width {
                    Some((Exit::Right, ago(x - table.width, vx)))
                } else if table.is_open(1) && y < 0.0 {
                    Some((Exit::Top, ago(-y, vy)))
                } else if table.is_open(1) && y > table.height {
                    Some((Exit::Bottom, ago(y - table.height, vy)))
                } else {
                    None
                };
                if let Some((by, s)) = exit {
                    leaving.push((i, Removal { time: t - s, by }));
                }
            }
        }
        for (i, r) in leaving {
            self.remove_ball(i, r);
        }
    }
}
