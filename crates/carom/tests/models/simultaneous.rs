//! The `simultaneous` model and its contact solver, each property against an
//! independent expectation: the two-ball formula, the closed form of seed 001 (written
//! out here from its formulas), a brute-force enumeration of active sets, conservation
//! laws, mirror symmetry.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use carom::models::simultaneous::{
    resolve_contacts, ContactSolver, Simultaneous, APPROACH, MAX_CLUSTER,
};
use carom::models::{CollisionModel, Contact, StepContext, Wall};
use carom::ModelKind;
use carom::SplitMix64;
use carom::{Ball, Balls, Physics, Table, World};
use proptest::prelude::*;

// ---------------------------------------------------------------------------------
// Allocation counting (per thread, so that tests running in parallel do not mix).

pub(super) struct CountingAlloc;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

pub(super) fn allocations() -> u64 {
    ALLOCATIONS.with(|c| c.get())
}

// ---------------------------------------------------------------------------------
// Helpers.

pub(super) const TABLE: Table = Table::new(1000.0, 1000.0);

pub(super) fn kinetic_energy(b: &Balls) -> f64 {
    (0..b.len())
        .filter(|&i| b.inv_m[i] > 0.0)
        .map(|i| 0.5 * b.m[i] * (b.vx[i] * b.vx[i] + b.vy[i] * b.vy[i]))
        .sum()
}

pub(super) fn momentum(b: &Balls) -> [f64; 2] {
    let mut p = [0.0, 0.0];
    for i in 0..b.len() {
        p[0] += b.m[i] * b.vx[i];
        p[1] += b.m[i] * b.vy[i];
    }
    p
}

/// The largest speed among the balls: the scale for velocity comparisons.
pub(super) fn speed_scale(b: &Balls) -> f64 {
    (0..b.len())
        .map(|i| b.vx[i].hypot(b.vy[i]))
        .fold(0.0, f64::max)
}

/// Largest velocity difference between two states of the same balls.
pub(super) fn velocity_gap(a: &Balls, b: &Balls) -> f64 {
    (0..a.len())
        .map(|i| (a.vx[i] - b.vx[i]).hypot(a.vy[i] - b.vy[i]))
        .fold(0.0, f64::max)
}

/// Normal relative velocity of a contact, `n` from the first ball to the second (from
/// the wall into the table).
pub(super) fn approach(b: &Balls, c: Contact) -> f64 {
    match c {
        Contact::Pair(i, j) => {
            let (i, j) = (i as usize, j as usize);
            let (dx, dy) = (b.x[j] - b.x[i], b.y[j] - b.y[i]);
            let d = dx.hypot(dy);
            ((b.vx[j] - b.vx[i]) * dx + (b.vy[j] - b.vy[i]) * dy) / d
        }
        Contact::Wall(i, w) => {
            let n = w.normal();
            b.vx[i as usize] * n[0] + b.vy[i as usize] * n[1]
        }
        Contact::Piece(..) => unreachable!("these tests list no walls inside the table"),
    }
}

/// Every contact by brute force: pairs with `d <= r_i + r_j` (and distinct centres) and
/// balls touching or past a wall; contacts with no dynamic ball are left out.
pub(super) fn brute_force_contacts(b: &Balls, t: &Table) -> Vec<Contact> {
    let mut out = Vec::new();
    for i in 0..b.len() {
        for j in i + 1..b.len() {
            let d = (b.x[j] - b.x[i]).hypot(b.y[j] - b.y[i]);
            if d > 0.0 && d <= b.r[i] + b.r[j] && (b.inv_m[i] > 0.0 || b.inv_m[j] > 0.0) {
                out.push(Contact::Pair(i as u32, j as u32));
            }
        }
    }
    for i in 0..b.len() {
        if b.inv_m[i] == 0.0 {
            continue;
        }
        let (x, y, r) = (b.x[i], b.y[i], b.r[i]);
        let id = i as u32;
        if x - r <= 0.0 {
            out.push(Contact::Wall(id, Wall::Left));
        }
        if x + r >= t.width {
            out.push(Contact::Wall(id, Wall::Right));
        }
        if y - r <= 0.0 {
            out.push(Contact::Wall(id, Wall::Top));
        }
        if y + r >= t.height {
            out.push(Contact::Wall(id, Wall::Bottom));
        }
    }
    out
}

pub(super) fn log_uniform(rng: &mut SplitMix64, lo: f64, hi: f64) -> f64 {
    (lo.ln() + (hi.ln() - lo.ln()) * rng.unit()).exp()
}

pub(super) fn simultaneous(e: f64) -> Physics {
    Physics {
        model: ModelKind::Simultaneous,
        restitution: e,
        ..Physics::default()
    }
}

// ---------------------------------------------------------------------------------
// One contact: the two-ball formula.

/// The textbook two-ball collision along the line of centres `s` (from i to j), with
/// masses; `None` stands for an infinite (kinematic) mass.
pub(super) fn two_ball(
    vi: [f64; 2],
    vj: [f64; 2],
    s: [f64; 2],
    mi: Option<f64>,
    mj: Option<f64>,
    e: f64,
) -> ([f64; 2], [f64; 2]) {
    let vis = vi[0] * s[0] + vi[1] * s[1];
    let vjs = vj[0] * s[0] + vj[1] * s[1];
    // Share of the velocity change taken by each ball: m_other / (m_i + m_j).
    let (fi, fj) = match (mi, mj) {
        (Some(mi), Some(mj)) => (mj / (mi + mj), mi / (mi + mj)),
        (None, Some(_)) => (0.0, 1.0),
        (Some(_), None) => (1.0, 0.0),
        (None, None) => (0.0, 0.0),
    };
    let dv = (1.0 + e) * (vjs - vis);
    (
        [vi[0] + s[0] * fi * dv, vi[1] + s[1] * fi * dv],
        [vj[0] - s[0] * fj * dv, vj[1] - s[1] * fj * dv],
    )
}

#[test]
pub(super) fn one_contact_is_the_two_ball_formula() {
    let mut rng = SplitMix64(11);
    let mut solver = ContactSolver::new();
    let mut checked = 0;
    for case in 0..2000 {
        let e = rng.unit();
        let (ri, rj) = (
            log_uniform(&mut rng, 1.0, 20.0),
            log_uniform(&mut rng, 1.0, 20.0),
        );
        let (mi, mj) = (
            log_uniform(&mut rng, 0.1, 10.0),
            log_uniform(&mut rng, 0.1, 10.0),
        );
        let angle = std::f64::consts::TAU * rng.unit();
        let s = [angle.cos(), angle.sin()];
        // Touching, or overlapping by up to a tenth of the smaller radius.
        let d = (ri + rj) * (1.0 - 0.1 * rng.unit() * ri.min(rj) / (ri + rj));
        let mut bi = Ball::new(
            500.0,
            500.0,
            5.0 * rng.symmetric(),
            5.0 * rng.symmetric(),
            ri,
            mi,
        );
        let mut bj = Ball::new(
            500.0 + d * s[0],
            500.0 + d * s[1],
            5.0 * rng.symmetric(),
            5.0 * rng.symmetric(),
            rj,
            mj,
        );
        // Every fifth case has one kinematic ball (an infinite mass).
        let kin = case % 5;
        bi.kinematic = kin == 1;
        bj.kinematic = kin == 2;
        let mut balls = Balls::from_vec(&[bi, bj]);
        let before = balls.clone();
        let g = approach(&balls, Contact::Pair(0, 1));
        let hits = resolve_contacts(&mut balls, &TABLE, &[Contact::Pair(0, 1)], e, &mut solver);
        let scale = speed_scale(&before);
        if g >= 0.0 {
            // Separating or resting: nothing happens.
            assert_eq!(hits, 0);
            assert_eq!(balls, before);
            continue;
        }
        checked += 1;
        assert_eq!(hits, 1);
        let (vi, vj) = two_ball(
            [before.vx[0], before.vy[0]],
            [before.vx[1], before.vy[1]],
            s,
            (!bi.kinematic).then_some(mi),
            (!bj.kinematic).then_some(mj),
            e,
        );
        // The solver forms 1/m_i + 1/m_j and a square root (Cholesky pivot): a few
        // rounding errors of the speed scale; 1e-12 is a thousand times that.
        let tol = 1e-12 * scale;
        // The general active-set path too (a warm start skips the one-contact
        // shortcut).
        let mut general = before.clone();
        solver.solve_all_active(&mut general, &[Contact::Pair(0, 1)], e, Some(&[0.0]));
        for b in [&balls, &general] {
            for (k, v) in [(0, vi), (1, vj)] {
                assert!(
                    (b.vx[k] - v[0]).abs() <= tol && (b.vy[k] - v[1]).abs() <= tol,
                    "case {case}: ball {k} ({}, {}) vs formula {v:?}",
                    b.vx[k],
                    b.vy[k]
                );
            }
        }
    }
    assert!(checked > 700, "too few approaching cases: {checked}");
}

#[test]
pub(super) fn one_wall_contact_reflects_the_normal_velocity() {
    let mut solver = ContactSolver::new();
    let mut rng = SplitMix64(5);
    for (wall, x, y) in [
        (Wall::Left, 10.0, 500.0),
        (Wall::Right, 990.0, 500.0),
        (Wall::Top, 500.0, 10.0),
        (Wall::Bottom, 500.0, 990.0),
    ] {
        for _ in 0..50 {
            let e = rng.unit();
            let n = wall.normal();
            // Into the wall (against its inward normal), with some tangential motion.
            let (vn, vt) = (-1.0 - 4.0 * rng.unit(), 5.0 * rng.symmetric());
            let v = [vn * n[0] - vt * n[1], vn * n[1] + vt * n[0]];
            let mut balls = Balls::from_vec(&[Ball::new(x, y, v[0], v[1], 10.0, 2.0)]);
            let hits = resolve_contacts(
                &mut balls,
                &TABLE,
                &[Contact::Wall(0, wall)],
                e,
                &mut solver,
            );
            assert_eq!(hits, 1);
            // v_n' = -e v_n, tangential part kept.
            let expect = [-e * vn * n[0] - vt * n[1], -e * vn * n[1] + vt * n[0]];
            assert!((balls.vx[0] - expect[0]).abs() <= 1e-12 * 5.0, "{wall:?}");
            assert!((balls.vy[0] - expect[1]).abs() <= 1e-12 * 5.0, "{wall:?}");
        }
    }
}

// ---------------------------------------------------------------------------------
// Three balls, two contacts: seed 001.

pub(super) struct Three {
    p: [[f64; 2]; 3],
    v: [[f64; 2]; 3],
    r: [f64; 3],
    m: [f64; 3],
}

impl Three {
    fn balls(&self) -> Balls {
        Balls::from_vec(
            &(0..3)
                .map(|k| {
                    Ball::new(
                        self.p[k][0],
                        self.p[k][1],
                        self.v[k][0],
                        self.v[k][1],
                        self.r[k],
                        self.m[k],
                    )
                })
                .collect::<Vec<_>>(),
        )
    }

    fn unit(&self, k: usize) -> [f64; 2] {
        let (dx, dy) = (self.p[k][0] - self.p[0][0], self.p[k][1] - self.p[0][1]);
        let d = dx.hypot(dy);
        [dx / d, dy / d]
    }
}

/// Seed 001's closed form, in its own notation: ball 0 hits balls 1 and 2 at once with
/// restitution `c`. Returns the velocities after and the seed's coefficients r1, r2
/// (ball k moves by `r_k (x_0k, y_0k)`: a negative one means a pulling impulse).
pub(super) fn seed_closed_form(t: &Three, c: f64) -> ([[f64; 2]; 3], f64, f64) {
    let [m0, m1, m2] = t.m;
    let [[v0, w0], [v1, w1], [v2, w2]] = t.v;
    let (x01, y01) = (t.p[1][0] - t.p[0][0], t.p[1][1] - t.p[0][1]);
    let (x02, y02) = (t.p[2][0] - t.p[0][0], t.p[2][1] - t.p[0][1]);
    let p = x01 * x02 + y01 * y02;
    let s01 = x01 * x01 + y01 * y01;
    let s02 = x02 * x02 + y02 * y02;
    let delta = (m0 + m1) * (m0 + m2) * s01 * s02 - m1 * m2 * p * p;
    let b01 = (1.0 + c) * (x01 * (v1 - v0) + y01 * (w1 - w0));
    let b02 = (1.0 + c) * (x02 * (v2 - v0) + y02 * (w2 - w0));
    let u0 = -(b01 * m1 * (x02 * m2 * p - x01 * (m0 + m2) * s02)
        + b02 * m2 * (x01 * m1 * p - x02 * (m0 + m1) * s01))
        / delta;
    let u1 = -(b01 * m1 * (y02 * m2 * p - y01 * (m0 + m2) * s02)
        + b02 * m2 * (y01 * m1 * p - y02 * (m0 + m1) * s01))
        / delta;
    let r1 = m0 * (b02 * m2 * p - b01 * (m0 + m2) * s02) / delta;
    let r2 = m0 * (b01 * m1 * p - b02 * (m0 + m1) * s01) / delta;
    (
        [
            [v0 + u0, w0 + u1],
            [v1 + x01 * r1, w1 + y01 * r1],
            [v2 + x02 * r2, w2 + y02 * r2],
        ],
        r1,
        r2,
    )
}

/// The complementarity solution found by trying the four active sets: nobody, only
/// contact 01 (the two-ball formula), only 02, both (the closed form). A candidate is
/// the answer when its impulses push (never pull) and the contacts it leaves out end
/// with `g' + e g >= 0`. Returns every candidate that qualifies (within `tol`).
pub(super) fn complementarity_candidates(t: &Three, e: f64, tol: f64) -> Vec<[[f64; 2]; 3]> {
    let s = [[0.0, 0.0], t.unit(1), t.unit(2)];
    let g =
        |v: &[[f64; 2]; 3], k: usize| (v[k][0] - v[0][0]) * s[k][0] + (v[k][1] - v[0][1]) * s[k][1];
    let g0 = [0.0, g(&t.v, 1), g(&t.v, 2)];
    let mut cands = Vec::new();
    cands.push(([false, false], t.v));
    for k in [1, 2] {
        let (v0, vk) = two_ball(t.v[0], t.v[k], s[k], Some(t.m[0]), Some(t.m[k]), e);
        let mut v = t.v;
        v[0] = v0;
        v[k] = vk;
        cands.push((if k == 1 { [true, false] } else { [false, true] }, v));
    }
    cands.push(([true, true], seed_closed_form(t, e).0));
    let mut out = Vec::new();
    for (active, v) in cands {
        let mut ok = true;
        for k in [1, 2] {
            if active[k - 1] {
                // Impulse on ball k along s_k, from its velocity change.
                let push =
                    t.m[k] * ((v[k][0] - t.v[k][0]) * s[k][0] + (v[k][1] - t.v[k][1]) * s[k][1]);
                ok &= push >= -tol * t.m[k];
            } else {
                ok &= g(&v, k) + e * g0[k] >= -tol;
            }
        }
        if ok {
            out.push(v);
        }
    }
    out
}

/// Ball 0 touching balls 1 and 2 (which do not touch each other), both contacts
/// approaching, random masses, radii and angles.
pub(super) fn random_three(rng: &mut SplitMix64) -> Three {
    loop {
        let r = [
            log_uniform(rng, 2.0, 20.0),
            log_uniform(rng, 2.0, 20.0),
            log_uniform(rng, 2.0, 20.0),
        ];
        let m = [
            log_uniform(rng, 0.1, 10.0),
            log_uniform(rng, 0.1, 10.0),
            log_uniform(rng, 0.1, 10.0),
        ];
        let a1 = std::f64::consts::TAU * rng.unit();
        let a2 = a1 + std::f64::consts::TAU * rng.unit();
        let c = [500.0, 500.0];
        let p = [
            c,
            [
                c[0] + (r[0] + r[1]) * a1.cos(),
                c[1] + (r[0] + r[1]) * a1.sin(),
            ],
            [
                c[0] + (r[0] + r[2]) * a2.cos(),
                c[1] + (r[0] + r[2]) * a2.sin(),
            ],
        ];
        if (p[1][0] - p[2][0]).hypot(p[1][1] - p[2][1]) <= 1.01 * (r[1] + r[2]) {
            continue;
        }
        let mut v = [[0.0; 2]; 3];
        for vk in &mut v {
            *vk = [5.0 * rng.symmetric(), 5.0 * rng.symmetric()];
        }
        let t = Three { p, v, r, m };
        let b = t.balls();
        if approach(&b, Contact::Pair(0, 1)) < -1e-3 && approach(&b, Contact::Pair(0, 2)) < -1e-3 {
            return t;
        }
    }
}

#[test]
pub(super) fn three_balls_two_contacts_match_seed_001() {
    let mut rng = SplitMix64(2024);
    let mut solver = ContactSolver::new();
    let (mut positive, mut negative, mut clearly_negative) = (0, 0, 0);
    for case in 0..3000 {
        let t = random_three(&mut rng);
        let e = if case % 4 == 0 { 1.0 } else { rng.unit() };
        let mut balls = t.balls();
        let scale = speed_scale(&balls);
        let contacts = [Contact::Pair(0, 1), Contact::Pair(0, 2)];
        resolve_contacts(&mut balls, &TABLE, &contacts, e, &mut solver);
        let got = |k: usize| [balls.vx[k], balls.vy[k]];
        let gap = |v: &[[f64; 2]; 3]| {
            (0..3)
                .map(|k| (got(k)[0] - v[k][0]).hypot(got(k)[1] - v[k][1]))
                .fold(0.0, f64::max)
        };
        let (closed, r1, r2) = seed_closed_form(&t, e);
        // The required accuracy: 1e-9 of the speed scale.
        let tol = 1e-9 * scale;
        if r1 >= 0.0 && r2 >= 0.0 {
            positive += 1;
            assert!(
                gap(&closed) <= tol,
                "case {case}: gap {} to the closed form",
                gap(&closed)
            );
        } else {
            negative += 1;
            // The complementarity answer, found by enumeration (tolerance in the
            // conditions: round-off of the two-ball formula and the closed form).
            let cands = complementarity_candidates(&t, e, 1e-12 * scale);
            assert!(
                !cands.is_empty(),
                "case {case}: no active set satisfies complementarity"
            );
            for c in &cands {
                assert!(
                    gap(c) <= tol,
                    "case {case}: gap {} to the complementarity solution",
                    gap(c)
                );
            }
            // ... and it is not the closed form, which pulls on one ball. The velocity
            // change the pulling impulse causes is |r| |x_0k| in that ball's speed.
            let pull = if r1 < 0.0 {
                -r1 * (t.r[0] + t.r[1])
            } else {
                -r2 * (t.r[0] + t.r[2])
            };
            if pull > 1e-6 * scale {
                clearly_negative += 1;
                assert!(
                    gap(&closed) > tol,
                    "case {case}: equals the closed form despite a pulling impulse"
                );
            }
        }
    }
    assert!(
        positive >= 1000,
        "only {positive} configurations with pushing impulses"
    );
    assert!(
        clearly_negative >= 200,
        "only {clearly_negative} of {negative} with a clearly pulling closed form"
    );
}

// ---------------------------------------------------------------------------------
// Conservation.

/// A random pile: balls dropped one by one touching a random earlier ball (so the
/// contact graph is connected, with loops where they happen to touch several), random
/// masses and velocities, far from the walls.
pub(super) fn random_pile(rng: &mut SplitMix64, n: usize) -> Balls {
    let mut balls = Balls::default();
    balls.push(Ball::new(
        500.0,
        500.0,
        3.0 * rng.symmetric(),
        3.0 * rng.symmetric(),
        10.0,
        log_uniform(rng, 0.2, 5.0),
    ));
    while balls.len() < n {
        let k = (rng.next_u64() % balls.len() as u64) as usize;
        let r = log_uniform(rng, 5.0, 15.0);
        let a = std::f64::consts::TAU * rng.unit();
        let d = balls.r[k] + r;
        let (x, y) = (balls.x[k] + d * a.cos(), balls.y[k] + d * a.sin());
        // No overlap deeper than round-off with the others.
        if (0..balls.len()).any(|j| (balls.x[j] - x).hypot(balls.y[j] - y) < balls.r[j] + r - 1e-9)
        {
            continue;
        }
        balls.push(Ball::new(
            x,
            y,
            3.0 * rng.symmetric(),
            3.0 * rng.symmetric(),
            r,
            log_uniform(rng, 0.2, 5.0),
        ));
    }
    balls
}

/// All pairs within `r_i + r_j` plus a relative round-off slack of 1e-12.
pub(super) fn pile_contacts(b: &Balls) -> Vec<Contact> {
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

#[test]
pub(super) fn momentum_is_conserved_and_elastic_energy_kept() {
    let mut rng = SplitMix64(7);
    let mut solver = ContactSolver::new();
    for case in 0..400 {
        let n = 2 + case % 12;
        let mut balls = random_pile(&mut rng, n);
        let contacts = pile_contacts(&balls);
        let e = if case % 2 == 0 { 1.0 } else { rng.unit() };
        let (p0, k0) = (momentum(&balls), kinetic_energy(&balls));
        let scale: f64 = (0..n)
            .map(|i| balls.m[i] * balls.vx[i].hypot(balls.vy[i]))
            .sum();
        let hits = resolve_contacts(&mut balls, &TABLE, &contacts, e, &mut solver);
        let (p1, k1) = (momentum(&balls), kinetic_energy(&balls));
        // Each impulse adds and removes the same momentum up to one rounding of each
        // velocity update: a few eps per impulse of the momentum scale; 1e-13 covers
        // hundreds of impulses.
        assert!(
            (p1[0] - p0[0]).hypot(p1[1] - p0[1]) <= 1e-13 * scale,
            "case {case}: momentum drift"
        );
        if e == 1.0 {
            // e = 1 keeps |u| exactly in each solve; round-off of a few eps per pass.
            assert!(
                ((k1 - k0) / k0).abs() <= 1e-12,
                "case {case}: energy drift {}",
                (k1 - k0) / k0
            );
        } else {
            assert!(k1 <= k0 * (1.0 + 1e-12), "case {case}: energy gained");
        }
        // Nothing approaches afterwards.
        let v = speed_scale(&balls);
        for &c in &contacts {
            assert!(
                approach(&balls, c) >= -APPROACH * 10.0 * v.max(1.0),
                "case {case}: {c:?} still approaches"
            );
        }
        let _ = hits;
    }
}

/// In mass-weighted velocities the outcome is `u' = u + (1+e) p`, `p` the projection
/// of `-u` onto the contact cone, so the energy lost is `(1 - e^2)|p|^2/2`. `p` is
/// found independently: the perfectly inelastic (e = 0) outcome is `u + p`, and that
/// comes from the enumeration of active sets.
#[test]
pub(super) fn inelastic_energy_loss_follows_the_projection_formula() {
    let mut rng = SplitMix64(99);
    let mut solver = ContactSolver::new();
    for case in 0..1000 {
        let t = random_three(&mut rng);
        let e = rng.unit();
        let scale = speed_scale(&t.balls());
        let plastic = complementarity_candidates(&t, 0.0, 1e-12 * scale);
        assert!(!plastic.is_empty());
        let p2: f64 = (0..3)
            .map(|k| {
                t.m[k]
                    * ((plastic[0][k][0] - t.v[k][0]).powi(2)
                        + (plastic[0][k][1] - t.v[k][1]).powi(2))
            })
            .sum();
        let mut balls = t.balls();
        let k0 = kinetic_energy(&balls);
        solver.solve_all_active(
            &mut balls,
            &[Contact::Pair(0, 1), Contact::Pair(0, 2)],
            e,
            None,
        );
        let k1 = kinetic_energy(&balls);
        let expected = 0.5 * (1.0 - e * e) * p2;
        // Both sides are differences of energies of size k0: round-off about eps k0.
        assert!(
            ((k0 - k1) - expected).abs() <= 1e-11 * k0,
            "case {case}: lost {} expected {expected}",
            k0 - k1
        );
        // And the velocities themselves: u' = u + (1+e) p. The expectation goes through
        // the closed form, which divides by its Delta (small when the two normals are
        // nearly parallel): a few 1e-14 of the speed in these draws; 1e-11 leaves room
        // for the worst conditioning a draw can bring.
        for (k, (after, before)) in plastic[0].iter().zip(&t.v).enumerate() {
            let expect = [
                before[0] + (1.0 + e) * (after[0] - before[0]),
                before[1] + (1.0 + e) * (after[1] - before[1]),
            ];
            let gap = (balls.vx[k] - expect[0]).hypot(balls.vy[k] - expect[1]);
            assert!(gap <= 1e-11 * scale, "case {case}: ball {k} off by {gap}");
        }
    }
}

// ---------------------------------------------------------------------------------
// Fallback, threads, allocation.

/// A light ball between two heavy ones, all touching: the left one at rest, the light
/// one and the right one moving left together. Only one contact approaches at a time,
/// so the light ball rattles: pass after pass it bounces off one heavy ball into the
/// other, like the blocks of the well-known pi-counting puzzle.
fn squeezed(heavy: f64) -> Balls {
    Balls::from_vec(&[
        Ball::new(480.0, 500.0, 0.0, 0.0, 10.0, heavy),
        Ball::new(500.0, 500.0, -1.0, 0.0, 10.0, 1.0),
        Ball::new(520.0, 500.0, -1.0, 0.0, 10.0, heavy),
    ])
}

#[test]
fn light_ball_between_heavy_ones_takes_the_fallback_and_settles() {
    // The exact sequence has about pi sqrt(M/m) bounces: with M/m = 1e6 some 3,000
    // passes, more than the cap for two contacts (1,008).
    let balls = squeezed(1e6);
    let contacts = [Contact::Pair(0, 1), Contact::Pair(1, 2)];
    let mut solver = ContactSolver::new();
    let mut b = balls.clone();
    resolve_contacts(&mut b, &TABLE, &contacts, 1.0, &mut solver);
    assert_eq!(solver.stats().fallbacks, 1);
    let v = speed_scale(&balls);
    for &c in &contacts {
        assert!(approach(&b, c) >= -APPROACH * v, "{c:?} approaches");
    }
    let (p0, p1) = (momentum(&balls), momentum(&b));
    assert!((p1[0] - p0[0]).abs() <= 1e-13 * 2e6);
    assert!(kinetic_energy(&b) <= kinetic_energy(&balls) * (1.0 + 1e-12));
    assert!(b.vx.iter().all(|v| v.is_finite()));
}

#[test]
fn extreme_mass_ratio_stays_finite_and_conservative() {
    // With M/m = 1e12 the two contact normals, weighted by the masses, are parallel to
    // within 1e-6 rad: below what the solver can separate from round-off (see
    // nnls::DEPENDENT), so an approach may remain; the state must stay sane anyway.
    let balls = squeezed(1e12);
    let contacts = [Contact::Pair(0, 1), Contact::Pair(1, 2)];
    let mut solver = ContactSolver::new();
    let mut b = balls.clone();
    resolve_contacts(&mut b, &TABLE, &contacts, 1.0, &mut solver);
    assert!(b.vx.iter().chain(&b.vy).all(|v| v.is_finite()));
    let (p0, p1) = (momentum(&balls), momentum(&b));
    assert!((p1[0] - p0[0]).abs() <= 1e-13 * 2e12);
    assert!(kinetic_energy(&b) <= kinetic_energy(&balls) * (1.0 + 1e-12));
}

/// A moving kinematic ball pressing a ball into a corner: no impulses can stop that
/// approach (the complementarity problem has no solution). The solver must still stop,
/// with finite velocities, the kinematic ball untouched and the walls' work bounded by
/// what the pusher brings.
#[test]
fn ball_crushed_into_a_corner_stays_finite() {
    let s = 0.5f64.sqrt();
    let mut pusher = Ball::new(10.0 + 20.0 * s, 10.0 + 20.0 * s, -2.0, -2.0, 10.0, 1.0);
    pusher.kinematic = true;
    let balls = Balls::from_vec(&[Ball::new(10.0, 10.0, 0.5, -0.3, 10.0, 1.0), pusher]);
    let contacts = [
        Contact::Pair(0, 1),
        Contact::Wall(0, Wall::Left),
        Contact::Wall(0, Wall::Top),
    ];
    let mut solver = ContactSolver::new();
    let mut b = balls.clone();
    resolve_contacts(&mut b, &TABLE, &contacts, 1.0, &mut solver);
    assert!(b.vx.iter().chain(&b.vy).all(|v| v.is_finite()));
    assert_eq!((b.vx[1], b.vy[1]), (-2.0, -2.0));
    // Whatever the solver does, the ball cannot come out faster than a bounce off the
    // pusher at twice its speed plus its own.
    assert!(b.vx[0].hypot(b.vy[0]) <= 2.0 * 8f64.sqrt() + 1.0);
}

/// A hexagonal lattice of 256 balls (705 contacts) contracting towards its centre:
/// every contact approaches, one cluster larger than MAX_CLUSTER, solved block by
/// block and then settled by the propagation loop.
#[test]
fn oversized_cluster_is_settled_block_by_block() {
    let mut balls = Vec::new();
    for row in 0..16 {
        for col in 0..16 {
            let x = 200.0 + 20.0 * col as f64 + if row % 2 == 1 { 10.0 } else { 0.0 };
            let y = 200.0 + 20.0 * 3f64.sqrt() / 2.0 * row as f64;
            let m = 1.0 + ((row * col) % 3) as f64;
            balls.push(Ball::new(
                x,
                y,
                -(x - 350.0) * 0.01,
                -(y - 330.0) * 0.01,
                10.0,
                m,
            ));
        }
    }
    let balls = Balls::from_vec(&balls);
    let contacts = pile_contacts(&balls);
    assert!(contacts.len() > MAX_CLUSTER);
    let mut solver = ContactSolver::new();
    let mut b = balls.clone();
    let scale: f64 = (0..b.len()).map(|i| b.m[i] * b.vx[i].hypot(b.vy[i])).sum();
    resolve_contacts(&mut b, &TABLE, &contacts, 0.5, &mut solver);
    assert!(solver.stats().split_clusters >= 1, "{:?}", solver.stats());
    let v = speed_scale(&balls);
    for &c in &contacts {
        assert!(
            approach(&b, c) >= -APPROACH * v,
            "{c:?} approaches at {}",
            approach(&b, c)
        );
    }
    let (p0, p1) = (momentum(&balls), momentum(&b));
    // Thousands of impulses, each conserving momentum to a rounding of the velocities.
    assert!((p1[0] - p0[0]).hypot(p1[1] - p0[1]) <= 1e-12 * scale);
    assert!(kinetic_energy(&b) <= kinetic_energy(&balls));
}

/// A dense field of balls colliding every step: hundreds of contacts per pass, enough
/// for the clusters to be solved in parallel.
fn crowd(side: usize) -> World {
    let mut rng = SplitMix64(1);
    let mut balls = Vec::new();
    for iy in 0..side {
        for ix in 0..side {
            balls.push(Ball::new(
                15.0 + 20.5 * ix as f64,
                15.0 + 20.5 * iy as f64,
                3.0 * rng.symmetric(),
                3.0 * rng.symmetric(),
                10.0,
                log_uniform(&mut rng, 0.5, 2.0),
            ));
        }
    }
    let size = 30.0 + 20.5 * side as f64;
    World::from_balls(Table::new(size, size), simultaneous(0.9), &balls).unwrap()
}

#[test]
fn results_are_identical_for_any_thread_count() {
    let mut reference = crowd(64);
    reference.run_steps(100).unwrap();
    assert!(reference.collisions() > 1000);
    for threads in [2, 3, 4] {
        let mut w = crowd(64);
        w.set_threads(threads).unwrap();
        w.run_steps(100).unwrap();
        assert_eq!(w.balls(), reference.balls(), "{threads} threads");
        assert_eq!(w.collisions(), reference.collisions());
    }
}

#[test]
fn the_parallel_path_is_taken_in_the_crowd() {
    let mut w = crowd(64);
    let mut model = Simultaneous::new(w.balls(), w.table(), w.physics()).unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let (table, physics) = (*w.table(), *w.physics());
    for _ in 0..50 {
        model
            .step(StepContext {
                balls: w.balls_mut(),
                table: &table,
                physics: &physics,
                pool: Some(&pool),
                walls: &carom::walls::NO_WALLS,
                in_play: None,
            })
            .unwrap();
    }
    assert!(model.stats().parallel_passes > 0, "{:?}", model.stats());
}

#[test]
fn steady_state_steps_do_not_allocate() {
    let mut w = crowd(30);
    // Warm up: scratch buffers grow to the largest problem of the first steps.
    w.run_steps(300).unwrap();
    let before = allocations();
    w.run_steps(50).unwrap();
    let during = allocations() - before;
    // Buffers may still grow when a step meets a larger problem than any before; that
    // is rare once warmed up and bounded by a handful per buffer.
    assert!(during <= 5, "{during} allocations in 50 steps");
}

// ---------------------------------------------------------------------------------
// Properties.

fn arb_scene() -> impl Strategy<Value = (Vec<Ball>, f64)> {
    let ball = (
        5.0..115.0f64,
        5.0..115.0f64,
        -5.0..5.0f64,
        -5.0..5.0f64,
        4.0..15.0f64,
        0.2..5.0f64,
        0..8u8,
    )
        .prop_map(|(x, y, vx, vy, r, m, kind)| {
            let mut b = Ball::new(x, y, vx, vy, r, m);
            // One ball in eight is kinematic and at rest: a static obstacle.
            if kind == 0 {
                b.kinematic = true;
                b.vx = 0.0;
                b.vy = 0.0;
            }
            b
        });
    (prop::collection::vec(ball, 2..12), 0.0..=1.0f64)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Crowded random scenes (deep overlaps, walls, static obstacles): after resolving
    /// every touching contact, nothing is NaN, no kinetic energy was created, and no
    /// contact with a dynamic ball still approaches.
    #[test]
    fn resolving_leaves_no_approach_and_no_energy_gain((balls, e) in arb_scene()) {
        let table = Table::new(120.0, 120.0);
        let mut b = Balls::from_vec(&balls);
        let contacts = brute_force_contacts(&b, &table);
        let k0 = kinetic_energy(&b);
        let v = speed_scale(&b);
        let mut solver = ContactSolver::new();
        resolve_contacts(&mut b, &table, &contacts, e, &mut solver);
        prop_assert!(b.vx.iter().chain(&b.vy).all(|x| x.is_finite()));
        // Static walls and obstacles do no work; round-off of a few eps per pass.
        prop_assert!(kinetic_energy(&b) <= k0 * (1.0 + 1e-12) + 1e-300);
        for &c in &contacts {
            // The solver's own threshold is APPROACH * V; allow ten times that.
            prop_assert!(approach(&b, c) >= -10.0 * APPROACH * v, "{:?} approaches at {}", c, approach(&b, c));
        }
    }

    /// The same scenes stepped by the model: finite, energy not gained (no gravity).
    #[test]
    fn model_steps_stay_finite_and_do_not_gain_energy((balls, e) in arb_scene()) {
        let table = Table::new(120.0, 120.0);
        let mut w = World::from_balls(table, simultaneous(e), &balls).unwrap();
        let k0 = kinetic_energy(w.balls());
        let v0 = speed_scale(w.balls());
        for _ in 0..20 {
            w.step().unwrap();
        }
        let b = w.balls();
        prop_assert!(b.x.iter().chain(&b.y).chain(&b.vx).chain(&b.vy).all(|x| x.is_finite()));
        // After the last step nothing touching approaches (positions do not move
        // between the resolution and the end of the step). The solver's round-off is
        // relative to the speeds that entered a resolution, which can be far above the
        // speeds left after it (an inelastic stop leaves ~1e-16 of them), so the scale
        // is the larger of the largest initial and final speeds.
        let v = speed_scale(b).max(v0);
        for c in brute_force_contacts(b, &table) {
            prop_assert!(approach(b, c) >= -10.0 * APPROACH * v, "{:?} approaches at {}", c, approach(b, c));
        }
        prop_assert!(kinetic_energy(b) <= k0 * (1.0 + 1e-11) + 1e-300);
    }
}
