//! The ghost-ball geometry the search ranks and judges by: the ease of a pot, its
//! chance under an aim error, the paths' blockers, the spots for ball in hand.

use super::*;

pub(super) fn dist(a: [f64; 2], b: [f64; 2]) -> f64 {
    (b[0] - a[0]).hypot(b[1] - a[1])
}

pub(super) fn degrees(from: [f64; 2], to: [f64; 2]) -> f64 {
    (to[1] - from[1]).atan2(to[0] - from[0]).to_degrees()
}

pub(super) fn position(game: &Game, n: u32) -> Option<[f64; 2]> {
    game.balls.iter().find(|b| b.0 == n).map(|b| b.1)
}

pub(super) fn cue_position(game: &Game) -> Option<[f64; 2]> {
    position(game, game.kind().cue_ball(game.state.player))
}

/// Where the cue ball's centre must be to send `ball` straight at the centre of
/// `pocket`: one diameter behind the ball on that line.
pub(super) fn ghost(game: &Game, ball: u32, pocket: usize) -> Option<[f64; 2]> {
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
pub(super) fn ghost_aim(game: &Game, ball: u32, pocket: usize) -> Option<f64> {
    Some(degrees(cue_position(game)?, ghost(game, ball, pocket)?))
}

/// The ghost-ball line of potting `ball` in `pocket` from the cue ball at `c`: the
/// object ball `o`, the ghost ball `g`, the pocket's centre `p` and mouth, the cue
/// ball's path `d1` to the ghost, the object ball's `d2` to the pocket along the unit
/// `u`, and the cosine of the cut (1 when the cue ball sits on the ghost).
struct GhostLine {
    o: [f64; 2],
    g: [f64; 2],
    p: [f64; 2],
    mouth: f64,
    d1: f64,
    d2: f64,
    u: [f64; 2],
    cos_cut: f64,
}

fn ghost_line(game: &Game, c: [f64; 2], ball: u32, pocket: usize) -> Option<GhostLine> {
    let (Some(o), Some(g), Some(pk)) = (
        position(game, ball),
        ghost(game, ball, pocket),
        game.table.pockets.get(pocket),
    ) else {
        return None;
    };
    let p = pk.center;
    let (d1, d2) = (dist(c, g), dist(o, p));
    let u = [(p[0] - o[0]) / d2, (p[1] - o[1]) / d2];
    let cos_cut = if d1 > 1e-9 {
        ((g[0] - c[0]) * u[0] + (g[1] - c[1]) * u[1]) / d1
    } else {
        1.0
    };
    Some(GhostLine {
        o,
        g,
        p,
        mouth: pk.mouth,
        d1,
        d2,
        u,
        cos_cut,
    })
}

/// A geometric ease of potting `ball` in `pocket` from the cue ball at `c` (0: not
/// makeable): the cosine of the cut angle times `exp(-(d1 + d2) / EASE_LENGTH)`, `d1`
/// the cue ball's path to the ghost ball and `d2` the object ball's to the pocket;
/// zero beyond `MAX_CUT`, when another ball lies across either path, or for a side
/// pocket entered more than 60 degrees off its axis.
pub fn ease(game: &Game, c: [f64; 2], ball: u32, pocket: usize) -> f64 {
    let Some(GhostLine {
        o,
        g,
        p,
        d1,
        d2,
        u,
        cos_cut,
        ..
    }) = ghost_line(game, c, ball, pocket)
    else {
        return 0.0;
    };
    let r = game.table.balls.radius;
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
    let Some(GhostLine {
        p,
        d1,
        d2,
        u,
        cos_cut,
        mouth,
        ..
    }) = ghost_line(game, c, ball, pocket)
    else {
        return 0.0;
    };
    let r = game.table.balls.radius;
    // The line's turn per aim error grows as the cut's cosine falls; a floor keeps it
    // finite (the ease already refuses cuts beyond MAX_CUT, a cosine of 0.21).
    let cos_cut = if d1 > 1e-9 { cos_cut.max(0.2) } else { cos_cut };
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
    let tolerance = (0.5 * mouth - r).max(0.2 * r) * (0.4 + 0.6 * along);
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
pub(super) fn ranked_pairs(game: &Game) -> Vec<(u32, usize, f64)> {
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

/// Spots for the cue ball in hand: behind each ball the shooter may pot, on the
/// straight-in line and on lines that cut it 20 and 40 degrees either way (an angle
/// sends the cue ball off the line for the next ball), each at the distance that
/// gives the best chance under an aim error of `sigma` degrees ([`pot_chance`]),
/// where the rules let it go and clear of the balls. The pairs (ball, pocket) take
/// turns, the best pair first, and within a pair the best line first.
pub(super) fn spots(game: &Game, sigma: f64) -> Vec<([f64; 2], (u32, usize))> {
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
