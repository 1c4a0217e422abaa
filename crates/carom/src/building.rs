//! A parsed [`Scenario`] to a [`World`]: the table resolved, the listed balls and the
//! generators' balls placed and checked, the physics, walls, pockets and glue set up,
//! and a state file's keys (time, steps, contact memory, thermostat clock) restored.
//! Every bad value becomes one [`ScenarioError`] naming its field.

use crate::balls::{Ball, Balls, Rgb};
use crate::error::ScenarioError;
use crate::generators;
use crate::models::ContactHistory;
use crate::physics::Physics;
use crate::scenario::{BallSpec, RemovedSpec, Scenario, TangentialSprings};
use crate::value_checks::{finite, positive};
use crate::walls::{Exit, Removal, Walls};
use crate::world::World;

/// The largest step count a state file may carry (see `build_world`).
pub const MAX_RESUMED_STEPS: u64 = 1 << 62;

/// The largest image count a ball may carry, in either direction (see `ball_from_spec`).
pub const MAX_IMAGES: u64 = 1 << 53;

/// Converts one ball spec, checking its values; `field` is how to name it in errors.
/// `sphere`: the balls are spheres on cloth (default inertia `2 m r^2 / 5`, and a cue
/// strike spins them about all three axes).
pub fn ball_from_spec(b: &BallSpec, field: &str, sphere: bool) -> Result<Ball, ScenarioError> {
    for (name, v) in [("x", b.x), ("y", b.y), ("vx", b.vx), ("vy", b.vy)] {
        finite(format!("{field}.{name}"), v)?;
    }
    positive(format!("{field}.r"), b.r)?;
    positive(format!("{field}.m"), b.m)?;
    let color = match &b.color {
        None => None,
        Some(c) => Some(Rgb::parse(c).ok_or_else(|| {
            ScenarioError::field(
                format!("{field}.color"),
                format!("must be a colour #RRGGBB (got {c:?})"),
            )
        })?),
    };
    let angle = b.angle.unwrap_or(0.0);
    let omega = b.omega.unwrap_or(0.0);
    let (wx, wy) = (b.wx.unwrap_or(0.0), b.wy.unwrap_or(0.0));
    finite(format!("{field}.angle"), angle)?;
    finite(format!("{field}.omega"), omega)?;
    finite(format!("{field}.wx"), wx)?;
    finite(format!("{field}.wy"), wy)?;
    if let Some(inertia) = b.inertia {
        positive(format!("{field}.inertia"), inertia)?;
    }
    // Image counts are whole numbers by type (1.5 or 1e300 is refused when the document
    // is read); here they are held to what a run can reach: a ball crosses a side at
    // most once a step and a run is at most `MAX_STEPS` long, so 2^53 (9.007e15, where
    // `ix * width` stops being exact) leaves room for several runs and keeps
    // counting far from i64 overflow.
    for (name, v) in [("ix", b.ix), ("iy", b.iy)] {
        if let Some(k) = v {
            if k.unsigned_abs() > MAX_IMAGES {
                return Err(ScenarioError::field(
                    format!("{field}.{name}"),
                    format!("must be a whole number between -2^53 and 2^53 (got {k})"),
                ));
            }
        }
    }
    let ball = Ball::new(b.x, b.y, b.vx, b.vy, b.r, b.m);
    let default_inertia = if sphere {
        crate::balls::solid_sphere_inertia(b.m, b.r)
    } else {
        ball.inertia
    };
    // A glued ball is kinematic: it moves with its wall.
    let kinematic = b.kinematic || b.glue.is_some();
    let mut ball = Ball {
        color,
        kinematic,
        angle,
        omega,
        inertia: b.inertia.unwrap_or(default_inertia),
        wx,
        wy,
        ix: b.ix.unwrap_or(0),
        iy: b.iy.unwrap_or(0),
        ..ball
    };
    if let Some(cue) = &b.cue {
        if let Err((key, message)) = crate::cue::check(cue) {
            return Err(ScenarioError::field(format!("{field}.cue.{key}"), message));
        }
        if kinematic {
            return Err(ScenarioError::field(
                format!("{field}.cue"),
                "a kinematic ball moves as prescribed and takes no cue strike",
            ));
        }
        let given = [b.vx, b.vy, wx, wy, omega];
        if given.iter().any(|&v| v != 0.0) {
            return Err(ScenarioError::field(
                format!("{field}.cue"),
                "a cue strike sets the ball's velocity and spins: give either cue or \
                 vx, vy, wx, wy, omega",
            ));
        }
        if ball.inertia.is_finite() && ball.inertia > 0.0 {
            let s = crate::cue::strike(cue, b.m, b.r, ball.inertia);
            // A speed near the largest float (or a ball light against its inertia)
            // strikes beyond floating point: refused by name, never loaded as inf.
            if !s.v.iter().chain(&s.w).all(|c| c.is_finite()) {
                return Err(ScenarioError::field(
                    format!("{field}.cue.speed"),
                    format!(
                        "gives this ball a velocity or spin beyond floating point (got {:e})",
                        cue.speed
                    ),
                ));
            }
            (ball.vx, ball.vy) = (s.v[0], s.v[1]);
            (ball.wx, ball.wy, ball.omega) = (s.w[0], s.w[1], s.w[2]);
        }
    }
    Ok(ball)
}

/// Builds the world a scenario describes: resolves the table, expands generators after
/// the listed balls, checks every value, declares symmetry.
pub fn build_world(s: &Scenario) -> Result<World, ScenarioError> {
    finite("duration".into(), s.duration)?;
    if s.duration < 0.0 {
        return Err(ScenarioError::field(
            "duration",
            format!("must not be negative (got {})", s.duration),
        ));
    }
    let table = generators::resolve_table(s)?;
    let (mut balls, generated_from, notes) = scene_balls(s, &table)?;
    check_placement(s, &table, &balls, &generated_from)?;
    crate::models::wrap_positions(&mut balls, &table);
    let p = &s.physics;
    let physics = physics_of(s);
    if let Some(th) = &p.thermostat {
        th.check("physics.thermostat")?;
    }
    if let Some(c) = &p.compress {
        c.check("physics.compress")?;
    }
    if physics.model == crate::physics::ModelKind::Chain {
        refuse_for_chain(s)?;
    }
    let mut world = World::new(s.name.clone(), table, physics, balls)
        .map_err(|e| ScenarioError::field(e.field, e.message))?;
    world.set_thermostat(p.thermostat);
    for note in notes {
        world.add_note(note);
    }
    set_clock(&mut world, s)?;
    place_walls(&mut world, s, &generated_from)?;
    restore_state(&mut world, s)?;
    // The pressure's averaging window starts where this run does.
    world.restart_window();
    Ok(world)
}

/// What the chain sampler refuses besides the scene itself (which the model checks):
/// a thermostat or a compression, both of which act on velocities or radii over time.
fn refuse_for_chain(s: &Scenario) -> Result<(), ScenarioError> {
    if s.physics.thermostat.is_some() {
        return Err(ScenarioError::field(
            "physics.thermostat",
            "the chain model samples configurations and leaves velocities alone: \
             thermostats are refused",
        ));
    }
    if s.physics.compress.is_some() {
        return Err(ScenarioError::field(
            "physics.compress",
            "the chain model samples at a fixed density: compression is refused (compress \
             with the event model, then sample the state it writes)",
        ));
    }
    Ok(())
}

/// The listed balls, then each generator's, in order; where each generator's balls
/// start; the notes the generators leave for the run.
fn scene_balls(
    s: &Scenario,
    table: &crate::table::Table,
) -> Result<(Balls, Vec<usize>, Vec<String>), ScenarioError> {
    let mut balls = Balls::default();
    for (i, b) in s.balls.iter().enumerate() {
        balls.push(ball_from_spec(
            b,
            &format!("balls[{i}]"),
            s.physics.friction.is_cloth(),
        )?);
    }
    // Where each generator's balls start, to name a generated ball by its generator.
    let mut generated_from = Vec::with_capacity(s.generators.len());
    let mut notes = Vec::new();
    for (g, gen) in s.generators.iter().enumerate() {
        generated_from.push(balls.len());
        generators::expand(gen, table, &format!("generators[{g}]"), &mut balls)?;
        notes.extend(generators::compression_note(
            gen,
            g,
            &balls.r[generated_from[g]..],
            table,
        ));
    }
    if s.physics.friction.is_cloth() {
        // Generated balls on cloth are solid spheres, as listed ones are by default.
        for i in s.balls.len()..balls.len() {
            let inertia = crate::balls::solid_sphere_inertia(balls.m[i], balls.r[i]);
            balls.inertia[i] = inertia;
            if balls.inv_inertia[i] != 0.0 {
                balls.inv_inertia[i] = 1.0 / inertia;
            }
        }
    }
    Ok((balls, generated_from, notes))
}

/// The error about ball `i`, naming the listed ball or the generator that made it
/// (`generated_from`: where each generator's balls start).
fn ball_error(s: &Scenario, generated_from: &[usize], i: usize, what: String) -> ScenarioError {
    if i < s.balls.len() {
        ScenarioError::field(format!("balls[{i}]"), format!("ball {what}"))
    } else {
        // The last generator that started at or before ball i made it.
        let g = generated_from.partition_point(|&start| start <= i) - 1;
        ScenarioError::field(
            format!("generators[{g}]"),
            format!("its ball {} (ball index {i}) {what}", i - generated_from[g]),
        )
    }
}

/// Every ball where it may start: its moment of inertia usable, inside the table, and
/// an image count only on a periodic axis.
fn check_placement(
    s: &Scenario,
    table: &crate::table::Table,
    balls: &Balls,
    generated_from: &[usize],
) -> Result<(), ScenarioError> {
    // Balls must start inside the table (touching a wall is fine). A state file
    // (`time` given) holds whatever a run left and still counted as physical
    // (`World::check_physical`): a ball pressing into a wall (a spring contact, an
    // impulse bounce about to be undone), or one a fast step carried through it, up to
    // `Table::runaway_margin` beyond; a kinematic ball wherever it was told to go.
    // Refusing more would make a run's own `--out` file impossible to resume.
    //
    // On a periodic axis there is no wall to be outside of: a ball may straddle the
    // edge, and only its centre must lie on the table, `[0, side]`. (A state file's
    // centres were wrapped there by the run; the event model may leave one a round-off
    // beyond, which `build_world` wraps after this check.)
    let mid_run = s.time.is_some();
    let periodic = [table.is_periodic(0), table.is_periodic(1)];
    for i in 0..balls.len() {
        let (x, y, r) = (balls.x[i], balls.y[i], balls.r[i]);
        // A moment of inertia left to its default, m r^2 / 2, can underflow to 0 or
        // overflow to infinity for extreme but finite radii and masses; the state
        // file would then write a value no scenario accepts (and a spin update would
        // divide by it).
        let inertia = balls.inertia[i];
        if !(inertia.is_finite() && inertia > 0.0) {
            return Err(ball_error(
                s,
                generated_from,
                i,
                format!(
                    "of mass {} and radius {r} has the default moment of inertia \
                     {inertia}, not a positive finite number (give inertia)",
                    balls.m[i]
                ),
            ));
        }
        if mid_run && balls.is_kinematic(i) {
            continue;
        }
        // How far inside a wall the centre must be: a negative reach lets it out.
        let reach = if mid_run { -table.runaway_margin() } else { r };
        let (rx, ry) = (
            if periodic[0] { 0.0 } else { reach },
            if periodic[1] { 0.0 } else { reach },
        );
        let slack = |side: f64, p: bool| if p && mid_run { 1e-9 * side } else { 0.0 };
        let (sx, sy) = (
            slack(table.width, periodic[0]),
            slack(table.height, periodic[1]),
        );
        if x - rx < -sx || x + rx > table.width + sx || y - ry < -sy || y + ry > table.height + sy {
            let where_ = if mid_run {
                format!(
                    "at ({x}, {y}) has its centre farther outside the {} x {} table than \
                     the table is large",
                    table.width, table.height
                )
            } else {
                format!(
                    "at ({x}, {y}) with radius {r} is outside the {} x {} table",
                    table.width, table.height
                )
            };
            return Err(ball_error(s, generated_from, i, where_));
        }
    }
    for (i, b) in s.balls.iter().enumerate() {
        for (axis, name, v) in [(0, "ix", b.ix), (1, "iy", b.iy)] {
            if v.is_some_and(|k| k != 0) && !periodic[axis] {
                return Err(ScenarioError::field(
                    format!("balls[{i}].{name}"),
                    "an image count needs a periodic axis (table.boundary)",
                ));
            }
        }
    }
    Ok(())
}

/// The physics of the scenario's `[physics]`, the model resolved (`physics.model`, else
/// the state file's `model`, else the default).
fn physics_of(s: &Scenario) -> Physics {
    let p = &s.physics;
    Physics {
        model: p.model.or(s.model).unwrap_or_default(),
        dt: p.dt,
        gravity: p.gravity,
        stiffness: p.stiffness,
        restitution: p.restitution,
        integrator: p.integrator,
        glitch_prevention: p.glitch_prevention,
        friction: p.friction,
        contact_friction: crate::physics::ContactFriction {
            mu: p.contact_friction.mu,
            tangential_restitution: p.contact_friction.tangential_restitution,
            tangential_stiffness: p.contact_friction.tangential_stiffness,
            rolling_mu: p.contact_friction.rolling_mu,
        },
        event_budget: p
            .event_budget
            .unwrap_or(crate::physics::DEFAULT_EVENT_BUDGET),
        chain: p.chain.unwrap_or_default(),
    }
}

/// A state file's time and step count, and the scene's declared symmetry.
fn set_clock(world: &mut World, s: &Scenario) -> Result<(), ScenarioError> {
    if let Some(t) = s.time {
        finite("time".into(), t)?;
        world.time = t;
    }
    // A resumed state keeps counting steps from where it stopped.
    if let Some(steps) = s.steps {
        // A state's count is the sum of the runs that made it, each at most
        // `run::MAX_STEPS` (10^15): 2^62 is thousands of such runs, and keeps the next
        // run's count from overflowing (which would panic, or wrap in a release build).
        if steps > MAX_RESUMED_STEPS {
            return Err(ScenarioError::field(
                "steps",
                format!("must be at most 2^62, more than runs can have taken (got {steps})"),
            ));
        }
        world.steps = steps;
    }
    if let Some(sym) = s.symmetry {
        finite("symmetry.axis_y".into(), sym.axis_y)?;
        world.declare_symmetry(sym.axis_y);
    }
    Ok(())
}

/// The walls and pockets (checked against the table, the balls and the cloth), the
/// balls a state file says left play, and the balls glued to moving walls.
fn place_walls(
    world: &mut World,
    s: &Scenario,
    generated_from: &[usize],
) -> Result<(), ScenarioError> {
    let mid_run = s.time.is_some();
    let walls = crate::walls::from_spec::build(&s.walls, &s.pockets, world.table())?;
    crate::sheared::check_walls(world.table(), &walls)
        .map_err(|e| ScenarioError::field(e.field, e.message))?;
    if s.physics.friction.is_cloth() {
        // A cushion's nose must meet every ball between the cloth and its top.
        let b = world.balls();
        let smallest = b.r.iter().copied().fold(f64::INFINITY, f64::min);
        if let Some((k, h)) = walls.highest_cushion() {
            if h >= 2.0 * smallest {
                return Err(ScenarioError::field(
                    format!("walls[{k}].cushion_height"),
                    format!(
                        "must be below the smallest ball's diameter, {} (got {h})",
                        2.0 * smallest
                    ),
                ));
            }
        }
    }
    // Balls that a state file says left play start out of play.
    let mut removed = Vec::new();
    for (i, b) in s.balls.iter().enumerate() {
        if let Some(spec) = &b.removed {
            if b.kinematic || b.glue.is_some() {
                return Err(ScenarioError::field(
                    format!("balls[{i}].removed"),
                    "a kinematic ball moves as prescribed and cannot leave play",
                ));
            }
            removed.push((i, removal(spec, &format!("balls[{i}].removed"), &walls)?));
        }
    }
    if !walls.is_empty() {
        // A state file may hold a ball pressing into a wall (a spring contact); a
        // start may not.
        if !mid_run {
            // Kinematic balls go where they are told, and balls out of play are
            // wherever they left.
            let b = world.balls();
            let mut skip: Vec<bool> = (0..b.len()).map(|i| b.is_kinematic(i)).collect();
            for &(i, _) in &removed {
                skip[i] = true;
            }
            if let Some((i, w, depth)) =
                crate::walls::from_spec::first_overlap(world.balls(), &walls, world.table(), &skip)
            {
                return Err(ball_error(
                    s,
                    generated_from,
                    i,
                    format!("overlaps walls[{w}] by {depth} at the start"),
                ));
            }
        }
        world
            .set_walls(&s.walls, &s.pockets)
            .map_err(|e| ScenarioError::field(e.field, e.message))?;
    }
    let glue: Vec<crate::walls::Glued> = s
        .balls
        .iter()
        .enumerate()
        .filter_map(|(i, b)| {
            b.glue.map(|wall| crate::walls::Glued {
                ball: i as u32,
                wall,
                velocity: [b.vx, b.vy],
            })
        })
        .collect();
    if let Some(g) = glue.first() {
        if walls.is_empty() {
            return Err(ScenarioError::field(
                format!("balls[{}].glue", g.ball),
                format!("names walls[{}], but the scene has no walls", g.wall),
            ));
        }
        world
            .set_glue(glue)
            .map_err(|e| ScenarioError::field(e.field, e.message))?;
    }
    for (i, r) in removed {
        world.remove_ball(i, r);
    }
    Ok(())
}

/// A state file's memory: the loaded tangential springs, the thermostat's clock and a
/// compression under way.
fn restore_state(world: &mut World, s: &Scenario) -> Result<(), ScenarioError> {
    if world.chain().is_some() {
        if let Some(tally) = chain_tally(s)? {
            world.restore_chain_tally(tally);
        }
    }
    if let Some(springs) = &s.tangential_springs {
        let history = contact_history(springs, world.balls().len(), world.walls().pieces().len())?;
        world.restore_contact_history(&history);
    }
    if let Some(clock) = &s.thermostat_clock {
        let clock = thermostat_clock(clock, world.balls().len())?;
        world.restore_thermostat_clock(&clock);
    }
    if let Some(c) = s.physics.compress {
        world
            .set_compress(Some(c))
            .map_err(|e| ScenarioError::field(e.field, e.message))?;
    }
    Ok(())
}

/// A chain state file's totals (`diagnostics.chain = { chains, liftings, advance,
/// displacement }`), which the resumed run's tally goes on from; `None` when absent.
fn chain_tally(s: &Scenario) -> Result<Option<crate::models::chain::Tally>, ScenarioError> {
    let Some(t) = s.diagnostics.as_ref().and_then(|d| d.get("chain")) else {
        return Ok(None);
    };
    let field = |key: &str| format!("diagnostics.chain.{key}");
    let count = |key: &str| {
        t.get(key)
            .and_then(serde_json::Value::as_u64)
            .ok_or_else(|| ScenarioError::field(field(key), "must be a whole number, not negative"))
    };
    let sum = |key: &str| {
        t.get(key)
            .and_then(serde_json::Value::as_f64)
            .filter(|v| v.is_finite() && *v >= 0.0)
            .ok_or_else(|| ScenarioError::field(field(key), "must be a finite number >= 0"))
    };
    Ok(Some(crate::models::chain::Tally {
        chains: count("chains")?,
        liftings: count("liftings")?,
        advance: sum("advance")?,
        displacement: sum("displacement")?,
    }))
}

/// Checks a state file's `thermostat_clock` against `n` balls: indices in range, no
/// ball twice, waits finite and not negative.
fn thermostat_clock(
    clock: &[(u64, u64, f64)],
    n: usize,
) -> Result<Vec<(u32, u64, f64)>, ScenarioError> {
    let mut seen = vec![false; n];
    let mut out = Vec::with_capacity(clock.len());
    for (k, &(i, strikes, wait)) in clock.iter().enumerate() {
        let field = format!("thermostat_clock[{k}]");
        if i >= n as u64 {
            return Err(ScenarioError::field(
                field,
                format!("names ball {i}, but there are {n}"),
            ));
        }
        if std::mem::replace(&mut seen[i as usize], true) {
            return Err(ScenarioError::field(
                field,
                format!("lists ball {i} a second time"),
            ));
        }
        if !(wait.is_finite() && wait >= 0.0) {
            return Err(ScenarioError::field(
                field,
                format!("the wait must be a finite number, not negative (got {wait})"),
            ));
        }
        out.push((i as u32, strikes, wait));
    }
    Ok(out)
}

/// Checks a state file's `tangential_springs` against `n` balls and converts them:
/// indices in range, `i < j`, `axis` 0 or 1, finite stretches, no contact twice (in
/// one list: a pair on cloth may have both an in-plane and a vertical stretch).
fn contact_history(
    springs: &TangentialSprings,
    n: usize,
    pieces: usize,
) -> Result<ContactHistory, ScenarioError> {
    let ball = |field: String, k: u64| {
        if k < n as u64 {
            Ok(k as u32)
        } else {
            Err(ScenarioError::field(
                field,
                format!("ball index {k} is out of range (there are {n} balls)"),
            ))
        }
    };
    // Ball-ball entries, in-plane (`pairs`) or vertical (`vertical`) alike.
    let pairs = |key: &str, list: &[(u64, u64, f64)]| {
        let mut out = Vec::with_capacity(list.len());
        for (k, &(i, j, xi)) in list.iter().enumerate() {
            let field = format!("tangential_springs.{key}[{k}]");
            let (i, j) = (
                ball(format!("{field}[0]"), i)?,
                ball(format!("{field}[1]"), j)?,
            );
            if i >= j {
                return Err(ScenarioError::field(
                    field,
                    format!("a pair is written lower ball first, i < j (got [{i}, {j}])"),
                ));
            }
            finite(format!("{field}[2]"), xi)?;
            out.push((i, j, xi));
        }
        Ok(out)
    };
    let mut h = ContactHistory {
        pairs: pairs("pairs", &springs.pairs)?,
        vertical: pairs("vertical", &springs.vertical)?,
        ..ContactHistory::default()
    };
    for (k, &(i, axis, xi)) in springs.walls.iter().enumerate() {
        let field = format!("tangential_springs.walls[{k}]");
        let i = ball(format!("{field}[0]"), i)?;
        if axis > 1 {
            return Err(ScenarioError::field(
                format!("{field}[1]"),
                format!("the axis must be 0 (x walls) or 1 (y walls) (got {axis})"),
            ));
        }
        finite(format!("{field}[2]"), xi)?;
        h.walls.push((i, axis as u8, xi));
    }
    for (k, &(i, piece, xi)) in springs.pieces.iter().enumerate() {
        let field = format!("tangential_springs.pieces[{k}]");
        let i = ball(format!("{field}[0]"), i)?;
        if piece >= pieces as u64 {
            return Err(ScenarioError::field(
                format!("{field}[1]"),
                format!("piece {piece} is out of range (the walls have {pieces} pieces)"),
            ));
        }
        finite(format!("{field}[2]"), xi)?;
        h.pieces.push((i, piece as u32, xi));
    }
    if let Some(k) = first_repeat(h.pieces.iter().map(|p| (p.0, p.1))) {
        return Err(ScenarioError::field(
            format!("tangential_springs.pieces[{k}]"),
            "this ball and piece are listed twice",
        ));
    }
    // A contact written twice would have two stretches: refuse rather than pick one.
    if let Some(k) = first_repeat(h.pairs.iter().map(|p| (p.0, p.1))) {
        return Err(ScenarioError::field(
            format!("tangential_springs.pairs[{k}]"),
            "this pair is listed twice",
        ));
    }
    if let Some(k) = first_repeat(h.vertical.iter().map(|p| (p.0, p.1))) {
        return Err(ScenarioError::field(
            format!("tangential_springs.vertical[{k}]"),
            "this pair is listed twice",
        ));
    }
    if let Some(k) = first_repeat(h.walls.iter().map(|w| (w.0, w.1))) {
        return Err(ScenarioError::field(
            format!("tangential_springs.walls[{k}]"),
            "this ball and axis are listed twice",
        ));
    }
    Ok(h)
}

/// The position of the first entry that repeats an earlier one, if any.
fn first_repeat<K: Ord + Copy>(keys: impl Iterator<Item = K>) -> Option<usize> {
    let mut v: Vec<(K, usize)> = keys.enumerate().map(|(k, key)| (key, k)).collect();
    v.sort_unstable();
    // Sorted by key then position: in a run of equal keys the second is a repeat.
    v.windows(2)
        .filter(|w| w[0].0 == w[1].0)
        .map(|w| w[1].1)
        .min()
}

/// A ball's `removed = { time, by }`, checked against the scene's pockets.
fn removal(spec: &RemovedSpec, field: &str, walls: &Walls) -> Result<Removal, ScenarioError> {
    if !spec.time.is_finite() {
        return Err(ScenarioError::field(
            format!("{field}.time"),
            format!("must be finite (got {})", spec.time),
        ));
    }
    let by = Exit::parse(&spec.by).ok_or_else(|| {
        ScenarioError::field(
            format!("{field}.by"),
            format!(
                "must be \"pocket K\", \"left\", \"right\", \"top\" or \"bottom\" (got {:?})",
                spec.by
            ),
        )
    })?;
    if let Exit::Pocket(k) = by {
        if k as usize >= walls.pockets().len() {
            return Err(ScenarioError::field(
                format!("{field}.by"),
                format!(
                    "names pocket {k}, but the scene has {} pocket(s)",
                    walls.pockets().len()
                ),
            ));
        }
    }
    Ok(Removal {
        time: spec.time,
        by,
    })
}
