//! `carom run --events FILE.csv`: the event log as a file. The pool break's log names a
//! pocket row for every ball the state file marks removed, at the same time and into
//! the same pocket, and its first row is the cue ball (ball 0) striking the rack.

use crate::common;
use common::*;

#[test]
fn the_break_log_agrees_with_the_state_file() {
    let dir = tempfile::tempdir().unwrap();
    run_ok(
        dir.path(),
        &["run", "pool", "--events", "e.csv", "--out", "s.json", "-q"],
    );
    let text = std::fs::read_to_string(dir.path().join("e.csv")).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("time,kind,i,j,wall,pocket,impulse,approach_speed,phase")
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert!(rows.iter().all(|r| r.len() == 9), "nine fields a row");
    let first = &rows[0];
    assert_eq!((first[1], first[2], first[3]), ("ball", "0", "1"));
    // Times never go back.
    let times: Vec<f64> = rows.iter().map(|r| r[0].parse().unwrap()).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]));
    let end = state(&dir.path().join("s.json"));
    let balls = end["balls"].as_array().unwrap();
    let mut removed = 0;
    for (i, b) in balls.iter().enumerate() {
        let Some(r) = b.get("removed") else { continue };
        removed += 1;
        let row = rows
            .iter()
            .find(|row| row[1] == "pocket" && row[2] == i.to_string())
            .unwrap_or_else(|| panic!("no pocket row for ball {i}"));
        assert_eq!(row[0].parse::<f64>().unwrap(), r["time"].as_f64().unwrap());
        assert_eq!(format!("pocket {}", row[5]), r["by"].as_str().unwrap());
    }
    assert!(removed > 0, "the break pockets balls");
    assert_eq!(rows.iter().filter(|r| r[1] == "pocket").count(), removed);
}
