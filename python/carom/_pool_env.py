"""The gymnasium environments of ``carom.pool`` (needs the optional ``gymnasium``).

``Env`` is one game; ``VectorEnv`` is many, stepped with one parallel Rust call.
What an agent sees, does and earns is documented in docs/python.md ("Environment").
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import batch_space

from ._carom import Game, ScenarioError, ShotResult, _pool_shoot_each

# The environment ids registered on import, and their games.
IDS = {
    "carom/EightBall-v0": "eight-ball",
    "carom/NineBall-v0": "nine-ball",
    "carom/TenBall-v0": "ten-ball",
    "carom/Snooker-v0": "snooker",
    "carom/ThreeCushion-v0": "three-cushion",
    "carom/SumToThree-v0": "sum-to-three",
}

# The action's bounds: the shot's documented valid ranges (docs/games.md "Shots"): the
# cue's speed 0 to 15 m/s, the aim any direction (degrees), the tip's offsets in radii
# (a point outside the disk of radius 0.9 is moved onto its edge), the elevation 0 to
# 89 degrees (the cue's range is below 90).
MAX_SPEED = 15.0
MAX_TIP = 0.9
MAX_ELEVATION = 89.0
ACTION_LOW = np.array([0.0, -180.0, -MAX_TIP, -MAX_TIP, 0.0])
ACTION_HIGH = np.array([MAX_SPEED, 180.0, MAX_TIP, MAX_TIP, MAX_ELEVATION])
ACTION_NAMES = ("speed", "aim", "english", "follow", "elevation")

# The reward's terms (see `reward`).
FOUL_REWARD = -1.0
WIN_REWARD = 10.0
# Episodes are cut (truncated) after this many shots by default.
MAX_SHOTS = 200


def reward(r: ShotResult, pool_game: bool) -> float:
    """The reward of a shot to the player who played it: the points the rules gave the
    shooter less those they gave the opponent (snooker's and the carom games' points;
    a snooker foul's points go to the opponent); in pool games, where the rules keep no
    score, one per object ball pocketed on a legal shot; FOUL_REWARD (-1) for a foul;
    and on the shot that ends the game +WIN_REWARD (10) when the shooter wins,
    -WIN_REWARD when the opponent does (0 for a draw)."""
    me = r.shooter
    value = float(r.points[me] - r.points[1 - me])
    if r.foul is not None:
        value += FOUL_REWARD
    elif pool_game:
        value += sum(1 for _, ball, _ in r.pocketed if ball != 0)
    if r.game_over and r.winner is not None:
        value += WIN_REWARD if r.winner == me else -WIN_REWARD
    return value


class Env(gymnasium.Env):
    """One game of billiards as a gymnasium environment; the agent plays every shot,
    for both players (the observation says whose turn it is).

    ``game``: a game's name (a new rack from the environment's random generator at
    each ``reset``) or a ``pool.Game`` (every episode starts from a copy of it: a
    drill). ``max_shots``: the episode is truncated after that many shots.

    Action: ``Box`` of the five shot numbers ``(speed, aim, english, follow,
    elevation)`` within ACTION_LOW and ACTION_HIGH; a tip outside the disk of radius
    0.9 is moved radially onto it. An action outside the box or not finite raises
    ``ScenarioError``. Where the rules need a call, the shot calls what it will do
    (``carom_games::many::auto_call``: the highest-numbered object ball it pockets,
    into that pocket; else a safety; eight-ball's 8 into pocket 0 if it stays up).
    Ball in hand: the cue ball stays where the game has it (where it stopped, or on
    the head spot or in the D after it was pocketed), a legal place.

    Observation: ``Box`` of float64, for each ball of the game's set in number order
    ``x, y, in_play`` (metres in the table's frame; 0, 0, 0 once off the table), then
    the player to shoot (0 or 1), ball in hand (0 or 1) and the two scores.

    Reward: see :func:`reward`. Terminated at game over; truncated after
    ``max_shots`` shots, and after a shot the engine gives up on (the game then as it
    was, reward 0, ``info["error"]`` the message).
    """

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self, game: str | Game = "nine-ball", max_shots: int = MAX_SHOTS):
        if isinstance(game, Game):
            self._template: Game | None = game.copy()
            probe = game
        else:
            self._template = None
            probe = Game(game)
        if not isinstance(max_shots, int) or max_shots < 1:
            raise ScenarioError(
                f"max_shots: must be a whole number >= 1 (got {max_shots!r})"
            )
        self.game_name = probe.name
        self.max_shots = max_shots
        self._numbers = list(probe.numbers)
        self._pool = probe.table.startswith("pool")
        width, height = probe.world.table
        nb = len(self._numbers)
        low = np.zeros(3 * nb + 4)
        high = np.empty(3 * nb + 4)
        high[0 : 3 * nb : 3] = width
        high[1 : 3 * nb : 3] = height
        high[2 : 3 * nb : 3] = 1.0
        high[3 * nb : 3 * nb + 2] = 1.0
        high[3 * nb + 2 :] = np.inf
        self.observation_space = spaces.Box(low, high, dtype=np.float64)
        self.action_space = spaces.Box(ACTION_LOW, ACTION_HIGH, dtype=np.float64)
        self._game: Game | None = None
        self._shots = 0

    @property
    def game(self) -> Game | None:
        """The game being played (None before the first reset)."""
        return self._game

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if self._template is not None:
            self._game = self._template.copy()
        else:
            rack = int(self.np_random.integers(0, 2**63))
            self._game = Game(self.game_name, seed=rack)
        self._shots = 0
        return self._observe(), {}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        shot = self._shot(action)
        (r,) = _pool_shoot_each([self._playing()], shot[None, :], True, 1)
        return self._after(r)

    def _playing(self) -> Game:
        if self._game is None:
            raise ScenarioError("step: call reset() first")
        if self._game.over:
            raise ScenarioError("step: the game is over; call reset()")
        return self._game

    def _shot(self, action: Any) -> np.ndarray:
        """The shot of an action, checked against the box; the tip moved onto the disk
        of radius MAX_TIP if outside it."""
        try:
            a = np.array(action, dtype=np.float64)
        except (TypeError, ValueError) as e:
            raise ScenarioError(f"action: not five numbers: {e}") from None
        if a.shape != (5,):
            raise ScenarioError(f"action: expected shape (5,), got {a.shape}")
        for name, v, lo, hi in zip(
            ACTION_NAMES, a, ACTION_LOW, ACTION_HIGH, strict=True
        ):
            if not np.isfinite(v):
                raise ScenarioError(f"action: {name}: must be finite (got {v})")
            if not lo <= v <= hi:
                raise ScenarioError(
                    f"action: {name}: must be in [{lo}, {hi}] (got {v})"
                )
        tip = float(np.hypot(a[2], a[3]))
        if tip > MAX_TIP:
            # Onto the disk: scaled a hair inside so that rounding keeps it there.
            a[2:4] *= MAX_TIP / tip * (1.0 - 1e-12)
        return a

    def _after(
        self, r: ShotResult | str
    ) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if isinstance(r, str):
            # The engine gave up on the shot (see simulate_shots' `error`): the game is
            # as it was and the episode is cut short, as by a time limit.
            return self._observe(), 0.0, False, True, {"error": r}
        self._shots += 1
        terminated = bool(r.game_over)
        truncated = not terminated and self._shots >= self.max_shots
        info = {
            "verdict": r.verdict,
            "foul": r.foul,
            "shooter": r.shooter,
            "call": r.call,
        }
        return self._observe(), reward(r, self._pool), terminated, truncated, info

    def _observe(self) -> np.ndarray:
        g = self._game
        assert g is not None
        nb = len(self._numbers)
        o = np.zeros(3 * nb + 4)
        balls = g.balls
        for k, n in enumerate(self._numbers):
            p = balls.get(n)
            if p is not None:
                o[3 * k : 3 * k + 3] = (p[0], p[1], 1.0)
        o[3 * nb] = g.player
        o[3 * nb + 1] = 1.0 if g.ball_in_hand else 0.0
        o[3 * nb + 2 :] = g.scores
        return o


class VectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` copies of :class:`Env` stepped together: each step shoots every
    sub-environment's shot in one parallel Rust call (``threads`` threads, default all
    cores), the GIL released. A sub-environment whose episode ended is reset at the
    next step, whose action it ignores (gymnasium's next-step autoreset), with reward
    0 and neither flag set. ``reset(seed=s)`` seeds sub-environment i with ``s + i``;
    each sub-environment then steps exactly as an :class:`Env` reset with that seed
    and given the same actions."""

    metadata: dict[str, Any] = {
        "render_modes": [],
        "autoreset_mode": gymnasium.vector.AutoresetMode.NEXT_STEP,
    }

    def __init__(
        self,
        game: str | Game = "nine-ball",
        num_envs: int = 4,
        max_shots: int = MAX_SHOTS,
        threads: int | None = None,
    ):
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ScenarioError(
                f"num_envs: must be a whole number >= 1 (got {num_envs!r})"
            )
        self.envs = [Env(game, max_shots) for _ in range(num_envs)]
        self.num_envs = num_envs
        self.threads = threads
        self.single_action_space = self.envs[0].action_space
        self.single_observation_space = self.envs[0].observation_space
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self._ended = np.zeros(num_envs, dtype=bool)

    def reset(
        self,
        *,
        seed: int | list[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ScenarioError(
                    f"seed: {len(seeds)} seeds for {self.num_envs} environments"
                )
        if seed is not None:
            self._np_random, self._np_random_seed = gymnasium.utils.seeding.np_random(
                seeds[0]
            )
        obs = [
            e.reset(seed=s, options=options)[0]
            for e, s in zip(self.envs, seeds, strict=True)
        ]
        self._ended[:] = False
        return np.stack(obs), {}

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        try:
            a = np.asarray(actions, dtype=np.float64)
        except (TypeError, ValueError) as e:
            raise ScenarioError(f"actions: not an array of numbers: {e}") from None
        if a.shape != (self.num_envs, 5):
            raise ScenarioError(
                f"actions: expected shape ({self.num_envs}, 5), got {a.shape}"
            )
        n = self.num_envs
        obs: list[np.ndarray] = [np.empty(0)] * n
        rewards = np.zeros(n)
        terminated = np.zeros(n, dtype=bool)
        truncated = np.zeros(n, dtype=bool)
        infos: dict[str, Any] = {}
        shoot = []
        for i, e in enumerate(self.envs):
            if self._ended[i]:
                obs[i] = e.reset()[0]
            else:
                shoot.append(i)
        if shoot:
            shots = np.stack([self.envs[i]._shot(a[i]) for i in shoot])
            games = [self.envs[i]._playing() for i in shoot]
            results = _pool_shoot_each(games, shots, True, self.threads)
            for i, r in zip(shoot, results, strict=True):
                obs[i], rewards[i], terminated[i], truncated[i], info = self.envs[
                    i
                ]._after(r)
                infos = self._add_info(infos, info, i)
        self._ended = terminated | truncated
        return np.stack(obs), rewards, terminated, truncated, infos


def register_envs() -> None:
    """Registers every game under its ``carom/`` id (see IDS), once."""
    from gymnasium.envs.registration import register, registry

    for env_id, name in IDS.items():
        if env_id not in registry:
            register(
                id=env_id,
                entry_point="carom._pool_env:Env",
                vector_entry_point="carom._pool_env:VectorEnv",
                kwargs={"game": name},
            )
