//! Pictures of runs: `--render` (an animated GIF, or the last state as PNG or SVG) and
//! `--plot` (energy and momentum over time), for `carom run` (one world) and `carom
//! compare` (several side by side). Both files are opened before the run, so a place
//! that cannot be written is reported before any work, and written whole at the end.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use carom::{ModelKind, World};
use carom_render::{
    color_frame, plot_energy, plot_total_energies, steps_per_frame, AnimationOptions, ColorBy,
    Frame, ImageFormat, PictureOptions, Recording, Series, Style, DEFAULT_FPS, DEFAULT_SPEED,
    DEFAULT_TRAIL_LEN, MAX_FPS, PLOT_SIZE,
};
use clap::Args;

use crate::error::CliError;
use crate::output::AtomicFile;
use crate::summary::num;

#[derive(Debug, Clone, Args)]
pub struct PictureArgs {
    /// Draw the run: an animated GIF, or the last state as PNG or SVG (the file
    /// extension decides)
    #[arg(long, value_name = "FILE.gif|.png|.svg", value_parser = parse_render_path)]
    pub render: Option<PathBuf>,

    /// Animation frames per second, at most 50 [default: 25]
    #[arg(long, value_name = "F", requires = "render", value_parser = parse_fps)]
    pub fps: Option<f64>,

    /// The largest picture of one world in pixels; the table keeps its aspect inside
    /// it [default: 640x480 for run, 480x360 per world for compare]
    #[arg(long, value_name = "WxH", requires = "render", value_parser = parse_size)]
    pub size: Option<(u32, u32)>,

    /// Simulated time shown per second of animation [default: 60: the tutorial's
    /// time unit is one frame of a 60 Hz display]
    #[arg(long, value_name = "S", requires = "render", value_parser = parse_speed)]
    pub speed: Option<f64>,

    /// Fading trails behind the balls
    #[arg(long, requires = "render")]
    pub trails: bool,

    /// Velocity arrows from each ball's rim
    #[arg(long, requires = "render")]
    pub arrows: bool,

    /// Draw more on the render: `forces`, the force chains (each contact a segment
    /// between the centres, as wide as its normal force; the spring model)
    #[arg(long, value_name = "forces", requires = "render", value_parser = parse_draw)]
    pub draw: Option<Layer>,

    /// Colour each ball by a quantity instead of its own colour: psi6 (the phase of
    /// its local bond order as the hue, its modulus as the brightness), speed, or size
    #[arg(long, value_name = "psi6|speed|size", requires = "render", value_parser = parse_color_by)]
    pub color_by: Option<ColorBy>,

    /// Plot over time: energies (kinetic, potential, total) and momentum for run, the
    /// total energy of every variant for compare; PNG or SVG
    #[arg(long, value_name = "FILE.png|.svg", value_parser = parse_plot_path)]
    pub plot: Option<PathBuf>,
}

fn parse_render_path(s: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(s);
    ImageFormat::from_path(&path).map_err(|e| e.to_string())?;
    Ok(path)
}

/// What `--draw` adds to a render.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layer {
    /// Contact forces as force chains.
    Forces,
}

fn parse_draw(s: &str) -> Result<Layer, String> {
    match s.trim() {
        "forces" => Ok(Layer::Forces),
        _ => Err("the layers are: forces".to_string()),
    }
}

fn parse_plot_path(s: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(s);
    match ImageFormat::from_path(&path).map_err(|e| e.to_string())? {
        ImageFormat::Gif => Err("plots are written as .png or .svg".to_string()),
        _ => Ok(path),
    }
}

fn parse_color_by(s: &str) -> Result<ColorBy, String> {
    ColorBy::parse(s).ok_or_else(|| "must be psi6, speed or size".to_string())
}

fn parse_fps(s: &str) -> Result<f64, String> {
    let v: f64 = s.trim().parse().map_err(|_| "not a number".to_string())?;
    carom_render::check_fps(v).map_err(|_| format!("must be in (0, {MAX_FPS}]"))?;
    Ok(v)
}

fn parse_size(s: &str) -> Result<(u32, u32), String> {
    carom_render::parse_size(s).map_err(|e| e.to_string())
}

fn parse_speed(s: &str) -> Result<f64, String> {
    let v: f64 = s.trim().parse().map_err(|_| "not a number".to_string())?;
    if v.is_finite() && v > 0.0 {
        Ok(v)
    } else {
        Err("must be a positive finite number".to_string())
    }
}

/// Plots hold at most about this many points per curve: finer than any screen shows.
const PLOT_POINTS: u64 = 2000;

/// Animations longer than this many frames (two minutes at 25 fps) get a warning: the
/// file grows with every frame.
const MANY_FRAMES: u64 = 3000;

pub use carom::compare::variant_label;

/// Plot title: the scenario, the model and how it moves balls between collisions.
pub fn plot_title(world: &World) -> String {
    let p = world.physics();
    let motion = match p.model {
        ModelKind::Spring => p.integrator.name().to_string(),
        ModelKind::Impulse | ModelKind::Simultaneous => "exact free flight".to_string(),
        ModelKind::Event => "exact event times".to_string(),
        ModelKind::Chain => "event chains".to_string(),
    };
    format!("{}: {} model, {motion}", world.name, p.model.name())
}

struct Render {
    path: PathBuf,
    recording: Recording<AtomicFile>,
    frames: Vec<Frame>,
    every: u64,
    /// `--draw forces`: each frame carries its contact forces.
    forces: bool,
    color_by: Option<ColorBy>,
}

struct Plot {
    path: PathBuf,
    format: ImageFormat,
    file: AtomicFile,
    series: Vec<Series>,
    every: u64,
}

/// The pictures a command asked for, fed as its worlds advance.
pub struct Pictures {
    render: Option<Render>,
    plot: Option<Plot>,
    /// The step last sampled, so that a final sample is not taken twice.
    last: Option<u64>,
    /// Time spent drawing and encoding, kept out of the simulation's wall time.
    elapsed: Duration,
}

impl Pictures {
    /// Opens the files asked for. `worlds` are the worlds shown (one for run, one per
    /// variant for compare) in their initial state, `labels` their names, `steps` the
    /// length of the run; `default_size` the per-world picture size when `--size` is
    /// not given.
    pub fn create(
        args: &PictureArgs,
        worlds: &[&World],
        labels: &[String],
        steps: u64,
        default_size: (u32, u32),
        quiet: bool,
    ) -> Result<Pictures, CliError> {
        let clock = Instant::now();
        let mut frames: Vec<Frame> = worlds
            .iter()
            .map(|w| {
                let mut f = Frame::from_world(w);
                if let Some(by) = args.color_by {
                    color_frame(&mut f, w, by);
                }
                f
            })
            .collect();
        let forces = args.render.is_some() && args.draw == Some(Layer::Forces);
        if forces {
            for (f, w) in frames.iter_mut().zip(worlds) {
                if !f.update_forces(w) {
                    return Err(CliError::input(format!(
                        "--draw forces: the {} model acts by impulses and has no contact \
                         forces to draw (the spring model has)",
                        w.physics().model.name()
                    )));
                }
            }
        }
        let dt = worlds.first().map_or(1.0, |w| w.step_length());
        let render = match &args.render {
            None => None,
            Some(path) => {
                let fps = args.fps.unwrap_or(DEFAULT_FPS);
                let every = steps_per_frame(dt, fps, args.speed.unwrap_or(DEFAULT_SPEED));
                let count = steps / every + 1;
                if count > MANY_FRAMES && !quiet {
                    eprintln!(
                        "carom: warning: --render {}: {count} frames ({} s at {fps} fps); \
                         --speed plays more simulated time per second",
                        path.display(),
                        num(count as f64 / fps)
                    );
                }
                let options = AnimationOptions {
                    picture: PictureOptions {
                        style: Style {
                            arrow_time: args.arrows.then(|| arrow_time(&frames)),
                            ..Style::default()
                        },
                        size: args.size.unwrap_or(default_size),
                        show_time: true,
                    },
                    fps,
                    trails: args.trails.then_some(DEFAULT_TRAIL_LEN),
                };
                let shown = path.display();
                let format = ImageFormat::from_path(path)
                    .map_err(|e| CliError::input(format!("--render {e}")))?;
                let file = AtomicFile::create("--render", path)?;
                let recording = Recording::new(file, format, &frames, labels, &options)
                    .map_err(|e| CliError::input(format!("--render {shown}: {e}")))?;
                Some(Render {
                    path: path.clone(),
                    recording,
                    frames: frames.clone(),
                    every,
                    forces,
                    color_by: args.color_by,
                })
            }
        };
        let plot = match &args.plot {
            None => None,
            Some(path) => {
                let format = ImageFormat::from_path(path)
                    .map_err(|e| CliError::input(format!("--plot {e}")))?;
                Some(Plot {
                    path: path.clone(),
                    format,
                    file: AtomicFile::create("--plot", path)?,
                    series: labels.iter().map(Series::new).collect(),
                    every: (steps / PLOT_POINTS).max(1),
                })
            }
        };
        if let (Some(r), Some(p)) = (&render, &plot) {
            if r.path == p.path {
                return Err(CliError::input(format!(
                    "--render and --plot name the same file {}",
                    r.path.display()
                )));
            }
        }
        Ok(Pictures {
            render,
            plot,
            last: None,
            elapsed: clock.elapsed(),
        })
    }

    pub fn is_empty(&self) -> bool {
        self.render.is_none() && self.plot.is_none()
    }

    /// Whether anything is to be sampled after `k` of `steps` steps.
    pub fn due(&self, k: u64, steps: u64) -> bool {
        let due = |every: u64| k.is_multiple_of(every) || k == steps;
        self.render.as_ref().is_some_and(|r| due(r.every))
            || self.plot.as_ref().is_some_and(|p| due(p.every))
    }

    /// Samples what is due after `k` of `steps` steps. A `None` world stopped (its run
    /// failed): its panel keeps its last picture and its curve ends.
    pub fn sample(
        &mut self,
        worlds: &[Option<&World>],
        k: u64,
        steps: u64,
    ) -> Result<(), CliError> {
        let due = |every: u64| k == 0 || k.is_multiple_of(every) || k == steps;
        let frame = self.render.as_ref().is_some_and(|r| due(r.every));
        let point = self.plot.as_ref().is_some_and(|p| due(p.every));
        self.take(worlds, frame, point)
    }

    /// Samples everything now, whatever the cadence (the last good state of a run that
    /// failed), unless this step was sampled already.
    pub fn sample_now(&mut self, worlds: &[Option<&World>]) -> Result<(), CliError> {
        self.take(worlds, true, true)
    }

    fn take(
        &mut self,
        worlds: &[Option<&World>],
        frame: bool,
        point: bool,
    ) -> Result<(), CliError> {
        if !(frame && self.render.is_some() || point && self.plot.is_some()) {
            return Ok(());
        }
        let step = worlds.iter().flatten().map(|w| w.steps).max();
        if step.is_some() && self.last == step {
            return Ok(());
        }
        self.last = step;
        let clock = Instant::now();
        if let (true, Some(r)) = (frame, self.render.as_mut()) {
            for (f, w) in r.frames.iter_mut().zip(worlds) {
                if let Some(w) = w {
                    f.update_from_world(w);
                    if r.forces {
                        f.update_forces(w);
                    }
                    if let Some(by) = r.color_by {
                        color_frame(f, w, by);
                    }
                }
            }
            r.recording
                .push(&r.frames)
                .map_err(|e| CliError::run(format!("--render {}: {e}", r.path.display())))?;
        }
        if let (true, Some(p)) = (point, self.plot.as_mut()) {
            for (s, w) in p.series.iter_mut().zip(worlds) {
                if let Some(w) = w {
                    s.push(w.time, &w.diagnostics());
                }
            }
        }
        self.elapsed += clock.elapsed();
        Ok(())
    }

    /// Time spent on pictures so far.
    pub fn elapsed(&self) -> Duration {
        self.elapsed
    }

    /// Writes the files. `title` heads the plot. Returns one report line per file.
    pub fn finish(self, title: &str) -> Result<Vec<String>, CliError> {
        let mut lines = Vec::new();
        if let Some(r) = self.render {
            let shown = r.path.display();
            let (file, summary) = r
                .recording
                .finish()
                .map_err(|e| CliError::run(format!("--render {shown}: {e}")))?;
            file.commit()?;
            let what = if summary.frames == 1 {
                "1 frame".to_string()
            } else {
                format!("{} frames", summary.frames)
            };
            lines.push(format!(
                "render      {shown}: {what}, {} x {} px",
                summary.size.0, summary.size.1
            ));
        }
        if let Some(mut p) = self.plot {
            let shown = p.path.display();
            let bytes = if p.series.len() == 1 {
                plot_energy(&p.series[0], title, p.format, PLOT_SIZE)
            } else {
                plot_total_energies(&p.series, title, p.format, PLOT_SIZE)
            }
            .map_err(|e| CliError::run(format!("--plot {shown}: {e}")))?;
            p.file.write_all(&bytes)?;
            p.file.commit()?;
            lines.push(format!("plot        {shown}"));
        }
        Ok(lines)
    }
}

/// Arrows long enough to read and short enough not to cross the table: the fastest
/// ball's arrow spans a sixth of the table's shorter side at the start.
fn arrow_time(frames: &[Frame]) -> f64 {
    let mut fastest: f64 = 0.0;
    let mut side = f64::INFINITY;
    for f in frames {
        side = side.min(f.width.min(f.height));
        for b in &f.balls {
            let v = b.vx.hypot(b.vy);
            if v.is_finite() {
                fastest = fastest.max(v);
            }
        }
    }
    if fastest > 0.0 && side.is_finite() {
        side / 6.0 / fastest
    } else {
        // Everything at rest: any balls set moving later get arrows of the tutorial's
        // scale (a cue speed of 8 draws 40 units).
        5.0
    }
}
