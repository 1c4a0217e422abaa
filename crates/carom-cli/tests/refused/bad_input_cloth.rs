//! Bad inputs of pool balls on cloth, each through the command line's whole contract
//! (exit status 2, nothing on stdout, one line on stderr naming the file, the line
//! where TOML gives one, and the field; no output file written): the cloth friction's
//! coefficients, the balls' spins `wx`, `wy`, a cue strike and each of its keys, and a
//! wall's `cushion_height`. `python/tests/test_bad_input_cloth.py` checks that the
//! Python package refuses the same inputs with the same line.

use crate::common;
use common::*;

/// A cloth scene with every new key present, each on a line of its own, so that one
/// edit spoils one field (see `with_line`). Scene units are metres: a pool ball of
/// radius 28.575 mm and 170 g.
const BASE: &str = r#"name = "cloth"
duration = 0.1

[table]
width = 2.54
height = 1.27

[physics]
model = "impulse"
dt = 0.001
friction = { kind = "cloth", sliding_mu = 0.2, rolling_mu = 0.01, spinning_mu = 0.0127, g_normal = 9.81 }

[[balls]]
x = 0.5
y = 0.635
r = 0.028575
m = 0.17
cue = { speed = 2.0, aim = 10.0, english = 0.2, follow = 0.1, elevation = 5.0 }

[[balls]]
x = 1.5
y = 0.635
r = 0.028575
m = 0.17
wx = 1.0
wy = -2.0

[[walls]]
kind = "segment"
points = [[2.2, 0.2], [2.2, 1.0]]
cushion_height = 0.036
"#;

/// `BASE` with the `nth` line starting with `key =` replaced by `line`; the text and
/// that line's 1-based number.
fn with_line(key: &str, nth: usize, line: &str) -> (String, usize) {
    let prefix = format!("{key} =");
    replace_nth(BASE, |l| l.starts_with(&prefix), nth, line)
}

#[test]
fn the_base_scene_runs_so_each_case_fails_for_its_own_reason() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("s.toml"), BASE).unwrap();
    run_ok(dir.path(), &run_args("s.toml", &["--steps", "3", "-q"]));
    for f in ["out.json", "t.csv", "r.png"] {
        assert!(dir.path().join(f).is_file(), "{f} written");
    }
}

const FRICTION: &str = "friction";
const CUE: &str = "cue";

/// A cloth friction line with one coefficient replaced.
fn friction(key: &str, value: &str) -> String {
    let mut f = [
        ("sliding_mu", "0.2"),
        ("rolling_mu", "0.01"),
        ("spinning_mu", "0.0127"),
        ("g_normal", "9.81"),
    ]
    .map(|(k, v)| (k, v.to_string()));
    for (k, v) in &mut f {
        if *k == key {
            *v = value.to_string();
        }
    }
    let inner: Vec<String> = f.iter().map(|(k, v)| format!("{k} = {v}")).collect();
    format!(r#"friction = {{ kind = "cloth", {} }}"#, inner.join(", "))
}

/// Each edit: the key of the line, which such line (0: the first), the new line, and
/// what the one line of error must contain (the field, and the gist of the message).
fn cases() -> Vec<(&'static str, usize, String, Vec<&'static str>)> {
    let mut v: Vec<(&str, usize, String, Vec<&str>)> = Vec::new();
    // The cloth's coefficients: negative, not finite, not a number; an unknown key.
    for key in ["sliding_mu", "rolling_mu", "spinning_mu", "g_normal"] {
        let field: &'static str = Box::leak(format!("physics.friction.{key}").into_boxed_str());
        for bad in ["-0.1", "nan", "inf"] {
            v.push((
                FRICTION,
                0,
                friction(key, bad),
                vec![field, "must be non-negative"],
            ));
        }
        v.push((
            FRICTION,
            0,
            friction(key, "\"fast\""),
            vec!["physics.friction"],
        ));
    }
    v.push((
        FRICTION,
        0,
        r#"friction = { kind = "cloth", sliding = 0.2 }"#.into(),
        vec!["physics.friction", "sliding"],
    ));
    // Spins about the table's axes: not finite, not a number.
    for (key, bad) in [("wx", "nan"), ("wy", "inf"), ("wx", "-inf")] {
        let field: &'static str = Box::leak(format!("balls[1].{key}").into_boxed_str());
        v.push((key, 0, format!("{key} = {bad}"), vec![field, "finite"]));
    }
    v.push(("wy", 0, "wy = \"fast\"".into(), vec!["balls[1].wy"]));
    // A cue strike: each key not finite; a negative speed; the tip off the ball;
    // a vertical cue; an unknown key; a missing speed or aim; not a table.
    let cue = |body: &str| format!("cue = {{ {body} }}");
    for (body, field, gist) in [
        ("speed = nan, aim = 0.0", "balls[0].cue.speed", "finite"),
        ("speed = 2.0, aim = inf", "balls[0].cue.aim", "finite"),
        (
            "speed = 2.0, aim = 0.0, english = nan",
            "balls[0].cue.english",
            "finite",
        ),
        (
            "speed = 2.0, aim = 0.0, follow = -inf",
            "balls[0].cue.follow",
            "finite",
        ),
        (
            "speed = 2.0, aim = 0.0, elevation = nan",
            "balls[0].cue.elevation",
            "finite",
        ),
        ("speed = -2.0, aim = 0.0", "balls[0].cue.speed", "negative"),
        (
            "speed = 1.7976931348623157e308, aim = 0.0",
            "balls[0].cue.speed",
            "beyond floating point",
        ),
        (
            "speed = 2.0, aim = 0.0, english = 0.7, follow = 0.7",
            "balls[0].cue.english",
            "misses the ball",
        ),
        (
            "speed = 2.0, aim = 0.0, follow = -0.95",
            "balls[0].cue.english",
            "misses the ball",
        ),
        (
            "speed = 2.0, aim = 0.0, elevation = 90.0",
            "balls[0].cue.elevation",
            "below 90",
        ),
        (
            "speed = 2.0, aim = 0.0, elevation = -1.0",
            "balls[0].cue.elevation",
            "at least 0",
        ),
        (
            "speed = 2.0, aim = 0.0, spin = 1.0",
            "balls[0].cue",
            "unknown field `spin`",
        ),
        ("aim = 0.0", "balls[0].cue", "speed"),
        ("speed = 2.0", "balls[0].cue", "aim"),
        ("speed = \"hard\", aim = 0.0", "balls[0].cue", "speed"),
    ] {
        v.push((CUE, 0, cue(body), vec![field, gist]));
    }
    v.push((CUE, 0, "cue = 2.0".into(), vec!["balls[0].cue"]));
    // A cue strike sets the velocity and spins: a ball given both, or a kinematic one.
    for given in [
        "vx = 1.0",
        "vy = -1.0",
        "wx = 2.0",
        "wy = 2.0",
        "omega = 3.0",
    ] {
        let line: &'static str =
            Box::leak(format!("cue = {{ speed = 2.0, aim = 0.0 }}, {given}").into_boxed_str());
        // TOML takes one key per line: the extra key goes on a line of its own.
        v.push((
            CUE,
            0,
            line.replacen("}, ", "}\n", 1),
            vec!["balls[0].cue", "give either cue or vx, vy, wx, wy, omega"],
        ));
    }
    v.push((
        CUE,
        0,
        "cue = { speed = 2.0, aim = 0.0 }\nkinematic = true".into(),
        vec!["balls[0].cue", "kinematic"],
    ));
    // A cushion's nose: not above the cloth, not finite, or at or above the top of
    // the smallest ball (diameter 0.05715).
    for (bad, gist) in [
        ("0.0", "above 0"),
        ("-0.01", "above 0"),
        ("nan", "above 0"),
        ("inf", "above 0"),
        ("0.05715", "below the smallest ball's diameter"),
        ("0.1", "below the smallest ball's diameter"),
    ] {
        v.push((
            "cushion_height",
            0,
            format!("cushion_height = {bad}"),
            vec!["walls[0].cushion_height", gist],
        ));
    }
    v
}

#[test]
fn bad_cloth_fields_exit_2_naming_file_line_and_field_writing_nothing() {
    let dir = tempfile::tempdir().unwrap();
    for (key, nth, line, mut needles) in cases() {
        let (text, at) = with_line(key, nth, &line);
        std::fs::write(dir.path().join("bad.toml"), &text).unwrap();
        // The line of the edited key (a cue strike with an extra key on the next
        // line is named at the cue, the strike being what conflicts).
        let located = format!("bad.toml:{at}: ");
        needles.push(&located);
        let e = bad_input(
            dir.path(),
            &run_args("bad.toml", &["--steps", "3"]),
            &needles,
        );
        assert!(e.starts_with(&located), "{line}: {e}");
        // Messages are for people: no Rust type names.
        assert!(!e.contains("CueSpec") && !e.contains("enum"), "{e}");
    }
}

#[test]
fn bad_cloth_overrides_name_the_set_and_the_field() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("s.toml"), BASE).unwrap();
    for (set, field) in [
        (
            "physics.friction.sliding_mu=-1",
            "physics.friction.sliding_mu",
        ),
        ("physics.friction.g_normal=nan", "physics.friction.g_normal"),
        ("physics.friction.spin=1", "spin"),
        ("balls.1.wx=inf", "balls[1].wx"),
        ("balls.0.cue.english=0.95", "balls[0].cue.english"),
        ("balls.0.cue.elevation=90", "balls[0].cue.elevation"),
        ("balls.0.cue.twist=1", "balls[0].cue.twist"),
        ("walls.0.cushion_height=0", "walls[0].cushion_height"),
        ("walls.0.cushion_height=0.06", "walls[0].cushion_height"),
    ] {
        let shown = format!("--set {set}");
        bad_input(
            dir.path(),
            &run_args("s.toml", &["--steps", "3", "--set", set]),
            &[&shown, field],
        );
    }
    // An override that conflicts with the file's cue strike: the strike is named
    // where the file gives it, the conflict being with it.
    for set in ["balls.0.vx=1", "balls.0.wy=1", "balls.0.kinematic=true"] {
        bad_input(
            dir.path(),
            &run_args("s.toml", &["--steps", "3", "--set", set]),
            &["s.toml:18: balls[0].cue: "],
        );
    }
    // A ball made smaller than the cushion's nose is high: the wall is named where
    // the file sets its height (as a side made too short by a radius is, in
    // bad_input.rs), with the diameter it must stay below.
    bad_input(
        dir.path(),
        &run_args("s.toml", &["--steps", "3", "--set", "balls.1.r=0.01"]),
        &[
            "s.toml:31: walls[0].cushion_height",
            "smallest ball's diameter, 0.02 (got 0.036)",
        ],
    );
}

#[test]
fn a_cushion_height_is_checked_against_balls_only_on_cloth() {
    // Without cloth a wall's nose height plays no part: any positive height loads.
    let dir = tempfile::tempdir().unwrap();
    let text = BASE
        .replace("cushion_height = 0.036", "cushion_height = 1.0")
        .replace(
            r#"friction = { kind = "cloth", sliding_mu = 0.2, rolling_mu = 0.01, spinning_mu = 0.0127, g_normal = 9.81 }"#,
            "",
        )
        .replace("cue = { speed = 2.0, aim = 10.0, english = 0.2, follow = 0.1, elevation = 5.0 }", "vx = 1.0");
    std::fs::write(dir.path().join("plain.toml"), text).unwrap();
    run_ok(dir.path(), &["run", "plain.toml", "--steps", "3", "-q"]);
}
