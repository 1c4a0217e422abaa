"""Pool balls on cloth from Python: the spins as arrays (``World.spins``), in
recordings and GSD files, cue strikes (``carom.cue_strike`` and a ball's ``cue`` in a
scenario dict), and the keys' bad values."""

from __future__ import annotations

import math

import carom
import numpy as np
import pytest

# A pool ball in SI units: radius 28.575 mm, 170 g, g = 9.81 m/s^2.
R, M, G = 0.028575, 0.17, 9.81
SLIDING_MU = 0.2


def cloth_scene(*balls: dict, model: str = "impulse", dt: float = 0.001) -> dict:
    return {
        "name": "cloth",
        "table": {"width": 2.54, "height": 1.27},
        "physics": {
            "model": model,
            "dt": dt,
            "friction": {"kind": "cloth", "sliding_mu": SLIDING_MU, "g_normal": G},
        },
        "balls": [{"r": R, "m": M, **b} for b in balls],
    }


def test_spins_are_wx_wy_omega_as_copies_and_assign_back():
    w = carom.World.load(cloth_scene({"x": 0.5, "y": 0.6}, {"x": 1.5, "y": 0.6}))
    s = w.spins
    assert s.shape == (2, 3) and s.dtype == np.float64
    assert not s.any()
    s[1] = [1.0, -2.0, 3.0]
    assert not w.spins.any(), "editing the copy leaves the world"
    w.spins = s
    np.testing.assert_array_equal(w.spins, s)
    # The columns are the state file's wx, wy and omega, and omega is w.omega.
    ball = w.state()["balls"][1]
    assert (ball["wx"], ball["wy"], ball["omega"]) == (1.0, -2.0, 3.0)
    np.testing.assert_array_equal(w.omega, s[:, 2])


def test_bad_spins_are_refused_naming_the_ball_and_axis():
    w = carom.World.load(cloth_scene({"x": 0.5, "y": 0.6}, {"x": 1.5, "y": 0.6}))
    with pytest.raises(carom.ScenarioError, match=r"expected shape \(2, 3\)"):
        w.spins = np.zeros((2, 2))
    for col, name in enumerate(["wx", "wy", "omega"]):
        bad = np.zeros((2, 3))
        bad[1, col] = np.nan
        with pytest.raises(
            carom.ScenarioError, match=rf"^spins: balls\[1\]\.{name}: must be finite"
        ):
            w.spins = bad
    with pytest.raises(carom.ScenarioError, match="spins"):
        w.spins = [["a", "b", "c"], [0, 0, 0]]
    assert not w.spins.any(), "a refused assignment changes nothing"


def test_a_stun_shot_spins_up_as_the_sliding_law_says():
    # A ball sent along +x without spin slides: friction mu g against its travel
    # slows it (vx = v0 - mu g t) and turns it forward about -y, wy = -(5/2) mu g t / r
    # (torque r mu m g over I = 2 m r^2 / 5), until it rolls at 2 v0 / (7 mu g). Sent
    # along +y it turns about +x the same way. The stepping model applies the closed
    # form step by step, so the only error is round-off of 100 steps' additions.
    v0 = 2.0
    w = carom.World.load(
        cloth_scene({"x": 0.5, "y": 0.3, "vx": v0}, {"x": 1.0, "y": 0.3, "vy": v0})
    )
    rec = w.record(time=0.1)
    t = rec["time"] - rec["time"][0]
    assert t[-1] < 2 * v0 / (7 * SLIDING_MU * G), "still sliding"
    spin = 2.5 * SLIDING_MU * G * t / R
    s = rec["spins"]
    assert s.shape == (len(t), 2, 3)
    np.testing.assert_allclose(s[:, 0, 1], -spin, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(s[:, 1, 0], spin, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(s[:, 0, 0], 0.0)
    np.testing.assert_array_equal(s[:, 1, 1], 0.0)
    np.testing.assert_array_equal(s[:, :, 2], 0.0)
    np.testing.assert_allclose(
        rec["velocities"][:, 0, 0], v0 - SLIDING_MU * G * t, rtol=1e-12
    )
    np.testing.assert_array_equal(s[-1], w.spins)


def test_record_has_spins_only_for_spheres():
    plain = carom.World.load("break").record(time=0.5)
    assert set(plain) == {"time", "positions", "velocities"}
    rough = carom.World.load("column").record(time=0.01)
    assert "spins" not in rough, "disks with rotation are not spheres"
    cloth = carom.World.load(cloth_scene({"x": 0.5, "y": 0.3})).record(time=0.01)
    assert cloth["spins"].shape == (cloth["time"].shape[0], 1, 3)


def test_cue_strike_equals_the_scenario_cue():
    # The function and a ball's cue in a scenario are the same Rust code: equal to
    # the bit, for any strike, mass and radius, on cloth (a solid sphere's inertia).
    for cue in [
        {"speed": 3.0, "aim": 30.0},
        {"speed": 1.5, "aim": -120.0, "english": 0.3, "follow": -0.4},
        {"speed": 4.0, "aim": 200.0, "english": -0.2, "follow": 0.5, "elevation": 60},
    ]:
        w = carom.World.load(cloth_scene({"x": 1.0, "y": 0.6, "cue": cue}))
        got = carom.cue_strike(**cue, m=M, r=R)
        v, s = w.velocities[0], w.spins[0]
        assert [got["vx"], got["vy"]] == list(v)
        assert [got["wx"], got["wy"], got["omega"]] == list(s)
        assert set(got) == {"vx", "vy", "wx", "wy", "omega"}


def test_cue_strike_closed_forms():
    # A centre hit by a cue 10/3 the ball's mass (elastic): v = 2 V / (1 + m / M),
    # along the aim, no spin. Defaults: m = 1, r = 10, a solid sphere.
    s = carom.cue_strike(3.0, 90.0)
    assert s["vx"] == pytest.approx(0.0, abs=1e-15)
    assert s["vy"] == pytest.approx(2 * 3.0 / (1 + 0.3), rel=1e-15)
    assert s["wx"] == s["wy"] == s["omega"] == 0.0
    # Two fifths of the radius above the centre: rolls at once (u = v + r (wy, -wx)).
    s = carom.cue_strike(2.0, 40.0, follow=0.4, r=R, m=M)
    slip = (s["vx"] + R * s["wy"], s["vy"] - R * s["wx"])
    assert math.hypot(*slip) < 1e-12 * math.hypot(s["vx"], s["vy"])
    # English e: omega r / v = -5 e / 2 (right english turns the ball anticlockwise
    # seen from above, omega < 0 with y down).
    for e in (-0.5, 0.25):
        s = carom.cue_strike(2.0, 0.0, english=e, r=R, m=M)
        assert s["omega"] * R / math.hypot(s["vx"], s["vy"]) == pytest.approx(-2.5 * e)
    # A given inertia is used: a thin shell (2 m r^2 / 3) spins less for the same hit.
    solid = carom.cue_strike(2.0, 0.0, english=0.3)
    shell = carom.cue_strike(2.0, 0.0, english=0.3, inertia=2 / 3 * 100.0)
    assert abs(shell["omega"]) < abs(solid["omega"])


def test_cue_strike_refuses_bad_arguments_by_name():
    for kw, needle in [
        ({"speed": float("nan"), "aim": 0.0}, "cue_strike: speed: must be finite"),
        ({"speed": -1.0, "aim": 0.0}, "cue_strike: speed: must not be negative"),
        ({"speed": 1.0, "aim": float("inf")}, "cue_strike: aim: must be finite"),
        (
            {"speed": 1.0, "aim": 0.0, "english": 0.8, "follow": 0.5},
            "cue_strike: english: with follow (0.5) puts the tip",
        ),
        (
            {"speed": 1.0, "aim": 0.0, "elevation": 90.0},
            "cue_strike: elevation: must be at least 0 and below 90",
        ),
        ({"speed": 1.0, "aim": 0.0, "m": 0.0}, "cue_strike: m: must be a positive"),
        ({"speed": 1.0, "aim": 0.0, "r": -1.0}, "cue_strike: r: must be a positive"),
        (
            {"speed": 1.0, "aim": 0.0, "inertia": float("nan")},
            "cue_strike: inertia: must be a positive",
        ),
    ]:
        with pytest.raises(carom.ScenarioError) as e:
            carom.cue_strike(**kw)
        assert str(e.value).startswith(needle), str(e.value)
    with pytest.raises(TypeError):
        carom.cue_strike(1.0, 0.0, spin=1.0)


def test_scenario_dicts_take_the_cloth_keys_and_refuse_bad_ones():
    good = cloth_scene(
        {"x": 0.5, "y": 0.6, "cue": {"speed": 2.0, "aim": 0.0, "english": 0.2}},
        {"x": 1.5, "y": 0.6, "wx": 1.0, "wy": -1.0},
    )
    good["walls"] = [
        {"kind": "segment", "points": [[2.2, 0.2], [2.2, 1.0]], "cushion_height": 0.036}
    ]
    w = carom.World.load(good)
    assert w.velocities[0, 0] > 0 and w.spins[0, 2] < 0
    assert w.walls[0]["cushion_height"] == 0.036
    for edit, field in [
        (lambda d: d["physics"]["friction"].update(sliding_mu=-0.1), "sliding_mu"),
        (lambda d: d["physics"]["friction"].update(spin=1), "physics.friction"),
        (lambda d: d["balls"][1].update(wx=float("nan")), "balls[1].wx"),
        (lambda d: d["balls"][0]["cue"].update(english=0.95), "balls[0].cue.english"),
        (lambda d: d["balls"][0]["cue"].update(elevation=90), "balls[0].cue.elevation"),
        (lambda d: d["balls"][0]["cue"].update(twist=1), "balls[0].cue.twist"),
        (lambda d: d["balls"][0].update(vx=1.0), "balls[0].cue"),
        (lambda d: d["balls"][0].update(kinematic=True), "balls[0].cue"),
        (lambda d: d["walls"][0].update(cushion_height=0.0), "cushion_height"),
        (lambda d: d["walls"][0].update(cushion_height=0.06), "cushion_height"),
    ]:
        d = {**good, "balls": [dict(b) for b in good["balls"]]}
        d["balls"][0]["cue"] = dict(good["balls"][0]["cue"])
        d["physics"] = {
            **good["physics"],
            "friction": dict(good["physics"]["friction"]),
        }
        d["walls"] = [dict(good["walls"][0])]
        edit(d)
        with pytest.raises(carom.ScenarioError) as e:
            carom.World.load(d)
        line = str(e.value)
        assert line.startswith("dict") and field in line, line


def test_gsd_logs_the_spins_of_balls_on_cloth(tmp_path):
    gsd_hoomd = pytest.importorskip(
        "gsd.hoomd", reason="the gsd package is not installed (pip install gsd)"
    )
    scene = cloth_scene(
        {"x": 0.5, "y": 0.6, "cue": {"speed": 2.0, "aim": 10.0, "follow": -0.3}},
        {"x": 1.5, "y": 0.6},
    )
    w = carom.World.load(scene)
    want = carom.World.load(scene).record(time=0.05, every=10)["spins"]
    carom.write_gsd(w, tmp_path / "c.gsd", time=0.05, every=10)
    with gsd_hoomd.open(str(tmp_path / "c.gsd"), "r") as traj:
        got = [f.log["particles/carom_spin"] for f in traj]
    assert len(got) == len(want)
    for g, e in zip(got, want, strict=True):
        np.testing.assert_array_equal(g, e)
    # Not on other scenes: their files are as before.
    carom.write_gsd(carom.World.load("level1"), tmp_path / "p.gsd", time=1.0)
    with gsd_hoomd.open(str(tmp_path / "p.gsd"), "r") as traj:
        assert "particles/carom_spin" not in traj[0].log
