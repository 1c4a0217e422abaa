//! The summary a run prints on stdout.

use std::fmt;
use std::time::Duration;

use carom::energy_drift;
use carom::momentum_drift;
use carom::{Diagnostics, ModelKind, World};

pub struct Summary<'a> {
    pub world: &'a World,
    pub start: &'a Diagnostics,
    pub end: &'a Diagnostics,
    pub first_step: u64,
    pub first_time: f64,
    pub wall: Duration,
    pub threads: usize,
}

/// Six significant digits, fixed or scientific as fits.
pub fn num(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let mag = x.abs().log10().floor() as i32;
    if (-4..9).contains(&mag) {
        let decimals = (5 - mag).max(0) as usize;
        let s = format!("{x:.decimals$}");
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    } else {
        format!("{x:.5e}")
    }
}

impl fmt::Display for Summary<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_run(f)?;
        self.write_conservation(f)?;
        self.write_in_play(f)?;
        self.write_compression(f)?;
        self.write_statistics(f)?;
        self.write_speed(f)
    }
}

impl Summary<'_> {
    /// The steps this run took.
    fn steps(&self) -> u64 {
        self.world.steps - self.first_step
    }

    /// The scene, its model and the clock's span.
    fn write_run(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let w = self.world;
        let p = w.physics();
        let n = w.balls().len();
        let model = match p.model {
            ModelKind::Spring => format!("spring model, {}", p.integrator.name()),
            m => format!("{} model", m.name()),
        };
        writeln!(
            f,
            "{}: {model}, {n} ball{}",
            w.name,
            if n == 1 { "" } else { "s" }
        )?;
        for note in w.notes() {
            writeln!(f, "placement   {note}")?;
        }
        let steps = self.steps();
        if let Some(c) = w.diagnostics().chain {
            // The clock is the chains' displacement per disk.
            writeln!(
                f,
                "time        {} -> {} ({steps} chains of length {}, {} each per disk)",
                num(self.first_time),
                num(w.time),
                num(c.length),
                num(w.step_length())
            )
        } else {
            writeln!(
                f,
                "time        {} -> {} ({steps} steps of dt = {})",
                num(self.first_time),
                num(w.time),
                p.dt
            )
        }
    }

    /// Collisions, and how well energy, momentum and a mirror symmetry were kept.
    fn write_conservation(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "collisions  {}", self.end.collisions)?;
        let drift = energy_drift(self.start, self.end);
        let kind = if self.start.total_energy != 0.0 {
            "relative drift"
        } else {
            "drift"
        };
        writeln!(
            f,
            "energy      {} -> {} ({kind} {:+.3e})",
            num(self.start.total_energy),
            num(self.end.total_energy),
            drift
        )?;
        let pd = momentum_drift(self.start, self.end);
        let kind = if self.start.momentum_scale > 0.0 {
            "relative to the initial sum of m|v|"
        } else {
            "absolute"
        };
        writeln!(f, "momentum    drift {pd:.3e} ({kind})")?;
        if let (Some(err), Some(axis)) = (self.end.symmetry_error, self.world.symmetry_axis()) {
            writeln!(
                f,
                "symmetry    error {err:.3e} (mirror axis y = {})",
                num(axis)
            )?;
        }
        Ok(())
    }

    /// Where balls can leave: how many left, and where (pockets and edges in the
    /// order of their names).
    fn write_in_play(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let w = self.world;
        if !w.can_lose_balls() {
            return Ok(());
        }
        let n = w.balls().len();
        let mut by: std::collections::BTreeMap<String, usize> = Default::default();
        for i in 0..n {
            if let Some(r) = w.removal(i) {
                *by.entry(r.by.name()).or_default() += 1;
            }
        }
        let left: usize = by.values().sum();
        let mut line = format!("in play     {} of {n}", n - left);
        if left > 0 {
            let places: Vec<String> = by.iter().map(|(k, c)| format!("{c} {k}")).collect();
            line += &format!(
                " ({left} left play: {}; their energy left the totals above)",
                places.join(", ")
            );
        }
        writeln!(f, "{line}")
    }

    /// A compression's state: where it stopped, or that it goes on.
    fn write_compression(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some((c, p)) = self.world.compression() else {
            return Ok(());
        };
        use carom::StopReason;
        let state = match p.stopped {
            Some(StopReason::AreaFraction) => "reached the target area fraction".into(),
            Some(StopReason::Jammed) => format!(
                "jammed: reduced pressure passed {}",
                num(c.pressure_bound())
            ),
            None => "still compressing (the state file continues it)".to_string(),
        };
        writeln!(
            f,
            "compression {state}; area fraction {} at t = {}, reduced pressure {} over \
             the last interval",
            num(p.area_fraction),
            num(p.time),
            num(p.reduced_pressure)
        )
    }

    /// The run's means: packing fraction, temperature, pressure and stress, and the
    /// chain sampler's pressure with its error.
    fn write_statistics(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = self.end;
        writeln!(
            f,
            "statistics  packing fraction {}, temperature {}, pressure {} (mean over the run)",
            num(e.packing_fraction),
            num(e.temperature),
            num(e.pressure)
        )?;
        writeln!(
            f,
            "stress      xx {}, xy {}, yy {} (pressure tensor, positive in compression, mean \
             over the run)",
            num(e.stress_xx),
            num(e.stress_xy),
            num(e.stress_yy)
        )?;
        if let Some(c) = e.chain {
            let error = c
                .z_error
                .map_or("no error: fewer than two blocks".to_string(), |z| {
                    format!("+- {}", num(z))
                });
            writeln!(
                f,
                "chain       Z = beta P A / N = {} {error} ({} blocks of dt = {}), beta P = {}",
                num(c.z),
                c.blocks,
                self.world.physics().dt,
                num(c.beta_p)
            )?;
        }
        Ok(())
    }

    /// The wall time and the rates it gives.
    fn write_speed(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let w = self.world;
        let n = w.balls().len();
        let secs = self.wall.as_secs_f64();
        let rate = if secs > 0.0 {
            let mut rate = format!(
                "{} ball-steps/s",
                num(n as f64 * self.steps() as f64 / secs)
            );
            if let Some(events) = w.events() {
                rate += &format!(", {} events/s", num(events as f64 / secs));
            }
            rate
        } else {
            "too fast to time".to_string()
        };
        writeln!(
            f,
            "wall time   {} s, {rate}, {} thread{}",
            num(secs),
            self.threads,
            if self.threads == 1 { "" } else { "s" }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::num;

    #[test]
    fn numbers_keep_six_significant_digits() {
        assert_eq!(num(0.0), "0");
        assert_eq!(num(200.0), "200");
        assert_eq!(num(31.999_999_7), "32");
        assert_eq!(num(-213.456_789), "-213.457");
        assert_eq!(num(0.000_123_456_7), "0.000123457");
        assert_eq!(num(1.5e-7), "1.50000e-7");
        assert_eq!(num(2.5e12), "2.50000e12");
    }
}
