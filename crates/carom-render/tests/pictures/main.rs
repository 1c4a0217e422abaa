//! Pictures and plots, one binary: PNG, SVG and GIF output, ball styles, force chains,
//! walls, periodic boxes, energy plots and recording, one theme per module.

#[path = "../common/mod.rs"]
mod common;

mod ball_styles;
mod force_chains;
mod gif;
mod periodic_render;
mod plot;
mod png;
mod record;
mod svg;
mod walls_render;
