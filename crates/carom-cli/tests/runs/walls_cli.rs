//! Balls leaving play through the command line: the summary counts them, the
//! diagnostics CSV has `in_play`, the trajectory leaves them out of later frames, the
//! state file marks them `removed`, and a run resumed from it keeps them out, to the
//! bit of an uninterrupted run.

use crate::common;
use common::*;

/// Three balls: one rolls into the pocket at t = (172 - 20) / 3, one out across the
/// open left edge at t = 50 / 2.5 = 20, one stays at rest.
fn scene() -> String {
    fixtures::pocket_and_open_edge("spring", 0.05, "x = 100.0\ny = 50.0\nr = 5.0")
}

#[test]
fn balls_that_leave_play_are_counted_dropped_from_frames_and_stay_out_on_resume() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("s.toml"), scene()).unwrap();
    let out = run_ok(
        dir.path(),
        &[
            "run",
            "s.toml",
            "--steps",
            "2000",
            "--out",
            "end.json",
            "--diagnostics",
            "d.csv",
            "--every",
            "500",
            "--trajectory",
            "t.xyz",
        ],
    );
    assert!(
        out.contains("in play     1 of 3 (2 left play: 1 left, 1 pocket 0;"),
        "{out}"
    );
    let csv = std::fs::read_to_string(dir.path().join("d.csv")).unwrap();
    let mut lines = csv.lines();
    assert!(lines.next().unwrap().ends_with(",in_play,psi6"));
    // in_play is the column before the last (psi6).
    let counts: Vec<&str> = lines.map(|l| l.rsplit(',').nth(1).unwrap()).collect();
    // Sampled at t = 0, 25, 50, 75, 100: the left edge at 20, the pocket at 50.67.
    assert_eq!(counts, ["3", "2", "2", "1", "1"]);
    // Extended XYZ: each frame starts with its ball count.
    let xyz = std::fs::read_to_string(dir.path().join("t.xyz")).unwrap();
    let first: Vec<&str> = xyz.lines().collect();
    assert_eq!(first[0], "3");
    assert_eq!(first[first.len() - 3], "1");
    let end = state(&dir.path().join("end.json"));
    assert_eq!(end["balls"][0]["removed"]["by"], "pocket 0");
    assert_eq!(end["balls"][1]["removed"]["by"], "left");
    assert_eq!(end["diagnostics"]["in_play"], 1);

    // Half way, then resumed: the same final state as the uninterrupted run.
    run_ok(
        dir.path(),
        &[
            "run",
            "s.toml",
            "--steps",
            "1000",
            "--out",
            "half.json",
            "-q",
        ],
    );
    run_ok(
        dir.path(),
        &[
            "run",
            "half.json",
            "--steps",
            "1000",
            "--out",
            "resumed.json",
            "-q",
        ],
    );
    let resumed = state(&dir.path().join("resumed.json"));
    assert_eq!(resumed["balls"], end["balls"]);
}
