//! Table dimensions against the specifications, written here from the governing
//! bodies' numbers (WPA equipment specifications, WPBSA table specification, UMB
//! regulations), measured on the engine walls the tables are built of.

use carom::scenario::WallSpec;
use carom_games::tables::{Table, TableKind, INCH};

/// Round-off only: every dimension is a few additions of metres given to 1e-4.
const TOL: f64 = 1e-9;

/// The nose lines of a table's cushions: the x of every vertical and the y of every
/// horizontal polyline segment, and the segments' end points (the jaw tips).
struct Noses {
    xs: Vec<f64>,
    ys: Vec<f64>,
    /// (start, end) of every horizontal nose segment.
    horizontal: Vec<([f64; 2], [f64; 2])>,
    vertical: Vec<([f64; 2], [f64; 2])>,
}

fn noses(walls: &[WallSpec]) -> Noses {
    let mut n = Noses {
        xs: vec![],
        ys: vec![],
        horizontal: vec![],
        vertical: vec![],
    };
    for w in walls {
        let mut pts = w.points.clone().unwrap();
        if w.closed == Some(true) {
            pts.push(pts[0]);
        }
        for s in pts.windows(2) {
            let (a, b) = (s[0], s[1]);
            if a[1] == b[1] {
                n.ys.push(a[1]);
                n.horizontal.push((a, b));
            } else if a[0] == b[0] {
                n.xs.push(a[0]);
                n.vertical.push((a, b));
            }
        }
    }
    n
}

fn extent(v: &[f64]) -> f64 {
    let max = v.iter().cloned().fold(f64::MIN, f64::max);
    let min = v.iter().cloned().fold(f64::MAX, f64::min);
    max - min
}

fn dist(a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

#[test]
fn pool_playing_surfaces_are_the_wpa_sizes() {
    // WPA: 9 ft 100 x 50 in, 8 ft 92 x 46 in, 7 ft 78 x 39 in (between the noses).
    for (kind, l, w) in [
        (TableKind::Pool9, 100.0, 50.0),
        (TableKind::Pool8, 92.0, 46.0),
        (TableKind::Pool7, 78.0, 39.0),
    ] {
        let t = Table::new(kind);
        let n = noses(&t.walls);
        assert!((extent(&n.xs) - l * 0.0254).abs() < TOL, "{kind:?} length");
        assert!((extent(&n.ys) - w * 0.0254).abs() < TOL, "{kind:?} width");
        assert_eq!(t.pockets.len(), 6);
    }
}

#[test]
fn pool_pocket_mouths_are_within_the_wpa_ranges() {
    // WPA: corner mouths 4.5 to 4.625 in, side mouths 5 to 5.125 in, measured between
    // the jaws' tips (where the nose turns into the pocket).
    for kind in [TableKind::Pool7, TableKind::Pool8, TableKind::Pool9] {
        let t = Table::new(kind);
        let n = noses(&t.walls);
        let x0 = n.xs.iter().cloned().fold(f64::MAX, f64::min);
        let y0 = n.ys.iter().cloned().fold(f64::MAX, f64::min);
        // Top-left corner: the top rail's tip nearest the corner and the left rail's.
        let top_tip = n
            .horizontal
            .iter()
            .filter(|s| s.0[1] == y0)
            .flat_map(|s| [s.0, s.1])
            .min_by(|a, b| a[0].total_cmp(&b[0]))
            .unwrap();
        let left_tip = n
            .vertical
            .iter()
            .filter(|s| s.0[0] == x0)
            .flat_map(|s| [s.0, s.1])
            .min_by(|a, b| a[1].total_cmp(&b[1]))
            .unwrap();
        let corner = dist(top_tip, left_tip) / INCH;
        assert!(
            (4.5..=4.625).contains(&corner),
            "{kind:?} corner {corner} in"
        );
        // Side: the gap between the top rail's two nose segments.
        let mut top: Vec<_> = n.horizontal.iter().filter(|s| s.0[1] == y0).collect();
        top.sort_by(|a, b| a.0[0].total_cmp(&b.0[0]));
        assert_eq!(top.len(), 2);
        let side = (top[1].0[0] - top[0].1[0]) / INCH;
        assert!((5.0..=5.125).contains(&side), "{kind:?} side {side} in");
    }
}

#[test]
fn pool_balls_and_cushions_are_the_wpa_ones() {
    for kind in [TableKind::Pool7, TableKind::Pool8, TableKind::Pool9] {
        let t = Table::new(kind);
        // WPA: 2.25 in (+- 0.005), 5.5 to 6 oz (156 to 170 g).
        assert!((2.0 * t.balls.radius - 2.25 * 0.0254).abs() < TOL);
        assert!((0.1559..=0.1701).contains(&t.balls.mass));
        // WPA: the cushion's nose at 62.5 to 64.5 % of the ball's height.
        let f = t.cushions.nose_height / (2.0 * t.balls.radius);
        assert!((0.625..=0.645).contains(&f), "{f}");
        for w in &t.walls {
            assert_eq!(w.cushion_height, Some(t.cushions.nose_height));
        }
    }
}

#[test]
fn the_snooker_table_is_the_wpbsa_one() {
    let t = Table::new(TableKind::Snooker);
    let n = noses(&t.walls);
    // WPBSA: playing area 3569 x 1778 mm, balls 52.5 mm.
    assert!((extent(&n.xs) - 3.569).abs() < TOL);
    assert!((extent(&n.ys) - 1.778).abs() < TOL);
    assert!((2.0 * t.balls.radius - 0.0525).abs() < TOL);
    assert_eq!(t.pockets.len(), 6);
    // Markings: baulk line 737 mm from the baulk cushion's nose, the D a semicircle of
    // 292 mm, black spot 324 mm from the top cushion, pink midway between the centre
    // and the top cushion, blue at the centre, brown, yellow and green on the baulk
    // line (the brown in the middle, the others at the D's ends).
    let s = carom_games::setups::SnookerSpots::of(&t);
    let x0 = n.xs.iter().cloned().fold(f64::MAX, f64::min);
    let y0 = n.ys.iter().cloned().fold(f64::MAX, f64::min);
    let (x1, cy) = (x0 + 3.569, y0 + 1.778 / 2.0);
    assert!((s.baulk - x0 - 0.737).abs() < TOL);
    assert!((s.d_radius - 0.292).abs() < TOL);
    assert!((x1 - s.black[0] - 0.324).abs() < TOL);
    assert!((s.pink[0] - (x0 + 3.569 * 0.75)).abs() < TOL);
    assert!((s.blue[0] - (x0 + 3.569 * 0.5)).abs() < TOL);
    for p in [s.black, s.pink, s.blue, s.brown] {
        assert!((p[1] - cy).abs() < TOL);
    }
    assert!((dist(s.yellow, s.brown) - 0.292).abs() < TOL);
    assert!((dist(s.green, s.brown) - 0.292).abs() < TOL);
    assert!((s.yellow[0] - s.baulk).abs() < TOL && (s.green[0] - s.baulk).abs() < TOL);
}

#[test]
fn the_carom_table_is_the_umb_match_table() {
    let t = Table::new(TableKind::Carom);
    let n = noses(&t.walls);
    // UMB: 2.84 x 1.42 m between the noses, balls 61 to 61.5 mm of 205 to 220 g,
    // cushion height 37 mm (+- 1), no pockets.
    assert!((extent(&n.xs) - 2.84).abs() < TOL);
    assert!((extent(&n.ys) - 1.42).abs() < TOL);
    let d = 2.0 * t.balls.radius;
    assert!((0.061..=0.0615 + TOL).contains(&d));
    assert!((0.205..=0.220).contains(&t.balls.mass));
    assert!((t.cushions.nose_height - 0.037).abs() <= 0.001);
    assert!(t.pockets.is_empty());
}

#[test]
fn every_table_is_a_runnable_engine_scenario_on_cloth() {
    for kind in TableKind::ALL {
        let t = Table::new(kind);
        let s = t.scenario(vec![t.ball(t.center())]);
        assert_eq!(s.physics.model, Some(carom::ModelKind::Event));
        assert!(s.physics.friction.is_cloth());
        let w = carom::parse::build_world(&s).unwrap();
        assert_eq!(w.pocket_specs().len(), t.pockets.len());
    }
}
