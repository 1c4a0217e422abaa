//! Whether a run has come to rest, asked without reading the balls where the model
//! can tell: a shot on cloth runs until every ball stops, and reading the balls at
//! each look would cost the event model a restart of its predictions.

use super::World;

impl World {
    /// Whether every ball in play has stopped moving across the table (a ball may
    /// still spin on the spot: it moves no more). After [`World::run_steps_unread`] the
    /// model answers from its own state if it can (the event model on cloth does), and
    /// the balls stay where the model keeps them; otherwise they are brought up to the
    /// world's time and read. Either way the answer is what reading the balls after
    /// [`World::synchronise`] would give.
    pub fn motion_ended(&mut self) -> bool {
        if !self.is_current() {
            if let Some(ended) = self.model.motion_ended(&self.balls) {
                return ended;
            }
            self.synchronise();
        }
        let b = &self.balls;
        (0..b.len()).all(|i| {
            !self.is_in_play(i)
                || (b.vx[i] == 0.0 && b.vy[i] == 0.0 && b.wx[i] == 0.0 && b.wy[i] == 0.0)
        })
    }
}
