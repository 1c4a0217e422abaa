//! Helpers shared by the command-line tests: running the binary, reading what it
//! printed and wrote, and the bad-input contract (exit 2, one line, nothing written).
//! Each test file uses its own subset, hence the `dead_code` allowance.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Scene texts shared with the engine's tests.
#[path = "../../../carom/tests/common/fixtures.rs"]
pub mod fixtures;

/// The `carom` binary built for these tests.
pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_carom")
}

/// Runs `carom` with `args` in `dir` and waits for it.
pub fn carom(dir: &Path, args: &[&str]) -> Output {
    Command::new(bin())
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the carom binary runs")
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Every entry of `dir` (hidden ones included, so a leftover temporary shows).
pub fn files(dir: &Path) -> BTreeSet<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect()
}

/// Runs `carom` and asserts it succeeded; returns its stdout.
pub fn run_ok(dir: &Path, args: &[&str]) -> String {
    let o = carom(dir, args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

/// A JSON file (a state file) as a value.
pub fn state(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The bad-input contract: `args` run in `dir` exit with status 2, print nothing on
/// stdout and exactly one line on stderr containing every one of `needles`, and leave
/// the directory as it was (no output file, no temporary). Returns the line, without
/// its newline.
pub fn bad_input(dir: &Path, args: &[&str], needles: &[&str]) -> String {
    let before = files(dir);
    let o = carom(dir, args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(o.stdout.is_empty(), "{args:?}: stdout {}", stdout(&o));
    assert!(
        err.ends_with('\n') && err.lines().count() == 1,
        "{args:?}: not one line: {err:?}"
    );
    for n in needles {
        assert!(err.contains(n), "{args:?}: {err:?} does not name {n:?}");
    }
    assert_eq!(files(dir), before, "{args:?} wrote something");
    err.trim_end().to_string()
}

/// Every output a run can be asked for, so that "nothing written" covers each kind of
/// file.
pub const OUTPUTS: [&str; 6] = [
    "--out",
    "out.json",
    "--trajectory",
    "t.csv",
    "--render",
    "r.png",
];

/// `carom run FILE EXTRA... ` with every one of `OUTPUTS` asked for.
pub fn run_args<'a>(file: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["run", file];
    args.extend_from_slice(extra);
    args.extend_from_slice(&OUTPUTS);
    args
}

/// `base` with its `nth` line (from 0) for which `pick` holds replaced by `line`; the
/// text and that line's 1-based number, which an error must name.
pub fn replace_nth(
    base: &str,
    pick: impl Fn(&str) -> bool,
    nth: usize,
    line: &str,
) -> (String, usize) {
    let at = base
        .lines()
        .enumerate()
        .filter(|(_, l)| pick(l))
        .nth(nth)
        .map(|(i, _)| i)
        .unwrap_or_else(|| panic!("no line number {nth} of that kind to replace by {line:?}"));
    let text: Vec<&str> = base
        .lines()
        .enumerate()
        .map(|(i, l)| if i == at { line } else { l })
        .collect();
    (text.join("\n") + "\n", at + 1)
}

/// `base` with its first line starting with `key =` replaced by `line`.
pub fn replace_key(base: &str, key: &str, line: &str) -> (String, usize) {
    let prefix = format!("{key} =");
    replace_nth(base, |l| l.starts_with(&prefix), 0, line)
}
