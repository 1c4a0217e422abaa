//! Granular physics, one binary: contact friction and rotation, rolling resistance, the
//! stress tensor, force chains and profiles, one theme per module.

#[path = "../common/mod.rs"]
mod common;

mod force_chains;
mod friction_collisions;
mod friction_off;
mod friction_physics;
mod friction_resume;
mod friction_scenario;
mod profiles;
mod rolling;
mod stress;
