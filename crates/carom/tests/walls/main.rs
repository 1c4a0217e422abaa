//! Walls inside the table, pockets and open edges, one binary: fixed, moving and glued
//! walls under every model, and the walled presets, one theme per module.

#[path = "../common/mod.rs"]
mod common;

mod walls_event;
mod walls_event_resting;
mod walls_event_round;
mod walls_glued;
mod walls_hard;
mod walls_moving;
mod walls_moving_event;
mod walls_moving_simultaneous;
mod walls_presets;
mod walls_spring;
