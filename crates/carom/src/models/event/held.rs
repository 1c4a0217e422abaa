//! How a ball is held by a wall inside the table under gravity: the faces it rests on
//! (`on_face.rs`) or the circle it turns round (`on_round.rs`). Kept per ball by the
//! walls inside the table (`Inner::on`).

use super::kinds::NO_FACE;
use crate::pendulum::{wrap_angle, Pendulum};
use crate::walls::{Feature, Piece, Shape};

/// The faces (pieces) a ball rests on, each with its unit normal towards the ball, or
/// the circle it is held on (`on_round.rs`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct OnFace {
    pub(super) piece: [u32; 2],
    pub(super) normal: [[f64; 2]; 2],
    pub(super) round: Option<OnRound>,
}

impl OnFace {
    pub(super) const NONE: OnFace = OnFace {
        piece: [NO_FACE; 2],
        normal: [[0.0; 2]; 2],
        round: None,
    };

    pub(super) fn is_empty(&self) -> bool {
        self.piece == [NO_FACE; 2] && self.round.is_none()
    }

    pub(super) fn has_faces(&self) -> bool {
        self.piece != [NO_FACE; 2]
    }

    pub(super) fn holds(&self, piece: u32) -> bool {
        self.piece.contains(&piece)
    }
}

/// A ball's circle: what it turns round, and where that contact's region ends.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct OnRound {
    pub(super) center: [f64; 2],
    /// Pushed outwards (a corner, the outside of an arc) or inwards (inside an arc).
    pub(super) outside: bool,
    /// The piece turned round, and a second piece passed over in predictions (the
    /// segment that ends at a joint), or [`NO_FACE`].
    pub(super) piece: u32,
    pub(super) also: u32,
    pub(super) wall: u32,
    /// The ends of the contact's region: the angle of the ball's centre about `center`
    /// (radians from +x) at which it leaves, and whether it leaves there turning
    /// anticlockwise (angle growing).
    pub(super) ends: [(f64, bool); 4],
    pub(super) n_ends: u8,
}

#[inline]
pub(super) fn dot(a: [f64; 2], b: [f64; 2]) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

impl OnRound {
    /// The circle of a ball touching feature `feature` of piece `k` (`point`: the
    /// feature's nearest point to the ball, `p`: the ball's centre).
    pub(super) fn of(
        pieces: &[Piece],
        k: u32,
        feature: Feature,
        point: [f64; 2],
        p: [f64; 2],
    ) -> OnRound {
        let piece = pieces[k as usize];
        let mut round = OnRound {
            center: point,
            outside: true,
            piece: k,
            also: NO_FACE,
            wall: piece.wall,
            ends: [(0.0, false); 4],
            n_ends: 0,
        };
        // A region `dir . c >= 0` (dir the direction from the centre to the ball)
        // ends at the two directions perpendicular to `c`.
        let half_plane = |r: &mut OnRound, c: [f64; 2]| {
            let beta = c[1].atan2(c[0]);
            let n = r.n_ends as usize;
            r.ends[n] = (beta + std::f64::consts::FRAC_PI_2, true);
            r.ends[n + 1] = (beta - std::f64::consts::FRAC_PI_2, false);
            r.n_ends += 2;
        };
        match (piece.shape, feature) {
            (Shape::Segment { a, b }, Feature::Start) => {
                half_plane(&mut round, [a[0] - b[0], a[1] - b[1]]);
                if let Some(prev) = piece.joint_before {
                    half_plane(&mut round, prev);
                    round.also = k.wrapping_sub(1);
                }
            }
            (Shape::Segment { a, b }, _) => half_plane(&mut round, [b[0] - a[0], b[1] - a[1]]),
            (
                Shape::Arc {
                    center,
                    radius,
                    from,
                    span,
                },
                Feature::Face,
            ) => {
                round.center = center;
                round.outside = (p[0] - center[0]).hypot(p[1] - center[1]) >= radius;
                if span < std::f64::consts::TAU {
                    round.ends[0] = (from, false);
                    round.ends[1] = (from + span, true);
                    round.n_ends = 2;
                }
            }
            (Shape::Arc { from, .. }, Feature::Start) => {
                half_plane(&mut round, [from.sin(), -from.cos()]);
            }
            (Shape::Arc { from, span, .. }, Feature::End) => {
                let to = from + span;
                half_plane(&mut round, [-to.sin(), to.cos()]);
            }
        }
        round
    }

    /// Unit normal of the contact, towards the ball's centre at `p`.
    pub(super) fn normal(&self, p: [f64; 2]) -> [f64; 2] {
        let d = [p[0] - self.center[0], p[1] - self.center[1]];
        let len = d[0].hypot(d[1]);
        let s = if self.outside { 1.0 } else { -1.0 } / len;
        [s * d[0], s * d[1]]
    }

    /// The angles (in `pend`'s measure) at which the ball leaves this circle, each with
    /// the sense it leaves in (angle growing) and whether it is the push vanishing
    /// (else an end of the region); their count.
    pub(super) fn exits(&self, pend: &Pendulum) -> ([(f64, bool, bool); 6], usize) {
        let mut out = [(0.0, false, false); 6];
        let mut n = 0;
        let c = pend.release_cos();
        if c.abs() < 1.0 {
            // Outside, held while cos theta < c: leaves where it rises through c; inside
            // the reverse.
            let th = c.acos();
            out[0] = (th, !self.outside, true);
            out[1] = (-th, self.outside, true);
            n = 2;
        }
        for &(phi, rising) in &self.ends[..self.n_ends as usize] {
            out[n] = (pend.angle_of([phi.cos(), phi.sin()]), rising, false);
            n += 1;
        }
        (out, n)
    }

    /// Whether the ball on `pend`, at an end of its circle, is there because the push
    /// vanished (else it is at an end of the region): the nearer of the two angles.
    pub(super) fn nearest_is_release(&self, pend: &Pendulum) -> bool {
        let theta = pend.angle(0.0);
        let (exits, n) = self.exits(pend);
        exits[..n]
            .iter()
            .map(|&(target, _, release)| (wrap_angle(theta - target).abs(), release))
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .is_none_or(|(_, release)| release)
    }

    /// When the ball on `pend` next leaves this circle, and whether it is by the push
    /// vanishing (else by the end of the region).
    pub(super) fn leaves(&self, pend: &Pendulum) -> Option<(f64, bool)> {
        let (exits, n) = self.exits(pend);
        exits[..n]
            .iter()
            .filter_map(|&(target, rising, release)| {
                pend.reaches(target, rising).map(|t| (t, release))
            })
            .min_by(|a, b| a.0.total_cmp(&b.0))
    }
}
