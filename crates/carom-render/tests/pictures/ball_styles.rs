//! Ball styles in pictures: stripes, numbers on white discs, plain colours; and no
//! styles drawing today's pictures unchanged.

use crate::common;

use carom::Rgb;
use carom_render::ballstyle::{CAP, INK, LABEL_DISC, STRIPE_HALF};
use carom_render::{render_png, render_svg, BallStyle, BallView, Frame, Panel, PictureOptions};
use common::{decode_png, options, Image};

const YELLOW: Rgb = Rgb([0xF4, 0xD0, 0x3F]);
const RED: Rgb = Rgb([0xE7, 0x4C, 0x3C]);
const GREEN: Rgb = Rgb([0x1E, 0x84, 0x49]);

/// FNV-1a of the pixels: a picture's fingerprint.
fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn preset_frame(name: &str) -> Frame {
    let src = carom::load::Source::preset(name).unwrap();
    let mut w = carom::load::build(&src, &[]).unwrap().world;
    w.run_steps(40).unwrap();
    Frame::from_world(&w)
}

fn pixels(frame: &Frame) -> Vec<u8> {
    let png = render_png(&[Panel::new(frame)], &PictureOptions::default()).unwrap();
    tiny_skia::Pixmap::decode_png(&png).unwrap().data().to_vec()
}

/// The fingerprints were taken from the same frames drawn by the renderer before ball
/// styles existed (commit e1948f6, x86-64): a frame without styles must come out the
/// same to the last bit. The scenes cover pockets and cushions (pool), spheres' spin
/// dots (english-cloth) and plain disks (level4).
#[test]
#[cfg(target_arch = "x86_64")]
fn without_styles_presets_draw_as_before() {
    for (name, pin) in [
        ("pool", 0x0dd4_e80a_eba3_fd39_u64),
        ("level4", 0x7700_0c6c_6743_af9b),
        ("english-cloth", 0xd34e_bbca_51eb_ccce),
    ] {
        let f = preset_frame(name);
        assert!(f.styles.is_empty());
        assert_eq!(fnv(&pixels(&f)), pin, "{name}");
    }
}

/// A style that only restates a ball's colour (no stripe, no label) draws the ball
/// exactly as no style does: the styled path adds nothing of its own.
#[test]
fn plain_styles_draw_exactly_as_no_styles() {
    for name in ["pool", "english-cloth"] {
        let plain = preset_frame(name);
        let mut styled = plain.clone();
        styled.styles = (0..plain.balls.len())
            .map(|i| BallStyle::plain(plain.fill(i)))
            .collect();
        assert!(pixels(&plain) == pixels(&styled), "{name}");
    }
}

/// One ball of radius 20 at the table's centre: 40 pixels at (220, 120) (see
/// common::options: 2 pixels per unit, scene (x, y) at (20 + 2x, 20 + 2y)).
fn one_ball(style: BallStyle) -> Image {
    let mut f = Frame::new(200.0, 100.0);
    f.balls.push(BallView::new(100.0, 50.0, 20.0));
    f.styles.push(style);
    decode_png(&render_png(&[Panel::new(&f)], &options()).unwrap())
}

const C: (i32, i32) = (220, 120);
const R: f64 = 40.0;

fn at(img: &Image, dx: f64, dy: f64) -> Rgb {
    img.at(
        (C.0 as f64 + dx).round() as u32,
        (C.1 as f64 + dy).round() as u32,
    )
}

fn style(fill: Rgb, stripe: bool, label: &str) -> BallStyle {
    BallStyle {
        fill,
        stripe,
        label: label.into(),
    }
}

/// A stripe's colour lies in a band across the middle, white caps above and below; the
/// band's edges lie where [`STRIPE_HALF`] puts them, found by scanning down a column.
#[test]
fn the_nine_shows_a_yellow_band_between_white_caps() {
    let img = one_ball(style(YELLOW, true, "9"));
    let h = STRIPE_HALF * R; // 22 px
                             // Well inside the caps (10 px from the band, 8 from the rim) and the band (between
                             // the number disc, 20 px, and the rim, 40 px).
    assert_eq!(at(&img, 0.0, -0.8 * R), CAP);
    assert_eq!(at(&img, 0.0, 0.8 * R), CAP);
    assert_eq!(at(&img, 15.0, -0.7 * R), CAP);
    assert_eq!(at(&img, -0.75 * R, 0.0), YELLOW);
    assert_eq!(at(&img, 0.75 * R, 0.0), YELLOW);
    assert_eq!(at(&img, 25.0, -0.4 * R), YELLOW);
    // Down the column 30 px right of the centre: white, then yellow from the band's
    // top edge, white again after its bottom edge; each edge within a pixel (the
    // anti-aliased edge pixel is the one between).
    let x = (C.0 + 30) as u32;
    let column: Vec<Rgb> = (C.1 - 26..=C.1 + 26).map(|y| img.at(x, y as u32)).collect();
    let first = column.iter().position(|&c| c == YELLOW).unwrap() as f64;
    let last = column.iter().rposition(|&c| c == YELLOW).unwrap() as f64;
    let (top, bottom) = (first - 26.0, last - 26.0);
    assert!((top + h).abs() <= 1.0, "band top at {top}, expected {}", -h);
    assert!(
        (bottom - h).abs() <= 1.0,
        "band bottom at {bottom}, expected {h}"
    );
}

/// A solid is its colour from rim to number disc, no caps; a ball without a label
/// (snooker, carom) is its colour at the very centre.
#[test]
fn a_ball_is_its_style_colour() {
    let three = one_ball(style(RED, false, "3"));
    for (dx, dy) in [
        (0.0, -0.8 * R),
        (0.0, 0.8 * R),
        (0.75 * R, 0.0),
        (-0.6 * R, 0.4 * R),
    ] {
        assert_eq!(at(&three, dx, dy), RED, "({dx}, {dy})");
    }
    let green = one_ball(BallStyle::plain(GREEN));
    assert_eq!(at(&green, 0.0, 0.0), GREEN);
    assert_eq!(at(&green, 0.0, -0.8 * R), GREEN);
}

/// The ink of the digits, as the box of pixels darker than mid grey inside the disc of
/// radius `d`.
fn ink_box(img: &Image, d: f64) -> (i32, i32, i32, i32) {
    let d = d as i32;
    let mut b = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
    for y in -d..=d {
        for x in -d..=d {
            if x * x + y * y > d * d {
                continue;
            }
            let c = img.at((C.0 + x) as u32, (C.1 + y) as u32);
            if c.0.iter().map(|&v| u32::from(v)).sum::<u32>() < 3 * 128 {
                b = (b.0.min(x), b.1.min(y), b.2.max(x), b.3.max(y));
            }
        }
    }
    b
}

/// The number sits on a white disc, centred, large enough to read and inside the disc.
#[test]
fn numbers_are_dark_digits_centred_on_a_white_disc() {
    let d = LABEL_DISC * R; // 24.8 px
                            // The tallest digits that fit: an ink box of aspect a (width over height) with its
                            // corners on the circle of LABEL_FIT d is 2 LABEL_FIT d / sqrt(1 + a^2) tall. Digits
                            // are about 0.55 em wide and 0.73 em tall in a sans face: a ~ 0.75 for one digit
                            // (0.70 of the disc's diameter) and ~ 1.6 for two (0.47); the bounds below leave
                            // room for glyph widths and a pixel of rounding.
    for (label, least) in [("9", 0.62), ("15", 0.40)] {
        let img = one_ball(style(YELLOW, true, label));
        // The disc's rim, 2 px inside its edge and outside the ink's box (whose
        // corners are at LABEL_FIT d, 3 px in): white all round.
        for k in 0..32 {
            let t = k as f64 * std::f64::consts::PI / 16.0;
            let c = at(&img, (d - 2.0) * t.cos(), (d - 2.0) * t.sin());
            assert_eq!(c, CAP, "{label}: disc rim at angle {t}");
        }
        let (l, t, r, b) = ink_box(&img, d);
        assert!(l <= r, "{label}: no ink");
        // Centred to within a pixel and a half (pixel rounding of the glyphs' box and
        // of the ink threshold on each side).
        assert!(((l + r) as f64 / 2.0).abs() <= 1.5, "{label}: {l}..{r}");
        assert!(((t + b) as f64 / 2.0).abs() <= 1.5, "{label}: {t}..{b}");
        // Inside the disc, and as tall as the argument above says.
        let corner = (l.abs().max(r.abs()) as f64).hypot(t.abs().max(b.abs()) as f64);
        assert!(corner <= d, "{label}: ink reaches {corner} of {d}");
        let tall = (b - t + 1) as f64 / (2.0 * d);
        assert!(tall >= least, "{label}: {tall} of the disc's diameter");
        // Some pixels are the ink itself, not only anti-aliased blends.
        let darkest = (l..=r)
            .flat_map(|x| (t..=b).map(move |y| (x, y)))
            .map(|(x, y)| img.at((C.0 + x) as u32, (C.1 + y) as u32))
            .min_by_key(|c| c.0.iter().map(|&v| u32::from(v)).sum::<u32>())
            .unwrap();
        assert_eq!(darkest, INK, "{label}");
    }
    // Two digits are wider than tall, one digit taller than wide.
    let (l, t, r, b) = ink_box(&one_ball(style(RED, false, "15")), d);
    assert!(r - l > b - t);
    let (l, t, r, b) = ink_box(&one_ball(style(RED, false, "7")), d);
    assert!(r - l < b - t);
}

/// A ball too small to read a number on is drawn plainly in its colour.
#[test]
fn tiny_balls_leave_their_number_out() {
    let mut f = Frame::new(200.0, 100.0);
    f.balls.push(BallView::new(100.0, 50.0, 1.5)); // 3 px
    f.styles.push(style(RED, false, "3"));
    let img = decode_png(&render_png(&[Panel::new(&f)], &options()).unwrap());
    assert_eq!(img.at(220, 120), RED);
}

/// The GIF's palette holds the styles' colours, the caps' white and the ink exactly.
#[test]
fn gif_frames_keep_style_colours_exact() {
    use carom_render::{AnimationOptions, GifWriter};
    let mut f = Frame::new(200.0, 100.0);
    f.balls.push(BallView::new(50.0, 50.0, 20.0));
    f.balls.push(BallView::new(150.0, 50.0, 20.0));
    f.styles = vec![style(YELLOW, true, "9"), BallStyle::plain(GREEN)];
    let opts = AnimationOptions {
        picture: options(),
        ..AnimationOptions::default()
    };
    let mut bytes = Vec::new();
    let mut w = GifWriter::new(&mut bytes, std::slice::from_ref(&f), &[], &opts).unwrap();
    w.push(std::slice::from_ref(&f)).unwrap();
    w.finish().unwrap();
    let gif = common::decode_gif(&bytes);
    let img = &gif.shown[0];
    // Ball 0 at pixel (120, 120), ball 1 at (320, 120).
    assert_eq!(img.at(120, 120 - 32), CAP);
    assert_eq!(img.at(120 - 30, 120), YELLOW);
    assert_eq!(img.at(320, 120), GREEN);
}

/// The SVG draws the same dress: the band as a path in the ball's colour over a white
/// ball, the number as text on a white disc.
#[test]
fn svg_draws_stripes_and_numbers() {
    let mut f = Frame::new(200.0, 100.0);
    f.balls.push(BallView::new(100.0, 50.0, 20.0));
    f.styles.push(style(YELLOW, true, "9"));
    let svg = render_svg(&[Panel::new(&f)], &options()).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let circles: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("circle") && n.attribute("cx") == Some("100"))
        .collect();
    assert_eq!(circles.len(), 2, "ball and number disc");
    assert_eq!(circles[0].attribute("fill"), Some("#FFFFFF"));
    assert_eq!(circles[0].attribute("r"), Some("20"));
    let disc = (LABEL_DISC * 20.0).to_string();
    assert_eq!(circles[1].attribute("r"), Some(disc.as_str()));
    let band = doc.descendants().find(|n| n.has_tag_name("path")).unwrap();
    assert_eq!(band.attribute("fill"), Some("#F4D03F"));
    let text = doc
        .descendants()
        .find(|n| n.has_tag_name("text") && n.text() == Some("9"));
    assert!(text.is_some());
}
