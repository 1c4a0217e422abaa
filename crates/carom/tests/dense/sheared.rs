//! Lees-Edwards sheared boxes in the spring model (`Table::sheared`), against
//! independent expectations: a collision across the sliding edge is the unsheared one
//! seen from the image's moving frame; a granular gas sheared only through its edges
//! develops the streaming profile `u_x = G (y - H/2)`; thread counts do not change the
//! result; a box without shear runs exactly as a periodic one.

use carom::ModelKind;
use carom::{Ball, ContactFriction, Physics, Table, World};

fn spring(dt: f64, k: f64, e: f64) -> Physics {
    Physics {
        model: ModelKind::Spring,
        dt,
        stiffness: k,
        restitution: e,
        ..Physics::default()
    }
}

#[test]
fn a_collision_across_the_sliding_edge_is_the_unsheared_one_in_the_images_frame() {
    // Box 20 x 20 sheared at G = 0.1: the copy above moves at G H = 2 in x. Ball A
    // near the bottom edge moves down (+y); ball B near the top moves up and at -2 in
    // x, so that its image below the box (x + shift, y + 20, vx + 2) stays straight
    // under A and meets it head on at t = 2. In the images' frame this is the plain
    // periodic collision of A with B at rest in x: equal masses swap their normal
    // velocities, the x-velocities stay.
    let (g, h) = (0.1, 20.0);
    let physics = spring(0.002, 100.0, 1.0);
    let a = Ball::new(10.0, 18.0, 0.0, 0.5, 1.0, 1.0);
    let sheared_b = Ball::new(10.0, 2.0, -g * h, -0.5, 1.0, 1.0);
    let plain_b = Ball::new(10.0, 2.0, 0.0, -0.5, 1.0, 1.0);
    let mut sheared =
        World::from_balls(Table::sheared(20.0, h, g, 0.0), physics, &[a, sheared_b]).unwrap();
    let mut plain = World::from_balls(Table::periodic(20.0, h), physics, &[a, plain_b]).unwrap();
    // Up to t = 3: the contact (about pi sqrt(m / 2k) = 0.22 long) is over, and B has
    // not yet come round again.
    sheared.run_steps(1500).unwrap();
    plain.run_steps(1500).unwrap();
    let (s, p) = (sheared.balls(), plain.balls());
    // They did collide: A now moves up at about its old speed (an elastic spring
    // contact gives the speeds back to O((omega dt)^2) = 1e-3 in semi-implicit Euler).
    assert!((p.vy[0] + 0.5).abs() < 1e-2, "{}", p.vy[0]);
    // Same velocities in the images' frame: A alike; B's lab x-velocity is -2 against
    // the plain run's 0. The shift, summed step by step, differs from 2 t by rounding
    // (1e-13), which moves the contact by as little: agreement to 1e-9.
    let tol = 1e-9;
    assert!((s.vx[0] - p.vx[0]).abs() < tol, "{} {}", s.vx[0], p.vx[0]);
    assert!((s.vy[0] - p.vy[0]).abs() < tol, "{} {}", s.vy[0], p.vy[0]);
    assert!(
        (s.vx[1] - (p.vx[1] - g * h)).abs() < tol,
        "{} {}",
        s.vx[1],
        p.vx[1]
    );
    assert!((s.vy[1] - p.vy[1]).abs() < tol, "{} {}", s.vy[1], p.vy[1]);
    // Positions: A alike; B's x differs from the plain run's by -2 t (mod 20), as its
    // image sits at x + shift with shift = 2 t = 6.
    assert!((s.x[0] - p.x[0]).abs() < tol && (s.y[0] - p.y[0]).abs() < tol);
    let t = sheared.time;
    let want_x = (p.x[1] - g * h * t).rem_euclid(20.0);
    assert!((s.x[1] - want_x).abs() < tol, "{} {want_x}", s.x[1]);
    assert!((sheared.table().shift - g * h * t).abs() < 1e-12);
}

#[test]
fn a_sheared_collision_conserves_the_energy_of_the_images_frame() {
    // The same head-on meeting, with B crossing the edge during the contact: B starts
    // above the top edge's image of A and leaves through the top; the kinetic energy
    // in the frame that moves with each ball's copy (B's x-velocity counted relative to
    // -G H while it is on the far side) is unchanged by an elastic contact.
    let (g, h) = (0.25, 16.0);
    let physics = spring(0.001, 200.0, 1.0);
    let a = Ball::new(4.0, 14.0, 0.3, 0.8, 1.0, 1.0);
    let b = Ball::new(4.0, 0.2, 0.3 - g * h, -0.8, 1.0, 2.0);
    let mut w = World::from_balls(Table::sheared(16.0, h, g, 0.0), physics, &[a, b]).unwrap();
    let energy = |w: &World| {
        let b = w.balls();
        // Relative velocity along y and x in the images' frame: the pair's energy in
        // its centre-of-mass frame is mu |dv|^2 / 2, with dv taken across the edge.
        let mu = b.m[0] * b.m[1] / (b.m[0] + b.m[1]);
        let t = w.table();
        let raw = b.y[1] - b.y[0];
        let (_, dy) = t.min_image(b.x[1] - b.x[0], raw);
        let dvx = b.vx[1] - b.vx[0] + t.image_velocity(raw, dy);
        let dvy = b.vy[1] - b.vy[0];
        0.5 * mu * (dvx * dvx + dvy * dvy)
    };
    let e0 = energy(&w);
    w.run_steps(2000).unwrap();
    let b = w.balls();
    // The pair met (their y velocities changed sign) and parted.
    assert!(b.vy[0] < 0.0 && b.vy[1] > 0.0, "{:?} {:?}", b.vy, b.vx);
    let e1 = energy(&w);
    // Semi-implicit Euler's energy error over a contact resolved in ~70 steps: the
    // elastic spring returns the energy to O((omega dt)^2) = (0.017)^2, 3e-4 relative.
    assert!((e1 - e0).abs() < 3e-4 * e0, "{e0} {e1}");
}

/// A granular gas (inelastic; frictional if asked) of 400 disks in a sheared box:
/// placed on a lattice, streaming at `u_x = G (y - H/2)` with small random velocities
/// on top (the shear that viscosity alone would take some 1e3 strain units to carry
/// across the box from its edges).
fn sheared_gas(g: f64, friction: bool) -> World {
    let (n_side, spacing) = (20, 2.5);
    let side = n_side as f64 * spacing;
    let mut balls = Vec::new();
    let mut seed = 12345u64;
    let mut rnd = || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5
    };
    for i in 0..n_side {
        for k in 0..n_side {
            let r = 0.9 + 0.2 * (rnd() + 0.5);
            let (x, y) = ((i as f64 + 0.5) * spacing, (k as f64 + 0.5) * spacing);
            let u = g * (y - 0.5 * side);
            balls.push(Ball::new(x, y, u + 0.1 * rnd(), 0.1 * rnd(), r, r * r));
        }
    }
    let mut physics = spring(0.005, 400.0, 0.7);
    if friction {
        physics.contact_friction = ContactFriction {
            mu: 0.4,
            ..ContactFriction::default()
        };
    }
    World::from_balls(Table::sheared(side, side, g, 0.0), physics, &balls).unwrap()
}

#[test]
fn a_granular_gas_sheared_through_its_edges_streams_linearly() {
    // Shear reaches the gas only through the sliding images; inelastic contacts carry
    // off the heat it makes, so uniform shear u_x = G y + c is the steady flow: the
    // sliding images keep the velocity continuous across the y edge (its jump G H is
    // the images'). A box whose images did not slide (plain periodic) would lose the
    // profile from its edges within a few collision times there and, over 25 strain
    // units, over several bins.
    let g = 0.05;
    let mut w = sheared_gas(g, false);
    // G t = 5 strain units to settle (the gas crosses the box a few times), then 20
    // profiles a strain unit apart.
    let steps_per_unit = (1.0 / (g * w.physics().dt)).round() as u64;
    w.run_steps(5 * steps_per_unit).unwrap();
    let bins = 10;
    let mut u = vec![0.0; bins];
    let samples = 20;
    for _ in 0..samples {
        w.run_steps(steps_per_unit).unwrap();
        let p = w.profiles(1, bins);
        for (u, v) in u.iter_mut().zip(&p.velocity) {
            *u += v[0] / samples as f64;
        }
    }
    let h = w.table().height;
    let ys: Vec<f64> = (0..bins)
        .map(|b| (b as f64 + 0.5) * h / bins as f64)
        .collect();
    let (my, mu) = (
        ys.iter().sum::<f64>() / bins as f64,
        u.iter().sum::<f64>() / bins as f64,
    );
    let slope = ys
        .iter()
        .zip(&u)
        .map(|(y, u)| (y - my) * (u - mu))
        .sum::<f64>()
        / ys.iter().map(|y| (y - my) * (y - my)).sum::<f64>();
    let residual = ys
        .iter()
        .zip(&u)
        .map(|(y, u)| (u - (mu + slope * (y - my))).abs())
        .fold(0.0, f64::max);
    eprintln!("slope {slope} (G = {g}), profile {u:?}, largest residual {residual}");
    // The slope is set by the boundary, G, up to the noise of the averaged profile:
    // each bin's mean is over ~40 balls and 20 samples whose thermal speeds, in a
    // granular gas at e = 0.7, are of order G d ~ 0.1 (G H / 25); even counting the
    // samples as 5 independent ones, a bin's mean scatters by ~0.1 / sqrt(200) = 7e-3,
    // 0.3% of G H, and the fitted slope by less. 10% of G on the slope, and 10% of the
    // velocity difference across the box on the worst bin, leave room for a slow
    // drift of the whole gas (crossings change its momentum by -+G H m each).
    assert!((slope - g).abs() < 0.1 * g, "slope {slope} against {g}");
    assert!(residual < 0.1 * g * h, "residual {residual}");
}

#[test]
fn one_and_two_threads_shear_a_frictional_gas_alike() {
    let mut one = sheared_gas(0.05, true);
    let mut two = sheared_gas(0.05, true);
    one.set_threads(1).unwrap();
    two.set_threads(2).unwrap();
    one.run_steps(3000).unwrap();
    two.run_steps(3000).unwrap();
    let (a, b) = (one.balls(), two.balls());
    for i in 0..a.len() {
        assert_eq!(
            (a.x[i], a.y[i], a.vx[i], a.vy[i], a.omega[i]),
            (b.x[i], b.y[i], b.vx[i], b.vy[i], b.omega[i]),
            "ball {i}"
        );
    }
    assert_eq!(one.diagnostics(), two.diagnostics());
    assert_eq!(one.table().shift, two.table().shift);
}

#[test]
fn a_box_sheared_at_rate_zero_is_the_periodic_box() {
    let mut a = sheared_gas(0.0, true);
    let balls: Vec<Ball> = (0..a.balls().len()).map(|i| a.balls().get(i)).collect();
    let (t, p) = (*a.table(), *a.physics());
    let mut b = World::from_balls(Table::periodic(t.width, t.height), p, &balls).unwrap();
    a.run_steps(2000).unwrap();
    b.run_steps(2000).unwrap();
    assert_eq!(a.balls().x, b.balls().x);
    assert_eq!(a.balls().vx, b.balls().vx);
    assert_eq!(a.diagnostics(), b.diagnostics());
}

#[test]
fn a_sheared_box_runs_only_where_it_is_modelled() {
    let balls = [Ball::new(5.0, 5.0, 0.0, 0.0, 1.0, 1.0)];
    let mut simultaneous = spring(0.01, 100.0, 1.0);
    simultaneous.model = ModelKind::Simultaneous;
    let Err(e) = World::from_balls(Table::sheared(20.0, 20.0, 0.1, 0.0), simultaneous, &balls)
    else {
        panic!("simultaneous refuses a sheared box")
    };
    assert_eq!(e.field, "table.boundary.shear_rate");
    let Err(bad) = World::from_balls(
        Table::sheared(20.0, 20.0, f64::NAN, 0.0),
        spring(0.01, 100.0, 1.0),
        &balls,
    ) else {
        panic!("a non-finite rate is refused")
    };
    assert_eq!(bad.field, "table.boundary.shear_rate");
    let walled = Table::sheared(20.0, 20.0, 0.1, 0.0)
        .with_boundary([carom::Boundary::Periodic, carom::Boundary::Walls]);
    let Err(e) = World::from_balls(walled, spring(0.01, 100.0, 1.0), &balls) else {
        panic!("a walled axis cannot be sheared")
    };
    assert_eq!(e.field, "table.boundary.shear_rate");
}

#[test]
fn the_contacts_across_the_sliding_edge_are_found_at_any_shift() {
    // Every overlapping pair, by brute force over all pairs with the table's minimum
    // image, against the contacts the model reports from its neighbour list, sampled
    // while the shift sweeps the width several times (G H t = 10 widths).
    let mut w = sheared_gas(0.2, true);
    let steps_per_sample = 100;
    let mut across = 0;
    for _ in 0..50 {
        w.run_steps(steps_per_sample).unwrap();
        let (b, t) = (w.balls(), *w.table());
        let mut want = Vec::new();
        for i in 0..b.len() {
            for j in i + 1..b.len() {
                let (dx, dy) = t.min_image(b.x[j] - b.x[i], b.y[j] - b.y[i]);
                let reach = b.r[i] + b.r[j];
                if dx * dx + dy * dy < reach * reach {
                    want.push((i as u32, j as u32));
                    across += usize::from((b.y[j] - b.y[i] - dy).abs() > 0.5 * t.height);
                }
            }
        }
        let mut got: Vec<(u32, u32)> = w
            .contact_forces()
            .unwrap()
            .iter()
            .map(|c| (c.i, c.j))
            .collect();
        got.sort_unstable();
        assert_eq!(got, want, "shift {}", t.shift);
    }
    // The samples did see contacts across the edge.
    assert!(across > 0);
}
