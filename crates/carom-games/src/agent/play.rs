//! Whole racks and games between agents, for measuring a player.

use super::*;

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
    /// Every shot, in order: what its player meant and how it went.
    pub played: Vec<Played>,
}

/// One shot of a [`Match`]: its player's intent and estimate, and what came of it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Played {
    pub player: usize,
    pub intent: Intent,
    /// [`Decision::estimate`].
    pub estimate: Option<f64>,
    /// The shooter keeps the table (or won with the shot).
    pub kept_turn: bool,
    pub foul: bool,
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
        played: Vec::new(),
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
        m.played.push(Played {
            player: me,
            intent: d.intent,
            estimate: d.estimate,
            kept_turn: !r.turn_over || r.winner == Some(me),
            foul: r.foul.is_some(),
        });
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
