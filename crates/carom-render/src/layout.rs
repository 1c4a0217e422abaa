//! Where things go on the canvas: the scene-to-pixel mapping of each panel, the size of
//! the picture, and the grid of panels when several worlds are shown side by side.

use carom::Rgb;

use crate::RenderError;

/// Colours and proportions of a picture.
#[derive(Debug, Clone, PartialEq)]
pub struct Style {
    /// The table cloth.
    pub background: Rgb,
    /// The cushions drawn around the table.
    pub wall: Rgb,
    /// Wall thickness as a fraction of the table's shorter side (drawn outside the
    /// table, so the table itself keeps its exact proportions).
    pub wall_fraction: f64,
    /// Behind the panels and between them.
    pub canvas: Rgb,
    /// The strip above a panel that holds its label.
    pub label_bar: Rgb,
    /// Panel labels' text colour.
    pub label_text: Rgb,
    /// Velocity arrows: an arrow, from the ball's rim, shows how far the ball would
    /// travel in this much simulated time. `None`: no arrows.
    pub arrow_time: Option<f64>,
    /// Velocity arrows' colour.
    pub arrow: Rgb,
    /// Force chains (a frame's `forces`).
    pub force: Rgb,
    /// Opacity of the newest trail segment; older ones fade linearly to nothing.
    pub trail_opacity: f64,
    /// Trail width as a fraction of the ball's diameter.
    pub trail_width: f64,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            background: Rgb([0x1E, 0x6B, 0x47]),
            wall: Rgb([0x5B, 0x3A, 0x1E]),
            wall_fraction: 0.025,
            canvas: Rgb([0x20, 0x20, 0x20]),
            label_bar: Rgb([0x20, 0x20, 0x20]),
            label_text: Rgb([0xF0, 0xF0, 0xF0]),
            arrow_time: None,
            arrow: Rgb([0x10, 0x10, 0x10]),
            force: Rgb([0xB0, 0x10, 0x10]),
            trail_opacity: 0.6,
            trail_width: 0.4,
        }
    }
}

impl Style {
    /// The wall thickness in scene units for a table of this size.
    pub fn wall_thickness(&self, width: f64, height: f64) -> f64 {
        self.wall_fraction.max(0.0) * width.min(height)
    }
}

/// The default largest picture: a 2:1 billiard table comes out 640 x 320 or so.
pub const DEFAULT_SIZE: (u32, u32) = (640, 480);

/// Limits on one side of a requested size, pixels: below, nothing is recognisable;
/// above, a GIF (16-bit sizes) or memory would give out.
pub const MIN_SIDE: u32 = 16;
/// The largest side of a requested picture size, pixels (see [`MIN_SIDE`]).
pub const MAX_SIDE: u32 = 8192;

/// Parses `WIDTHxHEIGHT` (e.g. `640x480`), the largest box the picture must fit in.
pub fn parse_size(s: &str) -> Result<(u32, u32), RenderError> {
    let bad = || {
        RenderError::Input(format!(
            "size '{s}' is not WIDTHxHEIGHT with whole numbers of pixels (e.g. 640x480)"
        ))
    };
    let (w, h) = s.trim().split_once(['x', 'X']).ok_or_else(bad)?;
    let w: u32 = w.trim().parse().map_err(|_| bad())?;
    let h: u32 = h.trim().parse().map_err(|_| bad())?;
    for v in [w, h] {
        if !(MIN_SIDE..=MAX_SIDE).contains(&v) {
            return Err(RenderError::Input(format!(
                "size '{s}': each side must be between {MIN_SIDE} and {MAX_SIDE} pixels"
            )));
        }
    }
    Ok((w, h))
}

/// The mapping from scene units to pixels of one panel.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Viewport {
    /// Pixel position of the table's corner (0, 0).
    pub origin: (f64, f64),
    /// Pixels per scene unit (the same in x and y: the table keeps its aspect).
    pub scale: f64,
    /// Wall thickness in scene units.
    pub wall: f64,
    /// Table size in scene units.
    pub table: (f64, f64),
}

impl Viewport {
    /// Fits a table with its walls into `max = (w, h)` pixels, keeping its aspect.
    /// Returns the viewport (at the canvas origin) and the panel's pixel size.
    pub fn fit(width: f64, height: f64, style: &Style, max: (u32, u32)) -> (Viewport, (u32, u32)) {
        let wall = style.wall_thickness(width, height);
        let (outer_w, outer_h) = (width + 2.0 * wall, height + 2.0 * wall);
        let scale = (max.0 as f64 / outer_w).min(max.1 as f64 / outer_h);
        let px_w = ((outer_w * scale).round() as u32).clamp(1, max.0);
        let px_h = ((outer_h * scale).round() as u32).clamp(1, max.1);
        let vp = Viewport {
            origin: (wall * scale, wall * scale),
            scale,
            wall,
            table: (width, height),
        };
        (vp, (px_w, px_h))
    }

    /// The pixel position of the scene point `(x, y)`.
    pub fn to_pixel(&self, x: f64, y: f64) -> (f64, f64) {
        (
            self.origin.0 + x * self.scale,
            self.origin.1 + y * self.scale,
        )
    }

    /// The same mapping moved by `(dx, dy)` pixels.
    pub fn shifted(mut self, dx: f64, dy: f64) -> Viewport {
        self.origin.0 += dx;
        self.origin.1 += dy;
        self
    }
}

/// Where each panel sits on the canvas.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// The canvas size in pixels, `(width, height)`.
    pub canvas: (u32, u32),
    /// Each panel's place, in the panels' order.
    pub panels: Vec<PanelPlace>,
    /// Height of the label strip above each panel (0: no labels).
    pub label_height: u32,
}

/// Where one panel sits on the canvas, and how its table maps to pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PanelPlace {
    /// Top-left pixel of the panel's cell (its label strip, then the table).
    pub cell: (u32, u32),
    /// Top-left pixel of the table picture (walls included).
    pub pos: (u32, u32),
    /// The table's mapping, already placed on the canvas.
    pub viewport: Viewport,
    /// Pixel size of the table picture (walls included).
    pub size: (u32, u32),
}

/// Gap between panels, in pixels.
const GAP: u32 = 4;

impl Layout {
    /// One panel per table size in `tables`, each fitted into `max_panel` pixels; with
    /// `labelled`, a label strip on top of each. Several panels go into the grid whose
    /// overall shape is closest to 2:1: a wide screen, a little wider than 16:9 so that
    /// two panels of a billiard table sit side by side rather than stacked.
    pub fn new(
        tables: &[(f64, f64)],
        style: &Style,
        max_panel: (u32, u32),
        labelled: bool,
    ) -> Layout {
        let fits: Vec<(Viewport, (u32, u32))> = tables
            .iter()
            .map(|&(w, h)| Viewport::fit(w, h, style, max_panel))
            .collect();
        let cell_w = fits.iter().map(|f| f.1 .0).max().unwrap_or(1);
        let table_h = fits.iter().map(|f| f.1 .1).max().unwrap_or(1);
        let label_height = if labelled {
            label_height_for(cell_w, table_h)
        } else {
            0
        };
        let cell_h = table_h + label_height;
        let n = fits.len().max(1) as u32;
        let cols = best_columns(n, cell_w, cell_h);
        let rows = n.div_ceil(cols);
        let gap = if n > 1 { GAP } else { 0 };
        let canvas = (
            cols * cell_w + (cols - 1) * gap,
            rows * cell_h + (rows - 1) * gap,
        );
        let panels = fits
            .iter()
            .enumerate()
            .map(|(k, &(vp, size))| {
                let (col, row) = (k as u32 % cols, k as u32 / cols);
                let cell = (col * (cell_w + gap), row * (cell_h + gap));
                // A panel smaller than its cell (a different table) is centred in it.
                let dx = cell.0 + (cell_w - size.0) / 2;
                let dy = cell.1 + label_height + (table_h - size.1) / 2;
                PanelPlace {
                    cell,
                    pos: (dx, dy),
                    viewport: vp.shifted(dx as f64, dy as f64),
                    size,
                }
            })
            .collect();
        Layout {
            canvas,
            panels,
            label_height,
        }
    }

    /// Width of a panel's cell (for label placement).
    pub fn cell_width(&self) -> u32 {
        self.panels.iter().map(|p| p.size.0).max().unwrap_or(1)
    }
}

/// Label strip height: readable at small sizes, not dominant at large ones.
fn label_height_for(w: u32, h: u32) -> u32 {
    ((w.min(h * 2) as f64 * 0.04).round() as u32).clamp(16, 36)
}

fn best_columns(n: u32, cell_w: u32, cell_h: u32) -> u32 {
    let target = 2.0f64.ln();
    let mut best = (f64::INFINITY, 1);
    for cols in 1..=n {
        let rows = n.div_ceil(cols);
        // Leave no fully empty row: that shape is never the better one.
        if (rows - 1) * cols >= n {
            continue;
        }
        let aspect = (cols * cell_w) as f64 / (rows * cell_h) as f64;
        let miss = (aspect.ln() - target).abs();
        if miss < best.0 - 1e-9 {
            best = (miss, cols);
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_keeps_the_aspect_and_fills_the_limiting_side() {
        let style = Style {
            wall_fraction: 0.1,
            ..Style::default()
        };
        // 200 x 100 table, 10-unit walls: 220 x 120 outer. In 440 x 480 the width limits:
        // scale 2, picture 440 x 240.
        let (vp, size) = Viewport::fit(200.0, 100.0, &style, (440, 480));
        assert_eq!(size, (440, 240));
        assert_eq!(vp.scale, 2.0);
        assert_eq!(vp.to_pixel(0.0, 0.0), (20.0, 20.0));
        assert_eq!(vp.to_pixel(200.0, 100.0), (420.0, 220.0));
    }

    #[test]
    fn sizes_parse_and_bad_ones_are_refused() {
        assert_eq!(parse_size("640x480").unwrap(), (640, 480));
        assert_eq!(parse_size("32X20").unwrap(), (32, 20));
        for bad in [
            "640",
            "x480",
            "640x",
            "-3x4",
            "1x1",
            "640x480x2",
            "99999x10",
        ] {
            assert!(parse_size(bad).is_err(), "{bad} should be refused");
        }
    }

    #[test]
    fn two_wide_panels_sit_side_by_side() {
        let layout = Layout::new(&[(800.0, 400.0); 2], &Style::default(), (480, 360), true);
        assert_eq!(layout.panels[0].cell.1, layout.panels[1].cell.1);
        assert!(layout.canvas.0 > 2 * 480 - 1);
    }

    #[test]
    fn four_wide_panels_make_a_two_by_two_grid() {
        let style = Style::default();
        let tables = [(800.0, 400.0); 4];
        let layout = Layout::new(&tables, &style, (400, 400), true);
        let xs: Vec<u32> = layout.panels.iter().map(|p| p.cell.0).collect();
        let ys: Vec<u32> = layout.panels.iter().map(|p| p.cell.1).collect();
        assert_eq!(xs[0], xs[2]);
        assert_eq!(ys[0], ys[1]);
        assert!(xs[1] > xs[0] && ys[2] > ys[0]);
    }
}
