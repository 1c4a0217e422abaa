//! The state file contract: a scenario plus what a run produced. A state file is
//! itself a valid scenario, so a run can be resumed from it.
//!
//! Besides the balls, a state holds whatever memory the next step depends on, so that
//! a resumed run continues bit for bit: a `spring` run with contact friction writes its
//! loaded tangential springs (Cundall-Strack stretches) under `tangential_springs`,
//! `{ "pairs": [[i, j, xi], ...], "walls": [[i, axis, xi], ...] }`, on cloth also
//! `"vertical": [[i, j, xi_z], ...]` (see [`TangentialSprings`]), and nothing when none
//! is loaded, so every other state file is as it was before the key existed. A moving
//! wall's entry carries its place (`offset`, `angle`). The hard models keep no per-contact memory.
//!
//! # Example
//!
//! A hard-disk gas run 40 steps, saved, and resumed from its state file: 40 more steps
//! give the same balls, to the bit, as the run that went on without stopping.
//!
//! ```
//! use carom::parse::{build_world, parse_scenario, Format};
//! use carom::run::state_text;
//! use carom::state::snapshot;
//!
//! let text = r#"
//! [table]
//! boundary = "periodic"
//! [physics]
//! model = "event"
//! [[generators]]
//! kind = "gas"
//! n = 100
//! area_fraction = 0.3
//! seed = 7
//! "#;
//! let mut a = build_world(&parse_scenario(text, Format::Toml).unwrap()).unwrap();
//! a.run_steps(40).unwrap();
//! let saved = state_text(&snapshot(&a, 100.0));
//! a.run_steps(40).unwrap();
//!
//! let mut b = build_world(&parse_scenario(&saved, Format::Json).unwrap()).unwrap();
//! b.run_steps(40).unwrap();
//! assert!(a.collisions() > 40);
//! assert_eq!((a.steps, a.time.to_bits()), (b.steps, b.time.to_bits()));
//! let (p, q) = (a.balls(), b.balls());
//! for i in 0..p.len() {
//!     let bits = |b: &carom::Balls| [b.x[i], b.y[i], b.vx[i], b.vy[i]].map(f64::to_bits);
//!     assert_eq!(bits(p), bits(q));
//! }
//! ```

use crate::balls::solid_disk_inertia;
use crate::diagnostics::Diagnostics;
use crate::scenario::{
    BallSpec, ContactFrictionSpec, PhysicsSpec, RemovedSpec, Scenario, SymmetrySpec, TableSpec,
    TangentialSprings,
};
use crate::world::World;
use serde::ser::{Serialize, SerializeStruct, Serializer};

/// The state of `world` as a scenario document with the state keys filled in (`model`,
/// `time`, `steps`, `diagnostics`). Balls in scenario order; generators already
/// expanded into balls.
pub fn snapshot(world: &World, duration: f64) -> Scenario {
    let mut s = snapshot_head(world, duration);
    let view = BallsOf::new(world);
    s.balls = (0..world.balls().len()).map(|i| view.spec(i)).collect();
    s
}

/// [`snapshot`] without its balls (`balls` left empty): with [`StateFile`], a state
/// written ball by ball as it is encoded, never held whole. At a million balls the
/// list of ball entries alone is some 150 MB.
pub fn snapshot_head(world: &World, duration: f64) -> Scenario {
    let p = world.physics();
    let t = world.table();
    let d = world.with_order(world.diagnostics());
    Scenario {
        name: world.name.clone(),
        description: String::new(),
        duration,
        table: TableSpec {
            width: Some(world.table().width),
            height: Some(world.table().height),
            // A sheared box also writes its rate and current shift.
            boundary: crate::scenario::boundary_spec_of(t),
        },
        physics: PhysicsSpec {
            model: Some(p.model),
            dt: p.dt,
            gravity: p.gravity,
            stiffness: p.stiffness,
            restitution: p.restitution,
            integrator: p.integrator,
            glitch_prevention: p.glitch_prevention,
            friction: p.friction,
            contact_friction: ContactFrictionSpec {
                mu: p.contact_friction.mu,
                tangential_restitution: p.contact_friction.tangential_restitution,
                tangential_stiffness: p.contact_friction.tangential_stiffness,
                rolling_mu: p.contact_friction.rolling_mu,
            },
            // Written only when set, so that a state file without it stays as it was.
            event_budget: (p.event_budget != crate::physics::DEFAULT_EVENT_BUDGET)
                .then_some(p.event_budget),
            thermostat: world.thermostat(),
            // A compression that has stopped is over: the state is an ordinary scene.
            compress: world
                .compression()
                .filter(|(_, p)| p.stopped.is_none())
                .map(|(c, _)| c),
            // The chain sampler writes where its stream stands, so that a run resumed
            // from the file continues bit for bit; other models write what was given.
            chain: match world.chain() {
                Some(c) => Some(c.resume_params()),
                None => (p.chain != crate::physics::ChainParams::default()).then_some(p.chain),
            },
        },
        balls: Vec::new(),
        generators: Vec::new(),
        symmetry: world.symmetry_axis().map(|axis_y| SymmetrySpec { axis_y }),
        walls: wall_specs(world),
        pockets: world.pocket_specs().to_vec(),
        model: Some(p.model),
        time: Some(world.time),
        steps: Some(world.steps),
        diagnostics: Some(diagnostics_json(&d)),
        tangential_springs: tangential_springs(world),
        thermostat_clock: world.thermostat_clock().map(|clock| {
            clock
                .into_iter()
                .map(|(i, k, wait)| (i as u64, k, wait))
                .collect()
        }),
        compression: world.compression().map(|(_, p)| p),
    }
}

/// What the ball entries of a world's state depend on besides each ball.
struct BallsOf<'a> {
    world: &'a World,
    rotation: bool,
    /// Balls on cloth (or given spins about the table's axes): `wx`, `wy` written.
    sphere: bool,
    periodic: [bool; 2],
}

impl<'a> BallsOf<'a> {
    fn new(world: &'a World) -> BallsOf<'a> {
        let t = world.table();
        BallsOf {
            world,
            rotation: rotation_in_play(world),
            sphere: spheres_in_play(world),
            periodic: [t.is_periodic(0), t.is_periodic(1)],
        }
    }

    /// Ball `i`'s entry.
    fn spec(&self, i: usize) -> BallSpec {
        let b = self.world.balls().get(i);
        let removed = self.world.removal(i);
        let rotation = self.rotation;
        // A glued ball's velocity is its own, on top of its wall's.
        let glued = self.world.walls().glue_of(i);
        BallSpec {
            angle: rotation.then_some(b.angle),
            omega: rotation.then_some(b.omega),
            inertia: rotation.then_some(b.inertia),
            wx: self.sphere.then_some(b.wx),
            wy: self.sphere.then_some(b.wy),
            cue: None,
            x: b.x,
            y: b.y,
            vx: glued.map_or(b.vx, |g| g.velocity[0]),
            vy: glued.map_or(b.vy, |g| g.velocity[1]),
            r: b.r,
            m: b.m,
            color: b.color.map(|c| c.to_hex()),
            // A ball out of play is held with infinite mass; it was not kinematic.
            kinematic: b.kinematic && removed.is_none(),
            ix: self.periodic[0].then_some(b.ix),
            iy: self.periodic[1].then_some(b.iy),
            removed: removed.map(|r| RemovedSpec {
                time: r.time,
                by: r.by.name(),
            }),
            glue: glued.map(|g| g.wall),
        }
    }
}

impl Serialize for BallsOf<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq((0..self.world.balls().len()).map(|i| self.spec(i)))
    }
}

/// A state file to encode: `head` (from [`snapshot_head`], edited as the caller needs)
/// with the balls of `world`, each entry made as it is encoded. Encodes to exactly the
/// bytes of the [`snapshot`] it stands for (a test holds it to that).
pub struct StateFile<'a> {
    /// The state file's head: everything but its balls.
    pub head: &'a Scenario,
    /// The world whose balls are written.
    pub world: &'a World,
}

impl Serialize for StateFile<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // The fields of `Scenario` in its order, with its rules for leaving one out.
        let h = self.head;
        let mut st = s.serialize_struct("Scenario", 16)?;
        st.serialize_field("name", &h.name)?;
        if h.description.is_empty() {
            st.skip_field("description")?;
        } else {
            st.serialize_field("description", &h.description)?;
        }
        st.serialize_field("duration", &h.duration)?;
        st.serialize_field("table", &h.table)?;
        st.serialize_field("physics", &h.physics)?;
        st.serialize_field("balls", &BallsOf::new(self.world))?;
        if h.generators.is_empty() {
            st.skip_field("generators")?;
        } else {
            st.serialize_field("generators", &h.generators)?;
        }
        optional(&mut st, "symmetry", &h.symmetry)?;
        if h.walls.is_empty() {
            st.skip_field("walls")?;
        } else {
            st.serialize_field("walls", &h.walls)?;
        }
        if h.pockets.is_empty() {
            st.skip_field("pockets")?;
        } else {
            st.serialize_field("pockets", &h.pockets)?;
        }
        optional(&mut st, "model", &h.model)?;
        optional(&mut st, "time", &h.time)?;
        optional(&mut st, "steps", &h.steps)?;
        optional(&mut st, "diagnostics", &h.diagnostics)?;
        optional(&mut st, "tangential_springs", &h.tangential_springs)?;
        optional(&mut st, "thermostat_clock", &h.thermostat_clock)?;
        optional(&mut st, "compression", &h.compression)?;
        st.end()
    }
}

/// The `[[walls]]` entries, each moving wall with its place now (`offset`, and
/// `angle` when it turns), from which a resumed run places it to the bit.
fn wall_specs(world: &World) -> Vec<crate::scenario::WallSpec> {
    let mut specs = world.wall_specs().to_vec();
    for (spec, m) in specs.iter_mut().zip(world.walls().motions()) {
        if let Some(m) = m {
            spec.offset = Some(m.offset);
            spec.angle = (m.angular_velocity != 0.0 || m.angle != 0.0).then_some(m.angle);
        }
    }
    specs
}

/// A field written only when it is set.
fn optional<S: SerializeStruct, T: Serialize>(
    st: &mut S,
    key: &'static str,
    value: &Option<T>,
) -> Result<(), S::Error> {
    match value {
        Some(v) => st.serialize_field(key, v),
        None => st.skip_field(key),
    }
}

/// The world's loaded tangential springs as the state file writes them; `None` when
/// there are none (frictionless, hard models, or nothing touching).
fn tangential_springs(world: &World) -> Option<TangentialSprings> {
    let h = world.contact_history();
    (!h.is_empty()).then(|| TangentialSprings {
        pairs: h
            .pairs
            .iter()
            .map(|&(i, j, xi)| (u64::from(i), u64::from(j), xi))
            .collect(),
        walls: h
            .walls
            .iter()
            .map(|&(i, axis, xi)| (u64::from(i), u64::from(axis), xi))
            .collect(),
        pieces: h
            .pieces
            .iter()
            .map(|&(i, piece, xi)| (u64::from(i), u64::from(piece), xi))
            .collect(),
        vertical: h
            .vertical
            .iter()
            .map(|&(i, j, xi)| (u64::from(i), u64::from(j), xi))
            .collect(),
    })
}

/// Rotation is in play, and the balls' `angle`, `omega` and `inertia` are written,
/// when contact friction is on (spins then change) or any ball is turned, spinning or
/// not a solid disk: otherwise they are all at their defaults and a state file stays
/// as it was before rotation existed.
pub fn rotation_in_play(world: &World) -> bool {
    let b = world.balls();
    world.physics().contact_friction.is_active()
        || world.physics().friction.is_cloth()
        || (0..b.len()).any(|i| {
            b.angle[i] != 0.0
                || b.omega[i] != 0.0
                || b.inertia[i] != solid_disk_inertia(b.m[i], b.r[i])
        })
}

/// The balls are spheres spinning about the table's axes, and their `wx`, `wy` are
/// written: on cloth, or when any ball has such a spin.
pub fn spheres_in_play(world: &World) -> bool {
    let b = world.balls();
    world.physics().friction.is_cloth() || (0..b.len()).any(|i| b.wx[i] != 0.0 || b.wy[i] != 0.0)
}

/// The diagnostics as a state file's `diagnostics` object: one key per quantity, the
/// optional ones (`symmetry_error`, `in_play`, `psi6`) only when measured.
pub fn diagnostics_json(d: &Diagnostics) -> serde_json::Value {
    let mut v = serde_json::json!({
        "kinetic_energy": d.kinetic_energy,
        "rotational_energy": d.rotational_energy,
        "potential_energy": d.potential_energy,
        "total_energy": d.total_energy,
        "momentum": d.momentum,
        "collisions": d.collisions,
        "packing_fraction": d.packing_fraction,
        "temperature": d.temperature,
        "pressure": d.pressure,
        "stress_xx": d.stress_xx,
        "stress_xy": d.stress_xy,
        "stress_yy": d.stress_yy,
    });
    if let Some(s) = d.symmetry_error {
        v["symmetry_error"] = serde_json::json!(s);
    }
    if let Some(n) = d.in_play {
        v["in_play"] = serde_json::json!(n);
    }
    if let Some(p) = d.psi6 {
        v["psi6"] = serde_json::json!(p);
    }
    if let Some(c) = d.chain {
        v["z"] = serde_json::json!(c.z);
        v["beta_p"] = serde_json::json!(c.beta_p);
        // `null` with fewer than two blocks.
        v["z_error"] = serde_json::json!(c.z_error);
        v["z_blocks"] = serde_json::json!(c.blocks);
        v["chain_length"] = serde_json::json!(c.length);
        // The totals a resumed run's tally goes on from.
        v["chain"] = serde_json::json!({
            "chains": c.total.chains,
            "liftings": c.total.liftings,
            "advance": c.total.advance,
            "displacement": c.total.displacement,
        });
    }
    v
}
