"""carom's particle trajectories read back by the programs people open them with.

ASE (`ase.io.read`) and OVITO's Python module read the extended XYZ and the LAMMPS
dump as they are; each frame must give back the state file's count, box, periodicity,
positions, radii and image counts. The readers are installed by the test command
(`.ci/test`); where one cannot be imported its test says so and is skipped.
"""

import json
import os
import subprocess

import numpy as np
import pytest

# A periodic box in x, walls in y, unequal radii, and balls fast enough to cross the
# periodic sides several times: images that are not all zero.
SCENE = """
[table]
width = 60.0
height = 40.0
boundary = ["periodic", "walls"]
[physics]
model = "event"
dt = 1.0
[[balls]]
x = 10.0
y = 10.0
vx = 7.0
vy = 0.3
r = 2.0
[[balls]]
x = 30.0
y = 30.0
vx = -5.0
r = 3.5
[[balls]]
x = 50.0
y = 20.0
vx = 2.0
vy = -1.0
r = 1.0
"""


def binary():
    exe = os.environ.get("CAROM_BIN")
    if not exe or not os.path.exists(exe):
        pytest.skip("CAROM_BIN names no carom binary (the test command sets it)")
    return exe


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    d = tmp_path_factory.mktemp("readers")
    (d / "s.toml").write_text(SCENE)
    exe = binary()
    for traj in ("t.xyz", "t.dump"):
        subprocess.run(
            [exe, "run", "s.toml", "--time", "30", "--every", "30", "--trajectory",
             traj, "--out", "end.json", "-q"],
            cwd=d, check=True,
        )
    state = json.loads((d / "end.json").read_text())
    return d, state


def expected(state):
    b = state["balls"]
    pos = np.array([[x["x"], x["y"]] for x in b])
    img = np.array([[x.get("ix", 0), x.get("iy", 0)] for x in b])
    radii = np.array([x["r"] for x in b])
    return pos, img, radii


def test_ase_reads_xyz_and_dump(run):
    ase_io = pytest.importorskip(
        "ase.io", reason="ASE is not installed (pip install ase)"
    )
    d, state = run
    pos, img, radii = expected(state)
    assert img[:, 0].any(), "the scene should have crossed the periodic side"
    for name, fmt in (("t.xyz", "extxyz"), ("t.dump", "lammps-dump-text")):
        frames = ase_io.read(d / name, index=":", format=fmt)
        assert len(frames) == 2, name
        last = frames[-1]
        assert len(last) == 3, name
        np.testing.assert_allclose(last.cell.lengths()[:2], [60.0, 40.0])
        assert list(last.pbc[:2]) == [True, False], name
        np.testing.assert_allclose(last.positions[:, :2], pos, rtol=0, atol=1e-9)
        if fmt == "extxyz":
            np.testing.assert_array_equal(last.arrays["radius"], radii)
            np.testing.assert_array_equal(last.arrays["image"][:, :2], img)


def test_ovito_reads_xyz_and_dump(run):
    io = pytest.importorskip(
        "ovito.io", reason="OVITO's Python module is not installed (pip install ovito)"
    )
    d, state = run
    pos, img, radii = expected(state)
    for name in ("t.xyz", "t.dump"):
        pipeline = io.import_file(str(d / name))
        assert pipeline.source.num_frames == 2, name
        data = pipeline.compute(1)
        p = data.particles
        assert p.count == 3, name
        cell = np.array(data.cell[...])
        np.testing.assert_allclose([cell[0, 0], cell[1, 1]], [60.0, 40.0])
        assert list(data.cell.pbc[:2]) == [True, False], name
        np.testing.assert_allclose(np.array(p.positions)[:, :2], pos, atol=1e-6)
        np.testing.assert_allclose(np.array(p["Radius"]), radii)
        # The dump's ix iy iz columns are OVITO's own periodic images; the XYZ
        # property `image` comes through under its name.
        key = "Periodic Image" if name.endswith(".dump") else "image"
        np.testing.assert_array_equal(np.array(p[key])[:, :2], img)
