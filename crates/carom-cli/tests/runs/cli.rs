//! The `carom` binary as a user runs it: exit statuses, one-line errors naming the
//! file, line and field, outputs written whole or not at all, and runs whose results
//! can be checked against closed forms.

use crate::common;
use common::*;

use carom::ModelKind;

/// A small valid scenario: two balls, impulse model. Line numbers below refer to it.
const OK: &str = r#"name = "two"
duration = 1.0

[table]
width = 100.0
height = 100.0

[physics]
model = "impulse"

[[balls]]
x = 50.0
y = 50.0
vx = 1.0

[[balls]]
x = 20.0
y = 20.0
r = 5.0
"#;

/// Runs `carom run FILE --out out.json --trajectory t.csv` (or with `args`) in a fresh
/// directory holding `FILE` = `text`, and checks the bad-input contract: status 2,
/// exactly one line on stderr, nothing on stdout, no file created. Returns the line.
fn bad_input(file: &str, text: Option<&str>, args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    if let Some(text) = text {
        std::fs::write(dir.path().join(file), text).unwrap();
    }
    let before = files(dir.path());
    let mut all = vec!["run", file];
    all.extend_from_slice(args);
    // Ask for outputs, to check that none is created.
    for (option, file) in [("--out", "out.json"), ("--trajectory", "t.csv")] {
        if !args.contains(&option) {
            all.extend_from_slice(&[option, file]);
        }
    }
    let o = carom(dir.path(), &all);
    let err = stderr(&o);
    assert_eq!(
        o.status.code(),
        Some(2),
        "status for {all:?}; stderr: {err}"
    );
    assert_eq!(
        err.lines().count(),
        1,
        "exactly one stderr line for {all:?}: {err:?}"
    );
    assert!(stdout(&o).is_empty(), "nothing on stdout for {all:?}");
    assert_eq!(files(dir.path()), before, "no file created for {all:?}");
    err.trim_end().to_string()
}

/// `OK` with the line starting `at` replaced by `with`.
fn edit(at: &str, with: &str) -> String {
    let mut done = false;
    let out: Vec<String> = OK
        .lines()
        .map(|l| {
            if !done && l.starts_with(at) {
                done = true;
                with.to_string()
            } else {
                l.to_string()
            }
        })
        .collect();
    assert!(done, "OK has a line starting with {at}");
    out.join("\n") + "\n"
}

#[test]
fn unknown_key_names_file_line_and_field() {
    let e = bad_input("s.toml", Some(&edit("vx = 1.0", "vx = 1.0\nvz = 2.0")), &[]);
    assert!(
        e.starts_with("s.toml:15: balls[0].vz: unknown field `vz`"),
        "{e}"
    );
}

#[test]
fn wrong_type_names_file_line_and_field() {
    let e = bad_input("s.toml", Some(&edit("vx = 1.0", "vx = \"fast\"")), &[]);
    assert!(e.starts_with("s.toml:14: balls[0].vx: invalid type"), "{e}");
}

#[test]
fn non_finite_numbers_are_refused_with_their_field() {
    let e = bad_input("s.toml", Some(&edit("vx = 1.0", "vx = nan")), &[]);
    assert!(
        e.starts_with("s.toml:14: balls[0].vx: must be finite"),
        "{e}"
    );
    let e = bad_input("s.toml", Some(&edit("width = 100.0", "width = inf")), &[]);
    assert!(
        e.starts_with("s.toml:5: table.width: must be a positive finite"),
        "{e}"
    );
    let e = bad_input(
        "s.toml",
        Some(&edit(
            "model = \"impulse\"",
            "model = \"impulse\"\ngravity = [0.0, -inf]",
        )),
        &[],
    );
    assert!(
        e.starts_with("s.toml:10: physics.gravity[1]: must be finite"),
        "{e}"
    );
}

#[test]
fn non_positive_radius_names_the_ball() {
    let e = bad_input("s.toml", Some(&edit("r = 5.0", "r = -1.0")), &[]);
    assert!(
        e.starts_with("s.toml:19: balls[1].r: must be a positive"),
        "{e}"
    );
}

#[test]
fn non_positive_mass_names_the_ball() {
    let e = bad_input("s.toml", Some(&edit("r = 5.0", "r = 5.0\nm = 0.0")), &[]);
    assert!(
        e.starts_with("s.toml:20: balls[1].m: must be a positive"),
        "{e}"
    );
}

#[test]
fn ball_outside_the_table_names_the_ball() {
    let e = bad_input("s.toml", Some(&edit("x = 20.0", "x = 2.0")), &[]);
    assert!(e.starts_with("s.toml:16: balls[1]: ball at (2, 20)"), "{e}");
    assert!(e.contains("outside the 100 x 100 table"), "{e}");
}

#[test]
fn generated_ball_outside_the_table_names_its_generator() {
    let text = format!(
        "{OK}\n[[generators]]\nkind = \"lattice\"\nnx = 3\nny = 1\nx0 = 70.0\ny0 = 80.0\ndx = 13.0\ndy = 0.0\nr = 5.0\n"
    );
    let e = bad_input("s.toml", Some(&text), &[]);
    // The third lattice ball is centred at x = 96 with r = 5: past the wall at 100.
    assert!(
        e.starts_with("s.toml:21: generators[0]: its ball 2 (ball index 4)"),
        "{e}"
    );
}

#[test]
fn unknown_model_and_integrator_are_named() {
    let e = bad_input("s.toml", Some(&edit("model = ", "model = \"magic\"")), &[]);
    assert!(
        e.starts_with("s.toml:9: physics.model: unknown variant `magic`"),
        "{e}"
    );
    let e = bad_input(
        "s.toml",
        Some(&edit(
            "model = ",
            "model = \"spring\"\nintegrator = \"rk4\"",
        )),
        &[],
    );
    assert!(
        e.starts_with("s.toml:10: physics.integrator: unknown variant `rk4`"),
        "{e}"
    );
    let e = bad_input("s.toml", Some(OK), &["--model", "magic"]);
    assert!(e.contains("--model") && e.contains("magic"), "{e}");
}

#[test]
fn physics_values_out_of_range_are_named() {
    let e = bad_input(
        "s.toml",
        Some(&edit("model = ", "model = \"impulse\"\nrestitution = 1.5")),
        &[],
    );
    assert!(
        e.starts_with("s.toml:10: physics.restitution: must be in [0, 1]"),
        "{e}"
    );
    // A spring step that cannot resolve a contact: dt sqrt(k/mu) = 0.05 sqrt(5000/0.5) = 5.
    // physics.dt is not written (its default is at fault), so the line is [physics]'s.
    let e = bad_input(
        "s.toml",
        Some(&edit("model = ", "model = \"spring\"\nstiffness = 5000.0")),
        &[],
    );
    assert!(
        e.starts_with("s.toml:8: physics.dt: dt = 0.05 is unstable"),
        "{e}"
    );
}

#[test]
fn syntax_errors_carry_their_line() {
    let e = bad_input("s.toml", Some(&edit("[table]", "[table")), &[]);
    assert!(e.starts_with("s.toml:4: "), "{e}");
}

#[test]
fn json_errors_carry_lines_too() {
    let json = r#"{
  "name": "j",
  "table": { "width": 100, "height": 100 },
  "physics": { "model": "impulse" },
  "balls": [
    { "x": 50, "y": 50, "vx": 1 },
    { "x": 20, "y": 20, "r": -5 }
  ]
}
"#;
    let e = bad_input("s.json", Some(json), &[]);
    assert!(
        e.starts_with("s.json:7: balls[1].r: must be a positive"),
        "{e}"
    );
    let e = bad_input(
        "s.json",
        Some(&json.replace("\"r\": -5", "\"r\": 5, \"q\": 1")),
        &[],
    );
    assert!(
        e.starts_with("s.json:7: balls[1].q: unknown field `q`"),
        "{e}"
    );
    let e = bad_input(
        "s.json",
        Some(&json.replace("\"vx\": 1", "\"vx\": true")),
        &[],
    );
    assert!(
        e.starts_with("s.json:6: balls[0].vx: invalid type: boolean"),
        "{e}"
    );
}

#[test]
fn missing_unreadable_and_unknown_inputs() {
    let e = bad_input("missing.toml", None, &[]);
    assert!(e.starts_with("missing.toml: cannot read the file"), "{e}");
    // Not UTF-8: unreadable as text.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.toml"), [0xff, 0xfe, 0x00]).unwrap();
    let o = carom(dir.path(), &["run", "bad.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("bad.toml: cannot read the file"),
        "{}",
        stderr(&o)
    );
    let e = bad_input("notes.yaml", Some("a: 1"), &[]);
    assert!(e.starts_with("notes.yaml: unknown scenario format"), "{e}");
    let e = bad_input("no-such-preset", None, &[]);
    assert!(
        e.starts_with("no-such-preset: no such preset or file"),
        "{e}"
    );
    assert!(
        e.contains("level1") && e.contains("break"),
        "lists the presets: {e}"
    );
}

#[test]
fn bad_option_values_name_the_option() {
    for (args, option) in [
        (&["--dt", "-1"][..], "--dt"),
        (&["--dt", "0"][..], "--dt"),
        (&["--steps", "abc"][..], "--steps"),
        (&["--time", "-3"][..], "--time"),
        (&["--time", "nan"][..], "--time"),
        (&["--every", "0"][..], "--every"),
        (&["--threads", "0"][..], "--threads"),
        (&["--threads", "many"][..], "--threads"),
        (&["--bogus"][..], "--bogus"),
        (&["--steps", "3", "--time", "1"][..], "--time"),
    ] {
        let e = bad_input("s.toml", Some(OK), args);
        assert!(e.contains(option), "{args:?}: {e}");
    }
}

#[test]
fn missing_output_directory_is_refused_before_running() {
    // A .csv name: --trajectory refuses an unknown extension before it looks further.
    for option in ["--out", "--trajectory", "--diagnostics"] {
        let e = bad_input("s.toml", Some(OK), &[option, "no/such/dir/f.csv"]);
        assert!(
            e.starts_with(&format!("{option} no/such/dir/f.csv: directory")),
            "{e}"
        );
        assert!(e.contains("does not exist"), "{e}");
    }
}

#[test]
fn bad_overrides_name_the_set_option() {
    let e = bad_input("s.toml", Some(OK), &["--set", "balls.1.r=-2"]);
    assert!(
        e.starts_with("--set balls.1.r=-2: balls[1].r: must be a positive"),
        "{e}"
    );
    let e = bad_input("s.toml", Some(OK), &["--set", "physics.stifness=3"]);
    assert!(
        e.starts_with("--set physics.stifness=3: physics.stifness: unknown field"),
        "{e}"
    );
    let e = bad_input("s.toml", Some(OK), &["--set", "physics.restitution=high"]);
    assert!(
        e.starts_with("--set physics.restitution=high: physics.restitution: invalid type"),
        "{e}"
    );
    let e = bad_input("s.toml", Some(OK), &["--set", "balls.7.x=1"]);
    assert!(e.contains("balls has 2 entries"), "{e}");
    let e = bad_input("s.toml", Some(OK), &["--set", "balls.1.x=1"]);
    assert!(
        e.starts_with("--set balls.1.x=1: balls[1]: ball at (1, 20)"),
        "{e}"
    );
    let e = bad_input("s.toml", Some(OK), &["--set", "nokey"]);
    assert!(e.contains("--set") && e.contains("KEY=VALUE"), "{e}");
    // A file error that the overrides do not touch keeps its own file and line.
    let e = bad_input(
        "s.toml",
        Some(&edit("r = 5.0", "r = -1.0")),
        &["--set", "physics.dt=0.01"],
    );
    assert!(e.starts_with("s.toml:19: balls[1].r"), "{e}");
}

/// Models that are not built yet must fail cleanly; once built, they must run.
#[test]
fn every_model_either_runs_or_is_refused_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("s.toml"), OK).unwrap();
    for m in ModelKind::ALL {
        let out = format!("{}.json", m.name());
        let o = carom(
            dir.path(),
            &["run", "s.toml", "--model", m.name(), "--out", &out],
        );
        let balls = carom::Balls::default();
        let physics = carom::Physics::default();
        let table = carom::Table::new(100.0, 100.0);
        match carom::models::create(m, &balls, &table, &physics, &carom::walls::NO_WALLS) {
            Err(carom::StepError::Unsupported(_)) => {
                assert_eq!(o.status.code(), Some(2), "{}", m.name());
                let e = stderr(&o);
                assert_eq!(e.lines().count(), 1, "{e}");
                assert!(
                    e.starts_with(&format!("--model {}: physics.model: ", m.name())),
                    "{e}"
                );
                assert!(!dir.path().join(&out).exists());
            }
            _ => assert_eq!(o.status.code(), Some(0), "{}: {}", m.name(), stderr(&o)),
        }
    }
}

#[test]
fn presets_are_listed_one_per_line() {
    let dir = tempfile::tempdir().unwrap();
    let o = carom(dir.path(), &["presets"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), carom::presets::PRESETS.len());
    for (line, p) in lines.iter().zip(carom::presets::PRESETS) {
        assert!(
            line.starts_with(p.name) && line.ends_with(p.summary),
            "{line}"
        );
    }
    for name in [
        "level1",
        "level2",
        "level3",
        "level4",
        "level5",
        "level6",
        "level7",
        "three-ball",
        "newton-cradle",
        "break",
        "gas",
    ] {
        assert!(carom::presets::find(name).is_some(), "{name}");
    }
}

#[test]
fn running_a_preset_prints_the_summary() {
    let dir = tempfile::tempdir().unwrap();
    let o = carom(dir.path(), &["run", "break"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    // The preset's duration 200 at dt 0.05.
    assert!(
        out.starts_with("break: spring model, semi-implicit-euler, 16 balls"),
        "{out}"
    );
    assert!(out.contains("(4000 steps of dt = 0.05)"), "{out}");
    for key in [
        "collisions",
        "energy",
        "relative drift",
        "momentum",
        "symmetry",
        "wall time",
        "ball-steps/s",
    ] {
        assert!(out.contains(key), "{key} in {out}");
    }
    let q = carom(dir.path(), &["run", "break", "--steps", "10", "--quiet"]);
    assert_eq!(q.status.code(), Some(0));
    assert!(
        stdout(&q).is_empty() && stderr(&q).is_empty(),
        "--quiet prints nothing"
    );
}

fn ball(s: &serde_json::Value, i: usize, key: &str) -> f64 {
    s["balls"][i][key].as_f64().unwrap()
}

/// level2 is a thrown ball under gravity that reaches no wall: the impulse model's
/// free flight is exact for constant gravity, so the state after N steps is the
/// parabola at t = N dt up to round-off. Each step adds `v dt + g dt^2/2` to x
/// (magnitude <= 1) and the sum reaches ~300: 900 additions each rounding by at most
/// half an ulp of ~300 (3e-14) bound the error by ~3e-11; 1e-9 leaves margin without
/// hiding any real error (a single missed step would be off by ~0.3).
#[test]
fn level2_follows_the_parabola() {
    let dir = tempfile::tempdir().unwrap();
    let o = carom(dir.path(), &["run", "level2", "--out", "s.json", "--quiet"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let s = state(&dir.path().join("s.json"));
    assert_eq!(s["steps"].as_u64(), Some(900));
    let t = 900.0 * 0.05;
    let (x0, y0, vx0, vy0, g) = (60.0, 360.0, 6.0, -16.0, 0.7);
    assert!((ball(&s, 0, "x") - (x0 + vx0 * t)).abs() < 1e-9);
    assert!((ball(&s, 0, "y") - (y0 + vy0 * t + 0.5 * g * t * t)).abs() < 1e-9);
    assert!((ball(&s, 0, "vy") - (vy0 + g * t)).abs() < 1e-9);
    assert_eq!(s["diagnostics"]["collisions"].as_u64(), Some(0));
}

/// `--steps N` and `--time N dt` are the same run, and `--set` changes what is run:
/// level1's ball moves uniformly, x = x0 + vx t.
#[test]
fn steps_time_and_set_agree_with_uniform_motion() {
    let dir = tempfile::tempdir().unwrap();
    let run = |extra: &[&str], out: &str| {
        let mut args = vec!["run", "level1", "--quiet", "--out", out];
        args.extend_from_slice(extra);
        let o = carom(dir.path(), &args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        state(&dir.path().join(out))
    };
    let a = run(&["--steps", "100"], "a.json");
    let b = run(&["--time", "5"], "b.json");
    assert_eq!(a["balls"], b["balls"]);
    assert_eq!(a["steps"].as_u64(), Some(100));
    // 100 additions of 0.15 to 100: round-off far below 1e-9.
    assert!((ball(&a, 0, "x") - (100.0 + 3.0 * 5.0)).abs() < 1e-9);
    let c = run(
        &[
            "--time",
            "5",
            "--set",
            "balls.0.vx=5",
            "--set",
            "balls.0.vy=-2.5",
        ],
        "c.json",
    );
    assert!((ball(&c, 0, "x") - (100.0 + 5.0 * 5.0)).abs() < 1e-9);
    assert!((ball(&c, 0, "y") - (150.0 - 2.5 * 5.0)).abs() < 1e-9);
    // --dt changes the step count for the same time.
    let d = run(&["--time", "5", "--dt", "0.01"], "d.json");
    assert_eq!(d["steps"].as_u64(), Some(500));
    assert!((ball(&d, 0, "x") - 115.0).abs() < 1e-9);
}

/// Two balls meet head-on at step 25; a spring contact lasts ~20 steps, so a state
/// written at step 30 is taken mid-contact (and the impulse one mid-rebound).
const HEAD_ON: &str = r#"name = "head-on"
duration = 10.0

[table]
width = 100.0
height = 100.0

[physics]
dt = 0.05

[[balls]]
x = 30.0
y = 50.0
vx = 8.0
vy = 0.5

[[balls]]
x = 70.0
y = 50.0
vx = -8.0
m = 2.0
"#;

/// A state file is a scenario: running N steps, then resuming from the state for M
/// more, is the same run as N + M steps in one go, bit for bit (same arithmetic on the
/// same numbers, provided the state stores every float exactly).
#[test]
fn a_state_file_resumes_the_run_bit_identically() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("h.toml"), HEAD_ON).unwrap();
    for model in ["impulse", "spring"] {
        let ok = |args: &[&str]| {
            let o = carom(dir.path(), args);
            assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        };
        ok(&[
            "run",
            "h.toml",
            "--model",
            model,
            "--steps",
            "30",
            "--out",
            "half.json",
            "-q",
        ]);
        ok(&[
            "run",
            "half.json",
            "--steps",
            "170",
            "--out",
            "resumed.json",
            "-q",
        ]);
        ok(&[
            "run",
            "h.toml",
            "--model",
            model,
            "--steps",
            "200",
            "--out",
            "whole.json",
            "-q",
        ]);
        let (r, w) = (
            state(&dir.path().join("resumed.json")),
            state(&dir.path().join("whole.json")),
        );
        assert_eq!(r["model"], model);
        assert_eq!(r["steps"].as_u64(), Some(200), "{model}: steps continue");
        assert_eq!(
            r["time"].as_f64().unwrap().to_bits(),
            w["time"].as_f64().unwrap().to_bits()
        );
        for i in 0..2 {
            for key in ["x", "y", "vx", "vy"] {
                assert_eq!(
                    ball(&r, i, key).to_bits(),
                    ball(&w, i, key).to_bits(),
                    "{model}: ball {i} {key}"
                );
            }
        }
        // The balls did collide in that window (else the test would prove little).
        let c = w["diagnostics"]["collisions"].as_u64().unwrap();
        assert!(c >= 1, "{model}: collisions {c}");
        assert_eq!(
            r["diagnostics"]["collisions"].as_u64(),
            Some(c),
            "{model}: count continues"
        );
    }
}

#[test]
fn trajectory_and_diagnostics_rows() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("h.toml"), HEAD_ON).unwrap();
    let o = carom(
        dir.path(),
        &[
            "run",
            "h.toml",
            "--steps",
            "50",
            "--every",
            "20",
            "--trajectory",
            "t.csv",
            "--diagnostics",
            "d.csv",
            "--out",
            "s.json",
            "-q",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let t = std::fs::read_to_string(dir.path().join("t.csv")).unwrap();
    let rows: Vec<&str> = t.lines().collect();
    assert_eq!(rows[0], "step,time,id,x,y,vx,vy,ix,iy");
    // Samples at steps 0, 20, 40 and the last, 50: four samples of two balls.
    assert_eq!(rows.len(), 1 + 4 * 2);
    let steps: Vec<&str> = rows[1..]
        .iter()
        .map(|r| r.split(',').next().unwrap())
        .collect();
    assert_eq!(steps, ["0", "0", "20", "20", "40", "40", "50", "50"]);
    // The last rows are the state written to --out, exactly.
    let s = state(&dir.path().join("s.json"));
    for (i, row) in rows[7..].iter().enumerate() {
        let f: Vec<f64> = row.split(',').map(|v| v.parse().unwrap()).collect();
        assert_eq!(f[2], i as f64);
        for (k, key) in ["x", "y", "vx", "vy"].iter().enumerate() {
            assert_eq!(f[3 + k].to_bits(), ball(&s, i, key).to_bits(), "{key}");
        }
    }
    let d = std::fs::read_to_string(dir.path().join("d.csv")).unwrap();
    let rows: Vec<&str> = d.lines().collect();
    assert!(rows[0].starts_with("step,time,kinetic_energy,"));
    assert_eq!(rows.len(), 1 + 4);
    // Initial kinetic energy: (1 (64 + 0.25) + 2 * 64) / 2.
    let ke0: f64 = rows[1].split(',').nth(2).unwrap().parse().unwrap();
    assert_eq!(ke0, (64.25 + 128.0) / 2.0);
}

#[test]
fn json_scenarios_run_and_take_overrides() {
    let dir = tempfile::tempdir().unwrap();
    let json = r#"{ "name": "j", "table": { "width": 100, "height": 100 },
        "physics": { "model": "impulse" },
        "balls": [ { "x": 50, "y": 50, "vx": 1 } ] }"#;
    std::fs::write(dir.path().join("j.json"), json).unwrap();
    let o = carom(
        dir.path(),
        &[
            "run",
            "j.json",
            "--steps",
            "20",
            "--set",
            "balls.0.vy=2",
            "--out",
            "s.json",
            "-q",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let s = state(&dir.path().join("s.json"));
    assert!((ball(&s, 0, "y") - 52.0).abs() < 1e-12);
    let e = bad_input("j.json", Some(json), &["--set", "balls.0.vy=nan"]);
    assert!(
        e.starts_with("--set balls.0.vy=nan: balls[0].vy: must be finite"),
        "{e}"
    );
}

#[test]
fn thread_count_does_not_change_the_result() {
    let dir = tempfile::tempdir().unwrap();
    for n in ["1", "2"] {
        let out = format!("s{n}.json");
        let o = carom(
            dir.path(),
            &[
                "run",
                "break",
                "--steps",
                "1200",
                "--threads",
                n,
                "--out",
                &out,
                "-q",
            ],
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    assert_eq!(
        state(&dir.path().join("s1.json"))["balls"],
        state(&dir.path().join("s2.json"))["balls"]
    );
}

/// A column of three balls resting on the floor under gravity, with springs as stiff
/// as the pairwise limit allows: dt sqrt(k/mu) = 0.05 sqrt(700/0.5) = 1.87 < 2, so the
/// world accepts it. But the column's stiffest mode (three masses, four springs with
/// the floor) has omega^2 up to ~3.2 k/m, dt omega ~ 2.4 > 2: semi-implicit Euler
/// amplifies it every step, and the energy runs away until the balls leave the table.
const STACK: &str = r#"name = "stack"
duration = 300.0

[table]
width = 400.0
height = 200.0

[physics]
model = "spring"
dt = 0.05
stiffness = 700.0
gravity = [0.0, 0.7]

[[balls]]
x = 200.0
y = 190.0

[[balls]]
x = 200.0
y = 170.0

[[balls]]
x = 200.0
y = 150.0
"#;

#[test]
fn an_unstable_run_exits_1_and_keeps_the_last_good_state() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("stack.toml"), STACK).unwrap();
    let o = carom(
        dir.path(),
        &[
            "run",
            "stack.toml",
            "--out",
            "s.json",
            "--trajectory",
            "t.csv",
            "--every",
            "100",
        ],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    let last = err.lines().last().unwrap();
    assert!(last.contains("simulation became unstable"), "{err}");
    assert!(last.contains("last good state"), "{err}");
    let s = state(&dir.path().join("s.json"));
    let steps = s["steps"].as_u64().unwrap();
    assert!(steps > 0 && steps < 6000, "stopped early, at {steps}");
    for i in 0..3 {
        for key in ["x", "y", "vx", "vy"] {
            assert!(ball(&s, i, key).is_finite());
        }
    }
    // The trajectory ends with that same state.
    let t = std::fs::read_to_string(dir.path().join("t.csv")).unwrap();
    let last_row = t.lines().last().unwrap();
    assert!(last_row.starts_with(&format!("{steps},")), "{last_row}");
    // The summary still reports the partial run.
    assert!(
        stdout(&o).contains(&format!("({steps} steps of dt = 0.05)")),
        "{}",
        stdout(&o)
    );
}
