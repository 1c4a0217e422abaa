//! The walled presets are the scenes their descriptions claim, checked against the
//! physics each one is built to show.

use carom::parse::build_world;
use carom::presets::find;
use carom::World;

fn world(name: &str) -> World {
    let s = find(name).unwrap().scenario().unwrap();
    build_world(&s).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn run_for(w: &mut World, time: f64) {
    let steps = (time / w.physics().dt).round() as u64;
    w.run_steps(steps).unwrap();
}

/// Galton board: every ball ends in the bins, and their positions pile up as one hump
/// centred under the funnel. The board is mirror symmetric about x = 60 and the ball
/// lattice nearly so, so the mean sits at 60 within its standard error
/// `sd / sqrt(n)` (3 of them allowed), the skewness within 0.3 (about twice its
/// standard error sqrt(6 / n) = 0.14 for 300 independent balls), and few balls (under
/// 10%) lie more than two standard deviations out: a hump, not the spread of balls
/// over the whole board.
#[test]
fn galton_balls_collect_in_the_bins_as_one_central_hump() {
    let mut w = world("galton");
    let duration = find("galton").unwrap().scenario().unwrap().duration;
    run_for(&mut w, duration);
    let b = w.balls();
    let n = b.len();
    assert!((0..n).all(|i| b.y[i] > 146.0), "every ball in a bin");
    let xs: Vec<f64> = b.x.clone();
    let mean = xs.iter().sum::<f64>() / n as f64;
    let sd = (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64).sqrt();
    let skew = xs.iter().map(|x| ((x - mean) / sd).powi(3)).sum::<f64>() / n as f64;
    assert!(
        (mean - 60.0).abs() < 3.0 * sd / (n as f64).sqrt(),
        "mean {mean}, sd {sd}"
    );
    assert!(skew.abs() < 0.3, "skewness {skew}");
    let far = xs.iter().filter(|&&x| (x - mean).abs() > 2.0 * sd).count();
    assert!(far * 10 < n, "{far} of {n} balls beyond two sd ({sd})");
    // The pegs spread the stream: wider than the funnel's opening of 8.
    assert!(sd > 8.0, "sd {sd}");
}

/// Hopper: grains leave through the orifice and the open bottom, and only there: a
/// grain below the floor (y > 100) is falling from the orifice (x in 45..55), spread
/// at most by its sideways speed over the fall, never beside it as one that leaked
/// through a floor segment would be.
#[test]
fn hopper_grains_leave_only_through_the_orifice() {
    let mut w = world("hopper");
    let n = w.balls().len();
    run_for(&mut w, 6.0);
    let out = n - w.in_play_count();
    assert!(out > 100, "{out} grains left in 6 time units");
    let b = w.balls();
    for i in 0..n {
        if w.is_in_play(i) && b.y[i] > 101.0 {
            assert!(
                (30.0..70.0).contains(&b.x[i]),
                "grain {i} below the floor at x = {}",
                b.x[i]
            );
        }
        if let Some(r) = w.removal(i) {
            assert_eq!(r.by, carom::walls::Exit::Bottom, "grain {i}");
            assert!(
                (30.0..70.0).contains(&b.x[i]),
                "grain {i} left at x = {}",
                b.x[i]
            );
        }
    }
    assert_eq!(w.diagnostics().in_play, Some(w.in_play_count()));
}

/// Drum: the turning wall drags the bed the way its surface moves at the bottom (the
/// surface moves towards increasing angle, -x at the bottom), so the bed's centre of
/// mass shifts to the rising side, x < 50; and no grain leaves the drum.
#[test]
fn drum_carries_its_bed_up_the_rising_side() {
    let mut w = world("drum");
    run_for(&mut w, 30.0);
    let b = w.balls();
    let n = b.len();
    let com_x = b.x.iter().sum::<f64>() / n as f64;
    assert!(com_x < 47.0, "centre of mass at x = {com_x}");
    for i in 0..n {
        let d = (b.x[i] - 50.0).hypot(b.y[i] - 50.0);
        assert!(d < 45.0, "grain {i} at {d} from the drum's centre");
    }
}

/// Pool: the break spreads the rack and drops balls into pockets; no ball ever gets
/// past a cushion (every ball in play stays inside the cushions' noses, by a radius
/// less round-off), and the pocketed ones left through a pocket, not an edge.
#[test]
fn pool_break_pockets_balls_and_keeps_the_rest_on_the_cloth() {
    let mut w = world("pool");
    let e0 = w.diagnostics().total_energy;
    run_for(&mut w, 10.0);
    let b = w.balls();
    let gone: Vec<usize> = (0..b.len()).filter(|&i| !w.is_in_play(i)).collect();
    assert!(!gone.is_empty(), "the break pockets at least one ball");
    for &i in &gone {
        assert!(matches!(
            w.removal(i).unwrap().by,
            carom::walls::Exit::Pocket(_)
        ));
    }
    // Metres: the noses run at 0.1524 from the table's edges (6 in), balls of 57.15 mm.
    let r = 0.028575;
    for i in (0..b.len()).filter(|&i| w.is_in_play(i)) {
        let (x, y) = (b.x[i], b.y[i]);
        assert!(
            (0.1524 + r - 1e-9..=2.6924 - r + 1e-9).contains(&x)
                && (0.1524 + r - 1e-9..=1.4224 - r + 1e-9).contains(&y),
            "ball {i} at ({x}, {y}) is off the cloth"
        );
    }
    // Cloth, cushions and inelastic impacts only take energy: the balls still in play
    // hold less than the cue ball was given.
    assert!(
        w.diagnostics().total_energy < e0,
        "energy rose above the strike's {e0}"
    );
}

/// Stadium: elastic balls between the straight sides and the half circles conserve
/// energy to round-off and never leave it.
#[test]
fn stadium_conserves_energy_and_holds_its_balls() {
    let mut w = world("stadium");
    let e0 = w.diagnostics().total_energy;
    run_for(&mut w, 200.0);
    let e1 = w.diagnostics().total_energy;
    assert!(((e1 - e0) / e0).abs() < 1e-12, "{e0} -> {e1}");
    assert!(w.collisions() > 100, "{}", w.collisions());
    let b = w.balls();
    for i in 0..b.len() {
        let (x, y) = (b.x[i], b.y[i]);
        // Inside the stadium by a radius: between the sides, or within the half
        // circle of its end.
        let inside = if (90.0..=210.0).contains(&x) {
            (13.0 - 1e-9..=167.0 + 1e-9).contains(&y)
        } else {
            let cx = if x < 90.0 { 90.0 } else { 210.0 };
            (x - cx).hypot(y - 90.0) <= 77.0 + 1e-9
        };
        assert!(inside, "ball {i} at ({x}, {y})");
    }
}
