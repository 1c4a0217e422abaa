//! Periodic tables in pictures: a ball cut by a periodic edge shows on both sides of the
//! table (and not over the border), in PNG and SVG; walls stay as they were.

use crate::common;

use carom_render::{render_png, render_svg, BallView, Frame, Panel};
use common::*;

/// The test scene's 200 x 100 table, periodic in x, with a red ball of radius 10 at
/// x = 4: 6 units of it stick out past x = 0 and reappear inside x = 200.
fn cut_ball(periodic: bool) -> Frame {
    let mut red = BallView::new(4.0, 50.0, 10.0);
    red.color = Some(RED);
    let mut f = Frame::new(200.0, 100.0);
    f.balls.push(red);
    f.periodic = [periodic, false];
    f
}

#[test]
fn a_ball_cut_by_a_periodic_edge_shows_on_both_sides() {
    let style = options().style;
    let img = decode_png(&render_png(&[Panel::new(&cut_ball(true))], &options()).unwrap());
    // Its own part, near its centre; its copy at x = 204 reaches in to x = 194: the
    // pixel at x = 197 is red.
    let (x, y) = pixel_of(4.0, 50.0);
    assert_eq!(img.at(x, y), RED);
    let (x, y) = pixel_of(197.0, 50.0);
    assert_eq!(img.at(x, y), RED);
    // Not over the border beyond either edge (the cushion's colour, away from the
    // dashes drawn on the edge itself).
    let (x, y) = pixel_of(-4.0, 50.0);
    assert_eq!(img.at(x, y), style.wall);
    let (x, y) = pixel_of(205.0, 50.0);
    assert_eq!(img.at(x, y), style.wall);

    // With walls, no copy: the cloth at x = 197.
    let img = decode_png(&render_png(&[Panel::new(&cut_ball(false))], &options()).unwrap());
    let (x, y) = pixel_of(197.0, 50.0);
    assert_eq!(img.at(x, y), style.background);
}

#[test]
fn svg_draws_the_copy_clipped_and_the_periodic_edges_dashed() {
    let svg = render_svg(&[Panel::new(&cut_ball(true))], &options()).unwrap();
    assert!(svg.contains(r#"<circle cx="4" cy="50" r="10""#), "{svg}");
    assert!(svg.contains(r#"<circle cx="204" cy="50" r="10""#), "{svg}");
    assert!(svg.contains("clip-path=\"url(#table0)\""));
    assert_eq!(
        svg.matches("stroke-dasharray").count(),
        2,
        "two periodic x edges"
    );
    let walled = render_svg(&[Panel::new(&cut_ball(false))], &options()).unwrap();
    assert!(!walled.contains("cx=\"204\"") && !walled.contains("stroke-dasharray"));
}
