//! Balls glued to moving walls (`glue = K`): a glued grain rides on its wall, a servo
//! lid holds its pressure through its glued grains, a lid's grains carry a free ball by
//! geometry alone, a run resumes bit for bit and runs the same on 1 and 2 threads, a
//! scene without glue runs as before, and every bad use is a one-line error naming the
//! key.

use crate::common;
use carom::parse::{build_world, parse_scenario, Format};
use common::scene::{build_error, run_to, world};

/// A servo lid (a segment at y = 9, x from 40 to 60, pressure `P` along y) carrying one
/// glued grain of radius 1 at (50, 9), over a column of five free balls (r = 1)
/// standing on a fixed floor at y = 20, no gravity. The lid's segment touches no free
/// ball (the top one is 2 below it): the only force the servo can read is the column's
/// push on the glued grain. Every contact (grain-ball, ball-ball, ball-floor) pushes
/// `k s`, so at rest each of the six overlaps is `s = P L / k` and the lid has come
/// down by `6 s`. The decay to that balance is the one argued in walls_moving.rs for
/// the same column under a bare lid (six springs in series, `K = k / 6`, 17 time
/// constants in 20 time units): 1e-5 is far below the 0.06 travel and well above
/// round-off. Were the grain's contact not counted, the servo would read no force and
/// run on at `P L / (k tau)`, through the column.
#[test]
fn a_servo_lid_holds_its_pressure_through_its_glued_grain() {
    let (k, p, len, n, floor) = (1000.0, 0.5, 20.0, 5, 20.0);
    let s = p * len / k;
    let mut balls = String::new();
    for i in 0..n {
        balls += &format!(
            "[[balls]]\nx = 50.0\ny = {}\nr = 1.0\n",
            floor - 1.0 - 2.0 * i as f64
        );
    }
    let lid = floor - 2.0 * n as f64 - 1.0;
    let mut w = world(&format!(
        r#"
        [table]
        width = 100.0
        height = 100.0
        [physics]
        model = "spring"
        stiffness = {k}
        dt = 0.002
        {balls}
        [[balls]]
        x = 50.0
        y = {lid}
        r = 1.0
        glue = 1
        [[walls]]
        kind = "segment"
        points = [[30.0, {floor}], [70.0, {floor}]]
        [[walls]]
        kind = "segment"
        points = [[40.0, {lid}], [60.0, {lid}]]
        pressure = {p}
        axis = "y"
        "#
    ));
    run_to(&mut w, 20.0);
    let off = w.walls().motion(1).unwrap().offset;
    let expect = (n as f64 + 1.0) * s;
    assert!(
        (off[1] - expect).abs() < 1e-5,
        "lid came down by {}, expected {expect}",
        off[1]
    );
    // The grain went where the lid went: the same increments summed from another
    // start (9 instead of 0), so equal to the round-off of 10^4 sums of numbers of
    // order 10 (1e-11).
    let b = w.balls();
    assert!((b.y[n] - lid - off[1]).abs() < 1e-11, "grain at {}", b.y[n]);
    assert_eq!(b.x[n], 50.0);
}

/// A glued grain moves by its wall's displacement plus its own velocity times `t`:
/// here a wall translating at (0.3, 0.02) carries a grain with its own vx = 1 across
/// the periodic x edge of a 40-wide table (it travels 26 in 20 time units). Both
/// places are sums of 2000 steps of numbers of order 1 from starts of order 30, so they
/// agree to some 1e-12 (1e-10 allowed); the spring and impulse models alike.
#[test]
fn a_glued_grain_rides_on_its_wall_across_the_periodic_edge() {
    for model in ["spring", "impulse"] {
        let mut w = world(&format!(
            r#"
            [table]
            width = 40.0
            height = 40.0
            boundary = ["periodic", "walls"]
            [physics]
            model = "{model}"
            dt = 0.01
            [[balls]]
            x = 30.0
            y = 10.0
            vx = 1.0
            r = 0.5
            glue = 0
            [[walls]]
            kind = "segment"
            points = [[0.0, 10.0], [40.0, 10.0]]
            velocity = [0.3, 0.02]
            "#
        ));
        run_to(&mut w, 20.0);
        let off = w.walls().motion(0).unwrap().offset;
        let b = w.balls();
        let x = b.x[0] + 40.0 * b.ix[0] as f64;
        assert_eq!(b.ix[0], 1, "{model}: crossed the edge once");
        assert!(
            (x - 30.0 - 1.0 * 20.0 - off[0]).abs() < 1e-10,
            "{model}: x {x}"
        );
        assert!(
            (b.y[0] - 10.0 - off[1]).abs() < 1e-10,
            "{model}: y {}",
            b.y[0]
        );
        assert!((off[0] - 6.0).abs() < 1e-10 && (off[1] - 0.4).abs() < 1e-10);
        // It moves at the sum of the two velocities.
        assert!((b.vx[0] - 1.3).abs() < 1e-15 && (b.vy[0] - 0.02).abs() < 1e-15);
    }
}

/// A lid at y = 30 moving at U = 0.3 along x carries two glued grains (r = 0.5, 1.2
/// apart); a free ball (r = 0.5) sits in the pocket between them, pressed into it by
/// gravity g = 1 along +y, with no friction anywhere. In the lid's frame (inertial: U
/// is constant) the ball lies in a potential well (it would have to rise 0.2 against g
/// to leave it, and the lid's start gives it only U^2 / 2 = 0.045 of energy per unit
/// mass), and each contact's unloading at `e^2 = 0.25` of its loading force takes
/// energy from every oscillation, so it comes to rest there: in the lab it moves at U,
/// carried by the geometry alone. The lag decays exponentially, slowest in the mode
/// where the ball settles back to the pocket's bottom (in this scene by a factor of
/// about 5 every 5 time units, from the initial lag U); after 60 time units it is some
/// 1e-12 U. The bound, 1e-6 U, is there to tell "carried at U" from any lag a slipping
/// ball would show (of order U) with room for a slower decay on another platform.
/// Without the grains the same frictionless lid drags nothing: the ball on the bare
/// segment keeps vx = 0 (every force on it is along y, to the round-off of the normal
/// to a segment placed at its offset: 1e-12 allowed).
#[test]
fn a_free_ball_between_two_glued_grains_is_carried_at_the_lid_speed() {
    let u = 0.3;
    let scene = |grains: &str, y: f64| {
        world(&format!(
            r#"
            [table]
            width = 40.0
            height = 40.0
            [physics]
            model = "spring"
            stiffness = 1000.0
            restitution = 0.5
            dt = 0.001
            gravity = [0.0, 1.0]
            [[balls]]
            x = 20.0
            y = {y}
            r = 0.5
            {grains}
            [[walls]]
            kind = "segment"
            points = [[0.0, 30.0], [40.0, 30.0]]
            velocity = [{u}, 0.0]
            "#
        ))
    };
    let grains = "[[balls]]\nx = 19.4\ny = 30.0\nr = 0.5\nglue = 0\n\
                  [[balls]]\nx = 20.6\ny = 30.0\nr = 0.5\nglue = 0\n";
    let mut w = scene(grains, 29.2);
    run_to(&mut w, 60.0);
    let b = w.balls();
    assert!((b.vx[0] - u).abs() < 1e-6 * u, "vx {}", b.vx[0]);
    // Still in its pocket: midway between the grains.
    assert!(
        (b.x[0] - 0.5 * (b.x[1] + b.x[2])).abs() < 1e-6,
        "x {}",
        b.x[0]
    );
    let mut bare = scene("", 29.5);
    run_to(&mut bare, 30.0);
    assert!(
        bare.balls().vx[0].abs() < 1e-12,
        "vx {}",
        bare.balls().vx[0]
    );
}

/// A small plane-shear cell: periodic in x, a fixed floor, a servo lid sliding at U with
/// a row of glued grains, frictional grains between.
fn cell() -> String {
    let mut grains = String::new();
    for i in 0..18 {
        grains += &format!(
            "[[balls]]\nx = {}\ny = 10.0\nvx = 1.0\nr = 0.5\nm = 0.25\nglue = 0\n",
            0.55 + 1.1 * i as f64
        );
    }
    format!(
        r#"
        [table]
        width = 19.8
        height = 40.0
        boundary = ["periodic", "walls"]
        [physics]
        model = "spring"
        dt = 0.001
        stiffness = 10000.0
        restitution = 0.5
        contact_friction = {{ mu = 0.5 }}
        {grains}
        [[walls]]
        kind = "segment"
        points = [[0.0, 10.0], [19.8, 10.0]]
        surface_velocity = 1.0
        pressure = 10.0
        axis = "y"
        [[walls]]
        kind = "segment"
        points = [[0.0, 25.0], [19.8, 25.0]]
        [[generators]]
        kind = "lattice"
        nx = 8
        ny = 5
        x0 = 1.2
        y0 = 12.0
        dx = 2.4
        dy = 2.4
        r = 0.6
        m = 0.36
        "#
    )
}

/// The cell's state file names each glued ball's wall and its own velocity; resumed
/// half way it continues to the same bits (balls, the lid's place), and 2 threads give
/// the bits of 1.
#[test]
fn a_glued_lid_resumes_bit_for_bit_and_runs_the_same_on_two_threads() {
    let steps = 3000;
    let mut a = world(&cell());
    a.run_steps(steps).unwrap();
    let mut two = world(&cell());
    two.set_threads(2).unwrap();
    two.run_steps(steps).unwrap();
    assert_eq!(two.balls(), a.balls());
    assert_eq!(two.walls(), a.walls());
    let mut first = world(&cell());
    first.run_steps(steps / 2).unwrap();
    let state = carom::state::snapshot(&first, 100.0);
    let text = serde_json::to_string(&state).unwrap();
    let s = parse_scenario(&text, Format::Json).unwrap();
    assert_eq!(s.balls[0].glue, Some(0));
    assert_eq!(
        (s.balls[0].vx, s.balls[0].vy),
        (1.0, 0.0),
        "its own velocity"
    );
    assert!(s.balls[0].kinematic);
    assert_eq!(s.balls[18].glue, None);
    let mut resumed = build_world(&s).unwrap();
    resumed.run_steps(steps / 2).unwrap();
    assert_eq!(resumed.balls(), a.balls());
    assert_eq!(resumed.walls(), a.walls());
    // The lid came down onto the grains (the lattice's top row is 2 below it).
    let off = a.walls().motion(0).unwrap().offset[1];
    assert!(off > 0.0, "lid offset {off}");
}

/// FNV-1a over the bit patterns of every position and velocity, and the walls' places.
fn state_hash(w: &carom::World) -> u64 {
    let b = w.balls();
    let balls = (0..b.len()).flat_map(|i| [b.x[i], b.y[i], b.vx[i], b.vy[i]]);
    let walls = w.walls().motions().iter().flatten().flat_map(|m| m.offset);
    common::fnv1a(balls.chain(walls).map(f64::to_bits))
}

/// The cell without its glued grains (the lid rough by friction, as the `shear` preset
/// was): the hash was recorded by this test on the commit before glued balls existed
/// (7bcec86), so a scene without `glue` still runs to the same bits.
#[test]
fn a_servo_scene_without_glue_runs_as_before() {
    let text = cell();
    let text = &text[text.find("[[walls]]").unwrap()..];
    let mut w = world(&format!(
        r#"
        [table]
        width = 19.8
        height = 40.0
        boundary = ["periodic", "walls"]
        [physics]
        model = "spring"
        dt = 0.001
        stiffness = 10000.0
        restitution = 0.5
        contact_friction = {{ mu = 0.5 }}
        {text}
        "#
    ));
    w.run_steps(2000).unwrap();
    assert_eq!(
        state_hash(&w),
        0x38b3_f917_be81_bfef,
        "hash {:#x}",
        state_hash(&w)
    );
}

/// Every bad use of `glue`, one line naming the key.
#[test]
fn bad_glue_is_a_one_line_error_naming_the_key() {
    let scene = |model: &str, ball: &str, walls: &str| {
        format!(
            r#"
            [table]
            width = 40.0
            height = 40.0
            [physics]
            model = "{model}"
            [[balls]]
            x = 20.0
            y = 20.0
            r = 1.0
            [[balls]]
            x = 10.0
            y = 10.0
            r = 0.5
            {ball}
            {walls}
            "#
        )
    };
    let moving = "[[walls]]\nkind = \"segment\"\npoints = [[0.0, 10.0], [40.0, 10.0]]\n\
                  velocity = [0.5, 0.0]\n";
    let fixed = "[[walls]]\nkind = \"segment\"\npoints = [[0.0, 10.0], [40.0, 10.0]]\n";
    let turning = "[[walls]]\nkind = \"segment\"\npoints = [[0.0, 10.0], [40.0, 10.0]]\n\
                   angular_velocity = 0.1\npivot = [20.0, 10.0]\n";
    for (model, ball, walls, needle) in [
        ("spring", "glue = 3", moving, "names walls[3]"),
        ("spring", "glue = 0", "", "no walls"),
        ("spring", "glue = 0", fixed, "does not move"),
        ("spring", "glue = 0", turning, "turns"),
        ("event", "glue = 0", moving, "spring and impulse"),
        (
            "spring",
            "glue = 0\nremoved = { time = 0.0, by = \"left\" }",
            moving,
            "cannot leave play",
        ),
        ("spring", "glue = -1", moving, "glue"),
        ("spring", "glue = 0.5", moving, "glue"),
    ] {
        let e = build_error(&scene(model, ball, walls));
        assert!(
            e.contains("balls[1]") && e.contains(needle) && !e.contains('\n'),
            "{ball} / {model}: {e}"
        );
    }
    // `simultaneous` refuses the glue by name once it runs moving walls; until then it
    // refuses the moving wall first, also by name.
    let e = build_error(&scene("simultaneous", "glue = 0", moving));
    assert!(
        (e.contains("balls[1].glue") || e.contains("walls[0].velocity")) && !e.contains('\n'),
        "{e}"
    );
    // A turning wall in `impulse` too.
    let e = build_error(&scene("impulse", "glue = 0", turning));
    assert!(e.contains("balls[1].glue") && e.contains("turns"), "{e}");
}
