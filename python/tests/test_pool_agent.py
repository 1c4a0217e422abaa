"""carom.pool.Agent: the search player from Python."""

from __future__ import annotations

import sys

import carom
import carom.pool as pool
import pytest

INCH = 0.0254
X0, Y0 = 6 * INCH, 6 * INCH
X1, Y1 = X0 + 100 * INCH, Y0 + 50 * INCH
R = 1.125 * INCH


def d(k: float) -> tuple[float, float]:
    """Points on a line into the top-right corner pocket."""
    return (X1 - k, Y0 + 0.5 * k)


def test_the_agent_pots_a_straight_in_ball():
    # The cue ball, the 1 and the top-right pocket on one line, 0.6 m apart: the
    # easiest shot there is; the 9 far away so that the game goes on.
    g = pool.Game(
        "nine-ball", layout={"cue": d(1.2), 1: d(0.6), 9: (X0 + 0.3, Y1 - 0.2)}
    )
    agent = pool.Agent(seed=0)
    assert agent.last is None
    shot = agent.choose(g)
    assert set(shot) == {"speed", "aim", "english", "follow", "elevation", "call"}
    # Without noise its one judged execution is the shot itself, which pots.
    assert agent.last == {"intent": "pot", "estimate": 1.0}
    r = g.shoot(**shot)
    assert r.foul is None and 1 in [b for _, b, _ in r.pocketed]


def test_noise_levels_are_the_documented_deviations():
    assert pool.Agent().noise is None
    assert pool.Agent(noise="amateur").noise == {
        "aim": 0.25,
        "speed": 0.05,
        "english": 0.05,
        "follow": 0.05,
    }
    assert pool.Agent(noise="pro").noise == {
        "aim": 0.1,
        "speed": 0.02,
        "english": 0.02,
        "follow": 0.02,
    }
    assert pool.Agent(noise={"aim": 0.3}).noise == {
        "aim": 0.3,
        "speed": 0.0,
        "english": 0.0,
        "follow": 0.0,
    }


def test_the_same_seed_chooses_the_same_shot_and_noise_moves_it():
    g = pool.Game(
        "nine-ball", layout={"cue": d(1.2), 1: d(0.6), 9: (X0 + 0.3, Y1 - 0.2)}
    )
    a, b = pool.Agent(seed=3).choose(g.copy()), pool.Agent(seed=3).choose(g.copy())
    assert a == b
    noisy = pool.Agent(noise={"aim": 0.5, "speed": 0.05}, seed=3).choose(g.copy())
    assert noisy["aim"] != a["aim"] or noisy["speed"] != a["speed"]


def test_with_ball_in_hand_the_agent_places_the_cue_ball_legally():
    g = pool.Game("nine-ball", seed=2)  # the break: in hand behind the head string
    shot = pool.Agent(seed=1).choose(g)
    x, y = g.balls[0]
    assert x <= X0 + 0.25 * (X1 - X0) + 1e-12
    g.shoot(**shot)  # a legal placement and a shot the game accepts


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"noise": {"aim": -1.0}}, "noise.aim: must be a finite standard deviation"),
        ({"noise": {"spin": 0.1}}, "noise: spin: unknown"),
        ({"noise": {"aim": float("nan")}}, "noise.aim: must be a finite"),
        ({"noise": {"aim": "wide"}}, "noise: aim: not a number"),
        ({"noise": [0.1]}, "noise: expected None"),
        ({"noise": "expert"}, 'noise: "expert" is not'),
        ({"seed": -2}, "seed: must be a whole number"),
    ],
)
def test_bad_agents_are_refused(kwargs, match):
    with pytest.raises(carom.ScenarioError, match=match):
        pool.Agent(**kwargs)


def test_the_agent_refuses_a_finished_game():
    g = pool.Game("nine-ball", layout={"cue": d(1.2), 9: d(0.6)})
    g.shoot(speed=2.0, aim=pool.aim(g, 9, "top-right"))
    assert g.over
    with pytest.raises(carom.ScenarioError, match="the game is over"):
        pool.Agent().choose(g)


def _choose_in_child(queue):
    g = pool.Game("nine-ball", seed=2)
    g.shoot(8.0, pool.aim(g, 1))
    queue.put(pool.Agent(seed=1).choose(g))


@pytest.mark.skipif(sys.platform != "linux", reason="fork is Linux's default")
def test_the_agent_chooses_in_a_forked_child_after_the_parent_chose():
    # The agent's candidate shots run on a pool of threads that a forked child does
    # not inherit: the child makes its own, and chooses as the parent does.
    import multiprocessing

    g = pool.Game("nine-ball", seed=2)
    g.shoot(8.0, pool.aim(g, 1))
    mine = pool.Agent(seed=1).choose(g.copy())
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=_choose_in_child, args=(queue,))
    child.start()
    theirs = queue.get(timeout=120)
    child.join(timeout=60)
    assert child.exitcode == 0
    assert theirs == mine
