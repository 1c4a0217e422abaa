//! `carom compare`: the same scene under several models (and, for the spring model,
//! several integrators; for the impulse model, glitch prevention on and off), stepped
//! in lockstep so that an animation can show them side
//! by side; one table row per variant.

use std::time::{Duration, Instant};

use carom::diagnostics::{energy_drift, momentum_drift};
use carom::parse::field_path;
use carom::{Diagnostics, Integrator, ModelKind, StepError, World};
use clap::Args;

use crate::args::{parse_dt, parse_model, parse_set, parse_threads, parse_time, SetArg};
use crate::error::CliError;
use crate::load::load;
use crate::render::{variant_label, PictureArgs, Pictures};
use crate::run::{progress_bar, steps_for};
use crate::summary::num;

#[derive(Debug, Args)]
#[command(after_help = "\
Exit status: 0 success; 2 bad usage or bad input (one line on stderr, nothing written);
1 a variant failed while running (its row and pictures stop at its last good state).

Examples:
  carom compare break --models impulse,spring --render kickoff.gif
  carom compare level5 --integrators semi-implicit-euler,velocity-verlet --plot bounce.png
  carom compare break --glitch-prevention off,on --render glitch.gif")]
pub struct CompareArgs {
    /// A built-in preset (see `carom presets`) or a scenario file (.toml or .json)
    #[arg(value_name = "SCENARIO")]
    pub scenario: String,

    /// Models to compare, comma-separated [default: the models the other options
    /// vary (spring for --integrators, impulse for --glitch-prevention), else
    /// impulse,spring,simultaneous,event]
    #[arg(long, value_name = "M,M,...", value_delimiter = ',', value_parser = parse_model)]
    pub models: Vec<ModelKind>,

    /// Integrators for the spring model, comma-separated: one variant each
    /// [default: the scenario's]
    #[arg(long, value_name = "I,I,...", value_delimiter = ',', value_parser = parse_integrator)]
    pub integrators: Vec<Integrator>,

    /// Glitch prevention settings for the impulse model, comma-separated (on, off):
    /// one variant each [default: the scenario's]
    #[arg(long, value_name = "on|off,...", value_delimiter = ',', value_parser = parse_switch)]
    pub glitch_prevention: Vec<bool>,

    /// Number of steps to run [default: the scenario's duration / dt]
    #[arg(
        long,
        value_name = "N",
        conflicts_with = "time",
        allow_negative_numbers = true
    )]
    pub steps: Option<u64>,

    /// Simulated time to run, rounded to whole steps [default: the scenario's duration]
    #[arg(long, value_name = "T", value_parser = parse_time, allow_negative_numbers = true)]
    pub time: Option<f64>,

    /// Time step, overriding the scenario's physics.dt
    #[arg(long, value_name = "DT", value_parser = parse_dt, allow_negative_numbers = true)]
    pub dt: Option<f64>,

    /// Change one value of the scenario before it is built, for every variant (see
    /// `carom run --help`)
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = parse_set)]
    pub sets: Vec<SetArg>,

    /// Worker threads for each variant's parallel parts [default: all cores for scenes
    /// of 8192 balls or more, else 1]
    #[arg(long, value_name = "N", value_parser = parse_threads, allow_negative_numbers = true)]
    pub threads: Option<u64>,

    #[command(flatten)]
    pub picture: PictureArgs,

    /// Print nothing but errors
    #[arg(long, short)]
    pub quiet: bool,
}

fn parse_switch(s: &str) -> Result<bool, String> {
    match s.trim() {
        "on" | "true" => Ok(true),
        "off" | "false" => Ok(false),
        _ => Err("expected on or off".to_string()),
    }
}

fn parse_integrator(s: &str) -> Result<Integrator, String> {
    Integrator::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = Integrator::ALL.iter().map(|i| i.name()).collect();
        format!("unknown integrator (expected one of: {})", names.join(", "))
    })
}

/// The picture size of one variant when `--size` is not given: four of them side by
/// side still fit a screen.
const PANEL_SIZE: (u32, u32) = (480, 360);

/// Most steps between two checks that a variant is still physical (and between
/// progress updates): a failure is caught within this many steps.
const CHUNK: u64 = 64;

/// One model (with one integrator) running the scene.
struct Variant {
    label: String,
    world: World,
    start: Diagnostics,
    /// Simulated time at the start (a state file resumes where it stopped).
    first_time: f64,
    /// Diagnostics, time and steps at the last state known to be good.
    last_good: Diagnostics,
    steps_done: u64,
    /// Stepping time only: checks, diagnostics and pictures are left out.
    wall: Duration,
    failure: Option<(String, u64, f64)>,
}

pub fn compare(args: CompareArgs) -> Result<(), CliError> {
    let plan = variants(&args)?;
    let mut variants = Vec::with_capacity(plan.len());
    for (label, sets) in plan {
        let loaded = load(&args.scenario, &sets)?;
        let mut world = loaded.world;
        // Without an integrator list, the label comes from the built world (the
        // scenario's own integrator, for spring).
        let label = label.unwrap_or_else(|| variant_label(world.physics()));
        crate::run::apply_threads(&mut world, args.threads)?;
        let start = world.diagnostics();
        let first_time = world.time;
        variants.push((
            loaded.scenario,
            Variant {
                label,
                world,
                start,
                first_time,
                last_good: start,
                steps_done: 0,
                wall: Duration::ZERO,
                failure: None,
            },
        ));
    }
    let scenario = variants[0].0.clone();
    let mut variants: Vec<Variant> = variants.into_iter().map(|(_, v)| v).collect();
    let dt = variants[0].world.physics().dt;
    let steps = match (args.steps, args.time) {
        (Some(n), _) => n,
        (None, Some(t)) => steps_for(t, dt, "--time")?,
        (None, None) => steps_for(scenario.duration, dt, "duration")?,
    };

    let labels: Vec<String> = variants.iter().map(|v| v.label.clone()).collect();
    let worlds: Vec<&World> = variants.iter().map(|v| &v.world).collect();
    let mut pictures = Pictures::create(
        &args.picture,
        &worlds,
        &labels,
        steps,
        PANEL_SIZE,
        args.quiet,
    )?;
    if !args.quiet {
        for v in &variants {
            for w in v.world.warnings() {
                eprintln!("carom: warning: {}: {w}", v.label);
            }
        }
    }
    pictures.sample(&live(&variants), 0, steps)?;

    let bar = progress_bar(steps * variants.len() as u64, args.quiet);
    let mut k = 0;
    while k < steps {
        let next = next_stop(&pictures, k, steps);
        for v in variants.iter_mut().filter(|v| v.failure.is_none()) {
            let clock = Instant::now();
            let stepped = v.world.run_steps(next - k);
            v.wall += clock.elapsed();
            match stepped.and_then(|()| v.world.check_physical()) {
                Ok(()) => {
                    v.steps_done = next;
                    v.last_good = v.world.diagnostics();
                }
                Err(StepError::Unsupported(msg)) => {
                    return Err(CliError::input(format!(
                        "{}: {}: physics.model: {msg}",
                        args.scenario, v.label
                    )));
                }
                Err(e) => {
                    v.failure = Some((e.to_string(), v.world.steps, v.world.time));
                }
            }
        }
        k = next;
        pictures.sample(&live(&variants), k, steps)?;
        if let Some(bar) = &bar {
            bar.set_position(k * variants.len() as u64);
        }
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }

    let title = format!("{}: total energy, {}", scenario.name, labels.join(" vs "));
    // A long list of variants is named in the legend; the title stays short.
    let title = if title.chars().count() > 70 {
        format!("{}: total energy by variant", scenario.name)
    } else {
        title
    };
    let picture_lines = pictures.finish(&title)?;
    if !args.quiet {
        let n = variants[0].world.balls().len();
        let mut text = format!(
            "{}: {n} ball{}, {steps} steps of dt = {dt} (t = {} -> {})\n",
            scenario.name,
            if n == 1 { "" } else { "s" },
            num(variants[0].first_time),
            num(variants[0].first_time + steps as f64 * dt),
        );
        text.push_str(&table(&variants));
        for line in picture_lines {
            text.push_str(&line);
            text.push('\n');
        }
        crate::print_stdout(&text);
    }

    let failed: Vec<String> = variants
        .iter()
        .filter_map(|v| {
            v.failure
                .as_ref()
                .map(|(e, step, t)| format!("{}: {e} (step {step}, t = {t})", v.label))
        })
        .collect();
    if failed.is_empty() {
        Ok(())
    } else {
        Err(CliError::run(format!(
            "carom: {}; its row and pictures stop at the last good state",
            failed.join("; ")
        )))
    }
}

/// The worlds still running; a failed one is `None` (its picture and curve stop).
fn live(variants: &[Variant]) -> Vec<Option<&World>> {
    variants
        .iter()
        .map(|v| v.failure.is_none().then_some(&v.world))
        .collect()
}

/// The next step count at which something must happen: a picture sample, a check, or
/// the end.
fn next_stop(pictures: &Pictures, k: u64, steps: u64) -> u64 {
    let limit = (k + CHUNK).min(steps);
    (k + 1..=limit)
        .find(|&j| pictures.due(j, steps))
        .unwrap_or(limit)
}

fn args_models(args: &CompareArgs) -> Vec<ModelKind> {
    if !args.models.is_empty() {
        return args.models.clone();
    }
    let mut implied = Vec::new();
    if !args.glitch_prevention.is_empty() {
        implied.push(ModelKind::Impulse);
    }
    if !args.integrators.is_empty() {
        implied.push(ModelKind::Spring);
    }
    if implied.is_empty() {
        ModelKind::ALL.to_vec()
    } else {
        implied
    }
}

fn on_off(b: bool) -> &'static str {
    if b {
        "on"
    } else {
        "off"
    }
}

/// Each variant's label (`None`: named after its built world) and the overrides that
/// make it, after the user's own.
type Plan = Vec<(Option<String>, Vec<SetArg>)>;

fn variants(args: &CompareArgs) -> Result<Plan, CliError> {
    let models = args_models(args);
    for (i, m) in models.iter().enumerate() {
        if models[..i].contains(m) {
            return Err(CliError::input(format!(
                "--models: {} is listed twice",
                m.name()
            )));
        }
    }
    for (i, g) in args.integrators.iter().enumerate() {
        if args.integrators[..i].contains(g) {
            return Err(CliError::input(format!(
                "--integrators: {} is listed twice",
                g.name()
            )));
        }
    }
    if !args.integrators.is_empty() && !models.contains(&ModelKind::Spring) {
        return Err(CliError::input(
            "--integrators: only the spring model has integrators; add spring to --models",
        ));
    }
    for (i, g) in args.glitch_prevention.iter().enumerate() {
        if args.glitch_prevention[..i].contains(g) {
            return Err(CliError::input(format!(
                "--glitch-prevention: {} is listed twice",
                on_off(*g)
            )));
        }
    }
    if !args.glitch_prevention.is_empty() && !models.contains(&ModelKind::Impulse) {
        return Err(CliError::input(
            "--glitch-prevention: only the impulse model has glitch prevention; add impulse \
             to --models",
        ));
    }
    let mut base = args.sets.clone();
    if let Some(dt) = args.dt {
        base.push(SetArg::dt(dt));
    }
    let mut out = Vec::new();
    for &m in &models {
        let mut sets = base.clone();
        sets.push(SetArg::model(m));
        if m == ModelKind::Spring && !args.integrators.is_empty() {
            for &g in &args.integrators {
                let mut sets = sets.clone();
                sets.push(SetArg {
                    label: format!("--integrators {}", g.name()),
                    path: field_path("physics.integrator"),
                    value: toml::Value::String(g.name().to_string()),
                });
                out.push((Some(format!("spring, {}", g.name())), sets));
            }
        } else if m == ModelKind::Impulse && !args.glitch_prevention.is_empty() {
            for &g in &args.glitch_prevention {
                let mut sets = sets.clone();
                sets.push(SetArg {
                    label: format!("--glitch-prevention {}", on_off(g)),
                    path: field_path("physics.glitch_prevention"),
                    value: toml::Value::Boolean(g),
                });
                out.push((
                    Some(format!("impulse, glitch prevention {}", on_off(g))),
                    sets,
                ));
            }
        } else {
            out.push((None, sets));
        }
    }
    Ok(out)
}

/// The comparison table: a header, then one row per variant.
fn table(variants: &[Variant]) -> String {
    let headers = [
        "variant",
        "energy drift",
        "momentum drift",
        "symmetry error",
        "collisions",
        "pressure",
        "wall time (s)",
        "ball-steps/s",
    ];
    let mut rows: Vec<Vec<String>> = Vec::new();
    for v in variants {
        let end = &v.last_good;
        let n = v.world.balls().len() as f64;
        let secs = v.wall.as_secs_f64();
        let mut row = vec![
            v.label.clone(),
            format!("{:+.3e}", energy_drift(&v.start, end)),
            format!("{:.3e}", momentum_drift(&v.start, end)),
            end.symmetry_error
                .map_or("-".to_string(), |e| format!("{e:.3e}")),
            end.collisions.to_string(),
            num(end.pressure),
            num(secs),
            if secs > 0.0 {
                num(n * v.steps_done as f64 / secs)
            } else {
                "-".to_string()
            },
        ];
        if let Some((_, step, _)) = &v.failure {
            row.push(format!("failed at step {step}"));
        }
        rows.push(row);
    }
    let mut widths: Vec<usize> = headers.iter().map(|h| h.len()).collect();
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut text = String::new();
    let line = |cells: &[String], text: &mut String| {
        let mut s = String::new();
        for (i, cell) in cells.iter().enumerate() {
            let w = widths.get(i).copied().unwrap_or(0);
            if i == 0 {
                s.push_str(&format!("{cell:<w$}"));
            } else if i < widths.len() {
                s.push_str(&format!("  {cell:>w$}"));
            } else {
                s.push_str(&format!("  {cell}"));
            }
        }
        text.push_str(s.trim_end());
        text.push('\n');
    };
    let header: Vec<String> = headers.iter().map(|h| h.to_string()).collect();
    line(&header, &mut text);
    for row in &rows {
        line(row, &mut text);
    }
    text
}
