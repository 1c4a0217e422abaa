//! The broad phase behind the fast models: the parallel grid rebuild bins exactly as
//! the serial one, and the neighbour list holds exactly the pairs the O(N^2) oracle
//! finds within the skin, in ascending order, whatever the thread count.

use carom::broadphase::{touching_pairs_brute_force, Grid, NeighbourList};
use carom::Table;
use proptest::prelude::*;

fn pool(threads: usize) -> Option<rayon::ThreadPool> {
    (threads > 1).then(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn parallel_rebuild_bins_as_the_serial_one(
        balls in prop::collection::vec((-20.0f64..220.0, -20.0f64..120.0), 0..400),
        reach in 0.5f64..30.0,
        threads in 2usize..4,
    ) {
        let table = Table::new(200.0, 100.0);
        let x: Vec<f64> = balls.iter().map(|b| b.0).collect();
        let y: Vec<f64> = balls.iter().map(|b| b.1).collect();
        let mut serial = Grid::new();
        serial.rebuild(&x, &y, reach, &table);
        let mut parallel = Grid::new();
        let mut scratch = Vec::new();
        parallel.rebuild_with(&x, &y, reach, &table, pool(threads).as_ref(), &mut scratch);
        prop_assert_eq!(serial.dims(), parallel.dims());
        let (nx, ny) = serial.dims();
        for cy in 0..ny {
            for cx in 0..nx {
                prop_assert_eq!(serial.cell(cx, cy), parallel.cell(cx, cy));
            }
        }
    }

    #[test]
    fn neighbour_list_holds_exactly_the_oracle_pairs(
        balls in prop::collection::vec((-20.0f64..220.0, -20.0f64..120.0, 0.5f64..8.0), 0..400),
        skin in 0.0f64..3.0,
        threads in 1usize..3,
    ) {
        let table = Table::new(200.0, 100.0);
        let x: Vec<f64> = balls.iter().map(|b| b.0).collect();
        let y: Vec<f64> = balls.iter().map(|b| b.1).collect();
        let r: Vec<f64> = balls.iter().map(|b| b.2).collect();
        let mut list = NeighbourList::new();
        list.update(&x, &y, &r, skin, &table, pool(threads).as_ref());
        let pairs: Vec<(u32, u32)> = list.pairs().collect();
        prop_assert_eq!(pairs, touching_pairs_brute_force(&x, &y, &r, skin));
    }
}

/// The list rebuilds only once balls may have moved half the skin, and when told that
/// the balls changed.
#[test]
fn neighbour_list_rebuilds_when_and_only_when_needed() {
    let table = Table::new(100.0, 100.0);
    let (x, y, r) = (vec![10.0, 13.0], vec![10.0, 10.0], vec![1.0, 1.0]);
    let mut list = NeighbourList::new();
    assert!(list.update(&x, &y, &r, 1.0, &table, None));
    list.moved(0.4);
    assert!(
        !list.update(&x, &y, &r, 1.0, &table, None),
        "moved < skin/2"
    );
    list.moved(0.1);
    assert!(list.update(&x, &y, &r, 1.0, &table, None), "moved = skin/2");
    list.invalidate();
    assert!(list.update(&x, &y, &r, 1.0, &table, None), "invalidated");
    assert!(list.update(&x, &y, &r, 2.0, &table, None), "another skin");
    assert_eq!(list.rebuilds(), 4);
}
