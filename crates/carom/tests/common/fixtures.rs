//! Scene texts used by the tests of more than one crate: the command line's tests
//! include this file from their own `common` module.

/// A 200 x 100 table open on the left, a pocket of radius 8 about (180, 30) and three
/// balls of radius 5, under `model` with time step `dt`. Ball 0 rolls from (20, 30) at 3
/// into the pocket, its centre entering the pocket's disk at `t = (172 - 20) / 3`; ball
/// 1 rolls from (50, 70) at -2.5 out across the open left edge at `t = 50 / 2.5`; ball
/// 2 is `third`, the lines of its `[[balls]]` entry.
pub fn pocket_and_open_edge(model: &str, dt: f64, third: &str) -> String {
    format!(
        r#"
[table]
width = 200.0
height = 100.0
boundary = ["open", "walls"]
[physics]
model = "{model}"
dt = {dt:?}
[[balls]]
x = 20.0
y = 30.0
vx = 3.0
r = 5.0
[[balls]]
x = 50.0
y = 70.0
vx = -2.5
r = 5.0
[[balls]]
{third}
[[pockets]]
center = [180.0, 30.0]
radius = 8.0
"#
    )
}
