"""Parameter sweeps: one run per point of a grid, on local threads or any executor."""

from __future__ import annotations

import itertools
import os
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ._carom import World


def _run_point(
    source: Any, point: dict[str, Any], time: float | None
) -> dict[str, Any]:
    """One sweep point: loads the source with the point's overrides, runs it, and
    returns the point with the final diagnostics. Module-level so that executors in
    other processes (dask workers) can unpickle it."""
    world = World.load(source, overrides=point)
    world.run(time=time)
    result: dict[str, Any] = dict(point)
    result.update(world.diagnostics())
    return result


def _points(grid: Mapping[str, Sequence[Any]]) -> list[dict[str, Any]]:
    keys = list(grid)
    for k in keys:
        if isinstance(grid[k], (str, bytes)) or not hasattr(grid[k], "__iter__"):
            raise TypeError(f"sweep: grid[{k!r}] must be a list of values")
    return [
        dict(zip(keys, values, strict=True))
        for values in itertools.product(*grid.values())
    ]


def sweep(
    source: Any,
    grid: Mapping[str, Sequence[Any]],
    time: float | None = None,
    executor: Any = None,
) -> list[dict[str, Any]]:
    """Runs ``source`` once per point of ``grid`` and returns one dict per point.

    Args:
        source: what :meth:`World.load` takes: a preset name, a path, or a scenario
            dict (a world's ``state()`` included).
        grid: dotted key -> list of values, as ``overrides`` takes them; every
            combination is one point, in the order of ``itertools.product``.
        time: simulated time of each run (default: the scenario's duration).
        executor: ``None`` runs the points on local threads (a run releases the GIL,
            so they proceed in parallel). Otherwise anything with a
            ``concurrent.futures``-style ``submit(fn, *args)`` whose futures have
            ``result()``: a ``ProcessPoolExecutor``, or a ``dask.distributed.Client``
            to spread the points over a cluster.

    Returns:
        One dict per point, in grid order: the point's keys and values, then the
        final diagnostics (the state file's keys). Runs are deterministic, so the
        results are identical whichever executor ran them.

    Raises:
        ScenarioError: a point that makes the scenario invalid (raised by the first
            such point, in grid order).
        SimulationError: a run that failed.
    """
    points = _points(grid)
    if executor is None:
        workers = min(len(points), os.cpu_count() or 1) or 1
        with ThreadPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(_run_point, source, p, time) for p in points]
            return [f.result() for f in futures]
    futures = [executor.submit(_run_point, source, p, time) for p in points]
    return [f.result() for f in futures]
