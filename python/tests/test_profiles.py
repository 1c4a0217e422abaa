"""``carom.profiles``: per-slab solid fraction, velocity and stress.

Expectations independent of the code: the area each slab of a square lattice holds
(disk chord lengths integrated numerically), a rigid motion's velocity in every slab,
and the slabs' stresses adding up to the global kinetic tensor of the balls.
"""

from __future__ import annotations

import math

import carom
import numpy as np
import pytest

N = 8  # lattice side, unit spacing
R = 0.4


def lattice(vx: float = 0.0) -> str:
    return f"""name = "square lattice"
[table]
width = {float(N)}
height = {float(N)}
boundary = "periodic"

[physics]
model = "spring"
dt = 0.01

[[generators]]
kind = "lattice"
nx = {N}
ny = {N}
x0 = 0.5
y0 = 0.5
dx = 1.0
dy = 1.0
r = {R}
m = 1.0
vx = {vx}
"""


def chord_area(c: float, a: float, b: float, n: int = 200_000) -> float:
    """Area of the disk of radius R at height c between the lines a < b, by the
    midpoint rule on its chord length (relative error ~1e-7 at n = 2e5, from the
    square root's edge)."""
    lo, hi = max(a, c - R), min(b, c + R)
    if hi <= lo:
        return 0.0
    h = (hi - lo) / n
    y = lo + (np.arange(n) + 0.5) * h - c
    return float(np.sum(2.0 * np.sqrt(np.maximum(R * R - y * y, 0.0))) * h)


def test_a_lattice_gives_each_slab_its_share_of_the_disks():
    w = carom.World.from_toml(lattice())
    bins = 4 * N  # slabs a quarter of the spacing wide
    p = carom.profiles(w, axis="y", bins=bins)
    assert p["edges"].shape == (bins + 1,)
    assert p["solid_fraction"].shape == (bins,)
    assert p["velocity"].shape == (bins, 2)
    assert p["stress"].shape == (bins, 3)
    width = 1.0 / 4.0
    for b in range(bins):
        a, top = b * width, (b + 1) * width
        area = sum(N * chord_area(k + 0.5, a, top) for k in range(N))
        assert p["solid_fraction"][b] == pytest.approx(area / (N * width), abs=1e-6)
    # On average the packing fraction, pi R^2 per unit cell.
    assert np.mean(p["solid_fraction"]) == pytest.approx(math.pi * R * R, rel=1e-13)


def test_a_moving_lattice_moves_in_every_slab_without_stress():
    w = carom.World.from_toml(lattice(vx=0.7))
    p = carom.profiles(w, axis="x", bins=5)
    np.testing.assert_allclose(p["velocity"][:, 0], 0.7, rtol=1e-14)
    np.testing.assert_allclose(p["velocity"][:, 1], 0.0, atol=0.0)
    # A rigid translation has no velocity fluctuation and the disks do not touch.
    np.testing.assert_allclose(p["stress"], 0.0, atol=1e-14)


@pytest.mark.parametrize(
    "kw, key", [({"axis": "z"}, "axis"), ({"bins": 0}, "bins"), ({"bins": -3}, "bins")]
)
def test_bad_arguments_raise_scenario_error_naming_them(kw, key):
    w = carom.World.from_toml(lattice())
    with pytest.raises(carom.ScenarioError) as err:
        carom.profiles(w, **kw)
    assert key in str(err.value)
