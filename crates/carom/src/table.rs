//! The table: its size and what bounds each axis. A foundation type: the models, the
//! broad phase and the diagnostics read it; nothing here knows about them.

use serde::{Deserialize, Serialize};

/// What closes one axis of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Boundary {
    /// A wall at each end (`0` and the side length).
    #[default]
    Walls,
    /// No wall: a ball leaving at one end re-enters at the other, and contacts act
    /// across the edge (minimum image).
    Periodic,
    /// No wall: a ball whose centre crosses either end leaves play.
    Open,
}

/// The table `[0, width] x [0, height]`, y pointing down. `boundary[0]` closes the x
/// axis, `boundary[1]` the y axis.
///
/// A sheared box (Lees-Edwards) is periodic on both axes with `shear_rate = G != 0`:
/// the copy of the box across the y edge at `y + height` is displaced in x by `shift`
/// (`G height t` modulo the width) and moves at `G height` in x relative to it, so that
/// the balls' streaming velocity is `u_x = G (y - height / 2)`. A ball crossing that
/// edge is wrapped with its x and its x-velocity changed by the shift and `-+G height`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Table {
    /// Extent along x, table units.
    pub width: f64,
    /// Extent along y, table units.
    pub height: f64,
    /// What closes the x axis (`[0]`) and the y axis (`[1]`).
    pub boundary: [Boundary; 2],
    /// `G` of a sheared box; 0: none.
    pub shear_rate: f64,
    /// The x offset of the copy above (at `y + height`), in `[0, width)`.
    pub shift: f64,
}

impl Table {
    /// A table with walls on all four sides (the billiard table).
    pub const fn new(width: f64, height: f64) -> Table {
        Table {
            width,
            height,
            boundary: [Boundary::Walls, Boundary::Walls],
            shear_rate: 0.0,
            shift: 0.0,
        }
    }

    /// A table periodic on both axes (a box for statistical physics).
    pub const fn periodic(width: f64, height: f64) -> Table {
        Table {
            width,
            height,
            boundary: [Boundary::Periodic, Boundary::Periodic],
            shear_rate: 0.0,
            shift: 0.0,
        }
    }

    /// The same table with the boundary of each axis replaced.
    pub const fn with_boundary(mut self, boundary: [Boundary; 2]) -> Table {
        self.boundary = boundary;
        self
    }

    /// A periodic box sheared at rate `shear_rate` (Lees-Edwards), the images across
    /// the y edge displaced by `shift`.
    pub const fn sheared(width: f64, height: f64, shear_rate: f64, shift: f64) -> Table {
        Table {
            width,
            height,
            boundary: [Boundary::Periodic, Boundary::Periodic],
            shear_rate,
            shift,
        }
    }

    /// Whether the box is sheared (Lees-Edwards).
    #[inline]
    pub fn is_sheared(&self) -> bool {
        self.shear_rate != 0.0
    }

    /// The velocity in x of the copy above relative to the box, `G height`.
    #[inline]
    pub fn shear_velocity(&self) -> f64 {
        self.shear_rate * self.height
    }

    /// The table `dt` later: a sheared box's shift advanced by `G height dt` (modulo
    /// the width); any other table unchanged.
    #[inline]
    pub fn after(&self, dt: f64) -> Table {
        let mut t = *self;
        if self.is_sheared() {
            let s = (self.shift + self.shear_velocity() * dt).rem_euclid(self.width);
            // rem_euclid may round up to the width itself.
            t.shift = if s < self.width { s } else { 0.0 };
        }
        t
    }

    /// The x-velocity to add to `v_j - v_i` of a pair whose raw y displacement `raw`
    /// became `dy` by the minimum image: across a sheared edge, the image's velocity
    /// differs by `-+G height`; 0 otherwise.
    #[inline]
    pub fn image_velocity(&self, raw: f64, dy: f64) -> f64 {
        if !self.is_sheared() {
            0.0
        } else if raw - dy > 0.5 * self.height {
            -self.shear_velocity()
        } else if dy - raw > 0.5 * self.height {
            self.shear_velocity()
        } else {
            0.0
        }
    }

    /// The side length along `axis` (0: x, 1: y).
    #[inline]
    pub fn side(&self, axis: usize) -> f64 {
        if axis == 0 {
            self.width
        } else {
            self.height
        }
    }

    /// Whether `axis` (0: x, 1: y) wraps around.
    #[inline]
    pub fn is_periodic(&self, axis: usize) -> bool {
        self.boundary[axis] == Boundary::Periodic
    }

    /// True when any axis is periodic.
    #[inline]
    pub fn any_periodic(&self) -> bool {
        self.is_periodic(0) || self.is_periodic(1)
    }

    /// Whether `axis` has the table's walls at its two ends.
    #[inline]
    pub fn has_walls(&self, axis: usize) -> bool {
        self.boundary[axis] == Boundary::Walls
    }

    /// Whether `axis` (0: x, 1: y) is open: a ball crossing its ends leaves play.
    #[inline]
    pub fn is_open(&self, axis: usize) -> bool {
        self.boundary[axis] == Boundary::Open
    }

    /// True when any axis is open (balls can leave play across it).
    #[inline]
    pub fn any_open(&self) -> bool {
        self.is_open(0) || self.is_open(1)
    }

    /// How far outside a walled side a dynamic ball's centre may be before the state
    /// counts as a runaway (`World::check_physical`), and how far a state file may put
    /// it: the table's larger side. Walls hold balls within a fraction of their radius
    /// in a sane run, so only a blown-up integration goes this far.
    pub fn runaway_margin(&self) -> f64 {
        self.width.max(self.height)
    }

    /// The area of the table.
    pub fn area(&self) -> f64 {
        self.width * self.height
    }

    /// The minimum image of the displacement `(dx, dy)` between two balls whose
    /// positions lie on the table: on a periodic axis the component is shifted by one
    /// side length when that brings it nearer to zero. Walled axes are left alone, so
    /// on a walled table this is the identity (and costs two predictable branches).
    ///
    /// In a sheared box a displacement taken to the copy above or below is also
    /// displaced in x by the shift before the x image is taken.
    #[inline]
    pub fn min_image(&self, dx: f64, dy: f64) -> (f64, f64) {
        if self.is_sheared() {
            return self.sheared_image(dx, dy);
        }
        (
            min_image_1d(dx, self.width, self.is_periodic(0)),
            min_image_1d(dy, self.height, self.is_periodic(1)),
        )
    }

    #[inline]
    fn sheared_image(&self, dx: f64, dy: f64) -> (f64, f64) {
        let (w, h) = (self.width, self.height);
        let (mut dx, mut dy) = (dx, dy);
        if dy > 0.5 * h {
            dy -= h;
            dx -= self.shift;
        } else if dy < -0.5 * h {
            dy += h;
            dx += self.shift;
        }
        if dx > 0.5 * w || dx < -0.5 * w {
            dx -= w * (dx / w).round();
        }
        (dx, dy)
    }

    /// Wraps positions onto a sheared box: a ball that crossed the y edge `k` times
    /// (`y` beyond `[0, height)`) comes back with `y - k height`, `x - k shift` and
    /// `vx - k G height`; then x wraps as on any periodic axis. The image counts add
    /// up as in [`Table::wrap_all`].
    pub fn wrap_sheared(
        &self,
        x: &mut [f64],
        y: &mut [f64],
        vx: &mut [f64],
        ix: &mut [i64],
        iy: &mut [i64],
    ) {
        let u = self.shear_velocity();
        for i in 0..x.len() {
            if !(0.0..self.height).contains(&y[i]) {
                let (w, k) = self.wrap(y[i], 1);
                y[i] = w;
                iy[i] = iy[i].saturating_add(k);
                x[i] -= k as f64 * self.shift;
                vx[i] -= k as f64 * u;
            }
            if !(0.0..self.width).contains(&x[i]) {
                let (w, k) = self.wrap(x[i], 0);
                x[i] = w;
                ix[i] = ix[i].saturating_add(k);
            }
        }
    }

    /// Brings coordinate `x` on `axis` back onto `[0, side)` when that axis is
    /// periodic; returns the new coordinate and how many sides it was shifted by (add
    /// it to the ball's image count). Walled axes return `(x, 0)`.
    #[inline]
    pub fn wrap(&self, x: f64, axis: usize) -> (f64, i64) {
        if !self.is_periodic(axis) {
            return (x, 0);
        }
        let side = self.side(axis);
        if (0.0..side).contains(&x) {
            return (x, 0);
        }
        // One crossing per step is the common case; floor handles any number.
        let mut k = (x / side).floor();
        let mut w = x - k * side;
        // Round-off can leave `w == side` for x just below 0: that is the home image's
        // 0, so the shift is one side fewer.
        if w >= side {
            w -= side;
            k += 1.0;
        }
        (w, k as i64)
    }

    /// The smallest side a periodic axis may have for balls of largest radius `r_max`:
    /// four largest diameters (plus a relative margin of 2e-6 over the event model's
    /// cell size). Four diameters give the event model at least four cells of one
    /// diameter per periodic axis, so the cells that become neighbours on a crossing are
    /// never already neighbours; they also keep every contact and every neighbour-list
    /// pair (reach at most 2.8 radii) well under half a side, where the minimum image
    /// is unambiguous.
    pub fn min_periodic_side(r_max: f64) -> f64 {
        8.0 * r_max * (1.0 + 2e-6)
    }

    /// Wraps ball positions onto the table on every periodic axis, counting the sides
    /// crossed in `ix`/`iy`. A no-op (and no pass over the balls) on a walled table.
    pub fn wrap_all(&self, x: &mut [f64], y: &mut [f64], ix: &mut [i64], iy: &mut [i64]) {
        for (axis, (p, img)) in [(0, (x, ix)), (1, (y, iy))] {
            if !self.is_periodic(axis) {
                continue;
            }
            let side = self.side(axis);
            for (p, img) in p.iter_mut().zip(img.iter_mut()) {
                // The common case, inside, costs one comparison pair.
                if !(0.0..side).contains(p) {
                    let (w, k) = self.wrap(*p, axis);
                    *p = w;
                    // A runaway ball (a speed of 1e300) crosses more sides in a step
                    // than an i64 counts: the count stops at its limit, and
                    // `World::check_physical` reports the run as unstable.
                    *img = img.saturating_add(k);
                }
            }
        }
    }
}

#[inline]
fn min_image_1d(d: f64, side: f64, periodic: bool) -> f64 {
    if !periodic {
        d
    } else if d > 0.5 * side {
        d - side
    } else if d < -0.5 * side {
        d + side
    } else {
        d
    }
}

/// One of the table's four walls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Wall {
    /// x = 0
    Left,
    /// x = width
    Right,
    /// y = 0
    Top,
    /// y = height
    Bottom,
}

impl Wall {
    pub const ALL: [Wall; 4] = [Wall::Left, Wall::Right, Wall::Top, Wall::Bottom];

    /// The wall's unit normal pointing into the table.
    pub fn normal(self) -> [f64; 2] {
        match self {
            Wall::Left => [1.0, 0.0],
            Wall::Right => [-1.0, 0.0],
            Wall::Top => [0.0, 1.0],
            Wall::Bottom => [0.0, -1.0],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walls_leave_displacements_and_positions_alone() {
        let t = Table::new(10.0, 4.0);
        assert_eq!(t.min_image(9.0, -3.5), (9.0, -3.5));
        assert_eq!(t.wrap(11.0, 0), (11.0, 0));
    }

    #[test]
    fn a_sheared_box_displaces_the_images_across_the_y_edge() {
        // Width 10, height 4, shift 3: the copy above sits 3 to the right.
        let t = Table::sheared(10.0, 4.0, 0.5, 3.0);
        // Ball j at y 3.5, i at y 0.5: j's nearest image is the copy below, at y - 4
        // and x - 3.
        assert_eq!(t.min_image(1.0, 3.0), (-2.0, -1.0));
        assert_eq!(t.image_velocity(3.0, -1.0), -2.0);
        // And the other way, with the x image taken after the shift.
        assert_eq!(t.min_image(9.0, -3.0), (2.0, 1.0));
        assert_eq!(t.image_velocity(-3.0, 1.0), 2.0);
        // Within the box: no shift.
        assert_eq!(t.min_image(1.0, 1.0), (1.0, 1.0));
        assert_eq!(t.image_velocity(1.0, 1.0), 0.0);
        // A ball leaving at the bottom (y > 4) comes back at the top, 3 to the left,
        // 2 slower.
        let (mut x, mut y, mut vx) = ([1.0], [4.5], [0.25]);
        let (mut ix, mut iy) = ([0], [0]);
        t.wrap_sheared(&mut x, &mut y, &mut vx, &mut ix, &mut iy);
        assert_eq!((x[0], y[0], vx[0], ix[0], iy[0]), (8.0, 0.5, -1.75, -1, 1));
        // The shift advances by G H dt modulo the width.
        assert_eq!(t.after(4.0).shift, 1.0);
        assert_eq!(Table::new(1.0, 1.0).after(3.0), Table::new(1.0, 1.0));
    }

    #[test]
    fn periodic_axes_take_the_nearest_image() {
        let t = Table::new(10.0, 4.0).with_boundary([Boundary::Periodic, Boundary::Walls]);
        assert_eq!(t.min_image(9.0, -3.5), (-1.0, -3.5));
        assert_eq!(t.min_image(-6.0, 1.0), (4.0, 1.0));
        assert_eq!(t.wrap(10.5, 0), (0.5, 1));
        assert_eq!(t.wrap(-0.5, 0), (9.5, -1));
        assert_eq!(t.wrap(-25.0, 0), (5.0, -3));
        // Just below 0 rounds to the home image's 0: the unwrapped position stays ~0.
        let (w, k) = t.wrap(-1e-18, 0);
        assert!((0.0..10.0).contains(&w));
        assert_eq!(w + k as f64 * 10.0, 0.0);
    }
}
