//! Walls inside the table, pockets and open edges in pictures: each drawn where its
//! geometry says, and balls out of play left out.

use crate::common;

use carom::parse::{build_world, parse_scenario, Format};
use carom_render::{render_png, render_svg, Frame, Panel};
use common::*;

/// The test table (200 x 100, see `common`) with a horizontal segment at y = 30 from
/// x = 20 to 80, a circle of radius 15 about (140, 50), a quarter arc of radius 20 about
/// (60, 70) from 0 to 90 degrees, a pocket of radius 8 at (190, 90), the y axis open,
/// and two balls: one on the table, one that has left play.
const SCENE: &str = r##"
[table]
width = 200.0
height = 100.0
boundary = ["walls", "open"]
[[balls]]
x = 100.0
y = 20.0
r = 5.0
color = "#C81E1E"
[[balls]]
x = 30.0
y = 80.0
r = 5.0
color = "#C81E1E"
removed = { time = 1.0, by = "bottom" }
[[walls]]
kind = "segment"
points = [[20.0, 30.0], [80.0, 30.0]]
[[walls]]
kind = "circle"
center = [140.0, 50.0]
radius = 15.0
[[walls]]
kind = "arc"
center = [60.0, 70.0]
radius = 20.0
from = 0.0
to = 90.0
[[pockets]]
center = [190.0, 90.0]
radius = 8.0
"##;

fn frame() -> Frame {
    let s = parse_scenario(SCENE, Format::Toml).unwrap();
    Frame::from_world(&build_world(&s).unwrap())
}

#[test]
fn walls_pockets_and_open_edges_are_drawn_where_they_are() {
    let style = options().style;
    let img = decode_png(&render_png(&[Panel::new(&frame())], &options()).unwrap());
    // On the segment, the circle and the arc (at 45 degrees: 60 + 20 cos 45, 70 +
    // 20 sin 45): the cushions' colour, in one of the pixels next to the point (the
    // line is 1.5 pixels wide and anti-aliased, so a pixel it half covers is a blend).
    let far = |a: carom::Rgb, b: carom::Rgb| {
        a.0.iter()
            .zip(b.0)
            .map(|(&p, q)| (i32::from(p) - i32::from(q)).abs())
            .sum::<i32>()
    };
    for (x, y) in [(50.0, 30.0), (140.0, 35.0), (155.0, 50.0), (74.14, 84.14)] {
        let (px, py) = pixel_of(x, y);
        let nearest = [(0, 0), (1, 0), (0, 1), (1, 1)]
            .iter()
            .map(|&(dx, dy)| far(img.at(px + dx - 1, py + dy - 1), style.wall))
            .min()
            .unwrap();
        assert!(
            nearest < 40,
            "({x}, {y}): no pixel of the wall's colour nearby"
        );
    }
    // Off them, the cloth: between the segment's end and the circle, the circle's
    // inside, the arc's unswept quarter (at 225 degrees from its centre).
    for (x, y) in [(90.0, 30.0), (140.0, 50.0), (45.86, 55.86)] {
        let (px, py) = pixel_of(x, y);
        assert_eq!(img.at(px, py), style.background, "({x}, {y})");
    }
    // The pocket is a dark hole; the ball in play is drawn, the one out of play not.
    let (px, py) = pixel_of(190.0, 90.0);
    let hole = img.at(px, py);
    assert!(hole.0.iter().all(|&c| c < 0x20), "{hole:?}");
    let (px, py) = pixel_of(100.0, 20.0);
    assert_eq!(img.at(px, py), RED);
    let (px, py) = pixel_of(30.0, 80.0);
    assert_eq!(img.at(px, py), style.background);
    // The open bottom edge: no border below the table, the canvas shows through; the
    // walled left edge keeps its border.
    let (px, py) = pixel_of(100.0, 105.0);
    assert_eq!(img.at(px, py), style.canvas);
    let (px, py) = pixel_of(-5.0, 50.0);
    assert_eq!(img.at(px, py), style.wall);
}

#[test]
fn svg_draws_the_walls_and_the_pocket_and_not_the_ball_out_of_play() {
    let svg = render_svg(&[Panel::new(&frame())], &options()).unwrap();
    assert_eq!(svg.matches("<polyline").count(), 3, "{svg}");
    assert!(svg.contains(r#"<polyline points="20,30 80,30""#), "{svg}");
    assert!(svg.contains(r#"<circle cx="190" cy="90" r="8""#), "{svg}");
    assert!(svg.contains(r#"<circle cx="100" cy="20" r="5""#));
    assert!(
        !svg.contains(r#"cy="80" r="5""#),
        "the ball out of play is not drawn"
    );
}
