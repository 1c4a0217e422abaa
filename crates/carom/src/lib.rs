//! carom: 2D ball-collision simulation.
//!
//! A table with four walls, balls (disks) moving on it, and four collision models behind
//! one interface: the tutorial's sequential `impulse`
//! collisions, its `spring` (Hooke) collisions with five integrators, exact
//! `simultaneous` multi-ball collisions, and exact `event`-driven dynamics.
//!
//! The crate does no I/O: it parses scenario text handed to it and returns state values;
//! reading and writing files is the caller's business.
//!
//! # Quick start
//!
//! A world built in code, stepped, and measured:
//!
//! ```
//! use carom::{Ball, Physics, Table, World};
//!
//! let table = Table::new(400.0, 200.0);
//! let balls = [
//!     Ball::new(100.0, 100.0, 2.0, 0.0, 10.0, 1.0),
//!     Ball::new(300.0, 100.0, -2.0, 0.0, 10.0, 1.0),
//! ];
//! let mut world = World::from_balls(table, Physics::default(), &balls).unwrap();
//! world.run_steps(2000).unwrap();
//! let d = world.diagnostics();
//! assert_eq!(d.collisions, 1);
//! // Equal masses, head on, elastic: the balls swap velocities.
//! assert!((world.balls().vx[0] + 2.0).abs() < 1e-2);
//! ```
//!
//! A scenario (a preset, or TOML/JSON text read by the caller) with a `--set`-style
//! override, run the way the command line runs it:
//!
//! ```
//! use carom::load::{build, Source};
//! use carom::overrides::Override;
//! use carom::run::Session;
//!
//! let src = Source::preset("newton-cradle").unwrap();
//! let sets = [Override::parse("physics.model=event").unwrap()];
//! let mut session = Session::new(build(&src, &sets).unwrap());
//! session.advance(100, 0, |_| {}).unwrap();
//! println!("{}", session.state_json()); // the state file `carom run --out` writes
//! ```
//!
//! More in `crates/carom/examples/`: `build_and_step` and `load_scenario`.

#![warn(missing_docs)]

// The engine's inner modules: crate-private. The `internals` feature (switched on only
// by this workspace's own tests, benches and fuzz harness) makes them public and hidden
// from the docs, so that a test can reach a stage directly; it is not an API.
macro_rules! inner_modules {
    ($($name:ident),* $(,)?) => {$(
        #[cfg(feature = "internals")]
        #[doc(hidden)]
        pub mod $name;
        #[cfg(not(feature = "internals"))]
        mod $name;
    )*};
}

inner_modules!(
    balls,
    broadphase,
    building,
    cloth,
    compression,
    contact,
    cushion,
    dense_placement,
    diagnostics,
    elliptic,
    error,
    friction,
    generators,
    growing_contact,
    hint,
    models,
    order,
    pendulum,
    physics,
    profiles,
    random,
    rolling,
    sheared,
    sizes,
    stress,
    table,
    thermostat,
    times,
    value_checks,
    walls,
    world,
);

mod copying;

// The scenario and file layer and the run session: what a program that reads scenarios,
// runs them and writes their files uses.
pub mod compare;
pub mod cue;
pub mod event_log;
pub mod load;
pub mod overrides;
pub mod parse;
pub mod presets;
pub mod run;
pub mod scenario;
pub mod state;

// The engine: one path per item.
pub use balls::{solid_sphere_inertia, Ball, Balls, Rgb};
pub use cloth::Phase;
pub use compression::{Compress, StopReason};
pub use diagnostics::{energy_drift, momentum_drift, ChainPressure, Diagnostics};
pub use error::{BuildError, ScenarioError};
pub use models::chain::Tally as ChainTally;
pub use models::StepError;
pub use physics::{ContactFriction, Friction, Integrator, ModelKind, Physics};
pub use random::SplitMix64;
pub use stress::ContactForce;
pub use table::{Boundary, Table};
pub use thermostat::Thermostat;
pub use walls::{Shape, Walls};
pub use world::{Window, World};
