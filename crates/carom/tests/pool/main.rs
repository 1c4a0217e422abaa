//! Pool balls on cloth, one binary: sliding and rolling, throw, the cushion against
//! published figures, a ball rolling along a cushion, and cloth left off changing
//! nothing, one theme per module.

#[path = "../cloth/mod.rs"]
mod cloth;

#[path = "../common/mod.rs"]
mod common;

mod cloth_event;
mod cloth_event_robust;
mod cloth_off;
mod cloth_rail;
mod cloth_spring_throw;
mod cloth_stepping;
mod cloth_throw;
mod cushion_published;
