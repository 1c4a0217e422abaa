//! Pictures of carom worlds, for the command line, the viewer and the tests.
//!
//! Everything is drawn from plain data: a [`Frame`] (table size and balls) per world,
//! and a [`Series`] of diagnostics over time per run.
//! - [`render_png`] and [`render_svg`]: one state, or several side by side, as a PNG
//!   (anti-aliased, tiny-skia) or an SVG (exact circles).
//! - [`GifWriter`]: an animated GIF streamed frame by frame.
//! - [`Recording`]: any of the three, fed while a run goes on and written at the end.
//! - [`plot_energy`] and [`plot_total_energies`]: energy and momentum over time.
//!
//! Text (panel labels, plot titles) uses a font shipped inside a crate, so pictures come
//! out the same on a machine with no fonts installed.

#![warn(missing_docs)]

pub mod ballstyle;
pub mod colorby;
pub mod font;
pub mod frame;
pub mod gif;
pub mod io;
pub mod layout;
pub mod plot;
pub mod raster;
pub mod record;
pub mod svg;
pub mod trails;

use std::path::Path;

pub use ballstyle::BallStyle;
pub use colorby::{color_frame, ColorBy};
pub use frame::{default_color, BallView, Frame, DEFAULT_BALL_COLORS, FORCE_WIDTH};
pub use gif::{check_fps, AnimationOptions, GifWriter, DEFAULT_FPS, MAX_FPS};
pub use io::{write_atomic, AtomicFile};
pub use layout::{parse_size, Layout, Style, Viewport, DEFAULT_SIZE};
pub use plot::{plot_energy, plot_total_energies, Series, PLOT_SIZE};
pub use raster::{render_png, Painter, Panel, PictureOptions};
pub use record::{steps_per_frame, RecordSummary, Recording, DEFAULT_SPEED};
pub use svg::render_svg;
pub use trails::{Trails, DEFAULT_TRAIL_LEN};

/// What went wrong making a picture.
#[derive(Debug, Clone, PartialEq)]
pub enum RenderError {
    /// A request that cannot be drawn (bad size, format, frame rate, table).
    Input(String),
    /// Reading or writing a file.
    Io(String),
    /// An encoder refused the data.
    Encode(String),
}

impl std::fmt::Display for RenderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RenderError::Input(m) | RenderError::Io(m) | RenderError::Encode(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for RenderError {}

/// Picture file formats, chosen by file extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageFormat {
    /// Portable Network Graphics (`.png`): one anti-aliased still.
    Png,
    /// An animated GIF (`.gif`).
    Gif,
    /// Scalable Vector Graphics (`.svg`): one still, circles exact.
    Svg,
}

impl ImageFormat {
    /// The format `path`'s extension names (any case); an error naming the path when it has
    /// none or an unknown one.
    pub fn from_path(path: &Path) -> Result<ImageFormat, RenderError> {
        let ext = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        match ext.as_str() {
            "png" => Ok(ImageFormat::Png),
            "gif" => Ok(ImageFormat::Gif),
            "svg" => Ok(ImageFormat::Svg),
            "" => Err(RenderError::Input(format!(
                "{}: no file extension to tell the picture format (use .gif, .png or .svg)",
                path.display()
            ))),
            _ => Err(RenderError::Input(format!(
                "{}: unknown picture format '.{ext}' (use .gif, .png or .svg)",
                path.display()
            ))),
        }
    }

    /// The format's file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            ImageFormat::Png => "png",
            ImageFormat::Gif => "gif",
            ImageFormat::Svg => "svg",
        }
    }
}
