//! Plots decoded back: the right size, not blank, the curves in their colours, and the
//! title drawn (text works without system fonts).

use crate::common;

use carom_render::{plot_energy, plot_total_energies, ImageFormat, Series};
use common::decode_png;

/// A harmonic oscillator's exact energies: kinetic cos^2, potential sin^2, total 1.
fn oscillator(label: &str, gain: f64) -> Series {
    let mut s = Series::new(label);
    for k in 0..200 {
        let t = k as f64 * 0.05;
        let grow = 1.0 + gain * t;
        s.time.push(t);
        s.kinetic.push(grow * t.cos().powi(2));
        s.potential.push(grow * t.sin().powi(2));
        s.total.push(grow);
        s.momentum_x.push(t.cos());
        s.momentum_y.push(0.0);
    }
    s
}

fn count_near(img: &common::Image, rgb: [u8; 3], tol: i32) -> usize {
    img.rgb
        .chunks(3)
        .filter(|p| (0..3).all(|k| (p[k] as i32 - rgb[k] as i32).abs() <= tol))
        .count()
}

#[test]
fn energy_plot_png_has_its_curves_and_title() {
    let png = plot_energy(
        &oscillator("", 0.0),
        "oscillator: spring, velocity-verlet",
        ImageFormat::Png,
        (800, 600),
    )
    .unwrap();
    let img = decode_png(&png);
    assert_eq!((img.width, img.height), (800, 600));
    let white = count_near(&img, [255, 255, 255], 0);
    let total = (img.width * img.height) as usize;
    assert!(white < total * 98 / 100, "plot is blank");
    assert!(white > total / 2, "plot background is not white");
    // The kinetic curve's blue and the potential's orange are drawn.
    assert!(
        count_near(&img, [0x1F, 0x77, 0xB4], 30) > 200,
        "no kinetic curve"
    );
    assert!(
        count_near(&img, [0xFF, 0x7F, 0x0E], 30) > 200,
        "no potential curve"
    );
    // The title band (top 4%) holds dark glyph pixels.
    let top = img.rgb[..(img.width as usize * 24 * 3)]
        .chunks(3)
        .filter(|p| p.iter().all(|&c| c < 100))
        .count();
    assert!(top > 50, "no title text ({top} dark pixels)");
}

#[test]
fn energy_plot_svg_parses_with_title_and_lines() {
    let bytes = plot_energy(
        &oscillator("", 0.0),
        "bounce & fall",
        ImageFormat::Svg,
        (640, 480),
    )
    .unwrap();
    let text = String::from_utf8(bytes).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("well-formed SVG");
    let texts: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .collect();
    assert!(
        texts.iter().any(|t| t.contains("bounce & fall")),
        "{texts:?}"
    );
    // Five curves: three energies, two momentum components.
    assert!(
        doc.descendants()
            .filter(|n| n.has_tag_name("polyline"))
            .count()
            >= 5
    );
}

#[test]
fn comparison_overlays_each_runs_total_energy() {
    let runs = [
        oscillator("gains", 0.05),
        oscillator("keeps", 0.0),
        oscillator("loses", -0.05),
    ];
    let img =
        decode_png(&plot_total_energies(&runs, "bounce", ImageFormat::Png, (800, 500)).unwrap());
    assert_eq!((img.width, img.height), (800, 500));
    for rgb in [[0x1F, 0x77, 0xB4], [0xD6, 0x27, 0x28], [0x2C, 0xA0, 0x2C]] {
        assert!(
            count_near(&img, rgb, 30) > 200,
            "missing the curve drawn in {rgb:?}"
        );
    }
}

#[test]
fn blown_up_runs_plot_and_bad_requests_are_errors() {
    let mut s = oscillator("", 0.0);
    s.total[150] = f64::NAN;
    s.kinetic[160] = f64::INFINITY;
    assert!(plot_energy(&s, "nan", ImageFormat::Png, (400, 300)).is_ok());
    assert!(plot_energy(&Series::new("empty"), "empty", ImageFormat::Png, (400, 300)).is_ok());
    assert!(plot_energy(&s, "gif", ImageFormat::Gif, (400, 300)).is_err());
    assert!(plot_energy(&s, "tiny", ImageFormat::Png, (10, 10)).is_err());
    assert!(plot_total_energies(&[], "none", ImageFormat::Png, (400, 300)).is_err());
}
