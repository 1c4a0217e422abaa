//! Without cloth friction, the scenes that came with walls, contact friction and spin
//! run as they did before cloth existed, bit for bit.
//!
//! `friction_off.rs` guards the older presets the same way; this file covers the ones
//! recorded after it, under every model they build for, with the hashes recorded from
//! the code just before cloth reached the models (commit 33b95c1 on main: balls carried
//! `wx`, `wy` but nothing read them). A step that fails (the event model stopping a ball
//! that comes to rest on a wall inside the table) ends the run where it failed, which
//! is deterministic too.

use crate::common;

use carom::parse::build_world;
use carom::presets::PRESETS;
use carom::ModelKind;
use carom::World;

/// FNV-1a over the bits of every position, velocity and spin, then the collision count.
fn state_hash(w: &World) -> u64 {
    let b = w.balls();
    let balls = (0..b.len()).flat_map(|i| {
        [
            b.x[i], b.y[i], b.vx[i], b.vy[i], b.omega[i], b.wx[i], b.wy[i],
        ]
    });
    common::fnv1a(balls.map(f64::to_bits).chain([w.collisions()]))
}

const MODELS: [ModelKind; 4] = [
    ModelKind::Impulse,
    ModelKind::Spring,
    ModelKind::Simultaneous,
    ModelKind::Event,
];

/// The preset under `model` for `steps` steps; `None` when it cannot be built so, or
/// when the run is too slow for a debug test (the large granular scenes under the hard
/// stepping models).
fn run(name: &str, model: ModelKind) -> Option<u64> {
    if matches!(name, "hopper" | "drum" | "galton")
        && matches!(model, ModelKind::Impulse | ModelKind::Simultaneous)
    {
        return None;
    }
    let preset = PRESETS.iter().find(|p| p.name == name).unwrap();
    let mut s = preset.scenario().unwrap();
    s.physics.model = Some(model);
    let mut w = build_world(&s).ok()?;
    // Enough steps for each scene's first contacts (the english balls reach the
    // cushion at t = 48, step 960).
    let steps = match name {
        "hopper" => 100,
        "english" => 1200,
        _ => 600,
    };
    for _ in 0..steps {
        if w.step().is_err() {
            break;
        }
    }
    Some(state_hash(&w))
}

/// Recorded at commit 33b95c1 with `run` above (`0`: not run).
const RECORDED: &[(&str, [u64; 4])] = &[
    (
        "column",
        [
            0xdb91482dce87177f,
            0x5701a4f5b75c5601,
            0xc23d71264e3d3548,
            0x8139eb2c50bf069d,
        ],
    ),
    (
        "english",
        [
            0x93183b7975fb6f2a,
            0x5ee5d946c22969fb,
            0x93183b7975fb6f2a,
            0xeb72d5d3c1867c92,
        ],
    ),
    (
        "galton",
        [
            0x0000000000000000,
            0xdcce9eba41ff28f5,
            0x0000000000000000,
            0x846cd69e528f8fc5,
        ],
    ),
    (
        "hopper",
        [
            0x0000000000000000,
            0x5c5635ae3f733377,
            0x0000000000000000,
            0x64ffe01c32782bce,
        ],
    ),
    (
        "drum",
        [
            0x0000000000000000,
            0xba79e6c4145bd3fd,
            0x0000000000000000,
            0x059ef8c9b1d2c31f,
        ],
    ),
    (
        "stadium",
        [
            0xe921c5109472076b,
            0x6b3333d024dae956,
            0xc8d44e907f388421,
            0x4348f399ab40f22e,
        ],
    ),
];

#[test]
fn scenes_without_cloth_are_unchanged_bit_for_bit() {
    if std::env::var_os("CAROM_RECORD_HASHES").is_some() {
        for &(name, _) in PRESETS_HERE {
            let h: Vec<String> = MODELS
                .iter()
                .map(|&m| format!("0x{:016x}", run(name, m).unwrap_or(0)))
                .collect();
            println!("    (\"{name}\", [{}]),", h.join(", "));
        }
        return;
    }
    assert_eq!(RECORDED.len(), PRESETS_HERE.len());
    for &(name, hashes) in RECORDED {
        for (m, &want) in MODELS.iter().zip(&hashes) {
            let got = run(name, *m).unwrap_or(0);
            assert_eq!(got, want, "preset {name} under {m:?} changed without cloth");
        }
    }
}

/// The presets this file covers.
const PRESETS_HERE: &[(&str, ())] = &[
    ("column", ()),
    ("english", ()),
    ("galton", ()),
    ("hopper", ()),
    ("drum", ()),
    ("stadium", ()),
];
