//! What an event is about, and how a ball is held: every code of the event model in
//! one place.
//!
//! An event names its partner with one `u32` ([`Ev::other`](super::queue::Ev)), in
//! three ranges whose order breaks ties between events due at the same time (balls,
//! then walls, then crossings):
//! - below [`WALL`]: another ball, by its index;
//! - `WALL + w`: the table's own wall `w` (0 to 3), then a piece of wall inside the
//!   table ([`PIECE`]), an exit ([`EXIT`]: a pocket's entry or an open edge) and the
//!   end of a ball's course ([`END`]: its phase on cloth, or the face or circle it
//!   rests on ends);
//! - `CROSS + d`: a cell crossing in direction `d`.
//!
//! The code stays a plain integer in the schedule's records (40 bytes a ball, read at
//! every event); [`kind`] decodes it into a [`Kind`] where an event is taken apart.
//!
//! Beside the codes, the marks that say how a ball is held or filed: the resting bits
//! of `History::rest` ([`ON_TABLE`], [`ON_FACE`], [`ON_ROUND`], [`HELD`]), the pocket mark among a
//! cell's items ([`POCKET`]) and the empty face slot ([`NO_FACE`]).

/// No partner: the code of an empty slot, found nowhere else.
pub const NO_PARTNER: u32 = u32::MAX;

/// First code of a wall (the codes below it are balls).
pub const WALL: u32 = u32::MAX - 11;
/// First code of a cell crossing (direction in the low bits).
pub const CROSS: u32 = u32::MAX - 4;

/// Wall index of a piece of wall inside the table (the table's own walls are 0 to 3).
pub const PIECE: usize = 4;
/// Wall index of an exit: a pocket's entry or an open edge crossed (`inner.rs`).
pub const EXIT: usize = 5;
/// Wall index of the end of a ball's course: the end of its phase on cloth
/// (`on_cloth.rs`), or of the face or circle it rests on (`on_face.rs`,
/// `on_round.rs`). Right after [`EXIT`], so that one comparison tells both from the
/// rest ([`is_exit_or_end`]).
pub const END: usize = 6;

const _: () = assert!(END == EXIT + 1);
const _: () = assert!(WALL + END as u32 + 1 == CROSS);
const _: () = assert!(NO_PARTNER > CROSS + 3);
const _: () = assert!(ON_TABLE & (ON_FACE | ON_ROUND) == 0);

/// The partner code of wall index `w` (a table's wall, [`PIECE`], [`EXIT`] or
/// [`END`]).
#[inline(always)]
pub const fn wall(w: usize) -> u32 {
    WALL + w as u32
}

/// The partner code of a cell crossing in direction `d`.
#[inline(always)]
pub const fn cross(d: u32) -> u32 {
    CROSS + d
}

/// The partner code of an exit.
pub const EXIT_CODE: u32 = wall(EXIT);
/// The partner code of the end of a course.
pub const END_CODE: u32 = wall(END);

/// Whether a code names another ball.
#[inline(always)]
pub const fn is_ball(other: u32) -> bool {
    other < WALL
}

/// Whether a code is an exit or the end of a course (one comparison: the codes are
/// consecutive).
#[inline(always)]
pub const fn is_exit_or_end(other: u32) -> bool {
    other.wrapping_sub(EXIT_CODE) < 2
}

/// An event's partner, decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Another ball.
    Pair(usize),
    /// One of the table's own walls (0 to 3) or, with index [`PIECE`], a piece of wall
    /// inside the table.
    Wall(usize),
    /// A pocket's entry or an open edge.
    Exit,
    /// The end of a ball's course (phase on cloth, face or circle).
    End,
    /// A cell crossing in direction `d`.
    Cross(u32),
}

/// Decodes a partner code.
#[inline(always)]
pub fn kind(other: u32) -> Kind {
    if other < WALL {
        Kind::Pair(other as usize)
    } else if other < EXIT_CODE {
        Kind::Wall((other - WALL) as usize)
    } else if other == EXIT_CODE {
        Kind::Exit
    } else if other == END_CODE {
        Kind::End
    } else {
        Kind::Cross(other - CROSS)
    }
}

/// The `History::rest` bits of the table's own walls (bit `w` for wall `w`, 0 to 3).
pub const ON_TABLE: u8 = 0x0f;

/// `History::rest` bit of a ball resting on one or two faces of walls inside the table
/// (bits 0 to 3 are the table's own walls).
pub const ON_FACE: u8 = 1 << 4;

/// `History::rest` bit of a ball held on a circle by a wall inside the table.
pub const ON_ROUND: u8 = 1 << 5;

/// The bits of a ball held by a wall inside the table: on faces or on a circle.
pub const HELD: u8 = ON_FACE | ON_ROUND;

/// Marks a pocket among a cell's items (the rest are pieces).
pub const POCKET: u32 = 1 << 31;

/// No face in a slot of `OnFace`.
pub const NO_FACE: u32 = u32::MAX;
