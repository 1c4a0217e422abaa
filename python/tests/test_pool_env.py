"""carom.pool's gymnasium environments: gymnasium's own checker, random play, the
rewards the rules give, and the vector form against single environments."""

from __future__ import annotations

import carom
import carom.pool as pool
import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

INCH = 0.0254
X0, Y0 = 6 * INCH, 6 * INCH
X1, Y1 = X0 + 100 * INCH, Y0 + 50 * INCH
GAMES = [
    "eight-ball",
    "nine-ball",
    "ten-ball",
    "snooker",
    "three-cushion",
    "sum-to-three",
]


def d(k: float) -> tuple[float, float]:
    """Points on a line into the top-right corner pocket."""
    return (X1 - k, Y0 + 0.5 * k)


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_checker_passes(game):
    env = pool.Env(game)
    check_env(env, skip_render_check=True)


def test_every_game_is_registered():
    ids = {
        "carom/EightBall-v0",
        "carom/NineBall-v0",
        "carom/TenBall-v0",
        "carom/Snooker-v0",
        "carom/ThreeCushion-v0",
        "carom/SumToThree-v0",
    }
    assert ids <= set(gymnasium.registry)
    env = gymnasium.make("carom/TenBall-v0")
    assert env.unwrapped.game_name == "ten-ball"
    venv = gymnasium.make_vec(
        "carom/SumToThree-v0", num_envs=2, vectorization_mode="vector_entry_point"
    )
    assert isinstance(venv, pool.VectorEnv) and venv.num_envs == 2


@pytest.mark.parametrize("game, episodes", [("nine-ball", 100), ("ten-ball", 20)])
def test_a_random_agent_plays_episodes_without_error(game, episodes):
    env = pool.Env(game, max_shots=40)
    env.action_space.seed(1)
    obs, _ = env.reset(seed=1)
    shots = ended = 0
    while ended < episodes:
        obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
        shots += 1
        assert env.observation_space.contains(obs)
        assert np.isfinite(reward)
        if terminated or truncated:
            ended += 1
            obs, _ = env.reset()
    assert shots >= episodes


def test_the_observation_is_the_table_and_the_state():
    env = pool.Env("nine-ball")
    obs, _ = env.reset(seed=4)
    g = env.game
    assert obs.shape == (3 * 10 + 4,)
    for k in range(10):
        assert tuple(obs[3 * k : 3 * k + 2]) == g.balls[k] and obs[3 * k + 2] == 1.0
    # The breaker, 0, to shoot with ball in hand, no score.
    assert list(obs[30:]) == [0.0, 1.0, 0.0, 0.0]


def test_rewards_follow_the_rules():
    # A legal pot keeps the turn and earns 1 (one object ball down).
    drill = pool.Game(
        "nine-ball", layout={"cue": d(1.2), 1: d(0.6), 9: (X0 + 0.3, Y1 - 0.2)}
    )
    env = pool.Env(drill)
    env.reset(seed=0)
    a = pool.aim(drill, 1, "top-right")
    obs, reward, terminated, truncated, info = env.step([2.0, a, 0, 0, 0])
    assert info["foul"] is None and reward == 1.0 and not terminated and not truncated
    assert obs[3 * 1 + 2] == 0.0  # the 1 is off the table
    # The 9 alone potted legally wins: one ball and the win, 1 + 10.
    win = pool.Game("nine-ball", layout={"cue": d(1.2), 9: d(0.6)})
    env = pool.Env(win)
    env.reset()
    _, reward, terminated, _, _ = env.step(
        [2.0, pool.aim(win, 9, "top-right"), 0, 0, 0]
    )
    assert terminated and reward == 1.0 + 10.0
    with pytest.raises(carom.ScenarioError, match="the game is over"):
        env.step([2.0, 0, 0, 0, 0])
    # The cue ball sent away from every ball: WPA 6.2 (no ball met), -1, and the
    # opponent to shoot with ball in hand.
    env.reset()
    obs, reward, terminated, _, info = env.step([0.3, 153.0, 0, 0, 0])
    assert "6.2" in info["foul"] and reward == -1.0 and not terminated
    assert list(obs[-4:-2]) == [1.0, 1.0]


def test_ten_ball_calls_what_the_shot_does():
    drill = pool.Game(
        "ten-ball", layout={"cue": d(1.2), 1: d(0.6), 10: (X0 + 0.3, Y1 - 0.2)}
    )
    env = pool.Env(drill)
    env.reset()
    _, reward, _, _, info = env.step([2.0, pool.aim(drill, 1, "top-right"), 0, 0, 0])
    k = [name for name, _ in pool.pockets(drill)].index("top-right")
    assert info["call"] == (1, k) and info["foul"] is None and reward == 1.0
    # A miss calls a safety.
    env.reset()
    _, _, _, _, info = env.step([0.5, 90.0, 0, 0, 0])
    assert info["call"] == "safe"


def test_bad_actions_are_refused():
    env = pool.Env("nine-ball")
    with pytest.raises(carom.ScenarioError, match="reset"):
        env.step([1, 0, 0, 0, 0])
    env.reset(seed=0)
    for action, match in [
        ([16, 0, 0, 0, 0], r"speed: must be in \[0.0, 15.0\]"),
        ([1, 0, 0, 0, np.nan], "elevation: must be finite"),
        ([1, 0, 0, 0], r"expected shape \(5,\)"),
        ([1, 0, 0, 0, 95], "elevation: must be in"),
    ]:
        with pytest.raises(carom.ScenarioError, match=match):
            env.step(action)
    with pytest.raises(carom.ScenarioError, match="unknown game"):
        pool.Env("eleven-ball")
    # A tip outside the disk of radius 0.9 but inside the box is moved onto it.
    env.step([1, 0, 0.9, 0.9, 0])


def test_the_vector_env_equals_single_envs_stepped_one_by_one():
    n, steps = 3, 40
    venv = pool.VectorEnv("nine-ball", num_envs=n, max_shots=8, threads=2)
    singles = [pool.Env("nine-ball", max_shots=8) for _ in range(n)]
    obs, _ = venv.reset(seed=10)
    for i, e in enumerate(singles):
        o, _ = e.reset(seed=10 + i)
        assert np.array_equal(o, obs[i])
    rng = np.random.default_rng(3)
    low, high = singles[0].action_space.low, singles[0].action_space.high
    ended = [False] * n
    resets = 0
    for _ in range(steps):
        actions = rng.uniform(low, high, size=(n, 5))
        vobs, vrew, vterm, vtrunc, _ = venv.step(actions)
        for i, e in enumerate(singles):
            if ended[i]:
                # Next-step autoreset: the sub-environment resets, the action unused.
                o, _ = e.reset()
                r, te, tr = 0.0, False, False
                resets += 1
            else:
                o, r, te, tr, _ = e.step(actions[i])
            assert np.array_equal(o, vobs[i])
            assert (r, te, tr) == (vrew[i], vterm[i], vtrunc[i])
            ended[i] = te or tr
    assert resets > 0  # the comparison went through episode ends


def test_a_shot_the_engine_gives_up_on_truncates_the_episode():
    # The break of test_pool.py's shot that runs into the event budget: the game stays
    # as it was, reward 0, the episode truncated with the message. (Should the engine
    # finish the shot one day, the step is an ordinary one.)
    g = pool.Game("nine-ball", seed=1)
    shot = [7.293108773922371, 0.7213905010955843, 0.0, 0.02541957315160065, 0.0]
    try:
        g.copy().shoot(*shot)
        fails = None
    except carom.SimulationError as e:
        fails = str(e)
    env = pool.Env(g)
    before, _ = env.reset()
    obs, reward, terminated, truncated, info = env.step(shot)
    if fails is None:
        assert "error" not in info
        return
    assert info["error"] == fails and truncated and not terminated and reward == 0.0
    assert np.array_equal(obs, before) and env.game.to_json() == g.to_json()
    # In a vector env only that sub-environment is cut short.
    venv = pool.VectorEnv(g, num_envs=2, threads=2)
    venv.reset(seed=0)
    _, rewards, term, trunc, infos = venv.step([shot, [8.0, pool.aim(g, 1), 0, 0, 0]])
    assert list(trunc) == [True, False] and rewards[0] == 0.0
    assert infos["error"][0] == fails and infos["_error"].tolist() == [True, False]
