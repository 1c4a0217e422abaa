//! Rolling resistance, `physics.contact_friction.rolling_mu` (spring model): a torque
//! `|M| <= rolling_mu r_eff F_n` opposing the relative rolling of each contact.

use crate::common;

use carom::parse::{load, Format};
use carom::World;

/// FNV-1a over the bits of every position, velocity and spin, then the collisions.
fn state_hash(w: &World) -> u64 {
    let b = w.balls();
    let balls =
        (0..b.len()).flat_map(|i| [b.x[i], b.y[i], b.vx[i], b.vy[i], b.omega[i], b.angle[i]]);
    common::fnv1a(balls.map(f64::to_bits).chain([w.collisions()]))
}

/// A frictional heap: 300 polydisperse disks poured in a walled box under gravity.
fn heap(extra: &str) -> World {
    let text = format!(
        r#"
[table]
[physics]
model = "spring"
dt = 0.002
stiffness = 2000.0
restitution = 0.5
gravity = [0.0, -10.0]
contact_friction = {{ mu = 0.5, tangential_restitution = 0.0{extra} }}
[[generators]]
kind = "gas"
n = 300
area_fraction = 0.3
r = 1.0
speed = 2.0
seed = 3
"#
    );
    load(&text, Format::Toml).expect("heap loads").1
}

#[test]
fn without_rolling_resistance_a_frictional_heap_is_unchanged_bit_for_bit() {
    // Recorded from the code before rolling resistance existed (this same run, at
    // the commit that added the stress tensor, which changes no motion).
    const RECORDED: u64 = 0x1ffb_aa29_e894_9930;
    let mut w = heap("");
    w.run_steps(3000).unwrap();
    let h = state_hash(&w);
    eprintln!("hash {h:#018x}");
    assert_eq!(h, RECORDED, "absent: {h:#018x}");
}

/// A disk of radius `r`, mass `m`, rolling at `v0` along the floor (the wall at y = 0,
/// gravity `-g` along y), its spring overlap at rest, with rolling resistance `mu_r`.
fn rolling_disk(v0: f64, mu_r: f64) -> World {
    let (r, m, g, k) = (1.0, 1.0, 10.0, 1.0e4);
    // It starts just touching (a start through a wall is refused) and sinks into its
    // rest overlap; the dissipative contact (e = 0.3) damps that bounce within a few
    // contact times, after which the floor's force averages the weight m g.
    let y = r;
    let text = format!(
        r#"
[table]
width = 200.0
height = 20.0
[physics]
model = "spring"
dt = 0.001
stiffness = {k}
restitution = 0.3
gravity = [0.0, -{g}]
contact_friction = {{ mu = 0.5, tangential_restitution = 0.0, rolling_mu = {mu_r} }}
[[balls]]
x = 10.0
y = {y}
vx = {v0}
r = {r}
m = {m}
omega = {omega}
"#,
        omega = -v0 / r
    );
    load(&text, Format::Toml).expect("disk loads").1
}

#[test]
fn rolling_resistance_stops_a_rolling_disk_in_the_distance_of_its_torque_law() {
    // Rolling without slipping, a solid disk (I = m r^2 / 2) carries kinetic energy
    // (3/4) m v^2. The resisting torque, rolling_mu r F_n with F_n = m g, does work
    // M |omega| = rolling_mu m g |v| per unit time: the energy falls by rolling_mu m g
    // per unit distance, and the disk stops after s = 3 v0^2 / (4 rolling_mu g). Static
    // friction holds the rolling as long as the force it needs, m a = (2/3) rolling_mu
    // m g, stays below mu m g (here 0.067 against 5).
    let (v0, mu_r, g) = (2.0, 0.1, 10.0);
    let expected = 3.0 * v0 * v0 / (4.0 * mu_r * g);
    let mut w = rolling_disk(v0, mu_r);
    let x0 = w.balls().x[0];
    // Twice the stopping time v0 / a, a = (2/3) mu_r g.
    let t_stop = v0 / (2.0 / 3.0 * mu_r * g);
    let steps = (2.0 * t_stop / w.physics().dt) as u64;
    w.run_steps(steps).unwrap();
    let b = w.balls();
    let s = b.x[0] - x0;
    eprintln!(
        "stopped after {s} (law: {expected}); v {}, omega {}",
        b.vx[0], b.omega[0]
    );
    // Error budget: the step's discretization of the deceleration, at most v0 dt =
    // 0.002 on 3; the tangential spring's stretch, m a / k_t = 0.067 / 3333 = 2e-5; the
    // contact's residual elastic rocking after the stop, of that size too. 0.2% covers
    // them with room.
    assert!(
        (s - expected).abs() < 2e-3 * expected,
        "{s} against {expected}"
    );
    assert!(b.vx[0].abs() < 1e-3 && b.omega[0].abs() < 1e-3, "at rest");
    // Without rolling resistance the disk would still be rolling at v0.
    let mut free = rolling_disk(v0, 0.0);
    free.run_steps(steps).unwrap();
    assert!((free.balls().vx[0] - v0).abs() < 1e-6 * v0);
}

#[test]
fn rolling_mu_is_refused_where_it_does_not_act() {
    let err = |cf: &str, model: &str| {
        let text = format!(
            "[table]\nwidth = 100.0\nheight = 100.0\n[physics]\nmodel = \"{model}\"\n\
             dt = 0.01\ncontact_friction = {cf}\n[[balls]]\nx = 50.0\ny = 50.0\nr = 1.0\n"
        );
        match load(&text, Format::Toml) {
            Ok(_) => String::new(),
            Err(e) => e.to_string(),
        }
    };
    for (cf, model) in [
        ("{ mu = 0.5, rolling_mu = -0.1 }", "spring"),
        ("{ mu = 0.5, rolling_mu = nan }", "spring"),
        ("{ mu = 0.5, rolling_mu = inf }", "spring"),
        ("{ mu = 0.0, rolling_mu = 0.1 }", "spring"),
        ("{ mu = 0.5, rolling_mu = 0.1 }", "event"),
        ("{ mu = 0.5, rolling_mu = 0.1 }", "impulse"),
    ] {
        let e = err(cf, model);
        assert!(
            e.contains("physics.contact_friction.rolling_mu") && e.lines().count() == 1,
            "{cf} {model}: {e:?}"
        );
    }
    assert_eq!(err("{ mu = 0.5, rolling_mu = 0.1 }", "spring"), "");
}
