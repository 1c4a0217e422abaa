//! Contact friction inside a simultaneous impact.
//!
//! With friction a multi-contact impact is no longer a projection of the velocities, and
//! an exact frictional complementarity problem (a cone at every contact) may have
//! several solutions or none that is energy-consistent. The treatment here is
//! sequential on top of the exact normal solve:
//!
//! 1. The frictionless problem is solved exactly as without friction (the same code,
//!    the same result), giving every contact its total normal impulse `lambda_k`.
//! 2. In ascending contact order, each contact that received a normal impulse gets the
//!    rough-disk tangential impulse for its slip as it is now (after the normal solve
//!    and the tangential impulses of the contacts before it): the slip reversed by
//!    beta, capped at `mu lambda_k` (`contact::tangential_impulse`).
//! 3. Tangential impulses can turn another contact towards approach; the frictionless
//!    solve then runs once more, without friction, so that the impact ends with nothing
//!    approaching, as the frictionless model guarantees.
//!
//! Why it is sound: every impulse acts equal and opposite on the two balls of a pair at
//! one point, so momentum is kept (a wall takes the rest). A normal solve never adds
//! kinetic energy. A tangential impulse `j` on a contact with slip `u_t` and compliance
//! `k_t` changes the two balls' kinetic energy (translation plus rotation) by
//! `j u_t + j^2 k_t / 2`; with `j` between 0 and `-(1 + beta) u_t / k_t` and
//! `beta <= 1` that is `<= 0`. So no step can gain energy. For a single contact the
//! normal impulse does not change the slip, so 1 and 2 together are exactly the
//! rough-disk law of `contact::rough_impulse` (step 3 then finds nothing to do).
//! With `mu = 0` none of this runs: the caller takes the frictionless path.
//!
//! Spheres on cloth (`cloth`) take the rough-sphere law of `contact` in step 2
//! (`contact::sphere_tangential_impulse`): the slip has a vertical component too, from
//! the spins about the table's axes, and the impulse's vertical part turns those spins.
//! The soundness argument holds as it is: the tangential impulse `J` against the slip
//! `u` changes the energy by at most `J . u + k_t |J|^2 / 2 <= 0` (the vertical
//! direction's own compliance is the smaller `k_t - k_n`, see `contact`'s notes), and
//! the vertical part changes no normal velocity, so step 3 sees only what the in-plane
//! part turned. A wall
//! inside the table with a `mu` of its own puts its contacts through this path with
//! that `mu` (the others keep the scene's), against its surface's velocity.

use super::{ContactSolver, NONE};
use crate::balls::Balls;
use crate::contact::{sphere_tangential_impulse, tangential_impulse};
use crate::models::Contact;
use crate::physics::ContactFriction;
use crate::stress::add_contact;

impl ContactSolver {
    /// [`ContactSolver::resolve`] with contact friction, as the module describes.
    /// Returns how many contacts received a normal impulse in the frictional solve.
    pub fn resolve_rough(
        &mut self,
        balls: &mut Balls,
        contacts: &[Contact],
        restitution: f64,
        friction: &ContactFriction,
        cloth: bool,
        pool: Option<&rayon::ThreadPool>,
    ) -> usize {
        let hits = self.resolve(balls, contacts, restitution, pool);
        if hits == 0 {
            return 0;
        }
        let mut turned = false;
        for k in 0..self.set.len() {
            let lambda = self.lambda_sum[k];
            if lambda <= 0.0 {
                continue;
            }
            let b = self.set.slot_ball[self.set.side_b[k] as usize] as usize;
            let a = self.set.side_a[k];
            let a = (a != NONE).then(|| self.set.slot_ball[a as usize] as usize);
            // The set's normal points from side a to side b; the contact law's from
            // its ball `i` to its ball `j`: i = a, j = b, or for a wall i = b and the
            // normal reversed (from the ball into the wall).
            let (nx, ny) = (self.set.nx[k], self.set.ny[k]);
            // A wall inside the table brings its own friction and surface velocity.
            let (f, surface) = match contacts[self.set.source[k] as usize] {
                Contact::Piece(_, p) => {
                    let p = &self.pieces[p as usize];
                    (
                        ContactFriction {
                            mu: p.mu,
                            ..*friction
                        },
                        p.surface,
                    )
                }
                _ => (*friction, [0.0, 0.0]),
            };
            if let (true, Some(a)) = (cloth, a) {
                // Spheres on cloth: the friction with the vertical slip too.
                let s = crate::contact::sphere_pair_state(balls, a, b, [nx, ny]);
                let (jt, _) = sphere_tangential_impulse(lambda, s.u, s.k_t, &f);
                if jt != [0.0, 0.0] {
                    crate::contact::apply_sphere_pair(balls, a, b, [nx, ny], 0.0, jt);
                    let d = self.set.dist[k];
                    add_contact(&mut self.virial_tensor, [nx, ny], d, 0.0, jt[0]);
                    turned = true;
                }
                continue;
            }
            let (u_t, k_t) = match a {
                Some(a) => {
                    let (_, u_t, _, k_t) = crate::contact::pair_state(balls, a, b, [nx, ny]);
                    (u_t, k_t)
                }
                None => {
                    let (_, u_t, _, k_t) =
                        crate::contact::moving_wall_state(balls, b, [-nx, -ny], surface);
                    (u_t, k_t)
                }
            };
            let (j_t, _) = tangential_impulse(lambda, u_t, k_t, &f);
            if j_t == 0.0 {
                continue;
            }
            match a {
                Some(a) => {
                    crate::contact::apply_pair(balls, a, b, [nx, ny], 0.0, j_t);
                    let d = self.set.dist[k];
                    add_contact(&mut self.virial_tensor, [nx, ny], d, 0.0, j_t);
                }
                None => crate::contact::apply_wall(balls, b, [-nx, -ny], 0.0, j_t),
            }
            turned = true;
        }
        if turned {
            // Whatever the tangential impulses turned towards approach: the frictionless
            // solve, which only ever removes energy. Its hits were counted already.
            self.resolve(balls, contacts, restitution, pool);
        }
        hits
    }
}
