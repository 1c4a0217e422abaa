//! Walled scenes are untouched by periodic boundaries: each hash below is of a preset's
//! final state (positions and velocities, bit patterns) after a fixed number of steps,
//! recorded by this very test on `main` at the foundation commit 5f36346, BEFORE any
//! periodic-boundary code existed. A changed hash means a walled run no longer
//! reproduces today's results bit for bit.

use crate::common;

use carom::parse::build_world;
use carom::scenario::Generator;
use carom::ModelKind;

/// FNV-1a over the bit patterns of every position and velocity, in ball order.
fn state_hash(w: &carom::World) -> u64 {
    let b = w.balls();
    let balls = (0..b.len()).flat_map(|i| [b.x[i], b.y[i], b.vx[i], b.vy[i]]);
    common::fnv1a(balls.map(f64::to_bits))
}

fn run(preset: &str, model: ModelKind, steps: u64, threads: usize) -> u64 {
    let mut s = carom::presets::find(preset).unwrap().scenario().unwrap();
    if let Some(Generator::Gas { n, .. }) = s.generators.first_mut() {
        *n = Some(400);
    }
    s.physics.model = Some(model);
    let mut w = build_world(&s).unwrap();
    w.set_threads(threads).unwrap();
    w.run_steps(steps).unwrap();
    state_hash(&w)
}

#[test]
fn walled_presets_reproduce_main_bit_for_bit() {
    let cases: &[(&str, ModelKind, u64, u64)] = &[
        ("break", ModelKind::Spring, 3000, 0x8cb7_b817_84c3_0e83),
        ("break", ModelKind::Impulse, 3000, 0xf349_8219_a852_b6f8),
        (
            "break",
            ModelKind::Simultaneous,
            3000,
            0x5212_de1d_e750_1c10,
        ),
        // The event rows were re-recorded when the event model took lazy synchronisation
        // (branch `event`): one `run_steps` call now moves balls only at their events
        // and brings them up to date at its end, which changes round-off only.
        ("break", ModelKind::Event, 300, 0x3ecd_340d_b250_01ba),
        ("level6", ModelKind::Spring, 2000, 0xa5c3_da6c_2c50_d738),
        (
            "newton-cradle",
            ModelKind::Simultaneous,
            500,
            0x6d25_30d5_afda_ab16,
        ),
        ("gas", ModelKind::Spring, 300, 0x8221_2f3a_057c_b0e9),
        ("gas", ModelKind::Impulse, 300, 0xbeeb_2dda_2da8_189e),
        ("gas", ModelKind::Simultaneous, 300, 0xa526_1538_0727_3194),
        ("gas", ModelKind::Event, 300, 0x3c11_4ab2_34fc_34ea),
    ];
    let mut failures = Vec::new();
    for &(preset, model, steps, expected) in cases {
        for threads in [1, 2] {
            let got = run(preset, model, steps, threads);
            if got != expected {
                failures.push(format!("{preset} {model:?} {threads}t: {got:#x}"));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
