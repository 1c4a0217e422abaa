//! No allocation inside a step: once the first steps have grown a model's scratch to
//! the largest problem it meets, stepping allocates nothing, for every model on the
//! scenes it runs (counted on this thread by the binary's allocator; one thread, so
//! that the whole step runs here).

use carom::{ModelKind, World};

use super::simultaneous::allocations;

fn world(preset: &str, model: Option<ModelKind>) -> World {
    let mut s = carom::presets::find(preset).unwrap().scenario().unwrap();
    if model.is_some() {
        s.physics.model = model;
    }
    let mut w = carom::parse::build_world(&s).unwrap();
    w.set_threads(1).unwrap();
    w
}

/// Allocations over `steps` unread steps after `warm` steps of warm-up.
fn allocations_in(w: &mut World, warm: u64, steps: u64) -> u64 {
    w.run_steps_unread(warm).unwrap();
    let before = allocations();
    w.run_steps_unread(steps).unwrap();
    allocations() - before
}

#[test]
fn steady_steps_allocate_nothing_in_any_model() {
    // (preset, model, warm-up steps, counted steps): the tutorial's level under the
    // sequential, spring and simultaneous models, the gas under the spring and event
    // models, dense disks under the event model and the chain sampler, a pool break
    // on cloth (its pocketings, which record where each ball left, in the warm-up),
    // frictional grains in a drum, a collapsing column and plane shear, the stadium.
    let scenes = [
        ("level4", Some(ModelKind::Impulse), 200, 400),
        ("level4", Some(ModelKind::Spring), 200, 400),
        ("gas", Some(ModelKind::Spring), 2000, 400),
        ("gas", Some(ModelKind::Event), 300, 200),
        ("hard-disks", Some(ModelKind::Event), 300, 200),
        ("melting", Some(ModelKind::Chain), 20, 40),
        ("pool", None, 300, 200),
        ("drum", None, 200, 200),
        ("column", None, 1500, 400),
        ("shear", None, 300, 200),
        ("stadium", None, 300, 200),
        ("level4", Some(ModelKind::Simultaneous), 200, 400),
    ];
    let mut report = Vec::new();
    for (preset, model, warm, steps) in scenes {
        let mut w = world(preset, model);
        let n = allocations_in(&mut w, warm, steps);
        let line = format!("{preset} ({:?}): {n} in {steps} steps", w.physics().model);
        report.push((line, n, steps));
    }
    for (line, _, _) in &report {
        println!("{line}");
    }
    for (line, n, steps) in &report {
        // One thread and seeded scenes: the counts are the same on every run. A
        // buffer still grows (by doubling, or by a quarter for the neighbour list)
        // when a step meets a larger problem than any before, which after the warm-up
        // is rare (the gas and the column are still settling: their lists' longest
        // builds still grow now and then); an allocation made by every step, or every
        // twentieth, would count 10 or more in 200 steps.
        assert!(n * 50 <= *steps, "allocated inside steps: {line}");
    }
}
