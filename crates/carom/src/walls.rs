//! Walls inside the table, and pockets: a foundation below the models.
//!
//! A wall is a curve of zero thickness, solid on both sides: a segment, a polyline
//! (open or closed), an arc or a full circle. Here it is broken into pieces (segments
//! and arcs) that know which wall they belong to and, inside a polyline, the direction
//! of the segment before them, so that a ball feels the nearest point of the whole
//! curve as one contact (see [`geometry`]). Each model asks the same questions of it:
//! which pieces lie near a ball ([`WallCells`], a uniform grid like the broad phase's,
//! so the cost per ball does not grow with the number of walls), and where and along
//! which normal a ball touches them ([`Piece::touch`]).
//!
//! A pocket is a disk: a ball whose centre comes within its radius leaves play.

pub mod from_spec;
pub mod geometry;
pub mod glue;
pub mod impact;
pub mod motion;
pub mod motion_from_spec;
pub mod spec;

pub use geometry::{Feature, Touch};
pub use glue::Glued;
pub use motion::{Motion, Servo};

/// The curve of one piece.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shape {
    /// From `a` to `b` (distinct points).
    Segment {
        /// One end `[x, y]`, table units.
        a: [f64; 2],
        /// The other end `[x, y]`, table units.
        b: [f64; 2],
    },
    /// The points of the circle about `center` of radius `radius` at angles from
    /// `from` through `from + span` (radians, measured from +x towards +y, `0 < span
    /// <= 2 pi`; a full circle has `span = 2 pi` and no ends).
    Arc {
        /// The centre `[x, y]`, table units.
        center: [f64; 2],
        /// The radius, table units.
        radius: f64,
        /// Where the arc starts, radians from +x towards +y.
        from: f64,
        /// The arc's angular extent, radians, in `(0, 2 pi]`.
        span: f64,
    },
}

/// A piece of a wall.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Piece {
    pub shape: Shape,
    /// The wall it belongs to.
    pub wall: u32,
    /// Inside a polyline: the unit direction of the segment that ends where this one
    /// starts (this piece owns that joint). `None` at a free end.
    pub joint_before: Option<[f64; 2]>,
    /// Inside a polyline: whether the segment's last point is a joint (owned by the
    /// next segment).
    pub joint_after: bool,
}

/// What a wall does to the balls that touch it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Surface {
    /// This wall's restitution; `None`: the global `physics.restitution`.
    pub restitution: Option<f64>,
    /// This wall's contact-friction coefficient; `None`: `physics.contact_friction.mu`.
    pub mu: Option<f64>,
    /// The surface's own speed along the curve's tangent (a belt, a turning drum):
    /// contact friction drags a touching ball towards it.
    pub surface_velocity: f64,
    /// The height of the cushion's nose above the cloth, where a ball on cloth meets
    /// it; `None`: [`crate::cushion::DEFAULT_NOSE_HEIGHT`] radii of the ball.
    pub cushion_height: Option<f64>,
}

/// A pocket: a ball whose centre comes within `radius` of `center` leaves play.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pocket {
    pub center: [f64; 2],
    pub radius: f64,
}

/// How a ball left play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Exit {
    /// Into pocket `k`.
    Pocket(u32),
    /// Across the open edge at `x = 0`.
    Left,
    /// At `x = width`.
    Right,
    /// At `y = 0`.
    Top,
    /// At `y = height`.
    Bottom,
}

impl Exit {
    /// As the state file writes it: `"pocket K"`, `"left"`, `"right"`, `"top"`,
    /// `"bottom"`.
    pub fn name(self) -> String {
        match self {
            Exit::Pocket(k) => format!("pocket {k}"),
            Exit::Left => "left".into(),
            Exit::Right => "right".into(),
            Exit::Top => "top".into(),
            Exit::Bottom => "bottom".into(),
        }
    }

    pub fn parse(s: &str) -> Option<Exit> {
        Some(match s {
            "left" => Exit::Left,
            "right" => Exit::Right,
            "top" => Exit::Top,
            "bottom" => Exit::Bottom,
            _ => Exit::Pocket(s.strip_prefix("pocket ")?.parse().ok()?),
        })
    }
}

/// When and how a ball left play.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Removal {
    pub time: f64,
    pub by: Exit,
}

/// No walls and no pockets, for callers that step a model by hand.
#[cfg(any(test, feature = "internals"))]
pub static NO_WALLS: Walls = Walls::none();

/// Every wall and pocket of a scene. Fixed once built, except for the place of walls
/// that move ([`Walls::advance`]); the models bin it for the ball
/// sizes they see ([`Walls::cells`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Walls {
    pieces: Vec<Piece>,
    surfaces: Vec<Surface>,
    pockets: Vec<Pocket>,
    /// Per wall, how it moves; empty when no wall moves.
    motions: Vec<Option<Motion>>,
    /// The pieces as given, which the moving walls' pieces are placed from; empty when
    /// no wall moves.
    base: Vec<Piece>,
    /// Per piece, its box `[x0, y0, x1, y1]` now, when some wall moves (a moving
    /// piece is listed in every cell, so [`Walls::touches`] first skips the balls
    /// farther than the reach from its box); empty when no wall moves.
    boxes: Vec<[f64; 4]>,
    /// Balls glued to moving walls, by ball (see [`glue`]); empty when none is.
    glued: Vec<Glued>,
}

crate::copying::copy_fields!(Walls { pieces, surfaces, pockets, motions, base, boxes, glued });

impl Walls {
    /// No walls and no pockets: the empty rectangle.
    pub const fn none() -> Walls {
        Walls {
            pieces: Vec::new(),
            surfaces: Vec::new(),
            pockets: Vec::new(),
            motions: Vec::new(),
            base: Vec::new(),
            boxes: Vec::new(),
            glued: Vec::new(),
        }
    }

    /// Whether some wall moves.
    #[inline]
    pub fn moves(&self) -> bool {
        !self.motions.is_empty()
    }

    /// Whether some wall is a servo.
    pub fn has_servo(&self) -> bool {
        self.motions.iter().flatten().any(|m| m.servo.is_some())
    }

    /// Whether some moving wall turns.
    pub fn turns(&self) -> bool {
        self.motions
            .iter()
            .flatten()
            .any(|m| m.angular_velocity != 0.0)
    }

    /// How wall `wall` moves and where it is; `None` for a fixed wall.
    #[inline]
    pub fn motion(&self, wall: u32) -> Option<&Motion> {
        self.motions.get(wall as usize)?.as_ref()
    }

    /// Every wall's motion, by wall (empty when none moves).
    pub fn motions(&self) -> &[Option<Motion>] {
        &self.motions
    }

    /// Makes wall `wall` move (from the place `motion.offset`, `motion.angle`); call
    /// once every wall is added.
    pub fn set_motion(&mut self, wall: u32, motion: Motion) {
        if self.base.is_empty() {
            self.base = self.pieces.clone();
        }
        self.motions.resize(self.surfaces.len(), None);
        self.motions[wall as usize] = Some(motion);
        self.place();
    }

    /// The velocity of wall `wall`'s material at point `q`; `None` for a fixed wall.
    #[inline]
    pub fn wall_velocity(&self, wall: u32, q: [f64; 2]) -> Option<[f64; 2]> {
        self.motion(wall).map(|m| m.velocity_at(q))
    }

    /// Moves every moving wall on by `dt` at its velocity now.
    pub fn advance(&mut self, dt: f64) {
        for m in self.motions.iter_mut().flatten() {
            m.advance(dt);
        }
        self.place();
    }

    /// Sets each moving wall's place (`offset`) to `at(wall, motion)` and places its
    /// pieces there, for a model that moves the walls on its own clock (the event
    /// model).
    pub fn set_offsets(&mut self, mut at: impl FnMut(u32, &Motion) -> [f64; 2]) {
        for (w, m) in self.motions.iter_mut().enumerate() {
            if let Some(m) = m {
                m.offset = at(w as u32, m);
            }
        }
        self.place();
    }

    /// Takes the place and motion of `other`'s walls (the same walls, moved on), in
    /// place: no allocation when both hold the same pieces, as a model's copy of the
    /// world's walls does.
    pub fn follow(&mut self, other: &Walls) {
        let same = self.pieces.len() == other.pieces.len()
            && self.motions.len() == other.motions.len()
            && self.boxes.len() == other.boxes.len()
            && self.base.len() == other.base.len()
            && self.surfaces == other.surfaces
            && self.pockets == other.pockets
            && self.glued == other.glued;
        if !same {
            self.clone_from(other);
            return;
        }
        self.pieces.copy_from_slice(&other.pieces);
        self.motions.copy_from_slice(&other.motions);
        self.boxes.copy_from_slice(&other.boxes);
    }

    /// The pieces as given, before any wall moved (empty when no wall moves): a moving
    /// wall's pieces now are these moved by its `offset` (turned by its `angle`).
    pub fn base(&self) -> &[Piece] {
        &self.base
    }

    /// Places the moving walls' pieces where their motions say.
    fn place(&mut self) {
        if self.boxes.len() != self.pieces.len() {
            self.boxes = self.pieces.iter().map(Piece::bounds).collect();
        }
        for ((p, b), bx) in self.pieces.iter_mut().zip(&self.base).zip(&mut self.boxes) {
            if let Some(Some(m)) = self.motions.get(b.wall as usize) {
                *p = m.place(b);
                *bx = p.bounds();
            }
        }
    }

    /// Sets every servo's speed from the balls' overlaps with it now: the normal force
    /// `F = sum k s (n . push)` over the contacts (`s` the overlap, `n` from the wall
    /// to the ball) of balls that respond (finite mass, in play), and the speed towards
    /// the balls `(P L - F) / (k tau)` (`docs/scenarios.md`, "Moving walls"). `F`
    /// includes the free balls' overlaps with the balls glued to the wall.
    /// The servo's time `tau` is its `servo_time`, or 100 steps of `dt` by default.
    pub fn update_servos(
        &mut self,
        balls: &crate::balls::Balls,
        table: &crate::table::Table,
        k: f64,
        dt: f64,
        in_play: Option<&[bool]>,
    ) {
        for w in 0..self.motions.len() {
            let Some(Some(Motion {
                servo: Some(servo), ..
            })) = self.motions.get(w)
            else {
                continue;
            };
            let mut force = 0.0;
            for (index, piece) in self.pieces.iter().enumerate() {
                if piece.wall as usize != w {
                    continue;
                }
                for i in 0..balls.len() {
                    if balls.inv_m[i] == 0.0 || in_play.is_some_and(|p| !p[i]) {
                        continue;
                    }
                    let (r, x, y) = (balls.r[i], balls.x[i], balls.y[i]);
                    let bx = self.boxes[index];
                    if x < bx[0] - r || x > bx[2] + r || y < bx[1] - r || y > bx[3] + r {
                        continue;
                    }
                    if let Some(t) = piece.touch(index as u32, [x, y], r) {
                        let n = t.normal;
                        force +=
                            k * (r - t.distance) * (n[0] * servo.push[0] + n[1] * servo.push[1]);
                    }
                }
            }
            if !self.glued.is_empty() {
                force += self.glued_force(w as u32, servo.push, balls, table, k, in_play);
            }
            let tau = if servo.time > 0.0 {
                servo.time
            } else {
                100.0 * dt
            };
            let speed = (servo.pressure * servo.length - force) / (k * tau);
            if let Some(Some(Motion { servo: Some(s), .. })) = self.motions.get_mut(w) {
                s.speed = speed;
            }
        }
    }

    /// True with no wall and no pocket.
    pub fn is_empty(&self) -> bool {
        self.pieces.is_empty() && self.pockets.is_empty()
    }

    /// True when there is at least one wall (pockets aside).
    pub fn has_walls(&self) -> bool {
        !self.pieces.is_empty()
    }

    /// Every piece of every wall, in the order of the `[[walls]]` entries.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// Each wall's surface properties, one per `[[walls]]` entry.
    pub fn surfaces(&self) -> &[Surface] {
        &self.surfaces
    }

    /// The pockets, in the order of the `[[pockets]]` entries.
    pub fn pockets(&self) -> &[Pocket] {
        &self.pockets
    }

    /// Whether some wall has a friction coefficient of its own above zero.
    pub fn any_own_friction(&self) -> bool {
        self.surfaces.iter().any(|s| s.mu.is_some_and(|m| m > 0.0))
    }

    /// The contact law at one touch: the wall's restitution and friction (its own, or
    /// the scene's `e` and `friction`), and the velocity of its surface at the touch
    /// (`surface_velocity` along the curve's tangent there).
    #[inline]
    pub fn law_at(
        &self,
        t: &Touch,
        e: f64,
        friction: &crate::physics::params::ContactFriction,
    ) -> (f64, crate::physics::params::ContactFriction, [f64; 2]) {
        let s = &self.surfaces[t.wall as usize];
        let f = crate::physics::params::ContactFriction {
            mu: s.mu.unwrap_or(friction.mu),
            ..*friction
        };
        let v = s.surface_velocity;
        let mut surface = [v * t.tangent[0], v * t.tangent[1]];
        // A moving wall's material moves too: its velocity at the contact joins the
        // surface's (a fixed wall's law is untouched).
        if let Some(m) = self.wall_velocity(t.wall, t.point) {
            surface = [surface[0] + m[0], surface[1] + m[1]];
        }
        (s.restitution.unwrap_or(e), f, surface)
    }

    /// Wall `wall`'s cushion nose height, if it has its own.
    #[inline]
    pub fn cushion_height(&self, wall: u32) -> Option<f64> {
        self.surfaces[wall as usize].cushion_height
    }

    /// The highest cushion nose any wall has of its own, and its wall (to check
    /// against the balls: a nose must be below every ball's top).
    pub fn highest_cushion(&self) -> Option<(usize, f64)> {
        self.surfaces
            .iter()
            .enumerate()
            .filter_map(|(k, s)| s.cushion_height.map(|h| (k, h)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
    }

    /// Starts a new wall with this surface; its pieces follow with [`Walls::segment`],
    /// [`Walls::polyline`] or [`Walls::arc`]. Returns its index.
    pub fn add_wall(&mut self, surface: Surface) -> u32 {
        self.surfaces.push(surface);
        (self.surfaces.len() - 1) as u32
    }

    /// A segment from `a` to `b` as a wall of its own.
    pub fn segment(&mut self, a: [f64; 2], b: [f64; 2], surface: Surface) {
        self.polyline(&[a, b], false, surface);
    }

    /// A polyline through `points` (consecutive points distinct), closed back to the
    /// first point when `closed`, as one wall.
    pub fn polyline(&mut self, points: &[[f64; 2]], closed: bool, surface: Surface) {
        let wall = self.add_wall(surface);
        let n = points.len();
        let segs = if closed { n } else { n - 1 };
        let dir = |k: usize| {
            let (a, b) = (points[k % n], points[(k + 1) % n]);
            let d = [b[0] - a[0], b[1] - a[1]];
            let len = d[0].hypot(d[1]);
            [d[0] / len, d[1] / len]
        };
        for k in 0..segs {
            let joint_before = if k > 0 {
                Some(dir(k - 1))
            } else if closed {
                Some(dir(segs - 1))
            } else {
                None
            };
            self.pieces.push(Piece {
                shape: Shape::Segment {
                    a: points[k],
                    b: points[(k + 1) % n],
                },
                wall,
                joint_before,
                joint_after: closed || k + 1 < segs,
            });
        }
    }

    /// An arc (angles in radians, `0 < span <= 2 pi`) as a wall of its own.
    pub fn arc(&mut self, center: [f64; 2], radius: f64, from: f64, span: f64, surface: Surface) {
        let wall = self.add_wall(surface);
        self.pieces.push(Piece {
            shape: Shape::Arc {
                center,
                radius,
                from,
                span,
            },
            wall,
            joint_before: None,
            joint_after: false,
        });
    }

    /// Adds a pocket.
    pub fn add_pocket(&mut self, pocket: Pocket) {
        self.pockets.push(pocket);
    }

    /// The pocket whose disk holds `p`, if any (the first, when disks overlap).
    #[inline]
    pub fn pocket_at(&self, p: [f64; 2]) -> Option<u32> {
        self.pockets
            .iter()
            .position(|k| {
                let (dx, dy) = (p[0] - k.center[0], p[1] - k.center[1]);
                dx * dx + dy * dy < k.radius * k.radius
            })
            .map(|k| k as u32)
    }

    /// The pieces binned into cells of a grid over the table, each cell listing the
    /// pieces that come within `reach` of it: a ball within the table whose centre is
    /// in a cell can touch, within `reach`, only the pieces listed there.
    /// A moving wall's pieces are listed in every cell, so the cells stay true as it
    /// moves.
    pub fn cells(&self, width: f64, height: f64, reach: f64) -> WallCells {
        WallCells::new(&self.pieces, width, height, reach, |w| {
            self.motion(w).is_some()
        })
    }

    /// Every contact of a ball centred at `p` with the pieces listed in `near`, closer
    /// than `reach`, in ascending piece order.
    #[inline]
    pub fn touches(&self, near: &[u32], p: [f64; 2], reach: f64, mut each: impl FnMut(Touch)) {
        let boxed = !self.boxes.is_empty();
        for &k in near {
            if boxed {
                // No touch closer than the reach from outside the box grown by it.
                let b = self.boxes[k as usize];
                if p[0] < b[0] - reach
                    || p[0] > b[2] + reach
                    || p[1] < b[1] - reach
                    || p[1] > b[3] + reach
                {
                    continue;
                }
            }
            if let Some(t) = self.pieces[k as usize].touch(k, p, reach) {
                each(t);
            }
        }
    }
}

/// The pieces of a [`Walls`] binned into a uniform grid over the table.
#[derive(Debug, Clone, Default)]
pub struct WallCells {
    nx: usize,
    ny: usize,
    inv_w: f64,
    inv_h: f64,
    /// `start[c]..start[c + 1]` indexes `items` for cell `c` (row-major).
    start: Vec<u32>,
    /// Piece indices, ascending within each cell.
    items: Vec<u32>,
    reach: f64,
}

/// The most cells along one axis: fine enough that a cell holds few pieces, coarse
/// enough that the grid stays small whatever the table's size.
const MAX_CELLS_PER_AXIS: f64 = 256.0;

impl WallCells {
    fn new(
        pieces: &[Piece],
        width: f64,
        height: f64,
        reach: f64,
        moves: impl Fn(u32) -> bool,
    ) -> WallCells {
        let cell = (2.0 * reach)
            .max(width.max(height) / MAX_CELLS_PER_AXIS)
            .max(f64::MIN_POSITIVE);
        let nx = (width / cell).floor().clamp(1.0, MAX_CELLS_PER_AXIS) as usize;
        let ny = (height / cell).floor().clamp(1.0, MAX_CELLS_PER_AXIS) as usize;
        let (cw, ch) = (width / nx as f64, height / ny as f64);
        let mut lists: Vec<Vec<u32>> = vec![Vec::new(); nx * ny];
        for (k, p) in pieces.iter().enumerate() {
            if moves(p.wall) {
                for l in &mut lists {
                    l.push(k as u32);
                }
                continue;
            }
            let b = p.bounds();
            // Cells overlapping the piece's box grown by the reach. Balls outside the
            // table are binned into the edge cells, so those reach out to infinity.
            let span = |lo: f64, hi: f64, size: f64, n: usize| {
                let c0 = ((lo - reach) / size).floor().clamp(0.0, (n - 1) as f64) as usize;
                let c1 = ((hi + reach) / size).floor().clamp(0.0, (n - 1) as f64) as usize;
                (c0, c1)
            };
            let (x0, x1) = span(b[0], b[2], cw, nx);
            let (y0, y1) = span(b[1], b[3], ch, ny);
            for cy in y0..=y1 {
                for cx in x0..=x1 {
                    let edge = |c: usize, n: usize, at: f64, lo: bool| {
                        if (lo && c == 0) || (!lo && c + 1 == n) {
                            if lo {
                                f64::NEG_INFINITY
                            } else {
                                f64::INFINITY
                            }
                        } else {
                            at
                        }
                    };
                    let cell_box = [
                        edge(cx, nx, cx as f64 * cw, true),
                        edge(cy, ny, cy as f64 * ch, true),
                        edge(cx, nx, (cx + 1) as f64 * cw, false),
                        edge(cy, ny, (cy + 1) as f64 * ch, false),
                    ];
                    if p.near_box(cell_box, reach) {
                        lists[cy * nx + cx].push(k as u32);
                    }
                }
            }
        }
        let mut start = Vec::with_capacity(nx * ny + 1);
        let mut items = Vec::new();
        start.push(0);
        for l in lists {
            items.extend_from_slice(&l);
            start.push(items.len() as u32);
        }
        WallCells {
            nx,
            ny,
            inv_w: nx as f64 / width,
            inv_h: ny as f64 / height,
            start,
            items,
            reach,
        }
    }

    /// The reach the cells were built for.
    pub fn reach(&self) -> f64 {
        self.reach
    }

    /// The pieces that may come within the reach of a point at `(x, y)`.
    #[inline]
    pub fn near(&self, x: f64, y: f64) -> &[u32] {
        if self.items.is_empty() {
            return &[];
        }
        // `as usize` takes negative and NaN values to 0; the `min` clamps the far side.
        let cx = ((x * self.inv_w) as usize).min(self.nx - 1);
        let cy = ((y * self.inv_h) as usize).min(self.ny - 1);
        let c = cy * self.nx + cx;
        &self.items[self.start[c] as usize..self.start[c + 1] as usize]
    }
}

impl Piece {
    /// Whether the piece may come within `reach` of the box `[x0, y0, x1, y1]`
    /// (conservative: true when unsure). Boxes on the table's edge stand for
    /// everything beyond it too, so the caller grows them to infinity there.
    fn near_box(&self, b: [f64; 4], reach: f64) -> bool {
        match self.shape {
            // The grown bounding box already decided for a segment.
            Shape::Segment { .. } => true,
            Shape::Arc { center, radius, .. } => {
                // The box's nearest and farthest points from the centre bound the
                // distances at which the circle can pass: a big drum's arc is listed
                // only in the cells along its rim, not in the cells of its interior.
                let nearest = [center[0].clamp(b[0], b[2]), center[1].clamp(b[1], b[3])];
                let dn = (nearest[0] - center[0]).hypot(nearest[1] - center[1]);
                let fx = (b[0] - center[0]).abs().max((b[2] - center[0]).abs());
                let fy = (b[1] - center[1]).abs().max((b[3] - center[1]).abs());
                let df = fx.hypot(fy);
                dn <= radius + reach && df >= radius - reach
            }
        }
    }
}
