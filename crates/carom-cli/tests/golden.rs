//! Golden runs: every preset under every model, through the real binary, with every
//! output a run writes (state file, event log, trajectory, diagnostics CSV, the summary
//! and any error line). Each output's bytes are fingerprinted and compared with the
//! manifest `tests/golden/runs.tsv`, committed before the engine's code was moved
//! between modules: moving code must not move a single bit of any result.
//!
//! When a change is meant to change results (new physics with a default that differs,
//! a format change the design asks for), regenerate the manifest with
//! `CAROM_BLESS=1 cargo test -p carom-cli --test golden` and say why in the commit.

mod common;
use common::*;

use std::fmt::Write as _;
use std::path::Path;

const MODELS: [&str; 4] = ["impulse", "spring", "simultaneous", "event"];

/// Steps per preset: long enough that every preset's characteristic events happen
/// (breaks, cushion and pocket hits, budget failures of the event model on the dense
/// granular scenes), short enough that all 96 runs take seconds.
fn steps(preset: &str) -> u64 {
    match preset {
        "gas" | "hard-disks" | "melting" | "cooling" | "jamming" => 60,
        "column" | "galton" | "hopper" | "drum" => 300,
        _ => 2000,
    }
}

/// FNV-1a, 64 bits, over bytes.
fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn file_hash(path: &Path) -> String {
    match std::fs::read(path) {
        Ok(bytes) => format!("{:016x}", fnv(&bytes)),
        Err(_) => "-".to_string(),
    }
}

/// One run's manifest line: preset, model, steps, exit status and the fingerprints.
fn golden_line(preset: &str, model: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let n = steps(preset).to_string();
    let o = carom(
        dir.path(),
        &[
            "run",
            preset,
            "--model",
            model,
            "--steps",
            &n,
            "--out",
            "state.json",
            "--events",
            "events.csv",
            "--trajectory",
            "trajectory.csv",
            "--every",
            "20",
            "--diagnostics",
            "diagnostics.csv",
        ],
    );
    // The summary without its wall-clock line, the one thing that differs between runs.
    let summary: String = stdout(&o)
        .lines()
        .filter(|l| !l.starts_with("wall time"))
        .map(|l| format!("{l}\n"))
        .collect();
    let mut line = format!(
        "{preset}\t{model}\t{n}\t{}",
        o.status
            .code()
            .map_or("signal".to_string(), |c| c.to_string())
    );
    for f in [
        "state.json",
        "events.csv",
        "trajectory.csv",
        "diagnostics.csv",
    ] {
        write!(line, "\t{}", file_hash(&dir.path().join(f))).unwrap();
    }
    write!(
        line,
        "\t{:016x}\t{:016x}",
        fnv(summary.as_bytes()),
        fnv(&o.stderr)
    )
    .unwrap();
    line
}

fn presets() -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    run_ok(dir.path(), &["presets"])
        .lines()
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

#[test]
fn every_preset_under_every_model_keeps_its_bits() {
    let cases: Vec<(String, &str)> = presets()
        .into_iter()
        .flat_map(|p| MODELS.map(|m| (p.clone(), m)))
        .collect();
    // The runs are independent processes: share them among the cores.
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut lines = vec![String::new(); cases.len()];
    let slots: Vec<std::sync::Mutex<&mut String>> =
        lines.iter_mut().map(std::sync::Mutex::new).collect();
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((p, m)) = cases.get(i) else { break };
                **slots[i].lock().unwrap() = golden_line(p, m);
            });
        }
    });
    drop(slots);
    let header =
        "preset\tmodel\tsteps\tstatus\tstate\tevents\ttrajectory\tdiagnostics\tsummary\tstderr";
    let got = std::iter::once(header.to_string())
        .chain(lines)
        .map(|l| l + "\n")
        .collect::<String>();
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/runs.tsv");
    if std::env::var_os("CAROM_BLESS").is_some() {
        std::fs::create_dir_all(manifest.parent().unwrap()).unwrap();
        std::fs::write(&manifest, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&manifest).expect("tests/golden/runs.tsv");
    let differ: Vec<String> = want
        .lines()
        .zip(got.lines())
        .filter(|(a, b)| a != b)
        .map(|(a, b)| format!("  want {a}\n  got  {b}"))
        .collect();
    assert!(
        differ.is_empty() && want.lines().count() == got.lines().count(),
        "{} of {} golden runs changed (CAROM_BLESS=1 rewrites the manifest when a \
         change of results is intended):\n{}",
        differ.len(),
        cases.len(),
        differ.join("\n")
    );
}
