//! Cushion paths by mirror images: the first guess of a bank or a kick.
//!
//! A ball's centre turns on a cushion along the line a radius in from the nose. A
//! specular rebound off that line is a straight line into the table's mirror image
//! across it, so a path off cushions `a` then `b` to a point `p` is the straight line to
//! `p` mirrored across `b` and then across `a`. Folding that line back gives the points
//! where the ball meets each cushion; the path exists when each of them lies on its
//! cushion (inside the surface's span, and away from every pocket's mouth). The
//! engine's rebound is not specular (speed, spin and the cushion's height turn it), so
//! the mirror path is only where the solver starts its sweep.
//!
//! Cushions are numbered as the aim's routes name them: 0 the left (head), 1 the right
//! (foot), 2 the top, 3 the bottom.

use crate::game::Game;

/// The cushions' names by number.
pub const CUSHIONS: [&str; 4] = ["left", "right", "top", "bottom"];

/// The lines the ball's centre turns on: `x0, x1, y0, y1`.
fn lines(game: &Game) -> [f64; 4] {
    let t = &game.table;
    let r = t.balls.radius;
    [
        t.rail + r,
        t.rail + t.length - r,
        t.rail + r,
        t.rail + t.width - r,
    ]
}

/// `p` mirrored across cushion `c`'s line of turning.
pub fn mirror(game: &Game, p: [f64; 2], c: usize) -> [f64; 2] {
    let l = lines(game)[c];
    if c < 2 {
        [2.0 * l - p[0], p[1]]
    } else {
        [p[0], 2.0 * l - p[1]]
    }
}

/// Where the segment `a -> b` crosses cushion `c`'s line, as a fraction of the
/// segment and the point; `None` when it does not cross it.
fn crossing(game: &Game, a: [f64; 2], b: [f64; 2], c: usize) -> Option<(f64, [f64; 2])> {
    let l = lines(game)[c];
    let axis = usize::from(c >= 2);
    let d = b[axis] - a[axis];
    if d == 0.0 {
        return None;
    }
    let t = (l - a[axis]) / d;
    if !(t > 0.0 && t < 1.0) {
        return None;
    }
    Some((t, [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]))
}

/// Whether a ball turning at `q` on cushion `c` meets the cushion: inside the span of
/// the other two lines and clear of every pocket's mouth.
fn on_cushion(game: &Game, q: [f64; 2], c: usize) -> bool {
    let l = lines(game);
    let along = if c < 2 { q[1] } else { q[0] };
    let (lo, hi) = if c < 2 { (l[2], l[3]) } else { (l[0], l[1]) };
    if !(along > lo && along < hi) {
        return false;
    }
    let r = game.table.balls.radius;
    game.table.pockets.iter().all(|p| {
        let d = (q[0] - p.center[0]).hypot(q[1] - p.center[1]);
        d > 0.5 * p.mouth + r
    })
}

/// The path of a ball's centre from `from` off cushions `rails` in order (one or
/// two, no cushion twice in a row) to `to`: the points where it meets the cushions,
/// or an error naming why there is none.
pub fn path(
    game: &Game,
    from: [f64; 2],
    to: [f64; 2],
    rails: &[usize],
) -> Result<Vec<[f64; 2]>, String> {
    let names = || {
        rails
            .iter()
            .map(|&c| CUSHIONS.get(c).copied().unwrap_or("?"))
            .collect::<Vec<_>>()
            .join(" then ")
    };
    if rails.is_empty() || rails.len() > 2 {
        return Err(format!(
            "a cushion path takes one or two cushions (got {})",
            rails.len()
        ));
    }
    if let Some(&c) = rails.iter().find(|&&c| c > 3) {
        return Err(format!(
            "cushion {c} does not exist (cushions 0 to 3: left, right, top, bottom)"
        ));
    }
    if rails.len() == 2 && rails[0] == rails[1] {
        return Err(format!(
            "the {} cushion twice in a row is no path",
            CUSHIONS[rails[0]]
        ));
    }
    // The images of `to` across the cushions from the last back to the first: the
    // k-th is where the path aims after meeting cushion k - 1.
    let mut images = vec![to];
    for &c in rails.iter().rev() {
        let last = images[images.len() - 1];
        images.push(mirror(game, last, c));
    }
    images.reverse();
    let mut at = from;
    let mut points = Vec::with_capacity(rails.len());
    for (k, &c) in rails.iter().enumerate() {
        let Some((_, q)) = crossing(game, at, images[k], c) else {
            return Err(format!(
                "no path off the {} cushion: the line does not reach it",
                names()
            ));
        };
        if !on_cushion(game, q, c) {
            return Err(format!(
                "no path off the {} cushion: the ball would meet the {} cushion's line at \
                 ({:.3}, {:.3}), off the cushion",
                names(),
                CUSHIONS[c],
                q[0],
                q[1]
            ));
        }
        points.push(q);
        at = q;
    }
    Ok(points)
}

/// Whether a ball of radius `r` moving from `a` to `b` would touch a ball at `q`.
pub fn blocks(a: [f64; 2], b: [f64; 2], q: [f64; 2], r: f64) -> bool {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((q[0] - a[0]) * dx + (q[1] - a[1]) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (cx, cy) = (a[0] + t * dx, a[1] + t * dy);
    (q[0] - cx).hypot(q[1] - cy) < 2.0 * r
}

/// Whether the polyline `points` is clear of every ball but those numbered in `skip`.
pub fn clear(game: &Game, points: &[[f64; 2]], skip: &[u32]) -> bool {
    let r = game.table.balls.radius;
    points.windows(2).all(|w| {
        game.balls
            .iter()
            .filter(|b| !skip.contains(&b.0))
            .all(|b| !blocks(w[0], w[1], b.1, r))
    })
}

/// The length of the polyline.
pub fn length(points: &[[f64; 2]]) -> f64 {
    points
        .windows(2)
        .map(|w| (w[1][0] - w[0][0]).hypot(w[1][1] - w[0][1]))
        .sum()
}
