//! Safety play: the candidate safeties, judged two-ply by the chance they leave the
//! opponent, the push-out, and the one-ply safety of the direct-pots baseline.

use super::*;

impl Agent {
    /// The safety, two-ply: the candidates (`safety_hits` with kicks and the
    /// soft stroke) are played once and screened by the opponent's geometric chance
    /// ([`best_chance`]); the `SAFETIES` best are played over `SAFETY_SAMPLES`
    /// sampled executions, and for each execution the opponent's chance from where the
    /// balls stopped is judged with the engine ([`Agent::chance`]; after a foul,
    /// ball in hand). The safety with the least mean chance wins, returned with that
    /// chance; one leaving under `SAFE_ENOUGH` ends the search.
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
        let n = self.execution_noise();
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

    /// The safety candidates (`safety_hits` with kicks and the soft stroke), each
    /// with its one-ply score: 2 when it keeps the turn, 1 less the opponent's best
    /// chance by the geometry ([`best_chance`]) when legal, -1 for a foul.
    pub(super) fn safety_shots(&mut self, game: &Game) -> (Vec<(Shot, Option<Call>)>, Vec<f64>) {
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
    pub(super) fn push_out(&mut self, game: &Game) -> Decision {
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
            intent: Intent::PushOut,
            estimate: None,
        }
    }

    /// A legal hit that leaves the opponent the hardest next pot (a foul only when
    /// every candidate fouls), judged on the noiseless outcome alone.
    pub(super) fn safety_one_ply(&mut self, game: &Game) -> (Shot, Option<Call>) {
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
}

/// The safety hits the safety searches weigh: centre-ball to half-ball hits either
/// side on the nearest three balls the rules allow, at two speeds; with `more` (the
/// full player's two-ply search) also a soft stroke of each, and kicks: the cue ball
/// sent off each cushion at those balls by the mirror image ([`paths::path`], the
/// leg to the cushion clear of other balls), the aim either side of the image for
/// the rebound's turn, at two speeds. `None` when the cue ball is not on the table.
pub(super) fn safety_hits(game: &Game, more: bool) -> Option<Vec<(Shot, Option<Call>)>> {
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
pub(super) fn safety_call(game: &Game) -> Option<Call> {
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
