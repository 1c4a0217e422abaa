//! `carom view` refuses bad input before any window opens (so these need no display):
//! status 2 and one line on stderr. The window itself is tested under Xvfb by
//! `.ci/viewer-smoke`.

use crate::common;

use std::process::Output;

/// `carom view ARGS` in the current directory (nothing is written there: every case
/// is refused before a window opens).
fn carom(args: &[&str]) -> Output {
    common::carom(std::path::Path::new("."), args)
}

fn one_line_bad_input(o: &Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

#[test]
fn unknown_scenario() {
    let err = one_line_bad_input(&carom(&["view", "no-such-scene"]));
    assert!(err.contains("no-such-scene"), "{err}");
}

#[test]
fn screenshot_must_be_png() {
    let err = one_line_bad_input(&carom(&["view", "break", "--screenshot", "shot.jpg"]));
    assert!(err.contains(".png"), "{err}");
}

#[test]
fn a_seed_is_for_games_only() {
    let err = one_line_bad_input(&carom(&["view", "break", "--seed", "3"]));
    assert!(err.contains("--seed") && err.contains("break"), "{err}");
    let err = one_line_bad_input(&carom(&["view", "nine-ball", "--seed", "x"]));
    assert!(err.contains("--seed"), "{err}");
}

#[test]
fn zero_substeps() {
    let err = one_line_bad_input(&carom(&["view", "break", "--substeps", "0"]));
    assert!(err.contains("substeps"), "{err}");
}

#[test]
fn bad_scenario_file_names_the_field() {
    let dir = std::env::temp_dir().join(format!("carom-view-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.toml");
    std::fs::write(
        &file,
        "[table]\nwidth = 100.0\nheight = 100.0\n\n[physics]\nrestitution = 2.0\n",
    )
    .unwrap();
    let err = one_line_bad_input(&carom(&["view", file.to_str().unwrap()]));
    assert!(
        err.contains("bad.toml") && err.contains("physics.restitution"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn no_display_is_a_clear_failure_not_a_panic() {
    let out = std::process::Command::new(common::bin())
        .args(["view", "break"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .output()
        .expect("the carom binary runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("viewer window") && err.contains("DISPLAY"),
        "{err}"
    );
}
