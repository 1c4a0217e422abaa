//! A shot: the cue strike `speed, aim, english, follow, elevation` (the engine's
//! [`carom::cue::CueSpec`]) on the cue ball of a position, simulated to rest by
//! the `event` model with the event log on, and the facts the rules read from the log:
//! the first ball the cue ball met, the cushion contacts by ball in time order, the
//! balls pocketed with their pockets in time order.

use std::cell::RefCell;

use carom::cue::CueSpec;
use carom::event_log::{EventKind, LoggedEvent};
use serde::{Deserialize, Serialize};

use crate::setups::Setup;

/// The fastest cue speed a shot may ask for, m/s: a break cue reaches 10 to 12 m/s
/// (a 30 ft/s cue ball needs 6 m/s of cue); beyond 15 no player strikes.
pub const MAX_SPEED: f64 = 15.0;
/// The most simulated time a shot may take to come to rest, s: a lag on a 12-ft table
/// at full pace stops well within a minute; beyond this the shot is refused as stuck.
pub const MAX_TIME: f64 = 300.0;

/// The five numbers of a cue strike: the cue's speed (m/s, 0 to [`MAX_SPEED`]), its
/// direction (degrees, from +x towards +y, finite; any turn), the tip's offsets from
/// the centre in radii (`english` to the shooter's right, `follow` up; together within
/// [`carom::cue::MAX_TIP_OFFSET`]) and the cue's elevation (degrees, 0 to below 90).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Shot {
    pub speed: f64,
    pub aim: f64,
    #[serde(default)]
    pub english: f64,
    #[serde(default)]
    pub follow: f64,
    #[serde(default)]
    pub elevation: f64,
}

/// A bad shot number or an impossible position: the field and what is wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct ShotError {
    pub field: String,
    pub message: String,
}

impl std::fmt::Display for ShotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for ShotError {}

impl ShotError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> ShotError {
        ShotError {
            field: field.into(),
            message: message.into(),
        }
    }
}

impl Shot {
    pub fn new(speed: f64, aim: f64) -> Shot {
        Shot {
            speed,
            aim,
            english: 0.0,
            follow: 0.0,
            elevation: 0.0,
        }
    }

    pub fn cue(&self) -> CueSpec {
        CueSpec {
            speed: self.speed,
            aim: self.aim,
            english: self.english,
            follow: self.follow,
            elevation: self.elevation,
        }
    }

    /// Checks the numbers: finite, in the documented ranges.
    pub fn check(&self) -> Result<(), ShotError> {
        carom::cue::check(&self.cue()).map_err(|(k, m)| ShotError::new(k, m))?;
        if self.speed > MAX_SPEED {
            return Err(ShotError::new(
                "speed",
                format!("must be at most {MAX_SPEED} m/s (got {})", self.speed),
            ));
        }
        Ok(())
    }
}

/// What a shot did, in the game's ball numbers.
#[derive(Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct Facts {
    /// The first object ball the cue ball met (none: it met none).
    pub first_contact: Option<u32>,
    /// Every ball-ball contact of the cue ball, in time order: `(time, other ball)`.
    pub cue_contacts: Vec<(f64, u32)>,
    /// Cushion contacts, in time order: `(time, ball)`.
    pub cushions: Vec<(f64, u32)>,
    /// Balls pocketed, in time order: `(time, ball, pocket index)`.
    pub pocketed: Vec<(f64, u32, u32)>,
    /// Where every ball of the position ended, in the position's order; `None` for a
    /// ball that left play.
    pub positions: Vec<(u32, Option<[f64; 2]>)>,
    /// The simulated time until everything rested.
    pub duration: f64,
}

// By hand rather than derived, for `clone_from`: a batch's results copy a shot's
// facts into the lists of the result they overwrite, keeping their capacity.
impl Clone for Facts {
    fn clone(&self) -> Facts {
        Facts {
            first_contact: self.first_contact,
            cue_contacts: self.cue_contacts.clone(),
            cushions: self.cushions.clone(),
            pocketed: self.pocketed.clone(),
            positions: self.positions.clone(),
            duration: self.duration,
        }
    }

    fn clone_from(&mut self, source: &Facts) {
        self.first_contact = source.first_contact;
        self.cue_contacts.clone_from(&source.cue_contacts);
        self.cushions.clone_from(&source.cushions);
        self.pocketed.clone_from(&source.pocketed);
        self.positions.clone_from(&source.positions);
        self.duration = source.duration;
    }
}

impl Facts {
    /// How many cushion contacts ball `n` made.
    pub fn cushions_of(&self, n: u32) -> usize {
        self.cushions.iter().filter(|c| c.1 == n).count()
    }

    /// Whether ball `n` was pocketed.
    pub fn is_pocketed(&self, n: u32) -> bool {
        self.pocketed.iter().any(|p| p.1 == n)
    }

    /// Whether some ball touched a cushion after time `t` (or at it).
    pub fn cushion_after(&self, t: f64) -> bool {
        self.cushions.iter().any(|c| c.0 >= t)
    }

    /// The time of the cue ball's first contact with an object ball.
    pub fn first_contact_time(&self) -> Option<f64> {
        self.cue_contacts.first().map(|c| c.0)
    }
}

/// The whole outcome of a simulated shot: its facts and the engine's event log.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub facts: Facts,
    pub events: Vec<LoggedEvent>,
}

/// Strikes ball `cue` of the position (a number of the game's set) and simulates to
/// rest.
pub fn simulate(setup: &Setup, cue: u32, shot: &Shot) -> Result<Outcome, ShotError> {
    shot.check()?;
    Position::new(setup)?.simulate(cue, shot)
}

/// A position ready to be shot from many times: its world is built once (walls,
/// pockets, the model's grid) and copied for each shot, which then gives the cue ball
/// the strike's velocity and spins, exactly as building the world with the strike in
/// the scenario would (the same numbers to the bit, a tenth of the cost).
///
/// Each shot runs in a world of the position's own that the next shot overwrites in
/// place ([`carom::World::copy_from`]), with the event log's and the facts' lists
/// reused beside it: once a few shots have grown their arrays, a shot allocates only
/// the [`Outcome`] it returns, and nothing when it writes into lists it is given
/// ([`Position::simulate_into`]).
pub struct Position {
    numbers: Vec<u32>,
    world: carom::World,
    /// The storage the shots run in, made by the first shot.
    shooting: RefCell<Option<Shooting>>,
}

/// What a shot works in: the position's world copied for it, the event log's rows and
/// the facts of the shot, each kept for the next shot with its capacity.
struct Shooting {
    world: carom::World,
    events: Vec<LoggedEvent>,
    facts: Facts,
}

fn build_error(e: carom::ScenarioError) -> ShotError {
    ShotError::new(
        e.field.unwrap_or_else(|| "position".into()),
        carom::load::one_line(&e.message),
    )
}

impl Position {
    /// The world of `setup`'s position, every ball at rest, the event log on.
    pub fn new(setup: &Setup) -> Result<Position, ShotError> {
        let mut world = carom::parse::build_world(&setup.scenario()).map_err(build_error)?;
        world.set_event_log(true);
        // The grid and the cushions' and pockets' cell lists, once for every copy.
        world.warm();
        Ok(Position {
            numbers: setup.balls.iter().map(|b| b.0).collect(),
            world,
            shooting: RefCell::new(None),
        })
    }

    /// A copy (for another thread: a world is not shared between threads).
    pub fn try_clone(&self) -> Option<Position> {
        Some(Position {
            numbers: self.numbers.clone(),
            world: self.world.try_clone()?,
            shooting: RefCell::new(None),
        })
    }

    /// Makes this position a copy of `source` in place, keeping the storage of its
    /// world and of its shots where the sizes allow; `false` (this position then
    /// unusable) when the world would not copy.
    pub fn copy_from(&mut self, source: &Position) -> bool {
        self.numbers.clone_from(&source.numbers);
        self.world.copy_from(&source.world)
    }

    /// Strikes ball `cue` (a number of the game's set) and simulates to rest.
    pub fn simulate(&self, cue: u32, shot: &Shot) -> Result<Outcome, ShotError> {
        // The outcome's own lists, each allocated once at its final length.
        self.shoot(cue, shot, |facts, events| Outcome {
            facts: facts.clone(),
            events: events.clone(),
        })
    }

    /// [`Position::simulate`] with the outcome written into `facts` and `events`,
    /// whose lists keep their capacity: once they have held a shot as long, the shot
    /// allocates nothing. On an error they are left as they were.
    pub fn simulate_into(
        &self,
        cue: u32,
        shot: &Shot,
        facts: &mut Facts,
        events: &mut Vec<LoggedEvent>,
    ) -> Result<(), ShotError> {
        self.shoot(cue, shot, |f, e| {
            facts.clone_from(f);
            events.clone_from(e);
        })
    }

    /// Strikes ball `cue`, simulates to rest and hands the shot's facts and event
    /// log, in the position's own storage, to `take`.
    fn shoot<T>(
        &self,
        cue: u32,
        shot: &Shot,
        take: impl FnOnce(&Facts, &Vec<LoggedEvent>) -> T,
    ) -> Result<T, ShotError> {
        shot.check()?;
        let Some(i) = self.numbers.iter().position(|&n| n == cue) else {
            return Err(ShotError::new(
                "cue",
                format!("ball {cue} is not on the table"),
            ));
        };
        // A shot never begins inside another on the same position, so the storage is
        // free; the first shot (or one after a world that would not copy) makes it.
        let mut shooting = self.shooting.borrow_mut();
        if !shooting
            .as_mut()
            .is_some_and(|t| t.world.copy_from(&self.world))
        {
            let world = self.world.try_clone().ok_or_else(|| {
                ShotError::new("shot", "the event model's world cannot be copied")
            })?;
            *shooting = Some(Shooting {
                world,
                events: Vec::with_capacity(EVENTS_AT_ONCE),
                facts: Facts::default(),
            });
        }
        let Some(Shooting {
            world,
            events,
            facts: shot_facts,
        }) = shooting.as_mut()
        else {
            unreachable!("the shot's storage is made above");
        };
        let b = world.balls();
        let s = carom::cue::strike(&shot.cue(), b.m[i], b.r[i], b.inertia[i]);
        if !s.v.iter().chain(&s.w).all(|c| c.is_finite()) {
            return Err(ShotError::new(
                "speed",
                format!(
                    "gives the cue ball a velocity or spin beyond floating point (got {:e})",
                    shot.speed
                ),
            ));
        }
        let b = world.balls_mut();
        (b.vx[i], b.vy[i]) = (s.v[0], s.v[1]);
        (b.wx[i], b.wy[i], b.omega[i]) = (s.w[0], s.w[1], s.w[2]);
        world.restart_window();
        events.clear();
        run_to_rest_into(world, events)?;
        facts_into(&self.numbers, i, world, events, shot_facts);
        Ok(take(shot_facts, events))
    }
}

/// Runs `world` an output interval at a time until every ball in play has stopped
/// moving (looked at after each interval, without reading the balls: a read would
/// make the event model restart its predictions, which is most of a shot's cost), then
/// brings the balls to that time; returns the event log's rows of the run. The balls
/// follow the course of a run that nobody sampled, as `carom run` without output does.
pub fn run_to_rest(world: &mut carom::World) -> Result<Vec<LoggedEvent>, ShotError> {
    // Room for a typical shot's rows at once (a mid-game shot logs a few dozen), not
    // grown a row at a time.
    let mut events = Vec::with_capacity(EVENTS_AT_ONCE);
    run_to_rest_into(world, &mut events)?;
    Ok(events)
}

/// [`run_to_rest`], appending the event log's rows to `events`.
pub fn run_to_rest_into(
    world: &mut carom::World,
    events: &mut Vec<LoggedEvent>,
) -> Result<(), ShotError> {
    loop {
        world
            .run_steps_unread(1)
            .map_err(|e| ShotError::new("shot", carom::load::one_line(&e.to_string())))?;
        world.take_events(events);
        if world.motion_ended() {
            break;
        }
        if world.time > MAX_TIME {
            world.synchronise();
            return Err(ShotError::new(
                "shot",
                format!("the balls still move after {MAX_TIME} s"),
            ));
        }
    }
    world.synchronise();
    Ok(())
}

/// The event log rows [`run_to_rest`] makes room for at first.
const EVENTS_AT_ONCE: usize = 64;

/// Whether every ball in play has stopped moving across the cloth (a ball may still
/// spin on the spot: it moves no more).
pub fn at_rest(world: &carom::World) -> bool {
    let b = world.balls();
    (0..b.len()).all(|i| {
        !world.is_in_play(i)
            || (b.vx[i] == 0.0 && b.vy[i] == 0.0 && b.wx[i] == 0.0 && b.wy[i] == 0.0)
    })
}

/// The facts of a log, in the position's numbers.
pub fn facts(
    numbers: &[u32],
    cue_index: usize,
    world: &carom::World,
    events: &[LoggedEvent],
) -> Facts {
    let mut f = Facts::default();
    facts_into(numbers, cue_index, world, events, &mut f);
    f
}

/// [`facts`] written into `f`, whose lists are cleared and keep their capacity.
pub fn facts_into(
    numbers: &[u32],
    cue_index: usize,
    world: &carom::World,
    events: &[LoggedEvent],
    f: &mut Facts,
) {
    let num = |i: u32| numbers[i as usize];
    f.first_contact = None;
    f.cue_contacts.clear();
    f.cushions.clear();
    f.pocketed.clear();
    f.duration = world.time;
    for e in events {
        match e.kind {
            EventKind::BallBall => {
                let j = e.j.unwrap_or(e.i);
                let other = if e.i as usize == cue_index {
                    Some(j)
                } else if j as usize == cue_index {
                    Some(e.i)
                } else {
                    None
                };
                if let Some(o) = other {
                    f.cue_contacts.push((e.time, num(o)));
                    f.first_contact.get_or_insert(num(o));
                }
            }
            EventKind::Wall => f.cushions.push((e.time, num(e.i))),
            EventKind::Pocket => f.pocketed.push((e.time, num(e.i), e.pocket.unwrap_or(0))),
            _ => {}
        }
    }
    let b = world.balls();
    f.positions.clear();
    f.positions.extend(
        (0..b.len()).map(|i| (num(i as u32), world.is_in_play(i).then(|| [b.x[i], b.y[i]]))),
    );
}
