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

use crate::aim::Route;
use crate::batch::play_shots;
use crate::candidates;
use crate::game::{Game, ShotResult};
use crate::paths;
use crate::rules::{self, Call, Choice, Placement};
use crate::setups::{snooker_value, GameKind};
use crate::shot::{Shot, MAX_SPEED};

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

/// What the agent decided: where to put the cue ball first (with ball in hand), the
/// shot, and the call the rules need.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Decision {
    /// A choice taken before the shot: a push-out; `None` takes the table as it lies
    /// where the rules offer a choice.
    pub choice: Option<Choice>,
    pub place: Option<[f64; 2]>,
    pub shot: Shot,
    pub call: Option<Call>,
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
    /// in `game` (a rack not yet broken), over the first [`FIRST_SAMPLES`] sampled
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
        let n = self.noise.unwrap_or(Noise {
            aim: 0.0,
            speed: 0.0,
            english: 0.0,
            follow: 0.0,
        });
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

    /// Adds the noise to a shot, kept in the shot's valid ranges.
    pub fn perturb(&mut self, shot: Shot, n: Noise) -> Shot {
        let z = [self.normal(), self.normal(), self.normal(), self.normal()];
        with_errors(shot, n, z)
    }

    /// The standard normal errors of the executions each candidate of one decision is
    /// scored over: the same draws for every candidate (so that candidates differ by
    /// their shots, not their luck), from the agent's state without advancing the
    /// noise it plays with. One set of zeros without noise.
    fn draws(&self) -> Vec<[f64; 4]> {
        if self.noise.is_none() {
            return vec![[0.0; 4]];
        }
        let mut g = SplitMix64(self.rng ^ 0x5DEE_CE66_D1CE_4E5B);
        let mut normal = || {
            let u1 = 1.0 - g.unit();
            let u2 = g.unit();
            (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
        };
        (0..SAMPLES)
            .map(|_| [normal(), normal(), normal(), normal()])
            .collect()
    }

    /// Each candidate scored over the executions `draws` (standard normal errors of
    /// the agent's noise): the chance (the fraction that keep the turn) and the value, the mean over executions of
    /// `(0.4 + 0.6 e) w` for those that keep the turn, `e` the ease of the next pot
    /// from where the balls stopped (1 for a win) and `w` the pot's worth
    /// ([`worth`]).
    fn evaluate(
        &mut self,
        game: &Game,
        cands: &[(Shot, Option<Call>)],
        draws: &[[f64; 4]],
    ) -> Vec<(f64, f64)> {
        let n = self.noise.unwrap_or(Noise {
            aim: 0.0,
            speed: 0.0,
            english: 0.0,
            follow: 0.0,
        });
        let shots: Vec<(Shot, Option<Call>)> = cands
            .iter()
            .flat_map(|&(shot, call)| draws.iter().map(move |&z| (with_errors(shot, n, z), call)))
            .collect();
        let out = self.run(game, &shots);
        let me = game.state.player;
        let sigma = self.judged_aim();
        out.chunks(draws.len())
            .map(|chunk| {
                let mut kept = 0.0;
                let mut value = 0.0;
                for (after, r) in chunk.iter().flatten() {
                    if keeps_turn(r, me) {
                        kept += 1.0;
                        let next = if r.game_over {
                            1.0
                        } else {
                            best_chance(after, sigma)
                        };
                        value += (NEXT_FLOOR + (1.0 - NEXT_FLOOR) * next) * worth(game, r);
                    }
                }
                let k = chunk.len() as f64;
                (kept / k, value / k)
            })
            .collect()
    }

    /// The player to shoot's chance from `game` as it lies, judged quickly: the
    /// widest window of aims (one speed, no spin) that pots the easiest ball the
    /// rules allow and keeps the turn, as the chance that a normal aim error (the
    /// agent's, or [`JUDGED_AIM`]) stays inside it. With ball in hand, or the game
    /// over, the chance of [`IN_HAND_CHANCE`] or 0.
    pub fn chance(&mut self, game: &Game) -> f64 {
        if game.state.over {
            return 0.0;
        }
        if game.state.ball_in_hand.is_some() {
            return IN_HAND_CHANCE;
        }
        let Some((t, p, _)) = ranked_pairs(game).into_iter().next() else {
            return 0.0;
        };
        let Some(a0) = ghost_aim(game, t, p) else {
            return 0.0;
        };
        let shots: Vec<(Shot, Option<Call>)> = (-COARSE_HALF..=COARSE_HALF)
            .map(|k| {
                let shot = Shot::new(SWEEP_SPEED, a0 + k as f64 * COARSE_STEP);
                (shot, call_for(game, t, p))
            })
            .collect();
        let me = game.state.player;
        let ok: Vec<bool> = self
            .run(game, &shots)
            .iter()
            .map(|r| r.as_ref().is_some_and(|(_, r)| keeps_turn(r, me)))
            .collect();
        let Some((s, e)) = widest_run(&ok) else {
            return 0.0;
        };
        let w = (e - s + 1) as f64 * COARSE_STEP;
        let sigma = self.noise.map_or(JUDGED_AIM, |n| n.aim).max(1e-6);
        erf(0.5 * w / (std::f64::consts::SQRT_2 * sigma))
    }

    /// The aim error (degrees) positions are judged with: the agent's own, or
    /// [`JUDGED_AIM`] without noise.
    fn judged_aim(&self) -> f64 {
        self.noise.map_or(JUDGED_AIM, |n| n.aim)
    }

    /// A standard normal draw (Box-Muller).
    fn normal(&mut self) -> f64 {
        let mut g = SplitMix64(self.rng);
        let u1 = 1.0 - g.unit();
        let u2 = g.unit();
        self.rng = g.0;
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }

    fn run(
        &mut self,
        game: &Game,
        shots: &[(Shot, Option<Call>)],
    ) -> Vec<Option<(Game, ShotResult)>> {
        self.simulated += shots.len() as u64;
        play_shots(game, shots)
            .into_iter()
            .map(|r| r.ok())
            .collect()
    }

    fn break_shot(&mut self, game: &Game) -> Decision {
        let mut g = game.clone();
        let head = game.table.head_spot();
        let place = if g.state.ball_in_hand.is_some() && g.place_cue_ball(head[0], head[1]).is_ok()
        {
            Some(head)
        } else {
            None
        };
        // Full on the ball nearest the foot spot (the apex).
        let foot = game.table.foot_spot();
        let apex = g
            .balls
            .iter()
            .filter(|b| b.0 != 0)
            .min_by(|a, b| dist(a.1, foot).total_cmp(&dist(b.1, foot)))
            .map(|b| b.1)
            .unwrap_or(foot);
        let c = cue_position(&g).unwrap_or(head);
        Decision {
            choice: None,
            place,
            shot: Shot::new(BREAK_SPEED, degrees(c, apex)),
            call: None,
        }
    }

    /// Ball in hand: the best shot from a few straight-in spots, the best first, a
    /// spot whose pot is good enough ending the search (and from where the cue ball
    /// lies now, if no spot is legal).
    fn in_hand(&mut self, game: &Game) -> Decision {
        let mut best: Option<(Cand, Option<[f64; 2]>)> = None;
        for (spot, pair) in spots(game, self.judged_aim()).into_iter().take(SPOTS) {
            let mut g = game.clone();
            if g.place_cue_ball(spot[0], spot[1]).is_err() {
                continue;
            }
            if let Some(c) = self.pot(&g, Some(pair)) {
                if best.as_ref().is_none_or(|b| c.score > b.0.score) {
                    best = Some((c, Some(spot)));
                }
            }
            if best
                .as_ref()
                .is_some_and(|b| b.0.chance >= GOOD_CHANCE && b.0.score >= GOOD_VALUE)
            {
                break;
            }
        }
        if let Some((c, place)) = best.filter(|b| self.direct_only || b.0.chance >= THRESHOLD) {
            return Decision {
                choice: None,
                place,
                shot: c.shot,
                call: c.call,
            };
        }
        self.pot_or_safety(game)
    }

    /// The best potting shot from the position as it is (the cue ball where it lies),
    /// over the given pair or the best few by ease; `None` when none pots.
    fn pot(&mut self, game: &Game, only: Option<(u32, usize)>) -> Option<Cand> {
        let pairs: Vec<(u32, usize, f64)> = match only {
            Some((t, p)) => vec![(t, p, ghost_aim(game, t, p)?)],
            None => ranked_pairs(game)
                .into_iter()
                .take(PAIRS)
                .filter_map(|(t, p, _)| Some((t, p, ghost_aim(game, t, p)?)))
                .collect(),
        };
        if pairs.is_empty() {
            return None;
        }
        // First sweep: one speed, no spin, around the ghost-ball line.
        let mut shots = Vec::new();
        for &(t, p, a0) in &pairs {
            for k in -COARSE_HALF..=COARSE_HALF {
                let shot = Shot::new(SWEEP_SPEED, a0 + k as f64 * COARSE_STEP);
                shots.push((shot, call_for(game, t, p)));
            }
        }
        let out = self.run(game, &shots);
        let per = (2 * COARSE_HALF + 1) as usize;
        let me = game.state.player;
        let mut centres = Vec::new();
        for (k, &(t, p, _)) in pairs.iter().enumerate() {
            let ok: Vec<bool> = out[k * per..(k + 1) * per]
                .iter()
                .map(|r| r.as_ref().is_some_and(|(_, r)| keeps_turn(r, me)))
                .collect();
            if let Some((s, e)) = widest_run(&ok) {
                let mid = 0.5 * (s + e) as f64;
                centres.push((t, p, shots[k * per].0.aim + mid * COARSE_STEP));
            }
        }
        if centres.is_empty() {
            return None;
        }
        // Second sweep, a pair at a time, the easiest first: every speed and spin
        // across the window found, the best strokes scored over sampled executions;
        // a pot good enough ends the search.
        let per = (2 * FINE_HALF + 1) as usize;
        let sigma = self.judged_aim();
        let mut best: Option<Cand> = None;
        for &(t, p, c) in &centres {
            let mut shots = Vec::new();
            for (speed, english, follow) in strokes() {
                for k in -FINE_HALF..=FINE_HALF {
                    let shot = Shot {
                        speed,
                        aim: c + k as f64 * FINE_STEP,
                        english,
                        follow,
                        elevation: 0.0,
                    };
                    shots.push((shot, call_for(game, t, p)));
                }
            }
            let out = self.run(game, &shots);
            let mut found: Vec<Cand> = Vec::new();
            for (k, chunk) in out.chunks(per).enumerate() {
                let ok: Vec<bool> = chunk
                    .iter()
                    .map(|r| r.as_ref().is_some_and(|(_, r)| keeps_turn(r, me)))
                    .collect();
                let Some((s, e)) = widest_run(&ok) else {
                    continue;
                };
                let m = (s + e) / 2;
                let Some((after, r)) = &chunk[m] else {
                    continue;
                };
                let width = (e - s + 1) as f64 * FINE_STEP;
                let next = if r.game_over {
                    1.0
                } else {
                    best_chance(after, sigma)
                };
                let score = (1.0 - (-width / WINDOW_SCALE).exp())
                    * (NEXT_FLOOR + (1.0 - NEXT_FLOOR) * next);
                let (shot, call) = shots[k * per + m];
                found.push(Cand {
                    shot,
                    call,
                    score,
                    chance: 1.0,
                });
            }
            if let Some(c) = self.best_sampled(game, found, self.evaluated()) {
                if best.is_none_or(|b| c.score > b.score) {
                    best = Some(c);
                }
            }
            if best.is_some_and(|b| b.chance >= GOOD_CHANCE && b.score >= GOOD_VALUE) {
                break;
            }
        }
        best
    }

    /// The best of some candidates scored by sampled executions ([`Agent::evaluate`]),
    /// in two stages: the `evaluated` best by their noiseless score are played over
    /// the first [`FIRST_SAMPLES`] draws, and the [`KEPT`] best of those over the
    /// rest as well; the highest value over all its executions wins (its chance kept
    /// with it). A candidate that loses the first stage is one whose value over 16
    /// executions trails the kept ones': the later draws rarely turn that order, and
    /// skipping them saves two thirds of the sampling.
    fn best_sampled(
        &mut self,
        game: &Game,
        mut found: Vec<Cand>,
        evaluated: usize,
    ) -> Option<Cand> {
        found.sort_by(|a, b| b.score.total_cmp(&a.score));
        found.truncate(evaluated);
        let draws = self.draws();
        let (first, rest) = draws.split_at(FIRST_SAMPLES.min(draws.len()));
        let shots: Vec<(Shot, Option<Call>)> = found.iter().map(|c| (c.shot, c.call)).collect();
        let scored = self.evaluate(game, &shots, first);
        let mut found: Vec<Cand> = found
            .into_iter()
            .zip(scored)
            .map(|(c, (chance, value))| Cand {
                chance,
                score: value,
                ..c
            })
            .collect();
        if !rest.is_empty() {
            found.sort_by(|a, b| b.score.total_cmp(&a.score));
            found.truncate(KEPT);
            let shots: Vec<(Shot, Option<Call>)> = found.iter().map(|c| (c.shot, c.call)).collect();
            let more = self.evaluate(game, &shots, rest);
            let (a, b) = (first.len() as f64, rest.len() as f64);
            for (c, (chance, value)) in found.iter_mut().zip(more) {
                c.chance = (a * c.chance + b * chance) / (a + b);
                c.score = (a * c.score + b * value) / (a + b);
            }
        }
        found
            .into_iter()
            .reduce(|a, b| if b.score > a.score { b } else { a })
    }

    /// The best bank, kick or combination ([`candidates::prospects`]): the
    /// [`ROUTES`] easiest solved with the engine and scored over sampled executions.
    fn routes(&mut self, game: &Game) -> Option<Cand> {
        let found: Vec<Cand> = candidates::prospects(game)
            .into_iter()
            .filter(|c| c.route != Route::Direct)
            .take(ROUTES)
            .filter_map(|c| candidates::solve(game, &c))
            .map(|c| Cand {
                shot: c.shot(),
                call: c.call,
                score: c.window,
                chance: 1.0,
            })
            .collect();
        self.best_sampled(game, found, self.evaluated())
    }

    /// How many of a search's candidates are scored over sampled executions.
    fn evaluated(&self) -> usize {
        match self.noise {
            Some(n) if n.aim >= WIDE_AIM => WIDE_EVALUATED,
            _ => EVALUATED,
        }
    }

    /// The safety, two-ply: the candidates ([`safety_hits`] with kicks and the
    /// soft stroke) are played once and screened by the opponent's geometric chance
    /// ([`best_chance`]); the [`SAFETIES`] best are played over [`SAFETY_SAMPLES`]
    /// sampled executions, and for each execution the opponent's chance from where the
    /// balls stopped is judged with the engine ([`Agent::chance`]; after a foul,
    /// ball in hand). The safety with the least mean chance wins, returned with that
    /// chance; one leaving under [`SAFE_ENOUGH`] ends the search.
    pub fn safety(&mut self, game: &Game) -> (Shot, Option<Call>, f64) {
        let (shots, scores) = self.safety_shots(game);
        if shots.is_empty() {
            let (shot, call) = self.safety_one_ply(game);
            return (shot, call, 1.0);
        }
        let mut order: Vec<usize> = (0..shots.len()).collect();
        order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
        order.truncate(SAFETIES);
        let mut draws = self.draws();
        draws.truncate(SAFETY_SAMPLES);
        let n = self.noise.unwrap_or(Noise {
            aim: 0.0,
            speed: 0.0,
            english: 0.0,
            follow: 0.0,
        });
        let me = game.state.player;
        let mut best = (shots[order[0]].0, shots[order[0]].1, f64::INFINITY);
        for &k in &order {
            let (shot, call) = shots[k];
            let tries: Vec<(Shot, Option<Call>)> = draws
                .iter()
                .map(|&z| (with_errors(shot, n, z), call))
                .collect();
            let out = self.run(game, &tries);
            let mut theirs = 0.0;
            for o in &out {
                theirs += match o {
                    None => 1.0,
                    Some((_, r)) if r.foul.is_some() => IN_HAND_CHANCE,
                    Some((_, r)) if keeps_turn(r, me) => 0.0,
                    Some((after, _)) => self.chance(after),
                };
            }
            let theirs = theirs / out.len() as f64;
            if theirs < best.2 {
                best = (shot, call, theirs);
            }
            if best.2 < SAFE_ENOUGH {
                break;
            }
        }
        best
    }

    /// The safety candidates ([`safety_hits`] with kicks and the soft stroke), each
    /// with its one-ply score: 2 when it keeps the turn, 1 less the opponent's best
    /// chance by the geometry ([`best_chance`]) when legal, -1 for a foul.
    fn safety_shots(&mut self, game: &Game) -> (Vec<(Shot, Option<Call>)>, Vec<f64>) {
        let Some(shots) = safety_hits(game, true) else {
            return (Vec::new(), Vec::new());
        };
        let me = game.state.player;
        let sigma = self.judged_aim();
        let scores = self
            .run(game, &shots)
            .iter()
            .map(|o| match o {
                None => f64::NEG_INFINITY,
                Some((_, r)) if r.foul.is_some() => -1.0,
                Some((_, r)) if keeps_turn(r, me) => 2.0,
                Some((after, _)) => 1.0 - best_chance(after, sigma),
            })
            .collect();
        (shots, scores)
    }

    /// The push-out (nine- and ten-ball, the shot after the break): a soft roll in one
    /// of twelve directions that leaves the easiest next pot nearest a middling ease
    /// (0.3), a position the opponent may take or hand back.
    fn push_out(&mut self, game: &Game) -> Decision {
        let shots: Vec<(Shot, Option<Call>)> = (0..12)
            .map(|k| (Shot::new(1.0, 30.0 * k as f64), Some(Call::PushOut)))
            .collect();
        let out = self.run(game, &shots);
        let mut best = (f64::INFINITY, shots[0].0);
        for (k, o) in out.iter().enumerate() {
            if let Some((after, r)) = o {
                if r.foul.is_none() {
                    let gap = (best_ease(after) - 0.3).abs();
                    if gap < best.0 {
                        best = (gap, shots[k].0);
                    }
                }
            }
        }
        Decision {
            choice: Some(Choice::PushOut),
            place: None,
            shot: best.1,
            call: None,
        }
    }

    /// A legal hit that leaves the opponent the hardest next pot (a foul only when
    /// every candidate fouls), judged on the noiseless outcome alone.
    fn safety_one_ply(&mut self, game: &Game) -> (Shot, Option<Call>) {
        let Some(shots) = safety_hits(game, false) else {
            return (Shot::new(1.0, 0.0), None);
        };
        if shots.is_empty() {
            return (Shot::new(1.0, 0.0), safety_call(game));
        }
        let me = game.state.player;
        let out = self.run(game, &shots);
        let mut best = (f64::NEG_INFINITY, shots[0]);
        for (k, o) in out.iter().enumerate() {
            let score = match o {
                None => f64::NEG_INFINITY,
                Some((_, r)) if r.foul.is_some() => -1.0,
                Some((_, r)) if keeps_turn(r, me) => 2.0,
                Some((after, _)) => 1.0 - best_ease(after),
            };
            if score > best.0 {
                best = (score, shots[k]);
            }
        }
        best.1
    }

    /// Carom games: a grid of aims, speeds and side spins; the middle of the widest run
    /// of aims that score.
    fn carom(&mut self, game: &Game) -> Decision {
        const AIMS: usize = 120;
        let me = game.state.player;
        let mut shots = Vec::new();
        let combos = [(2.5, 0.0), (2.5, 0.4), (2.5, -0.4), (4.0, 0.4), (4.0, -0.4)];
        for &(speed, english) in &combos {
            for k in 0..AIMS {
                let shot = Shot {
                    speed,
                    aim: k as f64 * 360.0 / AIMS as f64,
                    english,
                    follow: 0.2,
                    elevation: 0.0,
                };
                shots.push((shot, None));
            }
        }
        let out = self.run(game, &shots);
        // Every run of aims that scores, widest first; the widest few are played over
        // the sampled executions and the likeliest point wins.
        let mut runs: Vec<(usize, usize)> = Vec::new();
        for (k, chunk) in out.chunks(AIMS).enumerate() {
            let ok: Vec<bool> = chunk
                .iter()
                .map(|r| r.as_ref().is_some_and(|(_, r)| r.points[me] > 0))
                .collect();
            runs.extend(
                all_runs(&ok)
                    .into_iter()
                    .map(|(s, e)| (k * AIMS + (s + e) / 2, e - s)),
            );
        }
        runs.sort_by_key(|r| std::cmp::Reverse(r.1));
        runs.truncate(CAROM_EVALUATED);
        let mut shot = shots[0].0;
        if !runs.is_empty() {
            let cands: Vec<(Shot, Option<Call>)> = runs.iter().map(|r| shots[r.0]).collect();
            let draws = self.draws();
            let n = self.noise.unwrap_or(Noise {
                aim: 0.0,
                speed: 0.0,
                english: 0.0,
                follow: 0.0,
            });
            let tries: Vec<(Shot, Option<Call>)> = cands
                .iter()
                .flat_map(|&(s, c)| draws.iter().map(move |&z| (with_errors(s, n, z), c)))
                .collect();
            let out = self.run(game, &tries);
            let mut best = (-1.0, 0);
            for (k, chunk) in out.chunks(draws.len()).enumerate() {
                let p = chunk
                    .iter()
                    .filter(|r| r.as_ref().is_some_and(|(_, r)| r.points[me] > 0))
                    .count() as f64;
                if p > best.0 {
                    best = (p, k);
                }
            }
            shot = cands[best.1].0;
        }
        Decision {
            choice: None,
            place: None,
            shot,
            call: None,
        }
    }
}

/// A scored candidate.
#[derive(Debug, Clone, Copy)]
struct Cand {
    shot: Shot,
    call: Option<Call>,
    score: f64,
    /// The fraction of sampled executions that keep the turn.
    chance: f64,
}

/// `shot` with the errors `z` (standard normals: aim, speed, english, follow) of
/// noise `n`, kept in the shot's valid ranges.
fn with_errors(shot: Shot, n: Noise, z: [f64; 4]) -> Shot {
    let mut s = shot;
    s.aim += n.aim * z[0];
    s.speed = (s.speed * (1.0 + n.speed * z[1])).clamp(0.05, MAX_SPEED);
    s.english += n.english * z[2];
    s.follow += n.follow * z[3];
    let tip = s.english.hypot(s.follow);
    let max = carom::cue::MAX_TIP_OFFSET * 0.999;
    if tip > max {
        s.english *= max / tip;
        s.follow *= max / tip;
    }
    s
}

/// What a pot is worth to the shooter, relative: in snooker a colour after a red by
/// its value (the black 1, the yellow 2/7), 1 otherwise.
fn worth(game: &Game, r: &ShotResult) -> f64 {
    if game.kind() != GameKind::Snooker || game.state.on != Some(rules::On::Colour) {
        return 1.0;
    }
    let v = r
        .facts
        .pocketed
        .iter()
        .map(|p| snooker_value(p.1))
        .max()
        .unwrap_or(0);
    0.3 + 0.7 * f64::from(v) / 7.0
}

/// The error function (Abramowitz and Stegun 7.1.26, within 1.5e-7).
fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    if x < 0.0 {
        -y
    } else {
        y
    }
}

/// Every run of `true`: its first and last index.
fn all_runs(ok: &[bool]) -> Vec<(usize, usize)> {
    let mut v = Vec::new();
    let mut start = None;
    for k in 0..=ok.len() {
        match (ok.get(k).copied().unwrap_or(false), start) {
            (true, None) => start = Some(k),
            (false, Some(s)) => {
                v.push((s, k - 1));
                start = None;
            }
            _ => {}
        }
    }
    v
}

/// Whether the shot kept the shooter at the table without a foul, or won the game.
fn keeps_turn(r: &ShotResult, me: usize) -> bool {
    r.foul.is_none() && (!r.turn_over || (r.game_over && r.winner == Some(me)))
}

/// The first and last index of the longest run of `true` (the earliest if tied).
fn widest_run(ok: &[bool]) -> Option<(usize, usize)> {
    let mut best: Option<(usize, usize)> = None;
    let mut start = None;
    for k in 0..=ok.len() {
        match (ok.get(k).copied().unwrap_or(false), start) {
            (true, None) => start = Some(k),
            (false, Some(s)) => {
                if best.is_none_or(|b: (usize, usize)| k - 1 - s > b.1 - b.0) {
                    best = Some((s, k - 1));
                }
                start = None;
            }
            _ => {}
        }
    }
    best
}

/// The safety hits the safety searches weigh: centre-ball to half-ball hits either
/// side on the nearest three balls the rules allow, at two speeds; with `more` (the
/// full player's two-ply search) also a soft stroke of each, and kicks: the cue ball
/// sent off each cushion at those balls by the mirror image ([`paths::path`], the
/// leg to the cushion clear of other balls), the aim either side of the image for
/// the rebound's turn, at two speeds. `None` when the cue ball is not on the table.
fn safety_hits(game: &Game, more: bool) -> Option<Vec<(Shot, Option<Call>)>> {
    let c = cue_position(game)?;
    let r = game.table.balls.radius;
    let mut targets: Vec<(u32, [f64; 2])> = rules::rules(game.kind())
        .first_contacts(&game.state)
        .into_iter()
        .filter_map(|n| Some((n, position(game, n)?)))
        .collect();
    targets.sort_by(|a, b| dist(c, a.1).total_cmp(&dist(c, b.1)));
    targets.truncate(3);
    let call = safety_call(game);
    let direct: &[f64] = if more {
        &[1.2, 2.2, SOFT_SAFETY]
    } else {
        &[1.2, 2.2]
    };
    let mut shots = Vec::new();
    for &(_, o) in &targets {
        let centre = degrees(c, o);
        let half = (r / dist(c, o).max(2.0 * r)).asin().to_degrees();
        for f in [0.0, 0.3, -0.3, 0.6, -0.6, 0.9, -0.9] {
            for &speed in direct {
                shots.push((Shot::new(speed, centre + f * half), call));
            }
        }
    }
    if more {
        let cue = game.kind().cue_ball(game.state.player);
        for &(n, o) in &targets {
            for rail in 0..4 {
                let Ok(points) = paths::path(game, c, o, &[rail]) else {
                    continue;
                };
                if !paths::clear(game, &[c, points[0]], &[cue, n]) {
                    continue;
                }
                let aim = degrees(c, points[0]);
                for turn in [-1.0, 0.0, 1.0] {
                    for speed in [1.6, 2.6] {
                        shots.push((Shot::new(speed, aim + turn), call));
                    }
                }
            }
        }
    }
    Some(shots)
}

/// The call a safety needs: ten-ball's declared safety; in eight-ball with the 8 as the
/// target, the 8 called in the pocket nearest to it, since the rules take no other
/// call there (an 8 that drops elsewhere then loses, as for any player); else none.
fn safety_call(game: &Game) -> Option<Call> {
    match game.kind() {
        GameKind::TenBall => Some(Call::Safety),
        GameKind::EightBall
            if rules::rules(game.kind())
                .check_call(&game.state, None)
                .is_err() =>
        {
            let eight = position(game, 8)?;
            let pocket = (0..game.table.pockets.len()).min_by(|&a, &b| {
                let d = |p: usize| dist(eight, game.table.pockets[p].center);
                d(a).total_cmp(&d(b))
            })?;
            Some(Call::Pot {
                ball: 8,
                pocket: pocket as u32,
            })
        }
        _ => None,
    }
}

/// The call a pot of `ball` in `pocket` needs: ten-ball calls every shot, eight-ball
/// the 8.
fn call_for(game: &Game, ball: u32, pocket: usize) -> Option<Call> {
    let pot = Call::Pot {
        ball,
        pocket: pocket as u32,
    };
    match game.kind() {
        GameKind::TenBall => Some(pot),
        GameKind::EightBall if ball == 8 => Some(pot),
        _ => None,
    }
}

fn dist(a: [f64; 2], b: [f64; 2]) -> f64 {
    (b[0] - a[0]).hypot(b[1] - a[1])
}

fn degrees(from: [f64; 2], to: [f64; 2]) -> f64 {
    (to[1] - from[1]).atan2(to[0] - from[0]).to_degrees()
}

fn position(game: &Game, n: u32) -> Option<[f64; 2]> {
    game.balls.iter().find(|b| b.0 == n).map(|b| b.1)
}

fn cue_position(game: &Game) -> Option<[f64; 2]> {
    position(game, game.kind().cue_ball(game.state.player))
}

/// Where the cue ball's centre must be to send `ball` straight at the centre of
/// `pocket`: one diameter behind the ball on that line.
fn ghost(game: &Game, ball: u32, pocket: usize) -> Option<[f64; 2]> {
    let o = position(game, ball)?;
    let p = game.table.pockets.get(pocket)?.center;
    let d = dist(o, p);
    if d == 0.0 {
        return None;
    }
    let two_r = 2.0 * game.table.balls.radius;
    Some([
        o[0] - two_r * (p[0] - o[0]) / d,
        o[1] - two_r * (p[1] - o[1]) / d,
    ])
}

/// The ghost-ball aim (degrees) at `ball` for `pocket`.
fn ghost_aim(game: &Game, ball: u32, pocket: usize) -> Option<f64> {
    Some(degrees(cue_position(game)?, ghost(game, ball, pocket)?))
}

/// Whether a ball of radius `r` moving from `a` to `b` would touch a ball at `q`.
fn blocks(a: [f64; 2], b: [f64; 2], q: [f64; 2], r: f64) -> bool {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((q[0] - a[0]) * dx + (q[1] - a[1]) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (cx, cy) = (a[0] + t * dx, a[1] + t * dy);
    (q[0] - cx).hypot(q[1] - cy) < 2.0 * r
}

/// A geometric ease of potting `ball` in `pocket` from the cue ball at `c` (0: not
/// makeable): the cosine of the cut angle times `exp(-(d1 + d2) / EASE_LENGTH)`, `d1`
/// the cue ball's path to the ghost ball and `d2` the object ball's to the pocket;
/// zero beyond [`MAX_CUT`], when another ball lies across either path, or for a side
/// pocket entered more than 60 degrees off its axis.
pub fn ease(game: &Game, c: [f64; 2], ball: u32, pocket: usize) -> f64 {
    let (Some(o), Some(g), Some(pk)) = (
        position(game, ball),
        ghost(game, ball, pocket),
        game.table.pockets.get(pocket),
    ) else {
        return 0.0;
    };
    let p = pk.center;
    let r = game.table.balls.radius;
    let (d1, d2) = (dist(c, g), dist(o, p));
    let u = [(p[0] - o[0]) / d2, (p[1] - o[1]) / d2];
    let cos_cut = if d1 > 1e-9 {
        ((g[0] - c[0]) * u[0] + (g[1] - c[1]) * u[1]) / d1
    } else {
        1.0
    };
    if cos_cut < MAX_CUT.to_radians().cos() {
        return 0.0;
    }
    // A side pocket (on a long cushion, away from the corners) takes balls near its
    // axis, across the table.
    let t = &game.table;
    let corner = p[0] < t.rail + 0.1 * t.length || p[0] > t.rail + 0.9 * t.length;
    if !corner && u[1].abs() < 0.5 {
        return 0.0;
    }
    let cue = game.kind().cue_ball(game.state.player);
    for &(n, q) in &game.balls {
        if n == cue || n == ball {
            continue;
        }
        if blocks(c, g, q, r) || blocks(o, p, q, r) {
            return 0.0;
        }
    }
    cos_cut * (-(d1 + d2) / EASE_LENGTH).exp()
}

/// The chance (0 to 1) that `ball` drops in `pocket` from the cue ball at `c` under a
/// normal aim error of `sigma` degrees, by the ghost-ball geometry (0 where [`ease`]
/// is 0). An aim error `a` moves the cue ball's centre `d1 a` sideways at the object
/// ball, which turns the object ball's line by `d1 a / (2 R cos(cut))`; over `d2` to
/// the pocket that is a miss of `d2 d1 a / (2 R cos(cut))` at the mouth, with the
/// error of the line itself (`a`, what spin and speed add) as a floor. The pocket
/// takes a ball whose centre passes within half its mouth less a radius of the
/// centre, less for a ball entering off the pocket's axis.
pub fn pot_chance(game: &Game, c: [f64; 2], ball: u32, pocket: usize, sigma: f64) -> f64 {
    if ease(game, c, ball, pocket) <= 0.0 {
        return 0.0;
    }
    let (Some(o), Some(g), Some(pk)) = (
        position(game, ball),
        ghost(game, ball, pocket),
        game.table.pockets.get(pocket),
    ) else {
        return 0.0;
    };
    let p = pk.center;
    let r = game.table.balls.radius;
    let (d1, d2) = (dist(c, g), dist(o, p));
    let u = [(p[0] - o[0]) / d2, (p[1] - o[1]) / d2];
    let cos_cut = if d1 > 1e-9 {
        (((g[0] - c[0]) * u[0] + (g[1] - c[1]) * u[1]) / d1).max(0.2)
    } else {
        1.0
    };
    // The pocket's axis: the diagonal out of a corner, straight across out of a side.
    let m = game.table.center();
    let corner = (p[0] - m[0]).abs() > 0.25 * game.table.length;
    let axis = if corner {
        let s = std::f64::consts::FRAC_1_SQRT_2;
        [s * (p[0] - m[0]).signum(), s * (p[1] - m[1]).signum()]
    } else {
        [0.0, (p[1] - m[1]).signum()]
    };
    let along = (u[0] * axis[0] + u[1] * axis[1]).max(0.0);
    let tolerance = (0.5 * pk.mouth - r).max(0.2 * r) * (0.4 + 0.6 * along);
    let a = sigma.to_radians();
    let turn = d1 * a / (2.0 * r * cos_cut);
    let miss = d2 * turn.hypot(a);
    if miss <= 0.0 {
        return 1.0;
    }
    erf(tolerance / (std::f64::consts::SQRT_2 * miss))
}

/// The chance of the best pot the player to shoot has in `game` under an aim error
/// of `sigma` degrees ([`pot_chance`]; 0 when none, or when the game is over).
pub fn best_chance(game: &Game, sigma: f64) -> f64 {
    if game.state.over {
        return 0.0;
    }
    let Some(c) = cue_position(game) else {
        return 0.0;
    };
    let mut best = 0.0f64;
    for t in rules::rules(game.kind()).first_contacts(&game.state) {
        for p in 0..game.table.pockets.len() {
            best = best.max(pot_chance(game, c, t, p, sigma));
        }
    }
    best
}

/// The pairs (ball, pocket) the shooter may pot, with their ease, easiest first.
fn ranked_pairs(game: &Game) -> Vec<(u32, usize, f64)> {
    let Some(c) = cue_position(game) else {
        return Vec::new();
    };
    let mut v = Vec::new();
    for t in rules::rules(game.kind()).first_contacts(&game.state) {
        for p in 0..game.table.pockets.len() {
            let e = ease(game, c, t, p);
            if e > 0.0 {
                v.push((t, p, e));
            }
        }
    }
    v.sort_by(|a, b| b.2.total_cmp(&a.2));
    v
}

/// The ease of the best pot the player to shoot has in `game` (0 when none, or when
/// the game is over).
pub fn best_ease(game: &Game) -> f64 {
    if game.state.over {
        return 0.0;
    }
    ranked_pairs(game).first().map_or(0.0, |p| p.2)
}

/// A spot for the cue ball in hand: where, the pair (ball, pocket) it is for, and
/// its chance.
type Spot = ([f64; 2], (u32, usize), f64);

/// Spots for the cue ball in hand: behind each ball the shooter may pot, on the
/// straight-in line and on lines that cut it 20 and 40 degrees either way (an angle
/// sends the cue ball off the line for the next ball), each at the distance that
/// gives the best chance under an aim error of `sigma` degrees ([`pot_chance`]),
/// where the rules let it go and clear of the balls. The pairs (ball, pocket) take
/// turns, the best pair first, and within a pair the best line first.
fn spots(game: &Game, sigma: f64) -> Vec<([f64; 2], (u32, usize))> {
    let placement = game.state.ball_in_hand;
    if placement == Some(Placement::InD) {
        return Vec::new();
    }
    let mut pairs: Vec<Vec<Spot>> = Vec::new();
    for t in rules::rules(game.kind()).first_contacts(&game.state) {
        for p in 0..game.table.pockets.len() {
            let (Some(o), Some(g)) = (position(game, t), ghost(game, t, p)) else {
                continue;
            };
            let n = dist(o, g);
            let u = [(g[0] - o[0]) / n, (g[1] - o[1]) / n];
            let mut lines = Vec::new();
            for cut in [0.0f64, 20.0, -20.0, 40.0, -40.0] {
                let (sn, cs) = cut.to_radians().sin_cos();
                let v = [u[0] * cs - u[1] * sn, u[0] * sn + u[1] * cs];
                let mut best: Option<Spot> = None;
                for d in [0.2, 0.35, 0.55] {
                    let s = [g[0] + d * v[0], g[1] + d * v[1]];
                    let mut try_ = game.clone();
                    if try_.place_cue_ball(s[0], s[1]).is_err() {
                        continue;
                    }
                    let e = ease(&try_, s, t, p);
                    let c = pot_chance(&try_, s, t, p, sigma) + 1e-3 * e;
                    if e > 0.0 && best.is_none_or(|b| c > b.2) {
                        best = Some((s, (t, p), c));
                    }
                }
                lines.extend(best);
            }
            lines.sort_by(|a, b| b.2.total_cmp(&a.2));
            if !lines.is_empty() {
                pairs.push(lines);
            }
        }
    }
    pairs.sort_by(|a, b| b[0].2.total_cmp(&a[0].2));
    let most = pairs.iter().map(Vec::len).max().unwrap_or(0);
    (0..most)
        .flat_map(|k| pairs.iter().filter_map(move |l| l.get(k)))
        .map(|s| (s.0, s.1))
        .collect()
}

/// How one rack went for [`run_rack`].
#[derive(Debug, Clone, PartialEq)]
pub struct Rack {
    /// The agent cleared the rack in its inning from ball in hand.
    pub run_out: bool,
    /// The break ended the game (a pool rack not played from ball in hand).
    pub break_ended: bool,
    /// Shots of the inning after the break.
    pub shots: usize,
    /// The verdict of the last shot.
    pub last: String,
    /// Wall-clock seconds spent choosing, and decisions taken (the break included).
    pub thinking: f64,
    pub decisions: usize,
    /// The points the agent scored in the inning (carom games and snooker).
    pub points: i64,
}

/// The most shots of one inning: a bound on an inning that would not end.
pub const MAX_INNING: usize = 200;

/// Racks `kind` from `seed` and lets `agent` play. A pool rack is broken by the
/// agent; unless the break ends the game, the agent then has ball in hand anywhere
/// (fouls and the push-out option cleared) and shoots until it misses, fouls or wins.
/// Other games are played from the start for one inning. An error is a shot the game
/// refused, in one line.
pub fn run_rack(kind: GameKind, seed: u64, agent: &mut Agent) -> Result<Rack, String> {
    let mut game = Game::new(kind, seed);
    let mut rack = Rack {
        run_out: false,
        break_ended: false,
        shots: 0,
        last: String::new(),
        thinking: 0.0,
        decisions: 0,
        points: 0,
    };
    let mut decide = |game: &Game, rack: &mut Rack| {
        let t = std::time::Instant::now();
        let d = agent.choose(game);
        rack.thinking += t.elapsed().as_secs_f64();
        rack.decisions += 1;
        d
    };
    if kind.is_pool() {
        let d = decide(&game, &mut rack);
        let r = d.play(&mut game).map_err(|e| format!("break: {e}"))?;
        rack.last = r.verdict(kind);
        if game.state.over {
            rack.break_ended = true;
            return Ok(rack);
        }
        game.state.player = 0;
        game.state.ball_in_hand = Some(Placement::Anywhere);
        game.state.push_out = false;
        game.state.options.clear();
        game.state.chosen = None;
        game.state.before = None;
        game.state.fouls = [0, 0];
    }
    while !game.state.over && rack.shots < MAX_INNING {
        let d = decide(&game, &mut rack);
        rack.shots += 1;
        let r = d
            .play(&mut game)
            .map_err(|e| format!("shot {}: {e}", rack.shots))?;
        rack.last = r.verdict(kind);
        rack.points += r.points[0];
        if r.turn_over {
            break;
        }
    }
    rack.run_out = game.state.over && game.state.winner == Some(0);
    Ok(rack)
}

/// How a game between two agents went for [`play_game`].
#[derive(Debug, Clone, PartialEq)]
pub struct Match {
    /// The winner, `None` for a draw or a game cut off at the shot limit.
    pub winner: Option<usize>,
    pub scores: [i64; 2],
    /// Shots played (choices not counted).
    pub shots: usize,
    /// The points of every visit to the table that scored, both players', in order.
    pub breaks: Vec<i64>,
    /// The game ended (not cut off at the shot limit).
    pub finished: bool,
    /// Wall-clock seconds spent choosing, and decisions taken.
    pub thinking: f64,
    pub decisions: usize,
}

/// Racks `kind` from `seed` and lets `agents[0]` (the breaker) and `agents[1]` play
/// it out, at most `max_shots` shots: before each shot the player to move answers
/// the choices on offer ([`Agent::respond`]; a push-out is part of its decision),
/// then shoots its decision. An error is a shot or choice the game refused, in one
/// line.
pub fn play_game(
    kind: GameKind,
    seed: u64,
    agents: &mut [Agent; 2],
    max_shots: usize,
) -> Result<Match, String> {
    let mut game = Game::new(kind, seed);
    let mut m = Match {
        winner: None,
        scores: [0, 0],
        shots: 0,
        breaks: Vec::new(),
        finished: false,
        thinking: 0.0,
        decisions: 0,
    };
    let mut visit = 0;
    while !game.state.over && m.shots < max_shots {
        let me = game.state.player;
        let t = std::time::Instant::now();
        let answer = agents[me].respond(&game);
        if let Some(c) = answer.filter(|&c| c != Choice::Accept) {
            m.thinking += t.elapsed().as_secs_f64();
            game.choose(c)
                .map_err(|e| format!("shot {}: {e}", m.shots + 1))?;
            if visit > 0 {
                m.breaks.push(visit);
            }
            visit = 0;
            continue;
        }
        let d = agents[me].choose(&game);
        m.thinking += t.elapsed().as_secs_f64();
        m.decisions += 1;
        m.shots += 1;
        let r = d
            .play(&mut game)
            .map_err(|e| format!("shot {}: {e}", m.shots))?;
        visit += r.points[me];
        if r.turn_over || r.game_over {
            if visit > 0 {
                m.breaks.push(visit);
            }
            visit = 0;
        }
    }
    m.finished = game.state.over;
    m.winner = game.state.winner.filter(|_| m.finished);
    m.scores = game.state.scores;
    Ok(m)
}
