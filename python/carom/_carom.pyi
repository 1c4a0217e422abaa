"""Types of the extension module behind ``import carom`` (see ``carom.World``)."""

import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

class ScenarioError(ValueError):
    """Bad input, with the command line's one-line message."""

class SimulationError(RuntimeError):
    """A failure while running; the world is left at its last good state."""

Source = str | os.PathLike[str] | Mapping[str, Any]

class World:
    """A simulated table with its balls."""

    @staticmethod
    def load(
        source: Source,
        model: str | None = None,
        overrides: Mapping[str, Any] | None = None,
        threads: int | None = None,
    ) -> World:
        """Loads a preset, a scenario or state file, or a scenario dict.

        ``model`` is one of impulse, spring, simultaneous, event (the dynamics) or chain
        (event-chain Monte Carlo of hard disks in a periodic box, whose diagnostics add
        ``z``, ``beta_p``, ``z_error``, ``z_blocks``, ``chain_length`` and the totals
        ``chain``).
        """
    @staticmethod
    def from_toml(
        text: str,
        model: str | None = None,
        overrides: Mapping[str, Any] | None = None,
        threads: int | None = None,
    ) -> World:
        """Loads a world from scenario text in TOML."""
    def step(self, n: int = 1) -> None:
        """Advances by ``n`` steps (GIL released)."""
    def run(self, time: float | None = None, steps: int | None = None) -> None:
        """Advances by ``time``, ``steps``, or the duration (GIL released)."""
    def record(self, time: float, every: int = 1) -> dict[str, npt.NDArray[np.float64]]:
        """Runs for ``time``; returns ``time`` (T,), ``positions`` and ``velocities``
        (T, N, 2), and for balls on cloth ``spins`` (T, N, 3): wx, wy, omega."""
    @property
    def time(self) -> float:
        """Simulated time."""
    @property
    def steps(self) -> int:
        """Steps since the scenario's run began."""
    @property
    def collisions(self) -> int:
        """Collisions since the scenario's run began."""
    @property
    def name(self) -> str:
        """The scenario's name."""
    @property
    def model(self) -> str:
        """The collision model."""
    @property
    def dt(self) -> float:
        """The time step."""
    @property
    def table(self) -> tuple[float, float]:
        """Table width and height."""
    @property
    def warnings(self) -> list[str]:
        """Warnings found when the world was built."""
    @property
    def threads(self) -> int:
        """Worker threads of the parallel parts (results identical for any count)."""
    @threads.setter
    def threads(self, n: int) -> None: ...
    def __len__(self) -> int:
        """Number of balls."""
    @property
    def positions(self) -> npt.NDArray[np.float64]:
        """Ball centres, (N, 2): a fresh writable copy (editing it does not move the
        balls); assign an (N, 2) array back to move them."""
    @positions.setter
    def positions(self, value: npt.ArrayLike) -> None: ...
    @property
    def velocities(self) -> npt.NDArray[np.float64]:
        """Ball velocities, (N, 2): a fresh writable copy; assign an (N, 2) array back
        to change them."""
    @velocities.setter
    def velocities(self, value: npt.ArrayLike) -> None: ...
    @property
    def radii(self) -> npt.NDArray[np.float64]:
        """Ball radii, (N,) (a copy)."""
    @property
    def masses(self) -> npt.NDArray[np.float64]:
        """Ball masses, (N,) (a copy)."""
    @property
    def omega(self) -> npt.NDArray[np.float64]:
        """Angular velocities, (N,) (a copy)."""
    @property
    def spins(self) -> npt.NDArray[np.float64]:
        """Angular velocities (wx, wy, omega) about the table's x, y axes and the
        vertical, (N, 3): a fresh writable copy; assign an (N, 3) array back to change
        them."""
    @spins.setter
    def spins(self, value: npt.ArrayLike) -> None: ...
    def _spheres(self) -> bool: ...
    @property
    def angles(self) -> npt.NDArray[np.float64]:
        """Ball orientations in radians, (N,) (a copy)."""
    @property
    def images(self) -> npt.NDArray[np.int64]:
        """Periodic image counts (ix, iy), (N, 2) int64 (a copy)."""
    @property
    def in_play(self) -> npt.NDArray[np.bool_]:
        """Whether each ball is still in play (not gone into a pocket or over an open
        edge), (N,) bool (a copy)."""
    def profiles(
        self, axis: str = "y", bins: int = 20
    ) -> dict[str, npt.NDArray[np.float64]]:
        """Solid fraction, mean velocity and stress in ``bins`` slabs across ``axis``
        ("x" or "y"): ``edges``, ``centers``, ``solid_fraction``, ``mass``,
        ``velocity`` (bins, 2), ``stress`` (bins, 3: xx, xy, yy)."""
    def psi6(self) -> npt.NDArray[np.complex128]:
        """Local bond-orientational order psi_6 of each ball (six nearest neighbours),
        (N,) complex (0 for balls out of play)."""
    @property
    def walls(self) -> list[dict[str, Any]]:
        """The walls inside the table, the ``[[walls]]`` entries as given."""
    @property
    def pockets(self) -> list[dict[str, Any]]:
        """The pockets, the ``[[pockets]]`` entries as given."""
    def log_events(self, on: bool) -> None:
        """Starts (True) or stops keeping the event log (off by default; off it costs
        nothing and changes no result)."""
    def events(self, clear: bool = False) -> dict[str, npt.NDArray[Any]]:
        """The event log since it was started: ``time``, ``kind`` (str), ``i``, ``j``,
        ``wall``, ``pocket`` (int64, -1 where none), ``impulse``, ``approach_speed``
        (float64, NaN where not known), ``phase`` (str: the phase a ``phase`` row's
        ball entered on cloth, empty for other rows). ``clear=True`` drops the rows
        returned."""
    def diagnostics(self) -> dict[str, Any]:
        """The state file's diagnostics."""
    def state(self) -> dict[str, Any]:
        """The state as a dict, equal to what ``carom run --out`` writes."""
    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes the state file ``carom run --out`` would write."""
    def render(
        self,
        path: str | os.PathLike[str],
        time: float | None = None,
        size: tuple[int, int] | None = None,
    ) -> None:
        """Draws the world (PNG, SVG or GIF by extension), after running ``time``."""
    def _picture(
        self,
        format: str,
        time: float | None = None,
        size: tuple[int, int] | None = None,
    ) -> bytes: ...
    def _repr_png_(self) -> bytes:
        """The world as a PNG, for Jupyter."""
    def __reduce__(self) -> tuple[Any, ...]: ...

def presets() -> list[str]:
    """The names of the built-in scenarios."""

def preset_summaries() -> list[tuple[str, str]]:
    """Each built-in scenario's name and summary."""

def compare(
    source: Source,
    models: Sequence[str] | None = None,
    time: float | None = None,
    steps: int | None = None,
    integrators: Sequence[str] | None = None,
    glitch_prevention: Sequence[bool] | None = None,
    overrides: Mapping[str, Any] | None = None,
    threads: int | None = None,
) -> list[dict[str, Any]]:
    """The ``carom compare`` table: one dict per variant."""

def cue_strike(
    speed: float,
    aim: float,
    english: float = 0.0,
    follow: float = 0.0,
    elevation: float = 0.0,
    m: float = 1.0,
    r: float = 10.0,
    inertia: float | None = None,
) -> dict[str, float]:
    """The velocity and spins a cue strike gives a ball at rest: ``vx``, ``vy``,
    ``wx``, ``wy``, ``omega``, as a scenario ball's ``cue`` gives them."""

def _world_from_state(text: str, threads: int) -> World: ...
def _panic_for_tests() -> None: ...

# carom.pool (see python/carom/pool.py)

Call = tuple[int, int | str] | str | None

class ShotResult:
    """What one shot did and how the rules judged it."""

    shooter: int
    first_contact: int | None
    cushions: list[tuple[float, int]]
    pocketed: list[tuple[float, int, int]]
    foul: str | None
    foul_what: str | None
    points: tuple[int, int]
    turn_over: bool
    next_player: int
    ball_in_hand: str | None
    game_over: bool
    winner: int | None
    call: tuple[int, int] | str | None
    options: list[str]
    verdict: str
    events: dict[str, npt.NDArray[Any]]

class Game:
    """A game of billiards in progress."""

    def __init__(
        self,
        name: str,
        seed: int | None = None,
        layout: Mapping[int | str, tuple[float, float]] | None = None,
        player: int | None = None,
    ) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def table(self) -> str: ...
    @property
    def player(self) -> int: ...
    @property
    def scores(self) -> tuple[int, int]: ...
    @property
    def ball_in_hand(self) -> str | None: ...
    @property
    def over(self) -> bool: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def shots(self) -> int: ...
    @property
    def cue_ball(self) -> int: ...
    @property
    def numbers(self) -> list[int]: ...
    @property
    def balls(self) -> dict[int, tuple[float, float]]: ...
    @property
    def world(self) -> World: ...
    def place_cue_ball(self, x: float, y: float) -> None: ...
    def options(self) -> list[str]: ...
    def choose(self, option: str) -> None: ...
    def shoot(
        self,
        speed: float,
        aim: float,
        english: float | None = None,
        follow: float | None = None,
        elevation: float | None = None,
        call: Call = None,
    ) -> ShotResult: ...
    def save(self, path: str | os.PathLike[str]) -> None: ...
    @staticmethod
    def load(path: str | os.PathLike[str]) -> Game: ...
    def to_json(self) -> str: ...
    @staticmethod
    def from_json(text: str) -> Game: ...
    def copy(self) -> Game: ...
    def pockets(self) -> list[tuple[str, tuple[float, float]]]: ...
    def _aim(
        self,
        ball: int,
        pocket: int | str | None = None,
        solve: bool = False,
        speed: float | None = None,
        english: float | None = None,
        follow: float | None = None,
        kind: str | None = None,
        cushions: Sequence[int | str] | None = None,
        via: int | None = None,
    ) -> float | None: ...
    def _shots(self) -> list[dict[str, Any]]: ...
    def _simulate_shots(
        self, shots: npt.ArrayLike, call: Call = None, threads: int | None = None
    ) -> dict[str, npt.NDArray[Any]]: ...

class Agent:
    """The search player."""

    def __init__(
        self,
        noise: Mapping[str, float] | str | None = None,
        seed: int | None = None,
    ) -> None: ...
    def choose(self, game: Game) -> dict[str, Any]: ...
    @property
    def last(self) -> dict[str, Any] | None: ...
    @property
    def noise(self) -> dict[str, float] | None: ...
    @property
    def simulated(self) -> int: ...

def _pool_shoot_each(
    games: Sequence[Game],
    shots: npt.ArrayLike,
    auto_call: bool = True,
    threads: int | None = None,
) -> list[ShotResult | str]: ...
