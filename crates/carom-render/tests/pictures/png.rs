//! Raster pictures checked pixel by pixel at positions worked out by hand (see
//! `common::options` for the geometry).

use crate::common;

use carom_render::{render_png, Panel, Trails, DEFAULT_BALL_COLORS};
use common::*;

#[test]
fn ball_colours_at_centres_cloth_and_walls_elsewhere() {
    let frame = scene();
    let png = render_png(&[Panel::new(&frame)], &options()).unwrap();
    let img = decode_png(&png);
    assert_eq!((img.width, img.height), (440, 240));
    let style = options().style;

    // Centres: the red ball's own colour; the uncoloured ball (index 1) takes the
    // second default colour.
    let (x, y) = pixel_of(50.0, 25.0);
    assert_eq!((x, y), (120, 70));
    assert_eq!(img.at(x, y), RED);
    let (x, y) = pixel_of(150.0, 50.0);
    assert_eq!(img.at(x, y), DEFAULT_BALL_COLORS[1]);

    // Far from any ball: the cloth. Just outside the red ball's 20-pixel radius, too.
    let (x, y) = pixel_of(100.0, 80.0);
    assert_eq!(img.at(x, y), style.background);
    assert_eq!(img.at(120 + 23, 70), style.background);
    assert_eq!(img.at(120, 70 - 23), style.background);
    // Just inside the radius: still the ball (anti-aliasing touches only the edge pixel).
    assert_eq!(img.at(120 + 18, 70), RED);

    // The cushions: 20 pixels thick around the table.
    assert_eq!(img.at(5, 5), style.wall);
    assert_eq!(img.at(430, 120), style.wall);
    assert_eq!(img.at(220, 235), style.wall);
}

#[test]
fn edges_are_anti_aliased() {
    let frame = scene();
    let img = decode_png(&render_png(&[Panel::new(&frame)], &options()).unwrap());
    // Along a diagonal through the red disk's edge, some pixel is neither the ball nor
    // the cloth: a blend of the two.
    let bg = options().style.background;
    let blended = (0..40u32).any(|k| {
        let c = img.at(120 + k, 70 + k);
        c != RED && c != bg
    });
    assert!(blended, "no partially covered pixel on the disk's edge");
}

#[test]
fn velocity_arrows_point_along_the_velocity() {
    let frame = scene();
    let mut opts = options();
    // Red ball: centre x = 50, radius 10, 10 units/time: the arrow runs from its rim
    // at x = 60 to x = 90.
    opts.style.arrow_time = Some(3.0);
    let img = decode_png(&render_png(&[Panel::new(&frame)], &opts).unwrap());
    let arrow = opts.style.arrow;
    // On the shaft, outside the ball: scene (65, 25).
    let (x, y) = pixel_of(65.0, 25.0);
    assert_eq!(img.at(x, y), arrow);
    // Behind the ball: cloth; in the head, near the tip: arrow; past the tip: cloth.
    assert_eq!(img.at(pixel_of(30.0, 25.0).0, y), opts.style.background);
    assert_eq!(img.at(pixel_of(87.0, 25.0).0, y), arrow);
    assert_eq!(img.at(pixel_of(95.0, 25.0).0, y), opts.style.background);
    // The resting ball gets no arrow.
    let (x, y) = pixel_of(150.0, 60.0);
    assert_eq!(img.at(x, y), opts.style.background);
}

#[test]
fn trails_fade_behind_a_moving_ball() {
    let mut frame = scene();
    let mut trails = Trails::new(8);
    for k in 0..8 {
        frame.balls[0].x = 50.0 + 10.0 * k as f64;
        trails.record(&frame);
    }
    let img = decode_png(
        &render_png(&[Panel::new(&frame).with_trails(Some(&trails))], &options()).unwrap(),
    );
    let bg = options().style.background;
    // Behind the ball (now at x = 120): red mixed into the cloth, more red nearer
    // the ball.
    let redness = |x: f64| {
        let c = img.at(pixel_of(x, 25.0).0, pixel_of(x, 25.0).1);
        assert_ne!(c, bg, "no trail at x = {x}");
        c.0[0] as i32 - bg.0[0] as i32
    };
    assert!(redness(100.0) > redness(70.0));
    assert!(redness(70.0) > 0);
    // Before the oldest recorded position: no trail.
    let (x, y) = pixel_of(40.0, 25.0);
    assert_eq!(img.at(x, y), bg);
}

#[test]
fn labels_are_drawn_with_the_bundled_font() {
    let frame = scene();
    let mut opts = options();
    opts.show_time = true;
    let img = decode_png(&render_png(&[Panel::new(&frame).labelled("impulse")], &opts).unwrap());
    // The label strip sits above the unchanged 440 x 240 table picture.
    assert_eq!(img.width, 440);
    let strip = img.height - 240;
    assert!(strip >= 16, "label strip {strip} px");
    // The table moved down by the strip: the red centre is there.
    assert_eq!(img.at(120, 70 + strip), RED);
    // Text pixels: close to the label colour, inside the strip, at both ends (the
    // label on the left, the time on the right).
    let text = opts.style.label_text;
    let is_text = |x: u32, y: u32| {
        let c = img.at(x, y);
        (0..3).all(|k| (c.0[k] as i32 - text.0[k] as i32).abs() < 40)
    };
    let left = (0..strip).any(|y| (0..100).any(|x| is_text(x, y)));
    let right = (0..strip).any(|y| (340..440).any(|x| is_text(x, y)));
    assert!(
        left && right,
        "label text missing (left {left}, right {right})"
    );
}

#[test]
fn side_by_side_panels_each_show_their_world() {
    let a = scene();
    let mut b = scene();
    b.balls[0].x = 150.0;
    b.balls[0].y = 75.0;
    let mut opts = options();
    opts.size = (440, 240);
    let panels = [Panel::new(&a).labelled("a"), Panel::new(&b).labelled("b")];
    let img = decode_png(&render_png(&panels, &opts).unwrap());
    let layout = opts_layout(&panels, &opts);
    assert_eq!((img.width, img.height), layout.canvas);
    for (panel, place) in panels.iter().zip(&layout.panels) {
        let ball = panel.frame.balls[0];
        let (x, y) = place.viewport.to_pixel(ball.x, ball.y);
        assert_eq!(img.at(x as u32, y as u32), RED);
        // Every panel keeps the 2-pixels-per-unit scale of the single picture.
        assert_eq!(place.viewport.scale, 2.0);
    }
}

fn opts_layout(panels: &[Panel], opts: &carom_render::PictureOptions) -> carom_render::Layout {
    let tables: Vec<(f64, f64)> = panels
        .iter()
        .map(|p| (p.frame.width, p.frame.height))
        .collect();
    carom_render::Layout::new(&tables, &opts.style, opts.size, true)
}

#[test]
fn a_blown_up_ball_is_left_out_and_a_bad_table_refused() {
    let mut frame = scene();
    frame.balls[1].x = f64::NAN;
    let img = decode_png(&render_png(&[Panel::new(&frame)], &options()).unwrap());
    assert_eq!(img.at(120, 70), RED);
    frame.width = 0.0;
    let err = render_png(&[Panel::new(&frame)], &options()).unwrap_err();
    assert!(err.to_string().contains("table width"), "{err}");
}
