"""carom.pool: billiards games on the carom engine.

Tables, racks, rules, shots simulated to rest, aiming (direct pots, banks, kicks and
combinations), candidate shots, batches of shots and (with gymnasium installed) a
reinforcement-learning environment. The games layer is
Rust (``crates/carom-games``); this module is its Python face. See docs/python.md.

Quick tour::

    import carom.pool as pool
    g = pool.Game("nine-ball", seed=1)
    r = g.shoot(speed=8.0, aim=pool.aim(g, 1))   # the break, at the 1
    print(r.verdict, g.player, g.ball_in_hand)
    out = pool.simulate_shots(g, [[3.0, a, 0, 0, 0] for a in range(0, 360, 5)])

Bad input (an unknown game, a cue ball placed illegally or on a ball, a shot number
out of range, a missing call, an array of the wrong shape) raises
:class:`carom.ScenarioError`, a ``ValueError``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ._carom import Agent, Game, ShotResult

__all__ = [
    "Agent",
    "Env",
    "Game",
    "ShotResult",
    "VectorEnv",
    "aim",
    "pockets",
    "shots",
    "simulate_shots",
]


def pockets(g: Game) -> list[tuple[str, tuple[float, float]]]:
    """The table's pockets: ``[(name, (x, y))]``, each pocket's index its place in the
    list (a call or an aim names a pocket by either)."""
    return g.pockets()


def aim(
    g: Game,
    ball: int,
    pocket: int | str | None = None,
    solve: bool = False,
    speed: float = 3.0,
    english: float = 0.0,
    follow: float = 0.0,
    kind: str | None = None,
    cushions: Sequence[int | str] | None = None,
    via: int | None = None,
) -> float | None:
    """The aim in degrees (from +x towards +y) of the player to shoot at ``ball``.

    Without ``solve``: the ghost-ball aim, sending the cue ball one ball diameter
    behind ``ball`` on its line to the pocket's centre, or straight at the ball's
    centre without a pocket. With ``solve=True``: the aim that pots ``ball`` in
    ``pocket`` struck at ``speed`` with the tip offsets ``english`` and ``follow``,
    found by simulating shots around the ghost-ball aim (direct, then one-rail banks),
    so throw, spin and cushions are in it; ``None`` when no aim pots.

    ``kind`` names a route: ``"direct"``, ``"bank"`` (``ball`` off the ``cushions``,
    one or two, in order), ``"kick"`` (the cue ball off the ``cushions`` onto
    ``ball``) or ``"combination"`` (the cue ball onto ``via``, which drives ``ball``
    in). Cushions are ``0``/``"left"``, ``1``/``"right"``, ``2``/``"top"``,
    ``3``/``"bottom"``. Without ``solve`` the route's mirror-image guess; with it the
    aim the engine finds around that guess that makes the route (``None`` if none).

    Bad input (a ball not on the table, an unknown pocket, a number out of range, a
    bank or kick with no cushion path) raises :class:`carom.ScenarioError`.
    """
    return g._aim(ball, pocket, solve, speed, english, follow, kind, cushions, via)


def shots(g: Game) -> list[dict[str, Any]]:
    """The candidate shots of the position, widest window first: each a dict of
    ``kind`` (direct, bank, kick, combination), ``ball`` (the ball potted),
    ``pocket`` (index) and ``pocket_name``, ``cushions`` (the route's, in order),
    ``via`` (a combination's ball met first, else None), ``speed`` and ``aim`` (the
    shot, no spin), ``window`` (degrees of aim that make the route), ``ease`` (the
    geometric ease it was ranked by) and ``call`` (what ``g.shoot`` needs, or None).
    The easiest routes by geometry are solved with the engine; those that no aim
    makes are left out. Empty on a carom table or when the game is over.
    """
    return g._shots()


def simulate_shots(
    g: Game,
    shots: npt.ArrayLike,
    call: Any = None,
    threads: int | None = None,
) -> dict[str, np.ndarray]:
    """Simulates every row of ``shots`` (an (n, 5) array: speed, aim, english, follow,
    elevation) from the game's position, the game itself unchanged, in parallel on
    ``threads`` threads (default all cores) with the GIL released. The results are
    the same on any thread count and the same as shooting the shots one by one.

    Returns numpy arrays, the N columns being the balls on the table in the order of
    ``balls``: ``balls`` (N,), ``pocketed`` (n, N) the pocket each ball dropped in or
    -1, ``first_contact`` (n,) the first ball the cue ball met or -1, ``cushions``
    (n, N) each ball's cushion contacts, ``foul`` (n,), ``points`` (n,) the points the
    shooter gained, ``positions`` (n, N, 2) where each ball stopped (NaN if pocketed),
    ``turn_over`` (n,), ``game_over`` (n,), ``winner`` (n,) (-1: none) and ``error``
    (n,): empty, or the message of a shot that failed while running (the engine gave
    up on it; ``g.shoot`` would raise :class:`carom.SimulationError`), whose row then
    holds -1, 0, False and NaN. Bad input raises :class:`carom.ScenarioError` before any
    shot runs.
    """
    return g._simulate_shots(shots, call, threads)


_NO_GYM = (
    "carom.pool.{name} needs gymnasium (pip install 'carom[rl]' or pip install "
    "gymnasium)"
)

try:
    from ._pool_env import Env, VectorEnv, register_envs
except ImportError as e:  # gymnasium is an optional extra
    if e.name is None or not e.name.startswith("gymnasium"):
        raise

    def __getattr__(name: str) -> Any:
        if name in ("Env", "VectorEnv"):
            raise ImportError(_NO_GYM.format(name=name))
        raise AttributeError(f"module 'carom.pool' has no attribute {name!r}")

else:
    register_envs()
