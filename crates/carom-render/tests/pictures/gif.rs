//! Animated GIFs decoded back with the gif crate: frame count, size, timing, content.

use crate::common;

use carom_render::{AnimationOptions, GifWriter};
use common::*;

fn animation(fps: f64) -> AnimationOptions {
    AnimationOptions {
        picture: options(),
        fps,
        trails: None,
    }
}

/// The red ball moved `k` units to the right each frame.
fn frames(n: usize) -> Vec<carom_render::Frame> {
    (0..n)
        .map(|k| {
            let mut f = scene();
            f.balls[0].x = 30.0 + 5.0 * k as f64;
            f.time = k as f64;
            f
        })
        .collect()
}

fn encode(frames: &[carom_render::Frame], opts: &AnimationOptions) -> (Vec<u8>, u64) {
    let mut g = GifWriter::new(Vec::new(), &frames[..1], &[], opts).unwrap();
    for f in frames {
        g.push(std::slice::from_ref(f)).unwrap();
    }
    g.finish().unwrap()
}

#[test]
fn one_frame_per_push_at_the_picture_size() {
    let frames = frames(12);
    let (bytes, written) = encode(&frames, &animation(25.0));
    let gif = decode_gif(&bytes);
    assert_eq!((gif.width, gif.height), (440, 240));
    assert_eq!(gif.shown.len(), 12);
    assert_eq!(written, 12);
    // 25 fps: every frame 4/100 s.
    assert!(gif.delays.iter().all(|&d| d == 4), "{:?}", gif.delays);
    // Every shown frame has the ball where its frame put it, in its exact colour (the
    // palette holds the scene's colours), and cloth where it was a frame before.
    for (k, shown) in gif.shown.iter().enumerate() {
        let (x, y) = pixel_of(frames[k].balls[0].x, 25.0);
        assert_eq!(shown.at(x, y), RED, "frame {k}");
        let (x, y) = pixel_of(frames[k].balls[0].x - 20.0, 25.0);
        assert_eq!(shown.at(x, y), options().style.background, "frame {k}");
    }
}

#[test]
fn later_frames_cover_only_what_moved() {
    let (bytes, _) = encode(&frames(6), &animation(25.0));
    let gif = decode_gif(&bytes);
    assert_eq!(gif.rects[0], (0, 0, 440, 240));
    for r in &gif.rects[1..] {
        // The red ball (40 px across) moved 10 px: about 50 x 40 px change.
        assert!(
            r.2 <= 60 && r.3 <= 50,
            "frame rectangle {r:?} larger than the motion"
        );
        let (x0, _) = pixel_of(30.0 - 10.0, 25.0);
        assert!(r.0 as u32 >= x0);
    }
}

#[test]
fn unchanged_frames_lengthen_the_previous_one_and_time_adds_up() {
    // 30 fps does not divide 100: the delays must still add up to the exact duration.
    let still = vec![scene(); 7];
    let (bytes, written) = encode(&still, &animation(30.0));
    let gif = decode_gif(&bytes);
    assert_eq!(written, 1);
    assert_eq!(gif.shown.len(), 1);
    // 7 frames at 30 fps = 23.3 hundredths -> 23.
    assert_eq!(gif.delays, vec![23]);

    let (bytes, _) = encode(&frames(9), &animation(30.0));
    let gif = decode_gif(&bytes);
    assert_eq!(gif.delays.iter().map(|&d| d as u32).sum::<u32>(), 30); // 9/30 s
}

#[test]
fn side_by_side_animation_has_one_labelled_panel_per_world() {
    let a = frames(5);
    let b: Vec<_> = frames(5)
        .into_iter()
        .map(|mut f| {
            f.balls[0].y = 75.0;
            f
        })
        .collect();
    let mut opts = animation(20.0);
    opts.picture.size = (440, 240);
    opts.picture.show_time = true;
    let labels = ["impulse".to_string(), "spring".to_string()];
    let mut g = GifWriter::new(Vec::new(), &[a[0].clone(), b[0].clone()], &labels, &opts).unwrap();
    let size = g.size();
    for k in 0..5 {
        g.push(&[a[k].clone(), b[k].clone()]).unwrap();
    }
    let (bytes, written) = g.finish().unwrap();
    let gif = decode_gif(&bytes);
    assert_eq!((gif.width, gif.height), size);
    assert_eq!(written, 5);
    // Two 440-wide panels cannot be narrower together than 880 px.
    assert!(size.0 >= 880 || size.1 >= 480, "{size:?}");
    // A wrong number of worlds is an error, not a panic.
    let mut g = GifWriter::new(Vec::new(), &[a[0].clone(), b[0].clone()], &labels, &opts).unwrap();
    assert!(g.push(&[a[0].clone()]).is_err());
}

#[test]
fn bad_rates_and_empty_animations_are_refused() {
    let f = frames(1);
    for fps in [0.0, -1.0, 60.0, f64::NAN] {
        assert!(
            GifWriter::new(Vec::new(), &f, &[], &animation(fps)).is_err(),
            "fps {fps}"
        );
    }
    let g = GifWriter::new(Vec::new(), &f, &[], &animation(25.0)).unwrap();
    assert!(g.finish().is_err());
}

#[test]
fn trails_stay_within_a_sensible_size() {
    // A long trail animation: the file must stay far below raw frames (440 x 240 x 40
    // frames = 4.2 MB of indices) thanks to rectangles and transparency.
    let mut opts = animation(25.0);
    opts.trails = Some(10);
    let (bytes, _) = encode(&frames(30), &opts);
    assert!(bytes.len() < 100_000, "{} bytes", bytes.len());
}
