"""Two builds of `carom`, every benchmark row, side by side in one run.

Each row is one `carom` command (the benchmark gas under the spring model at 10^5 and
10^6 balls on one and two threads, the event gas at 10^4 and 10^6, the compressing and
the Andersen-bathed event gas, the sheared periodic box, the nine-ball search player's
shots). The two executables run that command alternately, `--rounds` times each, so that
a drift of the shared machine's speed falls on both alike. The figure per run is the
simulation's own clock from the summary's `wall time` line (building the scene and
writing files excluded) or, for `carom play`, the whole process's wall time. Printed per
row: both medians, and the median over rounds of the ratio old / new of each round's
pair (above 1: the new build is faster).

    python3 bench/side_by_side.py --old OLD/carom --new target/release/carom
    python3 bench/side_by_side.py --old A --new B --only event-1e4 --rounds 7
"""

from __future__ import annotations

import argparse
import re
import shlex
import statistics
import subprocess
import sys
import time

GAS = "run gas --set generators.0.n="
EVENT = "run gas --model event --set generators.0.n="
ROWS: dict[str, str] = {
    "spring-1e5-1t": GAS + "100000 --steps 600 --threads 1",
    "spring-1e5-2t": GAS + "100000 --steps 600 --threads 2",
    "spring-1e6-1t": GAS + "1000000 --steps 60 --threads 1",
    "spring-1e6-2t": GAS + "1000000 --steps 60 --threads 2",
    "event-1e4": EVENT + "10000 --time 200",
    "event-1e6": EVENT + "1000000 --time 2",
    "event-compress-1e4": EVENT
    + "10000 --dt 1 --time 200 --set 'physics.compress={ rate = 1e-5 }'",
    "event-andersen-1e4": EVENT
    + '10000 --dt 1 --time 200 --set \'physics.thermostat={ kind = "andersen",'
    + " temperature = 0.33, rate = 0.05, seed = 1 }'",
    "sheared-spring-1e4": GAS
    + '10000 --steps 4000 --threads 1 --set \'table.boundary={ x = "periodic",'
    + ' y = "sheared", shear_rate = 0.01 }\'',
    "pool-agent": "play nine-ball --agent --games 40 --noise none",
}

WALL = re.compile(r"^wall time\s+([0-9.eE+-]+) s", re.M)


def once(exe: str, args: list[str]) -> float:
    t0 = time.perf_counter()
    p = subprocess.run([exe, *args], capture_output=True, text=True)
    whole = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"{exe} {' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
    m = WALL.search(p.stdout)
    return float(m.group(1)) if m else whole


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--old", required=True, help="the build before the change")
    ap.add_argument("--new", required=True, help="the build after it")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--only", default="", help="comma-separated row names")
    a = ap.parse_args()
    rows = [r for r in ROWS if not a.only or r in a.only.split(",")]
    widths = (22, 10, 10, 8, 6, 6)
    head = ("row", "old (s)", "new (s)", "old/new", "min", "max")
    print(
        " ".join(
            h.rjust(w) if k else h.ljust(w)
            for k, (h, w) in enumerate(zip(head, widths, strict=True))
        )
    )
    for name in rows:
        args = shlex.split(ROWS[name])
        olds, news, ratios = [], [], []
        for k in range(a.rounds):
            # alternate which goes first, so neither always runs on a warmer machine
            pair = [(a.old, olds, "old"), (a.new, news, "new")]
            if k % 2:
                pair.reverse()
            got = {}
            for exe, into, which in pair:
                t = once(exe, args)
                into.append(t)
                got[which] = t
            ratios.append(got["old"] / got["new"])
        old, new = statistics.median(olds), statistics.median(news)
        r = statistics.median(ratios)
        print(
            f"{name:<22} {old:>10.4g} {new:>10.4g} "
            f"{r:>8.3f} {min(ratios):>6.3f} {max(ratios):>6.3f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
