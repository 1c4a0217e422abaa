//! The simulation work of one viewer frame, without a window: `Sim::frame` on the
//! `gas` preset (10,000 balls, spring model) at the default 20 sub-steps per frame.
//! That is everything the viewer does per frame except drawing: the steps, the copy
//! of the last good state, and the diagnostics for the panel and the plots.
//!
//! `cargo bench -p carom-viewer --bench frame` (the "steps only" rows are the 20 steps
//! alone, for comparison; "viewer draw" is the CPU side of drawing the balls).

use carom_viewer::app::TableView;
use carom_viewer::sim::{load_preset, sim_for};
use criterion::{criterion_group, criterion_main, Criterion};
use eframe::egui;

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

/// The CPU side of drawing the same 10,000 balls: egui lays the table out and
/// tessellates it into triangles (what is left is the GPU's rasterisation, not
/// measured here). The table area is the central panel of the default window.
fn draw(c: &mut Criterion) {
    let scenario = load_preset("gas").expect("the gas preset");
    let world = carom::parse::build_world(&scenario).expect("gas builds");
    let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 800.0));
    let area = egui::Rect::from_min_max(egui::pos2(342.0, 37.0), egui::pos2(968.0, 600.0));
    let view = TableView::fit(*world.table(), area).expect("the table fits");
    let ctx = egui::Context::default();
    let mut group = c.benchmark_group("viewer draw, gas 10k balls");
    group.sample_size(20);
    group.measurement_time(std::time::Duration::from_secs(3));
    group.bench_function("paint and tessellate", |b| {
        b.iter(|| {
            let input = egui::RawInput {
                screen_rect: Some(screen),
                ..Default::default()
            };
            let out = ctx.run_ui(input, |ui| {
                view.paint(ui.painter(), world.balls(), None, false, false, &[])
            });
            let triangles = ctx.tessellate(out.shapes, out.pixels_per_point);
            std::hint::black_box(triangles.len())
        })
    });
    group.finish();
}

criterion_group!(benches, frame, draw);
criterion_main!(benches);
