//! Judging candidates under the agent's own execution noise: the sampled errors, the
//! batch simulations over them, and the opponent's chance that a table leaves.

use super::*;

impl Agent {
    /// Adds the noise to a shot, kept in the shot's valid ranges.
    pub fn perturb(&mut self, shot: Shot, n: Noise) -> Shot {
        let z = [self.normal(), self.normal(), self.normal(), self.normal()];
        with_errors(shot, n, z)
    }

    /// The standard normal errors of the executions each candidate of one decision is
    /// scored over: the same draws for every candidate (so that candidates differ by
    /// their shots, not their luck), from the agent's state without advancing the
    /// noise it plays with. One set of zeros without noise.
    pub(super) fn draws(&self) -> Vec<[f64; 4]> {
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
    pub(super) fn evaluate(
        &mut self,
        game: &Game,
        cands: &[(Shot, Option<Call>)],
        draws: &[[f64; 4]],
    ) -> Vec<(f64, f64)> {
        let n = self.execution_noise();
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
    /// agent's, or `JUDGED_AIM`) stays inside it. With ball in hand, or the game
    /// over, the chance of `IN_HAND_CHANCE` or 0.
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

    /// The errors the agent's executions are sampled with: its noise, or none.
    pub(super) fn execution_noise(&self) -> Noise {
        self.noise.unwrap_or(Noise {
            aim: 0.0,
            speed: 0.0,
            english: 0.0,
            follow: 0.0,
        })
    }

    /// The aim error (degrees) positions are judged with: the agent's own, or
    /// `JUDGED_AIM` without noise.
    pub(super) fn judged_aim(&self) -> f64 {
        self.noise.map_or(JUDGED_AIM, |n| n.aim)
    }

    /// A standard normal draw (Box-Muller).
    pub(super) fn normal(&mut self) -> f64 {
        let mut g = SplitMix64(self.rng);
        let u1 = 1.0 - g.unit();
        let u2 = g.unit();
        self.rng = g.0;
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }

    pub(super) fn run(
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

    /// The best of some candidates scored by sampled executions ([`Agent::evaluate`]),
    /// in two stages: the `evaluated` best by their noiseless score are played over
    /// the first `FIRST_SAMPLES` draws, and the [`KEPT`] best of those over the
    /// rest as well; the highest value over all its executions wins (its chance kept
    /// with it). A candidate that loses the first stage is one whose value over 16
    /// executions trails the kept ones': the later draws rarely turn that order, and
    /// skipping them saves two thirds of the sampling.
    pub(super) fn best_sampled(
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
}

/// `shot` with the errors `z` (standard normals: aim, speed, english, follow) of
/// noise `n`, kept in the shot's valid ranges.
pub(super) fn with_errors(shot: Shot, n: Noise, z: [f64; 4]) -> Shot {
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
pub(super) fn worth(game: &Game, r: &ShotResult) -> f64 {
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
pub(super) fn erf(x: f64) -> f64 {
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
pub(super) fn all_runs(ok: &[bool]) -> Vec<(usize, usize)> {
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
pub(super) fn keeps_turn(r: &ShotResult, me: usize) -> bool {
    r.foul.is_none() && (!r.turn_over || (r.game_over && r.winner == Some(me)))
}
