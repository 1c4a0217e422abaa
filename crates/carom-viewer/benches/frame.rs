//! The simulation work of one viewer frame, without a window: `Sim::frame` on the
//! `gas` preset (10,000 balls, spring model) at the default 20 sub-steps per frame.
//! That is everything the viewer does per frame except drawing: the steps, the copy
//! of the last good state, and the diagnostics for the panel and the plots.
//!
//! `cargo bench -p carom-viewer --bench frame` (the "steps only" rows are the 20 steps
//! alone, for comparison).

use carom_viewer::sim::{load_preset, sim_for};
use criterion::{criterion_group, criterion_main, Criterion};

fn frame(c: &mut Criterion) {
    let scenario = load_preset("gas").expect("the gas preset");
    let mut group = c.benchmark_group("viewer frame, gas 10k balls, 20 sub-steps");
    // A frame is ~10 ms: ten samples over a few seconds are enough to see it.
    group.sample_size(10);
    group.measurement_time(std::time::Duration::from_secs(4));
    for threads in [1, 2] {
        let mut sim = sim_for(scenario.clone(), "preset gas", threads).expect("gas builds");
        assert_eq!(sim.world().balls().len(), 10_000);
        // Past the start, where the gas is still on its lattice.
        for _ in 0..5 {
            sim.frame();
        }
        group.bench_function(format!("{threads} thread(s)"), |b| {
            b.iter(|| {
                sim.frame();
                assert_eq!(sim.last_frame_steps, 20);
            })
        });
        assert!(sim.step_error.is_none());
        // The steps alone, to tell them from the viewer's own per-frame work.
        let mut world = carom::parse::build_world(&scenario).expect("gas builds");
        world.set_threads(threads).expect("thread pool");
        world.run_steps(100).expect("runs");
        group.bench_function(format!("{threads} thread(s), steps only"), |b| {
            b.iter(|| world.run_steps(20).expect("runs"))
        });
    }
    group.finish();
}

criterion_group!(benches, frame);
criterion_main!(benches);
