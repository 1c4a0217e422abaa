"""The event log from Python: rows against the physics of a head-on collision and a
pocket, the arrays' shapes, and a log that is off changes nothing."""

from __future__ import annotations

import carom
import numpy as np
import pytest

HEAD_ON = """
[table]
width = 100.0
height = 50.0
[physics]
model = "{model}"
restitution = {e}
dt = 0.01
[[balls]]
x = 30.0
y = 25.0
vx = 2.0
r = 5.0
m = 1.0
[[balls]]
x = 70.0
y = 25.0
vx = -1.0
r = 5.0
m = 3.0
"""


@pytest.mark.parametrize("model", ["impulse", "simultaneous", "event"])
def test_a_head_on_collision_is_one_row_with_its_impulse(model):
    # Approach speed 3; the surfaces close the gap of 30 at t = 10. The normal
    # impulse of a two-body impact is the reduced mass times (1 + e) times the
    # approach speed: m1 m2 / (m1 + m2) = 3/4, so 0.75 * 1.5 * 3 = 3.375 with e = 0.5.
    w = carom.World.from_toml(HEAD_ON.format(model=model, e=0.5))
    w.log_events(True)
    w.run(time=12.0)
    ev = w.events()
    balls = ev["kind"] == "ball"
    assert balls.sum() == 1
    k = int(np.flatnonzero(balls)[0])
    assert (ev["i"][k], ev["j"][k]) == (0, 1)
    assert ev["wall"][k] == -1 and ev["pocket"][k] == -1
    # Exact in the event model; the stepping models resolve it at the end of the
    # step in which the overlap began (within one step, dt = 0.01).
    tol = 1e-12 if model == "event" else 0.01 + 1e-12
    assert abs(ev["time"][k] - 10.0) <= tol
    assert ev["approach_speed"][k] == pytest.approx(3.0, rel=1e-12)
    assert ev["impulse"][k] == pytest.approx(0.75 * 1.5 * 3.0, rel=1e-12)
    # Every array has one entry per row.
    assert len({len(v) for v in ev.values()}) == 1


def test_a_pocketed_ball_is_a_pocket_row_at_its_removal_time():
    w = carom.World.load("pool")
    w.log_events(True)
    w.run(time=10.0)
    ev = w.events()
    pockets = np.flatnonzero(ev["kind"] == "pocket")
    gone = np.flatnonzero(~w.in_play)
    assert len(gone) > 0
    assert sorted(ev["i"][pockets].tolist()) == sorted(gone.tolist())
    state = w.state()["balls"]
    for k in pockets:
        removed = state[int(ev["i"][k])]["removed"]
        assert ev["time"][k] == removed["time"]
        assert removed["by"] == f"pocket {ev['pocket'][k]}"
    # The first impact of the break is the cue ball's.
    assert ev["kind"][0] == "ball"


def test_clear_drops_the_rows_read_and_an_unlogged_run_is_unchanged():
    a = carom.World.load("break")
    b = carom.World.load("break")
    b.log_events(True)
    a.run(steps=400)
    b.run(steps=400)
    assert np.array_equal(a.positions, b.positions)
    assert np.array_equal(a.velocities, b.velocities)
    first = b.events(clear=True)
    assert len(first["time"]) > 0
    assert len(b.events()["time"]) == 0
    assert len(a.events()["time"]) == 0


STUN = """
[table]
width = 4.0
height = 1.0
[physics]
model = "{model}"
dt = 0.001
[physics.friction]
kind = "cloth"
sliding_mu = 0.2
rolling_mu = 0.01
spinning_mu = 0.0127
g_normal = 9.81
[[balls]]
x = 0.2
y = 0.5
vx = 1.0
r = 0.028575
m = 0.17
"""


@pytest.mark.parametrize("model", ["impulse", "spring"])
def test_a_stun_shot_on_cloth_logs_its_phase_changes(model):
    # A ball without spin slides for 2 v0 / (7 mu_s g), then rolls until it stops
    # (5/7 v0) / (mu_r g) later: two phase rows, at those times, naming the phase
    # entered. The stepping models move a lone ball by the closed form, so the times
    # are exact up to the clock's round-off.
    w = carom.World.from_toml(STUN.format(model=model))
    w.log_events(True)
    w.run(time=8.0)
    ev = w.events()
    rows = np.flatnonzero(ev["kind"] == "phase")
    assert ev["phase"][rows].tolist() == ["rolling", "stationary"]
    slide = 2.0 / (7.0 * 0.2 * 9.81)
    stop = slide + (5.0 / 7.0) / (0.01 * 9.81)
    assert ev["time"][rows].tolist() == pytest.approx([slide, stop], abs=1e-9)
    assert (ev["i"][rows] == 0).all()
    # Other rows leave the column empty.
    assert (ev["phase"][ev["kind"] != "phase"] == "").all()
