//! `carom play`: a game played from a shots file on the real binary, and every class
//! of bad input through the command line's contract (exit 2, one line on stderr
//! naming what is wrong, nothing written although --out and --render were asked for).

use crate::common;
use common::*;

const HEADER: &str = "speed,aim,english,follow,elevation";

fn dir_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(d.path().join(name), text).unwrap();
    }
    d
}

const OUTPUTS: [&str; 4] = ["--out", "g.json", "--render", "r.gif"];

fn play_args<'a>(game: &'a str, shots: &'a str) -> Vec<&'a str> {
    let mut v = vec!["play", game, "--shots", shots];
    v.extend_from_slice(&OUTPUTS);
    v
}

#[test]
fn a_break_and_a_shot_print_verdicts_and_the_saved_game_resumes() {
    let shots = format!("{HEADER}\n6,0.5,0,0,0\n2,30,0,0,0\n");
    let d = dir_with(&[("s.csv", &shots)]);
    let out = run_ok(d.path(), &play_args("nine-ball", "s.csv"));
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("shot 1 (line 2): "), "{out}");
    assert!(lines[1].starts_with("shot 2 (line 3): "), "{out}");
    assert!(out.contains("scores: "));
    let saved = state(&d.path().join("g.json"));
    assert_eq!(saved["state"]["shots"], 2);
    assert!(std::fs::metadata(d.path().join("r.gif")).unwrap().len() > 0);
    // Resumed from the file, with one more shot: the game goes on from shot 2.
    std::fs::write(d.path().join("t.csv"), format!("{HEADER}\n1,90,0,0,0\n")).unwrap();
    run_ok(
        d.path(),
        &["play", "g.json", "--shots", "t.csv", "--out", "h.json"],
    );
    assert_eq!(state(&d.path().join("h.json"))["state"]["shots"], 3);
}

#[test]
fn an_unknown_game_is_refused() {
    let d = dir_with(&[("s.csv", &format!("{HEADER}\n1,0,0,0,0\n"))]);
    bad_input(
        d.path(),
        &play_args("nein-ball", "s.csv"),
        &["unknown game", "nein-ball", "nine-ball"],
    );
}

#[test]
fn malformed_shots_files_name_the_line_and_column() {
    for (text, needles) in [
        ("speed,aim\n1,2\n".to_string(), vec!["s.csv:1", "header"]),
        (
            format!("{HEADER}\n1,0,0,0,0\n1,abc,0,0,0\n"),
            vec!["s.csv:3", "column aim", "abc"],
        ),
        (
            format!("{HEADER}\n1,0,0\n"),
            vec!["s.csv:2", "3 values for 5 columns"],
        ),
        (
            format!("{HEADER}\nNaN,0,0,0,0\n"),
            vec!["s.csv:2", "column speed", "finite"],
        ),
        (
            format!("{HEADER}\n1,inf,0,0,0\n"),
            vec!["s.csv:2", "column aim", "finite"],
        ),
        (
            format!("{HEADER}\n99,0,0,0,0\n"),
            vec!["s.csv:2", "column speed", "at most"],
        ),
        (
            format!("{HEADER}\n1,0,0.7,0.7,0\n"),
            vec!["s.csv:2", "column english"],
        ),
        (
            format!("{HEADER}\n1,0,0,0,90\n"),
            vec!["s.csv:2", "column elevation"],
        ),
        (format!("{HEADER},wat\n"), vec!["s.csv:1", "unknown column"]),
    ] {
        let d = dir_with(&[("s.csv", &text)]);
        bad_input(d.path(), &play_args("nine-ball", "s.csv"), &needles);
    }
}

#[test]
fn a_missing_call_or_a_bad_one_is_refused() {
    // Ten-ball calls every shot after the break.
    let text = format!("{HEADER},call_ball,call_pocket\n6,0.5,0,0,0,,\n2,10,0,0,0,,\n");
    let d = dir_with(&[("s.csv", &text)]);
    bad_input(
        d.path(),
        &play_args("ten-ball", "s.csv"),
        &["s.csv:3", "call", "ten-ball calls every shot"],
    );
    let text = format!("{HEADER},call_ball,call_pocket\n6,0.5,0,0,0,,\n2,10,0,0,0,2,middle\n");
    let d = dir_with(&[("s.csv", &text)]);
    bad_input(
        d.path(),
        &play_args("ten-ball", "s.csv"),
        &["s.csv:3", "call_pocket", "middle"],
    );
}

#[test]
fn a_cue_ball_placed_illegally_or_on_another_ball_is_refused() {
    // The break: ball in hand behind the head string (x <= 0.1524 + 0.635 m).
    let text = format!("{HEADER},cue_x,cue_y\n6,0,0,0,0,1.5,0.7874\n");
    let d = dir_with(&[("s.csv", &text)]);
    bad_input(
        d.path(),
        &play_args("nine-ball", "s.csv"),
        &["s.csv:2", "place_cue_ball", "head string"],
    );
    // Snooker: in the D only.
    let d = dir_with(&[("s.csv", &text)]);
    bad_input(
        d.path(),
        &play_args("snooker", "s.csv"),
        &["s.csv:2", "in the D"],
    );
    // A layout position is not in hand.
    let text = format!("{HEADER},cue_x,cue_y\n6,0.5,0,0,0,,\n2,0,0,0,0,0.5,0.7874\n");
    let d = dir_with(&[("s.csv", &text)]);
    let line = bad_input(
        d.path(),
        &play_args("nine-ball", "s.csv"),
        &["s.csv:3", "place_cue_ball"],
    );
    assert!(
        line.contains("not in hand") || line.contains("overlaps"),
        "{line}"
    );
}

#[test]
fn bad_game_files_and_options_are_refused() {
    let d = dir_with(&[
        ("s.csv", &format!("{HEADER}\n1,0,0,0,0\n")),
        ("bad.json", "{\"version\": 1"),
    ]);
    bad_input(
        d.path(),
        &play_args("bad.json", "s.csv"),
        &["bad.json", "game file"],
    );
    bad_input(
        d.path(),
        &play_args("missing.json", "s.csv"),
        &["missing.json", "cannot read"],
    );
    bad_input(
        d.path(),
        &["play", "nine-ball", "--shots", "s.csv", "--render", "r.png"],
        &["--render", ".gif"],
    );
    bad_input(
        d.path(),
        &play_args("nine-ball", "nothere.csv"),
        &["--shots", "nothere.csv"],
    );
}

#[test]
fn the_agent_plays_seeded_racks_and_prints_its_run_out_rate() {
    let d = tempfile::tempdir().unwrap();
    let args = [
        "play",
        "nine-ball",
        "--agent",
        "--games",
        "2",
        "--seed",
        "7",
    ];
    let out = run_ok(d.path(), &args);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0].starts_with("rack 7: "), "{out}");
    assert!(lines[1].starts_with("rack 8: "), "{out}");
    assert!(lines[2].starts_with("run-outs: "), "{out}");
    assert!(lines[3].starts_with("decision time: "), "{out}");
    // The same seeds play the same racks, shot for shot: the same lines but for the
    // decision time's milliseconds (a clock reading), which are cut off.
    let again = run_ok(d.path(), &args);
    let again: Vec<&str> = again.lines().collect();
    assert_eq!(again[..3], lines[..3]);
    let tail = |l: &str| l.split_once(" per shot").map(|(_, t)| t.to_string());
    assert_eq!(tail(again[3]), tail(lines[3]), "{out}");
    // With noise, another run (the agent's draws from the same seed).
    let noisy = run_ok(
        d.path(),
        &["play", "nine-ball", "--agent", "--noise", "pro"],
    );
    assert!(noisy.contains("run-outs: "), "{noisy}");
    // Nothing written.
    assert!(std::fs::read_dir(d.path()).unwrap().next().is_none());
}

#[test]
fn bad_agent_options_are_refused_in_one_line() {
    let d = dir_with(&[("s.csv", &format!("{HEADER}\n1,0,0,0,0\n"))]);
    let p = d.path();
    let cases: [(&[&str], &[&str]); 7] = [
        (
            &["play", "nine-ball", "--agent", "--games", "0"],
            &["--games", "at least 1"],
        ),
        (
            &["play", "nine-ball", "--agent", "--shots", "s.csv"],
            &["--shots", "--agent"],
        ),
        (
            &["play", "nine-ball", "--agent", "--out", "g.json"],
            &["--out", "--agent"],
        ),
        (
            &["play", "nine-ball", "--games", "3"],
            &["--games", "only with --agent"],
        ),
        (
            &["play", "nine-ball", "--noise", "pro"],
            &["--noise", "only with --agent"],
        ),
        (
            &["play", "nine-ball", "--agent", "--noise", "loud"],
            &["--noise", "loud"],
        ),
        (
            &["play", "nine-ball", "--agent", "--noise", "1,-1,0,0"],
            &["noise.speed"],
        ),
    ];
    for (args, needles) in cases {
        bad_input(p, args, needles);
    }
    bad_input(p, &["play", "g.json", "--agent"], &["--agent", "game file"]);
    bad_input(p, &["play", "nein-ball", "--agent"], &["unknown game"]);
}

#[test]
fn choice_lines_take_the_rules_options_and_the_saved_game_keeps_them() {
    // A push-out after the break, then passed back to the player who pushed out.
    let shots = format!("{HEADER}\n8,0,0,0,0\nchoose,push-out\n0.5,180,0,0,0\n");
    let d = dir_with(&[("s.csv", &shots)]);
    let out = run_ok(d.path(), &play_args("nine-ball", "s.csv"));
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].ends_with("options: push-out"), "{out}");
    assert!(
        lines[1].starts_with("choice (line 3): push-out; player 1"),
        "{out}"
    );
    assert!(lines[2].ends_with("options: accept, pass-back"), "{out}");
    assert!(
        out.ends_with("player 0 to shoot\noptions: accept, pass-back\n"),
        "{out}"
    );
    let saved = state(&d.path().join("g.json"));
    assert_eq!(saved["state"]["options"][1], "pass-back");
    // Resumed: the pending choice is still there; passed back, the pusher shoots.
    std::fs::write(
        d.path().join("t.csv"),
        format!("{HEADER}\nchoose,pass-back\n"),
    )
    .unwrap();
    let out = run_ok(
        d.path(),
        &["play", "g.json", "--shots", "t.csv", "--out", "h.json"],
    );
    assert!(
        out.starts_with("choice (line 2): pass-back; player 1 to shoot"),
        "{out}"
    );
    let h = state(&d.path().join("h.json"));
    assert_eq!(h["state"]["player"], 1);
    assert!(h["state"].get("options").is_none());
    // An illegal eight-ball break re-racked by the incoming player.
    let shots = format!("{HEADER}\n1.2,0,0,0,0\nchoose,re-rack\n");
    let d = dir_with(&[("s.csv", &shots)]);
    let out = run_ok(d.path(), &play_args("eight-ball", "s.csv"));
    assert!(
        out.contains("options: accept, re-rack, re-rack-offender"),
        "{out}"
    );
    assert!(
        out.contains("choice (line 3): re-rack; player 1 to shoot"),
        "{out}"
    );
    let saved = state(&d.path().join("g.json"));
    assert_eq!(saved["state"]["shots"], 0);
    assert_eq!(saved["state"]["ball_in_hand"], "behind-head-string");
}

#[test]
fn bad_choice_lines_are_refused_in_one_line() {
    for (game, text, needles) in [
        (
            "nine-ball",
            format!("{HEADER}\nchoose,wat\n"),
            vec!["s.csv:2", "choose", "\"wat\" is no choice", "pass-back"],
        ),
        (
            "nine-ball",
            format!("{HEADER}\nchoose\n"),
            vec!["s.csv:2", "choose,NAME"],
        ),
        (
            "nine-ball",
            format!("{HEADER}\nchoose,accept,now\n"),
            vec!["s.csv:2", "choose,NAME", "3 values"],
        ),
        // Not on offer: before the break, and a choice of another game.
        (
            "nine-ball",
            format!("{HEADER}\nchoose,push-out\n"),
            vec![
                "s.csv:2",
                "push-out is not on offer in nine-ball",
                "options: none",
            ],
        ),
        (
            "nine-ball",
            format!("{HEADER}\n8,0,0,0,0\nchoose,free-ball\n"),
            vec![
                "s.csv:3",
                "free-ball is not on offer in nine-ball",
                "push-out",
            ],
        ),
        (
            "snooker",
            format!("{HEADER}\nchoose,re-rack\n"),
            vec!["s.csv:2", "re-rack is not on offer in snooker"],
        ),
    ] {
        let d = dir_with(&[("s.csv", &text)]);
        bad_input(d.path(), &play_args(game, "s.csv"), &needles);
    }
}
