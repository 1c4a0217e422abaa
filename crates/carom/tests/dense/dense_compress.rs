//! Compression (`physics.compress`) in the event model: Lubachevsky-Stillinger growth.
//! A growing pair meets at the analytic time, energy is conserved to round-off without
//! growth, a compression stops at its target area fraction to round-off or when the
//! packing jams, and it continues bit for bit from a state file and on any thread
//! count. (Without the key the event model is untouched: `friction_off.rs` and
//! `event.rs` pin its results.)

use carom::models::growing_disks::Grow;
use carom::models::{CollisionModel, StepContext};
use carom::parse::{build_world, load, parse_scenario, Format};
use carom::StopReason;
use carom::World;

use crate::common;

/// Two unit disks 20 apart on a line, approaching at 1, growing at rate 0.01 in a
/// large walled box: the gap `20 - 2` closes at the approach speed plus the contact
/// distance's growth, `sigma_dot = (1 + 1) 0.01 = 0.02` (constant: every radius grows
/// at `r_0 rate`), so they meet at `t_c = 18 / 1.02`. The impact turns the normal
/// relative velocity `u = -1` into `sigma_dot - (u - sigma_dot) = 1.04`, shared
/// equally (equal masses): `-0.52` and `+0.52`. One output interval of 20 holds the
/// impact; its end rescales the velocities, not the positions, so the positions at
/// t = 20 are the analytic ones. Tolerance: a handful of ulps of numbers near 50.
#[test]
fn a_growing_pair_meets_at_the_analytic_time() {
    let text = r#"
[table]
width = 100.0
height = 100.0
[physics]
model = "event"
dt = 20.0
compress = { rate = 0.01 }
[[balls]]
x = 40.0
y = 50.0
vx = 0.5
r = 1.0
[[balls]]
x = 60.0
y = 50.0
vx = -0.5
r = 1.0
"#;
    let mut w = load(text, Format::Toml).unwrap().1;
    w.step().unwrap();
    let tc = 18.0 / 1.02;
    let b = w.balls();
    let xi = 40.0 + 0.5 * tc - 0.52 * (20.0 - tc);
    let xj = 60.0 - 0.5 * tc + 0.52 * (20.0 - tc);
    assert!((b.x[0] - xi).abs() < 1e-12, "{} vs {xi}", b.x[0]);
    assert!((b.x[1] - xj).abs() < 1e-12, "{} vs {xj}", b.x[1]);
    assert_eq!(w.collisions(), 1);
    // Radii 1 + 0.01 * 20, to round-off.
    assert!((b.r[0] - 1.2).abs() < 1e-15 && (b.r[1] - 1.2).abs() < 1e-15);
    // The temperature held: each ball at speed 0.5 again.
    assert!((b.vx[0] + 0.5).abs() < 1e-15 && (b.vx[1] - 0.5).abs() < 1e-15);
}

/// A gas of `n` bidisperse (1:1.4) disks at area fraction 0.5 in a periodic box,
/// compressed at `rate` until `until`.
fn gas(n: u64, rate: f64, until: &str, dt: f64, seed: u64) -> String {
    format!(
        r#"name = "compressed gas"
[table]
boundary = "periodic"
[physics]
model = "event"
dt = {dt}
compress = {{ rate = {rate}, until = {until} }}
[[generators]]
kind = "gas"
n = {n}
area_fraction = 0.5
radii = {{ kind = "bidisperse", ratio = 1.4, fraction = 0.5 }}
seed = {seed}
"#
    )
}

fn kinetic(w: &World) -> f64 {
    let b = w.balls();
    (0..b.len())
        .map(|i| 0.5 * b.m[i] * (b.vx[i] * b.vx[i] + b.vy[i] * b.vy[i]))
        .sum()
}

/// Without growth the growing model is plain elastic hard disks: kinetic energy is
/// conserved by every impact to round-off. Thousands of impacts of 400 disks, each
/// changing energy by a few ulps: 1e-12 relative is far above that and far below any
/// error of the impact rule (which would be of order one impact's share, 1e-3).
#[test]
fn energy_is_conserved_to_round_off_without_growth() {
    let w = load(&gas(400, 0.01, "{}", 1.0, 3), Format::Toml).unwrap().1;
    let mut balls = w.balls().clone();
    let (table, physics) = (*w.table(), *w.physics());
    let before = kinetic(&w);
    let mut model = Grow::new();
    model.set_growth(carom::models::growing_disks::Growth {
        rate: 0.0,
        len: 5.0,
        temperature: 0.0,
        pressure_bound: f64::INFINITY,
    });
    model
        .step(StepContext {
            balls: &mut balls,
            table: &table,
            physics: &physics,
            pool: None,
            walls: &carom::Walls::none(),
            in_play: None,
        })
        .unwrap();
    let after: f64 = (0..balls.len())
        .map(|i| 0.5 * balls.m[i] * (balls.vx[i].powi(2) + balls.vy[i].powi(2)))
        .sum();
    assert!(
        model.collisions() > 1000,
        "{} collisions",
        model.collisions()
    );
    assert!((after / before - 1.0).abs() < 1e-12, "{before} -> {after}");
    // The radii did not change.
    assert_eq!(balls.r, w.balls().r);
}

/// No two disks overlap by more than round-off (1e-9 of their contact distance), by
/// the minimum image in the periodic box: checked pair by pair.
fn assert_no_overlap(w: &World) {
    let (b, t) = (w.balls(), w.table());
    for i in 0..b.len() {
        for j in i + 1..b.len() {
            let (dx, dy) = t.min_image(b.x[j] - b.x[i], b.y[j] - b.y[i]);
            let s = b.r[i] + b.r[j];
            assert!(
                (dx * dx + dy * dy).sqrt() > s * (1.0 - 1e-9),
                "balls {i} and {j} overlap"
            );
        }
    }
}

/// From area fraction 0.5 to 0.7: the area fraction grows as `g^2`, so the stop is at
/// `t = (sqrt(0.7 / 0.5) - 1) / rate`; there the area fraction is 0.7 to round-off
/// (1e-12: a sum of 300 areas and a square root), the time is the analytic one to the
/// round-off of adding the steps (1e-12 relative), every radius has grown by the same
/// factor `sqrt(1.4)`, nothing overlaps, and the run stopped at that step.
#[test]
fn compression_stops_at_the_target_to_round_off() {
    let rate = 0.02;
    let s = parse_scenario(
        &gas(300, rate, "{ area_fraction = 0.7 }", 0.5, 5),
        Format::Toml,
    )
    .unwrap();
    let mut w = build_world(&s).unwrap();
    let r0 = w.balls().r.clone();
    w.run_steps(10_000).unwrap();
    let (spec, p) = w.compression().unwrap();
    assert_eq!(p.stopped, Some(StopReason::AreaFraction));
    let t = (1.4f64.sqrt() - 1.0) / rate;
    assert!((w.time / t - 1.0).abs() < 1e-12, "{} vs {t}", w.time);
    assert_eq!(spec.origin, Some(0.0));
    let phi = w.diagnostics().packing_fraction;
    assert!((phi - 0.7).abs() < 1e-12, "area fraction {phi}");
    assert!((p.area_fraction - 0.7).abs() < 1e-12);
    for (r, r0) in w.balls().r.iter().zip(&r0) {
        assert!((r / r0 - 1.4f64.sqrt()).abs() < 1e-12);
    }
    assert_no_overlap(&w);
    // The run stopped at the step that reached it (steps of 0.5 from 0).
    assert_eq!(w.steps, (t / 0.5).ceil() as u64);
    // The state file is an ordinary scene: no compression left in it, the stop noted.
    let state = carom::state::snapshot(&w, 1.0);
    assert_eq!(state.physics.compress, None);
    assert_eq!(
        state.compression.unwrap().stopped,
        Some(StopReason::AreaFraction)
    );
    let text = serde_json::to_string(&state).unwrap();
    let mut again = build_world(&parse_scenario(&text, Format::Json).unwrap()).unwrap();
    assert!(again.compression().is_none());
    again.run_steps(2).unwrap();
    assert_eq!(again.balls().r, w.balls().r);
}

/// A small bidisperse packing compressed until the reduced pressure passes 10^4:
/// jammed. Near jamming the free-volume law `Z ~ 2 phi_J / (phi_J - phi)` puts the
/// packing within 2e-4 of its jamming point, which for this mixture lies between
/// random loose values (0.80, fast compressions of small systems) and below the
/// triangular crystal's 0.9069 that no packing of disks exceeds.
#[test]
fn a_packing_that_jams_stops_with_its_pressure_above_the_bound() {
    let s = parse_scenario(&gas(64, 0.05, "{ pressure = 1e4 }", 0.02, 7), Format::Toml).unwrap();
    let mut w = build_world(&s).unwrap();
    w.run_steps(1_000_000).unwrap();
    let (_, p) = w.compression().unwrap();
    assert_eq!(p.stopped, Some(StopReason::Jammed));
    assert!(p.reduced_pressure > 1e4, "Z = {}", p.reduced_pressure);
    let phi = w.diagnostics().packing_fraction;
    assert!(phi > 0.80 && phi < 0.9069, "jammed at {phi}");
    assert_no_overlap(&w);
}

fn same_bits(a: &World, b: &World, what: &str) {
    let (p, q) = (a.balls(), b.balls());
    for (name, u, v) in [
        ("x", &p.x, &q.x),
        ("y", &p.y, &q.y),
        ("vx", &p.vx, &q.vx),
        ("vy", &p.vy, &q.vy),
        ("r", &p.r, &q.r),
    ] {
        for i in 0..u.len() {
            assert_eq!(u[i].to_bits(), v[i].to_bits(), "{what}: ball {i} {name}");
        }
    }
    assert_eq!(p.ix, q.ix, "{what}: image counts");
    assert_eq!(a.time.to_bits(), b.time.to_bits(), "{what}: time");
}

/// 25 steps, a state file, 25 more from it: the run of 50 steps, bit for bit, radii
/// included. The state file holds the compression's origin and temperature.
#[test]
fn a_resumed_compression_continues_bit_for_bit() {
    let s = parse_scenario(
        &gas(300, 0.01, "{ area_fraction = 0.8 }", 0.2, 9),
        Format::Toml,
    )
    .unwrap();
    let mut whole = build_world(&s).unwrap();
    whole.run_steps(50).unwrap();
    assert!(whole.compression_running());
    let mut first = build_world(&s).unwrap();
    first.run_steps(25).unwrap();
    let text = serde_json::to_string_pretty(&carom::state::snapshot(&first, 1.0)).unwrap();
    let resumed_s = parse_scenario(&text, Format::Json).unwrap();
    assert_eq!(
        resumed_s.physics.compress.map(|c| c.origin),
        Some(Some(0.0))
    );
    let mut resumed = build_world(&resumed_s).unwrap();
    assert_eq!(
        resumed.compression().unwrap().0,
        first.compression().unwrap().0
    );
    resumed.run_steps(25).unwrap();
    same_bits(&whole, &resumed, "resumed");
    assert_eq!(
        whole.collisions(),
        first.collisions() + resumed.collisions()
    );
}

#[test]
fn one_and_two_threads_give_the_same_compression() {
    let s = parse_scenario(
        &gas(300, 0.01, "{ area_fraction = 0.8 }", 0.2, 4),
        Format::Toml,
    )
    .unwrap();
    let mut one = build_world(&s).unwrap();
    let mut two = build_world(&s).unwrap();
    two.set_threads(2).unwrap();
    one.run_steps(40).unwrap();
    two.run_steps(40).unwrap();
    same_bits(&one, &two, "threads");
    assert_eq!(one.collisions(), two.collisions());
}

#[test]
fn bad_compressions_name_the_key() {
    let periodic = |compress: &str, extra: &str| {
        format!(
            "[table]\nboundary = \"periodic\"\n[physics]\nmodel = \"event\"\n{extra}compress = {compress}\n\
             [[generators]]\nkind = \"gas\"\nn = 100\narea_fraction = 0.5\nseed = 1\n"
        )
    };
    for (c, extra, key) in [
        ("{ rate = 0.0 }", "", "physics.compress.rate"),
        ("{ rate = -1.0 }", "", "physics.compress.rate"),
        ("{ rate = nan }", "", "physics.compress.rate"),
        ("{ rate = inf }", "", "physics.compress.rate"),
        (
            "{ rate = 1.0, until = { area_fraction = 1.0 } }",
            "",
            "physics.compress.until.area_fraction",
        ),
        (
            "{ rate = 1.0, until = { area_fraction = 0.0 } }",
            "",
            "physics.compress.until.area_fraction",
        ),
        (
            "{ rate = 1.0, until = { area_fraction = -0.5 } }",
            "",
            "physics.compress.until.area_fraction",
        ),
        (
            "{ rate = 1.0, until = { area_fraction = 0.3 } }",
            "",
            "physics.compress.until.area_fraction",
        ),
        (
            "{ rate = 1.0, until = { pressure = 0.5 } }",
            "",
            "physics.compress.until.pressure",
        ),
        (
            "{ rate = 1.0, temperature = 0.0 }",
            "",
            "physics.compress.temperature",
        ),
        (
            "{ rate = 1.0, until = { size = 2 } }",
            "",
            "physics.compress",
        ),
        ("{ rat = 1.0 }", "", "physics.compress"),
        (
            "{ rate = 1.0 }",
            "model = \"spring\"\ngravity = [0.0, -1.0]\n",
            "physics.compress",
        ),
        ("{ rate = 1.0 }", "restitution = 0.9\n", "physics.compress"),
    ] {
        let text = periodic(c, extra).replace("model = \"event\"\nmodel", "model");
        let e = load(&text, Format::Toml).unwrap_err().to_string();
        assert!(e.contains(key), "{c} {extra}: {e}");
        assert_eq!(e.lines().count(), 1, "{e}");
    }
}

/// A gas asked for above what random placement reaches: 400 bidisperse disks at area
/// fraction 0.80, placed at 0.5 and compressed into place. No overlap (pair by pair),
/// the area fraction 0.80 to round-off (1e-12: the sum of 400 areas and the stop's
/// square root), the number fraction exactly the requested 200 small ones, and every
/// radius the drawn `r` or `1.4 r` to round-off; the same seed gives the same bits.
#[test]
fn a_bidisperse_gas_at_0_80_is_compressed_into_place() {
    let text = r#"[table]
boundary = "periodic"
[physics]
model = "event"
[[generators]]
kind = "gas"
n = 400
r = 1.0
area_fraction = 0.8
radii = { kind = "bidisperse", ratio = 1.4, fraction = 0.5 }
seed = 2
"#;
    let w = load(text, Format::Toml).unwrap().1;
    let phi = w.diagnostics().packing_fraction;
    assert!((phi - 0.8).abs() < 1e-12, "area fraction {phi}");
    assert_no_overlap(&w);
    let b = w.balls();
    let small = b.r.iter().filter(|&&r| (r - 1.0).abs() < 1e-12).count();
    let large = b.r.iter().filter(|&&r| (r - 1.4).abs() < 1e-12).count();
    assert_eq!((small, large), (200, 200));
    // Masses of the drawn radii, r^2.
    for (m, r) in b.m.iter().zip(&b.r) {
        assert!((m - r * r).abs() < 1e-12);
    }
    let again = load(text, Format::Toml).unwrap().1;
    same_bits(&w, &again, "same seed");
    // A target beyond the mixture's jamming point is bad input naming the key.
    let e = load(&text.replace("0.8\n", "0.86\n"), Format::Toml)
        .unwrap_err()
        .to_string();
    assert!(e.contains("generators[0].area_fraction"), "{e}");
}

/// The predictions miss no contact: a compression that takes many crossings and
/// impacts (200 disks from area fraction 0.3 to 0.7 at rate 0.01: 106 steps of 0.5,
/// each disk in some hundred impacts and as many cell crossings, more than 50 impacts
/// each asserted) leaves no pair overlapping and no disk through a wall at any step's
/// end, in a walled box (cells at the walls have fewer neighbours) and in a periodic
/// one (neighbours across the edges). A missed contact lets a pair pass into each
/// other, an overlap of the order of a radius, far beyond the round-off allowed (1e-9
/// of a contact distance).
#[test]
fn no_contact_is_missed_while_compressing() {
    for (boundary, radii) in [
        ("walls", ""),
        (
            "periodic",
            "radii = { kind = \"bidisperse\", ratio = 1.4, fraction = 0.5 }\n",
        ),
    ] {
        let text = format!(
            "[table]\nboundary = \"{boundary}\"\n[physics]\nmodel = \"event\"\ndt = 0.5\n\
             compress = {{ rate = 0.01, until = {{ area_fraction = 0.7 }} }}\n\
             [[generators]]\nkind = \"gas\"\nn = 200\narea_fraction = 0.3\n{radii}seed = 11\n"
        );
        let mut w = load(&text, Format::Toml).unwrap().1;
        let mut steps = 0;
        while w.compression_running() {
            w.run_steps(1).unwrap();
            steps += 1;
            assert_no_overlap(&w);
            let (b, t) = (w.balls(), w.table());
            if boundary == "walls" {
                for i in 0..b.len() {
                    let slack = 1e-9 * b.r[i];
                    assert!(
                        b.x[i] - b.r[i] > -slack
                            && b.x[i] + b.r[i] < t.width + slack
                            && b.y[i] - b.r[i] > -slack
                            && b.y[i] + b.r[i] < t.height + slack,
                        "{boundary}: ball {i} through a wall at step {steps}"
                    );
                }
            }
        }
        assert!(w.collisions() > 5_000, "{boundary}: {}", w.collisions());
        let phi = w.diagnostics().packing_fraction;
        assert!((phi - 0.7).abs() < 1e-12, "{boundary}: area fraction {phi}");
    }
}

/// The `jamming` preset compressed to its stop (1,000 disks, reduced pressure past
/// 10^6 at area fraction 0.8410), fingerprinted: FNV-1a over the bits of every
/// position, velocity and radius and of the time. The growing model's events were
/// first ordered by a four-ary heap, then by a calendar of time buckets: the two
/// builds wrote the same state file for this preset, byte for byte (the order of
/// events is the order of their times, whatever keeps them). The fingerprint stands
/// for any later change to the machinery that should not move a bit.
#[test]
fn the_jamming_preset_packs_to_the_same_bits() {
    let preset = carom::presets::find("jamming").unwrap();
    let s = preset.scenario().unwrap();
    let steps = (s.duration / s.physics.dt).round() as u64;
    let mut w = build_world(&s).unwrap();
    w.run_steps(steps).unwrap();
    let (_, p) = w.compression().unwrap();
    assert_eq!(p.stopped, Some(StopReason::Jammed));
    let b = w.balls();
    let words = (0..b.len())
        .flat_map(|i| [b.x[i], b.y[i], b.vx[i], b.vy[i], b.r[i]])
        .chain([w.time])
        .map(f64::to_bits);
    assert_eq!(common::fnv1a(words), 0x56a2_7609_7698_464d);
}
