//! The viewer's game mode without a window: the look-ahead that predicts where the
//! cue ball and the first object ball go (the engine simulating the shot on a copy of
//! the position), the call made for the shooter where the rules need one, the aim
//! taken from a drag, the choices the rules offer (push-out, accept, pass back,
//! re-rack, free ball, replace) and the lines the side panel shows between shots. The
//! window (`game_app.rs`) only draws and forwards the mouse and the keys.

use carom_games::agent::{Agent, Decision, Intent};
use carom_games::rules::{self, Call, Choice, Placement};
use carom_games::shot::{at_rest, facts};
use carom_games::{Game, Shot};

/// Seconds between the samples of a predicted path (the event model moves balls
/// exactly between collisions, so the samples lie on the true paths).
pub const SAMPLE: f64 = 0.01;
/// The look-ahead stops after this much simulated time even if balls still move.
pub const AHEAD: f64 = 12.0;
/// The cue speed (m/s) of a drag as long as the table, at power 1.
pub const SPEED_PER_TABLE: f64 = 4.0;
/// The fastest strike a drag gives (m/s).
pub const MAX_SPEED: f64 = 10.0;

/// Where a shot sends the balls, as the engine simulates it.
#[derive(Debug, Clone, PartialEq)]
pub struct Paths {
    /// The struck ball's centre every [`SAMPLE`] s, from where it lies until rest (or
    /// until it drops).
    pub cue: Vec<[f64; 2]>,
    /// The first object ball the cue ball meets: its number and path likewise.
    pub object: Option<(u32, Vec<[f64; 2]>)>,
    /// Balls the shot would pocket: `(ball, pocket index)`, in time order.
    pub pocketed: Vec<(u32, u32)>,
}

/// Simulates `shot` by the player to shoot from the game's position, on a copy: the
/// game is not changed.
pub fn predict(game: &Game, shot: &Shot) -> Result<Paths, String> {
    shot.check().map_err(|e| e.to_string())?;
    let setup = game.setup();
    let cue = game.kind().cue_ball(game.state.player);
    let Some(ci) = setup.balls.iter().position(|b| b.0 == cue) else {
        return Err(format!("ball {cue} is not on the table"));
    };
    let mut scenario = setup.scenario();
    scenario.balls[ci].cue = Some(shot.cue());
    scenario.physics.dt = SAMPLE;
    let mut world = carom::parse::build_world(&scenario).map_err(|e| e.message)?;
    world.set_event_log(true);
    let mut events = Vec::new();
    let mut tracks: Vec<Vec<[f64; 2]>> = setup.balls.iter().map(|b| vec![b.1]).collect();
    while !at_rest(&world) && world.time < AHEAD {
        world.run_steps(1).map_err(|e| e.to_string())?;
        world.take_events(&mut events);
        let b = world.balls();
        for (i, track) in tracks.iter_mut().enumerate() {
            if world.is_in_play(i) {
                track.push([b.x[i], b.y[i]]);
            }
        }
    }
    let numbers: Vec<u32> = setup.balls.iter().map(|b| b.0).collect();
    let f = facts(&numbers, ci, &world, &events);
    let object = f.first_contact.and_then(|n| {
        let i = numbers.iter().position(|&m| m == n)?;
        Some((n, tracks[i].clone()))
    });
    Ok(Paths {
        cue: std::mem::take(&mut tracks[ci]),
        object,
        pocketed: f.pocketed.iter().map(|p| (p.1, p.2)).collect(),
    })
}

/// The call the shooter makes where the rules need one, chosen for them: none if the
/// rules take none; else the ball and pocket the look-ahead pots; else a safety where
/// the rules have one; else the ball the rules ask for into the pocket nearest it.
/// `None` also when no call will do (the shot then reports the rules' reason).
///
/// After a chosen push-out no call is made: the game makes the shot the push-out
/// ([`Game::effective_call`]), and any other call would be refused.
pub fn call_for(game: &Game, paths: Option<&Paths>) -> Option<Call> {
    if game.state.chosen == Some(Choice::PushOut) {
        return None;
    }
    let rules = rules::rules(game.kind());
    let ok = |c: Option<Call>| rules.check_call(&game.state, c).is_ok();
    if ok(None) {
        return None;
    }
    let potted = paths.into_iter().flat_map(|p| p.pocketed.iter());
    let mut candidates: Vec<Call> = potted
        .filter(|p| p.0 != 0)
        .map(|&(ball, pocket)| Call::Pot { ball, pocket })
        .collect();
    candidates.push(Call::Safety);
    for &(n, p) in game.balls.iter().filter(|b| b.0 != 0) {
        let nearest = game.table.pockets.iter().enumerate().min_by(|a, b| {
            let d =
                |q: &carom_games::tables::Pocket| (q.center[0] - p[0]).hypot(q.center[1] - p[1]);
            d(a.1).total_cmp(&d(b.1))
        });
        if let Some((k, _)) = nearest {
            candidates.push(Call::Pot {
                ball: n,
                pocket: k as u32,
            });
        }
    }
    candidates.into_iter().find(|&c| ok(Some(c)))
}

/// The shot of a drag from `from` to `to` (table coordinates): aimed the way the
/// drag goes, as fast as its length says ([`SPEED_PER_TABLE`] times `power` for the
/// table's length, at most [`MAX_SPEED`]), with the tip and elevation given.
pub fn shot_of_drag(
    game: &Game,
    from: [f64; 2],
    to: [f64; 2],
    power: f64,
    tip: [f64; 3],
) -> Option<Shot> {
    let (dx, dy) = (to[0] - from[0], to[1] - from[1]);
    let len = dx.hypot(dy);
    if !(len.is_finite() && len > 0.0) {
        return None;
    }
    let length = game.table.length.max(game.table.width);
    let speed = (SPEED_PER_TABLE * power * len / length).min(MAX_SPEED);
    Some(Shot {
        speed,
        aim: dy.atan2(dx).to_degrees(),
        english: tip[0],
        follow: tip[1],
        elevation: tip[2],
    })
}

/// Whether the search player, playing as player 1 when `opponent` is on, is to shoot:
/// the game not over and player 1 to move.
pub fn agent_to_move(game: &Game, opponent: bool) -> bool {
    opponent && !game.state.over && game.state.player == 1
}

/// The search player's turn: its answer to the options it is offered
/// ([`Agent::respond`]: accept, or hand the table back when its chance from here is
/// poor), then, if the turn is still its own, its decision ([`Agent::choose`], which
/// may choose the push-out). The game is not changed.
pub fn agent_turn(game: &Game, agent: &mut Agent) -> (Option<Choice>, Option<Decision>) {
    let mut after = game.clone();
    let response = agent.respond(&after);
    if let Some(c) = response {
        if after.choose(c).is_err() {
            return (None, None);
        }
    }
    let player = game.state.player;
    let mine = !after.state.over && after.state.player == player;
    (response, mine.then(|| agent.choose(&after)))
}

/// The log's line for the search player's decision: what the shot sets out to do and
/// how likely the player judged it.
pub fn intent_line(d: &Decision) -> String {
    let what = match d.intent {
        Intent::Break => "the break",
        Intent::Pot => "a pot",
        Intent::Route => "a bank, kick or combination",
        Intent::Safety => "a safety",
        Intent::PushOut => "a push-out",
        Intent::Point => "a point",
    };
    match (d.intent, d.estimate) {
        (_, None) => format!("search player: {what}"),
        (Intent::Safety, Some(e)) => format!(
            "search player: {what}, judged to leave the opponent a {:.0} % chance",
            100.0 * e
        ),
        (_, Some(e)) => format!(
            "search player: {what}, judged to succeed {:.0} % of the time",
            100.0 * e
        ),
    }
}

/// The lines shown between shots: whose turn, the score, and ball in hand.
pub fn status(game: &Game) -> Vec<String> {
    let s = &game.state;
    let mut lines = vec![format!("score {} - {}", s.scores[0], s.scores[1])];
    if s.over {
        lines.push(match s.winner {
            Some(w) => format!("game over: player {w} wins"),
            None => "game over: a draw".into(),
        });
        return lines;
    }
    let ball = game.kind().ball_name(game.kind().cue_ball(s.player));
    lines.push(format!("player {} to shoot ({ball})", s.player));
    if let Some(p) = s.ball_in_hand {
        let place = match p {
            Placement::Anywhere => "anywhere",
            Placement::BehindHeadString => "behind the head string",
            Placement::InD => "in the D",
        };
        lines.push(format!(
            "ball in hand ({place}): click the table to place it"
        ));
    }
    match s.chosen {
        Some(Choice::PushOut) => {
            lines.push("push-out: the next shot may meet any ball first".into())
        }
        Some(Choice::FreeBall) => {
            lines.push("free ball: the ball struck first counts as the ball on".into())
        }
        _ => {}
    }
    lines
}

/// The option a digit key takes: `1` the first of [`Game::options`], `2` the second,
/// and so on, in the order the side panel shows their buttons.
pub fn option_for_digit(game: &Game, digit: usize) -> Option<Choice> {
    digit
        .checked_sub(1)
        .and_then(|i| game.options().get(i).copied())
}

/// What a choice does, in the words of the rules, for its button's hover text.
pub fn choice_meaning(choice: Choice) -> &'static str {
    match choice {
        Choice::PushOut => {
            "the next shot is a push-out: any ball may be met first and none need \
             reach a cushion; the opponent then plays on or hands it back"
        }
        Choice::Accept => "take the table as it lies and shoot",
        Choice::PassBack => "hand the shot back: the other player shoots from here",
        Choice::Rerack => "the balls racked again, and you break",
        Choice::RerackOffender => "the balls racked again, and the offender breaks again",
        Choice::FreeBall => "nominate any ball as the ball on: the one the cue ball meets first",
        Choice::Replace => {
            "the balls put back where they were before the miss, the offender to play again"
        }
    }
}

/// What a shot means while options are pending: the rules never require a choice
/// (shooting without one takes the table as it lies, [`Game::shoot`]), so the shot
/// controls stay open and this line says what the shot takes. `None` without options.
pub fn shooting_means(game: &Game) -> Option<&'static str> {
    let options = game.options();
    if options.is_empty() {
        None
    } else if options == [Choice::PushOut] {
        Some("or shoot: a shot without the push-out is an ordinary shot")
    } else {
        Some("or shoot: a shot without a choice accepts the table as it lies")
    }
}

/// Takes `choice` for the player to move ([`Game::choose`]) and gives the line the
/// shot log shows; the rules' one-line error if it is not on offer (nothing changes).
pub fn take_choice(game: &mut Game, choice: Choice) -> Result<String, String> {
    let who = game.state.player;
    game.choose(choice)?;
    Ok(format!(
        "player {who}: {}; player {} to shoot",
        choice.name(),
        game.state.player
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use carom_games::GameKind;

    /// The decision's line names its intent and, where judged, the estimate.
    #[test]
    fn the_search_players_line_says_what_it_means_to_do() {
        let mut d = Decision {
            choice: None,
            place: None,
            shot: carom_games::Shot::new(2.0, 0.0),
            call: None,
            intent: Intent::Pot,
            estimate: Some(0.834),
        };
        assert_eq!(
            intent_line(&d),
            "search player: a pot, judged to succeed 83 % of the time"
        );
        d.intent = Intent::Safety;
        d.estimate = Some(0.2);
        assert_eq!(
            intent_line(&d),
            "search player: a safety, judged to leave the opponent a 20 % chance"
        );
        d.intent = Intent::Break;
        d.estimate = None;
        assert_eq!(intent_line(&d), "search player: the break");
    }

    /// Player 0 (the human) breaks; after a turn passes, the search player is to move
    /// when it is on, never when it is off, and nobody once the game is over.
    #[test]
    fn the_search_player_moves_on_player_ones_turns_only() {
        let mut g = Game::new(GameKind::NineBall, 1);
        assert!(!agent_to_move(&g, true), "the human breaks");
        g.state.player = 1;
        assert!(agent_to_move(&g, true));
        assert!(!agent_to_move(&g, false));
        g.state.over = true;
        assert!(!agent_to_move(&g, true));
    }

    /// A nine-ball drill on the 9-ft table: the cue ball and the 1 on the long axis
    /// 0.8 m apart, the 2 out of the way.
    fn straight(offset: f64) -> (Game, [f64; 2], [f64; 2]) {
        let t = carom_games::Table::new(carom_games::TableKind::Pool9);
        let c = t.center();
        let cue = [c[0] - 0.6, c[1]];
        let one = [c[0] + 0.2, c[1] + offset];
        let two = [c[0] + 0.2, c[1] + 0.4];
        let g = Game::layout(GameKind::NineBall, &[(0, cue), (1, one), (2, two)], 0).unwrap();
        (g, cue, one)
    }

    #[test]
    fn a_straight_shot_runs_along_the_aim_line_to_the_object_ball() {
        let (g, cue, one) = straight(0.0);
        let r = g.table.balls.radius;
        let paths = predict(&g, &Shot::new(1.5, 0.0)).unwrap();
        // The cue ball's path starts on it and, until the contact, stays on the aim
        // line (y of the cue ball) moving towards the 1: it stops short of the ghost
        // ball at x_1 - 2r, which it reaches within one sample of travel (speed x
        // SAMPLE), to rounding.
        assert_eq!(paths.cue[0], cue);
        let ghost = one[0] - 2.0 * r;
        let before: Vec<&[f64; 2]> = paths
            .cue
            .iter()
            .take_while(|p| p[0] < ghost - 1e-9)
            .collect();
        assert!(before.len() > 5);
        for w in before.windows(2) {
            assert!(
                (w[1][1] - cue[1]).abs() < 1e-9,
                "off the aim line: {:?}",
                w[1]
            );
            assert!(w[1][0] > w[0][0]);
        }
        let closest = before.last().unwrap()[0];
        assert!(
            ghost - closest <= 1.5 * SAMPLE + 1e-9,
            "{closest} vs {ghost}"
        );
        // The 1 is the first object ball: its path starts at its place and heads along
        // the line of centres, the aim line (+x).
        let (n, path) = paths.object.as_ref().unwrap();
        assert_eq!(*n, 1);
        assert_eq!(path[0], one);
        let moved = path.iter().find(|p| p[0] > one[0] + 0.01).unwrap();
        assert!((moved[1] - one[1]).abs() < 1e-9, "{moved:?}");
        // The look-ahead is the shot: played for real, the balls rest where the
        // paths end.
        let mut played = g.clone();
        let result = played.shoot(&Shot::new(1.5, 0.0), None).unwrap();
        let at = |k: u32| {
            result
                .facts
                .positions
                .iter()
                .find(|p| p.0 == k)
                .and_then(|p| p.1)
                .unwrap()
        };
        let end = paths.cue.last().unwrap();
        assert!((end[0] - at(0)[0]).abs() < 1e-9 && (end[1] - at(0)[1]).abs() < 1e-9);
        let end = path.last().unwrap();
        assert!((end[0] - at(1)[0]).abs() < 1e-9 && (end[1] - at(1)[1]).abs() < 1e-9);
    }

    #[test]
    fn a_cut_sends_the_object_ball_along_the_line_of_centres() {
        // The 1 a third of a ball's diameter off the aim line: at contact the cue
        // ball's centre is at x_1 - sqrt((2r)^2 - b^2) on the aim line, and the 1
        // leaves along the line of centres. Throw (ball-ball friction) turns it by a
        // few degrees at most (about atan(mu) with mu ~ 0.06 for pool balls: 3.4°);
        // 5° bounds it.
        let r = carom_games::Table::new(carom_games::TableKind::Pool9)
            .balls
            .radius;
        let b = 2.0 * r / 3.0;
        let (g, cue, one) = straight(b);
        let paths = predict(&g, &Shot::new(1.5, 0.0)).unwrap();
        let (n, path) = paths.object.unwrap();
        assert_eq!(n, 1);
        assert_eq!(path[0], one);
        let contact = [one[0] - (4.0 * r * r - b * b).sqrt(), cue[1]];
        let centres = (one[1] - contact[1]).atan2(one[0] - contact[0]);
        let moved = path
            .iter()
            .find(|p| (p[0] - one[0]).hypot(p[1] - one[1]) > 0.02)
            .unwrap();
        let heading = (moved[1] - one[1]).atan2(moved[0] - one[0]);
        assert!(
            (heading - centres).abs() < 5f64.to_radians(),
            "heading {}° vs line of centres {}°",
            heading.to_degrees(),
            centres.to_degrees()
        );
    }

    #[test]
    fn after_a_foul_the_other_player_has_ball_in_hand() {
        // Aimed at the 2 with the 1 the lowest ball: a wrong ball first (WPA 6.2), so
        // the opponent takes the table with the cue ball in hand anywhere.
        let (mut g, cue, _) = straight(0.0);
        let two = g.balls.iter().find(|b| b.0 == 2).unwrap().1;
        let aim = (two[1] - cue[1]).atan2(two[0] - cue[0]).to_degrees();
        let shot = Shot::new(1.0, aim);
        let paths = predict(&g, &shot).unwrap();
        assert_eq!(paths.object.as_ref().map(|o| o.0), Some(2));
        let r = g.shoot(&shot, call_for(&g, Some(&paths))).unwrap();
        assert!(r.foul.is_some());
        assert_eq!(g.state.player, 1);
        assert_eq!(g.state.ball_in_hand, Some(Placement::Anywhere));
        let lines = status(&g);
        assert!(
            lines.iter().any(|l| l.starts_with("player 1 to shoot")),
            "{lines:?}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("ball in hand (anywhere)")),
            "{lines:?}"
        );
        // The place the mouse picks is checked by the rules: on another ball refused
        // with the reason, clear of them accepted.
        let one = g.balls.iter().find(|b| b.0 == 1).unwrap().1;
        let e = g.place_cue_ball(one[0], one[1]).unwrap_err();
        assert!(e.contains("overlaps ball 1"), "{e}");
        assert!(g.place_cue_ball(cue[0], cue[1] - 0.3).is_ok());
    }

    #[test]
    fn a_drag_gives_the_aim_and_a_speed_in_proportion() {
        let (g, cue, _) = straight(0.0);
        let length = g.table.length.max(g.table.width);
        let s = shot_of_drag(
            &g,
            cue,
            [cue[0], cue[1] + 0.25 * length],
            1.0,
            [0.1, -0.2, 5.0],
        )
        .unwrap();
        assert!((s.aim - 90.0).abs() < 1e-12);
        assert!((s.speed - 0.25 * SPEED_PER_TABLE).abs() < 1e-12);
        assert_eq!((s.english, s.follow, s.elevation), (0.1, -0.2, 5.0));
        assert!(shot_of_drag(&g, cue, cue, 1.0, [0.0; 3]).is_none());
        let far = shot_of_drag(&g, cue, [cue[0] + 100.0, cue[1]], 4.0, [0.0; 3]).unwrap();
        assert_eq!(far.speed, MAX_SPEED);
    }

    #[test]
    fn the_call_is_made_only_where_the_rules_need_one() {
        // Nine-ball calls nothing.
        let (g, _, _) = straight(0.0);
        assert_eq!(call_for(&g, None), None);
        // Ten-ball calls every shot: a pot the look-ahead predicts is called as such.
        let t = carom_games::Table::new(carom_games::TableKind::Pool9);
        let c = t.center();
        let mut g = Game::layout(
            GameKind::TenBall,
            &[(0, [c[0] - 0.6, c[1]]), (1, [c[0] + 0.2, c[1]])],
            0,
        )
        .unwrap();
        g.state.push_out = false;
        let paths = Paths {
            cue: vec![],
            object: None,
            pocketed: vec![(1, 3)],
        };
        // WPA ten-ball: every shot after the break calls a ball on the table and a
        // pocket, or a safety.
        let call = call_for(&g, Some(&paths));
        assert_eq!(call, Some(Call::Pot { ball: 1, pocket: 3 }));
        // No pot predicted: a safety.
        assert_eq!(call_for(&g, None), Some(Call::Safety));
    }

    /// Nine-ball after the break: the push-out is on offer, its button is key 1;
    /// taken, the status says so and the shot is a push-out with no call; then the
    /// opponent is offered accept (key 1) and pass back (key 2), and passing back
    /// hands the shot to the pusher.
    #[test]
    fn the_push_out_is_offered_taken_and_passed_back() {
        let mut g = Game::new(GameKind::NineBall, 3);
        assert_eq!(option_for_digit(&g, 1), None, "nothing before the break");
        assert_eq!(shooting_means(&g), None);
        // Any legal break: the game's state after it, with the push-out to come.
        g.state.shots = 1;
        g.state.ball_in_hand = None;
        g.state.push_out = true;
        assert_eq!(g.options(), vec![Choice::PushOut]);
        assert_eq!(option_for_digit(&g, 1), Some(Choice::PushOut));
        assert_eq!(option_for_digit(&g, 0), None);
        assert_eq!(option_for_digit(&g, 2), None);
        assert!(shooting_means(&g).unwrap().contains("ordinary shot"));
        let pusher = g.state.player;
        let line = take_choice(&mut g, Choice::PushOut).unwrap();
        assert_eq!(
            line,
            format!("player {pusher}: push-out; player {pusher} to shoot")
        );
        assert!(status(&g).iter().any(|l| l.starts_with("push-out:")));
        assert_eq!(call_for(&g, None), None);
        assert!(g.options().is_empty());
        // The push-out itself: a soft shot that fouls nothing; the opponent chooses.
        let cue = g.balls.iter().find(|b| b.0 == 0).unwrap().1;
        let centre = g.table.center();
        let away = (cue[1] - centre[1]).atan2(cue[0] - centre[0]).to_degrees() + 180.0;
        let r = g.shoot(&Shot::new(0.3, away), call_for(&g, None)).unwrap();
        assert!(r.foul.is_none(), "{:?}", r.foul);
        assert_eq!(g.state.player, 1 - pusher);
        assert_eq!(option_for_digit(&g, 1), Some(Choice::Accept));
        assert_eq!(option_for_digit(&g, 2), Some(Choice::PassBack));
        assert!(shooting_means(&g).unwrap().contains("accepts the table"));
        let line = take_choice(&mut g, Choice::PassBack).unwrap();
        assert_eq!(
            line,
            format!("player {}: pass-back; player {pusher} to shoot", 1 - pusher)
        );
        assert_eq!(g.state.player, pusher);
        assert!(g.options().is_empty());
    }

    /// A choice not on offer is the rules' one-line error, and nothing changes.
    #[test]
    fn a_choice_not_on_offer_is_refused_and_changes_nothing() {
        let (mut g, _, _) = straight(0.0);
        let before = g.clone();
        let e = take_choice(&mut g, Choice::FreeBall).unwrap_err();
        assert!(e.contains("free-ball is not on offer"), "{e}");
        assert!(!e.contains('\n'));
        assert_eq!(g, before);
        for c in Choice::ALL {
            assert!(!choice_meaning(c).is_empty());
        }
    }

    /// Ten-ball calls every shot, but a chosen push-out takes no call: the viewer
    /// makes none and the game plays it as the push-out.
    #[test]
    fn a_ten_ball_push_out_is_shot_without_a_call() {
        let t = carom_games::Table::new(carom_games::TableKind::Pool9);
        let c = t.center();
        let mut g = Game::layout(
            GameKind::TenBall,
            &[(0, [c[0] - 0.6, c[1]]), (1, [c[0] + 0.2, c[1]])],
            0,
        )
        .unwrap();
        g.state.shots = 1;
        g.state.push_out = true;
        take_choice(&mut g, Choice::PushOut).unwrap();
        assert_eq!(call_for(&g, None), None);
        let r = g.shoot(&Shot::new(0.5, 90.0), call_for(&g, None)).unwrap();
        assert!(r.foul.is_none(), "{:?}", r.foul);
        assert!(g.options().contains(&Choice::PassBack));
    }

    /// The search player offered accept or pass back after a push-out answers with
    /// one of them; passing back ends its turn without a shot, accepting gives its
    /// shot. Off its turn's options (none offered) it only shoots.
    #[test]
    fn the_search_player_answers_the_options_before_it_shoots() {
        let (mut g, _, _) = straight(0.0);
        let mut agent = Agent::new(None, 1);
        let (response, decision) = agent_turn(&g, &mut agent);
        assert_eq!(response, None);
        assert!(decision.is_some());
        g.state.options = [Choice::Accept, Choice::PassBack].into_iter().collect();
        let before = g.clone();
        let (response, decision) = agent_turn(&g, &mut agent);
        assert_eq!(g, before, "the game is not changed");
        match response {
            Some(Choice::Accept) => assert!(decision.is_some()),
            Some(Choice::PassBack) => assert!(decision.is_none()),
            other => panic!("answered {other:?}"),
        }
    }
}
