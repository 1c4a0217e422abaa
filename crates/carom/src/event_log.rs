//! The event log of a run: one row per impact a model resolves, per ball that leaves
//! play, and (on cloth) per change of a ball's phase of motion.
//!
//! The log is off by default ([`crate::World::set_event_log`]); off, no model allocates
//! or computes anything for it, and every result is the same to the bit. On, each model
//! keeps the rows of its step, timed from the step's start, and the world takes them
//! after the step, adds the step's
//! start time and writes the removals (pockets, open edges) itself. What each model
//! writes:
//!
//! - `impulse`: every pair collision applied, every table-wall and interior-wall
//!   bounce, all at the end of the step (the moment the model resolves them), in the
//!   order it applies them.
//! - `simultaneous`: every contact that received a positive impulse in the step, with
//!   the impulse summed over the solver's passes, at the end of the step.
//! - `event`: every impact at its exact time; a group of simultaneous impacts writes one
//!   row per contact that received an impulse. On cloth a cushion's row carries the
//!   impulse along its contact normal (towards the nose) and the ball's horizontal
//!   speed into the cushion, and an impact that puts a ball into another phase is
//!   followed by that ball's `phase` row at the same time.
//! - `spring`: one row per contact at the step its overlap began (time: the end of that
//!   step). The impulse of a spring contact is only known when it ends, so the row's
//!   impulse is NaN; the approach speed is the relative normal speed at the start. On
//!   cloth a cushion is an impulse, not a spring: its row is `impulse`'s, at the end of
//!   the step that applied it.
//!
//! On cloth (`physics.friction` of kind `cloth`) every change of a ball's phase
//! (sliding, rolling, spinning, stationary) is a row of kind `phase` whose `phase` field
//! names the phase entered, at the exact time the closed form gives (the stepping
//! models evolve each ball's free motion in closed form over the step, so the time is
//! exact for the motion they integrate). Other rows leave `phase` empty.
//!
//! Impulses are normal impulses (positive, pushing the bodies apart); the approach
//! speed is the relative normal speed towards each other just before the impact.

use crate::walls::Exit;

/// What happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EventKind {
    /// Ball `i` hit ball `j`.
    BallBall,
    /// Ball `i` hit one of the table's four walls (left, right, top or bottom).
    TableWall(crate::table::Wall),
    /// Ball `i` hit a wall inside the table: `wall` is the index of its `[[walls]]` entry.
    Wall,
    /// Ball `i` fell into pocket `pocket`.
    Pocket,
    /// Ball `i` left across an open edge.
    Exit(crate::table::Wall),
    /// Ball `i` changed its phase of motion (sliding to rolling, rolling to rest): the
    /// row's [`LoggedEvent::phase`] is the phase entered. Written on cloth only.
    PhaseChange,
}

impl EventKind {
    /// The name the CSV file and Python write: `ball`, `left`, `right`, `top`,
    /// `bottom` (table walls), `wall`, `pocket`, `exit-left` ... `exit-bottom`, `phase`.
    pub fn name(self) -> &'static str {
        use crate::table::Wall as W;
        match self {
            EventKind::BallBall => "ball",
            EventKind::TableWall(W::Left) => "left",
            EventKind::TableWall(W::Right) => "right",
            EventKind::TableWall(W::Top) => "top",
            EventKind::TableWall(W::Bottom) => "bottom",
            EventKind::Wall => "wall",
            EventKind::Pocket => "pocket",
            EventKind::Exit(W::Left) => "exit-left",
            EventKind::Exit(W::Right) => "exit-right",
            EventKind::Exit(W::Top) => "exit-top",
            EventKind::Exit(W::Bottom) => "exit-bottom",
            EventKind::PhaseChange => "phase",
        }
    }

    /// Every kind, in the order of their small-integer codes ([`EventKind::code`]).
    pub const ALL: [EventKind; 12] = {
        use crate::table::Wall as W;
        [
            EventKind::BallBall,
            EventKind::TableWall(W::Left),
            EventKind::TableWall(W::Right),
            EventKind::TableWall(W::Top),
            EventKind::TableWall(W::Bottom),
            EventKind::Wall,
            EventKind::Pocket,
            EventKind::Exit(W::Left),
            EventKind::Exit(W::Right),
            EventKind::Exit(W::Top),
            EventKind::Exit(W::Bottom),
            EventKind::PhaseChange,
        ]
    };

    /// The kind's index in [`EventKind::ALL`] (what Python's `kind` array holds).
    pub fn code(self) -> u8 {
        EventKind::ALL.iter().position(|&k| k == self).unwrap_or(0) as u8
    }
}

/// One row of the log.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LoggedEvent {
    /// Simulated time of the event.
    pub time: f64,
    /// What happened.
    pub kind: EventKind,
    /// The ball (for a pair, the lower index).
    pub i: u32,
    /// The other ball of a pair.
    pub j: Option<u32>,
    /// The `[[walls]]` entry of a [`EventKind::Wall`] row.
    pub wall: Option<u32>,
    /// The pocket of a [`EventKind::Pocket`] row.
    pub pocket: Option<u32>,
    /// Normal impulse (NaN where not known: spring contacts, removals).
    pub impulse: f64,
    /// Relative normal speed of approach just before (NaN for removals and phase
    /// changes).
    pub approach: f64,
    /// The phase a [`EventKind::PhaseChange`] row's ball entered; `None` for other rows.
    pub phase: Option<crate::cloth::Phase>,
}

impl LoggedEvent {
    /// A ball-ball collision of balls `i` and `j` (in either order).
    pub fn pair(time: f64, i: u32, j: u32, impulse: f64, approach: f64) -> LoggedEvent {
        LoggedEvent {
            time,
            kind: EventKind::BallBall,
            i: i.min(j),
            j: Some(i.max(j)),
            wall: None,
            pocket: None,
            impulse,
            approach,
            phase: None,
        }
    }

    /// Ball `i` on one of the table's walls.
    pub fn table_wall(
        time: f64,
        i: u32,
        w: crate::table::Wall,
        impulse: f64,
        approach: f64,
    ) -> LoggedEvent {
        LoggedEvent {
            kind: EventKind::TableWall(w),
            j: None,
            ..LoggedEvent::pair(time, i, i, impulse, approach)
        }
    }

    /// Ball `i` on wall `wall`, the index of its `[[walls]]` entry.
    pub fn wall(time: f64, i: u32, wall: u32, impulse: f64, approach: f64) -> LoggedEvent {
        LoggedEvent {
            kind: EventKind::Wall,
            j: None,
            wall: Some(wall),
            ..LoggedEvent::pair(time, i, i, impulse, approach)
        }
    }

    /// Ball `i` leaving play at `time` by `by`.
    pub fn removal(time: f64, i: u32, by: Exit) -> LoggedEvent {
        use crate::table::Wall as W;
        let (kind, pocket) = match by {
            Exit::Pocket(k) => (EventKind::Pocket, Some(k)),
            Exit::Left => (EventKind::Exit(W::Left), None),
            Exit::Right => (EventKind::Exit(W::Right), None),
            Exit::Top => (EventKind::Exit(W::Top), None),
            Exit::Bottom => (EventKind::Exit(W::Bottom), None),
        };
        LoggedEvent {
            kind,
            j: None,
            pocket,
            ..LoggedEvent::pair(time, i, i, f64::NAN, f64::NAN)
        }
    }
}

impl LoggedEvent {
    /// Ball `i` entering phase `to` at `time`.
    pub fn phase_change(time: f64, i: u32, to: crate::cloth::Phase) -> LoggedEvent {
        LoggedEvent {
            kind: EventKind::PhaseChange,
            j: None,
            phase: Some(to),
            ..LoggedEvent::pair(time, i, i, f64::NAN, f64::NAN)
        }
    }
}

/// The CSV header of an event log. `phase` (last, so that readers of the earlier
/// columns are unaffected) is the phase a `phase` row's ball entered.
pub const CSV_HEADER: &str = "time,kind,i,j,wall,pocket,impulse,approach_speed,phase";

/// One CSV line (no newline): empty fields for what a row has not, and for NaN.
pub fn csv_line(e: &LoggedEvent) -> String {
    let opt = |v: Option<u32>| v.map_or(String::new(), |v| v.to_string());
    let num = |v: f64| {
        if v.is_nan() {
            String::new()
        } else {
            format!("{v}")
        }
    };
    // Numbers as the other CSV outputs write them: the shortest text that reads back
    // to the same double.
    format!(
        "{},{},{},{},{},{},{},{},{}",
        e.time,
        e.kind.name(),
        e.i,
        opt(e.j),
        opt(e.wall),
        opt(e.pocket),
        num(e.impulse),
        num(e.approach),
        e.phase.map_or("", |p| p.name())
    )
}
