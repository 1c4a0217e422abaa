//! What a picture is drawn from: plain data, so that the command line, the viewer and the
//! tests can all hand it over without a running simulation.

use carom::{Rgb, World};

/// One ball as the renderer sees it, in scene units (y pointing down).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BallView {
    pub x: f64,
    pub y: f64,
    pub r: f64,
    pub vx: f64,
    pub vy: f64,
    /// `None`: the ball takes a colour from [`DEFAULT_BALL_COLORS`] by its index.
    pub color: Option<Rgb>,
}

/// A table and its balls at one instant.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Frame {
    /// Table size in scene units: the table is `[0, width] x [0, height]`.
    pub width: f64,
    pub height: f64,
    /// Simulated time, shown in panel labels.
    pub time: f64,
    pub balls: Vec<BallView>,
}

/// Colours for balls that have none: distinct hues that read well on the table green and
/// on each other, cycled by ball index.
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

impl BallView {
    pub fn new(x: f64, y: f64, r: f64) -> BallView {
        BallView {
            x,
            y,
            r,
            vx: 0.0,
            vy: 0.0,
            color: None,
        }
    }

    /// The colour actually drawn for the ball at `index`.
    pub fn fill(&self, index: usize) -> Rgb {
        self.color
            .unwrap_or(DEFAULT_BALL_COLORS[index % DEFAULT_BALL_COLORS.len()])
    }

    /// A ball that cannot be placed (a simulation that blew up) is left out of the
    /// picture instead of poisoning the rasteriser.
    pub fn is_drawable(&self) -> bool {
        self.x.is_finite() && self.y.is_finite() && self.r.is_finite() && self.r > 0.0
    }
}

impl Frame {
    pub fn new(width: f64, height: f64) -> Frame {
        Frame {
            width,
            height,
            time: 0.0,
            balls: Vec::new(),
        }
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
        self.time = world.time;
        let b = world.balls();
        self.balls.clear();
        self.balls.extend((0..b.len()).map(|i| BallView {
            x: b.x[i],
            y: b.y[i],
            r: b.r[i],
            vx: b.vx[i],
            vy: b.vy[i],
            color: b.color[i],
        }));
    }

    /// Every distinct colour the balls are drawn with, in first-seen order.
    pub fn colors(&self) -> Vec<Rgb> {
        let mut seen = Vec::new();
        for (i, b) in self.balls.iter().enumerate() {
            let c = b.fill(i);
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
