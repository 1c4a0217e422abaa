//! Text without system fonts: one TrueType face shipped inside a crate, rasterised by
//! ab_glyph both for panel labels (here) and for plot text (registered with plotters).

use std::sync::{Once, OnceLock};

use ab_glyph::{point, Font, FontRef, PxScale, ScaleFont};
use carom::Rgb;
use tiny_skia::Pixmap;

/// A sans face with clear digits at small sizes (labels carry times and numbers).
fn face_bytes() -> &'static [u8] {
    epaint_default_fonts::HACK_REGULAR
}

/// `None` only if the shipped font failed to parse: text is then left out rather than
/// taking the whole picture down.
fn face() -> Option<&'static FontRef<'static>> {
    static FACE: OnceLock<Option<FontRef<'static>>> = OnceLock::new();
    FACE.get_or_init(|| FontRef::try_from_slice(face_bytes()).ok())
        .as_ref()
}

/// Makes the bundled face the one plotters finds for every family it asks for.
pub(crate) fn register_with_plotters() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        use plotters::style::{register_font, FontStyle};
        for family in ["sans-serif", "serif", "monospace"] {
            // A face the crate ships cannot fail to parse; if it somehow did, plots
            // would report a font error instead of panicking here.
            let _ = register_font(family, FontStyle::Normal, face_bytes());
        }
    });
}

/// Advance width of `text` at `px` pixels per em.
pub fn text_width(text: &str, px: f32) -> f32 {
    let Some(face) = face() else { return 0.0 };
    let font = face.as_scaled(PxScale::from(px));
    let mut w = 0.0;
    let mut prev = None;
    for c in text.chars() {
        let id = font.glyph_id(c);
        if let Some(p) = prev {
            w += font.kern(p, id);
        }
        w += font.h_advance(id);
        prev = Some(id);
    }
    w
}

/// Draws `text` with its left end at `x` and its baseline at `baseline`, blending glyph
/// coverage into an opaque pixmap.
pub fn draw_text(pixmap: &mut Pixmap, text: &str, x: f32, baseline: f32, px: f32, color: Rgb) {
    let Some(face) = face() else { return };
    let font = face.as_scaled(PxScale::from(px));
    let (w, h) = (pixmap.width() as i64, pixmap.height() as i64);
    let pixels = pixmap.pixels_mut();
    let mut pen = x;
    let mut prev = None;
    for c in text.chars() {
        let id = font.glyph_id(c);
        if let Some(p) = prev {
            pen += font.kern(p, id);
        }
        let glyph = id.with_scale_and_position(PxScale::from(px), point(pen, baseline));
        if let Some(outlined) = font.outline_glyph(glyph) {
            let b = outlined.px_bounds();
            outlined.draw(|gx, gy, coverage| {
                let (px_x, px_y) = (b.min.x as i64 + gx as i64, b.min.y as i64 + gy as i64);
                if px_x < 0 || px_y < 0 || px_x >= w || px_y >= h {
                    return;
                }
                let a = coverage.clamp(0.0, 1.0);
                let dst = &mut pixels[(px_y * w + px_x) as usize];
                let mix = |d: u8, s: u8| (d as f32 * (1.0 - a) + s as f32 * a).round() as u8;
                // The canvas is opaque, so premultiplied and straight colour agree.
                if let Some(c) = tiny_skia::PremultipliedColorU8::from_rgba(
                    mix(dst.red(), color.0[0]),
                    mix(dst.green(), color.0[1]),
                    mix(dst.blue(), color.0[2]),
                    255,
                ) {
                    *dst = c;
                }
            });
        }
        pen += font.h_advance(id);
        prev = Some(id);
    }
}

/// Distance from the baseline up to the top of capitals and digits, at `px`.
pub fn ascent(px: f32) -> f32 {
    face().map_or(0.8 * px, |f| f.as_scaled(PxScale::from(px)).ascent())
}

/// Distance from the baseline down to the bottom of descenders (positive), at `px`.
pub fn descent(px: f32) -> f32 {
    face().map_or(0.2 * px, |f| -f.as_scaled(PxScale::from(px)).descent())
}

/// The bounding box of the ink of `text` drawn at `px` with its pen starting at x = 0
/// on the baseline y = 0 (y down): `(left, top, right, bottom)`; `None` for no ink.
pub fn ink_box(text: &str, px: f32) -> Option<(f32, f32, f32, f32)> {
    let face = face()?;
    let font = face.as_scaled(PxScale::from(px));
    let mut pen = 0.0;
    let mut prev = None;
    let mut out: Option<(f32, f32, f32, f32)> = None;
    for c in text.chars() {
        let id = font.glyph_id(c);
        if let Some(p) = prev {
            pen += font.kern(p, id);
        }
        let glyph = id.with_scale_and_position(PxScale::from(px), point(pen, 0.0));
        if let Some(outlined) = font.outline_glyph(glyph) {
            let b = outlined.px_bounds();
            out = Some(match out {
                None => (b.min.x, b.min.y, b.max.x, b.max.y),
                Some((l, t, r, d)) => (
                    l.min(b.min.x),
                    t.min(b.min.y),
                    r.max(b.max.x),
                    d.max(b.max.y),
                ),
            });
        }
        pen += font.h_advance(id);
        prev = Some(id);
    }
    out
}
