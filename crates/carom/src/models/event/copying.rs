//! Copying the model into another model's storage (see `crate::copying`): every part
//! array by array, so that a model reused for one shot after another keeps the arrays
//! its lists grew to. Each part's fields are all named, so none is left out.

use super::audit::{Audit, Guards};
use super::bath::Strikes;
use super::phases::OnCloth;
use super::records::{Layout, Records, Rollback};
use super::state::{Event, Scratch};
use crate::copying::copy_fields;

copy_fields!(Event {
    wide, quartic, laws, clock, serial, needs_rebuild, resumed, log, tally
} deep {
    guard, rec, rollback, cells, inner, cloth, strikes, queue, solver, layout, scratch
});
copy_fields!(Scratch {
    group_events, cand, involved, contacts, cluster, by_ball, nbrs, piece_hits, pending_exits,
    cushion_group, slide
});
copy_fields!(Records { t, counter, hist });
copy_fields!(Rollback { undo, virial_at_start });
copy_fields!(Layout { order, renumber_from });
copy_fields!(Guards {
    budget, event_budget, audit, collapse_guard, recent, recent_at, overflow, settled
} deep {
    overlap
});
copy_fields!(Audit { x, y, pairs, worst } deep { grid });
copy_fields!(OnCloth { law, phase, acc, end, undo });
copy_fields!(Strikes { temperature, rate, seed, count, at, undo, total } deep { due });
