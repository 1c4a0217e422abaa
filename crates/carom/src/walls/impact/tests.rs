//! Times of impact against closed forms, and against a brute-force search of the
//! distance along the flight.

use super::*;
use std::f64::consts::{FRAC_PI_2, PI, TAU};

fn segment(a: [f64; 2], b: [f64; 2]) -> Piece {
    Piece {
        shape: Shape::Segment { a, b },
        wall: 0,
        joint_before: None,
        joint_after: false,
    }
}

fn arc(center: [f64; 2], radius: f64, from: f64, span: f64) -> Piece {
    Piece {
        shape: Shape::Arc {
            center,
            radius,
            from,
            span,
        },
        wall: 0,
        joint_before: None,
        joint_after: false,
    }
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * b.abs().max(1.0)
}

#[test]
fn an_oblique_face_is_met_when_the_normal_gap_closes() {
    // A long segment through the origin at angle theta; the ball 7 from its line,
    // moving in at 3 along the normal and 5 along the segment: the gap 7 - r closes at
    // the normal speed.
    for deg in [0.0, 10.0, 33.0, 60.0, 90.0, 145.0] {
        let th = f64::to_radians(deg);
        let (t, n) = ([th.cos(), th.sin()], [-th.sin(), th.cos()]);
        let s = segment([-100.0 * t[0], -100.0 * t[1]], [100.0 * t[0], 100.0 * t[1]]);
        let r = 2.0;
        for side in [1.0, -1.0] {
            let p = [7.0 * side * n[0], 7.0 * side * n[1]];
            let v = [
                -3.0 * side * n[0] + 5.0 * t[0],
                -3.0 * side * n[1] + 5.0 * t[1],
            ];
            let got = s.impact(&Flight::line(p, v), r, f64::INFINITY).unwrap();
            assert!(close(got, 5.0 / 3.0, 1e-14), "{deg} {side}: {got}");
            // Moving out: never.
            let away = [-v[0] + 10.0 * t[0], -v[1] + 10.0 * t[1]];
            assert_eq!(s.impact(&Flight::line(p, away), r, f64::INFINITY), None);
        }
    }
}

#[test]
fn a_free_end_is_met_as_a_point() {
    // Along the segment's own line towards its end at (10, 0): the centre reaches
    // distance r from the end after (30 - 10 - r) / 4.
    let s = segment([0.0, 0.0], [10.0, 0.0]);
    let got = s
        .impact(&Flight::line([30.0, 0.0], [-4.0, 0.0]), 1.5, 100.0)
        .unwrap();
    assert!(close(got, (20.0 - 1.5) / 4.0, 1e-14), "{got}");
    // Offset by 1 sideways: |(30 - 4t - 10, 1)| = 1.5 at 20 - 4t = sqrt(1.25).
    let got = s
        .impact(&Flight::line([30.0, 1.0], [-4.0, 0.0]), 1.5, 100.0)
        .unwrap();
    assert!(close(got, (20.0 - 1.25f64.sqrt()) / 4.0, 1e-14), "{got}");
    // A joint owned by the next piece is not this piece's end: alone, this piece is
    // then met at its first point, (30 - 1.5) / 4 later.
    let mut inner = s;
    inner.joint_after = true;
    let got = inner.impact(&Flight::line([30.0, 0.0], [-4.0, 0.0]), 1.5, 100.0);
    assert_eq!(got, Some(28.5 / 4.0));
}

#[test]
fn a_circle_is_met_from_outside_and_from_inside() {
    let c = arc([50.0, 50.0], 10.0, 0.0, TAU);
    // A peg: head on from 40 away, radius 2: gap 40 - 12 at speed 4.
    let got = c
        .impact(&Flight::line([90.0, 50.0], [-4.0, 0.0]), 2.0, 1e9)
        .unwrap();
    assert!(close(got, 7.0, 1e-14), "{got}");
    // A container: from the centre outwards, 10 - 2 at speed 4.
    let got = c
        .impact(&Flight::line([50.0, 50.0], [0.0, 4.0]), 2.0, 1e9)
        .unwrap();
    assert!(close(got, 2.0, 1e-14), "{got}");
    // Just bounced off the inside (touching, moving back in): the far side, a
    // diameter of the inner circle later.
    let got = c
        .impact(&Flight::line([58.0, 50.0], [-4.0, 0.0]), 2.0, 1e9)
        .unwrap();
    assert!(close(got, 4.0, 1e-14), "{got}");
    // Just bounced off the outside (moving away): never again.
    assert_eq!(
        c.impact(&Flight::line([62.0, 50.0], [4.0, 0.0]), 2.0, 1e9),
        None
    );
}

#[test]
fn a_gap_in_an_arc_lets_a_ball_through() {
    // The arc covers angles 90..360 (y down: the gap is the quarter from +x to +y).
    let a = arc([0.0, 0.0], 10.0, FRAC_PI_2, 1.5 * PI);
    // From the centre out through the middle of the gap: nothing.
    let dir = [FRAC_PI_2.cos() * 0.0 + (PI / 4.0).cos(), (PI / 4.0).sin()];
    assert_eq!(a.impact(&Flight::line([0.0, 0.0], dir), 1.0, 1e9), None);
    // From the centre towards -x: the arc's inside at 9.
    let got = a
        .impact(&Flight::line([0.0, 0.0], [-1.0, 0.0]), 1.0, 1e9)
        .unwrap();
    assert!(close(got, 9.0, 1e-14));
    // In through the gap from outside, across, then the inside of the far wall: the
    // ball enters along the diagonal y = x and meets the arc at distance 9 beyond
    // the centre.
    let h = std::f64::consts::FRAC_1_SQRT_2;
    let got = a
        .impact(&Flight::line([30.0 * h, 30.0 * h], [-h, -h]), 1.0, 1e9)
        .unwrap();
    assert!(close(got, 39.0, 1e-13), "{got}");
}

#[test]
fn a_ball_dropped_onto_a_shelf_lands_when_it_has_fallen_the_gap() {
    // y down, gravity +y: a shelf at y = 100, the ball's centre at 60, radius 4:
    // falls 36 in sqrt(2 * 36 / g).
    let s = segment([0.0, 100.0], [50.0, 100.0]);
    let g = 9.81;
    let f = Flight {
        p: [20.0, 60.0],
        v: [0.0, 0.0],
        a: [0.0, g],
    };
    let got = s.impact(&f, 4.0, 100.0).unwrap();
    assert!(close(got, (72.0 / g).sqrt(), 1e-14), "{got}");
    // Thrown up past the end of the shelf, then back over it: it lands on the face
    // from above once its foot is over the shelf: x = 60 - 5 t, y = 104 - 30 t + g/2 t^2.
    let f = Flight {
        p: [60.0, 104.0],
        v: [-5.0, -30.0],
        a: [0.0, g],
    };
    let got = s.impact(&f, 4.0, 100.0).unwrap();
    let want = (30.0 + (900.0f64 - 2.0 * g * 8.0).sqrt()) / g;
    let foot = 60.0 - 5.0 * want;
    assert!((0.0..=50.0).contains(&foot));
    assert!(close(got, want, 1e-12), "{got} {want}");
}

#[test]
fn pockets_and_open_edges_take_the_centre() {
    let p = Pocket {
        center: [0.0, 0.0],
        radius: 5.0,
    };
    let got = p
        .entry(&Flight::line([20.0, 0.0], [-3.0, 0.0]), 100.0)
        .unwrap();
    assert!(close(got, 5.0, 1e-14));
    assert_eq!(
        p.entry(&Flight::line([2.0, 0.0], [3.0, 0.0]), 100.0),
        Some(0.0)
    );
    assert_eq!(p.entry(&Flight::line([20.0, 0.0], [3.0, 0.0]), 100.0), None);
    // An open bottom edge at y = 80 under gravity 2 from rest at y = 30: sqrt(50).
    let f = Flight {
        p: [5.0, 30.0],
        v: [0.0, 0.0],
        a: [0.0, 2.0],
    };
    let got = edge_crossing(&f, 1, 80.0, true).unwrap();
    assert!(close(got, 50f64.sqrt(), 1e-14));
    assert_eq!(edge_crossing(&f, 1, 80.0, false), None);
    let got = edge_crossing(&Flight::line([5.0, 30.0], [-0.5, 0.0]), 0, 80.0, false);
    assert!(close(got.unwrap(), 10.0, 1e-14));
}

/// A small deterministic generator for the random cases.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next()
    }
}

/// Distance from `p` to the whole piece: its nearest point is always a contact feature
/// of a lone piece (no joints), so `touch` with unbounded reach gives it.
fn distance(piece: &Piece, p: [f64; 2]) -> f64 {
    piece.touch(0, p, f64::INFINITY).unwrap().distance
}

/// Against a brute-force search: sample the distance along the flight finely. The first
/// sample within reach brackets the first contact; a contact found between samples
/// (a graze shallower than a sample step can show) must still be a real touch.
fn check_against_samples(piece: &Piece, f: &Flight, r: f64, horizon: f64, case: usize) {
    let got = piece.impact(f, r, horizon);
    let samples = 20_000;
    let step = horizon / samples as f64;
    let first = (0..=samples)
        .map(|k| k as f64 * step)
        .find(|&t| distance(piece, f.at(t)) < r);
    // Positions here are of size 100: a contact is a touch to 1e-9 of a radius.
    let tol = 1e-9 * r;
    match (got, first) {
        (Some(t), _) => {
            let d = distance(piece, f.at(t));
            assert!(
                (d - r).abs() <= tol,
                "case {case}: at {t} distance {d}, r {r}"
            );
            // Nothing sampled before it is within reach (beyond a step's worth).
            if let Some(s) = first {
                assert!(t <= s + 1e-12, "case {case}: found {t}, sampled {s}");
            }
            // Moving in: just before, the ball is no closer.
            if t > 1e-9 {
                let before = distance(piece, f.at(t - 1e-7 * horizon));
                assert!(before >= r - tol, "case {case}: {before} before {t}");
            }
        }
        (None, Some(s)) => {
            panic!("case {case}: sampled within reach at {s}, no impact found")
        }
        (None, None) => {}
    }
}

#[test]
fn random_flights_agree_with_a_brute_force_search() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for case in 0..400 {
        let piece = if case % 2 == 0 {
            segment(
                [rng.range(20.0, 80.0), rng.range(20.0, 80.0)],
                [rng.range(20.0, 80.0), rng.range(20.0, 80.0)],
            )
        } else {
            let span = if case % 6 == 1 {
                TAU
            } else {
                rng.range(0.3, 6.0)
            };
            arc(
                [rng.range(40.0, 60.0), rng.range(40.0, 60.0)],
                rng.range(5.0, 30.0),
                rng.range(-PI, PI),
                span,
            )
        };
        let r = rng.range(0.5, 4.0);
        // A start clear of the piece.
        let mut p;
        loop {
            p = [rng.range(0.0, 100.0), rng.range(0.0, 100.0)];
            if distance(&piece, p) > r * 1.01 {
                break;
            }
        }
        let v = [rng.range(-20.0, 20.0), rng.range(-20.0, 20.0)];
        let a = if case % 4 < 2 {
            [0.0, 0.0]
        } else {
            [rng.range(-5.0, 5.0), rng.range(-5.0, 20.0)]
        };
        check_against_samples(&piece, &Flight { p, v, a }, r, 10.0, case);
    }
}
