//! `short_run`: a small scene decoded from the bytes, loaded as a scenario file is,
//! and stepped a few times under every model.

use carom::load::{build, Source};
use carom::overrides::Override;
use carom::parse::Format;
use carom::run::Session;
use carom::ModelKind;
use serde_json::{json, Value};

use crate::{check_finite, check_one_line, check_state_reloads};

/// The bytes read in order; past the end every read is 0, so any input decodes.
struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

/// Values a wild byte picks instead of an ordinary one: the edges where arithmetic goes
/// wrong (JSON has no NaN or infinity, so those cannot be written).
const WILD: [f64; 6] = [0.0, -1.0, 1e-300, 1e300, f64::MAX, f64::MIN_POSITIVE];

impl Reader<'_> {
    fn byte(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    /// In [0, 1], 16 bits of resolution.
    fn unit(&mut self) -> f64 {
        let hi = u16::from(self.byte());
        let lo = u16::from(self.byte());
        f64::from((hi << 8) | lo) / f64::from(u16::MAX)
    }

    /// A value in [lo, hi], or, one time in 43 (bytes 250..=255), an edge value.
    fn value(&mut self, lo: f64, hi: f64) -> f64 {
        let b = self.byte();
        if b >= 250 {
            return WILD[usize::from(b - 250)];
        }
        lo + self.unit() * (hi - lo)
    }

    fn pick(&mut self, n: u8) -> u8 {
        self.byte() % n
    }
}

/// The scene the bytes describe: a table of 50 to 1000 a side, walled or periodic on
/// each axis, one to six balls, gravity, table friction and contact friction on or
/// off, and the spring model's integrator; with `on_cloth`, then the cloth's keys
/// ([`cloth`]).
fn scene(r: &mut Reader, on_cloth: bool) -> (Value, u64) {
    let width = r.value(50.0, 1000.0);
    let height = r.value(50.0, 1000.0);
    let boundary = match r.pick(4) {
        0 => json!("walls"),
        1 => json!("periodic"),
        2 => json!(["periodic", "walls"]),
        _ => json!(["walls", "periodic"]),
    };
    let dt = [0.001, 0.01, 0.05, 0.1, 0.5, 1.0][usize::from(r.pick(6))];
    let gravity = if r.pick(2) == 0 {
        json!([0.0, 0.0])
    } else {
        json!([r.value(-1.0, 1.0), r.value(-1.0, 1.0)])
    };
    let integrator = [
        "semi-implicit-euler",
        "average-velocity",
        "average-acceleration",
        "predicted-acceleration",
        "velocity-verlet",
    ][usize::from(r.pick(5))];
    let mut physics = json!({
        "dt": dt,
        "gravity": gravity,
        "stiffness": 10f64.powf(r.value(-2.0, 4.0)),
        "restitution": r.value(0.0, 1.0),
        "integrator": integrator,
        "glitch_prevention": r.pick(2) == 0,
    });
    physics["friction"] = match r.pick(4) {
        0 => json!({ "kind": "none" }),
        1 => json!({ "kind": "dry", "mu": r.value(0.0, 1.0), "g_normal": r.value(0.0, 2.0) }),
        2 => json!({ "kind": "drag", "mu": r.value(0.0, 1.0) }),
        _ => json!({ "kind": "linear", "mu": r.value(0.0, 1.0) }),
    };
    if r.pick(2) == 1 {
        let mut cf = json!({
            "mu": r.value(0.0, 1.0),
            "tangential_restitution": r.value(-1.0, 1.0),
        });
        if r.pick(2) == 1 {
            cf["tangential_stiffness"] = json!(r.value(0.0, 10.0));
        }
        physics["contact_friction"] = cf;
    }
    let speed = [0.0, 1.0, 10.0, 100.0, 1e4][usize::from(r.pick(5))];
    let n = 1 + r.pick(6);
    let mut balls: Vec<Value> = (0..n)
        .map(|_| {
            let mut b = json!({
                "x": r.unit() * width,
                "y": r.unit() * height,
                "vx": r.value(-speed, speed),
                "vy": r.value(-speed, speed),
                "r": r.value(1.0, 40.0),
                "m": r.value(0.1, 10.0),
            });
            if r.pick(8) == 0 {
                b["kinematic"] = json!(true);
            }
            if r.pick(4) == 0 {
                b["omega"] = json!(r.value(-1.0, 1.0));
            }
            if r.pick(8) == 0 {
                b["inertia"] = json!(r.value(0.0, 100.0));
            }
            b
        })
        .collect();
    let steps = 1 + u64::from(r.pick(20));
    let walls = if on_cloth {
        cloth(r, &mut physics, &mut balls, width, height, speed)
    } else {
        Vec::new()
    };
    let mut scene = json!({
        "name": "fuzz",
        "table": { "width": width, "height": height, "boundary": boundary },
        "physics": physics,
        "balls": balls,
    });
    if !walls.is_empty() {
        scene["walls"] = Value::Array(walls);
    }
    (scene, steps)
}

/// Pool balls on cloth (`short_run_cloth`), decoded after the rest of the scene:
/// cloth friction with its four coefficients (table friction replaced); each ball may
/// carry spins about the table's axes, a cue strike instead of its velocity, or a
/// cue strike beside a velocity or on a kinematic ball (refused, by name); and a
/// wall with its own cushion height may stand in the table. Returns the walls.
fn cloth(
    r: &mut Reader,
    physics: &mut Value,
    balls: &mut [Value],
    width: f64,
    height: f64,
    speed: f64,
) -> Vec<Value> {
    physics["friction"] = json!({
        "kind": "cloth",
        "sliding_mu": r.value(0.0, 1.0),
        "rolling_mu": r.value(0.0, 0.1),
        "spinning_mu": r.value(0.0, 0.1),
        "g_normal": r.value(0.0, 20.0),
    });
    for b in balls.iter_mut() {
        let pick = r.pick(5);
        if pick == 1 {
            b["wx"] = json!(r.value(-50.0, 50.0));
            b["wy"] = json!(r.value(-50.0, 50.0));
        }
        if pick >= 2 {
            let mut cue = json!({
                "speed": r.value(0.0, 2.0 * speed + 1.0),
                "aim": r.value(-360.0, 360.0),
            });
            for (key, lo, hi) in [
                ("english", -0.7, 0.7),
                ("follow", -0.7, 0.7),
                ("elevation", 0.0, 89.0),
            ] {
                if r.pick(2) == 1 {
                    cue[key] = json!(r.value(lo, hi));
                }
            }
            b["cue"] = cue;
            // Mostly a well-formed strike: the velocity and spin it replaces go.
            if pick < 4 {
                if let Some(o) = b.as_object_mut() {
                    for key in ["vx", "vy", "omega", "kinematic"] {
                        o.remove(key);
                    }
                }
            }
        }
    }
    if r.pick(2) == 0 {
        return Vec::new();
    }
    vec![json!({
        "kind": "segment",
        "points": [
            [r.unit() * width, r.unit() * height],
            [r.unit() * width, r.unit() * height],
        ],
        "cushion_height": r.value(0.0, 80.0),
    })]
}

/// The scene (JSON scenario text) and the step count `short_run` decodes from the
/// bytes: what a finding's regression test replays.
pub fn short_run_scene(data: &[u8]) -> (String, u64) {
    scene_text(data, false)
}

/// The scene and step count `short_run_cloth` decodes: `short_run`'s scene on cloth.
/// A target of its own, so that `short_run`'s inputs (its findings among them) keep
/// decoding to the scenes they were found with.
pub fn short_run_cloth_scene(data: &[u8]) -> (String, u64) {
    scene_text(data, true)
}

fn scene_text(data: &[u8], on_cloth: bool) -> (String, u64) {
    let mut r = Reader { data, pos: 0 };
    let (scene, steps) = scene(&mut r, on_cloth);
    // Serialising a value made of finite numbers and strings cannot fail.
    (
        serde_json::to_string_pretty(&scene).unwrap_or_default(),
        steps,
    )
}

/// Builds the scene the bytes describe and runs it a few steps under each model. A
/// scene the loader refuses, or a run that stops with a simulation error (a runaway, the
/// event budget), is a fine outcome; a panic, a non-finite ball after a run, or a
/// state that does not load again is not.
pub fn short_run(data: &[u8]) {
    run_scene(short_run_scene(data));
}

/// [`short_run`] on cloth: spins, cue strikes, cushion heights.
pub fn short_run_cloth(data: &[u8]) {
    run_scene(short_run_cloth_scene(data));
}

fn run_scene((text, steps): (String, u64)) {
    let src = Source::text("fuzz-scene.json", text, Format::Json);
    // The dynamics, then the chain sampler (which refuses most fuzzed scenes by name).
    for model in ModelKind::ALL.into_iter().chain(ModelKind::SAMPLERS) {
        let loaded = match build(&src, &[Override::model(model)]) {
            Ok(l) => l,
            Err(e) => {
                check_one_line(&e);
                continue;
            }
        };
        let mut session = Session::new(loaded);
        session.world.set_event_cap(Some(crate::EVENT_CAP));
        let outcome = session.advance(steps, 1, |_| {});
        if let Err(f) = &outcome {
            check_one_line(&f.to_string());
        }
        check_finite(&session, outcome.is_ok());
        check_state_reloads(&session);
    }
}
