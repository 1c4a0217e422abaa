//! SVG pictures parsed back as XML: one circle per ball, at the ball's own coordinates.

use crate::common;

use carom_render::{render_svg, Panel, Trails};
use common::*;

fn circles(doc: &roxmltree::Document) -> Vec<(f64, f64, f64, String)> {
    doc.descendants()
        .filter(|n| n.has_tag_name("circle"))
        .map(|n| {
            let num = |a: &str| n.attribute(a).unwrap().parse::<f64>().unwrap();
            (
                num("cx"),
                num("cy"),
                num("r"),
                n.attribute("fill").unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn one_exact_circle_per_ball() {
    let mut frame = scene();
    // Coordinates with no short decimal form must come back bit for bit.
    frame.balls[1].x = 100.0 / 3.0;
    frame.balls[1].y = std::f64::consts::PI * 10.0;
    let text = render_svg(&[Panel::new(&frame)], &options()).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("well-formed SVG");
    let root = doc.root_element();
    assert_eq!(root.attribute("width"), Some("440"));
    assert_eq!(root.attribute("height"), Some("240"));
    // The panel maps scene units: table plus 10-unit walls.
    let panel = root.children().find(|n| n.has_tag_name("svg")).unwrap();
    assert_eq!(panel.attribute("viewBox"), Some("-10 -10 220 120"));

    let found = circles(&doc);
    assert_eq!(found.len(), frame.balls.len());
    for (b, c) in frame.balls.iter().zip(&found) {
        assert_eq!((c.0, c.1, c.2), (b.x, b.y, b.r));
    }
    assert_eq!(found[0].3, "#C81E1E");
}

#[test]
fn trails_arrows_and_labels_do_not_add_circles() {
    let mut frame = scene();
    let mut trails = Trails::new(5);
    for k in 0..5 {
        frame.balls[0].x = 40.0 + 3.0 * k as f64;
        trails.record(&frame);
    }
    let mut opts = options();
    opts.style.arrow_time = Some(2.0);
    opts.show_time = true;
    let label = "spring <k=5> & e=1";
    let text = render_svg(
        &[Panel::new(&frame)
            .labelled(label)
            .with_trails(Some(&trails))],
        &opts,
    )
    .unwrap();
    let doc = roxmltree::Document::parse(&text).expect("well-formed SVG, label escaped");
    assert_eq!(circles(&doc).len(), 2);
    let texts: Vec<String> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or("").to_string())
        .collect();
    assert!(texts.iter().any(|t| t == label), "{texts:?}");
    assert!(doc.descendants().filter(|n| n.has_tag_name("line")).count() >= 4);
}

#[test]
fn side_by_side_panels_are_nested_viewports() {
    let a = scene();
    let b = scene();
    let text = render_svg(
        &[Panel::new(&a).labelled("a"), Panel::new(&b).labelled("b")],
        &options(),
    )
    .unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let panels: Vec<_> = doc
        .root_element()
        .children()
        .filter(|n| n.has_tag_name("svg"))
        .collect();
    assert_eq!(panels.len(), 2);
    assert_ne!(
        (panels[0].attribute("x"), panels[0].attribute("y")),
        (panels[1].attribute("x"), panels[1].attribute("y"))
    );
    assert_eq!(circles(&doc).len(), 4);
}
