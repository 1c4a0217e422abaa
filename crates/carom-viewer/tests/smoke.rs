//! Smoke test of the real viewer: the binary opens its window, runs `FRAMES` frames of
//! the `break` preset, saves a screenshot through `--screenshot`, and the picture is
//! checked against the simulation itself: the felt is there as a table-shaped
//! rectangle, and every ball's colour is found where the same run, replayed here
//! without a window, puts that ball.
//!
//! It needs a display server: without `DISPLAY` it prints a notice and passes, so
//! `cargo test --workspace` runs anywhere. `.ci/viewer-smoke` runs it under Xvfb with
//! Mesa's software OpenGL.

use std::path::{Path, PathBuf};
use std::process::Command;

use carom_viewer::{ball_rgb, TABLE_RGB};

/// Scripted run: the scene and how long it runs before the screenshot.
const SCENE: &str = "break";
const FRAMES: u64 = 300;

/// Says why a test did nothing, past the test harness's output capture (which only
/// catches the print macros), so a skipped smoke test is visible in any `cargo test`.
fn notice(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{text}");
}

fn display_available() -> bool {
    if std::env::var_os("DISPLAY").is_some_and(|d| !d.is_empty()) {
        return true;
    }
    notice(
        "viewer smoke test skipped: no display server (DISPLAY is not set); \
         .ci/viewer-smoke runs it under Xvfb",
    );
    false
}

struct Picture {
    width: usize,
    height: usize,
    rgb: Vec<u8>,
}

impl Picture {
    fn decode(path: &Path) -> Picture {
        let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let decoder = png::Decoder::new(std::io::BufReader::new(file));
        let mut reader = decoder.read_info().expect("a PNG header");
        let mut buf = vec![0; reader.output_buffer_size().expect("image size fits memory")];
        let info = reader.next_frame(&mut buf).expect("PNG pixels");
        let channels = match info.color_type {
            png::ColorType::Rgb => 3,
            png::ColorType::Rgba => 4,
            other => panic!("unexpected PNG colour type {other:?}"),
        };
        assert_eq!(info.bit_depth, png::BitDepth::Eight);
        let (width, height) = (info.width as usize, info.height as usize);
        let mut rgb = Vec::with_capacity(width * height * 3);
        for px in buf[..width * height * channels].chunks_exact(channels) {
            rgb.extend_from_slice(&px[..3]);
        }
        Picture { width, height, rgb }
    }

    fn at(&self, x: usize, y: usize) -> [u8; 3] {
        let i = 3 * (y * self.width + x);
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }
}

fn close(a: [u8; 3], b: [u8; 3], tolerance: u8) -> bool {
    a.iter().zip(b).all(|(&p, q)| p.abs_diff(q) <= tolerance)
}

/// Checks a screenshot of the viewer after `FRAMES` frames of `SCENE` at the default
/// 20 sub-steps per frame.
fn check_screenshot(path: &Path) {
    let pic = Picture::decode(path);
    assert!(
        pic.width >= 400 && pic.height >= 300,
        "tiny screenshot {}x{}",
        pic.width,
        pic.height
    );

    // Not blank: a window of panels, text, plots and balls has many colours.
    let mut colours = std::collections::HashSet::new();
    for px in pic.rgb.chunks_exact(3) {
        colours.insert([px[0], px[1], px[2]]);
    }
    assert!(
        colours.len() > 50,
        "only {} distinct colours: blank window?",
        colours.len()
    );

    // The felt: exact table-coloured pixels, forming a filled rectangle with the
    // table's aspect ratio.
    let (mut x0, mut y0, mut x1, mut y1, mut felt) = (usize::MAX, usize::MAX, 0, 0, 0usize);
    for y in 0..pic.height {
        for x in 0..pic.width {
            if pic.at(x, y) == TABLE_RGB {
                felt += 1;
                (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
            }
        }
    }
    let total = pic.width * pic.height;
    assert!(
        felt * 20 > total,
        "table colour covers only {felt} of {total} pixels"
    );
    let (w_px, h_px) = ((x1 - x0 + 1) as f64, (y1 - y0 + 1) as f64);
    // Balls cover part of the felt; edges may be anti-aliased: 85% is still solid.
    assert!(
        felt as f64 > 0.85 * w_px * h_px,
        "the table colour does not fill its rectangle"
    );

    let scenario = carom::presets::find(SCENE).unwrap().scenario().unwrap();
    let mut world = carom::parse::build_world(&scenario).unwrap();
    let table = *world.table();
    let aspect = (w_px / h_px) / (table.width / table.height);
    // One pixel of rounding at each edge of a rectangle a few hundred pixels wide.
    assert!(
        (aspect - 1.0).abs() < 0.02,
        "table drawn {w_px}x{h_px}, aspect off by {aspect}"
    );

    // Replay the run without a window: the viewer steps a fixed dt, 20 steps a frame,
    // so the state after FRAMES frames is exactly this one.
    world
        .run_steps(FRAMES * u64::from(carom_viewer::DEFAULT_SUBSTEPS))
        .expect("the preset runs");
    let scale = w_px / table.width;
    let balls = world.balls();
    let mut misplaced = Vec::new();
    for i in 0..balls.len() {
        let px = x0 as f64 + balls.x[i] * scale;
        let py = y0 as f64 + balls.y[i] * scale;
        let want = ball_rgb(balls.color[i]);
        // The centre pixel and its neighbours within a third of the drawn radius
        // (about 3 px) must all be the ball's colour: the fill is flat there.
        let reach = (balls.r[i] * scale / 3.0).floor() as i64;
        let mut ok = true;
        for dy in -reach..=reach {
            for dx in -reach..=reach {
                let (x, y) = (px.round() as i64 + dx, py.round() as i64 + dy);
                assert!(x >= 0 && y >= 0 && (x as usize) < pic.width && (y as usize) < pic.height);
                ok &= close(pic.at(x as usize, y as usize), want, 6);
            }
        }
        if !ok {
            misplaced.push(format!(
                "ball {i} at ({:.1}, {:.1}) -> pixel ({px:.0}, {py:.0}) is {:?}, want {want:?}",
                balls.x[i],
                balls.y[i],
                pic.at(px.round() as usize, py.round() as usize)
            ));
        }
    }
    assert!(
        misplaced.is_empty(),
        "balls not where the simulation puts them:\n{}",
        misplaced.join("\n")
    );
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("carom-viewer-smoke-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn viewer_binary_draws_the_table_and_the_balls() {
    if !display_available() {
        return;
    }
    let shot = scratch("viewer.png");
    let _ = std::fs::remove_file(&shot);
    let out = Command::new(env!("CARGO_BIN_EXE_carom-viewer"))
        .args([SCENE, "--frames", &FRAMES.to_string(), "--screenshot"])
        .arg(&shot)
        .output()
        .expect("the viewer binary starts");
    assert!(
        out.status.success(),
        "carom-viewer failed ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    check_screenshot(&shot);
    let _ = std::fs::remove_file(&shot);
}

/// A screenshot taken by another front end of the same viewer (`carom view`), named
/// by `CAROM_VIEWER_SCREENSHOT`, gets the same checks.
#[test]
fn screenshot_from_the_environment_passes_the_same_checks() {
    let Some(path) = std::env::var_os("CAROM_VIEWER_SCREENSHOT") else {
        notice("screenshot check skipped: CAROM_VIEWER_SCREENSHOT is not set (.ci/viewer-smoke sets it)");
        return;
    };
    check_screenshot(Path::new(&path));
}

#[test]
fn bad_screenshot_name_is_a_usage_error() {
    // Refused before any window opens, so this needs no display.
    let out = Command::new(env!("CARGO_BIN_EXE_carom-viewer"))
        .args([
            SCENE,
            "--screenshot",
            &scratch("x.jpg").display().to_string(),
        ])
        .output()
        .expect("the viewer binary starts");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(".png") && err.lines().count() == 1, "{err}");
}

#[test]
fn a_seed_for_a_scenario_is_a_usage_error() {
    // A rack's seed means nothing to a scenario: refused before any window opens.
    let out = Command::new(env!("CARGO_BIN_EXE_carom-viewer"))
        .args([SCENE, "--seed", "3"])
        .output()
        .expect("the viewer binary starts");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--seed") && err.lines().count() == 1, "{err}");
}

#[test]
fn unknown_scenario_is_a_usage_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_carom-viewer"))
        .arg("no-such-scene")
        .output()
        .expect("the viewer binary starts");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no-such-scene") && err.lines().count() == 1,
        "{err}"
    );
}

/// The game mode (`carom-viewer nine-ball`, as `carom view nine-ball`): the rack is
/// drawn where the game racks it, the balls in their dress (the 9 a yellow stripe
/// between white caps, the 1 a yellow solid), and the predicted path of the opening
/// aim runs from the cue ball towards the 1.
fn check_game_screenshot(path: &Path) {
    use carom_games::{GameKind, Setup};
    let pic = Picture::decode(path);
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for y in 0..pic.height {
        for x in 0..pic.width {
            if pic.at(x, y) == TABLE_RGB {
                (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
            }
        }
    }
    assert!(x1 > x0 + 200, "no table in the game window");
    let setup = Setup::new(GameKind::NineBall, 1);
    let world = carom::parse::build_world(&setup.scenario()).unwrap();
    let table = *world.table();
    let (w_px, h_px) = ((x1 - x0 + 1) as f64, (y1 - y0 + 1) as f64);
    let aspect = (w_px / h_px) / (table.width / table.height);
    assert!((aspect - 1.0).abs() < 0.02, "table drawn {w_px}x{h_px}");
    let scale = w_px / table.width;
    let r = setup.table.balls.radius * scale;
    let at = |n: u32, dx: f64, dy: f64| {
        let p = setup.balls.iter().find(|b| b.0 == n).unwrap().1;
        let x = x0 as f64 + p[0] * scale + dx * r;
        let y = y0 as f64 + p[1] * scale + dy * r;
        pic.at(x.round() as usize, y.round() as usize)
    };
    let (white, yellow) = ([255, 255, 255], [0xF4, 0xD0, 0x3F]);
    // 0.8 r from the centre: past the stripe's half height (0.55 r) and the number
    // disc (0.62 r), a pixel and more inside the rim at r ~ 8 px; the tolerance
    // covers anti-aliasing a pixel away.
    assert!(
        close(at(9, 0.0, -0.8), white, 40),
        "9 top cap {:?}",
        at(9, 0.0, -0.8)
    );
    assert!(
        close(at(9, 0.0, 0.8), white, 40),
        "9 bottom cap {:?}",
        at(9, 0.0, 0.8)
    );
    assert!(
        close(at(9, -0.8, 0.0), yellow, 40),
        "9 band {:?}",
        at(9, -0.8, 0.0)
    );
    assert!(
        close(at(1, 0.0, -0.8), yellow, 40),
        "1 {:?}",
        at(1, 0.0, -0.8)
    );
    // The cue ball's predicted path: light pixels halfway to the 1.
    let c = setup.balls.iter().find(|b| b.0 == 0).unwrap().1;
    let one = setup.balls.iter().find(|b| b.0 == 1).unwrap().1;
    let mid = [0.5 * (c[0] + one[0]), 0.5 * (c[1] + one[1])];
    let (mx, my) = (x0 as f64 + mid[0] * scale, y0 as f64 + mid[1] * scale);
    let light = (-2..=2).any(|dy: i64| {
        (-2..=2).any(|dx: i64| {
            let p = pic.at(
                (mx.round() as i64 + dx) as usize,
                (my.round() as i64 + dy) as usize,
            );
            p.iter().all(|&v| v > 150)
        })
    });
    assert!(light, "no predicted path at ({mx:.0}, {my:.0})");
}

#[test]
fn viewer_plays_a_game() {
    if !display_available() {
        return;
    }
    let shot = scratch("game.png");
    let _ = std::fs::remove_file(&shot);
    let out = Command::new(env!("CARGO_BIN_EXE_carom-viewer"))
        .args(["nine-ball", "--frames", "30", "--screenshot"])
        .arg(&shot)
        .output()
        .expect("the viewer binary starts");
    assert!(
        out.status.success(),
        "carom-viewer nine-ball failed ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    check_game_screenshot(&shot);
    let _ = std::fs::remove_file(&shot);
}

/// `carom view nine-ball`'s screenshot, named by `CAROM_GAME_SCREENSHOT`
/// (.ci/viewer-smoke), gets the same checks.
#[test]
fn game_screenshot_from_the_environment_passes_the_same_checks() {
    let Some(path) = std::env::var_os("CAROM_GAME_SCREENSHOT") else {
        notice("game screenshot check skipped: CAROM_GAME_SCREENSHOT is not set");
        return;
    };
    check_game_screenshot(Path::new(&path));
}
