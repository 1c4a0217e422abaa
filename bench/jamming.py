#!/usr/bin/env python3
"""Jamming and crystallisation by Lubachevsky-Stillinger compression (docs/dense.md).

    python3 bench/jamming.py [--n 1000] [--seeds 5] [--rates 0.1,0.01,0.001] [--out DIR]
    python3 bench/jamming.py --mono [--n 400] [--rates 0.1,0.01,0.001] [--out DIR]
    python3 bench/jamming.py --analyse DIR [--mono]   # the table and plot again

Each run is `carom run` (the release binary, `--exe`, built by `cargo build --release
-p carom-cli`) of a scene written into DIR: `n` disks in a periodic square box,
placed at area fraction 0.5 with speeds uniform in [-1, 1]^2, grown in the event model
at `rate` (every radius r0 (1 + rate t)) at the start's temperature until the reduced
pressure Z = P A / (N k T) passes 10^6: jammed. The default is the 50:50 mixture of
radii 1 and 1.4; `--mono` takes equal disks (radius 1, on the gas generator's jittered
square grid) for the crystallisation study. Runs go `--jobs` at a time under
`nice -n 19`.

From each run's state file the script reads the area fraction at the stop (phi_J)
and from its diagnostics CSV the area fraction and psi6 along the way. Writes
DIR/jamming.md (or DIR/crystal.md): per rate the runs' mean phi_J, the standard
deviation and standard error over seeds, the largest psi6 and the largest area
fraction; and DIR/jamming.png (or crystal.png): phi_J against the rate with O'Hern et
al.'s 0.842 (and pi / (2 sqrt 3) = 0.9069 for equal disks), and psi6 against the area
fraction along the runs.
"""

import argparse
import csv
import json
import math
import os
import subprocess
import sys
import time

OHERN = 0.842  # O'Hern, Silbert, Liu and Nagel, PRE 68, 011306 (2003): 50:50, 1:1.4
CRYSTAL = math.pi / (2.0 * math.sqrt(3.0))  # the triangular lattice, 0.9069


def scene(n, rate, seed, mono, dt):
    radii = (
        "" if mono else 'radii = { kind = "bidisperse", ratio = 1.4, fraction = 0.5 }\n'
    )
    return f"""name = "jamming"
duration = 1e6
[table]
boundary = "periodic"
[physics]
model = "event"
dt = {dt}
compress = {{ rate = {rate}, until = {{ pressure = 1e6 }} }}
[[generators]]
kind = "gas"
n = {n}
area_fraction = 0.5
{radii}speed = 1.0
seed = {seed}
"""


def tag(rate, seed):
    return f"rate{rate:g}_seed{seed}"


def run_all(args, rates, seeds):
    os.makedirs(args.out, exist_ok=True)
    todo = []
    for rate in rates:
        # About 200 samples per run: the growth to jamming (g from 1 to about 1.3)
        # takes 0.3 / rate.
        dt = round(0.3 / rate / 200, 6)
        for seed in seeds:
            t = tag(rate, seed)
            path = os.path.join(args.out, t + ".toml")
            with open(path, "w") as f:
                f.write(scene(args.n, rate, seed, args.mono, dt))
            cmd = [
                "nice",
                "-n",
                "19",
                args.exe,
                "run",
                path,
                "-q",
                "--out",
                os.path.join(args.out, t + ".json"),
                "--diagnostics",
                os.path.join(args.out, t + ".csv"),
            ]
            todo.append((t, cmd))
    running, started = [], {}
    while todo or running:
        while todo and len(running) < args.jobs:
            t, cmd = todo.pop(0)
            started[t] = time.time()
            running.append((t, subprocess.Popen(cmd)))
        for t, p in list(running):
            if p.poll() is not None:
                running.remove((t, p))
                wall = time.time() - started[t]
                with open(os.path.join(args.out, t + ".wall"), "w") as f:
                    f.write(f"{wall:.1f}\n")
                print(f"{t}: exit {p.returncode}, {wall:.0f} s", file=sys.stderr)
        time.sleep(0.5)


def read_run(folder, t):
    with open(os.path.join(folder, t + ".json")) as f:
        state = json.load(f)
    c = state["compression"]
    rows = []
    with open(os.path.join(folder, t + ".csv")) as f:
        for r in csv.DictReader(f):
            rows.append(
                (float(r["time"]), float(r["packing_fraction"]), float(r["psi6"]))
            )
    wall = float("nan")
    wpath = os.path.join(folder, t + ".wall")
    if os.path.exists(wpath):
        wall = float(open(wpath).read())
    return c, rows, wall


def analyse(folder, mono):
    runs = {}
    for name in sorted(os.listdir(folder)):
        if name.endswith(".json"):
            t = name[:-5]
            rate = float(t.split("_")[0][4:])
            runs.setdefault(rate, []).append((t, *read_run(folder, t)))
    what = "equal disks" if mono else "50:50 mixture of radii 1 and 1.4"
    lines = [
        f"Lubachevsky-Stillinger compression of {what} (event model) from area "
        "fraction 0.5 until Z > 10^6; per rate the mean over seeds of the area "
        "fraction at the stop, its standard deviation and the standard error of the "
        "mean, the "
        "largest psi6 and area fraction any run reached, and the runs' mean time and "
        "wall-clock time.",
        "",
        "| rate | runs | stopped | phi at the stop (mean) | std dev | std error | "
        "largest psi6 | largest phi | time | wall s |",
        "|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    summary = []
    for rate in sorted(runs, reverse=True):
        rs = runs[rate]
        phis = [c["area_fraction"] for _, c, _, _ in rs]
        stops = sorted({str(c["stopped"]) for _, c, _, _ in rs})
        m = sum(phis) / len(phis)
        sd = (
            math.sqrt(sum((p - m) ** 2 for p in phis) / (len(phis) - 1))
            if len(phis) > 1
            else float("nan")
        )
        se = sd / math.sqrt(len(phis))
        psi = max(max(r[2] for r in rows) for _, _, rows, _ in rs)
        top = max(max(r[1] for r in rows) for _, _, rows, _ in rs)
        tm = sum(c["time"] for _, c, _, _ in rs) / len(rs)
        wall = sum(w for _, _, _, w in rs) / len(rs)
        summary.append((rate, m, se, sd))
        lines.append(
            f"| {rate:g} | {len(rs)} | {', '.join(stops)} | {m:.4f} | {sd:.4f} "
            f"| {se:.4f} | {psi:.3f} | {top:.4f} | {tm:.1f} | {wall:.0f} |"
        )
    ref = f"pi / (2 sqrt 3) = {CRYSTAL:.4f}" if mono else f"O'Hern et al. 2003: {OHERN}"
    lines += ["", f"Reference: {ref}."]
    name = "crystal" if mono else "jamming"
    with open(os.path.join(folder, name + ".md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not found: no plot", file=sys.stderr)
        return
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4))
    for rate in sorted(runs):
        xs = [rate] * len(runs[rate])
        a.plot(xs, [c["area_fraction"] for _, c, _, _ in runs[rate]], "k.", alpha=0.4)
    a.errorbar(
        [s[0] for s in summary],
        [s[1] for s in summary],
        yerr=[s[2] for s in summary],
        fmt="o-",
        capsize=3,
        label="mean ± s.e.",
    )
    a.axhline(
        OHERN if not mono else CRYSTAL,
        color="r",
        ls="--",
        label="O'Hern et al. 2003: 0.842" if not mono else "triangular crystal 0.9069",
    )
    a.set_xscale("log")
    a.set_xlabel("growth rate")
    a.set_ylabel("area fraction at the stop (Z > 1e6)")
    a.legend()
    for rate in sorted(runs):
        _, _, rows, _ = runs[rate][0]
        b.plot([r[1] for r in rows], [r[2] for r in rows], label=f"rate {rate:g}")
    if mono:
        b.axvline(CRYSTAL, color="r", ls="--")
    b.set_xlabel("area fraction")
    b.set_ylabel("psi6")
    b.legend()
    fig.suptitle(f"Lubachevsky-Stillinger compression: {what}")
    fig.tight_layout()
    fig.savefig(os.path.join(folder, name + ".png"), dpi=80)


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--exe", default="target/release/carom")
    ap.add_argument("--n", type=int, default=None, help="disks (1000; 400 with --mono)")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--rates", default="0.1,0.01,0.001")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--mono", action="store_true")
    ap.add_argument("--out", default=None)
    ap.add_argument("--analyse", metavar="DIR")
    args = ap.parse_args()
    if args.analyse:
        analyse(args.analyse, args.mono)
        return
    args.n = args.n or (400 if args.mono else 1000)
    args.out = args.out or ("crystal-runs" if args.mono else "jamming-runs")
    rates = [float(r) for r in args.rates.split(",")]
    run_all(args, rates, list(range(1, args.seeds + 1)))
    analyse(args.out, args.mono)


if __name__ == "__main__":
    main()
