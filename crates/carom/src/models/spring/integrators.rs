//! The spring model's other time-step equations (the tutorial's experiments beside the
//! semi-implicit Euler step of `euler.rs`): the average velocity, the average and the
//! predicted acceleration, and velocity Verlet. Each evaluates the forces over the
//! whole table first and then moves every ball, serially; each returns the contacts
//! that began and the largest squared displacement of a ball in the step (the
//! neighbour list's measure of how far anything moved since it was built).

use super::*;

impl Spring {
    /// `v += dt a; x += dt (v_old + v_new) / 2`.
    pub(super) fn step_average_velocity(
        &mut self,
        balls: &mut Balls,
        table: &Table,
        physics: &Physics,
        pool: Option<&rayon::ThreadPool>,
        walls: &Walls,
    ) -> (u64, f64) {
        let dt = physics.dt;
        let mut step2: f64 = 0.0;
        let began = self.evaluate(balls, table, physics, pool, walls);
        for i in 0..balls.len() {
            let (vx0, vy0) = (balls.vx[i], balls.vy[i]);
            balls.vx[i] += dt * self.ax[i];
            balls.vy[i] += dt * self.ay[i];
            let (sx, sy) = (
                dt * 0.5 * (vx0 + balls.vx[i]),
                dt * 0.5 * (vy0 + balls.vy[i]),
            );
            balls.x[i] += sx;
            balls.y[i] += sy;
            step2 = step2.max(sx * sx + sy * sy);
        }
        (began, step2)
    }

    /// The velocity from the mean of this step's and the last step's acceleration
    /// (`x += dt (v_old + v_new) / 2`), or with `predicted` from this step's
    /// acceleration and its linear extrapolation one step ahead (`x += dt v_new`).
    pub(super) fn step_average_acceleration(
        &mut self,
        balls: &mut Balls,
        table: &Table,
        physics: &Physics,
        pool: Option<&rayon::ThreadPool>,
        walls: &Walls,
        predicted: bool,
    ) -> (u64, f64) {
        let dt = physics.dt;
        let mut step2: f64 = 0.0;
        let began = self.evaluate(balls, table, physics, pool, walls);
        if !self.have_history {
            // No earlier force: start as if it had been constant.
            self.prev_ax.clone_from(&self.ax);
            self.prev_ay.clone_from(&self.ay);
            self.have_history = true;
        }
        for i in 0..balls.len() {
            let (vx0, vy0) = (balls.vx[i], balls.vy[i]);
            let (a, a_old) = ((self.ax[i], self.ay[i]), (self.prev_ax[i], self.prev_ay[i]));
            let (sx, sy);
            if predicted {
                // Average of the current force and its linear extrapolation one step
                // ahead: the velocity "anticipates" the collision.
                balls.vx[i] += dt * (1.5 * a.0 - 0.5 * a_old.0);
                balls.vy[i] += dt * (1.5 * a.1 - 0.5 * a_old.1);
                (sx, sy) = (dt * balls.vx[i], dt * balls.vy[i]);
            } else {
                balls.vx[i] += dt * 0.5 * (a_old.0 + a.0);
                balls.vy[i] += dt * 0.5 * (a_old.1 + a.1);
                (sx, sy) = (
                    dt * 0.5 * (vx0 + balls.vx[i]),
                    dt * 0.5 * (vy0 + balls.vy[i]),
                );
            }
            balls.x[i] += sx;
            balls.y[i] += sy;
            step2 = step2.max(sx * sx + sy * sy);
        }
        std::mem::swap(&mut self.prev_ax, &mut self.ax);
        std::mem::swap(&mut self.prev_ay, &mut self.ay);
        (began, step2)
    }

    /// Velocity Verlet: half a kick, the drift, the forces at the new positions
    /// (loading or unloading judged with the half-step velocity), half a kick. The
    /// drift's displacement is reported to the neighbour list at once, before the
    /// second evaluation, so the step returns no further displacement.
    pub(super) fn step_velocity_verlet(
        &mut self,
        balls: &mut Balls,
        table: &Table,
        physics: &Physics,
        pool: Option<&rayon::ThreadPool>,
        walls: &Walls,
    ) -> (u64, f64) {
        let dt = physics.dt;
        let mut step2: f64 = 0.0;
        if !self.have_history {
            self.evaluate(balls, table, physics, pool, walls);
            self.have_history = true;
        }
        let h = 0.5 * dt;
        for i in 0..balls.len() {
            balls.vx[i] += h * self.ax[i];
            balls.vy[i] += h * self.ay[i];
            let (sx, sy) = (dt * balls.vx[i], dt * balls.vy[i]);
            balls.x[i] += sx;
            balls.y[i] += sy;
            step2 = step2.max(sx * sx + sy * sy);
        }
        self.list.moved(step2.sqrt());
        let began = self.evaluate(balls, table, physics, pool, walls);
        for i in 0..balls.len() {
            balls.vx[i] += h * self.ax[i];
            balls.vy[i] += h * self.ay[i];
        }
        (began, 0.0)
    }
}
