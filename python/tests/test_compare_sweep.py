"""compare() is the `carom compare` table; sweep() runs a grid on any executor."""

from __future__ import annotations

import re
import subprocess
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import carom
import pytest

GRID = {"physics.restitution": [0.6, 1.0], "physics.model": ["spring", "simultaneous"]}


def test_compare_rows_match_cli(carom_bin):
    rows = carom.compare("break", models=["impulse", "spring"], steps=200)
    assert [r["variant"] for r in rows] == ["impulse", "spring, semi-implicit-euler"]
    out = subprocess.run(
        [
            str(carom_bin),
            "compare",
            "break",
            "--models",
            "impulse,spring",
            "--steps",
            "200",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    for r in rows:
        line = next(ln for ln in out.splitlines() if ln.startswith(r["variant"] + "  "))
        cells = re.split(r"\s{2,}", line.strip())
        # The table prints 4 significant digits (Rust writes exponents as e-3, Python
        # as e-03): equal once both are rounded alike.
        for cell, key in zip(
            cells[1:4],
            ("energy_drift", "momentum_drift", "symmetry_error"),
            strict=True,
        ):
            assert float(cell) == float(f"{r[key]:.3e}"), key
        assert int(cells[4]) == r["collisions"]
        assert r["failure"] is None and r["steps"] == 200


def test_compare_integrators_and_errors():
    rows = carom.compare(
        "level5", integrators=["semi-implicit-euler", "velocity-verlet"], time=50
    )
    assert [r["variant"] for r in rows] == [
        "spring, semi-implicit-euler",
        "spring, velocity-verlet",
    ]
    with pytest.raises(carom.ScenarioError, match="listed twice"):
        carom.compare("break", models=["spring", "spring"], steps=1)


def test_sweep_covers_the_grid_in_order():
    rows = carom.sweep("break", GRID, time=5.0)
    points = [(r["physics.restitution"], r["physics.model"]) for r in rows]
    assert points == [
        (0.6, "spring"),
        (0.6, "simultaneous"),
        (1.0, "spring"),
        (1.0, "simultaneous"),
    ]
    for r in rows:
        w = carom.World.load(
            "break",
            overrides={
                "physics.restitution": r["physics.restitution"],
                "physics.model": r["physics.model"],
            },
        )
        w.run(time=5.0)
        assert {k: r[k] for k in w.diagnostics()} == w.diagnostics()


def test_sweep_identical_on_any_executor():
    local = carom.sweep("break", GRID, time=5.0)
    with ThreadPoolExecutor(2) as ex:
        assert carom.sweep("break", GRID, time=5.0, executor=ex) == local
    with ProcessPoolExecutor(2) as ex:
        assert carom.sweep("break", GRID, time=5.0, executor=ex) == local


def test_sweep_on_a_dask_local_cluster():
    import distributed  # installed by .ci/run: this test must run, not skip

    local = carom.sweep("break", GRID, time=5.0)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        assert len(client.scheduler_info()["workers"]) == 2
        assert carom.sweep("break", GRID, time=5.0, executor=client) == local


def test_sweep_reports_bad_points():
    with pytest.raises(carom.ScenarioError, match="physics.restitution"):
        carom.sweep("break", {"physics.restitution": [0.5, 2.0]}, time=1.0)
