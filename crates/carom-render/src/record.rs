//! A picture of a run, fed as the run goes: an animation gets every sampled frame, a
//! still picture (PNG, SVG) keeps the trails and draws the last state at the end.

use std::io::Write;
use std::path::Path;

use crate::gif::{AnimationOptions, GifWriter};
use crate::io::AtomicFile;
use crate::raster::{render_png, Panel};
use crate::svg::render_svg;
use crate::trails::Trails;
use crate::{Frame, ImageFormat, RenderError};

/// Simulated time per second of playback, by default: the tutorial's time unit is one
/// frame of a 60 Hz display, so this plays its scenes at their own pace.
pub const DEFAULT_SPEED: f64 = 60.0;

/// Steps between two animation frames so that `speed` units of simulated time play in
/// one second at `fps` (at least one step).
pub fn steps_per_frame(dt: f64, fps: f64, speed: f64) -> u64 {
    let steps = speed / (fps * dt);
    if steps.is_finite() && steps >= 1.0 {
        steps.round() as u64
    } else {
        1
    }
}

/// What a finished recording wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordSummary {
    /// The file's picture format.
    pub format: ImageFormat,
    /// Frames held by the file (1 for a still picture).
    pub frames: u64,
    /// Picture size in pixels.
    pub size: (u32, u32),
}

enum Sink<W: Write> {
    Gif(Box<GifWriter<W>>),
    /// The writer is taken at the start all the same, so that a file that cannot be
    /// created is reported before the run rather than after it.
    Still {
        writer: W,
        trails: Option<Vec<Trails>>,
        last: Vec<Frame>,
    },
}

/// A picture being made from a run (or several side by side), written to `W`.
pub struct Recording<W: Write> {
    format: ImageFormat,
    labels: Vec<String>,
    options: AnimationOptions,
    sink: Sink<W>,
}

impl<W: Write> Recording<W> {
    /// Starts a picture in `format` of the worlds in `first`, one panel each, labelled
    /// with `labels` (empty: no labels). Push every sampled state, the first included,
    /// then finish.
    pub fn new(
        writer: W,
        format: ImageFormat,
        first: &[Frame],
        labels: &[String],
        options: &AnimationOptions,
    ) -> Result<Recording<W>, RenderError> {
        crate::gif::check_fps(options.fps)?;
        if !labels.is_empty() && labels.len() != first.len() {
            return Err(RenderError::Input(format!(
                "{} labels for {} panels",
                labels.len(),
                first.len()
            )));
        }
        let sink = match format {
            ImageFormat::Gif => {
                Sink::Gif(Box::new(GifWriter::new(writer, first, labels, options)?))
            }
            ImageFormat::Png | ImageFormat::Svg => {
                // Fail now, not after a long run, if the picture cannot be laid out.
                let panels: Vec<Panel> = first.iter().map(Panel::new).collect();
                options.picture.layout(&panels)?;
                Sink::Still {
                    writer,
                    trails: options
                        .trails
                        .map(|n| (0..first.len()).map(|_| Trails::new(n)).collect()),
                    last: first.to_vec(),
                }
            }
        };
        Ok(Recording {
            format,
            labels: labels.to_vec(),
            options: options.clone(),
            sink,
        })
    }

    /// The format being recorded.
    pub fn format(&self) -> ImageFormat {
        self.format
    }

    /// Adds the worlds' current state (one frame per panel).
    pub fn push(&mut self, frames: &[Frame]) -> Result<(), RenderError> {
        match &mut self.sink {
            Sink::Gif(g) => g.push(frames),
            Sink::Still { trails, last, .. } => {
                if frames.len() != last.len() {
                    return Err(RenderError::Input(format!(
                        "{} worlds given to a picture of {}",
                        frames.len(),
                        last.len()
                    )));
                }
                if let Some(trails) = trails {
                    for (t, f) in trails.iter_mut().zip(frames) {
                        t.record(f);
                    }
                }
                last.clone_from_slice(frames);
                Ok(())
            }
        }
    }

    /// Completes the picture (the last pushed state, for a still one) and hands the
    /// writer back.
    pub fn finish(self) -> Result<(W, RecordSummary), RenderError> {
        let label = |k: usize| self.labels.get(k).map_or("", String::as_str);
        match self.sink {
            Sink::Gif(g) => {
                let size = g.size();
                let (writer, frames) = g.finish()?;
                let summary = RecordSummary {
                    format: self.format,
                    frames,
                    size,
                };
                Ok((writer, summary))
            }
            Sink::Still {
                mut writer,
                trails,
                last,
            } => {
                let panels: Vec<Panel> = last
                    .iter()
                    .enumerate()
                    .map(|(k, f)| {
                        Panel::new(f)
                            .labelled(label(k))
                            .with_trails(trails.as_ref().and_then(|t| t.get(k)))
                    })
                    .collect();
                let size = self.options.picture.layout(&panels)?.canvas;
                let bytes = match self.format {
                    ImageFormat::Svg => render_svg(&panels, &self.options.picture)?.into_bytes(),
                    _ => render_png(&panels, &self.options.picture)?,
                };
                writer
                    .write_all(&bytes)
                    .and_then(|()| writer.flush())
                    .map_err(|e| RenderError::Io(e.to_string()))?;
                let summary = RecordSummary {
                    format: self.format,
                    frames: 1,
                    size,
                };
                Ok((writer, summary))
            }
        }
    }
}

impl Recording<AtomicFile> {
    /// A recording into the file at `path`, whose extension picks the format; the file
    /// appears only when [`Recording::finish_file`] completes.
    pub fn create(
        path: &Path,
        first: &[Frame],
        labels: &[String],
        options: &AnimationOptions,
    ) -> Result<Recording<AtomicFile>, RenderError> {
        let format = ImageFormat::from_path(path)?;
        // Checked before the file is created, so a bad request leaves nothing behind.
        crate::gif::check_fps(options.fps)?;
        let file = AtomicFile::create(path)?;
        Recording::new(file, format, first, labels, options)
    }

    /// Finishes the picture and puts the file in place.
    pub fn finish_file(self) -> Result<RecordSummary, RenderError> {
        let (file, summary) = self.finish()?;
        // AtomicFile's errors already name the file.
        file.commit()?;
        Ok(summary)
    }
}
