//! The physics of single balls and single contacts, free of any scheduling: how a ball
//! accelerates and moves along its curve, when it rests on a wall, and the impulse of
//! one ball-ball or ball-wall collision. The scheduling machinery calls these; a change
//! of contact law (rough disks) or of boundary (periodic axes) lands here.

use super::super::simultaneous::{resolve_contacts, ContactSolver};
use super::super::{Contact, Wall};
use crate::balls::Balls;
use crate::contact;
use crate::physics::ContactFriction;
use crate::stress::{add_contact, Virial};
use crate::table::Table;

/// A ball's acceleration: none for a kinematic ball; gravity for a flying one, less the
/// part pressing it into the walls it rests on.
#[inline]
pub(super) fn accel_of(inv_m: f64, rest: u8, g: [f64; 2]) -> [f64; 2] {
    if inv_m == 0.0 {
        return [0.0, 0.0];
    }
    let mut a = g;
    if rest != 0 {
        for w in Wall::ALL {
            if rest & (1 << w as u8) != 0 {
                let n = w.normal();
                let gn = a[0] * n[0] + a[1] * n[1];
                if gn < 0.0 {
                    a[0] -= gn * n[0];
                    a[1] -= gn * n[1];
                }
            }
        }
    }
    a
}

/// Decides whether dynamic ball `i`, touching wall `w`, rests on it: gravity must press
/// it into the wall and its speed off the wall be so small that it would be back within
/// `tc` (the TC time; a ball bouncing ever lower on the floor would otherwise need
/// endlessly many bounces). A resting ball's speed off the wall is set to zero, which
/// takes at most `m (g_n tc)^2 / 2` of energy. Returns whether it rests.
pub(super) fn settle(
    b: &mut Balls,
    rest: &mut u8,
    i: usize,
    w: Wall,
    g: [f64; 2],
    tc: f64,
) -> bool {
    let n = w.normal();
    let gn = g[0] * n[0] + g[1] * n[1];
    let vn = b.vx[i] * n[0] + b.vy[i] * n[1];
    let bit = 1 << w as u8;
    if gn < 0.0 && vn <= -gn * tc {
        b.vx[i] -= vn * n[0];
        b.vy[i] -= vn * n[1];
        *rest |= bit;
        true
    } else {
        *rest &= !bit;
        false
    }
}

/// Whether the table has wall `w` (a periodic or open axis has none).
#[inline]
pub(super) fn has_wall(table: &Table, w: Wall) -> bool {
    match w {
        Wall::Left | Wall::Right => table.has_walls(0),
        Wall::Top | Wall::Bottom => table.has_walls(1),
    }
}

/// Whether ball `i` touches wall `w`, within a billionth of its radius.
pub(super) fn touches_wall(b: &Balls, table: &Table, i: usize, w: Wall) -> bool {
    if !has_wall(table, w) {
        return false;
    }
    let (x, y, r) = (b.x[i], b.y[i], b.r[i]);
    let gap = match w {
        Wall::Left => x - r,
        Wall::Right => table.width - r - x,
        Wall::Top => y - r,
        Wall::Bottom => table.height - r - y,
    };
    gap <= 1e-9 * r
}

#[inline]
pub(super) fn wall_from_index(k: usize) -> Wall {
    Wall::ALL[k & 3]
}

/// Normal relative velocity of `j` (its image's, across a sheared box's sliding edge)
/// with respect to `i` is negative: they approach.
/// (Always inlined: it runs at every event, where a call costs more than its body.)
#[inline(always)]
pub(super) fn approaching_pair(b: &Balls, table: &Table, i: usize, j: usize) -> bool {
    let ry = b.y[j] - b.y[i];
    let (dx, dy) = table.min_image(b.x[j] - b.x[i], ry);
    let (mut dvx, dvy) = (b.vx[j] - b.vx[i], b.vy[j] - b.vy[i]);
    if table.is_sheared() {
        // Across a sliding edge, the image's velocity.
        dvx += table.image_velocity(ry, dy);
    }
    dx * dvx + dy * dvy < 0.0
}

#[inline]
pub(super) fn approaching_wall(b: &Balls, i: usize, w: Wall) -> bool {
    let [nx, ny] = w.normal();
    b.vx[i] * nx + b.vy[i] * ny < 0.0
}

/// The two-ball collision along the line of centres (minimum image), with inverse
/// masses so that a kinematic ball is an infinite mass. Returns whether an impulse was
/// applied; adds its `r_ij . J_ij` to `virial` (and `r_ij (x) J_ij` to its tensor).
/// (Always inlined: it runs at every event, where a call costs more than its body.)
#[inline(always)]
pub(super) fn collide_pair(
    b: &mut Balls,
    table: &Table,
    i: usize,
    j: usize,
    e: f64,
    virial: &mut Virial,
) -> bool {
    let (dx, dy) = table.min_image(b.x[j] - b.x[i], b.y[j] - b.y[i]);
    let d = (dx * dx + dy * dy).sqrt();
    let (wi, wj) = (b.inv_m[i], b.inv_m[j]);
    if d == 0.0 || wi + wj == 0.0 {
        return false;
    }
    let (nx, ny) = (dx / d, dy / d);
    let g = nx * (b.vx[j] - b.vx[i]) + ny * (b.vy[j] - b.vy[i]);
    if g >= 0.0 {
        return false;
    }
    let k = -(1.0 + e) * g / (wi + wj);
    b.vx[i] -= nx * k * wi;
    b.vy[i] -= ny * k * wi;
    b.vx[j] += nx * k * wj;
    b.vy[j] += ny * k * wj;
    // i (at -d n from j) receives -k n: r_ij . J_ij = k d.
    virial.sum += k * d;
    add_contact(&mut virial.tensor, [nx, ny], d, k, 0.0);
    true
}

/// [`collide_pair`] for rough disks: the impulse of [`contact::rough_impulse`], exact
/// at the contact point, spins included (minimum image; the normal impulse times the
/// distance goes into the virial). Spheres on cloth (`cloth`) take the rough-sphere law
/// ([`contact::collide_spheres_rough`]).
#[allow(clippy::too_many_arguments)]
fn collide_pair_rough(
    b: &mut Balls,
    table: &Table,
    i: usize,
    j: usize,
    e: f64,
    f: &ContactFriction,
    cloth: bool,
    virial: &mut Virial,
) -> u64 {
    let (dx, dy) = table.min_image(b.x[j] - b.x[i], b.y[j] - b.y[i]);
    let d = (dx * dx + dy * dy).sqrt();
    if d == 0.0 || b.inv_m[i] + b.inv_m[j] == 0.0 {
        return 0;
    }
    let n = [dx / d, dy / d];
    let (j_n, j_t) = if cloth {
        let c = contact::collide_spheres_rough(b, i, j, n, e, f);
        (c.j_n, c.j[0])
    } else {
        let c = contact::collide_pair_rough(b, i, j, n, e, f);
        (c.j_n, c.j_t)
    };
    virial.sum += j_n * d;
    if j_n > 0.0 {
        add_contact(&mut virial.tensor, n, d, j_n, j_t);
    }
    u64::from(j_n > 0.0)
}

/// [`collide_wall`] for rough disks (the wall's normal into the table, reversed, is the
/// contact normal from the ball into the wall).
fn collide_wall_rough(b: &mut Balls, i: usize, w: Wall, e: f64, f: &ContactFriction) -> u64 {
    if b.inv_m[i] == 0.0 {
        return 0;
    }
    let [nx, ny] = w.normal();
    let c = contact::collide_wall_rough(b, i, [-nx, -ny], e, f);
    u64::from(c.j_n > 0.0)
}

/// `v_n' = -e v_n` for a ball moving into a wall.
pub(super) fn collide_wall(b: &mut Balls, i: usize, w: Wall, e: f64) -> bool {
    let [nx, ny] = w.normal();
    let vn = b.vx[i] * nx + b.vy[i] * ny;
    if vn >= 0.0 || b.inv_m[i] == 0.0 {
        return false;
    }
    b.vx[i] -= (1.0 + e) * vn * nx;
    b.vy[i] -= (1.0 + e) * vn * ny;
    true
}

/// One simultaneous impact: the approaching contacts of one connected cluster. A lone
/// contact is the two-ball formula (or a wall reflection), which is what the contact
/// solver reduces to for one contact, without its set-up cost on the hot path; several
/// go to the exact simultaneous solver. Returns the contacts that received an impulse.
/// With contact friction, balls on cloth (`cloth`) meet by the rough-sphere law.
/// (Always inlined: it runs at every event, where a call costs more than its body.)
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn resolve_cluster(
    b: &mut Balls,
    table: &Table,
    contacts: &[Contact],
    e: f64,
    friction: &ContactFriction,
    cloth: bool,
    solver: &mut ContactSolver,
    pair_virial: &mut Virial,
) -> u64 {
    if friction.is_active() {
        return match *contacts {
            [Contact::Pair(i, j)] => {
                let (i, j) = (i as usize, j as usize);
                collide_pair_rough(b, table, i, j, e, friction, cloth, pair_virial)
            }
            [Contact::Wall(i, w)] => collide_wall_rough(b, i as usize, w, e, friction),
            _ => solver.resolve_rough(b, contacts, e, friction, cloth, None) as u64,
        };
    }
    match *contacts {
        [Contact::Pair(i, j)] => {
            collide_pair(b, table, i as usize, j as usize, e, pair_virial) as u64
        }
        [Contact::Wall(i, w)] => collide_wall(b, i as usize, w, e) as u64,
        _ => resolve_contacts(b, table, contacts, e, solver) as u64,
    }
}
