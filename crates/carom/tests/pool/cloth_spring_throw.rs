//! Throw in the `spring` model on cloth, whose ball-ball tangential spring has a
//! vertical part: the follow or draw of a cue ball slips at the contact point too,
//! shares the Coulomb cap with the cut's slip, and the vertical friction turns both
//! balls about the table's axes. Then energy, threads and resuming with those springs.
//! Units: metres, seconds, kilograms (pool balls on a standard cloth, g = 9.81 m/s^2).

use carom::cloth::Sphere;
use carom::parse::{build_world, load, parse_scenario, Format};
use carom::World;

const R: f64 = 0.028575;
const M: f64 = 0.17;
const G: f64 = 9.81;
/// The cloth's sliding friction (`Friction::cloth`'s default).
const MU_S: f64 = 0.2;
/// Ball-ball friction and restitution (pool's are 0.05 and 0.95, docs/pool.md).
const MU: f64 = 0.06;
const E: f64 = 0.95;

/// One ball as a `[[balls]]` entry: position, velocity, spins (wx, wy, omega).
fn ball(p: [f64; 2], v: [f64; 2], w: [f64; 3]) -> String {
    format!(
        "[[balls]]\nx = {:?}\ny = {:?}\nvx = {:?}\nvy = {:?}\nwx = {:?}\nwy = {:?}\nomega = {:?}\nr = {R:?}\nm = {M:?}\n",
        p[0], p[1], v[0], v[1], w[0], w[1], w[2]
    )
}

/// The TOML of a `spring` scene on the standard cloth: table size, stiffness, time
/// step, contact friction `mu` (0: none), the balls.
fn text((width, height): (f64, f64), k: f64, dt: f64, mu: f64, balls: &[String]) -> String {
    let friction = if mu > 0.0 {
        format!("contact_friction = {{ mu = {mu:?}, tangential_restitution = 0.0 }}")
    } else {
        String::new()
    };
    format!(
        "duration = 1.0\n[table]\nwidth = {width:?}\nheight = {height:?}\n\n[physics]\n\
         model = \"spring\"\ndt = {dt:?}\nstiffness = {k:?}\nrestitution = {E:?}\n\
         friction = {{ kind = \"cloth\", sliding_mu = {MU_S:?}, g_normal = {G:?} }}\n\
         {friction}\n\n{}",
        balls.concat()
    )
}

fn world(text: &str) -> World {
    load(text, Format::Toml)
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
        .1
}

// ---------------------------------------------------------------------------------
// Throw of a cut.
//
// The throw tests use a stiff contact: two pool balls stay together for
// `T_c = pi sqrt(m / (2 k)) (1 + 1/e) / 2` = 94 us (k = 1e8 N/m), over some 300 steps of
// 0.3 us. While the balls touch, the line of centres turns (the cue ball keeps moving
// across it), so a compliant contact sends the object ball along the force-weighted
// mean of the normal rather than the line of centres at first touch. The throw is
// therefore measured against the same cut without contact friction, whose object ball
// leaves along that mean normal: what remains is how friction changes the turn. The
// line of centres turns at the centres' relative speed across it over `2r`, and
// friction changes that speed by at most `2 mu p` (`p`: the normal impulse per unit
// mass, on each ball), so the two mean normals differ by at most `mu p T_c / r`, the
// tolerance below (0.01 degrees at 1 m/s). The step itself adds nothing comparable:
// while the contact slides, every step's friction force is `mu` times its normal
// force along the slip, so `dt` enters only through where the slip direction is
// sampled, some `dt / T_c` (1/300) of its turn.

const K: f64 = 1e8;
const DT: f64 = 3e-7;

/// The two balls of a cut: the cue ball at rest position, and a ball whose centre is
/// `2r` away along the direction `phi` from +x once the cue ball has moved `gap` along
/// +x.
fn cut(phi: f64, gap: f64) -> ([f64; 2], [f64; 2]) {
    let cue = [0.5, 0.5];
    let obj = [
        cue[0] + gap + 2.0 * R * phi.cos(),
        cue[1] + 2.0 * R * phi.sin(),
    ];
    (cue, obj)
}

/// What a cut's contact left: the object ball's direction (angle from +x), its speed,
/// its spin about the tangent `t = (-n_y, n_x)` of the final line of centres `n` (cue
/// to object ball), and the contact's duration.
struct Cut {
    direction: f64,
    speed: f64,
    spin_t: f64,
    duration: f64,
}

/// A cut at `phi` by a cue ball at `v0` along +x with spins `w0`, with contact friction
/// `mu`, stepped to the end of the contact.
fn cut_shot(phi: f64, v0: f64, w0: [f64; 3], mu: f64) -> Cut {
    let (cue, obj) = cut(phi, 0.5 * v0 * DT);
    let balls = [ball(cue, [v0, 0.0], w0), ball(obj, [0.0; 2], [0.0; 3])];
    let mut w = world(&text((2.0, 1.0), K, DT, mu, &balls));
    let gap = |w: &World| {
        let b = w.balls();
        (b.x[1] - b.x[0]).hypot(b.y[1] - b.y[0]) - 2.0 * R
    };
    let mut steps = 0;
    for _ in 0..100_000 {
        w.step().unwrap();
        if gap(&w) < 0.0 {
            steps += 1;
        } else if steps > 0 {
            let b = w.balls();
            let (dx, dy) = (b.x[1] - b.x[0], b.y[1] - b.y[0]);
            let d = dx.hypot(dy);
            return Cut {
                direction: b.vy[1].atan2(b.vx[1]),
                speed: b.vx[1].hypot(b.vy[1]),
                spin_t: -b.wx[1] * dy / d + b.wy[1] * dx / d,
                duration: steps as f64 * DT,
            };
        }
    }
    panic!("the contact did not end");
}

/// Alciatore's throw (TP A.14) for equal balls, `tan(throw) = min(mu v_n / |s|, 1/7)
/// s_t / v_n`: the friction impulse opposes the contact point's slip `s = (s_t, s_z)`
/// (in-plane tangent, vertical) and is `mu` times the normal one while the contact
/// slides, at most what stops the slip (a seventh of the normal impulse per unit of
/// slip over the normal speed `v_n`).
fn alciatore(v_n: f64, s_t: f64, s_z: f64) -> f64 {
    ((MU * v_n / s_t.hypot(s_z)).min(1.0 / 7.0) * s_t / v_n).atan()
}

/// The slip `(s_t, s_z)` of a contact that slides throughout, as the normal impulse per
/// unit mass `p` grows from 0 to `p_end`: friction `mu dp` against the slip's current
/// direction changes `s_t` with the compliance 7 (1 + 1 for the two masses, 5/2 + 5/2
/// for their turns about the vertical) and `s_z` with 5 (the turns about the
/// horizontal only: the cloth takes the vertical force). The two differ, so the slip
/// turns while Alciatore's formula keeps its first direction. Returns the mean
/// direction of the friction, `(s0 - s_end) / (c mu p_end)` per component (RK4 in 4000
/// steps of `p`: exact to far below the tests' tolerances).
fn sliding_mean(s0: (f64, f64), p_end: f64) -> (f64, f64) {
    let f = |s: (f64, f64)| {
        let l = s.0.hypot(s.1);
        (-7.0 * MU * s.0 / l, -5.0 * MU * s.1 / l)
    };
    let n = 4000;
    let h = p_end / n as f64;
    let mut s = s0;
    for _ in 0..n {
        let k1 = f(s);
        let k2 = f((s.0 + 0.5 * h * k1.0, s.1 + 0.5 * h * k1.1));
        let k3 = f((s.0 + 0.5 * h * k2.0, s.1 + 0.5 * h * k2.1));
        let k4 = f((s.0 + h * k3.0, s.1 + h * k3.1));
        s.0 += h * (k1.0 + 2.0 * k2.0 + 2.0 * k3.0 + k4.0) / 6.0;
        s.1 += h * (k1.1 + 2.0 * k2.1 + 2.0 * k3.1 + k4.1) / 6.0;
    }
    (
        (s0.0 - s.0) / (7.0 * MU * p_end),
        (s0.1 - s.1) / (5.0 * MU * p_end),
    )
}

/// A cue ball rolling (follow) or with as much draw into a ball at rest: its spin
/// about the table's axes slips at the contact point by `(s_t, s_z) = v (sin(phi),
/// +-cos(phi))`, so `|s| = v` and Alciatore's formula gives `tan(throw) = mu sin(phi)`:
/// the vertical slip takes its share of the Coulomb cap, and the throw is half the
/// planar law's at 30 degrees. Every cut here slides throughout: it starts sliding
/// (`k_t |s| > mu k v_n`, the tangential spring's stiffness being `k / 3`), the slip
/// never stops (`7 mu p < |s|` with `p <= v_n`) and Alciatore's cap binds (`mu v_n /
/// |s| < 1/7`).
///
/// While it slides, the friction force follows the slip's direction, which turns
/// (see [`sliding_mean`]); the spring's stretch turns after it, so the force leans
/// towards the slip's first direction (Alciatore's formula). That lag also turns the
/// slip a little faster, but to first order in it by less (by at most `6 mu p / |s|` of
/// the lag, below 1 when `13 mu v_n < |s|`): the throw lies between the two, within the
/// tolerance above. Likewise the object ball's spin about the tangent, `r w_t = (5/2) mu p mean(s_z /
/// |s|)` (torque `r` times the vertical friction, over `I = 2 m r^2 / 5`), lies between
/// those two directions' values, less what the cloth takes while the ball slides on it
/// during the contact and the step after (`5/2 mu_s g` per unit time).
#[test]
fn a_rolling_or_drawn_cue_ball_throws_as_its_slip_in_the_tangent_plane_says() {
    let v = 1.0;
    let rolling = Sphere::rolling([v, 0.0], 0.0, R).w;
    let draw = [-rolling[0], -rolling[1], 0.0];
    for (what, w0, sign) in [("follow", rolling, 1.0), ("draw", draw, -1.0)] {
        for phi_deg in [15.0f64, 30.0, 45.0, 60.0] {
            let phi = phi_deg.to_radians();
            let (v_n, s_t, s_z) = (v * phi.cos(), v * phi.sin(), sign * v * phi.cos());
            // The premises: sliding throughout, Alciatore's sliding branch.
            assert!(MU * v_n / v < 1.0 / 7.0 && 13.0 * MU * v_n < v && MU * v_n / v < 1.0 / 3.0);
            let plain = cut_shot(phi, v, w0, 0.0);
            let rough = cut_shot(phi, v, w0, MU);
            let throw = plain.direction - rough.direction;
            let p = rough.speed * throw.cos();
            let tol = MU * p * rough.duration / R;
            let first = alciatore(v_n, s_t, s_z);
            let mean = sliding_mean((s_t, s_z), p);
            let turned = (MU * mean.0).atan();
            assert!(
                turned - tol <= throw && throw <= first + tol,
                "{what} at {phi_deg} degrees: thrown {} degrees, Alciatore {} (the slip's \
                 first direction), {} (its mean direction), tolerance {}",
                throw.to_degrees(),
                first.to_degrees(),
                turned.to_degrees(),
                tol.to_degrees()
            );
            // Against Alciatore alone, that is within the slip's turn.
            assert!((throw - first).abs() <= (first - turned) + tol);
            // The planar law would throw by atan(mu) (slip along t only): far off.
            assert!(MU.atan() - throw > 10.0 * tol);

            let spin = R * rough.spin_t;
            let (low, high) = (2.5 * MU * p * s_z / v, 2.5 * MU * p * mean.1);
            let (low, high) = (low.min(high), low.max(high));
            let cloth = 2.5 * MU_S * G * (rough.duration + 2.0 * DT);
            assert!(
                low - cloth <= spin && spin <= high + cloth,
                "{what} at {phi_deg} degrees: r w_t {spin}, expected in [{low}, {high}] +- {cloth}"
            );
        }
    }
}

/// A stun cut (no spin) in the sliding regime (`tan(phi) / 7 > mu`): the slip is in
/// the table's plane, stays so, and never turns, so the throw is `atan(mu)`,
/// Alciatore's stun-shot throw, as the impulse models' stun-throw test in
/// cloth_stepping.rs finds it; the vertical part changes nothing here. (Within the tolerance above: the cloth's follow on the sliding cue
/// ball during the contact, `5/2 mu_s g T_c`, 0.05% of its slip, tilts the slip by
/// far less.)
#[test]
fn a_stun_cut_throws_as_in_the_plane() {
    let v = 1.0;
    for phi_deg in [30.0f64, 45.0, 60.0] {
        let phi = phi_deg.to_radians();
        assert!(phi.tan() / 7.0 > MU);
        let plain = cut_shot(phi, v, [0.0; 3], 0.0);
        let rough = cut_shot(phi, v, [0.0; 3], MU);
        let throw = plain.direction - rough.direction;
        let tol = MU * rough.speed * rough.duration / R;
        let want = alciatore(v * phi.cos(), v * phi.sin(), 0.0);
        assert!(
            (throw - want).abs() <= tol,
            "{phi_deg} degrees: thrown {} degrees, Alciatore {}, tolerance {}",
            throw.to_degrees(),
            want.to_degrees(),
            tol.to_degrees()
        );
    }
}

// ---------------------------------------------------------------------------------
// Energy, threads, resuming.

/// A contact that lasts some 30 steps (k = 1e5, dt = 1e-4: `T_c` = 2.9 ms).
const K_SOFT: f64 = 1e5;
const DT_SOFT: f64 = 1e-4;

/// Whether any two balls overlap (a scan of all pairs: small scenes only).
fn touching(w: &World) -> bool {
    let b = w.balls();
    let n = b.x.len();
    (0..n).any(|i| (i + 1..n).any(|j| (b.x[j] - b.x[i]).hypot(b.y[j] - b.y[i]) < b.r[i] + b.r[j]))
}

/// A small break with every kind of spin: a cue ball with follow and english into a
/// rack of six, a drawn ball and a masse-like one (spin about a tilted axis) crossing
/// it, cushions all round. Energy (translation, rotation about all three axes, the
/// springs' normal and tangential energy) never rises: the cloth's friction, impacts
/// with `e < 1`, Coulomb sliding and the forgotten stretch of a contact that ends only
/// take it. Between contacts (no pair overlapping) the energy is exact, and each such
/// moment's is at most the previous one's up to round-off (1e-12 relative). Within a
/// contact semi-implicit Euler's energy differs from the conserved shadow energy by up
/// to `omega dt / 2` of the contact's (`omega = sqrt(2 k / m)`), so there it may exceed
/// the start's by that much of it, never more (as in cloth_stepping.rs). A vertical
/// slip of the wrong sign would feed the contact's spins instead: energy from nothing.
#[test]
fn energy_never_rises_with_follow_draw_and_english() {
    let d = 2.0 * R + 1e-6;
    let mut balls = vec![ball([0.4, 0.635], [3.0, 0.05], [0.0, -3.0 / R, 40.0])];
    for row in 0..3 {
        for k in 0..=row {
            let x = 1.6 + row as f64 * d * 0.75f64.sqrt();
            let y = 0.635 + (k as f64 - row as f64 / 2.0) * d;
            balls.push(ball([x, y], [0.0; 2], [0.0; 3]));
        }
    }
    balls.push(ball([1.75, 0.2], [0.2, 2.0], [-2.0 / R, 0.0, -20.0]));
    balls.push(ball([1.3, 1.0], [0.5, -1.5], [30.0, 40.0, 10.0]));
    let mut w = world(&text((2.54, 1.27), K_SOFT, DT_SOFT, MU, &balls));
    let e0 = w.diagnostics().total_energy;
    let slack = 0.5 * (2.0 * K_SOFT / M).sqrt() * DT_SOFT * e0;
    let (mut free, mut highest, mut loaded) = (e0, e0, 0);
    for step in 0..30_000 {
        w.step().unwrap();
        let e = w.diagnostics().total_energy;
        highest = highest.max(e);
        if !touching(&w) {
            assert!(
                e <= free + 1e-12 * e0,
                "step {step}: energy rose from {free} to {e} between contacts"
            );
            free = e;
        }
        loaded += usize::from(!w.contact_history().vertical.is_empty());
    }
    assert!(highest <= e0 + slack, "energy reached {highest} from {e0}");
    // Otherwise the test would prove nothing.
    assert!(
        loaded > 50,
        "steps with a vertical stretch loaded: {loaded}"
    );
    assert!(w.collisions() > 10, "impacts: {}", w.collisions());
    assert!(free < 0.5 * e0, "the cloth took energy");
}

/// A crowd of pool balls on a large cloth with random velocities and spins about all
/// three axes: 320 balls, so the neighbour list has two blocks (256 balls each) and
/// contacts between them (rows of 20, the boundary mid-row).
fn crowd() -> String {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut unit = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5
    };
    let mut balls = Vec::new();
    for k in 0..320 {
        let (col, row) = ((k % 20) as f64, (k / 20) as f64);
        let p = [0.1 + col * 2.3 * R, 0.1 + row * 2.3 * R];
        let v = [2.0 * unit(), 2.0 * unit()];
        let w = [60.0 * unit(), 60.0 * unit(), 60.0 * unit()];
        balls.push(ball(p, v, w));
    }
    text((1.5, 1.2), K_SOFT, DT_SOFT, MU, &balls)
}

/// Every per-ball number, bit for bit.
fn bits(w: &World) -> Vec<u64> {
    let b = w.balls();
    [&b.x, &b.y, &b.vx, &b.vy, &b.wx, &b.wy, &b.omega, &b.angle]
        .iter()
        .flat_map(|v| v.iter().map(|f| f.to_bits()))
        .collect()
}

/// Loaded springs as bits: the in-plane ones, a separator, the vertical ones.
type Springs = Vec<(u32, u32, u64)>;

/// The loaded springs, bit for bit.
fn springs(w: &World) -> Springs {
    let h = w.contact_history();
    let bits = |l: &[(u32, u32, f64)]| -> Vec<(u32, u32, u64)> {
        l.iter().map(|&(i, j, s)| (i, j, s.to_bits())).collect()
    };
    [bits(&h.pairs), vec![(u32::MAX, 0, 0)], bits(&h.vertical)].concat()
}

fn crowd_world(text: &str, threads: usize) -> World {
    let mut w = build_world(&parse_scenario(text, Format::Json).unwrap()).unwrap();
    w.set_threads(threads).unwrap();
    w
}

/// One thread or two, the same bits: every ball's sums of forces and torques are
/// taken in the same order whatever the threads (see rough/tilt.rs).
#[test]
fn the_crowd_is_the_same_on_one_and_two_threads() {
    let runs: Vec<(Vec<u64>, Springs, u64)> = [1, 2]
        .iter()
        .map(|&threads| {
            let mut w = world(&crowd());
            w.set_threads(threads).unwrap();
            w.run_steps(1500).unwrap();
            (bits(&w), springs(&w), w.collisions())
        })
        .collect();
    assert!(runs[0].2 > 100, "impacts: {}", runs[0].2);
    assert_eq!(runs[0], runs[1]);
}

/// A cloth run resumed from its state file continues bit for bit: the state holds the
/// contacts' vertical stretches (`tangential_springs.vertical`) beside the in-plane
/// ones, and the resumed model puts them back on their pairs when it rebuilds its list.
/// Cut while contacts are loaded, on one thread and on two. Without the vertical
/// stretches (a state file written before they existed) the run departs.
#[test]
fn a_cloth_run_resumed_from_its_state_continues_bit_for_bit() {
    let toml = crowd();
    let start = serde_json::to_string(&parse_scenario(&toml, Format::Toml).unwrap()).unwrap();
    let state = |w: &World| serde_json::to_string_pretty(&carom::state::snapshot(w, 1.0)).unwrap();
    let half = 400;
    let mut straight = crowd_world(&start, 1);
    straight.run_steps(2 * half).unwrap();
    for threads in [1, 2] {
        let mut first = crowd_world(&start, threads);
        first.run_steps(half).unwrap();
        let text = state(&first);
        let h = first.contact_history();
        assert!(
            h.vertical.len() > 5 && h.pairs.len() > 5,
            "loaded at the cut: {} vertical, {} in-plane",
            h.vertical.len(),
            h.pairs.len()
        );
        let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
        let vertical = doc["tangential_springs"]["vertical"].as_array().unwrap();
        assert_eq!(vertical.len(), h.vertical.len());

        let mut resumed = crowd_world(&text, threads);
        assert_eq!(
            resumed.contact_history(),
            h,
            "{threads} threads: round trip"
        );
        assert_eq!(
            resumed.diagnostics().potential_energy.to_bits(),
            first.diagnostics().potential_energy.to_bits(),
            "{threads} threads: stored energy after loading"
        );
        resumed.run_steps(half).unwrap();
        assert_eq!(bits(&resumed), bits(&straight), "{threads} threads");
        assert_eq!(springs(&resumed), springs(&straight), "{threads} threads");

        if threads == 1 {
            let mut old = doc.clone();
            let ts = old["tangential_springs"].as_object_mut().unwrap();
            ts.remove("vertical");
            let mut departs = crowd_world(&old.to_string(), 1);
            assert!(departs.contact_history().vertical.is_empty());
            departs.run_steps(half).unwrap();
            assert_ne!(bits(&departs), bits(&straight));
        }
    }
}

/// Bad vertical stretches in a state file name their field, in one line.
#[test]
fn bad_vertical_stretches_name_their_field() {
    let two = [
        ball([0.5, 0.5], [0.0; 2], [0.0; 3]),
        ball([0.6, 0.5], [0.0; 2], [0.0; 3]),
    ];
    let base = text((1.0, 1.0), K_SOFT, DT_SOFT, MU, &two);
    for (vertical, field) in [
        ("[[0, 2, 0.1]]", "tangential_springs.vertical[0][1]"),
        ("[[1, 1, 0.1]]", "tangential_springs.vertical[0]"),
        ("[[1, 0, 0.1]]", "tangential_springs.vertical[0]"),
        (
            "[[0, 1, 0.1], [0, 1, 0.2]]",
            "tangential_springs.vertical[1]",
        ),
        ("[[0, 1, nan]]", "tangential_springs.vertical[0][2]"),
    ] {
        let toml = format!("{base}\n[tangential_springs]\nvertical = {vertical}\n");
        let msg = match load(&toml, Format::Toml) {
            Ok(_) => panic!("accepted {vertical}"),
            Err(e) => e.to_string(),
        };
        assert!(msg.contains(field), "{field}: {msg}");
        assert!(!msg.contains('\n'), "one line: {msg}");
    }
    // Well formed, it loads, on cloth and (ignored there) off it.
    let toml = format!("{base}\n[tangential_springs]\nvertical = [[0, 1, 1e-6]]\n");
    assert_eq!(world(&toml).contact_history().vertical, [(0, 1, 1e-6)]);
    let off = toml.replace("kind = \"cloth\"", "kind = \"none\"");
    let off = off.replace(&format!(", sliding_mu = {MU_S:?}, g_normal = {G:?}"), "");
    assert!(world(&off).contact_history().is_empty());
}
