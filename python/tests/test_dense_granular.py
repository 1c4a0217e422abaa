"""The dense-disk and granular observables seen from Python: per-ball psi6, the stress
tensor in the diagnostics, and the new scenario keys' errors as ``ScenarioError``.

Each expectation is independent of the code: the bond order of a perfect triangular
lattice, the pressure as half the trace of the pressure tensor (its definition), and
the key each bad value is under.
"""

from __future__ import annotations

import math

import carom
import numpy as np
import pytest

A = 2.0  # the lattice spacing
H = A * math.sqrt(3.0) / 2.0  # the distance between its rows
NX, ROWS = 8, 8  # an even number of rows closes the lattice across the periodic edge


def triangular_lattice() -> str:
    """A perfect triangular lattice filling a periodic box: two rectangular lattices,
    the odd rows shifted by half a spacing."""
    rows = ROWS // 2
    return f"""name = "triangular"
[table]
width = {NX * A}
height = {ROWS * H}
boundary = "periodic"

[physics]
model = "spring"
dt = 0.01

[[generators]]
kind = "lattice"
nx = {NX}
ny = {rows}
x0 = {0.25 * A}
y0 = {0.5 * H}
dx = {A}
dy = {2.0 * H}
r = 0.5
m = 1.0

[[generators]]
kind = "lattice"
nx = {NX}
ny = {rows}
x0 = {0.75 * A}
y0 = {1.5 * H}
dx = {A}
dy = {2.0 * H}
r = 0.5
m = 1.0
"""


def test_psi6_of_a_triangular_lattice_is_one_for_every_ball():
    w = carom.World.from_toml(triangular_lattice())
    psi = w.psi6()
    assert psi.dtype == np.complex128
    assert psi.shape == (NX * ROWS,)
    # Every ball's six nearest neighbours sit at multiples of 60 degrees, so each
    # e^{6 i theta} is 1: only round-off in the bond angles (~1e-15) remains.
    assert np.max(np.abs(psi - 1.0)) < 1e-12
    assert w.state()["diagnostics"]["psi6"] == pytest.approx(1.0, abs=1e-12)


def test_pressure_is_half_the_trace_of_the_stress_tensor():
    # An elastic gas in a walled box, event model: impulses and kinetic parts alike.
    w = carom.World.load("gas", model="event", overrides={"generators.0.n": 400})
    w.run(time=2.0)
    d = w.diagnostics()
    trace = d["stress_xx"] + d["stress_yy"]
    # The two are summed from the same window in different orders: round-off only.
    assert d["pressure"] == pytest.approx(trace / 2.0, rel=1e-9)
    assert d["pressure"] > 0.0


@pytest.mark.parametrize(
    "key, value",
    [
        ("physics.thermostat", {"kind": "rescale", "temperature": -1.0}),
        ("physics.thermostat", {"kind": "andersen", "temperature": 1.0, "rate": 0.0}),
        ("physics.contact_friction.rolling_mu", -0.1),
    ],
)
def test_bad_new_keys_raise_scenario_error_naming_them(key, value):
    overrides = {key: value}
    if key.endswith("rolling_mu"):
        overrides["physics.contact_friction.mu"] = 0.5
    with pytest.raises(carom.ScenarioError) as err:
        carom.World.load("gas", overrides=overrides)
    assert key.split(".")[1] in str(err.value)


def test_bad_radii_raise_scenario_error_naming_the_key():
    text = """name = "bad sizes"
[table]
width = 100.0
height = 100.0

[[generators]]
kind = "gas"
n = 20
r = 1.0
radii = { kind = "bidisperse", ratio = -1.4, fraction = 0.5 }
"""
    with pytest.raises(carom.ScenarioError) as err:
        carom.World.from_toml(text)
    assert "ratio" in str(err.value)
