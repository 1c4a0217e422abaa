"""pymunk on carom's benchmark gas, and carom beside it on the same scene.

The scene is the benchmark's `gas` (bench/src/child.rs, `gas`; rapier2d gets the same
balls in bench/src/peer.rs): N disks of radius 1 and mass 1 at area fraction 0.3 in a
square box of side sqrt(N pi / 0.3), one per cell of a jittered square grid filled row
by row, velocities uniform in [-1, 1]^2, drawn by the preset's SplitMix64 (seed 1) in
the generator's order, so the start is carom's to the bit. In pymunk: one dynamic body
and circle per disk, elasticity 1 (pymunk multiplies the two shapes' values), friction
0, no gravity, no damping, the box's four sides as static segments, `dt = 0.01`, every
other setting at its default (10 solver iterations, collision slop 0.1, the
bounding-box tree as spatial index: `--index hash` measured slower here). Each
engine runs 200 steps from the start before the timed steps (the benchmark's warm-up),
then STEPS steps are timed.

    python3 bench/pymunk_gas.py --n 10000,100000 --runs 5
    python3 bench/pymunk_gas.py --n 10000,100000 --runs 5 \\
        --carom target/release/carom --carom-threads 1,2

The first prints pymunk's wall time per step and steps/s; with `--carom` the same
number of steps of carom's spring model (`carom run` on the warmed state, the rate its
summary line reports: the stepping loop, loading excluded) alternates with pymunk's,
run by run, and the table gives the ratio of medians. Every run is a fresh process.
Build carom first: `cargo build --release -p carom-cli`.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

# The `gas` preset (crates/carom/presets/gas.toml).
RADIUS = 1.0
MASS = 1.0
AREA_FRACTION = 0.3
SPEED = 1.0
SEED = 1
DT = 0.01
WARMUP_STEPS = 200

U64 = np.uint64


def splitmix64_symmetric(seed: int, count: int) -> np.ndarray:
    """The first `count` draws of carom's SplitMix64 from `seed`, in [-1, 1)."""
    k = np.arange(1, count + 1, dtype=U64)
    with np.errstate(over="ignore"):
        z = U64(seed) + k * U64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> U64(30))) * U64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> U64(27))) * U64(0x94D049BB133111EB)
    z = z ^ (z >> U64(31))
    unit = (z >> U64(11)).astype(np.float64) * (1.0 / float(1 << 53))
    return 2.0 * unit - 1.0


def gas(n: int) -> tuple[float, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """carom's gas generator: the box side and x, y, vx, vy of every ball."""
    side = math.sqrt(n * math.pi * RADIUS * RADIUS / AREA_FRACTION)
    cols = max(math.ceil(math.sqrt(n * side / side)), 1)
    rows = -(-n // cols)
    cw, ch = side / cols, side / rows
    jx, jy = 0.5 * cw - RADIUS, 0.5 * ch - RADIUS
    r = splitmix64_symmetric(SEED, 4 * n).reshape(n, 4)
    k = np.arange(n)
    x = ((k % cols).astype(np.float64) + 0.5) * cw + jx * r[:, 0]
    y = ((k // cols).astype(np.float64) + 0.5) * ch + jy * r[:, 1]
    return side, x, y, SPEED * r[:, 2], SPEED * r[:, 3]


def pymunk_space(n: int, threads: int, index: str):
    import pymunk

    side, x, y, vx, vy = gas(n)
    space = pymunk.Space(threaded=threads > 1)
    if threads > 1:
        space.threads = threads
    space.gravity = (0.0, 0.0)
    space.damping = 1.0
    if index == "hash":
        # Cells of one diameter, about ten cells a ball (pymunk's advice for many
        # objects of one size).
        space.use_spatial_hash(2.0 * RADIUS, 10 * n)
    corners = [(0.0, 0.0), (side, 0.0), (side, side), (0.0, side)]
    objects: list = []
    for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
        wall = pymunk.Segment(space.static_body, a, b, 0.0)
        wall.elasticity, wall.friction = 1.0, 0.0
        objects.append(wall)
    bodies = []
    moment = pymunk.moment_for_circle(MASS, 0.0, RADIUS)
    for i in range(n):
        body = pymunk.Body(MASS, moment)
        body.position = (float(x[i]), float(y[i]))
        body.velocity = (float(vx[i]), float(vy[i]))
        disk = pymunk.Circle(body, RADIUS)
        disk.elasticity, disk.friction = 1.0, 0.0
        objects += (body, disk)
        bodies.append(body)
    space.add(*objects)
    return space, bodies


def kinetic(bodies: list) -> float:
    return sum(0.5 * b.mass * b.velocity.length_squared for b in bodies)


def pymunk_one(n: int, steps: int, threads: int, index: str) -> dict:
    """One pymunk run in this process: warm-up, then `steps` timed steps."""
    space, bodies = pymunk_space(n, threads, index)
    for _ in range(WARMUP_STEPS):
        space.step(DT)
    e0 = kinetic(bodies)
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(steps):
        space.step(DT)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return {
        "seconds": wall,
        "cpu_seconds": cpu,
        "drift": (kinetic(bodies) - e0) / e0,
        "bytes_per_ball": peak / n,
    }


def pymunk_run(n: int, steps: int, threads: int, index: str) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--one", str(n), str(steps), str(threads), index],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out)


def carom_warm(exe: str, n: int, folder: Path) -> Path:
    """carom's gas after the warm-up steps, as a state file to resume from."""
    state = folder / f"gas-{n}.json"
    subprocess.run(
        [exe, "run", "gas", "--set", f"generators.0.n={n}"]
        + ["--steps", str(WARMUP_STEPS), "--out", str(state), "--quiet"],
        check=True,
    )
    return state


def carom_run(exe: str, state: Path, steps: int, threads: int) -> dict:
    out = subprocess.run(
        [exe, "run", str(state), "--steps", str(steps), "--threads", str(threads)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    m = re.search(r"wall time\s+([0-9.e+-]+) s, ([0-9.e+-]+) ball-steps/s", out)
    if m is None:
        raise SystemExit(f"no wall time in carom's summary:\n{out}")
    return {"seconds": float(m.group(1))}


def default_steps(n: int) -> int:
    """Steps for about 2 x 10^6 ball-steps, at least 20."""
    return max(20, 2_000_000 // n)


def ints(text: str) -> list[int]:
    return [int(float(v)) for v in text.split(",")]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", default="10000,100000", help="ball counts, comma-separated")
    ap.add_argument("--steps", type=int, help="timed steps (default: 2e6 / N, >= 20)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1, help="pymunk's threads")
    ap.add_argument(
        "--index",
        choices=["tree", "hash"],
        default="tree",
        help="pymunk's spatial index: its default bounding-box tree (the faster "
        "here) or a spatial hash of cells one diameter wide",
    )
    ap.add_argument("--carom", help="a carom binary: time carom beside pymunk")
    ap.add_argument("--carom-threads", default="1", help="carom's thread counts")
    ap.add_argument("--one", nargs=4, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.one:
        n, steps, threads, index = a.one
        print(json.dumps(pymunk_one(int(n), int(steps), int(threads), index)))
        return

    import pymunk

    library = pymunk.chipmunk_version.split("-")[0]
    print(f"pymunk {pymunk.version} (C library {library}), {a.index} index, ", end="")
    print(f"{a.threads} thread(s); load average before:", end="")
    print(" {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in ints(a.n):
            steps = a.steps or default_steps(n)
            state = carom_warm(a.carom, n, Path(tmp)) if a.carom else None
            carom_threads = ints(a.carom_threads) if a.carom else []
            py: list[dict] = []
            cr: dict[int, list[dict]] = {t: [] for t in carom_threads}
            for run in range(a.runs):
                # Alternate which engine goes first, so that load hits both alike.
                order = ["pymunk"] + carom_threads
                for who in order if run % 2 == 0 else order[::-1]:
                    if who == "pymunk":
                        py.append(pymunk_run(n, steps, a.threads, a.index))
                    else:
                        cr[who].append(carom_run(a.carom, state, steps, who))
            rows.append((n, steps, py, cr))
            report(rows[-1:], header=len(rows) == 1)
            if state:
                state.unlink()
    print("load average after: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


def report(rows: list, header: bool) -> None:
    if header:
        print(
            "\n| N | engine | steps | runs | wall time per step (median) | "
            "steps/s | ball-steps/s | carom / pymunk | pymunk per CPU-second | "
            "pymunk bytes/ball | pymunk energy drift |"
        )
        print("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n, steps, py, cr in rows:
        p = statistics.median(r["seconds"] for r in py) / steps
        cpu = statistics.median(r["cpu_seconds"] for r in py) / steps
        mem = statistics.median(r["bytes_per_ball"] for r in py)
        drift = statistics.median(r["drift"] for r in py)
        print(
            f"| {n} | pymunk | {steps} | {len(py)} | {p * 1e3:.3f} ms | "
            f"{1 / p:.1f} | {n / p / 1e6:.3f} M | 1 | {n / cpu / 1e6:.3f} M | "
            f"{mem:.0f} | {drift:+.1e} |"
        )
        for t, runs in cr.items():
            c = statistics.median(r["seconds"] for r in runs) / steps
            print(
                f"| {n} | carom spring ({t} thread{'s' if t > 1 else ''}) | {steps} | "
                f"{len(runs)} | {c * 1e3:.3f} ms | {1 / c:.1f} | {n / c / 1e6:.3f} M | "
                f"{p / c:.1f}x | - | - | - |"
            )
        sys.stdout.flush()


if __name__ == "__main__":
    main()
