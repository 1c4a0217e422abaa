//! Walls that move: a rigid motion per wall (a translation, a turn about a pivot, and
//! a servo that moves the wall along an axis to hold a pressure on it).
//!
//! A moving wall keeps its pieces as they were given (its "base") and its place: the
//! displacement `offset` of its pivot and the angle `angle` it has turned through. Its
//! pieces now are the base pieces turned by `angle` about the pivot and moved by
//! `offset`, always recomputed from the base, so the place is a function of those two
//! numbers alone and a resumed run that reads them back continues bit for bit. A wall
//! without a turn is only translated (`p + offset`, no rotation arithmetic).
//!
//! The velocity of the wall's material at a point `q` is the rigid-body velocity
//! `v + omega x (q - c)` (`c` the pivot's place now), plus the servo's speed along its
//! axis; [`super::Walls::law_at`] adds it to the surface velocity, and the models
//! measure approach and slip relative to it.
//!
//! The servo's law is first order: with `F` the balls' normal force on the wall along
//! the axis (from the spring model's overlaps, `k s` per contact), `L` the wall's length
//! and `P` the target pressure, the wall moves towards the balls at
//! `u = (P L - F) / (k tau)`, `k` the contact stiffness and `tau` the servo's time
//! (`servo_time`). Against a packing of effective stiffness `K` the gap to the balance
//! `F = P L` then decays as `exp(-t K / (k tau))`: with one contact in series
//! (`K = k`) the time constant is `tau` itself; a stiffer packing (contacts in
//! parallel) answers faster, and the explicit update stays stable while
//! `dt K / (k tau) < 2`.

use super::{Piece, Shape};

/// A servo: the wall moves along `push` (a unit axis vector pointing from the wall
/// towards the balls) so that the balls' normal force on it per unit length holds at
/// `pressure`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Servo {
    pub pressure: f64,
    /// Unit vector along the servo's axis, from the wall towards the balls it holds.
    pub push: [f64; 2],
    /// The wall's length (a segment's, a polyline's sum, an arc's `radius * span`).
    pub length: f64,
    /// The time constant `tau` of the first-order law.
    pub time: f64,
    /// The speed along `push` this step (set from the forces at the step's start).
    pub speed: f64,
}

/// How one wall moves, and where it is.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Motion {
    /// Translation velocity.
    pub velocity: [f64; 2],
    /// Angular velocity (radians per time unit, counter-clockwise from +x to +y).
    pub angular_velocity: f64,
    /// The point the wall turns about, as given (it moves with the wall).
    pub pivot: [f64; 2],
    pub servo: Option<Servo>,
    /// How far the wall has moved since its points were given.
    pub offset: [f64; 2],
    /// How far it has turned about its pivot since (radians).
    pub angle: f64,
}

impl Motion {
    /// The wall's translation velocity now: its own plus the servo's.
    #[inline]
    pub fn translation(&self) -> [f64; 2] {
        match self.servo {
            Some(s) => [
                self.velocity[0] + s.speed * s.push[0],
                self.velocity[1] + s.speed * s.push[1],
            ],
            None => self.velocity,
        }
    }

    /// The velocity of the wall's material at point `q`.
    #[inline]
    pub fn velocity_at(&self, q: [f64; 2]) -> [f64; 2] {
        let v = self.translation();
        if self.angular_velocity == 0.0 {
            return v;
        }
        let c = [
            self.pivot[0] + self.offset[0],
            self.pivot[1] + self.offset[1],
        ];
        let w = self.angular_velocity;
        [v[0] - w * (q[1] - c[1]), v[1] + w * (q[0] - c[0])]
    }

    /// Moves the place on by `dt` at the current velocities.
    #[inline]
    pub fn advance(&mut self, dt: f64) {
        let v = self.translation();
        self.offset[0] += v[0] * dt;
        self.offset[1] += v[1] * dt;
        self.angle += self.angular_velocity * dt;
    }

    /// Where the point `p` of the base wall is now.
    #[inline]
    fn point(&self, p: [f64; 2], cs: (f64, f64)) -> [f64; 2] {
        if self.angle == 0.0 {
            return [p[0] + self.offset[0], p[1] + self.offset[1]];
        }
        let (s, c) = cs;
        let d = [p[0] - self.pivot[0], p[1] - self.pivot[1]];
        [
            self.pivot[0] + self.offset[0] + c * d[0] - s * d[1],
            self.pivot[1] + self.offset[1] + s * d[0] + c * d[1],
        ]
    }

    /// The base piece `base` placed where the wall is now.
    pub fn place(&self, base: &Piece) -> Piece {
        let cs = self.angle.sin_cos();
        let turn = |d: [f64; 2]| {
            if self.angle == 0.0 {
                d
            } else {
                [cs.1 * d[0] - cs.0 * d[1], cs.0 * d[0] + cs.1 * d[1]]
            }
        };
        let shape = match base.shape {
            Shape::Segment { a, b } => Shape::Segment {
                a: self.point(a, cs),
                b: self.point(b, cs),
            },
            Shape::Arc {
                center,
                radius,
                from,
                span,
            } => Shape::Arc {
                center: self.point(center, cs),
                radius,
                from: from + self.angle,
                span,
            },
        };
        Piece {
            shape,
            joint_before: base.joint_before.map(turn),
            ..*base
        }
    }
}

/// The length of a piece (a segment's, or an arc's `radius * span`).
pub fn length(p: &Piece) -> f64 {
    match p.shape {
        Shape::Segment { a, b } => (b[0] - a[0]).hypot(b[1] - a[1]),
        Shape::Arc { radius, span, .. } => radius * span,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_by_a_quarter_about_the_pivot_maps_points_as_the_rotation_does() {
        let m = Motion {
            pivot: [1.0, 1.0],
            angle: std::f64::consts::FRAC_PI_2,
            offset: [2.0, 0.0],
            ..Motion::default()
        };
        let base = Piece {
            shape: Shape::Segment {
                a: [1.0, 1.0],
                b: [3.0, 1.0],
            },
            wall: 0,
            joint_before: Some([1.0, 0.0]),
            joint_after: false,
        };
        let p = m.place(&base);
        let Shape::Segment { a, b } = p.shape else {
            unreachable!()
        };
        // (3, 1) is 2 to the right of the pivot: a quarter turn puts it 2 above, and the
        // pivot itself moved by the offset to (3, 1).
        assert!((a[0] - 3.0).abs() < 1e-15 && (a[1] - 1.0).abs() < 1e-15);
        assert!((b[0] - 3.0).abs() < 1e-15 && (b[1] - 3.0).abs() < 1e-15);
        let j = p.joint_before.unwrap();
        assert!(j[0].abs() < 1e-15 && (j[1] - 1.0).abs() < 1e-15);
        // The material velocity is omega x (q - c): at (3, 3) with the pivot at (3, 1)
        // and omega = 2, it is (-4, 0).
        let spin = Motion {
            angular_velocity: 2.0,
            ..m
        };
        assert_eq!(spin.velocity_at([3.0, 3.0]), [-4.0, 0.0]);
    }
}
