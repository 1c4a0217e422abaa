//! Recordings write files whole, in the format the extension names.

use crate::common;

use std::path::PathBuf;

use carom_render::{AnimationOptions, ImageFormat, Recording};
use common::*;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("carom-render-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn record(path: &std::path::Path, steps: usize) -> carom_render::RecordSummary {
    let opts = AnimationOptions {
        picture: options(),
        fps: 25.0,
        trails: Some(4),
    };
    let mut f = scene();
    let mut rec = Recording::create(path, std::slice::from_ref(&f), &[], &opts).unwrap();
    for k in 0..steps {
        f.balls[0].x = 30.0 + 4.0 * k as f64;
        rec.push(std::slice::from_ref(&f)).unwrap();
    }
    rec.finish_file().unwrap()
}

#[test]
fn each_format_is_written_and_nothing_else_is_left() {
    let dir = temp_dir("formats");
    let gif = record(&dir.join("run.gif"), 10);
    assert_eq!(
        (gif.format, gif.frames, gif.size),
        (ImageFormat::Gif, 10, (440, 240))
    );
    assert_eq!(
        decode_gif(&std::fs::read(dir.join("run.gif")).unwrap())
            .shown
            .len(),
        10
    );

    let png = record(&dir.join("run.PNG"), 10);
    assert_eq!(png.frames, 1);
    let img = decode_png(&std::fs::read(dir.join("run.PNG")).unwrap());
    // The still picture shows the last state: the red ball at x = 30 + 4 * 9 = 66.
    let (x, y) = pixel_of(66.0, 25.0);
    assert_eq!(img.at(x, y), RED);

    record(&dir.join("run.svg"), 3);
    let svg = std::fs::read_to_string(dir.join("run.svg")).unwrap();
    assert!(svg.contains(r#"<circle cx="38" cy="25" r="10""#), "{svg}");

    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["run.PNG", "run.gif", "run.svg"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_abandoned_animation_leaves_no_file() {
    let dir = temp_dir("abandon");
    let f = scene();
    let mut rec = Recording::create(
        &dir.join("x.gif"),
        std::slice::from_ref(&f),
        &[],
        &AnimationOptions::default(),
    )
    .unwrap();
    rec.push(std::slice::from_ref(&f)).unwrap();
    drop(rec);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    // A still picture opens its file up front (to fail early) and cleans up the same.
    let rec = Recording::create(
        &dir.join("x.png"),
        std::slice::from_ref(&f),
        &[],
        &AnimationOptions::default(),
    )
    .unwrap();
    drop(rec);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn unknown_formats_and_missing_directories_are_clear_errors() {
    let f = scene();
    let opts = AnimationOptions::default();
    let e = Recording::create(
        std::path::Path::new("out.jpg"),
        std::slice::from_ref(&f),
        &[],
        &opts,
    )
    .err()
    .unwrap();
    assert!(e.to_string().contains("'.jpg'"), "{e}");
    let e = Recording::create(
        std::path::Path::new("out"),
        std::slice::from_ref(&f),
        &[],
        &opts,
    )
    .err()
    .unwrap();
    assert!(e.to_string().contains("extension"), "{e}");
    let e = Recording::create(
        std::path::Path::new("/nonexistent-dir/x.gif"),
        &[f],
        &[],
        &opts,
    )
    .err()
    .unwrap();
    assert!(e.to_string().contains("/nonexistent-dir/x.gif"), "{e}");
}
