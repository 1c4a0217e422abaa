//! `carom` built without the viewer (`--no-default-features`): every `carom view`,
//! whatever it is given, is refused with status 2 and one line saying how to get the
//! viewer, before anything is loaded.

use std::path::Path;

use crate::common;

fn says_how_to_get_the_viewer(args: &[&str]) {
    let o = common::carom(Path::new("."), args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(o.stdout.is_empty(), "{args:?}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(
        err.contains("without the viewer") && err.contains("default features"),
        "{args:?}: {err}"
    );
}

#[test]
fn view_says_how_to_get_the_viewer() {
    says_how_to_get_the_viewer(&["view"]);
    says_how_to_get_the_viewer(&["view", "gas", "--frames", "3"]);
    says_how_to_get_the_viewer(&["view", "nine-ball"]);
    says_how_to_get_the_viewer(&["view", "no-such-scene", "--substeps", "0"]);
}
