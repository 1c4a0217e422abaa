//! Aiming: the ghost-ball aim, and an aim solved with the engine in the loop.
//!
//! Angles are degrees as arcs are measured, from +x towards +y (the cue's `aim`).
//!
//! The ghost-ball aim sends the cue ball to the place the object ball's centre would
//! be pushed from along the line to the pocket: one diameter behind the object ball on
//! that line. It ignores throw (the object ball leaves a little off the line of
//! centres, dragged by friction between the balls, more with english and at low
//! speed), the cue ball's curve, and cushions.
//!
//! The solved aim simulates: it sweeps aims around a first guess (the ghost-ball aim at
//! the pocket, and for a one-rail bank at the pocket's mirror image across each
//! cushion, moved in by a ball's radius, where the ball's centre turns), shooting each
//! with the engine, and keeps the middle of the widest run of aims that pot the ball in
//! the pocket: the aim with the most room for error either way. Throw, spin, swerve and
//! the cushions' real rebound are all in it, because the engine is.

use crate::game::Game;
use crate::shot::{simulate, Shot};

/// How far either side of a first guess the solver sweeps, degrees.
pub const SWEEP: f64 = 4.0;
/// The sweep's step, degrees: a pocket of about 5 cm seen from 1 m is 3 degrees wide,
/// so a 0.05 degree step samples it some 60 times.
pub const STEP: f64 = 0.05;

/// The route of a solved shot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// Straight into the pocket (a cut, throw included).
    Direct,
    /// Off one cushion first: 0 the left (head), 1 the right (foot), 2 the top, 3 the
    /// bottom cushion.
    Bank(usize),
}

/// A solved aim.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Solution {
    pub aim: f64,
    pub route: Route,
    /// The width of the run of aims that pot, degrees.
    pub window: f64,
}

fn degrees(from: [f64; 2], to: [f64; 2]) -> f64 {
    (to[1] - from[1]).atan2(to[0] - from[0]).to_degrees()
}

/// The ghost-ball aim of the cue ball at ball `ball` to send it towards `target` (a
/// point), or straight at the ball's centre without one. `None` if a ball is not on
/// the table.
pub fn ghost_aim(game: &Game, ball: u32, target: Option<[f64; 2]>) -> Option<f64> {
    let cue = game.kind().cue_ball(game.state.player);
    let c = game.balls.iter().find(|b| b.0 == cue)?.1;
    let o = game.balls.iter().find(|b| b.0 == ball)?.1;
    let Some(p) = target else {
        return Some(degrees(c, o));
    };
    let d = (p[0] - o[0]).hypot(p[1] - o[1]);
    if d == 0.0 {
        return Some(degrees(c, o));
    }
    let two_r = 2.0 * game.table.balls.radius;
    let ghost = [
        o[0] - two_r * (p[0] - o[0]) / d,
        o[1] - two_r * (p[1] - o[1]) / d,
    ];
    Some(degrees(c, ghost))
}

/// The ghost-ball aim as [`ghost_aim`] and [`ghost_aim_at_pocket`] give it, but a
/// one-line error naming what is wrong instead of `None`: a ball that is not on the
/// table (the cue ball or `ball`, or `ball` the striker itself) or a pocket that does
/// not exist.
pub fn ghost_aim_checked(game: &Game, ball: u32, pocket: Option<usize>) -> Result<f64, String> {
    check_ball(game, ball)?;
    let target = pocket.map(|k| pocket_center(game, k)).transpose()?;
    ghost_aim(game, ball, target).ok_or_else(|| "aim: the cue ball is not on the table".into())
}

/// [`solve`], with bad input a one-line error naming it (a ball not on the table, a
/// pocket that does not exist, a speed or tip offset out of range) rather than `None`;
/// `Ok(None)` means only that no aim pots the ball.
pub fn solve_checked(
    game: &Game,
    ball: u32,
    pocket: usize,
    speed: f64,
    english: f64,
    follow: f64,
) -> Result<Option<Solution>, String> {
    check_ball(game, ball)?;
    pocket_center(game, pocket)?;
    Shot {
        speed,
        aim: 0.0,
        english,
        follow,
        elevation: 0.0,
    }
    .check()
    .map_err(|e| format!("aim: {e}"))?;
    Ok(solve(game, ball, pocket, speed, english, follow))
}

/// `ball` is an object ball on the table, not the one the player to shoot strikes.
fn check_ball(game: &Game, ball: u32) -> Result<(), String> {
    let cue = game.kind().cue_ball(game.state.player);
    if ball == cue {
        return Err(format!(
            "aim: ball {ball} is the ball the player to shoot strikes"
        ));
    }
    if !game.balls.iter().any(|b| b.0 == ball) {
        return Err(format!(
            "aim: ball {ball} is not on the table (on it: {:?})",
            game.balls.iter().map(|b| b.0).collect::<Vec<_>>()
        ));
    }
    Ok(())
}

/// The centre of pocket `k`, or an error naming the pockets there are.
fn pocket_center(game: &Game, k: usize) -> Result<[f64; 2], String> {
    match game.table.pockets.get(k) {
        Some(p) => Ok(p.center),
        None if game.table.pockets.is_empty() => Err(format!(
            "aim: pocket {k}: the {} table has no pockets",
            game.table.kind.name()
        )),
        None => Err(format!(
            "aim: pocket {k} does not exist (pockets 0 to {})",
            game.table.pockets.len() - 1
        )),
    }
}

/// The ghost-ball aim at pocket `pocket` (its index).
pub fn ghost_aim_at_pocket(game: &Game, ball: u32, pocket: usize) -> Option<f64> {
    let p = game.table.pockets.get(pocket)?.center;
    ghost_aim(game, ball, Some(p))
}

/// Whether the shot pots `ball` in `pocket` from the game's position.
fn pots(game: &Game, shot: &Shot, ball: u32, pocket: usize) -> bool {
    let cue = game.kind().cue_ball(game.state.player);
    simulate(&game.setup(), cue, shot).is_ok_and(|o| {
        o.facts
            .pocketed
            .iter()
            .any(|p| p.1 == ball && p.2 as usize == pocket)
    })
}

/// The middle and width of the widest run of aims around `guess` that pot.
fn sweep(game: &Game, template: &Shot, ball: u32, pocket: usize, guess: f64) -> Option<(f64, f64)> {
    let n = (SWEEP / STEP).round() as i64;
    let mut best: Option<(f64, f64)> = None;
    let mut run_start: Option<i64> = None;
    for k in -n..=n + 1 {
        let ok = k <= n && {
            let shot = Shot {
                aim: guess + k as f64 * STEP,
                ..*template
            };
            pots(game, &shot, ball, pocket)
        };
        match (ok, run_start) {
            (true, None) => run_start = Some(k),
            (false, Some(s)) => {
                let width = (k - s) as f64 * STEP;
                let mid = guess + 0.5 * (s + k - 1) as f64 * STEP;
                if best.is_none_or(|b| width > b.1) {
                    best = Some((mid, width));
                }
                run_start = None;
            }
            _ => {}
        }
    }
    best
}

/// The aim that pots `ball` in `pocket` with the given speed and tip offsets, found
/// with the engine: a direct shot if one pots, else the best one-rail bank; `None`
/// when no aim in the sweeps does.
pub fn solve(
    game: &Game,
    ball: u32,
    pocket: usize,
    speed: f64,
    english: f64,
    follow: f64,
) -> Option<Solution> {
    let (template, p) = template_and_pocket(game, pocket, speed, english, follow)?;
    let guess = ghost_aim(game, ball, Some(p))?;
    if let Some((aim, window)) = sweep(game, &template, ball, pocket, guess) {
        return Some(Solution {
            aim,
            route: Route::Direct,
            window,
        });
    }
    solve_bank(game, ball, pocket, speed, english, follow)
}

/// The best one-rail bank that pots `ball` in `pocket` (the widest run of potting aims
/// over the four cushions), direct shots aside; `None` when none does.
pub fn solve_bank(
    game: &Game,
    ball: u32,
    pocket: usize,
    speed: f64,
    english: f64,
    follow: f64,
) -> Option<Solution> {
    let (template, p) = template_and_pocket(game, pocket, speed, english, follow)?;
    let mut best: Option<Solution> = None;
    for (k, mirror) in mirrors(game, p).into_iter().enumerate() {
        let Some(guess) = ghost_aim(game, ball, Some(mirror)) else {
            continue;
        };
        if let Some((aim, window)) = sweep(game, &template, ball, pocket, guess) {
            if best.is_none_or(|b| window > b.window) {
                best = Some(Solution {
                    aim,
                    route: Route::Bank(k),
                    window,
                });
            }
        }
    }
    best
}

/// The shot both searches vary the aim of, and the pocket's centre; `None` when the
/// shot's numbers are out of range or there is no such pocket.
fn template_and_pocket(
    game: &Game,
    pocket: usize,
    speed: f64,
    english: f64,
    follow: f64,
) -> Option<(Shot, [f64; 2])> {
    let template = Shot {
        speed,
        aim: 0.0,
        english,
        follow,
        elevation: 0.0,
    };
    template.check().ok()?;
    Some((template, game.table.pockets.get(pocket)?.center))
}

/// The pocket's images across the four cushions' lines of turning (the noses moved in
/// by a radius): left, right, top, bottom.
fn mirrors(game: &Game, p: [f64; 2]) -> [[f64; 2]; 4] {
    let t = &game.table;
    let r = t.balls.radius;
    let (x0, x1) = (t.rail + r, t.rail + t.length - r);
    let (y0, y1) = (t.rail + r, t.rail + t.width - r);
    [
        [2.0 * x0 - p[0], p[1]],
        [2.0 * x1 - p[0], p[1]],
        [p[0], 2.0 * y0 - p[1]],
        [p[0], 2.0 * y1 - p[1]],
    ]
}
