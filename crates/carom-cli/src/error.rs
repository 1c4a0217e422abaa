//! The two ways a command fails, with the exit status each maps to, and the one-line
//! messages the command line promises.

use carom::load::one_line;

/// A failed command: the one line for stderr and the exit status.
#[derive(Debug)]
pub struct CliError {
    pub status: u8,
    pub line: String,
}

/// Bad usage or bad input: nothing was run, no output file was written.
pub const BAD_INPUT: u8 = 2;
/// The simulation failed while running; outputs hold the last good state.
pub const RUN_FAILED: u8 = 1;

impl CliError {
    pub fn input(line: impl Into<String>) -> CliError {
        CliError {
            status: BAD_INPUT,
            line: one_line(&line.into()),
        }
    }

    pub fn run(line: impl Into<String>) -> CliError {
        CliError {
            status: RUN_FAILED,
            line: one_line(&line.into()),
        }
    }
}
