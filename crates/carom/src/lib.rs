//! carom: 2D ball-collision simulation.
//!
//! A table with four walls, balls (disks) moving on it, and four collision models behind
//! one interface ([`models::CollisionModel`]): the tutorial's sequential `impulse`
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

pub mod balls;
pub mod broadphase;
mod building;
pub mod cloth;
pub mod compare;
pub mod compression;
mod contact;
pub mod cue;
pub mod cushion;
mod dense_placement;
pub mod diagnostics;
mod elliptic;
mod error;
pub mod event_log;
mod friction;
pub mod generators;
pub mod growing_contact;
mod hint;
pub mod load;
pub mod models;
pub mod order;
pub mod overrides;
pub mod parse;
mod pendulum;
mod physics;
pub mod presets;
mod profiles;
pub mod random;
mod rolling;
pub mod run;
pub mod scenario;
mod sheared;
pub mod sizes;
pub mod state;
pub mod stress;
mod table;
pub mod thermostat;
pub mod times;
mod value_checks;
pub mod walls;
mod world;

pub use balls::{Ball, Balls, Rgb};
pub use diagnostics::Diagnostics;
pub use error::BuildError;
pub use error::ScenarioError;
pub use models::StepError;
pub use parse::Format;
pub use physics::{ContactFriction, Physics};
pub use scenario::{Friction, Integrator, ModelKind, Scenario};
pub use table::{Boundary, Table};
pub use world::{Window, World};
