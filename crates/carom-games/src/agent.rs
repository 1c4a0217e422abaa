//! A search player: it chooses each shot by simulating candidates with the engine.
//!
//! For a pool or snooker position it lists the pairs (ball, pocket) it could pot
//! (the balls the rules let the cue ball meet first, each into every pocket whose
//! path is clear), ranks them by a geometric ease (the cut angle and the distances,
//! [`ease`]) and, for the best few, sweeps the aim around the ghost-ball line with the
//! engine in the loop ([`crate::batch::play_shots`]): first at one speed to find where
//! the ball drops (throw, swerve and the cushions' real rebound are in the
//! simulation), then across that window at five speeds and five heights of the tip,
//! and with side spin either way at the middle speeds. Each (pair, speed, spin)
//! keeps the middle of its widest run of aims that pot and keep the turn, and is
//! scored on that run's width (room for error) and on the position it leaves: the
//! chance of the best next pot from where the cue ball stopped under the agent's own
//! aim error ([`pot_chance`]). With ball in hand it first places the cue ball on
//! straight-in and cut lines behind the balls it may pot (legal spots clear of the
//! balls).
//! When nothing pots it plays safe: a legal hit (no foul) that leaves the opponent
//! the hardest next pot. Carom games (three-cushion, sum-to-three) are searched on a
//! grid of aims, speeds and side spins for the widest run of aims that score.
//!
//! Execution noise ([`Noise`]) is added to the chosen shot: normal errors of the
//! given standard deviations, drawn from the agent's seed, so that the same seed
//! plays the same shots.

use carom::SplitMix64;

use crate::aim::{widest_run, Route};
use crate::batch::play_shots;
use crate::candidates::{self, call_for};
use crate::game::{Game, ShotResult};
use crate::paths::{self, blocks};
use crate::rules::{self, Call, Choice, Placement};
use crate::setups::{snooker_value, GameKind};
use crate::shot::{Shot, MAX_SPEED};

mod geometry;
mod play;
mod safety;
mod sampling;
mod search;

use geometry::*;
use sampling::*;
use search::*;

pub use geometry::{best_chance, best_ease, ease, pot_chance};
pub use play::{play_game, run_rack, Match, Played, Rack, MAX_INNING};

/// Standard deviations of the errors added to a chosen shot: `aim` in degrees,
/// `speed` relative (0.05: 5 % of the speed), `english` and `follow` in ball radii.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Noise {
    pub aim: f64,
    pub speed: f64,
    pub english: f64,
    pub follow: f64,
}

impl Noise {
    /// A strong amateur: 0.25 degrees of aim (about 4 mm of error at the end of a
    /// 1 m shot), 5 % of speed, 0.05 radii of tip offset.
    pub const AMATEUR: Noise = Noise {
        aim: 0.25,
        speed: 0.05,
        english: 0.05,
        follow: 0.05,
    };
    /// A professional: 0.1 degrees of aim, 2 % of speed, 0.02 radii of tip offset.
    pub const PRO: Noise = Noise {
        aim: 0.1,
        speed: 0.02,
        english: 0.02,
        follow: 0.02,
    };

    /// Checks the deviations: finite and not negative.
    pub fn check(&self) -> Result<(), String> {
        for (name, v) in [
            ("aim", self.aim),
            ("speed", self.speed),
            ("english", self.english),
            ("follow", self.follow),
        ] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(format!(
                    "noise.{name}: must be a finite standard deviation of at least 0 (got {v})"
                ));
            }
        }
        Ok(())
    }
}

/// What a decision sets out to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Intent {
    /// The break.
    Break,
    /// A direct pot.
    Pot,
    /// A bank, a kick or a combination ([`crate::candidates`]).
    Route,
    /// A safety: no pot was worth playing.
    Safety,
    /// Nine- and ten-ball's push-out.
    PushOut,
    /// A carom game's point.
    Point,
}

impl Intent {
    pub const ALL: [Intent; 6] = [
        Intent::Break,
        Intent::Pot,
        Intent::Route,
        Intent::Safety,
        Intent::PushOut,
        Intent::Point,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Intent::Break => "break",
            Intent::Pot => "pot",
            Intent::Route => "route",
            Intent::Safety => "safety",
            Intent::PushOut => "push-out",
            Intent::Point => "point",
        }
    }
}

/// What the agent decided: where to put the cue ball first (with ball in hand), the
/// shot, and the call the rules need; what it means to do and how likely it judged
/// that.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Decision {
    /// A choice taken before the shot: a push-out; `None` takes the table as it lies
    /// where the rules offer a choice.
    pub choice: Option<Choice>,
    pub place: Option<[f64; 2]>,
    pub shot: Shot,
    pub call: Option<Call>,
    pub intent: Intent,
    /// The player's own estimate, from its sampled executions: for a pot, a route or
    /// a carom point the chance that the shot keeps the turn (or scores); for a
    /// safety the chance it leaves the opponent; `None` where it judged none (the
    /// break, the push-out, the baseline's one-ply safety).
    pub estimate: Option<f64>,
}

impl Decision {
    /// Plays the decision on `game`: takes its choice (a push-out), or else the
    /// table as it lies where the rules offer a choice, places the cue ball, then
    /// shoots.
    pub fn play(&self, game: &mut Game) -> Result<ShotResult, String> {
        if let Some(c) = self.choice {
            game.choose(c)?;
        } else if game.options().contains(&Choice::Accept) {
            game.choose(Choice::Accept)?;
        }
        if let Some([x, y]) = self.place {
            game.place_cue_ball(x, y)?;
        }
        game.shoot(&self.shot, self.call)
    }
}

/// The search player.
#[derive(Debug, Clone)]
pub struct Agent {
    noise: Option<Noise>,
    /// The state of the noise's generator (SplitMix64).
    rng: u64,
    /// Shots simulated so far (all decisions).
    pub simulated: u64,
    /// Only direct pots (no banks, kicks or combinations), the best whatever its
    /// chance, and the one-ply safety when none pots: the baseline the full player is
    /// measured against.
    pub direct_only: bool,
}

/// The break: the cue ball on the head spot, full on the apex ball at this cue speed.
pub const BREAK_SPEED: f64 = 8.0;
/// First sweep: aims this far apart (degrees), either side of the ghost-ball line.
const COARSE_STEP: f64 = 0.3;
const COARSE_HALF: i32 = 8;
/// Second sweep, around the first's window, at every speed and spin.
const FINE_STEP: f64 = 0.2;
const FINE_HALF: i32 = 6;
/// The speed of the first sweep (m/s).
const SWEEP_SPEED: f64 = 2.6;
/// The cue speeds (m/s) and heights of the tip (ball radii: draw below, follow above)
/// the second sweep tries, every pair of them, for where they send the cue ball.
const SPEEDS: [f64; 5] = [1.2, 1.8, 2.6, 3.6, 4.8];
const FOLLOWS: [f64; 5] = [-0.6, -0.3, 0.0, 0.3, 0.6];
/// Side spin (ball radii, either side) the second sweep adds at the middle speeds.
const ENGLISH: f64 = 0.3;

/// The strokes of the second sweep, (speed, english, follow): every speed with every
/// height of the tip, centre-ball in line, and side spin either way at the middle
/// three speeds (centre, follow and draw) for a path off the cushions.
fn strokes() -> impl Iterator<Item = (f64, f64, f64)> {
    let plain = SPEEDS
        .into_iter()
        .flat_map(|v| FOLLOWS.into_iter().map(move |f| (v, 0.0, f)));
    let side = SPEEDS[1..4].iter().flat_map(|&v| {
        [-ENGLISH, ENGLISH]
            .into_iter()
            .flat_map(move |e| [-0.3, 0.0, 0.3].into_iter().map(move |f| (v, e, f)))
    });
    plain.chain(side)
}
/// The pairs (ball, pocket) swept from one position, the best by ease.
const PAIRS: usize = 3;
/// Spots tried for the cue ball in hand.
const SPOTS: usize = 8;
/// The width of a potting window (degrees) that makes a shot "safe enough": the score
/// weighs a window `w` by `1 - exp(-w / WINDOW_SCALE)`.
const WINDOW_SCALE: f64 = 0.6;
/// Cuts beyond this (degrees) are not tried.
const MAX_CUT: f64 = 78.0;
/// Executions sampled per candidate under the agent's noise (one, the shot itself,
/// without noise).
pub const SAMPLES: usize = 48;
/// The best candidates of a search that are scored over sampled executions: of one
/// pair's sweep, and of the cushion routes and combinations; [`WIDE_EVALUATED`] when
/// the aim's error reaches [`WIDE_AIM`] degrees, since the larger the error the less
/// the noiseless window ranks the shots that survive it (nine-ball at `amateur`: 24 %
/// +- 3 % of racks run out with 8, 28 % +- 3 % with 20, at 30 % more CPU).
const EVALUATED: usize = 8;
const WIDE_EVALUATED: usize = 20;
const WIDE_AIM: f64 = 0.2;
/// The executions every scored candidate is played over first; the [`KEPT`] best
/// are then played over the rest of the [`SAMPLES`].
const FIRST_SAMPLES: usize = 16;
const KEPT: usize = 3;
/// Safety candidates played over sampled executions, over how many executions, and
/// the opponent's chance below which a safety ends the search.
const SAFETIES: usize = 8;
const SAFETY_SAMPLES: usize = 16;
const SAFE_ENOUGH: f64 = 0.05;
/// The soft stroke of the safety candidates (m/s): a touch that leaves the cue ball
/// near the ball it meets.
const SOFT_SAFETY: f64 = 0.7;
/// The best candidates of the carom games' grid scored over sampled executions.
const CAROM_EVALUATED: usize = 20;
/// A pot this likely to keep the turn, with a next pot about this likely after it
/// (its value, [`Agent::evaluate`]), ends the search over the pairs (ball, pocket):
/// the next pair, less easy by the geometry, seldom beats it.
const GOOD_CHANCE: f64 = 0.9;
const GOOD_VALUE: f64 = 0.6;
/// Cushion routes and combinations solved when no direct pot is likely enough.
const ROUTES: usize = 4;
/// A pot whose chance (the fraction of sampled executions that keep the turn) is
/// below this gives way to a safety.
pub const THRESHOLD: f64 = 0.35;
/// The part of a pot's value that does not depend on the next position: a pot that
/// keeps the turn is worth `NEXT_FLOOR + (1 - NEXT_FLOOR) p`, `p` the chance of the
/// best next pot.
const NEXT_FLOOR: f64 = 0.0;
/// The opponent's chance after a foul of ours (ball in hand).
const IN_HAND_CHANCE: f64 = 0.9;
/// The aim error (degrees) the opponent's chance is judged with when the agent has
/// no noise of its own.
const JUDGED_AIM: f64 = 0.1;
/// The length over which a shot's difficulty doubles, roughly (metres): ease falls as
/// `exp(-(d1 + d2) / EASE_LENGTH)`.
const EASE_LENGTH: f64 = 2.0;

impl Agent {
    /// A player with optional execution noise, its draws from `seed`.
    pub fn new(noise: Option<Noise>, seed: u64) -> Agent {
        Agent {
            noise,
            rng: seed,
            simulated: 0,
            direct_only: false,
        }
    }

    /// The baseline player: direct pots only (see [`Agent::direct_only`]).
    pub fn direct(noise: Option<Noise>, seed: u64) -> Agent {
        Agent {
            direct_only: true,
            ..Agent::new(noise, seed)
        }
    }

    pub fn noise(&self) -> Option<Noise> {
        self.noise
    }

    /// The decision for the player to shoot in `game` (the noise already added to the
    /// shot). A game that is over gets a slow shot at the first object ball, which
    /// `shoot` then refuses as it refuses any shot of a finished game.
    pub fn choose(&mut self, game: &Game) -> Decision {
        let mut d = self.plan(game);
        if let Some(n) = self.noise {
            d.shot = self.perturb(d.shot, n);
        }
        d
    }

    /// The decision without noise.
    pub fn plan(&mut self, game: &Game) -> Decision {
        let kind = game.kind();
        if matches!(kind, GameKind::ThreeCushion | GameKind::SumToThree) {
            return self.carom(game);
        }
        if game.state.shots == 0 && kind.is_pool() {
            return self.break_shot(game);
        }
        if game.state.ball_in_hand.is_some() {
            return self.in_hand(game);
        }
        self.pot_or_safety(game)
    }

    /// From the cue ball where it lies: the best pot, direct or (when no direct pot is
    /// likely enough) by a cushion route or combination; when no pot's chance reaches
    /// [`THRESHOLD`], the push-out where the rules offer one, else the safety that
    /// leaves the opponent the least chance (the pot after all when that chance is
    /// higher than the pot's).
    fn pot_or_safety(&mut self, game: &Game) -> Decision {
        let shoot = |c: Cand| Decision {
            choice: None,
            place: None,
            shot: c.shot,
            call: c.call,
            intent: c.intent,
            estimate: Some(c.chance),
        };
        let mut best = self.pot(game, None);
        if self.direct_only {
            if let Some(c) = best {
                return shoot(c);
            }
            let (shot, call) = self.safety_one_ply(game);
            return Decision {
                choice: None,
                place: None,
                shot,
                call,
                intent: Intent::Safety,
                estimate: None,
            };
        }
        if best.is_none_or(|c| c.chance < THRESHOLD) {
            if let Some(r) = self.routes(game) {
                if best.is_none_or(|b| r.score > b.score) {
                    best = Some(r);
                }
            }
        }
        if let Some(c) = best.filter(|c| c.chance >= THRESHOLD) {
            return shoot(c);
        }
        if game.options().contains(&Choice::PushOut) {
            return self.push_out(game);
        }
        let (shot, call, theirs) = self.safety(game);
        match best {
            Some(c) if c.chance > theirs => shoot(c),
            _ => Decision {
                choice: None,
                place: None,
                shot,
                call,
                intent: Intent::Safety,
                estimate: Some(theirs),
            },
        }
    }

    /// The answer to the choices the rules offer before the player's shot, by the
    /// estimated chances ([`Agent::option_chance`]). The choices that leave the player
    /// to shoot (accepting the table, the free ball, re-racking to break) are weighed
    /// by the player's chance, the best taken when it reaches [`THRESHOLD`] (a pot
    /// worth playing); the free ball, the same table with more balls on, only when it
    /// is better than the ball on. Below that, the choice that hands the table back
    /// (passing back, the balls replaced, the offender to re-break) leaving the
    /// opponent the least chance is taken when that chance is no higher than the
    /// player's own, so that a snooker or a poor table goes back to the one who left
    /// it (on a tie the balls replaced, which puts the offender back where the miss
    /// was made). `None` when nothing is offered or only a push-out (which [`Agent::choose`]
    /// decides).
    pub fn respond(&mut self, game: &Game) -> Option<Choice> {
        let options: Vec<Choice> = game
            .options()
            .into_iter()
            .filter(|&c| c != Choice::PushOut)
            .collect();
        let mut shoot: Option<(Choice, f64)> = None;
        let mut back: Option<(Choice, f64)> = None;
        for c in options {
            let Some((mine, p)) = self.option_chance(game, c) else {
                continue;
            };
            if mine {
                if shoot.is_none_or(|s| p > s.1) {
                    shoot = Some((c, p));
                }
            } else if back.is_none_or(|b| p < b.1 || (p == b.1 && c == Choice::Replace)) {
                back = Some((c, p));
            }
        }
        match (shoot, back) {
            (Some(s), Some(b)) if s.1 < THRESHOLD && b.1 <= s.1 => Some(b.0),
            (Some(s), _) => Some(s.0),
            (None, b) => b.map(|b| b.0),
        }
    }

    /// Who shoots after a choice on offer and with what chance: `(true, p)` when it
    /// is the player to move, `p` its chance there ([`Agent::chance`]; after a
    /// re-rack the chance that its break keeps the turn, [`Agent::break_chance`]);
    /// `(false, q)` when it is the opponent, `q` judged the same way with the player's
    /// own noise. `None` for a choice the game refuses.
    pub fn option_chance(&mut self, game: &Game, choice: Choice) -> Option<(bool, f64)> {
        let me = game.state.player;
        let mut g = game.clone();
        g.choose(choice).ok()?;
        let p = if g.state.shots == 0 && g.kind().is_pool() {
            self.break_chance(&g)
        } else {
            self.chance(&g)
        };
        Some((g.state.player == me, p))
    }

    /// The chance that the player's break ([`Agent::plan`]'s break) keeps the turn
    /// in `game` (a rack not yet broken), over the first `FIRST_SAMPLES` sampled
    /// executions of the player's noise.
    pub fn break_chance(&mut self, game: &Game) -> f64 {
        let d = self.break_shot(game);
        let mut g = game.clone();
        if let Some([x, y]) = d.place {
            if g.place_cue_ball(x, y).is_err() {
                return 0.0;
            }
        }
        let mut draws = self.draws();
        draws.truncate(FIRST_SAMPLES);
        let n = self.execution_noise();
        let tries: Vec<(Shot, Option<Call>)> = draws
            .iter()
            .map(|&z| (with_errors(d.shot, n, z), d.call))
            .collect();
        let me = g.state.player;
        let out = self.run(&g, &tries);
        let kept = out
            .iter()
            .filter(|o| o.as_ref().is_some_and(|(_, r)| keeps_turn(r, me)))
            .count();
        kept as f64 / out.len().max(1) as f64
    }
}

/// A spot for the cue ball in hand: where, the pair (ball, pocket) it is for, and
/// its chance.
type Spot = ([f64; 2], (u32, usize), f64);
