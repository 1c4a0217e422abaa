"""A sheared box (Lees-Edwards) from Python: a dict with ``table.boundary = {x:
"periodic", y: "sheared", shear_rate: G}`` builds it, the state carries the rate and
the current shift, and a pickled world (which goes through the state) continues bit
for bit, still sheared."""

from __future__ import annotations

import pickle

import carom
import numpy as np
import pytest

G = 0.05
H = 40.0


def sheared_gas() -> dict:
    return {
        "name": "sheared gas",
        "table": {
            "width": 40.0,
            "height": H,
            "boundary": {"x": "periodic", "y": "sheared", "shear_rate": G},
        },
        "physics": {
            "model": "spring",
            "dt": 0.005,
            "stiffness": 1000.0,
            "restitution": 0.8,
            "contact_friction": {"mu": 0.5},
        },
        "generators": [{"kind": "gas", "n": 200, "r": 1.0, "speed": 1.0, "seed": 7}],
    }


def test_the_state_carries_the_rate_and_the_shift():
    w = carom.World.load(sheared_gas())
    w.run(steps=400)
    b = w.state()["table"]["boundary"]
    assert (b["x"], b["y"], b["shear_rate"]) == ("periodic", "sheared", G)
    # The copy above slid by G H t = 0.05 * 40 * 2 = 4, summed step by step: 400
    # roundings of numbers below 40 leave it within 1e-12.
    assert b["shift"] == pytest.approx(G * H * w.time, abs=1e-12)


def test_a_pickled_sheared_world_continues_bit_for_bit():
    a = carom.World.load(sheared_gas())
    a.run(steps=300)
    b = pickle.loads(pickle.dumps(a))
    assert b.state()["table"]["boundary"] == a.state()["table"]["boundary"]
    a.run(steps=300)
    b.run(steps=300)
    assert np.array_equal(a.positions, b.positions)
    assert np.array_equal(a.velocities, b.velocities)
    assert np.array_equal(a.omega, b.omega)


def test_a_model_that_does_not_run_it_is_named():
    # spring and event run a sheared box; simultaneous and impulse refuse it by name.
    with pytest.raises(
        carom.ScenarioError, match="table.boundary.shear_rate.*simultaneous"
    ):
        carom.World.load(sheared_gas(), model="simultaneous")
