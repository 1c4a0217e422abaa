//! A break that leaves a ball rolling along a cushion, touching it: the shot ends (the
//! engine's prediction and impact judge the round-off across the cushion alike, see
//! the event model's `on_cloth.rs`), with that ball at rest against the cushion.

use carom::event_log::EventKind;
use carom_games::{Game, GameKind, Shot};

/// Rack 193's break as the search player played it at `pro` noise (the cue ball on the
/// head spot, 8.09 m/s of cue full on the apex ball, the noise's aim, english and
/// follow): the 1 ends rolling along the left cushion at 4 mm/s, meets it softly
/// (2 mm/s across it) and stops against it. Every ball left on the table is at rest,
/// none overlaps another or lies beyond a cushion's nose by more than round-off (1e-9
/// of a radius), and the 1 touches the left cushion's nose to round-off.
#[test]
fn a_break_leaving_a_ball_rolling_along_a_cushion_ends_with_it_against_the_cushion() {
    let mut g = Game::new(GameKind::NineBall, 193);
    let head = g.table.head_spot();
    g.place_cue_ball(head[0], head[1]).unwrap();
    // The 1's index in the engine's log: its place in the position shot from.
    let i = g.setup().balls.iter().position(|b| b.0 == 1).unwrap() as u32;
    let shot = Shot {
        speed: 8.087243856304307,
        aim: -0.17691005001912774,
        english: 0.019752172530436558,
        follow: 0.002232857675837744,
        elevation: 0.0,
    };
    let out = g.shoot(&shot, None).unwrap();
    let t = &g.table;
    let r = t.balls.radius;
    let tol = 1e-9 * r;
    let on_table: Vec<(u32, [f64; 2])> = out
        .facts
        .positions
        .iter()
        .filter_map(|&(n, p)| p.map(|p| (n, p)))
        .collect();
    for (k, &(n, p)) in on_table.iter().enumerate() {
        assert!(
            p[0] >= t.rail + r - tol
                && p[0] <= t.rail + t.length - r + tol
                && p[1] >= t.rail + r - tol
                && p[1] <= t.rail + t.width - r + tol,
            "ball {n} at {p:?} is beyond a cushion"
        );
        for &(m, q) in &on_table[k + 1..] {
            let d = (p[0] - q[0]).hypot(p[1] - q[1]);
            assert!(d >= 2.0 * r - tol, "balls {n} and {m} overlap: {d}");
        }
    }
    let one = on_table
        .iter()
        .find(|b| b.0 == 1)
        .expect("the 1 stays on the table")
        .1;
    assert!(
        (one[0] - (t.rail + r)).abs() <= tol,
        "the 1 at {one:?} touches the left cushion"
    );
    // Its last cushion impact is the soft one that leaves it rolling along the cushion.
    let last = out
        .events
        .iter()
        .rfind(|e| e.kind == EventKind::Wall && e.i == i)
        .unwrap();
    assert!(last.approach < 0.0095, "{last:?}");
    assert!(
        out.facts.duration < 20.0,
        "ended after {} s",
        out.facts.duration
    );
}
