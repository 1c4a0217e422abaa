//! Racks and starting positions against the rules' texts (WPA, WPBSA, UMB) and the
//! documented rack gap.

use carom_games::setups::{is_stripe, GameKind, Setup, SnookerSpots, RACK_GAP};
use carom_games::tables::{Table, TableKind};

fn pos(s: &Setup, n: u32) -> [f64; 2] {
    s.balls.iter().find(|b| b.0 == n).unwrap().1
}

fn dist(a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

/// The foot spot from the WPA's definition: on the long axis, a quarter of the
/// playing length from the foot cushion (the playing surface of a 9-ft table, 100 x 50
/// in, starts at the table's rail).
fn foot_spot(t: &Table) -> [f64; 2] {
    [t.rail + 0.75 * 100.0 * 0.0254, t.rail + 0.5 * 50.0 * 0.0254]
}

/// A ball is moved at most 0.45 gaps from its lattice point, so two lattice
/// neighbours (lattice distance `2 r + g`) are between `2 r + 0.1 g` and `2 r + 1.9 g`
/// apart, and a ball is within 0.45 g of its place.
const JITTER: f64 = 0.45 * RACK_GAP;

/// Where rack place (row `k`, the `i`-th of `count`) lies on an ideal tight rack from
/// the apex (spacing `2 r + g`).
fn lattice(apex: [f64; 2], r: f64, k: usize, i: usize, count: usize) -> [f64; 2] {
    let s = 2.0 * r + RACK_GAP;
    [
        apex[0] + k as f64 * s * 3f64.sqrt() / 2.0,
        apex[1] + (i as f64 - 0.5 * (count as f64 - 1.0)) * s,
    ]
}

/// Every pair: no overlap; lattice neighbours no farther than `2 r + 1.9 g`.
fn tight_and_clear(balls: &[(u32, [f64; 2])], r: f64) {
    for (k, a) in balls.iter().enumerate() {
        let mut nearest = f64::MAX;
        for (m, b) in balls.iter().enumerate() {
            if k != m {
                let d = dist(a.1, b.1);
                assert!(
                    d >= 2.0 * r + 0.1 * RACK_GAP - 1e-12,
                    "{} {} overlap",
                    a.0,
                    b.0
                );
                nearest = nearest.min(d);
            }
        }
        assert!(
            nearest <= 2.0 * r + 1.9 * RACK_GAP + 1e-12,
            "ball {} loose",
            a.0
        );
    }
}

#[test]
fn nine_ball_one_on_the_foot_spot_nine_in_the_centre_of_the_diamond() {
    for seed in 0..20 {
        let s = Setup::new(GameKind::NineBall, seed);
        let t = &s.table;
        assert_eq!(t.kind, TableKind::Pool9);
        let r = t.balls.radius;
        assert_eq!(s.balls.len(), 10);
        assert_eq!(s.balls[0].0, 0);
        // WPA 9-ball: the 1 at the apex on the foot spot, the 9 in the centre.
        let apex = foot_spot(t);
        assert!(dist(pos(&s, 1), apex) < 1e-12);
        assert!(dist(pos(&s, 9), lattice(apex, r, 2, 1, 3)) <= JITTER + 1e-12);
        let objects: Vec<_> = s.balls[1..].to_vec();
        tight_and_clear(&objects, r);
        // Every ball of the set once.
        let mut ns: Vec<u32> = s.balls.iter().map(|b| b.0).collect();
        ns.sort();
        assert_eq!(ns, (0..=9).collect::<Vec<_>>());
        // The cue ball behind the head string (a quarter of the length from the head).
        assert!(pos(&s, 0)[0] <= t.rail + 0.25 * 100.0 * 0.0254 + 1e-12);
    }
}

#[test]
fn ten_ball_ten_in_the_middle_of_the_third_row() {
    for seed in 0..20 {
        let s = Setup::new(GameKind::TenBall, seed);
        let r = s.table.balls.radius;
        let apex = foot_spot(&s.table);
        assert!(dist(pos(&s, 1), apex) < 1e-12);
        assert!(dist(pos(&s, 10), lattice(apex, r, 2, 1, 3)) <= JITTER + 1e-12);
        tight_and_clear(&s.balls[1..], r);
        assert_eq!(s.balls.len(), 11);
    }
}

#[test]
fn eight_ball_eight_in_the_centre_a_stripe_and_a_solid_in_the_back_corners() {
    for seed in 0..20 {
        let s = Setup::new(GameKind::EightBall, seed);
        let r = s.table.balls.radius;
        let apex = foot_spot(&s.table);
        assert!(s.balls[1..].iter().any(|b| dist(b.1, apex) < 1e-12));
        assert!(dist(pos(&s, 8), lattice(apex, r, 2, 1, 3)) <= JITTER + 1e-12);
        let corner = |i| {
            let p = lattice(apex, r, 4, i, 5);
            s.balls
                .iter()
                .find(|b| dist(b.1, p) <= JITTER + 1e-12)
                .unwrap()
                .0
        };
        let (a, b) = (corner(0), corner(4));
        assert!(is_stripe(a) != is_stripe(b), "corners {a} and {b}");
        assert!(a != 8 && b != 8);
        tight_and_clear(&s.balls[1..], r);
        assert_eq!(s.balls.len(), 16);
    }
}

#[test]
fn the_same_seed_racks_the_same_and_seeds_differ() {
    for g in GameKind::ALL {
        assert_eq!(Setup::new(g, 7), Setup::new(g, 7));
    }
    // Seven random balls of the nine-ball rack: 5040 orders, so 10 seeds all alike
    // would happen by chance with probability below 1e-30.
    let orders: Vec<Vec<u32>> = (0..10)
        .map(|seed| {
            Setup::new(GameKind::NineBall, seed)
                .balls
                .iter()
                .map(|b| b.0)
                .collect()
        })
        .collect();
    assert!(orders.iter().any(|o| *o != orders[0]));
}

#[test]
fn snooker_colours_on_their_spots_reds_behind_the_pink() {
    let s = Setup::new(GameKind::Snooker, 3);
    let t = &s.table;
    let r = t.balls.radius;
    let spots = SnookerSpots::of(t);
    assert_eq!(s.balls.len(), 22);
    for (n, spot) in [
        (16, spots.yellow),
        (17, spots.green),
        (18, spots.brown),
        (19, spots.blue),
        (20, spots.pink),
        (21, spots.black),
    ] {
        assert_eq!(pos(&s, n), spot);
    }
    // WPBSA: the apex red as near the pink as possible without touching it, the reds
    // a triangle behind it.
    let reds: Vec<_> = s
        .balls
        .iter()
        .filter(|b| (1..=15).contains(&b.0))
        .cloned()
        .collect();
    assert_eq!(reds.len(), 15);
    let nearest = reds
        .iter()
        .map(|b| dist(b.1, spots.pink))
        .fold(f64::MAX, f64::min);
    assert!(
        nearest > 2.0 * r && nearest <= 2.0 * r + 2.0 * RACK_GAP,
        "{nearest}"
    );
    assert!(reds.iter().all(|b| b.1[0] > spots.pink[0]));
    tight_and_clear(&reds, r);
    // The cue ball starts in the D.
    assert!(spots.in_d(pos(&s, 0), t.center()[1]));
}

#[test]
fn three_cushion_break_position_is_umb_s() {
    let s = Setup::new(GameKind::ThreeCushion, 0);
    let t = &s.table;
    // UMB: the red on the foot spot, the opponent's ball on the head spot, the
    // breaker's on the head string 182 mm to the side.
    let head = [t.rail + 2.84 / 4.0, t.rail + 0.71];
    let foot = [t.rail + 3.0 * 2.84 / 4.0, t.rail + 0.71];
    assert!(dist(pos(&s, 2), foot) < 1e-12);
    assert!(dist(pos(&s, 1), head) < 1e-12);
    assert!((pos(&s, 0)[0] - head[0]).abs() < 1e-12);
    assert!(((pos(&s, 0)[1] - head[1]).abs() - 0.182).abs() < 1e-12);
}

#[test]
fn sum_to_three_places_two_balls_apart_on_the_surface() {
    for seed in 0..50 {
        let s = Setup::new(GameKind::SumToThree, seed);
        let r = s.table.balls.radius;
        assert_eq!(s.balls.len(), 2);
        assert!(dist(s.balls[0].1, s.balls[1].1) >= 4.0 * r);
        assert!(s.balls.iter().all(|b| s.table.on_surface(b.1)));
    }
}

#[test]
fn every_setup_builds_in_the_engine() {
    for g in GameKind::ALL {
        carom::parse::build_world(&Setup::new(g, 1).scenario()).unwrap();
    }
}

#[test]
fn layouts_are_checked() {
    let t = || Table::new(TableKind::Pool9);
    let c = t().center();
    let r = t().balls.radius;
    let ok = Setup::layout(GameKind::NineBall, t(), &[(9, [c[0] + 0.3, c[1]]), (0, c)]).unwrap();
    assert_eq!(ok.balls[0].0, 0);
    let err =
        |balls: &[(u32, [f64; 2])]| Setup::layout(GameKind::NineBall, t(), balls).unwrap_err();
    assert!(err(&[(0, c), (10, [c[0] + 0.3, c[1]])]).contains("ball 10"));
    assert!(err(&[(0, c), (1, [c[0] + 1.9 * r, c[1]])]).contains("overlaps"));
    assert!(err(&[(0, [0.0, 0.0])]).contains("not on the playing surface"));
    assert!(err(&[(0, [f64::NAN, 0.5])]).contains("not on the playing surface"));
    assert!(err(&[(1, c)]).contains("ball 0 is missing"));
    assert!(err(&[(0, c), (0, [c[0] + 0.3, c[1]])]).contains("twice"));
    // Touching is allowed.
    Setup::layout(
        GameKind::NineBall,
        t(),
        &[(0, c), (1, [c[0] + 2.0 * r, c[1]])],
    )
    .unwrap();
}
