"""The chain sampler (``model="chain"``) through the Python package: it loads, runs,
reports its pressure, resumes from its own state bit for bit, sweeps with checkpoints,
and refuses what it cannot sample by name (``carom.ScenarioError``)."""

from __future__ import annotations

import json

import carom
import pytest

SCENE = {
    "name": "chain gas",
    "table": {"boundary": "periodic"},
    "physics": {"model": "event", "dt": 1.0},
    "generators": [
        {
            "kind": "gas",
            "n": 200,
            "area_fraction": 0.4,
            "r": 1.0,
            "speed": 1.0,
            "seed": 3,
        }
    ],
}


def test_load_with_model_chain_runs_and_reports_z():
    w = carom.World.load(SCENE, model="chain")
    v0 = w.velocities.copy()
    w.run(time=30.0)
    d = w.diagnostics()
    assert 2.0 < d["z"] < 4.0
    assert d["z_error"] > 0 and d["z_blocks"] >= 2
    assert d["pressure"] == pytest.approx(d["beta_p"] * d["temperature"])
    assert (w.velocities == v0).all()
    assert w.state()["physics"]["chain"]["seed"] != 1


def test_a_resumed_state_continues_bit_for_bit():
    whole = carom.World.load(SCENE, model="chain")
    whole.step(90)
    first = carom.World.load(SCENE, model="chain")
    first.step(41)
    second = carom.World.load(first.state())
    second.step(49)
    assert (second.positions == whole.positions).all()
    a, b = whole.state(), second.state()
    assert a["physics"] == b["physics"]
    assert a["diagnostics"]["chain"] == b["diagnostics"]["chain"]


def test_sweep_with_checkpoints_resumes_unfinished_points(tmp_path):
    src = dict(SCENE, physics={"model": "chain", "dt": 1.0})
    grid = {"physics.chain.seed": [4, 5]}
    half = carom.sweep(src, grid, time=10.0, checkpoints=tmp_path)
    full = carom.sweep(src, grid, time=20.0, checkpoints=tmp_path)
    straight = carom.sweep(src, grid, time=20.0, checkpoints=tmp_path / "straight")
    for h, f, s in zip(half, full, straight, strict=True):
        # The second call took each point up where the first left it.
        assert f["start_time"] > 0 and h["start_time"] == s["start_time"] == 0
        with open(f["checkpoint"]) as a, open(s["checkpoint"]) as b:
            assert json.load(a)["balls"] == json.load(b)["balls"]


@pytest.mark.parametrize(
    "overrides, field",
    [
        ({"physics.chain.length": -1.0}, "physics.chain.length"),
        ({"physics.gravity": [0.0, 1.0]}, "physics.gravity"),
        ({"table.boundary": "walls"}, "table.boundary"),
        ({"physics.contact_friction.mu": 0.2}, "physics.contact_friction"),
    ],
)
def test_bad_input_is_the_command_lines_line(tmp_path, overrides, field):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(SCENE))
    with pytest.raises(carom.ScenarioError) as e:
        carom.World.load(str(path), model="chain", overrides=overrides)
    assert field in str(e.value)
