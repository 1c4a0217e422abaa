//! `carom run`: load, step, sample, report. A step that fails leaves the balls
//! part-way through it, so the loop keeps a checkpoint of the last good state (at
//! every sample, and every few steps in between) to write when the run cannot go on.

use std::path::Path;
use std::time::Instant;

use carom::run::{Checkpoint, CHECKPOINT_EVERY};
use carom::{Diagnostics, StepError, World};

use crate::args::RunArgs;
use crate::error::CliError;
use crate::load::{load, Loaded};
use crate::output::{self, AtomicFile, DiagnosticsCsv, EventsCsv, Spins, Trajectory};
use crate::render::{plot_title, variant_label, Pictures};
use crate::stepping::{apply_threads, check_steps, progress_bar, steps_for};
use crate::summary::Summary;
use crate::values::SetArg;

/// The largest picture `--render` draws when `--size` is not given.
const PICTURE_SIZE: (u32, u32) = (640, 480);

pub fn run(args: RunArgs) -> Result<(), CliError> {
    let mut sets = args.sets.clone();
    if let Some(m) = args.model {
        sets.push(SetArg::model(m));
    }
    if let Some(dt) = args.dt {
        sets.push(SetArg::dt(dt));
    }
    let Loaded {
        scenario,
        mut world,
    } = load(&args.scenario, &sets)?;

    let dt = world.physics().dt;
    let steps = match (args.steps, args.time) {
        (Some(n), _) => check_steps(n)?,
        (None, Some(t)) => steps_for(t, dt, "--time")?,
        (None, None) => steps_for(scenario.duration, dt, "duration")?,
    };
    apply_threads(&mut world, args.threads)?;

    check_distinct(&[
        ("--out", args.out.as_deref()),
        ("--trajectory", args.trajectory.as_deref()),
        ("--diagnostics", args.diagnostics.as_deref()),
        ("--events", args.events.as_deref()),
        ("--render", args.picture.render.as_deref()),
        ("--plot", args.picture.plot.as_deref()),
    ])?;
    let out = args
        .out
        .as_deref()
        .map(|p| AtomicFile::create("--out", p))
        .transpose()?;
    let mut sampler = Sampler {
        trajectory: args
            .trajectory
            .as_deref()
            .map(|p| Trajectory::create(p, Spins::of(&world)))
            .transpose()?,
        diagnostics: args
            .diagnostics
            .as_deref()
            .map(|p| {
                DiagnosticsCsv::create(p, Spins::of(&world) != Spins::None, world.can_lose_balls())
            })
            .transpose()?,
        last: None,
        window: world.window(),
    };

    let mut events = args.events.as_deref().map(EventsCsv::create).transpose()?;
    world.set_event_log(events.is_some());

    let label = format!("{} · {}", world.name, variant_label(world.physics()));
    let mut pictures = Pictures::create(
        &args.picture,
        &[&world],
        &[label],
        steps,
        PICTURE_SIZE,
        args.quiet,
    )?;

    if !args.quiet {
        for w in world.warnings() {
            eprintln!("carom: warning: {w}");
        }
    }

    let start = world.diagnostics();
    let (first_step, first_time) = (world.steps, world.time);
    sampler.sample(&world)?;
    pictures.sample(&[Some(&world)], 0, steps)?;
    let bar = progress_bar(steps, args.quiet);
    let every = args.every.unwrap_or(1);
    let sampling = sampler.trajectory.is_some() || sampler.diagnostics.is_some();
    // Progress updates about every 2^20 ball-steps: often enough to look live, rarely
    // enough to cost nothing even for a single ball.
    let tick = ((1u64 << 20) / world.balls().len().max(1) as u64).max(1);

    let mut checkpoint = Checkpoint::new(&world);
    let drawing_before = pictures.elapsed();
    let clock = Instant::now();
    let mut failure: Option<StepError> = None;
    // A model whose failed step leaves the world at its last good state (the event
    // model) runs from one sample to the next in chunks that read nothing, so the balls
    // are brought up to date only when something reads them: the progress bar reads
    // only the step count, and a run shows the same bits with or without it. The
    // others go step by step, with a checkpoint every few steps to fall back on.
    let clean = world.failed_step_restores();
    let mut k = 0;
    while k < steps {
        let next = if clean {
            // At least every `tick` steps the bar (if any) moves.
            let limit = (k + tick.max(16)).min(steps);
            (k + 1..=limit)
                .find(|&j| (sampling && j % every == 0) || pictures.due(j, steps))
                .unwrap_or(limit)
        } else {
            k + 1
        };
        let compressing = world.compression_running();
        let stepped = world.run_steps_unread(next - k);
        if let Some(events) = events.as_mut() {
            events.drain(&mut world)?;
        }
        if let Err(e) = stepped {
            // The world is at its last good step (a failed event step rewinds itself):
            // that is the checkpoint. Unless the failure was the state itself going bad
            // (a NaN the model found): then the last checkpoint.
            if clean && world.check_physical().is_ok() {
                checkpoint = Checkpoint::new(&world);
            }
            failure = Some(e);
            break;
        }
        k = next;
        if compressing && !world.compression_running() {
            // The compression stopped (at its target, or jammed): so does the run,
            // with the last sample and picture taken there.
            world.synchronise();
            if let Err(e) = checkpoint.update(&world) {
                failure = Some(e);
                break;
            }
            sampler.sample(&world)?;
            pictures.sample_now(&[Some(&world)])?;
            break;
        }
        let sample_due = sampling && (k % every == 0 || k == steps);
        let picture_due = pictures.due(k, steps);
        let checkpoint_due = if clean {
            sample_due || picture_due || k == steps
        } else {
            sample_due || picture_due || k % CHECKPOINT_EVERY == 0 || k == steps
        };
        if checkpoint_due {
            world.synchronise();
            if let Err(e) = checkpoint.update(&world) {
                failure = Some(e);
                break;
            }
        }
        if sample_due {
            sampler.sample(&world)?;
        }
        if picture_due {
            pictures.sample(&[Some(&world)], k, steps)?;
        }
        if let Some(bar) = &bar {
            if clean || k % tick == 0 {
                bar.set_position(k);
            }
        }
    }
    // Drawing is not simulation: its time stays out of the reported speed.
    let wall = clock
        .elapsed()
        .saturating_sub(pictures.elapsed() - drawing_before);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }

    if let Some(StepError::Unsupported(msg)) = &failure {
        // The model cannot run this scene at all: bad input, nothing is written.
        let origin = match args.model {
            Some(m) => SetArg::model(m).label,
            None => args.scenario.clone(),
        };
        return Err(CliError::input(format!("{origin}: physics.model: {msg}")));
    }
    let failed_at = failure.as_ref().map(|_| (world.steps, world.time));
    if failure.is_some() {
        checkpoint.restore(&mut world);
        sampler.sample(&world)?;
        pictures.sample_now(&[Some(&world)])?;
    }

    let end = world.diagnostics();
    let end = Diagnostics {
        collisions: checkpoint.collisions,
        ..end
    };
    if let Some(out) = out {
        let mut state = carom::state::snapshot_head(&world, scenario.duration);
        state.description = scenario.description.clone();
        if let Some(d) = state.diagnostics.as_mut() {
            // Like `steps`, a resumed run's count continues the one it resumed.
            let before = scenario
                .diagnostics
                .as_ref()
                .and_then(|d| d.get("collisions"))
                .and_then(serde_json::Value::as_u64)
                .unwrap_or(0);
            d["collisions"] = serde_json::json!(before + checkpoint.collisions);
        }
        let file = carom::state::StateFile {
            head: &state,
            world: &world,
        };
        output::write_state(out, &file)?;
    }
    sampler.commit()?;
    if let Some(events) = events {
        events.commit()?;
    }
    let has_pictures = !pictures.is_empty();
    let picture_lines = pictures.finish(&plot_title(&world))?;

    if !args.quiet {
        let summary = Summary {
            world: &world,
            start: &start,
            end: &end,
            first_step,
            first_time,
            wall,
            threads: world.threads(),
        };
        let mut text = summary.to_string();
        for line in picture_lines {
            text.push_str(&line);
            text.push('\n');
        }
        crate::print_stdout(&text);
    }

    match (failure, failed_at) {
        (Some(e), Some((step, time))) => Err(CliError::run(format!(
            "carom: {e} (step {step}, t = {time}); stopped at the last good state, step {} \
             (t = {}){}",
            world.steps,
            world.time,
            if args.out.is_some()
                || args.trajectory.is_some()
                || args.diagnostics.is_some()
                || has_pictures
            {
                ", which the requested outputs hold"
            } else {
                ""
            }
        ))),
        _ => Ok(()),
    }
}

fn check_distinct(outputs: &[(&str, Option<&Path>)]) -> Result<(), CliError> {
    for (i, (a, pa)) in outputs.iter().enumerate() {
        for (b, pb) in &outputs[i + 1..] {
            if let (Some(pa), Some(pb)) = (pa, pb) {
                if pa == pb {
                    return Err(CliError::input(format!(
                        "{a} and {b} name the same file {}",
                        pa.display()
                    )));
                }
            }
        }
    }
    Ok(())
}

/// The trajectory and diagnostics files, sampled together.
struct Sampler {
    trajectory: Option<Trajectory>,
    diagnostics: Option<DiagnosticsCsv>,
    /// The step last sampled, so a restored checkpoint is not written twice.
    last: Option<u64>,
    /// Where the interval since the last sample began, for its mean pressure.
    window: carom::world::Window,
}

impl Sampler {
    fn sample(&mut self, world: &World) -> Result<(), CliError> {
        if self.last == Some(world.steps) {
            return Ok(());
        }
        self.last = Some(world.steps);
        if let Some(t) = &mut self.trajectory {
            t.sample(world)?;
        }
        if let Some(d) = &mut self.diagnostics {
            d.sample(
                world.steps,
                world.time,
                &world.with_order(world.diagnostics_over(&self.window)),
            )?;
            self.window = world.window();
        }
        Ok(())
    }

    fn commit(self) -> Result<(), CliError> {
        if let Some(t) = self.trajectory {
            t.commit()?;
        }
        if let Some(d) = self.diagnostics {
            d.commit()?;
        }
        Ok(())
    }
}
