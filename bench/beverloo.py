"""The hopper's discharge rate against Beverloo's law for 2D silos.

Runs the `hopper` preset (about 3,000 frictional grains of mean diameter d = 1) with
the orifice in its floor opened to several widths D, measures the steady mass flow
rate W from the times the grains leave through the open bottom edge, and fits

    W = C rho sqrt(g) (D - k d)^(3/2)

(the 2D form: a mass per unit time through a slot, rho the bed's mass per unit area)
by least squares on W^(2/3), which is linear in D. Prints the table and the fit, and
writes a plot when matplotlib is installed.

    python3 bench/beverloo.py --exe target/release/carom [--plot docs/beverloo.png]
"""

import argparse
import json
import math
import subprocess
import sys
import tempfile
from pathlib import Path

WIDTHS = [5.0, 6.0, 8.0, 10.0, 12.0, 14.0]
FLOOR = 100.0
TABLE_WIDTH = 100.0
G = 10.0
D_MEAN = 1.0  # radii 0.55 and 0.45 in equal numbers, nearly


def run(exe: str, width: float, time: float, out: Path) -> dict:
    mid = TABLE_WIDTH / 2
    sets = [
        f"walls.0.points=[[0.0, {FLOOR}], [{mid - width / 2}, {FLOOR}]]",
        f"walls.1.points=[[{mid + width / 2}, {FLOOR}], [{TABLE_WIDTH}, {FLOOR}]]",
    ]
    args = [exe, "run", "hopper", "--time", str(time), "--out", str(out), "-q"]
    args += ["--threads", "2"]
    for s in sets:
        args += ["--set", s]
    subprocess.run(args, check=True)
    return json.loads(out.read_text())


def bulk_density(state: dict) -> float:
    """Mass per unit area of the grains still in the silo, over the bed's extent."""
    inside = [b for b in state["balls"] if "removed" not in b and b["y"] < FLOOR]
    ys = sorted(b["y"] for b in inside)
    top = ys[len(ys) // 50]  # the surface, past a few stray grains
    mass = sum(b["m"] for b in inside if b["y"] >= top)
    return mass / (TABLE_WIDTH * (FLOOR - top))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--exe", default="target/release/carom")
    ap.add_argument("--time", type=float, default=10.0)
    ap.add_argument(
        "--window", default="4,10", help="the times between which W is measured"
    )
    ap.add_argument("--plot", default=None, help="write a PNG of W against D here")
    a = ap.parse_args()
    t0, t1 = (float(x) for x in a.window.split(","))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for width in WIDTHS:
            state = run(a.exe, width, a.time, Path(tmp) / "s.json")
            gone = [b for b in state["balls"] if "removed" in b]
            mass = sum(b["m"] for b in gone if t0 <= b["removed"]["time"] < t1)
            rho = bulk_density(state)
            rows.append((width, mass / (t1 - t0), rho, len(gone)))
            print(f"D = {width:5.1f}: {len(gone)} grains out by t = {a.time}, "
                  f"W = {mass / (t1 - t0):.3f}", file=sys.stderr)
    rho = sum(r[2] for r in rows) / len(rows)
    # W^(2/3) = (C rho sqrt(g))^(2/3) (D - k d): a straight line in D.
    xs = [r[0] for r in rows]
    ys = [r[1] ** (2 / 3) for r in rows]
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    slope = sxy / sxx
    intercept = my - slope * mx
    k = -intercept / slope / D_MEAN
    c = slope**1.5 / (rho * math.sqrt(G))
    fit = [c * rho * math.sqrt(G) * max(x - k * D_MEAN, 0.0) ** 1.5 for x in xs]
    ss_res = sum((r[1] - f) ** 2 for r, f in zip(rows, fit, strict=True))
    mw = sum(r[1] for r in rows) / n
    ss_tot = sum((r[1] - mw) ** 2 for r in rows)
    r2 = 1 - ss_res / ss_tot
    print("| D / d | W (mass per time) | Beverloo fit | residual |")
    print("|---:|---:|---:|---:|")
    for r, f in zip(rows, fit, strict=True):
        print(f"| {r[0]:.0f} | {r[1]:.2f} | {f:.2f} | {(r[1] - f) / f:+.1%} |")
    print()
    print(f"bulk density rho = {rho:.4f} (mass per unit area), g = {G}")
    print(f"fit: C = {c:.3f}, k = {k:.3f}, R^2 = {r2:.4f}")
    if a.plot:
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            print("matplotlib is not installed: no plot", file=sys.stderr)
            return 0
        fig, ax = plt.subplots(figsize=(5, 3.5), dpi=120)
        ax.plot(xs, [r[1] for r in rows], "o", label="carom hopper (spring, mu = 0.5)")
        grid = [k * D_MEAN + i * (max(xs) + 1 - k * D_MEAN) / 100 for i in range(101)]
        law = [c * rho * math.sqrt(G) * (x - k * D_MEAN) ** 1.5 for x in grid]
        ax.plot(grid, law, "-", label=f"Beverloo: C = {c:.2f}, k = {k:.2f}")
        ax.set_xlabel("orifice width D / d")
        ax.set_ylabel("mass flow rate W")
        ax.legend()
        fig.tight_layout()
        fig.savefig(a.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
