//! `carom compare` as a user runs it: one table row per variant, with the columns
//! holding what the physics says, pictures side by side, and bad requests refused
//! with status 2 and one line.

use crate::common;
use common::*;

use std::path::Path;

/// The table rows under the `variant ...` header, cells split at runs of two or more
/// spaces (a label such as `spring, velocity-verlet` holds single spaces).
fn rows(stdout: &str) -> Vec<Vec<String>> {
    let mut lines = stdout.lines().skip_while(|l| !l.starts_with("variant"));
    let header = lines.next().expect("a table header");
    assert!(
        header.contains("energy drift") && header.contains("ball-steps/s"),
        "{header}"
    );
    lines
        .take_while(|l| !l.starts_with("render ") && !l.starts_with("plot "))
        .map(|l| {
            l.split("  ")
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .map(str::to_string)
                .collect()
        })
        .collect()
}

/// The table `carom ARGS` prints, which must succeed.
fn table(dir: &Path, args: &[&str]) -> Vec<Vec<String>> {
    rows(&run_ok(dir, args))
}

/// Column of a row by header position: variant, energy drift, momentum drift,
/// symmetry error, collisions, wall time, ball-steps/s.
fn num(row: &[String], col: usize) -> f64 {
    row[col]
        .parse()
        .unwrap_or_else(|_| panic!("column {col} of {row:?} is not a number"))
}

#[test]
fn one_row_per_model() {
    let dir = tempfile::tempdir().unwrap();
    let rows = table(
        dir.path(),
        &[
            "compare",
            "break",
            "--models",
            "impulse,spring",
            "--steps",
            "400",
        ],
    );
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert_eq!(rows[0][0], "impulse");
    assert_eq!(rows[1][0], "spring, semi-implicit-euler");
    for row in &rows {
        assert_eq!(row.len(), 8, "{row:?}");
        // 400 steps of 16 balls: a positive stepping rate and a whole collision count.
        assert!(num(row, 7) > 0.0);
        assert_eq!(num(row, 4).fract(), 0.0);
    }
}

#[test]
fn one_row_per_integrator_and_the_bounce_story_in_the_drift_column() {
    let dir = tempfile::tempdir().unwrap();
    let rows = table(
        dir.path(),
        &[
            "compare",
            "level5",
            "--integrators",
            "velocity-verlet,average-velocity,predicted-acceleration",
            "--time",
            "100",
        ],
    );
    let labels: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(
        labels,
        [
            "spring, velocity-verlet",
            "spring, average-velocity",
            "spring, predicted-acceleration"
        ]
    );
    // The tutorial's experiment (one ball bouncing on a spring floor, two bounces by
    // t = 100): averaging the velocity gains energy, the predicted acceleration loses
    // it, velocity Verlet keeps it far better than either.
    let drift = |k: usize| num(&rows[k], 1);
    assert!(
        drift(1) > 0.0,
        "average-velocity should gain energy: {rows:?}"
    );
    assert!(
        drift(2) < 0.0,
        "predicted-acceleration should lose energy: {rows:?}"
    );
    assert!(
        drift(0).abs() < 0.1 * drift(1).abs().min(drift(2).abs()),
        "{rows:?}"
    );
    // No symmetry is declared for this scene.
    assert!(rows.iter().all(|r| r[3] == "-"));
}

#[test]
fn symmetry_column_shows_the_sequential_kick_off_breaking_the_mirror() {
    // The cue ball reaches the rack at t = 46.25 (400 units at speed 8, less two
    // radii); by t = 80 the break has happened. Springs push every contact at once and
    // keep the mirror image to round-off; sequential impulses do not.
    let dir = tempfile::tempdir().unwrap();
    let rows = table(
        dir.path(),
        &[
            "compare",
            "break",
            "--models",
            "impulse,spring",
            "--time",
            "80",
        ],
    );
    let (impulse, spring) = (num(&rows[0], 3), num(&rows[1], 3));
    assert!(spring < 1e-6, "spring symmetry error {spring}");
    assert!(impulse > 1.0, "impulse symmetry error {impulse}");
}

#[test]
fn glitch_prevention_variants_show_the_sticking_glitch() {
    // Without glitch prevention, pairs left overlapping by "the last collision wins"
    // collide again on every step while they stay stuck: far more collisions than the
    // few dozen of a clean break.
    let dir = tempfile::tempdir().unwrap();
    let rows = table(
        dir.path(),
        &[
            "compare",
            "break",
            "--glitch-prevention",
            "off,on",
            "--time",
            "120",
        ],
    );
    let labels: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(
        labels,
        [
            "impulse, glitch prevention off",
            "impulse, glitch prevention on"
        ]
    );
    let (off, on) = (num(&rows[0], 4), num(&rows[1], 4));
    assert!(off > 10.0 * on, "collisions: off {off}, on {on}");
    // Elastic impulses (e = 1) conserve kinetic energy either way, stuck or not.
    assert!(num(&rows[0], 1).abs() < 1e-12 && num(&rows[1], 1).abs() < 1e-12);
}

#[test]
fn side_by_side_animation_and_overlaid_plot() {
    let dir = tempfile::tempdir().unwrap();
    let o = carom(
        dir.path(),
        &[
            "compare",
            "break",
            "--models",
            "impulse,spring",
            "--steps",
            "400",
            "--render",
            "k.gif",
            "--plot",
            "e.png",
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("render      k.gif: 10 frames"), "{out}");
    // 25 fps and 60 time units a second: a frame every 48 steps of 0.05, so frames at
    // steps 0, 48, ..., 384 and the last, 400: ten frames, 4/100 s each.
    let gif = std::fs::read(dir.path().join("k.gif")).unwrap();
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::Indexed);
    let mut dec = opts.read_info(gif.as_slice()).unwrap();
    let (w, h) = (dec.width() as u32, dec.height() as u32);
    let mut delays = Vec::new();
    while let Some(f) = dec.read_next_frame().unwrap() {
        delays.push(f.delay);
    }
    assert_eq!(delays, vec![4; 10]);
    // Two 2:1 tables, each at most 480 x 360, with label strips: either side by side
    // or one above the other.
    assert!((w >= 960 && h < 360) || (w <= 480 && h > 480), "{w} x {h}");

    let png = std::fs::read(dir.path().join("e.png")).unwrap();
    let dec = png::Decoder::new(std::io::Cursor::new(png))
        .read_info()
        .unwrap();
    let info = dec.info();
    assert_eq!((info.width, info.height), (900, 640));
}

/// Bad requests: status 2, exactly one line on stderr, nothing on stdout, no file.
fn refused(args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let before = files(dir.path());
    let mut all = vec!["compare"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--render", "x.gif", "--plot", "x.png"]);
    let o = carom(dir.path(), &all);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{all:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{all:?}: {err:?}");
    assert!(o.stdout.is_empty(), "{all:?}");
    assert_eq!(files(dir.path()), before, "{all:?} left files");
    err
}

#[test]
fn unknown_model_is_refused() {
    let e = refused(&["break", "--models", "impulse,bogus"]);
    assert!(e.contains("'bogus'") && e.contains("unknown model"), "{e}");
}

#[test]
fn unknown_integrator_and_integrators_without_spring_are_refused() {
    let e = refused(&["level5", "--integrators", "runge-kutta"]);
    assert!(e.contains("'runge-kutta'"), "{e}");
    let e = refused(&[
        "level5",
        "--models",
        "impulse",
        "--integrators",
        "velocity-verlet",
    ]);
    assert!(e.contains("spring"), "{e}");
    let e = refused(&["break", "--models", "spring,impulse,spring"]);
    assert!(e.contains("twice"), "{e}");
    let e = refused(&["break", "--models", "spring", "--glitch-prevention", "off"]);
    assert!(e.contains("impulse"), "{e}");
    let e = refused(&["break", "--glitch-prevention", "maybe"]);
    assert!(e.contains("'maybe'"), "{e}");
}

#[test]
fn bad_scenario_and_bad_picture_options_are_refused() {
    let e = refused(&["no-such-scene", "--models", "impulse"]);
    assert!(e.contains("no-such-scene"), "{e}");
    let e = refused(&["break", "--models", "impulse", "--fps", "0"]);
    assert!(e.contains("--fps"), "{e}");
}
