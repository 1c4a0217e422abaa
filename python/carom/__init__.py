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
    "sweep",
    "write_gsd",
]
