#!/usr/bin/env python3
"""The mu(I) rheology of dense frictional disks in plane shear (docs/granular.md):
the effective friction mu = tau / P and the solid fraction phi against the inertial
number I = G d sqrt(rho / P), from steady shear in a Lees-Edwards box at constant
volume, fitted to the linear and the saturating laws and set beside da Cruz et al.
2005 and GDR MiDi 2004.

    python3 bench/mu_of_i.py [--n 1000] [--jobs 2] [--out target/mu_of_i]
    python3 bench/mu_of_i.py --phi 0.82 --rate 0.012 0.005   # only these set rates
    python3 bench/mu_of_i.py --analyse target/mu_of_i    # table, fits, plot again

The grains: N disks of radii uniform in [0.4, 0.6] (mean diameter d = 1), mass r^2
(areal density rho = 1 / pi), contact friction mu_p = 0.4, normal restitution 0.5,
spring model, stiffness k = 1e4. Each area fraction phi is placed by the `gas`
generator in a periodic box (above 0.6 it compresses the hard disks exactly to phi),
then loaded as a sheared box (`table.boundary = { x = "periodic", y = "sheared",
shear_rate = G }`) with the velocities given the streaming profile. In the rigid limit
a fixed phi fixes I, and P grows as G^2 (Bagnold), so G only sets the pressure scale:
a pilot strain of 1 measures P, and G is rescaled so that the pressure is near P* = k
/ (kappa d) with kappa = 2000 (overlaps about 1/kappa of a diameter: the quasi-rigid
regime). The run then shears to a strain of 3 (transient, dropped) and samples the
stress 300 times over a strain of 6. With --rate the rate is set instead of chosen:
above the frictional jamming point the contacts' overlap holds a pressure as G -> 0,
so a small set rate reaches I below 4e-3 (soft packings, kappa about 1000). The
default run adds three such points (SET_RATES) to the area fractions.

The stress is the pressure tensor of `carom.profiles` averaged over 8 slabs: the
contact part at the sampled instant plus the kinetic part about each slab's mean
velocity, so the imposed streaming (whose kinetic term m G^2 H^2 / 12 per grain would
otherwise swamp P at large I) adds nothing. P is half its trace, tau = -P_xy. Errors
are standard errors of ten consecutive batch means. Each run writes one JSON line;
the analysis fits mu = mu_s + b I and phi = phi_max - a I over I < 0.1 and
mu = mu_s + (mu_2 - mu_s) / (I0 / I + 1) over I <= 0.3 (the dense flows), and writes
OUT/mu_of_i.md and OUT/mu_of_i.png.
"""

import argparse
import json
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

FRACTIONS = [0.60, 0.66, 0.70, 0.74, 0.77, 0.79, 0.80, 0.805, 0.81, 0.815, 0.82, 0.825]
# (phi, G) run at a set rate by default as well: below I = 4e-3 (see --rate).
SET_RATES = [(0.82, 0.012), (0.82, 0.005), (0.818, 0.006)]
STRAIN_TRANSIENT = 3.0
STRAIN_SAMPLED = 6.0
SAMPLES = 300
K = 1.0e4
KAPPA = 2000.0
MU_P = 0.4
E_N = 0.5
RHO = 1.0 / math.pi
D = 1.0
BINS = 8
# da Cruz, Emam, Prochnow, Roux and Chevoir, Phys. Rev. E 72, 021309 (2005): 2D
# polydisperse disks, mu_p = 0.4, plane shear at imposed pressure; their fits,
# approximately: mu = mu_min + b I with mu_min ~ 0.25, b ~ 1.1; phi = phi_max - a I
# with phi_max ~ 0.81, a ~ 0.3 (I < ~0.2).
DA_CRUZ = {"mu_s": 0.25, "b": 1.1, "phi_max": 0.81, "a": 0.3}
# GDR MiDi, Eur. Phys. J. E 14, 341 (2004), and Jop, Forterre and Pouliquen (2006):
# glass beads (3D), inclined planes: mu_s ~ 0.38, mu_2 ~ 0.64, I0 ~ 0.28.
MIDI = {"mu_s": 0.38, "mu_2": 0.64, "I0": 0.28}


def scenario(n, phi, seed):
    return f"""
[table]
boundary = "periodic"
[physics]
model = "event"
dt = 1.0
[[generators]]
kind = "gas"
n = {n}
area_fraction = {phi}
r = 0.5
radii = {{ kind = "uniform", min = 0.4, max = 0.6 }}
speed = 0.1
seed = {seed}
"""


def sheared(state, g, dt, g_before=0.0):
    """The packing as a sheared spring box at rate g, its velocities given the
    streaming profile u_x = g (y - H / 2) in place of the one at g_before (so that
    the flow starts homogeneous, not from the sliding edges inwards)."""
    import carom

    s = dict(state)
    half = 0.5 * s["table"]["height"]
    s["balls"] = [
        dict(b, vx=b["vx"] + (g - g_before) * (b["y"] - half)) for b in s["balls"]
    ]
    s.pop("diagnostics", None)
    s.pop("model", None)
    s["time"] = 0.0
    s["steps"] = 0
    s["table"] = dict(s["table"])
    s["table"]["boundary"] = {"x": "periodic", "y": "sheared", "shear_rate": g}
    s["physics"] = {
        "model": "spring",
        "dt": dt,
        "stiffness": K,
        "restitution": E_N,
        "contact_friction": {"mu": MU_P},
    }
    return carom.World.load(s, threads=1)


def sample_stress(w):
    """The pressure tensor (xx, xy, yy) over the box, kinetic part about the slabs'
    mean velocities, and the slabs' mean x velocities."""
    import carom

    p = carom.profiles(w, axis="y", bins=BINS)
    return p["stress"].mean(axis=0), p["velocity"][:, 0].copy(), p["centers"].copy()


def batches(x, k=10):
    x = np.asarray(x)
    m = len(x) // k
    means = x[: m * k].reshape(k, m).mean(axis=1)
    return means.mean(), means.std(ddof=1) / math.sqrt(k)


def run_one(args):
    n, phi, seed, fixed_g = args
    import carom

    t0 = time.process_time()
    placed = carom.World.from_toml(scenario(n, phi, seed)).state()
    # The spring's contact time for the lightest pair (two radii 0.4, mass 0.16,
    # reduced mass 0.08), pi sqrt(m / k) at e = 1: 20 steps in it.
    dt = math.pi * math.sqrt(0.08 / K) / 20.0
    p_star = K / (KAPPA * D)
    # A guess of G for the pilot; the pilot's pressure corrects it (P ~ G^2).
    g = 0.05
    w = sheared(placed, g, dt)
    w.run(time=1.0 / g)
    ps = []
    for _ in range(20):
        w.run(time=0.05 / g)
        st, _, _ = sample_stress(w)
        ps.append(0.5 * (st[0] + st[2]))
    p_pilot = float(np.mean(ps))
    g_pilot = g
    # Floored at 2e-3 (I ~ 5e-4 at P*): a jammed packing's pressure does not fall
    # with G, and the run's cost grows as 1 / G.
    g = max(g * math.sqrt(p_star / max(p_pilot, 1e-12)), 2e-3)
    if fixed_g is not None:
        # A set rate (--rate): at an area fraction above the frictional jamming point
        # the contacts' elasticity holds a pressure as G -> 0, so I falls with G.
        g = fixed_g
    w = sheared(w.state(), g, dt, g_pilot)
    w.run(time=STRAIN_TRANSIENT / g)
    samples, vel, centers = [], [], None
    for _ in range(SAMPLES):
        w.run(time=STRAIN_SAMPLED / SAMPLES / g)
        st, vx, centers = sample_stress(w)
        samples.append(st)
        vel.append(vx)
    s = np.array(samples)
    p = 0.5 * (s[:, 0] + s[:, 2])
    tau = -s[:, 1]
    mu_t = tau / p
    pm, pe = batches(p)
    tm, te = batches(tau)
    mu = tm / pm
    mu_err = abs(mu) * math.hypot(te / tm if tm else 0.0, pe / pm)
    i_num = g * D * math.sqrt(RHO / pm)
    v = np.mean(vel, axis=0)
    slope = float(np.polyfit(centers, v, 1)[0])
    return {
        "phi": phi,
        "n": n,
        "G": g,
        "P": pm,
        "P_err": pe,
        "tau": tm,
        "mu": mu,
        "mu_err": mu_err,
        "mu_batch_mean": float(np.mean(mu_t)),
        "I": i_num,
        "kappa": K / (pm * D),
        "fixed_G": fixed_g is not None,
        "profile_slope_over_G": slope / g,
        "steps": w.steps,
        "cpu_s": time.process_time() - t0,
    }


def fit_linear(x, y):
    a = np.vstack([np.ones_like(x), x]).T
    coef, res, _, _ = np.linalg.lstsq(a, y, rcond=None)
    r = y - a @ coef
    s2 = (r @ r) / max(len(x) - 2, 1)
    cov = s2 * np.linalg.inv(a.T @ a)
    return coef, np.sqrt(np.diag(cov))


def fit_saturating(i, mu):
    """mu = mu_s + (mu_2 - mu_s) / (I0 / I + 1) by Gauss-Newton from a linear start."""
    p = np.array([mu.min(), mu.max() + 0.2, 0.3])
    for _ in range(200):
        ms, m2, i0 = p
        f = ms + (m2 - ms) / (i0 / i + 1.0)
        den = i0 / i + 1.0
        jac = np.vstack(
            [1.0 - 1.0 / den, 1.0 / den, -(m2 - ms) / (den**2 * i)]
        ).T
        step, *_ = np.linalg.lstsq(jac, mu - f, rcond=None)
        p = p + step
        p[2] = max(p[2], 1e-4)
        if np.abs(step).max() < 1e-12:
            break
    r = mu - (p[0] + (p[1] - p[0]) / (p[2] / i + 1.0))
    s2 = (r @ r) / max(len(i) - 3, 1)
    try:
        cov = s2 * np.linalg.inv(jac.T @ jac)
        err = np.sqrt(np.diag(cov))
    except np.linalg.LinAlgError:
        err = np.full(3, float("nan"))
    return p, err


def analyse(folder):
    rows = []
    with open(os.path.join(folder, "runs.jsonl")) as f:
        for line in f:
            rows.append(json.loads(line))
    rows.sort(key=lambda r: r["I"])
    i = np.array([r["I"] for r in rows])
    mu = np.array([r["mu"] for r in rows])
    phi = np.array([r["phi"] for r in rows])
    lines = [
        "| phi | G | P | kappa = k/(P d) | I | mu = tau/P | profile slope / G "
        "| steps | CPU s |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['phi']:.3f} | {r['G']:.4g}{' (set)' if r.get('fixed_G') else ''} | "
            f"{r['P']:.4g} ± {r['P_err']:.2g} | "
            f"{r['kappa']:.0f} | {r['I']:.3g} | {r['mu']:.4f} ± {r['mu_err']:.4f} | "
            f"{r['profile_slope_over_G']:.3f} | {r['steps']} | {r['cpu_s']:.0f} |"
        )
    low = i < 0.1
    # Runs at a set rate hold their area fraction above the rigid grains' jamming
    # point by the contacts' elastic overlap: a (phi, I) pair of soft grains, left out
    # of the fit of phi(I), which describes the rigid limit.
    free = low & ~np.array([bool(r.get("fixed_G")) for r in rows])
    out = "\n".join(lines) + "\n\n"
    if low.sum() >= 3 and free.sum() >= 3:
        (ms, b), (ems, eb) = fit_linear(i[low], mu[low])
        (pmax, ma), (epmax, ema) = fit_linear(i[free], phi[free])
        out += (
            f"Linear fits over I < 0.1 ({low.sum()} points): mu = {ms:.3f} (±{ems:.3f})"
            f" + {b:.2f} (±{eb:.2f}) I; phi = {pmax:.3f} (±{epmax:.3f}) - "
            f"{-ma:.2f} (±{ema:.2f}) I ({free.sum()} points at a pressure-chosen "
            "rate).\n"
        )
    else:
        ms = b = pmax = ma = float("nan")
    dense = i <= 0.3
    if dense.sum() >= 4:
        (s0, s2, i0), (e0, e2, ei0) = fit_saturating(i[dense], mu[dense])
        out += (
            f"Saturating fit over I <= 0.3 ({dense.sum()} points): mu_s = {s0:.3f} "
            f"(±{e0:.3f}), mu_2 = {s2:.3f} (±{e2:.3f}), I0 = {i0:.3f} (±{ei0:.3f}).\n"
        )
    else:
        s0 = s2 = i0 = float("nan")
    with open(os.path.join(folder, "mu_of_i.md"), "w") as f:
        f.write(out)
    print(out)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot", file=sys.stderr)
        return
    fig, (a, c) = plt.subplots(1, 2, figsize=(9, 3.6))
    fixed = np.array([bool(r.get("fixed_G")) for r in rows])
    err = np.array([r["mu_err"] for r in rows])
    a.errorbar(i, mu, yerr=err, fmt="o", ms=4, label="carom (spring, mu_p = 0.4)")
    if fixed.any():
        a.plot(i[fixed], mu[fixed], "o", ms=7, mfc="none", mec="k", label="set rate")
    x = np.logspace(math.log10(min(i.min(), 1e-3)), math.log10(max(i.max(), 0.3)), 100)
    if not math.isnan(ms):
        a.plot(x[x < 0.1], ms + b * x[x < 0.1], "-", label="linear fit")
    if not math.isnan(s0):
        a.plot(x, s0 + (s2 - s0) / (i0 / x + 1), "--", label="saturating fit")
    a.plot(x[x < 0.2], DA_CRUZ["mu_s"] + DA_CRUZ["b"] * x[x < 0.2], ":",
           label="da Cruz et al. 2005 (approx.)")
    a.plot(x, MIDI["mu_s"] + (MIDI["mu_2"] - MIDI["mu_s"]) / (MIDI["I0"] / x + 1),
           "-.", label="GDR MiDi / Jop 2006 (3D beads)")
    a.set_xscale("log")
    a.set_xlabel("inertial number I")
    a.set_ylabel("mu = tau / P")
    a.legend(fontsize=7)
    c.plot(i[~fixed], phi[~fixed], "o", ms=4, label="carom")
    if fixed.any():
        c.plot(i[fixed], phi[fixed], "o", ms=4, mfc="none", label="set rate (soft)")
    if not math.isnan(pmax):
        c.plot(x[x < 0.1], pmax + ma * x[x < 0.1], "-", label="linear fit")
    c.plot(x[x < 0.2], DA_CRUZ["phi_max"] - DA_CRUZ["a"] * x[x < 0.2], ":",
           label="da Cruz et al. 2005 (approx.)")
    c.set_xscale("log")
    c.set_xlabel("inertial number I")
    c.set_ylabel("solid fraction phi")
    c.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(folder, "mu_of_i.png"), dpi=90)
    print(f"wrote {os.path.join(folder, 'mu_of_i.png')}")


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--n", type=int, default=1000, help="grains")
    ap.add_argument("--jobs", type=int, default=2, help="runs at a time")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="target/mu_of_i")
    ap.add_argument("--phi", type=float, nargs="*", help="area fractions to run")
    ap.add_argument(
        "--rate", type=float, nargs="*",
        help="shear rates to run at each --phi instead of the one that puts P near P*",
    )
    ap.add_argument("--analyse", metavar="DIR", help="only the table, fits and plot")
    a = ap.parse_args()
    if a.analyse:
        analyse(a.analyse)
        return
    os.makedirs(a.out, exist_ok=True)
    fractions = a.phi or FRACTIONS
    path = os.path.join(a.out, "runs.jsonl")
    t0 = time.time()
    with ProcessPoolExecutor(max_workers=a.jobs) as pool:
        jobs = [(a.n, phi, a.seed, g) for phi in fractions for g in (a.rate or [None])]
        if not (a.phi or a.rate):
            jobs += [(a.n, phi, a.seed, g) for phi, g in SET_RATES]
        for r in pool.map(run_one, jobs):
            with open(path, "a") as f:
                f.write(json.dumps(r) + "\n")
            print(json.dumps(r), flush=True)
    print(f"{len(jobs)} runs in {time.time() - t0:.0f} s of wall time")
    analyse(a.out)


if __name__ == "__main__":
    main()
