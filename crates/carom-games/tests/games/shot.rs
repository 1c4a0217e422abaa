//! Shots simulated to rest, against geometry and the closed forms of docs/pool.md.

use carom_games::setups::{GameKind, Setup};
use carom_games::shot::{simulate, Shot};
use carom_games::tables::{Table, TableKind};

fn table() -> Table {
    Table::new(TableKind::Pool9)
}

#[test]
fn a_straight_in_shot_pots_the_object_ball_in_the_corner_it_points_at() {
    let t = table();
    let k = t.pocket_index("top-right").unwrap() as u32;
    // The top-right corner pocket sits on the 45-degree line from the noses' corner
    // (x1, y0): an object ball on that line, the cue ball behind it on the same line,
    // struck centre-ball along it, sends the object ball along the line of centres
    // into the pocket (a full hit throws nothing).
    let (x1, y0) = (t.rail + t.length, t.rail);
    let layout = [(0, [x1 - 0.8, y0 + 0.8]), (5, [x1 - 0.4, y0 + 0.4])];
    let s = Setup::layout(GameKind::NineBall, t, &layout).unwrap();
    for speed in [1.0, 2.0, 3.0] {
        let out = simulate(&s, 0, &Shot::new(speed, -45.0)).unwrap();
        let f = out.facts;
        assert_eq!(f.first_contact, Some(5), "speed {speed}");
        assert!(
            f.pocketed.iter().any(|p| p.1 == 5 && p.2 == k),
            "speed {speed}: {:?}",
            f.pocketed
        );
        assert_eq!(f.positions.iter().find(|p| p.0 == 5).unwrap().1, None);
        // The rows are in time order.
        assert!(f.cushions.windows(2).all(|w| w[0].0 <= w[1].0));
    }
}

/// Time for a stun ball (no spin) leaving at `v0` to cover `d` on cloth: it slides
/// for `2 v0 / (7 mu_s g)` over `12 v0^2 / (49 mu_s g)`, then rolls at `5 v0 / 7`
/// decelerating at `mu_r g` (docs/pool.md).
fn arrival(v0: f64, d: f64, mu_s: f64, mu_r: f64, g: f64) -> f64 {
    let ts = 2.0 * v0 / (7.0 * mu_s * g);
    let ds = 12.0 * v0 * v0 / (49.0 * mu_s * g);
    assert!(d > ds);
    let (v, a) = (5.0 * v0 / 7.0, mu_r * g);
    // d - ds = v t - a t^2 / 2, the earlier root.
    ts + (v - (v * v - 2.0 * a * (d - ds)).sqrt()) / a
}

#[test]
fn a_lone_cue_ball_meets_the_foot_cushion_when_the_closed_form_says() {
    let t = table();
    let c = t.center();
    let r = t.balls.radius;
    let nose = t.rail + 100.0 * 0.0254;
    let s = Setup::layout(GameKind::NineBall, t.clone(), &[(0, c)]).unwrap();
    let speed = 1.0;
    let f = simulate(&s, 0, &Shot::new(speed, 0.0)).unwrap().facts;
    assert_eq!(f.first_contact, None);
    assert!(f.pocketed.is_empty());
    let first = f.cushions[0];
    assert_eq!(first.1, 0);
    // A centre-ball cue of mass ratio M/m = 10/3 sends the ball off at
    // 2 V / (1 + m / M) (docs/pool.md); the ball's edge meets the nose.
    let v0 = 2.0 * speed / (1.0 + 3.0 / 10.0);
    let expect = arrival(v0, nose - r - c[0], 0.2, 0.01, 9.81);
    // The event model times the impact by root finding on the exact polynomial path:
    // agreement to round-off, 1e-9 s leaves room for the solver's tolerance.
    assert!((first.0 - expect).abs() < 1e-9, "{} vs {expect}", first.0);
}

#[test]
fn a_cue_ball_shot_into_a_corner_is_a_scratch() {
    let t = table();
    let (x0, y0) = (t.rail, t.rail);
    let s = Setup::layout(GameKind::NineBall, t.clone(), &[(0, [x0 + 0.5, y0 + 0.5])]).unwrap();
    let f = simulate(&s, 0, &Shot::new(2.0, -135.0)).unwrap().facts;
    let k = t.pocket_index("top-left").unwrap() as u32;
    assert_eq!(f.pocketed.len(), 1);
    assert_eq!((f.pocketed[0].1, f.pocketed[0].2), (0, k));
    assert_eq!(f.first_contact, None);
}

#[test]
fn the_same_shot_gives_the_same_facts_to_the_bit() {
    let s = Setup::new(GameKind::NineBall, 4);
    let shot = Shot {
        speed: 6.0,
        aim: 0.5,
        english: 0.1,
        follow: -0.2,
        elevation: 5.0,
    };
    let a = simulate(&s, 0, &shot).unwrap();
    let b = simulate(&s, 0, &shot).unwrap();
    assert_eq!(a.facts, b.facts);
    // The break meets the 1 (the apex, straight ahead) first.
    assert_eq!(a.facts.first_contact, Some(1));
}

#[test]
fn bad_shot_numbers_name_their_field() {
    let s = Setup::new(GameKind::NineBall, 1);
    let bad = |shot: Shot| simulate(&s, 0, &shot).unwrap_err().field;
    let ok = Shot::new(2.0, 0.0);
    assert_eq!(
        bad(Shot {
            speed: f64::NAN,
            ..ok
        }),
        "speed"
    );
    assert_eq!(bad(Shot { speed: -1.0, ..ok }), "speed");
    assert_eq!(bad(Shot { speed: 16.0, ..ok }), "speed");
    assert_eq!(
        bad(Shot {
            aim: f64::INFINITY,
            ..ok
        }),
        "aim"
    );
    assert_eq!(
        bad(Shot {
            english: 0.8,
            follow: 0.8,
            ..ok
        }),
        "english"
    );
    assert_eq!(
        bad(Shot {
            elevation: 90.0,
            ..ok
        }),
        "elevation"
    );
    assert_eq!(
        bad(Shot {
            elevation: -1.0,
            ..ok
        }),
        "elevation"
    );
    let e = simulate(&s, 12, &ok).unwrap_err();
    assert_eq!(e.field, "cue");
    assert!(!e.to_string().contains('\n'));
}
