//! Built-in scenarios, embedded in the binary as TOML text.

use crate::error::ScenarioError;
use crate::parse::{parse_scenario, Format};
use crate::scenario::Scenario;

/// A built-in scenario: a name to run it by, a line saying what it shows, and its TOML.
pub struct Preset {
    /// The name `carom run NAME` takes.
    pub name: &'static str,
    /// One line on what the scene shows and with which model.
    pub summary: &'static str,
    /// The scenario text, TOML.
    pub toml: &'static str,
}

macro_rules! preset {
    ($name:literal, $summary:literal) => {
        Preset {
            name: $name,
            summary: $summary,
            toml: include_str!(concat!("../presets/", $name, ".toml")),
        }
    };
}

/// Every preset, in the order `carom presets` lists them: the tutorial's levels, then
/// the scenes that go beyond it.
pub const PRESETS: &[Preset] = &[
    preset!("level1", "uniform motion: one ball gliding, no gravity, no wall reached (impulse)"),
    preset!("level2", "gravity: a thrown ball on its parabola, no wall reached (impulse)"),
    preset!("level3", "wall bounce under gravity: one ball off the floor and the side walls (impulse)"),
    preset!("level4", "7-ball billiard with sequential impulse collisions"),
    preset!("level5", "one ball bouncing on a spring floor under gravity (spring; try the integrators)"),
    preset!("level6", "the level-4 billiard on springs (spring)"),
    preset!("level7", "dry friction and a kinematic ball sweeping the table (spring)"),
    preset!("three-ball", "one ball hits two touching balls at once, mirror symmetric (simultaneous)"),
    preset!("newton-cradle", "five touching balls, the first moving into the chain (simultaneous)"),
    preset!("break", "cue ball into a 15-ball triangular rack, mirror symmetric about the cue line (spring)"),
    preset!("column", "a frictional column of large and small disks collapsing under gravity into a heap (spring)"),
    preset!("english", "two balls off a cushion at 45 degrees, one with side spin: different rebound angles (event)"),
    preset!("english-cloth", "the same on a pool table's cloth: two cue strikes into a cushion, one with english (event)"),
    preset!("gas", "random elastic gas of 10,000 unit disks at area fraction 0.3, the benchmark scene (spring)"),
    preset!("hard-disks", "elastic hard-disk gas, 4,000 disks at area fraction 0.5 in a periodic box (event)"),
    preset!("cooling", "inelastic gas (e = 0.9) in a periodic box, cooling by Haff's law (event)"),
    preset!("jamming", "1,000 bidisperse (1:1.4) disks grown at a held temperature until they jam, near area fraction 0.84 (event)"),
    preset!("melting", "128^2 elastic disks at area fraction 0.716 in a periodic box, the melting region; colour by psi6 (event)"),
    preset!("galton", "a Galton board: 300 balls through a funnel and 12 rows of pegs pile up in bins as a bell curve (spring)"),
    preset!("hopper", "a silo of 3,000 frictional grains discharging through an orifice into an open bottom edge (spring)"),
    preset!("drum", "a rotating drum a third full of frictional grains, a layer flowing down the tilted bed (spring)"),
    preset!("pool", "a 9-foot pool table to scale on cloth: six pockets, cushions, a cue strike breaks the rack and pockets balls (event)"),
    preset!("shear", "plane shear of 391 frictional disks between plates with glued grains, periodic in x, the top plate sliding under a servo's pressure (spring)"),
    preset!("stadium", "the Bunimovich stadium, a chaotic billiard: four balls between two half circles and straight sides (event)"),
];

/// The preset called `name`, if there is one.
///
/// # Example
///
/// Newton's cradle: five touching balls, the first moving in at 8. The `simultaneous`
/// model passes the impulse down the touching chain: the last ball leaves at 8 and the
/// others come to rest.
///
/// ```
/// use carom::parse::build_world;
/// use carom::presets::find;
///
/// let preset = find("newton-cradle").unwrap();
/// let mut world = build_world(&preset.scenario().unwrap()).unwrap();
/// world.run_steps(200).unwrap(); // t = 10
/// let vx = &world.balls().vx;
/// assert!((vx[4] - 8.0).abs() < 1e-12);
/// assert!(vx[..4].iter().all(|v| v.abs() < 1e-12));
/// assert!(find("no-such-scene").is_none());
/// ```
pub fn find(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}

impl Preset {
    /// The preset's scenario, parsed (its values are checked when it is built).
    pub fn scenario(&self) -> Result<Scenario, ScenarioError> {
        parse_scenario(self.toml, Format::Toml)
    }
}
