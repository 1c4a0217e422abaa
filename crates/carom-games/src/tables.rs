//! Tables and ball sets to the governing bodies' specifications, as carom scenario
//! values (metres, seconds, the `event` model, cloth friction). Sources of every
//! number: `docs/games.md`.
//!
//! Frame: the engine's, x along the table's length from the head (pool) or baulk
//! (snooker) end at the left, y across it, downwards on the screen. The playing surface
//! is the rectangle between the cushions' noses, `[rail, rail + length] x [rail, rail +
//! width]`; the `rail` around it holds the pockets. A pocket table's cushions are
//! polylines (one per rail between two pockets) whose ends turn into the pocket as
//! straight jaws; a pocketless table's cushions are one closed polyline on the noses.

use carom::scenario::{
    BallSpec, ContactFrictionSpec, PhysicsSpec, PocketSpec, Scenario, TableSpec, WallKind, WallSpec,
};
use carom::Friction;
use carom::ModelKind;
use serde::{Deserialize, Serialize};

/// One inch in metres.
pub const INCH: f64 = 0.0254;

/// The tables this crate builds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TableKind {
    /// WPA 7-ft pool table: 78 x 39 in.
    #[serde(rename = "pool-7ft")]
    Pool7,
    /// WPA 8-ft pool table: 92 x 46 in.
    #[serde(rename = "pool-8ft")]
    Pool8,
    /// WPA 9-ft pool table: 100 x 50 in.
    #[serde(rename = "pool-9ft")]
    Pool9,
    /// WPBSA 12-ft snooker table: 3569 x 1778 mm.
    Snooker,
    /// UMB match billiard (carom) table: 2.84 x 1.42 m, no pockets.
    Carom,
}

impl TableKind {
    pub const ALL: [TableKind; 5] = [
        TableKind::Pool7,
        TableKind::Pool8,
        TableKind::Pool9,
        TableKind::Snooker,
        TableKind::Carom,
    ];

    pub fn name(self) -> &'static str {
        match self {
            TableKind::Pool7 => "pool-7ft",
            TableKind::Pool8 => "pool-8ft",
            TableKind::Pool9 => "pool-9ft",
            TableKind::Snooker => "snooker",
            TableKind::Carom => "carom",
        }
    }

    pub fn from_name(s: &str) -> Option<TableKind> {
        TableKind::ALL.into_iter().find(|k| k.name() == s)
    }
}

/// A pocket: its name, the centre and radius of the circle a ball's centre must enter
/// to drop (the engine's pocket), and its mouth (the distance between the jaws' tips,
/// as the specifications measure it).
#[derive(Debug, Clone, PartialEq)]
pub struct Pocket {
    pub name: &'static str,
    pub center: [f64; 2],
    pub radius: f64,
    pub mouth: f64,
}

/// The balls of a set (all alike in size and mass) and how they meet each other.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BallSet {
    pub radius: f64,
    pub mass: f64,
    /// Ball-ball restitution.
    pub restitution: f64,
    /// Ball-ball sliding friction (the throw of a cut).
    pub friction: f64,
}

/// The cushions: Han's impulse with these numbers (see `docs/pool.md`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cushions {
    pub restitution: f64,
    pub mu: f64,
    /// Height of the nose above the cloth, metres.
    pub nose_height: f64,
}

/// The cloth's friction coefficients (the engine's `cloth` friction).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cloth {
    pub sliding_mu: f64,
    pub rolling_mu: f64,
    pub spinning_mu: f64,
}

/// A table with its ball set.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub kind: TableKind,
    /// Playing surface between the noses, along x.
    pub length: f64,
    /// Playing surface between the noses, along y.
    pub width: f64,
    /// The band around the playing surface (cushions and pockets), each side.
    pub rail: f64,
    pub balls: BallSet,
    pub cushions: Cushions,
    pub cloth: Cloth,
    /// Empty on a carom table.
    pub pockets: Vec<Pocket>,
    /// The cushions as engine walls.
    pub walls: Vec<WallSpec>,
}

/// Standard gravity, m/s^2 (the cloth friction's `g_normal`).
pub const G: f64 = 9.81;

/// The cloth of every table here: the engine's pool cloth (Marlow's figures).
const CLOTH: Cloth = Cloth {
    sliding_mu: carom::scenario::CLOTH_SLIDING_MU,
    rolling_mu: carom::scenario::CLOTH_ROLLING_MU,
    spinning_mu: carom::scenario::CLOTH_SPINNING_MU,
};

/// How deep a jaw runs back into the rail from the nose line.
const JAW_DEPTH: f64 = 2.0 * INCH;
/// The side pocket's jaws narrow its throat by this angle each (degrees).
const SIDE_JAW_ANGLE: f64 = 14.0;

impl Table {
    /// The table of a kind.
    pub fn new(kind: TableKind) -> Table {
        match kind {
            TableKind::Pool7 => Table::pool(78.0 * INCH, 39.0 * INCH, kind),
            TableKind::Pool8 => Table::pool(92.0 * INCH, 46.0 * INCH, kind),
            TableKind::Pool9 => Table::pool(100.0 * INCH, 50.0 * INCH, kind),
            TableKind::Snooker => Table::snooker(),
            TableKind::Carom => Table::carom(),
        }
    }

    fn pool(length: f64, width: f64, kind: TableKind) -> Table {
        let radius = 2.25 * INCH / 2.0;
        let balls = BallSet {
            radius,
            mass: 0.17,
            restitution: 0.95,
            friction: 0.05,
        };
        let cushions = Cushions {
            restitution: 0.85,
            mu: 0.2,
            nose_height: 0.635 * 2.0 * radius,
        };
        // Mouths: the middle of the WPA's ranges, 4.5 to 4.625 in and 5 to 5.125 in.
        pocket_table(
            kind,
            [length, width],
            6.0 * INCH,
            [4.5625 * INCH, 5.0625 * INCH],
            balls,
            cushions,
        )
    }

    fn snooker() -> Table {
        let radius = 0.0525 / 2.0;
        let balls = BallSet {
            radius,
            mass: 0.142,
            restitution: 0.95,
            friction: 0.05,
        };
        let cushions = Cushions {
            restitution: 0.85,
            mu: 0.2,
            nose_height: 0.635 * 2.0 * radius,
        };
        pocket_table(
            TableKind::Snooker,
            [3.569, 1.778],
            6.0 * INCH,
            [3.5 * INCH, 4.125 * INCH],
            balls,
            cushions,
        )
    }

    fn carom() -> Table {
        let radius = 0.0615 / 2.0;
        let rail = 0.1;
        let (length, width) = (2.84, 1.42);
        let cushions = Cushions {
            restitution: 0.85,
            mu: 0.2,
            nose_height: 0.037,
        };
        let (x1, y1) = (rail + length, rail + width);
        let walls = vec![WallSpec {
            closed: Some(true),
            ..wall(
                vec![[rail, rail], [x1, rail], [x1, y1], [rail, y1]],
                &cushions,
            )
        }];
        Table {
            kind: TableKind::Carom,
            length,
            width,
            rail,
            balls: BallSet {
                radius,
                mass: 0.21,
                restitution: 0.95,
                friction: 0.05,
            },
            cushions,
            cloth: CLOTH,
            pockets: Vec::new(),
            walls,
        }
    }

    /// The whole scenario table (playing surface and rails), along x and y.
    pub fn outer(&self) -> [f64; 2] {
        [self.length + 2.0 * self.rail, self.width + 2.0 * self.rail]
    }

    /// The centre of the playing surface.
    pub fn center(&self) -> [f64; 2] {
        [self.rail + 0.5 * self.length, self.rail + 0.5 * self.width]
    }

    /// The x of the line `fraction` of the length from the head (left) cushion's nose.
    pub fn at_length(&self, fraction: f64) -> f64 {
        self.rail + fraction * self.length
    }

    /// Pool: the head string, a quarter of the length from the head cushion.
    pub fn head_string(&self) -> f64 {
        self.at_length(0.25)
    }

    /// Pool: the head spot (on the head string, on the long axis).
    pub fn head_spot(&self) -> [f64; 2] {
        [self.head_string(), self.center()[1]]
    }

    /// Pool: the foot spot, a quarter of the length from the foot cushion.
    pub fn foot_spot(&self) -> [f64; 2] {
        [self.at_length(0.75), self.center()[1]]
    }

    /// Whether a ball of this set centred at `p` lies on the playing surface (within
    /// the noses, touching allowed).
    pub fn on_surface(&self, p: [f64; 2]) -> bool {
        let r = self.balls.radius;
        let [x1, y1] = [self.rail + self.length, self.rail + self.width];
        p[0].is_finite()
            && p[1].is_finite()
            && p[0] >= self.rail + r
            && p[0] <= x1 - r
            && p[1] >= self.rail + r
            && p[1] <= y1 - r
    }

    /// The index of the pocket named `name`.
    pub fn pocket_index(&self, name: &str) -> Option<usize> {
        self.pockets.iter().position(|p| p.name == name)
    }

    /// The engine's physics for this table: the event model on cloth, ball-ball
    /// restitution and friction of the set.
    pub fn physics(&self) -> PhysicsSpec {
        PhysicsSpec {
            model: Some(ModelKind::Event),
            // The event model's output interval: how often the shot loop checks for rest.
            dt: 0.25,
            restitution: self.balls.restitution,
            contact_friction: ContactFrictionSpec {
                mu: self.balls.friction,
                ..ContactFrictionSpec::default()
            },
            friction: Friction::Cloth {
                sliding_mu: self.cloth.sliding_mu,
                rolling_mu: self.cloth.rolling_mu,
                spinning_mu: self.cloth.spinning_mu,
                g_normal: G,
            },
            ..PhysicsSpec::default()
        }
    }

    /// A ball of this set at `p`, at rest.
    pub fn ball(&self, p: [f64; 2]) -> BallSpec {
        BallSpec {
            r: self.balls.radius,
            m: self.balls.mass,
            ..BallSpec::at(p[0], p[1])
        }
    }

    /// The scenario of this table holding `balls`.
    pub fn scenario(&self, balls: Vec<BallSpec>) -> Scenario {
        let [w, h] = self.outer();
        Scenario {
            name: self.kind.name().to_string(),
            description: String::new(),
            duration: 0.0,
            table: TableSpec {
                width: Some(w),
                height: Some(h),
                boundary: None,
            },
            physics: self.physics(),
            balls,
            generators: Vec::new(),
            symmetry: None,
            walls: self.walls.clone(),
            pockets: self
                .pockets
                .iter()
                .map(|p| PocketSpec {
                    center: p.center,
                    radius: p.radius,
                })
                .collect(),
            model: None,
            time: None,
            steps: None,
            diagnostics: None,
            tangential_springs: None,
            thermostat_clock: None,
            compression: None,
        }
    }
}

/// A cushion wall through `points` with the table's cushion numbers.
fn wall(points: Vec<[f64; 2]>, c: &Cushions) -> WallSpec {
    WallSpec {
        kind: WallKind::Polyline,
        points: Some(points),
        closed: None,
        center: None,
        radius: None,
        from: None,
        to: None,
        restitution: Some(c.restitution),
        mu: Some(c.mu),
        surface_velocity: None,
        cushion_height: Some(c.nose_height),
        ..WallSpec::default()
    }
}

/// A six-pocket table: corner pockets whose jaws run at 45 degrees into the pocket,
/// side pockets whose jaws narrow the throat by [`SIDE_JAW_ANGLE`]. The drop circles
/// sit behind the mouths in the proportions of the `pool` preset's pockets (a corner
/// circle of 0.478 mouths' radius, its centre 0.174 mouths beyond the noses' corner
/// along each axis; a side circle of 0.442 mouths, 0.308 mouths behind the nose).
fn pocket_table(
    kind: TableKind,
    [length, width]: [f64; 2],
    rail: f64,
    [corner, side]: [f64; 2],
    balls: BallSet,
    cushions: Cushions,
) -> Table {
    let (a, x1, y1) = (rail, rail + length, rail + width);
    let xm = rail + 0.5 * length;
    // A corner jaw's tip lies `c` from the noses' corner along its rail: the two tips
    // are the mouth apart.
    let c = corner / std::f64::consts::SQRT_2;
    let d = JAW_DEPTH;
    let s = 0.5 * side;
    let t = d * SIDE_JAW_ANGLE.to_radians().tan();
    // Each long rail in two halves (top then bottom, left half first), then the short
    // rails, each polyline from jaw end to jaw end through the two tips.
    let mut walls = Vec::new();
    for (y, back) in [(a, a - d), (y1, y1 + d)] {
        walls.push(wall(
            vec![
                [a + c - d, back],
                [a + c, y],
                [xm - s, y],
                [xm - s + t, back],
            ],
            &cushions,
        ));
        walls.push(wall(
            vec![
                [xm + s - t, back],
                [xm + s, y],
                [x1 - c, y],
                [x1 - c + d, back],
            ],
            &cushions,
        ));
    }
    for (x, back) in [(a, a - d), (x1, x1 + d)] {
        walls.push(wall(
            vec![
                [back, a + c - d],
                [x, a + c],
                [x, y1 - c],
                [back, y1 - c + d],
            ],
            &cushions,
        ));
    }
    let (rc, oc) = (corner * 2.2 / 4.6, corner * 0.8 / 4.6);
    let (rs, os) = (side * 2.3 / 5.2, side * 1.6 / 5.2);
    let pocket = |name, center, radius, mouth| Pocket {
        name,
        center,
        radius,
        mouth,
    };
    let pockets = vec![
        pocket("top-left", [a - oc, a - oc], rc, corner),
        pocket("top-side", [xm, a - os], rs, side),
        pocket("top-right", [x1 + oc, a - oc], rc, corner),
        pocket("bottom-left", [a - oc, y1 + oc], rc, corner),
        pocket("bottom-side", [xm, y1 + os], rs, side),
        pocket("bottom-right", [x1 + oc, y1 + oc], rc, corner),
    ];
    Table {
        kind,
        length,
        width,
        rail,
        balls,
        cushions,
        cloth: CLOTH,
        pockets,
        walls,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_table_builds_an_engine_world() {
        for kind in TableKind::ALL {
            let t = Table::new(kind);
            let s = t.scenario(vec![t.ball(t.center())]);
            carom::parse::build_world(&s).unwrap_or_else(|e| panic!("{kind:?}: {e:?}"));
            assert_eq!(TableKind::from_name(kind.name()), Some(kind));
        }
    }
}
