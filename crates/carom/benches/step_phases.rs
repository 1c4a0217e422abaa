//! Micro-benchmarks of the phases of a step on the benchmark gas (the `gas` preset,
//! 100,000 balls), so that a regression in one phase shows even when the whole step
//! hides it: broad phase (grid, neighbour list, pair search), forces, integration,
//! whole steps per model, and the contact clusters of the `simultaneous` model when it
//! can run. `cargo bench -p carom --bench step_phases`.

use std::hint::black_box;
use std::time::Duration;

use carom::broadphase::{Grid, NeighbourList};
use carom::models::spring::Spring;
use carom::parse::build_world;
use carom::scenario::Generator;
use carom::ModelKind;
use carom::World;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

const N: u64 = 100_000;

fn gas(n: u64, model: ModelKind) -> Option<World> {
    let mut s = carom::presets::find("gas")?.scenario().ok()?;
    if let Some(Generator::Gas { n: count, .. }) = s.generators.first_mut() {
        *count = Some(n);
    }
    s.physics.model = Some(model);
    build_world(&s).ok()
}

/// A pool of `threads` threads, or none for one thread (as the world does).
fn pool(threads: usize) -> Option<rayon::ThreadPool> {
    (threads > 1).then(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("thread pool")
    })
}

/// A gas that has run a little, so that contacts exist.
fn warm_gas(model: ModelKind) -> Option<World> {
    let mut w = gas(N, model)?;
    w.run_steps(20).ok()?;
    Some(w)
}

fn broad_phase(c: &mut Criterion) {
    let w = warm_gas(ModelKind::Spring).expect("gas scene");
    let (b, table) = (w.balls(), *w.table());
    let reach = 2.0 * b.max_radius();
    let mut g = c.benchmark_group("broad_phase");
    g.throughput(Throughput::Elements(N));
    for threads in [1, 2] {
        let pool = pool(threads);
        let mut grid = Grid::new();
        let mut scratch = Vec::new();
        g.bench_function(BenchmarkId::new("grid_rebuild", threads), |bench| {
            bench.iter(|| grid.rebuild_with(&b.x, &b.y, reach, &table, pool.as_ref(), &mut scratch))
        });
        let mut list = NeighbourList::new();
        g.bench_function(BenchmarkId::new("neighbour_list_build", threads), |bench| {
            bench.iter(|| {
                list.invalidate();
                list.update(&b.x, &b.y, &b.r, 0.8, &table, pool.as_ref())
            })
        });
    }
    let mut grid = Grid::new();
    grid.rebuild(&b.x, &b.y, reach, &table);
    let mut pairs = Vec::new();
    g.bench_function("touching_pairs", |bench| {
        bench.iter(|| {
            grid.touching_pairs(&b.x, &b.y, &b.r, 0.0, &mut pairs);
            black_box(pairs.len())
        })
    });
    g.finish();
}

fn forces(c: &mut Criterion) {
    let w = warm_gas(ModelKind::Spring).expect("gas scene");
    let mut g = c.benchmark_group("forces");
    g.throughput(Throughput::Elements(N));
    for threads in [1, 2] {
        let pool = pool(threads);
        let mut spring = Spring::new(w.balls(), w.physics(), &carom::walls::NO_WALLS);
        g.bench_function(BenchmarkId::new("spring_accelerations", threads), |bench| {
            bench.iter(|| {
                let (ax, _) =
                    spring.accelerations(w.balls(), w.table(), w.physics(), pool.as_ref());
                black_box(ax[0])
            })
        });
    }
    g.finish();
}

fn integration(c: &mut Criterion) {
    let mut w = warm_gas(ModelKind::Impulse).expect("gas scene");
    let mut g = c.benchmark_group("integration");
    g.throughput(Throughput::Elements(N));
    let dt = w.physics().dt;
    // Forward and back, so that the balls stay where they are however long it runs.
    g.bench_function("free_flight", |bench| {
        bench.iter(|| {
            let b = w.balls_mut();
            carom::models::free_flight(b, [0.0, 0.0], dt);
            carom::models::free_flight(b, [0.0, 0.0], -dt);
        })
    });
    g.finish();
}

fn steps(c: &mut Criterion) {
    let mut g = c.benchmark_group("step");
    g.throughput(Throughput::Elements(N));
    for (model, threads) in [
        (ModelKind::Spring, 1),
        (ModelKind::Spring, 2),
        (ModelKind::Impulse, 1),
        (ModelKind::Impulse, 2),
    ] {
        let mut w = warm_gas(model).expect("gas scene");
        w.set_threads(threads).expect("threads");
        g.bench_function(BenchmarkId::new(model.name(), threads), |bench| {
            bench.iter(|| w.step().expect("step"))
        });
    }
    g.finish();
}

fn contact_clusters(c: &mut Criterion) {
    // The simultaneous model's step is dominated by its contact clusters; it is
    // measured only where the model can run this scene.
    let Some(mut w) = warm_gas(ModelKind::Simultaneous) else {
        eprintln!("contact_clusters: the simultaneous model cannot run here; skipped");
        return;
    };
    let mut g = c.benchmark_group("contact_clusters");
    g.throughput(Throughput::Elements(N));
    for threads in [1, 2] {
        w.set_threads(threads).expect("threads");
        g.bench_function(BenchmarkId::new("simultaneous_step", threads), |bench| {
            bench.iter(|| w.step().expect("step"))
        });
    }
    g.finish();
}

fn config() -> Criterion {
    // Short runs: the machine is shared, and a phase that moves by more than the
    // noise of ten samples is what this is for.
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
}

criterion_group! {
    name = phases;
    config = config();
    targets = broad_phase, forces, integration, steps, contact_clusters
}
criterion_main!(phases);
