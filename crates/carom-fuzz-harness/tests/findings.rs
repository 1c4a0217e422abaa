//! One regression test per fuzzing finding (docs/history.md lists them): each
//! builds the input the fuzzer found, reduced to its cause, and checks the clean
//! behaviour the fix gives, against an expectation worked out by hand.

use carom::load::{build, Source};
use carom::parse::Format;
use carom::run::Session;

fn load(text: &str) -> Result<Session, String> {
    build(&Source::text("case.json", text, Format::Json), &[]).map(Session::new)
}

fn reload(session: &Session) -> Result<Session, String> {
    load(&session.state_json())
}

/// Finding 1 (short_run): a ball fast enough to cross a wall within one impulse step
/// ends the step with its centre outside the table; the run counts that as physical
/// (it is less than the table's size out), so `--out` wrote a state file that every
/// load refused ("has its centre outside the table"): a finished run that could not be
/// resumed. A state file now loads with such a ball, and the resume continues bit for
/// bit.
#[test]
fn state_with_a_ball_through_a_wall_resumes_bit_for_bit() {
    // 200 x 100 walled table, dt = 1, vx = -120 from x = 50: after one step the centre
    // is at 50 - 120 = -70, through the left wall (the impulse model flips the
    // velocity of a ball moving into a wall, but does not move it back).
    let scene = r#"{
        "table": { "width": 200.0, "height": 100.0 },
        "physics": { "model": "impulse", "dt": 1.0, "glitch_prevention": false },
        "balls": [ { "x": 50.0, "y": 50.0, "vx": -120.0, "vy": 0.5, "r": 5.0 } ]
    }"#;
    let mut first = load(scene).expect("scene loads");
    first.advance(1, 0, |_| {}).expect("one step runs");
    let x = first.world.balls().x[0];
    assert!(
        x < 0.0,
        "the case needs the centre through the wall (x = {x})"
    );

    let mut resumed = reload(&first).expect("the run's own state file loads");
    assert_eq!(resumed.world.balls().x[0].to_bits(), x.to_bits());
    let mut straight = load(scene).expect("scene loads");
    straight.advance(4, 0, |_| {}).expect("four steps run");
    resumed.advance(3, 0, |_| {}).expect("three more steps run");
    let (a, b) = (straight.world.balls(), resumed.world.balls());
    for (u, v) in [(&a.x, &b.x), (&a.y, &b.y), (&a.vx, &b.vx), (&a.vy, &b.vy)] {
        assert_eq!(
            u[0].to_bits(),
            v[0].to_bits(),
            "resume differs: {} vs {}",
            u[0],
            v[0]
        );
    }
}

/// Finding 1, its limit: a state file may put a dynamic ball outside a wall by at most
/// what a run still counts as physical (the table's larger side, 200 here); beyond it
/// the load fails with one line naming the ball. A kinematic ball goes where it was
/// told, so it may be anywhere.
#[test]
fn state_with_a_ball_beyond_the_runaway_margin_is_refused() {
    let state = |x: f64, kinematic: bool| {
        format!(
            r#"{{ "time": 3.0, "steps": 3,
                 "table": {{ "width": 200.0, "height": 100.0 }},
                 "balls": [ {{ "x": {x}, "y": 50.0, "kinematic": {kinematic} }} ] }}"#
        )
    };
    assert!(
        load(&state(-199.0, false)).is_ok(),
        "199 out is within the margin"
    );
    let err = load(&state(-201.0, false))
        .err()
        .expect("201 out is refused");
    assert!(
        err.contains("balls[0]") && err.contains("farther outside the 200 x 100 table"),
        "{err}"
    );
    assert!(!err.contains('\n'));
    assert!(
        load(&state(-5000.0, true)).is_ok(),
        "a kinematic ball may be anywhere"
    );
    // A scenario (no `time`) keeps the strict rule: the whole ball on the table.
    let scenario = r#"{ "table": { "width": 200.0, "height": 100.0 },
                        "balls": [ { "x": 5.0, "y": 50.0, "r": 10.0 } ] }"#;
    assert!(load(scenario)
        .err()
        .expect("refused")
        .contains("is outside the"));
}

/// Finding 2 (short_run): a ball with extreme but finite radius and mass, its moment of
/// inertia left to the default m r^2 / 2, got 0 (r = 1e-300: r^2 underflows) or
/// infinity (r = 1e200 on a 1e300 table: r^2 overflows). The world built and ran, and
/// its state file wrote an inertia no scenario accepts. The load now refuses such a
/// ball, naming it, unless the scenario gives the inertia.
#[test]
fn default_inertia_that_underflows_or_overflows_is_refused() {
    let ball = |r: f64, extra: &str, side: f64| {
        format!(
            r#"{{ "table": {{ "width": {side:e}, "height": {side:e} }},
                 "balls": [ {{ "x": 50.0, "y": 50.0 }},
                            {{ "x": {x:e}, "y": {x:e}, "r": {r:e} {extra} }} ] }}"#,
            x = side / 2.0
        )
    };
    for (r, side, shown) in [
        (1e-300, 100.0, "inertia 0,"),
        (1e200, 1e300, "inertia inf,"),
    ] {
        let err = load(&ball(r, "", side)).err().expect("refused");
        assert!(
            err.contains("balls[1]") && err.contains("moment of inertia") && err.contains(shown),
            "{err}"
        );
        assert!(!err.contains('\n'));
        // Given explicitly, the inertia is the scenario's own choice and loads.
        assert!(load(&ball(r, r#", "inertia": 1.0"#, side)).is_ok());
    }
    // Generated balls are named by their generator.
    let lattice = r#"{ "table": { "width": 100.0, "height": 100.0 },
        "generators": [ { "kind": "lattice", "nx": 2, "ny": 1, "x0": 10.0, "y0": 10.0,
                          "dx": 10.0, "dy": 10.0, "r": 1e-300 } ] }"#;
    let err = load(lattice).err().expect("refused");
    assert!(
        err.contains("generators[0]") && err.contains("its ball 0"),
        "{err}"
    );
}

/// Finding 3 (scenario_toml): a table far longer than wide (8e46 x 400) made the
/// broad-phase grid ask for ~1e44 cells along x, and counting them overflowed
/// (`attempt to add with overflow` in debug builds, a wrong grid in release). The
/// scenario is valid, so it must load and run: here two unit-mass balls approach head
/// on near the origin of that table, and an elastic impulse collision between equal
/// masses swaps their velocities, which it can only do if the grid still finds the
/// pair.
#[test]
fn very_long_table_builds_its_grid_and_finds_contacts() {
    let scene = r#"{
        "table": { "width": 8e46, "height": 400.0 },
        "physics": { "model": "impulse", "dt": 1.0 },
        "symmetry": { "axis_y": 200.0 },
        "balls": [ { "x": 100.0, "y": 200.0, "vx": 1.0 },
                   { "x": 140.0, "y": 200.0, "vx": -1.0 } ]
    }"#;
    let mut s = load(scene).expect("a long table is a valid scene");
    // Surfaces 20 apart closing at 2 per step: contact within 10 steps; 15 suffice.
    s.advance(15, 0, |_| {}).expect("runs");
    let b = s.world.balls();
    assert_eq!(
        (b.vx[0], b.vx[1]),
        (-1.0, 1.0),
        "velocities swapped exactly"
    );
    assert_eq!(s.world.collisions(), 1);
}

/// Finding 4 (short_run): on a periodic axis a ball at a finite but absurd speed (1e300
/// per unit time, which a scenario may give) crosses the table some 1e298 times in one
/// step; adding that to its image count overflowed the i64 (`attempt to add with
/// overflow` in debug builds, a wrapped count in release). The count now stops at its
/// limit and the run fails as unstable, back at its last good state (the start).
#[test]
fn periodic_crossing_count_overflow_is_a_runaway_not_a_panic() {
    let scene = r#"{
        "table": { "width": 100.0, "height": 100.0, "boundary": "periodic" },
        "physics": { "model": "impulse", "dt": 1.0 },
        "balls": [ { "x": 50.0, "y": 50.0, "vx": 1e300, "r": 5.0 } ]
    }"#;
    let mut s = load(scene).expect("a finite speed is accepted");
    let f = s.advance(3, 0, |_| {}).expect_err("a runaway");
    let message = f.to_string();
    assert!(
        message.contains("crossed the periodic table more than 2^53 times"),
        "{message}"
    );
    assert_eq!(f.step, 0, "back at the start, the last good state");
    let b = s.world.balls();
    assert_eq!((b.x[0], b.ix[0]), (50.0, 0));

    // The wrap itself: the count saturates instead of overflowing.
    let t = carom::Table::new(100.0, 100.0).with_boundary([carom::Boundary::Periodic; 2]);
    let (mut x, mut y, mut ix, mut iy) = ([1e300], [50.0], [i64::MAX - 1], [0]);
    t.wrap_all(&mut x, &mut y, &mut ix, &mut iy);
    assert_eq!(ix[0], i64::MAX);
    assert!((0.0..100.0).contains(&x[0]));
}

/// Finding 5 (set_override): a `--set` key with a stray `]` after an index
/// (`balls[0]].vx`, or `]` then a multi-byte character) made the path parser slice a
/// string from byte 1 past its end: a panic instead of an override. Now the stray part
/// is ignored as any other non-index text between brackets is.
#[test]
fn set_key_with_a_stray_closing_bracket_does_not_panic() {
    use carom::overrides::Override;
    use carom::parse::{field_path, PathSeg};
    assert_eq!(
        field_path("balls[0]].vx"),
        vec![
            PathSeg::Key("balls".into()),
            PathSeg::Index(0),
            PathSeg::Key("vx".into())
        ]
    );
    assert_eq!(
        field_path("a[1]é]"),
        vec![PathSeg::Key("a".into()), PathSeg::Index(1)]
    );
    assert!(Override::parse("balls.0]].vx=3").is_ok());
}

/// Finding 6 (set_override): a `--set` key that is not a dotted path was echoed
/// verbatim in the error, so a key holding a carriage return or line feed broke the
/// one-line error contract. The key is now shown escaped.
#[test]
fn set_key_with_a_line_break_gives_a_one_line_error() {
    let err = carom::overrides::Override::parse("balls.\r.=3").expect_err("an empty part");
    assert_eq!(err, r"'balls.\r.' is not a dotted path (e.g. balls.0.vx)");
}

/// Finding 7 (short_run): the event model's own instability check (a NaN it found
/// mid-step) failed the step without rewinding it, but the run loops (the command
/// line's and `Session::advance`) took every failed event step for a rewound one and
/// kept the NaN state as the last good one. They now keep it only if it passes the
/// state check, else go back to their last checkpoint. The input is the fuzzer's (a
/// scene of extreme values whose event run ends in NaN at step 2); the expectation is
/// the contract: a failed run leaves a finite state.
#[test]
fn failed_event_step_with_nan_leaves_the_last_good_state() {
    let data = include_bytes!("../../../fuzz/regressions/short_run/event-unstable-left-nan");
    let (text, steps) = carom_fuzz_harness::short_run_scene(data);
    let src = Source::text("scene.json", text, Format::Json);
    let sets = [carom::overrides::Override::model(carom::ModelKind::Event)];
    let mut s = Session::new(build(&src, &sets).expect("the scene loads"));
    let f = s
        .advance(steps, 1, |_| {})
        .expect_err("the event run goes unstable");
    // Since finding 12 the pair quartics' range check stops this scene's extreme
    // speeds first, before they reach NaN: either way the run cannot go on.
    let why = f.to_string();
    assert!(why.contains("finite") || why.contains("beyond what"), "{f}");
    assert_eq!(f.step, 0, "back at the start, the last good state");
    let b = s.world.balls();
    for i in 0..b.len() {
        assert!(
            b.x[i].is_finite() && b.y[i].is_finite() && b.vx[i].is_finite() && b.vy[i].is_finite()
        );
    }
}

/// Finding 8 (short_run): on a fully periodic table, two fast balls that had just
/// collided went round the box and met again through another image with no other
/// event of theirs in between; the event model's rule that a pair just resolved cannot
/// meet again (true through the image they touched through) dropped that meeting, the
/// balls passed into each other, and the run's own state file was refused as
/// overlapping. The rule now applies only while the pair is still in contact. The
/// scenes are the fuzzer's (written out by `show_scene`); the expectation is the event
/// model's contract: hard disks never overlap, so every state a run writes loads
/// again, whether the balls are read after every step or once at the end.
#[test]
fn event_pair_meeting_again_through_another_image_is_not_missed() {
    let scenes = [
        include_str!("../../../fuzz/regressions/event_scenes/event-periodic-overlap-scene.json"),
        include_str!("../../../fuzz/regressions/event_scenes/event-kinematic-overlap-scene.json"),
    ];
    for (k, text) in scenes.into_iter().enumerate() {
        // Read after every step (each state written and reloaded), then once after 20.
        for (calls, each) in [(20, 1), (1, 20)] {
            let src = Source::text("scene.json", text, Format::Json);
            let sets = [carom::overrides::Override::model(carom::ModelKind::Event)];
            let mut s = Session::new(build(&src, &sets).expect("the scene loads"));
            for _ in 0..calls {
                s.advance(each, each, |_| {}).expect("the run completes");
                reload(&s).unwrap_or_else(|e| panic!("scene {k}, {each} at a time: {e}"));
            }
        }
    }
}

/// Finding 9 (short_run, `event-inelastic-gravity-overlap`): two balls in contact whose
/// gap stops opening and turns round while they still touch, because their relative
/// acceleration pushes them together (one resting on a wall, the other falling onto it:
/// their pair time is then a quartic), were never predicted to collide again: the
/// quartic's root finder only looked for the gap falling through zero from above, and
/// a pair that starts a round-off hair inside never rises above zero when it opens
/// more slowly than that hair. Here the gap `d - sigma` of two balls of radius 10 is
/// `-1e-11 + u t - g t^2 / 2` (opening at `u`, closing under `g = 10`): it is back at
/// its starting depth, closing at `u`, at `t = 2 u / g`, which is the collision. For
/// `u = 1e-30` the rise (`u^2 / 2g`, 5e-62) is far below the round-off of the 1e-11
/// overlap, as in the fuzzer's scene, where a perfectly inelastic impact left the pair
/// touching with a separating speed of 1e-169. Before the fix both gave `None`.
#[test]
fn pair_in_contact_pushed_together_collides_again_when_its_gap_turns() {
    use carom::times::{pair_quartic, quartic_entry};
    let (g, sigma) = (10.0, 20.0);
    for u in [1e-6, 1e-30] {
        // Ball j above ball i (y grows downwards), moving up at u, falling under g.
        let c = pair_quartic([0.0, -(sigma - 1e-11)], [0.0, -u], [0.0, g], sigma);
        let t = quartic_entry(&c, 1.0, 1e-12 * sigma * sigma).expect("a collision");
        // The terms left out of 2u/g are of relative order u^2/(sigma g) and u g t /
        // (sigma g): below 1e-13 for these u, so 1e-9 is all round-off and bisection.
        let want = 2.0 * u / g;
        assert!((t - want).abs() <= 1e-9 * want, "u = {u}: {t} vs {want}");
    }
    // Pulled apart instead (the acceleration away from each other), no collision.
    let c = pair_quartic([0.0, -(sigma - 1e-11)], [0.0, -1e-6], [0.0, -g], sigma);
    assert_eq!(quartic_entry(&c, 1.0, 1e-12 * sigma * sigma), None);
}

/// Finding 9, the scene: ball 0 rests on the floor, ball 1 sits on top of it, a
/// round-off hair inside (1e-11) and moving up at 1e-9, under gravity 10 and
/// restitution 0. Before the fix the model saw no further collision and ball 1 fell
/// into ball 0 for the whole interval, `g dt^2 / 2 = 5e-4` deep, in a run that reported
/// success. A ball resting on another is what hard-disk dynamics cannot represent
/// (endlessly many collisions, each taking the approach away): the model now collides
/// it and stops with its event budget error, the balls put back at the start of the
/// interval, which is the documented outcome for a stack; in no case does it leave
/// an overlap deeper than round-off.
#[test]
fn ball_sitting_on_a_resting_ball_does_not_sink_into_it() {
    use carom::models::event::Event;
    use carom::models::{CollisionModel, StepContext, StepError};
    let table = carom::Table::new(200.0, 100.0);
    let physics = carom::Physics {
        model: carom::ModelKind::Event,
        dt: 0.01,
        gravity: [0.0, 10.0],
        restitution: 0.0,
        ..carom::Physics::default()
    };
    let start = [
        carom::Ball::new(100.0, 90.0, 0.0, 0.0, 10.0, 1.0),
        carom::Ball::new(100.0, 70.0 + 1e-11, 0.0, -1e-9, 10.0, 1.0),
    ];
    let world = carom::World::from_balls(table, physics, &start).expect("round-off overlap");
    let mut balls = world.balls().clone();
    let mut model = Event::new(&balls, &table, &physics).expect("the start is accepted");
    // The chatter reaches any budget; a small one keeps the test fast.
    model.set_budget(Some(20_000));
    let outcome = model.step(StepContext {
        balls: &mut balls,
        physics: &physics,
        table: &table,
        pool: None,
        walls: &carom::walls::NO_WALLS,
        in_play: None,
    });
    let gap = (balls.x[1] - balls.x[0]).hypot(balls.y[1] - balls.y[0]) - 20.0;
    assert!(gap >= -1e-9 * 10.0, "ball 1 sank {:e} into ball 0", -gap);
    assert!(
        matches!(outcome, Err(StepError::EventBudget(_))),
        "{outcome:?}"
    );
    assert_eq!((balls.y[1], balls.vy[1]), (70.0 + 1e-11, -1e-9), "put back");
}

/// Finding 10 (short_run, `event-inelastic-kinematic-overlap`): ball 0 (mass 4.5,
/// radius 30) slides along the floor at 1000 into ball 1 (mass 1e-20, radius 5), both
/// resting on the floor under gravity, restitution 0. Both resting, the impact is a
/// cluster (the pair and both floors) for the contact solver, which settles it in
/// passes and stops once nothing approaches faster than 1e-10 of the largest speed:
/// ball 1 was left 1.2e-7 slower than ball 0, still approaching, and the model skips a
/// pair it has just resolved, so ball 1 sank into ball 0 at that speed for as long as
/// they slid on together (3.4e-8 in the 0.42 time units left here, 7e-9 of ball 1's
/// radius; the fuzzer's scene, with a periodic axis, went on for ever). Now a pair
/// still approaching after the solver gets its perfectly inelastic projection. By hand:
/// a perfectly inelastic impact with a ball 1e20 times heavier leaves ball 1 moving
/// with ball 0, at ball 0's unchanged velocity, touching it and not inside it.
#[test]
fn light_ball_struck_on_the_floor_moves_on_with_its_striker() {
    let scene = r#"{
        "table": { "width": 1000.0, "height": 200.0 },
        "physics": { "model": "event", "dt": 0.5, "gravity": [0.0, 10.0], "restitution": 0.0 },
        "balls": [ { "x": 100.0, "y": 170.0, "vx": 1000.0, "r": 30.0, "m": 4.5 },
                   { "x": 200.0, "y": 195.0, "r": 5.0, "m": 1e-20 } ]
    }"#;
    let mut s = load(scene).expect("scene loads");
    s.advance(1, 1, |_| {}).expect("the step runs");
    // One impact with two contacts taking an impulse: the pair, and the floor under
    // ball 1 (struck from above its centre line, it is pressed into the floor).
    assert_eq!(s.world.collisions(), 2);
    let b = s.world.balls();
    // Ball 0 loses 1e-20 of its momentum: its velocity is 1000 to the last bit. One
    // exact solve leaves ball 1's to round-off, a few ulps of 1000 (1e-13 allows ~450).
    assert_eq!((b.vx[0], b.vy[0]), (1000.0, 0.0));
    assert!((b.vx[1] - 1000.0).abs() <= 1e-13, "ball 1 at {}", b.vx[1]);
    assert_eq!(b.vy[1], 0.0, "still on the floor");
    // Touching to round-off of the positions (1e-13), far inside the start check's 1e-9
    // of the smaller radius; before the fix it was 3.4e-8 inside.
    let gap = (b.x[1] - b.x[0]).hypot(b.y[1] - b.y[0]) - 35.0;
    assert!(gap.abs() <= 1e-9, "gap {gap:e}");
    reload(&s).expect("the run's own state file loads");
}

/// Finding 11 (short_run, `event-subnormal-radius-at-wall`): a ball of radius 1e-300
/// brought to rest on a wall by a perfectly inelastic impact ends with its centre on
/// the wall to the round-off of its coordinate, ~1e-16 (here exactly 0, a whole radius
/// "through" the wall), while the event model's start check allowed a billionth of the
/// radius: the run's own state file was refused. The check now allows the
/// coordinates' own round-off as well (16 ulps of the table's larger side, 1.8e-12 on
/// this 500 table), and still refuses anything deeper.
#[test]
fn tiny_ball_at_a_wall_within_coordinate_round_off_resumes() {
    let scene = r#"{
        "table": { "width": 500.0, "height": 500.0 },
        "physics": { "model": "event", "dt": 1.0, "restitution": 0.0 },
        "balls": [ { "x": 1.2236, "y": 27.7, "vx": -99.9878, "r": 1e-300, "inertia": 1.0 } ]
    }"#;
    let mut s = load(scene).expect("scene loads");
    s.advance(2, 1, |_| {}).expect("the run completes");
    let b = s.world.balls();
    // Stopped at the wall: x = r = 1e-300 in exact arithmetic, within the round-off of
    // 1.2236 - tau * 99.9878 (a few ulps of 1.2, ~1e-15) in floating point.
    assert!(
        b.x[0].abs() <= 1e-15 && b.vx[0] == 0.0,
        "{} {}",
        b.x[0],
        b.vx[0]
    );
    reload(&s).expect("the run's own state file loads");

    let state = |x: f64, r: f64| {
        format!(
            r#"{{ "time": 2.0, "steps": 2, "physics": {{ "model": "event" }},
                 "table": {{ "width": 500.0, "height": 500.0 }},
                 "balls": [ {{ "x": {x:e}, "y": 27.7, "r": {r:e}, "inertia": 1.0 }},
                            {{ "x": 400.0, "y": 400.0, "r": {r:e}, "inertia": 1.0 }},
                            {{ "x": {x2:e}, "y": 400.0, "r": {r:e}, "inertia": 1.0 }} ] }}"#,
            x2 = 400.0 + 2.0 * r - 1e-13
        )
    };
    // At the wall and touching another tiny ball, within round-off: accepted.
    assert!(load(&state(0.0, 1e-300)).is_ok());
    assert!(load(&state(-1e-13, 1e-300)).is_ok());
    // A tenth of a millionth through the wall is no round-off: refused, as is a ball of
    // radius 1 that is 1e-3 through (the billionth of the radius still rules there).
    let err = load(&state(-1e-7, 1e-300)).err().expect("refused");
    assert!(err.contains("through the left wall"), "{err}");
    let err = load(&state(0.999, 1.0)).err().expect("refused");
    assert!(err.contains("ball 0") && err.contains("left wall"), "{err}");
}

/// Finding 12 (short_run, found by the confirmation run after 9-11; three inputs): the
/// event model files a ball that leaves through a periodic edge on the other side by
/// shifting its stored state one side, so a ball read at the very moment it crosses
/// came out a round-off beyond the edge, at `y == height`. The state file held that,
/// its load wrapped it to `y = 0` with one crossing more, and the state of the state
/// differed (the same place, written differently). The balls the model hands out are
/// now wrapped as the load wraps them. By hand: from y = 50 at 50 per unit time upwards
/// on a periodic 100 x 100 table, the ball is at the edge exactly at t = 1, the home
/// image's y = 0 with no crossing counted (0 + 0 x 100 = 50 - 50).
#[test]
fn ball_read_as_it_crosses_a_periodic_edge_is_on_the_table() {
    let scene = r#"{
        "table": { "width": 100.0, "height": 100.0, "boundary": "periodic" },
        "physics": { "model": "event", "dt": 1.0 },
        "balls": [ { "x": 30.0, "y": 50.0, "vy": -50.0, "r": 5.0 } ]
    }"#;
    let mut s = load(scene).expect("scene loads");
    s.advance(1, 1, |_| {}).expect("the step runs");
    let b = s.world.balls();
    assert_eq!(
        (b.y[0], b.iy[0]),
        (0.0, 0),
        "y = {}, iy = {}",
        b.y[0],
        b.iy[0]
    );
    let again = reload(&s).expect("the state file loads");
    assert_eq!(again.state_json(), s.state_json());
}

/// Finding 13 (short_run, `event-budget-run-slow`): a ball of mass 2.2e-308 wedged
/// between a heavy ball and a wall under gravity, restitution ~0. Every impact there is
/// a cluster for the contact solver (the pair and the light ball's wall), and its
/// propagation loop rattles: solving the pair alone drives the light ball into the
/// wall, solving the wall alone stops it, and the pair approaches again, slower by only
/// a fraction m/M of its speed each time, so settling needs of the order of M/m
/// passes. The loop ran to its iteration cap (1,000 plus 4 per contact) and took the
/// all-contacts fallback at every event of a stack that ends at the event budget
/// anyway: a million events of a thousand passes each, 118 s for four balls. The
/// solver's passes beyond one per contact now count towards the event budget, so the
/// run ends with the same budget error after a bounded amount of solver work.
///
/// The scene reduced to its cause: the light ball (mass 1e-300) rests on the floor and
/// the heavy one falls onto it, restitution 0, no friction. The bound, by hand: a
/// resolution holds at most the pair and the floor (2 contacts), so its passes are 2
/// plus its extra passes; resolutions are at most the events, at most the budget; the
/// extra passes of all resolutions but the last fit in the budget, and the last adds at
/// most its iteration cap plus the fallback's 2. So passes <= 2 budget + budget +
/// iteration_cap(2) + 2 = 16,010. Before the fix the same run did 2,525,000 passes
/// (1,010 at each of its 2,500 impacts).
#[test]
fn light_ball_wedged_under_a_heavy_one_ends_at_the_budget_after_bounded_solver_work() {
    use carom::models::event::Event;
    use carom::models::simultaneous::iteration_cap;
    use carom::models::{CollisionModel, StepContext, StepError};
    let table = carom::Table::new(200.0, 100.0);
    let physics = carom::Physics {
        model: carom::ModelKind::Event,
        dt: 1.0,
        gravity: [0.0, 10.0],
        restitution: 0.0,
        ..carom::Physics::default()
    };
    let start = [
        carom::Ball::new(100.0, 90.0, 0.0, 0.0, 10.0, 1e-300),
        carom::Ball::new(100.0, 69.0, 0.0, 0.0, 10.0, 1.0),
    ];
    let world = carom::World::from_balls(table, physics, &start).expect("apart at the start");
    let mut balls = world.balls().clone();
    let mut model = Event::new(&balls, &table, &physics).expect("the start is accepted");
    // A stack reaches any budget; a small one keeps the test fast (before the fix this
    // one cost some 5 million passes).
    let budget = 5_000;
    model.set_budget(Some(budget));
    let outcome = model.step(StepContext {
        balls: &mut balls,
        physics: &physics,
        table: &table,
        pool: None,
        walls: &carom::walls::NO_WALLS,
        in_play: None,
    });
    assert!(
        matches!(outcome, Err(StepError::EventBudget(_))),
        "{outcome:?}"
    );
    let stats = model.solver_stats();
    // The cause is there: the loop rattles to its cap.
    assert!(stats.fallbacks >= 1, "{stats:?}");
    let bound = 3 * budget + iteration_cap(2) as u64 + 2;
    assert!(
        stats.passes <= bound,
        "{} passes > {bound}: {stats:?}",
        stats.passes
    );
    // Put back at the start of the interval, as every budget error leaves them.
    assert_eq!((balls.y[1], balls.vy[1]), (69.0, 0.0), "put back");
}

/// Finding 14 (short_run, `event-gravity-quartic-overflow`): two balls under gravity
/// `(1e300, 1e300)`. Once one rests in a corner while the other still falls, their
/// pair time is a quartic in time whose coefficients (the squared gravity) and whose
/// root finder's products overflow: the root finder answered "no collision", the
/// falling ball sank 42 length units into the resting one, and the state file written
/// after the run was refused on loading (the event model's start guard). The model
/// now checks every pair quartic's size against what its root finder can be trusted
/// with and fails the step (the state left at the start of the interval) instead.
/// (The same scene overlapped at 1e150 and 1e200 as well; at 1e100 the check now
/// stops it too, and at 1e50 and below it ends in the event budget, a ball resting
/// on a ball.)
#[test]
fn event_gravity_beyond_the_arithmetic_fails_the_step() {
    let data = include_bytes!("../../../fuzz/regressions/short_run/event-gravity-quartic-overflow");
    let (text, steps) = carom_fuzz_harness::short_run_scene(data);
    let src = Source::text("scene.json", text, Format::Json);
    let sets = [carom::overrides::Override::model(carom::ModelKind::Event)];
    let mut s = Session::new(build(&src, &sets).expect("the scene loads"));
    let start = (s.world.balls().x.clone(), s.world.balls().y.clone());
    let f = s
        .advance(steps, 1, |_| {})
        .expect_err("the event run cannot go on");
    assert!(f.to_string().contains("beyond what"), "{f}");
    assert_eq!(f.step, 0, "back at the start, the last good state");
    assert_eq!(
        (s.world.balls().x.clone(), s.world.balls().y.clone()),
        start
    );
    // The whole fuzz body: no panic, finite balls, and a state that loads again.
    carom_fuzz_harness::short_run(data);
}

/// Finding 15 (short_run_cloth, `cue-speed-beyond-floating-point`): a ball struck by a
/// cue at the largest float's speed (`1.8e308`). Every key of the strike is finite, so
/// the check let it through, but the strike's impulse `2 V / (...)` overflows: the ball
/// loaded with an infinite velocity and the run could only stop with it (its "last
/// good state" already not finite). The load now refuses a strike whose velocity or
/// spins are not finite, naming `balls[k].cue.speed`; any strike that the arithmetic
/// can carry loads as before.
#[test]
fn a_cue_strike_beyond_floating_point_is_refused_by_name() {
    let scene = |speed: &str| {
        format!(
            r#"{{ "table": {{ "width": 300.0, "height": 300.0 }},
                 "physics": {{ "model": "impulse", "friction": {{ "kind": "cloth" }} }},
                 "balls": [ {{ "x": 150.0, "y": 150.0, "r": 10.0, "m": 2.0,
                              "cue": {{ "speed": {speed}, "aim": 30.0 }} }} ] }}"#
        )
    };
    // The impulse's numerator 2 V overflows for V above half the largest float
    // (1.8e308 is); 5e307 strikes a solid sphere through its centre at
    // v = 2 V / (1 + 3/10) = 7.7e307, still a number.
    let err = load(&scene("1.7976931348623157e308"))
        .err()
        .expect("refused");
    assert!(
        err.contains("balls[0].cue.speed")
            && err.contains("beyond floating point (got 1.7976931348623157e308)"),
        "{err}"
    );
    assert!(!err.contains('\n'));
    let ok = load(&scene("5e307")).expect("a large but representable strike loads");
    let v = ok.world.balls().vx[0].hypot(ok.world.balls().vy[0]);
    // A few roundings in the strike and in the hypotenuse.
    assert!((v / (5e307 / 1.3 * 2.0) - 1.0).abs() < 1e-12, "{v}");
    // The whole fuzz body on the fuzzer's input: no panic, finite balls and spins.
    let data =
        include_bytes!("../../../fuzz/regressions/short_run_cloth/cue-speed-beyond-floating-point");
    carom_fuzz_harness::short_run_cloth(data);
}

/// Finding 16 (short_run_cloth, `frictionless-cloth-tiny-ball-spin-snap`, three inputs
/// alike): cloth with `g_normal = 0` (or `sliding_mu = 0`) and a ball of radius
/// 2.2e-308. Without sliding friction the cloth took a slipping ball for a rolling one
/// and locked its spins to its velocity, `v / r`: infinite for that radius, and for any
/// ball a spin (and rotational energy) made from nothing: a unit ball sliding at 1
/// without spin gained `I v^2 / (2 r^2)` = 0.2 of energy at its first step. A slipping
/// ball on frictionless cloth now slides on, its spins untouched (`cloth.rs`). And on
/// cloth a spin about the table's axes that is no longer finite (a rolling ball's
/// `v / r` beyond floating point) now stops the run as one that is not finite would,
/// the state left at the last good one (`World::check_physical`).
#[test]
fn frictionless_cloth_leaves_a_sliding_ball_its_spins() {
    for cloth in [r#""g_normal": 0.0"#, r#""sliding_mu": 0.0"#] {
        let scene = format!(
            r#"{{ "table": {{ "width": 100.0, "height": 50.0 }},
                 "physics": {{ "model": "impulse", "dt": 0.01,
                              "friction": {{ "kind": "cloth", {cloth} }} }},
                 "balls": [ {{ "x": 20.0, "y": 25.0, "vx": 1.0, "r": 1.0 }} ] }}"#
        );
        let mut s = load(&scene).expect("loads");
        let before = s.world.diagnostics().kinetic_energy;
        s.advance(10, 0, |_| {}).expect("runs");
        let b = s.world.balls();
        // No friction at the contact: no torque, so no spin; the rolling resistance
        // (0.01 g = 0 here, or, with sliding_mu 0, decelerating a slide it does not
        // act on) leaves the velocity too.
        assert_eq!([b.wx[0], b.wy[0], b.omega[0]], [0.0; 3], "{cloth}");
        assert_eq!(b.vx[0], 1.0, "{cloth}");
        assert_eq!(s.world.diagnostics().kinetic_energy, before, "{cloth}");
    }
    // A non-finite spin about the table's axes on cloth fails the check a run makes.
    let scene = r#"{ "table": { "width": 100.0, "height": 50.0 },
                     "physics": { "model": "impulse", "friction": { "kind": "cloth" } },
                     "balls": [ { "x": 20.0, "y": 25.0, "vx": 1.0 } ] }"#;
    let mut s = load(scene).expect("loads");
    s.world.balls_mut().wy[0] = f64::INFINITY;
    let e = s.world.check_physical().expect_err("refused");
    assert!(e.to_string().contains("spin about the table's axes"), "{e}");
    // The fuzzer's input: no panic, finite balls and spins, a state that reloads.
    let data = include_bytes!(
        "../../../fuzz/regressions/short_run_cloth/frictionless-cloth-tiny-ball-spin-snap"
    );
    carom_fuzz_harness::short_run_cloth(data);
}
