"""GSD trajectories (HOOMD-blue's schema), read by freud, OVITO, HOOMD and MDAnalysis.

GSD is a binary container with an index of named chunks; the ``gsd`` package (PyPI) is
its reference reader and writer. carom writes it from Python with that package rather
than with an encoder of its own in the command line, so the file is exactly what the
format's maintainers write.
"""

from __future__ import annotations

import math
import os
import tempfile
from typing import TYPE_CHECKING

import numpy as np

from ._carom import ScenarioError

if TYPE_CHECKING:
    from ._carom import World


def _frame(gsd_hoomd, w: World, spheres: bool):
    """One frame: the balls in play, in a box centred on the origin (HOOMD's convention:
    positions run from -L/2 to L/2), so carom's ``x`` becomes ``x - width / 2``. With
    ``spheres`` (balls on cloth) also their angular velocities."""
    width, height = w.table
    keep = w.in_play
    pos = w.positions[keep]
    n = len(pos)
    f = gsd_hoomd.Frame()
    f.configuration.step = w.steps
    f.configuration.dimensions = 2
    f.configuration.box = [width, height, 0.0, 0.0, 0.0, 0.0]
    f.particles.N = n
    f.particles.types = ["ball"]
    f.particles.typeid = np.zeros(n, dtype=np.uint32)
    xyz = np.zeros((n, 3))
    xyz[:, 0] = pos[:, 0] - 0.5 * width
    xyz[:, 1] = pos[:, 1] - 0.5 * height
    f.particles.position = xyz
    vel = np.zeros((n, 3))
    vel[:, :2] = w.velocities[keep]
    f.particles.velocity = vel
    f.particles.diameter = 2.0 * w.radii[keep]
    f.particles.mass = w.masses[keep]
    img = np.zeros((n, 3), dtype=np.int32)
    img[:, :2] = w.images[keep]
    f.particles.image = img
    # Which ball each row is, once balls have left play and frames get shorter.
    f.log["particles/carom_index"] = np.flatnonzero(keep).astype(np.int64)
    f.log["carom/time"] = np.array([w.time])
    if spheres:
        # HOOMD's own rotational fields (angmom, orientation) are quaternions of a
        # body frame that carom does not track; the angular velocity (wx, wy, omega)
        # in the table's frame is logged as it is, (N, 3).
        f.log["particles/carom_spin"] = w.spins[keep]
    return f


def write_gsd(
    w: World, path: str | os.PathLike[str], time: float, every: int = 1
) -> None:
    """Runs ``w`` for ``time`` and writes a GSD trajectory (HOOMD schema, double
    precision) to ``path``: the state before the run, then every ``every`` steps and the
    last step, as ``record()`` and ``carom run --trajectory --every`` sample.

    Each frame holds the balls in play (``log/particles/carom_index`` says which ball
    each row is), the table as a 2D box centred on the origin (positions shifted by
    half the table; for a walled table the box is the table's outline, not a periodic
    cell), diameters, masses, velocities and periodic image counts; for balls on cloth
    also ``log/particles/carom_spin``, (N, 3): ``wx``, ``wy``, ``omega`` (the angular
    velocity about the table's x and y axes and the vertical, z into the table, as
    ``World.spins``). Needs the ``gsd``
    package (``pip install gsd``). The file appears whole or not at all. Raises
    ``ScenarioError`` for a bad ``time`` or ``every``.
    """
    try:
        import gsd.hoomd
    except ImportError as e:
        raise ImportError("write_gsd needs the gsd package: pip install gsd") from e
    if isinstance(every, bool) or not isinstance(every, int) or every < 1:
        raise ScenarioError(
            f"every {every!r}: must be a whole number of steps, at least 1"
        )
    dt = w.dt
    t = float(time)
    if not (math.isfinite(t) and t >= 0.0):
        raise ScenarioError(f"time {time!r}: not a run length")
    # The engine's rounding of a run length to steps (half away from zero, as --time).
    steps = math.floor(t / dt + 0.5)
    target = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(target))
    fd, tmp = tempfile.mkstemp(prefix=".carom-", suffix=".gsd", dir=folder)
    os.close(fd)
    try:
        # Decided once, as the command line decides a trajectory's columns.
        spheres = w._spheres()
        with gsd.hoomd.open(tmp, mode="w", precision="double") as out:
            out.append(_frame(gsd.hoomd, w, spheres))
            done = 0
            while done < steps:
                n = min(every, steps - done)
                w.step(n)
                done += n
                out.append(_frame(gsd.hoomd, w, spheres))
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise
