//! The `event` model: exact event-driven hard-disk dynamics.

use super::{CollisionModel, StepContext, StepError};
use crate::balls::Balls;
use crate::scenario::ModelKind;
use crate::world::{Physics, Table};

pub struct Event {
    collisions: u64,
}

impl Event {
    pub fn new(_balls: &Balls, _table: &Table, _physics: &Physics) -> Result<Event, StepError> {
        Err(StepError::Unsupported(
            "the event model is not built yet".to_string(),
        ))
    }
}

impl CollisionModel for Event {
    fn kind(&self) -> ModelKind {
        ModelKind::Event
    }

    fn step(&mut self, _ctx: StepContext<'_>) -> Result<(), StepError> {
        Err(StepError::Unsupported(
            "the event model is not built yet".to_string(),
        ))
    }

    fn collisions(&self) -> u64 {
        self.collisions
    }
}
