//! Where a ball touches a wall: the contact features of one piece of curve (a face, an
//! end, a joint of a polyline) and their nearest points, normals and surface tangents.
//!
//! A wall is a curve of zero thickness. A ball touches it where the distance from its
//! centre to the curve is a local minimum smaller than its radius; each local minimum
//! is one contact. Along a polyline the distance, as a function of the position along
//! the curve, has a local minimum inside a segment (the ball faces it), or at a joint
//! whose two segments both end nearest to the ball (a convex corner, seen from the
//! ball), or at a free end. A joint where one segment's nearest point is inside it is
//! no minimum: so a ball rolling over the joint of two collinear segments feels one
//! contact throughout, and a ball in a concave corner feels both faces.

use super::{Piece, Shape};

/// One contact between a ball and a piece of wall.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Touch {
    /// The piece touched (index into [`super::Walls::pieces`]).
    pub piece: u32,
    /// The wall the piece belongs to.
    pub wall: u32,
    /// What part of the piece: its face or one of its ends.
    pub feature: Feature,
    /// The nearest point of the curve.
    pub point: [f64; 2],
    /// Unit normal from the nearest point towards the ball's centre.
    pub normal: [f64; 2],
    /// Distance from the ball's centre to the nearest point.
    pub distance: f64,
    /// The curve's unit tangent at the nearest point, in the direction the wall's
    /// `surface_velocity` moves the surface (from the first point towards the last, or
    /// towards increasing angle on an arc).
    pub tangent: [f64; 2],
}

/// The part of a piece a contact is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Feature {
    /// Inside the segment or the arc.
    Face,
    /// The first end (a segment's first point, an arc's `from` end); at a joint of a
    /// polyline, the joint itself (each joint belongs to the segment it starts).
    Start,
    /// The last end.
    End,
}

#[inline]
fn sub(a: [f64; 2], b: [f64; 2]) -> [f64; 2] {
    [a[0] - b[0], a[1] - b[1]]
}

#[inline]
fn dot(a: [f64; 2], b: [f64; 2]) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

/// The unit vector along `d`, or `fallback` when `d` has no length.
#[inline]
fn unit_or(d: [f64; 2], len: f64, fallback: [f64; 2]) -> [f64; 2] {
    if len > 0.0 {
        [d[0] / len, d[1] / len]
    } else {
        fallback
    }
}

/// Where the angle `phi` (radians) falls on the arc that starts at `from` and spans
/// `span` (`0 < span <= 2 pi`): its offset from `from` in `[0, 2 pi)`.
#[inline]
pub fn arc_offset(phi: f64, from: f64) -> f64 {
    (phi - from).rem_euclid(std::f64::consts::TAU)
}

impl Piece {
    /// The contact of a ball centred at `p` with this piece, if the piece's nearest
    /// point is a contact feature (a local minimum of the distance, see the module's
    /// doc) closer than `reach`.
    #[inline]
    pub fn touch(&self, index: u32, p: [f64; 2], reach: f64) -> Option<Touch> {
        let (feature, point, tangent, fallback) = match self.shape {
            Shape::Segment { a, b } => {
                let d = sub(b, a);
                let len2 = dot(d, d);
                let s = dot(sub(p, a), d);
                let len = len2.sqrt();
                let tangent = [d[0] / len, d[1] / len];
                // The left normal (the side +90 degrees from the tangent) stands in
                // when the centre lies on the curve itself.
                let left = [-tangent[1], tangent[0]];
                if s <= 0.0 {
                    // Nearest at the first point: a contact only if it is a free end,
                    // or a joint the previous segment also ends nearest to.
                    if let Some(prev) = self.joint_before {
                        if dot(sub(p, a), prev) < 0.0 {
                            return None;
                        }
                    }
                    (Feature::Start, a, tangent, left)
                } else if s >= len2 {
                    // The last point is a joint only as the next segment's start.
                    if self.joint_after {
                        return None;
                    }
                    (Feature::End, b, tangent, left)
                } else {
                    let t = s / len2;
                    let q = [a[0] + t * d[0], a[1] + t * d[1]];
                    (Feature::Face, q, tangent, left)
                }
            }
            Shape::Arc {
                center,
                radius,
                from,
                span,
            } => {
                let d = sub(p, center);
                let dist = dot(d, d).sqrt();
                let phi = if dist > 0.0 { d[1].atan2(d[0]) } else { from };
                let off = arc_offset(phi, from);
                if span >= std::f64::consts::TAU || off <= span {
                    let (s, c) = (from + off).sin_cos();
                    let q = [center[0] + radius * c, center[1] + radius * s];
                    // Outside the circle the normal points away from the centre,
                    // inside it towards the centre; on it, outwards.
                    let out = [c, s];
                    let fallback = if dist < radius { [-c, -s] } else { out };
                    (Feature::Face, q, [-s, c], fallback)
                } else {
                    // Past the arc's ends: the nearer end.
                    let ends = [from, from + span];
                    let pts = ends.map(|a| {
                        let (s, c) = a.sin_cos();
                        [center[0] + radius * c, center[1] + radius * s]
                    });
                    let (k, q) = if dot(sub(p, pts[0]), sub(p, pts[0]))
                        <= dot(sub(p, pts[1]), sub(p, pts[1]))
                    {
                        (0, pts[0])
                    } else {
                        (1, pts[1])
                    };
                    let (s, c) = ends[k].sin_cos();
                    let feature = if k == 0 { Feature::Start } else { Feature::End };
                    (feature, q, [-s, c], [c, s])
                }
            }
        };
        let d = sub(p, point);
        let distance = dot(d, d).sqrt();
        if distance >= reach {
            return None;
        }
        Some(Touch {
            piece: index,
            wall: self.wall,
            feature,
            point,
            normal: unit_or(d, distance, fallback),
            distance,
            tangent,
        })
    }

    /// The axis-aligned box around the piece: `[x0, y0, x1, y1]`.
    pub fn bounds(&self) -> [f64; 4] {
        match self.shape {
            Shape::Segment { a, b } => [
                a[0].min(b[0]),
                a[1].min(b[1]),
                a[0].max(b[0]),
                a[1].max(b[1]),
            ],
            Shape::Arc {
                center,
                radius,
                from,
                span,
            } => {
                // The ends, and every axis direction the arc passes through.
                let mut bx = [
                    f64::INFINITY,
                    f64::INFINITY,
                    f64::NEG_INFINITY,
                    f64::NEG_INFINITY,
                ];
                let mut add = |a: f64| {
                    let (s, c) = a.sin_cos();
                    let q = [center[0] + radius * c, center[1] + radius * s];
                    bx = [
                        bx[0].min(q[0]),
                        bx[1].min(q[1]),
                        bx[2].max(q[0]),
                        bx[3].max(q[1]),
                    ];
                };
                add(from);
                add(from + span);
                for k in 0..4 {
                    let axis = k as f64 * std::f64::consts::FRAC_PI_2;
                    if span >= std::f64::consts::TAU || arc_offset(axis, from) <= span {
                        add(axis);
                    }
                }
                bx
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(a: [f64; 2], b: [f64; 2]) -> Piece {
        Piece {
            shape: Shape::Segment { a, b },
            wall: 0,
            joint_before: None,
            joint_after: false,
        }
    }

    #[test]
    fn a_segment_is_touched_on_its_face_from_either_side_and_at_its_ends() {
        let s = seg([0.0, 0.0], [10.0, 0.0]);
        let t = s.touch(0, [4.0, 3.0], 5.0).unwrap();
        assert_eq!(
            (t.feature, t.point, t.normal, t.distance),
            (Feature::Face, [4.0, 0.0], [0.0, 1.0], 3.0)
        );
        let t = s.touch(0, [4.0, -2.0], 5.0).unwrap();
        assert_eq!(t.normal, [0.0, -1.0]);
        // Beyond the end the nearest point is the end: a 3-4-5 triangle.
        let t = s.touch(0, [13.0, 4.0], 6.0).unwrap();
        assert_eq!(
            (t.feature, t.point, t.distance),
            (Feature::End, [10.0, 0.0], 5.0)
        );
        assert_eq!(t.normal, [0.6, 0.8]);
        assert!(s.touch(0, [13.0, 4.0], 5.0).is_none());
    }

    #[test]
    fn a_joint_is_a_contact_only_where_both_segments_end_nearest() {
        // A polyline (0,0) -> (10,0) -> (20,0): collinear. The second segment holds the
        // joint as its start, with the first segment's direction.
        let second = Piece {
            shape: Shape::Segment {
                a: [10.0, 0.0],
                b: [20.0, 0.0],
            },
            wall: 0,
            joint_before: Some([1.0, 0.0]),
            joint_after: false,
        };
        let first = Piece {
            shape: Shape::Segment {
                a: [0.0, 0.0],
                b: [10.0, 0.0],
            },
            wall: 0,
            joint_before: None,
            joint_after: true,
        };
        // A ball just left of the joint: the first segment's face, no joint contact.
        assert_eq!(
            first.touch(0, [9.9, 1.0], 2.0).unwrap().feature,
            Feature::Face
        );
        assert!(second.touch(1, [9.9, 1.0], 2.0).is_none());
        // A convex corner (0,0) -> (10,0) -> (20,-5) seen from above (y down means the
        // ball at y = -1 sits on the outside of the bend): the joint is the contact.
        let bent = Piece {
            shape: Shape::Segment {
                a: [10.0, 0.0],
                b: [20.0, -5.0],
            },
            wall: 0,
            joint_before: Some([1.0, 0.0]),
            joint_after: false,
        };
        let t = bent.touch(1, [10.2, 2.0], 3.0).unwrap();
        assert_eq!(t.feature, Feature::Start);
        assert!(first.touch(0, [10.2, 2.0], 3.0).is_none());
    }

    #[test]
    fn an_arc_is_touched_from_inside_and_outside_and_at_its_ends() {
        let quarter = Piece {
            shape: Shape::Arc {
                center: [0.0, 0.0],
                radius: 10.0,
                from: 0.0,
                span: std::f64::consts::FRAC_PI_2,
            },
            wall: 0,
            joint_before: None,
            joint_after: false,
        };
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let t = quarter.touch(0, [12.0 * h, 12.0 * h], 5.0).unwrap();
        assert_eq!(t.feature, Feature::Face);
        assert!((t.distance - 2.0).abs() < 1e-12 && (t.normal[0] - h).abs() < 1e-12);
        let t = quarter.touch(0, [8.0 * h, 8.0 * h], 5.0).unwrap();
        assert!((t.distance - 2.0).abs() < 1e-12 && (t.normal[0] + h).abs() < 1e-12);
        // Below the x axis (negative angles) the nearest point is the `from` end.
        let t = quarter.touch(0, [10.0, -3.0], 5.0).unwrap();
        assert_eq!(t.feature, Feature::Start);
        assert!((t.point[0] - 10.0).abs() < 1e-12 && t.point[1].abs() < 1e-12);
        let b = quarter.bounds();
        assert!(
            b[0].abs() < 1e-12
                && b[1].abs() < 1e-12
                && (b[2] - 10.0).abs() < 1e-12
                && (b[3] - 10.0).abs() < 1e-12
        );
    }
}
