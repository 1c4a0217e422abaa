//! Andersen's heat bath in the event model, as events of its own (see
//! `models/event/strikes.rs`): each ball struck at the times of its own Poisson
//! process, between collisions, with a velocity from the Maxwell distribution; the
//! clock in the state file, so that a resumed run strikes on to the bit; the same on
//! any thread count and in any memory layout; a failed step puts the clock back.

use crate::common;

use carom::models::event::Event;
use carom::models::{CollisionModel, StepContext};
use carom::parse::{build_world, load, parse_scenario, Format};
use carom::thermostat::{strike_velocity, strike_wait};
use carom::Thermostat;
use carom::World;
use common::assert_same_bits;

/// `n` balls of radius 1 on a square lattice 20 apart in a walled box, masses
/// alternating 1 and 3, all at rest, under the event model with `thermostat`: in a
/// time of 1 at the speeds below no two meet (they would have to close 18 units).
fn sparse(n: usize, dt: f64, thermostat: &str) -> World {
    let side = (n as f64).sqrt().ceil() as usize;
    let mut balls = String::new();
    for k in 0..n {
        let (x, y) = (
            10.0 + 20.0 * (k % side) as f64,
            10.0 + 20.0 * (k / side) as f64,
        );
        let m = if k % 2 == 0 { 1.0 } else { 3.0 };
        balls += &format!("[[balls]]\nx = {x}\ny = {y}\nr = 1.0\nm = {m}\n");
    }
    let w = 20.0 * side as f64;
    let text = format!(
        "[table]\nwidth = {w}\nheight = {w}\n[physics]\nmodel = \"event\"\ndt = {dt}\n\
         thermostat = {thermostat}\n{balls}"
    );
    load(&text, Format::Toml).unwrap().1
}

/// Strikes per ball so far, from the clock the state file holds (every dynamic ball
/// has an entry).
fn strikes(w: &World) -> Vec<u64> {
    let clock = w.thermostat_clock().expect("the event model keeps a clock");
    let mut k = vec![0; w.balls().len()];
    for (i, count, _) in clock {
        k[i as usize] = count;
    }
    k
}

/// At rate 50 over one time unit every ball has been struck (all but e^-50 of the
/// time), so the 2 x 10^4 components `u = v sqrt(m / kT)` are independent standard
/// normals: mean square 1 with standard error sqrt(2 / 20000) = 0.010, kurtosis
/// `<u^4> / <u^2>^2` 3 with standard error about sqrt(24 / 20000) = 0.035, mean 0 with
/// standard error 0.0071. Bounds at 5 standard errors.
#[test]
fn strikes_give_the_maxwell_distribution_at_their_temperature() {
    let kt = 2.5;
    let mut w = sparse(
        10_000,
        1.0,
        &format!("{{ kind = \"andersen\", temperature = {kt}, rate = 50.0, seed = 8 }}"),
    );
    w.step().unwrap();
    assert_eq!(w.collisions(), 0, "the balls stay apart");
    let b = w.balls();
    let mut us = Vec::new();
    for i in 0..b.len() {
        let s = (b.m[i] / kt).sqrt();
        us.push(b.vx[i] * s);
        us.push(b.vy[i] * s);
    }
    let n = us.len() as f64;
    let m2 = us.iter().map(|u| u * u).sum::<f64>() / n;
    let m4 = us.iter().map(|u| u.powi(4)).sum::<f64>() / n;
    let mean = us.iter().sum::<f64>() / n;
    assert!((m2 - 1.0).abs() < 5.0 * 0.010, "<u^2> = {m2}");
    let kurtosis = m4 / (m2 * m2);
    assert!((kurtosis - 3.0).abs() < 5.0 * 0.035, "kurtosis {kurtosis}");
    assert!(mean.abs() < 5.0 * 0.0071, "<u> = {mean}");
    // Temperature per ball: relative standard error 1 / sqrt(10^4).
    let t = w.diagnostics().temperature;
    assert!((t / kt - 1.0).abs() < 5.0 * 0.01, "temperature {t}");
}

/// Rate 0.5 over 4 time units (four output intervals): each ball's number of strikes
/// is Poisson with mean 2, so over 10^4 balls the mean count is 2 (standard error
/// sqrt(2 / 10^4) = 0.014), its variance 2 as well (standard error of a sample
/// variance sqrt((mu_4 - sigma^4) / n) with the Poisson mu_4 = 2 (1 + 3 * 2) = 14:
/// sqrt(10 / 10^4) = 0.032), and the fraction never struck e^-2 = 0.1353 (binomial
/// standard error 0.0034). The total is Poisson with mean 2 x 10^4 (sd 141). Bounds at
/// 5 standard errors.
#[test]
fn strikes_come_at_the_rate_of_a_poisson_process() {
    let mut w = sparse(
        10_000,
        1.0,
        "{ kind = \"andersen\", temperature = 0.01, rate = 0.5, seed = 3 }",
    );
    w.run_steps(4).unwrap();
    let k = strikes(&w);
    let n = k.len() as f64;
    let total: u64 = k.iter().sum();
    let mean = total as f64 / n;
    let var = k.iter().map(|&c| (c as f64 - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let none = k.iter().filter(|&&c| c == 0).count() as f64 / n;
    assert!((mean - 2.0).abs() < 5.0 * 0.014, "mean count {mean}");
    assert!((var - 2.0).abs() < 5.0 * 0.032, "variance {var}");
    assert!(
        (none - (-2.0f64).exp()).abs() < 5.0 * 0.0034,
        "never struck {none}"
    );
    assert!((total as f64 - 2e4).abs() < 5.0 * 141.0, "{total} strikes");
    // Balls never struck are still at rest; every struck ball moves.
    let b = w.balls();
    for (i, &count) in k.iter().enumerate() {
        assert_eq!(count == 0, b.vx[i] == 0.0 && b.vy[i] == 0.0, "ball {i}");
    }
}

/// A ball alone in a large box over one output interval of 10 time units at rate 1:
/// it is struck at the times the waits give (about ten of them), between the
/// interval's ends, and moves in straight lines between them with the velocities the
/// strikes give. Its end position, computed here from the same waits and velocities,
/// agrees to round-off (a few ulps of the position per strike: 1e-9 absolute).
#[test]
fn strikes_fall_at_their_own_times_within_an_interval() {
    let (seed, rate, kt) = (21u64, 1.0, 0.7);
    let text = format!(
        "[table]\nwidth = 1000.0\nheight = 1000.0\n[physics]\nmodel = \"event\"\ndt = 10.0\n\
         thermostat = {{ kind = \"andersen\", temperature = {kt}, rate = {rate}, seed = {seed} }}\n\
         [[balls]]\nx = 500.0\ny = 500.0\nvx = 0.25\nvy = -0.5\nr = 1.0\nm = 2.0\n"
    );
    let mut w = load(&text, Format::Toml).unwrap().1;
    w.step().unwrap();
    let (mut t, mut x, mut y, mut v) = (0.0, 500.0, 500.0, (0.25, -0.5));
    let mut k = 0;
    loop {
        let next = t + strike_wait(seed, 0, k, rate);
        if next > 10.0 {
            break;
        }
        x += (next - t) * v.0;
        y += (next - t) * v.1;
        v = strike_velocity(seed, 0, k, kt, 0.5);
        t = next;
        k += 1;
    }
    x += (10.0 - t) * v.0;
    y += (10.0 - t) * v.1;
    assert!(k >= 3, "only {k} strikes");
    let b = w.balls();
    assert_eq!((b.vx[0], b.vy[0]), v, "the last strike's velocity");
    assert!(
        (b.x[0] - x).abs() < 1e-9 && (b.y[0] - y).abs() < 1e-9,
        "({}, {}) against ({x}, {y})",
        b.x[0],
        b.y[0]
    );
    let clock = w.thermostat_clock().unwrap();
    assert_eq!(clock.len(), 1);
    assert_eq!(clock[0].1, k, "strikes counted");
    // The next strike's wait, from the end of the interval.
    let next = t + strike_wait(seed, 0, k, rate);
    assert!((clock[0].2 - (next - 10.0)).abs() < 1e-12, "{:?}", clock[0]);
}

/// A dense gas (area fraction 0.5, 500 disks) under a bath striking a few times per
/// ball per interval, so that strikes fall among collisions.
fn dense(rate: f64) -> String {
    format!(
        r#"name = "bath"
[table]
boundary = "periodic"
[physics]
model = "event"
dt = 0.7
thermostat = {{ kind = "andersen", temperature = 1.3, rate = {rate}, seed = 17 }}
[[generators]]
kind = "gas"
n = 500
area_fraction = 0.5
seed = 4
"#
    )
}

fn state_text(w: &World) -> String {
    serde_json::to_string(&carom::state::snapshot(w, 1.0)).unwrap()
}

/// 7 + 5 + 9 steps through two state files (written as text and read back) against
/// 21 in one go: the same balls to the bit, the same clock, and the same state file
/// apart from the run counters that a session adds up.
#[test]
fn a_resumed_run_strikes_on_bit_for_bit() {
    let s = parse_scenario(&dense(3.0), Format::Toml).unwrap();
    let mut whole = build_world(&s).unwrap();
    whole.run_steps(7).unwrap();
    // A read in the middle, as the pieces have: reads restart the predictions.
    let _ = whole.balls();
    whole.run_steps(5).unwrap();
    whole.run_steps(9).unwrap();

    let mut piece = build_world(&s).unwrap();
    piece.run_steps(7).unwrap();
    for steps in [5, 9] {
        let text = state_text(&piece);
        assert!(text.contains("\"thermostat_clock\""));
        piece = build_world(&parse_scenario(&text, Format::Json).unwrap()).unwrap();
        piece.run_steps(steps).unwrap();
    }
    assert_same_bits("resumed", whole.balls(), piece.balls());
    assert_eq!(whole.thermostat_clock(), piece.thermostat_clock());
    let total: u64 = strikes(&whole).iter().sum();
    // 500 balls at rate 3 over 14.7 time units: about 22,000 strikes.
    assert!(total > 15_000, "{total} strikes");
    assert!(
        whole.collisions() > 10_000,
        "{} collisions",
        whole.collisions()
    );
}

/// The event model is single-threaded, but the world's thread pool must change no
/// draw: 1 and 2 threads, the same bits.
#[test]
fn one_and_two_threads_strike_alike() {
    let s = parse_scenario(&dense(2.0), Format::Toml).unwrap();
    let mut one = build_world(&s).unwrap();
    let mut two = build_world(&s).unwrap();
    two.set_threads(2).unwrap();
    one.run_steps(12).unwrap();
    two.run_steps(12).unwrap();
    assert_same_bits("threads", one.balls(), two.balls());
    assert_eq!(one.thermostat_clock(), two.thermostat_clock());
}

/// The model laid out in its own order (a scattered start, renumbered) strikes each
/// ball as under its own index: the same bits as the run in the given order.
#[test]
fn the_model_layout_changes_no_strike() {
    let s = parse_scenario(&dense(2.0), Format::Toml).unwrap();
    let w = build_world(&s).unwrap();
    let (table, physics) = (*w.table(), *w.physics());
    let mut start = w.balls().clone();
    let n = start.len();
    let order: Vec<u32> = (0..n).map(|k| (7919 * k % n) as u32).collect();
    start.permute(&order);
    let th = w.thermostat().unwrap();
    let run = |from: usize| {
        let mut balls = start.clone();
        let mut model = Event::new(&balls, &table, &physics).unwrap();
        model.set_renumber_from(from);
        model.set_thermostat(Some(&th));
        let mut renumbered = false;
        for s in 1..=10 {
            model
                .step_deferred(StepContext {
                    balls: &mut balls,
                    table: &table,
                    physics: &physics,
                    pool: None,
                    walls: &carom::walls::NO_WALLS,
                    in_play: None,
                })
                .unwrap();
            renumbered |= model.is_renumbered();
            if s % 4 == 0 {
                model.synchronise(&mut balls);
            }
        }
        model.synchronise(&mut balls);
        (balls, model.strikes(), renumbered, model.thermostat_clock())
    };
    let (laid_out, struck, yes, clock_a) = run(0);
    let (as_given, struck_b, no, clock_b) = run(usize::MAX);
    assert!(yes && !no);
    assert!(struck > 5000, "{struck} strikes");
    assert_eq!(struck, struck_b);
    assert_same_bits("layout", &laid_out, &as_given);
    assert_eq!(clock_a, clock_b);
}

/// A step stopped by the event cap leaves balls and clock as they were at its start;
/// the same step taken again without the cap is the step never stopped.
#[test]
fn a_failed_step_puts_the_clock_back() {
    let s = parse_scenario(&dense(5.0), Format::Toml).unwrap();
    let mut a = build_world(&s).unwrap();
    let mut b = build_world(&s).unwrap();
    a.run_steps(2).unwrap();
    b.run_steps(2).unwrap();
    let (balls, clock) = (a.balls().clone(), a.thermostat_clock());
    // 500 balls at rate 5: 2,500 strikes per unit of time, so some fall among the
    // first 300 events.
    a.set_event_cap(Some(300));
    assert!(
        a.step().is_err(),
        "an interval of 0.7 has more than 300 events"
    );
    assert_same_bits("failed step", &balls, a.balls());
    assert_eq!(a.thermostat_clock(), clock);
    a.set_event_cap(None);
    a.step().unwrap();
    b.step().unwrap();
    assert_same_bits("after the failed step", a.balls(), b.balls());
    assert_eq!(a.thermostat_clock(), b.thermostat_clock());
}

/// A state file's clock is checked: a ball out of range or listed twice, a negative
/// or non-finite wait, a value of the wrong shape are each one error naming the entry.
#[test]
fn a_clock_in_a_state_file_is_checked() {
    let s = parse_scenario(&dense(1.0), Format::Toml).unwrap();
    let mut w = build_world(&s).unwrap();
    w.run_steps(1).unwrap();
    let text = state_text(&w);
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    for (edit, field) in [
        (serde_json::json!([[500, 0, 1.0]]), "thermostat_clock[0]"),
        (
            serde_json::json!([[3, 0, 1.0], [3, 1, 2.0]]),
            "thermostat_clock[1]",
        ),
        (serde_json::json!([[3, 0, -1.0]]), "thermostat_clock[0]"),
        (serde_json::json!([[3, -1, 1.0]]), "thermostat_clock"),
        (serde_json::json!({ "a": 1 }), "thermostat_clock"),
    ] {
        doc["thermostat_clock"] = edit;
        let e = load(&doc.to_string(), Format::Json)
            .unwrap_err()
            .to_string();
        assert!(e.contains(field), "{field}: {e}");
    }
    // A TOML state may say nan or inf, which JSON cannot.
    let e = load(
        &format!("thermostat_clock = [[0, 0, nan]]\n{}", dense(1.0)),
        Format::Toml,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("thermostat_clock[0]"), "{e}");
    assert!(matches!(w.thermostat(), Some(Thermostat::Andersen { .. })));
}

/// Under gravity the event model's balls fly on parabolas, and the bath strikes at
/// the ends of the output intervals, as in the stepping models: balls at rest struck
/// (rate 50: all of them) fall straight down over the first interval, their x
/// unchanged to the bit, and only then move off with their new velocities. No clock
/// is kept (the draws are keyed on the step, as the stepping models' are).
#[test]
fn under_gravity_the_bath_strikes_at_the_ends_of_intervals() {
    let mut text = String::from(
        "[table]\nwidth = 400.0\nheight = 400.0\n[physics]\nmodel = \"event\"\ndt = 0.5\n\
         gravity = [0.0, -1.0]\n\
         thermostat = { kind = \"andersen\", temperature = 1.0, rate = 50.0, seed = 2 }\n",
    );
    for k in 0..16 {
        text += &format!(
            "[[balls]]\nx = {}\ny = {}\nr = 1.0\n",
            40.0 + 100.0 * (k % 4) as f64,
            100.0 + 80.0 * (k / 4) as f64
        );
    }
    let mut w = load(&text, Format::Toml).unwrap().1;
    let x0 = w.balls().x.clone();
    w.step().unwrap();
    let b = w.balls();
    for (i, &x) in x0.iter().enumerate() {
        assert_eq!(b.x[i], x, "ball {i} kept its x");
        assert!(b.vx[i] != 0.0, "ball {i} was struck");
    }
    assert_eq!(w.thermostat_clock(), None);
}
