//! Anti-aliased raster pictures of one or several worlds (tiny-skia).

use carom::Rgb;
use tiny_skia::{
    Color, FillRule, LineCap, Paint, PathBuilder, Pixmap, PremultipliedColorU8, Rect, Stroke,
    Transform,
};

use crate::font;
use crate::frame::Frame;
use crate::layout::{Layout, Style, Viewport};
use crate::trails::Trails;
use crate::RenderError;

/// One world in a picture: its state, an optional label above it, and optional trails.
#[derive(Debug, Clone, Copy)]
pub struct Panel<'a> {
    /// The world's state.
    pub frame: &'a Frame,
    /// The label above the panel (empty: none).
    pub label: &'a str,
    /// Trails to draw behind the balls; `None`: none.
    pub trails: Option<&'a Trails>,
}

impl<'a> Panel<'a> {
    /// A panel of `frame` with no label and no trails.
    pub fn new(frame: &'a Frame) -> Panel<'a> {
        Panel {
            frame,
            label: "",
            trails: None,
        }
    }

    /// The same panel labelled `label`.
    pub fn labelled(mut self, label: &'a str) -> Panel<'a> {
        self.label = label;
        self
    }

    /// The same panel with `trails` drawn.
    pub fn with_trails(mut self, trails: Option<&'a Trails>) -> Panel<'a> {
        self.trails = trails;
        self
    }
}

/// How a picture is drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct PictureOptions {
    /// Colours, wall thickness, arrows and trails.
    pub style: Style,
    /// The largest size of each panel in pixels; the table keeps its aspect inside it.
    pub size: (u32, u32),
    /// Shows the simulated time in each panel's label strip.
    pub show_time: bool,
}

impl Default for PictureOptions {
    fn default() -> Self {
        PictureOptions {
            style: Style::default(),
            size: crate::layout::DEFAULT_SIZE,
            show_time: false,
        }
    }
}

impl PictureOptions {
    pub(crate) fn labelled(&self, panels: &[Panel]) -> bool {
        self.show_time || panels.iter().any(|p| !p.label.is_empty())
    }

    pub(crate) fn layout(&self, panels: &[Panel]) -> Result<Layout, RenderError> {
        if panels.is_empty() {
            return Err(RenderError::Input("nothing to draw: no panels".into()));
        }
        let tables: Vec<(f64, f64)> = panels
            .iter()
            .map(|p| {
                p.frame.check()?;
                Ok((p.frame.width, p.frame.height))
            })
            .collect::<Result<_, RenderError>>()?;
        Ok(Layout::new(
            &tables,
            &self.style,
            self.size,
            self.labelled(panels),
        ))
    }
}

pub(crate) fn color(c: Rgb) -> Color {
    Color::from_rgba8(c.0[0], c.0[1], c.0[2], 255)
}

fn paint(c: Rgb, opacity: f64) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color(Color::from_rgba8(
        c.0[0],
        c.0[1],
        c.0[2],
        (opacity.clamp(0.0, 1.0) * 255.0).round() as u8,
    ));
    p.anti_alias = true;
    p
}

/// Draws panels onto canvases of one layout, reusing its pixmaps from call to call.
pub struct Painter {
    pub(crate) layout: Layout,
    pub(crate) canvas: Pixmap,
    panel: Pixmap,
    options: PictureOptions,
}

impl Painter {
    /// A canvas laid out for `panels` (their count and tables' sizes); refused when the
    /// picture would be too large.
    pub fn new(panels: &[Panel], options: &PictureOptions) -> Result<Painter, RenderError> {
        let layout = options.layout(panels)?;
        Painter::with_layout(layout, options)
    }

    pub(crate) fn with_layout(
        layout: Layout,
        options: &PictureOptions,
    ) -> Result<Painter, RenderError> {
        let (w, h) = layout.canvas;
        if w as u64 * h as u64 > MAX_PIXELS {
            return Err(too_big(w, h));
        }
        let canvas = Pixmap::new(w, h).ok_or_else(|| too_big(w, h))?;
        let (pw, ph) = layout
            .panels
            .iter()
            .fold((1, 1), |a, p| (a.0.max(p.size.0), a.1.max(p.size.1)));
        let panel = Pixmap::new(pw, ph).ok_or_else(|| too_big(pw, ph))?;
        Ok(Painter {
            layout,
            canvas,
            panel,
            options: options.clone(),
        })
    }

    /// Where each panel sits.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The canvas as last painted.
    pub fn canvas(&self) -> &Pixmap {
        &self.canvas
    }

    /// Draws the panels (as many as the layout has, in its order) onto the canvas.
    pub fn paint(&mut self, panels: &[Panel]) -> Result<&Pixmap, RenderError> {
        if panels.len() != self.layout.panels.len() {
            return Err(RenderError::Input(format!(
                "{} worlds given to a picture laid out for {}",
                panels.len(),
                self.layout.panels.len()
            )));
        }
        let style = &self.options.style;
        self.canvas.fill(color(style.canvas));
        let label_h = self.layout.label_height;
        let cell_w = self.layout.cell_width();
        for (panel, place) in panels.iter().zip(&self.layout.panels) {
            panel.frame.check()?;
            // Each world is drawn on its own pixmap, so a ball pushed into a wall cannot
            // spill over into the neighbouring panel.
            let (x, y) = place.pos;
            let local = place.viewport.shifted(-(x as f64), -(y as f64));
            draw_world(&mut self.panel, &local, place.size, panel, style);
            blit(&self.panel, place.size, &mut self.canvas, x, y);
            if label_h > 0 {
                draw_label(
                    &mut self.canvas,
                    place.cell,
                    (cell_w, label_h),
                    panel.label,
                    self.options.show_time.then_some(panel.frame.time),
                    style,
                );
            }
        }
        Ok(&self.canvas)
    }
}

/// The largest canvas: 64 Mpixel (256 MB of RGBA), e.g. four 4096 x 4096 panels.
const MAX_PIXELS: u64 = 1 << 26;

fn too_big(w: u32, h: u32) -> RenderError {
    RenderError::Input(format!(
        "a {w} x {h} picture is too large (at most {} Mpixel); ask for a smaller --size",
        MAX_PIXELS >> 20
    ))
}

/// Copies the top-left `size` pixels of `src` into `dst` at `(x, y)`.
fn blit(src: &Pixmap, size: (u32, u32), dst: &mut Pixmap, x: u32, y: u32) {
    let (sw, dw) = (src.width() as usize, dst.width() as usize);
    let w = (size.0.min(dst.width().saturating_sub(x))) as usize;
    let h = size.1.min(dst.height().saturating_sub(y)) as usize;
    let src_px = src.pixels();
    let dst_px = dst.pixels_mut();
    for row in 0..h {
        let s = row * sw;
        let d = (row + y as usize) * dw + x as usize;
        dst_px[d..d + w].copy_from_slice(&src_px[s..s + w]);
    }
}

/// One world: walls, cloth, trails, balls, arrows, onto `pixmap` at the viewport.
fn draw_world(pixmap: &mut Pixmap, vp: &Viewport, size: (u32, u32), panel: &Panel, style: &Style) {
    let frame = panel.frame;
    pixmap.fill(color(style.canvas));
    let id = Transform::identity();
    if let Some(r) = Rect::from_xywh(0.0, 0.0, size.0 as f32, size.1 as f32) {
        pixmap.fill_rect(r, &paint(style.wall, 1.0), id, None);
    }
    let (x0, y0) = vp.to_pixel(0.0, 0.0);
    let (x1, y1) = vp.to_pixel(frame.width, frame.height);
    if let Some(r) = Rect::from_ltrb(x0 as f32, y0 as f32, x1 as f32, y1 as f32) {
        pixmap.fill_rect(r, &paint(style.background, 1.0), id, None);
    }
    draw_open_edges(pixmap, frame, (x0, y0, x1, y1), size, style);
    draw_pockets(pixmap, vp, frame);
    draw_walls(pixmap, vp, frame, style);
    if let Some(trails) = panel.trails {
        draw_trails(pixmap, vp, frame, trails, style);
    }
    // On a periodic table a ball is drawn at each image that reaches the table, and
    // the part beyond a periodic edge is clipped away (the copy shows it on the other
    // side). A walled table draws as before, without a mask.
    let clip = if frame.periodic != [false, false] {
        Rect::from_ltrb(x0 as f32, y0 as f32, x1 as f32, y1 as f32).and_then(|r| {
            let mut m = tiny_skia::Mask::new(pixmap.width(), pixmap.height())?;
            m.fill_path(&PathBuilder::from_rect(r), FillRule::Winding, false, id);
            Some(m)
        })
    } else {
        None
    };
    for (i, b) in frame.balls.iter().enumerate() {
        if !b.is_drawable() {
            continue;
        }
        let r = b.r * vp.scale;
        let (centres, n) = frame.images(b);
        let style = frame.style(i);
        // A ball with a label shows it instead of the rotation mark and spin dot.
        let marks = r >= 3.0 && style.is_none_or(|s| s.label.is_empty());
        let mark_color = crate::frame::contrast(frame.fill(i));
        for &(x, y) in &centres[..n] {
            let (cx, cy) = vp.to_pixel(x, y);
            if let Some(s) = style {
                crate::ballstyle::paint_ball(pixmap, (cx, cy), r, s, clip.as_ref());
            } else if let Some(path) = PathBuilder::from_circle(cx as f32, cy as f32, r as f32) {
                let paint = paint(b.fill(i), 1.0);
                pixmap.fill_path(&path, &paint, FillRule::Winding, id, clip.as_ref());
            }
            // The rotation mark, where the ball is large enough to show one; each image
            // carries it shifted with the ball.
            if let (Some((ex, ey)), true) = (b.mark_end(), marks) {
                let (px, py) = vp.to_pixel(ex + (x - b.x), ey + (y - b.y));
                let mut pb = PathBuilder::new();
                pb.move_to(cx as f32, cy as f32);
                pb.line_to(px as f32, py as f32);
                if let Some(line) = pb.finish() {
                    let stroke = Stroke {
                        width: (0.18 * r).clamp(1.0, 4.0) as f32,
                        line_cap: LineCap::Round,
                        ..Stroke::default()
                    };
                    pixmap.stroke_path(&line, &paint(mark_color, 1.0), &stroke, id, clip.as_ref());
                }
            }
            // A sphere's spin dot (balls on cloth), moved with its image likewise.
            if let (Some((dx, dy)), true) = (b.spin_dot(), marks) {
                let (px, py) = vp.to_pixel(dx + (x - b.x), dy + (y - b.y));
                let dot = (crate::frame::SPIN_DOT_RADIUS * r).max(1.0);
                if let Some(path) = PathBuilder::from_circle(px as f32, py as f32, dot as f32) {
                    let paint = paint(mark_color, 1.0);
                    pixmap.fill_path(&path, &paint, FillRule::Winding, id, clip.as_ref());
                }
            }
        }
    }
    for ([ax, ay, bx, by], width) in frame.force_segments() {
        let (a, b) = (vp.to_pixel(ax, ay), vp.to_pixel(bx, by));
        let mut pb = PathBuilder::new();
        pb.move_to(a.0 as f32, a.1 as f32);
        pb.line_to(b.0 as f32, b.1 as f32);
        if let Some(line) = pb.finish() {
            let stroke = Stroke {
                width: (width * vp.scale).max(0.5) as f32,
                line_cap: LineCap::Round,
                ..Stroke::default()
            };
            pixmap.stroke_path(&line, &paint(style.force, 1.0), &stroke, id, clip.as_ref());
        }
    }
    draw_periodic_edges(pixmap, frame, (x0, y0, x1, y1), style);
    if let Some(t) = style.arrow_time {
        for b in frame.balls.iter().filter(|b| b.is_drawable()) {
            draw_arrow(pixmap, vp, b.x, b.y, b.vx * t, b.vy * t, b.r, style.arrow);
        }
    }
}

/// An open edge is no wall: the border beyond it is cut away to the canvas, a gap
/// through which balls leave.
fn draw_open_edges(
    pixmap: &mut Pixmap,
    frame: &Frame,
    (x0, y0, x1, y1): (f64, f64, f64, f64),
    size: (u32, u32),
    style: &Style,
) {
    let (w, h) = (f64::from(size.0), f64::from(size.1));
    let mut strips = Vec::new();
    if frame.open[0] {
        strips.push((0.0, y0, x0, y1));
        strips.push((x1, y0, w, y1));
    }
    if frame.open[1] {
        strips.push((x0, 0.0, x1, y0));
        strips.push((x0, y1, x1, h));
    }
    for (l, t, r, b) in strips {
        if let Some(rect) = Rect::from_ltrb(l as f32, t as f32, r as f32, b as f32) {
            pixmap.fill_rect(rect, &paint(style.canvas, 1.0), Transform::identity(), None);
        }
    }
}

/// The colour of a pocket: a hole, darker than any cloth.
pub(crate) const POCKET: Rgb = Rgb([0x10, 0x10, 0x10]);

fn draw_pockets(pixmap: &mut Pixmap, vp: &Viewport, frame: &Frame) {
    for &((x, y), r) in &frame.pockets {
        let (cx, cy) = vp.to_pixel(x, y);
        let r = (r * vp.scale) as f32;
        if let Some(path) = PathBuilder::from_circle(cx as f32, cy as f32, r) {
            pixmap.fill_path(
                &path,
                &paint(POCKET, 1.0),
                FillRule::Winding,
                Transform::identity(),
                None,
            );
        }
    }
}

/// The walls inside the table as lines in the cushions' colour, a few pixels wide
/// (a wall has no thickness: the width only makes it visible), arcs as polylines
/// within a tenth of a pixel of the curve.
fn draw_walls(pixmap: &mut Pixmap, vp: &Viewport, frame: &Frame, style: &Style) {
    if frame.walls.is_empty() {
        return;
    }
    let width = (0.004 * frame.width.min(frame.height) * vp.scale).clamp(1.5, 6.0) as f32;
    let stroke = Stroke {
        width,
        line_cap: LineCap::Round,
        line_join: tiny_skia::LineJoin::Round,
        ..Stroke::default()
    };
    for wall in &frame.walls {
        let points = wall.points(0.1 / vp.scale);
        let mut pb = PathBuilder::new();
        for (k, &(x, y)) in points.iter().enumerate() {
            let (px, py) = vp.to_pixel(x, y);
            if k == 0 {
                pb.move_to(px as f32, py as f32);
            } else {
                pb.line_to(px as f32, py as f32);
            }
        }
        if let Some(path) = pb.finish() {
            pixmap.stroke_path(
                &path,
                &paint(style.wall, 1.0),
                &stroke,
                Transform::identity(),
                None,
            );
        }
    }
}

/// A periodic edge is no wall: it is drawn as a dashed line in the wall's colour
/// across the table's border, so that the eye sees the table continue.
fn draw_periodic_edges(
    pixmap: &mut Pixmap,
    frame: &Frame,
    (x0, y0, x1, y1): (f64, f64, f64, f64),
    style: &Style,
) {
    let mut edges = Vec::new();
    if frame.periodic[0] {
        edges.push(((x0, y0), (x0, y1)));
        edges.push(((x1, y0), (x1, y1)));
    }
    if frame.periodic[1] {
        edges.push(((x0, y0), (x1, y0)));
        edges.push(((x0, y1), (x1, y1)));
    }
    if edges.is_empty() {
        return;
    }
    let stroke = tiny_skia::Stroke {
        width: 1.5,
        dash: tiny_skia::StrokeDash::new(vec![6.0, 4.0], 0.0),
        ..Default::default()
    };
    for ((ax, ay), (bx, by)) in edges {
        let mut pb = PathBuilder::new();
        pb.move_to(ax as f32, ay as f32);
        pb.line_to(bx as f32, by as f32);
        if let Some(path) = pb.finish() {
            pixmap.stroke_path(
                &path,
                &paint(style.wall, 1.0),
                &stroke,
                Transform::identity(),
                None,
            );
        }
    }
}

fn draw_trails(pixmap: &mut Pixmap, vp: &Viewport, frame: &Frame, trails: &Trails, style: &Style) {
    let depth = trails.depth();
    if depth < 2 || trails.balls() != frame.balls.len() {
        return;
    }
    // A jump longer than a quarter of the table between two recordings is a ball that
    // was moved (not one that travelled): no streak across the table for it.
    let jump = 0.25 * frame.width.max(frame.height);
    let id = Transform::identity();
    for (i, b) in frame.balls.iter().enumerate() {
        if !b.is_drawable() {
            continue;
        }
        let stroke = Stroke {
            width: ((style.trail_width * 2.0 * b.r * vp.scale) as f32).max(1.0),
            // Butt ends: round ones would overlap at every joint and bead the fade.
            line_cap: LineCap::Butt,
            ..Stroke::default()
        };
        let c = frame.fill(i);
        for k in 0..depth - 1 {
            let (Some(p), Some(q)) = (trails.position(k, i), trails.position(k + 1, i)) else {
                continue;
            };
            if !(p.0.is_finite() && p.1.is_finite() && q.0.is_finite() && q.1.is_finite())
                || (q.0 - p.0).hypot(q.1 - p.1) > jump
            {
                continue;
            }
            let opacity = style.trail_opacity * (k + 1) as f64 / (depth - 1) as f64;
            let (a, z) = (vp.to_pixel(p.0, p.1), vp.to_pixel(q.0, q.1));
            let mut pb = PathBuilder::new();
            pb.move_to(a.0 as f32, a.1 as f32);
            pb.line_to(z.0 as f32, z.1 as f32);
            if let Some(path) = pb.finish() {
                pixmap.stroke_path(&path, &paint(c, opacity), &stroke, id, None);
            }
        }
    }
}

/// An arrow from the ball's rim along `(dx, dy)` (scene units), with a head: starting at
/// the rim keeps short arrows from hiding under their ball.
#[allow(clippy::too_many_arguments)]
fn draw_arrow(
    pixmap: &mut Pixmap,
    vp: &Viewport,
    x: f64,
    y: f64,
    dx: f64,
    dy: f64,
    r: f64,
    c: Rgb,
) {
    let len_px = dx.hypot(dy) * vp.scale;
    if !(len_px.is_finite() && len_px >= 2.0) {
        return;
    }
    let width = (0.15 * r * vp.scale).clamp(1.0, 3.0);
    let head = (4.0 * width).min(0.5 * len_px);
    let (ux, uy) = (dx * vp.scale / len_px, dy * vp.scale / len_px);
    let (cx, cy) = vp.to_pixel(x, y);
    let r_px = r * vp.scale;
    let (sx, sy) = (cx + ux * r_px, cy + uy * r_px);
    let (tx, ty) = (sx + ux * len_px, sy + uy * len_px);
    let (bx, by) = (tx - ux * head, ty - uy * head);
    let id = Transform::identity();
    let mut shaft = PathBuilder::new();
    shaft.move_to(sx as f32, sy as f32);
    shaft.line_to(bx as f32, by as f32);
    let stroke = Stroke {
        width: width as f32,
        line_cap: LineCap::Butt,
        ..Stroke::default()
    };
    if let Some(p) = shaft.finish() {
        pixmap.stroke_path(&p, &paint(c, 1.0), &stroke, id, None);
    }
    let half = 0.5 * head;
    let mut tip = PathBuilder::new();
    tip.move_to(tx as f32, ty as f32);
    tip.line_to((bx - uy * half) as f32, (by + ux * half) as f32);
    tip.line_to((bx + uy * half) as f32, (by - ux * half) as f32);
    tip.close();
    if let Some(p) = tip.finish() {
        pixmap.fill_path(&p, &paint(c, 1.0), FillRule::Winding, id, None);
    }
}

/// The label strip above a panel: the label on the left, the time on the right.
fn draw_label(
    canvas: &mut Pixmap,
    cell: (u32, u32),
    size: (u32, u32),
    label: &str,
    time: Option<f64>,
    style: &Style,
) {
    if let Some(r) = Rect::from_xywh(cell.0 as f32, cell.1 as f32, size.0 as f32, size.1 as f32) {
        canvas.fill_rect(r, &paint(style.label_bar, 1.0), Transform::identity(), None);
    }
    let px = size.1 as f32 * 0.62;
    let pad = 0.4 * px;
    // Digits and capitals sit centred in the strip.
    let baseline = cell.1 as f32 + 0.5 * (size.1 as f32 + 0.72 * px);
    let right = cell.0 as f32 + size.0 as f32 - pad;
    let mut label_room = size.0 as f32 - 2.0 * pad;
    if let Some(t) = time {
        let text = format_time(t);
        let w = font::text_width(&text, px);
        font::draw_text(canvas, &text, right - w, baseline, px, style.label_text);
        label_room -= w + pad;
    }
    if !label.is_empty() {
        let shown = fit_text(label, px, label_room);
        font::draw_text(
            canvas,
            &shown,
            cell.0 as f32 + pad,
            baseline,
            px,
            style.label_text,
        );
    }
}

fn format_time(t: f64) -> String {
    if t.abs() >= 1000.0 {
        format!("t = {t:.0}")
    } else {
        format!("t = {t:.1}")
    }
}

/// Shortens `text` with an ellipsis until it fits `room` pixels.
fn fit_text(text: &str, px: f32, room: f32) -> String {
    if font::text_width(text, px) <= room {
        return text.to_string();
    }
    let mut chars: Vec<char> = text.chars().collect();
    while !chars.is_empty() {
        chars.pop();
        let s: String = chars.iter().collect::<String>() + "…";
        if font::text_width(&s, px) <= room {
            return s;
        }
    }
    String::new()
}

/// A PNG of the panels side by side (one panel: one world).
pub fn render_png(panels: &[Panel], options: &PictureOptions) -> Result<Vec<u8>, RenderError> {
    let mut painter = Painter::new(panels, options)?;
    let canvas = painter.paint(panels)?;
    encode_png(canvas)
}

/// Encodes an opaque pixmap as an RGB PNG (no alpha channel: the canvas is opaque).
pub(crate) fn encode_png(pixmap: &Pixmap) -> Result<Vec<u8>, RenderError> {
    let rgb: Vec<u8> = pixmap
        .pixels()
        .iter()
        .flat_map(|p: &PremultipliedColorU8| [p.red(), p.green(), p.blue()])
        .collect();
    encode_rgb_png(&rgb, pixmap.width(), pixmap.height())
}

pub(crate) fn encode_rgb_png(rgb: &[u8], w: u32, h: u32) -> Result<Vec<u8>, RenderError> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut writer = enc
        .write_header()
        .map_err(|e| RenderError::Encode(format!("PNG: {e}")))?;
    writer
        .write_image_data(rgb)
        .map_err(|e| RenderError::Encode(format!("PNG: {e}")))?;
    writer
        .finish()
        .map_err(|e| RenderError::Encode(format!("PNG: {e}")))?;
    Ok(out)
}
