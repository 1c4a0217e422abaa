//! `carom compare`: the same scene under several models (and, for the spring model,
//! several integrators; for the impulse model, glitch prevention on and off), stepped
//! in lockstep so that an animation can show them side
//! by side; one table row per variant.

use carom::compare::{plan, Plan, Variant, CHUNK};
use carom::{Integrator, ModelKind, World};
use clap::Args;

use crate::error::CliError;
use crate::load::load;
use crate::render::{PictureArgs, Pictures};
use crate::stepping::{check_steps, progress_bar, steps_for};
use crate::summary::num;
use crate::values::{parse_dt, parse_model, parse_set, parse_threads, parse_time, SetArg};

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

    /// Number of steps to run, at most 10^15 [default: the scenario's duration / dt]
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

pub fn compare(args: CompareArgs) -> Result<(), CliError> {
    let plan = variants(&args)?;
    let mut variants = Vec::with_capacity(plan.len());
    for p in plan {
        let loaded = load(&args.scenario, &p.sets)?;
        let mut world = loaded.world;
        crate::stepping::apply_threads(&mut world, args.threads)?;
        // Without an integrator list, the label comes from the built world (the
        // scenario's own integrator, for spring).
        variants.push((loaded.scenario, Variant::new(p.label, world)));
    }
    let scenario = variants[0].0.clone();
    let mut variants: Vec<Variant> = variants.into_iter().map(|(_, v)| v).collect();
    let dt = variants[0].world.physics().dt;
    let steps = match (args.steps, args.time) {
        (Some(n), _) => check_steps(n)?,
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
        for v in variants.iter_mut() {
            v.advance_to(next).map_err(|msg| {
                CliError::input(format!(
                    "{}: {}: physics.model: {msg}",
                    args.scenario, v.label
                ))
            })?;
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

    let failed: Vec<String> = variants.iter().filter_map(|v| v.row().failure).collect();
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

/// The variants the options ask for, with the user's overrides applied first.
fn variants(args: &CompareArgs) -> Result<Vec<Plan>, CliError> {
    let mut base = args.sets.clone();
    if let Some(dt) = args.dt {
        base.push(SetArg::dt(dt));
    }
    plan(
        &args.models,
        &args.integrators,
        &args.glitch_prevention,
        &base,
    )
    .map_err(CliError::input)
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
        let r = v.row();
        let mut row = vec![
            r.label,
            format!("{:+.3e}", r.energy_drift),
            format!("{:.3e}", r.momentum_drift),
            r.symmetry_error
                .map_or("-".to_string(), |e| format!("{e:.3e}")),
            r.collisions.to_string(),
            num(r.pressure),
            num(r.wall_seconds),
            r.ball_steps_per_second.map_or("-".to_string(), num),
        ];
        if let Some(step) = r.failed_at {
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
