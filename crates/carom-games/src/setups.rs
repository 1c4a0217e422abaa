//! The games' starting positions and ball sets, and drill layouts.
//!
//! Balls are numbered as the game numbers them:
//! - pool: 0 the cue ball, 1 to 15 the object balls (1 to 7 solids, 8 the eight, 9 to
//!   15 stripes);
//! - snooker: 0 the cue ball, 1 to 15 the reds, 16 yellow, 17 green, 18 brown, 19
//!   blue, 20 pink, 21 black (a colour's value is its number less 14);
//! - three-cushion: 0 the white (the first player's cue ball), 1 the yellow (the
//!   second player's), 2 the red;
//! - sum-to-three: 0 the cue ball, 1 the object ball.
//!
//! A rack is tight with a tiny random gap: the balls sit on a triangular lattice of
//! spacing `2 r + RACK_GAP`, and every ball but the apex is moved from its lattice
//! point by a random offset, uniform in a disk of radius `0.45 RACK_GAP`, drawn from
//! the seed. Neighbours are then `0.1 RACK_GAP` to `1.9 RACK_GAP` apart (never
//! touching, never loose), as a real rack is never perfectly tight, and the same seed
//! gives the same rack to the bit.

use carom::scenario::BallSpec;
use carom::SplitMix64;
use serde::{Deserialize, Serialize};

use crate::tables::{Table, TableKind};

/// The lattice gap of a rack (metres): 0.2 mm.
pub const RACK_GAP: f64 = 0.0002;
/// A rack ball's random offset from its lattice point is within this fraction of
/// [`RACK_GAP`].
pub const RACK_JITTER: f64 = 0.45;
/// UMB three-cushion break: the breaker's ball on the head string this far to the side
/// of the head spot.
pub const CAROM_BREAK_OFFSET: f64 = 0.182;

/// The games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameKind {
    EightBall,
    NineBall,
    TenBall,
    Snooker,
    ThreeCushion,
    SumToThree,
}

impl GameKind {
    pub const ALL: [GameKind; 6] = [
        GameKind::EightBall,
        GameKind::NineBall,
        GameKind::TenBall,
        GameKind::Snooker,
        GameKind::ThreeCushion,
        GameKind::SumToThree,
    ];

    pub fn name(self) -> &'static str {
        match self {
            GameKind::EightBall => "eight-ball",
            GameKind::NineBall => "nine-ball",
            GameKind::TenBall => "ten-ball",
            GameKind::Snooker => "snooker",
            GameKind::ThreeCushion => "three-cushion",
            GameKind::SumToThree => "sum-to-three",
        }
    }

    /// The game named `s`, or a one-line error listing the games.
    pub fn parse(s: &str) -> Result<GameKind, String> {
        GameKind::ALL
            .into_iter()
            .find(|g| g.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = GameKind::ALL.iter().map(|g| g.name()).collect();
                format!("unknown game {s:?} (games: {})", names.join(", "))
            })
    }

    /// The table the game is played on by default.
    pub fn default_table(self) -> TableKind {
        match self {
            GameKind::EightBall | GameKind::NineBall | GameKind::TenBall => TableKind::Pool9,
            GameKind::Snooker => TableKind::Snooker,
            GameKind::ThreeCushion | GameKind::SumToThree => TableKind::Carom,
        }
    }

    /// Whether the game is played with pockets.
    pub fn is_pool(self) -> bool {
        matches!(
            self,
            GameKind::EightBall | GameKind::NineBall | GameKind::TenBall
        )
    }

    /// The ball numbers of the game's set, in play order of the set.
    pub fn numbers(self) -> Vec<u32> {
        match self {
            GameKind::EightBall => (0..=15).collect(),
            GameKind::NineBall => (0..=9).collect(),
            GameKind::TenBall => (0..=10).collect(),
            GameKind::Snooker => (0..=21).collect(),
            GameKind::ThreeCushion => vec![0, 1, 2],
            GameKind::SumToThree => vec![0, 1],
        }
    }

    /// The balls a player may strike: pool and snooker the cue ball 0; three-cushion
    /// the player's own (0 or 1); sum-to-three 0.
    pub fn cue_ball(self, player: usize) -> u32 {
        match self {
            GameKind::ThreeCushion => player.min(1) as u32,
            _ => 0,
        }
    }

    /// A ball's name, e.g. `"9"`, `"cue"`, `"red 3"`, `"black"`, `"yellow"`.
    pub fn ball_name(self, n: u32) -> String {
        match (self, n) {
            (GameKind::ThreeCushion, 0) => "white".into(),
            (GameKind::ThreeCushion, 1) => "yellow".into(),
            (GameKind::ThreeCushion, _) => "red".into(),
            (_, 0) => "cue".into(),
            (GameKind::Snooker, 1..=15) => format!("red {n}"),
            (GameKind::Snooker, _) => SNOOKER_COLOURS
                .get(n.saturating_sub(16) as usize)
                .map_or("?", |c| c.0)
                .into(),
            _ => n.to_string(),
        }
    }

    /// A ball's colour, `#RRGGBB` (pool stripes carry their solid's colour; see
    /// [`is_stripe`]).
    pub fn ball_color(self, n: u32) -> &'static str {
        match (self, n) {
            (GameKind::ThreeCushion, 1) => "#F4D03F",
            (GameKind::ThreeCushion, 2) => "#C0392B",
            (_, 0) => "#FFFFFF",
            (GameKind::Snooker, 1..=15) => "#C0392B",
            (GameKind::Snooker, _) => SNOOKER_COLOURS
                .get(n.saturating_sub(16) as usize)
                .map_or("#808080", |c| c.1),
            (GameKind::SumToThree, _) => "#C0392B",
            _ => POOL_COLOURS[((n + 7) % 8) as usize],
        }
    }
}

/// Whether pool ball `n` is a stripe (9 to 15).
pub fn is_stripe(n: u32) -> bool {
    (9..=15).contains(&n)
}

/// Snooker's colours, numbers 16 to 21.
const SNOOKER_COLOURS: [(&str, &str); 6] = [
    ("yellow", "#F4D03F"),
    ("green", "#1E8449"),
    ("brown", "#784212"),
    ("blue", "#2E86C1"),
    ("pink", "#F5B7B1"),
    ("black", "#17202A"),
];

/// The solids' colours 1 to 7 and the 8's (index `(n + 7) % 8`: 1 -> 0 ... 8 -> 7).
const POOL_COLOURS: [&str; 8] = [
    "#F4D03F", "#2E86C1", "#E74C3C", "#8E44AD", "#F39C12", "#1E8449", "#922B21", "#17202A",
];

/// A snooker colour's spot number (16 yellow ... 21 black) and value.
pub fn snooker_value(n: u32) -> u32 {
    match n {
        1..=15 => 1,
        16..=21 => n - 14,
        _ => 0,
    }
}

/// A position: the game, its table and the balls on it (number and centre), the cue
/// ball first.
#[derive(Debug, Clone, PartialEq)]
pub struct Setup {
    pub game: GameKind,
    pub table: Table,
    pub balls: Vec<(u32, [f64; 2])>,
}

impl Setup {
    /// The game's starting position on its default table, racked from `seed`.
    pub fn new(game: GameKind, seed: u64) -> Setup {
        Setup::on(game, Table::new(game.default_table()), seed)
    }

    /// The game's starting position on `table`.
    pub fn on(game: GameKind, table: Table, seed: u64) -> Setup {
        let mut rng = SplitMix64(seed);
        let balls = match game {
            GameKind::EightBall => eight_ball(&table, &mut rng),
            GameKind::NineBall => {
                let mut order: Vec<u32> = (2..=8).collect();
                shuffle(&mut order, &mut rng);
                // Rows 1, 2, 3, 2, 1: the 1 at the apex, the 9 in the centre (row 2's
                // middle, the fifth place), the others at random.
                order.insert(0, 1);
                order.insert(4, 9);
                rack(
                    &table,
                    table.foot_spot(),
                    &[1, 2, 3, 2, 1],
                    &order,
                    &mut rng,
                )
            }
            GameKind::TenBall => {
                let mut order: Vec<u32> = (2..=9).collect();
                shuffle(&mut order, &mut rng);
                // Rows 1, 2, 3, 4: the 10 in the middle of the third row.
                order.insert(0, 1);
                order.insert(4, 10);
                rack(&table, table.foot_spot(), &[1, 2, 3, 4], &order, &mut rng)
            }
            GameKind::Snooker => snooker(&table, &mut rng),
            GameKind::ThreeCushion => {
                let [hx, hy] = table.head_spot();
                vec![
                    (0, [hx, hy + CAROM_BREAK_OFFSET]),
                    (1, [hx, hy]),
                    (2, table.foot_spot()),
                ]
            }
            GameKind::SumToThree => sum_to_three(&table, &mut rng),
        };
        let mut balls = balls;
        if game != GameKind::ThreeCushion && game != GameKind::SumToThree {
            balls.insert(0, (0, cue_start(game, &table)));
        }
        Setup { game, table, balls }
    }

    /// A drill position: the listed balls (numbers of the game's set) at the given
    /// centres. Every number once, the cue ball (0, and for three-cushion all three
    /// balls) present, each ball on the playing surface and none overlapping another;
    /// otherwise a one-line error naming the ball.
    pub fn layout(
        game: GameKind,
        table: Table,
        balls: &[(u32, [f64; 2])],
    ) -> Result<Setup, String> {
        let numbers = game.numbers();
        let mut seen = Vec::new();
        for &(n, p) in balls {
            let name = format!("layout: ball {n}");
            if !numbers.contains(&n) {
                return Err(format!(
                    "{name}: {} has no ball {n} (its balls: 0 to {})",
                    game.name(),
                    numbers.last().copied().unwrap_or(0)
                ));
            }
            if seen.contains(&n) {
                return Err(format!("{name}: placed twice"));
            }
            seen.push(n);
            if !table.on_surface(p) {
                return Err(format!(
                    "{name}: ({}, {}) is not on the playing surface",
                    p[0], p[1]
                ));
            }
        }
        let needed: &[u32] = match game {
            GameKind::ThreeCushion => &[0, 1, 2],
            GameKind::SumToThree => &[0, 1],
            _ => &[0],
        };
        for n in needed {
            if !seen.contains(n) {
                return Err(format!("layout: ball {n} is missing"));
            }
        }
        if let Some((a, b)) = first_overlap(balls, table.balls.radius) {
            return Err(format!("layout: ball {a} overlaps ball {b}"));
        }
        // Cue ball first, the rest in the order given.
        let mut sorted: Vec<(u32, [f64; 2])> = balls.to_vec();
        sorted.sort_by_key(|&(n, _)| u32::from(n != 0));
        Ok(Setup {
            game,
            table,
            balls: sorted,
        })
    }

    /// The engine scenario of the position (balls in this order, at rest, coloured).
    pub fn scenario(&self) -> carom::scenario::Scenario {
        let balls: Vec<BallSpec> = self
            .balls
            .iter()
            .map(|&(n, p)| BallSpec {
                color: Some(self.game.ball_color(n).to_string()),
                ..self.table.ball(p)
            })
            .collect();
        self.table.scenario(balls)
    }
}

/// The first pair of balls closer than two radii (touching is allowed).
pub fn first_overlap(balls: &[(u32, [f64; 2])], r: f64) -> Option<(u32, u32)> {
    for (k, &(a, p)) in balls.iter().enumerate() {
        for &(b, q) in &balls[k + 1..] {
            if (p[0] - q[0]).hypot(p[1] - q[1]) < 2.0 * r {
                return Some((a, b));
            }
        }
    }
    None
}

/// Where the cue ball starts before the breaker places it: pool on the head spot
/// (behind the head string), snooker in the D, between the brown and the yellow.
fn cue_start(game: GameKind, table: &Table) -> [f64; 2] {
    match game {
        GameKind::Snooker => {
            let s = SnookerSpots::of(table);
            [
                s.baulk - 0.5 * s.d_radius,
                table.center()[1] + 0.5 * s.d_radius,
            ]
        }
        _ => table.head_spot(),
    }
}

/// Fisher-Yates with the crate's generator.
fn shuffle(v: &mut [u32], rng: &mut SplitMix64) {
    for i in (1..v.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        v.swap(i, j);
    }
}

/// A triangular rack opening towards +x from `apex`: rows of the given counts, each
/// centred on the long axis, numbers placed row by row (top to bottom within a row).
fn rack(
    table: &Table,
    apex: [f64; 2],
    rows: &[usize],
    numbers: &[u32],
    rng: &mut SplitMix64,
) -> Vec<(u32, [f64; 2])> {
    let s = 2.0 * table.balls.radius + RACK_GAP;
    let row_step = s * 3f64.sqrt() / 2.0;
    let mut out = Vec::with_capacity(numbers.len());
    let mut next = numbers.iter();
    for (k, &count) in rows.iter().enumerate() {
        for i in 0..count {
            let Some(&n) = next.next() else { break };
            let mut p = [
                apex[0] + k as f64 * row_step,
                apex[1] + (i as f64 - 0.5 * (count as f64 - 1.0)) * s,
            ];
            if !out.is_empty() {
                // Uniform in the disk: radius by the square root of a uniform number.
                let rho = RACK_JITTER * RACK_GAP * rng.unit().sqrt();
                let phi = std::f64::consts::TAU * rng.unit();
                p[0] += rho * phi.cos();
                p[1] += rho * phi.sin();
            }
            out.push((n, p));
        }
    }
    out
}

/// WPA eight-ball: the 8 in the centre of the triangle (the third row's middle), a
/// stripe in one back corner and a solid in the other, the rest at random.
fn eight_ball(table: &Table, rng: &mut SplitMix64) -> Vec<(u32, [f64; 2])> {
    let mut solids: Vec<u32> = (1..=7).collect();
    let mut stripes: Vec<u32> = (9..=15).collect();
    shuffle(&mut solids, rng);
    shuffle(&mut stripes, rng);
    let (solid, stripe) = (solids.pop().unwrap_or(1), stripes.pop().unwrap_or(9));
    let corners = if rng.unit() < 0.5 {
        [solid, stripe]
    } else {
        [stripe, solid]
    };
    let mut rest: Vec<u32> = solids.into_iter().chain(stripes).collect();
    shuffle(&mut rest, rng);
    // Places 0..15 row by row: the 8 at place 4 (row 2's middle), the back corners at
    // places 10 and 14.
    let mut order = Vec::with_capacity(15);
    let mut rest = rest.into_iter();
    for place in 0..15 {
        order.push(match place {
            4 => 8,
            10 => corners[0],
            14 => corners[1],
            _ => rest.next().unwrap_or(0),
        });
    }
    rack(table, table.foot_spot(), &[1, 2, 3, 4, 5], &order, rng)
}

/// The snooker table's markings (WPBSA): the baulk line 737 mm from the baulk
/// cushion's nose, the D of radius 292 mm centred on it, the black spot 324 mm from the
/// top cushion, the pink midway between the centre and the top cushion.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SnookerSpots {
    /// x of the baulk line.
    pub baulk: f64,
    pub d_radius: f64,
    pub yellow: [f64; 2],
    pub green: [f64; 2],
    pub brown: [f64; 2],
    pub blue: [f64; 2],
    pub pink: [f64; 2],
    pub black: [f64; 2],
}

impl SnookerSpots {
    pub fn of(table: &Table) -> SnookerSpots {
        let [cx, cy] = table.center();
        let baulk = table.at_length(0.0) + 0.737;
        let d_radius = 0.292;
        let top = table.at_length(1.0);
        // Seen from the baulk end (looking towards +x), the yellow is on the right:
        // +y in this frame (y down on the screen).
        SnookerSpots {
            baulk,
            d_radius,
            yellow: [baulk, cy + d_radius],
            green: [baulk, cy - d_radius],
            brown: [baulk, cy],
            blue: [cx, cy],
            pink: [0.5 * (cx + top), cy],
            black: [top - 0.324, cy],
        }
    }

    /// The spot of colour `n` (16 yellow ... 21 black).
    pub fn spot(&self, n: u32) -> Option<[f64; 2]> {
        Some(match n {
            16 => self.yellow,
            17 => self.green,
            18 => self.brown,
            19 => self.blue,
            20 => self.pink,
            21 => self.black,
            _ => return None,
        })
    }

    /// Whether `p` lies in the D (on or behind the baulk line, within its radius).
    pub fn in_d(&self, p: [f64; 2], cy: f64) -> bool {
        p[0] <= self.baulk && (p[0] - self.baulk).hypot(p[1] - cy) <= self.d_radius
    }
}

/// WPBSA: colours on their spots, the fifteen reds in a triangle whose apex is as near
/// the pink as it can be without touching (the rack's gap behind it).
fn snooker(table: &Table, rng: &mut SplitMix64) -> Vec<(u32, [f64; 2])> {
    let spots = SnookerSpots::of(table);
    let apex = [
        spots.pink[0] + 2.0 * table.balls.radius + RACK_GAP,
        spots.pink[1],
    ];
    let reds: Vec<u32> = (1..=15).collect();
    let mut balls = rack(table, apex, &[1, 2, 3, 4, 5], &reds, rng);
    for n in 16..=21 {
        if let Some(p) = spots.spot(n) {
            balls.push((n, p));
        }
    }
    balls
}

/// Sum-to-three: the cue ball and the object ball at random on the playing surface,
/// uniformly, at least four radii apart (drawn again while closer).
fn sum_to_three(table: &Table, rng: &mut SplitMix64) -> Vec<(u32, [f64; 2])> {
    let r = table.balls.radius;
    let draw = |rng: &mut SplitMix64| {
        [
            table.rail + r + (table.length - 2.0 * r) * rng.unit(),
            table.rail + r + (table.width - 2.0 * r) * rng.unit(),
        ]
    };
    let cue = draw(rng);
    loop {
        let p = draw(rng);
        if (p[0] - cue[0]).hypot(p[1] - cue[1]) >= 4.0 * r {
            return vec![(0, cue), (1, p)];
        }
    }
}
