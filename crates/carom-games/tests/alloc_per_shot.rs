//! How many allocations a shot of a batch makes once the batch is under way, counted
//! by a global allocator that tallies every allocation of this test binary.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

use carom_games::batch::simulate_shots;
use carom_games::shot::Position;
use carom_games::{Game, GameKind, Shot};

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

fn mid_game() -> (Game, Vec<Shot>) {
    let mut g = Game::new(GameKind::NineBall, 1);
    g.shoot(&Shot::new(6.0, 0.5), None).unwrap();
    let shots = (0..40)
        .map(|k| Shot::new(1.5 + 0.05 * k as f64, 9.0 * k as f64))
        .collect();
    (g, shots)
}

/// Allocations made while `f` runs (the test's other threads are idle: this binary
/// holds one test).
fn allocations(f: impl FnOnce()) -> u64 {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    f();
    ALLOCATIONS.load(Ordering::Relaxed) - before
}

#[test]
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
    // A batch of twice the shots against one: the difference is the shots' own.
    let batch = |n: usize| {
        let shots: Vec<Shot> = shots.iter().cycle().take(n).copied().collect();
        allocations(|| {
            std::hint::black_box(simulate_shots(&g, &shots, None, 1).unwrap());
        })
    };
    batch(shots.len());
    let per_shot = (batch(2 * shots.len()) - batch(shots.len())) as f64 / shots.len() as f64;
    println!("allocations per shot: {engine:.1} simulating, {per_shot:.1} in a batch");
    assert!(
        per_shot <= BATCH_BOUND,
        "{per_shot} allocations a shot in a batch"
    );
}

/// What a shot allocates in a batch once under way (docs/games.md, "Speed"), 21.3 a
/// shot on these. Simulating, a shot runs in the position's own world, event log and
/// facts, overwritten in place shot after shot, and allocates only the outcome it
/// returns, each non-empty list once at its length (the event log's rows, the cue
/// ball's contacts, the cushion contacts, the pocketed balls, the final positions: 3.9
/// a shot here, checked shot by shot above). The rest is the games layer's: the copy
/// of the game that shoots (its table's pockets and walls, its state, its balls), the
/// balls after the shot, the rules' judgement (its lists of pocketed balls and fouls)
/// and the next player's options.
const BATCH_BOUND: f64 = 22.0;
