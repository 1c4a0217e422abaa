//! `--color-by`: balls coloured by a quantity instead of their own colours.
//!
//! - `psi6`: the phase of the ball's local `psi_6` ([`carom::World::psi6_per_ball`]) as
//!   the hue, so that a crystallite is one colour and differently oriented grains
//!   differ; its modulus as the brightness (disordered balls dark).
//! - `speed`: the speed on a dark-to-light scale from 0 to three times the root mean
//!   square speed of the balls in play (faster balls clipped to the top).
//! - `size`: the radius on the same scale from the smallest to the largest radius.

use carom::{Rgb, World};

use crate::frame::Frame;

/// A quantity to colour the balls by (`--color-by`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColorBy {
    /// `psi6`: the hue the phase of the ball's local `psi_6`, the brightness its modulus.
    Psi6,
    /// `speed`: dark to light from 0 to three times the root mean square speed.
    Speed,
    /// `size`: dark to light from the smallest radius to the largest.
    Size,
}

impl ColorBy {
    /// The quantity named `s` on the command line (`psi6`, `speed`, `size`), if any.
    pub fn parse(s: &str) -> Option<ColorBy> {
        match s {
            "psi6" => Some(ColorBy::Psi6),
            "speed" => Some(ColorBy::Speed),
            "size" => Some(ColorBy::Size),
            _ => None,
        }
    }
}

/// Sets the colour of every ball of `frame` (filled from `world`) by `by`.
pub fn color_frame(frame: &mut Frame, world: &World, by: ColorBy) {
    let b = world.balls();
    let n = b.len().min(frame.balls.len());
    match by {
        ColorBy::Psi6 => {
            let per = world.psi6_per_ball();
            for (view, p) in frame.balls.iter_mut().zip(&per) {
                let hue = p[1].atan2(p[0]) / std::f64::consts::TAU + 0.5;
                let value = 0.25 + 0.75 * p[0].hypot(p[1]).min(1.0);
                view.color = Some(hsv(hue, 0.85, value));
            }
        }
        ColorBy::Speed => {
            let (mut v2, mut count) = (0.0, 0usize);
            for i in 0..n {
                if world.is_in_play(i) {
                    v2 += b.vx[i] * b.vx[i] + b.vy[i] * b.vy[i];
                    count += 1;
                }
            }
            let top = 3.0 * (v2 / count.max(1) as f64).sqrt();
            for (i, view) in frame.balls.iter_mut().enumerate().take(n) {
                let s = b.vx[i].hypot(b.vy[i]);
                let t = if top > 0.0 { s / top } else { 0.0 };
                view.color = Some(scale(t));
            }
        }
        ColorBy::Size => {
            let lo = b.r.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = b.r.iter().copied().fold(0.0, f64::max);
            for (i, view) in frame.balls.iter_mut().enumerate().take(n) {
                let t = if hi > lo {
                    (b.r[i] - lo) / (hi - lo)
                } else {
                    0.5
                };
                view.color = Some(scale(t));
            }
        }
    }
}

/// A dark-blue to yellow scale through teal and green, `t` in [0, 1] (clipped).
pub fn scale(t: f64) -> Rgb {
    const STOPS: [[f64; 3]; 5] = [
        [68.0, 1.0, 84.0],
        [59.0, 82.0, 139.0],
        [33.0, 145.0, 140.0],
        [94.0, 201.0, 98.0],
        [253.0, 231.0, 37.0],
    ];
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        1.0
    };
    let x = t * (STOPS.len() - 1) as f64;
    let k = (x.floor() as usize).min(STOPS.len() - 2);
    let f = x - k as f64;
    let c = |j: usize| (STOPS[k][j] + f * (STOPS[k + 1][j] - STOPS[k][j])).round() as u8;
    Rgb([c(0), c(1), c(2)])
}

/// A colour from hue (turns, any real), saturation and value in [0, 1].
pub fn hsv(hue: f64, s: f64, v: f64) -> Rgb {
    let h = if hue.is_finite() {
        hue.rem_euclid(1.0) * 6.0
    } else {
        0.0
    };
    let i = (h.floor() as usize).min(5);
    let f = h - i as f64;
    let (p, q, t) = (v * (1.0 - s), v * (1.0 - s * f), v * (1.0 - s * (1.0 - f)));
    let (r, g, b) = match i {
        0 => (v, t, p),
        1 => (q, v, p),
        2 => (p, v, t),
        3 => (p, q, v),
        4 => (t, p, v),
        _ => (v, p, q),
    };
    let u = |x: f64| (x * 255.0).round().clamp(0.0, 255.0) as u8;
    Rgb([u(r), u(g), u(b)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_runs_from_its_first_to_its_last_stop_and_clips() {
        assert_eq!(scale(0.0), Rgb([68, 1, 84]));
        assert_eq!(scale(1.0), Rgb([253, 231, 37]));
        assert_eq!(scale(-1.0), scale(0.0));
        assert_eq!(scale(7.0), scale(1.0));
        // Halfway is the middle stop exactly.
        assert_eq!(scale(0.5), Rgb([33, 145, 140]));
    }

    #[test]
    fn hsv_primaries() {
        assert_eq!(hsv(0.0, 1.0, 1.0), Rgb([255, 0, 0]));
        assert_eq!(hsv(1.0 / 3.0, 1.0, 1.0), Rgb([0, 255, 0]));
        assert_eq!(hsv(2.0 / 3.0, 1.0, 1.0), Rgb([0, 0, 255]));
        assert_eq!(hsv(0.3, 0.0, 1.0), Rgb([255, 255, 255]));
    }
}
