#!/usr/bin/env python3
"""Benchmark rows for dense disks (docs/dense.md): collisions per CPU-second of the
event model on the plain gas, while compressing, and under Andersen's heat bath, and
the time to jam a bidisperse packing.

    python3 bench/dense_bench.py [--exe target/release/carom [OTHER ...]]
        [--n 10000 1000000] [--runs 3] [--rows plain compress andersen]
        [--jam-n 10000 100000] [--jam-runs 1] [--instructions] [--dt 1]
        [--time T]

Each gas row (per N in `--n`) is `--runs` runs of `carom run` (under `nice -n 19`) of
a scene written to a temporary folder; the CPU time is the child's user plus system
time, the collisions the summary's count, and the row gives the median of the runs.
The runs are interleaved: round k runs every row (and every binary given to `--exe`,
for a before/after comparison) once, so that load on the machine hits all alike.
`--jam-n 0` skips the jamming rows. `--dt` sets the gas rows' output interval (default
1): the compression puts the temperature back at each interval's end and so predicts
every ball afresh there, a cost per interval rather than per collision.

`--instructions` counts instructions instead of timing (valgrind's callgrind, one run
per row and binary at a twentieth and at a tenth of the duration; the difference of
the two runs, instructions over collisions, leaves out building the gas): the same
count on a loaded machine as on an idle one, where the timings of a shared machine
move by a third. It leaves out what memory costs (the misses that grow with N), so
it is the figure for 10^4, where the balls fit in the cache.

- plain: N unit disks on the jittered grid at area fraction 0.3, periodic box, event
  model, 4 * 10^6 / N time units (400 at 10^4, 4 at 10^6; about 0.69 collisions per
  disk per time, Enskog's rate), or `--time T`.
- compress: the same, `physics.compress = { rate = 0.0001 }` (the area fraction rises
  from 0.300 to 0.325 over 400 time units, to 0.3002 over 4).
- andersen: the same, `physics.thermostat = { kind = "andersen", temperature = 1/3,
  rate = 0.07 }` (kT = 1/3 is the gas's; 0.07 is a tenth of Enskog's collision
  frequency at 0.3, as in the `event-andersen/1` row of docs/performance.md).
- jam: for each N in `--jam-n`, N disks of the 50:50 1:1.4 mixture from 0.5 grown at
  rate 0.01 until Z passes 10^6 (the `jamming` preset's law), `--jam-runs` runs: CPU
  seconds to the stop.
"""

import argparse
import os
import re
import resource
import statistics
import subprocess
import tempfile

BIDISPERSE = 'radii = { kind = "bidisperse", ratio = 1.4, fraction = 0.5 }\n'
GAS = """name = "{name}"
duration = {duration}
[table]
boundary = "periodic"
[physics]
model = "event"
dt = {dt}
{extra}
[[generators]]
kind = "gas"
n = {n}
area_fraction = {phi}
{radii}seed = 1
"""


def cpu_run(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    m = re.search(r"^collisions\s+(\d+)", out, re.M)
    return cpu, int(m.group(1)) if m else 0, out


def instructions(exe, path, time):
    """Instructions and collisions of `carom run path --time time` under callgrind."""
    cmd = ["nice", "-n", "19", "valgrind", "--tool=callgrind"]
    cmd += ["--callgrind-out-file=/dev/null", exe, "run", path]
    cmd += ["--threads", "1", "--time", repr(time)]
    p = subprocess.run(cmd, capture_output=True, text=True, check=True)
    ins = re.search(r"Collected : (\d+)", p.stderr)
    col = re.search(r"^collisions\s+(\d+)", p.stdout, re.M)
    return int(ins.group(1)), int(col.group(1))


def count_rows(args, rows, paths, n, duration):
    """The `--instructions` table for one N."""
    plain = {}
    for name, _ in rows:
        for exe in args.exe:
            i1, c1 = instructions(exe, paths[name], duration / 20)
            i2, c2 = instructions(exe, paths[name], duration / 10)
            per = (i2 - i1) / max(c2 - c1, 1)
            plain.setdefault(exe, per)
            print(
                f"| {name} | {exe} | {n} | {c2 - c1} | {per:.0f} "
                f"| {plain[exe] / per:.2f} |"
            )


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--exe", nargs="+", default=["target/release/carom"])
    ap.add_argument("--n", type=int, nargs="+", default=[10000])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument(
        "--rows",
        nargs="+",
        default=["plain", "compress", "andersen"],
        choices=["plain", "compress", "andersen"],
    )
    ap.add_argument("--jam-n", type=int, nargs="+", default=[10000])
    ap.add_argument("--jam-runs", type=int, default=1)
    ap.add_argument("--instructions", action="store_true")
    ap.add_argument("--dt", type=float, default=1.0)
    ap.add_argument("--time", type=float, default=0.0)
    args = ap.parse_args()
    rows = [
        (name, extra)
        for name, extra in [
            ("plain", ""),
            ("compress", "compress = { rate = 0.0001 }"),
            (
                "andersen",
                'thermostat = { kind = "andersen", temperature = 0.3333333333333333, '
                "rate = 0.07, seed = 1 }",
            ),
        ]
        if name in args.rows
    ]
    load = os.getloadavg()[0]
    print(f"load average at the start: {load:.1f}")
    if args.instructions:
        print(
            "| scene | binary | N | collisions counted | instructions per collision "
            "| rate against plain |"
        )
        print("|---|---|---:|---:|---:|---:|")
    else:
        print(
            "| scene | binary | N | runs | collisions | CPU s (median) "
            "| collisions per CPU-s |"
        )
        print("|---|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as d:
        for n in args.n:
            duration = args.time if args.time else 4e6 / n
            paths = {}
            for name, extra in rows:
                paths[name] = os.path.join(d, name + ".toml")
                with open(paths[name], "w") as f:
                    f.write(
                        GAS.format(
                            name=name,
                            duration=duration,
                            extra=extra,
                            n=n,
                            phi=0.3,
                            radii="",
                            dt=args.dt,
                        )
                    )
            if args.instructions:
                count_rows(args, rows, paths, n, duration)
                continue
            res = {}
            for _ in range(args.runs):
                for name, _ in rows:
                    for exe in args.exe:
                        cmd = ["nice", "-n", "19", exe, "run", paths[name]]
                        cmd += ["--threads", "1"]
                        res.setdefault((name, exe), []).append(cpu_run(cmd))
            # Each binary's rates against its own plain gas (the first row's, if
            # plain was not asked for).
            plain = {}
            for name, _ in rows:
                for exe in args.exe:
                    r = res[(name, exe)]
                    rate = statistics.median(c / t for t, c, _ in r)
                    cpu = statistics.median(t for t, _, _ in r)
                    plain.setdefault(exe, rate)
                    print(
                        f"| {name} | {exe} | {n} | {args.runs} | {r[0][1]} "
                        f"| {cpu:.2f} | {rate / 1e3:.0f} k "
                        f"({rate / plain[exe]:.2f} of plain) |"
                    )
        for n in (n for n in args.jam_n if n > 0):
            path = os.path.join(d, "jam.toml")
            with open(path, "w") as f:
                f.write(
                    GAS.format(
                        name="jam",
                        duration=1e6,
                        extra="compress = { rate = 0.01, until = { pressure = 1e6 } }",
                        n=n,
                        phi=0.5,
                        radii=BIDISPERSE,
                        dt=0.5,
                    )
                )
            cmd = ["nice", "-n", "19", args.exe[0], "run", path, "--threads", "1"]
            res = [cpu_run(cmd) for _ in range(args.jam_runs)]
            phi = re.search(r"area fraction ([0-9.]+) at t", res[0][2])
            print(
                f"| jam (rate 0.01, to Z > 1e6) | {n} | {args.jam_runs} "
                f"| {res[0][1]} | "
                f"{statistics.median(t for t, _, _ in res):.2f} | phi_J "
                f"{phi.group(1) if phi else '?'} |"
            )
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
