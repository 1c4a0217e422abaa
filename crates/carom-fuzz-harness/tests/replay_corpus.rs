//! Replays the committed fuzz corpora (`fuzz/corpus/<target>/`) and the inputs that
//! once failed (`fuzz/regressions/<target>/`) through the targets' bodies: stable Rust,
//! no fuzzing, part of `cargo test`, so that a finding never comes back unnoticed.
//! A panic in a body fails the test with the file's name.

use std::path::{Path, PathBuf};

type Target = fn(&[u8]);

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

/// The files of a corpus directory, sorted so that a failure reproduces in order;
/// a directory that does not exist holds nothing.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    v.retain(|p| p.is_file());
    v.sort();
    v
}

fn replay(name: &str, body: Target) -> usize {
    let mut n = 0;
    for kind in ["corpus", "regressions"] {
        for path in files(&fuzz_dir().join(kind).join(name)) {
            let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let outcome = std::panic::catch_unwind(|| body(&data));
            assert!(outcome.is_ok(), "{name}: {} panicked", path.display());
            n += 1;
        }
    }
    n
}

/// Every file of the target's corpus and regressions; an empty corpus would make the
/// test pass without checking anything, so each is committed with its seeds at least.
fn replay_all(name: &str, body: Target) {
    let n = replay(name, body);
    assert!(
        n > 0,
        "{name}: no corpus files under {}",
        fuzz_dir().display()
    );
}

#[test]
fn scenario_toml_corpus() {
    replay_all("scenario_toml", carom_fuzz_harness::scenario_toml);
}

#[test]
fn scenario_json_corpus() {
    replay_all("scenario_json", carom_fuzz_harness::scenario_json);
}

#[test]
fn state_file_corpus() {
    replay_all("state_file", carom_fuzz_harness::state_file);
}

#[test]
fn set_override_corpus() {
    replay_all("set_override", carom_fuzz_harness::set_override);
}

#[test]
fn short_run_corpus() {
    replay_all("short_run", carom_fuzz_harness::short_run);
}

#[test]
fn short_run_cloth_corpus() {
    replay_all("short_run_cloth", carom_fuzz_harness::short_run_cloth);
}

#[test]
fn game_shots_corpus() {
    replay_all("game_shots", carom_fuzz_harness::game_shots);
}

#[test]
fn game_file_corpus() {
    replay_all("game_file", carom_fuzz_harness::game_file);
}
