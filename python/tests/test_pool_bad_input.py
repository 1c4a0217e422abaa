"""carom.pool's bad input: each is a ``carom.ScenarioError`` (a ``ValueError``) whose
one line names what is wrong, and leaves the game as it was."""

from __future__ import annotations

import carom
import carom.pool as pool
import numpy as np
import pytest

INCH = 0.0254
X0, Y0 = 6 * INCH, 6 * INCH
X1, Y1 = X0 + 100 * INCH, Y0 + 50 * INCH


def refused(match: str):
    """Expects a one-line ScenarioError whose message matches ``match``."""
    return pytest.raises(carom.ScenarioError, match=match)


def one_line(e: pytest.ExceptionInfo) -> None:
    assert "\n" not in str(e.value)


def drill() -> pool.Game:
    return pool.Game(
        "nine-ball",
        layout={
            "cue": (X0 + 0.5, Y0 + 0.6),
            1: (X0 + 1.0, Y0 + 0.6),
            9: (X1 - 0.2, Y1 - 0.2),
        },
    )


def test_scenario_error_is_a_value_error():
    # The design promises ValueError for an illegal place, the project ScenarioError
    # for all bad input: both hold.
    assert issubclass(carom.ScenarioError, ValueError)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"name": "eleven-ball"}, r"game: unknown game \"eleven-ball\""),
        ({"name": 9}, "game: expected a name"),
        ({"name": "nine-ball", "seed": -1}, "seed: must be a whole number"),
        ({"name": "nine-ball", "seed": 1.5}, "seed: must be a whole number"),
        (
            {"name": "nine-ball", "player": 2},
            "player: must be a whole number from 0 to 1",
        ),
        ({"name": "nine-ball", "seed": 1, "layout": {"cue": (0.5, 0.5)}}, "not both"),
        ({"name": "nine-ball", "layout": [1, 2]}, "layout: expected a dict"),
        ({"name": "nine-ball", "layout": {1: (0.5, 0.5)}}, "layout: ball 0 is missing"),
        ({"name": "nine-ball", "layout": {"cue": (0.5, 0.5), 12: (1, 0.5)}}, "ball 12"),
        (
            {"name": "nine-ball", "layout": {"cue": (0.5,)}},
            r"layout: ball 0: expected \(x, y\)",
        ),
        (
            {"name": "nine-ball", "layout": {"cue": ("a", 0.5)}},
            "layout: ball 0: not a number",
        ),
        (
            {"name": "nine-ball", "layout": {"ball": (0.5, 0.5)}},
            'a ball number or "cue"',
        ),
        (
            {"name": "nine-ball", "layout": {"cue": (0.05, 0.5)}},
            "ball 0.*not on the playing surface",
        ),
        (
            {"name": "nine-ball", "layout": {"cue": (0.5, 0.5), 1: (0.52, 0.5)}},
            "overlaps",
        ),
    ],
)
def test_bad_games_are_refused(kwargs, match):
    with refused(match) as e:
        pool.Game(**kwargs)
    one_line(e)


def test_the_cue_ball_is_placed_only_in_hand_legally_and_clear():
    g = drill()
    with refused("not in hand") as e:
        g.place_cue_ball(X0 + 0.3, Y0 + 0.3)
    one_line(e)
    g = pool.Game("nine-ball", seed=1)
    before = g.to_json()
    with refused("behind the head string"):
        g.place_cue_ball(X1 - 0.3, Y0 + 0.3)
    with refused("not on the playing surface"):
        g.place_cue_ball(X0 - 0.01, Y0 + 0.3)
    with refused("not on the playing surface"):
        g.place_cue_ball(float("nan"), Y0 + 0.3)
    with refused("place_cue_ball: y: not a number"):
        g.place_cue_ball(X0 + 0.3, "up")
    assert g.to_json() == before


@pytest.mark.parametrize(
    "shot, match",
    [
        ({"speed": float("nan"), "aim": 0.0}, "speed: must be finite"),
        ({"speed": 2.0, "aim": float("inf")}, "aim: must be finite"),
        ({"speed": -1.0, "aim": 0.0}, "speed: must not be negative"),
        ({"speed": 15.5, "aim": 0.0}, "speed: must be at most 15"),
        ({"speed": 2.0, "aim": 0.0, "elevation": 90.0}, "elevation"),
        ({"speed": 2.0, "aim": 0.0, "english": 0.8, "follow": 0.8}, "english"),
        ({"speed": "fast", "aim": 0.0}, "speed: not a number"),
        (
            {"speed": 2.0, "aim": 0.0, "call": (1, "corner")},
            "call: pocket: 'corner' is no pocket",
        ),
        ({"speed": 2.0, "aim": 0.0, "call": "bank"}, 'call: "bank" is not'),
        ({"speed": 2.0, "aim": 0.0, "call": (1, 2, 3)}, "call: .* is not"),
        ({"speed": 2.0, "aim": 0.0, "call": (1, 6)}, "call: pocket: 6 is no pocket"),
        ({"speed": 2.0, "aim": 0.0, "call": (1, 2)}, "call: nine-ball calls no shot"),
    ],
)
def test_bad_shots_are_refused_and_change_nothing(shot, match):
    g = drill()
    before = g.to_json()
    with refused(match) as e:
        g.shoot(**shot)
    one_line(e)
    assert g.to_json() == before


def test_a_missing_call_is_refused_where_the_rules_call():
    # Ten-ball (WPA): every shot after the break is called.
    g = pool.Game(
        "ten-ball",
        layout={
            "cue": (X0 + 0.5, Y0 + 0.6),
            1: (X0 + 1.0, Y0 + 0.6),
            10: (X1 - 0.2, Y1 - 0.2),
        },
    )
    with refused("call: ten-ball calls every shot"):
        g.shoot(speed=2.0, aim=0.0)
    with refused("call: the called ball 5 is not on the table"):
        g.shoot(speed=2.0, aim=0.0, call=(5, "top-right"))
    g.shoot(speed=2.0, aim=0.0, call="safe")  # a safety is a call
    # Eight-ball: the 8 is called once the group is cleared; calling it earlier is
    # refused.
    e = pool.Game(
        "eight-ball",
        layout={
            "cue": (X0 + 0.5, Y0 + 0.6),
            8: (X0 + 1.0, Y0 + 0.6),
            3: (X1 - 0.2, Y1 - 0.2),
        },
    )
    with refused("the 8 may be called only"):
        e.shoot(speed=2.0, aim=0.0, call=(8, 2))
    with refused("call: pocket: the carom table has no pockets"):
        pool.Game("sum-to-three", seed=1).shoot(speed=2.0, aim=0.0, call=(1, 0))


def test_a_finished_game_refuses_shots():
    # The 9 alone, straight into the top-right corner: potted legally, it wins.
    def d(k):
        return (X1 - k, Y0 + 0.5 * k)

    g = pool.Game("nine-ball", layout={"cue": d(1.2), 9: d(0.6)})
    r = g.shoot(speed=2.0, aim=pool.aim(g, 9, "top-right"))
    assert r.game_over and r.winner == 0 and g.over
    with refused("the game is over"):
        g.shoot(speed=2.0, aim=0.0)
    with refused("the game is over"):
        pool.simulate_shots(g, [[2.0, 0, 0, 0, 0]])


@pytest.mark.parametrize(
    "shots, match",
    [
        (np.zeros((3, 4)), r"shots: expected shape \(n, 5\)"),
        (np.zeros(5), r"shots: expected shape \(n, 5\)"),
        (np.zeros((2, 5, 1)), r"shots: expected shape \(n, 5\)"),
        ([[1, 2, 3, 4, "x"]], "shots: not an array of numbers"),
        ([[2, 0, 0, 0, 0], [np.nan, 0, 0, 0, 0]], r"shots\[1\]: speed: must be finite"),
        ([[2, 0, 0, 0, 0], [2, 0, 0, 0, 0], [16, 0, 0, 0, 0]], r"shots\[2\]: speed"),
        ([[2, 0, 0.9, 0.9, 0]], r"shots\[0\]: english"),
    ],
)
def test_bad_batches_are_refused(shots, match):
    with refused(match) as e:
        pool.simulate_shots(drill(), shots)
    one_line(e)


def test_bad_batch_arguments_are_refused():
    g = drill()
    with refused("threads: must be a whole number"):
        pool.simulate_shots(g, [[2, 0, 0, 0, 0]], threads=-1)
    t = pool.Game(
        "ten-ball",
        layout={
            "cue": (X0 + 0.5, Y0 + 0.6),
            1: (X0 + 1.0, Y0 + 0.6),
            10: (X1 - 0.2, Y1 - 0.2),
        },
    )
    with refused("call: ten-ball calls every shot"):
        pool.simulate_shots(t, [[2, 0, 0, 0, 0]])


@pytest.mark.parametrize(
    "args, kwargs, match",
    [
        ((5,), {}, "aim: ball 5 is not on the table"),
        ((0,), {}, "aim: ball 0 is the ball the player to shoot strikes"),
        ((1, "middle"), {}, "aim: pocket: 'middle' is no pocket"),
        ((1, 7), {}, "aim: pocket: 7 is no pocket"),
        ((1,), {"solve": True}, "solve=True needs a pocket"),
        ((1, 2), {"solve": True, "speed": float("nan")}, "aim: speed: must be finite"),
        ((1, 2), {"solve": True, "speed": 20.0}, "aim: speed: must be at most 15"),
        ((1, 2), {"solve": True, "english": 1.0}, "aim: english"),
        ((-1,), {}, "aim: ball: must be a whole number"),
    ],
)
def test_bad_aims_are_refused_not_none(args, kwargs, match):
    with refused(match) as e:
        pool.aim(drill(), *args, **kwargs)
    one_line(e)


def test_bad_game_files_are_refused(tmp_path):
    with refused("cannot read the file"):
        pool.Game.load(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"version": 1')
    with refused("game file"):
        pool.Game.load(bad)
    g = drill()
    g.save(tmp_path / "g.json")
    text = (tmp_path / "g.json").read_text().replace('"player": 0', '"player": 3')
    bad.write_text(text)
    with refused("state.player must be 0 or 1"):
        pool.Game.load(bad)


def test_a_save_that_cannot_be_written_leaves_no_file(tmp_path):
    with pytest.raises(OSError):
        drill().save(tmp_path / "no-such-dir" / "g.json")
    assert not (tmp_path / "no-such-dir").exists()
