//! Runs through the command line, one binary: the summary, the files written, resuming
//! from a state file, determinism, comparisons and crash safety, one theme per module.

#[path = "../common/mod.rs"]
mod common;

mod chain_cli;
mod cli;
mod cloth_io;
mod compare;
mod crash_safety;
mod dense_cli;
mod determinism;
mod event_start;
mod events_cli;
mod friction;
mod friction_resume;
mod periodic_cli;
mod presets;
mod walls_cli;
