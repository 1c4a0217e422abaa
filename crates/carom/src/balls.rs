//! Ball state as structure-of-arrays: hot loops read only the arrays they need.

/// An sRGB colour, `#RRGGBB` in files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rgb(pub [u8; 3]);

impl Rgb {
    /// Parses `#RRGGBB` (the `#` is required).
    pub fn parse(s: &str) -> Option<Rgb> {
        let hex = s.strip_prefix('#')?;
        if hex.len() != 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let v = u32::from_str_radix(hex, 16).ok()?;
        Some(Rgb([(v >> 16) as u8, (v >> 8) as u8, v as u8]))
    }

    /// The colour as written in files, `#RRGGBB` in upper case.
    pub fn to_hex(self) -> String {
        format!("#{:02X}{:02X}{:02X}", self.0[0], self.0[1], self.0[2])
    }
}

/// One ball, as a plain value (for building and inspecting, not for hot loops).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ball {
    /// Position x of the centre, table units (x to the right).
    pub x: f64,
    /// Position y of the centre, table units (y downward, as on a screen).
    pub y: f64,
    /// Velocity x, table units per time unit.
    pub vx: f64,
    /// Velocity y, table units per time unit.
    pub vy: f64,
    /// Radius, table units, `> 0`.
    pub r: f64,
    /// Mass, `> 0` (kept even for a kinematic ball).
    pub m: f64,
    /// Colour for renders and the viewer; `None`: the renderer's palette.
    pub color: Option<Rgb>,
    /// Infinite mass: the ball moves only as prescribed, and others bounce off it as off a
    /// wall.
    pub kinematic: bool,
    /// Orientation in radians, positive turning +x towards +y.
    pub angle: f64,
    /// Angular velocity about the vertical, radians per time unit, same sense as `angle`.
    pub omega: f64,
    /// Moment of inertia about the centre (`m r^2 / 2` for a solid disk).
    pub inertia: f64,
    /// Angular velocity about the table's x axis, radians per time unit: a ball on cloth
    /// is a sphere that rolls (`omega` is then its spin about the vertical, z pointing into the
    /// table). Zero, and untouched by every model, without cloth friction.
    pub wx: f64,
    /// Angular velocity about the table's y axis (see [`Ball::wx`]).
    pub wy: f64,
    /// Periodic image count along x: how many times the ball crossed the x side, so that
    /// `x + ix * width` is its unwrapped position. Always 0 on a walled axis.
    pub ix: i64,
    /// Periodic image count along y (see [`Ball::ix`]).
    pub iy: i64,
}

impl Ball {
    /// A dynamic ball at `(x, y)` moving at `(vx, vy)`, of radius `r` and mass `m`: no colour,
    /// no rotation, the moment of inertia of a solid disk.
    pub fn new(x: f64, y: f64, vx: f64, vy: f64, r: f64, m: f64) -> Ball {
        Ball {
            x,
            y,
            vx,
            vy,
            r,
            m,
            color: None,
            kinematic: false,
            angle: 0.0,
            omega: 0.0,
            inertia: solid_disk_inertia(m, r),
            wx: 0.0,
            wy: 0.0,
            ix: 0,
            iy: 0,
        }
    }
}

/// The moment of inertia of a uniform solid disk about its centre, `m r^2 / 2`.
#[inline]
pub fn solid_disk_inertia(m: f64, r: f64) -> f64 {
    0.5 * m * r * r
}

/// The moment of inertia of a uniform solid sphere about a diameter, `2 m r^2 / 5`:
/// a pool ball's, the default on cloth.
#[inline]
pub fn solid_sphere_inertia(m: f64, r: f64) -> f64 {
    0.4 * m * r * r
}

/// Applies the macro `$each` to the name of every per-ball array of [`Balls`], for the
/// operations that treat all arrays alike (copying, reordering). The pattern below lists
/// every field without `..`: an array added to `Balls` and not here fails to compile.
macro_rules! each_array {
    ($each:ident) => {{
        #[allow(dead_code)]
        fn every_array_is_listed(b: &Balls) {
            let Balls {
                x: _,
                y: _,
                vx: _,
                vy: _,
                r: _,
                m: _,
                inv_m: _,
                color: _,
                angle: _,
                omega: _,
                inertia: _,
                inv_inertia: _,
                wx: _,
                wy: _,
                ix: _,
                iy: _,
            } = b;
        }
        $each!(x);
        $each!(y);
        $each!(vx);
        $each!(vy);
        $each!(r);
        $each!(m);
        $each!(inv_m);
        $each!(color);
        $each!(angle);
        $each!(omega);
        $each!(inertia);
        $each!(inv_inertia);
        $each!(wx);
        $each!(wy);
        $each!(ix);
        $each!(iy);
    }};
}

/// All balls. Index `i` is the ball's identity: the order of the scenario (listed, then
/// generated), kept for the whole run.
#[derive(Debug, Default, PartialEq)]
pub struct Balls {
    /// Positions x of the centres, table units.
    pub x: Vec<f64>,
    /// Positions y of the centres, table units (y downward).
    pub y: Vec<f64>,
    /// Velocities x, table units per time unit.
    pub vx: Vec<f64>,
    /// Velocities y, table units per time unit.
    pub vy: Vec<f64>,
    /// Radii, table units.
    pub r: Vec<f64>,
    /// The mass as given (kept for output even for kinematic balls).
    pub m: Vec<f64>,
    /// `1/m`, or 0 for a kinematic ball: every impulse and force is scaled by it, so an
    /// infinite mass needs no special case in the physics.
    pub inv_m: Vec<f64>,
    /// Colours (see [`Ball::color`]).
    pub color: Vec<Option<Rgb>>,
    /// Orientations in radians (see [`Ball::angle`]).
    pub angle: Vec<f64>,
    /// Angular velocities about the vertical, radians per time unit.
    pub omega: Vec<f64>,
    /// The moment of inertia as given (kept for output even for kinematic balls).
    pub inertia: Vec<f64>,
    /// `1/inertia`, or 0 for a kinematic ball (spins only as prescribed).
    pub inv_inertia: Vec<f64>,
    /// Spin about the table's x axis (balls on cloth; see [`Ball::wx`]).
    pub wx: Vec<f64>,
    /// Spin about the table's y axis (see [`Ball::wx`]).
    pub wy: Vec<f64>,
    /// Periodic image counts along x (see [`Ball::ix`]).
    pub ix: Vec<i64>,
    /// Periodic image counts along y.
    pub iy: Vec<i64>,
}

impl Clone for Balls {
    fn clone(&self) -> Balls {
        let mut c = Balls::default();
        c.clone_from(self);
        c
    }

    /// Array by array, each keeping its allocation: the run loops copy the balls into
    /// their checkpoint every few steps, and the derived `clone_from` (a whole new copy,
    /// then the old arrays freed) allocated and freed every array each time, which
    /// with large arrays means fresh pages faulted in at every checkpoint.
    fn clone_from(&mut self, source: &Balls) {
        macro_rules! copy {
            ($a:ident) => {
                self.$a.clone_from(&source.$a)
            };
        }
        each_array!(copy);
    }
}

impl Balls {
    /// The number of balls, in play or not.
    pub fn len(&self) -> usize {
        self.x.len()
    }

    /// True when there is no ball.
    pub fn is_empty(&self) -> bool {
        self.x.is_empty()
    }

    /// Appends a ball; its index is the next identity. A kinematic ball gets `inv_m = 0` and
    /// `inv_inertia = 0`.
    pub fn push(&mut self, b: Ball) {
        self.x.push(b.x);
        self.y.push(b.y);
        self.vx.push(b.vx);
        self.vy.push(b.vy);
        self.r.push(b.r);
        self.m.push(b.m);
        self.inv_m.push(if b.kinematic { 0.0 } else { 1.0 / b.m });
        self.color.push(b.color);
        self.angle.push(b.angle);
        self.omega.push(b.omega);
        self.inertia.push(b.inertia);
        self.inv_inertia
            .push(if b.kinematic { 0.0 } else { 1.0 / b.inertia });
        self.wx.push(b.wx);
        self.wy.push(b.wy);
        self.ix.push(b.ix);
        self.iy.push(b.iy);
    }

    /// Takes ball `i` out of every array and returns it; the balls after it shift down by one.
    pub fn remove(&mut self, i: usize) -> Ball {
        let b = self.get(i);
        self.x.remove(i);
        self.y.remove(i);
        self.vx.remove(i);
        self.vy.remove(i);
        self.r.remove(i);
        self.m.remove(i);
        self.inv_m.remove(i);
        self.color.remove(i);
        self.angle.remove(i);
        self.omega.remove(i);
        self.inertia.remove(i);
        self.inv_inertia.remove(i);
        self.wx.remove(i);
        self.wy.remove(i);
        self.ix.remove(i);
        self.iy.remove(i);
        b
    }

    /// Ball `i` as a plain value.
    pub fn get(&self, i: usize) -> Ball {
        Ball {
            x: self.x[i],
            y: self.y[i],
            vx: self.vx[i],
            vy: self.vy[i],
            r: self.r[i],
            m: self.m[i],
            color: self.color[i],
            kinematic: self.is_kinematic(i),
            angle: self.angle[i],
            omega: self.omega[i],
            inertia: self.inertia[i],
            wx: self.wx[i],
            wy: self.wy[i],
            ix: self.ix[i],
            iy: self.iy[i],
        }
    }

    /// True for a ball of infinite mass (`inv_m == 0`).
    pub fn is_kinematic(&self, i: usize) -> bool {
        self.inv_m[i] == 0.0
    }

    /// Every ball as a plain value, in index order.
    pub fn iter(&self) -> impl Iterator<Item = Ball> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// The largest radius, 0 with no ball.
    pub fn max_radius(&self) -> f64 {
        self.r.iter().copied().fold(0.0, f64::max)
    }

    /// Lays the balls out anew: ball `k` becomes what ball `order[k]` was (`order`, a
    /// permutation of `0..len`). Every array moves, so that nothing of a ball is left
    /// behind; [`Balls::unpermute`] puts them back.
    pub fn permute(&mut self, order: &[u32]) {
        assert_eq!(order.len(), self.len(), "a permutation of every ball");
        macro_rules! reorder {
            ($a:ident) => {
                gather(&mut self.$a, order)
            };
        }
        each_array!(reorder);
    }

    /// Undoes [`Balls::permute`] with the same `order`.
    pub fn unpermute(&mut self, order: &[u32]) {
        self.permute(&inverse(order));
    }

    /// The balls of `balls`, in that order.
    pub fn from_vec(balls: &[Ball]) -> Balls {
        let mut out = Balls::default();
        for b in balls {
            out.push(*b);
        }
        out
    }
}

/// `v[k] = old v[order[k]]`. One array at a time, so that at most one spare copy of an
/// array is alive.
pub fn gather<T: Copy>(v: &mut Vec<T>, order: &[u32]) {
    let old = std::mem::take(v);
    *v = order.iter().map(|&i| old[i as usize]).collect();
}

/// The permutation that undoes `order`: `inverse(order)[order[k]] = k`.
pub fn inverse(order: &[u32]) -> Vec<u32> {
    let mut inv = vec![0u32; order.len()];
    for (k, &i) in order.iter().enumerate() {
        inv[i as usize] = k as u32;
    }
    inv
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clone_from_copies_every_array_into_the_existing_allocations() {
        let mut a = Balls::default();
        let mut b = Balls::default();
        for k in 0..1000 {
            let mut ball = Ball::new(k as f64, 2.0 * k as f64, 1.0, -1.0, 0.5, 2.0);
            ball.omega = 0.25 * k as f64;
            ball.ix = k;
            a.push(ball);
            b.push(Ball::new(0.0, 0.0, 0.0, 0.0, 1.0, 1.0));
        }
        let (px, pomega, pix) = (b.x.as_ptr(), b.omega.as_ptr(), b.ix.as_ptr());
        b.clone_from(&a);
        assert_eq!(a, b);
        // The same buffers, refilled: no allocation when the sizes match.
        assert_eq!(
            (b.x.as_ptr(), b.omega.as_ptr(), b.ix.as_ptr()),
            (px, pomega, pix)
        );
        assert_eq!(a.clone(), a);
    }

    #[test]
    fn permute_moves_every_array_and_unpermute_undoes_it() {
        let mut a = Balls::default();
        for k in 0..50 {
            let mut ball = Ball::new(
                k as f64,
                2.0 * k as f64,
                3.0 * k as f64,
                -(k as f64),
                1.0 + k as f64,
                2.0 + k as f64,
            );
            (ball.angle, ball.omega, ball.inertia) =
                (0.1 * k as f64, 0.2 * k as f64, 5.0 + k as f64);
            (ball.ix, ball.iy) = (k, -k);
            ball.kinematic = k % 7 == 0;
            ball.color = (k % 3 == 0).then_some(Rgb([k as u8, 0, 0]));
            a.push(ball);
        }
        // A fixed scramble: k -> 17 k mod 50 is a permutation (17 and 50 are coprime).
        let order: Vec<u32> = (0..50).map(|k| (17 * k % 50) as u32).collect();
        let mut b = a.clone();
        b.permute(&order);
        for (k, &i) in order.iter().enumerate() {
            // Every field of every ball travels with it (`get` reads all of them).
            assert_eq!(b.get(k), a.get(i as usize));
        }
        b.unpermute(&order);
        assert_eq!(a, b);
    }
}
