//! Profiles (`World::profiles`, `carom.profiles` in Python) against independent
//! expectations: the solid fraction of a lattice's slabs from the chord lengths of its
//! disks, and the slabs' stresses summing to the global stress the model itself
//! accumulates.

use crate::common;
use carom::stress;
use carom::ModelKind;
use carom::{Ball, Boundary, Physics, Table, World};
use common::Lcg;

/// The area of a disk of radius `r` centred at `c` between the lines `a < b`, by the
/// midpoint rule on its chord length `2 sqrt(r^2 - (y - c)^2)` (independent of the
/// closed form the profiles use). With `n` points the error is dominated by the square
/// root's edge, about `r^2 (2r/n)^1.5`: with n = 2e5 a relative 1e-7 at most.
fn chord_area(c: f64, r: f64, a: f64, b: f64) -> f64 {
    let (lo, hi) = (a.max(c - r), b.min(c + r));
    if hi <= lo {
        return 0.0;
    }
    let n = 200_000;
    let h = (hi - lo) / n as f64;
    (0..n)
        .map(|k| {
            let y = lo + (k as f64 + 0.5) * h - c;
            2.0 * (r * r - y * y).max(0.0).sqrt() * h
        })
        .sum()
}

fn spring(dt: f64, k: f64) -> Physics {
    Physics {
        model: ModelKind::Spring,
        dt,
        stiffness: k,
        ..Physics::default()
    }
}

/// A square lattice of unit spacing, `n x n` disks of radius 0.4 in a periodic box of
/// side `n`, rows at `y = k + shift`.
fn lattice(n: usize, shift: f64) -> World {
    let mut balls = Vec::new();
    for i in 0..n {
        for k in 0..n {
            balls.push(Ball::new(
                i as f64 + 0.5,
                k as f64 + shift,
                0.0,
                0.0,
                0.4,
                1.0,
            ));
        }
    }
    let table = Table::periodic(n as f64, n as f64);
    World::from_balls(table, spring(0.01, 100.0), &balls).unwrap()
}

#[test]
fn a_lattice_gives_each_slab_the_area_its_disks_put_in_it() {
    // Slabs a third of the spacing wide: rows at 0.5 + k put a middle slab through
    // each disk's centre; rows at k (shift 0) cut every bottom-row disk by the periodic
    // edge, whose far part must come back in the top slabs.
    let n = 9;
    for shift in [0.5, 0.0, 0.2] {
        let w = lattice(n, shift);
        let bins = 3 * n;
        let p = w.profiles(1, bins);
        assert_eq!(p.edges.len(), bins + 1);
        let width = 1.0 / 3.0;
        let slab_area = n as f64 * width;
        for b in 0..bins {
            let (a, top) = (b as f64 * width, (b + 1) as f64 * width);
            // Every row on the table, with its images one side up and down (a disk
            // cut by the periodic edge puts its far part at the other end).
            let mut want = 0.0;
            for k in 0..n {
                let c = k as f64 + shift;
                for image in [-1.0, 0.0, 1.0] {
                    want += n as f64 * chord_area(c + image * n as f64, 0.4, a, top);
                }
            }
            let want = want / slab_area;
            assert!(
                (p.solid_fraction[b] - want).abs() < 1e-6,
                "shift {shift} slab {b}: {} against {want}",
                p.solid_fraction[b]
            );
        }
        // The slabs average to the packing fraction, pi 0.4^2 per unit cell.
        let mean: f64 = p.solid_fraction.iter().sum::<f64>() / bins as f64;
        let phi = std::f64::consts::PI * 0.16;
        assert!((mean - phi).abs() < 1e-13, "{mean} {phi}");
        // At rest: no velocity, no kinetic stress, and the disks do not touch.
        for b in 0..bins {
            assert_eq!(p.velocity[b], [0.0, 0.0]);
            assert_eq!(p.stress[b], [0.0, 0.0, 0.0]);
        }
    }
}

/// A compressed, frictionless, polydisperse periodic packing with random velocities:
/// 144 disks of radii 0.5 to 0.6 on a square lattice of spacing 1 (overlapping), in a
/// box sheared in nothing but moving in every direction.
fn compressed_gas(boundary: [Boundary; 2]) -> World {
    let n = 12;
    let mut rng = Lcg(11);
    let mut balls = Vec::new();
    for i in 0..n {
        for k in 0..n {
            let r = 0.5 + 0.1 * rng.next();
            let (vx, vy) = (rng.next() - 0.5 + 0.3, rng.next() - 0.5);
            let x = i as f64 + 0.5 + 0.02 * rng.next();
            let y = k as f64 + 0.5 + 0.02 * rng.next();
            balls.push(Ball::new(x, y, vx, vy, r, 1.0 + rng.next()));
        }
    }
    let table = Table::new(n as f64, n as f64).with_boundary(boundary);
    let mut w = World::from_balls(table, spring(0.002, 1000.0), &balls).unwrap();
    w.run_steps(200).unwrap();
    w
}

#[test]
fn the_slabs_stresses_sum_to_the_global_stress() {
    for (boundary, axis, bins) in [
        ([Boundary::Periodic; 2], 1, 7),
        ([Boundary::Periodic; 2], 0, 12),
        ([Boundary::Periodic, Boundary::Walls], 1, 5),
    ] {
        let mut w = compressed_gas(boundary);
        let p = w.profiles(axis, bins);
        let t = *w.table();
        let slab_area = t.area() / bins as f64;
        // The global tensor times the area, from the slabs: their stresses plus the
        // streaming of their mean velocities about the centre of mass.
        let b = w.balls();
        let (m_tot, px, py) = (0..b.len()).fold((0.0, 0.0, 0.0), |(m, px, py), i| {
            (m + b.m[i], px + b.m[i] * b.vx[i], py + b.m[i] * b.vy[i])
        });
        let v = [px / m_tot, py / m_tot];
        let mut sum = [0.0; 3];
        let mut mass = 0.0;
        for k in 0..bins {
            let u = [p.velocity[k][0] - v[0], p.velocity[k][1] - v[1]];
            let m = p.mass[k];
            mass += m;
            sum[0] += p.stress[k][0] * slab_area + m * u[0] * u[0];
            sum[1] += p.stress[k][1] * slab_area + m * u[0] * u[1];
            sum[2] += p.stress[k][2] * slab_area + m * u[1] * u[1];
        }
        assert!((mass - m_tot).abs() < 1e-12 * m_tot, "{mass} {m_tot}");
        // Independently: the kinetic tensor of the diagnostics, and the contact tensor
        // the model integrates over its next step divided by dt (semi-implicit Euler
        // takes the forces at the step's starting positions and velocities, the same
        // instant as the profiles).
        let kinetic = stress::kinetic(w.balls(), &[]);
        let before = w.virial_tensor();
        w.step().unwrap();
        let dt = w.physics().dt;
        let contact = stress::sub(w.virial_tensor(), before).map(|v| v / dt);
        let want = stress::add(kinetic, contact);
        // Sums of 144 kinetic and ~300 contact terms of the same sign rounded apart,
        // the model's divided back out of dt: relative 1e-11 of the largest entry.
        let scale = want[0].abs().max(want[2].abs());
        assert!(contact[0] > 10.0 * kinetic[0], "the packing is compressed");
        for c in 0..3 {
            assert!(
                (sum[c] - want[c]).abs() < 1e-11 * scale,
                "{boundary:?} axis {axis}: component {c}: slabs {} against {}",
                sum[c],
                want[c]
            );
        }
    }
}

#[test]
fn a_contact_is_split_along_the_segment_between_the_centres() {
    // Two balls overlapping across a slab boundary, at rest: the contact's r (x) f
    // goes to the two slabs in proportion to the length of the centre segment in
    // each. Centres at y = 4.6 and y = 5.6 on a vertical line (slabs of width 1 in a
    // periodic 10 x 10 box): 0.4 of the segment lies in slab 4, 0.6 in slab 5.
    let balls = [
        Ball::new(5.0, 4.6, 0.0, 0.0, 0.55, 1.0),
        Ball::new(5.0, 5.6, 0.0, 0.0, 0.55, 1.0),
    ];
    let w = World::from_balls(Table::periodic(10.0, 10.0), spring(0.01, 100.0), &balls).unwrap();
    let p = w.profiles(1, 10);
    // Overlap 0.1, force k s = 10 along y, branch 1: r (x) f = 10 on yy; slab area 10.
    let yy = 10.0;
    assert!(
        (p.stress[4][2] - 0.4 * yy / 10.0).abs() < 1e-12,
        "{:?}",
        p.stress[4]
    );
    assert!(
        (p.stress[5][2] - 0.6 * yy / 10.0).abs() < 1e-12,
        "{:?}",
        p.stress[5]
    );
    for k in [4, 5] {
        assert_eq!(p.stress[k][0], 0.0);
        assert_eq!(p.stress[k][1], 0.0);
    }
    let rest: f64 = (0..10)
        .filter(|k| *k != 4 && *k != 5)
        .map(|k| p.stress[k][2].abs())
        .sum();
    assert_eq!(rest, 0.0);
}

/// In a sheared box the part of a disk beyond a y edge is its copy one height away,
/// which moves at `vx -+ G height` (the Lees-Edwards images): the far slab must hold
/// that velocity, not the disk's own. One disk straddling each edge, each slab's mean
/// x velocity against the image's, exactly (one disk per slab: a quotient of equal
/// sums); in an unsheared periodic box both slabs hold the disk's own velocity.
#[test]
fn a_disk_across_a_sheared_edge_gives_the_far_slab_its_image_velocity() {
    let (w, h, g) = (10.0, 10.0, 0.3);
    let physics = Physics {
        model: ModelKind::Spring,
        dt: 0.01,
        ..Default::default()
    };
    let balls = [
        // Across y = height: its far part is the copy at y - height.
        Ball::new(3.0, 9.8, 0.7, 0.0, 0.5, 1.0),
        // Across y = 0: its far part is the copy at y + height.
        Ball::new(7.0, 0.2, -0.4, 0.0, 0.5, 1.0),
    ];
    let bins = 5;
    let sheared = World::from_balls(Table::sheared(w, h, g, 0.0), physics, &balls).unwrap();
    let p = sheared.profiles(1, bins);
    let slide = g * h;
    // Slab 0 ([0, 2]) holds the second disk itself and the first one's copy; slab 4
    // ([8, 10]) the first disk itself and the second one's copy. Each mean is
    // mass-weighted over the shares, so it is exact only per share: check the sums.
    let share =
        |c: f64, lo: f64, hi: f64| chord_area(c, 0.5, lo, hi) / (std::f64::consts::PI * 0.25);
    let top = [
        (share(0.2, 0.0, 2.0), -0.4),
        (share(9.8, 10.0, 12.0), 0.7 - slide),
    ];
    let bottom = [
        (share(9.8, 8.0, 10.0), 0.7),
        (share(0.2, -2.0, 0.0), -0.4 + slide),
    ];
    let mean = |parts: &[(f64, f64)]| {
        let m: f64 = parts.iter().map(|p| p.0).sum();
        parts.iter().map(|p| p.0 * p.1).sum::<f64>() / m
    };
    // The shares come from the midpoint rule (relative 1e-7, see chord_area).
    assert!(
        (p.velocity[0][0] - mean(&top)).abs() < 1e-6,
        "{:?}",
        p.velocity
    );
    assert!(
        (p.velocity[bins - 1][0] - mean(&bottom)).abs() < 1e-6,
        "{:?}",
        p.velocity
    );
    let plain = World::from_balls(Table::periodic(w, h), physics, &balls).unwrap();
    let q = plain.profiles(1, bins);
    let own = |parts: &[(f64, f64); 2], v: [f64; 2]| {
        let m = parts[0].0 + parts[1].0;
        (parts[0].0 * v[0] + parts[1].0 * v[1]) / m
    };
    assert!((q.velocity[0][0] - own(&top, [-0.4, 0.7])).abs() < 1e-6);
    assert!((q.velocity[bins - 1][0] - own(&bottom, [0.7, -0.4])).abs() < 1e-6);
}
