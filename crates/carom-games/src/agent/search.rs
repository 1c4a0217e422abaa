//! The pot search: the break, ball in hand, the aim sweeps around the ghost-ball line
//! across strokes, banks, kicks and combinations, and the carom games' grid of aims.

use super::*;

impl Agent {
    pub(super) fn break_shot(&mut self, game: &Game) -> Decision {
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
            intent: Intent::Break,
            estimate: None,
        }
    }

    /// Ball in hand: the best shot from a few straight-in spots, the best first, a
    /// spot whose pot is good enough ending the search (and from where the cue ball
    /// lies now, if no spot is legal).
    pub(super) fn in_hand(&mut self, game: &Game) -> Decision {
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
                intent: c.intent,
                estimate: Some(c.chance),
            };
        }
        self.pot_or_safety(game)
    }

    /// The best potting shot from the position as it is (the cue ball where it lies),
    /// over the given pair or the best few by ease; `None` when none pots.
    pub(super) fn pot(&mut self, game: &Game, only: Option<(u32, usize)>) -> Option<Cand> {
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
                    intent: Intent::Pot,
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

    /// The best bank, kick or combination ([`candidates::prospects`]): the
    /// [`ROUTES`] easiest solved with the engine and scored over sampled executions.
    pub(super) fn routes(&mut self, game: &Game) -> Option<Cand> {
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
                intent: Intent::Route,
            })
            .collect();
        self.best_sampled(game, found, self.evaluated())
    }

    /// How many of a search's candidates are scored over sampled executions.
    pub(super) fn evaluated(&self) -> usize {
        match self.noise {
            Some(n) if n.aim >= WIDE_AIM => WIDE_EVALUATED,
            _ => EVALUATED,
        }
    }

    /// Carom games: a grid of aims, speeds and side spins; the middle of the widest run
    /// of aims that score.
    pub(super) fn carom(&mut self, game: &Game) -> Decision {
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
        let mut estimate = None;
        if !runs.is_empty() {
            let cands: Vec<(Shot, Option<Call>)> = runs.iter().map(|r| shots[r.0]).collect();
            let draws = self.draws();
            let n = self.execution_noise();
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
            estimate = Some(best.0 / draws.len() as f64);
        }
        Decision {
            choice: None,
            place: None,
            shot,
            call: None,
            intent: Intent::Point,
            estimate,
        }
    }
}

/// A scored candidate.
#[derive(Debug, Clone, Copy)]
pub(super) struct Cand {
    pub(super) shot: Shot,
    pub(super) call: Option<Call>,
    pub(super) score: f64,
    /// The fraction of sampled executions that keep the turn.
    pub(super) chance: f64,
    pub(super) intent: Intent,
}
