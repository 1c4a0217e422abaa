//! The collision models, one binary: free motion, two-ball collisions, the time-step
//! schemes, the `event`, `simultaneous` and `spring` models against independent
//! expectations, the broad phase and the many-ball properties, one theme per module.

#[path = "../common/mod.rs"]
mod common;

mod collisions;
mod copy_from;
mod event;
mod event_guards;
mod event_isa;
mod event_lazy;
mod event_renumber;
mod event_seeds;
mod event_start;
mod gas;
mod integrators;
mod motion;
mod neighbour_list;
mod simultaneous;
mod simultaneous_order;
mod spring_reference;
mod steady_steps;
mod symmetry;
