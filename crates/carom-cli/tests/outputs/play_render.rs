//! `carom play GAME --render`: the balls wear their set's dress (the 9's stripe
//! between white caps, the 1 a yellow solid), located from the rack and the picture's
//! layout, independently of the drawing code.

use crate::common;
use common::*;

use carom_games::{GameKind, Setup};
use carom_render::{AnimationOptions, Frame, Painter, Panel};

fn first_frame(bytes: &[u8]) -> (u32, Vec<u8>) {
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::RGBA);
    let mut dec = opts.read_info(bytes).unwrap();
    let w = u32::from(dec.width());
    let f = dec.read_next_frame().unwrap().unwrap();
    assert_eq!((f.left, f.top), (0, 0));
    (w, f.buffer.to_vec())
}

#[test]
fn a_rendered_rack_shows_numbers_and_stripes() {
    let d = tempfile::tempdir().unwrap();
    run_ok(
        d.path(),
        &["play", "nine-ball", "--seed", "2", "--render", "r.gif"],
    );
    let bytes = std::fs::read(d.path().join("r.gif")).unwrap();
    let (w, rgba) = first_frame(&bytes);
    let px = |x: f64, y: f64| {
        let i = 4 * (y.round() as usize * w as usize + x.round() as usize);
        [rgba[i], rgba[i + 1], rgba[i + 2]]
    };
    // Where the rack's balls land: the same table and layout the command draws.
    let setup = Setup::new(GameKind::NineBall, 2);
    let world = carom::parse::build_world(&setup.scenario()).unwrap();
    let frame = Frame::from_world(&world);
    let mut options = AnimationOptions::default();
    options.picture.size = (1024, 1024);
    let painter = Painter::new(&[Panel::new(&frame)], &options.picture).unwrap();
    let vp = painter.layout().panels[0].viewport;
    let r = setup.table.balls.radius * vp.scale;
    assert!(r >= 8.0, "balls of {r} px: too small to carry numbers");
    let centre = |n: u32| {
        let p = setup.balls.iter().find(|b| b.0 == n).unwrap().1;
        vp.to_pixel(p[0], p[1])
    };
    let yellow = [0xF4, 0xD0, 0x3F];
    let white = [0xFF, 0xFF, 0xFF];
    // The 9 (yellow stripe): white caps above and below (0.8 r from the centre, past
    // the band's half height 0.55 r), yellow at the sides of the number disc (0.8 r
    // across, between the disc's 0.62 r and the rim).
    let (x, y) = centre(9);
    assert_eq!(px(x, y - 0.8 * r), white);
    assert_eq!(px(x, y + 0.8 * r), white);
    assert_eq!(px(x - 0.8 * r, y), yellow);
    assert_eq!(px(x + 0.8 * r, y), yellow);
    // The 1 (yellow solid): yellow where the 9 is white; its number disc white.
    let (x, y) = centre(1);
    assert_eq!(px(x, y - 0.8 * r), yellow);
    assert_eq!(px(x - 0.8 * r, y), yellow);
}
