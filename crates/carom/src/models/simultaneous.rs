//! The `simultaneous` model: exact simultaneous multi-ball collisions.

use super::{CollisionModel, StepContext, StepError};
use crate::balls::Balls;
use crate::scenario::ModelKind;
use crate::world::{Physics, Table};

pub struct Simultaneous {
    collisions: u64,
}

impl Simultaneous {
    pub fn new(
        _balls: &Balls,
        _table: &Table,
        _physics: &Physics,
    ) -> Result<Simultaneous, StepError> {
        Err(StepError::Unsupported(
            "the simultaneous model is not built yet".to_string(),
        ))
    }
}

impl CollisionModel for Simultaneous {
    fn kind(&self) -> ModelKind {
        ModelKind::Simultaneous
    }

    fn step(&mut self, _ctx: StepContext<'_>) -> Result<(), StepError> {
        Err(StepError::Unsupported(
            "the simultaneous model is not built yet".to_string(),
        ))
    }

    fn collisions(&self) -> u64 {
        self.collisions
    }
}
