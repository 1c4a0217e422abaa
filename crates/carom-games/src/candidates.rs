//! Candidate shots of a pool or snooker position, by kind: direct pots, banks (the
//! object ball off one or two cushions), kicks (the cue ball off one or two cushions
//! onto the object ball) and two-ball combinations.
//!
//! Geometry ranks them first ([`prospects`]): each route's mirror-image path must
//! exist ([`crate::paths::path`]), every leg of it must be clear of the other balls,
//! the cut must be under [`MAX_CUT`] and a side pocket must be entered near its axis.
//! A prospect's ease is the cosine of its cut (the product of both cuts for a
//! combination) times `exp(-L / EASE_LENGTH)`, `L` the length all the moving balls
//! travel, times a factor per kind for what the geometry leaves out (a cushion's
//! rebound, a second contact). [`shots`] then solves the easiest with the engine in
//! the loop ([`crate::aim::solve_route`]'s sweep) and lists those that make it, with
//! the aim and the width of their window.

use crate::aim::{ghost_point, makes, refine, route_guess, Route, ROUTE_SWEEP, SWEEP};
use crate::game::Game;
use crate::paths::{self, clear, length};
use crate::rules::{self, Call, On};
use crate::setups::GameKind;
use crate::shot::Shot;

/// Cuts beyond this (degrees) are not tried.
pub const MAX_CUT: f64 = 78.0;
/// The length over which a shot's ease falls by `e` (metres).
pub const EASE_LENGTH: f64 = 2.0;
/// The prospects [`shots`] solves with the engine, the easiest first.
pub const SOLVED: usize = 16;

/// A shot that pots `ball` in `pocket` by `route`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Candidate {
    pub ball: u32,
    pub pocket: usize,
    pub route: Route,
    /// The geometric ease (0 to 1).
    pub ease: f64,
    /// The first guess at the aim (degrees), from the mirror-image geometry.
    pub guess: f64,
    /// The cue speed the route is solved at (m/s).
    pub speed: f64,
    /// The solved aim and the width of its window of aims that make the route
    /// (degrees); for a prospect not solved, the guess and 0.
    pub aim: f64,
    pub window: f64,
    /// The call the rules need for the pot, if any.
    pub call: Option<Call>,
}

impl Candidate {
    /// The shot: the solved aim at the route's speed, no spin.
    pub fn shot(&self) -> Shot {
        Shot::new(self.speed, self.aim)
    }
}

/// The call a pot of `ball` in `pocket` needs: ten-ball calls every shot, eight-ball
/// the 8.
pub fn call_for(game: &Game, ball: u32, pocket: usize) -> Option<Call> {
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

/// The cue speed a route is tried at (m/s): more for every cushion and contact.
pub fn route_speed(route: Route) -> f64 {
    match route {
        Route::Direct => 2.6,
        Route::Bank(_) | Route::Kick(_) => 3.5,
        Route::Combination(_) => 3.2,
        Route::Bank2(..) | Route::Kick2(..) => 4.5,
    }
}

/// What the geometry leaves out of a route, as a factor on its ease.
fn kind_factor(route: Route) -> f64 {
    match route {
        Route::Direct => 1.0,
        Route::Bank(_) => 0.6,
        Route::Kick(_) => 0.5,
        Route::Combination(_) => 0.45,
        Route::Bank2(..) => 0.35,
        Route::Kick2(..) => 0.3,
    }
}

fn position(game: &Game, n: u32) -> Option<[f64; 2]> {
    game.balls.iter().find(|b| b.0 == n).map(|b| b.1)
}

fn unit(a: [f64; 2], b: [f64; 2]) -> Option<[f64; 2]> {
    let d = (b[0] - a[0]).hypot(b[1] - a[1]);
    (d > 1e-12).then(|| [(b[0] - a[0]) / d, (b[1] - a[1]) / d])
}

/// The cosine of the cut between the directions `a` and `b`, 0 beyond [`MAX_CUT`].
fn cut(a: [f64; 2], b: [f64; 2]) -> f64 {
    let c = a[0] * b[0] + a[1] * b[1];
    if c < MAX_CUT.to_radians().cos() {
        0.0
    } else {
        c
    }
}

/// Whether a ball arriving from `from` enters pocket `k`: a side pocket (on a long
/// cushion, away from the corners) takes balls within 60 degrees of its axis.
fn enters(game: &Game, from: [f64; 2], k: usize) -> bool {
    let t = &game.table;
    let p = t.pockets[k].center;
    let corner = p[0] < t.rail + 0.1 * t.length || p[0] > t.rail + 0.9 * t.length;
    corner || unit(from, p).is_some_and(|u| u[1].abs() >= 0.5)
}

/// The balls a pot may sink for the shooter: the balls the cue ball may meet first,
/// and in nine- and ten-ball any object ball (a legal hit on the lowest pots any).
fn wanted(game: &Game, first: &[u32]) -> Vec<u32> {
    match game.kind() {
        GameKind::NineBall | GameKind::TenBall => game.state.on_table.to_vec(),
        GameKind::Snooker if game.state.on != Some(On::Red) => Vec::new(),
        _ => first.to_vec(),
    }
}

/// The geometric ease of `route` potting `ball` in `pocket` and its first guess at
/// the aim; `None` when the route has no clear path (see the module's text).
fn prospect(game: &Game, ball: u32, pocket: usize, route: Route) -> Option<(f64, f64)> {
    let cue = game.kind().cue_ball(game.state.player);
    let c = position(game, cue)?;
    let o = position(game, ball)?;
    let p = game.table.pockets.get(pocket)?.center;
    let r = game.table.balls.radius;
    let guess = route_guess(game, ball, pocket, route).ok()?;
    let rails = route.cushions();
    let (cos, cue_path, ball_path, extra): (f64, Vec<[f64; 2]>, Vec<[f64; 2]>, f64) = match route {
        Route::Direct => {
            let g = ghost_point(o, p, r)?;
            (cut(unit(c, g)?, unit(o, p)?), vec![c, g], vec![o, p], 0.0)
        }
        Route::Bank(_) | Route::Bank2(..) => {
            let q = paths::path(game, o, p, &rails).ok()?;
            let g = ghost_point(o, q[0], r)?;
            let mut b = vec![o];
            b.extend(&q);
            b.push(p);
            (cut(unit(c, g)?, unit(o, q[0])?), vec![c, g], b, 0.0)
        }
        Route::Kick(_) | Route::Kick2(..) => {
            let g = ghost_point(o, p, r)?;
            let q = paths::path(game, c, g, &rails).ok()?;
            let mut a = vec![c];
            a.extend(&q);
            a.push(g);
            let last = q[q.len() - 1];
            (cut(unit(last, g)?, unit(o, p)?), a, vec![o, p], 0.0)
        }
        Route::Combination(via) => {
            let a = position(game, via)?;
            let gb = ghost_point(o, p, r)?;
            let ga = ghost_point(a, gb, r)?;
            if !clear(game, &[a, gb], &[cue, via, ball]) {
                return None;
            }
            let cos = cut(unit(c, ga)?, unit(a, gb)?) * cut(unit(a, gb)?, unit(o, p)?);
            (cos, vec![c, ga], vec![o, p], length(&[a, gb]))
        }
    };
    let skip = [cue, ball, route.via().unwrap_or(cue)];
    if cos <= 0.0
        || !clear(game, &cue_path, &skip)
        || !clear(game, &ball_path, &skip)
        || !enters(game, ball_path[ball_path.len() - 2], pocket)
    {
        return None;
    }
    let travel = length(&cue_path) + length(&ball_path) + extra;
    Some((
        cos * (-travel / EASE_LENGTH).exp() * kind_factor(route),
        guess,
    ))
}

/// Every route the position offers, by geometry alone (no simulation), the easiest
/// first: for each ball the rules let the cue ball meet first and each pocket, the
/// direct pot, banks off one and two cushions and kicks off one and two; and each
/// combination from such a ball onto a ball the shooter may pot. The aim of each is
/// its guess, its window 0. Empty for a carom table or a game that is over.
pub fn prospects(game: &Game) -> Vec<Candidate> {
    if game.state.over || game.table.pockets.is_empty() {
        return Vec::new();
    }
    let first = rules::rules(game.kind()).first_contacts(&game.state);
    let wanted = wanted(game, &first);
    let mut routes = vec![Route::Direct];
    for a in 0..4 {
        routes.push(Route::Bank(a));
        routes.push(Route::Kick(a));
        for b in 0..4 {
            if b != a {
                routes.push(Route::Bank2(a, b));
                routes.push(Route::Kick2(a, b));
            }
        }
    }
    let mut out = Vec::new();
    let mut add = |ball: u32, pocket: usize, route: Route| {
        if let Some((ease, guess)) = prospect(game, ball, pocket, route) {
            out.push(Candidate {
                ball,
                pocket,
                route,
                ease,
                guess,
                speed: route_speed(route),
                aim: guess,
                window: 0.0,
                call: call_for(game, ball, pocket),
            });
        }
    };
    for pocket in 0..game.table.pockets.len() {
        for &t in &first {
            for &route in &routes {
                add(t, pocket, route);
            }
            for &b in wanted.iter().filter(|&&b| b != t) {
                add(b, pocket, Route::Combination(t));
            }
        }
    }
    out.sort_by(|a, b| b.ease.total_cmp(&a.ease));
    out
}

/// Solves a prospect with the engine at its speed (no spin): its aim and window, or
/// `None` when no aim in the sweep makes the route.
pub fn solve(game: &Game, c: &Candidate) -> Option<Candidate> {
    let cue = game.kind().cue_ball(game.state.player);
    let half = if c.route == Route::Direct {
        SWEEP
    } else {
        ROUTE_SWEEP
    };
    let template = Shot::new(c.speed, 0.0);
    let (aim, window) = refine(game, &template, c.guess, half, |f| {
        makes(c.route, f, cue, c.ball, c.pocket)
    })?;
    Some(Candidate { aim, window, ..*c })
}

/// The candidate shots of the position: the [`SOLVED`] easiest [`prospects`] solved
/// with the engine, those that make their route, the widest window first.
pub fn shots(game: &Game) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = prospects(game)
        .iter()
        .take(SOLVED)
        .filter_map(|c| solve(game, c))
        .collect();
    out.sort_by(|a, b| b.window.total_cmp(&a.window));
    out
}
