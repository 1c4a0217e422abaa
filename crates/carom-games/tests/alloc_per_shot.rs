//! How many allocations a shot of a batch makes once the batch is under way, counted
//! by a global allocator that tallies every allocation of this test binary.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

use carom_games::batch::{simulate_shots, Batch};
use carom_games::shot::Position;
use carom_games::{Game, GameKind, Shot, ShotResult};

struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// SAFETY: every call is passed on to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

fn returned_lists(r: &ShotResult) -> u64 {
    let f = &r.facts;
    [
        r.events.len(),
        r.options.len(),
        f.cue_contacts.len(),
        f.cushions.len(),
        f.pocketed.len(),
        f.positions.len(),
    ]
    .iter()
    .filter(|&&len| len > 0)
    .count() as u64
}

fn mid_game() -> (Game, Vec<Shot>) {
    let mut g = Game::new(GameKind::NineBall, 1);
    g.shoot(&Shot::new(6.0, 0.5), None).unwrap();
    let shots = (0..40)
        .map(|k| Shot::new(1.5 + 0.05 * k as f64, 9.0 * k as f64))
        .collect();
    (g, shots)
}

/// Allocations made while `f` runs (the test's other threads are idle: this binary
/// holds one test, whose parts run in turn, those without threads first, since a
/// pool's threads may still be ending, and allocating, after it is dropped).
fn allocations(f: impl FnOnce()) -> u64 {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    f();
    ALLOCATIONS.load(Ordering::Relaxed) - before
}

#[test]
fn allocations_per_shot_alone_in_a_batch_and_in_a_kept_batch() {
    allocations_per_shot();
    a_kept_batch_allocates_nothing_per_shot();
}

fn allocations_per_shot() {
    let (g, shots) = mid_game();
    let position = Position::new(&g.setup()).unwrap();
    // Warm: the first shots make the position's storage and grow its arrays.
    for s in &shots {
        position.simulate(0, s).unwrap();
    }
    // Each shot's allocations beside the lists of the outcome it returns.
    let mut engine = 0.0;
    for (k, s) in shots.iter().enumerate() {
        let mut out = None;
        let n = allocations(|| out = Some(position.simulate(0, s).unwrap()));
        let out = out.unwrap();
        let f = &out.facts;
        let lists = [
            out.events.len(),
            f.cue_contacts.len(),
            f.cushions.len(),
            f.pocketed.len(),
            f.positions.len(),
        ];
        let made = lists.iter().filter(|&&len| len > 0).count() as u64;
        assert_eq!(n, made, "shot {k}: {n} allocations, {made} outcome lists");
        engine += n as f64 / shots.len() as f64;
    }
    // A batch of four rounds of the shots against one of two: the difference is two
    // rounds' own allocations, the batch's fixed costs (the pool, each thread's copy
    // of the position and of the game) cancelling. What the shots return is counted
    // from the results: each non-empty list once, each foul's two strings.
    let batch = |rounds: usize| {
        let shots: Vec<Shot> = shots
            .iter()
            .cycle()
            .take(rounds * shots.len())
            .copied()
            .collect();
        let mut results = Vec::new();
        let n = allocations(|| results = simulate_shots(&g, &shots, None, 1).unwrap());
        (n, results)
    };
    let returned = |results: &[Result<ShotResult, String>]| -> u64 {
        results
            .iter()
            .map(|r| {
                let r = r.as_ref().unwrap();
                returned_lists(r) + 2 * r.foul.is_some() as u64
            })
            .sum()
    };
    batch(2);
    let (n2, r2) = batch(2);
    let (n4, r4) = batch(4);
    let made = (n4 - n2) as f64;
    let own = (returned(&r4) - returned(&r2)) as f64;
    let shots_n = 2.0 * shots.len() as f64;
    println!(
        "allocations per shot: {engine:.1} simulating; in a batch {:.2}, of which returned {:.2}",
        made / shots_n,
        own / shots_n
    );
    // The rest is the growth of the storage a thread reuses (the position's world and
    // lists, the game's and the spare lists of balls) to the largest shot it meets,
    // made once in each half of a batch (rayon's one split on one thread) and not per
    // shot: a few allocations whatever the batch's length. An allocation made by
    // every shot, or by one shot in four, would add 0.25 a shot or more.
    assert!(
        (made - own) / shots_n < 0.25,
        "{made} allocations for {shots_n} shots, {own} of them returned"
    );
}

/// The allocations of a foul's text: its rule and what happened, two strings.
fn foul_texts(results: &[Result<ShotResult, String>]) -> u64 {
    results
        .iter()
        .map(|r| 2 * r.as_ref().unwrap().foul.is_some() as u64)
        .sum()
}

fn a_kept_batch_allocates_nothing_per_shot() {
    let (g, shots) = mid_game();
    let rounds = |n: usize| -> Vec<Shot> {
        shots
            .iter()
            .cycle()
            .take(n * shots.len())
            .copied()
            .collect()
    };
    let (two, four) = (rounds(2), rounds(4));
    for threads in [1, 2] {
        let mut batch = Batch::new(threads).unwrap();
        // Warm: the first batches make each thread's storage and the results' lists
        // and grow them to the longest shot each meets.
        for _ in 0..3 {
            batch.simulate(&g, &four, None);
        }
        // Each length's fewest allocations over three batches, a foul's text (two
        // strings a fouling shot) set aside: on two threads which thread takes which
        // run of shots varies, so a thread's storage may still, once, be made or
        // meet a longer shot than any before; the fewest is the batch's own cost.
        let mut made = [u64::MAX; 2];
        for (k, shots) in [&two, &four].into_iter().enumerate() {
            let fouls = foul_texts(batch.simulate(&g, shots, None));
            for _ in 0..3 {
                let n = allocations(|| {
                    batch.simulate(&g, shots, None);
                });
                made[k] = made[k].min(n - fouls);
            }
        }
        // The same results as shooting afresh, bit for bit (as their debug text: the
        // event log's NaN fields make rows unequal to themselves as numbers).
        let fresh = format!("{:?}", simulate_shots(&g, &four, None, threads).unwrap());
        assert_eq!(format!("{:?}", batch.simulate(&g, &four, None)), fresh);
        // A batch's own allocations do not grow with its shots: twice the shots,
        // the same count. One allocation a shot, or one in a hundred, would differ.
        let [a, b] = made;
        println!(
            "{threads} thread(s): {a} allocations for {} shots, {b} for {}",
            two.len(),
            four.len()
        );
        assert_eq!(a, b, "{threads} thread(s): {a} and {b} allocations");
        // What a batch allocates is its position's world (built once for all its
        // shots) and a little bookkeeping: the pool's jobs, the storage's lock.
        let build = allocations(|| {
            Position::new(&g.setup()).unwrap();
        });
        assert!(
            b <= build + 32,
            "a batch made {b} allocations, building its position {build}"
        );
    }
}
