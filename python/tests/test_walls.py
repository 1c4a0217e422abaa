"""Walls, pockets and balls leaving play, seen from Python."""

import carom
import numpy as np
import pytest

SCENE = {
    "table": {"width": 200.0, "height": 100.0, "boundary": ["open", "walls"]},
    "physics": {"model": "spring", "dt": 0.05},
    "balls": [
        {"x": 20.0, "y": 30.0, "vx": 3.0, "r": 5.0},
        {"x": 100.0, "y": 50.0, "r": 5.0},
    ],
    "walls": [
        {
            "kind": "segment",
            "points": [[10.0, 80.0], [190.0, 80.0]],
            "restitution": 0.5,
        },
        {"kind": "circle", "center": [100.0, 20.0], "radius": 4.0},
    ],
    "pockets": [{"center": [180.0, 30.0], "radius": 8.0}],
}


def test_walls_and_pockets_read_back_as_given():
    w = carom.World.load(SCENE)
    assert w.walls == SCENE["walls"]
    assert w.pockets == SCENE["pockets"]
    assert w.in_play.dtype == np.bool_ and w.in_play.all()


def test_a_ball_in_a_pocket_leaves_play_and_its_row_freezes():
    # Ball 0 reaches the pocket's rim (x = 172) at t = 152 / 3 = 50.67.
    w = carom.World.load(SCENE)
    rec = w.record(time=60.0, every=20)
    assert rec["positions"].shape[1:] == (2, 2)
    assert not w.in_play[0] and w.in_play[1]
    assert w.diagnostics()["in_play"] == 1
    gone = w.state()["balls"][0]["removed"]
    assert gone["by"] == "pocket 0"
    assert gone["time"] == pytest.approx(152.0 / 3.0, abs=1e-9)
    # Once out, the row stays where the ball left.
    t = rec["time"]
    after = rec["positions"][t > gone["time"] + 0.1, 0]
    assert len(after) > 1 and (after == after[0]).all()


def test_a_bad_wall_is_a_scenario_error_naming_the_entry():
    bad = dict(SCENE, walls=[{"kind": "segment", "points": [[1.0, 1.0], [1.0, 1.0]]}])
    with pytest.raises(carom.ScenarioError, match=r"walls\[0\]\.points"):
        carom.World.load(bad)
