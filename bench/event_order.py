"""The event model's speed against the order the balls are given in: the gas as the
generator lists it (row by row) and the same balls shuffled, each loaded from a state
file and run with `carom run STATE --model event --dt 1 --time T`.

Both runs make the same collisions (the shuffle changes no physics); the script checks
that, and reports the median wall time of each order over alternating runs and their
ratio. Several builds can be compared: their runs alternate too.

    python3 bench/event_order.py --exe target/release/carom [--exe other/carom] \
        [--n 1000000] [--time 4] [--runs 5]

Use release builds (`cargo build --release -p carom-cli`). The state files (about 170
and 125 MB at a million balls) are written to a temporary directory and removed.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from event_cli import timed_run


def one_run(exe: str, state: Path, time: float) -> tuple[int, float]:
    """Collisions and wall-clock seconds of one run (loading excluded, as the CLI
    reports it)."""
    return timed_run(exe, [str(state), "--time", str(time)])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--exe", action="append", required=True, help="a carom binary")
    p.add_argument("--n", type=int, default=1_000_000)
    p.add_argument("--time", type=float, default=4.0)
    p.add_argument("--runs", type=int, default=5)
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ordered = Path(tmp) / "ordered.json"
        subprocess.run(
            [a.exe[0], "run", "gas", "--model", "event", "--set",
             f"generators.0.n={a.n}", "--steps", "0", "--out", str(ordered), "-q"],
            check=True,
        )
        doc = json.loads(ordered.read_text())
        random.Random(1).shuffle(doc["balls"])
        shuffled = Path(tmp) / "shuffled.json"
        shuffled.write_text(json.dumps(doc))
        del doc
        walls: dict[tuple[str, str], list[float]] = {}
        counts: set[int] = set()
        for _ in range(a.runs):
            for exe in a.exe:
                for name, state in (("ordered", ordered), ("shuffled", shuffled)):
                    c, w = one_run(exe, state, a.time)
                    counts.add(c)
                    walls.setdefault((exe, name), []).append(w)
        if len(counts) != 1:
            sys.exit(f"the orders made different collision counts: {sorted(counts)}")
    print(f"{a.n} balls, {a.time} time units, {counts.pop()} collisions, "
          f"{a.runs} runs each")
    for exe in a.exe:
        o = statistics.median(walls[(exe, "ordered")])
        s = statistics.median(walls[(exe, "shuffled")])
        print(f"{exe}: ordered {o:.3f} s, shuffled {s:.3f} s (median wall time), "
              f"shuffled / ordered {s / o:.2f}")


if __name__ == "__main__":
    main()
