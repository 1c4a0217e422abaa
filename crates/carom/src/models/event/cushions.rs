//! A ball's impact with the cushions it touches on cloth, pressed into them by the
//! cloth (`on_cloth.rs`, `soft.rs`).

use super::soft;
use crate::balls::Balls;
use crate::cloth::{Body, Cloth, Phase, Sphere};

/// How many times a group's ball-ball contacts and cushions are resolved in turn at
/// most (see the module's notes). A ball between a ball and a cushion settles in a few
/// passes; the cap only bounds a pathological group.
pub(super) const CUSHION_PASSES: usize = 16;

/// One contact of a ball with a cushion: the unit normal from the cushion towards the
/// ball's centre, the cushion's restitution, friction and surface velocity, and the
/// height of its nose above the cloth.
#[derive(Debug, Clone, Copy)]
pub(super) struct Cushion {
    pub(super) normal: [f64; 2],
    pub(super) restitution: f64,
    pub(super) mu: f64,
    pub(super) surface: [f64; 2],
    pub(super) nose: f64,
    /// A touch the ball slides along while the cloth presses it in (`inner::Graze`):
    /// met at zero speed when its approach is round-off.
    pub(super) pressed_touch: bool,
}

/// Ball `i`'s impact with the cushions it touches (`touches`), pressed into them by the
/// cloth as `press` says, in turn while any still approaches: adds each contact's
/// normal impulse per unit mass to `impulses`. Returns the contacts that took one.
pub(super) fn cushions(
    b: &mut Balls,
    i: usize,
    press: &Press,
    touches: &[Cushion],
    impulses: &mut [f64],
) -> u64 {
    if b.inv_m[i] == 0.0 {
        return 0;
    }
    let body = Body::of(b, i);
    for _ in 0..CUSHION_PASSES {
        let mut any = false;
        for (k, cushion) in touches.iter().enumerate() {
            let out = rebound(&Sphere::of(b, i), body, press, cushion);
            if out.impulse_per_mass > 0.0 {
                out.sphere.store(b, i);
                impulses[k] += out.impulse_per_mass;
                any = true;
            }
        }
        if !any {
            break;
        }
    }
    impulses.iter().filter(|&&p| p > 0.0).count() as u64
}

/// What a soft impact at a cushion needs to know of the ball (`soft.rs`): the cloth,
/// the ball's phase, its acceleration, how long the phase lasts and its inverse mass.
pub(super) struct Press<'a> {
    pub(super) law: &'a Cloth,
    pub(super) phase: Phase,
    pub(super) acc: [f64; 2],
    pub(super) left: f64,
    pub(super) inv_m: f64,
}

/// A cushion's impulse on cloth ([`crate::cushion::rebound`]), or a soft impact's
/// (`soft.rs`) along the cushion's horizontal normal.
pub(super) fn rebound(
    s: &Sphere,
    body: Body,
    press: &Press,
    c: &Cushion,
) -> crate::cushion::Rebound {
    // The horizontal direction from the centre into the cushion.
    let n = [-c.normal[0], -c.normal[1]];
    let approach = s.v[0] * n[0] + s.v[1] * n[1];
    let into = press.acc[0] * n[0] + press.acc[1] * n[1];
    // A pressed touch that came due without closing meets at zero speed (as a pair's
    // does, `Event::soft_pair`); once it leaves, it is a contact like any other.
    let approach = if c.pressed_touch && approach <= 0.0 && -approach <= 1e-12 * s.v[0].hypot(s.v[1]) {
        0.0
    } else {
        approach
    };
    if soft::is_soft(approach, into, body.r, press.law) {
        let held = soft::Held::new(*s, body, press.inv_m, press.phase);
        let meeting = soft::Meeting {
            n,
            approach,
            press: into,
            sigma: body.r,
            left: press.left,
        };
        let (sphere, impulse_per_mass) = soft::wall(press.law, &held, &meeting);
        return crate::cushion::Rebound {
            sphere,
            impulse_per_mass,
            approach,
        };
    }
    crate::cushion::rebound(s, body, n, c.nose, c.restitution, c.mu, c.surface)
}
