//! Output files are never half written: a run killed with SIGKILL at a random moment
//! (no handler can run, so nothing gets to clean up) leaves each target either exactly
//! the previous file or exactly the complete new one. The new one is known in advance:
//! runs are deterministic, so an uninterrupted run of the same command writes the very
//! bytes a run that got to its rename would have. What a kill can leave besides is the
//! temporary file being written, always named `.carom-*.tmp` (hidden, `.tmp`), in the
//! target's directory: never a name that could be taken for an output.

#![cfg(unix)]

use crate::common;
use common::*;

use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// splitmix64: enough randomness for kill delays, without a dependency.
struct Rng(u64);

impl Rng {
    fn unit(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A seed from the clock, or `CAROM_KILL_SEED` to replay a failure (the seed is in
/// every assertion message).
fn seed() -> u64 {
    std::env::var("CAROM_KILL_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        })
}

/// A run long enough to be caught in the act, with outputs of a few megabytes: a
/// 3000-ball gas for 400 steps, the trajectory sampled every 25 steps (17 frames of
/// 3000 rows) and the final state.
const RUN: &[&str] = &[
    "run",
    "gas",
    "--set",
    "generators.0.n=3000",
    "--steps",
    "400",
    "--every",
    "25",
    "--threads",
    "1",
    "-q",
];

const TARGETS: [&str; 3] = ["out.json", "t.xyz", "d.csv"];

fn args_with_outputs(run: &[&'static str]) -> Vec<&'static str> {
    let mut a = run.to_vec();
    a.extend_from_slice(&[
        "--out",
        "out.json",
        "--trajectory",
        "t.xyz",
        "--diagnostics",
        "d.csv",
    ]);
    a
}

fn read_all(dir: &Path) -> Vec<Vec<u8>> {
    TARGETS
        .iter()
        .map(|t| std::fs::read(dir.join(t)).unwrap())
        .collect()
}

/// Entries of `dir` other than the targets: leftover temporaries, which must carry
/// the documented name. Removes them, so each round starts clean.
fn leftovers(dir: &Path, seed: u64) -> usize {
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        if TARGETS.contains(&name.as_str()) {
            continue;
        }
        assert!(
            name.starts_with(".carom-") && name.ends_with(".tmp"),
            "seed {seed}: unexpected file {name} left by a killed run"
        );
        std::fs::remove_file(dir.join(&name)).unwrap();
        n += 1;
    }
    n
}

#[test]
fn a_run_killed_at_a_random_moment_leaves_the_previous_or_the_whole_new_outputs() {
    let seed = seed();
    let mut rng = Rng(seed);
    let dir = tempfile::tempdir().unwrap();
    let (work, reference) = (dir.path().join("work"), dir.path().join("ref"));
    std::fs::create_dir(&work).unwrap();
    std::fs::create_dir(&reference).unwrap();

    // The previous outputs: a shorter run of the same scene (different bytes).
    let mut short = RUN.to_vec();
    short[5] = "20";
    run_ok(&work, &args_with_outputs(&short));
    let previous = read_all(&work);

    // The complete new outputs, and how long a whole run takes on this machine now:
    // the quickest of three (the first pays for a cold start the later ones do not,
    // and a delay drawn over too long a run would kill too few).
    let args = args_with_outputs(RUN);
    let mut whole = Duration::MAX;
    let mut new = Vec::new();
    for _ in 0..3 {
        let clock = Instant::now();
        run_ok(&reference, &args);
        whole = whole.min(clock.elapsed());
        let written = read_all(&reference);
        assert!(
            new.is_empty() || new == written,
            "the run is not deterministic"
        );
        new = written;
    }
    for (i, t) in TARGETS.iter().enumerate() {
        assert_ne!(
            previous[i], new[i],
            "{t}: the two runs must differ to tell apart"
        );
    }
    // The new state file is a valid scenario: it resumes.
    run_ok(&reference, &["run", "out.json", "--steps", "1", "-q"]);

    // Kills at delays drawn over the whole run (and a little past it, to catch the
    // renames at its very end); every other round draws from its last third only,
    // where the outputs are committed, since the writes there are brief.
    const ROUNDS: usize = 14;
    let (mut killed, mut kept_previous, mut got_new, mut temporaries) = (0, 0, 0, 0);
    for round in 0..ROUNDS {
        for (i, t) in TARGETS.iter().enumerate() {
            std::fs::write(work.join(t), &previous[i]).unwrap();
        }
        let u = rng.unit();
        let fraction = if round % 2 == 0 {
            1.15 * u
        } else {
            0.7 + 0.45 * u
        };
        let delay = whole.mul_f64(fraction);
        let mut child = Command::new(bin())
            .args(&args)
            .current_dir(&work)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(delay);
        // SIGKILL (Child::kill on unix). If the run had already finished, the
        // signal reaches nothing and the status says it exited normally.
        let _ = child.kill();
        let status = child.wait().unwrap();
        if status.signal() == Some(9) {
            killed += 1;
        } else {
            assert_eq!(
                status.code(),
                Some(0),
                "seed {seed} round {round}: {status}"
            );
        }
        let now = read_all(&work);
        for (i, t) in TARGETS.iter().enumerate() {
            if now[i] == previous[i] {
                kept_previous += 1;
            } else if now[i] == new[i] {
                got_new += 1;
            } else {
                panic!(
                    "seed {seed} round {round} (killed after {delay:?} of a {whole:?} run): \
                     {t} is neither the previous file ({} bytes) nor the new one ({} bytes) \
                     but {} bytes",
                    previous[i].len(),
                    new[i].len(),
                    now[i].len()
                );
            }
        }
        temporaries += leftovers(&work, seed);
    }
    eprintln!(
        "seed {seed}: whole run {whole:?}; {killed} of {ROUNDS} runs killed; targets left \
         previous {kept_previous}, new {got_new}; {temporaries} temporaries left"
    );
    // Half the rounds draw their delay uniformly over 1.15 runs, so about six of the
    // seven are killed before the end; none at all would mean the test killed nothing
    // and proved nothing.
    assert!(killed > 0, "seed {seed}: no run was killed");
}
