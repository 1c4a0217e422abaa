"""Collisions per second of the event model by the command line, as event-driven codes
publish them: `carom run gas --model event --set generators.0.n=N --dt 1` (the preset's
ten time units), collisions over the run's wall time as the CLI reports it (ball
generation and loading excluded, the start's predictions of every ball included).

Several builds can be compared side by side: their runs alternate, so that a noisy
shared machine slows all alike, and medians are reported.

    python3 bench/event_cli.py --exe target/release/carom [--exe other/carom] \
        [--n 10000,1000000] [--area 0.3,0.6] [--runs 5] [--time 10]

Use release builds (`cargo build --release -p carom-cli`).
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys


def one_run(exe: str, n: int, area: float, time: float) -> tuple[int, float]:
    """Collisions and wall-clock seconds of one run."""
    return timed_run(
        exe,
        [
            "gas",
            "--set",
            f"generators.0.n={n}",
            "--set",
            f"generators.0.area_fraction={area}",
            "--time",
            str(time),
        ],
    )


def timed_run(exe: str, args: list[str]) -> tuple[int, float]:
    """`carom run ARGS --model event --dt 1 --threads 1`: its collisions and its
    wall-clock seconds as the CLI reports them (loading excluded)."""
    out = subprocess.run(
        [exe, "run", *args, "--model", "event", "--dt", "1", "--threads", "1"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    collisions = re.search(r"^collisions\s+(\d+)", out, re.M)
    wall = re.search(r"^wall time\s+([0-9.e+-]+) s", out, re.M)
    if not (collisions and wall):
        sys.exit(f"unexpected output from {exe}:\n{out}")
    return int(collisions.group(1)), float(wall.group(1))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--exe", action="append", required=True, help="a carom binary")
    p.add_argument("--n", default="10000,1000000")
    p.add_argument("--area", default="0.3")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--time", type=float, default=10.0)
    a = p.parse_args()
    print("| N | area fraction | build | collisions | collisions/s, median | range |")
    print("|---:|---:|---|---:|---:|---:|")
    for n in (int(s) for s in a.n.split(",")):
        for area in (float(s) for s in a.area.split(",")):
            rates: dict[str, list[float]] = {e: [] for e in a.exe}
            counts: dict[str, int] = {}
            for r in range(a.runs):
                # Alternate which build goes first.
                order = a.exe if r % 2 == 0 else list(reversed(a.exe))
                for exe in order:
                    c, secs = one_run(exe, n, area, a.time)
                    counts[exe] = c
                    rates[exe].append(c / secs)
            for exe in a.exe:
                v = rates[exe]
                print(
                    f"| {n} | {area} | {exe} | {counts[exe]} | "
                    f"{statistics.median(v) / 1e6:.3f} M | "
                    f"{min(v) / 1e6:.3f}-{max(v) / 1e6:.3f} M |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
