"""The World API: loading, running, arrays, diagnostics, state and errors."""

from __future__ import annotations

import sys
import threading
import time

import carom
import numpy as np
import pytest


def test_presets_are_listed_in_cli_order():
    names = carom.presets()
    assert names[0] == "level1"
    assert "break" in names and "gas" in names
    assert [n for n, _ in carom.preset_summaries()] == names


def test_load_sources_agree():
    a = carom.World.load("break")
    b = carom.World.load(a.state())
    assert len(a) == len(b) == 16
    assert np.array_equal(a.positions, b.positions)


def test_load_path_and_from_toml(tmp_path):
    text = (
        'name = "two"\n[table]\nwidth = 100.0\nheight = 50.0\n'
        "[[balls]]\nx = 20.0\ny = 25.0\nvx = 1.0\n"
        "[[balls]]\nx = 80.0\ny = 25.0\nvx = -1.0\n"
    )
    p = tmp_path / "two.toml"
    p.write_text(text)
    for w in (
        carom.World.load(p),
        carom.World.load(str(p)),
        carom.World.from_toml(text),
    ):
        assert w.name == "two" and len(w) == 2 and w.table == (100.0, 50.0)


def test_shapes_and_dtypes():
    w = carom.World.load("break")
    n = len(w)
    for arr, shape in (
        (w.positions, (n, 2)),
        (w.velocities, (n, 2)),
        (w.radii, (n,)),
        (w.masses, (n,)),
        (w.omega, (n,)),
        (w.angles, (n,)),
    ):
        assert arr.shape == shape
        assert arr.dtype == np.float64
    assert w.images.shape == (n, 2) and w.images.dtype == np.int64


def test_read_edit_assign_works_on_copies():
    # The numpy idiom: read a copy, edit it, assign it back. Editing the copy alone
    # leaves the world as it was; assigning moves exactly what was edited.
    w = carom.World.load("break")
    before = w.velocities
    v = w.velocities
    v[:, 0] = 2.0
    np.testing.assert_array_equal(w.velocities, before)
    w.velocities = v
    np.testing.assert_array_equal(w.velocities[:, 0], np.full(len(w), 2.0))
    np.testing.assert_array_equal(w.velocities[:, 1], before[:, 1])
    p = w.positions
    p[0] += (1.0, -1.0)
    w.positions = p
    np.testing.assert_array_equal(w.positions[0], p[0])


def test_images_unwrap_periodic_motion():
    # One ball crossing a periodic box: its unwrapped position is the free flight
    # x0 + v t, up to the round-off of 100 additions.
    w = carom.World.load(
        {
            "table": {"width": 40.0, "height": 30.0, "boundary": "periodic"},
            "physics": {"model": "impulse", "dt": 0.1},
            "balls": [{"x": 20.0, "y": 15.0, "vx": 10.8, "vy": -3.9, "r": 1.0}],
        }
    )
    w.step(100)
    unwrapped = w.positions + w.images * np.array([40.0, 30.0])
    assert w.images.tolist() == [[3, -1]]
    assert np.allclose(unwrapped, [[128.0, -24.0]], rtol=0, atol=1e-9)


def test_spins_follow_contact_friction():
    # A ball sliding without spin onto a rough wall leaves it spinning: the friction
    # impulse at the contact point turns it; with mu = 0 it stays unspun.
    def spin(mu):
        w = carom.World.load(
            {
                "table": {"width": 100.0, "height": 100.0},
                "physics": {
                    "model": "event",
                    "dt": 0.1,
                    "contact_friction": {"mu": mu, "tangential_restitution": 0.0},
                },
                "balls": [{"x": 50.0, "y": 50.0, "vx": 2.0, "vy": 1.0, "r": 5.0}],
            }
        )
        w.run(time=30.0)
        return w.omega[0], w.angles[0]

    assert spin(0.0) == (0.0, 0.0)
    omega, angle = spin(0.5)
    assert omega != 0.0 and angle != 0.0


def test_model_and_overrides_mean_what_the_cli_options_mean():
    w = carom.World.load(
        "break", model="event", overrides={"physics.dt": 0.1, "balls.0.vx": "12"}
    )
    assert w.model == "event"
    assert w.dt == 0.1
    assert w.velocities[0, 0] == 12.0


def test_step_run_time_steps():
    w = carom.World.load("level1")
    w.step()
    w.step(9)
    assert w.steps == 10
    w.run(steps=5)
    assert w.steps == 15
    # time rounds to whole steps of dt, as --time does
    w.run(time=1.0)
    assert w.steps == 15 + round(1.0 / w.dt)
    assert w.time == pytest.approx(w.steps * w.dt, rel=1e-12)


def test_assigning_positions_and_velocities_reaches_the_engine():
    w = carom.World.load("level1")
    p = w.positions.copy()
    p[0] += [5.0, -3.0]
    w.positions = p
    w.velocities = [[2.0, 0.0]]
    assert np.array_equal(w.positions, p)
    w.step(10)
    # level1 is uniform motion without gravity: exact free flight, x += v dt per step
    assert w.positions[0, 0] == pytest.approx(p[0, 0] + 2.0 * 10 * w.dt, abs=1e-9)


def test_assignment_is_validated_naming_the_field():
    w = carom.World.load("break")
    bad = w.positions.copy()
    bad[3, 1] = np.nan
    with pytest.raises(
        carom.ScenarioError, match=r"^positions: balls\[3\]\.y: must be finite"
    ):
        w.positions = bad
    bad = w.positions.copy()
    bad[5, 0] = -1.0
    with pytest.raises(carom.ScenarioError, match=r"balls\[5\]: .*outside"):
        w.positions = bad
    with pytest.raises(carom.ScenarioError, match=r"expected shape \(16, 2\)"):
        w.velocities = np.zeros((3, 2))
    v = w.velocities.copy()
    v[2, 0] = np.inf
    with pytest.raises(carom.ScenarioError, match=r"balls\[2\]\.vx: must be finite"):
        w.velocities = v
    # nothing changed by a refused assignment
    assert np.isfinite(w.positions).all()


def test_scenario_errors_are_value_errors_naming_the_field():
    with pytest.raises(ValueError) as e:
        carom.World.load("break", overrides={"physics.dt": -1})
    assert isinstance(e.value, carom.ScenarioError)
    assert str(e.value) == "--set physics.dt=-1: physics.dt: must be positive (got -1)"
    with pytest.raises(carom.ScenarioError, match="no such preset or file"):
        carom.World.load("nonesuch")
    with pytest.raises(carom.ScenarioError, match=r"^<toml>:\d+: balls\[0\]\.r"):
        carom.World.from_toml(
            "[table]\nwidth = 10.0\nheight = 10.0\n"
            "[[balls]]\nx = 5.0\ny = 5.0\nr = -1.0\n"
        )
    with pytest.raises(carom.ScenarioError, match=r"^--model warp: physics\.model"):
        carom.World.load("break", model="warp")
    with pytest.raises(carom.ScenarioError, match=r"^dict: missing field `table`"):
        carom.World.load({"balls": []})


def test_diagnostics_keys():
    d = carom.World.load("break").diagnostics()
    assert set(d) >= {
        "kinetic_energy",
        "potential_energy",
        "total_energy",
        "momentum",
        "collisions",
        "symmetry_error",
    }


def test_record_shapes_and_samples():
    w = carom.World.load("break")
    n = len(w)
    r = w.record(time=10 * w.dt, every=3)
    # steps 0, 3, 6, 9 and the last, 10
    assert r["time"].shape == (5,)
    assert r["positions"].shape == (5, n, 2)
    assert r["velocities"].shape == (5, n, 2)
    assert r["positions"].dtype == np.float64
    assert np.array_equal(r["positions"][-1], w.positions)
    assert np.array_equal(r["velocities"][-1], w.velocities)
    assert r["time"][-1] == w.time


def test_record_equals_stepping():
    a = carom.World.load("level6")
    b = carom.World.load("level6")
    r = a.record(time=20 * a.dt)
    for k in range(1, 21):
        b.step()
        assert np.array_equal(r["positions"][k], b.positions)


def test_gil_is_released_while_a_run_proceeds():
    w = carom.World.load("gas", threads=1)
    span = []

    def runner():
        t0 = time.perf_counter()
        w.run(steps=1000)
        span.extend([t0, time.perf_counter()])

    t = threading.Thread(target=runner)
    t.start()
    # The main thread executes Python bytecode and notes the time, again and again.
    # Were the GIL held by the run, no note could fall inside the run's span.
    ticks = []
    while t.is_alive():
        ticks.append(time.perf_counter())
        time.sleep(0.001)
    t.join()
    t0, t1 = span
    inside = [x for x in ticks if t0 < x < t1]
    # 1000 steps of 10,000 balls take well over 50 ms even on a fast machine (about
    # 47 M ball-steps/s: 0.2 s), room for dozens of 1 ms ticks; held, there would be
    # none.
    assert t1 - t0 > 0.05
    assert len(inside) >= 10, (len(inside), t1 - t0)
    assert w.steps == 1000


def test_runaway_run_raises_simulation_error_at_last_good_state():
    # A row of overlapping spring balls: dt passes the pair stability check
    # (dt sqrt(k/mu) = 0.55 sqrt(10) = 1.74 < 2) but a chain's highest mode has
    # twice sqrt(k/m), and 0.55 * 2 sqrt(5) = 2.46 > 2: the energy runs away until the
    # balls leave the table, which the run's checks catch.
    text = (
        'name = "runaway"\n[table]\nwidth = 200.0\nheight = 100.0\n'
        '[physics]\nmodel = "spring"\ndt = 0.55\nstiffness = 5.0\n'
    )
    for i in range(12):
        text += f"[[balls]]\nx = {20.0 + 9.5 * i}\ny = 50.0\nr = 5.0\nm = 1.0\n"
    w = carom.World.from_toml(text)
    with pytest.raises(RuntimeError) as e:
        w.run(steps=20000)
    assert isinstance(e.value, carom.SimulationError)
    msg = str(e.value)
    assert msg.startswith("carom: ") and "stopped at the last good state" in msg
    assert np.isfinite(w.positions).all()
    # the world is usable and reports the good state it stopped at
    good_step = int(msg.rsplit("step ", 1)[1].split(" ")[0])
    assert w.steps == good_step
    w.diagnostics()


def test_panics_become_simulation_errors():
    from carom import _carom

    with pytest.raises(carom.SimulationError, match="internal error"):
        _carom._panic_for_tests()


def test_render_and_jupyter_picture(tmp_path):
    w = carom.World.load("break")
    png = w._repr_png_()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    for ext, magic in (("png", b"\x89PNG"), ("svg", b"<"), ("gif", b"GIF8")):
        path = tmp_path / f"w.{ext}"
        w.render(path)
        assert path.read_bytes()[: len(magic)] == magic
    with pytest.raises(carom.ScenarioError, match="unknown picture format"):
        w.render(tmp_path / "w.bmp")


def test_animate_advances_and_embeds_a_gif():
    w = carom.World.load("break")
    a = carom.animate(w, time=2.0)
    assert a.data[:4] == b"GIF8"
    assert w.steps == round(2.0 / w.dt)
    assert a._repr_html_().startswith('<img src="data:image/gif;base64,')


def _run_in_child(w, queue):
    w.run(steps=30)
    queue.put(w.positions)


@pytest.mark.skipif(sys.platform != "linux", reason="fork is Linux's default")
def test_a_world_with_threads_steps_in_a_forked_child():
    # multiprocessing forks the process with the world in it, but not its pool's
    # threads: the child's world makes a pool of its own rather than wait on them,
    # and steps as the parent's does (the results do not depend on the threads).
    import multiprocessing

    w = carom.World.load("gas", threads=2)
    w.run(steps=10)
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=_run_in_child, args=(w, queue))
    child.start()
    theirs = queue.get(timeout=60)
    child.join(timeout=60)
    assert child.exitcode == 0
    w.run(steps=30)
    assert np.array_equal(theirs, w.positions)
