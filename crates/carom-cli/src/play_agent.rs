//! `carom play GAME --agent [--games N] [--noise [LEVEL]]`: the search player
//! (crates/carom-games/src/agent.rs) plays N seeded racks. A pool rack is broken by
//! the agent; if the break does not end the game, the agent takes ball in hand
//! anywhere and shoots until it misses, fouls or wins: a run-out is a rack it clears
//! in that one inning. Other games are played from their start for one inning.
//! Prints each rack's outcome, then the run-out rate and the decision time per shot.

use carom_games::agent::{run_rack, Agent, Noise};
use carom_games::GameKind;

use crate::error::CliError;
use crate::play::PlayArgs;

fn noise(level: Option<&str>) -> Result<Option<Noise>, CliError> {
    let bad = |m: String| CliError::input(format!("--noise: {m}"));
    let n = match level {
        None | Some("none") => return Ok(None),
        Some("amateur") => Noise::AMATEUR,
        Some("pro") => Noise::PRO,
        Some(s) => {
            let v: Vec<&str> = s.split(',').collect();
            if v.len() != 4 {
                return Err(bad(format!(
                    "{s:?} is not amateur, pro, none or four numbers AIM,SPEED,ENGLISH,FOLLOW"
                )));
            }
            let mut x = [0.0; 4];
            for (k, t) in v.iter().enumerate() {
                x[k] = t
                    .trim()
                    .parse()
                    .map_err(|_| bad(format!("{t:?} is not a number")))?;
            }
            Noise {
                aim: x[0],
                speed: x[1],
                english: x[2],
                follow: x[3],
            }
        }
    };
    n.check().map_err(bad)?;
    Ok(Some(n))
}

pub fn run(a: &PlayArgs) -> Result<(), CliError> {
    for (flag, given) in [
        ("--shots", a.shots.is_some()),
        ("--render", a.render.is_some()),
        ("--out", a.out.is_some()),
    ] {
        if given {
            return Err(CliError::input(format!(
                "{flag}: not with --agent (the search player chooses its own shots)"
            )));
        }
    }
    if a.game.ends_with(".json") {
        return Err(CliError::input(
            "--agent: racks new games: give a game's name, not a game file",
        ));
    }
    let kind = GameKind::parse(&a.game).map_err(|e| CliError::input(format!("play: {e}")))?;
    let games = a.games.unwrap_or(1);
    if games == 0 {
        return Err(CliError::input("--games: must be at least 1 (got 0)"));
    }
    let noise = noise(a.noise.as_deref())?;
    let seed = a.seed.unwrap_or(1);
    let mut agent = Agent::new(noise, seed);
    let (mut runouts, mut ended, mut shots, mut thinking) = (0u64, 0u64, 0u64, 0.0f64);
    for k in 0..games {
        let s = seed.wrapping_add(k);
        let r =
            run_rack(kind, s, &mut agent).map_err(|e| CliError::run(format!("rack {s}: {e}")))?;
        thinking += r.thinking;
        shots += r.decisions as u64;
        runouts += u64::from(r.run_out);
        ended += u64::from(r.break_ended);
        let line = if r.run_out {
            format!("rack {s}: run out in {} shots\n", r.shots)
        } else if r.break_ended {
            format!("rack {s}: the break ended the game: {}\n", r.last)
        } else {
            format!("rack {s}: {} shots; last: {}\n", r.shots, r.last)
        };
        crate::print_stdout(&line);
    }
    let played = games - ended;
    let rate = 100.0 * runouts as f64 / played.max(1) as f64;
    let per = if shots > 0 {
        1e3 * thinking / shots as f64
    } else {
        0.0
    };
    let summary = if kind.is_pool() {
        format!(
            "run-outs: {runouts} of {played} racks played from ball in hand ({rate:.0} %); \
             {ended} breaks ended the game\n"
        )
    } else {
        format!("run-outs: {runouts} of {played} games won in the first inning ({rate:.0} %)\n")
    };
    crate::print_stdout(&format!(
        "{summary}decision time: {per:.0} ms per shot over {shots} shots ({} shots simulated)\n",
        agent.simulated
    ));
    Ok(())
}
