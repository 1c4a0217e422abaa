"""carom.pool: the choices the rules give the player to move (Game.options and
Game.choose), each played on the table with the engine: a push-out accepted and one
passed back, an illegal eight-ball break re-racked, snooker's miss with the balls
replaced and its free ball; a choice not on offer is a ScenarioError naming it."""

from __future__ import annotations

import json

import carom
import carom.pool as pool
import pytest

# The snooker table: 3569 x 1778 mm between the noses inside a 6 in rail.
RAIL = 6 * 0.0254
CX, CY = RAIL + 3.569 / 2, RAIL + 1.778 / 2


def broken_nine_ball() -> pool.Game:
    """A nine-ball game after a legal break that did not end it."""
    for seed in range(1, 40):
        g = pool.Game("nine-ball", seed=seed)
        r = g.shoot(speed=8.0, aim=0.0)
        if r.foul is None and not r.game_over:
            return g
    raise AssertionError("no legal break")


def push_out(g: pool.Game) -> pool.ShotResult:
    """A push-out: a soft roll towards the nearer end cushion."""
    assert "push-out" in g.options()
    g.choose("push-out")
    assert g.options() == []
    x = g.balls[0][0]
    return g.shoot(speed=0.5, aim=180.0 if x < 1.4 else 0.0)


def test_a_push_out_accepted_and_one_passed_back():
    g = broken_nine_ball()
    pusher = g.player
    r = push_out(g)
    assert r.foul is None
    assert r.options == ["accept", "pass-back"]
    assert g.options() == ["accept", "pass-back"]
    assert g.player == 1 - pusher
    accepted, passed = g.copy(), pool.Game.from_json(g.to_json())
    accepted.choose("accept")
    assert (accepted.player, accepted.options()) == (1 - pusher, [])
    passed.choose("pass-back")
    assert (passed.player, passed.options()) == (pusher, [])
    assert passed.balls == g.balls


def test_an_illegal_eight_ball_break_is_re_racked(tmp_path):
    g = pool.Game("eight-ball", seed=3)
    r = g.shoot(speed=1.2, aim=0.0)
    assert r.foul == "WPA legal break"
    assert g.options() == ["accept", "re-rack", "re-rack-offender"]
    g.save(tmp_path / "g.json")
    g = pool.Game.load(tmp_path / "g.json")
    assert g.options() == ["accept", "re-rack", "re-rack-offender"]
    g.choose("re-rack")
    assert (g.player, g.shots, g.ball_in_hand) == (1, 0, "behind-head-string")
    assert len(g.balls) == 16


def test_a_miss_with_the_balls_replaced():
    g = pool.Game(
        "snooker",
        layout={
            "cue": (CX - 0.6, CY),
            19: (CX, CY),
            1: (CX - 0.2, CY + 0.5),
            21: (CX + 1.2, CY - 0.3),
        },
        player=0,
    )
    before = g.balls
    r = g.shoot(speed=1.5, aim=0.0)
    assert r.foul == "WPBSA foul: ball not on struck first"
    assert "a miss" in r.foul_what
    assert "replace" in g.options()
    g.choose("replace")
    assert g.balls == before
    assert (g.player, g.scores) == (0, (0, 5))


def test_a_foul_that_snookers_offers_a_free_ball():
    g = pool.Game(
        "snooker",
        layout={"cue": (CX - 0.8, CY), 21: (CX, CY), 1: (CX + 1.0, CY)},
        player=0,
    )
    r = g.shoot(speed=0.4, aim=180.0)
    assert r.foul == "WPBSA foul: no ball struck"
    assert g.options() == ["accept", "pass-back", "free-ball"]
    g.choose("free-ball")
    assert g.options() == []


@pytest.mark.parametrize(
    "option, match",
    [
        ("free-ball", "free-ball is not on offer in nine-ball"),
        ("re-rack", "re-rack is not on offer in nine-ball"),
        ("wat", '"wat" is no choice'),
        (3, "expected an option's name"),
    ],
)
def test_a_choice_not_on_offer_is_refused_and_changes_nothing(option, match):
    g = broken_nine_ball()
    saved = g.to_json()
    with pytest.raises(carom.ScenarioError, match=match):
        g.choose(option)
    assert g.to_json() == saved


def test_an_equalising_inning_is_in_the_game_file():
    g = pool.Game("three-cushion", seed=1)
    state = json.loads(g.to_json())["state"]
    assert state["equalising"] is True
