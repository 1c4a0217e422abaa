//! How fast the event-chain sampler and the event model decorrelate dense hard disks
//! (docs/chain.md, "Decorrelation"): `side^2` disks of diameter 1 at area fraction
//! `phi` (0.708 by default) in a periodic square box, both started from the same
//! placement (the `gas` generator's jittered square grid, one seed), each run for a set
//! number of CPU seconds; at fixed intervals of the model's own clock the run samples the
//! global bond order `psi6` (at that instant) and the pressure `Z = beta P A / N` (over
//! the interval: the chain estimator for the sampler, the virial pressure over the
//! kinetic temperature for the event model). After discarding the first part of the
//! samples (equilibration), each series' integrated autocorrelation time is estimated
//! with Sokal's automatic window and converted to the model's clock and to CPU seconds
//! of stepping (the thread's own CPU time, the measurements left out; the wall time
//! off Linux).
//!
//! `cargo run --release -p carom --example decorrelation -- [--side 64] [--phi 0.708]
//! [--models chain,event] [--cpu 120] [--every-chain 0.5] [--every-event 0.5]
//! [--discard 0.2] [--window-c 6] [--seed 1] [--series PREFIX] [--checkpoint 300]`
//!
//! One line per model: the run's length and cost, then for `psi6` and `Z` the mean,
//! `tau_int` in samples (with its error), in the model's clock and in CPU seconds, and
//! the run's length in units of `tau_int` (below 50 the estimate is a lower bound).
//! With both models the ratio event / chain of the CPU seconds follows. `--series
//! PREFIX` writes each model's samples to `PREFIX_<model>.csv`; `--analyse FILE...`
//! reads such files back and estimates again (e.g. with another `--discard`).
//!
//! Long runs span sessions: with `--series PREFIX` each model's series and its world's
//! state file (`PREFIX_<model>.state.json`) are rewritten every `--checkpoint` CPU
//! seconds of stepping (300 by default) and at the end, and a run whose two files exist
//! takes up from them: `--cpu` then counts the seconds this call adds. The state file
//! holds the chain's stream, so the resumed series is the one an unbroken run writes;
//! the event model restarts its predictions at each checkpoint (a read of its balls),
//! which changes the trajectory's round-off but not its statistics.
//!
//! The estimator: `tau_int = 1/2 + sum_{t=1}^{M} rho(t)` with `rho` the normalised
//! autocovariance (mean removed, divided by the series' length), and `M` the smallest
//! window with `M >= c tau_int(M)` (Sokal, "Monte Carlo methods in statistical
//! mechanics", 1996; `c = 6` by default). Samples `2 tau_int` apart count as independent.
//! Its error is Sokal's `tau sqrt(2 (2M + 1) / n)`. A series with no such window within
//! the first quarter of its lags has no estimate: the sum up to there, above `n / (4 c)`,
//! is reported as a lower bound.

use std::fmt::Write;
use std::time::Instant;

use carom::parse::{load, Format};
use carom::World;

/// The integrated autocorrelation time of a series, in samples.
#[derive(Debug, Clone, Copy)]
struct Tau {
    /// `1/2 + sum_{t=1}^{M} rho(t)`.
    tau: f64,
    /// The window `M`.
    window: usize,
    /// Sokal's standard error of `tau`.
    error: f64,
    /// Whether a window `M >= c tau(M)` exists within the series (otherwise `tau` is the
    /// sum up to the series' end and a lower bound).
    converged: bool,
}

/// `tau_int` of `x` by Sokal's automatic window with constant `c`; `None` for a series
/// shorter than two samples or without variance.
fn integrated_time(x: &[f64], c: f64) -> Option<Tau> {
    let n = x.len();
    if n < 2 {
        return None;
    }
    let mean = x.iter().sum::<f64>() / n as f64;
    let d: Vec<f64> = x.iter().map(|v| v - mean).collect();
    let c0 = d.iter().map(|v| v * v).sum::<f64>() / n as f64;
    if c0 <= 0.0 || !c0.is_finite() {
        return None;
    }
    // Lags beyond a quarter of the series rest on too few pairs to trust: a series
    // whose window would lie there has no estimate, and the sum reached is a bound.
    let reach = n / 4;
    let mut tau = 0.5;
    for t in 1..=reach {
        let ct = d[..n - t]
            .iter()
            .zip(&d[t..])
            .map(|(a, b)| a * b)
            .sum::<f64>()
            / n as f64;
        tau += ct / c0;
        if t as f64 >= c * tau {
            let error = tau * (2.0 * (2 * t + 1) as f64 / n as f64).sqrt();
            return Some(Tau {
                tau,
                window: t,
                error,
                converged: true,
            });
        }
    }
    // No window up to `reach`: every lag `t` there had `t < c tau(t)`, so the sum
    // stands above `reach / c`.
    Some(Tau {
        tau,
        window: reach,
        error: f64::NAN,
        converged: false,
    })
}

/// The calling thread's CPU seconds, to the nanosecond (`clock_gettime` with
/// `CLOCK_THREAD_CPUTIME_ID`; `/proc/thread-self/schedstat` moves only at scheduler
/// ticks, coarser than one interval of the sampler); `None` off Linux.
#[cfg(target_os = "linux")]
fn cpu_seconds() -> Option<f64> {
    #[repr(C)]
    struct Timespec {
        seconds: i64,
        nanoseconds: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, time: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut t = Timespec {
        seconds: 0,
        nanoseconds: 0,
    };
    // SAFETY: `t` is a valid, writable timespec for the call's duration.
    let status = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut t) };
    (status == 0).then_some(t.seconds as f64 + t.nanoseconds as f64 * 1e-9)
}

/// Off Linux the stepping is timed by the wall clock.
#[cfg(not(target_os = "linux"))]
fn cpu_seconds() -> Option<f64> {
    None
}

/// One sample: the clock since the start, `Z` over the interval, `psi6` at its end,
/// and the CPU seconds of stepping so far.
#[derive(Debug, Clone, Copy)]
struct Sample {
    clock: f64,
    z: f64,
    psi6: f64,
    cpu: f64,
}

#[derive(Debug, Clone)]
struct Options {
    side: u64,
    phi: f64,
    models: Vec<String>,
    cpu: f64,
    every_chain: f64,
    every_event: f64,
    discard: f64,
    c: f64,
    seed: u64,
    series: Option<String>,
    checkpoint: f64,
    analyse: Vec<String>,
}

fn fail(message: &str) -> ! {
    eprintln!("decorrelation: {message}");
    std::process::exit(2)
}

fn options() -> Options {
    let mut o = Options {
        side: 64,
        phi: 0.708,
        models: vec!["chain".into(), "event".into()],
        cpu: 120.0,
        every_chain: 0.5,
        every_event: 0.5,
        discard: 0.2,
        c: 6.0,
        seed: 1,
        series: None,
        checkpoint: 300.0,
        analyse: Vec::new(),
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut k = 0;
    while k < args.len() {
        let key = args[k].as_str();
        if key == "--analyse" {
            o.analyse = args[k + 1..].to_vec();
            break;
        }
        let value = args
            .get(k + 1)
            .unwrap_or_else(|| fail(&format!("{key} needs a value")));
        let number = || -> f64 {
            match value.parse::<f64>() {
                Ok(v) if v.is_finite() && v > 0.0 => v,
                _ => fail(&format!("{key}: not a positive number ({value})")),
            }
        };
        match key {
            "--side" => {
                o.side = value
                    .parse()
                    .ok()
                    .filter(|s| (3..=4096).contains(s))
                    .unwrap_or_else(|| fail(&format!("--side: 3 to 4096 (got {value})")))
            }
            "--phi" => o.phi = number(),
            "--models" => {
                o.models = value.split(',').map(str::to_string).collect();
                if o.models.iter().any(|m| m != "chain" && m != "event") {
                    fail(&format!("--models: chain and/or event (got {value})"));
                }
            }
            "--cpu" => o.cpu = number(),
            "--every-chain" => o.every_chain = number(),
            "--every-event" => o.every_event = number(),
            "--discard" => {
                o.discard = value
                    .parse()
                    .ok()
                    .filter(|d| (0.0..1.0).contains(d))
                    .unwrap_or_else(|| fail(&format!("--discard: in [0, 1) (got {value})")))
            }
            "--window-c" => o.c = number(),
            "--seed" => {
                o.seed = value
                    .parse()
                    .unwrap_or_else(|_| fail(&format!("--seed: not a seed ({value})")))
            }
            "--series" => o.series = Some(value.clone()),
            "--checkpoint" => o.checkpoint = number(),
            _ => fail(&format!("unknown option {key}")),
        }
        k += 2;
    }
    o
}

/// The world of `model` at the common start: the gas generator's placement of
/// `side^2` disks of radius 1/2 at area fraction `phi` (same seed for both models).
fn world(o: &Options, model: &str) -> World {
    let n = o.side * o.side;
    let (dt, chain) = match model {
        "chain" => (o.every_chain, format!("chain = {{ seed = {} }}\n", o.seed)),
        _ => (o.every_event, String::new()),
    };
    let text = format!(
        "name = \"decorrelation\"\n[table]\nboundary = \"periodic\"\n[physics]\n\
         model = \"{model}\"\ndt = {dt}\n{chain}[[generators]]\nkind = \"gas\"\nn = {n}\n\
         area_fraction = {}\nr = 0.5\nm = 1.0\nspeed = 1.0\nseed = {}\n",
        o.phi, o.seed
    );
    match load(&text, Format::Toml) {
        Ok((_, w)) => w,
        Err(e) => fail(&e.to_string()),
    }
}

/// The files of `model`'s series and state under `--series PREFIX`.
fn files(o: &Options, model: &str) -> Option<(String, String)> {
    let prefix = o.series.as_ref()?;
    Some((
        format!("{prefix}_{model}.csv"),
        format!("{prefix}_{model}.state.json"),
    ))
}

/// The world and the samples so far: from the checkpoint of an earlier call when both
/// its files exist, else the common start.
fn start(o: &Options, model: &str) -> (World, Vec<Sample>) {
    if let Some((series, state)) = files(o, model) {
        if std::path::Path::new(&series).exists() && std::path::Path::new(&state).exists() {
            let text =
                std::fs::read_to_string(&state).unwrap_or_else(|e| fail(&format!("{state}: {e}")));
            let w = match load(&text, Format::Json) {
                Ok((_, w)) => w,
                Err(e) => fail(&format!("{state}: {e}")),
            };
            let samples = read_series(&series);
            eprintln!("{model}: resuming at clock {} from {state}", w.time);
            return (w, samples);
        }
    }
    (world(o, model), Vec::new())
}

/// Writes `text` to `path` through a temporary file, so that a run stopped while
/// writing leaves the previous checkpoint whole.
fn write_atomically(path: &str, text: &str) {
    let tmp = format!("{path}.tmp");
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, path))
        .unwrap_or_else(|e| fail(&format!("{path}: {e}")));
}

/// The series and the world's state, each replaced whole.
fn checkpoint(o: &Options, model: &str, w: &World, samples: &[Sample]) {
    if let Some((series, state)) = files(o, model) {
        write_atomically(&series, &series_text(samples));
        let text = carom::run::state_text(&carom::state::snapshot(w, 0.0));
        write_atomically(&state, &text);
    }
}

/// Runs `model` for `o.cpu` CPU seconds of stepping, sampling every interval.
fn run(o: &Options, model: &str) -> Vec<Sample> {
    let (mut w, mut samples) = start(o, model);
    let n = w.balls().len() as f64;
    let area = w.table().area();
    // A sample every `every` units of the model's clock: one step of `dt` for the
    // event model, the nearest whole number of chains for the sampler.
    let steps = if model == "chain" {
        (o.every_chain / w.step_length()).round().max(1.0) as u64
    } else {
        1
    };
    // The series' clock and CPU seconds run on across calls.
    let (t0, cpu0) = samples
        .last()
        .map_or((w.time, 0.0), |s: &Sample| (w.time - s.clock, s.cpu));
    let wall = Instant::now();
    let mut cpu = cpu0;
    let mut saved = cpu0;
    while cpu < cpu0 + o.cpu {
        let window = w.window();
        let before = cpu_seconds();
        let started = Instant::now();
        if let Err(e) = w.run_steps(steps) {
            eprintln!("decorrelation: {model}: {e}");
            std::process::exit(1)
        }
        let spent = started.elapsed().as_secs_f64();
        cpu += cpu_seconds().zip(before).map_or(spent, |(b, a)| b - a);
        let d = w.with_order(w.diagnostics_over(&window));
        let z = match d.chain {
            Some(c) => c.z,
            None => d.pressure * area / (n * d.temperature),
        };
        samples.push(Sample {
            clock: w.time - t0,
            z,
            psi6: d.psi6.unwrap_or(f64::NAN),
            cpu,
        });
        if cpu - saved >= o.checkpoint {
            checkpoint(o, model, &w, &samples);
            saved = cpu;
        }
    }
    checkpoint(o, model, &w, &samples);
    eprintln!(
        "{model}: {} samples in {:.0} wall seconds",
        samples.len(),
        wall.elapsed().as_secs_f64()
    );
    samples
}

/// What one series' estimate says, in samples, in the model's clock and in CPU seconds.
struct Estimate {
    mean: f64,
    tau: Option<Tau>,
    clock: f64,
    cpu: f64,
    runs: f64,
}

fn estimate(values: &[f64], every: f64, cpu_per_sample: f64, c: f64) -> Estimate {
    let mean = values.iter().sum::<f64>() / values.len().max(1) as f64;
    let tau = integrated_time(values, c);
    let t = tau.map_or(f64::NAN, |t| t.tau);
    Estimate {
        mean,
        tau,
        clock: t * every,
        cpu: t * cpu_per_sample,
        runs: values.len() as f64 / t,
    }
}

/// Prints one model's line and returns the CPU seconds of `tau_int` for psi6 and Z.
fn report(o: &Options, model: &str, samples: &[Sample]) -> (f64, f64) {
    let skip = (o.discard * samples.len() as f64).floor() as usize;
    let kept = &samples[skip..];
    if kept.len() < 2 {
        fail(&format!(
            "{model}: fewer than two samples after the discard"
        ));
    }
    let start = if skip > 0 {
        samples[skip - 1]
    } else {
        Sample {
            clock: 0.0,
            z: 0.0,
            psi6: 0.0,
            cpu: 0.0,
        }
    };
    let last = kept[kept.len() - 1];
    let every = (last.clock - start.clock) / kept.len() as f64;
    let cpu_per_sample = (last.cpu - start.cpu) / kept.len() as f64;
    let psi6: Vec<f64> = kept.iter().map(|s| s.psi6).collect();
    let z: Vec<f64> = kept.iter().map(|s| s.z).collect();
    let p = estimate(&psi6, every, cpu_per_sample, o.c);
    let q = estimate(&z, every, cpu_per_sample, o.c);
    let show = |name: &str, e: &Estimate| {
        let tau = match e.tau {
            Some(t) if t.converged => format!("{:.2} +- {:.2} (M {})", t.tau, t.error, t.window),
            Some(t) => format!("> {:.1} (no window)", t.tau),
            None => "none".into(),
        };
        let bound = if e.tau.is_some_and(|t| t.converged) && e.runs >= 50.0 {
            ""
        } else {
            " [lower bound]"
        };
        format!(
            "  {name}: mean {:.5}, tau_int {tau} samples = {:.3} clock = {:.3} CPU s; \
             run {:.0} tau{bound}",
            e.mean, e.clock, e.cpu, e.runs
        )
    };
    println!(
        "{model}: N = {}, phi = {}, {} samples kept of {} (first {:.0}% discarded: clock \
         {:.2}), interval {:.4} clock, clock kept {:.2}, CPU kept {:.1} s ({:.4} CPU s per \
         clock unit)",
        o.side * o.side,
        o.phi,
        kept.len(),
        samples.len(),
        100.0 * o.discard,
        start.clock,
        every,
        last.clock - start.clock,
        last.cpu - start.cpu,
        cpu_per_sample / every
    );
    println!("{}", show("psi6", &p));
    println!("{}", show("Z", &q));
    (p.cpu, q.cpu)
}

fn series_text(samples: &[Sample]) -> String {
    let mut text = String::from("clock,z,psi6,cpu_s\n");
    for s in samples {
        writeln!(text, "{},{},{},{}", s.clock, s.z, s.psi6, s.cpu).unwrap();
    }
    text
}

fn read_series(path: &str) -> Vec<Sample> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
    text.lines()
        .skip(1)
        .map(|line| {
            let v: Vec<f64> = line.split(',').filter_map(|s| s.parse().ok()).collect();
            if v.len() != 4 {
                fail(&format!("{path}: not a series line: {line}"));
            }
            Sample {
                clock: v[0],
                z: v[1],
                psi6: v[2],
                cpu: v[3],
            }
        })
        .collect()
}

fn main() {
    let o = options();
    let mut taus = Vec::new();
    if o.analyse.is_empty() {
        for model in &o.models {
            let samples = run(&o, model);
            taus.push((model.clone(), report(&o, model, &samples)));
        }
    } else {
        for path in &o.analyse {
            let model = if path.contains("chain") {
                "chain"
            } else {
                "event"
            };
            taus.push((model.to_string(), report(&o, model, &read_series(path))));
        }
    }
    let find = |m: &str| taus.iter().find(|(k, _)| k == m).map(|(_, t)| *t);
    if let (Some(c), Some(e)) = (find("chain"), find("event")) {
        println!(
            "event / chain, CPU seconds of tau_int: psi6 {:.1}, Z {:.1}",
            e.0 / c.0,
            e.1 / c.1
        );
    }
}

#[cfg(test)]
mod tests {
    use super::integrated_time;
    use carom::SplitMix64;

    /// An AR(1) series `x_t = rho x_{t-1} + e_t` has `rho(t) = rho^t`, so
    /// `2 tau_int = (1 + rho) / (1 - rho)` exactly.
    fn ar1(rho: f64, n: usize, seed: u64) -> Vec<f64> {
        let mut s = SplitMix64(seed);
        let mut x = 0.0;
        let mut out = Vec::with_capacity(n);
        // Start in the stationary distribution: variance 1 / (1 - rho^2).
        let mut normal = || {
            let (u, v) = (1.0 - s.unit(), s.unit());
            (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
        };
        x += normal() / (1.0 - rho * rho).sqrt();
        for _ in 0..n {
            out.push(x);
            x = rho * x + normal();
        }
        out
    }

    #[test]
    fn ar1_series_give_their_exact_time() {
        for (rho, seed) in [(0.0, 1), (0.5, 2), (0.9, 3), (0.98, 4)] {
            let exact = 0.5 * (1.0 + rho) / (1.0 - rho);
            let t = integrated_time(&ar1(rho, 200_000, seed), 6.0).unwrap();
            assert!(t.converged);
            // Sokal's error is the statistical one; the window's truncation bias
            // (rho^M summed past M >= 6 tau) is far below it.
            assert!(
                (t.tau - exact).abs() < 4.0 * t.error,
                "rho {rho}: {} +- {} against {exact}",
                t.tau,
                t.error
            );
            assert!(
                t.error < 0.1 * exact,
                "rho {rho}: {} +- {} (M {})",
                t.tau,
                t.error,
                t.window
            );
        }
    }

    #[test]
    fn constant_and_short_series_have_no_time() {
        assert!(integrated_time(&[1.0; 100], 6.0).is_none());
        assert!(integrated_time(&[1.0], 6.0).is_none());
    }

    #[test]
    fn a_trend_longer_than_the_series_gives_a_lower_bound() {
        let x: Vec<f64> = (0..1000).map(|i| i as f64).collect();
        let t = integrated_time(&x, 6.0).unwrap();
        assert!(!t.converged, "{t:?}");
        assert!(t.tau >= 250.0 / 6.0);
    }
}
