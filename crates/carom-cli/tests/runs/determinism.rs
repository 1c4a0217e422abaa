//! Determinism across the newer features: the `spring` model with periodic boundaries
//! and contact friction writes bit-identical state files and trajectories for one and
//! two threads, and run to run.

use crate::common;
use common::*;

/// A periodic rough gas of 4000 spinning-up disks. The spring model splits its
/// contact and ball passes into blocks of consecutive balls, `block_len(4000)` = 256
/// balls each (see `carom::broadphase::block_len`), so 16 blocks: two threads both get
/// work in every pass. Dense (area fraction 0.45) and fast (speed 2) so that within
/// the run contacts load tangential springs, balls spin up and many cross a periodic
/// side.
const ROUGH_BOX: &str = r#"name = "rough periodic gas"
[table]
boundary = "periodic"
[physics]
model = "spring"
dt = 0.01
stiffness = 100.0
restitution = 0.9
contact_friction = { mu = 0.4, tangential_restitution = 0.5 }
[[generators]]
kind = "gas"
n = 4000
area_fraction = 0.45
r = 1.0
speed = 2.0
seed = 5
"#;

fn run(dir: &std::path::Path, threads: &str, tag: &str) -> (Vec<u8>, Vec<u8>) {
    let (out, traj) = (format!("{tag}.json"), format!("{tag}.csv"));
    let stdout = run_ok(
        dir,
        &[
            "run",
            "box.toml",
            "--steps",
            "300",
            "--threads",
            threads,
            "--out",
            &out,
            "--trajectory",
            &traj,
            "--every",
            "100",
        ],
    );
    // The summary says how many threads ran: the option took effect.
    assert!(
        stdout.contains(&format!("{threads} thread")),
        "threads {threads}: {stdout}"
    );
    (
        std::fs::read(dir.join(out)).unwrap(),
        std::fs::read(dir.join(traj)).unwrap(),
    )
}

#[test]
fn periodic_rough_spring_runs_are_bit_identical_for_one_and_two_threads_and_run_to_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("box.toml"), ROUGH_BOX).unwrap();
    let one = run(d, "1", "one");
    let two = run(d, "2", "two");
    let again = run(d, "2", "again");
    assert!(one.0 == two.0, "state: 1 thread differs from 2");
    assert!(one.1 == two.1, "trajectory: 1 thread differs from 2");
    assert!(two.0 == again.0, "state: two runs with 2 threads differ");
    assert!(
        two.1 == again.1,
        "trajectory: two runs with 2 threads differ"
    );

    // The features under test were really exercised: balls crossed periodic sides,
    // spun up from rest through friction, and contacts held loaded tangential springs.
    let s = state(&d.join("one.json"));
    let balls = s["balls"].as_array().unwrap();
    assert_eq!(balls.len(), 4000);
    let crossed = balls
        .iter()
        .filter(|b| b["ix"].as_i64().unwrap() != 0 || b["iy"].as_i64().unwrap() != 0)
        .count();
    let spinning = balls
        .iter()
        .filter(|b| b["omega"].as_f64().unwrap() != 0.0)
        .count();
    let springs = s["tangential_springs"]["pairs"]
        .as_array()
        .map_or(0, Vec::len);
    assert!(crossed > 0, "no ball crossed a periodic side");
    assert!(spinning > 1000, "only {spinning} balls spin");
    assert!(springs > 0, "no loaded tangential spring in the state");

    // A resumed run is deterministic across thread counts too.
    let resumed = |threads: &str, out: &str| {
        run_ok(
            d,
            &[
                "run",
                "one.json",
                "--steps",
                "50",
                "--threads",
                threads,
                "--out",
                out,
                "-q",
            ],
        );
        std::fs::read(d.join(out)).unwrap()
    };
    assert!(
        resumed("1", "r1.json") == resumed("2", "r2.json"),
        "resume: 1 vs 2 threads"
    );
}

/// An event run that samples nothing goes in chunks (the progress bar's ticks, every
/// 2^20 ball-steps: 52 steps for 20,000 balls) that read nothing, so its state file is
/// the library's single call bit for bit, whether or not a bar is shown. Were a chunk
/// to bring the balls up to date, the model would restart its predictions there and
/// the last bits would differ (see `carom/tests/models/event_lazy.rs`).
#[test]
fn an_event_run_in_chunks_is_one_call_bit_for_bit() {
    use carom::load::{build, Source};
    use carom::overrides::Override;
    let dir = tempfile::tempdir().unwrap();
    let sets = ["generators.0.n=20000", "physics.model=\"event\""];
    let mut args = vec!["run", "gas", "--steps", "300", "--out", "s.json", "--quiet"];
    for s in &sets {
        args.extend(["--set", s]);
    }
    run_ok(dir.path(), &args);
    let file = std::fs::read_to_string(dir.path().join("s.json")).unwrap();

    let sets: Vec<Override> = sets.iter().map(|s| Override::parse(s).unwrap()).collect();
    let loaded = build(&Source::preset("gas").unwrap(), &sets).unwrap();
    let mut session = carom::run::Session::new(loaded);
    session.advance(300, 0, |_| {}).unwrap();
    assert!(session.collisions() > 1000, "{}", session.collisions());
    assert!(file == session.state_json(), "the state files differ");
}

/// Issue 35, as reported: a dense elastic hard-disk fluid (10^4 disks at area fraction
/// 0.55, periodic) in the event model, sampled once over its 400 time units. Some 8
/// million events fall in that one output interval, far beyond the former budget per
/// interval (2 million), yet nothing is degenerate: the run succeeds. The event model
/// samples without changing the dynamics (`dt` only sets when the state is read), so
/// the state file is the one a run sampled every time unit writes, to the bit, but for
/// `physics.dt` and the step count.
#[test]
fn a_dense_gas_sampled_once_ends_as_one_sampled_every_time_unit() {
    let dir = tempfile::tempdir().unwrap();
    let scene = [
        "run",
        "gas",
        "--model",
        "event",
        "--set",
        "table.boundary=periodic",
        "--set",
        "generators.0.n=10000",
        "--set",
        "generators.0.area_fraction=0.55",
        "--time",
        "400",
        "-q",
    ];
    let mut ends = Vec::new();
    for dt in ["400", "1"] {
        let out = format!("dt{dt}.json");
        let mut args = scene.to_vec();
        args.extend(["--dt", dt, "--out", &out]);
        run_ok(dir.path(), &args);
        let mut s = state(&dir.path().join(&out));
        assert_eq!(s["time"].as_f64(), Some(400.0));
        s["physics"]["dt"] = serde_json::Value::Null;
        s["steps"] = serde_json::Value::Null;
        ends.push(s);
    }
    assert_eq!(ends[0], ends[1]);
    // Several million collisions: the interval did hold far more events than the
    // former budget of 2 million.
    let collisions = ends[0]["diagnostics"]["collisions"].as_u64().unwrap();
    assert!(collisions > 2_000_000, "{collisions}");
}
