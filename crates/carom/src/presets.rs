//! Built-in scenarios, embedded in the binary as TOML text.

use crate::parse::{parse_scenario, Format, ScenarioError};
use crate::scenario::Scenario;

pub struct Preset {
    pub name: &'static str,
    pub summary: &'static str,
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

pub const PRESETS: &[Preset] = &[
    preset!(
        "break",
        "cue ball into a 15-ball triangular rack, mirror symmetric about the cue line"
    ),
    preset!(
        "gas",
        "random elastic gas of 10,000 unit disks at area fraction 0.3 (benchmark scene)"
    ),
];

pub fn find(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}

impl Preset {
    pub fn scenario(&self) -> Result<Scenario, ScenarioError> {
        parse_scenario(self.toml, Format::Toml)
    }
}
