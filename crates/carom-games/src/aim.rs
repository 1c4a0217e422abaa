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

use std::sync::Mutex;

use rayon::prelude::*;

use crate::game::Game;
use crate::paths;
use crate::shot::{simulate, Facts, Position, Shot};

/// How far either side of a first guess the solver sweeps, degrees.
pub const SWEEP: f64 = 4.0;
/// The sweep's step, degrees: a pocket of about 5 cm seen from 1 m is 3 degrees wide,
/// so a 0.05 degree step samples it some 60 times.
pub const STEP: f64 = 0.05;
/// How far either side of a route's first guess [`solve_route`] sweeps, degrees: a
/// cushion turns a ball off the mirror line by a few degrees (spin, speed, the
/// cushion's height), two cushions by more.
pub const ROUTE_SWEEP: f64 = 6.0;
/// [`solve_route`]'s coarse step, and its fine step across the coarse window found
/// (degrees): a 0.1 degree coarse step finds windows that wide; the fine step measures
/// them to 0.02 degrees.
pub const COARSE_STEP: f64 = 0.1;
pub const FINE_STEP: f64 = 0.02;

/// The route of a solved shot. Cushions are numbered 0 the left (head), 1 the right
/// (foot), 2 the top, 3 the bottom ([`crate::paths::CUSHIONS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// Straight into the pocket (a cut, throw included).
    Direct,
    /// The object ball off one cushion first.
    Bank(usize),
    /// The object ball off two cushions, in this order.
    Bank2(usize, usize),
    /// The cue ball off one cushion onto the object ball, which drops.
    Kick(usize),
    /// The cue ball off two cushions, in this order, onto the object ball.
    Kick2(usize, usize),
    /// The cue ball onto this ball first, which drives the object ball in.
    Combination(u32),
}

impl Route {
    /// The kind of shot: `direct`, `bank`, `kick` or `combination`.
    pub fn kind(self) -> &'static str {
        match self {
            Route::Direct => "direct",
            Route::Bank(_) | Route::Bank2(..) => "bank",
            Route::Kick(_) | Route::Kick2(..) => "kick",
            Route::Combination(_) => "combination",
        }
    }

    /// The cushions the route goes off, in order.
    pub fn cushions(self) -> Vec<usize> {
        match self {
            Route::Bank(a) | Route::Kick(a) => vec![a],
            Route::Bank2(a, b) | Route::Kick2(a, b) => vec![a, b],
            Route::Direct | Route::Combination(_) => Vec::new(),
        }
    }

    /// The ball the cue ball meets first in a combination.
    pub fn via(self) -> Option<u32> {
        match self {
            Route::Combination(n) => Some(n),
            _ => None,
        }
    }

    /// A route from its kind's name, the cushions and the ball met first; a one-line
    /// error when they do not make one (a bank or kick needs one or two cushions, a
    /// combination a ball and no cushion).
    pub fn parse(kind: &str, cushions: &[usize], via: Option<u32>) -> Result<Route, String> {
        let no_via = |k: &str| match via {
            Some(n) => Err(format!("aim: a {k} shot meets no ball first (got via {n})")),
            None => Ok(()),
        };
        match (kind, cushions) {
            ("direct", []) => no_via("direct").map(|_| Route::Direct),
            ("direct", _) => Err("aim: a direct shot goes off no cushion".into()),
            ("bank", [a]) => no_via("bank").map(|_| Route::Bank(*a)),
            ("bank", [a, b]) => no_via("bank").map(|_| Route::Bank2(*a, *b)),
            ("kick", [a]) => no_via("kick").map(|_| Route::Kick(*a)),
            ("kick", [a, b]) => no_via("kick").map(|_| Route::Kick2(*a, *b)),
            ("bank" | "kick", c) => Err(format!(
                "aim: a {kind} shot goes off one or two cushions (got {})",
                c.len()
            )),
            ("combination", []) => via
                .map(Route::Combination)
                .ok_or_else(|| "aim: a combination needs the ball met first (via)".into()),
            ("combination", _) => Err("aim: a combination goes off no cushion".into()),
            (k, _) => Err(format!(
                "aim: {k:?} is no kind of shot (direct, bank, kick, combination)"
            )),
        }
    }
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

fn position_of(game: &Game, n: u32) -> Option<[f64; 2]> {
    game.balls.iter().find(|b| b.0 == n).map(|b| b.1)
}

/// Where a ball's centre must be to send the ball at `o` towards `p`: one diameter
/// behind it on that line (`None` when the two coincide).
pub fn ghost_point(o: [f64; 2], p: [f64; 2], radius: f64) -> Option<[f64; 2]> {
    let d = (p[0] - o[0]).hypot(p[1] - o[1]);
    if d == 0.0 {
        return None;
    }
    let two_r = 2.0 * radius;
    Some([
        o[0] - two_r * (p[0] - o[0]) / d,
        o[1] - two_r * (p[1] - o[1]) / d,
    ])
}

/// The geometric first guess at the aim of `route` (degrees): the ghost-ball aim at
/// the pocket (direct), at the point where the object ball's mirror path meets its
/// first cushion (bank), the cue ball's mirror path to the ghost ball (kick), or the
/// ghost ball of the ball met first for sending it into the object ball's ghost ball
/// (combination). A one-line error for bad input: a ball not on the table, a pocket
/// that does not exist, a cushion path that does not exist.
pub fn route_guess(game: &Game, ball: u32, pocket: usize, route: Route) -> Result<f64, String> {
    check_ball(game, ball)?;
    let p = pocket_center(game, pocket)?;
    let cue = game.kind().cue_ball(game.state.player);
    let c = position_of(game, cue).ok_or("aim: the cue ball is not on the table")?;
    let o = position_of(game, ball).ok_or("aim: the ball is not on the table")?;
    let r = game.table.balls.radius;
    let none = || format!("aim: ball {ball} lies on the pocket's centre");
    let rails = route.cushions();
    let no_path = |e: String| {
        format!(
            "aim: {} of ball {ball} into pocket {pocket}: {e}",
            route.kind()
        )
    };
    match route {
        Route::Direct => {
            let g = ghost_point(o, p, r).ok_or_else(none)?;
            Ok(degrees(c, g))
        }
        Route::Bank(_) | Route::Bank2(..) => {
            let q = paths::path(game, o, p, &rails).map_err(no_path)?;
            let g = ghost_point(o, q[0], r).ok_or_else(none)?;
            Ok(degrees(c, g))
        }
        Route::Kick(_) | Route::Kick2(..) => {
            let g = ghost_point(o, p, r).ok_or_else(none)?;
            let q = paths::path(game, c, g, &rails).map_err(no_path)?;
            Ok(degrees(c, q[0]))
        }
        Route::Combination(via) => {
            check_ball(game, via)?;
            if via == ball {
                return Err(format!(
                    "aim: combination: ball {ball} cannot be met first and driven in"
                ));
            }
            let a = position_of(game, via).ok_or("aim: the ball met first is not on the table")?;
            let gb = ghost_point(o, p, r).ok_or_else(none)?;
            let ga = ghost_point(a, gb, r).ok_or_else(none)?;
            Ok(degrees(c, ga))
        }
    }
}

/// Whether the facts of a shot make `route`: `ball` drops in `pocket`, the cue ball
/// stays on the table and meets the right ball first (`ball`, or for a combination
/// the ball met first), and the ball (bank) or the cue ball before its first contact (kick) meets
/// at least the route's number of cushions.
pub fn makes(route: Route, facts: &Facts, cue: u32, ball: u32, pocket: usize) -> bool {
    let Some(drop) = facts
        .pocketed
        .iter()
        .find(|p| p.1 == ball && p.2 as usize == pocket)
    else {
        return false;
    };
    if facts.is_pocketed(cue) {
        return false;
    }
    let rails = route.cushions().len();
    match route {
        Route::Direct => facts.first_contact == Some(ball),
        Route::Bank(_) | Route::Bank2(..) => {
            facts.first_contact == Some(ball)
                && facts
                    .cushions
                    .iter()
                    .filter(|c| c.1 == ball && c.0 < drop.0)
                    .count()
                    >= rails
        }
        Route::Kick(_) | Route::Kick2(..) => {
            let t = facts.first_contact_time().unwrap_or(0.0);
            facts.first_contact == Some(ball)
                && facts
                    .cushions
                    .iter()
                    .filter(|c| c.1 == cue && c.0 < t)
                    .count()
                    >= rails
        }
        Route::Combination(via) => facts.first_contact == Some(via),
    }
}

/// The facts of the shot `template` at each aim from `game`'s position (`None` for a
/// shot the engine gave up on), simulated in parallel on copies of one prepared world:
/// the same on any number of threads.
pub fn facts_at(game: &Game, template: &Shot, aims: &[f64]) -> Vec<Option<Facts>> {
    let cue = game.kind().cue_ball(game.state.player);
    let position = Position::new(&game.setup()).ok().map(Mutex::new);
    let copy = || {
        position
            .as_ref()
            .and_then(|p| p.lock().ok().and_then(|p| p.try_clone()))
    };
    aims.par_iter()
        .map_init(copy, |p, &aim| {
            let shot = Shot { aim, ..*template };
            let out = match p {
                Some(p) => p.simulate(cue, &shot),
                None => simulate(&game.setup(), cue, &shot),
            };
            out.ok().map(|o| o.facts)
        })
        .collect()
}

/// The first and last index of the longest run of `true` (the earliest if tied).
pub fn widest_run(ok: &[bool]) -> Option<(usize, usize)> {
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

/// The middle and width (degrees) of the widest run of aims that `ok` accepts within
/// `half` degrees of `guess`: a coarse sweep at [`COARSE_STEP`], then a fine one at
/// [`FINE_STEP`] across the coarse window and a coarse step beyond each edge.
pub fn refine(
    game: &Game,
    template: &Shot,
    guess: f64,
    half: f64,
    ok: impl Fn(&Facts) -> bool,
) -> Option<(f64, f64)> {
    let n = (half / COARSE_STEP).round() as i64;
    let aims: Vec<f64> = (-n..=n).map(|k| guess + k as f64 * COARSE_STEP).collect();
    let hits: Vec<bool> = facts_at(game, template, &aims)
        .iter()
        .map(|f| f.as_ref().is_some_and(&ok))
        .collect();
    let (s, e) = widest_run(&hits)?;
    let lo = aims[s] - COARSE_STEP;
    let m = ((aims[e] + COARSE_STEP - lo) / FINE_STEP).round() as i64;
    let fine: Vec<f64> = (0..=m).map(|k| lo + k as f64 * FINE_STEP).collect();
    let hits: Vec<bool> = facts_at(game, template, &fine)
        .iter()
        .map(|f| f.as_ref().is_some_and(&ok))
        .collect();
    let (s, e) = widest_run(&hits)?;
    Some((0.5 * (fine[s] + fine[e]), (e - s + 1) as f64 * FINE_STEP))
}

/// The aim that makes `route` (pots `ball` in `pocket` that way, [`makes`]) with the
/// given speed and tip offsets, refined with the engine around the route's mirror-image
/// guess ([`route_guess`], [`refine`]); `Ok(None)` when no aim in the sweep makes it.
/// Bad input (a ball not on the table, no such pocket, a cushion path that does not
/// exist, a speed or tip offset out of range) is a one-line error.
pub fn solve_route(
    game: &Game,
    ball: u32,
    pocket: usize,
    route: Route,
    speed: f64,
    english: f64,
    follow: f64,
) -> Result<Option<Solution>, String> {
    let template = Shot {
        speed,
        aim: 0.0,
        english,
        follow,
        elevation: 0.0,
    };
    template.check().map_err(|e| format!("aim: {e}"))?;
    let guess = route_guess(game, ball, pocket, route)?;
    let cue = game.kind().cue_ball(game.state.player);
    let half = if route == Route::Direct {
        SWEEP
    } else {
        ROUTE_SWEEP
    };
    Ok(refine(game, &template, guess, half, |f| {
        makes(route, f, cue, ball, pocket)
    })
    .map(|(aim, window)| Solution { aim, route, window }))
}
