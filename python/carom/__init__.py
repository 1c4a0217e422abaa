"""carom: 2D ball-collision simulation, from Python.

The same engine as the ``carom`` command line (a Rust library), not a second
implementation: a world loaded and run here equals the command line's run bit for bit.

Quick tour::

    import carom
    w = carom.World.load("break", model="simultaneous")
    w.run(time=100)
    print(w.diagnostics()["total_energy"], w.positions.shape)
    rows = carom.sweep("break", {"physics.restitution": [0.5, 1.0]}, time=50)

Billiards games (tables, racks, rules, shots, aiming, batches of shots and a gymnasium
environment): ``import carom.pool`` (see its docstring).

Errors: :class:`ScenarioError` (a ``ValueError``) for bad input, with the command
line's one-line message; :class:`SimulationError` (a ``RuntimeError``) for a failure
while running, the world then left at its last good state.
"""

from __future__ import annotations

from ._carom import (
    ScenarioError,
    SimulationError,
    World,
    compare,
    cue_strike,
    preset_summaries,
    presets,
)
from ._gsd import write_gsd
from ._pictures import Animation, animate
from ._sweep import sweep


def profiles(world: World, axis: str = "y", bins: int = 20) -> dict:
    """Solid fraction, mean velocity and stress in ``bins`` slabs across ``axis``.

    Each disk's area is split exactly between the slabs it overlaps; a slab's velocity
    is the mass-weighted mean, its stress (the pressure tensor, positive in
    compression) the velocity fluctuations about that mean plus each contact's
    ``r_ij (x) f_ij`` split along the segment between the two centres (see
    docs/granular.md). Returns a dict of numpy arrays: ``edges`` (bins + 1,),
    ``centers``, ``solid_fraction``, ``mass`` (bins,), ``velocity`` (bins, 2) and
    ``stress`` (bins, 3: xx, xy, yy). Raises :class:`ScenarioError` for a bad axis or
    bin count.
    """
    return world.profiles(axis=axis, bins=bins)


__all__ = [
    "Animation",
    "ScenarioError",
    "SimulationError",
    "World",
    "animate",
    "compare",
    "cue_strike",
    "preset_summaries",
    "presets",
    "profiles",
    "sweep",
    "write_gsd",
]
