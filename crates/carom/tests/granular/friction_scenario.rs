//! Contact friction and rotation in the scenario and state contracts: bad values name
//! their field, rotation is written only when in play, and a frictional run resumed
//! from its state file continues (bit for bit but for the event model's angles, which
//! agree to round-off; the spring model's tangential springs travel in the state, see
//! `friction_resume.rs`).

use carom::parse::{build_world, parse_scenario, Format};
use carom::presets::find;

const BASE: &str = "[table]\nwidth = 100.0\nheight = 50.0\n[[balls]]\nx = 20.0\ny = 20.0\n";

fn error(text: &str) -> String {
    match parse_scenario(text, Format::Toml).and_then(|s| build_world(&s)) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn bad_contact_friction_and_rotation_values_name_their_field() {
    let cases = [
        (
            "[physics]\ncontact_friction = { mu = -0.1 }\n",
            "physics.contact_friction.mu",
        ),
        (
            "[physics]\ncontact_friction = { mu = 0.5, tangential_restitution = 1.5 }\n",
            "physics.contact_friction.tangential_restitution",
        ),
        (
            "[physics]\ncontact_friction = { mu = 0.5, tangential_stiffness = 0.0 }\n",
            "physics.contact_friction.tangential_stiffness",
        ),
        (
            "[physics]\ncontact_friction = { mu = 0.5, roughness = 1.0 }\n",
            "roughness",
        ),
        (
            "[physics]\ncontact_friction = { mu = 0.5 }\nintegrator = \"velocity-verlet\"\n",
            "physics.integrator",
        ),
    ];
    for (physics, field) in cases {
        let msg = error(&format!("{physics}{BASE}"));
        assert!(msg.contains(field), "{field}: {msg}");
        assert!(!msg.contains('\n'), "one line: {msg}");
    }
    for (ball, field) in [
        ("inertia = 0.0", "balls[0].inertia"),
        ("inertia = -1.0", "balls[0].inertia"),
        ("omega = nan", "balls[0].omega"),
        ("angle = inf", "balls[0].angle"),
    ] {
        let msg = error(&format!("{BASE}{ball}\n"));
        assert!(msg.contains(field), "{field}: {msg}");
    }
}

#[test]
fn rotation_fields_are_read_and_default_to_a_still_solid_disk() {
    let s = parse_scenario(
        &format!("{BASE}omega = 0.5\nangle = 1.0\ninertia = 7.0\n[[balls]]\nx = 60.0\ny = 20.0\nr = 2.0\nm = 3.0\n"),
        Format::Toml,
    )
    .unwrap();
    let w = build_world(&s).unwrap();
    let (a, b) = (w.balls().get(0), w.balls().get(1));
    assert_eq!((a.omega, a.angle, a.inertia), (0.5, 1.0, 7.0));
    assert_eq!(
        (b.omega, b.angle, b.inertia),
        (0.0, 0.0, 0.5 * 3.0 * 2.0 * 2.0)
    );
}

/// Without rotation in play a state file has no rotation keys (as before the feature);
/// with it every ball carries them, and the run resumes from the file bit for bit.
#[test]
fn state_files_carry_rotation_when_in_play_and_resume_bit_for_bit() {
    let mut plain = build_world(&find("break").unwrap().scenario().unwrap()).unwrap();
    plain.run_steps(50).unwrap();
    let text = serde_json::to_string(&carom::state::snapshot(&plain, 1.0)).unwrap();
    assert!(
        !text.contains("omega") && !text.contains("contact_friction"),
        "{text}"
    );

    for preset in ["column", "english"] {
        let mut w = build_world(&find(preset).unwrap().scenario().unwrap()).unwrap();
        w.run_steps(300).unwrap();
        let text = serde_json::to_string(&carom::state::snapshot(&w, 1.0)).unwrap();
        assert!(text.contains("\"omega\"") && text.contains("\"inertia\""));
        let mut resumed = build_world(&parse_scenario(&text, Format::Json).unwrap()).unwrap();
        assert!(resumed.balls() == w.balls(), "{preset}: state round trip");
        // The state carries the spring model's loaded tangential springs, so both
        // continue: positions, velocities and spins bit for bit.
        w.run_steps(300).unwrap();
        resumed.run_steps(300).unwrap();
        let (a, b) = (resumed.balls(), w.balls());
        assert!(a.x == b.x && a.y == b.y && a.vx == b.vx && a.vy == b.vy);
        assert!(a.omega == b.omega, "{preset}: spins differ after resuming");
        if preset == "column" {
            // The spring model turns balls by the step's own kick: exact as well.
            assert!(a.angle == b.angle, "{preset}: angles differ after resuming");
        } else {
            // The event model turns a ball piecewise with its own clock, whose epoch a
            // resumed run restarts: the angle agrees to round-off of the sum of pieces
            // (angles ~ 30 rad, a few hundred pieces: 1e-12 relative is ample).
            for i in 0..a.len() {
                let d = (a.angle[i] - b.angle[i]).abs();
                assert!(
                    d <= 1e-12 * (1.0 + b.angle[i].abs()),
                    "{preset}: angle {i} off by {d}"
                );
            }
        }
    }
}
