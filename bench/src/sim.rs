//! What the harness drives, carom or the peer: a simulation that steps, and reports its
//! energy, its events and a hash of its state.

use carom::World;

/// A simulation the harness can drive: carom or the peer.
pub trait Sim {
    fn run(&mut self, steps: u64) -> Result<(), String>;
    /// A hash of every bit of the state (for comparing runs), if the engine has one.
    fn state_hash(&mut self) -> Option<u64> {
        None
    }
    fn total_energy(&mut self) -> f64;
    /// Events (collisions) so far.
    fn events(&self) -> u64;
    /// Collisions so far (ball-ball and ball-wall), what event-driven codes publish.
    fn collisions(&self) -> u64 {
        0
    }
}

impl Sim for World {
    /// A timed block reads nothing but counters: the balls stay where the model keeps
    /// them, as in a command-line run that samples nothing, and are brought up to date
    /// only when the energy or the state is read.
    fn run(&mut self, steps: u64) -> Result<(), String> {
        self.run_steps_unread(steps).map_err(|e| e.to_string())
    }

    fn total_energy(&mut self) -> f64 {
        self.synchronise();
        self.diagnostics().total_energy
    }

    /// The model's own event count where it has one (the event model: collisions and
    /// cell crossings, as the command line reports them), else collisions.
    fn events(&self) -> u64 {
        World::events(self).unwrap_or_else(|| World::collisions(self))
    }

    fn collisions(&self) -> u64 {
        World::collisions(self)
    }

    fn state_hash(&mut self) -> Option<u64> {
        self.synchronise();
        // FNV-1a over the bits of every coordinate and velocity, then the collisions.
        let b = self.balls();
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |v: u64| {
            for byte in v.to_le_bytes() {
                h = (h ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3);
            }
        };
        for a in [&b.x, &b.y, &b.vx, &b.vy] {
            a.iter().for_each(|v| eat(v.to_bits()));
        }
        eat(self.collisions());
        Some(h)
    }
}
