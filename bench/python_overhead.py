"""Overhead of the Python package over the command line (issue 10, item 4).

1. `World.run` on the 100,000-ball gas against `carom run` on the same scene and
   steps: ball-steps per second of the stepping loop, as each reports it (the CLI's
   summary line; `World.run` timed around the call alone, loading excluded on both
   sides). Runs are interleaved in pairs, alternating which side goes first, so that a
   noisy shared machine slows both alike; medians are reported.
2. Reading `positions` of 1,000,000 balls: median time of one read.

    python bench/python_overhead.py [--carom target/release/carom] [--runs 5]

Use a release build of both (`cargo build --release -p carom-cli` and
`pip install .`, which builds in release mode).
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

import carom

ROOT = Path(__file__).resolve().parents[1]


def cli_rate(exe: str, n: int, steps: int, threads: int) -> float:
    out = subprocess.run(
        [
            exe,
            "run",
            "gas",
            "--set",
            f"generators.0.n={n}",
            "--steps",
            str(steps),
            "--threads",
            str(threads),
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    m = re.search(r"([0-9.]+(?:e[+-]?[0-9]+)?)\s*(M|k)?\s*ball-steps/s", out)
    if m is None:
        raise SystemExit(f"no ball-steps/s in the CLI's summary:\n{out}")
    scale = {"M": 1e6, "k": 1e3, None: 1.0}[m.group(2)]
    return float(m.group(1)) * scale


def py_rate_here(n: int, steps: int, threads: int) -> float:
    w = carom.World.load("gas", overrides={"generators.0.n": n}, threads=threads)
    t0 = time.perf_counter()
    w.run(steps=steps)
    return n * steps / (time.perf_counter() - t0)


def py_rate(n: int, steps: int, threads: int) -> float:
    # A fresh interpreter per run, as the CLI gets a fresh process: both sides start
    # from the same allocator and cache state, and only the stepping loop is timed.
    out = subprocess.run(
        [sys.executable, __file__, "--one", str(n), str(steps), str(threads)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return float(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--carom", default=str(ROOT / "target/release/carom"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--balls", type=int, default=100_000)
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--read-balls", type=int, default=1_000_000)
    ap.add_argument("--one", nargs=3, type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        print(py_rate_here(*args.one))
        return

    cli, py = [], []
    for k in range(args.runs):
        # Alternate which goes first, so that a drift of the machine's load within a
        # pair (or any cost of following the other) falls on both sides alike.
        if k % 2 == 0:
            cli.append(cli_rate(args.carom, args.balls, args.steps, args.threads))
            py.append(py_rate(args.balls, args.steps, args.threads))
        else:
            py.append(py_rate(args.balls, args.steps, args.threads))
            cli.append(cli_rate(args.carom, args.balls, args.steps, args.threads))
        print(
            f"run {k + 1}: CLI {cli[-1]:.4g}  Python {py[-1]:.4g} ball-steps/s",
            flush=True,
        )
    c, p = statistics.median(cli), statistics.median(py)
    print(
        f"gas, {args.balls} balls, {args.steps} steps, {args.threads} threads, "
        f"{args.runs} interleaved runs"
    )
    print(
        f"  CLI    median {c:.4g} ball-steps/s (min {min(cli):.4g}, max {max(cli):.4g})"
    )
    print(
        f"  Python median {p:.4g} ball-steps/s (min {min(py):.4g}, max {max(py):.4g})"
    )
    print(
        f"  Python / CLI = {p / c:.3f} (ratio of medians); median of the per-run "
        f"ratios {statistics.median(q / r for q, r in zip(py, cli, strict=True)):.3f}"
    )

    w = carom.World.load("gas", overrides={"generators.0.n": args.read_balls})
    reads = []
    for _ in range(21):
        t0 = time.perf_counter()
        a = w.positions
        reads.append(time.perf_counter() - t0)
        assert a.shape == (args.read_balls, 2)
    print(
        f"reading positions of {args.read_balls} balls: median "
        f"{statistics.median(reads) * 1e3:.2f} ms (min {min(reads) * 1e3:.2f}, "
        f"max {max(reads) * 1e3:.2f}) over {len(reads)} reads"
    )


if __name__ == "__main__":
    main()
