"""GSD trajectories written by `carom.write_gsd`, read back by the format's own package
(`gsd.hoomd`) and by OVITO: every frame must give back the world's count, box,
positions, velocities, diameters, masses and image counts at that moment, and frames
after a ball leaves play must leave it out. The readers are installed by the test
command (`.ci/test`); where one cannot be imported its test says so and is skipped.
"""

import carom
import numpy as np
import pytest

# A periodic box in x, walls in y, unequal radii, balls fast enough to cross the
# periodic side several times (image counts not all zero).
PERIODIC = """
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
m = 2.0
[[balls]]
x = 50.0
y = 20.0
vx = 2.0
vy = -1.0
r = 1.0
"""

# An open right edge: the first ball's centre crosses x = 40 at t = (40 - 30) / 4 = 2.5,
# so it is in the frames at t = 0, 1, 2 and gone from t = 3 on.
OPEN = """
[table]
width = 40.0
height = 20.0
boundary = ["open", "walls"]
[physics]
model = "spring"
dt = 0.01
[[balls]]
x = 30.0
y = 10.0
vx = 4.0
r = 1.0
[[balls]]
x = 10.0
y = 10.0
vy = 0.5
r = 1.0
"""


def expected_frames(world, time, every):
    """The world's own arrays at each sampling moment, taken while stepping a copy."""
    frames = [snapshot(world)]
    steps = round(time / world.dt)
    done = 0
    while done < steps:
        n = min(every, steps - done)
        world.step(n)
        done += n
        frames.append(snapshot(world))
    return frames


def snapshot(w):
    keep = w.in_play
    return {
        "index": np.flatnonzero(keep),
        "positions": w.positions[keep],
        "velocities": w.velocities[keep],
        "radii": w.radii[keep],
        "masses": w.masses[keep],
        "images": w.images[keep],
        "steps": w.steps,
    }


def test_gsd_frames_match_the_world(tmp_path):
    gsd_hoomd = pytest.importorskip(
        "gsd.hoomd", reason="the gsd package is not installed (pip install gsd)"
    )
    w = carom.World.from_toml(PERIODIC)
    want = expected_frames(carom.World.from_toml(PERIODIC), 30.0, 10)
    path = tmp_path / "t.gsd"
    carom.write_gsd(w, path, time=30.0, every=10)
    with gsd_hoomd.open(str(path), "r") as traj:
        assert len(traj) == len(want) == 4
        for frame, e in zip(traj, want, strict=True):
            assert frame.configuration.dimensions == 2
            assert frame.configuration.step == e["steps"]
            np.testing.assert_array_equal(frame.configuration.box, [60, 40, 0, 0, 0, 0])
            assert frame.particles.N == 3
            # Written in double precision: the shift by half the box is the only
            # arithmetic, one rounding of at most half an ulp of 60.
            xy = frame.particles.position[:, :2] + [30.0, 20.0]
            np.testing.assert_allclose(xy, e["positions"], rtol=0, atol=1e-13)
            assert np.all(frame.particles.position[:, 2] == 0)
            vel = frame.particles.velocity[:, :2]
            np.testing.assert_array_equal(vel, e["velocities"])
            np.testing.assert_array_equal(frame.particles.diameter, 2 * e["radii"])
            np.testing.assert_array_equal(frame.particles.mass, e["masses"])
            np.testing.assert_array_equal(frame.particles.image[:, :2], e["images"])
            assert frame.particles.types == ["ball"]
        # The fast ball has crossed the periodic side: the image counts are exercised.
        assert np.any(traj[-1].particles.image[:, 0] != 0)


def test_gsd_leaves_out_balls_that_left_play(tmp_path):
    gsd_hoomd = pytest.importorskip(
        "gsd.hoomd", reason="the gsd package is not installed (pip install gsd)"
    )
    w = carom.World.from_toml(OPEN)
    path = tmp_path / "open.gsd"
    carom.write_gsd(w, path, time=5.0, every=100)
    with gsd_hoomd.open(str(path), "r") as traj:
        counts = [f.particles.N for f in traj]
        index = [list(f.log["particles/carom_index"]) for f in traj]
    assert counts == [2, 2, 2, 1, 1, 1]
    assert index[:3] == [[0, 1]] * 3 and index[3:] == [[1]] * 3


def test_ovito_reads_the_gsd(tmp_path):
    pytest.importorskip("gsd.hoomd", reason="the gsd package is not installed")
    ovito_io = pytest.importorskip(
        "ovito.io", reason="OVITO's Python module is not installed (pip install ovito)"
    )
    w = carom.World.from_toml(PERIODIC)
    want = expected_frames(carom.World.from_toml(PERIODIC), 30.0, 30)
    path = tmp_path / "t.gsd"
    carom.write_gsd(w, path, time=30.0, every=30)
    pipeline = ovito_io.import_file(str(path))
    assert pipeline.source.num_frames == 2
    data = pipeline.compute(1)
    assert data.particles.count == 3
    cell = np.array(data.cell[...])
    np.testing.assert_allclose(np.diag(cell[:2, :2]), [60.0, 40.0])
    pos = np.array(data.particles.positions)[:, :2] - cell[:2, 3]
    np.testing.assert_allclose(pos, want[-1]["positions"], rtol=0, atol=1e-9)


def test_bad_arguments_raise_scenario_error(tmp_path):
    pytest.importorskip("gsd.hoomd", reason="the gsd package is not installed")
    w = carom.World.from_toml(OPEN)
    for kw, needle in (
        ({"time": -1.0}, "time"),
        ({"time": float("nan")}, "time"),
        ({"time": 1.0, "every": 0}, "every"),
        ({"time": 1.0, "every": 1.5}, "every"),
    ):
        with pytest.raises(carom.ScenarioError, match=needle):
            carom.write_gsd(w, tmp_path / "x.gsd", **kw)
    assert not list(tmp_path.iterdir())
    with pytest.raises(OSError):
        carom.write_gsd(w, tmp_path / "no" / "such" / "x.gsd", time=1.0)
