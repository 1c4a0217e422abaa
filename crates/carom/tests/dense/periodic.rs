//! Periodic boundaries: wrapping and image counts, contacts across the edge, momentum
//! conservation without walls, thread independence, resuming bit for bit, and the
//! scenario's `table.boundary` with its errors.

use crate::common;
use carom::parse::{build_world, load, parse_scenario, Format};
use carom::Boundary;
use carom::ModelKind;
use carom::{Ball, Physics, Table, World};
use common::*;

/// A random elastic gas of `n` unit disks at area fraction `phi` in a periodic box.
fn gas_toml(model: &str, n: u64, phi: f64, boundary: &str) -> String {
    format!(
        r#"
name = "periodic gas"
[table]
boundary = {boundary}
[physics]
model = "{model}"
dt = 0.01
stiffness = 123.37005501361698
restitution = 1.0
[[generators]]
kind = "gas"
n = {n}
area_fraction = {phi}
r = 1.0
speed = 1.0
seed = 5
"#
    )
}

fn gas(model: &str, n: u64, phi: f64) -> World {
    load(&gas_toml(model, n, phi, "\"periodic\""), Format::Toml)
        .expect("gas scenario loads")
        .1
}

const MODELS: [&str; 4] = ["impulse", "spring", "simultaneous", "event"];

#[test]
fn a_ball_leaving_one_side_reenters_at_the_other_and_counts_the_crossing() {
    // Moving from x = 20 by 108 (to 128: three sides on) and from y = 15 by -39 (to -24: one side back): the unwrapped position is the free flight
    // x0 + v t exactly up to round-off, the wrapped one on the table.
    for model in ModelKind::ALL {
        let table = Table::periodic(40.0, 30.0);
        let p = Physics {
            dt: 0.1,
            ..physics(model)
        };
        let b = Ball::new(20.0, 15.0, 10.8, -3.9, 1.0, 1.0);
        let mut w = world(table, p, &[b]);
        w.run_steps(100).unwrap();
        let s = w.balls();
        let (ux, uy) = (
            s.x[0] + s.ix[0] as f64 * 40.0,
            s.y[0] + s.iy[0] as f64 * 30.0,
        );
        assert!((0.0..=40.0).contains(&s.x[0]), "{model:?}: x {}", s.x[0]);
        assert!((0.0..=30.0).contains(&s.y[0]), "{model:?}: y {}", s.y[0]);
        assert_eq!((s.ix[0], s.iy[0]), (3, -1), "{model:?}");
        // 100 additions of about 1 to a coordinate near 100: round-off ~1e-12.
        assert!((ux - (20.0 + 108.0)).abs() < 1e-9, "{model:?}: {ux}");
        assert!((uy - (15.0 - 39.0)).abs() < 1e-9, "{model:?}: {uy}");
    }
}

#[test]
fn balls_collide_across_the_edge_as_in_the_open() {
    // Two equal balls approach head-on across the periodic x edge; an elastic collision
    // of equal masses swaps their velocities, in every model (spring: within its
    // resolution, here some 2,200 steps per contact, so that the integrator's error in
    // the rebound speed, of order dt / T, stays under 1e-3; the others exactly).
    for model in ModelKind::ALL {
        let table = Table::new(50.0, 20.0).with_boundary([Boundary::Periodic, Boundary::Walls]);
        let spring = model == ModelKind::Spring;
        let p = Physics {
            dt: if spring { 0.0001 } else { 0.01 },
            stiffness: 100.0,
            ..physics(model)
        };
        let a = Ball::new(47.0, 10.0, 1.0, 0.0, 1.0, 1.0);
        let b = Ball::new(3.0, 10.0, -1.0, 0.0, 1.0, 1.0);
        let mut w = world(table, p, &[a, b]);
        // They meet after (6 - 2) / 2 = 2 time units; run to 4.
        w.run_steps(if spring { 40_000 } else { 400 }).unwrap();
        let s = w.balls();
        let tol = if spring { 1e-3 } else { 1e-12 };
        assert!((s.vx[0] + 1.0).abs() < tol, "{model:?}: {}", s.vx[0]);
        assert!((s.vx[1] - 1.0).abs() < tol, "{model:?}: {}", s.vx[1]);
        assert!(w.collisions() >= 1, "{model:?}");
        // Ball 0 bounced back and never crossed the edge.
        assert_eq!((s.ix[0], s.ix[1]), (0, 0), "{model:?}");
    }
}

#[test]
fn without_walls_every_model_conserves_momentum_to_round_off() {
    // Every ball-ball impulse or force pair is equal and opposite, and a periodic box
    // has nothing else: total momentum may move only by round-off, ~1e-16 per
    // interaction relative to the momentum scale sum m |v|; 1e-11 leaves room for the
    // ~10^4-10^5 interactions of the run.
    for model in MODELS {
        let mut w = gas(model, 500, 0.3);
        let d0 = w.diagnostics();
        w.run_steps(300).unwrap();
        let d1 = w.diagnostics();
        let drift = carom::momentum_drift(&d0, &d1);
        assert!(
            w.collisions() > 100,
            "{model}: only {} collisions",
            w.collisions()
        );
        assert!(drift < 1e-11, "{model}: momentum drift {drift:e}");
    }
}

#[test]
fn periodic_results_do_not_depend_on_the_thread_count() {
    for model in MODELS {
        let mut one = gas(model, 3000, 0.4);
        let mut two = gas(model, 3000, 0.4);
        two.set_threads(2).unwrap();
        one.run_steps(60).unwrap();
        two.run_steps(60).unwrap();
        let (a, b) = (one.balls(), two.balls());
        assert!(
            a.x == b.x && a.y == b.y && a.vx == b.vx && a.vy == b.vy,
            "{model}"
        );
        assert!(a.ix == b.ix && a.iy == b.iy, "{model}");
        assert_eq!(one.virial().to_bits(), two.virial().to_bits(), "{model}");
    }
}

#[test]
fn event_model_keeps_energy_and_leaves_no_overlap_in_a_periodic_gas() {
    // Elastic event-driven dynamics conserves energy to round-off; and no pair, across
    // the edges included (minimum image), may overlap by more than round-off.
    let mut w = gas("event", 800, 0.5);
    let e0 = w.diagnostics().total_energy;
    w.run_steps(200).unwrap();
    let e1 = w.diagnostics().total_energy;
    assert!(rel(e0, e1) < 1e-12, "{e0} -> {e1}");
    let b = w.balls();
    let t = *w.table();
    let mut worst: f64 = 0.0;
    for i in 0..b.len() {
        for j in i + 1..b.len() {
            let (dx, dy) = t.min_image(b.x[j] - b.x[i], b.y[j] - b.y[i]);
            worst = worst.max(2.0 - dx.hypot(dy));
        }
    }
    assert!(worst < 1e-9, "deepest overlap {worst:e}");
    assert!(
        b.ix.iter().chain(&b.iy).any(|&k| k != 0),
        "some ball must have crossed"
    );
}

/// The state file of `w` as JSON text, the way `--out` writes it.
fn state_json(w: &World) -> String {
    serde_json::to_string(&carom::state::snapshot(w, 1.0)).unwrap()
}

#[test]
fn a_resumed_periodic_run_continues_bit_for_bit() {
    // The state file carries the wrapped positions and the image counts; the stepped
    // models hold no state between steps beyond the balls (the neighbour lists are
    // caches that do not change results), so resuming reproduces the uninterrupted run.
    for model in ["impulse", "spring", "simultaneous"] {
        let mut straight = gas(model, 400, 0.4);
        straight.run_steps(150).unwrap();
        let mut first = gas(model, 400, 0.4);
        first.run_steps(70).unwrap();
        let text = state_json(&first);
        assert!(
            text.contains("\"ix\""),
            "{model}: image counts in the state file"
        );
        let mut resumed = load(&text, Format::Json).unwrap().1;
        assert_eq!(resumed.table().boundary, [Boundary::Periodic; 2]);
        resumed.run_steps(80).unwrap();
        let (a, b) = (straight.balls(), resumed.balls());
        assert!(
            a.x == b.x && a.y == b.y && a.vx == b.vx && a.vy == b.vy,
            "{model}"
        );
        assert!(a.ix == b.ix && a.iy == b.iy, "{model}");
    }
}

#[test]
fn walled_state_files_carry_no_image_counts_or_boundary() {
    let mut w = build_world(
        &parse_scenario(&gas_toml("spring", 50, 0.3, "\"walls\""), Format::Toml).unwrap(),
    )
    .unwrap();
    w.run_steps(10).unwrap();
    let text = state_json(&w);
    assert!(
        !text.contains("\"ix\"") && !text.contains("boundary"),
        "{text}"
    );
}

#[test]
fn boundary_accepts_one_word_or_one_per_axis() {
    for (text, want) in [
        ("\"walls\"", [Boundary::Walls; 2]),
        ("\"periodic\"", [Boundary::Periodic; 2]),
        (
            "[\"periodic\", \"walls\"]",
            [Boundary::Periodic, Boundary::Walls],
        ),
        (
            "[\"walls\", \"periodic\"]",
            [Boundary::Walls, Boundary::Periodic],
        ),
    ] {
        let (_, w) = load(&gas_toml("spring", 100, 0.3, text), Format::Toml).unwrap();
        assert_eq!(w.table().boundary, want, "{text}");
    }
    let json = r#"{"table": {"width": 100, "height": 50, "boundary": ["periodic", "walls"]},
                   "balls": [{"x": 99.5, "y": 25, "ix": 3}]}"#;
    let (_, w) = load(json, Format::Json).unwrap();
    assert_eq!(w.balls().ix[0], 3);
}

#[test]
fn bad_boundaries_are_one_line_errors_naming_the_field_and_line() {
    for bad in [
        "\"toroidal\"",
        "[\"periodic\"]",
        "[\"periodic\", \"walls\", \"walls\"]",
        "3",
    ] {
        let text = gas_toml("spring", 100, 0.3, bad);
        let e = load(&text, Format::Toml).unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("table.boundary"), "{bad}: {msg}");
        assert_eq!(e.line, Some(4), "{bad}: {msg}");
        assert!(!msg.contains('\n'), "{msg}");
    }
}

#[test]
fn a_too_short_periodic_side_is_refused_naming_it() {
    // Radius 10: four diameters are 80. A 70-wide periodic axis is refused, a walled
    // one of the same size is fine, and so is a periodic one of 80.5.
    let scene = |w: f64, boundary: &str| {
        format!(
            "[table]\nwidth = {w}\nheight = 200.0\nboundary = {boundary}\n[[balls]]\nx = 30.0\ny = 30.0\n"
        )
    };
    let e = load(&scene(70.0, "\"periodic\""), Format::Toml).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("table.width"), "{e}");
    assert!(e.to_string().contains("periodic"), "{e}");
    assert!(load(&scene(70.0, "\"walls\""), Format::Toml).is_ok());
    assert!(load(&scene(80.5, "\"periodic\""), Format::Toml).is_ok());
    let e = load(&scene(70.0, "[\"walls\", \"periodic\"]"), Format::Toml);
    assert!(e.is_ok(), "the height (200) is periodic and long enough");
}

#[test]
fn image_counts_on_a_walled_axis_are_refused() {
    let text = "[table]\nwidth = 100.0\nheight = 100.0\n[[balls]]\nx = 50.0\ny = 50.0\nix = 1\n";
    let e = load(text, Format::Toml).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("balls[0].ix"), "{e}");
}

#[test]
fn the_periodic_grid_finds_exactly_the_minimum_image_pairs_of_the_oracle() {
    // The O(N^2) oracle with minimum images, against the grid on tables of 1, 2, 3 and
    // many cells per axis (where the wrapped stencil must list each cell once), both
    // axes periodic or one.
    use carom::broadphase::Grid;
    let mut rng = carom::SplitMix64(9);
    for (side, n) in [(9.0, 6), (13.0, 10), (20.0, 30), (100.0, 600)] {
        for boundary in [
            [Boundary::Periodic; 2],
            [Boundary::Periodic, Boundary::Walls],
        ] {
            let table = Table::new(side, side * 0.9).with_boundary(boundary);
            let x: Vec<f64> = (0..n).map(|_| side * rng.unit()).collect();
            let y: Vec<f64> = (0..n).map(|_| 0.9 * side * rng.unit()).collect();
            let r: Vec<f64> = (0..n).map(|_| 0.5 + 0.5 * rng.unit()).collect();
            let slack = 0.3;
            let mut want = Vec::new();
            for i in 0..n {
                for j in i + 1..n {
                    let (dx, dy) = table.min_image(x[j] - x[i], y[j] - y[i]);
                    let reach = r[i] + r[j] + slack;
                    if dx * dx + dy * dy <= reach * reach {
                        want.push((i as u32, j as u32));
                    }
                }
            }
            let mut grid = Grid::new();
            grid.rebuild(&x, &y, 2.0 + slack, &table);
            let mut got = Vec::new();
            grid.touching_pairs(&x, &y, &r, slack, &mut got);
            assert_eq!(got, want, "side {side}, {boundary:?}");
            let mut candidates = Vec::new();
            grid.for_each_candidate_pair(|i, j| candidates.push((i.min(j), i.max(j))));
            let unique: std::collections::BTreeSet<_> = candidates.iter().copied().collect();
            assert_eq!(unique.len(), candidates.len(), "each candidate pair once");
            for p in &want {
                assert!(unique.contains(&(p.0 as usize, p.1 as usize)));
            }
        }
    }
}

#[test]
fn the_event_model_sees_a_pair_meet_again_through_another_image() {
    // Two equal balls (radius 5) on one line of a 100 x 100 periodic box, A moving at
    // 100 towards B at rest. Each elastic collision of equal masses hands the whole
    // velocity over, and the ball set moving goes round the box to strike the other
    // from behind, through the next image, with nothing in between: the same pair
    // meets again and again. First contact at (60 - 20 - 10) / 100 = 0.3; from one
    // contact to the next the mover goes round the box less the two diameters of the
    // gap closed on either side, 100 - 2 * 10 = 80 units, 0.8 time. Up to t = 10: at
    // 0.3 + 0.8 k for k = 0..=12, thirteen, the last (even k) handing the velocity to
    // B. Exactly one ball moves at every moment, so the unwrapped displacements add up
    // to 100 * 10. Sampled once (dt = 10, the balls read only at the end) and every
    // 0.05 (read and predicted afresh 200 times), the answer is the same.
    for dt in [10.0, 0.05] {
        let table = Table::periodic(100.0, 100.0);
        let p = Physics {
            dt,
            ..physics(ModelKind::Event)
        };
        let a = Ball::new(20.0, 50.0, 100.0, 0.0, 5.0, 1.0);
        let b = Ball::new(60.0, 50.0, 0.0, 0.0, 5.0, 1.0);
        let mut w = world(table, p, &[a, b]);
        let steps = (10.0 / dt).round() as u64;
        for _ in 0..steps {
            w.run_steps(1).unwrap();
            let s = w.balls();
            let (dx, dy) = table.min_image(s.x[1] - s.x[0], s.y[1] - s.y[0]);
            // Apart by a diameter at least, to round-off on coordinates of about 100.
            assert!(
                dx.hypot(dy) > 10.0 - 1e-9,
                "dt {dt}: overlap at t = {}",
                w.time
            );
        }
        assert_eq!(w.collisions(), 13, "dt {dt}");
        let s = w.balls();
        assert!(
            s.vx[0].abs() < 1e-9 && (s.vx[1] - 100.0).abs() < 1e-9,
            "dt {dt}"
        );
        let moved =
            (s.x[0] + 100.0 * s.ix[0] as f64 - 20.0) + (s.x[1] + 100.0 * s.ix[1] as f64 - 60.0);
        // Thirteen hand-overs and about 20 crossings, each exact to round-off near 100.
        assert!((moved - 1000.0).abs() < 1e-8, "dt {dt}: moved {moved}");
    }
}
