//! Billiards games above the carom engine: tables and ball sets built from the
//! governing bodies' specifications ([`tables`]), the games' starting positions
//! ([`setups`]) and shots simulated to rest with their facts ([`shot`]).
//!
//! The engine simulates; this crate decides. It holds no physics: a table is a carom
//! [`carom::scenario::Scenario`] (walls, pockets, cloth, cushions), a shot is the engine's cue
//! strike, and what happened is read from the engine's event log. The engine never
//! imports this crate.

pub mod agent;
pub mod aim;
pub mod batch;
pub mod candidates;
pub mod game;
pub mod many;
pub mod paths;
pub mod rules;
pub mod setups;
pub mod shot;
pub mod shots_file;
pub mod styles;
pub mod tables;
pub mod threads;

pub use game::{Game, ShotResult};
pub use setups::{GameKind, Setup};
pub use shot::{Facts, Shot, ShotError};
pub use tables::{Table, TableKind};
