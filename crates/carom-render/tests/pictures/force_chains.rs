//! Force chains in pictures: each contact force a segment between the two centres, as
//! wide as its share of the largest force.

use crate::common;

use carom::ContactForce;
use carom_render::{render_png, render_svg, BallView, Frame, Panel, FORCE_WIDTH};
use common::*;

/// Three balls of radius 10 in a row on the 200 x 100 test table, touching, the
/// left contact pushing twice as hard as the right one.
fn row(periodic: bool) -> Frame {
    let mut f = Frame::new(200.0, 100.0);
    for x in [30.0, 50.0, 70.0] {
        f.balls.push(BallView::new(x, 50.0, 10.0));
    }
    f.forces = vec![
        ContactForce {
            i: 0,
            j: 1,
            normal: 4.0,
        },
        ContactForce {
            i: 1,
            j: 2,
            normal: 2.0,
        },
    ];
    f.periodic = [periodic, false];
    f
}

/// `(x1, y1, x2, y2, width)` of every force line of an SVG.
fn force_lines(svg: &str) -> Vec<[f64; 5]> {
    svg.lines()
        .filter(|l| l.contains(r#"class="force""#))
        .map(|l| {
            let attr = |name: &str| -> f64 {
                let key = format!(r#" {name}=""#);
                let rest = &l[l.find(&key).unwrap() + key.len()..];
                rest[..rest.find('"').unwrap()].parse().unwrap()
            };
            [
                attr("x1"),
                attr("y1"),
                attr("x2"),
                attr("y2"),
                attr("stroke-width"),
            ]
        })
        .collect()
}

#[test]
fn each_contact_is_a_segment_as_wide_as_its_share_of_the_largest_force() {
    let svg = render_svg(&[Panel::new(&row(false))], &options()).unwrap();
    let lines = force_lines(&svg);
    assert_eq!(lines.len(), 2, "{svg}");
    // Centre to centre; the largest force FORCE_WIDTH mean radii wide, the other half.
    assert_eq!(lines[0][..4], [30.0, 50.0, 50.0, 50.0]);
    assert_eq!(lines[1][..4], [50.0, 50.0, 70.0, 50.0]);
    assert!(
        (lines[0][4] - FORCE_WIDTH * 10.0).abs() < 1e-12,
        "{lines:?}"
    );
    assert!(
        (lines[1][4] - 0.5 * FORCE_WIDTH * 10.0).abs() < 1e-12,
        "{lines:?}"
    );
    // No forces: no lines.
    let mut bare = row(false);
    bare.forces.clear();
    let svg = render_svg(&[Panel::new(&bare)], &options()).unwrap();
    assert!(force_lines(&svg).is_empty());
}

#[test]
fn a_contact_across_a_periodic_edge_joins_the_nearest_images() {
    let mut f = row(true);
    // Ball 2 moved across the x edge: 5 and 195 are 10 apart through it.
    f.balls[0].x = 195.0;
    f.balls[1].x = 5.0;
    f.forces.truncate(1);
    let svg = render_svg(&[Panel::new(&f)], &options()).unwrap();
    let lines = force_lines(&svg);
    assert_eq!(lines.len(), 1, "{svg}");
    assert_eq!(lines[0][..4], [195.0, 50.0, 205.0, 50.0]);
}

#[test]
fn the_raster_picture_draws_the_chain_in_its_colour() {
    let style = options().style;
    let img = decode_png(&render_png(&[Panel::new(&row(false))], &options()).unwrap());
    // On the contact point between balls 0 and 1 the chain (8 units wide) is drawn
    // over the balls.
    let (x, y) = pixel_of(40.0, 50.0);
    assert_eq!(img.at(x, y), style.force);
    // Off the chain, inside ball 0, the ball's own colour.
    let (x, y) = pixel_of(30.0, 42.0);
    assert_ne!(img.at(x, y), style.force);
}
