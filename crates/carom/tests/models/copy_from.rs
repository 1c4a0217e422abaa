//! `World::copy_from`: a world overwritten with another's state in its own storage
//! continues exactly as the original and as a copy made by `try_clone` do, whatever
//! the world it overwrites held before (further in the same run, or another scene).

use carom::World;

fn preset(name: &str) -> World {
    let scenario = carom::presets::find(name).unwrap().scenario().unwrap();
    carom::parse::build_world(&scenario).unwrap()
}

/// The balls' motion and spins to the bit, the clock and the collisions, after `steps`
/// more unread steps, with the event log's rows of those steps.
fn run(w: &mut World, steps: u64) -> (Vec<u64>, Vec<String>) {
    w.run_steps_unread(steps).unwrap();
    let mut events = Vec::new();
    w.take_events(&mut events);
    w.synchronise();
    let b = w.balls();
    let mut bits: Vec<u64> = [&b.x, &b.y, &b.vx, &b.vy, &b.wx, &b.wy, &b.omega, &b.angle]
        .into_iter()
        .flatten()
        .map(|v| v.to_bits())
        .collect();
    bits.extend([w.time.to_bits(), w.steps, w.collisions()]);
    bits.extend((0..b.len()).map(|i| w.is_in_play(i) as u64));
    let rows = events.iter().map(carom::event_log::csv_line).collect();
    (bits, rows)
}

#[test]
fn a_world_copied_in_place_continues_as_the_original() {
    for name in ["pool", "english-cloth", "stadium"] {
        let mut source = preset(name);
        source.set_event_log(true);
        // Part-way through a run: predictions scheduled, balls at their own times.
        source.run_steps_unread(3).unwrap();
        let mut later = source.try_clone().unwrap();
        later.run_steps_unread(40).unwrap();
        let mut other = preset(if name == "stadium" { "pool" } else { "stadium" });
        other.run_steps_unread(5).unwrap();
        assert!(later.copy_from(&source), "{name}");
        assert!(other.copy_from(&source), "{name}");
        let mut cloned = source.try_clone().unwrap();
        let expected = run(&mut source, 60);
        assert!(!expected.1.is_empty(), "{name}: the run logs events");
        for (what, w) in [
            ("cloned", &mut cloned),
            ("later", &mut later),
            ("other", &mut other),
        ] {
            assert_eq!(run(w, 60), expected, "{name}: {what}");
        }
    }
}

#[test]
fn only_an_event_world_copies_in_place() {
    let event = preset("stadium");
    let mut impulse = preset("level4");
    let before = impulse.balls().x.clone();
    assert!(!impulse.copy_from(&event));
    assert!(!impulse.copy_from(&preset("level4")));
    assert_eq!(impulse.balls().x, before);
    assert!(!preset("stadium").copy_from(&impulse));
}
