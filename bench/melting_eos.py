#!/usr/bin/env python3
"""The hard-disk melting equation of state (docs/dense.md): beta P sigma^2 of N =
side^2 monodisperse disks in a periodic box at area fractions 0.700 to 0.720, from a
crystal and from a liquid, against Engel et al. 2013.

    python3 bench/melting_eos.py [--side 64] [--time 5000] [--starts crystal melt]
                                 [--seed 1] [--jobs 2] [--out DIR]
    python3 bench/melting_eos.py --analyse DIR      # the table and plot again

Each (area fraction, start) is one run of `cargo run --release -p carom --example
melting_eos` (event model, no thermostat: elastic, so the temperature stays), run
`--jobs` at a time under `nice -n 19`, each writing one CSV row per block of one time
unit. `crystal` starts from the triangular lattice, `melt` from a liquid grown back to
the area fraction (see the example); `grid` is the gas generator's square grid in a
square box. The analysis drops the first `--drop` fraction of each run's blocks as
equilibration (half by default) and gives the mean of the rest with the error of a
blocking analysis (Flyvbjerg and Petersen 1989: the standard error of block means,
blocks doubled until fewer than 8 remain; the largest value is kept, the plateau that
the correlations reach). Equilibrium forgets the start: where the crystal's and the
liquid's pressures agree within their errors the point is equilibrated, and the two
are combined (weighted by their errors). Writes DIR/eos.md (the table) and DIR/eos.png
(pressure against time, and the equation of state against Engel et al.).
"""

import argparse
import csv
import math
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

FRACTIONS = [0.700, 0.704, 0.708, 0.712, 0.716, 0.720]
# Engel, Anderson, Glotzer, Isobe, Bernard and Krauth, Phys. Rev. E 87, 042134 (2013):
# beta P sigma^2 on their loop (event-driven molecular dynamics, N = 256^2 in a square
# box); HOOMD's own check: 9.1709 +- 0.0002 at 0.698.
ENGEL = [(0.698, 9.17059), (0.702, 9.19144), (0.714, 9.17563), (0.720, 9.22350)]
HOOMD = (0.698, 9.1709, 0.0002)


def read(path):
    """The blocks of one run, and its number of disks (from the header comment)."""
    rows, n = [], None
    with open(path) as f:
        lines = list(f)
    for line in lines:
        if line.startswith("# n = "):
            n = int(line[6:].split(",")[0])
    for r in csv.DictReader([line for line in lines if not line.startswith("#")]):
        rows.append({k: float(v) for k, v in r.items()})
    return rows, n


def blocking(values, least=8):
    """Mean and error by blocking: the standard error of the block means for blocks of
    1, 2, 4, ... values, while at least `least` blocks remain; the largest (the plateau
    the correlations reach, or the last level if they never do)."""
    x = list(values)
    n = len(x)
    if n < 2:
        return float("nan"), float("nan")
    mean = sum(x) / n
    err = 0.0
    while len(x) >= least:
        k = len(x)
        m = sum(x) / k
        var = sum((v - m) ** 2 for v in x) / (k - 1)
        err = max(err, math.sqrt(var / k))
        x = [0.5 * (x[2 * j] + x[2 * j + 1]) for j in range(k // 2)]
    return mean, err


def analyse(folder, drop):
    runs = {}
    for name in sorted(os.listdir(folder)):
        if not (name.startswith("eos_") and name.endswith(".csv")):
            continue
        parts = name[4:-4].split("_")
        phi = float(parts[0])
        start = parts[1] if len(parts) > 1 else "grid"
        seed = int(parts[2][1:]) if len(parts) > 2 else 1
        rows, n = read(os.path.join(folder, name))
        if rows:
            runs[(phi, start, seed)] = (rows, n)
    table = []
    for (phi, start, seed), (rows, n) in sorted(runs.items()):
        kept = rows[int(len(rows) * drop) :]
        p = [r["beta_p_sigma2"] for r in kept]
        m, e = blocking(p)
        half = len(p) // 2
        drift = sum(p[half:]) / max(len(p) - half, 1) - sum(p[:half]) / max(half, 1)
        psi = [r["psi6"] for r in kept if not math.isnan(r["psi6"])]
        psi6 = sum(psi) / len(psi) if psi else float("nan")
        coll = sum(r["collisions"] for r in rows)
        table.append(
            (phi, start, seed, n, rows[-1]["time"], 2 * coll / n, m, e, drift, psi6,
             rows[-1]["wall_s"])
        )
    lines = [
        "| area fraction | start | seed | N | time run | collisions per disk "
        "| beta P sigma^2 (kept blocks) | drift (second half - first) "
        "| psi6 | wall s |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for phi, st, seed, n, t, c, m, e, d, psi, ws in table:
        lines.append(
            f"| {phi:.3f} | {st} | {seed} | {n} | {t:.0f} | {c:.0f} "
            f"| {m:.4f} ± {e:.4f} | {d:+.4f} | {psi:.3f} | {ws:.0f} |"
        )
    # Per area fraction: each start's runs combined (weighted by their errors), the two
    # starts' difference over its error, and all runs together with the larger of the
    # weighted error and the scatter of the run means (which holds what the blocking
    # misses when runs disagree).
    combined = []

    def weighted(pts):
        w = [1 / t[7] ** 2 for t in pts]
        total = sum(wi * t[6] for wi, t in zip(w, pts, strict=True))
        return total / sum(w), sum(w) ** -0.5

    for phi in sorted({t[0] for t in table}):
        pts = [t for t in table if t[0] == phi and t[7] > 0]
        starts = sorted({t[1] for t in pts})
        if len(pts) < 2:
            continue
        m, e = weighted(pts)
        k = len(pts)
        means = [t[6] for t in pts]
        spread = math.sqrt(sum((x - m) ** 2 for x in means) / (k - 1) / k)
        gap = float("nan")
        if len(starts) == 2:
            (m1, e1), (m2, e2) = (
                weighted([t for t in pts if t[1] == st]) for st in starts
            )
            gap = abs(m1 - m2) / math.hypot(e1, e2)
        combined.append((phi, m, max(e, spread), gap, k))
    if combined:
        lines += [
            "",
            "| area fraction | runs | all runs combined "
            "| starts' difference / its error |",
            "|---:|---:|---:|---:|",
        ]
        for phi, m, e, gap, k in combined:
            lines.append(f"| {phi:.3f} | {k} | {m:.4f} ± {e:.4f} | {gap:.1f} |")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(folder, "eos.md"), "w") as f:
        f.write(text)
    print(text)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not found: no plot", file=sys.stderr)
        return
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.2))
    colours = {}
    for (phi, start, seed), (rows, _) in sorted(runs.items()):
        if seed != 1:
            continue
        c = colours.setdefault(phi, f"C{len(colours)}")
        step = max(1, len(rows) // 400)
        a.plot(
            [r["time"] for r in rows[::step]],
            [r["beta_p_sigma2"] for r in rows[::step]],
            "-" if start == "crystal" else ":",
            color=c,
            lw=0.7,
            label=f"{phi:.3f} {start}",
        )
    a.set_xlabel("time (sigma = 1, m = 1, kT about 1/3)")
    a.set_ylabel("beta P sigma^2 (per block)")
    a.set_title("pressure against time: crystal (solid), liquid (dotted)")
    a.legend(fontsize=6, ncol=2)
    for start, fmt in (("crystal", "o"), ("melt", "s"), ("grid", "x")):
        pts = [t for t in table if t[1] == start]
        if pts:
            b.errorbar(
                [t[0] + (0.0004 if start == "melt" else 0.0) for t in pts],
                [t[6] for t in pts], yerr=[t[7] for t in pts],
                fmt=fmt, ms=3, capsize=2, label=f"carom, N = {pts[0][3]}, from {start}",
            )
    if combined:
        b.errorbar([c[0] for c in combined], [c[1] for c in combined],
                   yerr=[c[2] for c in combined], fmt="k-", lw=1, capsize=3,
                   label="all runs combined")
    b.plot(
        [x for x, _ in ENGEL],
        [y for _, y in ENGEL],
        "s--",
        label="Engel et al. 2013, N = 256^2",
    )
    b.errorbar(
        [HOOMD[0]], [HOOMD[1]], yerr=[HOOMD[2]], fmt="^", label="HOOMD check (0.698)"
    )
    b.set_xlabel("area fraction")
    b.set_ylabel("beta P sigma^2")
    b.set_title("equation of state across melting")
    b.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(folder, "eos.png"), dpi=80)
    print(f"wrote {os.path.join(folder, 'eos.png')}")


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--side", type=int, default=64)
    ap.add_argument("--time", type=float, default=5000.0, help="time units per run")
    ap.add_argument("--starts", nargs="+", default=["crystal", "melt"])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--block", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="target/melting_eos")
    ap.add_argument(
        "--drop",
        type=float,
        default=0.5,
        help="fraction of blocks dropped as equilibration",
    )
    ap.add_argument(
        "--analyse", metavar="DIR", help="only make the table and plot from DIR"
    )
    a = ap.parse_args()
    if a.analyse:
        analyse(a.analyse, a.drop)
        return
    os.makedirs(a.out, exist_ok=True)
    subprocess.run(
        ["cargo", "build", "--release", "-p", "carom", "--example", "melting_eos"],
        check=True,
    )
    exe = os.path.join("target", "release", "examples", "melting_eos")
    t0 = time.time()

    def one(job):
        phi, start = job
        tag = "" if a.seed == 1 else f"_s{a.seed}"
        out = os.path.join(a.out, f"eos_{phi:.3f}_{start}{tag}.csv")
        cmd = ["nice", "-n", "19", exe, f"{phi}", out, "--side", str(a.side),
               "--time", str(a.time), "--start", start, "--block", str(a.block),
               "--seed", str(a.seed), "--psi6-every", "25"]
        subprocess.run(cmd, check=True)

    jobs = [(phi, st) for st in a.starts for phi in FRACTIONS]
    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        list(pool.map(one, jobs))
    print(f"runs took {time.time() - t0:.0f} s of wall-clock time")
    analyse(a.out, a.drop)


if __name__ == "__main__":
    main()
