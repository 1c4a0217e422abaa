"""Shots per second: `carom.pool.simulate_shots` beside pooltool on the same shots.

Two positions on the WPA 9-ft table (playing surface 2.54 x 1.27 m):
- `break`: nine-ball racked from seed 1 (`pool.Game("nine-ball", seed=1)`), the cue
  ball on the head spot, breaks at 7 to 9 m/s within a degree of the 1;
- `mid-game`: a fixed drill of the cue ball and five object balls (below), shots at
  1 to 4 m/s in every direction with tip offsets up to 0.3 radii and no elevation.
The shots are drawn from a seeded generator (`--seed`), the same for both engines.

carom: `pool.simulate_shots(g, shots, threads=T)` for T = 1 and 2 (the games layer:
each shot's world built from the position, run to rest by the `event` model with the
event log on, its facts read and judged by the rules), timed over all the shots,
several runs (`--runs`), median.

pooltool (`pooltool-billiards`, the reference open-source pool simulator): the same
balls at the same places on its Showood table lengthened to 2.54 x 1.27 m (its
cushions, jaws and pockets, not ours; see bench/pool_break.py), in its frame (carom's
(x, y) from the noses' corner becomes its (y, x); an aim of a degrees becomes its
phi = 90 - a), struck with its cue (`V0` the cue speed, `a` english, `b` follow,
`theta` elevation) and simulated to rest by `pt.simulate` with its default engine,
one shot after another on one core (`--pooltool-shots` of them: pooltool is slow),
warm (the first call, which loads numba's cache, is not counted).

The two engines do not end alike (different cushions, pockets and contact models):
the point is what a shot costs each. Per core: carom's one-thread rate against
pooltool's.

    "$(bash .ci/pooltool-env)" bench/pool_shots.py [--shots 2000] [--runs 5]

carom comes from the Python package (`pip install .`). With pooltool missing, carom's
rates alone are printed.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time

import numpy as np

INCH = 0.0254
RAIL = 6 * INCH  # the games' tables: a 6 in rail around the playing surface
LENGTH, WIDTH = 100 * INCH, 50 * INCH

# The mid-game drill, metres from the noses' corner: the cue ball and five balls
# spread over the table, as after a break and a few shots.
MID_GAME = {
    "cue": (0.80, 0.55),
    2: (1.45, 0.30),
    4: (1.90, 0.95),
    5: (0.40, 1.05),
    7: (2.20, 0.25),
    9: (1.30, 0.80),
}


def positions() -> dict:
    import carom.pool as pool

    brk = pool.Game("nine-ball", seed=1)
    mid = pool.Game(
        "nine-ball",
        layout={k: (RAIL + x, RAIL + y) for k, (x, y) in MID_GAME.items()},
    )
    return {"break": brk, "mid-game": mid}


def shots_for(name: str, g, n: int, rng: np.random.Generator) -> np.ndarray:
    import carom.pool as pool

    s = np.zeros((n, 5))
    if name == "break":
        s[:, 0] = rng.uniform(7.0, 9.0, n)
        s[:, 1] = pool.aim(g, 1) + rng.uniform(-1.0, 1.0, n)
        s[:, 3] = rng.uniform(-0.2, 0.2, n)
    else:
        s[:, 0] = rng.uniform(1.0, 4.0, n)
        s[:, 1] = rng.uniform(-180.0, 180.0, n)
        r = 0.3 * np.sqrt(rng.uniform(0, 1, n))
        t = rng.uniform(0, 2 * math.pi, n)
        s[:, 2], s[:, 3] = r * np.cos(t), r * np.sin(t)
    return s


def time_carom(g, shots: np.ndarray, threads: int, runs: int) -> list[float]:
    import carom.pool as pool

    pool.simulate_shots(g, shots[:10], threads=threads)  # warm the caches
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        pool.simulate_shots(g, shots, threads=threads)
        times.append(time.perf_counter() - t0)
    return times


def pooltool_system(g):
    """The game's balls at rest on pooltool's Showood table lengthened to ours."""
    import attrs
    import pooltool as pt
    from pooltool.objects.table.collection import TABLE_SPECS, TableName

    specs = attrs.evolve(TABLE_SPECS[TableName.SEVEN_FOOT_SHOWOOD], l=LENGTH, w=WIDTH)
    table = pt.Table.from_table_specs(specs)
    balls = {}
    for n, (x, y) in g.balls.items():
        name = "cue" if n == 0 else str(n)
        balls[name] = pt.Ball.create(name, xy=(y - RAIL, x - RAIL))
    return pt.System(cue=pt.Cue(cue_ball_id="cue"), table=table, balls=balls)


def time_pooltool(g, shots: np.ndarray) -> tuple[float, list[float]]:
    import pooltool as pt
    from pooltool.physics.engine import PhysicsEngine
    from pooltool.physics.resolve.resolver import default_resolver

    engine = PhysicsEngine(resolver=default_resolver())
    base = pooltool_system(g)

    def one(s) -> float:
        system = base.copy()
        system.cue.set_state(
            V0=float(s[0]),
            phi=90.0 - float(s[1]),
            a=float(s[2]),
            b=float(s[3]),
            theta=float(s[4]),
        )
        t0 = time.perf_counter()
        pt.simulate(system, engine=engine, inplace=True)
        return time.perf_counter() - t0

    first = one(shots[0])
    return first, [one(s) for s in shots]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shots", type=int, default=2000, help="carom's shots per run")
    ap.add_argument("--runs", type=int, default=5, help="carom's timed runs")
    ap.add_argument("--pooltool-shots", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    try:
        import pooltool as pt
    except ImportError:
        pt = None
        print(
            "pooltool is not installed: carom alone. Run it as "
            '"$(bash .ci/pooltool-env)" bench/pool_shots.py for both.',
            file=sys.stderr,
        )
    print("load average before: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    print(f"{'position':<10} {'engine':<28} {'shots':>6} {'shots/s':>10}")
    for name, g in positions().items():
        rng = np.random.default_rng(a.seed)
        shots = shots_for(name, g, a.shots, rng)
        rate1 = 0.0
        for threads in (1, 2):
            t = statistics.median(time_carom(g, shots, threads, a.runs))
            rate = len(shots) / t
            rate1 = rate1 or rate
            label = f"carom, {threads} thread{'s' if threads > 1 else ''}"
            print(f"{name:<10} {label:<28} {len(shots):>6} {rate:>10.0f}")
        if pt is not None:
            some = shots[: a.pooltool_shots]
            first, times = time_pooltool(g, some)
            rate = len(times) / sum(times)
            label = f"pooltool {pt.__version__}, 1 core"
            print(f"{name:<10} {label:<28} {len(times):>6} {rate:>10.1f}")
            print(
                f"{name:<10} {'carom / pooltool per core':<28} {'':>6} "
                f"{rate1 / rate:>10.0f}   (pooltool's first call {first:.2f} s)"
            )
    print("load average after: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
