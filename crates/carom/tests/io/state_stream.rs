//! A state file encoded ball by ball (`StateFile`) is byte for byte the one encoded
//! from the whole `snapshot`: for every preset under its own model after a short run
//! (walls, pockets and balls out of play, contact friction with its springs, spin,
//! periodic image counts, kinematic balls, symmetry declarations among them), and for
//! a session's state with its description and diagnostics.

use carom::parse::build_world;
use carom::presets::PRESETS;
use carom::state::{snapshot, snapshot_head, StateFile};

#[test]
fn a_state_streamed_ball_by_ball_is_the_whole_snapshot_byte_for_byte() {
    for p in PRESETS {
        let s = p.scenario().unwrap();
        let mut w = build_world(&s).unwrap();
        // Long enough for the pool's break to pocket balls (its first drops after 6.1 s
        // on the event model's exact cloth) and the hopper to lose grains, short enough
        // to keep the test quick.
        let steps = match p.name {
            "pool" => 1000,
            "hopper" => 200,
            "gas" | "hard-disks" | "cooling" | "galton" | "drum" | "column" | "jamming"
            | "melting" => 20,
            _ => 100,
        };
        w.run_steps(steps).unwrap();
        let whole = serde_json::to_string_pretty(&snapshot(&w, s.duration)).unwrap();
        let head = snapshot_head(&w, s.duration);
        assert!(head.balls.is_empty());
        let streamed = serde_json::to_string_pretty(&StateFile {
            head: &head,
            world: &w,
        })
        .unwrap();
        assert!(
            whole == streamed,
            "preset {}: streamed state differs",
            p.name
        );
        if p.name == "pool" {
            assert!(whole.contains("\"removed\""), "the pool run pockets balls");
        }
    }
}

#[test]
fn a_session_state_streams_to_the_same_text() {
    let src = carom::load::Source::preset("english").unwrap();
    let loaded = carom::load::build(&src, &[]).unwrap();
    let mut session = carom::run::Session::new(loaded);
    session.world.run_steps(50).unwrap();
    let head = session.state_head();
    let mut streamed = serde_json::to_string_pretty(&StateFile {
        head: &head,
        world: &session.world,
    })
    .unwrap();
    streamed.push('\n');
    assert_eq!(streamed, session.state_json());
    assert!(streamed.contains("\"description\""));
}
