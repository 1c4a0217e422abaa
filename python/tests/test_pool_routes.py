"""carom.pool's routes: kicks, combinations and banks solved with the engine in the
loop (``aim(..., kind=..., solve=True)``), the candidate list ``shots(g)``, and bad
route requests answered with a one-line ScenarioError that changes nothing."""

from __future__ import annotations

import carom
import carom.pool as pool
import pytest

X0 = 0.1524
Y0 = 0.1524


def snookered() -> pool.Game:
    """The 1 near the top-left pocket, the 2 straight between it and the cue ball."""
    return pool.Game(
        "nine-ball",
        layout={
            "cue": (X0 + 0.9, Y0 + 0.25),
            1: (X0 + 0.12, Y0 + 0.12),
            2: (X0 + 0.5, Y0 + 0.185),
        },
    )


def test_a_kick_meets_the_snookered_ball_first_and_pots_it():
    g = snookered()
    a = pool.aim(
        g, 1, "top-left", solve=True, speed=3.5, kind="kick", cushions=["bottom"]
    )
    assert a is not None
    guess = pool.aim(g, 1, "top-left", kind="kick", cushions=[3])
    assert guess is not None and abs(a - guess) < 6.0
    r = g.shoot(speed=3.5, aim=a)
    assert r.foul is None
    assert 1 in [p[1] for p in r.pocketed]


def test_a_combination_and_the_candidate_list():
    p = (X0 + 2.54, Y0)

    def at(d: float, off: float) -> tuple[float, float]:
        return (p[0] - d * 0.894 + off * 0.447, p[1] + d * 0.447 + off * 0.894)

    g = pool.Game(
        "nine-ball", layout={"cue": at(1.0, 0.03), 1: at(0.6, 0.0), 9: at(0.3, 0.0)}
    )
    a = pool.aim(g, 9, "top-right", solve=True, kind="combination", via=1)
    assert a is not None
    listed = pool.shots(g)
    assert "combination" in {s["kind"] for s in listed}
    combo = next(s for s in listed if s["kind"] == "combination")
    assert combo["ball"] == 9 and combo["via"] == 1 and combo["window"] > 0
    assert combo["cushions"] == []
    g.shoot(speed=combo["speed"], aim=combo["aim"], call=combo["call"])
    assert g.over and g.winner == 0


@pytest.mark.parametrize(
    ("kw", "match"),
    [
        ({"kind": "bank", "cushions": ["top"]}, "no path off the top cushion"),
        ({"kind": "bank", "cushions": [1, 1]}, "twice in a row"),
        ({"kind": "bank"}, "one or two cushions"),
        ({"kind": "kick", "cushions": ["side"]}, "no cushion"),
        ({"kind": "kick", "cushions": [7]}, "aim: cushions"),
        ({"kind": "combination"}, "needs the ball met first"),
        ({"kind": "combination", "via": 5}, "ball 5 is not on the table"),
        ({"kind": "masse"}, "no kind of shot"),
        ({"cushions": [0]}, "go with a kind"),
    ],
)
def test_bad_route_requests_are_one_line_scenario_errors(kw, match):
    g = snookered()
    before = g.to_json()
    with pytest.raises(carom.ScenarioError, match=match) as e:
        pool.aim(g, 1, "top-left", solve=True, **kw)
    assert "\n" not in str(e.value)
    assert g.to_json() == before


def test_a_ball_not_on_the_table_is_refused():
    g = snookered()
    with pytest.raises(carom.ScenarioError, match="ball 6 is not on the table"):
        pool.aim(g, 6, 0, solve=True, kind="bank", cushions=[3])
    assert pool.shots(pool.Game("three-cushion", seed=1)) == []
