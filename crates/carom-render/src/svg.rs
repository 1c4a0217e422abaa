//! SVG pictures: exact vector circles in scene units, written as text.
//!
//! The root is sized in pixels like the raster picture; each panel is a nested `<svg>`
//! whose `viewBox` is the table (walls included) in scene units, so every ball is a
//! `<circle>` with the ball's own `cx`, `cy` and `r`, printed as the shortest decimal
//! that reads back to the same number.

use std::fmt::Write as _;

use carom::Rgb;

use crate::ballstyle::{BallStyle, CAP, INK, LABEL_DISC, STRIPE_HALF};
use crate::frame::Frame;
use crate::layout::Style;
use crate::raster::{Panel, PictureOptions};
use crate::trails::Trails;
use crate::RenderError;

/// A styled ball: its colour (white caps and a band for a stripe) and its label on a
/// white disc, as the raster pictures draw it (see [`crate::ballstyle`]).
fn write_styled(s: &mut String, (x, y): (f64, f64), r: f64, st: &BallStyle) {
    let body = if st.stripe { CAP } else { st.fill };
    let _ = writeln!(
        s,
        r#"<circle cx="{x}" cy="{y}" r="{r}" fill="{}"/>"#,
        hex(body)
    );
    if st.stripe {
        let h = STRIPE_HALF * r;
        let c = (r * r - h * h).max(0.0).sqrt();
        let _ = writeln!(
            s,
            r#"<path d="M {} {} A {r} {r} 0 0 1 {} {} L {} {} A {r} {r} 0 0 1 {} {} Z" fill="{}"/>"#,
            x + c,
            y - h,
            x + c,
            y + h,
            x - c,
            y + h,
            x - c,
            y - h,
            hex(st.fill)
        );
    }
    if !st.label.is_empty() {
        let d = LABEL_DISC * r;
        let _ = writeln!(
            s,
            r#"<circle cx="{x}" cy="{y}" r="{d}" fill="{}"/>"#,
            hex(CAP)
        );
        let size = if st.label.chars().count() > 1 {
            1.1 * d
        } else {
            1.5 * d
        };
        let _ = writeln!(
            s,
            r#"<text x="{x}" y="{y}" font-family="sans-serif" font-weight="bold" font-size="{size}" text-anchor="middle" dominant-baseline="central" fill="{}">{}</text>"#,
            hex(INK),
            escape(&st.label)
        );
    }
}

/// An SVG document of the panels side by side (one panel: one world).
pub fn render_svg(panels: &[Panel], options: &PictureOptions) -> Result<String, RenderError> {
    let layout = options.layout(panels)?;
    let style = &options.style;
    let (w, h) = layout.canvas;
    let mut s = String::new();
    // Writing into a String cannot fail; the results are ignored for that reason.
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">"#
    );
    let _ = writeln!(
        s,
        r#"<rect width="{w}" height="{h}" fill="{}"/>"#,
        hex(style.canvas)
    );
    for (k, (panel, place)) in panels.iter().zip(&layout.panels).enumerate() {
        let f = panel.frame;
        let wall = place.viewport.wall;
        let _ = writeln!(
            s,
            r#"<svg x="{}" y="{}" width="{}" height="{}" viewBox="{} {} {} {}">"#,
            place.pos.0,
            place.pos.1,
            place.size.0,
            place.size.1,
            -wall,
            -wall,
            f.width + 2.0 * wall,
            f.height + 2.0 * wall
        );
        write_table(&mut s, f, wall, style);
        if let Some(trails) = panel.trails {
            write_trails(&mut s, f, trails, style.trail_opacity, style.trail_width);
        }
        // A periodic table clips its balls to the table, each ball cut by an edge
        // drawn again one side over; the periodic edges are dashed.
        let periodic = f.periodic != [false, false];
        if periodic {
            let _ = writeln!(
                s,
                r#"<clipPath id="table{k}"><rect x="0" y="0" width="{}" height="{}"/></clipPath><g clip-path="url(#table{k})">"#,
                f.width, f.height
            );
        }
        write_balls(&mut s, f);
        for ([ax, ay, bx, by], width) in f.force_segments() {
            let _ = writeln!(
                s,
                r#"<line class="force" x1="{ax}" y1="{ay}" x2="{bx}" y2="{by}" stroke="{}" stroke-width="{width}" stroke-linecap="round"/>"#,
                hex(style.force)
            );
        }
        if periodic {
            let _ = writeln!(s, "</g>");
            write_periodic_edges(&mut s, f, wall, style.wall);
        }
        if let Some(t) = style.arrow_time {
            for b in f.balls.iter().filter(|b| b.is_drawable()) {
                write_arrow(&mut s, b.x, b.y, b.vx * t, b.vy * t, b.r, style.arrow);
            }
        }
        s.push_str("</svg>\n");
        if layout.label_height > 0 {
            let bar = (place.cell, layout.cell_width(), layout.label_height);
            write_label(
                &mut s,
                bar,
                panel.label,
                options.show_time.then_some(f.time),
                style,
            );
        }
    }
    s.push_str("</svg>\n");
    Ok(s)
}

/// A panel's table: the border of walls, the bed, the border cut away beyond an open
/// edge, the pockets and the walls inside the table.
fn write_table(s: &mut String, f: &Frame, wall: f64, style: &Style) {
    let _ = writeln!(
        s,
        r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{}"/>"#,
        -wall,
        -wall,
        f.width + 2.0 * wall,
        f.height + 2.0 * wall,
        hex(style.wall)
    );
    let _ = writeln!(
        s,
        r#"<rect x="0" y="0" width="{}" height="{}" fill="{}"/>"#,
        f.width,
        f.height,
        hex(style.background)
    );
    // An open edge: the border beyond it cut away to the canvas.
    let (fw, fh) = (f.width, f.height);
    let mut gaps = Vec::new();
    if f.open[0] {
        gaps.push((-wall, 0.0, wall, fh));
        gaps.push((fw, 0.0, wall, fh));
    }
    if f.open[1] {
        gaps.push((0.0, -wall, fw, wall));
        gaps.push((0.0, fh, fw, wall));
    }
    for (x, y, gw, gh) in gaps {
        let _ = writeln!(
            s,
            r#"<rect x="{x}" y="{y}" width="{gw}" height="{gh}" fill="{}"/>"#,
            hex(style.canvas)
        );
    }
    for &((x, y), r) in &f.pockets {
        let _ = writeln!(
            s,
            r#"<circle cx="{x}" cy="{y}" r="{r}" fill="{}"/>"#,
            hex(crate::raster::POCKET)
        );
    }
    let wall_width = 0.004 * fw.min(fh);
    for w in &f.walls {
        let pts: Vec<String> = w
            .points(1e-3 * fw.max(fh))
            .iter()
            .map(|(x, y)| format!("{x},{y}"))
            .collect();
        let _ = writeln!(
            s,
            r#"<polyline points="{}" fill="none" stroke="{}" stroke-width="{wall_width}" stroke-linecap="round" stroke-linejoin="round"/>"#,
            pts.join(" "),
            hex(style.wall)
        );
    }
}

/// Every drawable ball at each of its images: a styled ball, or a plain disc with its
/// rotation mark and (on cloth) its spin dot.
fn write_balls(s: &mut String, f: &Frame) {
    for (i, b) in f.balls.iter().enumerate() {
        if !b.is_drawable() {
            continue;
        }
        let (centres, n) = f.images(b);
        let style = f.style(i);
        let marks = style.is_none_or(|st| st.label.is_empty());
        for &(x, y) in &centres[..n] {
            match style {
                Some(st) => write_styled(s, (x, y), b.r, st),
                None => {
                    let _ = writeln!(
                        s,
                        r#"<circle cx="{}" cy="{}" r="{}" fill="{}"/>"#,
                        x,
                        y,
                        b.r,
                        hex(b.fill(i))
                    );
                }
            }
            if !marks {
                continue;
            }
            // The rotation mark, moved with the image it belongs to.
            if let Some((ex, ey)) = b.mark_end() {
                let (ox, oy) = (x - b.x, y - b.y);
                let _ = writeln!(
                    s,
                    r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="{}" stroke-linecap="round"/>"#,
                    x,
                    y,
                    ex + ox,
                    ey + oy,
                    hex(crate::frame::contrast(f.fill(i))),
                    0.18 * b.r
                );
            }
            // A sphere's spin dot (balls on cloth).
            if let Some((dx, dy)) = b.spin_dot() {
                let _ = writeln!(
                    s,
                    r#"<circle cx="{}" cy="{}" r="{}" fill="{}"/>"#,
                    dx + x - b.x,
                    dy + y - b.y,
                    crate::frame::SPIN_DOT_RADIUS * b.r,
                    hex(crate::frame::contrast(f.fill(i)))
                );
            }
        }
    }
}

/// The periodic edges of a table, dashed in the wall's colour.
fn write_periodic_edges(s: &mut String, f: &Frame, wall: f64, colour: Rgb) {
    let dashed = |s: &mut String, (ax, ay): (f64, f64), (bx, by): (f64, f64)| {
        let _ = writeln!(
            s,
            r#"<line x1="{ax}" y1="{ay}" x2="{bx}" y2="{by}" stroke="{}" stroke-width="{}" stroke-dasharray="{} {}"/>"#,
            hex(colour),
            0.25 * wall,
            wall,
            0.6 * wall
        );
    };
    let (w, h) = (f.width, f.height);
    if f.periodic[0] {
        dashed(s, (0.0, 0.0), (0.0, h));
        dashed(s, (w, 0.0), (w, h));
    }
    if f.periodic[1] {
        dashed(s, (0.0, 0.0), (w, 0.0));
        dashed(s, (0.0, h), (w, h));
    }
}

/// The bar under a panel (`bar`: its top-left corner, width and height in pixels):
/// the panel's label on the left and, when given, the time on the right.
fn write_label(
    s: &mut String,
    bar: ((u32, u32), u32, u32),
    label: &str,
    time: Option<f64>,
    style: &Style,
) {
    let ((x, y), cell_w, label_h) = bar;
    let _ = writeln!(
        s,
        r#"<rect x="{x}" y="{y}" width="{cell_w}" height="{label_h}" fill="{}"/>"#,
        hex(style.label_bar)
    );
    let px = label_h as f64 * 0.62;
    let base = y as f64 + 0.5 * (label_h as f64 + 0.72 * px);
    let pad = 0.4 * px;
    let font = r#"font-family="DejaVu Sans Mono, Hack, monospace""#;
    if !label.is_empty() {
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{base}" font-size="{px}" {font} fill="{}">{}</text>"#,
            x as f64 + pad,
            hex(style.label_text),
            escape(label)
        );
    }
    if let Some(t) = time {
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{base}" font-size="{px}" {font} fill="{}" text-anchor="end">t = {:.1}</text>"#,
            (x + cell_w) as f64 - pad,
            hex(style.label_text),
            t
        );
    }
}

fn write_trails(s: &mut String, f: &Frame, trails: &Trails, opacity: f64, width: f64) {
    let depth = trails.depth();
    if depth < 2 || trails.balls() != f.balls.len() {
        return;
    }
    let jump = 0.25 * f.width.max(f.height);
    for (i, b) in f.balls.iter().enumerate() {
        if !b.is_drawable() {
            continue;
        }
        let _ = writeln!(
            s,
            r#"<g stroke="{}" stroke-width="{}" stroke-linecap="round">"#,
            hex(b.fill(i)),
            width * 2.0 * b.r
        );
        for k in 0..depth - 1 {
            let (Some(p), Some(q)) = (trails.position(k, i), trails.position(k + 1, i)) else {
                continue;
            };
            if !(p.0.is_finite() && p.1.is_finite() && q.0.is_finite() && q.1.is_finite())
                || (q.0 - p.0).hypot(q.1 - p.1) > jump
            {
                continue;
            }
            let a = opacity * (k + 1) as f64 / (depth - 1) as f64;
            let _ = writeln!(
                s,
                r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke-opacity="{a:.3}"/>"#,
                p.0, p.1, q.0, q.1
            );
        }
        s.push_str("</g>\n");
    }
}

#[allow(clippy::too_many_arguments)]
fn write_arrow(s: &mut String, x: f64, y: f64, dx: f64, dy: f64, r: f64, c: Rgb) {
    let len = dx.hypot(dy);
    if !(len.is_finite() && len > 0.0) {
        return;
    }
    let width = 0.15 * r;
    let head = (4.0 * width).min(0.5 * len);
    let (ux, uy) = (dx / len, dy / len);
    // From the rim, as in the raster picture.
    let (x, y) = (x + ux * r, y + uy * r);
    let (tx, ty) = (x + dx, y + dy);
    let (bx, by) = (tx - ux * head, ty - uy * head);
    let half = 0.5 * head;
    let _ = writeln!(
        s,
        r#"<line x1="{x}" y1="{y}" x2="{bx}" y2="{by}" stroke="{}" stroke-width="{width}"/>"#,
        hex(c)
    );
    let _ = writeln!(
        s,
        r#"<polygon points="{tx},{ty} {},{} {},{}" fill="{}"/>"#,
        bx - uy * half,
        by + ux * half,
        bx + uy * half,
        by - ux * half,
        hex(c)
    );
}

fn hex(c: Rgb) -> String {
    c.to_hex()
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
