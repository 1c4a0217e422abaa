//! Events per second of the `event` model on the `gas` preset (area fraction 0.3, unit
//! disks) at 10,000 and 100,000 balls.
//!
//! Each measured iteration advances a warmed-up gas by one time unit, either sampled
//! every 0.01 (the preset's output interval: each interval also brings every ball to
//! the same time for output, O(N)) or in a single interval (the event engine alone).
//! Throughput is in events (collisions and cell crossings); the counts of each, which
//! are deterministic, are printed once per case so collisions per second follow too.
//!
//! `cargo bench -p carom --bench event`

use std::hint::black_box;

use carom::models::event::Event;
use carom::models::{CollisionModel, StepContext};
use carom::parse::build_world;
use carom::scenario::Generator;
use carom::ModelKind;
use carom::{Balls, Physics, Table};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};

#[derive(Clone)]
struct Gas {
    model: Event,
    balls: Balls,
    table: Table,
    physics: Physics,
}

impl Gas {
    fn new(n: u64, dt: f64) -> Gas {
        let mut s = carom::presets::find("gas")
            .expect("gas preset")
            .scenario()
            .expect("gas preset parses");
        match &mut s.generators[0] {
            Generator::Gas { n: count, .. } => *count = Some(n),
            _ => panic!("the gas preset starts with a gas generator"),
        }
        s.physics.model = Some(ModelKind::Event);
        s.physics.dt = dt;
        let w = build_world(&s).expect("gas world builds");
        let (balls, table, physics) = (w.balls().clone(), *w.table(), *w.physics());
        let model = Event::new(&balls, &table, &physics).expect("event model");
        let mut gas = Gas {
            model,
            balls,
            table,
            physics,
        };
        // Leave the initial lattice behind: two time units of free evolution.
        gas.run(2.0);
        gas
    }

    fn run(&mut self, span: f64) {
        let steps = (span / self.physics.dt).round() as u64;
        for _ in 0..steps {
            self.model
                .step(StepContext {
                    balls: &mut self.balls,
                    table: &self.table,
                    physics: &self.physics,
                    pool: None,
                    walls: &carom::walls::NO_WALLS,
                    in_play: None,
                })
                .expect("gas step");
        }
    }
}

fn gas_events(c: &mut Criterion) {
    let mut group = c.benchmark_group("event_gas");
    group.sample_size(10);
    for n in [10_000u64, 100_000] {
        for dt in [0.01, 1.0] {
            let warm = Gas::new(n, dt);
            // Count what one iteration does (the run is deterministic).
            let mut probe = warm.clone();
            let (e0, c0, x0) = (
                probe.model.events(),
                probe.model.collisions(),
                probe.model.crossings(),
            );
            probe.run(1.0);
            let events = probe.model.events() - e0;
            eprintln!(
                "event_gas n={n} dt={dt}: per time unit {events} events = {} collisions + {} \
                 cell crossings",
                probe.model.collisions() - c0,
                probe.model.crossings() - x0
            );
            group.throughput(Throughput::Elements(events));
            group.bench_function(format!("n={n}/dt={dt}"), |b| {
                b.iter_batched(
                    || warm.clone(),
                    |mut g| {
                        g.run(1.0);
                        // Returned, so that freeing it is not timed.
                        black_box(g)
                    },
                    BatchSize::PerIteration,
                )
            });
        }
    }
    group.finish();
}

criterion_group!(benches, gas_events);
criterion_main!(benches);
