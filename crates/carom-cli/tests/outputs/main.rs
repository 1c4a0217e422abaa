//! Pictures, games and the viewer through the command line, one binary: `--render` and
//! `--plot`, `carom play`, and `carom view` (the viewer's refusals with the `viewer`
//! feature, the line saying how to get it without).

#[path = "../common/mod.rs"]
mod common;

mod play;
mod play_render;
mod render;
// The viewer's own refusals need it built in; a build without it has one answer.
#[cfg(feature = "viewer")]
mod view;
#[cfg(not(feature = "viewer"))]
mod view_headless;
