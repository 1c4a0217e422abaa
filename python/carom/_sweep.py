"""Parameter sweeps: one run per point of a grid, on local threads or any executor."""

from __future__ import annotations

import itertools
import os
import re
import time as _time
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ._carom import World


def _run_point(
    source: Any,
    point: dict[str, Any],
    time: float | None,
    checkpoint: str | None = None,
) -> dict[str, Any]:
    """One sweep point: loads the source with the point's overrides, runs it, and
    returns the point with the final diagnostics. Module-level so that executors in
    other processes (dask workers) can unpickle it.

    With ``checkpoint`` (a state file's path): a point whose file exists resumes from
    it (the file holds the point's overrides already) and runs on until its clock
    reaches ``time``; the final state is written back to the file. The result then
    also has ``checkpoint``, ``start_time`` and ``cpu_time`` (seconds of this run)."""
    resumed = checkpoint is not None and os.path.exists(checkpoint)
    if resumed:
        world = World.load(checkpoint)
    else:
        world = World.load(source, overrides=point)
    start, cpu = world.time, _time.thread_time()
    if checkpoint is not None and time is not None:
        # The clock's target, not a length: a resumed point runs what is left.
        if time > start:
            world.run(time=time - start)
    else:
        world.run(time=time)
    cpu = _time.thread_time() - cpu
    result: dict[str, Any] = dict(point)
    result.update(world.diagnostics())
    if checkpoint is not None:
        tmp = checkpoint + ".part"
        world.save(tmp)
        os.replace(tmp, checkpoint)
        result.update(checkpoint=checkpoint, start_time=start, cpu_time=cpu)
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
    checkpoints: str | os.PathLike[str] | None = None,
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
        checkpoints: a directory (made if missing): each point's final state is
            written there, one state file per point named by its values, and a point
            whose file exists resumes from it, running on until its clock reaches
            ``time`` (the target time, not a length). Calling the same sweep again
            continues it: an interrupted study picks up its unfinished points, bit
            for bit. Each result then also has ``checkpoint`` (the file),
            ``start_time`` (the clock where this call took it up) and ``cpu_time``
            (seconds this call spent on it).

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
    files: list[str | None] = [None] * len(points)
    if checkpoints is not None:
        os.makedirs(checkpoints, exist_ok=True)
        files = [os.path.join(os.fspath(checkpoints), _file_name(p)) for p in points]
    if executor is None:
        workers = min(len(points), os.cpu_count() or 1) or 1
        with ThreadPoolExecutor(max_workers=workers) as pool:
            futures = [
                pool.submit(_run_point, source, p, time, f)
                for p, f in zip(points, files, strict=True)
            ]
            return [f.result() for f in futures]
    futures = [
        executor.submit(_run_point, source, p, time, f)
        for p, f in zip(points, files, strict=True)
    ]
    return [f.result() for f in futures]


def _file_name(point: Mapping[str, Any]) -> str:
    """A point's state file name: its keys and values, filesystem-safe."""
    text = ",".join(f"{k}={v}" for k, v in point.items()) or "point"
    return re.sub(r"[^A-Za-z0-9=,._-]", "_", text) + ".json"
