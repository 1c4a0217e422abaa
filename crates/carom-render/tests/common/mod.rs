//! Shared by the picture tests: a known scene and image decoding.
#![allow(dead_code)]

use carom::Rgb;
use carom_render::{BallView, Frame, PictureOptions, Style};

/// A 200 x 100 table with walls 10 units thick (0.1 of the short side) in a 440 x 480
/// box: the outer 220 x 120 scene units fill the width at exactly 2 pixels per unit, so
/// the picture is 440 x 240 and scene point (x, y) lands on pixel (20 + 2x, 20 + 2y).
pub fn options() -> PictureOptions {
    PictureOptions {
        style: Style {
            wall_fraction: 0.1,
            ..Style::default()
        },
        size: (440, 480),
        show_time: false,
    }
}

pub fn pixel_of(x: f64, y: f64) -> (u32, u32) {
    ((20.0 + 2.0 * x) as u32, (20.0 + 2.0 * y) as u32)
}

pub const RED: Rgb = Rgb([0xC8, 0x1E, 0x1E]);

/// A red ball at (50, 25) moving right, and an uncoloured one at (150, 50).
pub fn scene() -> Frame {
    let mut red = BallView::new(50.0, 25.0, 10.0);
    red.color = Some(RED);
    red.vx = 10.0;
    Frame {
        width: 200.0,
        height: 100.0,
        time: 0.0,
        balls: vec![red, BallView::new(150.0, 50.0, 8.0)],
        periodic: [false, false],
        ..Frame::default()
    }
}

pub struct Image {
    pub width: u32,
    pub height: u32,
    pub rgb: Vec<u8>,
}

impl Image {
    pub fn at(&self, x: u32, y: u32) -> Rgb {
        let i = 3 * (y * self.width + x) as usize;
        Rgb([self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]])
    }
}

pub fn decode_png(bytes: &[u8]) -> Image {
    let pixmap = tiny_skia::Pixmap::decode_png(bytes).expect("a valid PNG");
    let rgb = pixmap
        .pixels()
        .iter()
        .flat_map(|p| {
            let c = p.demultiply();
            [c.red(), c.green(), c.blue()]
        })
        .collect();
    Image {
        width: pixmap.width(),
        height: pixmap.height(),
        rgb,
    }
}

pub struct Gif {
    pub width: u32,
    pub height: u32,
    /// Every frame as shown, composited over the ones before (RGB).
    pub shown: Vec<Image>,
    /// Each frame's own rectangle `(left, top, width, height)` and delay.
    pub rects: Vec<(u16, u16, u16, u16)>,
    pub delays: Vec<u16>,
}

pub fn decode_gif(bytes: &[u8]) -> Gif {
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::RGBA);
    let mut dec = opts.read_info(bytes).expect("a valid GIF");
    let (w, h) = (dec.width() as u32, dec.height() as u32);
    let mut canvas = vec![0u8; (w * h * 3) as usize];
    let mut out = Gif {
        width: w,
        height: h,
        shown: Vec::new(),
        rects: Vec::new(),
        delays: Vec::new(),
    };
    while let Some(f) = dec.read_next_frame().expect("frames decode") {
        for y in 0..f.height as u32 {
            for x in 0..f.width as u32 {
                let s = 4 * (y * f.width as u32 + x) as usize;
                if f.buffer[s + 3] == 0 {
                    continue; // transparent: the previous frame shows through
                }
                let d = 3 * ((y + f.top as u32) * w + x + f.left as u32) as usize;
                canvas[d..d + 3].copy_from_slice(&f.buffer[s..s + 3]);
            }
        }
        out.rects.push((f.left, f.top, f.width, f.height));
        out.delays.push(f.delay);
        out.shown.push(Image {
            width: w,
            height: h,
            rgb: canvas.clone(),
        });
    }
    out
}
