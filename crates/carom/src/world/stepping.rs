//! The step: what one step of the world does, in order (the walls' drive, the
//! collision model over the step, the moving walls, friction, the clock, the event
//! log's rows and the balls that left play, the thermostat), and runs of steps that
//! bring the balls up to date only at their end.

use super::*;

impl World {
    /// One time step: the collision model advances every ball by `dt` (free flight,
    /// contacts, walls), then friction acts on the new velocities.
    pub fn step(&mut self) -> Result<(), StepError> {
        self.run_steps(1)
    }

    /// `n` steps, stopping at the first error. The balls are brought up to date (for
    /// [`World::balls`] and every other reader) only once, at the end: between the
    /// steps an event-driven model advances only the balls its events involve, so a
    /// run of many steps costs the events in it, not `n` times the ball count.
    pub fn run_steps(&mut self, n: u64) -> Result<(), StepError> {
        let result = self.run_steps_unread(n);
        self.synchronise();
        result
    }

    /// `n` steps that leave the balls where the model keeps them, for a caller that
    /// reads only the counters ([`World::time`], [`World::steps`], collisions, events,
    /// virial) until the run's end: a progress display, a benchmark's timed blocks.
    /// Splitting a run this way costs nothing and changes no bit: `run_steps_unread(a)`
    /// then `run_steps(b)` is `run_steps(a + b)`. Synchronising instead would cost
    /// O(N) per chunk and, in the event model, restart its predictions as a resumed run
    /// does, which is exact but not the same rounding.
    ///
    /// Until [`World::synchronise`] (or `run_steps`, or any editing call) the balls are
    /// not to be read: the readers check, and a read then is a programming error that
    /// panics rather than returning stale positions. After an error the balls are
    /// already up to date, at the last good step.
    pub fn run_steps_unread(&mut self, n: u64) -> Result<(), StepError> {
        self.own_threads();
        self.behind |= n > 0;
        for _ in 0..n {
            let compressing = self.compression_running();
            if let Err(e) = self.step_deferred() {
                self.synchronise();
                return Err(e);
            }
            // A compression's stop ends the run of steps there.
            if compressing && !self.compression_running() {
                break;
            }
        }
        Ok(())
    }

    /// Brings every ball up to the world's time after [`World::run_steps_unread`]
    /// (nothing to do otherwise).
    pub fn synchronise(&mut self) {
        if self.behind {
            self.model.synchronise(&mut self.balls);
            self.behind = false;
        }
    }

    /// Whether the balls may be read: false between [`World::run_steps_unread`] and
    /// [`World::synchronise`].
    pub fn is_current(&self) -> bool {
        !self.behind
    }

    pub(super) fn assert_current(&self) {
        assert!(
            !self.behind,
            "the balls were read after run_steps_unread without World::synchronise"
        );
    }

    /// One step that may leave the balls behind until the model synchronises them.
    pub(super) fn step_deferred(&mut self) -> Result<(), StepError> {
        self.turn_in_free_flight();
        let moves = self.walls.moves();
        self.drive_walls(moves);
        // The step's length: `dt`, or less where a compression reaches its target.
        let len = if self.compressing.is_some() {
            self.compress_begin()
        } else {
            self.step_length()
        };
        self.step_model(len)?;
        if moves {
            self.move_walls();
        }
        self.apply_table_friction();
        self.steps += 1;
        let start = self.time;
        // A compression's step is cut short where the packing jams in it.
        let len = if self.compressing.is_some() {
            self.compress_len(len)
        } else {
            len
        };
        self.time += len;
        // A sheared box's images slide on (the model wrapped on the same new shift).
        self.table = self.table.after(len);
        let from = self.log_step_rows(start);
        self.record_exits(start, from);
        if self.compressing.is_some() {
            self.compress_end(len);
        }
        self.apply_thermostat();
        Ok(())
    }

    /// Before the step, the walls' drive (`moves`: some wall moves): each servo's
    /// speed, and the glued balls' velocities.
    pub(super) fn drive_walls(&mut self, moves: bool) {
        if moves && self.walls.has_servo() {
            // A servo's speed for this step, from the forces at its start.
            let in_play = (!self.in_play.is_empty()).then_some(&self.in_play[..]);
            let (k, dt) = (self.physics.stiffness, self.physics.dt);
            Arc::make_mut(&mut self.walls).update_servos(&self.balls, &self.table, k, dt, in_play);
        }
        if moves && !self.walls.glued().is_empty() {
            // Glued balls ride on their walls at this step's velocities.
            self.walls.carry_glued(&mut self.balls);
        }
    }

    /// The model's step of length `len` (`dt`, or less where a compression reaches its
    /// target); a failed step drops its rows.
    pub(super) fn step_model(&mut self, len: f64) -> Result<(), StepError> {
        // A stepping model's compression that reaches its target inside the step cuts
        // the step there (the event model cuts its own).
        let cut;
        let physics = if len < self.physics.dt
            && !matches!(self.physics.model, ModelKind::Event | ModelKind::Chain)
        {
            cut = Physics {
                dt: len,
                ..self.physics
            };
            &cut
        } else {
            &self.physics
        };
        let ctx = StepContext {
            balls: &mut self.balls,
            table: &self.table,
            physics,
            pool: self.pool.as_deref().map(|t| &t.pool),
            walls: &self.walls,
            in_play: (!self.in_play.is_empty()).then_some(&self.in_play[..]),
        };
        if let Err(e) = self.model.step_deferred(ctx) {
            // A failed step's rows describe impacts that did not stand.
            if self.event_log.is_some() {
                self.model.take_events(&mut Vec::new());
            }
            return Err(e);
        }
        Ok(())
    }

    /// After the step, the moving walls' new places.
    pub(super) fn move_walls(&mut self) {
        // The event model keeps the walls' places on its own clock; the others
        // move them on by `dt` here.
        let walls = Arc::make_mut(&mut self.walls);
        if !self.model.place_walls(walls) {
            walls.advance(self.physics.dt);
        }
        self.model.walls_moved(&self.walls);
    }

    /// Friction against the table other than cloth, on every ball's velocity.
    pub(super) fn apply_table_friction(&mut self) {
        // Every model moves its balls on cloth itself: the stepping models by the closed
        // form as their free flight (`friction::cloth_motion`), `event` with each phase's
        // end as an event (`models/event/on_cloth.rs`). Other frictions act on every
        // ball's velocity at the end of the step.
        if !matches!(
            self.physics.friction,
            Friction::None | Friction::Cloth { .. }
        ) {
            self.model.synchronise(&mut self.balls);
            friction::apply(&mut self.balls, &self.physics.friction, self.physics.dt);
        }
    }

    /// Takes the model's rows of the step that began at `start` into the event log, on
    /// the world's clock; returns where the step's rows begin.
    pub(super) fn log_step_rows(&mut self, start: f64) -> usize {
        // The step's rows begin here (the model's, then the removals found after it).
        let from = self.event_log.as_ref().map_or(0, Vec::len);
        if let Some(log) = self.event_log.as_mut() {
            self.model.take_events(log);
            for row in &mut log[from..] {
                row.time += start;
            }
        }
        from
    }

    /// The balls that left play in the step that began at `start` (the step's rows
    /// begin at `from`).
    pub(super) fn record_exits(&mut self, start: f64, from: usize) {
        if self.table.any_open() || !self.walls.pockets().is_empty() {
            if self.model.finds_exits() {
                let mut exits = std::mem::take(&mut self.exits);
                self.model.take_exits(&mut exits);
                for &(i, r) in &exits {
                    let time = start + r.time;
                    self.record_removal(i, Removal { time, ..r });
                }
                exits.clear();
                self.exits = exits;
            } else {
                self.model.synchronise(&mut self.balls);
                self.take_exits();
            }
            // A ball leaves play within the step, before impacts that the model resolved
            // later in it (a stepping model's, at the step's end): the step's rows in
            // time order, ties as they were written.
            if let Some(log) = self.event_log.as_mut() {
                if log.len() > from + 1 {
                    log[from..].sort_by(|a, b| a.time.total_cmp(&b.time));
                }
            }
        }
    }

    /// The thermostat, where the model does not apply it itself.
    pub(super) fn apply_thermostat(&mut self) {
        if let Some(th) = self
            .thermostat
            .filter(|th| !self.model.applies_thermostat(th, &self.physics))
        {
            // The step's own number (counted from 0) keys the Andersen draws.
            self.model.synchronise(&mut self.balls);
            // In a sheared box, about the streaming profile.
            th.apply_on(
                &mut self.balls,
                &self.in_play,
                self.steps - 1,
                self.physics.dt,
                &self.table,
            );
            // The event model's predictions are stale once velocities change.
            if self.physics.model == ModelKind::Event {
                self.model.invalidate();
            }
        }
    }
}
