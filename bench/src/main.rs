//! carom-bench: carom's models and a general physics engine (rapier2d) on the identical
//! ball scene, measured in the same run, interleaved block by block.
//!
//! Every configuration (a model and a thread count, or the peer) runs in a child
//! process of this binary, so that its peak resident memory (VmHWM) is its own. The
//! parent starts all children of one ball count, warms each up, then asks them in turn
//! for one timed block at a time: load from other processes on the machine hits every
//! configuration alike, and the medians compare like with like.
//!
//! Usage: `carom-bench [--quick] [--n 10000,100000,1000000] [--blocks 3]
//! [--block-seconds 2] [--rapier-max 1000000] [--drift-steps 10000]`

mod child;
mod peer;
mod sim;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;

/// One thing measured: a carom model with a thread count, or the peer engine.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Engine {
    Carom {
        model: carom::ModelKind,
        threads: usize,
        /// The gas in a periodic box instead of between walls.
        periodic: bool,
    },
    /// The spring gas with contact friction on (`mu = 0.5`, tangential springs).
    RoughSpring {
        threads: usize,
    },
    /// The spring model with contact friction on a silo of grains discharging through
    /// an orifice in a floor of walls into an open edge (`child::hopper`).
    Hopper {
        threads: usize,
    },
    /// The event model (one thread) on the gas among fixed circular pegs
    /// (`child::lorentz`): walls inside the table in the event model.
    Lorentz,
    /// The event model (one thread) on the gas at another area fraction, in percent.
    EventAt {
        percent: u32,
    },
    /// The event model (one thread) on the gas under Andersen's heat bath at the gas's
    /// temperature, striking each ball at a tenth of its collision frequency
    /// (`child::andersen`): the bath's strikes as events of their own.
    EventAndersen,
    /// The event model (one thread) on the gas while it compresses (`physics.compress`,
    /// `child::compressing`): the growing model.
    EventCompress,
    Rapier,
}

impl Engine {
    fn parse(s: &str) -> Option<Engine> {
        if s == "rapier2d" {
            return Some(Engine::Rapier);
        }
        if s == "lorentz/1" {
            return Some(Engine::Lorentz);
        }
        if s == "event-andersen/1" {
            return Some(Engine::EventAndersen);
        }
        if s == "event-compress/1" {
            return Some(Engine::EventCompress);
        }
        if let Some(p) = s.strip_prefix("event/1@") {
            return Some(Engine::EventAt {
                percent: p.parse().ok().filter(|&p| p > 0 && p < 91)?,
            });
        }
        let (s, periodic) = match s.strip_suffix("/periodic") {
            Some(s) => (s, true),
            None => (s, false),
        };
        let (model, threads) = s.split_once('/')?;
        if model == "spring-rough" {
            return Some(Engine::RoughSpring {
                threads: threads.parse().ok()?,
            });
        }
        if model == "hopper" {
            return Some(Engine::Hopper {
                threads: threads.parse().ok()?,
            });
        }
        Some(Engine::Carom {
            model: carom::ModelKind::from_name(model)?,
            threads: threads.parse().ok()?,
            periodic,
        })
    }

    fn id(self) -> String {
        match self {
            Engine::Carom {
                model,
                threads,
                periodic,
            } => format!(
                "{}/{threads}{}",
                model.name(),
                if periodic { "/periodic" } else { "" }
            ),
            Engine::RoughSpring { threads } => format!("spring-rough/{threads}"),
            Engine::Hopper { threads } => format!("hopper/{threads}"),
            Engine::EventAt { percent } => format!("event/1@{percent}"),
            Engine::Lorentz => "lorentz/1".to_string(),
            Engine::EventAndersen => "event-andersen/1".to_string(),
            Engine::EventCompress => "event-compress/1".to_string(),
            Engine::Rapier => "rapier2d".to_string(),
        }
    }

    fn label(self) -> String {
        match self {
            Engine::Carom {
                model,
                threads,
                periodic,
            } => format!(
                "carom {} ({threads} thread{}){}",
                model.name(),
                if threads == 1 { "" } else { "s" },
                if periodic { ", periodic box" } else { "" }
            ),
            Engine::RoughSpring { threads } => format!(
                "carom spring, contact friction ({threads} thread{})",
                if threads == 1 { "" } else { "s" }
            ),
            Engine::Hopper { threads } => format!(
                "carom spring, hopper: walls, friction, an open edge ({threads} thread{})",
                if threads == 1 { "" } else { "s" }
            ),
            Engine::EventAt { percent } => {
                format!("carom event (1 thread), area fraction 0.{percent}")
            }
            Engine::Lorentz => "carom event, among fixed pegs: walls (1 thread)".to_string(),
            Engine::EventAndersen => "carom event, Andersen heat bath (1 thread)".to_string(),
            Engine::EventCompress => "carom event, compressing (1 thread)".to_string(),
            Engine::Rapier => format!("rapier2d {} (1 thread)", peer::VERSION),
        }
    }

    /// The event model advances by events, not by fixed steps: its rate is events/s.
    fn counts_events(self) -> bool {
        matches!(
            self,
            Engine::Carom {
                model: carom::ModelKind::Event,
                ..
            } | Engine::EventAt { .. }
                | Engine::Lorentz
                | Engine::EventAndersen
                | Engine::EventCompress
        )
    }
}

struct Options {
    quick: bool,
    sizes: Vec<u64>,
    blocks: usize,
    block_seconds: f64,
    warmup_seconds: f64,
    /// Warm-up steps at least: the gas starts on a lattice without contacts and needs
    /// a couple of time units (one collision per ball) to reach its steady state.
    warmup_steps: u64,
    rapier_max: u64,
    drift_steps: u64,
    /// Steps after which 1 and 2 threads are compared bit for bit (0: skip).
    identity_steps: u64,
    /// Only these configurations (ids like `spring/2`, `rapier2d`), when given.
    only: Option<Vec<String>>,
}

impl Options {
    fn parse(args: &[String]) -> Result<Options, String> {
        let quick = args.iter().any(|a| a == "--quick");
        let mut o = if quick {
            Options {
                quick,
                sizes: vec![2_000, 10_000],
                blocks: 3,
                block_seconds: 0.05,
                warmup_seconds: 0.02,
                warmup_steps: 20,
                rapier_max: 10_000,
                drift_steps: 300,
                identity_steps: 20,
                only: None,
            }
        } else {
            Options {
                quick,
                sizes: vec![10_000, 100_000, 1_000_000],
                blocks: 3,
                block_seconds: 2.0,
                warmup_seconds: 1.0,
                warmup_steps: 200,
                rapier_max: 1_000_000,
                drift_steps: 10_000,
                identity_steps: 100,
                only: None,
            }
        };
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let mut value = |name: &str| {
                it.next()
                    .cloned()
                    .ok_or_else(|| format!("{name} needs a value"))
            };
            let number = |name: &str, v: String| {
                v.replace('_', "")
                    .parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite() && *x >= 0.0)
                    .ok_or_else(|| format!("{name}: not a non-negative number: {v:?}"))
            };
            match a.as_str() {
                "--quick" => {}
                // The children inherit the environment: each model they build then
                // runs the event loop's portable version (see `event_loop_version`).
                "--portable" => std::env::set_var(PORTABLE_ENV, "1"),
                "--n" => {
                    let v = value("--n")?;
                    o.sizes = v
                        .split(',')
                        .map(|s| {
                            s.replace('_', "")
                                .parse::<u64>()
                                .ok()
                                .filter(|&n| n > 0)
                                .ok_or_else(|| format!("--n: not a positive count: {s:?}"))
                        })
                        .collect::<Result<_, _>>()?;
                }
                "--blocks" => o.blocks = number("--blocks", value("--blocks")?)?.max(1.0) as usize,
                "--block-seconds" => o.block_seconds = number(a, value(a)?)?,
                "--warmup-seconds" => o.warmup_seconds = number(a, value(a)?)?,
                "--warmup-steps" => o.warmup_steps = number(a, value(a)?)? as u64,
                "--rapier-max" => o.rapier_max = number(a, value(a)?)? as u64,
                "--drift-steps" => o.drift_steps = number(a, value(a)?)? as u64,
                "--identity-steps" => o.identity_steps = number(a, value(a)?)? as u64,
                "--only" => o.only = Some(value(a)?.split(',').map(str::to_string).collect()),
                "-h" | "--help" => return Err(USAGE.to_string()),
                other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
            }
        }
        Ok(o)
    }
}

const USAGE: &str = "usage: carom-bench [--quick] [--n 10000,100000,1000000] [--blocks 3] \
[--block-seconds 2] [--warmup-seconds 1] [--warmup-steps 200] [--rapier-max 1000000] [--drift-steps 10000] \
[--identity-steps 100] [--portable] \
[--only spring/1,spring/2,spring-rough/2,hopper/2,impulse/2,simultaneous/2,event/1,event-andersen/1,event-compress/1,event/1@60,lorentz/1,spring/1/periodic,rapier2d]";

/// Set (by `--portable`) to run the event loop's portable version even where the
/// processor could run the one compiled for AVX-512 (the results are the same).
pub const PORTABLE_ENV: &str = "CAROM_BENCH_PORTABLE";

/// Which version of the event loop the event model runs here.
fn event_loop_version() -> &'static str {
    if std::env::var_os(PORTABLE_ENV).is_none() && carom::models::event::Event::wide_supported() {
        "the version for AVX-512"
    } else {
        "the portable version"
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--child") {
        std::process::exit(child::main(&args[1..]));
    }
    let options = match Options::parse(&args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    if let Err(e) = run(&options) {
        eprintln!("carom-bench: {e}");
        std::process::exit(1);
    }
}

/// A running child: one configuration at one ball count.
struct Runner {
    engine: Engine,
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    steps_per_block: u64,
    rates: Vec<f64>,
    /// Collisions per second of each block.
    collision_rates: Vec<f64>,
    /// The same work per CPU-second of this process (all its threads).
    cpu_rates: Vec<f64>,
}

impl Runner {
    fn start(engine: Engine, n: u64) -> Result<Runner, String> {
        let exe = std::env::current_exe().map_err(|e| format!("cannot find myself: {e}"))?;
        let mut child = Command::new(exe)
            .args(["--child", &engine.id(), &n.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start a child process: {e}"))?;
        let input = child.stdin.take().expect("piped");
        let output = BufReader::new(child.stdout.take().expect("piped"));
        let mut r = Runner {
            engine,
            child,
            input,
            output,
            steps_per_block: 1,
            rates: Vec::new(),
            collision_rates: Vec::new(),
            cpu_rates: Vec::new(),
        };
        r.expect("ready")?;
        Ok(r)
    }

    fn ask(&mut self, command: &str) -> Result<Vec<String>, String> {
        writeln!(self.input, "{command}")
            .and_then(|_| self.input.flush())
            .map_err(|e| format!("{}: child gone: {e}", self.engine.label()))?;
        let mut line = String::new();
        self.output
            .read_line(&mut line)
            .map_err(|e| format!("{}: {e}", self.engine.label()))?;
        let words: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        match words.first().map(String::as_str) {
            Some("error") => Err(line[5..].trim().to_string()),
            None => Err(format!(
                "{}: child ended without answering",
                self.engine.label()
            )),
            _ => Ok(words),
        }
    }

    fn expect(&mut self, word: &str) -> Result<Vec<String>, String> {
        let mut line = String::new();
        self.output
            .read_line(&mut line)
            .map_err(|e| format!("{}: {e}", self.engine.label()))?;
        let words: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        match words.first().map(String::as_str) {
            Some(w) if w == word => Ok(words),
            Some("error") => Err(line[5..].trim().to_string()),
            _ => Err(format!(
                "{}: child ended without answering",
                self.engine.label()
            )),
        }
    }

    /// Runs `steps` and returns (seconds, events in them, CPU seconds, collisions).
    fn block(&mut self, steps: u64) -> Result<(f64, u64, f64, u64), String> {
        let w = self.ask(&format!("run {steps}"))?;
        let num = |k: usize| w.get(k).and_then(|s| s.parse::<f64>().ok());
        match (num(1), num(2), num(3), num(4)) {
            (Some(t), Some(e), Some(cpu), Some(c)) => Ok((t, e as u64, cpu, c as u64)),
            _ => Err(format!("{}: bad answer {w:?}", self.engine.label())),
        }
    }

    /// The rate of a block: ball-steps/s, or events/s for the event model.
    fn rate(&self, n: u64, steps: u64, seconds: f64, events: u64) -> f64 {
        let work = if self.engine.counts_events() {
            events as f64
        } else {
            n as f64 * steps as f64
        };
        work / seconds.max(1e-9)
    }
}

/// What one configuration measured at one ball count.
struct Row {
    n: u64,
    engine: Engine,
    outcome: Result<Measured, String>,
}

struct Measured {
    rate: f64,
    collision_rate: f64,
    cpu_rate: f64,
    bytes_per_ball: f64,
    drift: f64,
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        0.5 * (v[m - 1] + v[m])
    }
}

fn engines(n: u64, o: &Options) -> Vec<Engine> {
    use carom::ModelKind::*;
    let mut list = vec![
        Engine::Carom {
            model: Spring,
            threads: 1,
            periodic: false,
        },
        Engine::Carom {
            model: Spring,
            threads: 2,
            periodic: false,
        },
        Engine::RoughSpring { threads: 2 },
        // Grains in a silo: walls binned into cells, friction on walls, balls leaving.
        Engine::Hopper { threads: 2 },
        Engine::Carom {
            model: Impulse,
            threads: 2,
            periodic: false,
        },
        Engine::Carom {
            model: Simultaneous,
            threads: 2,
            periodic: false,
        },
        Engine::Carom {
            model: Event,
            threads: 1,
            periodic: false,
        },
        // The same gas under Andersen's heat bath: what its strikes cost the events.
        Engine::EventAndersen,
        // The same gas while it compresses: what growing disks cost the events.
        Engine::EventCompress,
        // The same gas in a periodic box: what the periodic boundaries cost the step.
        Engine::Carom {
            model: Spring,
            threads: 1,
            periodic: true,
        },
        // A dense liquid, where collisions outnumber every other event.
        Engine::EventAt { percent: 60 },
        // The gas among fixed pegs: walls inside the table in the event model.
        Engine::Lorentz,
    ];
    if n <= o.rapier_max {
        list.push(Engine::Rapier);
    }
    if let Some(only) = &o.only {
        list.retain(|e| only.contains(&e.id()));
    }
    list
}

fn measure_size(n: u64, o: &Options) -> Vec<Row> {
    let mut rows = Vec::new();
    let mut runners = Vec::new();
    for engine in engines(n, o) {
        eprintln!("n = {n}: building {}", engine.label());
        match Runner::start(engine, n) {
            Ok(r) => runners.push(r),
            Err(e) => rows.push(Row {
                n,
                engine,
                outcome: Err(e),
            }),
        }
    }
    // Warm-up: doubling step counts until the warm-up time is spent; the rate found
    // sizes each configuration's blocks to about `block_seconds`.
    let mut failed = Vec::new();
    for (k, r) in runners.iter_mut().enumerate() {
        let (mut steps, mut spent, mut done) = (1u64, 0.0, 0u64);
        let result = loop {
            match r.block(steps) {
                Ok((t, _, _, _)) => {
                    spent += t;
                    done += steps;
                    // The rate of the latest warm-up block, the nearest to steady state.
                    let per_step = t / steps as f64;
                    let block_steps = ((o.block_seconds / per_step.max(1e-12)) as u64).max(1);
                    if spent >= o.warmup_seconds && done >= o.warmup_steps {
                        r.steps_per_block = block_steps;
                        break Ok(());
                    }
                    // Double until the warm-up time is spent, then finish the warm-up
                    // steps; never more than a timed block's worth at once.
                    let next = if spent < o.warmup_seconds {
                        2 * steps
                    } else {
                        o.warmup_steps - done
                    };
                    steps = next.min(block_steps).max(1);
                }
                Err(e) => break Err(e),
            }
        };
        if let Err(e) = result.and_then(|_| r.ask("mark").map(|_| ())) {
            failed.push((k, e));
        }
    }
    for &(k, ref e) in failed.iter().rev() {
        let r = runners.remove(k);
        rows.push(Row {
            n,
            engine: r.engine,
            outcome: Err(e.clone()),
        });
    }
    eprintln!("n = {n}: timing {} blocks, interleaved", o.blocks);
    let mut errors: Vec<Option<String>> = vec![None; runners.len()];
    for _ in 0..o.blocks {
        for (k, r) in runners.iter_mut().enumerate() {
            if errors[k].is_some() {
                continue;
            }
            let steps = r.steps_per_block;
            match r.block(steps) {
                Ok((t, events, cpu, collisions)) => {
                    let rate = r.rate(n, steps, t, events);
                    r.rates.push(rate);
                    r.collision_rates.push(collisions as f64 / t.max(1e-9));
                    let cpu_rate = r.rate(n, steps, cpu, events);
                    r.cpu_rates.push(cpu_rate);
                }
                Err(e) => errors[k] = Some(e),
            }
        }
    }
    for (k, mut r) in runners.into_iter().enumerate() {
        let outcome = match errors[k].take() {
            Some(e) => Err(e),
            None => r.ask("end").and_then(|w| {
                let num = |k: usize| w.get(k).and_then(|s| s.parse::<f64>().ok());
                match (num(1), num(2)) {
                    (Some(drift), Some(hwm)) => Ok(Measured {
                        rate: median(&mut r.rates),
                        collision_rate: median(&mut r.collision_rates),
                        cpu_rate: median(&mut r.cpu_rates),
                        bytes_per_ball: hwm / n as f64,
                        drift,
                    }),
                    _ => Err(format!("bad answer {w:?}")),
                }
            }),
        };
        drop(r.input);
        let _ = r.child.wait();
        rows.push(Row {
            n,
            engine: r.engine,
            outcome,
        });
    }
    let order = engines(n, o);
    rows.sort_by_key(|row| order.iter().position(|e| *e == row.engine));
    rows
}

/// A rate with an SI prefix: "26.85 M".
fn si(v: f64) -> String {
    if v >= 1e9 {
        format!("{:.2} G", v / 1e9)
    } else if v >= 1e6 {
        format!("{:.2} M", v / 1e6)
    } else if v >= 1e3 {
        format!("{:.1} k", v / 1e3)
    } else {
        format!("{v:.0}")
    }
}

fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|s| s.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".to_string());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    format!("{cpu}, {cores} cores; event loop: {}", event_loop_version())
}

/// The 1-minute load average: how busy the machine was around the measurement.
fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".to_string())
}

fn run(o: &Options) -> Result<(), String> {
    let started = Instant::now();
    let load_before = load();
    let mut rows = Vec::new();
    for &n in &o.sizes {
        rows.extend(measure_size(n, o));
    }
    println!("{}", speed_table(&rows, o, &load_before));
    if o.drift_steps > 0 {
        print_drift_table(o);
    }
    if o.identity_steps > 0 {
        print_identity_table(o);
    }
    eprintln!(
        "carom-bench: done in {:.0} s{}",
        started.elapsed().as_secs_f64(),
        if o.quick { " (quick mode)" } else { "" }
    );
    Ok(())
}

/// The speed table: its conditions, then a row per size and engine.
fn speed_table(rows: &[Row], o: &Options, load_before: &str) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "Scene: the `gas` preset (unit disks, area fraction 0.3 unless stated, e = 1, dt = 0.01, a contact \
         spans 20 steps), N balls. Machine: {}, load average {} before and {} after. \
         Rates are medians of {} interleaved timed \
         blocks of about {} s after a warm-up of at least {} steps; memory is each configuration's peak resident \
         set (VmHWM of its own process) divided by N; drift is the relative change of total \
         energy over the timed blocks (kinetic only for rapier2d, whose contacts store none). \
         Per CPU-second: the same work divided by the CPU time of the configuration's \
         process (all its threads), which other load on the machine does not inflate.\n\n",
        machine(),
        load_before,
        load(),
        o.blocks,
        o.block_seconds,
        o.warmup_steps
    ));
    out.push_str(
        "| N | engine | ball-steps/s | carom / rapier2d | per CPU-second | peak memory (bytes/ball) | energy drift |\n",
    );
    out.push_str("|---:|---|---:|---:|---:|---:|---:|\n");
    for row in rows {
        let rapier = rows
            .iter()
            .find(|r| r.n == row.n && r.engine == Engine::Rapier)
            .and_then(|r| r.outcome.as_ref().ok())
            .map(|m| m.rate);
        out.push_str(&format!(
            "| {} | {} | {} |\n",
            row.n,
            row.engine.label(),
            speed_cells(row, rapier)
        ));
    }
    out
}

/// A speed row's cells after the engine, `rapier` the same size's rapier2d rate.
fn speed_cells(row: &Row, rapier: Option<f64>) -> String {
    let m = match &row.outcome {
        Ok(m) => m,
        Err(e) => return format!("not available: {e} | - | - | - | -"),
    };
    // Event-driven codes publish collisions per second; events (collisions and
    // bookkeeping such as cell crossings) follow in brackets.
    let shown = if row.engine.counts_events() {
        format!(
            "{} collisions/s ({} events/s)",
            si(m.collision_rate),
            si(m.rate)
        )
    } else {
        si(m.rate)
    };
    let ratio = match (row.engine, rapier) {
        (Engine::Rapier, _) => "1".to_string(),
        (e, Some(p)) if !e.counts_events() => format!("{:.1}x", m.rate / p),
        _ => "-".to_string(),
    };
    // Per CPU-second, collisions follow the same share of the events.
    let per_cpu = if row.engine.counts_events() {
        let share = m.collision_rate / m.rate.max(1e-9);
        format!(
            "{} collisions ({} events)",
            si(m.cpu_rate * share),
            si(m.cpu_rate)
        )
    } else {
        si(m.cpu_rate)
    };
    format!(
        "{shown} | {ratio} | {per_cpu} | {:.0} | {:+.1e}",
        m.bytes_per_ball, m.drift
    )
}

/// The elastic spring gas's energy over a long run, a row per size.
fn print_drift_table(o: &Options) {
    println!(
        "Energy of the elastic spring gas (2 threads) over {} steps: relative change of \
         total energy at the end, and its largest magnitude sampled every {} steps.\n",
        o.drift_steps,
        drift_sample(o.drift_steps)
    );
    println!(
        "| N | steps | collisions | drift at end | largest drift | peak memory (bytes/ball) |"
    );
    println!("|---:|---:|---:|---:|---:|---:|");
    for &n in &o.sizes {
        match drift_run(n, o.drift_steps) {
            Ok(w) => println!(
                "| {n} | {} | {} | {} | {} | {} |",
                w[1], w[2], w[3], w[4], w[5]
            ),
            Err(e) => println!("| {n} | {} | - | failed: {e} | - | - |", o.drift_steps),
        }
    }
    println!();
}

/// The spring gas's state on 1 and 2 threads, hashed, a row per size.
fn print_identity_table(o: &Options) {
    println!(
        "Thread-count independence: the spring gas after {} steps on 1 and on 2 threads \
         (hash of every bit of every position and velocity, and the collision count).\n",
        o.identity_steps
    );
    println!("| N | 1 thread | 2 threads | identical |");
    println!("|---:|---|---|---|");
    for &n in &o.sizes {
        let hash = |threads| {
            let engine = Engine::Carom {
                model: carom::ModelKind::Spring,
                threads,
                periodic: false,
            };
            eprintln!(
                "n = {n}: state after {} steps on {threads} thread(s)",
                o.identity_steps
            );
            let mut r = Runner::start(engine, n)?;
            let w = r.ask(&format!("hash {}", o.identity_steps))?;
            drop(r.input);
            let _ = r.child.wait();
            w.get(1).cloned().ok_or_else(|| "no hash".to_string())
        };
        match (hash(1), hash(2)) {
            (Ok(a), Ok(b)) => {
                let same = if a == b { "yes" } else { "NO" };
                println!("| {n} | {a} | {b} | {same} |");
            }
            (a, b) => println!("| {n} | {a:?} | {b:?} | - |"),
        }
    }
    println!();
}

fn drift_sample(steps: u64) -> u64 {
    (steps / 100).max(1)
}

/// The long energy run of the spring gas at one size, in its own child process.
fn drift_run(n: u64, steps: u64) -> Result<Vec<String>, String> {
    eprintln!("n = {n}: energy over {steps} steps");
    let engine = Engine::Carom {
        model: carom::ModelKind::Spring,
        threads: 2,
        periodic: false,
    };
    let mut r = Runner::start(engine, n)?;
    let w = r.ask(&format!("drift {steps} {}", drift_sample(steps)))?;
    drop(r.input);
    let _ = r.child.wait();
    if w.len() < 6 {
        return Err(format!("bad answer {w:?}"));
    }
    Ok(w)
}
