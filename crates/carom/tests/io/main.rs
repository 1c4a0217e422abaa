//! Scenario and state files, the run session, the state stream and the event log, one
//! binary, one theme per module.

mod events_log;
mod scenarios;
mod session;
mod state_stream;
