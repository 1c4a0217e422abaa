//! `carom run`: load, step, sample, report. The stepping is the core's session
//! ([`carom::run::Session::run`]), which keeps the last good state to write when the
//! run cannot go on; this file says what is written along the way and at the end.

use std::path::Path;
use std::time::Instant;

use carom::run::{Failure, Observer, RunError, Session};
use carom::{Diagnostics, StepError, World};
use indicatif::ProgressBar;

use crate::args::RunArgs;
use crate::error::CliError;
use crate::load::load;
use crate::output::{self, AtomicFile, DiagnosticsCsv, EventsCsv, Spins, Trajectory};
use crate::render::{plot_title, variant_label, Pictures};
use crate::stepping::{apply_threads, check_steps, progress_bar, steps_for};
use crate::summary::Summary;
use crate::values::SetArg;

/// The largest picture `--render` draws when `--size` is not given.
const PICTURE_SIZE: (u32, u32) = (640, 480);

pub fn run(args: RunArgs) -> Result<(), CliError> {
    let (mut session, steps) = open_session(&args)?;
    // Every output file is made (and every bad path refused) before the first step.
    let out = args
        .out
        .as_deref()
        .map(|p| AtomicFile::create("--out", p))
        .transpose()?;
    let mut watch = Watch::open(&args, &mut session.world, steps)?;
    let world = &session.world;
    if !args.quiet {
        for w in world.warnings() {
            eprintln!("carom: warning: {w}");
        }
    }
    let start = world.diagnostics();
    let (first_step, first_time) = (world.steps, world.time);
    watch.sample(world, 0, steps)?;
    watch.bar = progress_bar(steps, args.quiet);

    let drawing_before = watch.pictures.elapsed();
    let clock = Instant::now();
    let failure = match session.run(steps, &mut watch) {
        Ok(()) => None,
        Err(RunError::Failed(f)) => Some(f),
        Err(RunError::Observer(e)) => return Err(e),
    };
    // Drawing is not simulation: its time stays out of the reported speed.
    let wall = clock
        .elapsed()
        .saturating_sub(watch.pictures.elapsed() - drawing_before);
    if let Some(bar) = watch.bar.take() {
        bar.finish_and_clear();
    }
    refuse_unsupported(&args, failure.as_ref())?;

    let world = &session.world;
    let end = Diagnostics {
        collisions: session.collisions_since_load(),
        ..world.diagnostics()
    };
    if let Some(out) = out {
        let state = session.state_head();
        let file = carom::state::StateFile {
            head: &state,
            world,
        };
        output::write_state(out, &file)?;
    }
    let has_pictures = !watch.pictures.is_empty();
    let picture_lines = watch.commit(world)?;

    if !args.quiet {
        let summary = Summary {
            world,
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

    match failure {
        Some(f) => Err(CliError::run(format!(
            "{f}{}",
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
        None => Ok(()),
    }
}

/// The scenario loaded with the flags that change it (`--set`, `--model`, `--dt`),
/// its session, and the steps the run takes (`--steps`, `--time` or the scenario's
/// duration); the threads set; the output paths checked to be distinct.
fn open_session(args: &RunArgs) -> Result<(Session, u64), CliError> {
    let mut sets = args.sets.clone();
    if let Some(m) = args.model {
        sets.push(SetArg::model(m));
    }
    if let Some(dt) = args.dt {
        sets.push(SetArg::dt(dt));
    }
    let mut session = Session::new(load(&args.scenario, &sets)?);

    // A step's length on the clock: `dt`, or one chain's for the chain sampler.
    let dt = session.world.step_length();
    let steps = match (args.steps, args.time) {
        (Some(n), _) => check_steps(n)?,
        (None, Some(t)) => steps_for(t, dt, "--time")?,
        (None, None) => steps_for(session.scenario.duration, dt, "duration")?,
    };
    apply_threads(&mut session.world, args.threads)?;

    check_distinct(&[
        ("--out", args.out.as_deref()),
        ("--trajectory", args.trajectory.as_deref()),
        ("--diagnostics", args.diagnostics.as_deref()),
        ("--events", args.events.as_deref()),
        ("--render", args.picture.render.as_deref()),
        ("--plot", args.picture.plot.as_deref()),
    ])?;
    Ok((session, steps))
}

/// A model that cannot run the scene at all stops the run before it writes
/// anything: bad input, named by where the model came from.
fn refuse_unsupported(args: &RunArgs, failure: Option<&Failure>) -> Result<(), CliError> {
    if let Some(Failure {
        error: StepError::Unsupported(msg),
        ..
    }) = failure
    {
        let origin = match args.model {
            Some(m) => SetArg::model(m).label,
            None => args.scenario.clone(),
        };
        return Err(CliError::input(format!("{origin}: physics.model: {msg}")));
    }
    Ok(())
}

/// What a run writes as it goes: samples, pictures, events and the progress bar.
struct Watch {
    sampler: Sampler,
    /// Whether `--trajectory` or `--diagnostics` is written, every `every` steps.
    sampling: bool,
    every: u64,
    pictures: Pictures,
    events: Option<EventsCsv>,
    bar: Option<ProgressBar>,
}

impl Watch {
    /// Creates the files the run writes as it goes (`--trajectory`, `--diagnostics`,
    /// `--events`, the pictures) and turns the event log on when it is asked for.
    fn open(args: &RunArgs, world: &mut World, steps: u64) -> Result<Watch, CliError> {
        let sampler = Sampler {
            trajectory: args
                .trajectory
                .as_deref()
                .map(|p| Trajectory::create(p, Spins::of(world)))
                .transpose()?,
            diagnostics: args
                .diagnostics
                .as_deref()
                .map(|p| {
                    DiagnosticsCsv::create(
                        p,
                        Spins::of(world) != Spins::None,
                        world.can_lose_balls(),
                        world.physics().model == carom::ModelKind::Chain,
                    )
                })
                .transpose()?,
            last: None,
            window: world.window(),
        };
        let events = args.events.as_deref().map(EventsCsv::create).transpose()?;
        world.set_event_log(events.is_some());
        let label = format!("{} · {}", world.name, variant_label(world.physics()));
        let pictures = Pictures::create(
            &args.picture,
            &[world],
            &[label],
            steps,
            PICTURE_SIZE,
            args.quiet,
        )?;
        Ok(Watch {
            every: args.every.unwrap_or(1),
            sampling: sampler.trajectory.is_some() || sampler.diagnostics.is_some(),
            sampler,
            pictures,
            events,
            bar: None,
        })
    }

    /// Puts every file written along the way in its place; the pictures' lines for
    /// the summary.
    fn commit(self, world: &World) -> Result<Vec<String>, CliError> {
        self.sampler.commit()?;
        if let Some(events) = self.events {
            events.commit()?;
        }
        self.pictures.finish(&plot_title(world))
    }

    fn sample_due(&self, k: u64, steps: u64) -> bool {
        self.sampling && (k.is_multiple_of(self.every) || k == steps)
    }
}

impl Observer for Watch {
    type Error = CliError;

    fn due(&self, k: u64, steps: u64) -> bool {
        self.sample_due(k, steps) || self.pictures.due(k, steps)
    }

    fn sample(&mut self, world: &World, k: u64, steps: u64) -> Result<(), CliError> {
        if self.sample_due(k, steps) {
            self.sampler.sample(world)?;
        }
        if k == 0 || self.pictures.due(k, steps) {
            self.pictures.sample(&[Some(world)], k, steps)?;
        }
        Ok(())
    }

    /// The state the run stopped at (a compression's stop, the last good state after a
    /// failure) goes into every output, whatever the cadence.
    fn last(&mut self, world: &World) -> Result<(), CliError> {
        self.sampler.sample(world)?;
        self.pictures.sample_now(&[Some(world)])
    }

    fn stepped(&mut self, world: &mut World) -> Result<(), CliError> {
        match self.events.as_mut() {
            Some(events) => events.drain(world),
            None => Ok(()),
        }
    }

    fn progress(&mut self, k: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(k);
        }
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
    window: carom::Window,
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
