//! The two ways a command fails, with the exit status each maps to, and the one-line
//! messages the command line promises.

use carom::ScenarioError;

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

    /// `ORIGIN:LINE: FIELD: message`, with the parts that are known. `origin` is the
    /// file name, `preset NAME`, or the command-line option that caused the problem.
    pub fn scenario(origin: &str, e: &ScenarioError) -> CliError {
        let mut s = origin.to_string();
        if let Some(line) = e.line {
            s.push_str(&format!(":{line}"));
        }
        s.push_str(": ");
        if let Some(field) = &e.field {
            s.push_str(field);
            s.push_str(": ");
        }
        s.push_str(&e.message);
        CliError::input(s)
    }
}

/// Messages from libraries can span lines; the contract is one line.
pub fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}
