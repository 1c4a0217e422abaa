//! The `simultaneous` model's answers do not depend on how they are reached: the
//! contacts' order and the solver's starting point leave the velocities unchanged,
//! mirror-symmetric scenes stay symmetric, and rank-deficient contact sets (a rack, a
//! hexagonal patch) still give unique velocities; worlds (Newton's cradle, the break).

use super::simultaneous::*;
use carom::models::simultaneous::{resolve_contacts, ContactSolver};
use carom::models::Contact;
use carom::parse::build_world;
use carom::ModelKind;
use carom::SplitMix64;
use carom::{Ball, Balls, Table, World};
// ---------------------------------------------------------------------------------
// Symmetry, ordering, starting point, rank deficiency.

/// A ring of three touching balls (equilateral, axis y = 500) and a cue ball touching
/// the apex ball on that axis, moving along it.
fn ring_of_three() -> Balls {
    let r = 10.0;
    let h = 2.0 * r * 3f64.sqrt() / 2.0;
    Balls::from_vec(&[
        Ball::new(480.0, 500.0, 4.0, 0.0, r, 1.0),
        Ball::new(500.0, 500.0, 0.0, 0.0, r, 1.0),
        Ball::new(500.0 + h, 500.0 - r, 0.0, 0.0, r, 1.0),
        Ball::new(500.0 + h, 500.0 + r, 0.0, 0.0, r, 1.0),
    ])
}

fn mirror_error(b: &Balls, axis: f64, partner: &[usize]) -> f64 {
    (0..b.len())
        .map(|i| {
            let j = partner[i];
            (b.vx[i] - b.vx[j]).hypot(b.vy[i] + b.vy[j])
                + (b.x[i] - b.x[j]).hypot(b.y[i] - (2.0 * axis - b.y[j]))
        })
        .fold(0.0, f64::max)
}

fn permutations(items: &[Contact]) -> Vec<Vec<Contact>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for k in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(k);
        for mut p in permutations(&rest) {
            p.insert(0, first);
            out.push(p);
        }
    }
    out
}

#[test]
fn ring_of_three_is_independent_of_order_and_start() {
    let contacts = [
        Contact::Pair(0, 1),
        Contact::Pair(1, 2),
        Contact::Pair(1, 3),
        Contact::Pair(2, 3),
    ];
    let mut solver = ContactSolver::new();
    let mut reference = ring_of_three();
    resolve_contacts(&mut reference, &TABLE, &contacts, 1.0, &mut solver);
    // The impact went through: the cue ball slowed, the ring moves.
    assert!(reference.vx[0] < 4.0 && reference.vx[2] > 0.0);
    // Mirror symmetry about y = 500 (balls 2 and 3 are partners), to round-off.
    assert!(mirror_error(&reference, 500.0, &[0, 1, 3, 2]) <= 1e-12 * 4.0);
    for order in permutations(&contacts) {
        let mut b = ring_of_three();
        resolve_contacts(&mut b, &TABLE, &order, 1.0, &mut solver);
        assert!(
            velocity_gap(&b, &reference) <= 1e-12 * 4.0,
            "order {order:?}"
        );
    }
    // The one-shot solve with every touching contact active, from several starts.
    let mut reference = ring_of_three();
    solver.solve_all_active(&mut reference, &contacts, 1.0, None);
    let mut rng = SplitMix64(3);
    for _ in 0..50 {
        let start: Vec<f64> = (0..4).map(|_| 10.0 * rng.unit()).collect();
        for order in [contacts.to_vec(), contacts.iter().rev().copied().collect()] {
            let mut st = start.clone();
            if order[0] != contacts[0] {
                st.reverse();
            }
            let mut b = ring_of_three();
            solver.solve_all_active(&mut b, &order, 1.0, Some(&st));
            assert!(velocity_gap(&b, &reference) <= 1e-12 * 4.0);
        }
    }
    assert_eq!(solver.stats().guard_hits, 0);
}

/// A 15-ball rack (five rows, touching) and a cue ball touching the apex: 31 contacts
/// among 16 balls, 32 velocity components less 3 rigid motions, so the contact normals
/// are linearly dependent and the impulses are not unique. The velocities are.
fn rack_and_cue(cue_speed: f64) -> (Balls, Vec<Contact>) {
    let r = 10.0;
    let mut balls = Balls::default();
    balls.push(Ball::new(300.0, 500.0, cue_speed, 0.0, r, 1.0));
    let row_step = 2.0 * r * 3f64.sqrt() / 2.0;
    for k in 0..5 {
        for j in 0..=k {
            let y = 500.0 + (j as f64 - 0.5 * k as f64) * 2.0 * r;
            balls.push(Ball::new(320.0 + k as f64 * row_step, y, 0.0, 0.0, r, 1.0));
        }
    }
    let contacts = pile_contacts(&balls);
    (balls, contacts)
}

#[test]
fn rank_deficient_rack_gives_unique_velocities() {
    let (balls, contacts) = rack_and_cue(8.0);
    assert_eq!(
        contacts.len(),
        31,
        "cue-apex plus the 30 contacts of a 15-ball rack"
    );
    let mut solver = ContactSolver::new();
    let mut reference = balls.clone();
    solver.solve_all_active(&mut reference, &contacts, 1.0, None);
    let k0 = kinetic_energy(&balls);
    assert!(((kinetic_energy(&reference) - k0) / k0).abs() <= 1e-12);
    let mut rng = SplitMix64(17);
    for trial in 0..30 {
        // A random order of the contacts and a random starting point.
        let mut order = contacts.clone();
        for k in (1..order.len()).rev() {
            order.swap(k, (rng.next_u64() % (k as u64 + 1)) as usize);
        }
        let start: Vec<f64> = (0..order.len()).map(|_| 5.0 * rng.unit()).collect();
        let mut b = balls.clone();
        let lambda = solver
            .solve_all_active(&mut b, &order, 1.0, (trial % 2 == 1).then_some(&start[..]))
            .to_vec();
        // Velocities agree to round-off amplified by the conditioning of the rack's
        // contact matrix: 1e-11 of the cue speed.
        assert!(
            velocity_gap(&b, &reference) <= 1e-11 * 8.0,
            "trial {trial}: gap {}",
            velocity_gap(&b, &reference)
        );
        // The impulses do what they must: every contact ends separating or resting.
        for (c, l) in order.iter().zip(&lambda) {
            assert!(*l >= 0.0);
            assert!(approach(&b, *c) >= -1e-11 * 8.0, "{c:?}");
        }
    }
    assert_eq!(solver.stats().guard_hits, 0);
    // The mirror symmetry of the input is kept in the velocities (partners: row k,
    // position j <-> k - j).
    let mut partner = vec![0usize];
    for k in 0..5 {
        for j in 0..=k {
            partner.push(1 + k * (k + 1) / 2 + (k - j));
        }
    }
    assert!(mirror_error(&reference, 500.0, &partner) <= 1e-11 * 8.0);
}

/// A hexagonal patch: a ball at rest ringed by six touching balls that all move
/// straight at it. The twelve contacts (six spokes, six rim) all approach; the patch
/// cannot compress, so the answer is plain: the ring reverses radially with factor e,
/// the centre stays at rest. The outer balls can be stopped by the spokes, by the rim,
/// or by any positive mix of both: the impulses are far from unique.
fn squeezed_hexagon(speed: f64) -> (Balls, Vec<Contact>) {
    let r = 10.0;
    let mut balls = Balls::default();
    balls.push(Ball::new(500.0, 500.0, 0.0, 0.0, r, 1.0));
    for k in 0..6 {
        let a = std::f64::consts::FRAC_PI_3 * k as f64;
        let (c, s) = (a.cos(), a.sin());
        balls.push(Ball::new(
            500.0 + 2.0 * r * c,
            500.0 + 2.0 * r * s,
            -speed * c,
            -speed * s,
            r,
            1.0,
        ));
    }
    let contacts = pile_contacts(&balls);
    (balls, contacts)
}

#[test]
fn squeezed_hexagon_has_unique_velocities_but_not_impulses() {
    let (balls, contacts) = squeezed_hexagon(3.0);
    assert_eq!(contacts.len(), 12);
    let mut solver = ContactSolver::new();
    let mut rng = SplitMix64(23);
    let mut impulse_sets: Vec<Vec<f64>> = Vec::new();
    for trial in 0..40 {
        let e = [0.0, 0.5, 1.0][trial % 3];
        let mut order = contacts.clone();
        for k in (1..order.len()).rev() {
            order.swap(k, (rng.next_u64() % (k as u64 + 1)) as usize);
        }
        let start: Vec<f64> = (0..order.len()).map(|_| 5.0 * rng.unit()).collect();
        let mut b = balls.clone();
        let lambda = solver
            .solve_all_active(&mut b, &order, e, (trial % 2 == 1).then_some(&start[..]))
            .to_vec();
        // Ring reversed by e, centre at rest: to round-off of the speed (3).
        assert!(
            b.vx[0].hypot(b.vy[0]) <= 1e-12 * 3.0,
            "trial {trial}: centre moves"
        );
        for k in 1..7 {
            let (ex, ey) = (-e * balls.vx[k], -e * balls.vy[k]);
            assert!(
                (b.vx[k] - ex).hypot(b.vy[k] - ey) <= 1e-12 * 3.0,
                "trial {trial}: ball {k}"
            );
        }
        if e == 1.0 {
            // Impulses in the original contact order.
            let mut by_contact = vec![0.0; contacts.len()];
            for (c, l) in order.iter().zip(&lambda) {
                by_contact[contacts.iter().position(|x| x == c).unwrap()] = *l;
            }
            impulse_sets.push(by_contact);
        }
    }
    let differ = impulse_sets.iter().any(|s| {
        s.iter()
            .zip(&impulse_sets[0])
            .any(|(a, b)| (a - b).abs() > 1e-6)
    });
    assert!(
        differ,
        "orders and starts should reach different impulses: {impulse_sets:?}"
    );
    assert_eq!(solver.stats().guard_hits, 0);
}

// ---------------------------------------------------------------------------------
// Worlds: Newton's cradle, the break.

#[test]
fn newton_cradle_passes_the_impact_down_the_chain_in_one_step() {
    for (m, v) in [(1.0, 2.0), (2.5, 7.0)] {
        // Five touching balls in a row; the first hits the second.
        let balls: Vec<Ball> = (0..5)
            .map(|k| {
                Ball::new(
                    100.0 + 20.0 * k as f64,
                    200.0,
                    if k == 0 { v } else { 0.0 },
                    0.0,
                    10.0,
                    m,
                )
            })
            .collect();
        let mut w = World::from_balls(Table::new(800.0, 400.0), simultaneous(1.0), &balls).unwrap();
        w.step().unwrap();
        let b = w.balls();
        assert!(
            (b.vx[4] - v).abs() <= 1e-12 * v,
            "last ball leaves with {}",
            b.vx[4]
        );
        for k in 0..4 {
            assert!(
                b.vx[k].hypot(b.vy[k]) <= 1e-12 * v,
                "ball {k} moves at {}",
                b.vx[k]
            );
        }
        assert_eq!(b.vy[4], 0.0);
        assert_eq!(w.collisions(), 4);
        // And it stays that way: the rest of the chain is at rest and touching.
        w.run_steps(20).unwrap();
        let b = w.balls();
        assert!((b.vx[4] - v).abs() <= 1e-12 * v);
        for k in 0..4 {
            assert!(b.vx[k].hypot(b.vy[k]) <= 1e-12 * v);
        }
    }
}

fn break_world(model: ModelKind) -> World {
    let mut s = carom::presets::find("break").unwrap().scenario().unwrap();
    s.physics.model = Some(model);
    build_world(&s).unwrap()
}

/// Steps until the first collision; returns the step count.
fn run_to_first_touch(w: &mut World) -> u64 {
    while w.collisions() == 0 {
        w.step().unwrap();
        assert!(w.steps < 100_000);
    }
    w.steps
}

#[test]
fn break_stays_mirror_symmetric_where_impulse_does_not() {
    let mut sim = break_world(ModelKind::Simultaneous);
    let mut imp = break_world(ModelKind::Impulse);
    // The cue ball touches the rack at t = (550 - 150 - 20) / 8 = 47.5, step 950. The
    // simultaneous model counts a touch (d = r_i + r_j up to round-off) as a contact;
    // the impulse model waits for a strict overlap, one step later.
    let touch = run_to_first_touch(&mut sim);
    assert_eq!(touch, 950);
    assert_eq!(run_to_first_touch(&mut imp), touch + 1);
    let width = sim.table().width;
    let end = touch + (20.0 / sim.physics().dt).round() as u64;
    sim.run_steps(end - sim.steps).unwrap();
    imp.run_steps(end - imp.steps).unwrap();
    println!(
        "symmetry error at t = {}: simultaneous {}, impulse {}",
        sim.time,
        sim.diagnostics().symmetry_error.unwrap(),
        imp.diagnostics().symmetry_error.unwrap()
    );
    let (se, ie) = (
        sim.diagnostics().symmetry_error.unwrap(),
        imp.diagnostics().symmetry_error.unwrap(),
    );
    // By then the rack has broken up (many collisions) ...
    assert!(sim.collisions() > 15, "collisions {}", sim.collisions());
    // ... the simultaneous model keeps the mirror symmetry to round-off, the sequential
    // impulse model visibly breaks it.
    assert!(se <= 1e-9 * width, "simultaneous symmetry error {se}");
    assert!(ie > 1e-4, "impulse symmetry error {ie}");
}
