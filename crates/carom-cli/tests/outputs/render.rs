//! `carom run --render` and `--plot` as a user runs them: the files hold what the run
//! did, and bad requests are refused before anything is run.

use crate::common;
use common::*;

/// (cx, cy, r) of every `<circle>` in an SVG written by --render.
fn circles(svg: &str) -> Vec<(f64, f64, f64)> {
    svg.lines()
        .filter(|l| l.starts_with("<circle "))
        .map(|l| {
            let attr = |name: &str| -> f64 {
                let start = l.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
                let end = start + l[start..].find('"').unwrap();
                l[start..end].parse().unwrap()
            };
            (attr("cx"), attr("cy"), attr("r"))
        })
        .collect()
}

#[test]
fn svg_shows_the_ball_where_uniform_motion_takes_it() {
    // level1: one ball from (100, 150) at velocity (3, 1), no gravity, no wall reached
    // in the default 200 time units: it ends at (700, 350).
    let dir = tempfile::tempdir().unwrap();
    let out = run_ok(dir.path(), &["run", "level1", "--render", "end.svg"]);
    assert!(out.contains("render      end.svg: 1 frame"), "{out}");
    let svg = std::fs::read_to_string(dir.path().join("end.svg")).unwrap();
    let c = circles(&svg);
    assert_eq!(c.len(), 1);
    // 4000 steps of x += v dt: round-off of order 4000 ulps of 700.
    assert!(
        (c[0].0 - 700.0).abs() < 1e-9 && (c[0].1 - 350.0).abs() < 1e-9,
        "{c:?}"
    );
    assert_eq!(c[0].2, 15.0);
}

#[test]
fn gif_has_one_frame_per_sampled_time() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_ok(
        dir.path(),
        &[
            "run", "level1", "--time", "50", "--render", "a.gif", "--fps", "20", "--size",
            "400x300",
        ],
    );
    // 20 fps at 60 time units a second: a frame every 3 time units (60 steps), so
    // frames at t = 0, 3, ..., 48 and the end, 50: 18 frames, 5/100 s each.
    assert!(out.contains("render      a.gif: 18 frames"), "{out}");
    let gif = std::fs::read(dir.path().join("a.gif")).unwrap();
    let mut dec = gif::DecodeOptions::new().read_info(gif.as_slice()).unwrap();
    // The 800 x 400 table (20-unit walls, 840 x 440 in all) fitted to 400 wide:
    // 400 x 210, plus the label strip above.
    assert_eq!(dec.width(), 400);
    assert!(dec.height() > 210 && dec.height() < 260, "{}", dec.height());
    let mut frames = 0;
    while let Some(f) = dec.read_next_frame().unwrap() {
        assert_eq!(f.delay, 5);
        frames += 1;
    }
    assert_eq!(frames, 18);
}

#[test]
fn plot_is_a_picture_of_the_right_size() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_ok(
        dir.path(),
        &["run", "level5", "--time", "100", "--plot", "e.png"],
    );
    assert!(out.contains("plot        e.png"), "{out}");
    let png = std::fs::read(dir.path().join("e.png")).unwrap();
    let mut dec = png::Decoder::new(std::io::Cursor::new(png))
        .read_info()
        .unwrap();
    let mut buf = vec![0; dec.output_buffer_size().unwrap()];
    let info = dec.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (900, 640));
    let white = buf.chunks(3).filter(|p| p == &[255, 255, 255]).count();
    let total = (info.width * info.height) as usize;
    assert!(
        white < total * 98 / 100 && white > total / 2,
        "{white} of {total} white"
    );
    // The SVG form parses as a document with the title in it.
    run_ok(
        dir.path(),
        &["run", "level5", "--time", "100", "--plot", "e.svg", "-q"],
    );
    let svg = std::fs::read_to_string(dir.path().join("e.svg")).unwrap();
    assert!(
        svg.contains("level5: spring model, semi-implicit-euler"),
        "title missing"
    );
}

fn refused(args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let before = files(dir.path());
    let o = carom(dir.path(), args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err:?}");
    assert!(o.stdout.is_empty(), "{args:?}");
    assert_eq!(files(dir.path()), before, "{args:?} left files");
    err
}

#[test]
fn bad_picture_requests_are_refused_before_running() {
    let e = refused(&["run", "level1", "--render", "x.jpg"]);
    assert!(e.contains("'.jpg'"), "{e}");
    let e = refused(&["run", "level1", "--render", "x.gif", "--fps", "60"]);
    assert!(e.contains("--fps"), "{e}");
    let e = refused(&["run", "level1", "--render", "x.gif", "--size", "10x10"]);
    assert!(e.contains("--size"), "{e}");
    let e = refused(&["run", "level1", "--fps", "10"]);
    assert!(e.contains("--render"), "{e}");
    let e = refused(&["run", "level1", "--plot", "x.gif"]);
    assert!(e.contains("--plot"), "{e}");
    let e = refused(&["run", "level1", "--render", "missing/x.gif"]);
    assert!(e.contains("--render") && e.contains("missing"), "{e}");
    let e = refused(&["run", "level1", "--render", "x.png", "--out", "x.png"]);
    assert!(e.contains("same file"), "{e}");
}

/// Four unit balls stacked on the floor of a spring box under gravity.
const COLUMN: &str = r#"name = "column"
[table]
width = 20.0
height = 40.0
[physics]
model = "spring"
dt = 0.002
stiffness = 10000.0
restitution = 0.3
gravity = [0.0, -10.0]
[[generators]]
kind = "lattice"
nx = 1
ny = 4
x0 = 10.0
y0 = 1.0
dx = 2.0
dy = 2.0
r = 1.0
"#;

#[test]
fn force_chains_are_segments_as_wide_as_the_force() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("column.toml"), COLUMN).unwrap();
    let args = [
        "run",
        "column.toml",
        "--steps",
        "4000",
        "--render",
        "f.svg",
        "--draw",
        "forces",
    ];
    run_ok(dir.path(), &args);
    let svg = std::fs::read_to_string(dir.path().join("f.svg")).unwrap();
    let mut widths: Vec<f64> = svg
        .lines()
        .filter(|l| l.contains(r#"class="force""#))
        .map(|l| {
            let start = l.find(r#"stroke-width=""#).unwrap() + 14;
            let end = start + l[start..].find('"').unwrap();
            l[start..end].parse().unwrap()
        })
        .collect();
    widths.sort_by(|a, b| b.total_cmp(a));
    // Settled, the contacts from the floor up carry 3, 2 and 1 ball weights: the
    // lowest is drawn FORCE_WIDTH (0.8) radii wide, the others 2/3 and 1/3 of it.
    assert_eq!(widths.len(), 3, "{svg}");
    for (w, share) in widths.iter().zip([1.0, 2.0 / 3.0, 1.0 / 3.0]) {
        assert!((w - 0.8 * share).abs() < 1e-6, "{widths:?}");
    }
    // The hard models have no forces to draw; an unknown layer is refused too.
    let e = refused(&["run", "level1", "--render", "x.svg", "--draw", "forces"]);
    assert!(e.contains("--draw forces") && e.contains("impulse"), "{e}");
    let e = refused(&["run", "level1", "--render", "x.svg", "--draw", "sparks"]);
    assert!(e.contains("--draw"), "{e}");
}
