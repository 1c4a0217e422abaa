//! The benchmark harness runs end to end in quick mode on tiny scenes (no peer engine
//! unless the crate was built with it), so that it cannot rot between full runs. This
//! checks the harness, not speed: rates only have to be positive and finite.

use std::process::Command;

#[test]
fn quick_mode_prints_a_complete_table() {
    let out = Command::new(env!("CARGO_BIN_EXE_carom-bench"))
        .args(["--quick", "--n", "300,700", "--drift-steps", "40"])
        .output()
        .expect("the benchmark binary runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "failed: {}\n{text}",
        String::from_utf8_lossy(&out.stderr)
    );
    for n in ["300", "700"] {
        for engine in [
            "carom spring (1 thread)",
            "carom spring (2 threads)",
            "carom impulse (2 threads)",
        ] {
            let row = text
                .lines()
                .find(|l| l.starts_with(&format!("| {n} | {engine} |")))
                .unwrap_or_else(|| panic!("no row for {engine} at N = {n}:\n{text}"));
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            // | N | engine | ball-steps/s | ratio | per CPU-second | bytes/ball | drift |
            for cell in [cells[3], cells[5]] {
                let rate: f64 = cell
                    .split_whitespace()
                    .next()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or_else(|| panic!("no rate in {row}"));
                assert!(rate > 0.0 && rate.is_finite(), "{row}");
            }
            let bytes: f64 = cells[6].parse().unwrap_or_else(|_| panic!("{row}"));
            assert!(bytes > 0.0, "{row}");
            let drift: f64 = cells[7].parse().unwrap_or_else(|_| panic!("{row}"));
            assert!(drift.is_finite(), "{row}");
        }
        // The energy table has a row per size.
        assert!(
            text.lines()
                .any(|l| l.starts_with(&format!("| {n} | 40 |"))),
            "no energy row for N = {n}:\n{text}"
        );
        // 1 and 2 threads give the same bits (the model's promise, checked end to end).
        let identity = text
            .lines()
            .find(|l| {
                l.starts_with(&format!("| {n} | ")) && l.ends_with("|") && l.split('|').count() == 6
            })
            .unwrap_or_else(|| panic!("no identity row for N = {n}:\n{text}"));
        assert!(identity.contains("| yes |"), "{identity}");
    }
}

#[test]
fn bad_arguments_are_refused_with_a_clear_line() {
    let out = Command::new(env!("CARGO_BIN_EXE_carom-bench"))
        .args(["--n", "ten"])
        .output()
        .expect("the benchmark binary runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--n") && err.contains("ten"), "{err}");
}
