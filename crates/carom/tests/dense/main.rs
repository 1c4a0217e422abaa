//! Dense packings and boxes without walls, one binary: compression, growth, thermostats,
//! order, size distributions, periodic and sheared (Lees-Edwards) boxes, and the
//! statistical physics of hard disks, one theme per module.

#[path = "../common/mod.rs"]
mod common;

mod chain_eos;
mod dense_affine;
mod dense_compress;
mod dense_growth;
mod dense_order;
mod dense_sizes;
mod dense_strikes;
mod dense_thermostat;
mod periodic;
mod periodic_friction;
mod periodic_walled_unchanged;
mod sheared;
mod sheared_event;
mod sheared_scenario;
mod sheared_viscosity;
mod statistical;
