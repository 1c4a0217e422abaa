//! carom: 2D ball-collision simulation.
//!
//! A table with four walls, balls (disks) moving on it, and four collision models behind
//! one interface ([`models::CollisionModel`]): the tutorial's sequential `impulse`
//! collisions, its `spring` (Hooke) collisions with five integrators, exact
//! `simultaneous` multi-ball collisions, and exact `event`-driven dynamics.
//!
//! The crate does no I/O: it parses scenario text handed to it and returns state values;
//! reading and writing files is the caller's business.

pub mod balls;
pub mod broadphase;
pub mod compare;
pub mod diagnostics;
pub mod friction;
pub mod generators;
pub mod load;
pub mod models;
pub mod overrides;
pub mod parse;
pub mod presets;
pub mod run;
pub mod scenario;
pub mod state;
pub mod world;

pub use balls::{Ball, Balls, Rgb};
pub use diagnostics::Diagnostics;
pub use models::StepError;
pub use parse::{Format, ScenarioError};
pub use scenario::{Friction, Integrator, ModelKind, Scenario};
pub use world::{BuildError, Physics, Table, World};
