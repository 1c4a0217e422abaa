//! Bad input through the command line, one binary: every file below refuses one kind of
//! bad scenario or argument with exit status 2, one line on stderr and no output file.

#[path = "../common/mod.rs"]
mod common;

mod bad_chain;
mod bad_glue;
mod bad_input;
mod bad_input_cloth;
mod bad_input_dense;
mod bad_input_sheared;
mod bad_moving_walls;
mod bad_walls;
