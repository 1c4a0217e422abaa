"""The pool break to rest: carom's `pool` preset beside pooltool on the same shot.

carom: the `pool` preset as it ships (its model, cloth, table, pockets and cushions),
loaded, then `w.run` timed from the break until every ball is at rest or pocketed (that
length is found first, by a run that is not timed, in steps of 0.5 s).

pooltool (`pooltool-billiards`, the reference open-source pool simulator): the same
balls at the same places with the same velocities and spins just after the cue strike
(the preset's state at time 0), converted to metres (the scale from the ball's radius:
a pool ball's is 28.575 mm) and to pooltool's frame (z up, the table's length along y:
carom's (x, y) becomes pooltool's (y, x), which with z turned over is a rotation, so
the spins keep their sense: (wx, wy, omega) -> (wy, wx, -omega)); the preset's cloth,
ball restitution and cushion restitution as the balls' parameters (pooltool's defaults
for the rest). pooltool has one pocket table, the 7-ft Showood; it is used lengthened
to the preset's playing field (2.54 x 1.27 m, a 9-ft table), so its cushions, jaws and
pockets are the Showood's, not the preset's, and pooltool's default engine resolves the
impacts (ball-ball friction, Stronge's compliant cushions). The two runs therefore do
not end alike: the point is what a break to rest costs each engine.

pooltool is timed warm: its first call in the process (which loads numba's compiled
cache, or compiles on the first use after installing: about 20 s) is reported on its
own, then `pt.simulate` on a fresh copy of the system is timed, several runs, median.
For reference, pooltool's own 9-ball break (its rack with small random gaps, seeded;
the cue ball on the head string struck at 8 m/s at the 1 ball) on its 7-ft table is
timed the same way.

    "$(bash .ci/pooltool-env)" bench/pool_break.py [--runs 7]

(`.ci/pooltool-env` makes an environment with pooltool on top of this Python's
packages, carom included, and prints its interpreter: pooltool 0.6.0 cannot be
installed by a plain `pip install` on Linux, see there.) With pooltool missing the
script says so and exits with status 0, having timed nothing. carom comes from the
Python package (`pip install .`).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time

BALL_RADIUS_M = 0.028575  # a pool ball: 2.25 in across


def at_rest(state: dict) -> bool:
    for b in state["balls"]:
        if "removed" in b:
            continue
        if any(b.get(k, 0.0) != 0.0 for k in ("vx", "vy", "wx", "wy", "omega")):
            return False
    return True


def carom_rest_time(preset: str, chunk: float, limit: float) -> float:
    """The first multiple of `chunk` at which every ball of the preset is at rest."""
    import carom

    w = carom.World.load(preset)
    while w.time < limit:
        w.run(time=chunk)
        if at_rest(w.state()):
            return w.time
    raise SystemExit(f"carom: the {preset} preset is still moving at t = {limit} s")


def time_carom(preset: str, t_rest: float, runs: int):
    """Wall times of `w.run` to t_rest (the event log off, as a user runs it); then,
    from one more run with the log on, the number of events (impacts, phase changes,
    pocketings), the time of the last and the balls pocketed."""
    import carom

    times = []
    for _ in range(runs):
        w = carom.World.load(preset)
        t0 = time.perf_counter()
        w.run(time=t_rest)
        times.append(time.perf_counter() - t0)
    w = carom.World.load(preset)
    w.log_events(True)
    w.run(time=t_rest)
    log = w.events()["time"]
    pocketed = sum("removed" in b for b in w.state()["balls"])
    return times, len(log), float(max(log, default=0.0)), pocketed


def pooltool_shot(preset: str):
    """The preset's balls just after the strike as a pooltool System on the Showood
    table lengthened to the preset's playing field, and pooltool's default engine."""
    import attrs
    import carom
    import numpy as np
    import pooltool as pt
    from pooltool.objects.table.collection import TABLE_SPECS, TableName
    from pooltool.physics.engine import PhysicsEngine
    from pooltool.physics.resolve.resolver import default_resolver

    scenario = carom.World.load(preset).state()  # the balls just after the strike
    balls = scenario["balls"]
    k = BALL_RADIUS_M / balls[0]["r"]  # metres per scenario unit
    physics = scenario["physics"]
    friction = physics.get("friction", {})
    (x0, x1), (y0, y1) = playing_field(scenario)
    specs = attrs.evolve(
        TABLE_SPECS[TableName.SEVEN_FOOT_SHOWOOD], l=(x1 - x0) * k, w=(y1 - y0) * k
    )
    table = pt.Table.from_table_specs(specs)
    # The cloth as the balls' parameters (pooltool keeps them per ball), pooltool's
    # defaults for what the preset does not set.
    kind = friction.get("kind")
    cloth = {}
    g = 9.81
    if kind == "cloth":
        cloth = {
            "u_s": friction["sliding_mu"],
            "u_r": friction["rolling_mu"],
            # pooltool stores u_sp / R; carom's spinning_mu is u_sp itself.
            "u_sp_proportionality": friction["spinning_mu"] / BALL_RADIUS_M,
        }
        g = friction["g_normal"] * k
    elif kind == "dry":  # a constant deceleration mu g: pooltool's rolling resistance
        cloth = {"u_r": friction["mu"]}
        g = friction["g_normal"] * k
    walls = scenario.get("walls", [])
    cushion = {}
    if walls:
        cushion["e_c"] = walls[0].get("restitution", physics.get("restitution", 1.0))
        if walls[0].get("mu"):
            cushion["f_c"] = walls[0]["mu"]
    params = pt.BallParams(
        R=BALL_RADIUS_M, e_b=physics.get("restitution", 1.0), g=g, **cloth, **cushion
    )
    pballs = {}
    for i, b in enumerate(balls):
        # carom (x, y, z) -> pooltool (y, x, -z): a rotation. Spins: (wy, wx, -omega).
        rvw = np.array(
            [
                [(b["y"] - y0) * k, (b["x"] - x0) * k, BALL_RADIUS_M],
                [b.get("vy", 0.0) * k, b.get("vx", 0.0) * k, 0.0],
                [b.get("wy", 0.0), b.get("wx", 0.0), -b.get("omega", 0.0)],
            ]
        )
        ball = pt.Ball("cue" if i == 0 else str(i), params=params)
        v, w = rvw[1], rvw[2]
        slip = (v[0] - BALL_RADIUS_M * w[1], v[1] + BALL_RADIUS_M * w[0])
        if slip != (0.0, 0.0):
            s = pt.constants.sliding
        elif v.any():
            s = pt.constants.rolling
        else:
            s = pt.constants.spinning if w[2] else pt.constants.stationary
        ball.state = pt.objects.BallState(rvw, s, 0.0)
        pballs[ball.id] = ball
    system = pt.System(cue=pt.Cue(cue_ball_id="cue"), table=table, balls=pballs)
    return system, PhysicsEngine(resolver=default_resolver())


def playing_field(scenario: dict):
    """The playing field, ((x0, x1), (y0, y1)), between the cushions' noses: the
    longest straight piece of each wall inside the table is a cushion's nose, at a
    constant x or y; without such walls, the table itself."""
    xs, ys = set(), set()
    for wall in scenario.get("walls", []):
        points = wall.get("points", [])
        pieces = list(zip(points, points[1:], strict=False))
        if not pieces:
            continue
        (ax, ay), (bx, by) = max(pieces, key=lambda p: math.dist(p[0], p[1]))
        if ax == bx:
            xs.add(ax)
        elif ay == by:
            ys.add(ay)
    if len(xs) == 2 and len(ys) == 2:
        return tuple(sorted(xs)), tuple(sorted(ys))
    return (0.0, scenario["table"]["width"]), (0.0, scenario["table"]["height"])


def pooltool_own_break():
    """pooltool's 9-ball break as its sandbox sets it up: the rack on the 7-ft table
    with its small random gaps (seeded), the cue ball on the head string, struck at
    8 m/s at the 1 ball."""
    import numpy as np
    import pooltool as pt
    from pooltool.physics.engine import PhysicsEngine
    from pooltool.physics.resolve.resolver import default_resolver

    np.random.seed(0)
    table = pt.Table.default()
    balls = pt.get_rack(pt.GameType.NINEBALL, table)
    balls["cue"] = pt.Ball.create("cue", xy=(table.w / 2, table.l / 4))
    system = pt.System(cue=pt.Cue(cue_ball_id="cue"), table=table, balls=balls)
    system.cue.set_state(V0=8.0, phi=pt.aim.at_ball(system, "1"))
    return system, PhysicsEngine(resolver=default_resolver())


def time_pooltool(system, engine, runs: int):
    import pooltool as pt

    t0 = time.perf_counter()
    done = pt.simulate(system, engine=engine)
    first = time.perf_counter() - t0
    times = []
    for _ in range(runs):
        copy = system.copy()
        t0 = time.perf_counter()
        done = pt.simulate(copy, engine=engine, inplace=True)
        times.append(time.perf_counter() - t0)
    pocketed = sum(b.state.s == pt.constants.pocketed for b in done.balls.values())
    events = sum(e.event_type != pt.EventType.NONE for e in done.events)
    return first, times, events, done.t, pocketed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7, help="timed runs per engine")
    ap.add_argument("--preset", default="pool")
    a = ap.parse_args()

    try:
        import pooltool as pt
    except ImportError:
        print(
            "pooltool is not installed (pip package pooltool-billiards): nothing "
            'timed. Run it as "$(bash .ci/pooltool-env)" bench/pool_break.py',
            file=sys.stderr,
        )
        sys.exit(0)
    import carom

    print("load average before: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    physics = carom.World.load(a.preset).state()["physics"]
    label = f"carom, {a.preset} ({physics['model']}, {physics['friction']['kind']})"
    rows = []
    t_rest = carom_rest_time(a.preset, 0.5, 120.0)
    times, events, t_last, pocketed = time_carom(a.preset, t_rest, a.runs)
    rows.append((label, "-", times, events, t_last, pocketed))

    system, engine = pooltool_shot(a.preset)
    first, times, events, t_end, pocketed = time_pooltool(system, engine, a.runs)
    rows.append(
        (f"pooltool {pt.__version__}, same shot", first, times, events, t_end, pocketed)
    )

    system, engine = pooltool_own_break()
    first, times, events, t_end, pocketed = time_pooltool(system, engine, a.runs)
    rows.append(
        (
            f"pooltool {pt.__version__}, its 9-ball break",
            first,
            times,
            events,
            t_end,
            pocketed,
        )
    )

    print(
        f"{'run':<40} {'first call':>10} {'median':>10} {'min':>10} "
        f"{'events':>7} {'rest at':>8} {'pocketed':>8}"
    )
    for name, first, times, events, t_end, pocketed in rows:
        first_s = first if isinstance(first, str) else f"{first * 1e3:.1f} ms"
        print(
            f"{name:<40} {first_s:>10} {statistics.median(times) * 1e3:>7.2f} ms "
            f"{min(times) * 1e3:>7.2f} ms {events:>7} {t_end:>7.2f}s {pocketed:>8}"
        )
    print(
        f"({a.runs} runs each; carom's time is its engine's `w.run`, pooltool's "
        "`pt.simulate` on a copy; 'first call': pooltool's first in this process, "
        "numba's cache loaded; events: impacts, phase changes, pocketings; rest at: "
        "the last event)"
    )


if __name__ == "__main__":
    main()
