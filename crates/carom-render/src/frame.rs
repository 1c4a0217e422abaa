//! What a picture is drawn from: plain data, so that the command line, the viewer and the
//! tests can all hand it over without a running simulation.

use carom::{Rgb, World};

use crate::ballstyle::BallStyle;

/// One ball as the renderer sees it, in scene units (y pointing down).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BallView {
    /// Position x of the centre, scene units.
    pub x: f64,
    /// Position y of the centre, scene units (y down).
    pub y: f64,
    /// Radius, scene units.
    pub r: f64,
    /// Velocity x, scene units per time unit (for velocity arrows).
    pub vx: f64,
    /// Velocity y, scene units per time unit.
    pub vy: f64,
    /// `None`: the ball takes a colour from [`DEFAULT_BALL_COLORS`] (see [`default_color`]).
    pub color: Option<Rgb>,
    /// The ball's orientation when rotation is in play: drawn as a mark, a radius from
    /// the centre to the rim. `None`: no mark (pictures as before rotation existed).
    pub angle: Option<f64>,
    /// The spin about the table's axes `(wx, wy)` of a sphere (balls on cloth): drawn
    /// as the spin dot ([`BallView::spin_dot`]). `None`: no dot (every other scene).
    pub spin: Option<[f64; 2]>,
}

/// The spin dot's radius, as a fraction of the ball's.
pub const SPIN_DOT_RADIUS: f64 = 0.2;

/// The spin dot's offset from the centre of a ball of radius `r`, velocity `v` and
/// spin `(wx, wy)` about the table's axes: `r s / (|v| + |s|)` with `s = r (-wy, wx)`,
/// the top point's velocity relative to the centre (see [`BallView::spin_dot`]; the
/// viewer draws the same dot). Zero for no spin, and for spins too large to measure.
pub fn spin_dot_offset(r: f64, v: [f64; 2], [wx, wy]: [f64; 2]) -> [f64; 2] {
    let s = [-r * wy, r * wx];
    let (speed, top) = (v[0].hypot(v[1]), s[0].hypot(s[1]));
    if top > 0.0 && (speed + top).is_finite() {
        let f = r / (speed + top);
        [f * s[0], f * s[1]]
    } else {
        [0.0, 0.0]
    }
}

/// A wall inside the table, as drawn: a line through points, or an arc.
#[derive(Debug, Clone, PartialEq)]
pub enum WallView {
    /// A segment or a polyline (closed when its last point repeats the first).
    Line(Vec<(f64, f64)>),
    /// The arc about `center` of radius `radius` from angle `from` over `span`
    /// (radians, from +x towards +y; a full circle spans 2 pi).
    Arc {
        /// The centre `(x, y)`, scene units.
        center: (f64, f64),
        /// The radius, scene units.
        radius: f64,
        /// Where the arc starts, radians from +x towards +y.
        from: f64,
        /// The arc's angular extent, radians (`2 pi` for a circle).
        span: f64,
    },
}

impl WallView {
    /// Points along the wall, close enough together that joining them by straight
    /// lines strays from an arc by less than `tolerance` (scene units).
    pub fn points(&self, tolerance: f64) -> Vec<(f64, f64)> {
        match self {
            WallView::Line(p) => p.clone(),
            WallView::Arc {
                center,
                radius,
                from,
                span,
            } => {
                // A chord of angle a strays r (1 - cos(a/2)) ~ r a^2 / 8 from its arc.
                let a = (8.0 * tolerance.max(1e-12) / radius.max(1e-12)).sqrt();
                let n = ((span / a).ceil() as usize).clamp(8, 2048);
                (0..=n)
                    .map(|k| {
                        let t = from + span * k as f64 / n as f64;
                        (center.0 + radius * t.cos(), center.1 + radius * t.sin())
                    })
                    .collect()
            }
        }
    }
}

/// A table and its balls at one instant.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Frame {
    /// Table width in scene units: the table is `[0, width] x [0, height]`.
    pub width: f64,
    /// Table height in scene units.
    pub height: f64,
    /// Simulated time, shown in panel labels.
    pub time: f64,
    /// Every ball, in the world's order (one out of play at x = NaN, not drawn).
    pub balls: Vec<BallView>,
    /// Periodic axes (x, y): no wall there; a ball cut by such an edge is drawn on both
    /// sides, and the edge is drawn dashed.
    pub periodic: [bool; 2],
    /// Open axes (x, y): no wall there either; balls that cross leave play. Drawn as a
    /// gap in the border.
    pub open: [bool; 2],
    /// Walls inside the table.
    pub walls: Vec<WallView>,
    /// Pockets: centre and radius, drawn as holes.
    pub pockets: Vec<((f64, f64), f64)>,
    /// Contact forces drawn as force chains (see [`Frame::force_segments`]); empty:
    /// none drawn.
    pub forces: Vec<carom::ContactForce>,
    /// Per ball (by index), how it is dressed: a stripe, a number (see
    /// [`BallStyle`]); the style's colour replaces the ball's own. Empty: every ball
    /// drawn plainly in its colour, as pictures were before styles. Kept when the
    /// balls are refilled from a world.
    pub styles: Vec<BallStyle>,
}

/// The largest contact force of a frame is drawn this many mean ball radii wide.
pub const FORCE_WIDTH: f64 = 0.8;

/// Colours for balls that have none: distinct hues that read well on the table green and
/// on each other.
pub const DEFAULT_BALL_COLORS: [Rgb; 10] = [
    Rgb([0xF4, 0xD0, 0x3F]), // yellow
    Rgb([0x2E, 0x86, 0xC1]), // blue
    Rgb([0xE7, 0x4C, 0x3C]), // red
    Rgb([0x8E, 0x44, 0xAD]), // purple
    Rgb([0xE6, 0x7E, 0x22]), // orange
    Rgb([0xEC, 0xF0, 0xF1]), // white
    Rgb([0x17, 0xA5, 0x89]), // teal
    Rgb([0xF0, 0x62, 0x92]), // pink
    Rgb([0x7F, 0x8C, 0x8D]), // grey
    Rgb([0x1C, 0x1C, 0x1C]), // black
];

/// The default colour of ball `index`. The first ten take the ten colours in order; past
/// them the choice is scrambled, because generators lay balls out in index order and
/// cycling would paint stripes across a lattice or a gas.
pub fn default_color(index: usize) -> Rgb {
    let n = DEFAULT_BALL_COLORS.len();
    if index < n {
        return DEFAULT_BALL_COLORS[index];
    }
    // Fibonacci hashing: the top bits of index * 2^64/phi are spread evenly.
    let h = (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
    DEFAULT_BALL_COLORS[(h % n as u64) as usize]
}

impl BallView {
    /// A ball at rest at `(x, y)` of radius `r`, in the default colours, with no mark.
    pub fn new(x: f64, y: f64, r: f64) -> BallView {
        BallView {
            x,
            y,
            r,
            vx: 0.0,
            vy: 0.0,
            color: None,
            angle: None,
            spin: None,
        }
    }

    /// Where the spin dot of a sphere is drawn (its centre), if the ball carries spins.
    ///
    /// The dot reads as a pool player reads a cue ball: it sits where the top of the
    /// ball is being carried by the spin about the table's axes, relative to the
    /// ball's own travel. The top point (facing the viewer, at `-r z`) moves relative
    /// to the centre at `s = w x (-r z) = r (-wy, wx)`; the dot is offset from the
    /// centre by `r s / (|v| + |s|)`:
    ///
    /// - a stun ball (sliding without spin) shows it at the centre;
    /// - a ball rolling naturally (`s = v`) half a radius ahead, along its travel;
    /// - follow beyond natural roll further ahead, draw (backspin) behind the centre,
    ///   a masse's sideways spin to the side;
    /// - a ball spinning in place about a horizontal axis at the rim.
    ///
    /// Always inside the ball, continuous in the spins and velocity, and defined for a
    /// ball at rest (the centre). Side spin (`omega`, about the vertical) is not part
    /// of it: the rotation mark ([`BallView::mark_end`]) turns with it.
    pub fn spin_dot(&self) -> Option<(f64, f64)> {
        let [dx, dy] = spin_dot_offset(self.r, [self.vx, self.vy], self.spin?);
        let dot = (self.x + dx, self.y + dy);
        (dot.0.is_finite() && dot.1.is_finite()).then_some(dot)
    }

    /// The end of the rotation mark on the rim, if the ball has one.
    pub fn mark_end(&self) -> Option<(f64, f64)> {
        let a = self.angle.filter(|a| a.is_finite())?;
        Some((self.x + self.r * a.cos(), self.y + self.r * a.sin()))
    }

    /// A colour that stands out on the ball's fill: dark on light balls, light on dark.
    pub fn mark_color(&self, index: usize) -> Rgb {
        contrast(self.fill(index))
    }

    /// The colour actually drawn for the ball at `index`: its own, or a default one.
    pub fn fill(&self, index: usize) -> Rgb {
        self.color.unwrap_or_else(|| default_color(index))
    }

    /// A ball that cannot be placed (a simulation that blew up) is left out of the
    /// picture instead of poisoning the rasteriser.
    pub fn is_drawable(&self) -> bool {
        self.x.is_finite() && self.y.is_finite() && self.r.is_finite() && self.r > 0.0
    }
}

/// A colour that stands out on `fill`: dark on light colours, light on dark.
pub fn contrast(fill: Rgb) -> Rgb {
    let [r, g, b] = fill.0;
    let luma = 0.299 * f64::from(r) + 0.587 * f64::from(g) + 0.114 * f64::from(b);
    if luma > 110.0 {
        Rgb([0x1C, 0x1C, 0x1C])
    } else {
        Rgb([0xF2, 0xF2, 0xF2])
    }
}

/// The walls as drawn: a polyline's segments joined back into one line.
fn wall_views(walls: &carom::Walls) -> Vec<WallView> {
    use carom::Shape;
    let mut out: Vec<WallView> = Vec::new();
    let mut last_wall = None;
    for piece in walls.pieces() {
        match piece.shape {
            Shape::Segment { a, b } => {
                let joined = last_wall == Some(piece.wall) && piece.joint_before.is_some();
                match out.last_mut() {
                    Some(WallView::Line(points)) if joined => points.push((b[0], b[1])),
                    _ => out.push(WallView::Line(vec![(a[0], a[1]), (b[0], b[1])])),
                }
            }
            Shape::Arc {
                center,
                radius,
                from,
                span,
            } => out.push(WallView::Arc {
                center: (center[0], center[1]),
                radius,
                from,
                span,
            }),
        }
        last_wall = Some(piece.wall);
    }
    out
}

impl Frame {
    /// An empty walled table of `width` by `height` scene units at time 0.
    pub fn new(width: f64, height: f64) -> Frame {
        Frame {
            width,
            height,
            time: 0.0,
            balls: Vec::new(),
            periodic: [false, false],
            open: [false, false],
            walls: Vec::new(),
            pockets: Vec::new(),
            forces: Vec::new(),
            styles: Vec::new(),
        }
    }

    /// Fills `forces` from the world's contact forces now; false (and none) for a model
    /// that has none to give (the hard models act by impulses).
    pub fn update_forces(&mut self, world: &World) -> bool {
        match world.contact_forces() {
            Some(f) => {
                self.forces = f;
                true
            }
            None => {
                self.forces.clear();
                false
            }
        }
    }

    /// The force chains to draw, in scene units: per positive contact force between two
    /// drawn balls, the segment from ball `i`'s centre to ball `j`'s (its nearest image
    /// on a periodic axis) and the segment's width, [`FORCE_WIDTH`] mean radii for the
    /// frame's largest force and in proportion to the force below it.
    pub fn force_segments(&self) -> Vec<([f64; 4], f64)> {
        let ball = |k: u32| self.balls.get(k as usize).filter(|b| b.is_drawable());
        let shown = || {
            self.forces
                .iter()
                .filter(|f| f.normal > 0.0 && ball(f.i).is_some() && ball(f.j).is_some())
        };
        let largest = shown().map(|f| f.normal).fold(0.0, f64::max);
        let drawn: Vec<f64> = self
            .balls
            .iter()
            .filter(|b| b.is_drawable())
            .map(|b| b.r)
            .collect();
        if largest <= 0.0 || drawn.is_empty() {
            return Vec::new();
        }
        let mean_r = drawn.iter().sum::<f64>() / drawn.len() as f64;
        let near = |d: f64, side: f64, periodic: bool| {
            if periodic && d.abs() > 0.5 * side {
                d - side.copysign(d)
            } else {
                d
            }
        };
        shown()
            .filter_map(|f| {
                let (a, b) = (ball(f.i)?, ball(f.j)?);
                let dx = near(b.x - a.x, self.width, self.periodic[0]);
                let dy = near(b.y - a.y, self.height, self.periodic[1]);
                let width = FORCE_WIDTH * mean_r * f.normal / largest;
                Some(([a.x, a.y, a.x + dx, a.y + dy], width))
            })
            .collect()
    }

    /// Where ball `b` is drawn: its own centre, and on a periodic axis also the copy one
    /// side over whenever the ball sticks out across that edge (both copies, and the
    /// copy across the corner, when it is cut by two edges). Up to four centres.
    pub fn images(&self, b: &BallView) -> ([(f64, f64); 4], usize) {
        let shift = |p: f64, side: f64, periodic: bool| -> Option<f64> {
            if !periodic {
                None
            } else if p - b.r < 0.0 {
                Some(p + side)
            } else if p + b.r > side {
                Some(p - side)
            } else {
                None
            }
        };
        let sx = shift(b.x, self.width, self.periodic[0]);
        let sy = shift(b.y, self.height, self.periodic[1]);
        let mut out = [(b.x, b.y); 4];
        let mut n = 1;
        if let Some(x) = sx {
            out[n] = (x, b.y);
            n += 1;
        }
        if let Some(y) = sy {
            out[n] = (b.x, y);
            n += 1;
        }
        if let (Some(x), Some(y)) = (sx, sy) {
            out[n] = (x, y);
            n += 1;
        }
        (out, n)
    }

    /// The world's table and balls now.
    pub fn from_world(world: &World) -> Frame {
        let mut frame = Frame::default();
        frame.update_from_world(world);
        frame
    }

    /// Refills this frame from the world, reusing its ball buffer (one frame per sample
    /// of a long run should not allocate each time).
    pub fn update_from_world(&mut self, world: &World) {
        let table = world.table();
        self.width = table.width;
        self.height = table.height;
        self.periodic = [table.is_periodic(0), table.is_periodic(1)];
        self.time = world.time;
        self.open = [table.is_open(0), table.is_open(1)];
        let rotation = carom::state::rotation_in_play(world);
        let sphere = carom::state::spheres_in_play(world);
        let b = world.balls();
        self.balls.clear();
        // Balls out of play are not drawn; the others keep their index (their default
        // colour), so a ball is placed out of the picture rather than removed.
        self.balls.extend((0..b.len()).map(|i| BallView {
            x: if world.is_in_play(i) {
                b.x[i]
            } else {
                f64::NAN
            },
            y: b.y[i],
            r: b.r[i],
            vx: b.vx[i],
            vy: b.vy[i],
            color: b.color[i],
            angle: rotation.then_some(b.angle[i]),
            spin: sphere.then_some([b.wx[i], b.wy[i]]),
        }));
        let walls = world.walls();
        self.walls = wall_views(walls);
        self.pockets = walls
            .pockets()
            .iter()
            .map(|p| ((p.center[0], p.center[1]), p.radius))
            .collect();
    }

    /// The style of ball `i`, if the frame dresses it.
    pub fn style(&self, i: usize) -> Option<&BallStyle> {
        self.styles.get(i)
    }

    /// The colour ball `i` is drawn in: its style's, else its own or a default one.
    pub fn fill(&self, i: usize) -> Rgb {
        match self.style(i) {
            Some(s) => s.fill,
            None => self.balls[i].fill(i),
        }
    }

    /// Every distinct colour the balls are drawn with, in first-seen order (with
    /// styles, also the white of caps and discs and the digits' ink).
    pub fn colors(&self) -> Vec<Rgb> {
        let mut seen = Vec::new();
        let extra = if self.styles.is_empty() {
            Vec::new()
        } else {
            crate::ballstyle::extra_colors().to_vec()
        };
        for c in (0..self.balls.len()).map(|i| self.fill(i)).chain(extra) {
            if !seen.contains(&c) {
                seen.push(c);
                // The scene's colours feed a fixed GIF palette; past this many the
                // palette falls back to a generic colour cube anyway.
                if seen.len() > 256 {
                    break;
                }
            }
        }
        seen
    }

    /// Checks that the table can be drawn at all.
    pub fn check(&self) -> Result<(), crate::RenderError> {
        if !(self.width.is_finite() && self.width > 0.0) {
            return Err(crate::RenderError::Input(format!(
                "table width must be a positive finite number to draw (got {})",
                self.width
            )));
        }
        if !(self.height.is_finite() && self.height > 0.0) {
            return Err(crate::RenderError::Input(format!(
                "table height must be a positive finite number to draw (got {})",
                self.height
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ball_cut_by_a_periodic_edge_is_drawn_on_both_sides() {
        let mut f = Frame::new(100.0, 50.0);
        let b = BallView::new(1.0, 49.5, 2.0);
        // Walls: one copy only.
        assert_eq!(f.images(&b).1, 1);
        f.periodic = [true, false];
        let (c, n) = f.images(&b);
        assert_eq!(&c[..n], &[(1.0, 49.5), (101.0, 49.5)]);
        f.periodic = [true, true];
        let (c, n) = f.images(&b);
        assert_eq!(
            &c[..n],
            &[(1.0, 49.5), (101.0, 49.5), (1.0, -0.5), (101.0, -0.5)]
        );
        // Clear of both edges: one copy.
        assert_eq!(f.images(&BallView::new(50.0, 25.0, 2.0)).1, 1);
    }

    #[test]
    fn the_spin_dot_sits_where_the_spin_carries_the_top_of_the_ball() {
        let (r, v) = (2.0, 3.0);
        let ball = |vx: f64, vy: f64, wx: f64, wy: f64| BallView {
            vx,
            vy,
            spin: Some([wx, wy]),
            ..BallView::new(10.0, 20.0, r)
        };
        // No spins: no dot.
        assert_eq!(BallView::new(10.0, 20.0, r).spin_dot(), None);
        // Stun (sliding without spin), and a ball at rest: the centre.
        assert_eq!(ball(v, 0.0, 0.0, 0.0).spin_dot(), Some((10.0, 20.0)));
        assert_eq!(ball(0.0, 0.0, 0.0, 0.0).spin_dot(), Some((10.0, 20.0)));
        // Rolling along +x: wy = -v / r, and along +y: wx = v / r. Half a radius ahead.
        assert_eq!(ball(v, 0.0, 0.0, -v / r).spin_dot(), Some((11.0, 20.0)));
        assert_eq!(ball(0.0, v, v / r, 0.0).spin_dot(), Some((10.0, 21.0)));
        // Draw: spun backwards as fast as it goes, half a radius behind.
        assert_eq!(ball(v, 0.0, 0.0, v / r).spin_dot(), Some((9.0, 20.0)));
        // Spinning in place about a horizontal axis: on the rim.
        assert_eq!(ball(0.0, 0.0, 0.0, -1.0).spin_dot(), Some((12.0, 20.0)));
        // Never outside the ball, whatever the spin: |s| / (|v| + |s|) <= 1, up to the
        // few roundings of the offset and of measuring it (a handful of ulps of r).
        for (wx, wy) in [(1e300, -1e300), (-5.0, 7.0), (1e-300, 0.0), (0.0, 1e6)] {
            let (x, y) = ball(v, -v, wx, wy).spin_dot().unwrap();
            let d = (x - 10.0).hypot(y - 20.0);
            assert!(d <= r * (1.0 + 8.0 * f64::EPSILON), "{wx} {wy}: {d}");
        }
    }

    #[test]
    fn default_colours_are_in_order_then_evenly_scattered() {
        for (i, c) in DEFAULT_BALL_COLORS.iter().enumerate() {
            assert_eq!(default_color(i), *c);
        }
        let n = 100_000;
        let mut counts = [0usize; 10];
        let mut same_as_ten_before = 0;
        for i in 10..n {
            let c = default_color(i);
            let k = DEFAULT_BALL_COLORS.iter().position(|d| *d == c).unwrap();
            counts[k] += 1;
            if c == default_color(i - 10) {
                same_as_ten_before += 1;
            }
        }
        // Each colour close to a tenth of the balls (binomial sd is 0.1% of n here;
        // 1% allows for the hash not being random).
        for c in counts {
            assert!((c as f64 / n as f64 - 0.1).abs() < 0.01, "{counts:?}");
        }
        // Cycling by index would make this every ball; scattered, about a tenth.
        let f = same_as_ten_before as f64 / n as f64;
        assert!(f < 0.15, "period-10 repetition in {f} of balls");
    }
}
