"""carom.pool: games, shots, aiming and batches from Python, checked against the
table's specification (WPA), the rules' text and the engine shooting one by one."""

from __future__ import annotations

import copy
import math
import pickle
import subprocess
import sys
import threading

import carom
import carom.pool as pool
import numpy as np
import pytest

# The WPA 9-ft table: playing surface 100 x 50 in between the noses, 2.25 in balls; the
# games' tables put a 6 in rail around it (docs/games.md), so the surface starts at
# (6 in, 6 in).
INCH = 0.0254
RAIL = 6 * INCH
X0, Y0 = RAIL, RAIL
X1, Y1 = RAIL + 100 * INCH, RAIL + 50 * INCH
R = 1.125 * INCH


def straight_in() -> pool.Game:
    """The cue ball, the 1 and the top-right corner pocket on one line at 26.6 degrees
    to the long cushion (the 9 far away, so that potting the 1 does not end the
    game)."""

    def d(k: float) -> tuple[float, float]:
        return (X1 - k, Y0 + 0.5 * k)

    return pool.Game(
        "nine-ball",
        layout={"cue": d(1.2), 1: d(0.6), 9: (X0 + 0.3, Y1 - 0.2)},
        player=0,
    )


def test_a_rack_follows_the_wpa_table_and_its_seed():
    g = pool.Game("nine-ball", seed=1)
    assert g.name == "nine-ball" and g.table == "pool-9ft"
    assert g.numbers == list(range(10))
    assert sorted(g.balls) == list(range(10))
    assert g.player == 0 and g.scores == (0, 0) and not g.over and g.winner is None
    # WPA: the breaker has the cue ball in hand behind the head string.
    assert g.ball_in_hand == "behind-head-string"
    # The 1 at the apex, on the foot spot: a quarter of the length from the foot
    # cushion, on the long axis (exactly: the apex is the one ball not jittered).
    foot = (X0 + 0.75 * (X1 - X0), 0.5 * (Y0 + Y1))
    assert g.balls[1] == pytest.approx(foot, abs=1e-12)
    # Tight but never overlapping: every pair at least two radii apart.
    p = np.array(list(g.balls.values()))
    d = np.hypot(*(p[:, None, :] - p[None, :, :]).transpose(2, 0, 1))
    assert d[np.triu_indices(len(p), 1)].min() >= 2 * R
    assert pool.Game("nine-ball", seed=1).balls == g.balls
    assert pool.Game("nine-ball", seed=2).balls != g.balls


def test_the_world_is_the_table_now():
    g = pool.Game("nine-ball", seed=3)
    w = g.world
    assert isinstance(w, carom.World)
    assert len(w) == 10 and w.model == "event"
    assert np.array_equal(w.positions, np.array(list(g.balls.values())))
    assert np.allclose(w.radii, R, rtol=1e-12)
    assert len(w.pockets) == 6


def test_pockets_are_the_six_named_mouths():
    g = pool.Game("nine-ball", seed=1)
    ps = pool.pockets(g)
    assert [name for name, _ in ps] == [
        "top-left",
        "top-side",
        "top-right",
        "bottom-left",
        "bottom-side",
        "bottom-right",
    ]
    # docs/games.md: a corner pocket's circle centre lies 0.174 mouths (mouth 4.5625 in)
    # beyond the noses' corner along each axis; a side pocket's 0.308 mouths (5.0625 in)
    # behind the nose at mid-length. Three significant digits: 0.001 mouth (0.1 mm).
    corner, side = 4.5625 * INCH, 5.0625 * INCH
    tol = 0.001 * side
    top_left = dict(ps)["top-left"]
    assert top_left == pytest.approx(
        (X0 - 0.174 * corner, Y0 - 0.174 * corner), abs=tol
    )
    bottom_right = dict(ps)["bottom-right"]
    assert bottom_right == pytest.approx(
        (X1 + 0.174 * corner, Y1 + 0.174 * corner), abs=tol
    )
    top_side = dict(ps)["top-side"]
    assert top_side == pytest.approx((0.5 * (X0 + X1), Y0 - 0.308 * side), abs=tol)


def test_a_straight_in_shot_pots_and_keeps_the_turn():
    g = straight_in()
    assert g.ball_in_hand is None and g.shots == 1
    k = [name for name, _ in pool.pockets(g)].index("top-right")
    # The ghost-ball aim of a straight-in shot is the line of the two balls, from the
    # cue ball (X1 - 1.2, Y0 + 0.6) to the 1 (X1 - 0.6, Y0 + 0.3); the pocket's centre
    # lies a little off that line (within a few tenths of a degree, aim.rs's test).
    line = math.degrees(math.atan2(-0.3, 0.6))
    a = pool.aim(g, 1, "top-right")
    assert abs(a - line) < 3.0
    # Without a pocket: at the ball's centre, exactly the line.
    assert pool.aim(g, 1) == pytest.approx(line, abs=1e-9)
    r = g.shoot(speed=2.0, aim=a)
    # WPA 9-ball: the lowest ball met first and pocketed legally keeps the turn.
    assert r.first_contact == 1
    assert [(b, p) for _, b, p in r.pocketed] == [(1, k)]
    assert r.foul is None and not r.turn_over and r.next_player == 0
    assert r.shooter == 0 and r.points == (0, 0) and not r.game_over
    assert 1 not in g.balls and g.player == 0
    assert r.verdict.startswith("legal")
    # The event log names balls by their numbers: a ball-ball row between 0 and 1, a
    # pocket row for the 1 in pocket k.
    ev = r.events
    ball_rows = ev["kind"] == "ball"
    assert {
        tuple(sorted(p))
        for p in zip(ev["i"][ball_rows], ev["j"][ball_rows], strict=True)
    } == {(0, 1)}
    pocket_rows = ev["kind"] == "pocket"
    assert list(ev["i"][pocket_rows]) == [1] and list(ev["pocket"][pocket_rows]) == [k]


def test_wrong_ball_first_is_a_foul_with_ball_in_hand_for_the_opponent():
    # The 2 straight ahead of the cue ball, the 1 (the lowest, the ball on) aside.
    g = pool.Game(
        "nine-ball",
        layout={
            "cue": (X0 + 0.5, Y0 + 0.6),
            2: (X0 + 1.0, Y0 + 0.6),
            1: (X1 - 0.2, Y0 + 0.2),
            9: (X1 - 0.2, Y1 - 0.2),
        },
    )
    r = g.shoot(speed=1.5, aim=0.0)
    assert r.first_contact == 2
    assert r.foul is not None and "6.2" in r.foul  # WPA 6.2 wrong ball first
    assert r.turn_over and r.next_player == 1 and g.player == 1
    assert g.ball_in_hand == "anywhere" and r.ball_in_hand == "anywhere"
    # Ball in hand: anywhere on the surface clear of the balls.
    g.place_cue_ball(X0 + 0.2, Y1 - 0.3)
    assert g.balls[0] == (X0 + 0.2, Y1 - 0.3)
    with pytest.raises(carom.ScenarioError, match="overlaps ball"):
        x, y = g.balls[1]
        g.place_cue_ball(x + R, y)


def test_the_break_places_the_cue_ball_behind_the_head_string_only():
    g = pool.Game("nine-ball", seed=1)
    head_string = X0 + 0.25 * (X1 - X0)
    g.place_cue_ball(head_string - 0.01, Y0 + 0.4)
    with pytest.raises(ValueError, match="head string"):
        g.place_cue_ball(head_string + 0.05, Y0 + 0.4)


def test_a_saved_game_resumes_exactly(tmp_path):
    g = pool.Game("nine-ball", seed=7)
    g.shoot(speed=9.0, aim=pool.aim(g, 1), english=0.1)
    path = tmp_path / "game.json"
    g.save(path)
    h = pool.Game.load(path)
    assert h.to_json() == g.to_json()
    assert h.balls == g.balls and h.player == g.player
    shot = {"speed": 3.3, "aim": 17.25, "english": -0.2, "follow": 0.3, "elevation": 5}
    if g.ball_in_hand:
        g.place_cue_ball(X0 + 0.3, Y0 + 0.3)
        h.place_cue_ball(X0 + 0.3, Y0 + 0.3)
    a, b = g.shoot(**shot), h.shoot(**shot)
    # To the bit: times, pockets, final positions and the whole event log.
    assert a.cushions == b.cushions and a.pocketed == b.pocketed
    assert a.verdict == b.verdict and g.balls == h.balls
    for key, column in a.events.items():
        floats = column.dtype.kind == "f"
        assert np.array_equal(column, b.events[key], equal_nan=floats), key
    assert g.to_json() == h.to_json()


def test_the_solved_aim_pots_and_a_hopeless_ball_has_none():
    g = straight_in()
    a = pool.aim(g, 1, "top-right", solve=True, speed=2.0)
    assert a is not None
    r = g.copy().shoot(speed=2.0, aim=a)
    k = [name for name, _ in pool.pockets(g)].index("top-right")
    assert (1, k) in [(b, p) for _, b, p in r.pocketed]
    # At 0.2 m/s the cue ball rolls about v^2 / (2 mu_roll g) ~ 0.2 m with sliding
    # first (docs/pool.md): it never reaches a ball 0.6 m away, so no aim pots.
    assert pool.aim(g, 1, "top-right", solve=True, speed=0.2) is None


def random_shots(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    shots = np.empty((n, 5))
    shots[:, 0] = rng.uniform(0.5, 8.0, n)
    shots[:, 1] = rng.uniform(-180, 180, n)
    shots[:, 2] = rng.uniform(-0.4, 0.4, n)
    shots[:, 3] = rng.uniform(-0.4, 0.4, n)
    shots[:, 4] = rng.uniform(0, 20, n)
    return shots


def test_simulate_shots_equals_one_by_one_on_any_thread_count():
    g = pool.Game("nine-ball", seed=11)
    g.shoot(speed=9.0, aim=pool.aim(g, 1))
    if g.ball_in_hand or g.over:
        pytest.skip("the break ended with ball in hand or the game over")
    same_as_alone(g, random_shots(24, 5))


def test_a_shot_the_engine_gives_up_on_leaves_the_others_standing():
    # Breaks from seed 1's rack; the last one (found by bench/pool_shots.py) has the
    # event model give up (its event budget) with the 8 caught in a corner's jaws. If
    # the engine learns to finish it, the row is an ordinary one: the test holds
    # either way.
    g = pool.Game("nine-ball", seed=1)
    shots = np.array(
        [[8.0, pool.aim(g, 1) + d, 0, 0, 0] for d in (-0.5, 0.0, 0.5)]
        + [[7.293108773922371, 0.7213905010955843, 0.0, 0.02541957315160065, 0.0]]
    )
    same_as_alone(g, shots)


def same_as_alone(g: pool.Game, shots: np.ndarray) -> None:
    """simulate_shots on 1 and 2 threads equals shooting each shot from a copy."""
    before = g.to_json()
    one = pool.simulate_shots(g, shots, threads=1)
    two = pool.simulate_shots(g, shots, threads=2)
    assert g.to_json() == before  # the game itself unchanged
    for key in one:
        floats = one[key].dtype.kind == "f"
        assert np.array_equal(one[key], two[key], equal_nan=floats), key
    balls = list(one["balls"])
    assert balls == list(g.balls)
    n, nb = len(shots), len(balls)
    assert one["pocketed"].shape == (n, nb) and one["positions"].shape == (n, nb, 2)
    for k, s in enumerate(shots):
        h = g.copy()
        if one["error"][k]:
            with pytest.raises(carom.SimulationError) as e:
                h.shoot(*s)
            assert str(e.value) == one["error"][k]
            assert one["first_contact"][k] == -1 and (one["pocketed"][k] == -1).all()
            assert np.isnan(one["positions"][k]).all()
            continue
        r = h.shoot(*s)
        first = -1 if r.first_contact is None else r.first_contact
        assert one["first_contact"][k] == first
        assert one["foul"][k] == (r.foul is not None)
        assert one["points"][k] == r.points[r.shooter]
        assert one["turn_over"][k] == r.turn_over
        assert one["game_over"][k] == r.game_over
        down = {b: p for _, b, p in r.pocketed}
        for c, b in enumerate(balls):
            assert one["pocketed"][k, c] == down.get(b, -1)
            assert one["cushions"][k, c] == sum(1 for _, m in r.cushions if m == b)
            if b in down:
                assert np.isnan(one["positions"][k, c]).all()
            else:
                # Where the ball stopped, which is where the game keeps it (the rules
                # move only pocketed balls).
                assert tuple(one["positions"][k, c]) == h.balls[b]


def test_simulate_shots_calls_one_after_another_and_at_once_agree():
    # The module keeps its batch simulator between calls (its threads, their storage,
    # the results' lists): each call's columns are those of a first call, whatever
    # positions, tables and lengths came before, and two Python threads calling at
    # once (one of them then makes its own batch) get their own positions' columns.
    nine = pool.Game("nine-ball", seed=3)
    snooker = pool.Game("snooker", seed=4)
    shots = random_shots(30, 12)
    first = {
        name: pool.simulate_shots(g, shots[:n], threads=2)
        for name, g, n in (("nine", nine, 30), ("snooker", snooker, 17))
    }

    def equal(a, b):
        for key in a:
            floats = a[key].dtype.kind == "f"
            assert np.array_equal(a[key], b[key], equal_nan=floats), key

    again = (("snooker", snooker, 17), ("nine", nine, 30), ("snooker", snooker, 17))
    for name, g, n in again:
        equal(pool.simulate_shots(g, shots[:n], threads=2), first[name])
    got = {}

    def work(name, g, n):
        got[name] = [pool.simulate_shots(g, shots[:n], threads=2) for _ in range(3)]

    threads = [
        threading.Thread(target=work, args=("nine", nine, 30)),
        threading.Thread(target=work, args=("snooker", snooker, 17)),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for name in ("nine", "snooker"):
        for columns in got[name]:
            equal(columns, first[name])


def _columns_in_child(queue, shots):
    g = pool.Game("nine-ball", seed=3)
    queue.put(pool.simulate_shots(g, shots, threads=2)["positions"])


@pytest.mark.skipif(sys.platform != "linux", reason="fork is Linux's default")
def test_simulate_shots_in_a_forked_child_after_the_parent_used_it():
    # The parent's kept batch simulator holds a thread pool whose threads a forked
    # child does not inherit: the child must make its own, not wait on them.
    import multiprocessing

    g = pool.Game("nine-ball", seed=3)
    shots = random_shots(12, 21)
    mine = pool.simulate_shots(g, shots, threads=2)["positions"]
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=_columns_in_child, args=(queue, shots))
    child.start()
    theirs = queue.get(timeout=60)
    child.join(timeout=60)
    assert child.exitcode == 0
    assert np.array_equal(theirs, mine, equal_nan=True)


def test_simulate_shots_releases_the_gil():
    g = pool.Game("nine-ball", seed=2)
    shots = random_shots(300, 9)
    state = {"started": False, "done": False}

    def work():
        state["started"] = True
        pool.simulate_shots(g, shots, threads=1)
        state["done"] = True

    t = threading.Thread(target=work)
    count = 0
    t.start()
    while not state["done"]:
        if state["started"]:
            count += 1
    t.join()
    # 300 breaks take a good fraction of a second; holding the GIL, this thread could
    # run only in the few bytecodes between `started` and the call (a switch comes
    # every 5 ms at most), i.e. a handful of iterations. Released, it spins freely:
    # hundreds of thousands.
    assert count > 10_000, count


def test_without_gymnasium_the_games_work_and_env_says_what_is_missing():
    code = (
        "import sys; sys.modules['gymnasium'] = None\n"
        "import carom.pool as pool\n"
        "g = pool.Game('sum-to-three', seed=2); g.shoot(speed=2.0, aim=10.0)\n"
        "try:\n"
        "    pool.Env('nine-ball')\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert "needs gymnasium" in out.stdout


def test_a_game_pickles_and_copies_exactly():
    g = pool.Game("snooker", seed=4)
    g.shoot(speed=3.0, aim=pool.aim(g, 1))
    for h in (pickle.loads(pickle.dumps(g)), copy.deepcopy(g), g.copy()):
        assert h.to_json() == g.to_json() and h is not g
        a = h.shoot(speed=2.0, aim=33.0) if not h.ball_in_hand else None
        if a is not None:
            assert h.to_json() != g.to_json()  # independent of the original
