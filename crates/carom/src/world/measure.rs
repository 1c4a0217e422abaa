//! What a run measures: the diagnostics over a window, order, stress, contact forces
//! and profiles, and the contact memory a state file keeps.

use super::{Window, World};
use crate::diagnostics::{self, Diagnostics};
use crate::models;
use crate::stress::{self, Tensor};

impl World {
    /// Collisions resolved since the model was created (for `spring`, contacts begun).
    pub fn collisions(&self) -> u64 {
        self.model.collisions()
    }

    /// Events processed since the model was created, for event-driven models.
    pub fn events(&self) -> Option<u64> {
        self.model.event_count()
    }

    /// Everything a run reports, the pressure averaged over the run's window (since
    /// the world was built: a resumed run measures afresh).
    pub fn diagnostics(&self) -> Diagnostics {
        let mut d = self.diagnostics_over(&self.run_window);
        if let (Some(p), Some(c)) = (d.chain.as_mut(), self.model.chain()) {
            // The blocks run with the run's window: their spread is the error.
            p.z_error = c.blocks().error();
            p.blocks = c.blocks().count;
        }
        d
    }

    /// The diagnostics with the pressure averaged over the window that began at `w`
    /// (from [`World::window`]), e.g. the interval since the previous sample.
    pub fn diagnostics_over(&self, w: &Window) -> Diagnostics {
        self.assert_current();
        let contact = self
            .model
            .contact_energy(&self.balls, &self.table, &self.physics);
        let mut d = diagnostics::measure(
            &self.balls,
            self.physics.gravity,
            contact,
            self.model.collisions(),
            self.symmetry.as_ref(),
        );
        let (phi, mv2, n) = diagnostics::statistics(&self.balls, &self.table, &self.in_play);
        d.packing_fraction = phi;
        if self.can_lose_balls() {
            d.in_play = Some(self.in_play_count());
        }
        d.temperature = if n > 0 { 0.5 * mv2 / n as f64 } else { 0.0 };
        let duration = self.time - w.time;
        let kinetic = 0.5 * (w.kinetic + mv2);
        d.pressure = diagnostics::pressure(
            kinetic,
            self.model.virial() - w.virial,
            duration,
            self.table.area(),
        );
        // The tensor beside it, from sums of its own (the scalar above is untouched).
        let k_now = stress::kinetic(&self.balls, &self.in_play);
        let kinetic = stress::add(w.kinetic_tensor, k_now).map(|v| 0.5 * v);
        let virial = stress::sub(self.model.virial_tensor(), w.virial_tensor);
        let p = stress::pressure_tensor(kinetic, virial, duration, self.table.area());
        [d.stress_xx, d.stress_xy, d.stress_yy] = p;
        if let Some(c) = self.model.chain() {
            self.chain_pressure(&mut d, c, w);
        }
        d
    }

    /// The chain estimator's pressure over the window that began at `w`: `z = beta P A
    /// / N` from the chains' advance, `beta_p = z N / A`, and `pressure = beta_p kT` with
    /// the balls' kinetic temperature (`beta_p` itself when they have none), so that
    /// `pressure A / (N kT)` is `z` as in every model; the pressure tensor isotropic.
    fn chain_pressure(&self, d: &mut Diagnostics, c: &models::chain::ChainModel, w: &Window) {
        let total = c.tally();
        let z = total.since(&w.chain).z();
        let n = self.balls.len() as f64;
        let beta_p = z * n / self.table.area();
        d.pressure = if d.temperature > 0.0 {
            beta_p * d.temperature
        } else {
            beta_p
        };
        [d.stress_xx, d.stress_xy, d.stress_yy] = [d.pressure, 0.0, d.pressure];
        d.chain = Some(diagnostics::ChainPressure {
            z,
            beta_p,
            z_error: None,
            blocks: 0,
            total,
            length: c.length(),
        });
    }

    /// `d` with the order parameter `psi6` measured: the global bond-orientational order
    /// `|<psi_6>|`, each ball's neighbours its six nearest balls in play.
    pub fn with_order(&self, mut d: Diagnostics) -> Diagnostics {
        self.assert_current();
        d.psi6 = Some(crate::order::psi6(&self.balls, &self.table, &self.in_play));
        d
    }

    /// Per ball, `(re, im)` of the local `psi_6 = (1/6) sum_j exp(6 i theta_ij)` over its
    /// six nearest neighbours in play; 0 out of play.
    pub fn psi6_per_ball(&self) -> Vec<[f64; 2]> {
        self.assert_current();
        crate::order::psi6_per_ball(&self.balls, &self.table, &self.in_play)
    }

    /// The start of an averaging window here and now.
    pub fn window(&self) -> Window {
        self.assert_current();
        Window {
            time: self.time,
            virial: self.model.virial(),
            kinetic: diagnostics::statistics(&self.balls, &self.table, &self.in_play).1,
            virial_tensor: self.model.virial_tensor(),
            kinetic_tensor: stress::kinetic(&self.balls, &self.in_play),
            chain: self.model.chain().map(|c| c.tally()).unwrap_or_default(),
        }
    }

    /// Starts the run's averaging window afresh (at the current state).
    pub fn restart_window(&mut self) {
        self.synchronise();
        self.run_window = self.window();
        if let Some(c) = self.model.chain_mut() {
            c.restart_blocks();
        }
    }

    /// The per-contact memory the model carries into the next step (loaded tangential
    /// springs), for the state file; empty without contact friction.
    pub fn contact_history(&self) -> models::ContactHistory {
        self.assert_current();
        if self.physics.contact_friction.is_active() {
            self.model.contact_history()
        } else {
            models::ContactHistory::default()
        }
    }

    /// Hands a state file's contact memory back to the model (ignored without contact
    /// friction, or by a model that keeps none).
    pub fn restore_contact_history(&mut self, history: &models::ContactHistory) {
        self.synchronise();
        if !self.physics.contact_friction.is_active() {
            return;
        }
        if self.physics.friction.is_cloth() || history.vertical.is_empty() {
            self.model.restore_contact_history(history, &self.balls);
        } else {
            // Only spheres on cloth have vertical stretches: off cloth they are ignored,
            // as a model without springs ignores them all.
            let planar = models::ContactHistory {
                vertical: Vec::new(),
                ..history.clone()
            };
            self.model.restore_contact_history(&planar, &self.balls);
        }
    }

    /// The pair virial the model accumulated since it was created.
    pub fn virial(&self) -> f64 {
        self.model.virial()
    }

    /// The normal force of every ball-ball contact now, for drawing force chains;
    /// `None` for a model that acts by impulses and has no forces (all but `spring`).
    pub fn contact_forces(&self) -> Option<Vec<stress::ContactForce>> {
        self.assert_current();
        let mut out = Vec::new();
        self.model
            .contact_forces(&self.balls, &self.table, &self.physics, &mut out)
            .then_some(out)
    }

    /// The full force (normal and tangential) of every ball-ball contact now, for the
    /// contact stress of profiles (`profiles::pair_forces`); `None` as for
    /// [`World::contact_forces`].
    pub fn pair_forces(&self) -> Option<Vec<crate::profiles::PairForce>> {
        let normals = self.contact_forces()?;
        let history = self.contact_history();
        Some(crate::profiles::pair_forces(
            &self.balls,
            &self.table,
            &self.physics,
            &normals,
            &history,
        ))
    }

    /// Solid fraction, velocity and stress in `bins` slabs across `axis` (0: x, 1: y),
    /// see `profiles`.
    pub fn profiles(&self, axis: usize, bins: usize) -> crate::profiles::Profiles {
        let pairs = self.pair_forces().unwrap_or_default();
        crate::profiles::measure(&self.balls, &self.table, &self.in_play, &pairs, axis, bins)
    }

    /// Its tensor form, `[xx, xy, yy]` (the contact part of the pressure tensor, summed
    /// as [`World::virial`]).
    pub fn virial_tensor(&self) -> Tensor {
        self.model.virial_tensor()
    }
}
