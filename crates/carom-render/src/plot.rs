//! Energy and momentum over time, drawn with plotters (PNG through its bitmap backend,
//! SVG through its SVG backend; text through the bundled font, see [`crate::font`]).

use plotters::coord::Shift;
use plotters::prelude::*;

use carom::Diagnostics;

use crate::raster::encode_rgb_png;
use crate::{ImageFormat, RenderError};

/// Diagnostics of one run sampled over time.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Series {
    /// What the run is in a comparison (e.g. `spring, velocity-verlet`).
    pub label: String,
    /// Simulated time of each sample.
    pub time: Vec<f64>,
    /// Kinetic energy (translational plus rotational) at each sample.
    pub kinetic: Vec<f64>,
    /// Potential energy (contacts and gravity) at each sample.
    pub potential: Vec<f64>,
    /// Total energy at each sample.
    pub total: Vec<f64>,
    /// Linear momentum x at each sample.
    pub momentum_x: Vec<f64>,
    /// Linear momentum y at each sample.
    pub momentum_y: Vec<f64>,
}

impl Series {
    /// An empty series called `label`.
    pub fn new(label: impl Into<String>) -> Series {
        Series {
            label: label.into(),
            ..Series::default()
        }
    }

    /// Appends the sample `d` taken at simulated time `time`.
    pub fn push(&mut self, time: f64, d: &Diagnostics) {
        self.time.push(time);
        self.kinetic.push(d.kinetic_energy);
        self.potential.push(d.potential_energy);
        self.total.push(d.total_energy);
        self.momentum_x.push(d.momentum[0]);
        self.momentum_y.push(d.momentum[1]);
    }

    /// The number of samples.
    pub fn len(&self) -> usize {
        self.time.len()
    }

    /// True with no sample.
    pub fn is_empty(&self) -> bool {
        self.time.is_empty()
    }
}

/// Default plot size in pixels.
pub const PLOT_SIZE: (u32, u32) = (900, 640);
/// Below this, axis labels and the title no longer fit.
pub const MIN_PLOT_SIZE: (u32, u32) = (240, 180);

const KINETIC: RGBColor = RGBColor(0x1F, 0x77, 0xB4);
const POTENTIAL: RGBColor = RGBColor(0xFF, 0x7F, 0x0E);
const TOTAL: RGBColor = RGBColor(0x22, 0x22, 0x22);
const MOMENTUM_X: RGBColor = RGBColor(0x94, 0x67, 0xBD);
const MOMENTUM_Y: RGBColor = RGBColor(0x2C, 0xA0, 0x2C);
/// Distinct line colours for compared variants.
const VARIANTS: [RGBColor; 8] = [
    RGBColor(0x1F, 0x77, 0xB4),
    RGBColor(0xD6, 0x27, 0x28),
    RGBColor(0x2C, 0xA0, 0x2C),
    RGBColor(0xFF, 0x7F, 0x0E),
    RGBColor(0x94, 0x67, 0xBD),
    RGBColor(0x8C, 0x56, 0x4B),
    RGBColor(0xE3, 0x77, 0xC2),
    RGBColor(0x17, 0xBE, 0xCF),
];

/// Kinetic, potential and total energy (top) and both momentum components (bottom)
/// of one run, titled `title` (e.g. `break: spring, semi-implicit-euler`).
pub fn plot_energy(
    series: &Series,
    title: &str,
    format: ImageFormat,
    size: (u32, u32),
) -> Result<Vec<u8>, RenderError> {
    render(format, size, Chart::Energy(series), title)
}

/// The total energy of each run on one chart, for comparing models or integrators.
pub fn plot_total_energies(
    series: &[Series],
    title: &str,
    format: ImageFormat,
    size: (u32, u32),
) -> Result<Vec<u8>, RenderError> {
    if series.is_empty() {
        return Err(RenderError::Input("nothing to plot: no runs".into()));
    }
    render(format, size, Chart::Totals(series), title)
}

type DrawResult = Result<(), String>;

#[derive(Clone, Copy)]
enum Chart<'a> {
    Energy(&'a Series),
    Totals(&'a [Series]),
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: Chart,
    title: &str,
) -> DrawResult {
    match chart {
        Chart::Energy(s) => draw_energy(root, s, title),
        Chart::Totals(runs) => draw_totals(root, runs, title),
    }
}

fn render(
    format: ImageFormat,
    size: (u32, u32),
    chart: Chart,
    title: &str,
) -> Result<Vec<u8>, RenderError> {
    check_size(size)?;
    crate::font::register_with_plotters();
    let plot_err = |e: String| RenderError::Encode(format!("plot: {e}"));
    match format {
        ImageFormat::Png => {
            let mut buf = vec![255u8; size.0 as usize * size.1 as usize * 3];
            {
                let root = BitMapBackend::with_buffer(&mut buf, size).into_drawing_area();
                draw(&root, chart, title).map_err(plot_err)?;
                root.present().map_err(|e| plot_err(e.to_string()))?;
            }
            encode_rgb_png(&buf, size.0, size.1)
        }
        ImageFormat::Svg => {
            let mut text = String::new();
            {
                let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
                draw(&root, chart, title).map_err(plot_err)?;
                root.present().map_err(|e| plot_err(e.to_string()))?;
            }
            Ok(text.into_bytes())
        }
        ImageFormat::Gif => Err(RenderError::Input(
            "plots are written as .png or .svg, not .gif".into(),
        )),
    }
}

fn check_size(size: (u32, u32)) -> Result<(), RenderError> {
    let (min, max) = (MIN_PLOT_SIZE, crate::layout::MAX_SIDE);
    if size.0 < min.0 || size.1 < min.1 || size.0 > max || size.1 > max {
        return Err(RenderError::Input(format!(
            "plot size {}x{} must be between {}x{} and {max}x{max} pixels",
            size.0, size.1, min.0, min.1
        )));
    }
    Ok(())
}

/// The finite points of `(xs, ys)`: a run that blew up still plots up to the blow-up.
fn points<'a>(xs: &'a [f64], ys: &'a [f64]) -> impl Iterator<Item = (f64, f64)> + 'a {
    xs.iter()
        .zip(ys)
        .map(|(&x, &y)| (x, y))
        .filter(|(x, y)| x.is_finite() && y.is_finite())
}

/// A range covering every finite value, padded so lines do not touch the frame (and, at
/// the top, so the legend sits above the curves); a flat quantity (a conserved energy)
/// gets a small band around its value.
fn range<'a>(values: impl IntoIterator<Item = &'a f64>, pad: f64, pad_top: f64) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for &v in values {
        if v.is_finite() {
            lo = lo.min(v);
            hi = hi.max(v);
        }
    }
    if lo > hi {
        return (0.0, 1.0);
    }
    let span = hi - lo;
    let floor = 1e-9 * lo.abs().max(hi.abs()).max(1e-300);
    if span <= floor {
        let half = floor.max(1e-12);
        return (lo - half, hi + half);
    }
    (lo - pad * span, hi + pad_top * span)
}

/// Room above the curves for a legend of `entries` lines.
fn legend_pad(entries: usize) -> f64 {
    0.1 + 0.08 * entries as f64
}

/// Tick labels with as many decimals as the tick spacing needs, and no more.
fn tick_formatter(lo: f64, hi: f64) -> impl Fn(&f64) -> String {
    let step = (hi - lo).abs() / 8.0;
    let magnitude = lo.abs().max(hi.abs());
    let decimals = if step > 0.0 {
        (-step.log10()).ceil().clamp(0.0, 12.0) as usize
    } else {
        2
    };
    move |v: &f64| {
        if magnitude >= 1e6 || (magnitude > 0.0 && magnitude < 1e-3) {
            if *v == 0.0 {
                return "0".to_string();
            }
            // 1.250e6 -> 1.25e6: trailing zeros of the mantissa say nothing.
            let s = format!("{v:.3e}");
            match s.split_once('e') {
                Some((m, e)) if m.contains('.') => {
                    format!("{}e{e}", m.trim_end_matches('0').trim_end_matches('.'))
                }
                _ => s,
            }
        } else {
            let s = format!("{v:.decimals$}");
            // "-0.00" reads as a sign error on a zero axis.
            if s.trim_start_matches('-')
                .chars()
                .all(|c| c == '0' || c == '.')
            {
                s.trim_start_matches('-').to_string()
            } else {
                s
            }
        }
    }
}

fn label_area(lo: f64, hi: f64, font_px: u32) -> u32 {
    let f = tick_formatter(lo, hi);
    let widest = [lo, hi, 0.5 * (lo + hi)]
        .iter()
        .map(|v| f(v).chars().count())
        .max()
        .unwrap_or(4) as u32;
    (widest * font_px * 6 / 10 + 2 * font_px).max(40)
}

fn font_sizes(root_h: u32) -> (u32, u32) {
    let title = (root_h as f64 * 0.035).round().clamp(13.0, 28.0) as u32;
    let label = (root_h as f64 * 0.024).round().clamp(10.0, 18.0) as u32;
    (title, label)
}

fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

fn draw_energy<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    s: &Series,
    title: &str,
) -> DrawResult {
    root.fill(&WHITE).map_err(err)?;
    let (_, h) = root.dim_in_pixel();
    let (title_px, label_px) = font_sizes(h);
    let body = root
        .titled(title, ("sans-serif", title_px).into_font().color(&BLACK))
        .map_err(err)?;
    let (_, body_h) = body.dim_in_pixel();
    let (top, bottom) = body.split_vertically(body_h * 60 / 100);
    let t = range(&s.time, 0.0, 0.0);

    let e_range = range(
        s.kinetic.iter().chain(&s.potential).chain(&s.total),
        0.05,
        legend_pad(3),
    );
    let p_range = range(
        s.momentum_x.iter().chain(&s.momentum_y),
        0.05,
        legend_pad(2),
    );
    let y_area =
        label_area(e_range.0, e_range.1, label_px).max(label_area(p_range.0, p_range.1, label_px));

    let mut energy = ChartBuilder::on(&top)
        .margin(8)
        .margin_right(24)
        .x_label_area_size(label_px * 3)
        .y_label_area_size(y_area)
        .build_cartesian_2d(t.0..t.1, e_range.0..e_range.1)
        .map_err(err)?;
    energy
        .configure_mesh()
        .x_desc("time")
        .y_desc("energy")
        .x_label_formatter(&tick_formatter(t.0, t.1))
        .y_label_formatter(&tick_formatter(e_range.0, e_range.1))
        .label_style(("sans-serif", label_px))
        .max_light_lines(4)
        .light_line_style(RGBColor(238, 238, 238))
        .draw()
        .map_err(err)?;
    for (name, ys, color, width) in [
        ("kinetic", &s.kinetic, KINETIC, 1),
        ("potential", &s.potential, POTENTIAL, 1),
        ("total", &s.total, TOTAL, 2),
    ] {
        energy
            .draw_series(LineSeries::new(
                points(&s.time, ys),
                color.stroke_width(width),
            ))
            .map_err(err)?
            .label(name)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2))
            });
    }
    energy
        .configure_series_labels()
        .label_font(("sans-serif", label_px))
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(180, 180, 180))
        .position(SeriesLabelPosition::UpperRight)
        .draw()
        .map_err(err)?;

    let mut momentum = ChartBuilder::on(&bottom)
        .margin(8)
        .margin_right(24)
        .x_label_area_size(label_px * 3)
        .y_label_area_size(y_area)
        .build_cartesian_2d(t.0..t.1, p_range.0..p_range.1)
        .map_err(err)?;
    momentum
        .configure_mesh()
        .x_desc("time")
        .y_desc("momentum")
        .x_label_formatter(&tick_formatter(t.0, t.1))
        .y_label_formatter(&tick_formatter(p_range.0, p_range.1))
        .label_style(("sans-serif", label_px))
        .max_light_lines(4)
        .light_line_style(RGBColor(238, 238, 238))
        .draw()
        .map_err(err)?;
    for (name, ys, color) in [
        ("p_x", &s.momentum_x, MOMENTUM_X),
        ("p_y", &s.momentum_y, MOMENTUM_Y),
    ] {
        momentum
            .draw_series(LineSeries::new(points(&s.time, ys), color.stroke_width(2)))
            .map_err(err)?
            .label(name)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2))
            });
    }
    momentum
        .configure_series_labels()
        .label_font(("sans-serif", label_px))
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(180, 180, 180))
        .position(SeriesLabelPosition::UpperRight)
        .draw()
        .map_err(err)?;
    Ok(())
}

/// Runs whose total energy strays more than a hundred times farther from its start
/// than the typical run's does: an unstable integrator would otherwise flatten every
/// other curve into one line. The typical straying is the lower median, and only
/// counts when it is a visible fraction of the energy (otherwise every run conserves
/// energy and any straying shows).
fn runaways(runs: &[Series]) -> Vec<bool> {
    let stray: Vec<f64> = runs
        .iter()
        .map(|s| {
            let e0 = s
                .total
                .iter()
                .copied()
                .find(|v| v.is_finite())
                .unwrap_or(0.0);
            s.total
                .iter()
                .map(|v| {
                    if v.is_finite() {
                        (v - e0).abs()
                    } else {
                        f64::INFINITY
                    }
                })
                .fold(0.0, f64::max)
        })
        .collect();
    let scale = runs
        .iter()
        .flat_map(|s| s.total.iter().take(1))
        .map(|v| v.abs())
        .filter(|v| v.is_finite())
        .fold(0.0, f64::max);
    let mut sorted = stray.clone();
    sorted.sort_by(f64::total_cmp);
    let typical = sorted
        .get(sorted.len().saturating_sub(1) / 2)
        .copied()
        .unwrap_or(0.0);
    if runs.len() < 2 || typical <= 1e-6 * scale || typical == 0.0 {
        return vec![false; runs.len()];
    }
    stray.iter().map(|&d| d > 100.0 * typical).collect()
}

/// The parts of a polyline inside `lo <= y <= hi`, cut where it crosses the bounds:
/// plotters draws points outside the chart over the axes, so curves are clipped here.
fn clip_runs(points: impl Iterator<Item = (f64, f64)>, lo: f64, hi: f64) -> Vec<Vec<(f64, f64)>> {
    let inside = |y: f64| (lo..=hi).contains(&y);
    let mut runs: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut current: Vec<(f64, f64)> = Vec::new();
    let mut prev: Option<(f64, f64)> = None;
    for q in points {
        if let Some(p) = prev {
            // The segment p -> q at parameter s in [0, 1]; keep the s where y is inside.
            let (mut s0, mut s1) = (0.0f64, 1.0f64);
            let dy = q.1 - p.1;
            if dy == 0.0 {
                if !inside(p.1) {
                    s0 = 1.0;
                    s1 = 0.0;
                }
            } else {
                let (a, b) = ((lo - p.1) / dy, (hi - p.1) / dy);
                s0 = s0.max(a.min(b));
                s1 = s1.min(a.max(b));
            }
            if s0 <= s1 {
                let at = |s: f64| (p.0 + s * (q.0 - p.0), p.1 + s * dy);
                if s0 > 0.0 || current.is_empty() {
                    if !current.is_empty() {
                        runs.push(std::mem::take(&mut current));
                    }
                    current.push(at(s0));
                }
                current.push(at(s1));
                if s1 < 1.0 {
                    runs.push(std::mem::take(&mut current));
                }
            } else if !current.is_empty() {
                runs.push(std::mem::take(&mut current));
            }
        } else if inside(q.1) {
            current.push(q);
        }
        prev = Some(q);
    }
    if !current.is_empty() {
        runs.push(current);
    }
    runs
}

fn draw_totals<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    runs: &[Series],
    title: &str,
) -> DrawResult {
    root.fill(&WHITE).map_err(err)?;
    let (_, h) = root.dim_in_pixel();
    let (title_px, label_px) = font_sizes(h);
    let body = root
        .titled(title, ("sans-serif", title_px).into_font().color(&BLACK))
        .map_err(err)?;
    let t = range(runs.iter().flat_map(|s| &s.time), 0.0, 0.0);
    let off_scale = runaways(runs);
    let e = range(
        runs.iter()
            .zip(&off_scale)
            .filter(|(_, &off)| !off)
            .flat_map(|(s, _)| &s.total),
        0.05,
        legend_pad(runs.len()),
    );
    let mut chart = ChartBuilder::on(&body)
        .margin(8)
        .margin_right(24)
        .x_label_area_size(label_px * 3)
        .y_label_area_size(label_area(e.0, e.1, label_px))
        .build_cartesian_2d(t.0..t.1, e.0..e.1)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("time")
        .y_desc("total energy")
        .x_label_formatter(&tick_formatter(t.0, t.1))
        .y_label_formatter(&tick_formatter(e.0, e.1))
        .label_style(("sans-serif", label_px))
        .max_light_lines(4)
        .light_line_style(RGBColor(238, 238, 238))
        .draw()
        .map_err(err)?;
    for (k, s) in runs.iter().enumerate() {
        let color = VARIANTS[k % VARIANTS.len()];
        let runs_inside = clip_runs(points(&s.time, &s.total), e.0, e.1);
        for run in &runs_inside {
            chart
                .draw_series(LineSeries::new(run.iter().copied(), color.stroke_width(2)))
                .map_err(err)?;
        }
        // The legend entry is a series of its own, so that it is there even when the
        // curve never enters the chart.
        let label = if off_scale[k] {
            format!("{} (off scale)", s.label)
        } else {
            s.label.clone()
        };
        chart
            .draw_series(std::iter::empty::<PathElement<(f64, f64)>>())
            .map_err(err)?
            .label(label)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .label_font(("sans-serif", label_px))
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(180, 180, 180))
        .position(SeriesLabelPosition::UpperRight)
        .draw()
        .map_err(err)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_ranges_get_a_band_and_nan_is_ignored() {
        let (lo, hi) = range(&[5.0, 5.0, f64::NAN], 0.05, 0.05);
        assert!(lo < 5.0 && hi > 5.0 && hi - lo < 1e-6);
        assert_eq!(range(&[f64::NAN], 0.05, 0.05), (0.0, 1.0));
        let (lo, hi) = range(&[0.0, 10.0], 0.1, 0.5);
        assert_eq!((lo, hi), (-1.0, 15.0));
    }

    #[test]
    fn clipping_cuts_curves_at_the_bounds() {
        // Up through the top at x = 1.5, back in at x = 3.5.
        let pts = [
            (0.0, 0.0),
            (1.0, 1.0),
            (2.0, 3.0),
            (3.0, 3.0),
            (4.0, 1.0),
            (5.0, 0.5),
        ];
        let runs = clip_runs(pts.into_iter(), -1.0, 2.0);
        assert_eq!(runs.len(), 2);
        assert_eq!(runs[0], vec![(0.0, 0.0), (1.0, 1.0), (1.5, 2.0)]);
        assert_eq!(runs[1], vec![(3.5, 2.0), (4.0, 1.0), (5.0, 0.5)]);
        // Entirely outside: nothing; entirely inside: one run, unchanged.
        assert!(clip_runs([(0.0, 5.0), (1.0, 6.0)].into_iter(), 0.0, 1.0).is_empty());
        assert_eq!(
            clip_runs(pts[..2].iter().copied(), -1.0, 2.0),
            vec![pts[..2].to_vec()]
        );
    }

    #[test]
    fn a_runaway_is_singled_out_but_conserving_runs_are_not() {
        let run = |label: &str, totals: &[f64]| Series {
            label: label.into(),
            time: (0..totals.len()).map(|k| k as f64).collect(),
            total: totals.to_vec(),
            ..Series::default()
        };
        let level5 = [
            run("a", &[-56.0, -56.2]),
            run("b", &[-56.0, 240.0]),
            run("c", &[-56.0, 8e5]),
            run("d", &[-56.0, -160.0]),
            run("e", &[-56.0, -55.9]),
        ];
        assert_eq!(runaways(&level5), vec![false, false, true, false, false]);
        // Exact conservation against a small spring wobble: nothing is off the scale.
        let exact = [run("impulse", &[32.0, 32.0]), run("spring", &[32.0, 32.06])];
        assert_eq!(runaways(&exact), vec![false, false]);
        let blown = [run("ok", &[1.0, 1.1]), run("nan", &[1.0, f64::NAN])];
        assert_eq!(runaways(&blown), vec![false, true]);
    }

    #[test]
    fn tick_labels_resolve_the_spacing() {
        let f = tick_formatter(99.99, 100.01);
        assert_eq!(f(&100.0026), "100.003");
        assert_eq!(tick_formatter(-1.0, 1.0)(&-0.0001), "0.0");
        let big = tick_formatter(0.0, 1.2e6);
        assert_eq!(
            (big(&1.25e6), big(&0.0), big(&2e6)),
            ("1.25e6".into(), "0".into(), "2e6".into())
        );
    }
}
