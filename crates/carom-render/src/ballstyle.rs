//! How a ball is dressed in a picture beyond its colour: a stripe, and a number or other
//! label on a white disc, as pool balls are. The renderer knows nothing of games; any
//! caller may hand a [`BallStyle`] per ball in [`Frame::styles`](crate::Frame::styles)
//! (crates/carom-games has the pool, snooker and carom sets).
//!
//! A stripe is drawn as seen from above with the ball's band lying across the picture:
//! white caps above and below, the colour in a band `2 STRIPE_HALF r` high through the
//! centre. A label sits on a white disc of radius `LABEL_DISC r` at the centre, in dark
//! digits sized to fill the disc, where the ball is at least [`MIN_LABEL_RADIUS`] pixels
//! across its radius (smaller, the digits could not be read and are left out).

use carom::Rgb;
use tiny_skia::{FillRule, Mask, Paint, PathBuilder, Pixmap, Transform};

use crate::font;

/// One ball's dress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BallStyle {
    /// The ball's colour (of the band, for a stripe).
    pub fill: Rgb,
    /// White caps with a band of `fill` across the middle.
    pub stripe: bool,
    /// Drawn on a white disc at the centre; empty: no disc.
    pub label: String,
}

impl BallStyle {
    /// A plain ball of one colour, no label.
    pub fn plain(fill: Rgb) -> BallStyle {
        BallStyle {
            fill,
            stripe: false,
            label: String::new(),
        }
    }
}

/// The white of stripes' caps and of label discs.
pub const CAP: Rgb = Rgb([0xFF, 0xFF, 0xFF]);
/// The colour of label digits.
pub const INK: Rgb = Rgb([0x14, 0x14, 0x14]);
/// Half the stripe band's height, as a fraction of the radius (a pool stripe's band
/// covers about the middle half of the ball's height seen side on).
pub const STRIPE_HALF: f64 = 0.55;
/// The label disc's radius, as a fraction of the ball's (a pool ball's number circle is
/// about half its diameter; a little more here, so that numbers read on small balls).
pub const LABEL_DISC: f64 = 0.62;
/// The digits' ink box has its corners on a circle of this fraction of the disc's
/// radius, leaving a white rim around them.
pub const LABEL_FIT: f64 = 0.88;
/// Labels are drawn on balls of at least this radius in pixels.
pub const MIN_LABEL_RADIUS: f64 = 4.0;

/// The colours a styled ball adds to a picture: the caps and discs, the ink, and two
/// blends of ink on white that the digits' anti-aliased edges make.
pub(crate) fn extra_colors() -> [Rgb; 4] {
    let mix = |a: f64| {
        let m =
            |i: usize| (f64::from(INK.0[i]) * a + f64::from(CAP.0[i]) * (1.0 - a)).round() as u8;
        Rgb([m(0), m(1), m(2)])
    };
    [CAP, INK, mix(0.35), mix(0.7)]
}

fn paint(c: Rgb) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color_rgba8(c.0[0], c.0[1], c.0[2], 255);
    p.anti_alias = true;
    p
}

/// The band `|y - cy| <= h` of the circle of radius `r` about `(cx, cy)`, as a closed
/// path: the right arc from the band's top to its bottom, then the left arc back.
fn band(cx: f64, cy: f64, r: f64, h: f64) -> Option<tiny_skia::Path> {
    let a = (h / r).clamp(-1.0, 1.0).asin();
    let n = ((r * a).ceil() as usize).clamp(6, 64);
    let mut pb = PathBuilder::new();
    let point = |k: usize, t: f64, pb: &mut PathBuilder| {
        let (x, y) = (cx + r * t.cos(), cy + r * t.sin());
        if k == 0 {
            pb.move_to(x as f32, y as f32);
        } else {
            pb.line_to(x as f32, y as f32);
        }
    };
    for k in 0..=n {
        point(k, -a + 2.0 * a * k as f64 / n as f64, &mut pb);
    }
    for k in 0..=n {
        let t = std::f64::consts::PI - a + 2.0 * a * k as f64 / n as f64;
        point(k + 1, t, &mut pb);
    }
    pb.close();
    pb.finish()
}

/// Draws a styled ball of radius `r` (pixels) centred on `(cx, cy)`.
pub(crate) fn paint_ball(
    pixmap: &mut Pixmap,
    (cx, cy): (f64, f64),
    r: f64,
    style: &BallStyle,
    clip: Option<&Mask>,
) {
    let id = Transform::identity();
    let body = if style.stripe { CAP } else { style.fill };
    if let Some(path) = PathBuilder::from_circle(cx as f32, cy as f32, r as f32) {
        pixmap.fill_path(&path, &paint(body), FillRule::Winding, id, clip);
    }
    if style.stripe {
        if let Some(path) = band(cx, cy, r, STRIPE_HALF * r) {
            pixmap.fill_path(&path, &paint(style.fill), FillRule::Winding, id, clip);
        }
    }
    if style.label.is_empty() || r < MIN_LABEL_RADIUS {
        return;
    }
    let d = LABEL_DISC * r;
    if let Some(path) = PathBuilder::from_circle(cx as f32, cy as f32, d as f32) {
        pixmap.fill_path(&path, &paint(CAP), FillRule::Winding, id, clip);
    }
    draw_label(pixmap, (cx, cy), d, &style.label);
}

/// The label's digits centred on `(cx, cy)`, as large as fits the disc of radius `d`:
/// the ink's bounding box has its corners on a circle of [`LABEL_FIT`] `d` (a thin
/// white rim stays around the digits).
fn draw_label(pixmap: &mut Pixmap, (cx, cy): (f64, f64), d: f64, label: &str) {
    const PROBE: f32 = 100.0;
    let Some((x0, y0, x1, y1)) = font::ink_box(label, PROBE) else {
        return;
    };
    let (w, h) = (f64::from(x1 - x0), f64::from(y1 - y0));
    let half_diagonal = 0.5 * w.hypot(h);
    if half_diagonal <= 0.0 {
        return;
    }
    let k = LABEL_FIT * d / half_diagonal;
    let px = (f64::from(PROBE) * k) as f32;
    // The ink box scales with the size: centre it on the ball.
    let x = cx - k * 0.5 * f64::from(x0 + x1);
    let baseline = cy - k * 0.5 * f64::from(y0 + y1);
    font::draw_text(pixmap, label, x as f32, baseline as f32, px, INK);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_band_path_covers_the_middle_of_the_ball_only() {
        let path = band(50.0, 50.0, 20.0, 10.0).unwrap();
        let b = path.bounds();
        // Spans the full width (the band passes through the centre) and only the
        // band's height; line segments inside the arcs stay within a pixel.
        assert!((b.left() - 30.0).abs() < 0.5 && (b.right() - 70.0).abs() < 0.5);
        assert!((b.top() - 40.0).abs() < 1e-3 && (b.bottom() - 60.0).abs() < 1e-3);
    }
}
