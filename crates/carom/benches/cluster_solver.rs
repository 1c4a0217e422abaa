//! The simultaneous model's cluster solver (one exact NNLS solve of a cluster of
//! contacts, every contact active) on clusters of 2 to 64 contacts: a chain (tridiagonal
//! contact matrix, every impulse positive) and a patch of a hexagonal lattice (loops,
//! rank-deficient, impulses of mixed activity). Also the full resolution of a break:
//! the cue ball meeting a tight 15-ball rack, propagation loop included.

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion};

use carom::models::simultaneous::{resolve_contacts, ContactSolver};
use carom::models::Contact;
use carom::SplitMix64;
use carom::{Ball, Balls, Table};

const SIZES: [usize; 6] = [2, 4, 8, 16, 32, 64];
const TABLE: Table = Table::new(4000.0, 4000.0);

fn touching_pairs(b: &Balls) -> Vec<Contact> {
    let mut out = Vec::new();
    for i in 0..b.len() {
        for j in i + 1..b.len() {
            if (b.x[j] - b.x[i]).hypot(b.y[j] - b.y[i]) <= (b.r[i] + b.r[j]) * (1.0 + 1e-12) {
                out.push(Contact::Pair(i as u32, j as u32));
            }
        }
    }
    out
}

/// `contacts + 1` touching balls in a row, each slower than the one behind it, so
/// every contact approaches.
fn chain(contacts: usize) -> (Balls, Vec<Contact>) {
    let balls: Vec<Ball> = (0..=contacts)
        .map(|k| Ball::new(100.0 + 20.0 * k as f64, 2000.0, -(k as f64), 0.0, 10.0, 1.0))
        .collect();
    let b = Balls::from_vec(&balls);
    let c = touching_pairs(&b);
    (b, c)
}

/// A hexagonal patch of touching balls with random velocities, cut to the first
/// `contacts` contacts.
fn lattice(contacts: usize) -> (Balls, Vec<Contact>) {
    let mut rng = SplitMix64(9);
    let side = 2 + (contacts as f64).sqrt().ceil() as usize;
    let mut balls = Vec::new();
    for row in 0..side {
        for col in 0..side {
            let x = 100.0 + 20.0 * col as f64 + if row % 2 == 1 { 10.0 } else { 0.0 };
            let y = 100.0 + 20.0 * 3f64.sqrt() / 2.0 * row as f64;
            balls.push(Ball::new(
                x,
                y,
                3.0 * rng.symmetric(),
                3.0 * rng.symmetric(),
                10.0,
                1.0,
            ));
        }
    }
    let b = Balls::from_vec(&balls);
    let mut c = touching_pairs(&b);
    assert!(c.len() >= contacts);
    c.truncate(contacts);
    (b, c)
}

/// The cue ball touching the apex of a tight 15-ball rack.
fn rack() -> (Balls, Vec<Contact>) {
    let r = 10.0;
    let mut balls = vec![Ball::new(300.0, 2000.0, 8.0, 0.0, r, 1.0)];
    for k in 0..5 {
        for j in 0..=k {
            let y = 2000.0 + (j as f64 - 0.5 * k as f64) * 2.0 * r;
            balls.push(Ball::new(
                320.0 + k as f64 * r * 3f64.sqrt(),
                y,
                0.0,
                0.0,
                r,
                1.0,
            ));
        }
    }
    let b = Balls::from_vec(&balls);
    let c = touching_pairs(&b);
    (b, c)
}

fn bench(c: &mut Criterion) {
    let mut solver = ContactSolver::new();
    for (name, build) in [
        ("chain", chain as fn(usize) -> (Balls, Vec<Contact>)),
        ("lattice", lattice),
    ] {
        let mut group = c.benchmark_group(format!("cluster_solver/{name}"));
        for &n in &SIZES {
            let (balls, contacts) = build(n);
            assert_eq!(contacts.len(), n);
            group.bench_with_input(BenchmarkId::from_parameter(n), &n, |bench, _| {
                bench.iter_batched_ref(
                    || balls.clone(),
                    |b| solver.solve_all_active(b, &contacts, 1.0, None)[0],
                    BatchSize::SmallInput,
                )
            });
        }
        group.finish();
    }
    let (balls, contacts) = rack();
    c.bench_function("resolve/break_rack", |bench| {
        bench.iter_batched_ref(
            || balls.clone(),
            |b| resolve_contacts(b, &TABLE, &contacts, 1.0, &mut solver),
            BatchSize::SmallInput,
        )
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
