//! Contact friction and rotation through the `carom` binary: rotation columns in the
//! trajectory and diagnostics CSVs when rotation is in play (and the old columns when
//! it is not), and bad contact-friction input as one line with file, line and field.

use crate::common;
use common::*;

use std::path::Path;

fn first_line(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().next().unwrap().to_string()
}

#[test]
fn rotation_columns_appear_only_when_rotation_is_in_play() {
    let dir = tempfile::tempdir().unwrap();
    let args = |preset: &'static str| {
        [
            "run",
            preset,
            "--steps",
            "40",
            "--trajectory",
            "t.csv",
            "--diagnostics",
            "d.csv",
            "-q",
        ]
    };
    let o = carom(dir.path(), &args("english"));
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(
        first_line(&dir.path().join("t.csv")),
        "step,time,id,x,y,vx,vy,ix,iy,angle,omega"
    );
    let d = first_line(&dir.path().join("d.csv"));
    assert!(
        d.ends_with(",pressure,stress_xx,stress_xy,stress_yy,rotational_energy,psi6"),
        "{d}"
    );
    // A spinning ball's rows: the angle column turns at omega (-0.8) per unit time.
    let t = std::fs::read_to_string(dir.path().join("t.csv")).unwrap();
    let last = t.lines().last().unwrap();
    let cols: Vec<f64> = last.split(',').map(|c| c.parse().unwrap()).collect();
    assert_eq!(cols[2], 1.0, "the spun ball is ball 1");
    assert!(
        (cols[9] - (-0.8 * 2.0)).abs() < 1e-12 && cols[10] == -0.8,
        "{last}"
    );

    let o = carom(dir.path(), &args("break"));
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        first_line(&dir.path().join("t.csv")),
        "step,time,id,x,y,vx,vy,ix,iy"
    );
    assert!(first_line(&dir.path().join("d.csv"))
        .ends_with(",pressure,stress_xx,stress_xy,stress_yy,psi6"));
}

#[test]
fn bad_contact_friction_is_one_line_with_file_line_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let text = "[table]\nwidth = 100.0\nheight = 100.0\n\n[physics]\nmodel = \"event\"\ncontact_friction = { mu = -1.0 }\n\n[[balls]]\nx = 50.0\ny = 50.0\n";
    std::fs::write(dir.path().join("bad.toml"), text).unwrap();
    let o = carom(dir.path(), &["run", "bad.toml", "--out", "s.json"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains("bad.toml:7:") && err.contains("physics.contact_friction.mu"),
        "{err}"
    );
    assert!(!dir.path().join("s.json").exists(), "no partial output");
}
