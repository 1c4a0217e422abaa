//! Animated GIF of one or several worlds, streamed frame by frame.
//!
//! File size is kept down three ways: a fixed palette built from the colours the scene
//! is known to contain (so no per-frame quantisation and no dithering noise), frame
//! rectangles that cover only what changed since the previous frame, and the
//! transparent index for unchanged pixels inside that rectangle (long runs that LZW
//! packs into almost nothing). Frames identical to the previous one are not written
//! at all: the previous frame is simply shown longer.

use std::borrow::Cow;
use std::io::Write;

use carom::Rgb;

use crate::frame::Frame;
use crate::layout::Style;
use crate::raster::{Painter, Panel, PictureOptions};
use crate::trails::Trails;
use crate::RenderError;

/// Browsers show frames shorter than 2/100 s as 1/10 s, so faster animations would
/// play slower, not faster.
pub const MAX_FPS: f64 = 50.0;
/// The playback rate when none is asked for, frames per second.
pub const DEFAULT_FPS: f64 = 25.0;

/// How an animation is drawn and timed.
#[derive(Debug, Clone, PartialEq)]
pub struct AnimationOptions {
    /// How each frame is drawn.
    pub picture: PictureOptions,
    /// Frames per second of playback.
    pub fps: f64,
    /// Fading trails over this many frames; `None`: no trails.
    pub trails: Option<usize>,
}

impl Default for AnimationOptions {
    fn default() -> Self {
        AnimationOptions {
            picture: PictureOptions {
                show_time: true,
                ..PictureOptions::default()
            },
            fps: DEFAULT_FPS,
            trails: None,
        }
    }
}

/// Checks a frame rate for an animation.
pub fn check_fps(fps: f64) -> Result<(), RenderError> {
    if fps.is_finite() && fps > 0.0 && fps <= MAX_FPS {
        Ok(())
    } else {
        Err(RenderError::Input(format!(
            "fps must be a number in (0, {MAX_FPS}] (got {fps}): GIF frame delays are in \
             hundredths of a second and browsers slow down anything faster"
        )))
    }
}

/// Writes an animated GIF as frames are pushed; [`GifWriter::finish`] completes it.
pub struct GifWriter<W: Write> {
    encoder: gif::Encoder<W>,
    painter: Painter,
    quantizer: Quantizer,
    labels: Vec<String>,
    trails: Vec<Trails>,
    fps: f64,
    /// Palette indices of the previous and the current canvas.
    previous: Vec<u8>,
    current: Vec<u8>,
    pending: Option<Pending>,
    pushed: u64,
    written: u64,
}

/// A frame held back until the next one shows whether it must be shown longer.
struct Pending {
    left: u16,
    top: u16,
    width: u16,
    height: u16,
    indices: Vec<u8>,
    transparent: bool,
    delay: u32,
}

impl<W: Write> GifWriter<W> {
    /// Lays the animation out from the first frames (one per panel; the layout and the
    /// palette come from them) and writes the GIF header. `labels` is empty or has one
    /// label per panel. The first frames are not pushed: push them too.
    pub fn new(
        writer: W,
        first: &[Frame],
        labels: &[String],
        options: &AnimationOptions,
    ) -> Result<GifWriter<W>, RenderError> {
        check_fps(options.fps)?;
        if !labels.is_empty() && labels.len() != first.len() {
            return Err(RenderError::Input(format!(
                "{} labels for {} panels",
                labels.len(),
                first.len()
            )));
        }
        let labels: Vec<String> = if labels.is_empty() {
            vec![String::new(); first.len()]
        } else {
            labels.to_vec()
        };
        let panels: Vec<Panel> = first
            .iter()
            .zip(&labels)
            .map(|(f, l)| Panel::new(f).labelled(l))
            .collect();
        let painter = Painter::new(&panels, &options.picture)?;
        let (w, h) = painter.layout().canvas;
        if w > u16::MAX as u32 || h > u16::MAX as u32 {
            return Err(RenderError::Input(format!(
                "a {w} x {h} animation is larger than a GIF can be (65535 pixels a side)"
            )));
        }
        let mut colors = Vec::new();
        for f in first {
            for c in f.colors() {
                if !colors.contains(&c) {
                    colors.push(c);
                }
            }
        }
        let quantizer = Quantizer::new(&options.picture.style, &colors);
        let mut encoder = gif::Encoder::new(writer, w as u16, h as u16, &quantizer.palette_bytes())
            .map_err(gif_error)?;
        encoder
            .set_repeat(gif::Repeat::Infinite)
            .map_err(gif_error)?;
        let trail_len = options.trails.unwrap_or(0);
        Ok(GifWriter {
            encoder,
            painter,
            quantizer,
            labels,
            trails: if options.trails.is_some() {
                (0..first.len()).map(|_| Trails::new(trail_len)).collect()
            } else {
                Vec::new()
            },
            fps: options.fps,
            previous: Vec::new(),
            current: Vec::new(),
            pending: None,
            pushed: 0,
            written: 0,
        })
    }

    /// Adds one animation frame: the worlds now, one per panel.
    pub fn push(&mut self, frames: &[Frame]) -> Result<(), RenderError> {
        for (t, f) in self.trails.iter_mut().zip(frames) {
            t.record(f);
        }
        let panels: Vec<Panel> = frames
            .iter()
            .enumerate()
            .map(|(k, f)| {
                Panel::new(f)
                    .labelled(self.labels.get(k).map_or("", String::as_str))
                    .with_trails(self.trails.get(k))
            })
            .collect();
        let canvas = self.painter.paint(&panels)?;
        self.quantizer.indices(canvas, &mut self.current);

        // Frame k is shown from k/fps to (k+1)/fps; rounding the end points (not the
        // durations) keeps the total playing time exact at any rate.
        let k = self.pushed as f64;
        let delay =
            ((100.0 * (k + 1.0) / self.fps).round() - (100.0 * k / self.fps).round()) as u32;
        let first = self.pushed == 0;
        self.pushed += 1;

        let (w, h) = self.painter.layout().canvas;
        if first {
            self.pending = Some(Pending {
                left: 0,
                top: 0,
                width: w as u16,
                height: h as u16,
                indices: self.current.clone(),
                transparent: false,
                delay,
            });
        } else {
            match changed_rect(&self.previous, &self.current, w as usize, h as usize) {
                None => {
                    if let Some(p) = self.pending.as_mut() {
                        p.delay += delay;
                    }
                }
                Some((x0, y0, x1, y1)) => {
                    self.flush()?;
                    let t = self.quantizer.transparent;
                    let mut indices = Vec::with_capacity((x1 - x0) * (y1 - y0));
                    for y in y0..y1 {
                        let row = y * w as usize;
                        for x in x0..x1 {
                            let c = self.current[row + x];
                            indices.push(if c == self.previous[row + x] { t } else { c });
                        }
                    }
                    self.pending = Some(Pending {
                        left: x0 as u16,
                        top: y0 as u16,
                        width: (x1 - x0) as u16,
                        height: (y1 - y0) as u16,
                        indices,
                        transparent: true,
                        delay,
                    });
                }
            }
        }
        std::mem::swap(&mut self.previous, &mut self.current);
        Ok(())
    }

    fn flush(&mut self) -> Result<(), RenderError> {
        if let Some(p) = self.pending.take() {
            let frame = gif::Frame {
                delay: p.delay.min(u16::MAX as u32) as u16,
                dispose: gif::DisposalMethod::Keep,
                transparent: p.transparent.then_some(self.quantizer.transparent),
                left: p.left,
                top: p.top,
                width: p.width,
                height: p.height,
                buffer: Cow::Borrowed(&p.indices),
                ..gif::Frame::default()
            };
            self.encoder.write_frame(&frame).map_err(gif_error)?;
            self.written += 1;
        }
        Ok(())
    }

    /// Frames pushed so far.
    pub fn frames_pushed(&self) -> u64 {
        self.pushed
    }

    /// Writes the last frame and the GIF trailer; returns the writer and how many
    /// frames the file holds (identical consecutive frames count once).
    pub fn finish(mut self) -> Result<(W, u64), RenderError> {
        if self.pushed == 0 {
            return Err(RenderError::Input(
                "an animation needs at least one frame".into(),
            ));
        }
        self.flush()?;
        let written = self.written;
        let w = self.encoder.into_inner().map_err(gif_error)?;
        Ok((w, written))
    }

    /// The canvas size in pixels.
    pub fn size(&self) -> (u32, u32) {
        self.painter.layout().canvas
    }
}

fn gif_error(e: gif::EncodingError) -> RenderError {
    match e {
        gif::EncodingError::Io(e) => RenderError::Io(e.to_string()),
        other => RenderError::Encode(format!("GIF: {other}")),
    }
}

/// The smallest rectangle `[x0, x1) x [y0, y1)` holding every pixel that differs.
fn changed_rect(a: &[u8], b: &[u8], w: usize, h: usize) -> Option<(usize, usize, usize, usize)> {
    let (mut x0, mut x1, mut y0, mut y1) = (w, 0, h, 0);
    for y in 0..h {
        let (ra, rb) = (&a[y * w..(y + 1) * w], &b[y * w..(y + 1) * w]);
        if ra == rb {
            continue;
        }
        let first = ra.iter().zip(rb).position(|(p, q)| p != q).unwrap_or(0);
        let last = w - ra
            .iter()
            .rev()
            .zip(rb.iter().rev())
            .position(|(p, q)| p != q)
            .unwrap_or(0);
        x0 = x0.min(first);
        x1 = x1.max(last);
        y0 = y0.min(y);
        y1 = y + 1;
    }
    (y1 > y0).then_some((x0, y0, x1, y1))
}

/// Maps canvas colours to a fixed palette: the scene's own colours and the blends that
/// anti-aliasing and fading make of them.
struct Quantizer {
    palette: Vec<Rgb>,
    /// Index of the colour the transparent pixels carry (never drawn).
    transparent: u8,
    /// Nearest palette index for every 24-bit colour met so far; `UNKNOWN` until then.
    lookup: Vec<u8>,
}

const UNKNOWN: u8 = 255;
/// 256 indices less the transparent one and the lookup's "not yet known" marker.
const MAX_COLORS: usize = 254;

fn blend(over: Rgb, under: Rgb, a: f64) -> Rgb {
    let mix = |s: u8, d: u8| (s as f64 * a + d as f64 * (1.0 - a)).round() as u8;
    Rgb([
        mix(over.0[0], under.0[0]),
        mix(over.0[1], under.0[1]),
        mix(over.0[2], under.0[2]),
    ])
}

impl Quantizer {
    fn new(style: &Style, ball_colors: &[Rgb]) -> Quantizer {
        let mut fixed = vec![
            style.canvas,
            style.background,
            style.wall,
            style.label_bar,
            style.label_text,
            style.arrow,
            blend(style.wall, style.background, 0.5),
            blend(style.arrow, style.background, 0.5),
        ];
        for a in [0.25, 0.5, 0.75] {
            fixed.push(blend(style.label_text, style.label_bar, a));
        }
        let mut palette = Vec::new();
        let add = |c: Rgb, p: &mut Vec<Rgb>| {
            if !p.contains(&c) {
                p.push(c);
            }
        };
        for &c in &fixed {
            add(c, &mut palette);
        }
        // Each ball colour with three blends into the cloth: the edge of the disk and
        // the fading trail both land on or near them.
        let per_ball = [1.0, 0.75, 0.5, 0.25];
        if palette.len() + per_ball.len() * ball_colors.len() <= MAX_COLORS {
            for &c in ball_colors {
                for a in per_ball {
                    add(blend(c, style.background, a), &mut palette);
                }
            }
        } else if palette.len() + 2 * ball_colors.len() <= MAX_COLORS {
            for &c in ball_colors {
                add(c, &mut palette);
                add(blend(c, style.background, 0.5), &mut palette);
            }
        } else {
            // More colours than a palette holds: a uniform colour cube (6 x 7 x 6 levels)
            // after the fixed colours represents any scene evenly.
            for r in 0..6u32 {
                for g in 0..7u32 {
                    for b in 0..6u32 {
                        if palette.len() < MAX_COLORS {
                            let c = Rgb([(r * 51) as u8, (g * 255 / 6) as u8, (b * 51) as u8]);
                            add(c, &mut palette);
                        }
                    }
                }
            }
        }
        palette.truncate(MAX_COLORS);
        let transparent = palette.len() as u8;
        Quantizer {
            palette,
            transparent,
            lookup: vec![UNKNOWN; 1 << 24],
        }
    }

    fn palette_bytes(&self) -> Vec<u8> {
        let mut bytes: Vec<u8> = self.palette.iter().flat_map(|c| c.0).collect();
        // The transparent slot: its colour is never shown.
        bytes.extend([0, 0, 0]);
        bytes
    }

    fn nearest(&self, r: u8, g: u8, b: u8) -> u8 {
        let mut best = (u32::MAX, 0usize);
        for (i, c) in self.palette.iter().enumerate() {
            let d = |x: u8, y: u8| (x as i32 - y as i32).pow(2) as u32;
            // The eye's weights, roughly: green differences show most, blue least.
            let dist = 3 * d(r, c.0[0]) + 4 * d(g, c.0[1]) + 2 * d(b, c.0[2]);
            if dist < best.0 {
                best = (dist, i);
            }
        }
        best.1 as u8
    }

    fn indices(&mut self, canvas: &tiny_skia::Pixmap, out: &mut Vec<u8>) {
        out.clear();
        out.reserve(canvas.pixels().len());
        for p in canvas.pixels() {
            let key = ((p.red() as usize) << 16) | ((p.green() as usize) << 8) | p.blue() as usize;
            let mut i = self.lookup[key];
            if i == UNKNOWN {
                i = self.nearest(p.red(), p.green(), p.blue());
                self.lookup[key] = i;
            }
            out.push(i);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changed_rect_bounds_exactly_the_differing_pixels() {
        let w = 5;
        let a = vec![0u8; 20];
        let mut b = a.clone();
        assert_eq!(changed_rect(&a, &b, w, 4), None);
        b[w + 1] = 1; // (1, 1)
        b[2 * w + 3] = 1; // (3, 2)
        assert_eq!(changed_rect(&a, &b, w, 4), Some((1, 1, 4, 3)));
    }

    #[test]
    fn scene_colours_map_to_themselves() {
        let style = Style::default();
        let colors = [Rgb([200, 10, 10]), Rgb([10, 10, 200])];
        let q = Quantizer::new(&style, &colors);
        for c in colors.iter().chain([&style.background, &style.wall]) {
            let i = q.nearest(c.0[0], c.0[1], c.0[2]) as usize;
            assert_eq!(q.palette[i], *c);
        }
        assert!(q.palette.len() < 256 && (q.transparent as usize) == q.palette.len());
    }
}
