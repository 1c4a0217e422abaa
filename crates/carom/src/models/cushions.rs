//! Walls as cushions on cloth, in the stepping models (`impulse`, `simultaneous`,
//! `spring`).
//!
//! On cloth a ball is a sphere and a wall is a cushion whose nose touches it above its
//! equator: a wall contact takes Han's cushion impulse ([`crate::cushion::rebound`]) at
//! the wall's nose height (its own `cushion_height`, or the standard one for the
//! table's four walls), with the wall's restitution and friction (its own, or the
//! scene's `restitution` and `contact_friction.mu`) and its surface's velocity. The
//! impulse changes the velocity and all three spins, so it replaces the disk law at
//! every wall of a cloth scene.
//!
//! The pass goes, as `impulse` does with its walls, ball by ball in ascending order:
//! first the table's walls (left, right, top, bottom), then the walls inside the table
//! near the ball (ascending piece; a concave corner is two contacts, one after the
//! other), each contact found on the ball's position, which a bounce does not move. A
//! contact acts only while the ball approaches the cushion (Han's impulse is an impact
//! law: nothing acts on a ball leaving or resting against it), whatever the scene's
//! `glitch_prevention`.

use crate::balls::Balls;
use crate::cloth::{Body, Sphere};
use crate::cushion::{rebound, DEFAULT_NOSE_HEIGHT};
use crate::event_log::LoggedEvent;
use crate::models::Wall;
use crate::physics::Physics;
use crate::table::Table;
use crate::walls::{WallCells, Walls};

/// Which wall contacts the pass takes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Reach {
    /// A wall within this distance of the ball's surface is in contact: 0 for strict
    /// overlap (`impulse`, `spring`), the model's touching slack for `simultaneous`.
    pub slack: f64,
    /// The ball approaches the cushion when its speed into it exceeds this fraction of
    /// its speed (0 for any approach; `simultaneous` takes its own
    /// [`super::simultaneous::APPROACH`], so that a ball rolling along a cushion is not
    /// bounced on the sign of round-off).
    pub approach: f64,
}

/// The walls inside the table binned for contacts up to `reach` from a ball's centre,
/// binned afresh when missing or too narrow; `None` when the scene has none.
pub fn cells_for<'a>(
    cells: &'a mut Option<WallCells>,
    walls: &Walls,
    table: &Table,
    reach: f64,
) -> Option<&'a WallCells> {
    if !walls.has_walls() {
        return None;
    }
    if cells.as_ref().is_none_or(|c| c.reach() < reach) {
        *cells = Some(walls.cells(table.width, table.height, reach));
    }
    cells.as_ref()
}

/// Every cushion impact of the balls as they stand (see the module's outline). With
/// `LOG`, each is a row in `log` at `time`: the normal impulse `m (1 + e) c` and the
/// approach speed `v . n`. Returns the impacts.
#[allow(clippy::too_many_arguments)]
pub fn bounce<const LOG: bool>(
    balls: &mut Balls,
    table: &Table,
    physics: &Physics,
    walls: &Walls,
    cells: Option<&WallCells>,
    reach: Reach,
    log: &mut Vec<LoggedEvent>,
    time: f64,
) -> u64 {
    let (e_scene, mu_scene) = (physics.restitution, physics.contact_friction.mu);
    let has = [table.has_walls(0), table.has_walls(1)];
    let mut impacts = 0;
    for i in 0..balls.len() {
        if balls.inv_m[i] == 0.0 {
            continue;
        }
        let (x, y, r) = (balls.x[i], balls.y[i], balls.r[i]);
        let within = |gap: f64| gap < 0.0 || (reach.slack > 0.0 && gap <= reach.slack);
        // Unit normals from the ball into each wall.
        let table_walls = [
            (has[0] && within(x - r), [-1.0, 0.0], Wall::Left),
            (
                has[0] && within(table.width - r - x),
                [1.0, 0.0],
                Wall::Right,
            ),
            (has[1] && within(y - r), [0.0, -1.0], Wall::Top),
            (
                has[1] && within(table.height - r - y),
                [0.0, 1.0],
                Wall::Bottom,
            ),
        ];
        let h = DEFAULT_NOSE_HEIGHT * r;
        for (touching, n, wall) in table_walls {
            if touching {
                if let Some(row) = hit(balls, i, n, h, e_scene, mu_scene, [0.0; 2], reach) {
                    impacts += 1;
                    if LOG {
                        log.push(LoggedEvent::table_wall(time, i as u32, wall, row.0, row.1));
                    }
                }
            }
        }
        let Some(cells) = cells else { continue };
        let friction = &physics.contact_friction;
        walls.touches(cells.near(x, y), [x, y], r + reach.slack, |t| {
            if reach.slack == 0.0 && t.distance >= r {
                // Strict overlap, as at the table's walls.
                return;
            }
            let (e, f, surface) = walls.law_at(&t, e_scene, friction);
            let h = walls.cushion_height(t.wall).unwrap_or(h);
            let n = [-t.normal[0], -t.normal[1]];
            if let Some(row) = hit(balls, i, n, h, e, f.mu, surface, reach) {
                impacts += 1;
                if LOG {
                    log.push(LoggedEvent::wall(time, i as u32, t.wall, row.0, row.1));
                }
            }
        });
    }
    impacts
}

/// Ball `i` against a cushion (`n` from its centre into the cushion, nose height `h`):
/// the impact applied if the ball approaches, with its normal impulse and approach
/// speed; `None` otherwise.
#[allow(clippy::too_many_arguments)]
#[inline]
fn hit(
    balls: &mut Balls,
    i: usize,
    n: [f64; 2],
    h: f64,
    e: f64,
    mu: f64,
    surface: [f64; 2],
    reach: Reach,
) -> Option<(f64, f64)> {
    let s = Sphere::of(balls, i);
    let approach = s.v[0] * n[0] + s.v[1] * n[1];
    if approach <= reach.approach * s.v[0].hypot(s.v[1]) {
        return None;
    }
    let body = Body::of(balls, i);
    let out = rebound(&s, body, n, h, e, mu, surface);
    if out.impulse_per_mass <= 0.0 {
        return None;
    }
    out.sphere.store(balls, i);
    Some((balls.m[i] * out.impulse_per_mass, out.approach))
}
