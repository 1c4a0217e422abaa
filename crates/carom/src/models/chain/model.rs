//! The chain sampler behind the models' interface (`physics.model = "chain"`): a step
//! is one chain, the world's clock the chains' displacement per disk (`L / N` a step),
//! velocities left as they are. The pressure comes from the chains' advance
//! ([`super::Tally`]), in blocks of `physics.dt` of that clock for its error.
//!
//! Between steps the sampler keeps the positions in its own cell grid and writes them
//! back into the balls only when they are read ([`CollisionModel::synchronise`]): a
//! chain moves some `sqrt(N)` disks, and copying all `N` after each would cost more
//! than the chain.

use super::{default_length, Axis, Chain, ChainError, Tally};
use crate::balls::Balls;
use crate::models::{CollisionModel, StepContext, StepError};
use crate::physics::{ChainAxis, ChainParams, Friction, ModelKind, Physics};
use crate::table::Table;
use crate::walls::Walls;

/// The block statistics of `z` since the run's averaging window began: Welford's
/// running mean and sum of squared deviations of the block values.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Blocks {
    /// The tally where the block under way began.
    start: Tally,
    /// Completed blocks.
    pub count: u64,
    mean: f64,
    m2: f64,
}

impl Blocks {
    /// The standard error of the mean of the block values, taken as independent (each
    /// block long compared with the correlation time of the pressure); `None` with
    /// fewer than two blocks.
    pub fn error(&self) -> Option<f64> {
        (self.count >= 2).then(|| {
            let n = self.count as f64;
            (self.m2 / (n - 1.0) / n).sqrt()
        })
    }

}

/// The sampler as a collision model.
pub struct ChainModel {
    chain: Chain,
    params: ChainParams,
    /// The balls were changed from outside: the grid is rebuilt from them (the stream
    /// and the tally going on) before the next chain.
    stale: bool,
    /// The tally when the model was made (a state file's totals): the collisions
    /// counted are the liftings since.
    origin: Tally,
    /// Chains per pressure block: `physics.dt` in units of the clock's step `L / N`,
    /// at least one.
    per_block: u64,
    /// The `dt` that `per_block` was worked out from.
    block_dt: f64,
    blocks: Blocks,
}

/// Whether the chain sampler can run this scene: the first refusal, with the field it
/// concerns. The sampler draws equilibrium configurations of hard disks in a periodic
/// box; anything else acting on the balls has no meaning in it.
pub fn refuse(
    balls: &Balls,
    table: &Table,
    physics: &Physics,
    walls: &Walls,
) -> Result<(), StepError> {
    let unfit = |field: &'static str, why: String| Err(StepError::Unfit(field, why));
    if table.is_sheared() {
        return unfit(
            "table.boundary",
            "the chain model samples an equilibrium box: a sheared box is refused".into(),
        );
    }
    if !(table.is_periodic(0) && table.is_periodic(1)) {
        return unfit(
            "table.boundary",
            "the chain model samples a box periodic on both axes (table.boundary = \
             \"periodic\"): walls, open edges and channels are refused"
                .into(),
        );
    }
    if walls.has_walls() {
        return unfit(
            "walls",
            "the chain model samples disks in a periodic box: walls inside the table are \
             refused"
                .into(),
        );
    }
    if !walls.pockets().is_empty() {
        return unfit(
            "pockets",
            "the chain model samples disks in a periodic box: pockets are refused".into(),
        );
    }
    if physics.gravity != [0.0, 0.0] {
        return unfit(
            "physics.gravity",
            format!(
                "the chain model samples hard disks without external forces: gravity is \
                 refused (got [{}, {}])",
                physics.gravity[0], physics.gravity[1]
            ),
        );
    }
    if physics.friction.is_cloth() {
        return unfit(
            "physics.friction",
            "the chain model samples configurations: cloth is refused".into(),
        );
    }
    if physics.friction != Friction::None {
        return unfit(
            "physics.friction",
            "the chain model samples configurations and leaves velocities alone: table \
             friction is refused"
                .into(),
        );
    }
    if physics.contact_friction.is_active() || physics.contact_friction.rolling_mu > 0.0 {
        return unfit(
            "physics.contact_friction",
            "the chain model samples smooth hard disks: contact friction is refused".into(),
        );
    }
    if let Some(i) = (0..balls.len()).find(|&i| balls.is_kinematic(i)) {
        return unfit(
            "balls",
            format!(
                "ball {i} is kinematic: the chain model moves every disk and has no \
                 prescribed motion"
            ),
        );
    }
    Ok(())
}

/// The most cells of the search grid per disk: a gas this dilute (area fraction below
/// about 1e-3) is an ideal gas to any precision a chain could measure, and the grid's
/// memory grows with its cells, not its disks.
const MAX_CELLS_PER_DISK: f64 = 1024.0;

/// The most cells in all (some 1.5 GB of grid at four slots a cell).
const MAX_CELLS: f64 = (1u64 << 25) as f64;

/// The longest chain, in box sides: a chain far longer than the box wraps round and
/// repeats the same collective move, and its cost grows with its length.
const MAX_LENGTH_IN_SIDES: f64 = 100.0;

/// The grid and the chain length within what a run can hold and finish: refused by
/// name otherwise.
fn check_size(balls: &Balls, table: &Table, params: &ChainParams) -> Result<(), StepError> {
    let d_max = 2.0 * balls.max_radius();
    let cells = (table.width / d_max).floor() * (table.height / d_max).floor();
    let n = balls.len().max(1) as f64;
    if cells > MAX_CELLS || cells > MAX_CELLS_PER_DISK * n {
        return Err(StepError::Unfit(
            "physics.model",
            format!(
                "chain: the box holds {cells:e} cells of the largest contact distance ({d_max}) \
                 for {n} disks; the chain model runs at most {MAX_CELLS_PER_DISK} per disk \
                 and {MAX_CELLS:e} in all (an area fraction above about 1e-3)"
            ),
        ));
    }
    if let Some(length) = params.length {
        let side = table.width.max(table.height);
        if length > MAX_LENGTH_IN_SIDES * side {
            return Err(StepError::Unfit(
                "physics.chain.length",
                format!(
                    "{length} is more than {MAX_LENGTH_IN_SIDES} box sides ({side}): a chain \
                     that long only wraps round the box"
                ),
            ));
        }
    }
    Ok(())
}

fn axis_of(a: ChainAxis) -> Axis {
    match a {
        ChainAxis::X => Axis::X,
        ChainAxis::Y => Axis::Y,
    }
}

fn chain_axis(a: Axis) -> ChainAxis {
    match a {
        Axis::X => ChainAxis::X,
        Axis::Y => ChainAxis::Y,
    }
}

fn unfit(e: ChainError) -> StepError {
    StepError::Unfit("physics.model", e.to_string())
}

/// The sampler for these balls with these parameters.
fn build(balls: &Balls, table: &Table, params: &ChainParams) -> Result<Chain, ChainError> {
    let length = params
        .length
        .unwrap_or_else(|| default_length(table.width, table.height, &balls.r));
    let mut chain = Chain::new(
        table.width,
        table.height,
        &balls.x,
        &balls.y,
        &balls.r,
        length,
        params.seed,
    )?;
    chain.resume(params.seed, axis_of(params.next));
    Ok(chain)
}

impl ChainModel {
    /// The sampler for `balls`, after the scene passes [`refuse`].
    pub fn new(
        balls: &Balls,
        table: &Table,
        physics: &Physics,
        walls: &Walls,
    ) -> Result<ChainModel, StepError> {
        refuse(balls, table, physics, walls)?;
        check_size(balls, table, &physics.chain)?;
        let chain = build(balls, table, &physics.chain).map_err(unfit)?;
        let mut model = ChainModel {
            chain,
            params: physics.chain,
            stale: false,
            origin: Tally::default(),
            per_block: 1,
            block_dt: f64::NAN,
            blocks: Blocks::default(),
        };
        model.set_block(physics.dt);
        Ok(model)
    }

    /// The clock's advance per chain: the chain's displacement shared among the disks.
    pub fn step_length(&self) -> f64 {
        self.chain.length() / self.chain.len() as f64
    }

    /// The chain length in use.
    pub fn length(&self) -> f64 {
        self.chain.length()
    }

    /// Totals over every chain of the run's history (a resumed run's include those of
    /// the state it started from).
    pub fn tally(&self) -> Tally {
        self.chain.tally()
    }

    /// The parameters a state file writes so that a resumed run continues bit for bit:
    /// the given length, the stream's state as the seed and the next direction.
    pub fn resume_params(&self) -> ChainParams {
        let (state, next) = self.chain.stream();
        ChainParams {
            length: self.params.length,
            seed: state,
            next: chain_axis(next),
        }
    }

    /// Takes back the totals of a state file (see [`ChainModel::tally`]): the tally goes
    /// on from them, and the collisions count from here.
    pub fn restore_tally(&mut self, tally: Tally) {
        self.chain.tally = tally;
        self.origin = tally;
        self.blocks = Blocks {
            start: tally,
            ..Blocks::default()
        };
    }

    /// The pressure blocks since the run's window began.
    pub fn blocks(&self) -> Blocks {
        self.blocks
    }

    /// Starts the blocks afresh here (the run's averaging window restarts).
    pub fn restart_blocks(&mut self) {
        self.blocks = Blocks {
            start: self.chain.tally(),
            ..Blocks::default()
        };
    }

    /// Blocks of `dt` of the clock, a whole number of chains.
    fn set_block(&mut self, dt: f64) {
        if dt.to_bits() != self.block_dt.to_bits() {
            self.block_dt = dt;
            let chains = (dt / self.step_length()).round();
            self.per_block = if chains >= 1.0 && chains < u64::MAX as f64 {
                chains as u64
            } else {
                1
            };
        }
    }

    /// The grid built afresh from the balls as they are (after an edit), the stream and
    /// the tally going on.
    fn rebuild(&mut self, balls: &Balls, table: &Table) -> Result<(), StepError> {
        let (state, next) = self.chain.stream();
        let params = ChainParams {
            seed: state,
            next: chain_axis(next),
            ..self.params
        };
        let tally = self.chain.tally();
        self.chain = build(balls, table, &params).map_err(unfit)?;
        self.chain.tally = tally;
        self.block_dt = f64::NAN;
        self.stale = false;
        Ok(())
    }

    /// One chain, the block closed when it is full.
    fn one_chain(&mut self) -> Result<(), StepError> {
        self.chain.run(1).map_err(|e| match e {
            ChainError::Jammed => StepError::Unmodelled(e.to_string()),
            e => StepError::Unstable(e.to_string()),
        })?;
        let now = self.chain.tally();
        if now.chains - self.blocks.start.chains >= self.per_block {
            let z = now.since(&self.blocks.start).z();
            let b = &mut self.blocks;
            b.count += 1;
            let delta = z - b.mean;
            b.mean += delta / b.count as f64;
            b.m2 += delta * (z - b.mean);
            b.start = now;
        }
        Ok(())
    }
}

impl CollisionModel for ChainModel {
    fn kind(&self) -> ModelKind {
        ModelKind::Chain
    }

    fn step(&mut self, ctx: StepContext<'_>) -> Result<(), StepError> {
        let StepContext {
            balls,
            table,
            physics,
            pool,
            walls,
            in_play,
        } = ctx;
        let result = self.step_deferred(StepContext {
            balls: &mut *balls,
            table,
            physics,
            pool,
            walls,
            in_play,
        });
        self.synchronise(balls);
        result
    }

    fn step_deferred(&mut self, ctx: StepContext<'_>) -> Result<(), StepError> {
        if self.stale {
            self.rebuild(ctx.balls, ctx.table)?;
        }
        self.set_block(ctx.physics.dt);
        self.one_chain()
    }

    fn synchronise(&mut self, balls: &mut Balls) {
        // Nothing moved the grid's disks since the balls were last edited.
        if !self.stale {
            self.chain.positions(&mut balls.x, &mut balls.y);
        }
    }

    /// A chain that cannot go on leaves every disk where it stopped, each position a
    /// valid hard-disk configuration (a chain never leaves an overlap), and the step
    /// uncounted: that configuration is the last good state.
    fn failed_step_restores(&self) -> bool {
        true
    }

    fn collisions(&self) -> u64 {
        self.chain.tally().liftings - self.origin.liftings
    }

    fn event_count(&self) -> Option<u64> {
        Some(self.collisions())
    }

    fn invalidate(&mut self) {
        self.stale = true;
    }

    fn chain(&self) -> Option<&ChainModel> {
        Some(self)
    }

    fn chain_mut(&mut self) -> Option<&mut ChainModel> {
        Some(self)
    }
}
